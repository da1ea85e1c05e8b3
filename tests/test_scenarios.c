/* test_scenarios.c: scenario grids and sets (mcp_price_scenarios) against
 * separate runs at the shifted inputs (to the bit, within and across runs
 * of points), bump-and-revalue Greeks from them against Black-Scholes, a
 * set's VaR and ES against its sorted losses, and bad requests.  CPU
 * backend. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/mc_check.h"

/* The test market with every shift applied, built through the public API
 * the way a user would: A flat Black-Scholes with a volatility curve, B
 * flat, H Heston; A and B correlated. */
static mcp_market *shifted_each(const double x[3][3]);

static mcp_market *shifted_market(double ds, double dv, double dr)
{
  const double x[3][3] = {{ds, dv, dr}, {ds, dv, dr}, {ds, dv, dr}};
  return shifted_each(x);
}

/* The same with shifts of each underlying: x[u] = {spot (relative),
 * volatility, rate (absolute)} of A, B and H. */
static mcp_market *shifted_each(const double x[3][3])
{
  mcp_market *m = new_market();
  double dv = x[0][1], dr = x[0][2];
  double end[2] = {0.5, 2}, vol[2] = {0.3 + dv, 0.2 + dv}, rate[2] = {0.02 + dr, 0.03 + dr};
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100 * (1 + x[0][0]), 0.03 + dr, 0.01,
                                                0.25 + dv),
                   MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 2, end, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, 2, end, rate), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "B", 50 * (1 + x[1][0]), 0.01 + x[1][2], 0,
                                                0.4 + x[1][1]),
                   MCP_OK);
  double v0 = sqrt(0.04) + x[2][1], th = sqrt(0.05) + x[2][1];
  assert_int_equal(mcp_market_add_heston(m, "H", 80 * (1 + x[2][0]), 0.02 + x[2][2], 0, v0 * v0,
                                         1.5, th * th, 0.6, -0.7),
                   MCP_OK);
  const char *ab[2] = {"A", "B"};
  double corr[4] = {1, 0.4, 0.4, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ab, corr), MCP_OK);
  return m;
}

static mcp_portfolio *book(void)
{
  mcp_portfolio *p = new_portfolio(20000, 31);
  double fix[4] = {0.25, 0.5, 0.75, 1};
  const char *ab[2] = {"A", "B"};
  /* a control variate (whose coefficients every point estimates on its own
   * pilot, as its separate run does) and QMC among the methods */
  mcp_trade t = trade_on("eA", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
#ifdef MCP_HAVE_CURAND /* QMC's Sobol directions */
  t.methods = MCP_QMC | MCP_ANTITHETIC;
#else
  t.methods = MCP_ANTITHETIC;
#endif
  check_added(p, "eA", mcp_portfolio_add_trade(p, &t));
  t = trade_on("aH", "H", MCP_PRODUCT_ASIAN, MCP_PUT, 80, 1);
  t.nfixings = 4;
  t.fixings = fix;
  t.quantity = -2;
  t.methods = MCP_CONTROL_VARIATE;
  check_added(p, "aH", mcp_portfolio_add_trade(p, &t));
  t = trade_on("kAB", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 75, 1);
  t.nassets = 2;
  t.assets = ab;
  check_added(p, "kAB", mcp_portfolio_add_trade(p, &t));
  t = trade_on("cB", "B", MCP_PRODUCT_CLIQUET, MCP_CALL, 0, 1);
  t.nfixings = 4;
  t.fixings = fix;
  t.local_cap = 0.05;
  check_added(p, "cB", mcp_portfolio_add_trade(p, &t));
  t = trade_on("mA", "A", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  check_added(p, "mA", mcp_portfolio_add_trade(p, &t));
  /* Longstaff-Schwartz: every point fits its own rule, as its run does */
  t = trade_on("xH", "H", MCP_PRODUCT_AMERICAN, MCP_PUT, 80, 1);
  t.exercises = 12;
  check_added(p, "xH", mcp_portfolio_add_trade(p, &t));
  t = trade_on("xAB", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 75, 1);
  t.nassets = 2;
  t.assets = ab;
  t.payoff = MCP_PRODUCT_WORST_OF;
  t.nfixings = 4;
  t.fixings = fix;
  check_added(p, "xAB", mcp_portfolio_add_trade(p, &t));
  return p;
}

/* Every point of a 3 x 2 x 2 grid of absolute shifts equals mcp_price of the
 * market built with those shifts, to 1e-12 (the same seed draws the same
 * normals: in practice they agree to the bit). */
static void grid_equals_separate_runs(void **state)
{
  static const double spot[3] = {-0.05, 0, 0.05}, vol[2] = {0, 0.02}, rate[2] = {-0.01, 0.01};
  mcp_market *base = shifted_market(0, 0, 0);
  mcp_portfolio *p = book();
  assert_int_equal(mcp_portfolio_set_paths(p, 4096), MCP_OK); /* bits, not precision */
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 3, spot), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 2, vol),
                   MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_RATE, MCP_SHIFT_ABSOLUTE, 2, rate), MCP_OK);
  mcp_status st = mcp_price_scenarios(*state, base, p, s, &r);
  if (st != MCP_OK)
    fail_msg("%s", mcp_context_last_error(*state));
  assert_int_equal(mcp_scenario_results_shifts(r, MCP_SHIFT_SPOT), 3);
  assert_int_equal(mcp_scenario_results_count(r), 7);
  double worst = 0;
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 2; j++)
      for (size_t k = 0; k < 2; k++) {
        mcp_market *m = shifted_market(spot[i], vol[j], rate[k]);
        mcp_results *one = NULL;
        assert_int_equal(mcp_price(*state, m, p, &one), MCP_OK);
        mcp_estimate x, y;
        for (size_t t = 0; t <= 5; t++) {
          if (t < 5) {
            assert_int_equal(mcp_scenario_results_trade(r, t, i, j, k, &x), MCP_OK);
            mcp_results_trade(one, t, &y);
          } else {
            assert_int_equal(mcp_scenario_results_total(r, i, j, k, &x), MCP_OK);
            mcp_results_total(one, &y);
          }
          double d = fabs(x.price - y.price) / fmax(fabs(y.price), 1e-300);
          worst = fmax(worst, d);
          if (d > 1e-12 || fabs(x.std_error - y.std_error) > 1e-12 * y.std_error)
            fail_msg("point (%zu,%zu,%zu) %s: grid %.17g +- %.3g, separate %.17g +- %.3g", i, j,
                     k, t < 5 ? mcp_scenario_results_trade_id(r, t) : "book", x.price,
                     x.std_error, y.price, y.std_error);
        }
        mcp_results_destroy(one);
        mcp_market_destroy(m);
      }
  print_message("  12 points x 6 estimates: largest relative difference %.2e\n", worst);
  size_t idx;
  assert_int_equal(mcp_scenario_results_find(r, "cB", &idx), MCP_OK);
  assert_int_equal(idx, 3);
  assert_int_equal(mcp_scenario_results_find(r, "nope", &idx), MCP_ERR_NOT_FOUND);
  assert_true(mcp_scenario_results_quantity(r, 1) == -2);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(base);
}

/* More points than one run takes (64): the groups' first points are runs
 * of their own, the others passes; every point still equals its separate
 * run to the bit. */
static void groups_equal_separate_runs(void **state)
{
  double spot[70];
  for (int i = 0; i < 70; i++)
    spot[i] = -0.2 + 0.005 * i;
  mcp_market *base = shifted_market(0, 0, 0);
  mcp_portfolio *p = book();
  assert_int_equal(mcp_portfolio_set_paths(p, 2048), MCP_OK);
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 70, spot), MCP_OK);
  if (mcp_price_scenarios(*state, base, p, s, &r) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(*state));
  static const size_t check[5] = {0, 1, 63, 64, 69};
  for (size_t c = 0; c < 5; c++) {
    mcp_market *m = shifted_market(spot[check[c]], 0, 0);
    mcp_results *one = NULL;
    assert_int_equal(mcp_price(*state, m, p, &one), MCP_OK);
    mcp_estimate x, y;
    for (size_t t = 0; t < 5; t++) {
      assert_int_equal(mcp_scenario_results_trade(r, t, check[c], 0, 0, &x), MCP_OK);
      mcp_results_trade(one, t, &y);
      if (x.price != y.price || x.std_error != y.std_error)
        fail_msg("point %zu %s: grid %.17g, separate %.17g", check[c],
                 mcp_scenario_results_trade_id(r, t), x.price, y.price);
    }
    assert_int_equal(mcp_scenario_results_total(r, check[c], 0, 0, &x), MCP_OK);
    mcp_results_total(one, &y);
    assert_true(x.price == y.price && x.std_error == y.std_error);
    mcp_results_destroy(one);
    mcp_market_destroy(m);
  }
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(base);
}

/* Bump and revalue on common random numbers: central differences of a
 * European call in a relative spot grid (delta, gamma) and an absolute
 * volatility grid (vega) against Black-Scholes; the paths are shared, so
 * the differences are far more precise than the prices. */
static void bump_greeks_against_black_scholes(void **state)
{
  const double h = 0.01, dv = 0.01, S = 100, K = 105, r = 0.03, q = 0.01, v = 0.25, T = 1;
  double spot[3] = {-h, 0, h}, vol[3] = {-dv, 0, dv};
  mcp_market *m = new_market();
  add_underlying(m, "X", (bs_params){S, r, q, v});
  mcp_portfolio *p = new_portfolio_exact(400000, 5);
  mcp_trade t = trade_on("c", "X", MCP_PRODUCT_EUROPEAN, MCP_CALL, K, T);
  check_added(p, "c", mcp_portfolio_add_trade(p, &t));
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  mcp_scenarios *s = NULL;
  mcp_scenario_results *res = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 3, spot), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 3, vol),
                   MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &res), MCP_OK);
  mcp_estimate e[3][3];
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 3; j++)
      assert_int_equal(mcp_scenario_results_trade(res, 0, i, j, 0, &e[i][j]), MCP_OK);
  double delta = (e[2][1].price - e[0][1].price) / (2 * h * S);
  double gamma = (e[2][1].price - 2 * e[1][1].price + e[0][1].price) / (h * S * h * S);
  double vega = (e[1][2].price - e[1][0].price) / (2 * dv);
  double d1 = (log(S / K) + (r - q + 0.5 * v * v) * T) / (v * sqrt(T));
  double bs_delta = exp(-q * T) * 0.5 * erfc(-d1 / sqrt(2.0));
  double pdf = exp(-0.5 * d1 * d1) / sqrt(2 * 3.14159265358979323846);
  double bs_gamma = exp(-q * T) * pdf / (S * v * sqrt(T));
  double bs_vega = S * exp(-q * T) * pdf * sqrt(T);
  print_message("  delta %.5f (BS %.5f)  gamma %.6f (BS %.6f)  vega %.4f (BS %.4f)\n", delta,
                bs_delta, gamma, bs_gamma, vega, bs_vega);
  /* the common paths leave the differences precise to about 1e-3 relative;
   * the central differences' own error is of order h^2 */
  assert_true(fabs(delta - bs_delta) < 5e-3 * bs_delta);
  assert_true(fabs(gamma - bs_gamma) < 5e-2 * bs_gamma);
  assert_true(fabs(vega - bs_vega) < 5e-3 * bs_vega);
  mcp_scenario_results_destroy(res);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void bad_requests(void **state)
{
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  double ok[2] = {0, 0.1}, minus_one[1] = {-1}, nan[1] = {NAN}, big[1] = {-0.3};
  assert_int_equal(mcp_scenarios_create(NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 1, minus_one),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s), "spot shifts[0]"));
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_RATE, MCP_SHIFT_ABSOLUTE, 1, nan),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s), "rate shifts[0]"));
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 0, ok),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_set(s, (mcp_shift_axis)3, MCP_SHIFT_RELATIVE, 2, ok),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, (mcp_shift_kind)2, 2, ok),
                   MCP_ERR_ARGUMENT);
  double many[MCP_MAX_SCENARIOS / 2 + 1];
  for (size_t i = 0; i < sizeof many / sizeof *many; i++)
    many[i] = 1e-4 * (double)i;
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 2, ok), MCP_OK);
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE,
                                     sizeof many / sizeof *many, many),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s), "at most 4096 scenarios"));
  /* a shift that takes a volatility below 0 is bad input naming it */
  mcp_market *m = shifted_market(0, 0, 0);
  mcp_portfolio *p = book();
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 1, big),
                   MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_ERR_INPUT);
  assert_null(r);
  const char *msg = mcp_context_last_error(*state);
  assert_non_null(strstr(msg, "underlying 'A': volatility shift -0.3"));
  assert_int_equal(mcp_price_scenarios(*state, NULL, p, s, &r), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_price_scenarios(*state, m, p, NULL, &r), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_price_scenarios(NULL, m, p, s, &r), MCP_ERR_ARGUMENT);
  /* reads outside the grid */
  mcp_scenarios_destroy(s);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_OK);
  mcp_estimate e;
  assert_int_equal(mcp_scenario_results_trade(r, 0, 1, 0, 0, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_trade(r, 7, 0, 0, 0, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_total(r, 0, 0, 1, &e), MCP_ERR_ARGUMENT);
  assert_true(isnan(mcp_scenario_results_shift(r, MCP_SHIFT_SPOT, 1)));
  assert_int_equal(mcp_scenario_results_total(r, 0, 0, 0, &e), MCP_OK);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- scenario sets ------------------------------------------------------ */

/* Scenario k of the set below: each underlying's own shifts, some none. */
static void set_shifts(size_t k, double x[3][3])
{
  memset(x, 0, 9 * sizeof **x);
  x[0][0] = -0.1 + 0.003 * (double)k;       /* A's spot, every scenario */
  if (k % 3 == 0)
    x[1][1] = 0.01 * (double)(k % 5) - 0.02; /* B's volatility */
  if (k % 4 == 1) {
    x[2][0] = 0.02;                          /* H's spot and rate */
    x[2][2] = -0.005;
  }
  if (k % 7 == 2)
    x[0][1] = 0.015;                         /* A's volatility */
}

static const char *const und[3] = {"A", "B", "H"};

/* A set of 70 scenarios (two runs: the base and 63, then 7), each shifting
 * the underlyings it names only: the base and the scenarios checked equal
 * mcp_price of the market built with those shifts, to the bit. */
static void set_equals_separate_runs(void **state)
{
  mcp_market *base = shifted_market(0, 0, 0);
  mcp_portfolio *p = book();
  assert_int_equal(mcp_portfolio_set_paths(p, 2048), MCP_OK);
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_set_kind(s, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE), MCP_OK);
  for (size_t k = 0; k < 70; k++) {
    char name[16];
    size_t index;
    double x[3][3];
    snprintf(name, sizeof name, "day %zu", k);
    assert_int_equal(mcp_scenarios_add(s, name, &index), MCP_OK);
    assert_int_equal(index, k);
    set_shifts(k, x);
    for (int u = 0; u < 3; u++)
      for (int a = 0; a < 3; a++)
        if (x[u][a] != 0)
          assert_int_equal(mcp_scenarios_shift(s, k, und[u], (mcp_shift_axis)a, x[u][a]), MCP_OK);
  }
  assert_int_equal(mcp_scenarios_count(s), 70);
  if (mcp_price_scenarios(*state, base, p, s, &r) != MCP_OK)
    fail_msg("%s", mcp_context_last_error(*state));
  assert_int_equal(mcp_scenario_results_scenarios(r), 70);
  assert_string_equal(mcp_scenario_results_name(r, 63), "day 63");
  assert_int_equal(mcp_scenario_results_shifts(r, MCP_SHIFT_SPOT), 0);
  static const long check[6] = {-1, 0, 2, 62, 63, 69}; /* -1: the base */
  for (size_t c = 0; c < 6; c++) {
    double x[3][3] = {{0}};
    if (check[c] >= 0)
      set_shifts((size_t)check[c], x);
    mcp_market *m = shifted_each(x);
    mcp_results *one = NULL;
    assert_int_equal(mcp_price(*state, m, p, &one), MCP_OK);
    mcp_estimate e, y;
    for (size_t t = 0; t <= mcp_results_count(one); t++) {
      int book_row = t == mcp_results_count(one);
      if (check[c] < 0)
        assert_int_equal(book_row ? mcp_scenario_results_base(r, &e)
                                  : mcp_scenario_results_base_trade(r, t, &e),
                         MCP_OK);
      else
        assert_int_equal(book_row ? mcp_scenario_results_set_total(r, (size_t)check[c], &e)
                                  : mcp_scenario_results_set_trade(r, t, (size_t)check[c], &e),
                         MCP_OK);
      if (book_row)
        mcp_results_total(one, &y);
      else
        mcp_results_trade(one, t, &y);
      if (e.price != y.price || e.std_error != y.std_error)
        fail_msg("scenario %ld %s: set %.17g +- %.3g, separate %.17g +- %.3g", check[c],
                 book_row ? "book" : mcp_results_trade_id(one, t), e.price, e.std_error, y.price,
                 y.std_error);
    }
    mcp_results_destroy(one);
    mcp_market_destroy(m);
  }
  /* the loss is the base's value less the scenario's, in the first run
   * and in the second (whose base is the first's to the bit) */
  mcp_estimate b, e, l;
  assert_int_equal(mcp_scenario_results_base(r, &b), MCP_OK);
  for (size_t k = 5; k < 70; k += 64) {
    assert_int_equal(mcp_scenario_results_set_total(r, k, &e), MCP_OK);
    assert_int_equal(mcp_scenario_results_loss(r, k, &l), MCP_OK);
    assert_true(l.price == b.price - e.price && l.std_error > 0);
  }
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(base);
}

/* A scenario that leaves an underlying alone, and a grid's zero point,
 * price it as the unshifted market does, to the bit: a Heston variance
 * whose root squared is not itself (0.05) stays as given. */
static void zero_shifts_keep_the_bits(void **state)
{
  const double v0 = 0.05, theta = 0.04, zero = 0, up = 0.1;
  assert_true(sqrt(v0) * sqrt(v0) != v0 && sqrt(theta) * sqrt(theta) != theta);
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", 80, 0.02, 0, v0, 1.5, theta, 0.6, -0.7), MCP_OK);
  add_underlying(m, "X", (bs_params){100, 0.03, 0.01, 0.25});
  mcp_portfolio *p = new_portfolio(4000, 9);
  mcp_trade t = trade_on("eH", "H", MCP_PRODUCT_EUROPEAN, MCP_PUT, 80, 1);
  check_added(p, "eH", mcp_portfolio_add_trade(p, &t));
  mcp_results *plain = NULL;
  assert_int_equal(mcp_price(*state, m, p, &plain), MCP_OK);
  mcp_estimate want, got;
  mcp_results_trade(plain, 0, &want);
  mcp_scenarios *set = NULL, *grid = NULL;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_scenarios_create(&set), MCP_OK);
  assert_int_equal(mcp_scenarios_add(set, "X up", NULL), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(set, 0, "X", MCP_SHIFT_VOLATILITY, up), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, set, &r), MCP_OK);
  assert_int_equal(mcp_scenario_results_base_trade(r, 0, &got), MCP_OK);
  assert_true(got.price == want.price && got.std_error == want.std_error);
  assert_int_equal(mcp_scenario_results_set_trade(r, 0, 0, &got), MCP_OK);
  assert_true(got.price == want.price && got.std_error == want.std_error);
  mcp_scenario_results_destroy(r);
  assert_int_equal(mcp_scenarios_create(&grid), MCP_OK);
  assert_int_equal(mcp_scenarios_set(grid, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 1, &zero), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, grid, &r), MCP_OK);
  assert_int_equal(mcp_scenario_results_trade(r, 0, 0, 0, 0, &got), MCP_OK);
  assert_true(got.price == want.price && got.std_error == want.std_error);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(grid);
  mcp_scenarios_destroy(set);
  mcp_results_destroy(plain);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The loss's error is that of the difference path by path: a payoff S_T
 * (a call struck at 0) loses x S_T on each path of a spot shifted by x, so
 * its error is |x| times the value's, far below the value's own. */
static void loss_error_is_paired(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "X", (bs_params){100, 0.03, 0.01, 0.25});
  mcp_portfolio *p = new_portfolio(10000, 4);
  mcp_trade t = trade_on("f", "X", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 1);
  check_added(p, "f", mcp_portfolio_add_trade(p, &t));
  assert_int_equal(mcp_portfolio_set_methods(p, 0), MCP_OK);
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "down", NULL), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, 0, "X", MCP_SHIFT_SPOT, -0.02), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_OK);
  mcp_estimate base, loss;
  assert_int_equal(mcp_scenario_results_base(r, &base), MCP_OK);
  assert_int_equal(mcp_scenario_results_loss(r, 0, &loss), MCP_OK);
  print_message("  loss %.6f +- %.3g (value +- %.3g)\n", loss.price, loss.std_error,
                base.std_error);
  assert_true(fabs(loss.price - 0.02 * base.price) <= 1e-12 * base.price);
  assert_true(fabs(loss.std_error - 0.02 * base.std_error) <= 1e-9 * base.std_error);
  assert_true(fabs(loss.ci_high - loss.ci_low - 2 * 1.959963984540054 * loss.std_error) <=
              1e-9 * loss.std_error);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A Monte Carlo American call without dividends, its fitted rule worth
 * less than holding: floored to its European in every market (reval.c's
 * exercise_floor), its losses and their errors are those of the same call
 * with its last date alone (whose rule is holding) on the same grid and
 * paths, to the bit; before, the error was the rule's pairs'. */
static void floored_loss_error(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0.0, 0.2});
  mcp_estimate loss[2][2], point[2][2];
  for (int one = 0; one < 2; one++) { /* 1000 dates, then one */
    mcp_portfolio *p = american_call_book("A", one ? 1 : 1000, -3);
    mcp_scenarios *s = NULL;
    mcp_scenario_results *r = NULL;
    assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
    for (size_t k = 0; k < 2; k++) {
      assert_int_equal(mcp_scenarios_add(s, k ? "up" : "down", NULL), MCP_OK);
      assert_int_equal(mcp_scenarios_shift(s, k, "A", MCP_SHIFT_SPOT, k ? 0.03 : -0.03), MCP_OK);
    }
    assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_OK);
    for (size_t k = 0; k < 2; k++) {
      assert_int_equal(mcp_scenario_results_loss(r, k, &loss[one][k]), MCP_OK);
      assert_int_equal(mcp_scenario_results_set_trade(r, 0, k, &point[one][k]), MCP_OK);
    }
    mcp_scenario_results_destroy(r);
    mcp_scenarios_destroy(s);
    mcp_portfolio_destroy(p);
  }
  for (size_t k = 0; k < 2; k++) {
    mcp_estimate *a = &loss[0][k], *b = &loss[1][k];
    print_message("  %s: loss %.6f +- %.3g, the held call's %.6f +- %.3g\n", k ? "up" : "down",
                  a->price, a->std_error, b->price, b->std_error);
    assert_true(memcmp(&point[0][k], &point[1][k], sizeof point[0][k]) == 0); /* floored */
    /* the book's values: the quantity times the trade's, or the book's path
     * by path (q v); the pairs the same */
    assert_true(fabs(a->price - b->price) <= 1e-12 * fabs(b->price));
    assert_true(a->std_error == b->std_error && a->std_error > 0);
  }
  mcp_market_destroy(m);
}

static int descending(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* VaR and ES of 10 scenarios at levels where the tail holds a whole, half
 * or two and a half scenarios, against the sorted losses by hand. */
static void var_and_es(void **state)
{
  mcp_market *base = shifted_market(0, 0, 0);
  mcp_portfolio *p = new_portfolio(2000, 3);
  mcp_trade t = trade_on("eA", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  check_added(p, "eA", mcp_portfolio_add_trade(p, &t));
  t = trade_on("pB", "B", MCP_PRODUCT_EUROPEAN, MCP_PUT, 50, 0.5);
  t.quantity = 3;
  check_added(p, "pB", mcp_portfolio_add_trade(p, &t));
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  static const double dA[10] = {-0.08, 0.02, -0.03, 0.05, -0.12, 0.01, 0.07, -0.01, -0.05, 0.03};
  for (size_t k = 0; k < 10; k++) {
    char name[8];
    snprintf(name, sizeof name, "d%zu", k);
    assert_int_equal(mcp_scenarios_add(s, name, NULL), MCP_OK);
    assert_int_equal(mcp_scenarios_shift(s, k, "A", MCP_SHIFT_SPOT, dA[k]), MCP_OK);
    assert_int_equal(mcp_scenarios_shift(s, k, "B", MCP_SHIFT_SPOT, -dA[9 - k]), MCP_OK);
  }
  assert_int_equal(mcp_price_scenarios(*state, base, p, s, &r), MCP_OK);
  double L[10], var, es;
  mcp_estimate e;
  for (size_t k = 0; k < 10; k++)
    L[k] = (mcp_scenario_results_loss(r, k, &e), e.price);
  qsort(L, 10, sizeof *L, descending);
  assert_true(L[0] > L[2] && L[2] > 0 && L[9] < 0); /* losses and gains */
  assert_int_equal(mcp_scenario_results_var(r, 0.9, &var, &es), MCP_OK); /* tail: 1 */
  assert_true(var == L[1] && es == L[0]);
  assert_int_equal(mcp_scenario_results_var(r, 0.95, &var, &es), MCP_OK); /* 0.5 */
  assert_true(var == L[0] && fabs(es - L[0]) <= 1e-12 * fabs(L[0]));
  assert_int_equal(mcp_scenario_results_var(r, 0.8, &var, &es), MCP_OK); /* 2 */
  assert_true(var == L[2] && fabs(es - (L[0] + L[1]) / 2) <= 1e-12 * fabs(L[0]));
  assert_int_equal(mcp_scenario_results_var(r, 0.75, &var, NULL), MCP_OK); /* 2.5 */
  assert_true(var == L[2]);
  assert_int_equal(mcp_scenario_results_var(r, 0.75, NULL, &es), MCP_OK);
  assert_true(fabs(es - (L[0] + L[1] + 0.5 * L[2]) / 2.5) <= 1e-12 * fabs(L[0]));
  /* a tail far below one scenario is the worst loss, not a division by 0 */
  assert_int_equal(mcp_scenario_results_var(r, 1 - 1e-13, &var, &es), MCP_OK);
  assert_true(var == L[0] && fabs(es - L[0]) <= 1e-9 * fabs(L[0]));
  assert_int_equal(mcp_scenario_results_var(r, 1, &var, &es), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_var(r, 0.4, &var, &es), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_var(r, NAN, &var, &es), MCP_ERR_ARGUMENT);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(base);
}

static void bad_sets(void **state)
{
  mcp_scenarios *s = NULL, *g = NULL;
  mcp_scenario_results *r = NULL;
  double ok[2] = {0, 0.1};
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "", NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_add(s, NULL, NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_add(s, "base", NULL), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s), "other than base"));
  assert_int_equal(mcp_scenarios_add(s, "a,b", NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_add(s, "crash", NULL), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "crash", NULL), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s), "scenario 'crash': expected a new name"));
  assert_int_equal(mcp_scenarios_shift(s, 1, "A", MCP_SHIFT_SPOT, 0.1), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_shift(s, 0, "A", MCP_SHIFT_SPOT, -1), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s),
                         "scenario 'crash': A spot shift: expected a relative shift above -1"));
  assert_int_equal(mcp_scenarios_shift(s, 0, "A", MCP_SHIFT_RATE, INFINITY), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_shift(s, 0, "A", (mcp_shift_axis)3, 0.1), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_shift(s, 0, "", MCP_SHIFT_SPOT, 0.1), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_set_kind(s, MCP_SHIFT_SPOT, MCP_SHIFT_ABSOLUTE),
                   MCP_ERR_ARGUMENT); /* after the first scenario */
  assert_int_equal(mcp_scenarios_set(s, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 2, ok),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_scenarios_last_error(s), "a set"));
  /* a grid takes no scenario */
  assert_int_equal(mcp_scenarios_create(&g), MCP_OK);
  assert_int_equal(mcp_scenarios_set(g, MCP_SHIFT_SPOT, MCP_SHIFT_RELATIVE, 2, ok), MCP_OK);
  assert_int_equal(mcp_scenarios_add(g, "crash", NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_set_kind(g, MCP_SHIFT_SPOT, MCP_SHIFT_ABSOLUTE),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenarios_count(g), 0);
  /* an underlying the market lacks, and a shift it cannot take, are bad
   * input naming the scenario */
  mcp_market *m = shifted_market(0, 0, 0);
  mcp_portfolio *p = book();
  assert_int_equal(mcp_portfolio_set_paths(p, 1000), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, 0, "ZZ", MCP_SHIFT_SPOT, 0.1), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_ERR_INPUT);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(*state),
                         "scenario 'crash': underlying 'ZZ': expected an underlying"));
  mcp_scenarios_destroy(s);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "crash", NULL), MCP_OK);
  assert_int_equal(mcp_scenarios_shift(s, 0, "B", MCP_SHIFT_VOLATILITY, -0.99), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_OK); /* 0.4 x 0.01 */
  mcp_scenario_results_destroy(r);
  r = NULL;
  assert_int_equal(mcp_scenarios_shift(s, 0, "H", MCP_SHIFT_RATE, -1.5), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_context_last_error(*state), "underlying 'H': rate shift -1.5"));
  /* a set's reads refused on a grid's results, and outside the set */
  assert_int_equal(mcp_price_scenarios(*state, m, p, g, &r), MCP_OK);
  mcp_estimate e;
  assert_int_equal(mcp_scenario_results_scenarios(r), 0);
  assert_null(mcp_scenario_results_name(r, 0));
  assert_int_equal(mcp_scenario_results_base(r, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_set_total(r, 0, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_loss(r, 0, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_var(r, 0.99, NULL, NULL), MCP_ERR_ARGUMENT);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  assert_int_equal(mcp_scenarios_create(&s), MCP_OK);
  assert_int_equal(mcp_scenarios_add(s, "flat", NULL), MCP_OK);
  assert_int_equal(mcp_price_scenarios(*state, m, p, s, &r), MCP_OK);
  assert_int_equal(mcp_scenario_results_set_total(r, 1, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_set_trade(r, 99, 0, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_set_trade(r, 0, SIZE_MAX, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_total(r, 0, 0, 0, &e), MCP_ERR_ARGUMENT);
  /* no shift: the base's paths and value, path by path */
  assert_int_equal(mcp_scenario_results_loss(r, 0, &e), MCP_OK);
  assert_true(e.price == 0 && e.std_error == 0);
  assert_int_equal(mcp_scenario_results_loss(r, 1, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_scenario_results_loss(r, 0, NULL), MCP_ERR_ARGUMENT);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  mcp_scenarios_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid_equals_separate_runs),
      cmocka_unit_test(groups_equal_separate_runs),
      cmocka_unit_test(bump_greeks_against_black_scholes),
      cmocka_unit_test(bad_requests),
      cmocka_unit_test(set_equals_separate_runs),
      cmocka_unit_test(zero_shifts_keep_the_bits),
      cmocka_unit_test(var_and_es),
      cmocka_unit_test(loss_error_is_paired),
      cmocka_unit_test(floored_loss_error),
      cmocka_unit_test(bad_sets),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
