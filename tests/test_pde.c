/* test_pde.c: the finite-difference engine on the CPU: European prices
 * against Black-Scholes with the observed orders of convergence, American
 * options against a binomial tree written here, barriers against
 * Reiner-Rubinstein, term structures, trades mixed with Monte Carlo ones,
 * and bad inputs. */
/* the 0.1 run setters on the portfolio, which these tests keep exercising
 * for their one deprecated release (mcprice.h) */
#define MCP_ALLOW_DEPRECATED
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "tests/cf_barrier.h"
#include "tests/cf_cash.h"
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "src/plan/pde.h"

static const bs_params ACME = {100.0, 0.05, 0.02, 0.25};

static mcp_trade grid_trade(const char *id, mcp_product product, mcp_option_type type,
                            double strike, double maturity)
{
  mcp_trade t = trade_on(id, "ACME", product, type, strike, maturity);
  t.engine = MCP_ENGINE_PDE;
  return t;
}

static mcp_pde_settings settings(mcp_pde_scheme scheme, int points, unsigned n, unsigned m)
{
  mcp_pde_settings s;
  mcp_pde_settings_init(&s);
  s.scheme = scheme;
  s.stencil_points = points;
  s.space_points = n;
  s.time_steps = m;
  return s;
}

/* The PDE price of one trade in market mk under settings s. */
static double pde_price(mcp_context *ctx, const mcp_market *mk, const mcp_trade *t,
                        const mcp_pde_settings *s)
{
  mcp_portfolio *p = new_portfolio(1000, 1);
  assert_int_equal(mcp_portfolio_set_pde(p, s), MCP_OK);
  add_trade(p, t);
  mcp_results *r = price(ctx, mk, p);
  mcp_estimate e = estimate(r, t->id);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_PDE);
  assert_true(e.std_error == 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  return e.price;
}

static mcp_market *acme_market(void)
{
  mcp_market *m = new_market();
  add_underlying(m, "ACME", ACME);
  return m;
}

/* Errors against Black-Scholes on three grids, each twice as fine in space;
 * returns the observed order log2(e1 / e2) of the two finer pairs' mean. */
static double observed_order(mcp_context *ctx, mcp_pde_scheme scheme, int points,
                             const unsigned n[3], const unsigned m[3], double *err_fine)
{
  mcp_market *mk = acme_market();
  double err[3];
  for (int k = 0; k < 3; k++) {
    mcp_pde_settings s = settings(scheme, points, n[k], m[k]);
    s.rannacher = scheme == MCP_PDE_EXPLICIT ? 0 : 2;
    mcp_trade t = grid_trade("EC", MCP_PRODUCT_EUROPEAN, MCP_CALL, 105, 1.0);
    double exact = cf_black_scholes(MCP_CALL, ACME.spot, 105, 1.0, ACME.rate, ACME.dividend,
                                    ACME.vol);
    err[k] = fabs(pde_price(ctx, mk, &t, &s) - exact);
    printf("  %-15s %d-point N=%5u M=%5u  error %.3e\n", mcp_pde_scheme_name(scheme), points,
           n[k], m[k], err[k]);
  }
  mcp_market_destroy(mk);
  *err_fine = err[2];
  double o1 = log2(err[0] / err[1]), o2 = log2(err[1] / err[2]);
  printf("  observed orders %.2f %.2f\n", o1, o2);
  return 0.5 * (o1 + o2);
}

static void european_order_3point_cn(void **state)
{
  const unsigned n[3] = {101, 201, 401}, m[3] = {100, 200, 400};
  double fine, order = observed_order(*state, MCP_PDE_CRANK_NICOLSON, 3, n, m, &fine);
  assert_true(order > 1.8 && order < 2.3);
  assert_true(fine < 2e-3);
}

static void european_order_5point_cn(void **state)
{
  /* time steps fine enough that the spatial error dominates */
  const unsigned n[3] = {41, 81, 161}, m[3] = {2000, 2000, 2000};
  double fine, order = observed_order(*state, MCP_PDE_CRANK_NICOLSON, 5, n, m, &fine);
  assert_true(order > 3.5);
  assert_true(fine < 1e-4);
}

static void european_order_explicit(void **state)
{
  const unsigned n[3] = {51, 101, 201}, m[3] = {1, 1, 1}; /* raised to stability */
  double fine, order = observed_order(*state, MCP_PDE_EXPLICIT, 3, n, m, &fine);
  assert_true(order > 1.8 && order < 2.3);
  (void)fine;
}

static void european_order_5point_explicit(void **state)
{
  /* the explicit step ~ h^2 makes the time error O(h^2) too */
  const unsigned n[3] = {41, 81, 161}, m[3] = {1, 1, 1};
  double fine, order = observed_order(*state, MCP_PDE_EXPLICIT, 5, n, m, &fine);
  assert_true(order > 1.8);
  (void)fine;
}

/* Cox-Ross-Rubinstein tree with early exercise. */
static double crr_american(mcp_option_type type, double S, double K, double T, double r,
                           double q, double vol, int steps)
{
  double dt = T / steps, u = exp(vol * sqrt(dt)), d = 1 / u;
  double p = (exp((r - q) * dt) - d) / (u - d), df = exp(-r * dt), sign = type == MCP_CALL ? 1 : -1;
  double *v = malloc((size_t)(steps + 1) * sizeof *v);
  assert_non_null(v);
  for (int i = 0; i <= steps; i++)
    v[i] = fmax(sign * (S * pow(u, 2 * i - steps) - K), 0);
  for (int n = steps - 1; n >= 0; n--)
    for (int i = 0; i <= n; i++) {
      double cont = df * (p * v[i + 1] + (1 - p) * v[i]);
      v[i] = fmax(cont, sign * (S * pow(u, 2 * i - n) - K));
    }
  double price = v[0];
  free(v);
  return price;
}

static void american_against_tree(void **state)
{
  mcp_market *mk = acme_market();
  struct { mcp_option_type type; double strike, maturity; } cases[] = {
      {MCP_PUT, 100, 1.0}, {MCP_PUT, 120, 0.5}, {MCP_PUT, 80, 2.0}, {MCP_CALL, 100, 1.0}};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double tree = crr_american(cases[c].type, ACME.spot, cases[c].strike, cases[c].maturity,
                               ACME.rate, ACME.dividend, ACME.vol, 10000);
    double euro = cf_black_scholes(cases[c].type, ACME.spot, cases[c].strike,
                                   cases[c].maturity, ACME.rate, ACME.dividend, ACME.vol);
    for (int scheme = 0; scheme < 2; scheme++) {
      mcp_pde_settings s = settings((mcp_pde_scheme)scheme, 3, 801, 800);
      mcp_trade t = grid_trade("AM", MCP_PRODUCT_AMERICAN, cases[c].type, cases[c].strike,
                               cases[c].maturity);
      t.engine = MCP_ENGINE_DEFAULT; /* American options default to the PDE */
      double v = pde_price(*state, mk, &t, &s);
      printf("  %s K=%g T=%g %-15s pde %.6f tree %.6f european %.6f\n",
             cases[c].type == MCP_CALL ? "call" : "put ", cases[c].strike, cases[c].maturity,
             mcp_pde_scheme_name((mcp_pde_scheme)scheme), v, tree, euro);
      assert_true(fabs(v - tree) < 2e-3);
      if (cases[c].type == MCP_PUT) /* the early-exercise premium is there */
        assert_true(v > euro + 0.1);
      else
        assert_true(v > euro - 1e-4);
    }
  }
  mcp_market_destroy(mk);
}

static void american_call_without_dividends_is_european(void **state)
{
  mcp_market *mk = new_market();
  add_underlying(mk, "ACME", (bs_params){100, 0.05, 0.0, 0.3});
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 401, 400);
  mcp_trade am = grid_trade("AM", MCP_PRODUCT_AMERICAN, MCP_CALL, 95, 1.5);
  mcp_trade eu = grid_trade("EU", MCP_PRODUCT_EUROPEAN, MCP_CALL, 95, 1.5);
  double a = pde_price(*state, mk, &am, &s), e = pde_price(*state, mk, &eu, &s);
  assert_true(fabs(a - e) < 1e-12 * e);
  mcp_market_destroy(mk);
}

/* Cash dividends on the grid: the values jump across each date.  A European
 * with one dividend against the quadrature (its date on the nearest step
 * end: T / 800 away at most here), put and call (by parity, less the
 * dividend's value); an American call with a large dividend late exercises
 * before it, above the European; American puts stay above Europeans. */
static void cash_dividends_on_the_grid(void **state)
{
  mcp_market *mk = new_market();
  add_underlying(mk, "D", (bs_params){100, 0.04, 0.01, 0.3});
  const double t1[1] = {0.4}, d1[1] = {3};
  assert_int_equal(mcp_market_set_cash_dividends(mk, "D", 1, t1, d1), MCP_OK);
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 801, 800);
  for (int type = 0; type < 2; type++) {
    cf_cash c = {type ? MCP_PUT : MCP_CALL, 100, type ? 95 : 105, 0.04, 0.01, 0.3, 0.4, 3, 1};
    mcp_trade t = grid_trade("E", MCP_PRODUCT_EUROPEAN, c.type, c.strike, 1.0);
    t.underlying = "D";
    double v = pde_price(*state, mk, &t, &s), exact = cf_cash_price(&c);
    printf("  european %s with a cash dividend: pde %.6f quadrature %.6f\n",
           type ? "put" : "call", v, exact);
    assert_true(fabs(v - exact) < 2e-3 + 2e-4 * exact);
  }
  add_underlying(mk, "L", (bs_params){100, 0.04, 0.0, 0.25});
  const double tl[1] = {0.9}, dl[1] = {8};
  assert_int_equal(mcp_market_set_cash_dividends(mk, "L", 1, tl, dl), MCP_OK);
  mcp_trade am = grid_trade("AM", MCP_PRODUCT_AMERICAN, MCP_CALL, 90, 1.0);
  mcp_trade eu = grid_trade("EU", MCP_PRODUCT_EUROPEAN, MCP_CALL, 90, 1.0);
  am.underlying = eu.underlying = "L";
  double a = pde_price(*state, mk, &am, &s), e = pde_price(*state, mk, &eu, &s);
  printf("  call before a dividend of 8: american %.6f european %.6f\n", a, e);
  assert_true(a > e + 0.5);
  am.type = eu.type = MCP_PUT;
  am.strike = eu.strike = 110;
  a = pde_price(*state, mk, &am, &s);
  e = pde_price(*state, mk, &eu, &s);
  assert_true(a >= e);
  mcp_market_destroy(mk);
}

/* Dividends the spot may not cover (the spot floored at 0, as the paths
 * floor it): spot 100 and 85, spot 50 and 40, 80 and 500.  The grid's
 * Europeans against the quadrature and against Monte Carlo on the same
 * market (within 4 standard errors), calls never negative (they were
 * -1.20 to -444 by parity, which does not see the floor), Americans never
 * below their Europeans, and a put on a spot the dividend absorbs worth
 * the strike at the dividend's date. */
static void large_cash_dividends(void **state)
{
  static const struct {
    double spot, amount, strike;
  } cases[] = {{100, 85, 100}, {50, 40, 20}, {50, 80, 20}, {50, 500, 50}, {50, 40, 45}};
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 801, 800);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    mcp_market *mk = new_market();
    add_underlying(mk, "D", (bs_params){cases[i].spot, 0.05, 0.0, 0.3});
    const double t1[1] = {0.5}, d1[1] = {cases[i].amount};
    assert_int_equal(mcp_market_set_cash_dividends(mk, "D", 1, t1, d1), MCP_OK);
    mcp_portfolio *mc = new_portfolio(200000, 77 + i);
    for (int type = 0; type < 2; type++) {
      mcp_option_type ty = type ? MCP_PUT : MCP_CALL;
      cf_cash c = {ty, cases[i].spot, cases[i].strike, 0.05, 0, 0.3, 0.5, cases[i].amount, 1};
      mcp_trade eu = grid_trade(type ? "EP" : "EC", MCP_PRODUCT_EUROPEAN, ty, c.strike, 1.0);
      mcp_trade am = grid_trade(type ? "AP" : "AC", MCP_PRODUCT_AMERICAN, ty, c.strike, 1.0);
      eu.underlying = am.underlying = "D";
      double e = pde_price(*state, mk, &eu, &s), a = pde_price(*state, mk, &am, &s);
      double exact = cf_cash_price(&c);
      printf("  spot %g, dividend %g, %s %g: pde %.6f quadrature %.6f american %.6f\n",
             cases[i].spot, cases[i].amount, type ? "put" : "call", c.strike, e, exact, a);
      assert_true(e >= 0);
      assert_true(fabs(e - exact) < 2e-3 + 2e-4 * exact);
      assert_true(a >= e - 1e-9);
      eu.engine = MCP_ENGINE_MC;
      add_trade(mc, &eu);
    }
    mcp_results *r = price(*state, mk, mc);
    for (int type = 0; type < 2; type++) {
      const char *id = type ? "EP" : "EC";
      cf_cash c = {type ? MCP_PUT : MCP_CALL, cases[i].spot, cases[i].strike, 0.05, 0, 0.3, 0.5,
                   cases[i].amount, 1};
      mcp_estimate x = estimate(r, id);
      double exact = cf_cash_price(&c);
      if (!(fabs(x.price - exact) <= 4 * x.std_error + 1e-12 * (1 + exact)))
        fail_msg("%s: Monte Carlo %.6f +- %.6f, quadrature %.6f", id, x.price, x.std_error,
                 exact);
      /* the paths are right, so no martingale warning */
      assert_int_equal(mcp_results_warnings(r, (size_t)type) & MCP_WARNING_MARTINGALE, 0);
    }
    mcp_results_destroy(r);
    mcp_portfolio_destroy(mc);
    mcp_market_destroy(mk);
  }
  /* the put absorbed: worth the strike at the dividend's date */
  mcp_market *mk = new_market();
  add_underlying(mk, "D", (bs_params){50, 0.05, 0.0, 0.3});
  const double t1[1] = {0.5}, d1[1] = {500};
  assert_int_equal(mcp_market_set_cash_dividends(mk, "D", 1, t1, d1), MCP_OK);
  mcp_trade am = grid_trade("AP", MCP_PRODUCT_AMERICAN, MCP_PUT, 50, 1.0);
  am.underlying = "D";
  assert_true(fabs(pde_price(*state, mk, &am, &s) - 50 * exp(-0.05 * 0.5)) < 1e-3);
  mcp_market_destroy(mk);
}

static void barriers_against_reiner_rubinstein(void **state)
{
  mcp_market *mk = acme_market();
  struct { mcp_barrier_kind kind; mcp_option_type type; double strike, barrier, rebate; } cases[] = {
      {MCP_DOWN_AND_OUT, MCP_CALL, 100, 90, 0},  {MCP_DOWN_AND_OUT, MCP_CALL, 95, 99, 3},
      {MCP_DOWN_AND_IN, MCP_CALL, 100, 90, 2},   {MCP_UP_AND_OUT, MCP_PUT, 100, 115, 0},
      {MCP_UP_AND_IN, MCP_PUT, 105, 120, 1},     {MCP_UP_AND_OUT, MCP_CALL, 95, 130, 0},
      {MCP_DOWN_AND_OUT, MCP_PUT, 110, 80, 4},   {MCP_UP_AND_IN, MCP_CALL, 100, 110, 0},
      {MCP_DOWN_AND_IN, MCP_PUT, 100, 95, 0},    {MCP_DOWN_AND_OUT, MCP_CALL, 100, 105, 5}};
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 801, 800);
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    mcp_trade t = grid_trade("B", MCP_PRODUCT_BARRIER, cases[c].type, cases[c].strike, 1.0);
    t.barrier_kind = cases[c].kind;
    t.barrier = cases[c].barrier;
    t.rebate = cases[c].rebate;
    t.monitoring = MCP_MONITOR_BRIDGE;
    int up = cases[c].kind == MCP_UP_AND_OUT || cases[c].kind == MCP_UP_AND_IN;
    int in = cases[c].kind == MCP_UP_AND_IN || cases[c].kind == MCP_DOWN_AND_IN;
    double exact = cf_barrier(cases[c].type, up, in, ACME.spot, cases[c].strike,
                              cases[c].barrier, cases[c].rebate, 1.0, ACME.rate,
                              ACME.dividend, ACME.vol);
    double v = pde_price(*state, mk, &t, &s);
    printf("  barrier case %zu: pde %.6f reiner-rubinstein %.6f\n", c, v, exact);
    assert_true(fabs(v - exact) < 2e-3 + 2e-4 * exact);
  }
  mcp_market_destroy(mk);
}

static void expect_failure(mcp_context *ctx, const mcp_market *mk, mcp_portfolio *p,
                           mcp_status want, const char *what);

/* An American call without dividends is the European only while rates are
 * not negative: at a rate of -5% early exercise pays, and the grid keeps it
 * (at least the intrinsic value, above the European). */
static void american_call_at_a_negative_rate(void **state)
{
  mcp_market *mk = new_market();
  add_underlying(mk, "ACME", (bs_params){100, -0.05, 0.0, 0.2});
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 401, 400);
  mcp_trade am = grid_trade("AM", MCP_PRODUCT_AMERICAN, MCP_CALL, 50, 2);
  mcp_trade eu = grid_trade("EU", MCP_PRODUCT_EUROPEAN, MCP_CALL, 50, 2);
  double a = pde_price(*state, mk, &am, &s), e = pde_price(*state, mk, &eu, &s);
  print_message("  r = -5%%: American call %.6f, European %.6f, intrinsic 50\n", a, e);
  assert_true(a >= 50 - 1e-9 && a > e + 1);
  mcp_market_destroy(mk);
}

/* The engine of a trade on a product's default engine is decided in the
 * run's market, for every scenario point and Greek: a point whose shift
 * takes the volatility to 0 is the grid's error whatever the order of the
 * shifts (it once priced 0 at that point, or failed with theta's message);
 * points the grid fits price there. */
static void scenario_points_keep_the_engine(void **state)
{
  mcp_market *mk = acme_market();
  mcp_portfolio *p = new_portfolio(2000, 1);
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_EUROPEAN, MCP_ENGINE_PDE), MCP_OK);
  add_european(p, "P", "ACME", MCP_PUT, 110, 1.0, 1.0);
  const double orders[2][2] = {{0, -ACME.vol}, {-ACME.vol, 0}};
  for (int o = 0; o < 2; o++) {
    mcp_scenarios *sc = NULL;
    assert_int_equal(mcp_scenarios_create(&sc), MCP_OK);
    assert_int_equal(mcp_scenarios_set(sc, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 2, orders[o]),
                     MCP_OK);
    mcp_scenario_results *r = NULL;
    assert_int_equal(mcp_price_scenarios(*state, mk, p, sc, &r), MCP_ERR_INPUT);
    assert_null(r);
    assert_non_null(strstr(mcp_context_last_error(*state), "volatility > 0"));
    mcp_scenarios_destroy(sc);
  }
  const double fine[2] = {0, -0.05};
  mcp_scenarios *sc = NULL;
  assert_int_equal(mcp_scenarios_create(&sc), MCP_OK);
  assert_int_equal(mcp_scenarios_set(sc, MCP_SHIFT_VOLATILITY, MCP_SHIFT_ABSOLUTE, 2, fine), MCP_OK);
  mcp_scenario_results *r = NULL;
  assert_int_equal(mcp_price_scenarios(*state, mk, p, sc, &r), MCP_OK);
  for (size_t j = 0; j < 2; j++) {
    mcp_estimate e;
    assert_int_equal(mcp_scenario_results_trade(r, 0, 0, j, 0, &e), MCP_OK);
    assert_true(e.price > 5 && e.std_error == 0); /* on the grid at both points */
  }
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(sc);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
}

/* Volatilities of 2, 5 and 10 (issue 17: the grid priced a European call
 * 93.4 for 97.8 at 5, 27.75 for 99.0 at 10).  European calls go by parity
 * from the put's grid and puts are right on the default grid; an American
 * call without dividends is the European; a knock-out call, whose value
 * lies in the far upper tail, is refused on a grid too coarse, naming the
 * space points it needs, and right on that many. */
static void high_volatility(void **state)
{
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 401, 400);
  const double vols[3] = {2, 5, 10};
  for (int k = 0; k < 3; k++) {
    bs_params u = {100, 0.05, 0.02, vols[k]};
    mcp_market *mk = new_market();
    add_underlying(mk, "ACME", u);
    for (int type = 0; type < 2; type++) {
      mcp_option_type ty = type ? MCP_PUT : MCP_CALL;
      mcp_trade t = grid_trade("E", MCP_PRODUCT_EUROPEAN, ty, 100, 1);
      double v = pde_price(*state, mk, &t, &s);
      double exact = cf_black_scholes(ty, 100, 100, 1, u.rate, u.dividend, u.vol);
      printf("  vol %g %s: pde %.6f black-scholes %.6f\n", u.vol, type ? "put" : "call", v, exact);
      assert_true(fabs(v - exact) < 1e-4 * exact);
    }
    mcp_market_destroy(mk);
  }
  mcp_market *mk = new_market();
  add_underlying(mk, "ACME", (bs_params){100, 0.05, 0.0, 5});
  mcp_trade am = grid_trade("AM", MCP_PRODUCT_AMERICAN, MCP_CALL, 100, 1);
  mcp_trade eu = grid_trade("EU", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  assert_true(fabs(pde_price(*state, mk, &am, &s) - pde_price(*state, mk, &eu, &s)) < 1e-12);
  mcp_market_destroy(mk);

  bs_params u = {100, 0.05, 0.02, 2};
  mk = new_market();
  add_underlying(mk, "ACME", u);
  for (int in = 0; in < 2; in++) {
    mcp_trade t = grid_trade("DC", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
    t.barrier_kind = in ? MCP_DOWN_AND_IN : MCP_DOWN_AND_OUT;
    t.barrier = 80;
    t.monitoring = MCP_MONITOR_BRIDGE;
    mcp_portfolio *p = new_portfolio(1000, 1);
    assert_int_equal(mcp_portfolio_set_pde(p, &s), MCP_OK);
    add_trade(p, &t);
    expect_failure(*state, mk, p, MCP_ERR_INPUT, "trade 'DC': pde.space_points: at volatility 2");
    assert_non_null(strstr(mcp_context_last_error(*state), "expected at least 19"));
    mcp_portfolio_destroy(p);
    mcp_pde_settings fine = settings(MCP_PDE_CRANK_NICOLSON, 3, 2001, 400);
    double v = pde_price(*state, mk, &t, &fine);
    double exact = cf_barrier(MCP_CALL, 0, in, 100, 100, 80, 0, 1, u.rate, u.dividend, u.vol);
    printf("  vol 2 down-and-%s call, 2001 nodes: pde %.6f closed form %.6f\n", in ? "in" : "out",
           v, exact);
    assert_true(fabs(v - exact) < 1e-4 * exact);
  }
  mcp_market_destroy(mk);
  mk = new_market();
  add_underlying(mk, "ACME", (bs_params){100, 0.05, 0.02, 10});
  mcp_trade t = grid_trade("AC", MCP_PRODUCT_AMERICAN, MCP_CALL, 100, 1);
  mcp_portfolio *p = new_portfolio(1000, 1);
  add_trade(p, &t);
  expect_failure(*state, mk, p, MCP_ERR_INPUT, "trade 'AC': method: at volatility 10");
  assert_non_null(strstr(mcp_context_last_error(*state), "expected method mc"));
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
}

/* Barriers far from the spot, next to it, and on a grid of almost no
 * volatility; a grid too wide for doubles is bad input. */
static void barrier_edges_and_grid_limits(void **state)
{
  mcp_context *ctx = *state;
  struct { bs_params u; mcp_barrier_kind kind; mcp_option_type type; double strike, barrier; } cases[] = {
      {ACME, MCP_UP_AND_OUT, MCP_CALL, 100, 1e6},        /* beyond the grid: the vanilla */
      {ACME, MCP_UP_AND_IN, MCP_PUT, 100, 100.01},       /* a hundredth of a step away */
      {ACME, MCP_DOWN_AND_OUT, MCP_CALL, 100, 99.99},
      {{100, 0.05, 0.02, 1e-9}, MCP_UP_AND_OUT, MCP_CALL, 100, 150}}; /* never reached */
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    mcp_market *mk = new_market();
    add_underlying(mk, "ACME", cases[c].u);
    mcp_trade t = grid_trade("B", MCP_PRODUCT_BARRIER, cases[c].type, cases[c].strike, 1.0);
    t.barrier_kind = cases[c].kind;
    t.barrier = cases[c].barrier;
    t.monitoring = MCP_MONITOR_BRIDGE;
    int up = cases[c].kind == MCP_UP_AND_OUT || cases[c].kind == MCP_UP_AND_IN;
    int in = cases[c].kind == MCP_UP_AND_IN || cases[c].kind == MCP_DOWN_AND_IN;
    bs_params u = cases[c].u;
    double exact = u.vol < 1e-6 /* the discounted forward's intrinsic value */
                       ? exp(-u.rate) * fmax(u.spot * exp(u.rate - u.dividend) - cases[c].strike, 0)
                       : cf_barrier(cases[c].type, up, in, u.spot, cases[c].strike,
                                    cases[c].barrier, 0, 1.0, u.rate, u.dividend, u.vol);
    mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 801, 800);
    double v = pde_price(ctx, mk, &t, &s);
    printf("  barrier %g: pde %.6f reiner-rubinstein %.6f\n", cases[c].barrier, v, exact);
    assert_true(fabs(v - exact) < 2e-3);
    mcp_market_destroy(mk);
  }
  /* fewer time steps than Rannacher's start: all of them are implicit */
  mcp_market *mk = acme_market();
  mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 101, 1);
  mcp_trade t = grid_trade("E", MCP_PRODUCT_EUROPEAN, MCP_PUT, 100, 0.1);
  double exact = cf_black_scholes(MCP_PUT, 100, 100, 0.1, ACME.rate, ACME.dividend, ACME.vol);
  double v = pde_price(ctx, mk, &t, &s);
  printf("  one time step (two implicit half steps): pde %.6f black-scholes %.6f\n", v, exact);
  assert_true(fabs(v - exact) < 0.1 * exact);
  /* strikes at 0: the put is worth nothing, the call the discounted forward */
  t = grid_trade("P0", MCP_PRODUCT_EUROPEAN, MCP_PUT, 0, 1.0);
  s = settings(MCP_PDE_CRANK_NICOLSON, 3, 401, 400);
  assert_true(pde_price(ctx, mk, &t, &s) == 0);
  t = grid_trade("C0", MCP_PRODUCT_EUROPEAN, MCP_CALL, 0, 1.0);
  double fwd = ACME.spot * exp(-ACME.dividend);
  assert_true(fabs(pde_price(ctx, mk, &t, &s) - fwd) < 1e-4 * fwd);
  mcp_market_destroy(mk);
  /* 8 standard deviations of vol 10 over 100 years overflow exp */
  mk = new_market();
  add_underlying(mk, "ACME", (bs_params){100, 0.03, 0, 10});
  mcp_portfolio *p = new_portfolio(1000, 1);
  s = settings(MCP_PDE_CRANK_NICOLSON, 3, 101, 100);
  s.width = 8;
  assert_int_equal(mcp_portfolio_set_pde(p, &s), MCP_OK);
  t = grid_trade("WIDE", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 100);
  add_trade(p, &t);
  mcp_results *r = NULL;
  assert_int_equal(mcp_price(ctx, mk, p, &r), MCP_ERR_INPUT);
  assert_null(r);
  assert_non_null(strstr(mcp_context_last_error(ctx), "pde.width"));
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
}

static void term_structures(void **state)
{
  /* A European depends on the curves through their integrals only. */
  mcp_market *mk = acme_market();
  const double end[3] = {0.25, 0.75, 1.5}, vol[3] = {0.35, 0.2, 0.3}, rate[3] = {0.01, 0.04, 0.06},
               div[3] = {0.0, 0.03, 0.01};
  assert_int_equal(mcp_market_set_curve(mk, "ACME", MCP_CURVE_VOLATILITY, 3, end, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(mk, "ACME", MCP_CURVE_RATE, 3, end, rate), MCP_OK);
  assert_int_equal(mcp_market_set_curve(mk, "ACME", MCP_CURVE_DIVIDEND, 3, end, div), MCP_OK);
  double T = 1.3, iv = 0, ir = 0, iq = 0, t0 = 0;
  for (int i = 0; i < 3 && t0 < T; i++) {
    double t1 = fmin(end[i], T);
    iv += vol[i] * vol[i] * (t1 - t0);
    ir += rate[i] * (t1 - t0);
    iq += div[i] * (t1 - t0);
    t0 = t1;
  }
  for (int type = 0; type < 2; type++) {
    mcp_trade t = grid_trade("EC", MCP_PRODUCT_EUROPEAN, (mcp_option_type)type, 102, T);
    mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 801, 1000);
    double exact = cf_black((mcp_option_type)type, ACME.spot * exp(ir - iq), 102, sqrt(iv),
                            exp(-ir));
    double v = pde_price(*state, mk, &t, &s);
    printf("  curves %s: pde %.6f black %.6f\n", type ? "put" : "call", v, exact);
    assert_true(fabs(v - exact) < 5e-4);
  }
  mcp_market_destroy(mk);
}

/* The plan's segments (runs of steps that share coefficients, found by
 * stepping over the curves' pieces) hold, at every step of every grid, the
 * coefficients that the step's own means give: maturities and step counts
 * that put steps across, on and beside the knots. */
static void segments_match_every_step(void **state)
{
  (void)state;
  mcp_market *mk = acme_market();
  const double end[4] = {0.25, 0.5, 0.75, 1.5}, vol[4] = {0.35, 0.2, 0.2, 0.3},
               rate[4] = {0.01, 0.04, 0.04, 0.06}, div[4] = {0.0, 0.03, 0.02, 0.01};
  assert_int_equal(mcp_market_set_curve(mk, "ACME", MCP_CURVE_VOLATILITY, 4, end, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(mk, "ACME", MCP_CURVE_RATE, 4, end, rate), MCP_OK);
  assert_int_equal(mcp_market_set_curve(mk, "ACME", MCP_CURVE_DIVIDEND, 4, end, div), MCP_OK);
  mcp_portfolio *p;
  assert_int_equal(mcp_portfolio_create(&p), MCP_OK);
  const double T[5] = {0.2, 0.5, 1.0, 1.3, 2.0};
  for (int i = 0; i < 5; i++) {
    char id[8];
    snprintf(id, sizeof id, "P%d", i);
    mcp_trade t = grid_trade(id, MCP_PRODUCT_AMERICAN, MCP_PUT, 100, T[i]);
    assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_OK);
  }
  const unsigned steps[3] = {4, 40, 97};
  const mcpi_underlying *u = mcpi_market_find(mk, "ACME");
  size_t checked = 0;
  for (int m = 0; m < 3; m++) {
    mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, 3, 101, steps[m]);
    mcpi_pde_batch b;
    char err[MCPI_ERRLEN];
    assert_int_equal(mcpi_pde_plan(mk, p, &s, &b, err), MCP_OK);
    for (size_t g = 0; g < b.ngrids; g++) {
      const mcpi_pde_grid *G = &b.grid[g];
      double mat = T[b.trade[g].trade];
      int seg = G->seg;
      for (int k = 0; k < G->steps; k++, checked++) {
        int half = k < G->half_steps;
        double tau0 = half ? k * 0.5 * G->dt : (k - G->half_steps / 2) * G->dt;
        double tau1 = tau0 + (half ? 0.5 * G->dt : G->dt), t1 = mat - tau0, t0 = mat - tau1;
        t0 = t0 < 0 ? 0 : t0;
        if (t1 <= t0)
          t1 = t0 + 1e-300;
        while (k >= b.seg[seg].end)
          seg++;
        double a = 0.5 * mcpi_curve_mean(&u->vol, t0, t1, 1), r = mcpi_curve_mean(&u->rate, t0, t1, 0);
        double mu = r - mcpi_curve_mean(&u->dividend, t0, t1, 0) - a;
        if (b.seg[seg].a != a || b.seg[seg].mu != mu || b.seg[seg].c != r)
          fail_msg("grid %zu (T %g, %u steps) step %d: segment (%.17g %.17g %.17g), step "
                   "(%.17g %.17g %.17g)", g, mat, steps[m], k, b.seg[seg].a, b.seg[seg].mu,
                   b.seg[seg].c, a, mu, r);
      }
    }
    mcpi_pde_free(&b);
  }
  printf("  %zu steps of 15 grids: each in the segment of its own coefficients\n", checked);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
}

static void mixed_with_monte_carlo(void **state)
{
  mcp_market *mk = acme_market();
  mcp_portfolio *p = new_portfolio(20000, 7);
  add_european(p, "MC", "ACME", MCP_CALL, 100, 1.0, 2.0);
  mcp_trade am = grid_trade("AM", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1.0);
  am.engine = MCP_ENGINE_DEFAULT;
  am.quantity = -3;
  add_trade(p, &am);
  /* a European priced on the grid through the product's default engine */
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_BARRIER, MCP_ENGINE_PDE), MCP_OK);
  assert_int_equal(mcp_portfolio_engine(p, MCP_PRODUCT_BARRIER), MCP_ENGINE_PDE);
  assert_int_equal(mcp_portfolio_engine(p, MCP_PRODUCT_EUROPEAN), MCP_ENGINE_MC);
  mcp_trade b = grid_trade("DO", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1.0);
  b.engine = MCP_ENGINE_DEFAULT;
  b.barrier_kind = MCP_DOWN_AND_OUT;
  b.barrier = 85;
  b.monitoring = MCP_MONITOR_BRIDGE;
  add_trade(p, &b);
  mcp_results *r = price(*state, mk, p);
  mcp_estimate mc = estimate(r, "MC"), a = estimate(r, "AM"), d = estimate(r, "DO"),
               tot = total(r);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_MC);
  assert_int_equal(mcp_results_engine(r, 1), MCP_ENGINE_PDE);
  assert_int_equal(mcp_results_engine(r, 2), MCP_ENGINE_PDE);
  assert_true(mc.std_error > 0);
  assert_true(fabs(tot.price - (2 * mc.price - 3 * a.price + d.price)) < 1e-9);
  assert_true(fabs(tot.std_error - 2 * mc.std_error) < 1e-12);
  mcp_pde_settings s;
  mcp_portfolio_pde(p, &s);
  mcp_trade alone = am;
  alone.quantity = 1;
  assert_true(pde_price(*state, mk, &alone, &s) == a.price);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);

  /* a product's default engine applies to the trades the grid fits: a
   * European on a Heston underlying, and a barrier on the 5-point stencil,
   * stay on Monte Carlo (issue 17: they failed the whole book); a trade that
   * names the grid itself still fails */
  assert_int_equal(mcp_market_add_heston(mk, "H", 100, 0.05, 0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  p = new_portfolio(2000, 7);
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_EUROPEAN, MCP_ENGINE_PDE), MCP_OK);
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_BARRIER, MCP_ENGINE_PDE), MCP_OK);
  mcp_pde_settings five = settings(MCP_PDE_CRANK_NICOLSON, 5, 201, 200);
  assert_int_equal(mcp_portfolio_set_pde(p, &five), MCP_OK);
  add_european(p, "EH", "H", MCP_CALL, 100, 1.0, 1.0);
  add_european(p, "EA", "ACME", MCP_CALL, 100, 1.0, 1.0);
  add_trade(p, &b);
  /* and a down-and-out call at a volatility of 3, whose far upper tail the
   * grid cannot resolve */
  add_underlying(mk, "HI", (bs_params){100, 0.05, 0, 3});
  mcp_trade hi = b;
  hi.id = "DO-HI";
  hi.underlying = "HI";
  add_trade(p, &hi);
  r = price(*state, mk, p);
  assert_int_equal(mcp_results_engine(r, 0), MCP_ENGINE_MC);
  assert_int_equal(mcp_results_engine(r, 1), MCP_ENGINE_PDE);
  assert_int_equal(mcp_results_engine(r, 2), MCP_ENGINE_MC);
  assert_int_equal(mcp_results_engine(r, 3), MCP_ENGINE_MC);
  assert_true(estimate(r, "EH").std_error > 0 && estimate(r, "DO").std_error > 0);
  assert_true(estimate(r, "EA").std_error == 0);
  mcp_results_destroy(r);
  b.id = "DO-GRID";
  b.engine = MCP_ENGINE_PDE;
  add_trade(p, &b);
  expect_failure(*state, mk, p, MCP_ERR_INPUT, "trade 'DO-GRID': pde.stencil_points");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
}

/* mcp_price fails with status want and a message containing what. */
static void expect_failure(mcp_context *ctx, const mcp_market *mk, mcp_portfolio *p,
                           mcp_status want, const char *what)
{
  mcp_results *r = NULL;
  assert_int_equal(mcp_price(ctx, mk, p, &r), want);
  assert_null(r);
  const char *msg = mcp_context_last_error(ctx);
  if (!strstr(msg, what))
    fail_msg("message '%s' lacks '%s'", msg, what);
}

static void bad_inputs(void **state)
{
  mcp_context *ctx = *state;
  mcp_market *mk = acme_market();
  assert_int_equal(mcp_market_add_heston(mk, "HEST", 100, 0.03, 0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_add_black_scholes(mk, "FLAT", 100, 0.03, 0, 0), MCP_OK);
  struct { const char *und; mcp_product product; mcp_monitoring mon; int engine, points;
           mcp_status st; const char *what; } cases[] = {
      {"HEST", MCP_PRODUCT_EUROPEAN, 0, MCP_ENGINE_PDE, 3, MCP_ERR_INPUT, "Black-Scholes"},
      {"FLAT", MCP_PRODUCT_EUROPEAN, 0, MCP_ENGINE_PDE, 3, MCP_ERR_INPUT, "volatility > 0"},
      {"ACME", MCP_PRODUCT_BARRIER, MCP_MONITOR_DISCRETE, MCP_ENGINE_PDE, 3, MCP_ERR_INPUT,
       "expected \"bridge\""},
      {"ACME", MCP_PRODUCT_BARRIER, MCP_MONITOR_BRIDGE, MCP_ENGINE_PDE, 5, MCP_ERR_INPUT,
       "3-point"},
      {"NONE", MCP_PRODUCT_EUROPEAN, 0, MCP_ENGINE_PDE, 3, MCP_ERR_NOT_FOUND, "not in the market"}};
  double fix[1] = {1.0};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    mcp_portfolio *p = new_portfolio(1000, 1);
    mcp_pde_settings s = settings(MCP_PDE_CRANK_NICOLSON, cases[c].points, 101, 100);
    assert_int_equal(mcp_portfolio_set_pde(p, &s), MCP_OK);
    mcp_trade t = grid_trade("BAD", cases[c].product, MCP_CALL, 100, 1.0);
    t.underlying = cases[c].und;
    t.engine = (mcp_engine)cases[c].engine;
    if (cases[c].product == MCP_PRODUCT_BARRIER) {
      t.barrier_kind = MCP_DOWN_AND_OUT;
      t.barrier = 90;
      t.monitoring = cases[c].mon;
      if (t.monitoring != MCP_MONITOR_BRIDGE) {
        t.nfixings = 1;
        t.fixings = fix;
      }
    }
    add_trade(p, &t);
    expect_failure(ctx, mk, p, cases[c].st, cases[c].what);
    mcp_portfolio_destroy(p);
  }
  /* an engine a product cannot use is refused when set: on a trade, and as
   * a product's default */
  mcp_portfolio *q = new_portfolio(1000, 1);
  mcp_trade dg = grid_trade("DG", MCP_PRODUCT_DIGITAL, MCP_CALL, 100, 1.0);
  mcp_trade bm = grid_trade("BM", MCP_PRODUCT_BERMUDAN, MCP_PUT, 100, 1.0);
  double bdates[2] = {0.5, 1.0};
  bm.nfixings = 2;
  bm.fixings = bdates;
  bm.engine = MCP_ENGINE_PDE;
  assert_int_equal(mcp_portfolio_add_trade(q, &dg), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(q), "trade 'DG': method: the grid prices"));
  assert_int_equal(mcp_portfolio_add_trade(q, &bm), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(q), "trade 'BM': method: the grid prices"));
  assert_int_equal(mcp_portfolio_size(q), 0);
  assert_int_equal(mcp_portfolio_set_engine(q, MCP_PRODUCT_ASIAN, MCP_ENGINE_PDE),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_portfolio_last_error(q), "engine of asian: the grid prices"));
  assert_int_equal(mcp_portfolio_set_engine(q, MCP_PRODUCT_BERMUDAN, MCP_ENGINE_PDE),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_engine(q, MCP_PRODUCT_ASIAN), MCP_ENGINE_MC);
  assert_int_equal(mcp_portfolio_engine(q, MCP_PRODUCT_AMERICAN), MCP_ENGINE_PDE);
  /* American options take Monte Carlo too (Longstaff-Schwartz) */
  assert_int_equal(mcp_portfolio_set_engine(q, MCP_PRODUCT_AMERICAN, MCP_ENGINE_MC), MCP_OK);
  assert_int_equal(mcp_portfolio_engine(q, MCP_PRODUCT_AMERICAN), MCP_ENGINE_MC);
  mcp_portfolio_destroy(q);
  /* settings out of range name the field */
  mcp_portfolio *p = new_portfolio(1000, 1);
  mcp_pde_settings s;
  struct { mcp_pde_settings s; const char *field; } bad[8];
  for (int i = 0; i < 8; i++)
    mcp_pde_settings_init(&bad[i].s);
  bad[0].s.stencil_points = 4, bad[0].field = "pde.stencil_points";
  bad[1].s.space_points = 8, bad[1].field = "pde.space_points";
  bad[2].s.time_steps = 0, bad[2].field = "pde.time_steps";
  bad[3].s.rannacher = 17, bad[3].field = "pde.rannacher";
  bad[4].s.width = 0.5, bad[4].field = "pde.width";
  bad[5].s.coarsening = 3, bad[5].field = "pde.coarsening";
  bad[6].s.stencil = (mcp_stencil)7, bad[6].field = "pde.stencil";
  bad[7].s.scheme = (mcp_pde_scheme)9, bad[7].field = "pde.scheme";
  for (int i = 0; i < 8; i++) {
    assert_int_equal(mcp_portfolio_set_pde(p, &bad[i].s), MCP_ERR_ARGUMENT);
    assert_non_null(strstr(mcp_portfolio_last_error(p), bad[i].field));
  }
  mcp_portfolio_pde(p, &s); /* unchanged */
  assert_int_equal(s.space_points, 401);
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_COUNT, MCP_ENGINE_PDE),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_set_engine(p, MCP_PRODUCT_EUROPEAN, MCP_ENGINE_DEFAULT),
                   MCP_ERR_ARGUMENT);
  mcp_trade t = grid_trade("E", MCP_PRODUCT_EUROPEAN, MCP_CALL, 100, 1);
  t.engine = (mcp_engine)5;
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_ERR_ARGUMENT);
  /* names */
  mcp_engine e;
  mcp_stencil st;
  mcp_pde_scheme sc;
  mcp_product pr;
  assert_int_equal(mcp_engine_from_name("pde", &e), MCP_OK);
  assert_int_equal(e, MCP_ENGINE_PDE);
  assert_int_equal(mcp_engine_from_name("fd", &e), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_stencil_from_name("smem", &st), MCP_OK);
  assert_string_equal(mcp_stencil_name(st), "smem");
  assert_int_equal(mcp_pde_scheme_from_name("explicit", &sc), MCP_OK);
  assert_int_equal(mcp_product_from_name("american", &pr), MCP_OK);
  assert_int_equal(pr, MCP_PRODUCT_AMERICAN);
  assert_int_equal(mcp_product_from_name(NULL, &pr), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_engine_from_name("mc", NULL), MCP_ERR_ARGUMENT);
  assert_string_equal(mcp_engine_name((mcp_engine)9), "default");
  assert_string_equal(mcp_product_name(MCP_PRODUCT_COUNT), "unknown");
  /* NULL handles */
  assert_int_equal(mcp_portfolio_set_pde(NULL, &s), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_set_pde(p, NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_set_engine(NULL, MCP_PRODUCT_EUROPEAN, MCP_ENGINE_PDE),
                   MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_portfolio_engine(NULL, MCP_PRODUCT_AMERICAN), MCP_ENGINE_DEFAULT);
  assert_int_equal(mcp_results_engine(NULL, 0), MCP_ENGINE_DEFAULT);
  mcp_portfolio_pde(NULL, &s); /* the defaults */
  assert_int_equal(s.stencil_points, 3);
  mcp_portfolio_pde(p, NULL);
  mcp_pde_settings_init(NULL);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(european_order_3point_cn),
      cmocka_unit_test(european_order_5point_cn),
      cmocka_unit_test(european_order_explicit),
      cmocka_unit_test(european_order_5point_explicit),
      cmocka_unit_test(american_against_tree),
      cmocka_unit_test(american_call_without_dividends_is_european),
      cmocka_unit_test(cash_dividends_on_the_grid),
      cmocka_unit_test(large_cash_dividends),
      cmocka_unit_test(barriers_against_reiner_rubinstein),
      cmocka_unit_test(barrier_edges_and_grid_limits),
      cmocka_unit_test(high_volatility),
      cmocka_unit_test(american_call_at_a_negative_rate),
      cmocka_unit_test(scenario_points_keep_the_engine),
      cmocka_unit_test(term_structures),
      cmocka_unit_test(segments_match_every_step),
      cmocka_unit_test(mixed_with_monte_carlo),
      cmocka_unit_test(bad_inputs),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
