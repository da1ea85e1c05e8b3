/* lsm.c: the Longstaff-Schwartz benchmark: an American put (S 100, K 100,
 * r 5%, vol 20%, 1 year), 200,000 priced paths x 50 exercise dates, on the
 * GPU and the CPU, whole mcp_price calls (medians after a warm-up), by
 * regression paths.  The split, from runs that leave a part out: a Bermudan
 * of one date (the priced paths through the same kernel, with the exercise
 * test, no regression dates), and the American with a regression on 256
 * paths (the fit's 49 dates at their fixed cost, kernel launches); the rest
 * of the American's time is the fit's work on its regression paths.  A
 * European on the same 50 steps (the plain kernel) is beside them.  The
 * grid's American price is the reference.  Prints a Markdown table. */
#include <stdio.h>
#include "bench/common.h"

#define REPEATS 9
#define PATHS 200000
#define DATES 50

/* A portfolio of the put, an American or a European, on the engine. */
static mcp_portfolio *put(mcp_product product, mcp_engine engine)
{
  mcp_portfolio *p;
  mcp_portfolio_create(&p);
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "put";
  t.product = product;
  t.type = MCP_PUT;
  t.underlying = "U";
  t.strike = 100;
  t.maturity = 1;
  t.engine = engine;
  if (product == MCP_PRODUCT_AMERICAN && engine == MCP_ENGINE_MC)
    t.exercises = DATES;
  if (product == MCP_PRODUCT_BERMUDAN) { /* one date: the maturity */
    t.nfixings = 1;
    t.fixings = &t.maturity;
  }
  if (mcp_portfolio_add_trade(p, &t) != MCP_OK)
    fprintf(stderr, "lsm: %s\n", mcp_portfolio_last_error(p));
  return p;
}

/* Median seconds of pricing one put of the product by Monte Carlo (an
 * American exercising at DATES dates, regression on fit paths), or a
 * negative number on failure. */
static double time_one(mcp_backend b, const mcp_market *m, mcp_product product, uint64_t fit,
                       double *price)
{
  mcp_context *ctx;
  if (mcp_context_create(&ctx, b) != MCP_OK)
    return -1;
  mcp_portfolio *p = put(product, MCP_ENGINE_MC);
  mcp_portfolio_set_paths(p, PATHS);
  mcp_portfolio_set_steps_per_year(p, DATES); /* the European's steps: the dates */
  mcp_portfolio_set_regression_paths(p, fit);
  double s = bench_time_price(ctx, m, p, 1, REPEATS, price, "lsm");
  mcp_portfolio_destroy(p);
  mcp_context_destroy(ctx);
  return s;
}

int main(void)
{
  static const struct { const char *name; mcp_backend b; } engines[] = {
#ifdef MCP_HAVE_CUDA
      {"cuda", MCP_BACKEND_CUDA},
#endif
      {"cpu", MCP_BACKEND_CPU},
  };
  mcp_market *m;
  mcp_market_create(&m);
  mcp_market_add_black_scholes(m, "U", 100, 0.05, 0, 0.2);
  /* the reference: the grid's American */
  mcp_context *ctx;
  mcp_results *r = NULL;
  mcp_estimate grid = {0};
  mcp_context_create(&ctx, MCP_BACKEND_CPU);
  mcp_portfolio *p = put(MCP_PRODUCT_AMERICAN, MCP_ENGINE_PDE);
  if (mcp_price(ctx, m, p, &r) == MCP_OK)
    mcp_results_trade(r, 0, &grid);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_context_destroy(ctx);
  printf("# lsm: American put S 100 K 100 r 5%% vol 20%% T 1, %d paths x %d exercise dates,\n"
         "# double, medians of %d; the grid's American: %.6f\n\n",
         PATHS, DATES, REPEATS, grid.price);
  printf("| engine | regression paths | American (ms) | Bermudan, 1 date (ms) | "
         "fit on 256 paths (ms) | fit's dates, fixed (ms) | fit's work (ms) | "
         "European, plain kernel (ms) | price |\n"
         "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  static const uint64_t fits[] = {65536, PATHS};
  for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
    double pe, p1, p0;
    double te = time_one(engines[e].b, m, MCP_PRODUCT_EUROPEAN, 0, &pe);
    double t1 = time_one(engines[e].b, m, MCP_PRODUCT_BERMUDAN, 256, &p1);
    double t0 = time_one(engines[e].b, m, MCP_PRODUCT_AMERICAN, 256, &p0);
    for (size_t f = 0; f < sizeof fits / sizeof *fits; f++) {
      double pa, ta = time_one(engines[e].b, m, MCP_PRODUCT_AMERICAN, fits[f], &pa);
      if (ta < 0 || te < 0 || t0 < 0 || t1 < 0)
        continue;
      printf("| %s | %llu | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.6f |\n",
             engines[e].name, (unsigned long long)fits[f], ta * 1e3, t1 * 1e3, t0 * 1e3,
             (t0 - t1) * 1e3, (ta - t0) * 1e3, te * 1e3, pa);
    }
  }
  mcp_market_destroy(m);
  return 0;
}
