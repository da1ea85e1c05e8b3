/* ncu_range.c: MARKET BOOK [GREEKS]: one warm pricing, then one between
 * cudaProfilerStart and cudaProfilerStop, for Nsight Compute's range replay
 * (ncu --replay-mode app-range): the metrics of a whole call's kernels as
 * they run together on the context's streams, where kernel replay measures
 * each alone (.ci/gpu-steps stalls).  The book's run object gives the run
 * options, as to mcprice price, on the CUDA backend; GREEKS: a list as
 * --greeks takes. */
#include <cuda_profiler_api.h>
#include <stdio.h>
#include "mcprice.h"

int main(int argc, char **argv)
{
  char err[1024] = "usage: ncu_range MARKET BOOK [GREEKS]";
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_run_options *o = NULL;
  mcp_context *c = NULL;
  mcp_greeks *g = NULL;
  int rc = 1;
  if (argc < 3 || argc > 4 || mcp_market_load(&m, argv[1], err, sizeof err) != MCP_OK ||
      mcp_portfolio_load_for(&p, m, argv[2], err, sizeof err) != MCP_OK ||
      mcp_run_options_load(&o, argv[2], err, sizeof err) != MCP_OK)
    goto done;
  if (mcp_run_options_set_backend(o, MCP_BACKEND_CUDA) != MCP_OK ||
      mcp_context_create_with_options(&c, o, err, sizeof err) != MCP_OK)
    goto done;
  if (argc == 4 && (mcp_greeks_create(&g) != MCP_OK || mcp_greeks_parse(g, argv[3]) != MCP_OK)) {
    snprintf(err, sizeof err, "%s", g ? mcp_greeks_last_error(g) : mcp_last_error());
    goto done;
  }
  for (int k = 0; k < 2; k++) {
    mcp_results *r = NULL;
    if (k && cudaProfilerStart() != cudaSuccess) {
      snprintf(err, sizeof err, "cudaProfilerStart failed");
      goto done;
    }
    mcp_status s = g ? mcp_price_greeks(c, m, p, g, &r) : mcp_price(c, m, p, &r);
    if (k)
      cudaProfilerStop();
    mcp_results_destroy(r);
    if (s != MCP_OK) {
      snprintf(err, sizeof err, "%s", mcp_context_last_error(c));
      goto done;
    }
  }
  rc = 0;
done:
  if (rc)
    fprintf(stderr, "ncu_range: %s\n", err);
  mcp_greeks_destroy(g);
  mcp_context_destroy(c);
  mcp_run_options_destroy(o);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return rc;
}
