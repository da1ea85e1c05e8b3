/* test_calibrate.c: mcp_calibrate fits back the parameters of surfaces made
 * from known Heston (the adaptive integral of tests/cf_heston.h) and Merton
 * (tests/cf_merton.h) models, converges to the noise of a noisy surface,
 * skips unquoted points; the quotes file's and the fitted market's
 * checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "tests/cf_heston.h"
#include "tests/cf_merton.h"
#include "tests/closed_form.h"

#define NT 10
#define NK 10
static const double T[NT] = {0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 5};
static const double S = 100, R = 0.02, Q = 0.01;

static mcp_market *market(void)
{
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(m, "A", S, R, Q, 0.2), MCP_OK);
  return m;
}

/* Black's volatility of the discounted price p, by bisection (independent
 * of the library's inversion). */
static double implied(mcp_option_type type, double K, double t, double p)
{
  double lo = 1e-6, hi = 5;
  for (int i = 0; i < 200; i++) {
    double mid = 0.5 * (lo + hi);
    if (cf_black_scholes(type, S, K, t, R, Q, mid) > p)
      hi = mid;
    else
      lo = mid;
  }
  return 0.5 * (lo + hi);
}

typedef double (*model_fn)(mcp_option_type type, double K, double t, const double *p);

static double heston(mcp_option_type type, double K, double t, const double *p)
{
  return cf_heston(type, S, K, t, R, Q, p[0], p[1], p[2], p[3], p[4]);
}

static double merton(mcp_option_type type, double K, double t, const double *p)
{
  return cf_merton(type, S, K, t, R, Q, p[0], p[1], p[2], p[3]);
}

/* The 10 x 10 surface of model at p, strikes 60 to 141, out of the money. */
static void surface(model_fn f, const double *p, double *k, double *vols)
{
  for (int j = 0; j < NK; j++)
    k[j] = 60 + 9 * j;
  for (int i = 0; i < NT; i++)
    for (int j = 0; j < NK; j++) {
      mcp_option_type type = k[j] >= S * exp((R - Q) * T[i]) ? MCP_CALL : MCP_PUT;
      vols[i * NK + j] = implied(type, k[j], T[i], f(type, k[j], T[i], p));
    }
}

static mcp_fit fitted(mcp_market *m, mcp_fit_model model, double *k, double *vols, double *mv)
{
  mcp_quotes q = {"A", NT, NK, (double *)T, k, vols};
  mcp_fit fit;
  char err[512];
  if (mcp_calibrate(m, &q, model, &fit, mv, err, sizeof err) != MCP_OK)
    fail_msg("mcp_calibrate: %s", err);
  return fit;
}

/* A surface from known Heston parameters: each fitted back within 1e-3,
 * every volatility within 1 basis point (0.01 volatility points). */
static void test_heston_exact(void **state)
{
  (void)state;
  static const double truth[5] = {0.03, 1.8, 0.06, 0.7, -0.65};
  double k[NK], vols[NT * NK], mv[NT * NK];
  surface(heston, truth, k, vols);
  mcp_market *m = market();
  mcp_fit fit = fitted(m, MCP_FIT_HESTON, k, vols, mv);
  print_message("  Heston: %u iterations, rmse %.2e, max %.2e volatility points\n",
                fit.iterations, fit.rmse, fit.max_error);
  assert_int_equal(fit.nparams, 5);
  assert_int_equal(fit.quotes, NT * NK);
  for (int j = 0; j < 5; j++)
    if (!(fabs(fit.params[j] - truth[j]) < 1e-3))
      fail_msg("%s: %.8f, expected %.8f", mcp_fit_param_name(MCP_FIT_HESTON, j),
               fit.params[j], truth[j]);
  assert_true(fit.rmse < 0.01 && fit.max_error < 0.01);
  for (int i = 0; i < NT * NK; i++)
    assert_true(fabs(mv[i] - vols[i]) < 1e-4);
  mcp_market_destroy(m);
}

/* The same surface with half a volatility point of noise on each quote:
 * the fit is at least as close to the quotes as the true parameters (the
 * noise level), and its parameters near them. */
static void test_heston_noisy(void **state)
{
  (void)state;
  static const double truth[5] = {0.03, 1.8, 0.06, 0.7, -0.65};
  double k[NK], vols[NT * NK], clean[NT * NK];
  surface(heston, truth, k, clean);
  uint64_t x = 88172645463325252ull;
  double noise = 0;
  for (int i = 0; i < NT * NK; i++) { /* Box-Muller on xorshift64 */
    double u[2];
    for (int h = 0; h < 2; h++) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      u[h] = ((double)(x >> 11) + 0.5) / 9007199254740992.0;
    }
    double e = 0.005 * sqrt(-2 * log(u[0])) * cos(2 * CF_PI * u[1]);
    vols[i] = clean[i] + e;
    noise += 1e4 * e * e;
  }
  noise = sqrt(noise / (NT * NK)); /* volatility points */
  mcp_market *m = market();
  mcp_fit fit = fitted(m, MCP_FIT_HESTON, k, vols, NULL);
  print_message("  noise %.3f, fit %.3f volatility points, %u iterations\n", noise, fit.rmse,
                fit.iterations);
  assert_true(fit.rmse <= noise * 1.001 && fit.rmse > 0.8 * noise);
  assert_true(fabs(fit.params[4] - truth[4]) < 0.05 && fabs(fit.params[3] - truth[3]) < 0.05);
  mcp_market_destroy(m);
}

/* Merton alike; and points without a quote are skipped. */
static void test_merton_exact(void **state)
{
  (void)state;
  static const double truth[4] = {0.18, 0.4, -0.15, 0.2};
  double k[NK], vols[NT * NK], mv[NT * NK];
  surface(merton, truth, k, vols);
  vols[3] = vols[57] = NAN;
  mcp_market *m = market();
  mcp_fit fit = fitted(m, MCP_FIT_MERTON, k, vols, mv);
  assert_int_equal(fit.nparams, 4);
  assert_int_equal(fit.quotes, NT * NK - 2);
  assert_true(isnan(mv[3]) && isnan(mv[57]) && !isnan(mv[4]));
  for (int j = 0; j < 4; j++)
    if (!(fabs(fit.params[j] - truth[j]) < 1e-3))
      fail_msg("%s: %.8f, expected %.8f", mcp_fit_param_name(MCP_FIT_MERTON, j),
               fit.params[j], truth[j]);
  assert_true(fit.rmse < 0.01);
  mcp_market_destroy(m);
}

/* Quotes the fit refuses, naming the field. */
static void test_bad_fits(void **state)
{
  (void)state;
  mcp_market *m = market();
  static const double cash_t[] = {0.5}, cash[] = {1};
  assert_int_equal(mcp_market_add_black_scholes(m, "CASH", S, R, 0, 0.2), MCP_OK);
  assert_int_equal(mcp_market_set_cash_dividends(m, "CASH", 1, cash_t, cash), MCP_OK);
  double t[2] = {0.5, 1}, k[2] = {90, 110}, v[4] = {0.2, 0.2, 0.2, 0.2};
  mcp_fit fit;
  char err[512];
  struct {
    mcp_quotes q;
    mcp_status st;
    const char *says;
  } bad[] = {
      {{"NONE", 2, 2, t, k, v}, MCP_ERR_INPUT, "'NONE' is not in the market"},
      {{"CASH", 2, 2, t, k, v}, MCP_ERR_INPUT, "cash dividends"},
      {{"A", 2, 2, t, k, v}, MCP_ERR_INPUT, "4 quoted volatilities fit no 5 parameters"},
      {{"A", 2, 2, (double[]){1, 0.5}, k, v}, MCP_ERR_INPUT, "maturities[1]"},
      {{"A", 2, 2, t, (double[]){90, -1}, v}, MCP_ERR_INPUT, "strikes[1]"},
      {{"A", 2, 2, t, k, (double[]){0.2, 0.2, 11, 0.2}}, MCP_ERR_INPUT, "volatilities[1][0]"},
      {{"A", 0, 2, t, k, v}, MCP_ERR_ARGUMENT, "expected maturities"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    assert_int_equal(mcp_calibrate(m, &bad[i].q, MCP_FIT_HESTON, &fit, NULL, err, sizeof err),
                     bad[i].st);
    if (!strstr(err, bad[i].says))
      fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].says);
  }
  assert_int_equal(mcp_calibrate(m, NULL, MCP_FIT_HESTON, &fit, NULL, err, sizeof err),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_calibrate(m, &bad[2].q, (mcp_fit_model)9, &fit, NULL, NULL, 0),
                   MCP_ERR_ARGUMENT);
  mcp_market_destroy(m);
}

static const char dated_market[] =
    "{\"valuation_date\": \"2026-11-30\", \"rate\": 0.02,\n"
    " \"underlyings\": [{\"name\": \"A\", \"spot\": 50, \"dividend\": 0.01,\n"
    "   \"curves\": {\"volatility\": {\"end\": [1], \"value\": [0.25]}}},\n"
    "  {\"name\": \"B\", \"spot\": 10, \"volatility\": 0.3}]}";

static mcp_market *load_market(void)
{
  mcp_market *m = NULL;
  char err[512];
  if (mcp_market_load_text(&m, "market.json", dated_market, strlen(dated_market), err,
                           sizeof err) != MCP_OK)
    fail_msg("%s", err);
  return m;
}

/* A quotes file: dates for maturities, moneyness for strikes, nulls. */
static void test_quotes_file(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  static const char text[] =
      "{\"underlying\": \"A\", \"maturities\": [\"2027-11-30\", 2],\n"
      " \"moneyness\": [0.9, 1.1], \"volatilities\": [[0.25, null], [0.22, 0.2]]}";
  mcp_quotes q;
  char err[512];
  if (mcp_quotes_load_text("q.json", text, strlen(text), m, &q, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  assert_string_equal(q.underlying, "A");
  assert_int_equal(q.nmaturities, 2);
  assert_int_equal(q.nstrikes, 2);
  assert_true(q.maturities[0] == 1 && q.maturities[1] == 2); /* ACT/365F, a year of 365 days */
  assert_true(q.strikes[0] == 0.9 * 50 && q.strikes[1] == 1.1 * 50);
  assert_true(q.vols[0] == 0.25 && isnan(q.vols[1]) && q.vols[3] == 0.2);
  mcp_quotes_free(&q);
  assert_null(q.vols);
  mcp_quotes_free(&q); /* twice, and NULL: nothing */
  mcp_quotes_free(NULL);
  mcp_market_destroy(m);
}

static void test_bad_quotes_files(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  static const struct {
    const char *text, *says;
  } bad[] = {
      {"{\"underlying\": \"Z\", \"maturities\": [1], \"strikes\": [1], \"volatilities\": "
       "[[0.2]]}", "q.json:1:16: underlying: expected an underlying of the market"},
      {"{\"underlying\": \"A\", \"maturities\": [1], \"strikes\": [1], \"moneyness\": [1], "
       "\"volatilities\": [[0.2]]}", "expected strikes or moneyness, one of them"},
      {"{\"underlying\": \"A\", \"maturities\": [1, 0.5], \"strikes\": [1], \"volatilities\": "
       "[[0.2], [0.2]]}", "maturities[1]: expected a maturity after the one before"},
      {"{\"underlying\": \"A\", \"maturities\": [1], \"strikes\": [2, 1], \"volatilities\": "
       "[[0.2, 0.2]]}", "strikes[1]: expected a strike above the one before"},
      {"{\"underlying\": \"A\", \"maturities\": [1], \"strikes\": [1, 2], \"volatilities\": "
       "[[0.2]]}", "volatilities[0]: expected an array of 2 volatilities"},
      {"{\"underlying\": \"A\", \"maturities\": [1], \"strikes\": [1], \"volatilities\": "
       "[[0.2], [0.3]]}", "volatilities: expected 1 rows"},
      {"{\"underlying\": \"A\", \"maturities\": [1], \"strikes\": [1], \"volatilities\": "
       "[[-0.2]]}", "volatilities[0][0]: expected a volatility in (0, 10], or null"},
      {"{\"underlying\": \"A\", \"maturities\": [0], \"strikes\": [1], \"volatilities\": "
       "[[0.2]]}", "maturities[0]: expected a time in years > 0"},
      {"{\"underlying\": \"A\", \"maturities\": [1], \"strike\": [1], \"volatilities\": "
       "[[0.2]]}", "strike: unknown field"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    mcp_quotes q;
    char err[512];
    assert_int_equal(mcp_quotes_load_text("q.json", bad[i].text, strlen(bad[i].text), m, &q,
                                          err, sizeof err),
                     MCP_ERR_INPUT);
    if (!strstr(err, bad[i].says) || !strstr(err, "q.json:"))
      fail_msg("case %zu: '%s' lacks '%s'", i, err, bad[i].says);
    assert_null(q.vols);
  }
  mcp_market *undated = market();
  static const char dated[] = "{\"underlying\": \"A\", \"maturities\": [\"2027-01-01\"], "
                              "\"strikes\": [100], \"volatilities\": [[0.2]]}";
  mcp_quotes q;
  char err[512];
  assert_int_equal(mcp_quotes_load_text("q.json", dated, strlen(dated), undated, &q, err,
                                        sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "valuation"));
  assert_int_equal(mcp_quotes_load_text("q.json", dated, strlen(dated), NULL, &q, err,
                                        sizeof err),
                   MCP_ERR_ARGUMENT);
  mcp_market_destroy(undated);
  mcp_market_destroy(m);
}

/* Quotes from CSV, one a row in any order (dates, moneyness, a point not
 * quoted): the same surface as its JSON; and its errors, naming the row
 * and column. */
static void test_quotes_csv(void **state)
{
  (void)state;
  mcp_market *m = load_market();
  static const char csv[] = "underlying,moneyness,maturity,volatility\r\n"
                            "A,1.1,2,0.2\r\n"
                            "A,0.9,2027-11-30,0.25\r\n"
                            "\r\n"
                            "A,0.9,2,0.22\r\n";
  static const char json[] =
      "{\"underlying\": \"A\", \"maturities\": [\"2027-11-30\", 2],\n"
      " \"moneyness\": [0.9, 1.1], \"volatilities\": [[0.25, null], [0.22, 0.2]]}";
  mcp_quotes a, b;
  char err[512];
  if (mcp_quotes_load_text("q.csv", csv, strlen(csv), m, &a, err, sizeof err) != MCP_OK ||
      mcp_quotes_load_text("q.json", json, strlen(json), m, &b, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  assert_string_equal(a.underlying, b.underlying);
  assert_int_equal(a.nmaturities, 2);
  assert_int_equal(a.nstrikes, 2);
  assert_memory_equal(a.maturities, b.maturities, 2 * sizeof(double));
  assert_memory_equal(a.strikes, b.strikes, 2 * sizeof(double));
  assert_true(a.vols[0] == 0.25 && isnan(a.vols[1]) && a.vols[2] == 0.22 && a.vols[3] == 0.2);
  mcp_quotes_free(&a);
  mcp_quotes_free(&b);
  static const struct {
    const char *text, *says;
  } bad[] = {
      {"underlying,maturity,strike,volatility\nA,1,50,x\n",
       "q.csv: row 2, column volatility: expected a volatility in (0, 10], got 'x'"},
      {"underlying,maturity,strike,volatility\nA,1,50,0.2\nB,1,60,0.2\n",
       "q.csv: row 3, column underlying: expected the underlying of the rows before, 'A'"},
      {"underlying,maturity,strike,volatility\nA,1,50,0.2\nA,1,50,0.3\n",
       "q.csv: row 3: maturity 1, strike 50 quoted again (row 2)"},
      {"underlying,maturity,strike,moneyness,volatility\nA,1,50,1,0.2\n",
       "q.csv: row 1: expected the columns underlying, maturity, volatility and strike or "
       "moneyness"},
      {"underlying,maturity,strike,vol\n", "q.csv: row 1, column 4: expected one of"},
      {"underlying,maturity,strike,volatility\nA,2027-13-01,50,0.2\n",
       "q.csv: row 2, column maturity: expected a time in years or a date"},
      {"underlying,maturity,strike,volatility\nA,0,50,0.2\n",
       "q.csv: row 2, column maturity: expected a time in years > 0"},
      {"underlying,maturity,strike,volatility\nA,1,-50,0.2\n",
       "q.csv: row 2, column strike: expected a number > 0"},
      {"underlying,maturity,strike,volatility\n", "q.csv: expected a quote a row"},
      {"underlying,maturity,strike,volatility\nZ,1,50,0.2\n",
       "q.csv: underlying: expected an underlying of the market, got 'Z'"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    mcp_quotes q;
    mcp_status st = mcp_quotes_load_text("q.csv", bad[i].text, strlen(bad[i].text), m, &q, err,
                                         sizeof err);
    if (st != MCP_ERR_INPUT || !strstr(err, bad[i].says))
      fail_msg("case %zu: status %d, '%s' lacks '%s'", i, st, err, bad[i].says);
    assert_null(q.vols);
  }
  mcp_market_destroy(m);
}

/* The fitted market: the underlying the model, its volatility and volatility
 * curve gone, its spot, the other underlying and the dates kept; it loads. */
static void test_fitted_market(void **state)
{
  (void)state;
  mcp_fit fit = {.model = MCP_FIT_HESTON, .nparams = 5, .params = {0.04, 1.5, 0.05, 0.6, -0.7}};
  char *out = NULL, err[512];
  size_t n = 0;
  if (mcp_market_text_fitted("market.json", dated_market, strlen(dated_market), "A", &fit,
                             &out, &n, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  assert_int_equal(strlen(out), n);
  assert_non_null(strstr(out, "\"model\": \"heston\""));
  assert_non_null(strstr(out, "\"rho\": -0.69999999999999996"));
  assert_non_null(strstr(out, "\"valuation_date\": \"2026-11-30\""));
  /* B's line as it was; A's volatility curve gone */
  assert_non_null(strstr(out, "  {\"name\": \"B\", \"spot\": 10, \"volatility\": 0.3}]}"));
  assert_null(strstr(out, "\"end\""));
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_load_text(&m, "fitted.json", out, n, err, sizeof err), MCP_OK);
  mcp_market_destroy(m);
  mcp_free(out);
  /* a model's fields the other lacks: Merton's on B, then Heston's on it */
  fit = (mcp_fit){.model = MCP_FIT_MERTON, .nparams = 4, .params = {0.2, 0.5, -0.1, 0.15}};
  assert_int_equal(mcp_market_text_fitted("market.json", dated_market, strlen(dated_market),
                                          "B", &fit, &out, &n, err, sizeof err),
                   MCP_OK);
  assert_non_null(strstr(out, "\"jump_vol\": 0.14999999999999999"));
  mcp_free(out);
  assert_int_equal(mcp_market_text_fitted("market.json", dated_market, strlen(dated_market),
                                          "C", &fit, &out, &n, err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "no underlying 'C'"));
  assert_null(out);
  assert_int_equal(mcp_market_text_fitted("market.json", "{", 1, "A", &fit, &out, &n, err,
                                          sizeof err),
                   MCP_ERR_INPUT);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_heston_exact),   cmocka_unit_test(test_heston_noisy),
      cmocka_unit_test(test_merton_exact),   cmocka_unit_test(test_bad_fits),
      cmocka_unit_test(test_quotes_file),    cmocka_unit_test(test_bad_quotes_files),
      cmocka_unit_test(test_fitted_market),  cmocka_unit_test(test_quotes_csv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
