/* test_autocall.c: autocallables on the CPU backend:
 *   1. limits with exact prices: never called, no coupon, no knock-in (the
 *      discounted notional); coupons always paid, never called (a strip);
 *      always called at the first date;
 *   2. one observation date, whose value has a closed form under
 *      Black-Scholes: the notional, a digital coupon and a knock-in put
 *      (at the date below the strike, at the date below a lower level, on
 *      the bridge: a down-and-in put; worst of two assets: Stulz's put on
 *      the minimum), initial fixings at and away from the spot;
 *   3. the redemption probabilities: the first two dates' closed forms,
 *      a sum of 1 on every run; two dates' coupons with and without memory,
 *      and a knock-in at the first date, by bivariate normal closed forms;
 *   4. relations on shared paths: memory pays at least what no memory pays,
 *      a bridge knock-in at least what dates see;
 *   5. a spot bump moves the market, not the note's levels (delta);
 *   6. bad terms through the API; a file's terms (null: not callable) as
 *      the API's.
 * Statistical checks use fixed seeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/cf_barrier.h"
#include "tests/cf_multi.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "mcprice.h"

#define NSE 4.0 /* width of the statistical bands, in standard errors */

static const bs_params ACME = {100, 0.03, 0.01, 0.25};
static const bs_params BOLT = {50, 0.03, 0.02, 0.3};
static const double CORR = 0.4;

static mcp_market *market(void)
{
  mcp_market *m = new_market();
  add_underlying(m, "ACME", ACME);
  add_underlying(m, "BOLT", BOLT);
  const char *names[2] = {"ACME", "BOLT"};
  const double c[4] = {1, CORR, CORR, 1};
  assert_int_equal(mcp_market_set_correlation(m, 2, names, c), MCP_OK);
  return m;
}

/* An autocallable on ACME (initial fixing its spot) observed at the n dates
 * fix, the last the maturity; never called, no coupon, no knock-in. */
static mcp_trade note(const char *id, size_t n, const double *fix, const double *initial)
{
  mcp_trade t = trade_on(id, "ACME", MCP_PRODUCT_AUTOCALLABLE, MCP_CALL, 1.0, fix[n - 1]);
  t.nfixings = n;
  t.fixings = fix;
  t.initial_fixings = initial;
  t.notional = 100;
  return t;
}

static double df(double t) { return exp(-ACME.rate * t); }

/* The redemption probabilities of trade id, which must sum to 1. */
static size_t redemptions(const mcp_results *r, const char *id, mcp_estimate *out)
{
  size_t i, n;
  double sum = 0, t;
  assert_int_equal(mcp_results_find(r, id, &i), MCP_OK);
  n = mcp_results_redemptions(r, i);
  for (size_t k = 0; k < n; k++) {
    assert_int_equal(mcp_results_redemption(r, i, k, &t, &out[k]), MCP_OK);
    sum += out[k].price;
  }
  assert_int_equal(mcp_results_redemption(r, i, n, &t, &out[0]), MCP_ERR_NOT_FOUND);
  if (fabs(sum - 1) > 1e-12)
    fail_msg("%s: redemption probabilities sum to %.17g", id, sum);
  return n;
}

static void exact_limits(void **state)
{
  static const double fix[4] = {0.5, 1, 1.5, 2}, s0 = 100;
  mcp_market *m = market();
  mcp_portfolio *p = new_portfolio(20000, 3);
  mcp_trade never = note("never", 4, fix, &s0), strip = note("strip", 4, fix, &s0);
  mcp_trade first = note("first", 4, fix, &s0);
  strip.coupon = 0.02;
  strip.coupon_barrier = 0; /* every date pays */
  first.coupon = 0.05;
  first.autocall_level = 1e-12; /* called at the first date on every path */
  first.knock_in = 0.9;
  add_trade(p, &never);
  add_trade(p, &strip);
  add_trade(p, &first);
  mcp_results *r = price(*state, m, p);
  double want_strip = 100 * df(2);
  for (int k = 0; k < 4; k++)
    want_strip += 100 * 0.02 * df(fix[k]);
  struct { const char *id; double want; size_t date; } c[3] = {
      {"never", 100 * df(2), 3}, {"strip", want_strip, 3}, {"first", 100 * 1.05 * df(0.5), 0}};
  for (int i = 0; i < 3; i++) {
    mcp_estimate e = estimate(r, c[i].id), red[4];
    print_message("  %-6s %.15f (exact %.15f) +- %g\n", c[i].id, e.price, c[i].want,
                  e.std_error);
    assert_true(fabs(e.price - c[i].want) <= 1e-12 * c[i].want);
    assert_true(e.std_error <= 1e-6 * c[i].want); /* the rounding of the sums of squares */
    assert_int_equal(redemptions(r, c[i].id, red), 4);
    for (size_t k = 0; k < 4; k++)
      assert_true(red[k].price == (k == c[i].date) && red[k].std_error == 0);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* One date T: notional, coupon c when P >= b, less the knocked-in put
 * (K - P)+; P = x0 e^{...} in units of the initial fixing, x0 = S0 / I. */
static double d_minus(double x0, double level, double t, bs_params u)
{
  return (log(x0 / level) + (u.rate - u.dividend - 0.5 * u.vol * u.vol) * t) / (u.vol * sqrt(t));
}

/* P(P(t) >= level). */
static double digital(double x0, double level, double t, bs_params u)
{
  return cf_norm_cdf(d_minus(x0, level, t, u));
}

static void one_date_closed_forms(void **state)
{
  static const double T = 1.5, fix[1] = {1.5};
  const double c = 0.08, b = 0.8, K = 1.0, B = 0.7;
  const double initial[2] = {100, 90}; /* at the spot, and below it */
  mcp_market *m = market();
  for (int f = 0; f < 2; f++) {
    double x0 = ACME.spot / initial[f];
    mcp_portfolio *p = new_portfolio(400000, 11 + f);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
    mcp_trade at = note("at-strike", 1, fix, &initial[f]), low = at, bridge = at;
    at.coupon = low.coupon = bridge.coupon = c;
    at.coupon_barrier = low.coupon_barrier = bridge.coupon_barrier = b;
    at.knock_in = K;           /* every put below the strike: the plain put */
    low.id = "below-level";
    low.knock_in = B;          /* (K - P) on P < B only */
    bridge.id = "bridge";
    bridge.knock_in = B;       /* knocked in at any time: a down-and-in put */
    bridge.monitoring = MCP_MONITOR_BRIDGE;
    add_trade(p, &at);
    add_trade(p, &low);
    add_trade(p, &bridge);
    mcp_results *r = price(*state, m, p);
    double base = 100 * df(T) * (1 + c * digital(x0, b, T, ACME));
    double s = ACME.vol * sqrt(T), fq = exp(-ACME.dividend * T);
    double d1 = (log(x0 / B) + (ACME.rate - ACME.dividend + 0.5 * ACME.vol * ACME.vol) * T) / s;
    double below = K * df(T) * cf_norm_cdf(-(d1 - s)) - x0 * fq * cf_norm_cdf(-d1);
    double want[3] = {
        base - 100 * cf_black_scholes(MCP_PUT, x0, K, T, ACME.rate, ACME.dividend, ACME.vol),
        base - 100 * below,
        base - 100 * cf_barrier_norebate(MCP_PUT, 0, 1, x0, K, B, T, ACME.rate, ACME.dividend,
                                         ACME.vol)};
    const char *ids[3] = {"at-strike", "below-level", "bridge"};
    for (int i = 0; i < 3; i++)
      assert_within(ids[i], estimate(r, ids[i]), want[i], NSE);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* Worst of ACME and BOLT, one date, knocked in below the strike: the
 * coupon when both end above b (a bivariate normal), less Stulz's put on
 * the minimum of the two performances (assets of spot 1). */
static void worst_of_one_date(void **state)
{
  static const double T = 1, fix[1] = {1};
  const double c = 0.1, b = 0.9, K = 0.95, initial[2] = {100, 50};
  const char *assets[2] = {"ACME", "BOLT"};
  mcp_market *m = market();
  mcp_portfolio *p = new_portfolio(400000, 5);
  mcp_trade t = note("worst", 1, fix, initial);
  t.underlying = NULL;
  t.nassets = 2;
  t.assets = assets;
  t.coupon = c;
  t.coupon_barrier = b;
  t.knock_in = t.strike = K;
  add_trade(p, &t);
  mcp_results *r = price(*state, m, p);
  double d[2];
  const bs_params *u[2] = {&ACME, &BOLT};
  for (int a = 0; a < 2; a++)
    d[a] = (log(1 / b) + (u[a]->rate - u[a]->dividend - 0.5 * u[a]->vol * u[a]->vol) * T) /
           (u[a]->vol * sqrt(T));
  double want = 100 * df(T) * (1 + c * cf_bivariate_normal_cdf(d[0], d[1], CORR)) -
                100 * cf_stulz(MCP_PUT, 0, 1, 1, K, T, ACME.rate, ACME.dividend, BOLT.dividend,
                               ACME.vol, BOLT.vol, CORR);
  assert_within("worst-of", estimate(r, "worst"), want, NSE);
  mcp_estimate red[1];
  assert_int_equal(redemptions(r, "worst", red), 1);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Called at date 1 when P(t1) >= A: N(d(t1)); at date 2 when below at t1
 * and above at t2: N(-d(t1)) - M(-d(t1), -d(t2), sqrt(t1 / t2)). */
static void redemption_probabilities(void **state)
{
  static const double fix[3] = {0.5, 1, 1.5}, s0 = 100;
  const double A = 1.05;
  mcp_market *m = market();
  mcp_portfolio *p = new_portfolio(400000, 21);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  mcp_trade t = note("ac", 3, fix, &s0);
  t.autocall_level = A;
  t.coupon = 0.03;
  t.coupon_barrier = 0.75;
  t.memory = 1;
  t.knock_in = 0.6;
  add_trade(p, &t);
  mcp_results *r = price(*state, m, p);
  mcp_estimate red[3];
  assert_int_equal(redemptions(r, "ac", red), 3);
  double d1 = d_minus(1, A, fix[0], ACME), d2 = d_minus(1, A, fix[1], ACME);
  double p1 = cf_norm_cdf(d1);
  double p2 = cf_norm_cdf(-d1) - cf_bivariate_normal_cdf(-d1, -d2, sqrt(fix[0] / fix[1]));
  assert_within("first date", red[0], p1, NSE);
  assert_within("second date", red[1], p2, NSE);
  assert_within("to maturity", red[2], 1 - p1 - p2, NSE);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* On shared paths (a job holds two such notes; the first job of a
 * portfolio draws the same stream in each): coupons with memory pay at least
 * those without, a lower coupon barrier at least as much, and a knock-in
 * watched on the bridge takes at least what the dates see, with the same
 * redemption dates. */
static void relations_on_shared_paths(void **state)
{
  static const double fix[6] = {0.25, 0.5, 0.75, 1, 1.25, 1.5}, s0 = 100;
  mcp_market *m = market();
  mcp_trade mem = note("memory", 6, fix, &s0);
  mem.autocall_level = 1.0;
  mem.coupon = 0.02;
  mem.coupon_barrier = 0.8;
  mem.memory = 1;
  mem.knock_in = 0.7;
  mcp_trade other[3] = {mem, mem, mem};
  other[0].id = "no-memory";
  other[0].memory = 0;
  other[1].id = "lower-coupon-barrier";
  other[1].coupon_barrier = 0.7;
  other[2].id = "bridge";
  other[2].monitoring = MCP_MONITOR_BRIDGE;
  for (int k = 0; k < 3; k++) {
    mcp_portfolio *p = new_portfolio(50000, 8);
    add_trade(p, &mem);
    add_trade(p, &other[k]);
    mcp_results *r = price(*state, m, p);
    double vm = estimate(r, "memory").price, vo = estimate(r, other[k].id).price;
    print_message("  memory %.6f  %s %.6f\n", vm, other[k].id, vo);
    assert_true(k == 1 ? vo > vm : vo < vm);
    mcp_estimate a[6], b[6];
    redemptions(r, "memory", a);
    redemptions(r, other[k].id, b);
    if (k == 2) /* the knock-in never calls */
      assert_memory_equal(a, b, sizeof a);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* The note's levels stay at its initial fixing under a spot bump: its
 * delta is far from 0, while a note struck at the bumped spot, in the bumped
 * market, prices as the base note (the same performances on the same
 * normals): a level that moved with the spot would make every delta 0. */
static void delta_keeps_the_levels(void **state)
{
  static const double fix[4] = {0.5, 1, 1.5, 2}, s0 = 100, s1 = 101;
  mcp_portfolio *p = new_portfolio(20000, 4), *q = new_portfolio(20000, 4);
  mcp_trade t = note("ac", 4, fix, &s0);
  t.autocall_level = 1.0;
  t.coupon = 0.04;
  t.coupon_barrier = 0.8;
  t.knock_in = 0.7;
  add_trade(p, &t);
  t.initial_fixings = &s1;
  add_trade(q, &t);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_add(g, MCP_GREEK_DELTA), MCP_OK);
  mcp_market *m = market();
  mcp_results *r = NULL;
  assert_int_equal(mcp_price_greeks(*state, m, p, g, &r), MCP_OK);
  mcp_sensitivity d;
  assert_int_equal(mcp_results_greek(r, "ac", "delta", &d), MCP_OK);
  print_message("  delta %.6f +- %.2e\n", d.value.price, d.value.std_error);
  assert_true(d.value.price > 10 * d.value.std_error);
  bs_params u = ACME;
  u.spot = s1;
  mcp_market *mk = new_market();
  add_underlying(mk, "ACME", u);
  add_underlying(mk, "BOLT", BOLT);
  mcp_results *base = price(*state, m, p), *struck = price(*state, mk, q);
  double a = estimate(base, "ac").price, b = estimate(struck, "ac").price;
  print_message("  struck at the spot: %.15f and %.15f\n", a, b);
  assert_true(fabs(a - b) <= 1e-12 * a);
  mcp_results_destroy(base);
  mcp_results_destroy(struck);
  mcp_market_destroy(mk);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_market_destroy(m);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(q);
}

/* Two dates t1 < t2, never called; X_k = W(t_k) / sqrt(t_k), standard
 * normals of correlation sqrt(t1 / t2), P(t_k) >= L when X_k >= -d(L, t_k).
 * Coupons c at the barrier b: without memory c (df1 P[X1 >= -d1] + df2
 * P[X2 >= -d2]); with memory the second date also pays the first's when
 * missed, df2 c P[X1 < -d1, X2 >= -d2].  A knock-in below B at either date,
 * of a put struck at K >= B: E[(K - P2)+] less the put's part on paths that
 * stay at or above B at both dates, E[(K - P2) 1{X1 >= -e1, -e2 <= X2 <
 * -k2}], P2 = e^{mu t2 + s W2}: its P2 part by the measure e^{s W2 - s^2
 * t2 / 2}, under which X_k moves up by s sqrt(t_k). */
static double bvn_upper(double a, double b, double rho) /* P[X >= a, Y >= b] */
{
  return cf_bivariate_normal_cdf(-a, -b, rho);
}

static void two_dates_closed_forms(void **state)
{
  static const double fix[2] = {0.75, 1.5}, s0 = 100;
  const double c = 0.05, b = 0.9, B = 0.8, K = 1.0, N = 100;
  const double t1 = fix[0], t2 = fix[1], rho = sqrt(t1 / t2), s = ACME.vol;
  mcp_market *m = market();
  mcp_portfolio *p = new_portfolio(400000, 13);
  mcp_trade plain = note("coupons", 2, fix, &s0), mem = plain, ki = plain;
  plain.coupon = mem.coupon = c;
  plain.coupon_barrier = mem.coupon_barrier = b;
  mem.id = "memory";
  mem.memory = 1;
  ki.id = "knock-in";
  ki.knock_in = B;
  ki.strike = K;
  add_trade(p, &plain);
  add_trade(p, &mem);
  add_trade(p, &ki);
  mcp_results *r = price(*state, m, p);
  double d1 = d_minus(1, b, t1, ACME), d2 = d_minus(1, b, t2, ACME);
  double strip = N * df(t2) + N * c * (df(t1) * cf_norm_cdf(d1) + df(t2) * cf_norm_cdf(d2));
  double missed = cf_norm_cdf(-d1) - cf_bivariate_normal_cdf(-d1, -d2, rho);
  double e1 = d_minus(1, B, t1, ACME), e2 = d_minus(1, B, t2, ACME), k2 = d_minus(1, K, t2, ACME);
  /* P[X1 >= -e1, -e2 <= X2 < -k2] under a shift h of the means */
  double box[2];
  for (int w = 0; w < 2; w++) {
    double h1 = w ? s * sqrt(t1) : 0, h2 = w ? s * sqrt(t2) : 0;
    box[w] = bvn_upper(-e1 - h1, -e2 - h2, rho) - bvn_upper(-e1 - h1, -k2 - h2, rho);
  }
  double fwd = exp((ACME.rate - ACME.dividend) * t2); /* E[P2] */
  double stay = df(t2) * (K * box[0] - fwd * box[1]);
  double put = cf_black_scholes(MCP_PUT, 1, K, t2, ACME.rate, ACME.dividend, ACME.vol);
  assert_within("no memory", estimate(r, "coupons"), strip, NSE);
  assert_within("memory", estimate(r, "memory"), strip + N * c * df(t2) * missed, NSE);
  assert_within("knock-in", estimate(r, "knock-in"), N * df(t2) - N * (put - stay), NSE);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A file's autocallable, a date not callable (null), prices as the API's
 * (HUGE_VAL) to the bit. */
static void file_terms_as_the_api(void **state)
{
  static const double fix[3] = {0.5, 1, 1.5}, s0 = 100, levels[3] = {HUGE_VAL, 1.0, 0.95};
  char err[512];
  mcp_portfolio *f = NULL;
  assert_int_equal(mcp_portfolio_load(&f, SRCDIR "/tests/data/good_autocall.json", err,
                                      sizeof err), MCP_OK);
  mcp_portfolio *p = new_portfolio(4000, 9);
  mcp_trade t = note("AC", 3, fix, &s0);
  t.autocall_levels = levels;
  t.coupon = 0.03;
  t.coupon_barrier = 0.8;
  t.memory = 1;
  t.knock_in = 0.7;
  t.strike = 0.9;
  add_trade(p, &t);
  mcp_market *m = market();
  mcp_results *a = price(*state, m, f), *b = price(*state, m, p);
  mcp_estimate x = estimate(a, "AC"), y = estimate(b, "AC"), ra[3], rb[3];
  assert_memory_equal(&x, &y, sizeof x);
  redemptions(a, "AC", ra);
  redemptions(b, "AC", rb);
  assert_memory_equal(ra, rb, sizeof ra);
  assert_true(ra[0].price == 0); /* not callable at the first date */
  mcp_results_destroy(a);
  mcp_results_destroy(b);
  mcp_market_destroy(m);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(f);
}

static void expect_refused(const mcp_trade *t, const char *needle)
{
  mcp_portfolio *p = new_portfolio(1000, 1);
  mcp_status st = mcp_portfolio_add_trade(p, t);
  const char *msg = mcp_portfolio_last_error(p);
  print_message("  %s\n", msg);
  assert_int_not_equal(st, MCP_OK);
  if (!strstr(msg, needle))
    fail_msg("expected '%s' in: %s", needle, msg);
  mcp_portfolio_destroy(p);
}

static void bad_terms(void **state)
{
  (void)state;
  static const double fix[3] = {0.5, 1, 1.5}, s0 = 100, close[2] = {0.5, 0.5 + 1e-12};
  const double bad_levels[3] = {1, 0, 1}, initial2[2] = {100, -1};
  const char *assets[2] = {"ACME", "BOLT"};
  mcp_trade t = note("ac", 3, fix, &s0), x;
  x = t;
  x.initial_fixings = NULL;
  expect_refused(&x, "initial_fixings: expected 1 spot");
  x = t;
  x.maturity = 2;
  expect_refused(&x, "the last observation date at the maturity");
  x = t;
  x.nfixings = 2;
  x.fixings = close;
  x.maturity = close[1];
  expect_refused(&x, "fixings[1]: expected a time more than");
  x = t;
  x.autocall_levels = bad_levels;
  expect_refused(&x, "autocall_levels[1]: expected a level > 0");
  x = t;
  x.autocall_level = NAN;
  expect_refused(&x, "autocall_level: expected a level > 0");
  x = t;
  x.coupon = -0.01;
  expect_refused(&x, "coupon: expected a finite fraction");
  x = t;
  x.coupon_barrier = -1;
  expect_refused(&x, "coupon_barrier: expected a level >= 0");
  x = t;
  x.knock_in = INFINITY;
  expect_refused(&x, "knock_in: expected a finite level >= 0");
  x = t;
  x.knock_in = 0.7;
  x.strike = 0;
  expect_refused(&x, "strike: expected the knocked-in put's strike > 0");
  /* the knock-in's monitoring and strike without a knock-in: refused, not dropped */
  x = t;
  x.monitoring = MCP_MONITOR_BRIDGE;
  expect_refused(&x, "knock_in: expected a level > 0 with monitoring bridge");
  x = t;
  x.strike = 0.9;
  expect_refused(&x, "knock_in: expected a level > 0 with strike 0.9");
  x = t;
  x.monitoring = MCP_MONITOR_BGK;
  expect_refused(&x, "monitoring: expected discrete");
  x = t;
  x.underlying = NULL;
  x.nassets = 2;
  x.assets = assets;
  x.initial_fixings = initial2;
  expect_refused(&x, "initial_fixings[1]: expected a finite spot > 0");
  x.initial_fixings = (const double[2]){100, 50};
  x.monitoring = MCP_MONITOR_BRIDGE;
  expect_refused(&x, "bridge watches one underlying");
  x = trade_on("eu", "ACME", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  x.initial_fixings = &s0;
  expect_refused(&x, "initial_fixings: only an autocallable");
  x.initial_fixings = NULL;
  x.coupon = 0.01;
  expect_refused(&x, "coupon: only an autocallable");
  mcp_product pr;
  assert_int_equal(mcp_product_from_name("autocallable", &pr), MCP_OK);
  assert_int_equal(pr, MCP_PRODUCT_AUTOCALLABLE);
  assert_string_equal(mcp_product_name(MCP_PRODUCT_AUTOCALLABLE), "autocallable");
  /* no Monte Carlo engine but Monte Carlo */
  x = t;
  x.engine = MCP_ENGINE_PDE;
  expect_refused(&x, "expected mc");
}

/* A trade that is not an autocallable has no redemption dates. */
static void no_redemptions_elsewhere(void **state)
{
  static const double fix[2] = {0.5, 1}, s0 = 100;
  mcp_market *m = market();
  mcp_portfolio *p = new_portfolio(2000, 1);
  add_european(p, "eu", "ACME", MCP_CALL, 100, 1, 1);
  mcp_trade t = note("ac", 2, fix, &s0);
  add_trade(p, &t);
  mcp_results *r = price(*state, m, p);
  double time;
  mcp_estimate e;
  assert_int_equal(mcp_results_redemptions(r, 0), 0);
  assert_int_equal(mcp_results_redemptions(r, 1), 2);
  assert_int_equal(mcp_results_redemptions(r, 2), 0);
  assert_int_equal(mcp_results_redemption(r, 0, 0, &time, &e), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_redemption(r, 1, 1, &time, &e), MCP_OK);
  assert_true(time == 1.0);
  assert_int_equal(mcp_results_redemption(r, 1, 0, NULL, &e), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_results_redemptions(NULL, 0), 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(exact_limits),
      cmocka_unit_test(one_date_closed_forms),
      cmocka_unit_test(worst_of_one_date),
      cmocka_unit_test(redemption_probabilities),
      cmocka_unit_test(relations_on_shared_paths),
      cmocka_unit_test(delta_keeps_the_levels),
      cmocka_unit_test(two_dates_closed_forms),
      cmocka_unit_test(file_terms_as_the_api),
      cmocka_unit_test(bad_terms),
      cmocka_unit_test(no_redemptions_elsewhere),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
