/* ncu_range.c: MARKET BOOK [GREEKS]: one warm pricing, then one between
 * cudaProfilerStart and cudaProfilerStop, for Nsight Compute's range replay
 * (ncu --replay-mode app-range): the metrics of a whole call's kernels as
 * they run together on the context's streams, where kernel replay measures
 * each alone (.ci/gpu-steps stalls).  GREEKS: a list as --greeks takes. */
#include <cuda_profiler_api.h>
#include <stdio.h>
#include "mcprice.h"

int main(int argc, char **argv)
{
  char err[512] = "usage: ncu_range MARKET BOOK [GREEKS]";
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_context *c = NULL;
  mcp_greeks *g = NULL;
  int rc = 1;
  if (argc < 3 || argc > 4 || mcp_market_load(&m, argv[1], err, sizeof err) != MCP_OK ||
      mcp_portfolio_load(&p, argv[2], err, sizeof err) != MCP_OK)
    goto done;
  if (mcp_context_create(&c, MCP_BACKEND_CUDA) != MCP_OK) {
    snprintf(err, sizeof err, "ncu_range: no CUDA context (a GPU and a CUDA build)");
    goto done;
  }
  if (argc == 4 && (mcp_greeks_create(&g) != MCP_OK || mcp_greeks_parse(g, argv[3]) != MCP_OK)) {
    snprintf(err, sizeof err, "ncu_range: %s", g ? mcp_greeks_last_error(g) : "no memory");
    goto done;
  }
  for (int k = 0; k < 2; k++) {
    mcp_results *r = NULL;
    if (k)
      cudaProfilerStart();
    mcp_status s = g ? mcp_price_greeks(c, m, p, g, &r) : mcp_price(c, m, p, &r);
    if (k)
      cudaProfilerStop();
    mcp_results_destroy(r);
    if (s != MCP_OK) {
      snprintf(err, sizeof err, "ncu_range: %s", mcp_context_last_error(c));
      goto done;
    }
  }
  rc = 0;
done:
  if (rc)
    fprintf(stderr, "%s\n", err);
  mcp_greeks_destroy(g);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return rc;
}
