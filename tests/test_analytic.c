/* test_analytic.c: the analytic engine and mcp_heston_european against the
 * reference formulas of tests/cf_*.h (Lewis's 50-digit Heston prices, an
 * adaptive Heston integral, Black's and Merton's formulas), against Monte
 * Carlo on the same model, its Greeks against differences of the
 * references, and the trades and inputs it refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "tests/cf_heston.h"
#include "tests/cf_merton.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "src/analytic/analytic.h"

static void close_to(double got, double want, double tol, const char *what)
{
  if (!(fabs(got - want) <= tol))
    fail_msg("%s: %.15g, expected %.15g (error %.3g > %.3g)", what, got, want,
             fabs(got - want), tol);
}

static double heston(mcp_option_type type, double strike, double maturity)
{
  double p = NAN;
  char err[256];
  if (mcp_heston_european(type, 100, strike, maturity, 0.01, 0.02, 0.04, 4, 0.25, 1, -0.5, &p,
                          err, sizeof err) != MCP_OK)
    fail_msg("mcp_heston_european: %s", err);
  return p;
}

/* Lewis's 50-digit reference prices (tests/cf_heston.h). */
static void test_heston_lewis(void **state)
{
  (void)state;
  for (size_t i = 0; i < 5; i++) {
    close_to(heston(MCP_CALL, cf_heston_lewis[i].strike, 1), cf_heston_lewis[i].call, 1e-11,
             "Lewis's call");
    close_to(heston(MCP_PUT, cf_heston_lewis[i].strike, 1), cf_heston_lewis[i].put, 1e-11,
             "Lewis's put");
  }
}

/* Against the adaptive integral of tests/cf_heston.h (itself checked to
 * 1e-12 against a 1e-15 run) over a grid of parameters, maturities from a
 * week to 20 years and strikes half to twice the spot, and at the forward
 * (rate = dividend, strike 100: only phi's own phase turns the integrand). */
static void test_heston_grid(void **state)
{
  (void)state;
  static const double v0s[] = {0.01, 0.09}, kappas[] = {0.3, 3}, thetas[] = {0.02, 0.1},
                      xis[] = {0.1, 0.8, 1.5}, rhos[] = {-0.9, 0, 0.6},
                      ts[] = {1.0 / 52, 0.5, 3, 20}, ks[] = {50, 90, 100, 115, 200};
  double worst = 0;
  for (int a = 0; a < 2; a++) /* at the forward */
    for (int d = 0; d < 3; d++)
      for (int e = 0; e < 3; e++)
        for (int f = 0; f < 4; f++) {
          double p = NAN, v = v0s[a];
          assert_int_equal(mcp_heston_european(MCP_CALL, 100, 100, ts[f], 0.02, 0.02, v, 1, v,
                                               xis[d] * 3, rhos[e] * 1.1, &p, NULL, 0),
                           MCP_OK);
          worst = fmax(worst, fabs(p - cf_heston(MCP_CALL, 100, 100, ts[f], 0.02, 0.02, v, 1, v,
                                                 xis[d] * 3, rhos[e] * 1.1)));
        }
  for (int a = 0; a < 2; a++)
    for (int b = 0; b < 2; b++)
      for (int c = 0; c < 2; c++)
        for (int d = 0; d < 3; d++)
          for (int e = 0; e < 3; e++)
            for (int f = 0; f < 4; f++)
              for (int g = 0; g < 5; g++) {
                double p = NAN;
                assert_int_equal(mcp_heston_european(MCP_PUT, 100, ks[g], ts[f], 0.03, 0.01,
                                                     v0s[a], kappas[b], thetas[c], xis[d],
                                                     rhos[e], &p, NULL, 0),
                                 MCP_OK);
                double want = cf_heston(MCP_PUT, 100, ks[g], ts[f], 0.03, 0.01, v0s[a],
                                        kappas[b], thetas[c], xis[d], rhos[e]);
                worst = fmax(worst, fabs(p - want));
              }
  print_message("  largest difference from the adaptive integral: %.2e\n", worst);
  assert_true(worst < 1e-10);
}

/* Merton's sum where its factors would overflow (lambda T 30, jumps of
 * mean 2: e^{-lambda k T} is e^{-201}, (1 + k)^n up to e^{200}): finite, and
 * the call on a forward so skewed that nearly all its mass sits near 0 worth
 * nearly the forward; and where it is long (lambda T = 1e5): against the
 * Black formula of the jumps' mean variance when the jumps are many and
 * small (the Poisson count is then 1e5 within 0.3%). */
static void test_merton_extremes(void **state)
{
  (void)state;
  mcpi_fwd_call c = mcpi_merton_call(30, 2, 0.3, 100, 100, 0.04 * 30);
  assert_true(isfinite(c.call) && c.call > 99 && c.call <= 100 * (1 + 1e-12) && c.dfwd > 0.99 &&
              c.dfwd <= 1 + 1e-12 && isfinite(c.dfwd2));
  double jv = 0.01, var = 0.04 + 1e5 * jv * jv;
  c = mcpi_merton_call(1e5, -0.5 * jv * jv, jv, 100, 100, 0.04);
  double black = cf_black(MCP_CALL, 100, 100, sqrt(var), 1);
  print_message("  lambda T 1e5: %.10g, Black of the mean variance %.10g\n", c.call, black);
  close_to(c.call, black, 1e-3 * black, "many small jumps");
}

static void test_heston_bad_inputs(void **state)
{
  (void)state;
  double p = 0;
  char err[256];
  assert_int_equal(mcp_heston_european(MCP_CALL, 100, 100, 1, 0, 0, -0.04, 1, 0.04, 0.5, 0, &p,
                                       err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "v0"));
  assert_int_equal(mcp_heston_european(MCP_CALL, 100, 100, 1, 0, 0, 0.04, 1, 0.04, 0.5, 1.5, &p,
                                       err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "rho"));
  assert_int_equal(mcp_heston_european(MCP_CALL, 100, 0, 1, 0, 0, 0.04, 1, 0.04, 0.5, 0, &p,
                                       err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "strike"));
  assert_int_equal(mcp_heston_european(MCP_CALL, 100, 100, 0, 0, 0, 0.04, 1, 0.04, 0.5, 0, &p,
                                       err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "maturity"));
  assert_int_equal(mcp_heston_european(MCP_CALL, 100, 100, 1, 0, 0, 0.04, 1, 0.04, 0.5, 0, NULL,
                                       err, sizeof err),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_heston_european((mcp_option_type)7, 100, 100, 1, 0, 0, 0.04, 1, 0.04,
                                       0.5, 0, &p, NULL, 0),
                   MCP_ERR_ARGUMENT);
}

/* A market of the three models the closed forms price: Black-Scholes with
 * term structures of rate, dividend and volatility; Merton; Heston. */
static mcp_market *models(void)
{
  mcp_market *m = new_market();
  add_underlying(m, "BS", (bs_params){100, 0.03, 0.01, 0.2});
  static const double ends[] = {0.5, 1.5}, rates[] = {0.02, 0.04}, divs[] = {0.0, 0.015},
                      vols[] = {0.3, 0.2};
  assert_int_equal(mcp_market_set_curve(m, "BS", MCP_CURVE_RATE, 2, ends, rates), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "BS", MCP_CURVE_DIVIDEND, 2, ends, divs), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "BS", MCP_CURVE_VOLATILITY, 2, ends, vols), MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "JUMP", 100, 0.03, 0.01, 0.2, 0.5, -0.1, 0.15),
                   MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "SV", 100, 0.03, 0.01, 0.04, 1.5, 0.05, 0.6, -0.7),
                   MCP_OK);
  return m;
}

static void add_closed(mcp_portfolio *p, const char *id, const char *und, mcp_option_type type,
                       double strike, double maturity)
{
  mcp_trade t = trade_on(id, und, MCP_PRODUCT_EUROPEAN, type, strike, maturity);
  t.engine = MCP_ENGINE_ANALYTIC;
  add_trade(p, &t);
}

/* The Black-Scholes underlying's closed form: Black's formula on the curves'
 * integrals to T = 1.2 (rate 0.02 x 0.5 + 0.04 x 0.7, and so on). */
static double bs_curves(mcp_option_type type, double spot, double strike, double dr, double dv)
{
  double r = (0.02 + dr) * 0.5 + (0.04 + dr) * 0.7, q = 0.015 * 0.7;
  double v = (0.3 + dv) * (0.3 + dv) * 0.5 + (0.2 + dv) * (0.2 + dv) * 0.7;
  return cf_black(type, spot * exp(r - q), strike, sqrt(v), exp(-r));
}

/* Each model's trades priced by the engine: its closed form to 1e-11, no
 * standard error, the engine named, no warning; beside Monte Carlo trades
 * on the same underlyings in the same call. */
static void test_engine_prices(void **state)
{
  mcp_market *m = models();
  mcp_portfolio *p = new_portfolio(20000, 7);
  static const mcp_option_type ty[2] = {MCP_CALL, MCP_PUT};
  for (int i = 0; i < 2; i++) {
    char id[3][16];
    snprintf(id[0], 16, "bs%d", i);
    snprintf(id[1], 16, "jump%d", i);
    snprintf(id[2], 16, "sv%d", i);
    add_closed(p, id[0], "BS", ty[i], 95, 1.2);
    add_closed(p, id[1], "JUMP", ty[i], 105, 0.75);
    add_closed(p, id[2], "SV", ty[i], 110, 2);
  }
  add_european(p, "mc", "SV", MCP_CALL, 100, 1, 1);
  mcp_results *r = price(*state, m, p);
  for (int i = 0; i < 2; i++) {
    char id[16];
    snprintf(id, 16, "bs%d", i);
    close_to(estimate(r, id).price, bs_curves(ty[i], 100, 95, 0, 0), 1e-11, id);
    snprintf(id, 16, "jump%d", i);
    close_to(estimate(r, id).price, cf_merton(ty[i], 100, 105, 0.75, 0.03, 0.01, 0.2, 0.5, -0.1,
                                              0.15), 1e-11, id);
    snprintf(id, 16, "sv%d", i);
    mcp_estimate e = estimate(r, id);
    close_to(e.price, cf_heston(ty[i], 100, 110, 2, 0.03, 0.01, 0.04, 1.5, 0.05, 0.6, -0.7),
             1e-10, id);
    assert_true(e.std_error == 0 && e.ci_low == e.price && e.ci_high == e.price);
  }
  size_t k;
  assert_int_equal(mcp_results_find(r, "sv1", &k), MCP_OK);
  assert_int_equal(mcp_results_engine(r, k), MCP_ENGINE_ANALYTIC);
  assert_int_equal(mcp_results_warnings(r, k), 0);
  assert_string_equal(mcp_engine_name(mcp_results_engine(r, k)), "analytic");
  assert_int_equal(mcp_results_find(r, "mc", &k), MCP_OK);
  assert_int_equal(mcp_results_engine(r, k), MCP_ENGINE_MC);
  assert_true(estimate(r, "mc").std_error > 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The closed form and Monte Carlo of the same Heston model agree (the
 * conventions of rho, of the variance's root and of the forward). */
static void test_engine_against_paths(void **state)
{
  mcp_market *m = models();
  mcp_portfolio *p = new_portfolio(200000, 11);
  add_closed(p, "closed", "SV", MCP_PUT, 105, 1);
  add_european(p, "paths", "SV", MCP_PUT, 105, 1, 1);
  mcp_results *r = price(*state, m, p);
  assert_within("Heston put", estimate(r, "paths"), estimate(r, "closed").price, 4);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Delta and gamma in closed form against central differences of the
 * reference; vega, rho and theta the closed form's own differences in the
 * shifted markets (vega: the roots of v0 and theta shifted for Heston),
 * checked against the same differences of the references. */
static void test_engine_greeks(void **state)
{
  mcp_market *m = models();
  mcp_portfolio *p = new_portfolio(1000, 3);
  add_closed(p, "bs", "BS", MCP_CALL, 95, 1.2);
  add_closed(p, "sv", "SV", MCP_PUT, 110, 2);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,gamma,vega,rho,theta"), MCP_OK);
  mcp_results *r = price_greeks(*state, m, p, g);
  double h = 1e-3;
#define SV(S, v0, th, rate, T) \
  cf_heston(MCP_PUT, S, 110, T, rate, 0.01, v0, 1.5, th, 0.6, -0.7)
  double up = SV(100 + h, 0.04, 0.05, 0.03, 2), mid = SV(100, 0.04, 0.05, 0.03, 2),
         dn = SV(100 - h, 0.04, 0.05, 0.03, 2);
  mcp_sensitivity s = greek(r, "sv", "delta");
  assert_int_equal(s.method, MCP_METHOD_ANALYTIC);
  assert_true(s.value.std_error == 0);
  close_to(s.value.price, (up - dn) / (2 * h), 1e-7, "Heston delta");
  close_to(greek(r, "sv", "gamma").value.price, (up - 2 * mid + dn) / (h * h), 1e-4,
           "Heston gamma");
  double rv = 0.01, r0 = sqrt(0.04), rt = sqrt(0.05);
  close_to(greek(r, "sv", "vega").value.price,
           (SV(100, (r0 + rv) * (r0 + rv), (rt + rv) * (rt + rv), 0.03, 2) -
            SV(100, (r0 - rv) * (r0 - rv), (rt - rv) * (rt - rv), 0.03, 2)) / (2 * rv),
           1e-8, "Heston vega");
  close_to(greek(r, "sv", "rho").value.price,
           (SV(100, 0.04, 0.05, 0.0301, 2) - SV(100, 0.04, 0.05, 0.0299, 2)) / 2e-4, 1e-6,
           "Heston rho");
  close_to(greek(r, "sv", "theta").value.price,
           (SV(100, 0.04, 0.05, 0.03, 2 - 1.0 / 365) - mid) * 365, 1e-8, "Heston theta");
#undef SV
  double bu = bs_curves(MCP_CALL, 100 + h, 95, 0, 0), bm = bs_curves(MCP_CALL, 100, 95, 0, 0),
         bd = bs_curves(MCP_CALL, 100 - h, 95, 0, 0);
  close_to(greek(r, "bs", "delta").value.price, (bu - bd) / (2 * h), 1e-7, "Black delta");
  close_to(greek(r, "bs", "gamma").value.price, (bu - 2 * bm + bd) / (h * h), 1e-4,
           "Black gamma");
  close_to(greek(r, "bs", "vega").value.price,
           (bs_curves(MCP_CALL, 100, 95, 0, 0.01) - bs_curves(MCP_CALL, 100, 95, 0, -0.01)) / 0.02,
           1e-8, "Black vega");
  close_to(greek(r, "bs", "rho").value.price,
           (bs_curves(MCP_CALL, 100, 95, 1e-4, 0) - bs_curves(MCP_CALL, 100, 95, -1e-4, 0)) / 2e-4,
           1e-6, "Black rho");
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* With buckets, a Heston trade's model vegas (vega@v0 .. vega@rho): the
 * integral's exact gradient, against central differences of the adaptive
 * reference, and the paths' differences of the same trade within their
 * standard errors; the book's by underlying. */
static void test_engine_model_vegas(void **state)
{
  mcp_market *m = models();
  mcp_portfolio *p = new_portfolio(100000, 9);
  add_closed(p, "closed", "SV", MCP_CALL, 105, 1.5);
  add_european(p, "paths", "SV", MCP_CALL, 105, 1.5, 1);
  /* a floating lookback whose fixings have passed: a forward, which no
   * model parameter moves */
  static const double past_t[2] = {-0.5, -0.25}, past_s[2] = {95, 104};
  mcp_trade fwd = trade_on("forward", "SV", MCP_PRODUCT_LOOKBACK, MCP_PUT, 0, 1.5);
  fwd.strike_kind = MCP_FLOATING_STRIKE;
  fwd.nfixings = fwd.npast = 2;
  fwd.fixings = past_t;
  fwd.past_fixings = past_s;
  add_trade(p, &fwd);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "vega"), MCP_OK);
  assert_int_equal(mcp_greeks_set_buckets(g, 1), MCP_OK);
  mcp_results *r = price_greeks(*state, m, p, g);
  static const char *const param[5] = {"v0", "kappa", "theta", "xi", "rho"};
  for (int k = 0; k < 5; k++) {
    char name[32];
    snprintf(name, sizeof name, "vega@%s", param[k]);
    assert_true(greek(r, "forward", name).value.price == 0);
  }
  double x[5] = {0.04, 1.5, 0.05, 0.6, -0.7};
  for (int k = 0; k < 5; k++) {
    char name[32], book[32];
    snprintf(name, sizeof name, "vega@%s", param[k]);
    snprintf(book, sizeof book, "vega:SV@%s", param[k]);
    double h = 1e-4 * fmax(fabs(x[k]), 0.1), up[5], dn[5];
    memcpy(up, x, sizeof up);
    memcpy(dn, x, sizeof dn);
    up[k] += h;
    dn[k] -= h;
    double want = (cf_heston(MCP_CALL, 100, 105, 1.5, 0.03, 0.01, up[0], up[1], up[2], up[3],
                             up[4]) -
                   cf_heston(MCP_CALL, 100, 105, 1.5, 0.03, 0.01, dn[0], dn[1], dn[2], dn[3],
                             dn[4])) /
                  (2 * h);
    mcp_sensitivity s = greek(r, "closed", name), mc = greek(r, "paths", name);
    assert_int_equal(s.method, MCP_METHOD_ANALYTIC);
    assert_true(s.value.std_error == 0);
    close_to(s.value.price, want, 1e-5 * fmax(1, fabs(want)), name);
    assert_within(name, mc.value, s.value.price, 4);
    close_to(greek(r, NULL, book).value.price, s.value.price + mc.value.price, 1e-12, book);
  }
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* What the closed forms do not price: named by the trade, an error naming
 * it; by the product's default engine, Monte Carlo instead. */
static void test_engine_refusals(void **state)
{
  mcp_market *m = models();
  static const double t[] = {1}, s[] = {100}, v[] = {0.2}, cash_t[] = {0.5}, cash[] = {1};
  assert_int_equal(mcp_market_add_local_vol(m, "LV", 100, 0.03, 0, 1, t, 1, s, v), MCP_OK);
  add_underlying(m, "CASH", (bs_params){100, 0.03, 0, 0.2});
  assert_int_equal(mcp_market_set_cash_dividends(m, "CASH", 1, cash_t, cash), MCP_OK);
  /* a product without a closed form here */
  mcp_portfolio *p = new_portfolio(1000, 1);
  static const double fix[] = {0.5, 1};
  mcp_trade a = trade_on("asian", "BS", MCP_PRODUCT_ASIAN, MCP_CALL, 100, 1);
  a.nfixings = 2;
  a.fixings = fix;
  a.engine = MCP_ENGINE_ANALYTIC;
  assert_int_equal(mcp_portfolio_add_trade(p, &a), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "european"));
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_ASIAN, MCP_ENGINE_ANALYTIC),
                   MCP_ERR_ARGUMENT);
  /* models and dividends without one */
  static const char *const und[] = {"LV", "CASH"}, *const why[] = {"local-volatility", "cash"};
  for (int i = 0; i < 2; i++) {
    mcp_portfolio *q = new_portfolio(1000, 1);
    add_closed(q, "x", und[i], MCP_CALL, 100, 1);
    mcp_results *r = NULL;
    assert_int_equal(mcp_price(*state, m, q, &r), MCP_ERR_INPUT);
    assert_null(r);
    const char *e = mcp_context_last_error(*state);
    if (!strstr(e, "trade 'x'") || !strstr(e, why[i]))
      fail_msg("unexpected message: %s", e);
    mcp_portfolio_destroy(q);
  }
  /* the product's default: where the closed form fits */
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_EUROPEAN, MCP_ENGINE_ANALYTIC),
                   MCP_OK);
  add_european(p, "lv", "LV", MCP_CALL, 100, 1, 1);
  add_european(p, "bs", "BS", MCP_CALL, 100, 1, 1);
  mcp_results *r = price(*state, m, p);
  size_t k;
  assert_int_equal(mcp_results_find(r, "lv", &k), MCP_OK);
  assert_int_equal(mcp_results_engine(r, k), MCP_ENGINE_MC);
  assert_int_equal(mcp_results_find(r, "bs", &k), MCP_OK);
  assert_int_equal(mcp_results_engine(r, k), MCP_ENGINE_ANALYTIC);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Heston's barriers against the European of their strike: a knock-in and
 * a knock-out on the same paths add up to the European's closed form, and
 * the control takes most of the knock-in's variance. */
static void test_heston_control_variate(void **state)
{
  mcp_market *m = models();
  mcp_estimate e[2][2]; /* without and with the control; in, out */
  for (int cv = 0; cv < 2; cv++) {
    mcp_portfolio *p = new_portfolio(100000, 21);
    static const mcp_barrier_kind kinds[2] = {MCP_DOWN_AND_IN, MCP_DOWN_AND_OUT};
    static const char *const ids[2] = {"in", "out"};
    for (int k = 0; k < 2; k++) {
      mcp_trade t = trade_on(ids[k], "SV", MCP_PRODUCT_BARRIER, MCP_PUT, 100, 1);
      t.barrier_kind = kinds[k];
      t.barrier = 85;
      t.monitoring = MCP_MONITOR_BRIDGE;
      t.methods = cv ? MCP_CONTROL_VARIATE : 0;
      add_trade(p, &t);
    }
    mcp_results *r = price(*state, m, p);
    e[cv][0] = estimate(r, "in");
    e[cv][1] = estimate(r, "out");
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  double vanilla = cf_heston(MCP_PUT, 100, 100, 1, 0.03, 0.01, 0.04, 1.5, 0.05, 0.6, -0.7);
  for (int cv = 0; cv < 2; cv++) {
    mcp_estimate sum = {.price = e[cv][0].price + e[cv][1].price,
                        .std_error = hypot(e[cv][0].std_error, e[cv][1].std_error)};
    assert_within(cv ? "in + out, control" : "in + out", sum, vanilla, 4);
  }
  print_message("  knock-in's standard error %.3g without the control, %.3g with it\n",
                e[0][0].std_error, e[1][0].std_error);
  assert_true(e[1][0].std_error < 0.5 * e[0][0].std_error);
  assert_true(fabs(e[1][0].price - e[0][0].price) <
              4 * hypot(e[1][0].std_error, e[0][0].std_error));
  mcp_market_destroy(m);
}

/* The JSON trade field "method": "analytic", and a name it does not know. */
static void test_engine_json(void **state)
{
  static const char market[] =
      "{\"underlyings\": [{\"name\": \"SV\", \"model\": \"heston\", \"spot\": 100,\n"
      " \"rate\": 0.03, \"dividend\": 0.01, \"v0\": 0.04, \"kappa\": 1.5, \"theta\": 0.05,\n"
      " \"xi\": 0.6, \"rho\": -0.7}]}";
  static const char book[] =
      "{\"trades\": [{\"id\": \"a\", \"product\": \"european\", \"type\": \"call\",\n"
      " \"underlying\": \"SV\", \"strike\": 100, \"maturity\": 1, \"method\": \"analytic\"}]}";
  char err[512];
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  if (mcp_market_load_text(&m, "market.json", market, strlen(market), err, sizeof err) !=
          MCP_OK ||
      mcp_portfolio_load_text(&p, "book.json", book, strlen(book), err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  mcp_results *r = price(*state, m, p);
  close_to(estimate(r, "a").price,
           cf_heston(MCP_CALL, 100, 100, 1, 0.03, 0.01, 0.04, 1.5, 0.05, 0.6, -0.7), 1e-10,
           "JSON trade");
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  char bad[sizeof book + 8];
  snprintf(bad, sizeof bad, "%s", book);
  memcpy(strstr(bad, "analytic"), "analitic", 8);
  mcp_portfolio *q = NULL;
  assert_int_equal(mcp_portfolio_load_text(&q, "book.json", bad, strlen(bad), err, sizeof err),
                   MCP_ERR_INPUT);
  assert_null(q);
  if (!strstr(err, "book.json") || !strstr(err, "method") || !strstr(err, "analytic"))
    fail_msg("unexpected message: %s", err);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_heston_lewis),
      cmocka_unit_test(test_heston_grid),
      cmocka_unit_test(test_heston_bad_inputs),
      cmocka_unit_test(test_merton_extremes),
      cmocka_unit_test_setup_teardown(test_engine_prices, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_engine_against_paths, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_engine_greeks, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_engine_refusals, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_engine_model_vegas, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_engine_json, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_heston_control_variate, mc_setup_cpu, mc_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
