/* fuzz_portfolio.c: libFuzzer target for the portfolio loader
 * (mcp_portfolio_load); a portfolio that loads is also priced, with few
 * paths, a small regression and a small grid, in a market of the names the
 * fuzzer's seeds use, which runs the planner's checks on what the loader
 * accepted. */
#include "tests/fuzz/fuzz_input.h"

static mcp_market *seed_market(void)
{
  static const char *const names[] = {"ACME", "BOLT", "CRUX", "HELIX", "JOLT", "Globex", "U",
                                      "X", "Y", "A", "B", "FLAT"};
  mcp_market *m = NULL;
  if (mcp_market_create(&m) != MCP_OK)
    abort();
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (i == 3 ? mcp_market_add_heston(m, names[i], 100, 0.03, 0.01, 0.04, 1.5, 0.04, 0.5, -0.7)
               : mcp_market_add_black_scholes(m, names[i], 50 + 10 * i, 0.03, 0.01, 0.25))
      abort();
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  static mcp_market *m;
  if (!m)
    m = seed_market();
  char err[512] = "";
  const char *file = fuzz_file(data, n);
  mcp_portfolio *p = NULL;
  mcp_run_options *o = NULL;
  mcp_status st = mcp_portfolio_load(&p, file, err, sizeof err);
  fuzz_check_message(st, err);
  if (st == MCP_OK) {
    err[0] = '\0';
    st = mcp_run_options_load(&o, file, err, sizeof err);
    fuzz_check_message(st, err);
    if (st != MCP_OK) /* the portfolio's reader took the run object */
      abort();
  }
  if (st == MCP_OK) {
    /* a bounded run whatever the file asked for: its settings stay, but few
     * paths, a step a year (the fewest that Heston and local volatility
     * take) and a small grid (the fuzzer's time limit) */
    mcp_pde_settings s;
    mcp_run_options_pde(o, &s);
    s.space_points = 64;
    s.time_steps = 32;
    mcp_context *ctx = NULL;
    mcp_results *r = NULL;
    if (mcp_portfolio_set_paths(p, 32) == MCP_OK &&
        mcp_portfolio_set_regression_paths(p, 256) == MCP_OK &&
        mcp_portfolio_set_steps_per_year(p, 1) == MCP_OK &&
        mcp_run_options_set_pde(o, &s) == MCP_OK &&
        mcp_run_options_set_backend(o, MCP_BACKEND_CPU) == MCP_OK &&
        mcp_context_create_with_options(&ctx, o, NULL, 0) == MCP_OK && mcp_portfolio_size(p) <= 64 &&
        mcp_price(ctx, m, p, &r) != MCP_OK && !mcp_context_last_error(ctx)[0])
      abort();
    mcp_results_destroy(r);
    mcp_context_destroy(ctx);
  }
  mcp_run_options_destroy(o);
  mcp_portfolio_destroy(p);
  return 0;
}
