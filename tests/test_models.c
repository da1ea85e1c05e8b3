/* test_models.c: the models, products and variance-reduction methods of the
 * CPU backend against closed forms from the literature (tests/cf_*.h), over
 * a table of cases printed as it runs; then the parities and orderings that
 * hold path by path, the methods' consistency and gains, the QMC points
 * against cuRAND's own generator, and bad inputs.  Statistical checks use
 * fixed seeds and a band of NSE standard errors. */
/* the 0.1 run setters on the portfolio, which these tests keep exercising
 * for their one deprecated release (mcprice.h) */
#define MCP_ALLOW_DEPRECATED
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#ifdef MCP_HAVE_CURAND
#include <curand.h>
#define HAVE_QMC 1
#else
#define HAVE_QMC 0 /* QMC takes cuRAND's Sobol directions */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/cf_barrier.h"
#include "tests/cf_heston.h"
#include "tests/cf_lookback.h"
#include "tests/cf_merton.h"
#include "tests/cf_multi.h"
#include "tests/cf_cash.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "models/qmc.h"

#define NSE 3.5

static mcp_context *ctx_of(void **state) { return *state; }

static void fixings(double *t, size_t n, double first, double last)
{
  for (size_t i = 0; i < n; i++)
    t[i] = n == 1 ? last : first + (last - first) * (double)i / (double)(n - 1);
}

/* ---- 1. Black-Scholes with term structures, Europeans and digitals ------ */

/* A piecewise-constant curve: value[i] up to end[i], the last one beyond. */
typedef struct curve {
  size_t n;
  double end[3], value[3];
} curve;

static double curve_integral(const curve *c, double t, int squared)
{
  double sum = 0, from = 0;
  for (size_t i = 0; i < c->n && from < t; i++) {
    double to = i + 1 == c->n ? t : fmin(c->end[i], t);
    double v = squared ? c->value[i] * c->value[i] : c->value[i];
    sum += v * (to - from);
    from = to;
  }
  return sum;
}

typedef struct ts_case {
  const char *id;
  mcp_product product;
  mcp_option_type type;
  mcp_digital digital;
  double spot, strike, maturity;
  curve rate, dividend, vol;
} ts_case;

#define FLAT(v) {1, {1}, {v}}
static const ts_case TS_CASES[] = {
    {"bs-atm-call", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 100, 100, 1, FLAT(0.05), FLAT(0.02),
     FLAT(0.2)},
    {"bs-short-call", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 100, 101, 0.02, FLAT(0.03), FLAT(0),
     FLAT(0.3)},
    {"bs-long-put", MCP_PRODUCT_EUROPEAN, MCP_PUT, 0, 100, 110, 10, FLAT(0.03), FLAT(0.01),
     FLAT(0.25)},
    {"bs-lowvol-call", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 100, 102, 0.5, FLAT(0.02), FLAT(0),
     FLAT(0.05)},
    {"bs-hivol-put", MCP_PRODUCT_EUROPEAN, MCP_PUT, 0, 100, 100, 1, FLAT(0.02), FLAT(0),
     FLAT(1.0)},
    {"bs-deep-itm-call", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 100, 50, 1, FLAT(0.02), FLAT(0),
     FLAT(0.2)},
    {"bs-deep-otm-call", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 100, 160, 1, FLAT(0.02), FLAT(0),
     FLAT(0.2)},
    {"bs-negrate-put", MCP_PRODUCT_EUROPEAN, MCP_PUT, 0, 100, 100, 2, FLAT(-0.01),
     FLAT(-0.005), FLAT(0.2)},
    {"bs-ts-call", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 100, 105, 1.5,
     {3, {0.5, 1, 2}, {0.01, 0.03, 0.05}}, {2, {0.75, 5}, {0.0, 0.02}},
     {3, {0.25, 1, 3}, {0.1, 0.3, 0.2}}},
    {"bs-ts-negrate-put", MCP_PRODUCT_EUROPEAN, MCP_PUT, 0, 100, 95, 3,
     {2, {1, 2}, {-0.01, -0.005}}, FLAT(0), {2, {0.5, 2}, {0.4, 0.15}}},
    {"dig-cash-call", MCP_PRODUCT_DIGITAL, MCP_CALL, MCP_CASH_OR_NOTHING, 100, 110, 1,
     FLAT(0.03), FLAT(0.01), FLAT(0.25)},
    {"dig-cash-put-ts", MCP_PRODUCT_DIGITAL, MCP_PUT, MCP_CASH_OR_NOTHING, 100, 90, 2,
     {2, {1, 2}, {0.01, 0.04}}, FLAT(0), {2, {1, 2}, {0.3, 0.2}}},
    {"dig-asset-call", MCP_PRODUCT_DIGITAL, MCP_CALL, MCP_ASSET_OR_NOTHING, 100, 95, 0.5,
     FLAT(0.02), FLAT(0.03), FLAT(0.4)},
    {"dig-asset-put", MCP_PRODUCT_DIGITAL, MCP_PUT, MCP_ASSET_OR_NOTHING, 100, 100, 1,
     FLAT(-0.01), FLAT(0), FLAT(0.2)},
};
#define NTS (sizeof TS_CASES / sizeof TS_CASES[0])
#define DIGITAL_CASH 5.0

static void set_curve(mcp_market *m, const char *name, mcp_curve which, const curve *c)
{
  if (mcp_market_set_curve(m, name, which, c->n, c->end, c->value) != MCP_OK)
    fail_msg("curve of %s: %s", name, mcp_market_last_error(m));
}

static double ts_exact(const ts_case *c)
{
  double t = c->maturity, r = curve_integral(&c->rate, t, 0);
  double q = curve_integral(&c->dividend, t, 0);
  double s = sqrt(curve_integral(&c->vol, t, 1)), df = exp(-r);
  double fwd = c->spot * exp(r - q), sign = c->type == MCP_CALL ? 1 : -1;
  if (c->product == MCP_PRODUCT_EUROPEAN)
    return cf_black(c->type, fwd, c->strike, s, df);
  double d1 = (log(fwd / c->strike) + 0.5 * s * s) / s, d2 = d1 - s;
  return c->digital == MCP_CASH_OR_NOTHING ? DIGITAL_CASH * df * cf_norm_cdf(sign * d2)
                                           : df * fwd * cf_norm_cdf(sign * d1);
}

static void test_black_scholes_curves(void **state)
{
  mcp_market *m = new_market();
  mcp_portfolio *p = new_portfolio(200000, 101);
  for (size_t i = 0; i < NTS; i++) {
    const ts_case *c = &TS_CASES[i];
    add_underlying(m, c->id, (bs_params){c->spot, 0, 0, 0.1});
    set_curve(m, c->id, MCP_CURVE_RATE, &c->rate);
    set_curve(m, c->id, MCP_CURVE_DIVIDEND, &c->dividend);
    set_curve(m, c->id, MCP_CURVE_VOLATILITY, &c->vol);
    mcp_trade t = trade_on(c->id, c->id, c->product, c->type, c->strike, c->maturity);
    t.digital = c->digital;
    t.cash = DIGITAL_CASH;
    add_trade(p, &t);
  }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < NTS; i++)
    assert_within(TS_CASES[i].id, estimate(r, TS_CASES[i].id), ts_exact(&TS_CASES[i]), NSE);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 2. Heston, both schemes, against the characteristic function ------- */

typedef struct heston_case {
  const char *id;
  mcp_heston_scheme scheme;
  unsigned steps_per_year;
  mcp_option_type type;
  double spot, strike, maturity, rate, dividend;
  double v0, kappa, theta, xi, rho;
} heston_case;

/* Feller 2 kappa theta >= xi^2 fails in every case with xi >= 0.5 below. */
static const heston_case HESTON_CASES[] = {
    {"qe-atm-call", MCP_HESTON_QE, 32, MCP_CALL, 100, 100, 1, 0.03, 0, 0.04, 1.5, 0.04, 0.3,
     -0.9},
    {"qe-feller-put", MCP_HESTON_QE, 32, MCP_PUT, 100, 90, 1, 0.02, 0, 0.04, 0.5, 0.04, 1.0,
     -0.9},
    {"qe-long-call", MCP_HESTON_QE, 16, MCP_CALL, 100, 130, 5, 0.03, 0.01, 0.09, 1.0, 0.06, 0.5,
     -0.7},
    {"qe-short-call", MCP_HESTON_QE, 250, MCP_CALL, 100, 102, 0.1, 0.01, 0, 0.09, 2.0, 0.06, 0.6,
     -0.5},
    {"qe-deep-otm-put", MCP_HESTON_QE, 32, MCP_PUT, 100, 70, 1, 0.02, 0, 0.04, 1.0, 0.04, 0.8,
     -0.9},
    {"qe-negrate-put", MCP_HESTON_QE, 32, MCP_PUT, 100, 105, 2, -0.01, 0, 0.0625, 2.0, 0.04, 0.4,
     0.3},
    {"euler-atm-call", MCP_HESTON_EULER, 256, MCP_CALL, 100, 100, 1, 0.03, 0, 0.04, 1.5, 0.04,
     0.3, -0.9},
    {"euler-feller-put", MCP_HESTON_EULER, 256, MCP_PUT, 100, 95, 1, 0.02, 0, 0.04, 1.0, 0.04,
     0.5, -0.9},
};
#define NHESTON (sizeof HESTON_CASES / sizeof HESTON_CASES[0])

static void test_heston(void **state)
{
  for (size_t i = 0; i < NHESTON; i++) {
    const heston_case *c = &HESTON_CASES[i];
    mcp_market *m = new_market();
    if (mcp_market_add_heston(m, "H", c->spot, c->rate, c->dividend, c->v0, c->kappa, c->theta,
                              c->xi, c->rho) != MCP_OK)
      fail_msg("%s: %s", c->id, mcp_market_last_error(m));
    mcp_portfolio *p = new_portfolio(100000, 202 + i);
    assert_int_equal(mcp_portfolio_set_heston_scheme(p, c->scheme), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, c->steps_per_year), MCP_OK);
    mcp_trade t = trade_on(c->id, "H", MCP_PRODUCT_EUROPEAN, c->type, c->strike, c->maturity);
    add_trade(p, &t);
    mcp_results *r = price(ctx_of(state), m, p);
    assert_within(c->id, estimate(r, c->id),
                  cf_heston(c->type, c->spot, c->strike, c->maturity, c->rate, c->dividend,
                            c->v0, c->kappa, c->theta, c->xi, c->rho),
                  NSE);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* Heston with no steps_per_year: the default grid (252 a year) rather than
 * one QE step to maturity, which missed the closed form by 45% at xi 10
 * (5.76 against 3.95) and by 7% at xi 2.  Euler's bias at such xi remains
 * (the discretisation check's business, not this grid's). */
static void test_heston_default_grid(void **state)
{
  static const double xi[2] = {10, 2};
  for (int i = 0; i < 2; i++) {
    mcp_market *m = new_market();
    assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1.5, 0.04, xi[i], -0.7),
                     MCP_OK);
    mcp_portfolio *p = new_portfolio(100000, 31 + i);
    mcp_trade t = trade_on(i ? "qe-xi2" : "qe-xi10", "H", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
    add_trade(p, &t);
    mcp_results *r = price(ctx_of(state), m, p);
    assert_within(t.id, estimate(r, t.id),
                  cf_heston(MCP_CALL, 100, 100, 1, 0.03, 0, 0.04, 1.5, 0.04, xi[i], -0.7), NSE);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* The QE step at its edges, in double and float: a step of 1e-9 years, whose
 * e^{-kappa dt} rounds to 1 in float (no variance over the step: 0 / 0
 * before), and with rho 0 a xi so small that 2 / psi passes 1e19 (r (r - 1)
 * overflowed float); with v0 = theta the variance then stays at 0.04, and
 * the European is Black-Scholes' at 20%.  Float refuses a |rho| / xi past
 * MCPI_FLOAT_HESTON_RHO_XI, where its log-spot is lost to rounding (3% off
 * at 5,000). */
static void test_heston_qe_edges(void **state)
{
  const double fix[3] = {0.5, 0.5 + 1e-9, 1};
  /* xi 1e-9 with rho / xi -900 (float's bound 1000) and v 0.25: 2 / psi
   * at its cap, where the correction's A b2 m q overflowed float before
   * 1 / (q d) (a review's find) */
  static const double xis[3] = {0.3, 1e-9, 1e-9}, rhos[3] = {-0.5, 0, -0.9e-6},
                      vs[3] = {0.04, 0.04, 0.25};
  for (int prec = 0; prec < 2; prec++)
    for (int tiny = 0; tiny < 3; tiny++) {
      double xi = xis[tiny], rho = rhos[tiny], v = vs[tiny];
      mcp_market *m = new_market();
      assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, v, 1.5, v, xi, rho), MCP_OK);
      mcp_portfolio *p = new_portfolio(20000, 5);
      assert_int_equal(mcp_portfolio_set_precision(p, prec ? MCP_FLOAT : MCP_DOUBLE), MCP_OK);
      add_european(p, "call", "H", MCP_CALL, 100, 1, 1);
      assert_int_equal(mcp_portfolio_add_asian(p, "asian", "H", MCP_ARITHMETIC, MCP_CALL, 100,
                                               3, fix, 1, 1),
                       MCP_OK);
      mcp_results *r = price(ctx_of(state), m, p);
      double want = tiny ? cf_black_scholes(MCP_CALL, 100, 100, 1, 0.03, 0, sqrt(v))
                         : cf_heston(MCP_CALL, 100, 100, 1, 0.03, 0, 0.04, 1.5, 0.04, xi, rho);
      assert_within(prec ? "float call" : "double call", estimate(r, "call"), want, NSE);
      mcp_estimate a = estimate(r, "asian");
      assert_true(isfinite(a.price) && a.std_error > 0);
      mcp_results_destroy(r);
      mcp_portfolio_destroy(p);
      mcp_market_destroy(m);
    }
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1.5, 0.04, 1e-4, -0.5),
                   MCP_OK);
  mcp_portfolio *p = new_portfolio(20000, 5);
  assert_int_equal(mcp_portfolio_set_precision(p, MCP_FLOAT), MCP_OK);
  add_european(p, "call", "H", MCP_CALL, 100, 1, 1);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price(ctx_of(state), m, p, &r), MCP_ERR_INPUT);
  const char *msg = mcp_context_last_error(ctx_of(state));
  print_message("  -> %s\n", msg);
  assert_non_null(strstr(msg, "'H'"));
  assert_non_null(strstr(msg, "double"));
  assert_null(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 3. Merton against its series -------------------------------------- */

typedef struct merton_case {
  const char *id;
  mcp_option_type type;
  double spot, strike, maturity, rate, dividend, vol, lambda, jump_mean, jump_vol;
} merton_case;

static const merton_case MERTON_CASES[] = {
    {"merton-atm-call", MCP_CALL, 100, 100, 1, 0.05, 0, 0.2, 1.0, -0.1, 0.15},
    {"merton-otm-put", MCP_PUT, 100, 80, 0.5, 0.03, 0.01, 0.15, 3.0, -0.05, 0.1},
    {"merton-rare-call", MCP_CALL, 100, 120, 2, 0.02, 0, 0.25, 0.1, -0.3, 0.3},
    {"merton-frequent-put", MCP_PUT, 100, 100, 1, -0.01, 0, 0.1, 10.0, 0.01, 0.05},
};
#define NMERTON (sizeof MERTON_CASES / sizeof MERTON_CASES[0])

static void test_merton(void **state)
{
  mcp_market *m = new_market();
  mcp_portfolio *p = new_portfolio(200000, 303);
  for (size_t i = 0; i < NMERTON; i++) {
    const merton_case *c = &MERTON_CASES[i];
    if (mcp_market_add_merton(m, c->id, c->spot, c->rate, c->dividend, c->vol, c->lambda,
                              c->jump_mean, c->jump_vol) != MCP_OK)
      fail_msg("%s: %s", c->id, mcp_market_last_error(m));
    mcp_trade t = trade_on(c->id, c->id, MCP_PRODUCT_EUROPEAN, c->type, c->strike, c->maturity);
    add_trade(p, &t);
  }
  /* jumps are simulated per step: a grid must not change the law */
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < NMERTON; i++) {
    const merton_case *c = &MERTON_CASES[i];
    assert_within(c->id, estimate(r, c->id),
                  cf_merton(c->type, c->spot, c->strike, c->maturity, c->rate, c->dividend,
                            c->vol, c->lambda, c->jump_mean, c->jump_vol),
                  NSE);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 4. discrete geometric Asians -------------------------------------- */

typedef struct asian_case {
  const char *id;
  mcp_option_type type;
  double strike, first, last, maturity;
  size_t n;
  bs_params u;
} asian_case;

static const asian_case ASIAN_CASES[] = {
    {"geo-monthly-call", MCP_CALL, 100, 1.0 / 12, 1, 1, 12, {100, 0.04, 0.01, 0.3}},
    {"geo-forward-start-put", MCP_PUT, 100, 0.5, 1, 1.25, 6, {100, 0.02, 0, 0.4}},
    {"geo-daily-call-negr", MCP_CALL, 95, 1.0 / 252, 1, 1, 252, {100, -0.005, 0, 0.15}},
    {"geo-long-put", MCP_PUT, 120, 0.5, 5, 5, 10, {100, 0.03, 0.02, 0.25}},
};
#define NASIAN (sizeof ASIAN_CASES / sizeof ASIAN_CASES[0])

static void test_geometric_asian(void **state)
{
  mcp_market *m = new_market();
  mcp_portfolio *p = new_portfolio(200000, 404);
  double fix[NASIAN][252];
  for (size_t i = 0; i < NASIAN; i++) {
    const asian_case *c = &ASIAN_CASES[i];
    add_underlying(m, c->id, c->u);
    fixings(fix[i], c->n, c->first, c->last);
    mcp_trade t = trade_on(c->id, c->id, MCP_PRODUCT_ASIAN, c->type, c->strike, c->maturity);
    t.average = MCP_GEOMETRIC;
    t.nfixings = c->n;
    t.fixings = fix[i];
    add_trade(p, &t);
  }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < NASIAN; i++) {
    const asian_case *c = &ASIAN_CASES[i];
    assert_within(c->id, estimate(r, c->id),
                  cf_geometric_asian(c->type, c->u.spot, c->strike, c->u.rate, c->u.dividend,
                                     c->u.vol, c->n, fix[i], c->maturity),
                  NSE);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 5. barriers against Reiner-Rubinstein ----------------------------- */

typedef struct barrier_case {
  const char *id;
  mcp_barrier_kind kind;
  mcp_monitoring monitoring;
  mcp_option_type type;
  double strike, barrier, rebate, maturity;
  bs_params u;
} barrier_case;

/* BGK cases monitor daily; the bridge needs no monitoring dates. */
static const barrier_case BARRIER_CASES[] = {
    {"do-call-bridge", MCP_DOWN_AND_OUT, MCP_MONITOR_BRIDGE, MCP_CALL, 100, 90, 0, 1,
     {100, 0.03, 0, 0.25}},
    {"di-call-bridge", MCP_DOWN_AND_IN, MCP_MONITOR_BRIDGE, MCP_CALL, 100, 90, 0, 1,
     {100, 0.03, 0, 0.25}},
    {"uo-call-rebate-bridge", MCP_UP_AND_OUT, MCP_MONITOR_BRIDGE, MCP_CALL, 100, 130, 3, 1,
     {100, 0.02, 0.01, 0.2}},
    {"ui-put-bridge", MCP_UP_AND_IN, MCP_MONITOR_BRIDGE, MCP_PUT, 105, 110, 0, 0.5,
     {100, 0.02, 0, 0.3}},
    {"do-put-near-bridge", MCP_DOWN_AND_OUT, MCP_MONITOR_BRIDGE, MCP_PUT, 100, 98, 0, 1,
     {100, 0.01, 0, 0.2}},
    {"uo-put-near-bridge", MCP_UP_AND_OUT, MCP_MONITOR_BRIDGE, MCP_PUT, 100, 101, 2, 2,
     {100, -0.01, 0, 0.3}},
    {"di-put-rebate-bridge", MCP_DOWN_AND_IN, MCP_MONITOR_BRIDGE, MCP_PUT, 95, 85, 1, 3,
     {100, 0.04, 0.02, 0.35}},
    {"ui-call-bridge", MCP_UP_AND_IN, MCP_MONITOR_BRIDGE, MCP_CALL, 100, 120, 0, 0.25,
     {100, 0.05, 0, 0.5}},
    {"do-call-bgk", MCP_DOWN_AND_OUT, MCP_MONITOR_BGK, MCP_CALL, 100, 95, 0, 1,
     {100, 0.03, 0, 0.25}},
    {"uo-call-bgk", MCP_UP_AND_OUT, MCP_MONITOR_BGK, MCP_CALL, 100, 125, 0, 1,
     {100, 0.03, 0, 0.2}},
    {"ui-put-bgk", MCP_UP_AND_IN, MCP_MONITOR_BGK, MCP_PUT, 100, 110, 0, 1,
     {100, 0.02, 0, 0.3}},
};
#define NBARRIER (sizeof BARRIER_CASES / sizeof BARRIER_CASES[0])

static void test_barriers(void **state)
{
  mcp_market *m = new_market();
  mcp_portfolio *p = new_portfolio(200000, 505);
  double daily[NBARRIER][252];
  for (size_t i = 0; i < NBARRIER; i++) {
    const barrier_case *c = &BARRIER_CASES[i];
    add_underlying(m, c->id, c->u);
    mcp_trade t = trade_on(c->id, c->id, MCP_PRODUCT_BARRIER, c->type, c->strike, c->maturity);
    t.barrier_kind = c->kind;
    t.barrier = c->barrier;
    t.rebate = c->rebate;
    t.monitoring = c->monitoring;
    if (c->monitoring != MCP_MONITOR_BRIDGE) {
      t.nfixings = (size_t)(252 * c->maturity);
      fixings(daily[i], t.nfixings, c->maturity / (double)t.nfixings, c->maturity);
      t.fixings = daily[i];
    }
    add_trade(p, &t);
  }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < NBARRIER; i++) {
    const barrier_case *c = &BARRIER_CASES[i];
    int up = c->kind == MCP_UP_AND_OUT || c->kind == MCP_UP_AND_IN;
    int in = c->kind == MCP_UP_AND_IN || c->kind == MCP_DOWN_AND_IN;
    assert_within(c->id, estimate(r, c->id),
                  cf_barrier(c->type, up, in, c->u.spot, c->strike, c->barrier, c->rebate,
                             c->maturity, c->u.rate, c->u.dividend, c->u.vol),
                  NSE);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* On the bridge, a volatility curve's knot inside a step would give the
 * step one volatility (and a rate or dividend knot one drift): a job that
 * watches the bridge steps on the knots of its underlying's curves.  With
 * no carry (rate = dividend), log S is a Brownian motion of drift -1/2 in
 * the clock int_0^t sigma^2, so the barrier is the flat-volatility one at
 * the root mean square volatility (which even one step over the knot would
 * get right); with carry, the finite-difference grid's price; and the
 * trades price as they do with the knots given as simulation times
 * (run.grid), to the bit. */
static void test_bridge_curve_knots(void **state)
{
  static const curve vol = {2, {0.5, 1}, {0.05, 0.6}};
  static const curve rate = {2, {0.3, 2}, {0.01, 0.05}}, div = {2, {0.7, 2}, {0, 0.02}};
  const double T = 1, r = 0.03, knots[3] = {0.3, 0.5, 0.7};
  double veff = sqrt(curve_integral(&vol, T, 1) / T);
  mcp_market *m = new_market();
  add_underlying(m, "TS", (bs_params){100, r, r, 0.1}); /* no carry */
  set_curve(m, "TS", MCP_CURVE_VOLATILITY, &vol);
  add_underlying(m, "TSC", (bs_params){100, r, 0, 0.1}); /* carry */
  set_curve(m, "TSC", MCP_CURVE_VOLATILITY, &vol);
  add_underlying(m, "TS3", (bs_params){100, 0, 0, 0.1}); /* knots of all three */
  set_curve(m, "TS3", MCP_CURVE_VOLATILITY, &vol);
  set_curve(m, "TS3", MCP_CURVE_RATE, &rate);
  set_curve(m, "TS3", MCP_CURVE_DIVIDEND, &div);
  static const struct {
    const char *id, *und;
    mcp_product product;
    mcp_barrier_kind kind;
    mcp_option_type type;
    double strike, barrier;
  } cases[] = {
      {"uoc-130", "TS", MCP_PRODUCT_BARRIER, MCP_UP_AND_OUT, MCP_CALL, 100, 130},
      {"dop-80", "TS", MCP_PRODUCT_BARRIER, MCP_DOWN_AND_OUT, MCP_PUT, 100, 80},
      {"lbc-110", "TS", MCP_PRODUCT_LOOKBACK, 0, MCP_CALL, 110, 0},
      {"uoc-130-c", "TSC", MCP_PRODUCT_BARRIER, MCP_UP_AND_OUT, MCP_CALL, 100, 130},
      {"uoc-130-c-pde", "TSC", MCP_PRODUCT_BARRIER, MCP_UP_AND_OUT, MCP_CALL, 100, 130},
      {"lbc-110-c", "TSC", MCP_PRODUCT_LOOKBACK, 0, MCP_CALL, 110, 0},
      {"uoc-130-3", "TS3", MCP_PRODUCT_BARRIER, MCP_UP_AND_OUT, MCP_CALL, 100, 130},
      {"lbp-90-3", "TS3", MCP_PRODUCT_LOOKBACK, 0, MCP_PUT, 90, 0},
      {"ec-3", "TS3", MCP_PRODUCT_EUROPEAN, 0, MCP_CALL, 100, 0},
  };
  const size_t n = sizeof cases / sizeof cases[0];
  /* the knots found, no grid; then run.grid on the knots (TS's and TSC's
   * 0.5, TS3's three) and a day after them: either way a date at or a day
   * after a knot pairs it with a step a day later (time_grid.c), so the
   * two give the same steps, k and k + a day, and the same bits */
  const double d = 1.0 / 365, after[3] = {0.3 + d, 0.5 + d, 0.7 + d};
  const double *grid[5] = {NULL, knots + 1, knots, after + 1, after};
  const size_t ngrid[5] = {0, 1, 3, 1, 3};
  mcp_portfolio *p[5];
  for (int k = 0; k < 5; k++) {
    p[k] = new_portfolio(200000, 515);
    if (k)
      assert_int_equal(mcp_portfolio_set_time_grid(p[k], ngrid[k], grid[k]), MCP_OK);
    for (size_t i = 0; i < n; i++) {
      if (k && (k % 2 == 1) != !!strcmp(cases[i].und, "TS3"))
        continue;
      mcp_trade t = trade_on(cases[i].id, cases[i].und, cases[i].product, cases[i].type,
                             cases[i].strike, T);
      t.barrier_kind = cases[i].kind;
      t.barrier = cases[i].barrier;
      if (cases[i].product != MCP_PRODUCT_EUROPEAN)
        t.monitoring = MCP_MONITOR_BRIDGE;
      if (strstr(cases[i].id, "-pde"))
        t.engine = MCP_ENGINE_PDE;
      add_trade(p[k], &t);
    }
  }
  mcp_results *res[5];
  for (int k = 0; k < 5; k++)
    res[k] = price(ctx_of(state), m, p[k]);
  for (size_t i = 0; i < 2; i++) {
    int up = cases[i].kind == MCP_UP_AND_OUT;
    assert_within(cases[i].id, estimate(res[0], cases[i].id),
                  cf_barrier(cases[i].type, up, 0, 100, cases[i].strike, cases[i].barrier, 0, T,
                             r, r, veff),
                  NSE);
  }
  assert_within("uoc-130-c", estimate(res[0], "uoc-130-c"),
                estimate(res[0], "uoc-130-c-pde").price, NSE);
  for (size_t i = 0; i < n; i++) {
    int g = strcmp(cases[i].und, "TS3") == 0 ? 2 : 1;
    mcp_estimate f = estimate(res[0], cases[i].id), a = estimate(res[g], cases[i].id);
    mcp_estimate b = estimate(res[g + 2], cases[i].id);
    print_message("  %-14s %.17g; on the knots %.17g, a day after them %.17g\n", cases[i].id,
                  f.price, a.price, b.price);
    assert_memory_equal(&a, &b, sizeof a);
    if (fabs(a.price - f.price) > NSE * hypot(a.std_error, f.std_error)) /* found and given */
      fail_msg("%s: %.6f with the knots found, %.6f given", cases[i].id, f.price, a.price);
  }
  for (int k = 0; k < 5; k++) {
    mcp_results_destroy(res[k]);
    mcp_portfolio_destroy(p[k]);
  }
  mcp_market_destroy(m);
}

/* An up-and-out call at 130 on und to T watched on the bridge, by paths
 * or on the finite-difference grid (pde). */
static void add_uoc(mcp_portfolio *p, const char *id, const char *und, double T, int pde)
{
  mcp_trade t = trade_on(id, und, MCP_PRODUCT_BARRIER, MCP_CALL, 100, T);
  t.barrier_kind = MCP_UP_AND_OUT;
  t.barrier = 130;
  t.monitoring = MCP_MONITOR_BRIDGE;
  if (pde)
    t.engine = MCP_ENGINE_PDE;
  add_trade(p, &t);
}

/* Theta of bridge-watched trades on term structures, whose jobs step on the
 * curves' knots, which theta's revaluation keeps where they are (its curves
 * keep their tenors) while its dates come a bump closer.  No carry: the
 * flat-volatility barrier at the root mean square volatility, one bump
 * shorter; with carry, the finite-difference grid's theta (a knot moved a
 * bump with the dates would miss it by 11 standard errors).  A knot on
 * another trade's maturity, with an overnight rate pillar, takes a step a
 * day later (time_grid.c): unbiased, with a larger standard error. */
static void test_bridge_knot_theta(void **state)
{
  static const curve vol = {2, {0.5, 1}, {0.05, 0.6}}, mild = {2, {0.5, 1}, {0.2, 0.25}};
  static const curve on = {2, {1.0 / 365, 2}, {0.01, 0.03}};
  const double T = 1, r = 0.03, h = 1.0 / 365;
  mcp_market *m = new_market();
  add_underlying(m, "TS", (bs_params){100, r, r, 0.1});
  set_curve(m, "TS", MCP_CURVE_VOLATILITY, &vol);
  add_underlying(m, "TSC", (bs_params){100, r, 0, 0.1});
  set_curve(m, "TSC", MCP_CURVE_VOLATILITY, &vol);
  add_underlying(m, "TSK", (bs_params){100, r, 0, 0.1});
  set_curve(m, "TSK", MCP_CURVE_VOLATILITY, &mild);
  set_curve(m, "TSK", MCP_CURVE_RATE, &on);
  mcp_portfolio *p = new_portfolio(200000, 517);
  static const struct {
    const char *id, *und;
    int pde;
  } bar[] = {{"uoc", "TS", 0},      {"uoc-c", "TSC", 0}, {"uoc-c-pde", "TSC", 1},
             {"uoc-k", "TSK", 0},   {"uoc-k-pde", "TSK", 1}};
  for (size_t k = 0; k < sizeof bar / sizeof *bar; k++)
    add_uoc(p, bar[k].id, bar[k].und, T, bar[k].pde);
  add_european(p, "ec-knot", "TSK", MCP_CALL, 100, 0.5, 1); /* a maturity on the knot */
  mcp_greeks *g;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "theta"), MCP_OK);
  mcp_results *q;
  if (mcp_price_greeks(ctx_of(state), m, p, g, &q) != MCP_OK)
    fail_msg("greeks: %s", mcp_context_last_error(ctx_of(state)));
  mcp_sensitivity th[5];
  for (size_t k = 0; k < 5; k++)
    assert_int_equal(mcp_results_greek(q, bar[k].id, "theta", &th[k]), MCP_OK);
  double v1 = sqrt(curve_integral(&vol, T, 1) / T);
  double v0 = sqrt(curve_integral(&vol, T - h, 1) / (T - h));
  double want = (cf_barrier(MCP_CALL, 1, 0, 100, 100, 130, 0, T - h, r, r, v0) -
                 cf_barrier(MCP_CALL, 1, 0, 100, 100, 130, 0, T, r, r, v1)) / h;
  assert_within("uoc theta", th[0].value, want, NSE);
  assert_within("uoc-c theta", th[1].value, th[2].value.price, NSE);
  assert_within("uoc-k theta", th[3].value, th[4].value.price, NSE);
  mcp_results_destroy(q);
  mcp_portfolio_destroy(p);
  /* a Heston trade beside clamps theta's bump to half a daily step
   * (1/504): the knots pair at it, a date a day after the knot included;
   * and an overnight volatility pillar steps once, its price the grid's */
  static const curve night = {2, {0.0027, 2}, {3.0, 0.2}};
  add_underlying(m, "TSO", (bs_params){100, r, 0, 0.1});
  set_curve(m, "TSO", MCP_CURVE_VOLATILITY, &night);
  assert_int_equal(mcp_market_add_heston(m, "H", 100, r, 0, 0.04, 1.5, 0.04, 0.5, -0.7), MCP_OK);
  p = new_portfolio(200000, 518);
  const char *ids[4] = {"uoc-k", "uoc-k-pde", "uoc-o", "uoc-o-pde"};
  for (size_t k = 0; k < 4; k++)
    add_uoc(p, ids[k], k < 2 ? "TSK" : "TSO", k < 2 ? T : 0.25, k % 2);
  add_european(p, "ec-knot", "TSK", MCP_CALL, 100, 0.5, 1);
  add_european(p, "ec-day", "TSK", MCP_CALL, 100, 0.5 + h, 1);
  add_european(p, "hc", "H", MCP_CALL, 100, 1, 1);
  if (mcp_price_greeks(ctx_of(state), m, p, g, &q) != MCP_OK)
    fail_msg("greeks, theta's bump clamped: %s", mcp_context_last_error(ctx_of(state)));
  for (size_t k = 0; k < 4; k++)
    assert_int_equal(mcp_results_greek(q, ids[k], "theta", &th[k]), MCP_OK);
  assert_within("uoc-k theta (bump 1/504)", th[0].value, th[1].value.price, NSE);
  assert_within("uoc-o theta", th[2].value, th[3].value.price, NSE);
  assert_within("uoc-o", estimate(q, "uoc-o"), estimate(q, "uoc-o-pde").price, NSE);
  /* the prices with theta are the price's, to the bit */
  mcp_results *alone = price(ctx_of(state), m, p);
  for (size_t k = 0; k < 4; k++) {
    mcp_estimate a = estimate(alone, ids[k]), b = estimate(q, ids[k]);
    assert_memory_equal(&a, &b, sizeof a);
  }
  mcp_results_destroy(alone);
  mcp_results_destroy(q);
  mcp_portfolio_destroy(p);
  /* a bump of two days asked, a date a day and a half after the knot: the
   * knots pair at the bump asked */
  p = new_portfolio(200000, 519);
  for (size_t k = 0; k < 2; k++)
    add_uoc(p, ids[k], "TSK", T, k % 2);
  add_european(p, "ec-later", "TSK", MCP_CALL, 100, 0.5 + 1.5 * h, 1);
  assert_int_equal(mcp_greeks_set_bump(g, MCP_GREEK_THETA, 2 * h), MCP_OK);
  if (mcp_price_greeks(ctx_of(state), m, p, g, &q) != MCP_OK)
    fail_msg("greeks, a bump of two days: %s", mcp_context_last_error(ctx_of(state)));
  for (size_t k = 0; k < 2; k++)
    assert_int_equal(mcp_results_greek(q, ids[k], "theta", &th[k]), MCP_OK);
  assert_within("uoc-k theta (bump 2/365)", th[0].value, th[1].value.price, NSE);
  mcp_results_destroy(q);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A barrier watched on dates is knocked at its fixings alone: today's spot
 * is not one, even at or beyond the barrier (a seasoned one's past fixings
 * count); on the bridge it is watched from today, so a spot at the barrier
 * knocks it at once.  One date at maturity, down-and-out call at H = K =
 * spot: the call and the rebate's digital; with the BGK shift (dt the one
 * date's time) the call above the shifted level and the rebate below it. */
static void test_barrier_spot_today(void **state)
{
  const bs_params u = {100, 0.03, 0.01, 0.25};
  const double T = 1, R = 1.5, df = exp(-u.rate * T), fwd = u.spot * exp((u.rate - u.dividend) * T);
  const double s = u.vol * sqrt(T), beta = 0.5825971579390106;
  double one[1] = {T}, monthly[12], seasoned[14] = {-0.5, -0.25}, past[2] = {95, 97};
  fixings(monthly, 12, T / 12, T);
  memcpy(seasoned + 2, monthly, sizeof monthly);
  mcp_market *m = new_market();
  add_underlying(m, "A", u);
  mcp_portfolio *p = new_portfolio(200000, 516);
  static const struct {
    const char *id;
    mcp_barrier_kind kind;
    mcp_option_type type;
    double barrier;
    mcp_monitoring mon;
    int dates; /* 1: at maturity, 12: monthly, 14: monthly, seasoned by two */
  } cases[] = {
      {"doc-100-T", MCP_DOWN_AND_OUT, MCP_CALL, 100, MCP_MONITOR_DISCRETE, 1},
      {"doc-98-T-bgk", MCP_DOWN_AND_OUT, MCP_CALL, 98, MCP_MONITOR_BGK, 1},
      {"doc-100-monthly", MCP_DOWN_AND_OUT, MCP_CALL, 100, MCP_MONITOR_DISCRETE, 12},
      {"doc-99.999-monthly", MCP_DOWN_AND_OUT, MCP_CALL, 99.999, MCP_MONITOR_DISCRETE, 12},
      {"uop-99-monthly", MCP_UP_AND_OUT, MCP_PUT, 99, MCP_MONITOR_DISCRETE, 12},
      {"uop-99-seasoned", MCP_UP_AND_OUT, MCP_PUT, 99, MCP_MONITOR_DISCRETE, 14},
      {"doc-100-bridge", MCP_DOWN_AND_OUT, MCP_CALL, 100, MCP_MONITOR_BRIDGE, 0},
  };
  const size_t n = sizeof cases / sizeof cases[0];
  for (size_t i = 0; i < n; i++) {
    mcp_trade t = trade_on(cases[i].id, "A", MCP_PRODUCT_BARRIER, cases[i].type, 100, T);
    t.barrier_kind = cases[i].kind;
    t.barrier = cases[i].barrier;
    t.rebate = cases[i].kind == MCP_DOWN_AND_OUT ? R : 0;
    t.monitoring = cases[i].mon;
    t.nfixings = (size_t)cases[i].dates;
    t.fixings = cases[i].dates == 1 ? one : cases[i].dates == 12 ? monthly
                : cases[i].dates == 14                            ? seasoned
                                                                  : NULL;
    if (cases[i].dates == 14) {
      t.npast = 2;
      t.past_fixings = past;
    }
    add_trade(p, &t);
  }
  mcp_results *r = price(ctx_of(state), m, p);
  /* one date: (S_T - K)+ 1{S_T > H} + R 1{S_T <= H}, H >= K */
  double h = 98 * exp(beta * u.vol * sqrt(T)), d2 = (log(fwd / h) - 0.5 * s * s) / s;
  double above = df * (fwd * cf_norm_cdf(d2 + s) - 100 * cf_norm_cdf(d2));
  assert_within("doc-100-T", estimate(r, "doc-100-T"),
                cf_black(MCP_CALL, fwd, 100, s, df) +
                    R * df * cf_norm_cdf(-(log(fwd / 100) - 0.5 * s * s) / s),
                NSE);
  assert_within("doc-98-T-bgk", estimate(r, "doc-98-T-bgk"), above + R * df * cf_norm_cdf(-d2),
                NSE);
  /* monthly: at the spot as just below it, not the rebate */
  mcp_estimate at = estimate(r, "doc-100-monthly"), below = estimate(r, "doc-99.999-monthly");
  print_message("  H = spot %.6f, H just below %.6f, rebate %.6f\n", at.price, below.price,
                R * df);
  assert_true(at.price > R * df + 1);
  assert_true(fabs(at.price - below.price) < 0.01);
  /* a seasoned one, its past fixings below the barrier: its dates to come */
  mcp_estimate fresh = estimate(r, "uop-99-monthly"), old = estimate(r, "uop-99-seasoned");
  assert_true(fresh.price > 1);
  assert_memory_equal(&fresh, &old, sizeof fresh);
  /* the bridge: knocked at once */
  assert_true(fabs(estimate(r, "doc-100-bridge").price - R * df) < 1e-9);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The BGK shift exp(-+0.5826 sigma sqrt(dt)) takes dt the mean spacing of
 * the dates, not maturity / count: dates 0.5, 0.6, ..., 1 price as the
 * discrete barrier at the level shifted by dt = 0.1 (the same paths), and
 * monthly dates from 1/12 at dt = 1/12. */
static void test_bgk_spacing(void **state)
{
  const bs_params u = {100, 0.03, 0, 0.25};
  const double beta = 0.5825971579390106;
  double late[6] = {0.5, 0.6, 0.7, 0.8, 0.9, 1.0}, monthly[12];
  fixings(monthly, 12, 1.0 / 12, 1);
  mcp_market *m = new_market();
  add_underlying(m, "A", u);
  mcp_portfolio *p = new_portfolio(100000, 517);
  static const struct {
    const char *bgk, *disc;
    double barrier, dt;
    int late;
  } cases[] = {{"uoc-125-late-bgk", "uoc-125-late-shifted", 125, 0.1, 1},
               {"uoc-120-monthly-bgk", "uoc-120-monthly-shifted", 120, 1.0 / 12, 0}};
  for (size_t i = 0; i < 2; i++)
    for (int b = 0; b < 2; b++) {
      mcp_trade t = trade_on(b ? cases[i].bgk : cases[i].disc, "A", MCP_PRODUCT_BARRIER,
                             MCP_CALL, 100, 1);
      t.barrier_kind = MCP_UP_AND_OUT;
      t.monitoring = b ? MCP_MONITOR_BGK : MCP_MONITOR_DISCRETE;
      t.barrier = b ? cases[i].barrier
                    : cases[i].barrier * exp(-beta * u.vol * sqrt(cases[i].dt));
      t.nfixings = cases[i].late ? 6 : 12;
      t.fixings = cases[i].late ? late : monthly;
      add_trade(p, &t);
    }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < 2; i++) {
    mcp_estimate b = estimate(r, cases[i].bgk), d = estimate(r, cases[i].disc);
    print_message("  %-22s %.10f  discrete at the shifted level %.10f\n", cases[i].bgk, b.price,
                  d.price);
    assert_true(b.price > 0.1);
    assert_true(fabs(b.price - d.price) <= 1e-12 * d.price);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 6. lookbacks: fine discrete monitoring against the continuous ------ */

typedef struct lookback_case {
  const char *id;
  mcp_strike_kind kind;
  mcp_option_type type;
  double strike, maturity;
  bs_params u;
} lookback_case;

static const lookback_case LOOKBACK_CASES[] = {
    {"lb-float-call", MCP_FLOATING_STRIKE, MCP_CALL, 0, 1, {100, 0.03, 0, 0.25}},
    {"lb-float-put", MCP_FLOATING_STRIKE, MCP_PUT, 0, 0.5, {100, 0.02, 0.01, 0.35}},
    {"lb-fixed-call", MCP_FIXED_STRIKE, MCP_CALL, 105, 1, {100, 0.03, 0, 0.2}},
    {"lb-fixed-put", MCP_FIXED_STRIKE, MCP_PUT, 95, 1, {100, -0.01, 0, 0.3}},
};
#define NLOOKBACK (sizeof LOOKBACK_CASES / sizeof LOOKBACK_CASES[0])
#define LOOKBACK_FIXINGS 500

/* The price of m equally spaced fixings from the continuous one (Broadie,
 * Glasserman and Kou 1999): the discrete maximum is about the continuous one
 * times e^{-a} and the minimum e^{+a}, a = beta sigma sqrt(T / m). */
static double lookback_discrete(const lookback_case *c, size_t m)
{
  const bs_params *u = &c->u;
  double a = cf_bgk_beta() * u->vol * sqrt(c->maturity / (double)m);
  double fwd = u->spot * exp(-u->dividend * c->maturity);
  if (c->kind == MCP_FLOATING_STRIKE) {
    double v = cf_lookback_floating(c->type, u->spot, c->maturity, u->rate, u->dividend, u->vol);
    return c->type == MCP_PUT ? exp(-a) * v + expm1(-a) * fwd : exp(a) * v - expm1(a) * fwd;
  }
  double e = c->type == MCP_CALL ? a : -a;
  return exp(-e) * cf_lookback_fixed(c->type, u->spot, c->strike * exp(e), c->maturity, u->rate,
                                     u->dividend, u->vol);
}

static void test_lookbacks(void **state)
{
  mcp_market *m = new_market();
  mcp_portfolio *p = new_portfolio(100000, 606);
  static double fix[NLOOKBACK][LOOKBACK_FIXINGS];
  for (size_t i = 0; i < NLOOKBACK; i++) {
    const lookback_case *c = &LOOKBACK_CASES[i];
    add_underlying(m, c->id, c->u);
    fixings(fix[i], LOOKBACK_FIXINGS, c->maturity / LOOKBACK_FIXINGS, c->maturity);
    mcp_trade t = trade_on(c->id, c->id, MCP_PRODUCT_LOOKBACK, c->type, c->strike, c->maturity);
    t.strike_kind = c->kind;
    t.nfixings = LOOKBACK_FIXINGS;
    t.fixings = fix[i];
    add_trade(p, &t);
  }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < NLOOKBACK; i++)
    assert_within(LOOKBACK_CASES[i].id, estimate(r, LOOKBACK_CASES[i].id),
                  lookback_discrete(&LOOKBACK_CASES[i], LOOKBACK_FIXINGS), NSE);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Continuously monitored (the bridge's extremes each step): the closed forms
 * themselves, on grids of 4 and 52 steps a year, exact for Black-Scholes on
 * any grid, and above the same trades on monthly fixings; those keep their
 * prices to the bit when the bridge's trades join the book (their job and
 * its normals are apart). */
static void test_lookbacks_bridge(void **state)
{
  mcp_market *m = new_market();
  static double fix[NLOOKBACK][12];
  for (size_t i = 0; i < NLOOKBACK; i++) {
    add_underlying(m, LOOKBACK_CASES[i].id, LOOKBACK_CASES[i].u);
    fixings(fix[i], 12, LOOKBACK_CASES[i].maturity / 12, LOOKBACK_CASES[i].maturity);
  }
  for (int coarse = 1; coarse >= 0; coarse--) {
    mcp_portfolio *p[2]; /* monthly alone; monthly and bridge */
    for (int k = 0; k < 2; k++) {
      p[k] = new_portfolio(200000, 607);
      assert_int_equal(mcp_portfolio_set_steps_per_year(p[k], coarse ? 4 : 52), MCP_OK);
    }
    char ids[NLOOKBACK][64];
    for (size_t i = 0; i < NLOOKBACK; i++) {
      const lookback_case *c = &LOOKBACK_CASES[i];
      mcp_trade t = trade_on(c->id, c->id, MCP_PRODUCT_LOOKBACK, c->type, c->strike, c->maturity);
      t.strike_kind = c->kind;
      t.monitoring = MCP_MONITOR_BRIDGE;
      add_trade(p[1], &t);
      snprintf(ids[i], sizeof ids[i], "%s-monthly", c->id);
      t.id = ids[i];
      t.monitoring = MCP_MONITOR_DISCRETE;
      t.nfixings = 12;
      t.fixings = fix[i];
      for (int k = 0; k < 2; k++)
        add_trade(p[k], &t);
    }
    mcp_results *r = price(ctx_of(state), m, p[1]), *alone = price(ctx_of(state), m, p[0]);
    for (size_t i = 0; i < NLOOKBACK; i++) {
      const lookback_case *c = &LOOKBACK_CASES[i];
      const bs_params *u = &c->u;
      double exact = c->kind == MCP_FLOATING_STRIKE
                         ? cf_lookback_floating(c->type, u->spot, c->maturity, u->rate,
                                                u->dividend, u->vol)
                         : cf_lookback_fixed(c->type, u->spot, c->strike, c->maturity, u->rate,
                                             u->dividend, u->vol);
      mcp_estimate e = estimate(r, c->id), d = estimate(r, ids[i]), a = estimate(alone, ids[i]);
      assert_within(c->id, e, exact, NSE);
      assert_true(e.price > d.price + 2 * e.std_error);
      assert_memory_equal(&d, &a, sizeof d);
    }
    mcp_results_destroy(r);
    mcp_results_destroy(alone);
    for (int k = 0; k < 2; k++)
      mcp_portfolio_destroy(p[k]);
  }
  mcp_market_destroy(m);
}

/* ---- local volatility ------------------------------------------------------ */

/* A flat surface prices as Black-Scholes exactly (log-Euler with a constant
 * volatility is the exact law); a surface of time alone too, on a grid of 4
 * steps a year that misses none of its variance (each step takes the root
 * mean square over the step); a skewed one keeps put-call parity, and its
 * call lies between the calls at the surface's least and greatest
 * volatility. */
static void test_local_vol(void **state)
{
  const double r = 0.03, q = 0.01, T = 1, K = 105;
  const double flat_t[2] = {0, 2}, flat_s[3] = {50, 100, 200};
  const double flat_v[6] = {0.25, 0.25, 0.25, 0.25, 0.25, 0.25};
  const double time_t[2] = {0.25, 1}, time_s[1] = {100}, time_v[2] = {0.15, 0.35};
  const double skew_t[2] = {0.5, 2}, skew_s[5] = {60, 80, 100, 120, 140};
  const double skew_v[10] = {0.35, 0.28, 0.22, 0.18, 0.16, 0.3, 0.25, 0.2, 0.18, 0.17};
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_local_vol(m, "FLAT", 100, r, q, 2, flat_t, 3, flat_s, flat_v),
                   MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(m, "TIME", 100, r, q, 2, time_t, 1, time_s, time_v),
                   MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(m, "SKEW", 100, r, q, 2, skew_t, 5, skew_s, skew_v),
                   MCP_OK);
  mcp_portfolio *p = new_portfolio(200000, 808);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 4), MCP_OK);
  static const char *names[3] = {"FLAT", "TIME", "SKEW"};
  for (int u = 0; u < 3; u++)
    for (int type = 0; type < 2; type++) {
      char id[16];
      snprintf(id, sizeof id, "%s-%c", names[u], type ? 'P' : 'C');
      add_european(p, id, names[u], type ? MCP_PUT : MCP_CALL, K, T, 1);
    }
  mcp_results *res = price(ctx_of(state), m, p);
  /* TIME's variance: 0.15 flat to 0.25, then linear to 0.35 at 1 */
  double var = 0.25 * 0.15 * 0.15 + 0.75 * (0.15 * 0.15 + 0.15 * 0.35 + 0.35 * 0.35) / 3;
  double fwd = 100 * exp((r - q) * T), df = exp(-r * T);
  for (int type = 0; type < 2; type++) {
    mcp_option_type ty = type ? MCP_PUT : MCP_CALL;
    assert_within(type ? "FLAT-P" : "FLAT-C", estimate(res, type ? "FLAT-P" : "FLAT-C"),
                  cf_black(ty, fwd, K, 0.25 * sqrt(T), df), NSE);
    assert_within(type ? "TIME-P" : "TIME-C", estimate(res, type ? "TIME-P" : "TIME-C"),
                  cf_black(ty, fwd, K, sqrt(var), df), NSE);
  }
  mcp_estimate c = estimate(res, "SKEW-C"), pu = estimate(res, "SKEW-P");
  double parity = df * (fwd - K);
  if (fabs(c.price - pu.price - parity) > NSE * (c.std_error + pu.std_error))
    fail_msg("SKEW: call - put %.6f, parity %.6f", c.price - pu.price, parity);
  assert_true(c.price > cf_black(MCP_CALL, fwd, K, 0.16, df));
  assert_true(c.price < cf_black(MCP_CALL, fwd, K, 0.35, df));
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Total variance that falls with time: no local volatility. */
static double falling_vol(double strike, double maturity, void *arg)
{
  (void)strike;
  (void)arg;
  return 0.3 / maturity;
}

/* An implied surface with skew and smile in moneyness over sqrt(T), its
 * wings flat. */
typedef struct smile {
  double spot, rate, dividend;
} smile;

static double smile_vol(double strike, double maturity, void *arg)
{
  const smile *s = arg;
  double m = log(strike / (s->spot * exp((s->rate - s->dividend) * maturity))) / sqrt(maturity);
  double u = tanh(m / 2); /* bounded wings */
  return 0.2 - 0.04 * u + 0.03 * u * u;
}

/* Dupire's surface from it reprices its Europeans: within the discretisation
 * (log-Euler on 100 steps a year, or the default grid of local volatility,
 * 252, where steps is 0; the surface linear between its nodes) of 0.5% of
 * the price, and 4 standard errors.  (The default grid was the fixings
 * alone: one step of Euler to each maturity missed by 5 to 40%.) */
static void dupire_case(void **state, unsigned steps)
{
  smile s = {100, 0.03, 0.01};
  enum { NT = 31, NS = 81 };
  double t[NT], x[NS], v[NT * NS];
  for (int i = 0; i < NT; i++)
    t[i] = 0.05 * i;
  for (int k = 0; k < NS; k++)
    x[k] = 30 * pow(10, k / (NS - 1.0));
  char err[256];
  if (mcp_local_vol_from_implied(s.spot, s.rate, s.dividend, smile_vol, &s, NT, t, NS, x, v, err,
                                 sizeof err) != MCP_OK)
    fail_msg("%s", err);
  mcp_market *m = new_market();
  assert_int_equal(
      mcp_market_add_local_vol(m, "D", s.spot, s.rate, s.dividend, NT, t, NS, x, v), MCP_OK);
  mcp_portfolio *p = new_portfolio(400000, 909);
  if (steps)
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, steps), MCP_OK);
  static const double strikes[5] = {75, 90, 100, 110, 130}, mats[2] = {0.5, 1.25};
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < 5; k++) {
      char id[32];
      snprintf(id, sizeof id, "K%g-T%g", strikes[k], mats[a]);
      add_european(p, id, "D", strikes[k] < 100 ? MCP_PUT : MCP_CALL, strikes[k], mats[a], 1);
    }
  mcp_results *r = price(ctx_of(state), m, p);
  for (int a = 0; a < 2; a++)
    for (int k = 0; k < 5; k++) {
      char id[32];
      snprintf(id, sizeof id, "K%g-T%g", strikes[k], mats[a]);
      double T = mats[a], sig = smile_vol(strikes[k], T, &s);
      double exact = cf_black(strikes[k] < 100 ? MCP_PUT : MCP_CALL,
                              s.spot * exp((s.rate - s.dividend) * T), strikes[k], sig * sqrt(T),
                              exp(-s.rate * T));
      mcp_estimate e = estimate(r, id);
      if (fabs(e.price - exact) > 4 * e.std_error + 0.005 * exact)
        fail_msg("%s: local volatility %.5f +- %.5f, implied %.5f (vol %.4f)", id, e.price,
                 e.std_error, exact, sig);
    }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  /* a calendar arbitrage (total variance falling with time) is named */
  assert_int_equal(mcp_local_vol_from_implied(100, 0, 0, falling_vol, NULL, NT, t, NS, x, v, err,
                                              sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "arbitrage"));
  assert_int_equal(mcp_local_vol_from_implied(100, 0, 0, NULL, NULL, NT, t, NS, x, v, err,
                                              sizeof err),
                   MCP_ERR_ARGUMENT);
}

static void test_dupire(void **state) { dupire_case(state, 100); }
static void test_dupire_default_grid(void **state) { dupire_case(state, 0); }

/* ---- cash dividends -------------------------------------------------------- */

/* One dividend against the quadrature, on a grid of 4 steps a year (the
 * model is exact on any grid: Black-Scholes steps and the drop at its date);
 * two keep put-call parity with the dividends' present value; one larger
 * than the spot floors it at 0 on every path. */
static void test_cash_dividends(void **state)
{
  const cf_cash one = {MCP_CALL, 100, 100, 0.04, 0.01, 0.3, 0.4, 3, 1};
  mcp_market *m = new_market();
  add_underlying(m, "ONE", (bs_params){one.spot, one.rate, one.yield, one.vol});
  add_underlying(m, "TWO", (bs_params){100, 0.05, 0, 0.25});
  add_underlying(m, "BIG", (bs_params){100, 0.05, 0, 0.25});
  const double t1[1] = {0.4}, d1[1] = {3}, t2[2] = {0.25, 0.75}, d2[2] = {2, 2.5};
  const double tb[1] = {0.5}, db[1] = {1000};
  assert_int_equal(mcp_market_set_cash_dividends(m, "ONE", 1, t1, d1), MCP_OK);
  assert_int_equal(mcp_market_set_cash_dividends(m, "TWO", 2, t2, d2), MCP_OK);
  assert_int_equal(mcp_market_set_cash_dividends(m, "BIG", 1, tb, db), MCP_OK);
  mcp_portfolio *p = new_portfolio(200000, 1010);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 4), MCP_OK);
  add_european(p, "one-C", "ONE", MCP_CALL, 100, 1, 1);
  add_european(p, "one-P", "ONE", MCP_PUT, 90, 1, 1);
  add_european(p, "two-C", "TWO", MCP_CALL, 100, 1, 1);
  add_european(p, "two-P", "TWO", MCP_PUT, 100, 1, 1);
  add_european(p, "big-P", "BIG", MCP_PUT, 100, 1, 1);
  mcp_results *r = price(ctx_of(state), m, p);
  cf_cash c = one;
  assert_within("one-C", estimate(r, "one-C"), cf_cash_price(&c), NSE);
  c.type = MCP_PUT;
  c.strike = 90;
  assert_within("one-P", estimate(r, "one-P"), cf_cash_price(&c), NSE);
  mcp_estimate call = estimate(r, "two-C"), put = estimate(r, "two-P");
  double pv = 2 * exp(-0.05 * 0.25) + 2.5 * exp(-0.05 * 0.75);
  double parity = 100 - pv - 100 * exp(-0.05);
  if (fabs(call.price - put.price - parity) > NSE * (call.std_error + put.std_error))
    fail_msg("two: call - put %.6f, parity %.6f", call.price - put.price, parity);
  /* S = 0 from t = 0.5: K e^{-rT} on every path (the error: the sums' rounding) */
  mcp_estimate big = estimate(r, "big-P");
  /* theta: the dividend date comes one bump closer with the maturity (the
   * reference's finite difference), on the steps of the book: the dividend
   * at 0.4 is not one of them */
  mcp_greeks *g;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,theta"), MCP_OK);
  mcp_results *q;
  if (mcp_price_greeks(ctx_of(state), m, p, g, &q) != MCP_OK)
    fail_msg("greeks: %s", mcp_context_last_error(ctx_of(state)));
  mcp_sensitivity th;
  assert_int_equal(mcp_results_greek(q, "one-C", "theta", &th), MCP_OK);
  cf_cash later = one;
  later.t1 -= 1.0 / 365;
  later.maturity -= 1.0 / 365;
  assert_within("one-C theta", th.value, (cf_cash_price(&later) - cf_cash_price(&one)) * 365,
                NSE);
  mcp_results_destroy(q);
  mcp_greeks_destroy(g);
  if (!(fabs(big.price - 100 * exp(-0.05)) < 1e-12 && big.std_error < 1e-6))
    fail_msg("big: %.17g +- %g, expected %.17g", big.price, big.std_error, 100 * exp(-0.05));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void test_bad_cash_dividends(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.05, 0, 0.25});
  add_underlying(m, "B", (bs_params){100, 0.05, 0, 0.25});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0, 0.04, 1, 0.04, 0.3, -0.5),
                   MCP_OK);
  const double t[2] = {0.5, 0.25}, d[2] = {1, -1}, ok_t[1] = {0.5}, ok_d[2] = {1, 1};
  assert_int_equal(mcp_market_set_cash_dividends(m, "A", 2, t, ok_d), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "times"));
  assert_int_equal(mcp_market_set_cash_dividends(m, "A", 1, ok_t, d + 1), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "amount 0"));
  assert_int_equal(mcp_market_set_cash_dividends(m, "H", 1, ok_t, ok_d), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "Black-Scholes"));
  assert_int_equal(mcp_market_set_cash_dividends(m, "A", 1, NULL, ok_d), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_market_set_cash_dividends(m, "A", 1, ok_t, ok_d), MCP_OK);
  /* a basket on it is refused */
  mcp_portfolio *p = new_portfolio(1000, 1);
  const char *ab[2] = {"A", "B"};
  mcp_trade b = trade_on("bk", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 1);
  b.nassets = 2;
  b.assets = ab;
  add_trade(p, &b);
  mcp_context *ctx = ctx_of(state);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_context_last_error(ctx), "cash dividends"));
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void test_bad_local_vol(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  const double t[2] = {0, 1}, s[2] = {80, 120}, v[4] = {0.2, 0.2, 0.2, 0.2};
  const double back[2] = {1, 0.5}, neg[2] = {-80, 120}, high[4] = {0.2, 11, 0.2, 0.2};
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0, 0, 2, t, 2, s, NULL),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0, 0, 0, t, 2, s, v), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "1 to 1024 times"));
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0, 0, 2, back, 2, s, v), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "times: expected strictly increasing"));
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0, 0, 2, t, 2, neg, v), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "spots"));
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0, 0, 2, t, 2, s, high), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "values[0][1]"));
  assert_int_equal(mcp_market_size(m), 0);
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0, 0, 2, t, 2, s, v), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "L", MCP_CURVE_VOLATILITY, 2, t + 0, v),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "surface"));
  mcp_market_destroy(m);
}

/* ---- 7. two correlated assets: Margrabe and Stulz ---------------------- */

typedef struct pair_case {
  const char *id;
  mcp_product product;
  mcp_option_type type;
  double strike, maturity, corr;
} pair_case;

static const bs_params PAIR_U[2] = {{100, 0.03, 0.01, 0.25}, {95, 0.03, 0.02, 0.35}};
static const pair_case PAIR_CASES[] = {
    {"exchange", MCP_PRODUCT_BASKET, MCP_CALL, 0, 1, 0.5},
    {"best-of-call", MCP_PRODUCT_BEST_OF, MCP_CALL, 100, 1, 0.5},
    {"worst-of-call", MCP_PRODUCT_WORST_OF, MCP_CALL, 90, 1, 0.5},
    {"best-of-put-negcorr", MCP_PRODUCT_BEST_OF, MCP_PUT, 110, 2, -0.6},
    {"worst-of-put", MCP_PRODUCT_WORST_OF, MCP_PUT, 100, 0.5, 0.9},
};
#define NPAIR (sizeof PAIR_CASES / sizeof PAIR_CASES[0])

static double pair_exact(const pair_case *c)
{
  const bs_params *a = &PAIR_U[0], *b = &PAIR_U[1];
  if (c->product == MCP_PRODUCT_BASKET)
    return cf_margrabe(a->spot, b->spot, c->maturity, a->rate, a->dividend, b->dividend, a->vol,
                       b->vol, c->corr);
  return cf_stulz(c->type, c->product == MCP_PRODUCT_BEST_OF, a->spot, b->spot, c->strike,
                  c->maturity, a->rate, a->dividend, b->dividend, a->vol, b->vol, c->corr);
}

static void test_two_assets(void **state)
{
  for (size_t i = 0; i < NPAIR; i++) {
    const pair_case *c = &PAIR_CASES[i];
    mcp_market *m = new_market();
    add_underlying(m, "A", PAIR_U[0]);
    add_underlying(m, "B", PAIR_U[1]);
    const char *names[2] = {"A", "B"};
    double corr[4] = {1, c->corr, c->corr, 1}, weights[2] = {1, -1};
    assert_int_equal(mcp_market_set_correlation(m, 2, names, corr), MCP_OK);
    mcp_portfolio *p = new_portfolio(200000, 707 + i);
    mcp_trade t = trade_on(c->id, NULL, c->product, c->type, c->strike, c->maturity);
    t.nassets = 2;
    t.assets = names;
    if (c->product == MCP_PRODUCT_BASKET)
      t.weights = weights; /* S_A - S_B: the exchange option */
    add_trade(p, &t);
    mcp_results *r = price(ctx_of(state), m, p);
    assert_within(c->id, estimate(r, c->id), pair_exact(c), NSE);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
}

/* Several correlated local-volatility assets.  Surfaces constant in time
 * and spot (of 1 and 2 x 3 nodes: the job pads the narrower) price a
 * basket, a worst-of, a Bermudan basket (its exercise fitted on the paths)
 * and a Himalaya (a per-path array) as the Black-Scholes assets do on the
 * same grid: the same paths, to rounding.  Skewed surfaces of different widths: a basket weighing one
 * asset alone prices that asset's European, within the errors.  A basket
 * mixing models is refused. */
static void test_local_vol_assets(void **state)
{
  const double r = 0.03, q = 0.01, one_t[1] = {1}, one_s[1] = {100}, one_v[1] = {0.25};
  const double flat_t[2] = {0.5, 2}, flat_s[3] = {50, 90, 160}, flat_v[6] = {0.3, 0.3, 0.3,
                                                                              0.3, 0.3, 0.3};
  const double skew_t[2] = {0.5, 2}, skew_s[5] = {60, 80, 100, 120, 140};
  const double skew_v[10] = {0.35, 0.28, 0.22, 0.18, 0.16, 0.3, 0.25, 0.2, 0.18, 0.17};
  const double time_t[2] = {0.25, 1}, time_s[1] = {90}, time_v[2] = {0.15, 0.35};
  const char *ab[2] = {"A", "B"}, *ac[2] = {"A", "C"};
  const double corr[4] = {1, 0.6, 0.6, 1}, w[2] = {0.6, 0.4};
  mcp_market *lv = new_market(), *bs = new_market(), *sk = new_market();
  assert_int_equal(mcp_market_add_local_vol(lv, "A", 100, r, q, 1, one_t, 1, one_s, one_v),
                   MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(lv, "B", 90, r, 0, 2, flat_t, 3, flat_s, flat_v),
                   MCP_OK);
  add_underlying(bs, "A", (bs_params){100, r, q, 0.25});
  add_underlying(bs, "B", (bs_params){90, r, 0, 0.3});
  assert_int_equal(mcp_market_add_local_vol(sk, "A", 100, r, q, 2, skew_t, 5, skew_s, skew_v),
                   MCP_OK);
  assert_int_equal(mcp_market_add_local_vol(sk, "B", 90, r, 0, 2, time_t, 1, time_s, time_v),
                   MCP_OK);
  for (int k = 0; k < 3; k++)
    assert_int_equal(mcp_market_set_correlation(k == 0 ? lv : k == 1 ? bs : sk, 2, ab, corr),
                     MCP_OK);
  mcp_portfolio *p = new_portfolio(20000, 909);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  mcp_trade t = trade_on("BASKET", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 95, 1);
  t.nassets = 2, t.assets = ab, t.weights = w;
  add_trade(p, &t);
  t = trade_on("WORST", NULL, MCP_PRODUCT_WORST_OF, MCP_PUT, 95, 1.5);
  t.nassets = 2, t.assets = ab;
  add_trade(p, &t);
  static const double dates[4] = {0.25, 0.5, 0.75, 1};
  t = trade_on("BERMUDAN", NULL, MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1);
  t.nassets = 2, t.assets = ab, t.weights = w, t.payoff = MCP_PRODUCT_BASKET;
  t.nfixings = 4, t.fixings = dates;
  add_trade(p, &t);
  t = trade_on("HIMALAYA", NULL, MCP_PRODUCT_HIMALAYA, MCP_CALL, 1, 1);
  t.nassets = 2, t.assets = ab, t.nfixings = 2, t.fixings = dates + 2, t.notional = 100;
  add_trade(p, &t);
  mcp_results *x = price(ctx_of(state), lv, p), *y = price(ctx_of(state), bs, p);
  static const char *const ids[4] = {"BASKET", "WORST", "BERMUDAN", "HIMALAYA"};
  for (int i = 0; i < 4; i++) {
    const char *id = ids[i];
    double a = estimate(x, id).price, b = estimate(y, id).price;
    if (!(fabs(a - b) <= 1e-12 * fabs(b)))
      fail_msg("%s: flat local volatility %.17g, Black-Scholes %.17g", id, a, b);
  }
  mcp_results_destroy(x);
  mcp_results_destroy(y);
  mcp_portfolio_destroy(p);
  p = new_portfolio(200000, 910);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  const double only[2][2] = {{1, 0}, {0, 1}};
  for (int i = 0; i < 2; i++) {
    t = trade_on(i ? "LEG-B" : "LEG-A", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 1);
    t.nassets = 2, t.assets = ab, t.weights = only[i];
    add_trade(p, &t);
    add_european(p, i ? "EURO-B" : "EURO-A", ab[i], MCP_CALL, 100, 1, 1);
  }
  x = price(ctx_of(state), sk, p);
  for (int i = 0; i < 2; i++) {
    mcp_estimate leg = estimate(x, i ? "LEG-B" : "LEG-A");
    mcp_estimate eu = estimate(x, i ? "EURO-B" : "EURO-A");
    if (fabs(leg.price - eu.price) > NSE * hypot(leg.std_error, eu.std_error))
      fail_msg("%s: the basket's leg %.6f +- %.6f, the European %.6f +- %.6f", ab[i], leg.price,
               leg.std_error, eu.price, eu.std_error);
  }
  mcp_results_destroy(x);
  mcp_portfolio_destroy(p);
  add_underlying(sk, "C", (bs_params){100, r, q, 0.2});
  p = new_portfolio(1000, 1);
  t = trade_on("MIXED", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 1);
  t.nassets = 2, t.assets = ac;
  add_trade(p, &t);
  mcp_results *res = NULL;
  assert_int_equal(mcp_price(*state, sk, p, &res), MCP_ERR_INPUT);
  assert_null(res);
  const char *msg = mcp_context_last_error(*state);
  if (!strstr(msg, "'C' is not a local-volatility underlying"))
    fail_msg("unexpected: %s", msg);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(lv);
  mcp_market_destroy(bs);
  mcp_market_destroy(sk);
}

/* ---- 8. parities and orderings that hold path by path ------------------ */

static int rel_close(double a, double b, double tol)
{
  return fabs(a - b) <= tol * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* Knock-in plus knock-out is the vanilla plus the discounted rebate, on the
 * same paths, for every kind of monitoring and every model. */
static void test_in_out_parity(void **state)
{
  static const mcp_monitoring monitors[3] = {MCP_MONITOR_DISCRETE, MCP_MONITOR_BGK,
                                             MCP_MONITOR_BRIDGE};
  double fix[24];
  fixings(fix, 24, 0.5 / 24, 0.5);
  mcp_market *m = new_market();
  add_underlying(m, "BS", (bs_params){100, 0.03, 0.01, 0.3});
  assert_int_equal(mcp_market_add_heston(m, "HE", 100, 0.03, 0, 0.04, 1, 0.04, 0.5, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "ME", 100, 0.03, 0, 0.2, 2, -0.1, 0.1), MCP_OK);
  const char *und[3] = {"BS", "HE", "ME"};
  mcp_portfolio *p = new_portfolio(20000, 808);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 50), MCP_OK);
  char ids[3][3][2][16];
  for (int u = 0; u < 3; u++) {
    char vid[16];
    snprintf(vid, sizeof vid, "v%d", u);
    mcp_trade v = trade_on(vid, und[u], MCP_PRODUCT_EUROPEAN, MCP_PUT, 100, 0.5);
    add_trade(p, &v);
    for (int k = 0; k < 3; k++)
      for (int in = 0; in < 2; in++) {
        snprintf(ids[u][k][in], 16, "%d%d%d", u, k, in);
        mcp_trade t = trade_on(ids[u][k][in], und[u], MCP_PRODUCT_BARRIER, MCP_PUT, 100, 0.5);
        t.barrier_kind = in ? MCP_DOWN_AND_IN : MCP_DOWN_AND_OUT;
        t.barrier = 92;
        t.rebate = 2;
        t.monitoring = monitors[k];
        if (k != 2) {
          t.nfixings = 24;
          t.fixings = fix;
        }
        add_trade(p, &t);
      }
  }
  mcp_results *r = price(ctx_of(state), m, p);
  for (int u = 0; u < 3; u++) {
    char vid[16];
    snprintf(vid, sizeof vid, "v%d", u);
    double vanilla = estimate(r, vid).price;
    for (int k = 0; k < 3; k++) {
      double out = estimate(r, ids[u][k][0]).price, in = estimate(r, ids[u][k][1]).price;
      double want = vanilla + 2 * exp(-0.03 * 0.5);
      print_message("  %s monitoring %d: in %.6f + out %.6f = %.12f, vanilla + rebate %.12f\n",
                    und[u], k, in, out, in + out, want);
      assert_true(rel_close(in + out, want, 1e-12));
      assert_true(in > 0.05 && out > 0.05); /* both legs live */
    }
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The geometric mean is below the arithmetic one on every path; a
 * floating-strike lookback call is worth more than a European at the spot
 * (min <= S_0); a best-of call more than each single call, a worst-of call
 * less. */
static void test_orderings(void **state)
{
  double fix[12];
  fixings(fix, 12, 1.0 / 12, 1);
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0.01, 0.3});
  add_underlying(m, "B", (bs_params){100, 0.03, 0.01, 0.2});
  const char *names[2] = {"A", "B"};
  double corr[4] = {1, 0.3, 0.3, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, names, corr), MCP_OK);
  mcp_portfolio *p = new_portfolio(20000, 909);
  static const char *asian_ids[2][2] = {{"ac", "gc"}, {"ap", "gp"}};
  for (int put = 0; put < 2; put++)
    for (int g = 0; g < 2; g++) {
      mcp_trade t = trade_on(asian_ids[put][g], "A", MCP_PRODUCT_ASIAN,
                             put ? MCP_PUT : MCP_CALL, 100, 1);
      t.average = g ? MCP_GEOMETRIC : MCP_ARITHMETIC;
      t.nfixings = 12;
      t.fixings = fix;
      add_trade(p, &t);
    }
  mcp_trade lb = trade_on("lb", "A", MCP_PRODUCT_LOOKBACK, MCP_CALL, 0, 1);
  lb.strike_kind = MCP_FLOATING_STRIKE;
  lb.nfixings = 12;
  lb.fixings = fix;
  add_trade(p, &lb);
  mcp_trade e = trade_on("eA", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  add_trade(p, &e);
  mcp_trade best = trade_on("best", NULL, MCP_PRODUCT_BEST_OF, MCP_CALL, 100, 1);
  best.nassets = 2;
  best.assets = names;
  add_trade(p, &best);
  mcp_trade worst = best;
  worst.id = "worst";
  worst.product = MCP_PRODUCT_WORST_OF;
  add_trade(p, &worst);
  mcp_results *r = price(ctx_of(state), m, p);
  assert_true(estimate(r, "gc").price < estimate(r, "ac").price);
  assert_true(estimate(r, "gp").price > estimate(r, "ap").price);
  assert_true(estimate(r, "lb").price > estimate(r, "eA").price);
  double cA = cf_black_scholes(MCP_CALL, 100, 100, 1, 0.03, 0.01, 0.3);
  double cB = cf_black_scholes(MCP_CALL, 100, 100, 1, 0.03, 0.01, 0.2);
  assert_true(estimate(r, "best").price > fmax(cA, cB));
  assert_true(estimate(r, "worst").price < fmin(cA, cB));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Call minus put is the forward: the book of the two, whose standard error
 * counts their covariance, within NSE of it for every model, with each
 * method; for a basket the forward of the weighted sum. */
static void test_call_put_parity(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "BS", (bs_params){100, 0.02, 0.01, 0.25});
  static const curve rate = {2, {0.5, 1}, {0.01, 0.04}};
  set_curve(m, "BS", MCP_CURVE_RATE, &rate);
  assert_int_equal(mcp_market_add_heston(m, "HE", 100, 0.02, 0.01, 0.04, 0.5, 0.04, 1.0, -0.9),
                   MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "ME", 100, 0.02, 0.01, 0.2, 1, -0.2, 0.2), MCP_OK);
  add_underlying(m, "X", (bs_params){50, 0.02, 0.0, 0.3});
  add_underlying(m, "Y", (bs_params){100, 0.02, 0.01, 0.2});
  const char *basket[2] = {"X", "Y"};
  const char *und[3] = {"BS", "HE", "ME"};
  double fwd[3], wts[2] = {2, 0.5};
  fwd[0] = 100 * exp(-0.01) - 100 * exp(-curve_integral(&rate, 1, 0));
  fwd[1] = fwd[2] = 100 * exp(-0.01) - 100 * exp(-0.02);
  static const int methods[4] = {0, MCP_ANTITHETIC, MCP_CONTROL_VARIATE, MCP_QMC};
  for (int k = 0; k < 3 + HAVE_QMC; k++)
    for (int u = 0; u <= 3; u++) {
      mcp_portfolio *p = new_portfolio(40000, 111);
      assert_int_equal(mcp_portfolio_set_methods(p, methods[k]), MCP_OK);
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 32), MCP_OK);
      mcp_trade c = trade_on("c", und[u % 3], MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
      if (u == 3) {
        c.product = MCP_PRODUCT_BASKET;
        c.underlying = NULL;
        c.nassets = 2;
        c.assets = basket;
        c.weights = wts;
      }
      mcp_trade put = c;
      put.id = "p";
      put.type = MCP_PUT;
      put.quantity = -1;
      add_trade(p, &c);
      add_trade(p, &put);
      mcp_results *r = price(ctx_of(state), m, p);
      char what[32];
      snprintf(what, sizeof what, "%s methods %d", u == 3 ? "basket" : und[u], methods[k]);
      double want = u < 3 ? fwd[u]
                          : 2 * 50 + 0.5 * 100 * exp(-0.01) - 100 * exp(-0.02);
      mcp_estimate e = total(r);
      if (methods[k] == MCP_CONTROL_VARIATE) { /* C - P is its own control: no error left */
        print_message("  %-14s CV %.12f, exact %.12f\n", what, e.price, want);
        assert_true(e.std_error < 1e-9 && fabs(e.price - want) < 1e-9);
      } else
        assert_within(what, e, want, NSE);
      mcp_results_destroy(r);
      mcp_portfolio_destroy(p);
    }
  mcp_market_destroy(m);
}

/* ---- 9. the methods: consistent, and reducing the error ---------------- */

static mcp_estimate price_one(void **state, const mcp_market *m, const mcp_trade *t, int methods,
                              uint64_t paths, unsigned steps_per_year)
{
  mcp_portfolio *p = new_portfolio(paths, 1234);
  assert_int_equal(mcp_portfolio_set_methods(p, methods), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, steps_per_year), MCP_OK);
  add_trade(p, t);
  mcp_results *r = price(ctx_of(state), m, p);
  mcp_estimate e = estimate(r, t->id);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  return e;
}

/* Each method on its own and all together: within NSE of the closed form or
 * of the plain estimate, with the error shrinking by at least the given
 * factor (conservative against the measured ones in bench/RESULTS.md). */
static void test_methods(void **state)
{
  double fix[12];
  fixings(fix, 12, 1.0 / 12, 1);
  const bs_params u = {100, 0.03, 0.0, 0.25};
  mcp_market *m = new_market();
  add_underlying(m, "S", u);
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  mcp_trade euro = trade_on("euro", "S", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  mcp_trade asian = trade_on("asian", "S", MCP_PRODUCT_ASIAN, MCP_CALL, 100, 1);
  asian.nfixings = 12;
  asian.fixings = fix;
  mcp_trade barrier = trade_on("barrier", "S", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
  barrier.barrier_kind = MCP_UP_AND_OUT;
  barrier.barrier = 140;
  barrier.monitoring = MCP_MONITOR_BRIDGE;
  mcp_trade heston = trade_on("heston", "H", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  const uint64_t n = 65536;
  double exact_euro = cf_black_scholes(MCP_CALL, 100, 100, 1, u.rate, u.dividend, u.vol);
  double exact_barrier = cf_barrier(MCP_CALL, 1, 0, 100, 100, 140, 0, 1, u.rate, 0, u.vol);
  struct {
    const mcp_trade *t;
    int methods;
    double min_gain; /* plain standard error / this one's */
  } rows[] = {
      {&euro, MCP_ANTITHETIC, 1.2},       {&euro, MCP_CONTROL_VARIATE, 2.0},
      {&euro, MCP_QMC, 5.0},              {&euro, 7, 10.0},
      {&asian, MCP_ANTITHETIC, 1.2},      {&asian, MCP_CONTROL_VARIATE, 10.0},
      {&asian, MCP_QMC, 5.0},             {&asian, 7, 20.0},
      {&barrier, MCP_ANTITHETIC, 1.05},    {&barrier, MCP_CONTROL_VARIATE, 1.05},
      {&barrier, MCP_QMC, 3.0},           {&heston, MCP_ANTITHETIC, 1.2},
      {&heston, MCP_CONTROL_VARIATE, 1.5}, {&heston, MCP_QMC, 3.0},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const mcp_trade *t = rows[i].t;
    unsigned steps = t == &heston ? 32 : 0;
    if (!HAVE_QMC && (rows[i].methods & MCP_QMC))
      continue;
    mcp_estimate plain = price_one(state, m, t, 0, n, steps);
    mcp_estimate e = price_one(state, m, t, rows[i].methods, n, steps);
    char what[40];
    snprintf(what, sizeof what, "%s methods %d", t->id, rows[i].methods);
    if (t == &euro)
      assert_within(what, e, exact_euro, NSE);
    else if (t == &barrier)
      assert_within(what, e, exact_barrier, NSE);
    else /* against the plain estimate, within both errors */
      assert_within(what, e, plain.price, NSE * hypot(plain.std_error, e.std_error) /
                                              e.std_error);
    double gain = plain.std_error / e.std_error;
    print_message("    error reduced %.1f times (floor %.1f)\n", gain, rows[i].min_gain);
    assert_true(gain >= rows[i].min_gain);
  }
  mcp_market_destroy(m);
}

/* A trade's own methods override the run's, and trades with and without
 * antithetic or QMC use separate paths but the same results whatever else
 * the book holds. */
static void test_methods_per_trade(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "S", (bs_params){100, 0.03, 0.0, 0.25});
  mcp_trade a = trade_on("a", "S", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  a.methods = HAVE_QMC ? MCP_QMC | MCP_ANTITHETIC : MCP_ANTITHETIC;
  mcp_trade b = trade_on("b", "S", MCP_PRODUCT_EUROPEAN, MCP_CALL, 90, 1);
  mcp_portfolio *alone = new_portfolio(32768, 5);
  add_trade(alone, &a);
  mcp_portfolio *both = new_portfolio(32768, 5);
  assert_int_equal(mcp_portfolio_set_methods(both, MCP_CONTROL_VARIATE), MCP_OK);
  add_trade(both, &b);
  add_trade(both, &a);
  mcp_results *r1 = price(ctx_of(state), m, alone), *r2 = price(ctx_of(state), m, both);
  mcp_estimate x = estimate(r1, "a"), y = estimate(r2, "a");
  assert_same_bits("trade a alone and in a book", &x, &y, 1);
  mcp_estimate plain = price_one(state, m, &b, 0, 32768, 0), cv = estimate(r2, "b");
  assert_true(cv.std_error < plain.std_error / 1.5); /* the run's CV reached b */
  mcp_results_destroy(r1);
  mcp_results_destroy(r2);
  mcp_portfolio_destroy(alone);
  mcp_portfolio_destroy(both);
  mcp_market_destroy(m);
}

/* The martingale check of every run (issue 17): Merton with 1000 jumps a
 * year (the call priced 0 +/- 0 where put-call parity needs 2.96)
 * and Black-Scholes at a volatility of 5 miss their forwards by many
 * standard errors, and their trades say so; a Black-Scholes underlying at
 * 25%, on the same book, does not, and neither does a Heston one. */
static void test_martingale_warning(void **state)
{
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_merton(m, "J", 100, 0.03, 0, 0.2, 1000, -0.2, 0.3), MCP_OK);
  add_underlying(m, "V", (bs_params){100, 0.03, 0, 5});
  add_underlying(m, "S", (bs_params){100, 0.03, 0, 0.25});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  mcp_portfolio *p = new_portfolio(20000, 3);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 52), MCP_OK);
  const char *und[4] = {"J", "V", "S", "H"};
  for (int u = 0; u < 4; u++)
    for (int ty = 0; ty < 2; ty++) {
      char id[8];
      snprintf(id, sizeof id, "%s%c", und[u], ty ? 'p' : 'c');
      mcp_trade t = trade_on(id, und[u], MCP_PRODUCT_EUROPEAN, ty ? MCP_PUT : MCP_CALL, 100, 1);
      add_trade(p, &t);
    }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < mcp_results_count(r); i++) {
    const char *id = mcp_results_trade_id(r, i);
    unsigned want = id[0] == 'J' || id[0] == 'V' ? MCP_WARNING_MARTINGALE : 0;
    print_message("  %s: warnings %u\n", id, mcp_results_warnings(r, i));
    assert_int_equal(mcp_results_warnings(r, i) & MCP_WARNING_MARTINGALE, want);
  }
  assert_string_equal(mcp_warning_name(MCP_WARNING_MARTINGALE), "martingale");
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  /* no false alarms: QMC with 2 or 4 scramblings (the error of a few
   * replicates' mean is Student's), and float paths at a volatility of 0
   * (whose rounding is above double's; every path the same: constant) */
  for (unsigned seed = 1; HAVE_QMC && seed <= 12; seed++) {
    p = new_portfolio(4096, seed);
    assert_int_equal(mcp_portfolio_set_methods(p, MCP_QMC), MCP_OK);
    assert_int_equal(mcp_portfolio_set_scramblings(p, seed % 2 ? 2 : 4), MCP_OK);
    add_european(p, "q", "S", MCP_CALL, 100, 1, 1);
    r = price(ctx_of(state), m, p);
    assert_int_equal(mcp_results_warnings(r, 0), 0);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  add_underlying(m, "Z", (bs_params){100, 0.03, 0, 0});
  /* and mixed, whose plain shape takes its fixings' exp to float's
   * accuracy (a European's forward and an Asian's: the plain job) */
  for (int prec = MCP_FLOAT; prec <= MCP_MIXED; prec++) {
    p = new_portfolio(4096, 1);
    assert_int_equal(mcp_portfolio_set_precision(p, (mcp_precision)prec), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
    add_european(p, "z", "Z", MCP_CALL, 90, 1, 1);
    double fix[12];
    fixings(fix, 12, 1.0 / 12, 1);
    mcp_trade a = trade_on("za", "Z", MCP_PRODUCT_ASIAN, MCP_CALL, 90, 1);
    a.nfixings = 12;
    a.fixings = fix;
    add_trade(p, &a);
    r = price(ctx_of(state), m, p);
    for (size_t i = 0; i < 2; i++)
      assert_int_equal(mcp_results_warnings(r, i), MCP_WARNING_CONSTANT);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* QMC error falls faster than 1/sqrt(N) on a smooth payoff: the error of the
 * scramblings' mean, over 8 times the points, falls by more than 8^0.5. */
static void test_qmc_rate(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "S", (bs_params){100, 0.03, 0.0, 0.25});
  if (!HAVE_QMC) { /* a build without cuRAND refuses QMC, saying why */
    mcp_trade e = trade_on("e", "S", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
    mcp_portfolio *p = new_portfolio(1024, 1);
    assert_int_equal(mcp_portfolio_set_methods(p, MCP_QMC), MCP_OK);
    add_trade(p, &e);
    mcp_results *r = NULL;
    assert_int_equal(mcp_price(ctx_of(state), m, p, &r), MCP_ERR_UNAVAILABLE);
    assert_null(r);
    assert_non_null(strstr(mcp_context_last_error(ctx_of(state)), "QMC takes its Sobol"));
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
    return;
  }
  double fix[16];
  fixings(fix, 16, 1.0 / 16, 1);
  mcp_trade t = trade_on("geo", "S", MCP_PRODUCT_ASIAN, MCP_CALL, 100, 1);
  t.average = MCP_GEOMETRIC;
  t.nfixings = 16;
  t.fixings = fix;
  mcp_estimate small = price_one(state, m, &t, MCP_QMC, 16 * 1024, 0);
  mcp_estimate large = price_one(state, m, &t, MCP_QMC, 16 * 8192, 0);
  double ratio = small.std_error / large.std_error;
  print_message("  QMC error 16K points %.3e, 128K %.3e: ratio %.1f (MC: 2.8)\n",
                small.std_error, large.std_error, ratio);
  assert_true(ratio > 4.0);
  double exact = cf_geometric_asian(MCP_CALL, 100, 100, 0.03, 0, 0.25, 16, fix, 1);
  assert_within("geo QMC 128K", large, exact, NSE);
  mcp_market_destroy(m);
}

/* Prices do not depend on the tile size or the CPU's thread count with every
 * method on, in a book of every model and product. */
static void test_methods_tiles(void **state)
{
  double fix[6];
  fixings(fix, 6, 0.25, 1);
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0.01, 0.3});
  add_underlying(m, "B", (bs_params){90, 0.03, 0.0, 0.2});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1, 0.04, 0.5, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "M", 100, 0.03, 0, 0.2, 2, -0.1, 0.1), MCP_OK);
  const char *names[2] = {"A", "B"};
  double corr[4] = {1, 0.4, 0.4, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, names, corr), MCP_OK);
  mcp_estimate snap[2][40];
  size_t count = 0;
  for (int tile = 0; tile < 2; tile++) {
    mcp_portfolio *p = new_portfolio(3000, 77);
    assert_int_equal(mcp_portfolio_set_methods(p, HAVE_QMC ? 7 : 3), MCP_OK);
    assert_int_equal(mcp_portfolio_set_scramblings(p, 3), MCP_OK);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
    const char *und[3] = {"A", "H", "M"};
    for (int u = 0; u < 3; u++)
      for (int prod = MCP_PRODUCT_EUROPEAN; prod <= MCP_PRODUCT_LOOKBACK; prod++) {
        char id[16];
        snprintf(id, sizeof id, "%s%d", und[u], prod);
        mcp_trade t = trade_on(id, und[u], prod, MCP_PUT, 100, 1);
        t.barrier_kind = MCP_DOWN_AND_IN;
        t.barrier = 90;
        if (prod == MCP_PRODUCT_ASIAN || prod == MCP_PRODUCT_LOOKBACK ||
            prod == MCP_PRODUCT_BARRIER) {
          t.nfixings = 6;
          t.fixings = fix;
        }
        add_trade(p, &t);
      }
    for (int prod = MCP_PRODUCT_BASKET; prod <= MCP_PRODUCT_WORST_OF; prod++) {
      char id[16];
      snprintf(id, sizeof id, "AB%d", prod);
      mcp_trade t = trade_on(id, NULL, prod, MCP_CALL, 95, 1);
      t.nassets = 2;
      t.assets = names;
      add_trade(p, &t);
    }
    mcp_context *ctx = ctx_of(state);
    assert_int_equal(mcp_context_set_tile_paths(ctx, tile ? MCP_CHUNK_PATHS : 0), MCP_OK);
#ifdef _OPENMP /* and the CPU's threads: 3 instead of the machine's */
    int threads = omp_get_max_threads();
    if (tile)
      omp_set_num_threads(3);
#endif
    mcp_results *r = price(ctx, m, p);
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    count = snapshot(r, snap[tile], 40);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
    assert_int_equal(mcp_context_set_tile_paths(ctx, 0), MCP_OK);
  }
  assert_same_bits("tile sizes and thread counts, all methods", snap[0], snap[1], count);
  mcp_market_destroy(m);
}

/* ---- 10. QMC points are cuRAND's scrambled Sobol sequence -------------- */

static void test_sobol_matches_curand(void **state)
{
#ifndef MCP_HAVE_CURAND
  skip();
#else
  enum { NDIM = 40, NPTS = 1000 };
  const uint64_t *dirs = mcpi_sobol_directions(), *scr = mcpi_sobol_scrambles();
  assert_non_null(dirs);
  assert_non_null(scr);
  curandGenerator_t g;
  assert_int_equal(curandCreateGeneratorHost(&g, CURAND_RNG_QUASI_SCRAMBLED_SOBOL64),
                   CURAND_STATUS_SUCCESS);
  assert_int_equal(curandSetQuasiRandomGeneratorDimensions(g, NDIM), CURAND_STATUS_SUCCESS);
  static unsigned long long ref[NDIM * NPTS];
  assert_int_equal(curandGenerateLongLong(g, ref, NDIM * NPTS), CURAND_STATUS_SUCCESS);
  curandDestroyGenerator(g);
  static double z[NDIM * NPTS];
  mcpi_sobol_fill(dirs, scr, NDIM, 0, NPTS, z, NPTS);
  for (size_t d = 0; d < NDIM; d++)
    for (size_t i = 0; i < NPTS; i++) /* cuRAND's output is dimension by dimension */
      if (z[d * NPTS + i] != mcpi_sobol_normal(ref[d * NPTS + i]))
        fail_msg("dimension %zu point %zu: %.17g, cuRAND's gives %.17g", d, i, z[d * NPTS + i],
                 mcpi_sobol_normal(ref[d * NPTS + i]));
  /* a later start is the same sequence */
  static double tail[NDIM * 100];
  mcpi_sobol_fill(dirs, scr, NDIM, 777, 100, tail, 100);
  for (size_t d = 0; d < NDIM; d++)
    for (size_t i = 0; i < 100; i++)
      assert_true(tail[d * 100 + i] == z[d * NPTS + 777 + i]);
  /* the quantile (AS 241) is accurate to a few units in the last place:
   * about 1e-15 of u, the C library's erfc included */
  for (double u = 1e-12; u < 1; u = u < 0.01 ? u * 7 : u + 0.01013) {
    double x = mcpi_normal_quantile(u);
    assert_true(fabs(cf_norm_cdf(x) - u) <= 2e-15 * fmax(u, 1e-2) + 1e-300);
    assert_true(mcpi_normal_quantile(1 - u) == -x || u < 0.5); /* 1 - u exact for u >= 1/2 */
  }
  /* a Sobol value's normal: the extremes the quantiles of 2^-54 and 1 -
   * 2^-54 (not of a u rounded to 1), and ~x's that of x negated */
  assert_true(fabs(mcpi_sobol_normal(0) + 8.2923) < 1e-3);
  assert_true(mcpi_sobol_normal(~UINT64_C(0)) == -mcpi_sobol_normal(0));
  for (uint64_t x = 0x9e3779b97f4a7c15u, i = 0; i < 10000; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    assert_true(mcpi_sobol_normal(~x) == -mcpi_sobol_normal(x));
  }
#endif
}

/* ---- 11. bad inputs ---------------------------------------------------- */

static void expect_market(mcp_status st, mcp_market *m, mcp_status want, const char *text)
{
  const char *msg = mcp_market_last_error(m);
  print_message("  -> %s\n", msg);
  assert_int_equal(st, want);
  if (!strstr(msg, text))
    fail_msg("message '%s' does not contain '%s'", msg, text);
}

/* Impossible values are MCP_ERR_INPUT, like those of a file. */
static void expect_trade(mcp_portfolio *p, const mcp_trade *t, const char *text)
{
  mcp_status st = mcp_portfolio_add_trade(p, t);
  const char *msg = mcp_portfolio_last_error(p);
  print_message("  -> %s\n", msg);
  assert_int_equal(st, MCP_ERR_INPUT);
  if (!strstr(msg, text))
    fail_msg("message '%s' does not contain '%s'", msg, text);
}

static void test_bad_models(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0, 0.2});
  add_underlying(m, "B", (bs_params){100, 0.03, 0, 0.2});
  add_underlying(m, "C", (bs_params){100, 0.03, 0, 0.2});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1, 0.04, 0.5, -0.7),
                   MCP_OK);
  const char *abc[3] = {"A", "B", "C"};
  /* pairwise fine, jointly not positive definite */
  double bad[9] = {1, 0.9, -0.9, 0.9, 1, 0.9, -0.9, 0.9, 1};
  expect_market(mcp_market_set_correlation(m, 3, abc, bad), m, MCP_ERR_INPUT,
                "positive definite");
  double asym[9] = {1, 0.5, 0, 0.4, 1, 0, 0, 0, 1};
  expect_market(mcp_market_set_correlation(m, 3, abc, asym), m, MCP_ERR_INPUT, "symmetric");
  double diag[4] = {1, 0.5, 0.5, 0.9};
  expect_market(mcp_market_set_correlation(m, 2, abc, diag), m, MCP_ERR_INPUT, "diagonal");
  const char *ah[2] = {"A", "H"}, *am[2] = {"A", "MJ"}, *hv[3] = {"H", "H:variance", "A"};
  double ok[4] = {1, 0.5, 0.5, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, ah, ok), MCP_OK); /* Heston spots too */
  assert_int_equal(mcp_market_add_merton(m, "MJ", 100, 0.03, 0, 0.2, 1, -0.1, 0.1), MCP_OK);
  expect_market(mcp_market_set_correlation(m, 2, am, ok), m, MCP_ERR_INPUT,
                "a Black-Scholes, Heston or local-volatility underlying");
  /* a Heston underlying's own two Brownian motions correlate by its rho */
  double own[9] = {1, -0.5, 0.2, -0.5, 1, 0.1, 0.2, 0.1, 1};
  expect_market(mcp_market_set_correlation(m, 3, hv, own), m, MCP_ERR_INPUT,
                "expected -0.7, the rho of 'H'");
  own[1] = own[3] = -0.7;
  assert_int_equal(mcp_market_set_correlation(m, 3, hv, own), MCP_OK);
  const char *av[2] = {"A", "A:variance"};
  expect_market(mcp_market_set_correlation(m, 2, av, ok), m, MCP_ERR_INPUT,
                "NAME:variance of a Heston underlying");
  const char *aa[2] = {"A", "A"};
  expect_market(mcp_market_set_correlation(m, 2, aa, ok), m, MCP_ERR_INPUT, "A");
  expect_market(mcp_market_add_heston(m, "H2", 100, 0.03, 0, 0.04, 1, 0.04, 0.5, -1.5), m,
                MCP_ERR_INPUT, "rho");
  expect_market(mcp_market_add_heston(m, "H2", 100, 0.03, 0, -0.04, 1, 0.04, 0.5, 0), m,
                MCP_ERR_INPUT, "v0");
  expect_market(mcp_market_add_heston(m, "H2", 100, 0.03, 0, 0.04, 0, 0.04, 0.5, 0), m,
                MCP_ERR_INPUT, "kappa");
  expect_market(mcp_market_add_heston(m, "H2", 100, 0.03, 0, 0.04, 1, 0, 0.5, 0), m,
                MCP_ERR_INPUT, "theta");
  expect_market(mcp_market_add_merton(m, "M", 100, 0.03, 0, 0.2, -1, 0, 0.1), m,
                MCP_ERR_INPUT, "lambda");
  expect_market(mcp_market_add_merton(m, "M", 100, 0.03, 0, 0.2, 1, 0, -0.1), m,
                MCP_ERR_INPUT, "jump_vol");
  double end[2] = {1, 0.5}, val[2] = {0.1, 0.2};
  expect_market(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 2, end, val), m,
                MCP_ERR_INPUT, "increas");
  double neg[2] = {0.1, -0.2}, end2[2] = {0.5, 1};
  expect_market(mcp_market_set_curve(m, "A", MCP_CURVE_VOLATILITY, 2, end2, neg), m,
                MCP_ERR_INPUT, "volatility");
  expect_market(mcp_market_set_curve(m, "nobody", MCP_CURVE_RATE, 2, end2, val), m,
                MCP_ERR_NOT_FOUND, "nobody");
  assert_int_equal(mcp_market_size(m), 5); /* nothing half-added */
  mcp_market_destroy(m);
}

static void test_bad_trades(void **state)
{
  mcp_portfolio *p = new_portfolio(1000, 1);
  double fix[2] = {0.5, 1}, late[2] = {0.5, 2}, w[2] = {1, 1};
  const char *two[2] = {"A", "B"}, *dup[2] = {"A", "A"};
  mcp_trade t = trade_on("bar", "A", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
  t.barrier = 0;
  expect_trade(p, &t, "barrier");
  t.barrier = 120;
  t.monitoring = MCP_MONITOR_DISCRETE;
  expect_trade(p, &t, "fixings");
  t.nfixings = 2;
  t.fixings = late;
  expect_trade(p, &t, "maturity");
  t.rebate = -1;
  t.fixings = fix;
  expect_trade(p, &t, "rebate");
  mcp_trade lb = trade_on("lb", "A", MCP_PRODUCT_LOOKBACK, MCP_CALL, 100, 1);
  lb.strike_kind = MCP_FLOATING_STRIKE;
  lb.nfixings = 2;
  lb.fixings = fix;
  expect_trade(p, &lb, "strike");
  lb.strike_kind = MCP_FIXED_STRIKE;
  lb.monitoring = MCP_MONITOR_BGK; /* the shift is a barrier's */
  expect_trade(p, &lb, "monitoring");
  lb.monitoring = MCP_MONITOR_BRIDGE; /* continuous: no fixings */
  expect_trade(p, &lb, "fixings");
  mcp_trade b = trade_on("bk", NULL, MCP_PRODUCT_BASKET, MCP_CALL, 100, 1);
  b.nassets = 1;
  b.assets = two;
  expect_trade(p, &b, "2");
  b.nassets = 2;
  b.assets = dup;
  expect_trade(p, &b, "A");
  b.assets = two;
  b.weights = w;
  b.underlying = "A";
  expect_trade(p, &b, "underlying");
  b.underlying = NULL;
  mcp_trade best = b;
  best.id = "best";
  best.product = MCP_PRODUCT_BEST_OF;
  expect_trade(p, &best, "weights");
  mcp_trade d = trade_on("dig", "A", MCP_PRODUCT_DIGITAL, MCP_CALL, 100, 1);
  d.cash = -1;
  expect_trade(p, &d, "cash");
  mcp_trade e = trade_on("e", "A", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  e.methods = 8; /* flags outside the enum: an argument error */
  assert_int_equal(mcp_portfolio_add_trade(p, &e), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "methods"));
  assert_int_equal(mcp_portfolio_size(p), 0);
  assert_int_equal(mcp_portfolio_set_scramblings(p, 1), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_set_methods(p, 99), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, 7), MCP_ERR_ARGUMENT);
  mcp_portfolio_destroy(p);
}

/* Pricing checks what only the market knows: correlations for a basket, and
 * multi-asset products on Black-Scholes underlyings only. */
static void test_bad_pricing(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0, 0.2});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0, 0.04, 1, 0.04, 0.5, -0.7),
                   MCP_OK);
  const char *ah[2] = {"A", "H"};
  mcp_portfolio *p = new_portfolio(1000, 1);
  mcp_trade t = trade_on("bk", NULL, MCP_PRODUCT_BEST_OF, MCP_CALL, 100, 1);
  t.nassets = 2;
  t.assets = ah;
  add_trade(p, &t);
  mcp_results *r = NULL;
  assert_int_not_equal(mcp_price(ctx_of(state), m, p, &r), MCP_OK);
  assert_null(r);
  print_message("  -> %s\n", mcp_context_last_error(ctx_of(state)));
  assert_non_null(strstr(mcp_context_last_error(ctx_of(state)), "H"));
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_black_scholes_curves),
      cmocka_unit_test(test_heston),
      cmocka_unit_test(test_heston_default_grid),
      cmocka_unit_test(test_heston_qe_edges),
      cmocka_unit_test(test_merton),
      cmocka_unit_test(test_geometric_asian),
      cmocka_unit_test(test_barriers),
      cmocka_unit_test(test_bridge_curve_knots),
      cmocka_unit_test(test_bridge_knot_theta), cmocka_unit_test(test_barrier_spot_today),
      cmocka_unit_test(test_bgk_spacing),
      cmocka_unit_test(test_lookbacks),
      cmocka_unit_test(test_lookbacks_bridge),
      cmocka_unit_test(test_local_vol),
      cmocka_unit_test(test_dupire),
      cmocka_unit_test(test_dupire_default_grid),
      cmocka_unit_test(test_cash_dividends),
      cmocka_unit_test(test_bad_cash_dividends),
      cmocka_unit_test(test_bad_local_vol),
      cmocka_unit_test(test_two_assets),
      cmocka_unit_test(test_local_vol_assets),
      cmocka_unit_test(test_in_out_parity),
      cmocka_unit_test(test_orderings),
      cmocka_unit_test(test_call_put_parity),
      cmocka_unit_test(test_methods),
      cmocka_unit_test(test_methods_per_trade),
      cmocka_unit_test(test_qmc_rate),
      cmocka_unit_test(test_martingale_warning),
      cmocka_unit_test(test_methods_tiles),
      cmocka_unit_test(test_sobol_matches_curand),
      cmocka_unit_test(test_bad_models),
      cmocka_unit_test(test_bad_trades),
      cmocka_unit_test(test_bad_pricing),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
