/* test_lsm.c: American and Bermudan options by Monte Carlo (Longstaff-
 * Schwartz) on the CPU: against the library's finite-difference grid, the
 * closed forms where exercise never pays, published values of a Bermudan
 * max-call, the same bits for any tile, bad terms, and the regression's
 * solve against a long double substitution. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "tests/closed_form.h"
#include "tests/cf_heston.h"
#include "tests/cf_merton.h"
#include "tests/cf_multi.h"
#include "tests/mc_check.h"
#include "tests/same_results.h"

#include "models/products/lsm.h"
#ifdef _OPENMP
#include <omp.h>
#endif

/* A Monte Carlo American price and its reference: within 4 standard errors
 * plus rel of the reference (the Bermudan's dates and the regression's low
 * bias). */
static void assert_near(const char *what, mcp_estimate e, double ref, double rel)
{
  double gap = fabs(e.price - ref), room = 4 * e.std_error + rel * ref;
  print_message("  %-22s MC %10.6f +- %.2e  reference %10.6f  (gap %.2e, allowed %.2e)\n",
                what, e.price, e.std_error, ref, gap, room);
  if (!(e.std_error > 0 && gap <= room))
    fail_msg("%s: MC %.8f +- %.3e misses %.8f by %.3e (allowed %.3e)", what, e.price,
             e.std_error, ref, gap, room);
}

static void add_american(mcp_portfolio *p, const char *id, const char *und, mcp_option_type type,
                         double strike, double maturity, mcp_engine engine)
{
  mcp_trade t = trade_on(id, und, MCP_PRODUCT_AMERICAN, type, strike, maturity);
  t.engine = engine;
  add_trade(p, &t);
}

/* American puts by Monte Carlo (100 dates, the default) against the grid of
 * the same options, one Black-Scholes underlying each. */
static void test_american_put_vs_grid(void **state)
{
  static const struct { bs_params u; double strike, maturity; } cases[] = {
      {{100, 0.05, 0.00, 0.20}, 100, 1.0},
      {{100, 0.03, 0.02, 0.30}, 110, 0.5},
      {{90, 0.04, 0.00, 0.25}, 100, 2.0},
      {{120, 0.06, 0.01, 0.15}, 100, 1.0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mcp_market *m = new_market();
    add_underlying(m, "A", cases[c].u);
    mcp_portfolio *p = new_portfolio(100000, 11 + c);
    add_american(p, "MC", "A", MCP_PUT, cases[c].strike, cases[c].maturity, MCP_ENGINE_MC);
    add_american(p, "PDE", "A", MCP_PUT, cases[c].strike, cases[c].maturity, MCP_ENGINE_PDE);
    mcp_results *r = price(*state, m, p);
    mcp_estimate mc = estimate(r, "MC"), pde = estimate(r, "PDE");
    double eu = cf_black_scholes(MCP_PUT, cases[c].u.spot, cases[c].strike, cases[c].maturity,
                                 cases[c].u.rate, cases[c].u.dividend, cases[c].u.vol);
    assert_near("American put", mc, pde.price, 0.005);
    /* the early exercise is worth something, and the price is no more than
     * the American's (a low-biased estimate) */
    assert_true(mc.price > eu + 4 * mc.std_error || pde.price - eu < 8 * mc.std_error);
    assert_true(mc.price < pde.price + 4 * mc.std_error);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* Exercise that never pays: a Bermudan of one date is the European; an
 * American call without dividends is the European call. */
static void test_no_early_exercise(void **state)
{
  const bs_params u = {100, 0.05, 0.0, 0.25};
  mcp_market *m = new_market();
  add_underlying(m, "A", u);
  mcp_portfolio *p = new_portfolio(200000, 3);
  mcp_trade b = trade_on("B1", "A", MCP_PRODUCT_BERMUDAN, MCP_PUT, 105, 1.5);
  double date = 1.5;
  b.nfixings = 1;
  b.fixings = &date;
  add_trade(p, &b);
  add_american(p, "AC", "A", MCP_CALL, 95, 1.0, MCP_ENGINE_MC);
  mcp_results *r = price(*state, m, p);
  assert_within("Bermudan, 1 date", estimate(r, "B1"),
                cf_black_scholes(MCP_PUT, 100, 105, 1.5, u.rate, u.dividend, u.vol), 4);
  assert_within("American call", estimate(r, "AC"),
                cf_black_scholes(MCP_CALL, 100, 95, 1.0, u.rate, u.dividend, u.vol), 4);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Two assets: the Bermudan max-call of Broadie and Glasserman (2004) and
 * Andersen and Broadie (2004), r = 5%, dividends 10%, vol 20%,
 * uncorrelated, T = 3, 9 dates: 8.08, 13.90, 21.34 for spots 90, 100, 110;
 * and without dividends the American max-call is the European (Stulz). */
static void two_assets(mcp_market *m, double spot, double dividend)
{
  const char *names[2] = {"X", "Y"};
  const double corr[4] = {1, 0, 0, 1};
  add_underlying(m, "X", (bs_params){spot, 0.05, dividend, 0.2});
  add_underlying(m, "Y", (bs_params){spot, 0.05, dividend, 0.2});
  assert_int_equal(mcp_market_set_correlation(m, 2, names, corr), MCP_OK);
}

static mcp_trade on_two(const char *id, mcp_product product, mcp_product payoff,
                        double maturity)
{
  static const char *const names[2] = {"X", "Y"};
  mcp_trade t = trade_on(id, NULL, product, MCP_CALL, 100, maturity);
  t.nassets = 2;
  t.assets = names;
  t.payoff = payoff;
  return t;
}

static void test_max_call(void **state)
{
  static const double spots[3] = {90, 100, 110}, published[3] = {8.08, 13.90, 21.34};
  static const double dates[9] = {1.0 / 3, 2.0 / 3, 1, 4.0 / 3, 5.0 / 3, 2, 7.0 / 3, 8.0 / 3, 3};
  for (int c = 0; c < 3; c++) {
    mcp_market *m = new_market();
    two_assets(m, spots[c], 0.10);
    mcp_portfolio *p = new_portfolio(100000, 5);
    mcp_trade t = on_two("MAX", MCP_PRODUCT_BERMUDAN, MCP_PRODUCT_BEST_OF, 3);
    t.nfixings = 9;
    t.fixings = dates;
    add_trade(p, &t);
    mcp_results *r = price(*state, m, p);
    assert_near("Bermudan max-call", estimate(r, "MAX"), published[c], 0.005);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
  mcp_market *m = new_market();
  two_assets(m, 100, 0);
  mcp_portfolio *p = new_portfolio(100000, 6);
  mcp_trade t = on_two("AMAX", MCP_PRODUCT_AMERICAN, MCP_PRODUCT_BEST_OF, 1);
  t.exercises = 20;
  add_trade(p, &t);
  mcp_results *r = price(*state, m, p);
  assert_within("American max-call", estimate(r, "AMAX"),
                cf_stulz(MCP_CALL, 1, 100, 100, 100, 1, 0.05, 0, 0, 0.2, 0.2, 0), 4);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Issue 31: a two-asset best-of Bermudan of many dates on few paths, the
 * max-call above on 10,000 dates and 256 paths.  Its regression, fitted on
 * as few paths, exercised on noise and priced far below its European; now
 * the regression takes at least its floor of paths (64 a basis function,
 * 576 here), and the price is never below the European's on the same paths
 * (closed form, Stulz). */
static void test_few_paths(void **state)
{
  mcp_market *m = new_market();
  two_assets(m, 100, 0.10);
  mcp_portfolio *p = new_portfolio(256, 7);
  static double dates[10000];
  for (int k = 0; k < 10000; k++)
    dates[k] = 3.0 * (k + 1) / 10000;
  mcp_trade t = on_two("MANY", MCP_PRODUCT_BERMUDAN, MCP_PRODUCT_BEST_OF, 3);
  t.nfixings = 10000;
  t.fixings = dates;
  add_trade(p, &t);
  mcp_results *r = price(*state, m, p);
  mcp_estimate e = estimate(r, "MANY");
  double eu = cf_stulz(MCP_CALL, 1, 100, 100, 100, 3, 0.05, 0.10, 0.10, 0.2, 0.2, 0);
  print_message("  10000 dates on 256 paths %.4f +- %.2e, European %.4f\n", e.price, e.std_error,
                eu);
  assert_true(e.price > eu - 4 * e.std_error);
  mcp_results_destroy(r);
  /* a regression on fewer paths than the floor is refused, naming them */
  assert_int_equal(mcp_portfolio_set_regression_paths(p, 512), MCP_OK);
  r = NULL;
  assert_int_equal(mcp_price(*state, m, p, &r), MCP_ERR_INPUT);
  const char *msg = mcp_context_last_error(*state);
  if (!strstr(msg, "trade 'MANY': run.regression_paths: 512 paths fit its 9 basis functions "
                   "on fewer than the 64 paths each the regression needs; give at least 576"))
    fail_msg("unexpected message '%s'", msg);
  assert_int_equal(mcp_portfolio_set_regression_paths(p, 576), MCP_OK);
  r = price(*state, m, p);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A rule that can only lose: early exercise of a call without dividends is
 * worth nothing (the American max-call is the European, Stulz), so a
 * fitted rule on 1000 dates exercises on noise alone and falls below
 * holding.  The European's estimate on the same paths is reported, flagged
 * MCP_WARNING_EXERCISE; an American put, whose exercise pays, keeps its
 * own price, unflagged. */
static void test_european_floor(void **state)
{
  mcp_market *m = new_market();
  two_assets(m, 100, 0);
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_portfolio *p = new_portfolio(4000, 2);
  double dates[1000];
  for (int k = 0; k < 1000; k++)
    dates[k] = (k + 1) / 1000.0;
  mcp_trade t = on_two("HOLD", MCP_PRODUCT_BERMUDAN, MCP_PRODUCT_BEST_OF, 1);
  t.nfixings = 1000;
  t.fixings = dates;
  add_trade(p, &t);
  add_american(p, "AP", "A", MCP_PUT, 100, 1, MCP_ENGINE_MC);
  mcp_results *r = price(*state, m, p);
  mcp_estimate e = estimate(r, "HOLD");
  double eu = cf_stulz(MCP_CALL, 1, 100, 100, 100, 1, 0.05, 0, 0, 0.2, 0.2, 0);
  print_message("  held max-call %.4f +- %.2e, European %.4f\n", e.price, e.std_error, eu);
  assert_int_equal(mcp_results_warnings(r, 0), MCP_WARNING_EXERCISE);
  assert_within("held max-call", e, eu, 4);
  assert_int_equal(mcp_results_warnings(r, 1), 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Heston with little volatility of variance (v0 = theta) is Black-Scholes:
 * its American put against the grid's; and above the Heston European. */
static void test_heston(void **state)
{
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.05, 0, 0.04, 1.0, 0.04, 0.01, -0.5),
                   MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "G", 100, 0.05, 0, 0.04, 1.5, 0.06, 0.6, -0.7),
                   MCP_OK);
  add_underlying(m, "A", (bs_params){100, 0.05, 0, 0.2});
  mcp_portfolio *p = new_portfolio(100000, 8);
  add_american(p, "H", "H", MCP_PUT, 100, 1, MCP_ENGINE_DEFAULT); /* no grid: Monte Carlo */
  add_american(p, "G", "G", MCP_PUT, 100, 1, MCP_ENGINE_DEFAULT);
  add_american(p, "PDE", "A", MCP_PUT, 100, 1, MCP_ENGINE_DEFAULT);
  mcp_results *r = price(*state, m, p);
  mcp_estimate pde = estimate(r, "PDE"), g = estimate(r, "G");
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_MC);
  assert_int_equal(mcp_results_engine(r, 2), MCP_ENGINE_PDE);
  assert_near("Heston, xi 0.01", estimate(r, "H"), pde.price, 0.005);
  double eu = cf_heston(MCP_PUT, 100, 100, 1, 0.05, 0, 0.04, 1.5, 0.06, 0.6, -0.7);
  print_message("  Heston American put %.6f +- %.2e, European %.6f\n", g.price, g.std_error, eu);
  assert_true(g.price > eu + 4 * g.std_error);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The other models: a flat local-volatility surface is Black-Scholes (its
 * American put against the grid's); Merton's American put is above its
 * European (closed form). */
static void test_local_vol_and_jumps(void **state)
{
  static const double t[2] = {0.5, 2}, sp[3] = {50, 100, 200};
  static const double flat[6] = {0.2, 0.2, 0.2, 0.2, 0.2, 0.2};
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0.05, 0, 2, t, 3, sp, flat), MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "J", 100, 0.05, 0, 0.15, 0.5, -0.1, 0.2), MCP_OK);
  add_underlying(m, "A", (bs_params){100, 0.05, 0, 0.2});
  mcp_portfolio *p = new_portfolio(100000, 14);
  add_american(p, "L", "L", MCP_PUT, 100, 1, MCP_ENGINE_DEFAULT); /* no grid: Monte Carlo */
  add_american(p, "J", "J", MCP_PUT, 100, 1, MCP_ENGINE_DEFAULT);
  add_american(p, "PDE", "A", MCP_PUT, 100, 1, MCP_ENGINE_DEFAULT);
  mcp_results *r = price(*state, m, p);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_MC);
  assert_near("flat local volatility", estimate(r, "L"), estimate(r, "PDE").price, 0.005);
  mcp_estimate j = estimate(r, "J");
  double eu = cf_merton(MCP_PUT, 100, 100, 1, 0.05, 0, 0.15, 0.5, -0.1, 0.2);
  print_message("  Merton American put %.6f +- %.2e, European %.6f\n", j.price, j.std_error, eu);
  assert_true(j.price > eu + 4 * j.std_error);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The same bits for any tile and with the run's other trades; the fit's
 * own paths change the rule, not the paths priced. */
static void test_reproducible(void **state)
{
  mcp_context *ctx = *state;
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_portfolio *p = new_portfolio(20000, 9);
  add_american(p, "AP", "A", MCP_PUT, 100, 1, MCP_ENGINE_MC);
  add_european(p, "EP", "A", MCP_PUT, 100, 1, 1);
  mcp_estimate a[4], b[4];
  mcp_results *r = price(ctx, m, p);
  size_t n = snapshot(r, a, 4);
  mcp_results_destroy(r);
  assert_int_equal(mcp_context_set_tile_paths(ctx, 256), MCP_OK);
  r = price(ctx, m, p);
  snapshot(r, b, 4);
  mcp_results_destroy(r);
  assert_int_equal(mcp_context_set_tile_paths(ctx, 0), MCP_OK);
  assert_same_bits("tile 256", a, b, n);
  mcp_portfolio *q = new_portfolio(20000, 9);
  add_american(q, "AP", "A", MCP_PUT, 100, 1, MCP_ENGINE_MC);
  r = price(ctx, m, q);
  mcp_estimate alone = estimate(r, "AP");
  assert_memory_equal(&alone, &a[0], sizeof alone);
  mcp_results_destroy(r);
  assert_int_equal(mcp_portfolio_set_regression_paths(q, 4096), MCP_OK);
  r = price(ctx, m, q);
  mcp_estimate small = estimate(r, "AP");
  print_message("  regression on 20000 paths %.6f, on 4096 %.6f\n", alone.price, small.price);
  assert_true(small.price != alone.price);
  assert_true(fabs(small.price - alone.price) < 4 * alone.std_error);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(q);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The fit's bits whatever the threads (lsm_cpu.c shares a date's chunks
 * among them from 128 chunks on, each thread solving the date): a put and a
 * two-asset Bermudan fitted on 40000 paths (157 chunks), and one on 4096 (a
 * thread for the dates), on 1, 2 and 3 threads. */
static void test_threads(void **state)
{
#ifdef _OPENMP
  static const double dates[4] = {0.25, 0.5, 0.75, 1};
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  two_assets(m, 100, 0.10);
  mcp_portfolio *p = new_portfolio(4096, 17);
  assert_int_equal(mcp_portfolio_set_regression_paths(p, 40000), MCP_OK);
  mcp_trade t = trade_on("AP", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  t.engine = MCP_ENGINE_MC;
  t.exercises = 20;
  add_trade(p, &t);
  mcp_trade b = on_two("BM", MCP_PRODUCT_BERMUDAN, MCP_PRODUCT_BEST_OF, 1);
  b.nfixings = 4;
  b.fixings = dates;
  add_trade(p, &b);
  int saved = omp_get_max_threads();
  for (int fit = 0; fit < 2; fit++) {
    mcp_estimate ref[3], cur[3];
    assert_int_equal(mcp_portfolio_set_regression_paths(p, fit ? 4096 : 40000), MCP_OK);
    for (int threads = 1; threads <= 3; threads++) {
      omp_set_num_threads(threads);
      mcp_results *r = price(*state, m, p);
      snapshot(r, threads == 1 ? ref : cur, 3);
      mcp_results_destroy(r);
      if (threads > 1)
        assert_same_bits(fit ? "fit on 4096, threads" : "fit on 40000, threads", ref, cur, 3);
    }
  }
  omp_set_num_threads(saved);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
#else
  (void)state;
  skip();
#endif
}

/* Antithetic sampling of the priced paths: the same price within errors,
 * a smaller error. */
static void test_antithetic(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_portfolio *p = new_portfolio(100000, 12);
  add_american(p, "AP", "A", MCP_PUT, 100, 1, MCP_ENGINE_MC);
  mcp_trade t = trade_on("AA", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  t.engine = MCP_ENGINE_MC;
  t.methods = MCP_ANTITHETIC;
  add_trade(p, &t);
  add_american(p, "PDE", "A", MCP_PUT, 100, 1, MCP_ENGINE_PDE);
  mcp_results *r = price(*state, m, p);
  mcp_estimate plain = estimate(r, "AP"), anti = estimate(r, "AA");
  assert_near("antithetic", anti, estimate(r, "PDE").price, 0.005);
  assert_true(anti.std_error < plain.std_error);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Greeks by revaluation: the American put's delta against the grid's. */
static void test_greeks(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_portfolio *p = new_portfolio(100000, 13);
  add_american(p, "MC", "A", MCP_PUT, 100, 1, MCP_ENGINE_MC);
  add_american(p, "PDE", "A", MCP_PUT, 100, 1, MCP_ENGINE_PDE);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_DELTA), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_VEGA), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_THETA), MCP_OK);
  mcp_results *r = NULL;
  if (mcp_price_greeks(*state, m, p, g, &r) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(*state));
  mcp_sensitivity dm, dp, vm, vp, tm, tp;
  assert_int_equal(mcp_results_greek(r, "MC", "delta", &dm), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "PDE", "delta", &dp), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "MC", "vega", &vm), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "PDE", "vega", &vp), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "MC", "theta", &tm), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "PDE", "theta", &tp), MCP_OK);
  assert_int_equal(dm.method, MCP_METHOD_BUMP);
  print_message("  theta MC %.4f +- %.1e, grid %.4f\n", tm.value.price, tm.value.std_error,
                tp.value.price);
  assert_true(fabs(tm.value.price - tp.value.price) < 4 * tm.value.std_error + 0.05 * fabs(tp.value.price));
  print_message("  delta MC %.4f +- %.1e, grid %.4f; vega MC %.3f +- %.1e, grid %.3f\n",
                dm.value.price, dm.value.std_error, dp.value.price, vm.value.price,
                vm.value.std_error, vp.value.price);
  assert_true(fabs(dm.value.price - dp.value.price) < 4 * dm.value.std_error + 0.01);
  assert_true(fabs(vm.value.price - vp.value.price) < 4 * vm.value.std_error + 0.01 * vp.value.price);
  mcp_results_destroy(r);
  /* a short American whose first exercise dates the theta bump reaches,
   * on the grid and by Monte Carlo: theta still prices */
  mcp_portfolio *q = new_portfolio(20000, 15);
  add_american(q, "GS", "A", MCP_PUT, 100, 0.25, MCP_ENGINE_PDE);
  mcp_trade t = trade_on("MS", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 0.25);
  t.engine = MCP_ENGINE_MC;
  t.exercises = 200;
  add_trade(q, &t);
  if (mcp_price_greeks(*state, m, q, g, &r) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(*state));
  assert_int_equal(mcp_results_greek(r, "MS", "theta", &tm), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "GS", "theta", &tp), MCP_OK);
  print_message("  short American: theta MC %.3f +- %.1e, grid %.3f\n", tm.value.price,
                tm.value.std_error, tp.value.price);
  assert_true(fabs(tm.value.price - tp.value.price) < 4 * tm.value.std_error + 0.5);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(q);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The decision at t = 0 (issue: a deep in-the-money American put priced
 * below its intrinsic value): an American exercised now is worth its
 * exercise value today, exactly (standard error 0, no warning), with that
 * value's Greeks (delta -1 a unit of a put's spot, the rest 0); one the
 * fitted rule holds keeps its estimate, and a Bermudan, whose dates are its
 * own (T / 10 .. T), is not exercised now.  S = 60, K = 100, r = 8%, vol
 * 20%, T = 1: the American is 40, its Bermudan of 10 dates about 39.20.
 * The book and scenario points (their own markets' spots) add up. */
static void test_exercise_now(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){60, 0.08, 0.0, 0.2});
  two_assets(m, 50, 0);
  mcp_portfolio *p = new_portfolio(20000, 3);
  mcp_trade t = trade_on("DEEP", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  t.engine = MCP_ENGINE_MC;
  t.exercises = 10;
  t.quantity = 3;
  add_trade(p, &t);
  t = trade_on("SHALLOW", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 62, 1);
  t.engine = MCP_ENGINE_MC;
  t.exercises = 10;
  add_trade(p, &t);
  double dates[10];
  for (int k = 0; k < 10; k++)
    dates[k] = (k + 1) / 10.0;
  t = trade_on("BERM", "A", MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1);
  t.nfixings = 10;
  t.fixings = dates;
  add_trade(p, &t);
  t = on_two("BASKET", MCP_PRODUCT_AMERICAN, MCP_PRODUCT_BASKET, 1);
  t.type = MCP_PUT;
  t.exercises = 10;
  add_trade(p, &t); /* weights 1/2 each: 100 - 50 */
  mcp_results *r = price(*state, m, p);
  mcp_estimate deep = estimate(r, "DEEP"), sh = estimate(r, "SHALLOW"),
               berm = estimate(r, "BERM"), bk = estimate(r, "BASKET"), tot = total(r);
  print_message("  deep %.6f +- %.1e, shallow %.6f +- %.1e, Bermudan %.6f +- %.1e, "
                "basket %.6f +- %.1e\n", deep.price, deep.std_error, sh.price, sh.std_error,
                berm.price, berm.std_error, bk.price, bk.std_error);
  assert_true(deep.price == 40 && deep.std_error == 0 && deep.ci_low == 40 && deep.ci_high == 40);
  assert_true(bk.price == 50 && bk.std_error == 0);
  for (size_t i = 0; i < 4; i++)
    assert_int_equal(mcp_results_warnings(r, i), 0);
  /* held: its own estimate (above the 2 of exercising now) */
  assert_true(sh.price > 2 + 4 * sh.std_error && sh.std_error > 0);
  assert_true(berm.price < 40 - 4 * berm.std_error && berm.std_error > 0);
  assert_within("Bermudan, 10 dates", berm, 39.20, 4);
  /* the book: its jobs' sum; the exercised ones add no error */
  assert_true(fabs(tot.price - (3 * 40 + sh.price + berm.price + 50)) < 1e-12);
  assert_true(fabs(tot.std_error - hypot(sh.std_error, berm.std_error)) < 1e-15);
  mcp_results_destroy(r);

  /* the Greeks: the exercise value's */
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,gamma,vega,rho,theta"), MCP_OK);
  r = price_greeks(*state, m, p, g);
  static const char *const names[5] = {"delta", "gamma", "vega", "rho", "theta"};
  for (int k = 0; k < 5; k++) {
    mcp_sensitivity d = greek(r, "DEEP", names[k]);
    assert_true(d.value.price == (k ? 0 : -1) && d.value.std_error == 0);
  }
  assert_true(greek(r, "BASKET", "delta:X").value.price == -0.5);
  assert_true(greek(r, "BASKET", "delta:Y").value.price == -0.5);
  assert_true(greek(r, "BASKET", "vega:Y").value.price == 0);
  mcp_sensitivity sd = greek(r, "SHALLOW", "delta"), bd = greek(r, "BERM", "delta"),
                  book = greek(r, NULL, "delta:A");
  assert_true(sd.value.std_error > 0);
  assert_true(fabs(book.value.price - (-3 + sd.value.price + bd.value.price)) < 1e-12);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);

  /* scenario points: each its market's spots; the deep put at a spot 20%
   * down (48) is 52, at 50% up (90) it is held */
  mcp_scenarios *sc = NULL;
  const double shifts[3] = {-0.2, 0, 0.5};
  assert_int_equal(mcp_scenarios_create(&sc), MCP_OK);
  assert_int_equal(mcp_scenarios_set(sc, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 3, shifts), MCP_OK);
  mcp_scenario_results *sr = NULL;
  if (mcp_price_scenarios(*state, m, p, sc, &sr) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(*state));
  mcp_estimate e[3];
  for (size_t i = 0; i < 3; i++)
    assert_int_equal(mcp_scenario_results_trade(sr, 0, i, 0, 0, &e[i]), MCP_OK);
  print_message("  deep put at spots 48, 60, 90: %.6f, %.6f, %.6f +- %.1e\n", e[0].price,
                e[1].price, e[2].price, e[2].std_error);
  assert_true(e[0].price == 52 && e[0].std_error == 0);
  assert_true(e[1].price == 40 && e[1].std_error == 0);
  assert_true(e[2].price > 10 && e[2].std_error > 0);
  mcp_scenario_results_destroy(sr);
  mcp_scenarios_destroy(sc);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A call on one asset without dividends never gains by early exercise: where
 * its fitted rule (1000 dates on few paths) falls below holding, the
 * European reported is its price, unflagged; with a dividend yield the same
 * shortfall is still flagged. */
static void test_call_never_early(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  add_underlying(m, "D", (bs_params){100, 0.05, 0.0, 0.2});
  double end = 100, q = 1e-9;
  assert_int_equal(mcp_market_set_curve(m, "D", MCP_CURVE_DIVIDEND, 1, &end, &q), MCP_OK);
  for (int div = 0; div < 2; div++) {
    mcp_portfolio *p = new_portfolio(4000, 2);
    mcp_trade t = trade_on("AC", div ? "D" : "A", MCP_PRODUCT_AMERICAN, MCP_CALL, 100, 1);
    t.engine = MCP_ENGINE_MC;
    t.exercises = 1000;
    add_trade(p, &t);
    mcp_results *r = price(*state, m, p);
    assert_int_equal(mcp_results_warnings(r, 0), div ? MCP_WARNING_EXERCISE : 0);
    assert_within("American call", estimate(r, "AC"),
                  cf_black_scholes(MCP_CALL, 100, 100, 1, 0.05, 0, 0.2), 4);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* A price floored to the European on the same paths (test_european_floor,
 * test_call_never_early) has that European's Greeks: those of the same
 * trade with one exercise date (its rule holds to the end) on the same grid
 * (a step a date) and paths, to the bit, the book's its quantity times them:
 * an American call without dividends (the spot's on the scaled paths; vega,
 * rho and theta revalued, also by bumps alone) and a Bermudan max-call on
 * two assets (deltas, gammas and the cross gamma on the scaled paths).  The
 * fitted rule's, which the trade had before, were another option's: the
 * call's gamma 0.0012 +- 0.025 and rho 35 +- 24 against the European's
 * 0.0164 +- 0.0016 and 53.2 +- 0.7 (closed forms 0.0188, 53.2). */
static void test_floored_greeks(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  two_assets(m, 100, 0);
  double dates[1000], last = 1;
  for (int k = 0; k < 1000; k++)
    dates[k] = (k + 1) / 1000.0;
  for (int two = 0; two < 2; two++)
    for (int bump = 0; bump < 2; bump++) {
      mcp_greeks *g = greeks_request(two ? "delta,gamma,cross-gamma" : "all", 0);
      assert_int_equal(mcp_greeks_set_bump_only(g, bump), MCP_OK);
      mcp_results *r[2];
      for (int one = 0; one < 2; one++) { /* 1000 dates, then one */
        mcp_portfolio *p =
            two ? new_portfolio(4000, 2) : american_call_book("A", one ? 1 : 1000, 2);
        if (two) { /* the same book's Bermudan max-call */
          assert_int_equal(mcp_portfolio_set_steps_per_year(p, 1000), MCP_OK);
          mcp_trade t = on_two("T", MCP_PRODUCT_BERMUDAN, MCP_PRODUCT_BEST_OF, 1);
          t.nfixings = one ? 1 : 1000;
          t.fixings = one ? &last : dates;
          t.quantity = 2;
          add_trade(p, &t);
        }
        r[one] = price_greeks(*state, m, p, g);
        mcp_portfolio_destroy(p);
      }
      mcp_estimate e = estimate(r[0], "T"), h = estimate(r[1], "T");
      assert_true(memcmp(&e, &h, sizeof e) == 0); /* floored: the European's price */
      assert_int_equal(mcp_results_warnings(r[0], 0), two ? MCP_WARNING_EXERCISE : 0);
      char msg[256];
      if (!same_sensitivities(r[0], r[1], msg, sizeof msg))
        fail_msg("%s: %s", two ? "max-call" : "call", msg);
      size_t n = mcp_results_sensitivities(r[0], 0) + mcp_results_sensitivities(r[0], 1);
      print_message("  %s, %s: %.6f +- %.1e, %zu sensitivities the European's\n",
                    two ? "max-call" : "call", bump ? "bumps" : "scaled paths", e.price,
                    e.std_error, n);
      assert_true(n >= 10); /* five Greeks, the trade's and the book's */
      if (!two) { /* Black-Scholes: d1 = (r + vol^2 / 2) / vol at the money, T = 1 */
        double d1 = 0.35, phi = exp(-d1 * d1 / 2) / sqrt(2 * acos(-1.0));
        assert_within("call's delta", greek(r[0], "T", "delta").value, cf_norm_cdf(d1), 4);
        assert_within("call's gamma", greek(r[0], "T", "gamma").value, phi / (100 * 0.2), 4);
      }
      for (int k = 0; k < 2; k++)
        mcp_results_destroy(r[k]);
      mcp_greeks_destroy(g);
    }
  mcp_market_destroy(m);
}

/* The discretisation check of a Heston American call without dividends
 * floored to its European: its move is the held European's, that of the
 * same call with its last date alone on the same fine and coarse grids
 * (exercise dates every other step: the check merges the same pairs of
 * steps) and paths, to the bit; before, its fitted rule's. */
static void test_floored_grid_move(void **state)
{
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.05, 0, 0.04, 1.5, 0.06, 0.6, -0.7),
                   MCP_OK);
  mcp_estimate e[2], d[2];
  for (int one = 0; one < 2; one++) { /* 500 dates, then one */
    mcp_portfolio *p = american_call_book("H", one ? 1 : 500, 1);
    mcp_results *r = price(*state, m, p);
    e[one] = estimate(r, "T");
    assert_int_equal(mcp_results_grid_move(r, 0, &d[one]), MCP_OK);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  print_message("  %.6f +- %.1e, move %.2e +- %.1e\n", e[0].price, e[0].std_error, d[0].price,
                d[0].std_error);
  assert_true(memcmp(&e[0], &e[1], sizeof e[0]) == 0); /* floored: the European's price */
  assert_true(memcmp(&d[0], &d[1], sizeof d[0]) == 0);
  mcp_market_destroy(m);
}

/* A date's solve (lsm.h: the factor, its two triangular solves' operators
 * and their products) against a long double substitution on the same
 * factor: the fitted values' error, sqrt((b - b*)' A (b - b*) / b*' A b*),
 * on 4,000 samples of nearly dependent functions (1, x, z x, x^2, z x^2,
 * ...; x = 1 + 0.2 N, z = N), 14 and 16 of them, with and without one the
 * others span exactly (a dead pivot: its coefficient 0).  The operators'
 * error is at most 2.8e-9 here, the whole inverse's as one product 1.1e-7
 * to 6.1e-5 (bench/RESULTS.md, "walk-operator"); too few paths in the money
 * hold, every coefficient +0. */
static uint64_t solve_rs;
static double solve_uniform(void)
{
  solve_rs ^= solve_rs << 13;
  solve_rs ^= solve_rs >> 7;
  solve_rs ^= solve_rs << 17;
  return (double)(solve_rs >> 11) * 0x1p-53;
}
static double solve_normal(void)
{
  double u = solve_uniform() + 1e-300, v = solve_uniform();
  return sqrt(-2 * log(u)) * cos(6.283185307179586 * v);
}
static void test_solve_rounding(void **state)
{
  (void)state;
  for (int nb = 14; nb <= 16; nb += 2)
    for (int dep = 0; dep < 3; dep++) { /* dep 2: too few in the money */
      double gram[MCPI_LSM_GRAM(MCPI_LSM_MAX_BASIS)] = {0}, rhs[MCPI_LSM_MAX_BASIS] = {0};
      double phi[MCPI_LSM_MAX_BASIS], fac[MCPI_LSM_FACTOR], row[MCPI_LSM_ROW];
      int ntri = nb * (nb + 1) / 2, dead = 0;
      solve_rs = 88172645463325252ULL + (uint64_t)(2 * nb + dep);
      for (int p = 0; p < 4000; p++) {
        double x = 1 + 0.2 * solve_normal(), z = solve_normal();
        for (int a = 0; a < nb; a++)
          phi[a] = a == 0 ? 1 : a % 2 ? pow(x, (a + 1) / 2) : z * pow(x, a / 2);
        if (dep == 1)
          phi[nb - 1] = 2 * phi[1] - phi[0];
        double y = fmax(1.1 - x, 0) + 0.01 * solve_normal();
        for (int a = 0, c = 0; a < nb; a++) {
          rhs[a] += phi[a] * y;
          for (int b = a; b < nb; b++, c++)
            gram[c] += phi[a] * phi[b];
        }
      }
      gram[ntri] = dep == 2 ? MCPI_LSM_MIN_ITM(nb) - 1 : 4000;
      for (size_t k = 0; k < MCPI_LSM_FACTOR; k++)
        fac[k] = NAN; /* a held date reads none of its operators */
      mcpi_lsm_factor(nb, gram, fac);
      for (int c = 0; fac[0] != 0 && c < 2 * nb; c++)
        mcpi_lsm_operator_column(nb, fac, c);
      mcpi_lsm_solve(nb, fac, rhs, row);
      if (dep == 2) {
        assert_true(row[1] == MCPI_LSM_HOLD);
        for (int i = 0; i < MCPI_LSM_MAX_BASIS; i++)
          assert_true(row[2 + i] == 0 && !signbit(row[2 + i]));
        continue;
      }
      const double *d = MCPI_LSM_SCALES(fac), *live = d + MCPI_LSM_MAX_BASIS,
                   *l = live + MCPI_LSM_MAX_BASIS;
      long double w[MCPI_LSM_MAX_BASIS], ref[MCPI_LSM_MAX_BASIS], e = 0, r = 0;
      for (int i = 0; i < nb; i++) {
        long double s = (long double)rhs[i] * d[i];
        for (int j = 0; j < i; j++)
          s -= (long double)l[i * nb + j] * w[j];
        w[i] = live[i] != 0 ? s / l[i * nb + i] : 0;
      }
      for (int i = nb - 1; i >= 0; i--) {
        long double s = w[i];
        for (int j = i + 1; j < nb; j++)
          s -= (long double)l[j * nb + i] * w[j];
        w[i] = live[i] != 0 ? s / l[i * nb + i] : 0;
        ref[i] = w[i] * d[i];
      }
      assert_true(row[1] == MCPI_LSM_FIT);
      for (int a = 0, c = 0; a < nb; a++) {
        if (live[a] == 0) {
          dead++;
          assert_true(row[2 + a] == 0);
        }
        for (int b = a; b < nb; b++, c++) {
          long double ea = row[2 + a] - ref[a], eb = row[2 + b] - ref[b];
          e += (a == b ? 1 : 2) * ea * gram[c] * eb;
          r += (a == b ? 1 : 2) * ref[a] * gram[c] * ref[b];
        }
      }
      for (int i = nb; i < MCPI_LSM_MAX_BASIS; i++)
        assert_true(row[2 + i] == 0);
      double err = (double)sqrtl(fabsl(e / r));
      printf("  %d functions%s: fitted values within %.2e of a long double substitution\n", nb,
             dep ? ", one spanned" : "", err);
      assert_true(dead == dep);
      assert_true(err < 2e-8);
    }
}

/* Terms the exercise does not take. */
static void test_bad_terms(void **state)
{
  (void)state;
  static const char *const two[2] = {"X", "Y"};
  static const double w[2] = {0.5, 0.5}, dates[2] = {0.5, 1.0};
  mcp_portfolio *p = new_portfolio(1000, 1);
  static const double close[3] = {0.5, 0.9999999999999, 1};
  struct { mcp_trade t; const char *msg; } cases[10];
  for (int i = 0; i < 10; i++)
    cases[i].t = trade_on("T", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  cases[0].t.product = MCP_PRODUCT_EUROPEAN;
  cases[0].t.exercises = 10;
  cases[0].msg = "trade 'T': exercises: expected none (0): only an American has them";
  cases[1].t.exercises = 20000;
  cases[1].msg = "trade 'T': exercises: expected 1 to 10000 dates";
  cases[2].t.payoff = MCP_PRODUCT_BEST_OF;
  cases[2].msg = "trade 'T': payoff: expected the default (basket)";
  cases[3].t.underlying = NULL, cases[3].t.nassets = 2, cases[3].t.assets = two;
  cases[3].t.payoff = MCP_PRODUCT_WORST_OF, cases[3].t.weights = w;
  cases[3].msg = "trade 'T': weights: only a basket has weights";
  cases[4].t.underlying = NULL, cases[4].t.nassets = 2, cases[4].t.assets = two;
  cases[4].t.engine = MCP_ENGINE_PDE;
  cases[4].msg = "trade 'T': method: the grid prices one underlying";
  cases[5].t.methods = MCP_CONTROL_VARIATE;
  cases[5].msg = "trade 'T': methods: american has no control variate";
  cases[6].t.product = MCP_PRODUCT_BERMUDAN;
  cases[6].t.nfixings = 2, cases[6].t.fixings = dates, cases[6].t.maturity = 1.5;
  cases[6].msg = "trade 'T': exercise dates (fixings): expected the last at the maturity";
  cases[7].t.product = MCP_PRODUCT_BERMUDAN;
  cases[7].msg = "trade 'T': fixings: expected at least one time";
  cases[8].t.product = MCP_PRODUCT_BERMUDAN;
  cases[8].t.nfixings = 3, cases[8].t.fixings = close;
  cases[8].msg = "trade 'T': exercise dates (fixings)[2]: expected a time more than 1e-10";
  cases[9].t.maturity = 1e-7, cases[9].t.exercises = 10000;
  cases[9].msg = "trade 'T': exercises: expected dates more than 1.6e-09 years apart";
  for (int i = 0; i < 10; i++) {
    assert_int_equal(mcp_portfolio_add_trade(p, &cases[i].t), MCP_ERR_INPUT);
    if (!strstr(mcp_portfolio_last_error(p), cases[i].msg))
      fail_msg("case %d: '%s' lacks '%s'", i, mcp_portfolio_last_error(p), cases[i].msg);
  }
  assert_int_equal(mcp_portfolio_size(p), 0);
  /* a trade filled from zeros, not mcp_trade_init, takes the defaults */
  mcp_trade z;
  memset(&z, 0, sizeof z);
  z.id = "Z";
  z.underlying = "A";
  z.strike = 100;
  z.maturity = 1;
  z.quantity = 1;
  assert_int_equal(mcp_portfolio_add_trade(p, &z), MCP_OK);
  assert_int_equal(mcp_portfolio_set_regression_paths(p, 100), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "regression_paths: expected 256"));
  mcp_portfolio_destroy(p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_american_put_vs_grid),
      cmocka_unit_test(test_no_early_exercise),
      cmocka_unit_test(test_max_call),
      cmocka_unit_test(test_few_paths),
      cmocka_unit_test(test_european_floor),
      cmocka_unit_test(test_heston),
      cmocka_unit_test(test_local_vol_and_jumps),
      cmocka_unit_test(test_reproducible),
      cmocka_unit_test(test_threads),
      cmocka_unit_test(test_antithetic),
      cmocka_unit_test(test_greeks),
      cmocka_unit_test(test_bad_terms),
      cmocka_unit_test(test_exercise_now),
      cmocka_unit_test(test_call_never_early),
      cmocka_unit_test(test_floored_greeks),
      cmocka_unit_test(test_floored_grid_move),
      cmocka_unit_test(test_solve_rounding),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
