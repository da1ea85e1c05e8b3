/* test_mheston.c: several correlated Heston assets on the CPU backend:
 *   1. with a vanishing vol-of-vol and v0 = theta each asset is
 *      Black-Scholes of volatility sqrt(theta): best-of calls and worst-of
 *      puts against Stulz's closed forms (the spots' correlation, with each
 *      spot correlated to its variance), with QE and with Euler;
 *   2b. a basket on one asset alone has no vega of the other, and its vega
 *      is the one-asset trade's;
 *   2. each asset alone (a basket of weights 1 and 0) against the one-asset
 *      Heston closed form, with the variances and spots correlated across;
 *   3. products that keep arrays (a worst-of autocallable) on such assets,
 *      and that note in the Black-Scholes limit against Black-Scholes assets;
 *   4. early exercise (Longstaff-Schwartz) in the Black-Scholes limit
 *      against Black-Scholes assets;
 *   5. what is refused: mixed models, a correlation matrix of the
 *      Brownian motions that is not positive definite.
 * Statistical checks use fixed seeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/cf_heston.h"
#include "tests/cf_multi.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "mcprice.h"

#define NSE 4.0

typedef struct heston {
  double spot, rate, dividend, v0, kappa, theta, xi, rho;
} heston;

static void add_heston(mcp_market *m, const char *name, heston h)
{
  if (mcp_market_add_heston(m, name, h.spot, h.rate, h.dividend, h.v0, h.kappa, h.theta, h.xi,
                            h.rho) != MCP_OK)
    fail_msg("adding '%s': %s", name, mcp_market_last_error(m));
}

static void correlate(mcp_market *m, size_t n, const char *const *names, const double *c)
{
  if (mcp_market_set_correlation(m, n, names, c) != MCP_OK)
    fail_msg("correlation: %s", mcp_market_last_error(m));
}

/* H1 and H2, their Brownian motions correlated by the n x n matrix c. */
static mcp_market *pair_market(heston h1, heston h2, size_t n, const char *const *names,
                               const double *c)
{
  mcp_market *m = new_market();
  add_heston(m, "H1", h1);
  add_heston(m, "H2", h2);
  correlate(m, n, names, c);
  return m;
}

static mcp_trade on_assets(const char *id, mcp_product product, mcp_option_type type,
                           double strike, double maturity, const char *const *assets)
{
  mcp_trade t = trade_on(id, NULL, product, type, strike, maturity);
  t.nassets = 2;
  t.assets = assets;
  return t;
}

static void black_scholes_limit(void **state)
{
  /* rho != 0: the drivers' transform (correlation.c) then matters to the spots'
   * correlation, though not to their laws */
  const heston h1 = {100, 0.03, 0.01, 0.04, 1.5, 0.04, 1e-4, -0.7};
  const heston h2 = {80, 0.03, 0.02, 0.09, 2.0, 0.09, 1e-4, 0.5};
  const char *const names[2] = {"H1", "H2"};
  const double rho = 0.6, c[4] = {1, rho, rho, 1}, T = 1;
  for (int scheme = 0; scheme < 2; scheme++) {
    mcp_market *m = pair_market(h1, h2, 2, names, c);
    mcp_portfolio *p = new_portfolio(200000, 5 + scheme);
    assert_int_equal(mcp_portfolio_set_heston_scheme(p, (mcp_heston_scheme)scheme), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
    mcp_trade best = on_assets("best", MCP_PRODUCT_BEST_OF, MCP_CALL, 1.0, T, names);
    mcp_trade worst = on_assets("worst", MCP_PRODUCT_WORST_OF, MCP_PUT, 1.0, T, names);
    /* the performances' sum, through a basket's weights: w_i = 1 / S_i */
    const double w[2] = {1 / h1.spot, 1 / h2.spot};
    mcp_trade basket = on_assets("basket", MCP_PRODUCT_BASKET, MCP_CALL, 0, T, names);
    basket.weights = w;
    best.strike = 90;
    worst.strike = 85;
    add_trade(p, &best);
    add_trade(p, &worst);
    add_trade(p, &basket);
    mcp_results *r = price(*state, m, p);
    double s1 = sqrt(h1.theta), s2 = sqrt(h2.theta);
    assert_within("best-of call", estimate(r, "best"),
                  cf_stulz(MCP_CALL, 1, h1.spot, h2.spot, 90, T, 0.03, h1.dividend,
                           h2.dividend, s1, s2, rho),
                  NSE);
    assert_within("worst-of put", estimate(r, "worst"),
                  cf_stulz(MCP_PUT, 0, h1.spot, h2.spot, 85, T, 0.03, h1.dividend,
                           h2.dividend, s1, s2, rho),
                  NSE);
    /* a basket of strike 0 pays its value: the sum of the discounted forwards */
    assert_within("basket", estimate(r, "basket"),
                  exp(-h1.dividend * T) + exp(-h2.dividend * T), NSE);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* Each asset of a correlated pair is the one-asset Heston model: a basket
 * of weights (1, 0) is a call on the first, (0, 1) on the second, against
 * the closed form, with every Brownian motion correlated to the others. */
static void marginals_are_heston(void **state)
{
  const heston h1 = {100, 0.02, 0.0, 0.05, 1.2, 0.04, 0.6, -0.7};
  const heston h2 = {50, 0.02, 0.01, 0.03, 2.5, 0.06, 0.4, -0.3};
  const char *const names[4] = {"H1", "H1:variance", "H2", "H2:variance"};
  const double c[16] = {1,   -0.7, 0.5, 0.1, /* H1 */
                        -0.7, 1,   0.0, 0.3, /* H1:variance */
                        0.5, 0.0, 1,   -0.3, /* H2 */
                        0.1, 0.3, -0.3, 1};  /* H2:variance */
  mcp_market *m = pair_market(h1, h2, 4, names, c);
  const char *const assets[2] = {"H1", "H2"};
  const double w1[2] = {1, 0}, w2[2] = {0, 1}, T = 1;
  mcp_portfolio *p = new_portfolio(400000, 21);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 50), MCP_OK);
  mcp_trade a = on_assets("first", MCP_PRODUCT_BASKET, MCP_CALL, 105, T, assets);
  mcp_trade b = on_assets("second", MCP_PRODUCT_BASKET, MCP_PUT, 48, T, assets);
  a.weights = w1;
  b.weights = w2;
  add_trade(p, &a);
  add_trade(p, &b);
  mcp_results *r = price(*state, m, p);
  assert_within("first asset", estimate(r, "first"),
                cf_heston(MCP_CALL, h1.spot, 105, T, h1.rate, h1.dividend, h1.v0, h1.kappa,
                          h1.theta, h1.xi, h1.rho),
                NSE);
  assert_within("second asset", estimate(r, "second"),
                cf_heston(MCP_PUT, h2.spot, 48, T, h2.rate, h2.dividend, h2.v0, h2.kappa,
                          h2.theta, h2.xi, h2.rho),
                NSE);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A worst-of autocallable on two Heston assets runs the per-path arrays on
 * their state: its redemption probabilities sum to 1, and never called with
 * no coupon and no knock-in it is the discounted notional. */
static void autocallable_on_heston_assets(void **state)
{
  const heston h1 = {100, 0.03, 0.0, 0.04, 1.5, 0.04, 0.5, -0.6};
  const heston h2 = {60, 0.03, 0.0, 0.06, 1.0, 0.05, 0.7, -0.8};
  const char *const assets[2] = {"H1", "H2"};
  const double c[4] = {1, 0.3, 0.3, 1}, fix[4] = {0.25, 0.5, 0.75, 1}, s0[2] = {100, 60};
  mcp_market *m = pair_market(h1, h2, 2, assets, c);
  mcp_portfolio *p = new_portfolio(20000, 3);
  mcp_trade t = on_assets("note", MCP_PRODUCT_AUTOCALLABLE, MCP_CALL, 1.0, 1, assets);
  t.nfixings = 4;
  t.fixings = fix;
  t.initial_fixings = s0;
  t.notional = 100;
  mcp_trade plain = t;
  plain.id = "plain";
  t.autocall_level = 1.0;
  t.coupon = 0.03;
  t.coupon_barrier = 0.8;
  t.knock_in = 0.6;
  add_trade(p, &t);
  add_trade(p, &plain);
  mcp_results *r = price(*state, m, p);
  size_t i;
  double sum = 0, time;
  mcp_estimate e;
  assert_int_equal(mcp_results_find(r, "note", &i), MCP_OK);
  for (size_t k = 0; mcp_results_redemption(r, i, k, &time, &e) == MCP_OK; k++)
    sum += e.price;
  assert_true(fabs(sum - 1) < 1e-12);
  mcp_estimate n = estimate(r, "plain"), a = estimate(r, "note");
  assert_true(fabs(n.price - 100 * exp(-0.03)) <= 1e-12 * n.price);
  assert_true(a.price > 80 && a.price < 110 && a.std_error > 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* With a vanishing vol-of-vol and v0 = theta, a worst-of autocallable on
 * two Heston assets (coupons with memory, a knock-in put) is the same note
 * on two Black-Scholes assets of volatility sqrt(theta), spots correlated
 * alike: its price and each redemption probability, within the standard
 * errors of the two independent runs. */
static void autocallable_black_scholes_limit(void **state)
{
  const heston h1 = {100, 0.03, 0.01, 0.04, 1.5, 0.04, 1e-4, -0.7};
  const heston h2 = {60, 0.03, 0.02, 0.09, 2.0, 0.09, 1e-4, 0.5};
  const char *const names[2] = {"H1", "H2"};
  const double c[4] = {1, 0.6, 0.6, 1}, fix[4] = {0.25, 0.5, 0.75, 1}, s0[2] = {100, 60};
  mcp_market *hm = pair_market(h1, h2, 2, names, c), *bm = new_market();
  add_underlying(bm, "H1", (bs_params){h1.spot, h1.rate, h1.dividend, sqrt(h1.theta)});
  add_underlying(bm, "H2", (bs_params){h2.spot, h2.rate, h2.dividend, sqrt(h2.theta)});
  correlate(bm, 2, names, c);
  mcp_trade t = on_assets("note", MCP_PRODUCT_AUTOCALLABLE, MCP_CALL, 1.0, 1, names);
  t.nfixings = 4;
  t.fixings = fix;
  t.initial_fixings = s0;
  t.notional = 100;
  t.autocall_level = 1.0;
  t.coupon = 0.03;
  t.coupon_barrier = 0.8;
  t.memory = 1;
  t.knock_in = 0.7;
  mcp_results *r[2];
  for (int k = 0; k < 2; k++) {
    mcp_portfolio *p = new_portfolio(200000, 17 + k);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
    add_trade(p, &t);
    r[k] = price(*state, k ? bm : hm, p);
    mcp_portfolio_destroy(p);
  }
  mcp_estimate e[2];
  for (size_t d = 0;; d++) {
    double time;
    int more = 1;
    for (int k = 0; k < 2; k++) /* d == 4: the price, else date d's redemption */
      if (d == 4)
        e[k] = estimate(r[k], "note");
      else
        more = mcp_results_redemption(r[k], 0, d, &time, &e[k]) == MCP_OK;
    if (!more)
      break;
    double se = hypot(e[0].std_error, e[1].std_error);
    print_message("  %s %zu: Heston %.6f +- %.1e  Black-Scholes %.6f +- %.1e\n",
                  d == 4 ? "price" : "date", d, e[0].price, e[0].std_error, e[1].price,
                  e[1].std_error);
    if (!(se > 0 && fabs(e[0].price - e[1].price) <= NSE * se))
      fail_msg("%s %zu: Heston %.8f and Black-Scholes %.8f differ by more than %g se (%.3e)",
               d == 4 ? "price" : "date", d, e[0].price, e[1].price, NSE, se);
    if (d == 4)
      break;
  }
  mcp_results_destroy(r[0]);
  mcp_results_destroy(r[1]);
  mcp_market_destroy(hm);
  mcp_market_destroy(bm);
}

/* The vega of each asset: a basket of weights (1, 0) has the first asset's
 * vega alone, which is that of the same call on the first asset priced by
 * itself (other normals: within the standard errors), and none of the
 * second's. */
static void vega_of_each_asset(void **state)
{
  const heston h1 = {100, 0.02, 0.0, 0.05, 1.2, 0.04, 0.6, -0.7};
  const heston h2 = {50, 0.02, 0.01, 0.03, 2.5, 0.06, 0.4, -0.3};
  const char *const assets[2] = {"H1", "H2"};
  const double c[4] = {1, 0.3, 0.3, 1}, w[2] = {1, 0};
  mcp_market *m = pair_market(h1, h2, 2, assets, c);
  mcp_portfolio *p = new_portfolio(100000, 8);
  mcp_trade b = on_assets("basket", MCP_PRODUCT_BASKET, MCP_CALL, 100, 1, assets);
  b.weights = w;
  add_trade(p, &b);
  mcp_trade e = trade_on("call", "H1", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  add_trade(p, &e);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_VEGA), MCP_OK);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price_greeks(*state, m, p, g, &r), MCP_OK);
  mcp_sensitivity v1, v2, vc;
  assert_int_equal(mcp_results_greek(r, "basket", "vega:H1", &v1), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "basket", "vega:H2", &v2), MCP_OK);
  assert_int_equal(mcp_results_greek(r, "call", "vega", &vc), MCP_OK);
  print_message("  vega:H1 %.6f +- %.2e, vega:H2 %g, one asset %.6f +- %.2e\n", v1.value.price,
                v1.value.std_error, v2.value.price, vc.value.price, vc.value.std_error);
  assert_true(v2.value.price == 0 && v2.value.std_error == 0);
  double se = hypot(v1.value.std_error, vc.value.std_error);
  assert_true(v1.value.price > 10 * v1.value.std_error);
  assert_true(fabs(v1.value.price - vc.value.price) <= NSE * se);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* a - b, independent estimates: within k of their standard errors of 0 */
static void assert_agree(const char *what, mcp_estimate a, mcp_estimate b, double k)
{
  mcp_estimate d = a;
  d.price = a.price - b.price;
  d.std_error = hypot(a.std_error, b.std_error);
  assert_within(what, d, 0, k);
}

/* Early exercise on several Heston assets (Longstaff-Schwartz on their
 * log-spots): in the Black-Scholes limit a Bermudan basket put and an
 * American worst-of put price as on Black-Scholes assets of volatilities
 * sqrt(theta), their spots as correlated; each above its European. */
static void early_exercise_black_scholes_limit(void **state)
{
  const heston h1 = {100, 0.03, 0.01, 0.04, 1.5, 0.04, 1e-4, -0.7};
  const heston h2 = {90, 0.03, 0.0, 0.09, 2.0, 0.09, 1e-4, 0.5};
  const char *const hh[2] = {"H1", "H2"}, *const bb[2] = {"B1", "B2"};
  const double c[4] = {1, 0.4, 0.4, 1};
  mcp_market *m = pair_market(h1, h2, 2, hh, c);
  add_underlying(m, "B1", (bs_params){100, 0.03, 0.01, 0.2});
  add_underlying(m, "B2", (bs_params){90, 0.03, 0.0, 0.3});
  correlate(m, 2, bb, c);
  mcp_portfolio *p = new_portfolio(60000, 13);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  static const double dates[4] = {0.25, 0.5, 0.75, 1};
  static const char *const ids[2][3] = {{"HB", "HW", "HE"}, {"BB", "BW", "BE"}};
  for (int k = 0; k < 2; k++) {
    mcp_trade t = on_assets(ids[k][0], MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1, k ? bb : hh);
    t.nfixings = 4;
    t.fixings = dates;
    add_trade(p, &t);
    t = on_assets(ids[k][1], MCP_PRODUCT_AMERICAN, MCP_PUT, 95, 1, k ? bb : hh);
    t.payoff = MCP_PRODUCT_WORST_OF;
    t.exercises = 6;
    add_trade(p, &t);
    t = on_assets(ids[k][2], MCP_PRODUCT_BASKET, MCP_PUT, 100, 1, k ? bb : hh);
    add_trade(p, &t);
  }
  mcp_results *r = price(*state, m, p);
  assert_agree("Bermudan", estimate(r, "HB"), estimate(r, "BB"), NSE);
  assert_agree("American", estimate(r, "HW"), estimate(r, "BW"), NSE);
  mcp_estimate e = estimate(r, "HE"), b = estimate(r, "HB");
  if (b.price < e.price + 4 * b.std_error)
    fail_msg("the Bermudan %.6f is not above its European %.6f", b.price, e.price);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void expect_refused(void **state, mcp_market *m, const mcp_trade *t, const char *needle)
{
  mcp_portfolio *p = new_portfolio(1000, 1);
  add_trade(p, t);
  mcp_results *r = NULL;
  mcp_status st = mcp_price(*state, m, p, &r);
  const char *msg = mcp_context_last_error(*state);
  print_message("  %s\n", msg);
  assert_int_equal(st, MCP_ERR_INPUT);
  assert_null(r);
  if (!strstr(msg, needle))
    fail_msg("expected '%s' in: %s", needle, msg);
  mcp_portfolio_destroy(p);
}

static void refused(void **state)
{
  const heston h = {100, 0.03, 0.0, 0.04, 1.5, 0.04, 0.5, -0.6};
  mcp_market *m = new_market();
  add_heston(m, "H1", h);
  add_heston(m, "H2", h);
  add_underlying(m, "A", (bs_params){100, 0.03, 0, 0.2});
  const char *const mixed[2] = {"H1", "A"}, *hh[2] = {"H1", "H2"};
  mcp_trade t = on_assets("mixed", MCP_PRODUCT_BASKET, MCP_CALL, 100, 1, mixed);
  expect_refused(state, m, &t, "is not a Heston underlying; multi-asset products need "
                                  "Black-Scholes, Heston or local-volatility underlyings, one "
                                  "model throughout");
  /* each pair fine, the four together not positive definite: H1's spot
   * follows H2's and H2's variance, which move apart */
  const char *const names[4] = {"H1", "H1:variance", "H2", "H2:variance"};
  const double c[16] = {1, -0.6, 0.9, 0.9, -0.6, 1, 0, 0, 0.9, 0, 1, -0.6, 0.9, 0, -0.6, 1};
  assert_int_equal(mcp_market_set_correlation(m, 4, names, c), MCP_ERR_INPUT);
  /* a rho of 1: the spot and the variance one Brownian motion */
  const heston one = {100, 0.03, 0.0, 0.04, 1.5, 0.04, 0.5, 1};
  add_heston(m, "H3", one);
  const char *const h13[2] = {"H1", "H3"};
  t = on_assets("rho1", MCP_PRODUCT_BASKET, MCP_CALL, 100, 1, h13);
  expect_refused(state, m, &t, "several Heston assets need |rho| < 1");
  /* a matrix of the spots alone may still leave the joint one indefinite */
  const double s[4] = {1, -0.99, -0.99, 1};
  const char *const sv[2] = {"H1:variance", "H2:variance"};
  const double v[4] = {1, 0.99, 0.99, 1};
  correlate(m, 2, hh, s);
  correlate(m, 2, sv, v);
  t = on_assets("basket", MCP_PRODUCT_BASKET, MCP_CALL, 100, 1, hh);
  expect_refused(state, m, &t, "spots and variances is not positive definite");
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(black_scholes_limit),
      cmocka_unit_test(marginals_are_heston),
      cmocka_unit_test(vega_of_each_asset),
      cmocka_unit_test(autocallable_on_heston_assets),
      cmocka_unit_test(autocallable_black_scholes_limit),
      cmocka_unit_test(early_exercise_black_scholes_limit),
      cmocka_unit_test(refused),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
