/* stac_a2.c: the shape of the STAC-A2 risk benchmark: an option on a basket
 * of correlated Heston assets, priced with its deltas, gammas, cross gammas
 * and vegas (an asset each), warm.  Two sizes: 5 assets x 25,000 paths x 252
 * daily steps (a year), and 10 assets x 100,000 paths x 1,260 steps (five
 * years); the published audited figures for 4 A100 GPUs are 0.018 s and
 * 1.4 s.  Whole mcp_price_greeks calls (medians after a warm-up), and for
 * the split the price alone (mcp_price) and the price with the vegas alone
 * (the deltas, gammas and cross gammas are estimated on the price's own
 * paths by scaling, models/products/greeks.h; each vega revalues the paths with one
 * asset's volatility shifted up and down).  Then STAC-A2's own shape: an
 * American put on the basket (Longstaff-Schwartz, an exercise date a
 * step), priced alone, with every delta, gamma, cross gamma, vega, rho and
 * theta (under the base run's exercise rule: the spot Greeks on the price's
 * paths scaled, models/products/lsm_greeks.h, the others by revaluations);
 * the targets are 9 ms and 0.7 s with all of them.  Both also with
 * STAC-A2's own list (deltas, gammas, cross gammas, model vegas,
 * correlation vegas, rho, theta) with buckets: their deltas, vegas, rho
 * pieces and correlations by adjoint (the several-Heston sweep,
 * models/products/adjoint.h; the American's through its frozen exercise
 * rule, each path from its exercise date).  Prints
 * Markdown tables (--small: the small shape's rows alone, a GPU lease's
 * seconds kept); --profile prices the large shape once, --profile-american
 * LIST [large] the small (or large) American with LIST's Greeks (for ncu),
 * and --american-numbers [large] prints every number of the American's
 * price and of its price with STAC-A2's list at 17 digits, so that two
 * builds' bits can be compared (diff). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench/common.h"

#define MAX_N 10

/* n Heston assets, their spots' correlations 0.3, their variances' 0.2,
 * each spot's with its own variance its rho, -0.6 (the others 0): positive
 * definite for any n here. */
static mcp_market *market(int n)
{
  mcp_market *m;
  char names[2 * MAX_N][24];
  const char *ptr[2 * MAX_N];
  double c[4 * MAX_N * MAX_N];
  mcp_market_create(&m);
  for (int i = 0; i < n; i++) {
    snprintf(names[2 * i], sizeof names[0], "S%d", i);
    snprintf(names[2 * i + 1], sizeof names[0], "S%d:variance", i);
    if (mcp_market_add_heston(m, names[2 * i], 100 + 10 * i, 0.02, 0.01 * (i % 3),
                              0.04 + 0.005 * i, 1.5 + 0.1 * i, 0.05, 0.4, -0.6) != MCP_OK)
      fprintf(stderr, "stac_a2: %s\n", mcp_market_last_error(m));
  }
  for (int p = 0; p < 2 * n; p++) {
    ptr[p] = names[p];
    for (int q = 0; q < 2 * n; q++)
      c[p * 2 * n + q] = p == q                    ? 1
                         : p / 2 == q / 2          ? -0.6
                         : p % 2 == 0 && q % 2 == 0 ? 0.3
                         : p % 2 == 1 && q % 2 == 1 ? 0.2
                                                    : 0;
  }
  if (mcp_market_set_correlation(m, (size_t)(2 * n), ptr, c) != MCP_OK)
    fprintf(stderr, "stac_a2: %s\n", mcp_market_last_error(m));
  return m;
}

/* An at-the-money call on the equally weighted basket of the n assets, or
 * an American put (an exercise date a step). */
static mcp_portfolio *basket(int n, uint64_t paths, double years, int american)
{
  char names[MAX_N][16];
  const char *ptr[MAX_N];
  double w[MAX_N], strike = 0;
  for (int i = 0; i < n; i++) {
    snprintf(names[i], sizeof names[0], "S%d", i);
    ptr[i] = names[i];
    w[i] = 1.0 / n;
    strike += w[i] * (100 + 10 * i);
  }
  mcp_portfolio *p;
  mcp_portfolio_create(&p);
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "basket";
  t.product = american ? MCP_PRODUCT_AMERICAN : MCP_PRODUCT_BASKET;
  t.payoff = MCP_PRODUCT_BASKET;
  t.exercises = american ? (size_t)(252 * years) : 0;
  t.type = american ? MCP_PUT : MCP_CALL;
  t.nassets = (size_t)n;
  t.assets = ptr;
  t.weights = w;
  t.strike = strike;
  t.maturity = years;
  if (mcp_portfolio_add_trade(p, &t) != MCP_OK)
    fprintf(stderr, "stac_a2: %s\n", mcp_portfolio_last_error(p));
  mcp_portfolio_set_paths(p, paths);
  mcp_portfolio_set_steps_per_year(p, 252);
  mcp_portfolio_set_seed(p, 2026);
  return p;
}

/* STAC-A2's own list, with buckets. */
#define STAC_LIST "@delta,gamma,cross-gamma,vega,rho,correlation,theta"

/* The Greeks of list into *g: NULL for none (the price alone); "@list":
 * with buckets (the model vegas). */
static mcp_status greeks_of(const char *list, mcp_greeks **g)
{
  *g = NULL;
  if (!list)
    return MCP_OK;
  int buckets = list[0] == '@';
  mcp_status st = mcp_greeks_create(g);
  if (st == MCP_OK && (st = mcp_greeks_parse(*g, list + buckets)) == MCP_OK)
    st = mcp_greeks_set_buckets(*g, buckets);
  return st;
}

/* Median seconds of repeats pricings after one warm-up, with the Greeks of
 * list (NULL: the price alone); the count of sensitivities of the trade. */
static double timed(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                    const char *list, int repeats, size_t *nsens, double *price)
{
  mcp_greeks *g;
  if (greeks_of(list, &g) != MCP_OK) {
    mcp_greeks_destroy(g);
    return -1;
  }
  *nsens = 0;
  double s = bench_time_greeks(ctx, m, p, g, 1, repeats, price, nsens, "stac_a2");
  mcp_greeks_destroy(g);
  return s;
}

static const struct {
  int n;
  uint64_t paths;
  double years, published;
  int repeats, cpu;
} shapes[] = {{5, 25000, 1, 0.018, 9, 1}, {10, 100000, 5, 1.4, 3, 0}};

/* The row of shape s on a context: the European's price, with its vegas,
 * with all its Greeks and with STAC-A2's list; or the American's price, on
 * the GPU (the CPU's revaluations would take minutes) with all its Greeks,
 * and with STAC-A2's list (on the CPU the small shape's). */
static void row(mcp_context *ctx, const char *backend, const mcp_market *m,
                const mcp_portfolio *p, size_t s, int american)
{
  static const char *all = "delta,gamma,cross-gamma,vega,rho,theta";
  size_t n0, nv = 0, na = 0, nj = 0;
  double v0, vv = 0, va = 0, vj = 0, tv = -1, ta = -1;
  int reps = shapes[s].repeats, steps = (int)(252 * shapes[s].years);
  double t0 = timed(ctx, m, p, NULL, reps, &n0, &v0);
  if (!american) {
    tv = timed(ctx, m, p, "vega", reps, &nv, &vv);
    ta = timed(ctx, m, p, "delta,gamma,cross-gamma,vega", reps, &na, &va);
    double tj = timed(ctx, m, p, STAC_LIST, reps, &nj, &vj);
    printf("| %d x %llu x %d | %s | %.4f s | %.4f s | %.4f s (%zu) | %.4f s (%zu) | %.3f s | "
           "%.2f | %.6f |\n",
           shapes[s].n, (unsigned long long)shapes[s].paths, steps, backend, t0, tv, ta, na, tj,
           nj, shapes[s].published, ta > 0 ? shapes[s].published / ta : 0, va);
    return;
  }
  if (strcmp(backend, "cpu") != 0)
    tv = timed(ctx, m, p, all, reps, &nv, &vv);
  if (strcmp(backend, "cpu") != 0 || s == 0)
    ta = timed(ctx, m, p, STAC_LIST, reps, &na, &va);
  printf("| %d x %llu x %d (%d) | %s | %.4f s | %.4f s (%zu) | %.4f s (%zu) | %.4f s | %.6f |\n",
         shapes[s].n, (unsigned long long)shapes[s].paths, steps, steps, backend, t0, tv, nv,
         ta, na, shapes[s].published / 2, v0);
}

/* The American of shape s priced alone and with STAC-A2's list (buckets)
 * on the default backend: each number at 17 digits. */
static int american_numbers(size_t s)
{
  static const char *const lists[2] = {NULL, STAC_LIST};
  mcp_market *m = market(shapes[s].n);
  mcp_portfolio *p = basket(shapes[s].n, shapes[s].paths, shapes[s].years, 1);
  mcp_context *ctx = NULL;
  mcp_status st = mcp_context_create(&ctx, MCP_BACKEND_AUTO);
  if (st != MCP_OK)
    fprintf(stderr, "stac_a2: %s\n", mcp_last_error());
  for (int k = 0; k < 2 && st == MCP_OK; k++) {
    mcp_greeks *g;
    mcp_results *r = NULL;
    if ((st = greeks_of(lists[k], &g)) == MCP_OK)
      st = g ? mcp_price_greeks(ctx, m, p, g, &r) : mcp_price(ctx, m, p, &r);
    mcp_estimate e;
    if (st == MCP_OK && (st = mcp_results_trade(r, 0, &e)) == MCP_OK) {
      printf("%s: price %.17g +- %.17g\n", lists[k] ? "list" : "alone", e.price, e.std_error);
      for (size_t i = 0; i < mcp_results_sensitivities(r, 0); i++) {
        mcp_sensitivity v;
        if (mcp_results_sensitivity(r, 0, i, &v) == MCP_OK)
          printf("  %s %.17g +- %.17g\n", v.name, v.value.price, v.value.std_error);
      }
    } else
      fprintf(stderr, "stac_a2: %s\n", mcp_context_last_error(ctx));
    mcp_results_destroy(r);
    mcp_greeks_destroy(g);
  }
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return st == MCP_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
  static const struct { const char *name; mcp_backend b; } engines[] = {
#ifdef MCP_HAVE_CUDA
      {"cuda", MCP_BACKEND_CUDA},
#endif
      {"cpu", MCP_BACKEND_CPU},
  };
  /* one pricing of the large shape, or of the American (the small shape's,
   * or with "large" the large's) with the Greeks of a list ("@list": with
   * buckets) */
  int prof = argc > 1 && strcmp(argv[1], "--profile") == 0;
  int prof_am = argc > 2 && strcmp(argv[1], "--profile-american") == 0;
  int numbers = argc > 1 && strcmp(argv[1], "--american-numbers") == 0;
  int large = prof || (prof_am && argc > 3 && strcmp(argv[3], "large") == 0) ||
              (numbers && argc > 2 && strcmp(argv[2], "large") == 0);
  if (numbers)
    return american_numbers(large);
  int small = argc > 1 && strcmp(argv[1], "--small") == 0;
  if (prof || prof_am) {
    mcp_market *m = market(shapes[large].n);
    mcp_portfolio *p = basket(shapes[large].n, shapes[large].paths, shapes[large].years, prof_am);
    mcp_context *ctx;
    mcp_results *r = NULL;
    mcp_greeks *g;
    mcp_context_create(&ctx, MCP_BACKEND_AUTO);
    mcp_status st = greeks_of(prof_am ? argv[2] : NULL, &g) != MCP_OK ? MCP_ERR_ARGUMENT
                    : g ? mcp_price_greeks(ctx, m, p, g, &r)
                        : mcp_price(ctx, m, p, &r);
    mcp_greeks_destroy(g);
    mcp_results_destroy(r);
    mcp_context_destroy(ctx);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
    return st == MCP_OK ? 0 : 1;
  }
  static const char *const head[2] = {
      "| assets x paths x steps | backend | price | price + vegas | all Greeks (count) | "
      "STAC-A2's Greeks, vegas by adjoint (count) | published 4 x A100 | "
      "ratio | basket price |\n|---|---|---|---|---|---|---|---|---|\n",
      "\n| American put, assets x paths x steps (exercise dates) | backend | price | all Greeks, "
      "vegas by revaluations (count) | STAC-A2's Greeks, vegas by adjoint (count) | target | "
      "basket price |\n"
      "|---|---|---|---|---|---|---|\n"};
  for (int american = 0; american < 2; american++) {
    fputs(head[american], stdout);
    for (size_t s = 0; s < (small ? 1 : sizeof shapes / sizeof *shapes); s++) {
      mcp_market *m = market(shapes[s].n);
      mcp_portfolio *p = basket(shapes[s].n, shapes[s].paths, shapes[s].years, american);
      for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
        mcp_context *ctx;
        if ((engines[e].b == MCP_BACKEND_CPU && !shapes[s].cpu) ||
            mcp_context_create(&ctx, engines[e].b) != MCP_OK)
          continue;
        row(ctx, engines[e].name, m, p, s, american);
        fflush(stdout);
        mcp_context_destroy(ctx);
      }
      mcp_portfolio_destroy(p);
      mcp_market_destroy(m);
    }
  }
  return 0;
}
