/* test_grid_check.c: the discretisation check (issue 31; src/plan/grid_check.c)
 * on the CPU backend:
 *   1. the same Brownian paths: where the model's step is exact in
 *      aggregate (local volatility of a flat surface; Heston and several
 *      Heston assets with a vanishing vol-of-vol at v0 = theta, Euler), the
 *      coarse grid's price equals the fine one's to rounding, path by path;
 *   2. flagged: Heston Euler at 12 steps a year with a large vol-of-vol, and
 *      a strongly skewed local volatility on a coarse grid, move by more than
 *      their standard errors;
 *   3. not flagged: QE at the default 252 steps a year, ordinary
 *      parameters, over several seeds and trades (false alarms rare);
 *   4. who is checked: Heston, local volatility, Merton watched on the
 *      bridge; never Black-Scholes or a Merton trade seen on dates only;
 *   5. the check changes no price: a book priced with and without it (and
 *      with Greeks) gives the same bits, and without it no move;
 *   6. steps_per_year 0 on an inexact model, which leaves nothing to merge
 *      (a European in one step), is refused, the check on or off; with
 *      run.grid times between the dates it is checked, and Black-Scholes
 *      and date-watched Merton take it as before.
 * Statistical checks use fixed seeds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tests/mc_check.h"
#include "mcprice.h"

static void add_heston(mcp_market *m, const char *name, double v0, double kappa, double theta,
                       double xi, double rho)
{
  if (mcp_market_add_heston(m, name, 100, 0.03, 0.01, v0, kappa, theta, xi, rho) != MCP_OK)
    fail_msg("adding '%s': %s", name, mcp_market_last_error(m));
}

/* A local volatility of spot alone, a * (100 / S)^skew, on a grid of spots. */
static void add_skewed(mcp_market *m, const char *name, double a, double skew)
{
  double times[2] = {0, 5}, spots[9] = {40, 55, 70, 85, 100, 115, 130, 150, 200}, v[18];
  for (int i = 0; i < 2; i++)
    for (int k = 0; k < 9; k++)
      v[i * 9 + k] = a * pow(100 / spots[k], skew);
  if (mcp_market_add_local_vol(m, name, 100, 0.03, 0.0, 2, times, 9, spots, v) != MCP_OK)
    fail_msg("adding '%s': %s", name, mcp_market_last_error(m));
}

/* A basket call on two assets of weights w. */
static void add_basket(mcp_portfolio *p, const char *id, const char *const *assets,
                       const double *w, double strike)
{
  mcp_trade t = trade_on(id, NULL, MCP_PRODUCT_BASKET, MCP_CALL, strike, 1.0);
  t.nassets = 2;
  t.assets = assets;
  t.weights = w;
  add_trade(p, &t);
}

static int has_move(const mcp_results *r, const char *id, mcp_estimate *d)
{
  size_t i = 0;
  mcp_estimate scratch;
  assert_int_equal(mcp_results_find(r, id, &i), MCP_OK);
  mcp_status st = mcp_results_grid_move(r, i, d ? d : &scratch);
  assert_true(st == MCP_OK || st == MCP_ERR_NOT_FOUND);
  return st == MCP_OK;
}

static unsigned warnings(const mcp_results *r, const char *id)
{
  size_t i = 0;
  assert_int_equal(mcp_results_find(r, id, &i), MCP_OK);
  return mcp_results_warnings(r, i);
}

static mcp_context *context(int check)
{
  mcp_run_options *o = NULL;
  mcp_context *ctx = NULL;
  assert_int_equal(mcp_run_options_create(&o), MCP_OK);
  assert_int_equal(mcp_run_options_set_backend(o, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_run_options_set_grid_check(o, check), MCP_OK);
  assert_int_equal(mcp_run_options_grid_check(o), check);
  assert_int_equal(mcp_context_create_with_options(&ctx, o, NULL, 0), MCP_OK);
  mcp_run_options_destroy(o);
  return ctx;
}

/* A move of the trade within rounding of its price: the coarse paths are the
 * fine ones. */
static void assert_same_path(const mcp_results *r, const char *id, double rel)
{
  mcp_estimate d, e = estimate(r, id);
  if (!has_move(r, id, &d))
    fail_msg("%s: no grid move", id);
  print_message("  %-10s price %.6f  move %.3e +- %.3e\n", id, e.price, d.price, d.std_error);
  if (!(fabs(d.price) <= rel * fabs(e.price) && d.std_error <= rel * fabs(e.price)))
    fail_msg("%s: the coarse grid moves the price %.6f by %.3e +- %.3e: not the same paths", id,
             e.price, d.price, d.std_error);
  assert_int_equal(warnings(r, id) & MCP_WARNING_GRID, 0);
}

static void same_paths(void **state)
{
  (void)state;
  mcp_context *ctx = context(1);
  mcp_market *m = new_market();
  add_skewed(m, "FLAT", 0.25, 0); /* log-Euler of a constant volatility: exact */
  add_heston(m, "H", 0.04, 1.5, 0.04, 1e-7, -0.5); /* Euler with v near theta throughout */
  add_heston(m, "H2", 0.09, 2.0, 0.09, 1e-7, 0.3);
  const char *names[4] = {"H", "H:variance", "H2", "H2:variance"};
  double c[16] = {1, -0.5, 0.4, -0.1, -0.5, 1, -0.1, 0.3, 0.4, -0.1, 1, 0.3, -0.1, 0.3, 0.3, 1};
  assert_int_equal(mcp_market_set_correlation(m, 4, names, c), MCP_OK);
  /* steps of unequal lengths (the merged normals' weights differ) */
  double grid[40];
  for (int i = 0; i < 40; i++)
    grid[i] = (i + 1) * 1.45 / 40 * (1 + 0.3 * sin(7.0 * i)) / (1 + 0.3 * sin(7.0 * 39));
  for (int i = 1; i < 40; i++) /* increasing: a sorted copy */
    for (int k = i; k > 0 && grid[k] < grid[k - 1]; k--) {
      double t = grid[k];
      grid[k] = grid[k - 1];
      grid[k - 1] = t;
    }
  for (int anti = 0; anti < 3; anti++) { /* plain, antithetic, and the uniform grid */
    mcp_portfolio *p = new_portfolio(4000, 7);
    assert_int_equal(mcp_portfolio_set_heston_scheme(p, MCP_HESTON_EULER), MCP_OK);
    assert_int_equal(mcp_portfolio_set_methods(p, anti == 1 ? MCP_ANTITHETIC : 0), MCP_OK);
    if (anti < 2) {
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 0), MCP_OK);
      assert_int_equal(mcp_portfolio_set_time_grid(p, 40, grid), MCP_OK);
    }
    double fix[4] = {0.25, 0.5, 0.75, 1.0};
    add_european(p, "FLAT-C", "FLAT", MCP_CALL, 105, 1.5, 1);
    add_asian(p, "FLAT-A", "FLAT", MCP_ARITHMETIC, MCP_PUT, 100, 4, fix, 1.0, 1);
    add_european(p, "H-C", "H", MCP_CALL, 100, 1.0, 1);
    const char *assets[2] = {"H", "H2"};
    double w[2] = {0.5, 0.5};
    add_basket(p, "B", assets, w, 100);
    mcp_results *r = price(ctx, m, p);
    assert_same_path(r, "FLAT-C", 1e-11);
    assert_same_path(r, "FLAT-A", 1e-11);
    assert_same_path(r, "H-C", 1e-5); /* xi's 1e-7 */
    assert_same_path(r, "B", 1e-5);
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

static void coarse_is_flagged(void **state)
{
  (void)state;
  mcp_context *ctx = context(1);
  mcp_market *m = new_market();
  add_heston(m, "WILD", 0.04, 1.0, 0.04, 1.5, -0.9);
  add_skewed(m, "SKEW", 0.25, 2.5);
  mcp_portfolio *p = new_portfolio_exact(100000, 11);
  assert_int_equal(mcp_portfolio_set_heston_scheme(p, MCP_HESTON_EULER), MCP_OK);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 12), MCP_OK);
  add_european(p, "WILD-P", "WILD", MCP_PUT, 80, 1.0, 1);
  add_european(p, "WILD-C", "WILD", MCP_CALL, 100, 1.0, 1);
  add_european(p, "SKEW-P", "SKEW", MCP_PUT, 75, 1.0, 1);
  mcp_results *r = price(ctx, m, p);
  const char *ids[3] = {"WILD-P", "WILD-C", "SKEW-P"};
  for (int k = 0; k < 3; k++) {
    mcp_estimate d, e = estimate(r, ids[k]);
    assert_true(has_move(r, ids[k], &d));
    print_message("  %-7s price %.5f +- %.1e  move %+.5f +- %.1e\n", ids[k], e.price, e.std_error,
                  d.price, d.std_error);
    if (!(warnings(r, ids[k]) & MCP_WARNING_GRID))
      fail_msg("%s: a move of %.5f +- %.1e against a standard error of %.1e is not flagged",
               ids[k], d.price, d.std_error, e.std_error);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

static void fine_is_not_flagged(void **state)
{
  (void)state;
  mcp_context *ctx = context(1);
  mcp_market *m = new_market();
  add_heston(m, "H", 0.04, 2.0, 0.04, 0.5, -0.7);
  add_skewed(m, "LV", 0.22, 0.8);
  int trades = 0;
  for (uint64_t seed = 1; seed <= 4; seed++) {
    mcp_portfolio *p = new_portfolio(20000, seed);
    char id[32];
    double strikes[3] = {85, 100, 115}, mats[2] = {0.5, 1.5};
    for (int k = 0; k < 3; k++)
      for (int t = 0; t < 2; t++) {
        snprintf(id, sizeof id, "H-%d-%d", k, t);
        add_european(p, id, "H", k ? MCP_CALL : MCP_PUT, strikes[k], mats[t], 1);
        snprintf(id, sizeof id, "LV-%d-%d", k, t);
        add_european(p, id, "LV", k ? MCP_CALL : MCP_PUT, strikes[k], mats[t], 1);
      }
    mcp_results *r = price(ctx, m, p);
    for (size_t i = 0; i < mcp_results_count(r); i++) {
      mcp_estimate d;
      assert_int_equal(mcp_results_grid_move(r, i, &d), MCP_OK);
      if (mcp_results_warnings(r, i) & MCP_WARNING_GRID)
        fail_msg("seed %llu, %s: flagged at 252 steps a year (move %.2e +- %.1e)",
                 (unsigned long long)seed, mcp_results_trade_id(r, i), d.price, d.std_error);
      trades++;
    }
    mcp_results_destroy(r);
    mcp_portfolio_destroy(p);
  }
  print_message("  %d trades unflagged\n", trades);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

static void who_is_checked(void **state)
{
  (void)state;
  mcp_context *ctx = context(1);
  mcp_market *m = new_market();
  add_underlying(m, "BS", (bs_params){100, 0.03, 0.01, 0.2});
  add_underlying(m, "BS2", (bs_params){50, 0.02, 0.0, 0.3});
  assert_int_equal(mcp_market_add_merton(m, "JUMP", 100, 0.03, 0.0, 0.2, 0.5, -0.1, 0.2), MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "JUMP2", 100, 0.03, 0.0, 0.2, 0.5, -0.1, 0.2), MCP_OK);
  add_heston(m, "H", 0.04, 2.0, 0.04, 0.5, -0.7);
  mcp_portfolio *p = new_portfolio(2000, 3);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 52), MCP_OK);
  add_european(p, "BS-C", "BS", MCP_CALL, 100, 1, 1);
  mcp_trade t = trade_on("BS-UOC", "BS", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
  t.barrier_kind = MCP_UP_AND_OUT;
  t.barrier = 130;
  t.monitoring = MCP_MONITOR_BRIDGE;
  add_trade(p, &t);
  const char *assets[2] = {"BS", "BS2"};
  double w[2] = {1, 1};
  add_basket(p, "BS-BASKET", assets, w, 150);
  add_european(p, "JUMP-C", "JUMP2", MCP_CALL, 100, 1, 1);
  t.id = "JUMP-UOC";
  t.underlying = "JUMP";
  add_trade(p, &t);
  add_european(p, "H-C", "H", MCP_CALL, 100, 1, 1);
  mcp_results *r = price(ctx, m, p);
  assert_false(has_move(r, "BS-C", NULL));
  assert_false(has_move(r, "BS-UOC", NULL));
  assert_false(has_move(r, "BS-BASKET", NULL));
  assert_false(has_move(r, "JUMP-C", NULL)); /* exact from date to date (a job of its own) */
  assert_true(has_move(r, "JUMP-UOC", NULL));
  assert_true(has_move(r, "H-C", NULL));
  mcp_estimate d;
  assert_int_equal(mcp_results_grid_move(r, 99, &d), MCP_ERR_NOT_FOUND);
  assert_int_equal(mcp_results_grid_move(r, 0, NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_results_grid_move(NULL, 0, &d), MCP_ERR_ARGUMENT);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
}

/* Every trade's price and the book, and with Greeks every sensitivity. */
static size_t values(const mcp_results *r, double *out, size_t cap)
{
  size_t n = 0;
  mcp_estimate e;
  for (size_t i = 0; i <= mcp_results_count(r); i++) {
    if (i < mcp_results_count(r))
      assert_int_equal(mcp_results_trade(r, i, &e), MCP_OK);
    else
      e = total(r);
    assert_true(n + 2 <= cap);
    out[n++] = e.price;
    out[n++] = e.std_error;
    mcp_sensitivity s;
    for (size_t k = 0; mcp_results_sensitivity(r, i, k, &s) == MCP_OK; k++) {
      assert_true(n + 2 <= cap);
      out[n++] = s.value.price;
      out[n++] = s.value.std_error;
    }
  }
  return n;
}

static void prices_unchanged(void **state)
{
  (void)state;
  mcp_context *on = context(1), *off = context(0);
  mcp_market *m = new_market();
  add_heston(m, "H", 0.04, 1.0, 0.04, 1.5, -0.9);
  add_heston(m, "H2", 0.06, 2.0, 0.05, 0.6, -0.5);
  add_skewed(m, "LV", 0.25, 2.0);
  assert_int_equal(mcp_market_add_merton(m, "JUMP", 100, 0.03, 0.0, 0.2, 0.5, -0.1, 0.2), MCP_OK);
  mcp_portfolio *p = new_portfolio(6000, 5);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 24), MCP_OK);
  add_european(p, "H-P", "H", MCP_PUT, 90, 1, 2);
  mcp_trade t = trade_on("H-DOP", "H", MCP_PRODUCT_BARRIER, MCP_PUT, 100, 1);
  t.barrier_kind = MCP_DOWN_AND_OUT;
  t.barrier = 70;
  t.monitoring = MCP_MONITOR_BRIDGE;
  add_trade(p, &t);
  t.id = "JUMP-DOP";
  t.underlying = "JUMP";
  add_trade(p, &t);
  t = trade_on("H-AM", "H", MCP_PRODUCT_AMERICAN, MCP_PUT, 100, 1);
  add_trade(p, &t);
  double fix[4] = {0.25, 0.5, 0.75, 1.0};
  add_asian(p, "LV-A", "LV", MCP_ARITHMETIC, MCP_CALL, 100, 4, fix, 1.0, -1);
  const char *assets[2] = {"H", "H2"};
  double w[2] = {0.5, 0.5};
  add_basket(p, "B", assets, w, 100);
  mcp_results *a = price(on, m, p), *b = price(off, m, p);
  double va[256], vb[256];
  size_t na = values(a, va, 256), nb = values(b, vb, 256);
  assert_int_equal(na, nb);
  assert_memory_equal(va, vb, na * sizeof *va);
  int flagged = 0;
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_estimate d;
    assert_int_equal(mcp_results_grid_move(a, i, &d), MCP_OK);
    assert_int_equal(mcp_results_grid_move(b, i, &d), MCP_ERR_NOT_FOUND);
    assert_int_equal(mcp_results_warnings(a, i) & ~(unsigned)MCP_WARNING_GRID,
                     mcp_results_warnings(b, i));
    assert_int_equal(mcp_results_warnings(b, i) & MCP_WARNING_GRID, 0);
    flagged += !!(mcp_results_warnings(a, i) & MCP_WARNING_GRID);
  }
  print_message("  %d of %zu trades flagged at 24 steps a year\n", flagged, mcp_results_count(a));
  mcp_results_destroy(a);
  mcp_results_destroy(b);
  /* with Greeks (bumps and on-path estimators beside the coarse pass) */
  mcp_greeks *g = NULL;
  assert_int_equal(mcp_greeks_create(&g), MCP_OK);
  assert_int_equal(mcp_greeks_parse(g, "delta,gamma,vega,rho"), MCP_OK);
  if (mcp_price_greeks(on, m, p, g, &a) != MCP_OK || mcp_price_greeks(off, m, p, g, &b) != MCP_OK)
    fail_msg("mcp_price_greeks: %s / %s", mcp_context_last_error(on), mcp_context_last_error(off));
  na = values(a, va, 256);
  nb = values(b, vb, 256);
  assert_int_equal(na, nb);
  assert_memory_equal(va, vb, na * sizeof *va);
  mcp_estimate d;
  assert_int_equal(mcp_results_grid_move(a, 0, &d), MCP_OK);
  mcp_results_destroy(a);
  mcp_results_destroy(b);
  mcp_greeks_destroy(g);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(on);
  mcp_context_destroy(off);
}

/* The trade's refusal at steps_per_year spy: MCP_ERR_INPUT naming the
 * trade and the field, and no results. */
static void assert_refused(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                           const char *id, unsigned spy)
{
  mcp_results *r = NULL;
  char want[80];
  assert_int_equal(mcp_price(ctx, m, p, &r), MCP_ERR_INPUT);
  assert_null(r);
  const char *err = mcp_context_last_error(ctx);
  print_message("  %s\n", err);
  snprintf(want, sizeof want, "trade '%s': run.steps_per_year: %u ", id, spy);
  assert_non_null(strstr(err, want));
  assert_non_null(strstr(err, "expected steps_per_year that puts steps between the dates"));
}

static void no_steps(void **state)
{
  (void)state;
  mcp_context *on = context(1), *off = context(0);
  mcp_market *m = new_market();
  add_underlying(m, "BS", (bs_params){100, 0.03, 0.01, 0.2});
  assert_int_equal(mcp_market_add_merton(m, "JUMP", 100, 0.03, 0.0, 0.2, 0.5, -0.1, 0.2), MCP_OK);
  add_heston(m, "H", 0.04, 0.5, 0.04, 1.0, -0.9);
  add_skewed(m, "LV", 0.25, 1.0);
  /* Black-Scholes and Merton on dates: one exact step, priced */
  mcp_portfolio *p = new_portfolio(2000, 3);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 0), MCP_OK);
  add_european(p, "BS-C", "BS", MCP_CALL, 100, 1, 1);
  add_european(p, "JUMP-C", "JUMP", MCP_CALL, 100, 1, 1);
  mcp_results *r = price(on, m, p);
  assert_false(has_move(r, "BS-C", NULL));
  assert_false(has_move(r, "JUMP-C", NULL));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  /* Heston, local volatility, Merton on the bridge: refused, whatever the check */
  const char *ids[3] = {"H-C", "LV-P", "JUMP-UOC"};
  for (int k = 0; k < 3; k++)
    for (int check = 0; check < 2; check++) {
      p = new_portfolio(2000, 3);
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 0), MCP_OK);
      add_european(p, "BS-C", "BS", MCP_CALL, 100, 1, 1);
      if (k == 0)
        add_european(p, ids[k], "H", MCP_CALL, 120, 2, 1);
      else if (k == 1)
        add_european(p, ids[k], "LV", MCP_PUT, 80, 1, 1);
      else {
        mcp_trade t = trade_on(ids[k], "JUMP", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1);
        t.barrier_kind = MCP_UP_AND_OUT;
        t.barrier = 130;
        t.monitoring = MCP_MONITOR_BRIDGE;
        add_trade(p, &t);
      }
      assert_refused(check ? on : off, m, p, ids[k], 0);
      mcp_portfolio_destroy(p);
    }
  /* uniform steps that all fall on the dates, longer than a day (one step a
   * year to a maturity of 1; monthly steps on monthly fixings): priced and
   * warned, with no move, while the check is on */
  double months[12];
  for (int i = 0; i < 12; i++)
    months[i] = (i + 1) / 12.0;
  for (int k = 0; k < 2; k++)
    for (int check = 0; check < 2; check++) {
      const char *id = k ? "H-A" : "LV-P";
      p = new_portfolio(2000, 3);
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, k ? 12 : 1), MCP_OK);
      if (k)
        assert_int_equal(mcp_portfolio_add_asian(p, id, "H", MCP_ARITHMETIC, MCP_CALL, 100, 12,
                                                 months, 1, 1),
                         MCP_OK);
      else
        add_european(p, id, "LV", MCP_PUT, 80, 1, 1);
      add_european(p, "BS-C", "BS", MCP_CALL, 100, 1, 1);
      r = price(check ? on : off, m, p);
      assert_false(has_move(r, id, NULL));
      assert_int_equal(warnings(r, id) & MCP_WARNING_GRID, check ? MCP_WARNING_GRID : 0);
      assert_int_equal(warnings(r, "BS-C"), 0);
      mcp_results_destroy(r);
      mcp_portfolio_destroy(p);
    }
  /* a day's steps on daily dates: the model's default step, priced unchecked */
  double days[5];
  for (int i = 0; i < 5; i++)
    days[i] = (i + 1) / 252.0;
  p = new_portfolio(2000, 3);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
  assert_int_equal(
      mcp_portfolio_add_asian(p, "H-A", "H", MCP_ARITHMETIC, MCP_CALL, 100, 5, days, days[4], 1),
      MCP_OK);
  r = price(on, m, p);
  assert_false(has_move(r, "H-A", NULL));
  assert_int_equal(warnings(r, "H-A") & MCP_WARNING_GRID, 0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  /* grid times between the dates: priced, and checked */
  const double grid[3] = {0.25, 0.5, 0.75};
  p = new_portfolio(2000, 3);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 0), MCP_OK);
  assert_int_equal(mcp_portfolio_set_time_grid(p, 3, grid), MCP_OK);
  add_european(p, "H-C", "H", MCP_CALL, 120, 1, 1);
  r = price(on, m, p);
  assert_true(has_move(r, "H-C", NULL));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(on);
  mcp_context_destroy(off);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_paths),     cmocka_unit_test(coarse_is_flagged),
      cmocka_unit_test(fine_is_not_flagged), cmocka_unit_test(who_is_checked),
      cmocka_unit_test(prices_unchanged), cmocka_unit_test(no_steps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
