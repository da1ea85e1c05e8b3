/* fuzz_csv.c: libFuzzer target for the CSV readers: each input read as a
 * book of trades (mcp_portfolio_load_text of a .csv name) and as quotes
 * (mcp_quotes_load_text), in a dated market of the names the seeds use; a
 * failure must say why. */
#include "tests/fuzz/fuzz_input.h" /* first: its _GNU_SOURCE */
#include <string.h>

static mcp_market *seed_market(void)
{
  static const char text[] =
      "{\"valuation_date\": \"2026-11-30\", \"rate\": 0.03, \"underlyings\": [\n"
      " {\"name\": \"ACME\", \"spot\": 100, \"volatility\": 0.2},\n"
      " {\"name\": \"BOLT\", \"spot\": 40, \"volatility\": 0.4},\n"
      " {\"name\": \"HELIX\", \"model\": \"heston\", \"spot\": 80, \"v0\": 0.04, \"kappa\": 1.5,\n"
      "  \"theta\": 0.05, \"xi\": 0.8, \"rho\": -0.8}]}";
  mcp_market *m = NULL;
  char err[256];
  if (mcp_market_load_text(&m, "market.json", text, strlen(text), err, sizeof err) != MCP_OK)
    abort();
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  static mcp_market *m;
  if (!m)
    m = seed_market();
  char err[512] = "";
  mcp_portfolio *p = NULL;
  mcp_status st = mcp_portfolio_load_text_for(&p, m, "fuzz.csv", (const char *)data, n, err,
                                              sizeof err);
  fuzz_check_message(st, err);
  mcp_portfolio_destroy(p);
  mcp_quotes q;
  err[0] = '\0';
  st = mcp_quotes_load_text("fuzz.csv", (const char *)data, n, m, &q, err, sizeof err);
  fuzz_check_message(st, err);
  if (st == MCP_OK)
    mcp_quotes_free(&q);
  return 0;
}
