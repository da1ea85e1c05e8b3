/* test_curves.c: curves given by their pillars (discount factors, zero
 * rates, dividend yields, forward prices), log-linear between them or their
 * zero rates linear, named in the market or an underlying's own: the
 * forward rates they become, a European priced on them against Black's
 * formula, and the bad ones. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "src/inputs/market.h"
#include "tests/closed_form.h"

static mcp_market *load(const char *text, char *err, size_t errlen)
{
  mcp_market *m = NULL;
  err[0] = '\0';
  mcp_market_load_text(&m, "market.json", text, strlen(text), err, errlen);
  return m;
}

static mcp_market *must_load(const char *text)
{
  char err[512];
  mcp_market *m = load(text, err, sizeof err);
  if (!m)
    fail_msg("%s", err);
  return m;
}

static void expect_close(double got, double want, const char *what)
{
  if (!(fabs(got - want) <= 4e-16 * fmax(1, fabs(want))))
    fail_msg("%s: %.17g, expected %.17g", what, got, want);
}

/* Discount factors, zero rates and their named curve: the forwards between
 * pillars, and the integral to each pillar the log of its discount factor. */
static void test_rate_pillars(void **state)
{
  mcp_market *m = must_load(
      "{\"discount_curves\": {\"OIS\": {\"pillars\": [0.5, 1, 2],\n"
      "   \"discount_factors\": [0.9900498337491681, 0.9753099120283326, 0.9417645335842487]}},\n"
      " \"underlyings\": [\n"
      "  {\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2, \"curves\": {\"rate\": \"OIS\"}},\n"
      "  {\"name\": \"B\", \"spot\": 100, \"volatility\": 0.2,\n"
      "   \"curves\": {\"rate\": {\"pillars\": [1, 2], \"zero_rates\": [0.02, 0.03]}}},\n"
      "  {\"name\": \"C\", \"spot\": 100, \"volatility\": 0.2, \"rate\": 0.02}]}");
  /* the factors of the forwards 2%, 3% and 3.5%: exp(-0.01), exp(-0.025), exp(-0.06) */
  const mcpi_underlying *a = mcpi_market_find(m, "A"), *b = mcpi_market_find(m, "B");
  assert_int_equal(a->rate.n, 3);
  expect_close(a->rate.value[0], 0.02, "A's first forward");
  expect_close(a->rate.value[1], 0.03, "A's second");
  expect_close(a->rate.value[2], 0.035, "A's third");
  assert_true(a->rate.end[2] == 2);
  expect_close(mcpi_curve_integral(&a->rate, 0, 2), -log(0.9417645335842487), "A to 2");
  /* beyond the last pillar: the last forward */
  expect_close(mcpi_curve_integral(&a->rate, 2, 3), 0.035, "A beyond");
  /* zero rates: 2% to 1, then 4% to make 3% to 2 */
  assert_int_equal(b->rate.n, 2);
  expect_close(b->rate.value[0], 0.02, "B's first forward");
  expect_close(b->rate.value[1], 0.04, "B's second");
  expect_close(mcpi_curve_integral(&b->rate, 0, 2), 0.06, "B to 2");
  mcp_market_destroy(m);
}

/* A dividend curve of forward prices: the yields that make them, over the
 * underlying's rate; and dated pillars. */
static void test_dividend_pillars(void **state)
{
  char text[1024];
  double f1 = 100 * exp(0.03 - 0.01), f2 = 100 * exp(2 * 0.03 - 0.01 - 0.025);
  snprintf(text, sizeof text,
           "{\"valuation_date\": \"2026-11-29\", \"rate\": 0.03, \"underlyings\": [\n"
           " {\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2,\n"
           "  \"curves\": {\"dividend\": {\"pillars\": [1, 2], \"forwards\": [%.17g, %.17g]}}},\n"
           " {\"name\": \"B\", \"spot\": 100, \"volatility\": 0.2,\n"
           "  \"curves\": {\"dividend\": {\"pillars\": [\"2027-11-29\"], \"yields\": [0.015]},\n"
           "             \"rate\": {\"pillars\": [\"2027-05-29\", \"2027-11-29\"],\n"
           "                      \"zero_rates\": [0.02, 0.025]}}}]}",
           f1, f2);
  mcp_market *m = must_load(text);
  const mcpi_underlying *a = mcpi_market_find(m, "A"), *b = mcpi_market_find(m, "B");
  assert_int_equal(a->dividend.n, 2);
  assert_true(fabs(a->dividend.value[0] - 0.01) < 1e-15);
  assert_true(fabs(a->dividend.value[1] - 0.025) < 1e-15);
  assert_true(b->dividend.n == 1 && b->dividend.end[0] == 1);
  expect_close(b->dividend.value[0], 0.015, "B's yield");
  assert_true(b->rate.end[0] == 181.0 / 365 && b->rate.end[1] == 1);
  expect_close(mcpi_curve_integral(&b->rate, 0, 1), 0.025, "B's rate to a year");
  mcp_market_destroy(m);
}

/* Forwards over a rate curve of pillars (a named one): the yields make the
 * forwards over that curve's integral; a falling rate that goes below -41%
 * a year is a forward of -0.41, accepted. */
static void test_forwards_over_a_curve(void **state)
{
  mcp_market *m = must_load(
      "{\"discount_curves\": {\"OIS\": {\"pillars\": [0.5, 1],\n"
      "   \"discount_factors\": [0.9900498337491681, 0.9753099120283326]},\n"
      "  \"NEG\": {\"pillars\": [1], \"discount_factors\": [1.5]}},\n"
      " \"underlyings\": [{\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2,\n"
      "  \"curves\": {\"rate\": \"OIS\", \"dividend\": {\"pillars\": [0.5, 1],\n"
      "   \"forwards\": [100.5012520859401, 100.5012520859401]}}},\n"
      "  {\"name\": \"N\", \"spot\": 100, \"volatility\": 0.2, \"curves\": {\"rate\": \"NEG\"}}]}");
  /* forwards 100 e^{0.01 - 0.005} and 100 e^{0.025 - 0.02}: yields 1%, then 3% */
  const mcpi_underlying *a = mcpi_market_find(m, "A"), *n = mcpi_market_find(m, "N");
  assert_true(fabs(a->dividend.value[0] - 0.01) < 1e-14);
  assert_true(fabs(a->dividend.value[1] - 0.03) < 1e-14);
  assert_true(fabs(n->rate.value[0] + log(1.5)) < 1e-15);
  mcp_market_destroy(m);
}

/* A European on pillar curves against Black's formula on their forward and
 * discount factor. */
static void test_european_on_pillars(void **state)
{
  mcp_market *m = must_load(
      "{\"underlyings\": [{\"name\": \"A\", \"spot\": 100, \"volatility\": 0.25,\n"
      "  \"curves\": {\"rate\": {\"pillars\": [0.5, 1.5], \"discount_factors\": [0.99, 0.955]},\n"
      "             \"dividend\": {\"pillars\": [1], \"forwards\": [102]}}}]}");
  mcp_portfolio *p = NULL;
  mcp_context *ctx = NULL;
  mcp_results *r = NULL;
  mcp_estimate e;
  const double T = 1.25;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_european(p, "E", "A", MCP_CALL, 100, T, 1), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 400000), MCP_OK);
  assert_int_equal(mcp_portfolio_set_seed(p, 5), MCP_OK);
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  assert_int_equal(mcp_results_trade(r, 0, &e), MCP_OK);
  /* the discount factor log-linear at 1.25: 0.99 (0.955 / 0.99)^(3/4); the
   * forward to 1 is 102, then grows at the rate's forward less the last yield */
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  double df = 0.99 * pow(0.955 / 0.99, 0.75);
  double fwd = 102 * exp(mcpi_curve_integral(&u->rate, 1, T) -
                         mcpi_curve_integral(&u->dividend, 1, T));
  double want = cf_black(MCP_CALL, fwd, 100, 0.25 * sqrt(T), df);
  if (fabs(e.price - want) > 4 * e.std_error)
    fail_msg("price %.6f +- %.6f, Black %.6f", e.price, e.std_error, want);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void expect_refused(const char *curves, const char *want)
{
  char text[1024], err[512];
  snprintf(text, sizeof text,
           "{\"discount_curves\": {\"OIS\": {\"pillars\": [1], \"zero_rates\": [0.02]}},\n"
           " \"rate\": 0.03, \"underlyings\": [{\"name\": \"A\", \"spot\": 100, "
           "\"volatility\": 0.2,\n  %s}]}",
           curves);
  mcp_market *m = load(text, err, sizeof err);
  if (m || !strstr(err, want) || strncmp(err, "market.json:", 12) != 0)
    fail_msg("%s: got '%s', expected '%s'", curves, m ? "(loaded)" : err, want);
}

static void test_bad_pillars(void **state)
{
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1, 2], \"discount_factors\": [0.98, 0]}}",
                 "curves.rate.discount_factors[1]: expected a number > 0, got 0");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1], \"discount_factors\": [0.98], "
                 "\"zero_rates\": [0.02]}}",
                 "curves.rate.zero_rates: expected one of discount_factors or zero_rates, not both");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1], \"yields\": [0.02]}}",
                 "curves.rate.yields: expected one of discount_factors or zero_rates, not this");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1]}}",
                 "curves.rate: missing field: expected discount_factors or zero_rates");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1, 2], \"zero_rates\": [0.02]}}",
                 "curves.rate.zero_rates: expected 2 values, one for each pillar, got 1");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [2, 1], \"zero_rates\": [0.02, 0.02]}}",
                 "curves.rate.pillars[1]: expected");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1], \"zero_rates\": [0.02], "
                 "\"interpolation\": \"cubic\"}}",
                 "curves.rate.interpolation: expected log-linear (on the discount factors: "
                 "constant forward rates between pillars) or linear-zero");
  /* zero rates 50% and 90%: the forward reaches 170% at 2 */
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1, 2], \"zero_rates\": [0.5, 0.9], "
                 "\"interpolation\": \"linear-zero\"}}",
                 "curves.rate.zero_rates[1]: expected a value whose forward rate towards it is a "
                 "number between -1 and 1 (here 1.7)");
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1, 2], \"discount_factors\": [0.98, "
                 "0.05], \"interpolation\": \"linear-zero\"}}",
                 "curves.rate.discount_factors[1]: expected a value whose zero rate is a number "
                 "between -1 and 1 (here 1.49787)");
  /* a factor that rises by half in a year: a forward of -41% is fine, a
   * fall to a tenth in a year is not */
  expect_refused("\"curves\": {\"rate\": {\"pillars\": [1, 2], \"discount_factors\": [0.98, "
                 "0.098]}}",
                 "curves.rate.discount_factors[1]: expected a value whose forward rate from the "
                 "pillar before is a number between -1 and 1 (here 2.30259)");
  expect_refused("\"curves\": {\"rate\": \"SOFR\"}",
                 "curves.rate: expected the name of one of the market's discount_curves");
  expect_refused("\"curves\": {\"rate\": \"OIS\"}, \"rate\": 0.02",
                 "expected either a flat rate or curves.rate, not both");
  expect_refused("\"curves\": {\"dividend\": {\"pillars\": [1], \"forwards\": [101]}},\n"
                 "  \"dividends\": [{\"time\": 0.5, \"amount\": 1}]",
                 "curves.dividend.forwards: forwards give the yield that makes them");
  char err[512];
  assert_null(load("{\"discount_curves\": {\"OIS\": {\"pillars\": [1], \"yields\": [0.01]}},\n"
                   " \"rate\": 0, \"underlyings\": [{\"name\": \"A\", \"spot\": 100, "
                   "\"volatility\": 0.2}]}",
                   err, sizeof err));
  assert_non_null(strstr(err, "discount_curves.OIS.yields: expected one of discount_factors or "
                              "zero_rates, not this field"));
  assert_null(load("{\"discount_curves\": {\"OIS\": [1]}, \"rate\": 0, \"underlyings\": "
                   "[{\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2}]}",
                   err, sizeof err));
  assert_non_null(strstr(err, "discount_curves.OIS: expected a curve object {pillars"));
  /* a curve of both kinds of one curve: "both" */
  expect_refused("\"curves\": {\"dividend\": {\"pillars\": [1], \"yields\": [0.01], "
                 "\"forwards\": [101]}}",
                 "curves.dividend.forwards: expected one of yields or forwards, not both");
  /* no cash dividends, forwards read: an empty list is none */
  char text[512];
  snprintf(text, sizeof text,
           "{\"rate\": 0.03, \"underlyings\": [{\"name\": \"A\", \"spot\": 100, "
           "\"volatility\": 0.2, \"dividends\": [],\n"
           "  \"curves\": {\"dividend\": {\"pillars\": [1], \"forwards\": [101]}}}]}");
  mcp_market *ok = load(text, err, sizeof err);
  if (!ok)
    fail_msg("%s", err);
  mcp_market_destroy(ok);
  /* a volatility curve has no pillars */
  assert_null(load("{\"rate\": 0, \"underlyings\": [{\"name\": \"A\", \"spot\": 100,\n"
                   "  \"curves\": {\"volatility\": {\"pillars\": [1], \"zero_rates\": [0.2]}}}]}",
                   err, sizeof err));
  assert_non_null(strstr(err, "curves.volatility.pillars: unknown field; expected one of end, value"));
}

/* Zero rates linear between pillars: the integral to any time is its zero
 * rate times it, exactly; a European in closed form, on paths and on the
 * grid against Black's formula with them; the call gives the same curve; a
 * relative shift scales it. */
#define LINEAR_ZERO_MARKET                                                                     \
  "{\"underlyings\": [{\"name\": \"A\", \"spot\": 100, \"volatility\": 0.25,\n"              \
  "  \"curves\": {\"rate\": {\"pillars\": [0.5, 1, 2], \"zero_rates\": [0.02, 0.03, 0.025],\n" \
  "                        \"interpolation\": \"linear-zero\"},\n"                             \
  "              \"dividend\": {\"pillars\": [1, 3], \"yields\": [0.01, 0.02],\n"              \
  "                            \"interpolation\": \"linear-zero\"}}}]}"

/* The zero rate of the pillars above at t: flat before 0.5 and beyond 2. */
static double zero_at(double t)
{
  static const double p[3] = {0.5, 1, 2}, z[3] = {0.02, 0.03, 0.025};
  if (t <= p[0])
    return z[0];
  for (int i = 1; i < 3; i++)
    if (t <= p[i])
      return z[i - 1] + (z[i] - z[i - 1]) * (t - p[i - 1]) / (p[i] - p[i - 1]);
  return z[2];
}

static double yield_at(double t) { return t <= 1 ? 0.01 : t <= 3 ? 0.01 + 0.005 * (t - 1) : 0.02; }

static void test_linear_zero(void **state)
{
  mcp_market *m = must_load(LINEAR_ZERO_MARKET);
  const mcpi_underlying *u = mcpi_market_find(m, "A");
  static const double at[7] = {0.25, 0.5, 0.75, 1, 1.5, 2, 3.5};
  for (int i = 0; i < 7; i++) {
    char what[64];
    snprintf(what, sizeof what, "the rate's integral to %g", at[i]);
    expect_close(mcpi_curve_integral(&u->rate, 0, at[i]), zero_at(at[i]) * at[i], what);
    snprintf(what, sizeof what, "the yield's integral to %g", at[i]);
    expect_close(mcpi_curve_integral(&u->dividend, 0, at[i]), yield_at(at[i]) * at[i], what);
  }
  /* between two times: the difference; the mean over a step the integral's */
  expect_close(mcpi_curve_integral(&u->rate, 0.6, 1.7), zero_at(1.7) * 1.7 - zero_at(0.6) * 0.6,
               "from 0.6 to 1.7");
  expect_close(mcpi_curve_mean(&u->rate, 0.6, 0.9, 0) * 0.3,
               zero_at(0.9) * 0.9 - zero_at(0.6) * 0.6, "the mean from 0.6 to 0.9");
  assert_false(mcpi_curve_one_piece(&u->rate, 0.6, 0.9));
  /* a last pillar past 99 years: its flat tail's end is its own */
  mcp_market *far = must_load(
      "{\"underlyings\": [{\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2,\n"
      "  \"curves\": {\"rate\": {\"pillars\": [50, 100], \"zero_rates\": [0.02, 0.03],\n"
      "                        \"interpolation\": \"linear-zero\"}}}]}");
  expect_close(mcpi_curve_integral(&mcpi_market_find(far, "A")->rate, 0, 100), 3,
               "to a pillar at 100");
  mcp_market_destroy(far);
  /* the call's curve: the same pieces */
  mcp_market *c = NULL;
  assert_int_equal(mcp_market_create(&c), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(c, "A", 100, 0, 0, 0.25), MCP_OK);
  const double t[3] = {0.5, 1, 2}, df[3] = {exp(-0.01), exp(-0.03), exp(-0.05)};
  assert_int_equal(mcp_market_set_curve_interpolated(c, "A", MCP_CURVE_RATE, 3, t, df,
                                                     MCP_LINEAR_ZERO),
                   MCP_OK);
  const mcpi_underlying *v = mcpi_market_find(c, "A");
  assert_int_equal(v->rate.n, 4);
  for (size_t i = 0; i < 4; i++) /* its zero rates from logs of factors: within rounding */
    assert_true(fabs(v->rate.value[i] - u->rate.value[i]) <= 1e-15 &&
                fabs(v->rate.slope[i] - u->rate.slope[i]) <= 1e-14);
  assert_int_equal(mcp_market_set_curve_interpolated(c, "A", MCP_CURVE_RATE, 3, t, df,
                                                     (mcp_interpolation)7),
                   MCP_ERR_ARGUMENT);
  mcp_market_destroy(c);
  /* a rate 10% larger everywhere: its integral too */
  const mcp_shift_kind kind[MCPI_NAXES] = {MCP_SHIFT_ABSOLUTE, MCP_SHIFT_ABSOLUTE,
                                           MCP_SHIFT_RELATIVE};
  const double x[MCPI_NAXES] = {0, 0, 0.1};
  mcp_market *s = NULL;
  char err[256];
  assert_int_equal(mcpi_market_shifted(m, kind, x, -1, NULL, &s, err), MCP_OK);
  expect_close(mcpi_curve_integral(&mcpi_market_find(s, "A")->rate, 0, 1.5),
               1.1 * zero_at(1.5) * 1.5, "the shifted integral");
  mcp_market_destroy(s);
  /* a shift that takes a piece's far end past 100%: refused, naming it */
  mcp_market *steep = must_load(
      "{\"underlyings\": [{\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2,\n"
      "  \"curves\": {\"rate\": {\"pillars\": [1, 2], \"zero_rates\": [0.3, 0.45],\n"
      "                        \"interpolation\": \"linear-zero\"}}}]}");
  const double up[MCPI_NAXES] = {0, 0, 0.3};
  const mcp_shift_kind abs_kind[MCPI_NAXES] = {MCP_SHIFT_ABSOLUTE, MCP_SHIFT_ABSOLUTE,
                                               MCP_SHIFT_ABSOLUTE};
  assert_int_equal(mcpi_market_shifted(steep, abs_kind, up, -1, NULL, &s, err), MCP_ERR_INPUT);
  if (!strstr(err, "rate shift 0.3 makes the rate 1.05"))
    fail_msg("%s", err);
  mcp_market_destroy(steep);
  /* a European at 1.5 by each engine */
  const double T = 1.5, K = 95;
  double dfT = exp(-zero_at(T) * T), fwd = 100 * exp((zero_at(T) - yield_at(T)) * T);
  double want = cf_black(MCP_CALL, fwd, K, 0.25 * sqrt(T), dfT);
  static const mcp_engine engines[3] = {MCP_ENGINE_ANALYTIC, MCP_ENGINE_MC, MCP_ENGINE_PDE};
  mcp_portfolio *p = NULL;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 400000), MCP_OK);
  for (int i = 0; i < 3; i++) {
    mcp_trade tr;
    mcp_trade_init(&tr);
    tr.id = i == 0 ? "analytic" : i == 1 ? "mc" : "pde";
    tr.underlying = "A";
    tr.strike = K;
    tr.maturity = T;
    tr.engine = engines[i];
    assert_int_equal(mcp_portfolio_add_trade(p, &tr), MCP_OK);
  }
  mcp_context *ctx = NULL;
  mcp_results *r = NULL;
  mcp_estimate e[3];
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  for (size_t i = 0; i < 3; i++)
    assert_int_equal(mcp_results_trade(r, i, &e[i]), MCP_OK);
  print_message("  Black %.10f: analytic %.10f, mc %.6f +- %.6f, pde %.8f\n", want, e[0].price,
                e[1].price, e[1].std_error, e[2].price);
  assert_true(fabs(e[0].price - want) <= 1e-12 * want);
  assert_true(fabs(e[1].price - want) <= 4 * e[1].std_error);
  assert_true(fabs(e[2].price - want) <= 2e-4 * want);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A repo rate, flat or a curve, adds to the dividend yield in the forward's
 * carry: the integrals of their sum, a European in closed form on it, and
 * the refusals (forwards that include it, a second one, a dividend after). */
static void test_repo(void **state)
{
  mcp_market *m = must_load(
      "{\"rate\": 0.03, \"underlyings\": [\n"
      "  {\"name\": \"A\", \"spot\": 100, \"volatility\": 0.2, \"dividend\": 0.01, "
      "\"repo\": 0.005},\n"
      "  {\"name\": \"B\", \"spot\": 100, \"volatility\": 0.2,\n"
      "   \"curves\": {\"dividend\": {\"end\": [0.5, 2], \"value\": [0.01, 0.02]},\n"
      "              \"repo\": {\"pillars\": [1, 2], \"yields\": [0.004, 0.006],\n"
      "                        \"interpolation\": \"linear-zero\"}}}]}");
  const mcpi_underlying *a = mcpi_market_find(m, "A"), *b = mcpi_market_find(m, "B");
  expect_close(mcpi_curve_integral(&a->dividend, 0, 1.5), 0.015 * 1.5, "A's carry");
  /* B: the yield's pieces plus the repo's zero rate 0.4% to 1, 0.6% at 2 */
  static const double at[4] = {0.3, 0.8, 1.5, 3};
  for (int i = 0; i < 4; i++) {
    double t = at[i], q = 0.01 * fmin(t, 0.5) + 0.02 * fmax(t - 0.5, 0);
    double z = t <= 1 ? 0.004 : t <= 2 ? 0.004 + 0.002 * (t - 1) : 0.006;
    expect_close(mcpi_curve_integral(&b->dividend, 0, t), q + z * t, "B's carry");
  }
  mcp_portfolio *p = NULL;
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = "E";
  t.underlying = "A";
  t.strike = 100;
  t.maturity = 1;
  t.engine = MCP_ENGINE_ANALYTIC;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  mcp_context *ctx = NULL;
  mcp_results *r = NULL;
  mcp_estimate e;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_OK);
  assert_int_equal(mcp_results_trade(r, 0, &e), MCP_OK);
  double want = cf_black_scholes(MCP_CALL, 100, 100, 1, 0.03, 0.015, 0.2);
  assert_true(fabs(e.price - want) <= 1e-13 * want);
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  expect_refused("\"repo\": 0.01, \"curves\": {\"dividend\": {\"pillars\": [1], "
                 "\"forwards\": [101]}}",
                 "curves.dividend.forwards: forwards give the yield that makes them: with a "
                 "repo rate (which they include), give yields");
  expect_refused("\"curves\": {\"repo\": {\"pillars\": [1], \"forwards\": [101]}}",
                 "curves.repo.forwards: expected one of yields, not this field");
  expect_refused("\"repo\": 0.01, \"curves\": {\"repo\": {\"end\": [1], \"value\": [0.01]}}",
                 "expected either a flat repo or curves.repo, not both");
  expect_refused("\"repo\": 2", "repo: expected a number between -1 and 1");
  /* the call: once, after the dividend's curve */
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.03, 0.01, 0.2), MCP_OK);
  const double end[1] = {1}, repo[1] = {0.002};
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_REPO, 1, end, repo), MCP_OK);
  expect_close(mcpi_curve_integral(&mcpi_market_find(m, "A")->dividend, 0, 2), 0.024,
               "the call's carry");
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_REPO, 1, end, repo), MCP_ERR_INPUT);
  assert_int_equal(mcp_market_set_curve(m, "A", MCP_CURVE_DIVIDEND, 1, end, repo),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "expected the dividend curve set before "
                                                   "the repo"));
  assert_int_equal(mcp_market_set_curve(m, "A", (mcp_curve)4, 1, end, repo), MCP_ERR_ARGUMENT);
  mcp_market_destroy(m);
}

/* The call: the same curve as the file's, and its refusals. */
static void test_call(void **state)
{
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", 100, 0.01, 0, 0.2), MCP_OK);
  const double t[] = {0.5, 1, 2},
               df[] = {0.9900498337491681, 0.9753099120283326, 0.9417645335842487};
  assert_int_equal(mcp_market_set_curve_pillars(m, "A", MCP_CURVE_RATE, 3, t, df), MCP_OK);
  const mcpi_underlying *a = mcpi_market_find(m, "A");
  expect_close(a->rate.value[1], 0.03, "the call's second forward");
  const double bad[] = {0.99, -1, 0.9};
  assert_int_equal(mcp_market_set_curve_pillars(m, "A", MCP_CURVE_RATE, 3, t, bad),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "discount factor 1: expected a number > 0"));
  /* a fall to a tenth in half a year: a forward of 460%, named with its value */
  const double steep[] = {0.99, 0.099, 0.09};
  assert_int_equal(mcp_market_set_curve_pillars(m, "A", MCP_CURVE_RATE, 3, t, steep),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_market_last_error(m), "discount factor 1: expected one whose "
                                                   "forward rate from the pillar before is a "
                                                   "number between -1 and 1, got 4.60517"));
  /* the dividend's: F / S times the rate's factor, 1.5% a year */
  const double dq[] = {exp(-0.0075), exp(-0.015), exp(-0.03)};
  assert_int_equal(mcp_market_set_curve_pillars(m, "A", MCP_CURVE_DIVIDEND, 3, t, dq), MCP_OK);
  expect_close(a->dividend.value[2], 0.015, "the call's dividend");
  const double t2[] = {1, 1};
  assert_int_equal(mcp_market_set_curve_pillars(m, "A", MCP_CURVE_RATE, 2, t2, df),
                   MCP_ERR_INPUT);
  assert_int_equal(mcp_market_set_curve_pillars(m, "A", MCP_CURVE_VOLATILITY, 3, t, df),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_market_set_curve_pillars(m, "Z", MCP_CURVE_RATE, 3, t, df),
                   MCP_ERR_NOT_FOUND);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rate_pillars),        cmocka_unit_test(test_dividend_pillars),
      cmocka_unit_test(test_forwards_over_a_curve), cmocka_unit_test(test_european_on_pillars),
      cmocka_unit_test(test_bad_pillars),         cmocka_unit_test(test_linear_zero),
      cmocka_unit_test(test_repo),
      cmocka_unit_test(test_call),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
