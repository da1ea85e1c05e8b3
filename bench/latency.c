/* latency.c: what one warm mcp_price call costs, whole, on a context that
 * has priced the book before (the per-call tax of issue 31): the median of
 * R calls' wall clock after W warm-ups, beside the library's own
 * mcp_results_seconds, and the fastest call.
 *
 *   latency --market FILE --portfolio FILE [--paths N] [--backend B]
 *           [--repeats R] [--warm W] [--label TEXT]
 *
 * Prints one Markdown table row: label, trades, paths, median wall ms,
 * median library ms, fastest wall ms.  bench/latency.sh runs it over the
 * example book's product families, the grid books and the CLI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/common.h"

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int usage(void)
{
  fprintf(stderr, "usage: latency --market FILE --portfolio FILE [--paths N] [--backend B] "
                  "[--repeats R] [--warm W] [--label TEXT]\n");
  return 2;
}

int main(int argc, char **argv)
{
  const char *market = NULL, *book = NULL, *label = NULL, *backend = "auto";
  unsigned long long paths = 0;
  int repeats = 9, warm = 2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--market"))
      market = argv[i + 1];
    else if (!strcmp(argv[i], "--portfolio"))
      book = argv[i + 1];
    else if (!strcmp(argv[i], "--paths"))
      paths = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--backend"))
      backend = argv[i + 1];
    else if (!strcmp(argv[i], "--repeats"))
      repeats = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--warm"))
      warm = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--label"))
      label = argv[i + 1];
    else
      return usage();
  }
  if (argc % 2 == 0 || !market || !book || repeats < 1 || repeats > 64 || warm < 0)
    return usage();
  char err[512];
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_context *ctx = NULL;
  mcp_backend b;
  if (mcp_market_load(&m, market, err, sizeof err) != MCP_OK ||
      mcp_portfolio_load(&p, book, err, sizeof err) != MCP_OK) {
    fprintf(stderr, "latency: %s\n", err);
    return 1;
  }
  if ((paths && mcp_portfolio_set_paths(p, paths) != MCP_OK) ||
      mcp_backend_from_name(backend, &b) != MCP_OK || mcp_context_create(&ctx, b) != MCP_OK) {
    fprintf(stderr, "latency: bad --paths or --backend, or no such backend\n");
    return 1;
  }
  double wall[64], lib[64], best = 1e300;
  for (int i = -warm; i < repeats; i++) {
    mcp_results *r = NULL;
    double t0 = now();
    if (mcp_price(ctx, m, p, &r) != MCP_OK) {
      fprintf(stderr, "latency: %s\n", mcp_context_last_error(ctx));
      return 1;
    }
    double t = now() - t0;
    if (i >= 0) {
      wall[i] = t;
      lib[i] = mcp_results_seconds(r);
      best = t < best ? t : best;
    }
    mcp_results_destroy(r);
  }
  printf("| %s | %zu | %llu | %.3f | %.3f | %.3f |\n", label ? label : book,
         mcp_portfolio_size(p), (unsigned long long)mcp_portfolio_paths(p),
         1e3 * bench_median(wall, repeats), 1e3 * bench_median(lib, repeats), 1e3 * best);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return 0;
}
