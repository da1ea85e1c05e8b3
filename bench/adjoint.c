/* adjoint.c: what bucketed risk by adjoint costs next to the price (issue
 * 33's first target): the benchmark Asian (252 daily fixings, double) under
 * a 20 x 20 local-volatility surface and a rate curve of 20 pillars, priced
 * alone and with its delta, its 400 node vegas and its 20 rho pillars
 * (mcp_greeks_set_buckets), and the same under Black-Scholes with a
 * volatility curve of 20 pieces.  Medians of the whole calls
 * (mcp_results_seconds) after a warm-up, on the GPU and the CPU; a table
 * of times, their ratio, and what bumping each input on the same paths
 * would cost (two revaluations a bucket, at the price's time each).  And a
 * European call on a basket of 5 correlated Black-Scholes assets, each with
 * 20 volatility pieces and 20 rate pillars, on 252 daily steps: its 5
 * deltas, 100 piece vegas, 100 rho pillars and 10 correlations.  And the
 * case of du Toit, Lotz and Naumann (2013; issue 33's second target): a
 * basket call on 10 correlated local-volatility assets, 4 x 10 nodes each,
 * 360 steps, 10,000 paths on the GPU (whatever --paths says): its 10
 * deltas, 400 node vegas, 10 rhos and 45 correlations.  And the benchmark
 * Asian on an underlying given implied volatilities, 10 maturities by 9
 * strikes: its 90 quote vegas (Dupire's grid of 201 spots between them).
 * And the benchmark Asian under Heston (QE, the discretisation check on):
 * its delta, 5 parameters' vegas and 20 rho pillars; and the up-and-out
 * call there.
 *
 *   adjoint [--paths N] [--repeats R] [--model K] [--backend cuda|cpu]
 *           [--greeks LIST] [--assets N]
 *
 * --model K runs the table's row K alone (0 the local-volatility Asian, in
 * the table's order), --backend one backend: a profiler's run; --greeks
 * the Greeks asked (default delta,vega,rho,correlation; with gamma and
 * cross-gamma, the second order by bumping the adjoint), the bumps'
 * estimate then that of the first order; --assets the du Toit basket's
 * (2 to 10, default 10).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/common.h"

#define N 20

/* U: local volatility on 20 x 20 nodes (local_vol.c's surface), or
 * Black-Scholes with 20 volatility pieces (lv 0), or Heston (lv -1: v0 =
 * theta = 0.04, kappa 1.5, xi 0.5, rho -0.7); 20 rate pillars each. */
static mcp_market *market(int lv)
{
  double t[N], s[N], v[N * N], end[N], rate[N], vol[N];
  for (int i = 0; i < N; i++) {
    t[i] = 2.0 * i / (N - 1);
    s[i] = 40 * pow(250 / 40.0, (double)i / (N - 1));
    end[i] = (i + 1) / (double)N;
    rate[i] = 0.02 + 0.001 * i;
    vol[i] = 0.2 + 0.005 * i;
  }
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++)
      v[i * N + k] = fmax(0.05, 0.25 - 0.1 * log(s[k] / 100) / (1 + t[i]));
  mcp_market *m;
  mcp_market_create(&m);
  mcp_status st = lv > 0 ? mcp_market_add_local_vol(m, "U", 100, 0.03, 0.01, N, t, N, s, v)
                  : lv  ? mcp_market_add_heston(m, "U", 100, 0.03, 0.01, 0.04, 1.5, 0.04, 0.5, -0.7)
                        : mcp_market_add_black_scholes(m, "U", 100, 0.03, 0.01, 0.25);
  if (st == MCP_OK && !lv)
    st = mcp_market_set_curve(m, "U", MCP_CURVE_VOLATILITY, N, end, vol);
  if (st == MCP_OK)
    st = mcp_market_set_curve(m, "U", MCP_CURVE_RATE, N, end, rate);
  if (st != MCP_OK)
    fprintf(stderr, "adjoint: %s\n", mcp_market_last_error(m));
  return m;
}

#define NB 5
#define ND 10
#define QT 10
#define QK 9

/* U given implied volatilities: QT maturities to 2 years by QK strikes
 * from 60 to 140, a skew that flattens with maturity; 20 rate pillars. */
static mcp_market *implied_market(void)
{
  double t[QT], k[QK], v[QT * QK], end[N], rate[N];
  for (int i = 0; i < N; i++) {
    end[i] = (i + 1) / (double)N;
    rate[i] = 0.02 + 0.001 * i;
  }
  for (int j = 0; j < QK; j++)
    k[j] = 60 + 10 * j;
  for (int i = 0; i < QT; i++) {
    t[i] = 2.0 * (i + 1) / QT;
    for (int j = 0; j < QK; j++) {
      double x = log(k[j] / 100), d = sqrt(t[i] + 0.25);
      v[i * QK + j] = 0.22 - 0.1 * x / d + 0.15 * x * x / d;
    }
  }
  mcp_quotes q = {NULL, QT, QK, t, k, v};
  mcp_market *m;
  mcp_market_create(&m);
  mcp_status st = mcp_market_add_black_scholes(m, "U", 100, 0.03, 0.01, 0.25);
  if (st == MCP_OK)
    st = mcp_market_set_curve(m, "U", MCP_CURVE_RATE, N, end, rate);
  if (st == MCP_OK)
    st = mcp_market_set_implied_volatility(m, "U", &q);
  if (st != MCP_OK)
    fprintf(stderr, "adjoint: %s\n", mcp_market_last_error(m));
  return m;
}

/* The n assets' spots correlated rho pairwise, after st (their setting up). */
static void equicorrelate(mcp_market *m, int n, const char *const *names, double rho,
                          mcp_status st)
{
  double c[ND * ND];
  for (int p = 0; p < n * n; p++)
    c[p] = p / n == p % n ? 1 : rho;
  if (st == MCP_OK)
    st = mcp_market_set_correlation(m, (size_t)n, names, c);
  if (st != MCP_OK)
    fprintf(stderr, "adjoint: %s\n", mcp_market_last_error(m));
}

/* Five Black-Scholes assets B0 .. B4 with 20 volatility pieces and 20 rate
 * pillars each, their spots correlated 0.3 pairwise. */
static mcp_market *basket_market(void)
{
  double end[N], rate[N], vol[N];
  char names[NB][8];
  const char *ptr[NB];
  mcp_market *m;
  mcp_market_create(&m);
  mcp_status st = MCP_OK;
  for (int a = 0; a < NB && st == MCP_OK; a++) {
    for (int i = 0; i < N; i++) {
      end[i] = (i + 1) / (double)N;
      rate[i] = 0.02 + 0.001 * i;
      vol[i] = 0.15 + 0.02 * a + 0.005 * i;
    }
    snprintf(names[a], sizeof names[a], "B%d", a);
    ptr[a] = names[a];
    st = mcp_market_add_black_scholes(m, names[a], 90 + 5 * a, 0.03, 0.01, 0.25);
    if (st == MCP_OK)
      st = mcp_market_set_curve(m, names[a], MCP_CURVE_VOLATILITY, N, end, vol);
    if (st == MCP_OK)
      st = mcp_market_set_curve(m, names[a], MCP_CURVE_RATE, N, end, rate);
  }
  equicorrelate(m, NB, ptr, 0.3, st);
  return m;
}

/* The du Toit case's assets (--assets; 10, theirs). */
static int nd = ND;

/* nd local-volatility assets D0 .. D9, 4 x 10 nodes each (a skew that
 * flattens with time, steeper for later assets), correlated 0.5 pairwise. */
static mcp_market *dutoit_market(void)
{
  double t[4] = {0.25, 0.5, 0.75, 1}, s[10], v[40];
  char names[ND][8];
  const char *ptr[ND];
  mcp_market *m;
  mcp_market_create(&m);
  mcp_status st = MCP_OK;
  for (int k = 0; k < 10; k++)
    s[k] = 50 * pow(4, k / 9.0);
  for (int a = 0; a < nd && st == MCP_OK; a++) {
    for (int i = 0; i < 4; i++)
      for (int k = 0; k < 10; k++)
        v[i * 10 + k] = fmax(0.05, 0.2 + 0.01 * a - (0.08 + 0.01 * a) * log(s[k] / 100) /
                                                        (1 + t[i]));
    snprintf(names[a], sizeof names[a], "D%d", a);
    ptr[a] = names[a];
    st = mcp_market_add_local_vol(m, names[a], 100, 0.03, 0.01, 4, t, 10, s, v);
  }
  equicorrelate(m, nd, ptr, 0.5, st);
  return m;
}

/* The model's trade: the Asian on U, the basket call on B0 .. B4 (equal
 * weights, at the money, daily steps), or an up-and-out call on U watched
 * on the bridge (daily steps; models 5 and 7). */
static mcp_portfolio *portfolio(int model, uint64_t paths, const double *fix)
{
  mcp_portfolio *p;
  mcp_portfolio_create(&p);
  if (model < 2 || model == 4 || model == 6) {
    mcp_portfolio_add_asian(p, "asian", "U", MCP_ARITHMETIC, MCP_CALL, 100, BENCH_FIXINGS, fix,
                            1.0, 1);
  } else if (model == 5 || model == 7) {
    mcp_trade t;
    mcp_trade_init(&t);
    t.id = "barrier", t.underlying = "U", t.product = MCP_PRODUCT_BARRIER, t.strike = 100;
    t.maturity = 1, t.barrier_kind = MCP_UP_AND_OUT, t.barrier = 130;
    t.monitoring = MCP_MONITOR_BRIDGE;
    if (mcp_portfolio_add_trade(p, &t) != MCP_OK)
      fprintf(stderr, "adjoint: %s\n", mcp_portfolio_last_error(p));
    mcp_portfolio_set_steps_per_year(p, 252);
  } else {
    static const char *const b[ND] = {"B0", "B1", "B2", "B3", "B4"},
                             *const d[ND] = {"D0", "D1", "D2", "D3", "D4",
                                             "D5", "D6", "D7", "D8", "D9"};
    mcp_trade t;
    mcp_trade_init(&t);
    t.id = "basket";
    t.product = MCP_PRODUCT_BASKET;
    t.nassets = model == 2 ? NB : (size_t)nd, t.assets = model == 2 ? b : d, t.strike = 100;
    t.maturity = 1;
    if (mcp_portfolio_add_trade(p, &t) != MCP_OK)
      fprintf(stderr, "adjoint: %s\n", mcp_portfolio_last_error(p));
    mcp_portfolio_set_steps_per_year(p, model == 2 ? 252 : 360);
  }
  mcp_portfolio_set_paths(p, paths);
  return p;
}

int main(int argc, char **argv)
{
  uint64_t paths = 1 << 20;
  int repeats = 5, only = -1;
  const char *backend = NULL, *list = "delta,vega,rho,correlation";
  for (int i = 1; i + 1 < argc; i += 2)
    if (strcmp(argv[i], "--paths") == 0)
      paths = strtoull(argv[i + 1], NULL, 10);
    else if (strcmp(argv[i], "--repeats") == 0)
      repeats = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--model") == 0)
      only = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--backend") == 0)
      backend = argv[i + 1];
    else if (strcmp(argv[i], "--greeks") == 0)
      list = argv[i + 1];
    else if (strcmp(argv[i], "--assets") == 0)
      nd = atoi(argv[i + 1]);
  if (nd < 2 || nd > ND) {
    fprintf(stderr, "adjoint: --assets: expected 2 to %d, got %d\n", ND, nd);
    return 1;
  }
  static const mcp_backend backends[] = {
#ifdef MCP_HAVE_CUDA
      MCP_BACKEND_CUDA,
#endif
      MCP_BACKEND_CPU};
  double fix[BENCH_FIXINGS];
  for (int i = 0; i < BENCH_FIXINGS; i++)
    fix[i] = (i + 1) / (double)BENCH_FIXINGS;
  mcp_greeks *g = NULL;
  mcp_greeks_create(&g);
  if (mcp_greeks_parse(g, list) != MCP_OK) {
    fprintf(stderr, "adjoint: --greeks: expected a list of Greeks, got '%s'\n", list);
    return 1;
  }
  mcp_greeks_set_buckets(g, 1);
  printf("# adjoint: arithmetic Asian call, %d daily fixings, a basket call of %d assets, "
         "252 daily steps, and an up-and-out call watched on the bridge; double, medians of "
         "%d whole calls;\n# sensitivities: a delta an asset, a vega a node or piece, a rho a "
         "pillar, their sums, a correlation a pair\n\n",
         BENCH_FIXINGS, NB, repeats);
  printf("| backend | model | paths | price (ms) | with buckets (ms) | ratio | sensitivities | "
         "bumps (ms, estimated) | price |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  static const char *const models[8] = {"local vol 20 x 20", "Black-Scholes, 20 pieces",
                                         "basket of 5, 20 + 20 pieces each",
                                         "du Toit: 10 local vols of 4 x 10, 360 steps",
                                         "implied vols, 10 x 9 quotes",
                                         "local vol 20 x 20, bridge up-and-out",
                                         "Heston (QE), 5 parameters",
                                         "Heston (QE), bridge up-and-out"};
  for (size_t b = 0; b < sizeof backends / sizeof *backends; b++)
    for (int model = 0; model < 8; model++) {
      if ((only >= 0 && model != only) ||
          (backend && strcmp(backend, backends[b] == MCP_BACKEND_CPU ? "cpu" : "cuda") != 0))
        continue;
      uint64_t n = (model == 3 ? 10000 : paths) / (backends[b] == MCP_BACKEND_CPU ? 64 : 1);
      mcp_market *m = model < 2    ? market(model == 0)
                      : model == 5 ? market(1)
                      : model >= 6 ? market(-1)
                      : model == 2 ? basket_market()
                      : model == 3 ? dutoit_market()
                                   : implied_market();
      mcp_portfolio *p = portfolio(model, n, fix);
      mcp_context *ctx;
      if (mcp_context_create(&ctx, backends[b]) != MCP_OK)
        continue;
      double price = 0, price2 = 0;
      size_t ns = 0;
      double t0 = bench_time_price(ctx, m, p, 1, repeats, &price, "adjoint");
      double t1 = bench_time_greeks(ctx, m, p, g, 1, repeats, &price2, &ns, "adjoint");
      if (t0 > 0 && t1 > 0)
        printf("| %s | %s | %llu | %.2f | %.2f | %.2f | %zu | %.0f | %.6f |\n",
               backends[b] == MCP_BACKEND_CPU ? "cpu" : "cuda",
               models[model], (unsigned long long)n, t0 * 1e3, t1 * 1e3, t1 / t0, ns,
               2.0 * (double)(ns - (model < 2 || model >= 4 ? 3 : 2 * (model == 2 ? NB : nd) + 1)) *
                   t0 * 1e3,
               price);
      if (price != price2)
        fprintf(stderr, "adjoint: the price moved with the buckets: %.17g %.17g\n", price,
                price2);
      mcp_context_destroy(ctx);
      mcp_portfolio_destroy(p);
      mcp_market_destroy(m);
    }
  mcp_greeks_destroy(g);
  return 0;
}
