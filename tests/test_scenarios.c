/* test_scenarios.c: scenario grids (mcp_price_scenarios) against separate
 * runs at the shifted inputs (to the bit, within and across runs of points), bump-and-revalue Greeks from them against
 * Black-Scholes, and bad requests.  CPU backend. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "tests/mc_check.h"

/* The test market with every shift applied, built through the public API
 * the way a user would: A flat Black-Scholes with a volatility curve, B
 * flat, H Heston; A and B correlated. */
static mcp_market *shifted_market(double ds, double dv, double dr)
{
  mcp_market *m = new_market();
  double end[2] = {0.5, 2}, vol[2] = {0.3 + dv, 0.2 + dv}, rate[2] = {0.02 + dr, 0.03 + dr};
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100 * (1 + ds), 0.03 + dr, 0.01,
                                                0.25 + dv),
                   MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 2, end, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_RATE, 2, end, rate), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "B", 50 * (1 + ds), 0.01 + dr, 0, 0.4 + dv),
                   MCP_OK);
  double v0 = sqrt(0.04) + dv, th = sqrt(0.05) + dv;
  assert_int_equal(mcp_market_add_heston(m, "H", 80 * (1 + ds), 0.02 + dr, 0, v0 * v0, 1.5,
                                         th * th, 0.6, -0.7),
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
  assert_int_equal(mcp_portfolio_set_paths(p, 4096), MCP_OK);
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
  mcp_portfolio *p = new_portfolio(400000, 5);
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

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid_equals_separate_runs),
      cmocka_unit_test(groups_equal_separate_runs),
      cmocka_unit_test(bump_greeks_against_black_scholes),
      cmocka_unit_test(bad_requests),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
