/* fuzz_market.c: libFuzzer target for the market loader (mcp_market_load);
 * a market that loads is also priced against a one-trade book, which runs
 * the models' checks and steps on what the loader accepted. */
#include "tests/fuzz/fuzz_input.h"
#include "src/inputs/market.h" /* the underlyings' names */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  char err[512] = "";
  mcp_market *m = NULL;
  mcp_status st = mcp_market_load(&m, fuzz_file(data, n), err, sizeof err);
  fuzz_check_message(st, err);
  if (st == MCP_OK) {
    mcp_context *ctx = NULL;
    mcp_portfolio *p = NULL;
    mcp_results *r = NULL;
    if (mcp_context_create(&ctx, MCP_BACKEND_CPU) == MCP_OK && mcp_portfolio_create(&p) == MCP_OK &&
        mcp_portfolio_set_paths(p, 64) == MCP_OK) {
      /* every underlying under one European each */
      char id[32];
      for (size_t i = 0; i < m->n && i < 8; i++) {
        snprintf(id, sizeof id, "t%zu", i);
        mcp_portfolio_add_european(p, id, m->u[i].name, MCP_CALL, 100, 1, 1);
      }
      if (mcp_price(ctx, m, p, &r) != MCP_OK && !mcp_context_last_error(ctx)[0])
        abort();
    }
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_context_destroy(ctx);
  }
  mcp_market_destroy(m);
  return 0;
}
