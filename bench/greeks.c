/* greeks.c: what the Greeks cost next to the price, through the public API.
 *
 * Prices a book (default the example book) alone, with the five Greeks
 * delta, gamma, vega, rho and theta, and with the four of issue 16's target
 * (delta, gamma, vega, rho: at most 3 prices), each call repeated R times after a
 * warm-up, and reports the median seconds of each (mcp_results_seconds: the
 * whole call, planning included) and their ratio; with --each, also the
 * price with one Greek at a time, and a 3 x 3 scenario grid (spot -1%, 0,
 * +1% by volatility -0.01, 0, +0.01; wall clock), whose 9 points share one
 * run's normals.  The target of issue 7 is a ratio of at most 3 for the five.
 *
 *   greeks [--market FILE] [--portfolio FILE] [--backend auto|cpu|cuda]
 *          [--paths N] [--repeats R] [--each]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/common.h"

static int fail(const char *what, const char *why)
{
  fprintf(stderr, "greeks: %s: %s\n", what, why);
  return 1;
}

/* The median seconds of reps calls, after a warm-up; -1 on failure. */
static double timed(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                    const char *list, int reps)
{
  double t[64];
  mcp_greeks *g = NULL;
  if (list && (mcp_greeks_create(&g) != MCP_OK || mcp_greeks_parse(g, list) != MCP_OK))
    return -1;
  for (int i = -1; i < reps; i++) {
    mcp_results *r = NULL;
    mcp_status st = g ? mcp_price_greeks(ctx, m, p, g, &r) : mcp_price(ctx, m, p, &r);
    if (st != MCP_OK) {
      fail("pricing", mcp_context_last_error(ctx));
      mcp_greeks_destroy(g);
      return -1;
    }
    if (i >= 0)
      t[i] = mcp_results_seconds(r);
    mcp_results_destroy(r);
  }
  mcp_greeks_destroy(g);
  return bench_median(t, reps);
}

static double wall(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The median seconds of reps scenario grids, after a warm-up. */
static double timed_grid(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p, int reps)
{
  static const double spot[3] = {-0.01, 0, 0.01}, vol[3] = {-0.01, 0, 0.01};
  double t[64];
  mcp_scenarios *s = NULL;
  if (mcp_scenarios_create(&s) != MCP_OK ||
      mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 3, spot) != MCP_OK ||
      mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 3, vol) != MCP_OK) {
    mcp_scenarios_destroy(s);
    return -1;
  }
  for (int i = -1; i < reps; i++) {
    mcp_scenario_results *r = NULL;
    double t0 = wall();
    if (mcp_price_scenarios(ctx, m, p, s, &r) != MCP_OK) {
      fail("scenarios", mcp_context_last_error(ctx));
      mcp_scenarios_destroy(s);
      return -1;
    }
    if (i >= 0)
      t[i] = wall() - t0;
    mcp_scenario_results_destroy(r);
  }
  mcp_scenarios_destroy(s);
  return bench_median(t, reps);
}

int main(int argc, char **argv)
{
  const char *mfile = "examples/market.json", *pfile = "examples/book.json";
  mcp_backend backend = MCP_BACKEND_AUTO;
  unsigned long long paths = 0;
  int reps = 3, each = 0;
  for (int i = 1; i < argc; i++) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(argv[i], "--each") == 0)
      each = 1;
    else if (v && strcmp(argv[i], "--market") == 0)
      mfile = argv[++i];
    else if (v && strcmp(argv[i], "--portfolio") == 0)
      pfile = argv[++i];
    else if (v && strcmp(argv[i], "--backend") == 0 && mcp_backend_from_name(v, &backend) == MCP_OK)
      i++;
    else if (v && strcmp(argv[i], "--paths") == 0 && (paths = strtoull(v, NULL, 10)) > 1)
      i++;
    else if (v && strcmp(argv[i], "--repeats") == 0 && (reps = atoi(v)) >= 1 && reps <= 64)
      i++;
    else
      return fail(argv[i], "usage: greeks [--market FILE] [--portfolio FILE] [--backend NAME] "
                           "[--paths N] [--repeats 1-64] [--each]");
  }
  char err[1024] = "";
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_context *ctx = NULL;
  if (mcp_market_load(&m, mfile, err, sizeof err) != MCP_OK)
    return fail(mfile, err);
  if (mcp_portfolio_load(&p, pfile, err, sizeof err) != MCP_OK)
    return fail(pfile, err);
  if (paths)
    mcp_portfolio_set_paths(p, paths);
  if (mcp_context_create(&ctx, backend) != MCP_OK)
    return fail("backend", "unavailable");
  printf("# Greeks against the price: %s, %s, %llu paths, backend %s, median of %d\n", mfile,
         pfile, (unsigned long long)mcp_portfolio_paths(p),
         mcp_backend_name(mcp_context_backend(ctx)), reps);
  static const char *const rows[] = {"delta,gamma,vega,rho,theta", "delta,gamma,vega,rho",
                                     "delta", "gamma", "vega", "rho", "theta", "delta,gamma",
                                     "all"};
  double base = timed(ctx, m, p, NULL, reps);
  if (base < 0)
    return 1;
  printf("| run | ms | / price |\n|---|---:|---:|\n| price alone | %.2f | 1.00 |\n", 1e3 * base);
  for (size_t k = 0; k < (each ? sizeof rows / sizeof *rows : 2); k++) {
    double t = timed(ctx, m, p, rows[k], reps);
    if (t < 0)
      return 1;
    printf("| price + %s | %.2f | %.2f |\n", rows[k], 1e3 * t, t / base);
  }
  if (each) {
    double t = timed_grid(ctx, m, p, reps);
    if (t < 0)
      return 1;
    printf("| scenario grid, 9 points | %.2f | %.2f |\n", 1e3 * t, t / base);
  }
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return 0;
}
