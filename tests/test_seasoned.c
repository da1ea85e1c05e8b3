/* test_seasoned.c: trades part of whose life has passed (mcp_trade's npast,
 * past_fixings, knocked): a seasoned geometric Asian against its closed form
 * with the known part, a seasoned arithmetic one against the same Asian
 * unseasoned at its equivalent strike and against its forward where it can
 * no longer end out of the money, payoffs already fixed priced exactly,
 * barriers knocked in, knocked out or watched no more, lookbacks on dates
 * with one fixing to come and on the bridge against their closed forms, a
 * Bermudan past some of its dates, and the histories refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "tests/cf_lookback.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"

#define S0 100.0
#define R 0.03
#define Q 0.01
#define VOL 0.25

static mcp_market *bs_market(void)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){S0, R, Q, VOL});
  return m;
}

/* Fixings a quarter apart, two of them past (95 and 105), four to come. */
static const double fix[6] = {-0.5, -0.25, 0.25, 0.5, 0.75, 1.0}, past[2] = {95, 105};

static mcp_trade asian(const char *id, mcp_average avg, mcp_option_type type, double strike,
                       size_t npast)
{
  mcp_trade t = trade_on(id, "A", MCP_PRODUCT_ASIAN, type, strike, 1.0);
  t.average = avg;
  t.nfixings = 6 - (2 - npast);
  t.fixings = fix + (2 - npast);
  t.npast = npast;
  t.past_fixings = npast ? past + (2 - npast) : NULL;
  return t;
}

/* The geometric Asian with the known part: G = C exp(X), C the past
 * fixings' product to the power 1 / n, X = (1/n) sum of the log-spots to
 * come, normal. */
static double geometric_exact(mcp_option_type type, double spot, double strike)
{
  double c = exp((log(past[0]) + log(past[1])) / 6), mu = 0, var = 0;
  for (int i = 2; i < 6; i++) {
    mu += log(spot) + (R - Q - 0.5 * VOL * VOL) * fix[i];
    for (int k = 2; k < 6; k++)
      var += VOL * VOL * fmin(fix[i], fix[k]);
  }
  mu /= 6;
  double s = sqrt(var) / 6;
  return c * cf_black(type, exp(mu + 0.5 * s * s), strike / c, s, exp(-R));
}

static void test_geometric_closed_form(void **state)
{
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(400000, 3);
  mcp_trade c = asian("call", MCP_GEOMETRIC, MCP_CALL, 100, 2);
  mcp_trade u = asian("put", MCP_GEOMETRIC, MCP_PUT, 103, 2);
  add_trade(p, &c);
  add_trade(p, &u);
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta"), MCP_OK);
  mcp_results *r = price_greeks(*state, m, p, g);
  assert_within("seasoned call", estimate(r, "call"), geometric_exact(MCP_CALL, S0, 100), 4);
  assert_within("seasoned put", estimate(r, "put"), geometric_exact(MCP_PUT, S0, 103), 4);
  /* its delta: the closed form's, whose known part does not move */
  double h = 1e-4 * S0;
  double want = (geometric_exact(MCP_CALL, S0 + h, 100) - geometric_exact(MCP_CALL, S0 - h, 100)) /
                (2 * h);
  assert_within("seasoned delta", greek(r, "call", "delta").value, want, 4);
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The arithmetic Asian with sum P of its k past fixings of n is (m / n) of
 * the Asian of the m to come at strike (n K - P) / m: the same paths give
 * the same price; where that strike is below 0 the call is its forward. */
static void test_arithmetic(void **state)
{
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(100000, 9), *q = new_portfolio(100000, 9);
  mcp_trade s = asian("seasoned", MCP_ARITHMETIC, MCP_CALL, 102, 2);
  mcp_trade e = asian("equivalent", MCP_ARITHMETIC, MCP_CALL, (6 * 102.0 - 200) / 4, 0);
  e.nfixings = 4;
  e.fixings = fix + 2;
  add_trade(p, &s);
  add_trade(q, &e);
  mcp_results *a = price(*state, m, p), *b = price(*state, m, q);
  mcp_estimate x = estimate(a, "seasoned"), y = estimate(b, "equivalent");
  print_message("  seasoned %.10f, 4/6 of the equivalent %.10f\n", x.price, y.price * 4 / 6);
  assert_true(fabs(x.price - y.price * 4 / 6) <= 1e-12 * x.price);
  assert_true(fabs(x.std_error - y.std_error * 4 / 6) <= 1e-10 * x.std_error);
  mcp_results_destroy(a);
  mcp_results_destroy(b);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(q);
  /* strike 30: the average cannot end below it; the call is its forward,
   * exactly, the put 0 */
  p = new_portfolio(100000, 9);
  s = asian("deep", MCP_ARITHMETIC, MCP_CALL, 30, 2);
  s.methods = MCP_CONTROL_VARIATE;
  add_trade(p, &s);
  s = asian("dead", MCP_ARITHMETIC, MCP_PUT, 30, 2);
  add_trade(p, &s);
  a = price(*state, m, p);
  double fwd = past[0] + past[1];
  for (int i = 2; i < 6; i++)
    fwd += S0 * exp((R - Q) * fix[i]);
  x = estimate(a, "deep");
  print_message("  deep call %.12f, its forward %.12f\n", x.price, exp(-R) * (fwd / 6 - 30));
  assert_true(fabs(x.price - exp(-R) * (fwd / 6 - 30)) <= 1e-12 * x.price);
  assert_true(x.std_error == 0 && estimate(a, "dead").price == 0);
  assert_int_equal(mcp_results_engine(a, 0), MCP_ENGINE_ANALYTIC);
  mcp_results_destroy(a);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Every fixing past: the payoff is known, priced exactly. */
static void test_known(void **state)
{
  static const double f2[2] = {-0.5, -0.25};
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(1000, 1);
  mcp_trade a = trade_on("arith", "A", MCP_PRODUCT_ASIAN, MCP_CALL, 96, 0.5);
  a.nfixings = a.npast = 2;
  a.fixings = f2;
  a.past_fixings = past;
  mcp_trade g = a;
  g.id = "geo";
  g.average = MCP_GEOMETRIC;
  g.type = MCP_PUT;
  g.strike = 101;
  a.engine = MCP_ENGINE_MC; /* exactly, whatever its method */
  add_trade(p, &a);
  add_trade(p, &g);
  mcp_greeks *req = NULL;
  assert_int_equal(mcp_greeks_create(&req), MCP_OK);
  assert_int_equal(mcp_greeks_parse(req, "delta,rho"), MCP_OK);
  mcp_results *r = price_greeks(*state, m, p, req);
  double df = exp(-R * 0.5), geo = sqrt(past[0] * past[1]);
  mcp_estimate x = estimate(r, "arith"), y = estimate(r, "geo");
  assert_true(fabs(x.price - df * (100 - 96)) <= 1e-14 * x.price && x.std_error == 0);
  assert_true(fabs(y.price - df * (101 - geo)) <= 1e-12 * y.price && y.std_error == 0);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_ANALYTIC);
  assert_true(greek(r, "arith", "delta").value.price == 0);
  double rho = greek(r, "arith", "rho").value.price;
  assert_true(fabs(rho + 0.5 * x.price) <= 1e-6 * x.price);
  mcp_results_destroy(r);
  mcp_greeks_destroy(req);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A barrier's history: knocked out (its rebate), knocked in by a past
 * fixing (its European), past fixings that did not touch it (the barrier
 * of the dates to come, to the bit), watched no more (never in: the rebate;
 * never out: the European). */
static mcp_trade barrier(const char *id, mcp_barrier_kind kind, double level, size_t n,
                         const double *times, size_t npast, const double *values)
{
  mcp_trade t = trade_on(id, "A", MCP_PRODUCT_BARRIER, MCP_PUT, 100, 1.0);
  t.barrier_kind = kind;
  t.barrier = level;
  t.rebate = 3;
  t.nfixings = n;
  t.fixings = times;
  t.npast = npast;
  t.past_fixings = values;
  if (!n)
    t.monitoring = MCP_MONITOR_BRIDGE;
  return t;
}

static void test_barriers(void **state)
{
  static const double times[4] = {-0.2, 0.25, 0.5, 1}, low[1] = {88}, high[1] = {97};
  static const double over[2] = {-0.3, -0.1}, both[2] = {95, 96};
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(200000, 4), *q = new_portfolio(200000, 4);
  mcp_trade ko = barrier("ko", MCP_UP_AND_OUT, 120, 0, NULL, 0, NULL);
  ko.knocked = 1;
  mcp_trade ki = barrier("ki", MCP_DOWN_AND_IN, 90, 4, times, 1, low);
  mcp_trade in_over = barrier("in-over", MCP_DOWN_AND_IN, 90, 2, over, 2, both);
  mcp_trade out_over = barrier("out-over", MCP_DOWN_AND_OUT, 90, 2, over, 2, both);
  mcp_trade live = barrier("live", MCP_DOWN_AND_OUT, 90, 4, times, 1, high);
  mcp_trade fresh = barrier("live", MCP_DOWN_AND_OUT, 90, 3, times + 1, 0, NULL);
  add_trade(p, &ko);
  add_trade(p, &ki);
  add_trade(p, &in_over);
  add_trade(p, &out_over);
  add_trade(p, &live);
  add_trade(q, &fresh);
  mcp_results *r = price(*state, m, p), *f = price(*state, m, q);
  double put = cf_black_scholes(MCP_PUT, S0, 100, 1, R, Q, VOL);
  assert_true(fabs(estimate(r, "ko").price - 3 * exp(-R)) <= 1e-14);
  assert_true(fabs(estimate(r, "in-over").price - 3 * exp(-R)) <= 1e-14);
  assert_within("knocked in", estimate(r, "ki"), put, 4);
  assert_within("never out", estimate(r, "out-over"), put, 4);
  mcp_estimate a = estimate(r, "live"), b = estimate(f, "live");
  assert_memory_equal(&a, &b, sizeof a);
  mcp_results_destroy(r);
  mcp_results_destroy(f);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(q);
  mcp_market_destroy(m);
}

/* A lookback on dates with one fixing to come, at 1, and past fixings of
 * extremes M and m: its payoff on max(M, S) or min(m, S) is a European's
 * plus a known part.  Past fixings above the spot (102, 104) and below it
 * (93, 97) check that the spot today is not one of its fixings. */
static mcp_trade lookback(const char *id, mcp_option_type type, mcp_strike_kind kind,
                          double strike, const double *values)
{
  static const double times[3] = {-0.5, -0.25, 1.0};
  mcp_trade t = trade_on(id, "A", MCP_PRODUCT_LOOKBACK, type, strike, 1.0);
  t.strike_kind = kind;
  t.nfixings = 3;
  t.fixings = times;
  t.npast = 2;
  t.past_fixings = values;
  return t;
}

static void test_lookbacks_on_dates(void **state)
{
  static const double sets[3][2] = {{95, 105}, {102, 104}, {93, 97}};
  static const char *const ids[3][5] = {{"c100-a", "c110-a", "p100-a", "fc-a", "fp-a"},
                                        {"c100-b", "c110-b", "p100-b", "fc-b", "fp-b"},
                                        {"c100-c", "c110-c", "p100-c", "fc-c", "fp-c"}};
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(200000, 5);
  for (int k = 0; k < 3; k++) {
    mcp_trade t[5] = {lookback(ids[k][0], MCP_CALL, MCP_FIXED_STRIKE, 100, sets[k]),
                      lookback(ids[k][1], MCP_CALL, MCP_FIXED_STRIKE, 110, sets[k]),
                      lookback(ids[k][2], MCP_PUT, MCP_FIXED_STRIKE, 100, sets[k]),
                      lookback(ids[k][3], MCP_CALL, MCP_FLOATING_STRIKE, 0, sets[k]),
                      lookback(ids[k][4], MCP_PUT, MCP_FLOATING_STRIKE, 0, sets[k])};
    for (int i = 0; i < 5; i++)
      add_trade(p, &t[i]);
  }
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,vega"), MCP_OK);
  mcp_results *r = price_greeks(*state, m, p, g);
  double df = exp(-R);
#define BS(type, k) cf_black_scholes(type, S0, k, 1, R, Q, VOL)
  for (int k = 0; k < 3; k++) {
    double mx = fmax(sets[k][0], sets[k][1]), mn = fmin(sets[k][0], sets[k][1]);
    double want[5] = {df * fmax(mx - 100, 0) + BS(MCP_CALL, fmax(mx, 100)),
                      df * fmax(mx - 110, 0) + BS(MCP_CALL, fmax(mx, 110)),
                      df * fmax(100 - mn, 0) + BS(MCP_PUT, fmin(mn, 100)), BS(MCP_CALL, mn),
                      BS(MCP_PUT, mx)};
    for (int i = 0; i < 5; i++)
      assert_within(ids[k][i], estimate(r, ids[k][i]), want[i], 4);
  }
  /* the Greeks of (max(105, S) - 100)+ = 5 + (S - 105)+: the call's at 105;
   * the known part does not move */
  double h = 1e-4 * S0, v = 1e-5;
  double delta = (cf_black_scholes(MCP_CALL, S0 + h, 105, 1, R, Q, VOL) -
                  cf_black_scholes(MCP_CALL, S0 - h, 105, 1, R, Q, VOL)) / (2 * h);
  double vega = (cf_black_scholes(MCP_CALL, S0, 105, 1, R, Q, VOL + v) -
                 cf_black_scholes(MCP_CALL, S0, 105, 1, R, Q, VOL - v)) / (2 * v);
  assert_within("seasoned lookback delta", greek(r, "c100-a", "delta").value, delta, 4);
  assert_within("seasoned lookback vega", greek(r, "c100-a", "vega").value, vega, 4);
#undef BS
  mcp_results_destroy(r);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Lookbacks on the bridge that give their extremum so far, against the
 * continuous closed forms with a running extremum; every fixing past, a
 * fixed one's payoff is known and a floating one is its forward. */
static void test_lookbacks_seasoned(void **state)
{
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(200000, 6);
  struct {
    const char *id;
    mcp_option_type type;
    mcp_strike_kind kind;
    double strike, extremum, want;
  } c[4] = {
      {"fc", MCP_CALL, MCP_FLOATING_STRIKE, 0, 90,
       cf_lookback_floating_running(MCP_CALL, S0, 90, 1, R, Q, VOL)},
      {"fp", MCP_PUT, MCP_FLOATING_STRIKE, 0, 112,
       cf_lookback_floating_running(MCP_PUT, S0, 112, 1, R, Q, VOL)},
      {"c", MCP_CALL, MCP_FIXED_STRIKE, 100, 108,
       cf_lookback_fixed_running(MCP_CALL, S0, 108, 100, 1, R, Q, VOL)},
      {"p", MCP_PUT, MCP_FIXED_STRIKE, 100, 94,
       cf_lookback_fixed_running(MCP_PUT, S0, 94, 100, 1, R, Q, VOL)}};
  for (int i = 0; i < 4; i++) {
    mcp_trade t = trade_on(c[i].id, "A", MCP_PRODUCT_LOOKBACK, c[i].type, c[i].strike, 1.0);
    t.strike_kind = c[i].kind;
    t.monitoring = MCP_MONITOR_BRIDGE;
    t.extremum = c[i].extremum;
    add_trade(p, &t);
  }
  mcp_results *r = price(*state, m, p);
  for (int i = 0; i < 4; i++)
    assert_within(c[i].id, estimate(r, c[i].id), c[i].want, 4);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  /* every fixing past: (max - K)+ known, S(1) - min a forward */
  static const double times[2] = {-0.5, -0.25};
  p = new_portfolio(1000, 1);
  mcp_trade t = lookback("known", MCP_CALL, MCP_FIXED_STRIKE, 100, past);
  t.nfixings = 2;
  t.fixings = times;
  add_trade(p, &t);
  t = lookback("fwd-call", MCP_CALL, MCP_FLOATING_STRIKE, 0, past);
  t.nfixings = 2;
  t.fixings = times;
  add_trade(p, &t);
  t.id = "fwd-put";
  t.type = MCP_PUT;
  add_trade(p, &t);
  r = price(*state, m, p);
  double df = exp(-R), fwd = S0 * exp(R - Q);
  mcp_estimate k = estimate(r, "known"), fc = estimate(r, "fwd-call"), fp = estimate(r, "fwd-put");
  assert_true(fabs(k.price - df * 5) <= 1e-14 && k.std_error == 0);
  assert_true(fabs(fc.price - df * (fwd - 95)) <= 1e-12 * fc.price && fc.std_error == 0);
  assert_true(fabs(fp.price - df * (105 - fwd)) <= 1e-12 && fp.std_error == 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* An autocallable past two of its three observation dates (at -0.5 and
 * -0.25, neither calling it; the last at 1), its initial fixing 110: the
 * coupons due and the knock-in its history leaves decide its last date,
 * whose price is digitals and a put (the class comment in mcprice.h). */
static mcp_trade note(const char *id, const double *values, int memory)
{
  static const double times[3] = {-0.5, -0.25, 1.0}, initial[1] = {110};
  mcp_trade t = trade_on(id, "A", MCP_PRODUCT_AUTOCALLABLE, MCP_CALL, 1.0, 1.0);
  t.nfixings = 3;
  t.fixings = times;
  t.npast = 2;
  t.past_fixings = values;
  t.initial_fixings = initial;
  t.autocall_level = 1.0;
  t.coupon = 0.05;
  t.coupon_barrier = 0.8;
  t.memory = memory;
  t.knock_in = 0.7;
  t.notional = 100;
  return t;
}

/* Its value with due coupons due at the last date, knocked in already or
 * (in 0) knocked in there below 0.7: the put (1 - P)+ then pays on P < 0.7
 * alone, (0.7 - P)+ + 0.3 there. */
static double note_exact(double due, int in)
{
  double df = exp(-R), s = VOL, fwd = S0 * exp(R - Q), k[3] = {110, 0.8 * 110, 0.7 * 110};
  double dig[3];
  for (int i = 0; i < 3; i++) /* P(S(1) >= k) */
    dig[i] = cf_norm_cdf((log(fwd / k[i]) - 0.5 * s * s) / s);
  double put = in ? cf_black_scholes(MCP_PUT, S0, 110, 1, R, Q, VOL) / 110
                  : cf_black_scholes(MCP_PUT, S0, 77, 1, R, Q, VOL) / 110 +
                        0.3 * df * (1 - dig[2]);
  return 100 * (df * (dig[0] * (1 + 0.05 * due) + (dig[1] - dig[0]) * 0.05 * due +
                      (1 - dig[0])) -
                put);
}

static void test_autocallables(void **state)
{
  /* performances 0.77 and 0.68: two coupons missed, the second knocks it in;
   * 0.86 and 0.77: a coupon paid, then one missed, not knocked */
  static const double knocked[2] = {85, 75}, paid[2] = {95, 85};
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(200000, 11);
  mcp_trade t[5] = {note("memory-knocked", knocked, 1), note("knocked", knocked, 0),
                    note("memory-paid", paid, 1), note("bridge", paid, 1),
                    note("bridge-knocked", paid, 1)};
  t[3].monitoring = t[4].monitoring = MCP_MONITOR_BRIDGE;
  t[4].knocked = 1;
  for (int i = 0; i < 5; i++)
    add_trade(p, &t[i]);
  mcp_results *r = price(*state, m, p);
  assert_within("memory, knocked in", estimate(r, "memory-knocked"), note_exact(3, 1), 4);
  assert_within("no memory, knocked in", estimate(r, "knocked"), note_exact(1, 1), 4);
  assert_within("memory, a coupon paid", estimate(r, "memory-paid"), note_exact(2, 0), 4);
  assert_within("knocked in on the bridge", estimate(r, "bridge-knocked"), note_exact(2, 1), 4);
  /* not knocked yet on the bridge: the continuous knock-in costs more than
   * none, less than knocked in */
  double b = estimate(r, "bridge").price;
  assert_true(b < note_exact(2, 0) && b > note_exact(2, 1));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void refused(mcp_trade t, const char *needle);

/* Histories refused: a note already called, a knock-in no past fixing
 * shows, a worst-of's rows of its assets' spots a date too short. */
static void test_autocallable_refusals(void **state)
{
  (void)state;
  static const double called[2] = {85, 112}, high[2] = {95, 85};
  mcp_trade t = note("x", called, 1);
  refused(t, "past_fixings: the note was called at fixings[1]");
  t = note("x", high, 1);
  t.knocked = 1;
  refused(t, "knocked: a knock-in watched on the observation dates is knocked by a past "
             "fixing below it");
  static const char *const two[2] = {"A", "B"};
  static const double initial[2] = {110, 50}, rows[3] = {95, 45, 90};
  t = note("x", high, 1);
  t.underlying = NULL;
  t.nassets = 2;
  t.assets = two;
  t.initial_fixings = initial;
  t.npast = 3;
  t.past_fixings = rows;
  refused(t, "past_fixings: expected 4, one for each fixing at or before the valuation date "
             "and asset, got 3");
}

/* E[clamp(X - 1, lo, hi)], X lognormal of forward f and deviation s. */
static double clamped_return(double f, double s, double lo, double hi)
{
  return lo + cf_black(MCP_CALL, f, 1 + lo, s, 1) - cf_black(MCP_CALL, f, 1 + hi, s, 1);
}

/* Arrays that start from their history.  A cliquet past two of its four
 * periods (returns 5% and -6.7%, clamped to
 * [-5%, 8%]) from its initial fixing 100: the sum of its returns is the
 * known part and two clamped returns to come, the first from the last past
 * fixing, 98, not from today's spot; a Himalaya on three assets past two of
 * its fixings, which took out C (1.05) and B (1.06), is a third of a call on
 * A at 89. */
static void test_arrays(void **state)
{
  static const double times[4] = {-0.5, -0.25, 0.5, 1.0}, cliquet_past[2] = {105, 98};
  static const double initial[1] = {100};
  mcp_market *m = bs_market();
  add_underlying(m, "B", (bs_params){50, R, 0, 0.3});
  add_underlying(m, "C", (bs_params){80, R, 0, 0.2});
  mcp_portfolio *p = new_portfolio(200000, 12);
  mcp_trade c = trade_on("cliquet", "A", MCP_PRODUCT_CLIQUET, MCP_CALL, 0, 1.0);
  c.nfixings = 4;
  c.fixings = times;
  c.npast = 2;
  c.past_fixings = cliquet_past;
  c.initial_fixings = initial;
  c.local_floor = -0.05;
  c.local_cap = 0.08;
  c.notional = 100;
  add_trade(p, &c);
  static const char *const abc[3] = {"A", "B", "C"};
  static const double him_times[3] = {-0.5, -0.25, 1.0}, starts[3] = {100, 50, 80};
  static const double rows[6] = {104, 51, 84, 99, 53, 81};
  mcp_trade h = trade_on("himalaya", NULL, MCP_PRODUCT_HIMALAYA, MCP_CALL, 1.0, 1.0);
  h.nassets = 3;
  h.assets = abc;
  h.nfixings = 3;
  h.fixings = him_times;
  h.npast = 6;
  h.past_fixings = rows;
  h.initial_fixings = starts;
  h.notional = 100;
  add_trade(p, &h);
  /* struck before today at 98, no fixing past yet: the seasoned one's
   * periods to come, whose past returns sum to 0 */
  static const double at98[1] = {98};
  mcp_trade started = c;
  started.id = "started";
  started.nfixings = 2;
  started.fixings = times + 2;
  started.npast = 0;
  started.past_fixings = NULL;
  started.initial_fixings = at98;
  add_trade(p, &started);
  /* a moving window of 2 past 96 and 104, its last fixing at 1: half a
   * call at 2 K - 104; one whose past window reached its barrier, its rebate */
  static const double window_times[3] = {-0.5, -0.25, 1.0}, window_past[2] = {96, 104};
  mcp_trade w = trade_on("window", "A", MCP_PRODUCT_MOVING_WINDOW, MCP_CALL, 100, 1.0);
  w.nfixings = 3;
  w.fixings = window_times;
  w.npast = 2;
  w.past_fixings = window_past;
  w.window = 2;
  add_trade(p, &w);
  w.id = "window-out";
  w.barrier = 99.5;
  w.barrier_kind = MCP_UP_AND_OUT;
  w.rebate = 2;
  add_trade(p, &w);
  mcp_results *r = price(*state, m, p);
  double s = VOL * sqrt(0.5), g = exp((R - Q) * 0.5);
  assert_within("seasoned moving window", estimate(r, "window"),
                cf_black_scholes(MCP_CALL, S0, 96, 1, R, Q, VOL) / 2, 4);
  mcp_estimate out = estimate(r, "window-out");
  assert_true(fabs(out.price - 2 * exp(-R)) <= 1e-14 && out.std_error == 0);
  double cliquet = exp(-R) * 100 *
                   (0.05 - 0.05 + clamped_return(100.0 / 98 * g, s, -0.05, 0.08) +
                    clamped_return(g, s, -0.05, 0.08));
  assert_within("seasoned cliquet", estimate(r, "cliquet"), cliquet, 4);
  assert_within("cliquet struck before today", estimate(r, "started"), cliquet, 4);
  assert_within("seasoned himalaya", estimate(r, "himalaya"),
                cf_black_scholes(MCP_CALL, S0, 89, 1, R, Q, VOL) / 3, 4);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  /* the start they need, and no more */
  c.initial_fixings = NULL;
  refused(c, "initial_fixings: expected the spot it started from, as 2 of its fixings have "
             "passed");
  h.npast = 4;
  refused(h, "past_fixings: expected 6, one for each fixing at or before the valuation date "
             "and asset, got 4");
}

/* A Bermudan's exercise dates passed go: it prices as the Bermudan of those
 * to come, to the bit; spots for them are refused. */
static void test_bermudan(void **state)
{
  static const double dates[5] = {-0.3, 0.25, 0.5, 0.75, 1};
  mcp_market *m = bs_market();
  mcp_portfolio *p = new_portfolio(20000, 2), *q = new_portfolio(20000, 2);
  mcp_trade s = trade_on("b", "A", MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1);
  s.nfixings = 5;
  s.fixings = dates;
  mcp_trade f = s;
  f.nfixings = 4;
  f.fixings = dates + 1;
  add_trade(p, &s);
  add_trade(q, &f);
  mcp_results *a = price(*state, m, p), *b = price(*state, m, q);
  mcp_estimate x = estimate(a, "b"), y = estimate(b, "b");
  assert_true(x.price > 0);
  assert_memory_equal(&x, &y, sizeof x);
  mcp_results_destroy(a);
  mcp_results_destroy(b);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(q);
  mcp_market_destroy(m);
  s.npast = 1;
  s.past_fixings = past;
  p = new_portfolio(1000, 1);
  assert_int_equal(mcp_portfolio_add_trade(p, &s), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "unexercised, need no spots"));
  mcp_portfolio_destroy(p);
}

static void refused(mcp_trade t, const char *needle)
{
  mcp_portfolio *p = new_portfolio(1000, 1);
  assert_int_not_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  if (!strstr(mcp_portfolio_last_error(p), needle))
    fail_msg("expected '%s' in: %s", needle, mcp_portfolio_last_error(p));
  assert_int_equal(mcp_portfolio_size(p), 0);
  mcp_portfolio_destroy(p);
}

static void test_refusals(void **state)
{
  (void)state;
  mcp_trade t = asian("x", MCP_ARITHMETIC, MCP_CALL, 100, 2);
  t.npast = 1;
  refused(t, "past_fixings: expected 2, one for each fixing at or before the valuation date, "
             "got 1");
  t = asian("x", MCP_ARITHMETIC, MCP_CALL, 100, 2);
  t.past_fixings = NULL;
  refused(t, "past_fixings: NULL");
  static const double bad[2] = {95, -1};
  t.past_fixings = bad;
  refused(t, "past_fixings[1]: expected a spot > 0, got -1");
  t = asian("x", MCP_ARITHMETIC, MCP_CALL, 100, 0);
  t.npast = 1;
  t.past_fixings = past;
  refused(t, "past_fixings: expected none, as no fixing is at or before the valuation date");
  t = asian("x", MCP_ARITHMETIC, MCP_CALL, 0, 2);
  t.strike_kind = MCP_FLOATING_STRIKE;
  refused(t, "fixings[0]: -0.5 is at or before the valuation date; expected times > 0");
  t = asian("x", MCP_ARITHMETIC, MCP_CALL, 100, 2);
  t.product = MCP_PRODUCT_DIGITAL;
  t.nfixings = 0;
  t.fixings = NULL;
  t.npast = 0;
  t.past_fixings = NULL;
  t.extremum = 90;
  refused(t, "extremum");
  t = lookback("x", MCP_CALL, MCP_FIXED_STRIKE, 100, past);
  t.extremum = 110;
  refused(t, "extremum: expected 0 on dates (past_fixings give a seasoned one's extremes)");
  t.extremum = 0;
  t.product = MCP_PRODUCT_AVERAGE_DIGITAL;
  refused(t, "only Asians with a fixed strike, barriers and lookbacks watched on dates, "
             "autocallables, cliquets, Himalayas, moving windows and Bermudans take past");
  t = asian("x", MCP_ARITHMETIC, MCP_CALL, 100, 0);
  t.knocked = 1;
  refused(t, "knocked: only a barrier or an autocallable's knock-in has one");
  /* a barrier on its dates said knocked that none of its past spots shows */
  static const double times[2] = {-0.1, 0.5}, inside[1] = {101};
  t = trade_on("x", "A", MCP_PRODUCT_BARRIER, MCP_PUT, 100, 1);
  t.barrier_kind = MCP_DOWN_AND_OUT;
  t.barrier = 90;
  t.nfixings = 2;
  t.fixings = times;
  t.npast = 1;
  t.past_fixings = inside;
  t.knocked = 1;
  refused(t, "knocked: a barrier watched on its dates alone is knocked by a past fixing");
  t.monitoring = MCP_MONITOR_BRIDGE;
  t.nfixings = t.npast = 0;
  t.fixings = NULL;
  refused(t, "(a barrier on the bridge says knocked instead)");
  static const double order[6] = {-0.25, -0.5, 0.25, 0.5, 0.75, 1.0};
  t = asian("x", MCP_ARITHMETIC, MCP_CALL, 100, 2);
  t.fixings = order;
  refused(t, "fixings[1]: expected strictly increasing times in [-100, 0]");
}

/* The book text refused, its message holding needle. */
static void book_refused(const mcp_market *m, const char *text, const char *needle)
{
  mcp_portfolio *p = NULL;
  char err[512];
  assert_int_equal(mcp_portfolio_load_text_for(&p, m, "b.json", text, strlen(text), err,
                                               sizeof err),
                   MCP_ERR_INPUT);
  if (!strstr(err, needle))
    fail_msg("expected '%s' in: %s", needle, err);
}

/* A dated book: past dates are fixings with their spots. */
static void test_json(void **state)
{
  static const char market[] =
      "{\"valuation_date\": \"2026-11-27\", \"rate\": 0.03, \"underlyings\": [{\"name\": \"A\", "
      "\"spot\": 100, \"dividend\": 0.01, \"volatility\": 0.25}]}";
  static const char book[] =
      "{\"run\": {\"paths\": 1000},\n\"trades\": [{\"id\": \"a\", \"product\": \"asian\", "
      "\"average\": \"arithmetic\", \"type\": \"call\", \"underlying\": \"A\", \"strike\": 100,\n"
      "\"fixings\": [\"2026-10-30\", \"2026-11-27\", \"2026-12-31\"], \"past_fixings\": [99, "
      "101]},\n{\"id\": \"b\", \"product\": \"barrier\", \"type\": \"call\", \"underlying\": "
      "\"A\", \"strike\": 100, \"barrier\": 130, \"barrier_kind\": \"up-and-out\", \"maturity\": "
      "1, \"monitoring\": \"bridge\", \"knocked\": true}]}";
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  char err[512];
  assert_int_equal(mcp_market_load_text(&m, "m.json", market, strlen(market), err, sizeof err),
                   MCP_OK);
  if (mcp_portfolio_load_text_for(&p, m, "b.json", book, strlen(book), err, sizeof err) !=
      MCP_OK)
    fail_msg("%s", err);
  mcp_results *r = price(*state, m, p);
  assert_true(estimate(r, "a").price > 0 && estimate(r, "b").price == 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  /* the spots past fixings need: as many as the dates past */
  static const char short_book[] =
      "{\"trades\": [{\"id\": \"a\", \"product\": \"asian\", \"average\": \"arithmetic\", "
      "\"type\": \"call\", \"underlying\": \"A\", \"strike\": 100,\n\"fixings\": "
      "[\"2026-10-30\", \"2026-11-27\", \"2026-12-31\"], \"past_fixings\": [99]}]}";
  book_refused(m, short_book, "b.json:2:72: trades[0].past_fixings: expected 2 spots, one for each "
                   "fixing on or before the valuation date, got 1");
  static const char knocked[] =
      "{\"trades\": [{\"id\": \"a\", \"product\": \"european\", \"type\": \"call\", "
      "\"underlying\": \"A\", \"strike\": 100, \"maturity\": 1, \"knocked\": false}]}";
  book_refused(m, knocked, "trades[0].knocked: unknown field");
  /* a lookback past a date needs its spot */
  static const char lookback[] =
      "{\"trades\": [{\"id\": \"a\", \"product\": \"lookback\", \"type\": \"call\", "
      "\"underlying\": \"A\", \"strike\": 100, \"fixings\": [\"2026-10-30\", \"2027-10-29\"]}]}";
  book_refused(m, lookback, "missing field 'past_fixings'");
  /* a worst-of note's rows: one spot an asset */
  static const char rows[] =
      "{\"trades\": [{\"id\": \"n\", \"product\": \"autocallable\", \"assets\": [\"A\", "
      "\"B\"], \"initial_fixings\": [100, 50], \"autocall_level\": 1, \"fixings\": "
      "[\"2026-10-30\", \"2027-10-29\"],\n\"past_fixings\": [[99, 48, 1]]}]}";
  book_refused(m, rows, "b.json:2:18: trades[0].past_fixings[0]: expected an array of 2 spots, one "
                   "for each asset");
  /* every fixing past, no maturity: expired */
  static const char expired[] =
      "{\"trades\": [{\"id\": \"a\", \"product\": \"asian\", \"average\": \"arithmetic\", "
      "\"type\": \"call\", \"underlying\": \"A\", \"strike\": 100, \"fixings\": "
      "[\"2026-09-30\", \"2026-10-30\"], \"past_fixings\": [99, 101]}]}";
  book_refused(m, expired, "every fixing has passed (an expired trade is refused");
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_geometric_closed_form, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_arithmetic, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_known, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_barriers, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_lookbacks_on_dates, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_lookbacks_seasoned, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_autocallables, mc_setup_cpu, mc_teardown),
      cmocka_unit_test(test_autocallable_refusals),
      cmocka_unit_test_setup_teardown(test_arrays, mc_setup_cpu, mc_teardown),
      cmocka_unit_test_setup_teardown(test_bermudan, mc_setup_cpu, mc_teardown),
      cmocka_unit_test(test_refusals),
      cmocka_unit_test_setup_teardown(test_json, mc_setup_cpu, mc_teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
