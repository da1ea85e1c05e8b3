/* test_pricing.c: the CPU backend against closed forms, and the invariants the
 * engine promises: tile-size and thread-count independence, reproducible
 * seeds, independent streams per underlying, a consistent book and exact
 * GBM stepping on refined grids.  Statistical checks use a fixed seed and a
 * 3-standard-error band, so they are deterministic once they pass. */
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
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "mcprice.h"
#include "src/exec/backend.h"
#include "src/exec/context.h"
#include "src/plan/grid_check.h"
#include "src/plan/plan.h"
#include "src/plan/variants.h"
#include "models/products/adjoint.h"
#include "models/rng.h"
#include "src/base/stats.h"
#include "src/base/team.h"

#ifdef MCP_HAVE_CURAND
#define HAVE_QMC 1
#else
#define HAVE_QMC 0 /* QMC takes cuRAND's Sobol directions */
#endif

#define NSE 3.0 /* width of the statistical bands, in standard errors */

/* Shared by the tests: a CPU context and the 4M-path run of tests 2 and 3. */
typedef struct fixture {
  mcp_context *ctx;
  mcp_results *large;
} fixture;

static void assert_bs(const char *id, const mcp_results *r, bs_params u, mcp_option_type type,
                      double strike, double maturity)
{
  assert_within(id, estimate(r, id),
                cf_black_scholes(type, u.spot, strike, maturity, u.rate, u.dividend, u.vol),
                NSE);
}

static void assert_geometric(const char *id, const mcp_results *r, bs_params u,
                             mcp_option_type type, double strike, size_t n, const double *fix,
                             double maturity)
{
  assert_within(id, estimate(r, id),
                cf_geometric_asian(type, u.spot, strike, u.rate, u.dividend, u.vol, n, fix,
                                   maturity),
                NSE);
}

/* n fixings evenly spaced on (0, end]. */
static void even_fixings(double *t, size_t n, double end)
{
  for (size_t i = 0; i < n; i++)
    t[i] = end * (double)(i + 1) / (double)n;
}

/* ---- fixture: the large run shared by tests 2 and 3 -------------------- */

/* r = q puts the strike at the forward, where call and put have the same
 * relative standard error */
static const bs_params LARGE_U = {100.0, 0.02, 0.02, 0.2};
#define LARGE_T 1.0
#define LARGE_K 100.0
/* The 2e-3 relative bound is about 2.7 standard errors here, so about one
 * seed in a hundred misses it (seed 1 does, at 2.01e-3); the run is
 * deterministic, so a seed that passes keeps passing. */
#define LARGE_SEED 42

static int setup(void **state)
{
  static fixture f;
  if (mcp_context_create(&f.ctx, MCP_BACKEND_CPU) != MCP_OK)
    return -1;
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  int ok = mcp_market_create(&m) == MCP_OK && mcp_portfolio_create(&p) == MCP_OK &&
           mcp_market_add_black_scholes(m, "SPX", LARGE_U.spot, LARGE_U.rate,
                                        LARGE_U.dividend, LARGE_U.vol) == MCP_OK &&
           mcp_portfolio_set_paths(p, 4000000) == MCP_OK &&
           mcp_portfolio_set_seed(p, LARGE_SEED) == MCP_OK &&
           mcp_portfolio_add_european(p, "call", "SPX", MCP_CALL, LARGE_K, LARGE_T, 1) ==
               MCP_OK &&
           mcp_portfolio_add_european(p, "put", "SPX", MCP_PUT, LARGE_K, LARGE_T, -1) ==
               MCP_OK &&
           /* a zero-strike call pays S_T: the path's own discounted forward */
           mcp_portfolio_add_european(p, "share", "SPX", MCP_CALL, 0, LARGE_T, -1) == MCP_OK &&
           mcp_price(f.ctx, m, p, &f.large) == MCP_OK;
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  if (!ok)
    fprintf(stderr, "setup: %s\n", mcp_context_last_error(f.ctx));
  *state = &f;
  return ok ? 0 : -1;
}

static int teardown(void **state)
{
  fixture *f = *state;
  mcp_results_destroy(f->large);
  mcp_context_destroy(f->ctx);
  return 0;
}

static mcp_context *ctx_of(void **state) { return ((fixture *)*state)->ctx; }

/* ---- 1. Europeans against Black-Scholes -------------------------------- */

typedef struct euro_case {
  const char *id;
  mcp_option_type type;
  double strike, maturity;
  bs_params u;
} euro_case;

static const euro_case EURO_CASES[] = {
    {"atm_call_short", MCP_CALL, 100, 0.1, {100, 0.03, 0.0, 0.05}},
    {"itm_call_long", MCP_CALL, 80, 5.0, {100, 0.05, 0.0, 0.6}},
    {"otm_put", MCP_PUT, 80, 1.0, {100, 0.02, 0.0, 0.25}},
    {"itm_put_negr", MCP_PUT, 120, 1.0, {100, -0.01, 0.0, 0.3}},
    {"otm_call_div", MCP_CALL, 120, 2.0, {100, 0.04, 0.03, 0.2}},
    {"atm_put_long", MCP_PUT, 100, 5.0, {100, 0.01, 0.02, 0.6}},
    {"otm_call_hivol", MCP_CALL, 130, 0.1, {100, 0.03, 0.0, 0.6}},
    {"itm_call_lovol", MCP_CALL, 95, 0.1, {100, 0.0, 0.0, 0.05}},
    {"atm_call_negr", MCP_CALL, 50, 0.5, {50, -0.01, 0.0, 0.2}},
    {"itm_put_div", MCP_PUT, 110, 5.0, {100, 0.03, 0.04, 0.05}},
};
#define NEURO (sizeof EURO_CASES / sizeof EURO_CASES[0])

static void test_european_table(void **state)
{
  mcp_market *m = new_market();
  mcp_portfolio *p = new_portfolio(200000, 11);
  for (size_t i = 0; i < NEURO; i++) {
    const euro_case *c = &EURO_CASES[i];
    add_underlying(m, c->id, c->u); /* each case on its own underlying */
    add_european(p, c->id, c->id, c->type, c->strike, c->maturity, 1);
  }
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < NEURO; i++) {
    const euro_case *c = &EURO_CASES[i];
    assert_bs(c->id, r, c->u, c->type, c->strike, c->maturity);
  }
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Float paths: their own normals, four a Philox block, so within the
 * standard errors of the double prices on the same seed, and right against
 * the closed form. */
static void test_float_paths(void **state)
{
  double monthly[12];
  for (int i = 0; i < 12; i++)
    monthly[i] = (i + 1) / 12.0;
  mcp_market *m = new_market();
  const bs_params u = {100, 0.03, 0.01, 0.25};
  add_underlying(m, "F", u);
  mcp_results *r[2];
  for (int prec = 0; prec < 2; prec++) {
    mcp_portfolio *p = new_portfolio(100000, 5);
    add_european(p, "call", "F", MCP_CALL, 105, 1.0, 1);
    add_european(p, "put", "F", MCP_PUT, 95, 1.0, 1);
    add_asian(p, "geo", "F", MCP_GEOMETRIC, MCP_CALL, 100, 12, monthly, 1.0, 1);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
    assert_int_equal(mcp_portfolio_set_precision(p, prec ? MCP_FLOAT : MCP_DOUBLE), MCP_OK);
    r[prec] = price(ctx_of(state), m, p);
    mcp_portfolio_destroy(p);
  }
  const char *id[] = {"call", "put", "geo"};
  for (int i = 0; i < 3; i++) {
    mcp_estimate d = estimate(r[0], id[i]), f = estimate(r[1], id[i]);
    /* float paths draw their own normals (rng.h): the prices agree within
     * their standard errors */
    double bound = 4.5 * sqrt(d.std_error * d.std_error + f.std_error * f.std_error);
    print_message("  %-5s double %.6f float %.6f (difference %.2e, bound %.2e)\n", id[i], d.price,
                  f.price, fabs(f.price - d.price), bound);
    assert_true(fabs(f.price - d.price) < bound);
    assert_true(f.price != d.price); /* float really ran */
  }
  assert_bs("call", r[1], u, MCP_CALL, 105, 1.0);
  assert_bs("put", r[1], u, MCP_PUT, 95, 1.0);
  assert_geometric("geo", r[1], u, MCP_CALL, 100, 12, monthly, 1.0);
  mcp_results_destroy(r[0]);
  mcp_results_destroy(r[1]);
  mcp_market_destroy(m);
}

/* ---- 2. convergence at 4M paths ---------------------------------------- */

static void test_large_run(void **state)
{
  const mcp_results *r = ((fixture *)*state)->large;
  assert_int_equal(mcp_results_paths(r), 4000000);
  const char *id[] = {"call", "put"};
  const mcp_option_type type[] = {MCP_CALL, MCP_PUT};
  for (int i = 0; i < 2; i++) {
    mcp_estimate e = estimate(r, id[i]);
    double bs = cf_black_scholes(type[i], LARGE_U.spot, LARGE_K, LARGE_T, LARGE_U.rate,
                                 LARGE_U.dividend, LARGE_U.vol);
    assert_within(id[i], e, bs, NSE);
    double rel = fabs(e.price - bs) / bs;
    if (rel > 2e-3)
      fail_msg("%s: relative error %.2e above 2e-3", id[i], rel);
  }
}

/* ---- 3. put-call parity on shared paths -------------------------------- */

static void test_put_call_parity(void **state)
{
  const mcp_results *r = ((fixture *)*state)->large;
  mcp_estimate c = estimate(r, "call"), p = estimate(r, "put"), s = estimate(r, "share");
  double df = exp(-LARGE_U.rate * LARGE_T);
  double fwd = cf_parity_forward(LARGE_U.spot, LARGE_K, LARGE_T, LARGE_U.rate,
                                 LARGE_U.dividend);
  /* against the exact forward: the simple bound */
  print_message("  C - P = %.6f, forward %.6f\n", c.price - p.price, fwd);
  assert_true(fabs(c.price - p.price - fwd) <= NSE * (c.std_error + p.std_error));
  /* on the same paths max(S-K,0) - max(K-S,0) = S - K path by path, so C - P
   * equals the paths' own forward up to rounding, far inside the noise */
  double gap = fabs(c.price - p.price - (s.price - LARGE_K * df));
  print_message("  pathwise parity gap %.3e (se of C %.3e)\n", gap, c.std_error);
  assert_true(gap <= 1e-10 * s.price);
  assert_true(gap < 1e-6 * c.std_error);
  /* the book call - put - share pays -K df on every path */
  mcp_estimate b = total(r);
  assert_true(fabs(b.price + LARGE_K * df) <= 1e-10 * LARGE_K);
  assert_true(b.std_error <= 1e-8);
  /* a share is a zero-strike call: its price is the discounted forward */
  assert_within("share", s, LARGE_U.spot * exp(-LARGE_U.dividend * LARGE_T), NSE);
}

/* ---- 4. Asians ---------------------------------------------------------- */

static void test_asian(void **state)
{
  const bs_params a = {100, 0.05, 0.0, 0.3}, d = {100, 0.03, 0.02, 0.25};
  double monthly[12], weekly[52];
  const double quarterly[] = {0.25, 0.5, 0.75, 1.0};
  even_fixings(monthly, 12, 1.0);
  even_fixings(weekly, 52, 1.0);
  mcp_market *m = new_market();
  add_underlying(m, "A", a);
  add_underlying(m, "D", d);
  mcp_portfolio *p = new_portfolio(200000, 3);
  add_asian(p, "geo_m_call", "A", MCP_GEOMETRIC, MCP_CALL, 100, 12, monthly, 1.0, 1);
  add_asian(p, "geo_w_call", "A", MCP_GEOMETRIC, MCP_CALL, 95, 52, weekly, 1.0, 1);
  add_asian(p, "geo_m_put", "A", MCP_GEOMETRIC, MCP_PUT, 105, 12, monthly, 1.0, 1);
  add_asian(p, "arith_m_call", "A", MCP_ARITHMETIC, MCP_CALL, 100, 12, monthly, 1.0, 1);
  add_european(p, "euro_call", "A", MCP_CALL, 100, 1.0, 1);
  /* paid six months after the last fixing, with a dividend yield */
  add_asian(p, "geo_late_call", "D", MCP_GEOMETRIC, MCP_CALL, 100, 4, quarterly, 1.5, 1);
  add_asian(p, "geo_late_put", "D", MCP_GEOMETRIC, MCP_PUT, 100, 4, quarterly, 1.5, 1);
  mcp_results *r = price(ctx_of(state), m, p);

  assert_geometric("geo_m_call", r, a, MCP_CALL, 100, 12, monthly, 1.0);
  assert_geometric("geo_w_call", r, a, MCP_CALL, 95, 52, weekly, 1.0);
  assert_geometric("geo_m_put", r, a, MCP_PUT, 105, 12, monthly, 1.0);
  assert_geometric("geo_late_call", r, d, MCP_CALL, 100, 4, quarterly, 1.5);
  assert_geometric("geo_late_put", r, d, MCP_PUT, 100, 4, quarterly, 1.5);

  /* AM >= GM path by path, so on shared paths the estimates are ordered too */
  mcp_estimate ar = estimate(r, "arith_m_call"), geo = estimate(r, "geo_m_call");
  mcp_estimate eu = estimate(r, "euro_call");
  assert_true(ar.price >= geo.price);
  /* with r >= q averaging lowers the call's value: significantly below */
  assert_true(ar.price + NSE * (ar.std_error + eu.std_error) < eu.price);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A digital on the average (issue 32's product added by
 * doc/adding-a-product.md): the geometric one against its closed form,
 * cash and asset-or-nothing, call and put; call and put of one strike pay
 * the cash on every path, so their prices add up to it discounted; on one
 * fixing at maturity the arithmetic one is the plain digital, path by
 * path, so the two prices agree to the bit. */
static mcp_trade average_digital(const char *id, mcp_average avg, mcp_option_type type,
                                 mcp_digital pay, double strike, size_t n, const double *fix)
{
  mcp_trade t = trade_on(id, "A", MCP_PRODUCT_AVERAGE_DIGITAL, type, strike, fix[n - 1]);
  t.average = avg;
  t.digital = pay;
  t.cash = pay == MCP_CASH_OR_NOTHING ? 2.5 : 1;
  t.nfixings = n;
  t.fixings = fix;
  return t;
}

static void test_average_digital(void **state)
{
  const bs_params a = {100, 0.05, 0.01, 0.3};
  double monthly[12];
  const double one[] = {1.0};
  even_fixings(monthly, 12, 1.0);
  mcp_market *m = new_market();
  add_underlying(m, "A", a);
  mcp_portfolio *p = new_portfolio(200000, 5);
  const struct {
    const char *id;
    mcp_average avg;
    mcp_option_type type;
    mcp_digital pay;
    double strike;
  } cases[] = {{"g_cash_call", MCP_GEOMETRIC, MCP_CALL, MCP_CASH_OR_NOTHING, 100},
               {"g_cash_put", MCP_GEOMETRIC, MCP_PUT, MCP_CASH_OR_NOTHING, 100},
               {"g_asset_call", MCP_GEOMETRIC, MCP_CALL, MCP_ASSET_OR_NOTHING, 95},
               {"g_asset_put", MCP_GEOMETRIC, MCP_PUT, MCP_ASSET_OR_NOTHING, 110},
               {"a_cash_call", MCP_ARITHMETIC, MCP_CALL, MCP_CASH_OR_NOTHING, 100},
               {"a_cash_put", MCP_ARITHMETIC, MCP_PUT, MCP_CASH_OR_NOTHING, 100}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    mcp_trade t = average_digital(cases[i].id, cases[i].avg, cases[i].type, cases[i].pay,
                                  cases[i].strike, 12, monthly);
    add_trade(p, &t);
  }
  mcp_trade t = average_digital("a_one", MCP_ARITHMETIC, MCP_CALL, MCP_CASH_OR_NOTHING, 105, 1,
                                one);
  add_trade(p, &t);
  t = trade_on("digital", "A", MCP_PRODUCT_DIGITAL, MCP_CALL, 105, 1.0);
  t.cash = 2.5;
  add_trade(p, &t);
  mcp_results *r = price(ctx_of(state), m, p);
  for (size_t i = 0; i < 4; i++)
    assert_within(cases[i].id, estimate(r, cases[i].id),
                  cf_geometric_digital(cases[i].type, cases[i].pay == MCP_ASSET_OR_NOTHING,
                                       2.5, a.spot, cases[i].strike, a.rate, a.dividend, a.vol,
                                       12, monthly, 1.0),
                  NSE);
  double df = exp(-a.rate);
  double sum = estimate(r, "a_cash_call").price + estimate(r, "a_cash_put").price;
  print_message("  call + put %.15f, cash discounted %.15f\n", sum, 2.5 * df);
  assert_true(fabs(sum - 2.5 * df) < 1e-12);
  mcp_estimate x = estimate(r, "a_one"), d = estimate(r, "digital");
  assert_memory_equal(&x, &d, sizeof x);
  mcp_results_destroy(r);
  /* its own terms: the average, the pay-out; no floating strike */
  t = average_digital("bad", (mcp_average)7, MCP_CALL, MCP_CASH_OR_NOTHING, 100, 12, monthly);
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "average"));
  t = average_digital("bad", MCP_GEOMETRIC, MCP_CALL, MCP_CASH_OR_NOTHING, 100, 12, monthly);
  t.cash = -1;
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "cash"));
  t = average_digital("bad", MCP_GEOMETRIC, MCP_CALL, MCP_CASH_OR_NOTHING, 100, 12, monthly);
  t.strike_kind = MCP_FLOATING_STRIKE; /* refused, not priced as fixed */
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "strike kind"));
  t = average_digital("bad", MCP_GEOMETRIC, MCP_CALL, MCP_CASH_OR_NOTHING, 100, 12, monthly);
  t.nfixings = 0;
  assert_int_equal(mcp_portfolio_add_trade(p, &t), MCP_ERR_INPUT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "fixings"));
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 5. tile sizes and thread counts ----------------------------------- */

/* Two underlyings, Europeans and Asians with different schedules; few
 * simulation steps (4 and 2), since each (tile, step) slice costs the host
 * generator a fixed set-up time. */
static void mixed_book(mcp_market **m, mcp_portfolio **p, uint64_t paths, uint64_t seed)
{
  const double quarterly[] = {0.25, 0.5, 0.75, 1.0}, half[] = {0.5, 1.0}, y_fix[] = {0.25, 0.75};
  *m = new_market();
  add_underlying(*m, "X", (bs_params){100, 0.02, 0.01, 0.25});
  add_underlying(*m, "Y", (bs_params){50, 0.04, 0.0, 0.4});
  *p = new_portfolio(paths, seed);
  add_european(*p, "x_call", "X", MCP_CALL, 105, 1.0, 2);
  add_european(*p, "y_put", "Y", MCP_PUT, 45, 0.75, -3);
  add_asian(*p, "x_arith", "X", MCP_ARITHMETIC, MCP_CALL, 100, 4, quarterly, 1.0, 1);
  add_asian(*p, "x_geo_put", "X", MCP_GEOMETRIC, MCP_PUT, 100, 2, half, 1.25, 1);
  add_asian(*p, "y_arith", "Y", MCP_ARITHMETIC, MCP_PUT, 50, 2, y_fix, 0.75, 0.5);
}

#define SNAP_CAP 16

/* Prices the portfolio with each tile size in turn and fails unless every
 * estimate is bitwise equal to the first run's. */
static void assert_tile_independent(mcp_context *ctx, const mcp_market *m,
                                    const mcp_portfolio *p, const uint64_t *tiles, size_t ntiles)
{
  mcp_estimate ref[SNAP_CAP], cur[SNAP_CAP];
  for (size_t i = 0; i < ntiles; i++) {
    assert_int_equal(mcp_context_set_tile_paths(ctx, tiles[i]), MCP_OK);
    mcp_results *r = price(ctx, m, p);
    size_t n = snapshot(r, i ? cur : ref, SNAP_CAP);
    mcp_results_destroy(r);
    if (i) {
      char what[80];
      snprintf(what, sizeof what, "%llu paths, tile %llu vs %llu",
               (unsigned long long)mcp_portfolio_paths(p), (unsigned long long)tiles[i],
               (unsigned long long)tiles[0]);
      assert_same_bits(what, ref, cur, n);
    }
  }
  assert_int_equal(mcp_context_set_tile_paths(ctx, 0), MCP_OK);
}

static void test_tile_determinism(void **state)
{
  mcp_context *ctx = ctx_of(state);
  mcp_market *m;
  mcp_portfolio *p;
  mixed_book(&m, &p, 30011, 5); /* not a multiple of the chunk or of any tile */
  const uint64_t tiles[] = {0, 256, 1024, 4096};
  assert_tile_independent(ctx, m, p, tiles, 4);
#ifdef _OPENMP
  /* the CPU backend splits steps and chunks among threads: any count agrees */
  mcp_estimate ref[SNAP_CAP], cur[SNAP_CAP];
  mcp_results *r = price(ctx, m, p);
  size_t n = snapshot(r, ref, SNAP_CAP);
  mcp_results_destroy(r);
  int saved = omp_get_max_threads();
  for (int threads = 1; threads <= 3; threads += 2) {
    omp_set_num_threads(threads);
    r = price(ctx, m, p);
    snapshot(r, cur, SNAP_CAP);
    mcp_results_destroy(r);
    assert_same_bits(threads == 1 ? "1 thread" : "3 threads", ref, cur, n);
  }
  omp_set_num_threads(saved);
#endif
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Tiles beyond 2^18 paths: the automatic tile (2^20) against smaller ones.
 * One cuRAND Philox call follows the canonical sequence only over 2^18
 * values, so this holds only if rng.c splits its calls at that size. */
static void test_tile_determinism_large(void **state)
{
  const bs_params u = {100, 0.02, 0.0, 0.2};
  const double fix[] = {0.5, 1.0};
  mcp_market *m = new_market();
  add_underlying(m, "X", u);
  mcp_portfolio *p = new_portfolio(600001, 5);
  add_european(p, "call", "X", MCP_CALL, 100, 1.0, 1);
  add_asian(p, "asian", "X", MCP_ARITHMETIC, MCP_PUT, 100, 2, fix, 1.0, 1);
  const uint64_t tiles[] = {0, UINT64_C(1) << 18, 65536};
  assert_tile_independent(ctx_of(state), m, p, tiles, 3);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 6. seeds ------------------------------------------------------------ */

static void test_seed(void **state)
{
  mcp_market *m;
  mcp_portfolio *p;
  mixed_book(&m, &p, 20000, 7);
  mcp_estimate a[SNAP_CAP], b[SNAP_CAP], c[SNAP_CAP];
  mcp_results *r = price(ctx_of(state), m, p);
  size_t n = snapshot(r, a, SNAP_CAP);
  assert_int_equal(mcp_results_seed(r), 7);
  mcp_results_destroy(r);
  r = price(ctx_of(state), m, p);
  snapshot(r, b, SNAP_CAP);
  mcp_results_destroy(r);
  assert_same_bits("same seed", a, b, n);
  assert_int_equal(mcp_portfolio_set_seed(p, 8), MCP_OK);
  r = price(ctx_of(state), m, p);
  snapshot(r, c, SNAP_CAP);
  mcp_results_destroy(r);
  for (size_t i = 0; i < n; i++)
    if (a[i].price == c[i].price || a[i].std_error == c[i].std_error)
      fail_msg("estimate %zu unchanged by a new seed: %.17g", i, a[i].price);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 7. independent streams per underlying ----------------------------- */

static void test_stream_independence(void **state)
{
  const bs_params u = {100, 0.03, 0.0, 0.3};
  double monthly[12];
  even_fixings(monthly, 12, 1.0);
  mcp_market *m = new_market();
  add_underlying(m, "X", u);
  add_underlying(m, "Y", u); /* same parameters, another name */
  mcp_portfolio *alone = new_portfolio(20000, 9), *with = new_portfolio(20000, 9);
  /* the other underlying's trades come first, shifting indices and job order */
  add_european(with, "y_call", "Y", MCP_CALL, 100, 1.0, 1);
  add_asian(with, "y_asian", "Y", MCP_ARITHMETIC, MCP_CALL, 100, 12, monthly, 1.0, 1);
  mcp_portfolio *both[] = {alone, with};
  for (int i = 0; i < 2; i++) {
    add_european(both[i], "x_call", "X", MCP_CALL, 100, 1.0, 1);
    add_asian(both[i], "x_asian", "X", MCP_ARITHMETIC, MCP_CALL, 100, 12, monthly, 1.0, 1);
  }
  mcp_results *ra = price(ctx_of(state), m, alone), *rw = price(ctx_of(state), m, with);
  const char *ids[] = {"x_call", "x_asian"};
  for (int i = 0; i < 2; i++) {
    mcp_estimate a = estimate(ra, ids[i]), w = estimate(rw, ids[i]);
    assert_same_bits(ids[i], &a, &w, 1);
  }
  /* identical trades on identically specified underlyings draw other normals */
  assert_true(estimate(rw, "x_call").price != estimate(rw, "y_call").price);
  assert_true(estimate(rw, "x_asian").price != estimate(rw, "y_asian").price);
  mcp_results_destroy(ra);
  mcp_results_destroy(rw);
  mcp_portfolio_destroy(alone);
  mcp_portfolio_destroy(with);
  mcp_market_destroy(m);
}

/* ---- 8. the book --------------------------------------------------------- */

static int rel_close(double a, double b, double tol)
{
  return fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
}

static void test_book(void **state)
{
  mcp_market *m;
  mcp_portfolio *p;
  mixed_book(&m, &p, 50000, 13);
  mcp_results *r = price(ctx_of(state), m, p);
  /* total = sum of quantity x price; its std error obeys the triangle
   * inequality within an underlying and adds in quadrature across them */
  double sum = 0, abs_sum = 0, sd_x = 0, sd_y = 0;
  for (size_t i = 0; i < mcp_results_count(r); i++) {
    mcp_estimate e;
    assert_int_equal(mcp_results_trade(r, i, &e), MCP_OK);
    double q = mcp_results_quantity(r, i);
    sum += q * e.price;
    abs_sum += fabs(q * e.price);
    *(mcp_results_trade_id(r, i)[0] == 'x' ? &sd_x : &sd_y) += fabs(q) * e.std_error;
  }
  mcp_estimate t = total(r);
  assert_true(fabs(t.price - sum) <= 1e-12 * abs_sum);
  assert_true(t.std_error > 0);
  assert_true(t.std_error <= sqrt(sd_x * sd_x + sd_y * sd_y) * (1 + 1e-12));
  assert_true(fabs(t.ci_high - t.ci_low - 2 * MCPI_Z95 * t.std_error) <= 1e-12 * t.ci_high);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);

  /* a long and a short of one call cancel on every path: exactly zero */
  p = new_portfolio(50000, 13);
  add_european(p, "long", "X", MCP_CALL, 100, 1.0, 1);
  add_european(p, "short", "X", MCP_CALL, 100, 1.0, -1);
  r = price(ctx_of(state), m, p);
  t = total(r);
  assert_true(t.price == 0.0 && t.std_error == 0.0);
  assert_true(estimate(r, "long").std_error > 0);
  mcp_results_destroy(r);
  /* with one more trade on another underlying the book is that trade alone */
  add_european(p, "y_call", "Y", MCP_CALL, 55, 0.5, 10);
  r = price(ctx_of(state), m, p);
  t = total(r);
  mcp_estimate y = estimate(r, "y_call");
  assert_true(rel_close(t.price, 10 * y.price, 1e-12));
  assert_true(rel_close(t.std_error, 10 * y.std_error, 1e-10));
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 9. refined and explicit time grids -------------------------------- */

/* Number of simulation steps the plan gives the portfolio's first job. */
static size_t first_job_steps(const mcp_market *m, const mcp_portfolio *p)
{
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK)
    fail_msg("plan: %s", err);
  size_t n = plan.jobs[0].nsteps;
  mcpi_plan_free(&plan);
  return n;
}

/* The plan of one thread and of four (plan.c: a large book's trades keyed
 * and its jobs built on the host's threads): the same jobs, trades, streams,
 * steps and specs; a failing trade's or job's error is the first one's. */
static mcpi_plan plan_on(const mcp_market *m, const mcp_portfolio *p, int threads,
                         mcp_status want, const char *says)
{
  mcpi_plan plan;
  char err[MCPI_ERRLEN] = "";
  omp_set_num_threads(threads);
  mcp_status st = mcpi_plan_build(m, p, NULL, &plan, err);
  omp_set_num_threads(omp_get_num_procs());
  if (st != want || (says && !strstr(err, says)))
    fail_msg("%d threads: status %d, '%s'; expected %d, '%s'", threads, st, err, want,
             says ? says : "");
  return plan;
}

/* The plan's host teams (team.h): a thread a grain, at least one, at most
 * half the processors (two at least) and OpenMP's own count. */
static void test_team(void **state)
{
  (void)state;
  int procs = omp_get_num_procs(), half = procs / 2 > 2 ? procs / 2 : 2;
  for (int most = 1; most <= 2 * procs; most++) {
    omp_set_num_threads(most);
    int cap = half < most ? half : most;
    for (size_t work = 0; work < 64; work++) {
      size_t want = (work + 7) / 8;
      int got = mcpi_team(work, 8), expect = want < 1 ? 1 : want < (size_t)cap ? (int)want : cap;
      if (got != expect)
        fail_msg("%d threads, %zu values of grains of 8: a team of %d, expected %d", most, work,
                 got, expect);
    }
  }
  omp_set_num_threads(procs);
}

static void test_parallel_plan(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  char name[16], id[16];
  for (int u = 0; u < 12; u++) {
    snprintf(name, sizeof name, "U%d", u);
    add_underlying(m, name, (bs_params){50 + 10 * u, 0.03, 0.01, 0.2 + 0.01 * u});
  }
  assert_int_equal(mcp_market_add_heston(m, "H1", 100, 0.02, 0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_add_heston(m, "H2", 90, 0.02, 0, 0.05, 1.2, 0.05, 0.4, -0.5),
                   MCP_OK);
  const double fix[3] = {0.25, 0.5, 1};
  mcp_portfolio *p = new_portfolio(1000, 5);
  for (int k = 0; k < 600; k++) { /* beyond MCPI_PARALLEL_TRADES, 12 jobs and more */
    snprintf(name, sizeof name, "U%d", k % 12);
    snprintf(id, sizeof id, "A%d", k);
    add_asian(p, id, k == 100 ? "H1" : k == 300 ? "H2" : name, MCP_ARITHMETIC,
              k % 2 ? MCP_CALL : MCP_PUT, 50 + 10 * (k % 12), 3, fix, 1 + (k % 5) * 0.5, 1);
  }
  mcpi_plan a = plan_on(m, p, 1, MCP_OK, NULL), b = plan_on(m, p, 4, MCP_OK, NULL);
  assert_true(a.njobs >= MCPI_PARALLEL_JOBS && a.njobs == b.njobs);
  /* one job an underlying (12 and the two Heston ones: an underlying's
   * fixings and its 5 maturities fit one job's schedules), each trade in
   * one job, a job's trades in the book's order and on its underlying (the
   * keys' trades gathered by hash, plan.c) */
  assert_int_equal(a.njobs, 14);
  unsigned char in[600] = {0};
  for (size_t k = 0; k < a.njobs; k++)
    for (size_t t = 0; t < a.jobs[k].nreal; t++) {
      size_t i = a.jobs[k].trade[t];
      assert_true(i < 600 && !in[i] && (t == 0 || a.jobs[k].trade[t - 1] < i));
      assert_string_equal(a.jobs[k].u[0]->name, p->t[i].asset[0]);
      in[i] = 1;
    }
  assert_null(memchr(in, 0, sizeof in));
  for (size_t k = 0; k < a.njobs; k++) {
    const mcpi_job *x = &a.jobs[k], *y = &b.jobs[k];
    assert_true(x->ntrades == y->ntrades && x->nsteps == y->nsteps && x->stream == y->stream);
    assert_memory_equal(x->trade, y->trade, x->nreal * sizeof *x->trade);
    assert_memory_equal(x->times, y->times, x->nsteps * sizeof *x->times);
    for (size_t t = 0; t < x->ntrades; t++) { /* field by field: padding is not the plan */
      const mcpi_payoff_spec *c = &x->spec[t], *d = &y->spec[t];
      assert_true(c->schedule == d->schedule && c->terminal == d->terminal &&
                  c->monitor == d->monitor && c->flags == d->flags && c->strike == d->strike &&
                  c->discount == d->discount && c->quantity == d->quantity);
    }
  }
  mcpi_plan_free(&a);
  mcpi_plan_free(&b);
  /* the Heston jobs (the trades A100 and A300 lead them) fail without steps
   * between their dates: the first one's error, however many threads */
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 0), MCP_OK);
  for (int t = 1; t <= 4; t *= 4)
    plan_on(m, p, t, MCP_ERR_INPUT, "trade 'A100': run.steps_per_year: 0 leaves underlying 'H1'");
  /* two trades on underlyings the market lacks, late in the book: the first */
  add_asian(p, "late1", "NOPE1", MCP_ARITHMETIC, MCP_CALL, 100, 3, fix, 1, 1);
  add_asian(p, "late2", "NOPE2", MCP_ARITHMETIC, MCP_CALL, 100, 3, fix, 1, 1);
  for (int t = 1; t <= 4; t *= 4)
    plan_on(m, p, t, MCP_ERR_NOT_FOUND, "trade 'late1': underlying: 'NOPE1' is not in the market");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The CPU's groups of paths (backend_cpu.c) give the bits of each path run
 * alone, for every single-asset model, product family and method, and for
 * the Greeks' passes: a book priced both ways, and its Greeks. */
static void test_cpu_groups(void **state)
{
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0.01, 0.25});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0.0, 0.04, 1.5, 0.04, 0.5, -0.7),
                   MCP_OK);
  assert_int_equal(mcp_market_add_merton(m, "M", 100, 0.03, 0.0, 0.2, 0.5, -0.1, 0.15), MCP_OK);
  add_underlying(m, "P", (bs_params){100, 0.02, 0.0, 0.3});
  const double lt[2] = {0.2, 1}, ls[3] = {80, 100, 125}, lv[6] = {0.3, 0.22, 0.18, 0.26, 0.2, 0.19};
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0.02, 0.01, 2, lt, 3, ls, lv), MCP_OK);
  double daily[63], monthly[12];
  for (int i = 0; i < 63; i++)
    daily[i] = (i + 1) / 252.0;
  for (int i = 0; i < 12; i++)
    monthly[i] = (i + 1) / 12.0;
  static const int methods[] = {0, MCP_ANTITHETIC, MCP_CONTROL_VARIATE, MCP_QMC};
  /* with vega and rho on the path (the Greeks' state: paths alone), and
   * without (the digital's likelihood-ratio delta in the groups) */
  mcp_greeks *g[2];
  for (int k = 0; k < 2; k++) {
    assert_int_equal(mcp_greeks_create(&g[k]), MCP_OK);
    assert_int_equal(mcp_greeks_parse(g[k], k ? "delta,gamma" : "delta,gamma,vega,rho"), MCP_OK);
  }
  for (size_t k = 0; k < sizeof methods / sizeof *methods; k++) {
    if (methods[k] == MCP_QMC && !HAVE_QMC)
      continue;
    mcp_portfolio *p = new_portfolio(3002, 11 + k); /* even: antithetic samples are pairs */
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
    assert_int_equal(mcp_portfolio_set_methods(p, methods[k]), MCP_OK);
    add_european(p, "e", "A", MCP_CALL, 100, 0.25, 1);
    add_asian(p, "daily", "A", MCP_ARITHMETIC, MCP_CALL, 100, 63, daily, 0.25, 1);
    add_asian(p, "geo", "A", MCP_GEOMETRIC, MCP_PUT, 100, 12, monthly, 1.0, 1);
    mcp_trade b = trade_on("b", "A", MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1.0);
    b.barrier_kind = MCP_UP_AND_OUT;
    b.barrier = 130;
    b.monitoring = MCP_MONITOR_BRIDGE;
    add_trade(p, &b);
    mcp_trade l = trade_on("l", "A", MCP_PRODUCT_LOOKBACK, MCP_PUT, 100, 1.0);
    l.nfixings = 12;
    l.fixings = monthly;
    add_trade(p, &l);
    add_european(p, "h", "H", MCP_CALL, 100, 1.0, 1);
    add_european(p, "m", "M", MCP_PUT, 100, 1.0, 1);
    /* P's job has the plain shape (lanes.c's arrays across the group) */
    add_european(p, "pe", "P", MCP_PUT, 95, 0.25, 1);
    add_asian(p, "pa", "P", MCP_ARITHMETIC, MCP_CALL, 100, 63, daily, 0.25, 1);
    mcp_trade d = trade_on("pd", "P", MCP_PRODUCT_DIGITAL, MCP_CALL, 105, 0.25);
    d.cash = 10;
    add_trade(p, &d);
    /* local volatility, and the bridge's extremes on it and on Heston */
    add_european(p, "le", "L", MCP_CALL, 105, 1.0, 1);
    b.id = "lb";
    b.underlying = "L";
    add_trade(p, &b);
    mcp_trade x = trade_on("lx", "L", MCP_PRODUCT_LOOKBACK, MCP_CALL, 100, 1.0);
    x.monitoring = MCP_MONITOR_BRIDGE;
    add_trade(p, &x);
    x.id = "hx";
    x.underlying = "H";
    x.strike_kind = MCP_FLOATING_STRIKE;
    x.strike = 0;
    add_trade(p, &x);
    mcp_results *r[3][2]; /* prices, the two Greeks; groups on and off */
    /* groups on in each vector copy of the host (k-th method: copy k mod 3) */
    int cap = mcpi_rng_host_copy((int)(k % 3));
    for (int on = 1; on >= 0; on--) {
      int prev = mcpi_cpu_groups(on);
      r[0][on] = price(ctx_of(state), m, p);
      for (int k = 0; k < 2; k++)
        if (mcp_price_greeks(ctx_of(state), m, p, g[k], &r[1 + k][on]) != MCP_OK)
          fail_msg("greeks: %s", mcp_context_last_error(ctx_of(state)));
      mcpi_cpu_groups(prev);
    }
    for (int kind = 0; kind < 3; kind++) {
      const mcp_results *x = r[kind][1], *y = r[kind][0];
      assert_int_equal(mcp_results_count(x), mcp_results_count(y));
      for (size_t i = 0; i <= mcp_results_count(x); i++) {
        mcp_estimate u, v;
        if (i < mcp_results_count(x)) {
          mcp_results_trade(x, i, &u);
          mcp_results_trade(y, i, &v);
        } else {
          mcp_results_total(x, &u);
          mcp_results_total(y, &v);
        }
        if (memcmp(&u, &v, sizeof u))
          fail_msg("methods %d, %s: groups %.17g +- %.17g, alone %.17g +- %.17g", methods[k],
                   i < mcp_results_count(x) ? mcp_results_trade_id(x, i) : "TOTAL", u.price,
                   u.std_error, v.price, v.std_error);
        size_t n = mcp_results_sensitivities(x, i);
        assert_int_equal(n, mcp_results_sensitivities(y, i));
        for (size_t s = 0; s < n; s++) {
          mcp_sensitivity a, c;
          mcp_results_sensitivity(x, i, s, &a);
          mcp_results_sensitivity(y, i, s, &c);
          if (memcmp(&a.value, &c.value, sizeof a.value))
            fail_msg("methods %d, index %zu, %s: groups %.17g, alone %.17g", methods[k], i,
                     a.name, a.value.price, c.value.price);
        }
      }
    }
    for (int kind = 0; kind < 3; kind++)
      for (int on = 0; on < 2; on++)
        mcp_results_destroy(r[kind][on]);
    mcpi_rng_host_copy(cap);
    mcp_portfolio_destroy(p);
  }
  for (int k = 0; k < 2; k++)
    mcp_greeks_destroy(g[k]);
  mcp_market_destroy(m);
}

/* A local-volatility underlying at 100 with a small skewed surface (two
 * times, three spots) at the given rate, dividend yield 1%. */
static void add_skew_surface(mcp_market *m, const char *name, double rate)
{
  const double t[2] = {0.5, 3}, s[3] = {80, 100, 120}, v[6] = {0.3, 0.25, 0.2, 0.28, 0.24, 0.2};
  assert_int_equal(mcp_market_add_local_vol(m, name, 100, rate, 0.01, 2, t, 3, s, v), MCP_OK);
}

/* A daily grid on flat curves is one step repeated: the plan gives every
 * step the same coefficients (the grid's rounding aside), and the view says
 * so with the tags the GPU's plain kernels take as constants (a step of one
 * element, Black-Scholes or local volatility, or a Heston asset's two: the
 * first observes nothing), and a Heston European's check's pass repeats
 * every two steps, held then merged (its coarse path's constants); a
 * volatility or rate curve with a knot inside the grid keeps the steps apart. */
static void test_equal_steps(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  add_underlying(m, "A", (bs_params){100, 0.03, 0.01, 0.25});
  add_underlying(m, "K", (bs_params){100, 0.03, 0.01, 0.25});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.03, 0.01, 0.05, 1.2, 0.04, 0.6, -0.7),
                   MCP_OK);
  add_skew_surface(m, "V", 0.03);
  /* the same Heston and local-volatility assets on a rate curve with a knot */
  assert_int_equal(mcp_market_add_heston(m, "HK", 100, 0.03, 0.01, 0.05, 1.2, 0.04, 0.6, -0.7),
                   MCP_OK);
  add_skew_surface(m, "VK", 0.03);
  const double end[2] = {0.5, 2}, vol[2] = {0.25, 0.3}, rate[2] = {0.03, 0.035};
  assert_int_equal(mcp_market_set_curve(m, "K", MCP_CURVE_VOLATILITY, 2, end, vol), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "HK", MCP_CURVE_RATE, 2, end, rate), MCP_OK);
  assert_int_equal(mcp_market_set_curve(m, "VK", MCP_CURVE_RATE, 2, end, rate), MCP_OK);
  static const int counts[] = {13, 252, 255, 1260};
  static const char *const under[] = {"A", "A", "K", "H", "H", "V", "V", "HK", "VK"};
  double fix[1260];
  for (size_t c = 0; c < 4; c++)
    for (int kind = 0; kind < 9; kind++) {
      int n = counts[c], european = kind % 2 == 1 && kind < 7,
          F = kind == 3 || kind == 4 || kind == 7 ? 2 : 1;
      mcp_portfolio *p = new_portfolio(1000, 1);
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
      for (int i = 0; i < n; i++)
        fix[i] = (i + 1) / 252.0;
      if (european)
        add_european(p, "e", under[kind], MCP_PUT, 95, n / 252.0, 1);
      else
        add_asian(p, "a", under[kind], MCP_ARITHMETIC, MCP_CALL, 100, (size_t)n, fix,
                  n / 252.0, 1);
      mcpi_plan plan;
      char err[MCPI_ERRLEN];
      if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK)
        fail_msg("plan: %s", err);
      const mcpi_job *j = &plan.jobs[0];
      mcpi_job_view v = mcpi_job_host_view(j);
      assert_int_equal(v.nelem, n * F);
      if ((kind == 2 || kind >= 7) && n > 126) { /* the knot at 0.5 lies inside */
        assert_int_equal(v.uniform, 0);
      } else {
        uint32_t last = MCPI_TAG_LAST | (uint32_t)(F - 1) << MCPI_TAG_FACTOR_SHIFT;
        assert_int_equal(v.uniform, 1);
        assert_int_equal(v.u[F - 1].tag, european ? last : (last | 1u));
        assert_true(v.utag_last & MCPI_TAG_LAST);
        for (int f = 0; f < F; f++) {
          assert_true(v.u[f].a == j->ca[(size_t)(n - 1) * F + f]);
          assert_true(v.u[f].b == j->cb[(size_t)(n / 2) * F + f]);
          assert_true(v.u[f].a_f == j->ca_f[(size_t)(n / 3) * F + f]);
          assert_true(v.u[f].b_f == j->cb_f[(size_t)(n / 3) * F + f]);
        }
        if (F == 2) /* the variance's element: factor 0, no observation */
          assert_int_equal(v.u[0].tag, 0);
      }
      assert_int_equal(v.paired, 0);
      if (kind == 3) { /* the check's pass of a Heston European: pairs, held then merged */
        mcpi_settings set = {0};
        mcpi_greek_run g = {0};
        assert_int_equal(mcpi_grid_layout(&set, &plan, &g, err), MCP_OK);
        const mcpi_job *c = &g.var[plan.jobs[0].pass[0]].plan.jobs[0];
        mcpi_job_view w = mcpi_job_host_view(c);
        assert_int_equal(w.uniform, 0);
        assert_int_equal(w.paired, 1);
        /* every element but the last step's is its place's in the period */
        for (size_t e = 0; e + 2 < c->nelem; e++) {
          const mcpi_uniform_element *u = &w.u[e % 4];
          assert_true(u->a == c->ca[e] && u->b == c->cb[e] && u->a_f == c->ca_f[e] &&
                      u->b_f == c->cb_f[e] && u->tag == c->tag[e]);
        }
        uint32_t last = MCPI_TAG_LAST | 1u << MCPI_TAG_FACTOR_SHIFT;
        assert_int_equal(w.u[0].tag, MCPI_TAG_HOLD);
        assert_int_equal(w.u[1].tag, last | MCPI_TAG_HOLD);
        assert_int_equal(w.u[2].tag, MCPI_TAG_MERGE);
        assert_int_equal(w.u[3].tag, last | MCPI_TAG_MERGE);
        /* an odd count's last step is its own: read from the arrays */
        assert_int_equal(!!(c->tag[c->nelem - 1] & MCPI_TAG_MERGE), n % 2 == 0);
        mcpi_greeks_free(&g);
      }
      mcpi_plan_free(&plan);
      mcp_portfolio_destroy(p);
    }
  /* a pass of one pair is paired; of two steps, both its last, not; on a
   * rate curve with a knot inside its pairs differ, not (outside, paired) */
  static const struct {
    const char *u;
    int n, paired;
  } pc[] = {{"H", 3, 1}, {"H", 2, 0}, {"HK", 252, 0}, {"HK", 100, 1}};
  for (size_t k = 0; k < sizeof pc / sizeof *pc; k++) {
    mcp_portfolio *p = new_portfolio(1000, 1);
    assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
    add_european(p, "e", pc[k].u, MCP_PUT, 95, pc[k].n / 252.0, 1);
    mcpi_plan plan;
    char err[MCPI_ERRLEN];
    if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK)
      fail_msg("plan: %s", err);
    mcpi_settings set = {0};
    mcpi_greek_run g = {0};
    assert_int_equal(mcpi_grid_layout(&set, &plan, &g, err), MCP_OK);
    assert_int_equal(plan.jobs[0].npass, 1);
    mcpi_job_view w = mcpi_job_host_view(&g.var[plan.jobs[0].pass[0]].plan.jobs[0]);
    if (w.paired != pc[k].paired)
      fail_msg("%s, %d steps: paired %d", pc[k].u, pc[k].n, (int)w.paired);
    mcpi_greeks_free(&g);
    mcpi_plan_free(&plan);
    mcp_portfolio_destroy(p);
  }
  mcp_market_destroy(m);
}

/* The surface at time t and node k, linear in time between its rows and
 * flat outside them: the test's own reading of the market's rule. */
static double surface_at(const double *t, size_t nt, const double *v, size_t ns, double u,
                         size_t k)
{
  if (u <= t[0])
    return v[k];
  for (size_t i = 1; i < nt; i++)
    if (u <= t[i]) {
      double a = v[(i - 1) * ns + k], b = v[i * ns + k];
      return a + (u - t[i - 1]) / (t[i] - t[i - 1]) * (b - a);
    }
  return v[(nt - 1) * ns + k];
}

/* The local-volatility lookup (local_vol.h): mcpi_local_vol_together, the
 * adjoint kernel's, gives mcpi_local_vol's bits, and both the linear
 * interpolation on the interval a plain search finds, flat beyond the ends,
 * on node sets of 1 to 9 nodes, even and uneven, in double and float; at the
 * nodes, between them, outside, at infinities and NaN; with the planner's
 * bucket table, and with each bucket's interval one too high (the search
 * steps down from it, as where a bucket's edge rounds above a node). */
static void test_lv_lookup(void **state)
{
  (void)state;
  static const double sets[][9] = {{0.1},
                                   {-0.5, 0.5},
                                   {-1, 0, 0.001},
                                   {-2, -1.9, 0.3, 0.31, 2},
                                   {-1, -0.5, 0, 0.5, 1, 1.5, 2, 2.5, 3},
                                   {-3, -2.999, -2.998, 0, 0.2, 0.2001, 1, 4, 4.5}};
  static const int sizes[] = {1, 2, 3, 5, 9, 9};
  unsigned long long seed = 7;
  for (size_t k = 0; k < 2 * sizeof sizes / sizeof *sizes; k++) {
    int n = sizes[k / 2], nb = n > 1 ? 4 * n : 1;
    const double *y = sets[k / 2];
    double v[9];
    float yf[9], vf[9];
    int32_t idx[36];
    double binv = mcpi_local_vol_buckets(y, n, nb, idx);
    for (int b = 0; k % 2 && b < nb; b++) /* each bucket's interval one too high: a step down */
      idx[b] = idx[b] + 2 < n ? idx[b] + 1 : idx[b];
    for (int i = 0; i < n; i++)
      v[i] = 0.1 + 0.05 * i * i - 0.01 * i, yf[i] = (float)y[i], vf[i] = (float)v[i];
    for (int s = 0; s < 400; s++) {
      double x;
      if (s < 5 * n) /* each node, beside it, and the doubles next to it (a
                      * bucket's edge there: its interval one above x's) */
        x = s % 5 < 3 ? y[s / 5] + (s % 5 - 1) * 1e-12
                      : nextafter(y[s / 5], s % 5 == 3 ? -INFINITY : INFINITY);
      else if (s < 5 * n + 4)
        x = (const double[]){INFINITY, -INFINITY, NAN, y[0] - 1}[s - 5 * n];
      else
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL,
        x = y[0] - 1 + (y[n - 1] - y[0] + 2) * (double)(seed >> 11) / 9007199254740992.0;
      double a = mcpi_local_vol(y, v, n, idx, nb, binv, x);
      double b = mcpi_local_vol_together(y, v, n, idx, nb, binv, x);
      float af = mcpi_local_vol_f(yf, vf, n, idx, nb, (float)binv, (float)x);
      float bf = mcpi_local_vol_f_together(yf, vf, n, idx, nb, (float)binv, (float)x);
      if (memcmp(&a, &b, sizeof a) || memcmp(&af, &bf, sizeof af))
        fail_msg("set %zu, x %.17g: %.17g against %.17g (float %.9g against %.9g)", k / 2, x, a, b,
                 af, bf);
      int i = 0; /* the plain search: y[i] <= x < y[i + 1] */
      while (i + 1 < n && y[i + 1] <= x)
        i++;
      double want = !(x > y[0])   ? v[0]
                    : x >= y[n - 1] ? v[n - 1]
                                    : v[i] + (x - y[i]) / (y[i + 1] - y[i]) * (v[i + 1] - v[i]);
      if (!(fabs(a - want) <= 1e-15 * want))
        fail_msg("set %zu (table %zu), x %.17g: %.17g, the search's interval gives %.17g", k / 2,
                 k % 2, x, a, want);
    }
  }
}

/* A local-volatility job's slices are each step's root mean square of the
 * surface over the step, node by node: here 150 nodes (more than a block
 * of the plan's pass over them), steps before the first row, across one or
 * several rows and beyond the last, daily (the plan's threads take them:
 * MCPI_PARALLEL_SLICES).  Each slice has the bits of the step's slice
 * computed alone, and at every 16th step it matches a composite Simpson
 * rule of the test's own interpolation; the float slices are the double's
 * rounded.  The discretisation check's coarse job has at each merged step
 * the slice over the pair, and elsewhere the job's. */
static void test_lv_slices(void **state)
{
  (void)state;
  enum { NT = 7, NS = 150, NFIX = 40 };
  double t[NT] = {0.1, 0.11, 0.12, 0.5, 0.52, 1.3, 2}, s[NS], v[NT * NS], fix[NFIX];
  double alone[NS];
  float alone_f[NS];
  for (size_t k = 0; k < NS; k++)
    s[k] = 50 + k;
  for (size_t i = 0; i < NT; i++)
    for (size_t k = 0; k < NS; k++)
      v[i * NS + k] = 0.2 + 0.08 * sin(0.05 * (double)k + (double)i) * (1 + 0.3 * t[i]);
  mcp_market *m = new_market();
  assert_int_equal(mcp_market_add_local_vol(m, "L", 100, 0.03, 0.01, NT, t, NS, s, v), MCP_OK);
  even_fixings(fix, NFIX, 2.6);
  mcp_portfolio *p = new_portfolio(1000, 1);
  assert_int_equal(mcp_portfolio_set_steps_per_year(p, 252), MCP_OK);
  add_asian(p, "a", "L", MCP_ARITHMETIC, MCP_CALL, 100, NFIX, fix, 2.6, 1);
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK)
    fail_msg("plan: %s", err);
  const mcpi_job *j = &plan.jobs[0];
  assert_int_equal(j->lv_n, NS);
  assert_true(j->nsteps * NS >= MCPI_PARALLEL_SLICES);
  for (size_t i = 0; i < j->nsteps; i++) {
    double t0 = i ? j->times[i - 1] : 0, t1 = j->times[i];
    size_t r = 0;
    mcpi_job_slice(j, 0, t0, t1, &r, alone, alone_f);
    assert_memory_equal(j->lv_vol + i * NS, alone, sizeof alone);
    assert_memory_equal(j->lv_vol_f + i * NS, alone_f, sizeof alone_f);
    for (size_t k = 0; k < NS && i % 16 == 0; k++) {
      enum { M = 1000 }; /* Simpson's intervals */
      double h = (t1 - t0) / M, sum = 0;
      for (int q = 0; q <= M; q++) {
        double x = surface_at(t, NT, v, NS, t0 + q * h, k);
        sum += (q == 0 || q == M ? 1 : q % 2 ? 4 : 2) * x * x;
      }
      double want = sqrt(sum * h / 3 / (t1 - t0)), got = j->lv_vol[i * NS + k];
      if (fabs(got - want) > 1e-6 * want) /* Simpson across the rows' kinks */
        fail_msg("step %zu node %zu: slice %.17g, quadrature %.17g", i, k, got, want);
      assert_true(j->lv_vol_f[i * NS + k] == (float)got);
    }
  }
  mcpi_settings set = {0};
  mcpi_greek_run g = {0};
  assert_int_equal(mcpi_grid_layout(&set, &plan, &g, err), MCP_OK);
  const mcpi_job *c = &g.var[j->pass[0]].plan.jobs[0];
  size_t merged = 0;
  for (size_t i = 0; i < j->nsteps; i++) {
    const double *got = c->lv_vol + i * NS;
    if (c->tag[i] & MCPI_TAG_MERGE) {
      size_t r = 0;
      mcpi_job_slice(j, 0, i > 1 ? j->times[i - 2] : 0, j->times[i], &r, alone, alone_f);
      assert_memory_equal(got, alone, sizeof alone);
      merged++;
    } else {
      assert_memory_equal(got, j->lv_vol + i * NS, sizeof alone);
    }
  }
  assert_true(merged > 0 && j->nsteps * NS >= 2 * MCPI_PARALLEL_SLICES); /* its threads too */
  mcpi_greeks_free(&g);
  mcpi_plan_free(&plan);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

static void test_time_grid(void **state)
{
  const bs_params u = {100, 0.02, 0.01, 0.25};
  const struct {
    const char *id;
    mcp_option_type type;
    double strike, maturity;
  } trades[] = {{"c_half", MCP_CALL, 100, 0.5}, {"p_long", MCP_PUT, 110, 2.5},
                {"c_odd", MCP_CALL, 90, 1.3}};
  mcp_market *m = new_market();
  add_underlying(m, "X", u);
  mcp_portfolio *p = new_portfolio(100000, 17);
  for (size_t i = 0; i < 3; i++)
    add_european(p, trades[i].id, "X", trades[i].type, trades[i].strike, trades[i].maturity, 1);
  mcp_results *coarse = price(ctx_of(state), m, p);
  assert_int_equal(first_job_steps(m, p), 3);

  const double grid[] = {0.05, 0.3, 0.5, 0.7, 2.0, 3.0, 4.0};
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 0) {
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 52), MCP_OK);
      /* 52 steps a year to 2.5 years, with 0.5 and 1.3 merged in */
      assert_int_equal(first_job_steps(m, p), 130 + 1);
    } else {
      assert_int_equal(mcp_portfolio_set_steps_per_year(p, 0), MCP_OK);
      assert_int_equal(mcp_portfolio_set_time_grid(p, 7, grid), MCP_OK);
      /* grid times after the last event are dropped, 0.5 is shared */
      assert_int_equal(first_job_steps(m, p), 3 + 4);
    }
    mcp_results *r = price(ctx_of(state), m, p);
    for (size_t i = 0; i < 3; i++) {
      assert_bs(trades[i].id, r, u, trades[i].type, trades[i].strike, trades[i].maturity);
      /* the normals now come from other steps: the grid was used */
      assert_true(estimate(r, trades[i].id).price != estimate(coarse, trades[i].id).price);
    }
    mcp_results_destroy(r);
  }
  mcp_results_destroy(coarse);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 10. the fixed-order chunk reduction ------------------------------- */

static void test_chunk_sums(void **state)
{
  double v[MCP_CHUNK_PATHS], sum, sumsq;
  for (int i = 0; i < MCP_CHUNK_PATHS; i++)
    v[i] = i + 1;
  mcpi_chunk_sums(v, MCP_CHUNK_PATHS, &sum, &sumsq);
  assert_true(sum == 32896.0 && sumsq == 5625216.0);
  /* a partial chunk counts the rest as zeros and never reads them */
  for (int i = 100; i < MCP_CHUNK_PATHS; i++)
    v[i] = NAN;
  mcpi_chunk_sums(v, 100, &sum, &sumsq);
  assert_true(sum == 5050.0 && sumsq == 338350.0);
  mcpi_chunk_sums(v, 0, &sum, &sumsq);
  assert_true(sum == 0.0 && sumsq == 0.0);
  /* the tree adds v[i] and v[i + 128] first: 1e16 and -1e16 cancel before
   * the 1 is added, where a running sum would lose the 1 */
  memset(v, 0, sizeof v);
  v[0] = 1e16;
  v[1] = 1;
  v[128] = -1e16;
  mcpi_chunk_sums(v, MCP_CHUNK_PATHS, &sum, &sumsq);
  assert_true(sum == 1.0);
  /* the bits of the whole tree of 256, the zeros stored, at every count:
   * values of mixed signs and sizes, negative zeros among them */
  for (size_t n = 0; n <= MCP_CHUNK_PATHS; n++) {
    double a[MCP_CHUNK_PATHS], b[MCP_CHUNK_PATHS];
    for (size_t i = 0; i < MCP_CHUNK_PATHS; i++) {
      v[i] = i % 7 == 0 ? -0.0 : (i % 2 ? -1.0 : 1.0) * ldexp(1.0 + i / 3.0, (int)(i % 61) - 30);
      a[i] = i < n ? v[i] : 0.0;
      b[i] = a[i] * a[i];
    }
    for (size_t h = MCP_CHUNK_PATHS / 2; h >= 1; h /= 2)
      for (size_t i = 0; i < h; i++) {
        a[i] += a[i + h];
        b[i] += b[i + h];
      }
    mcpi_chunk_sums(v, n, &sum, &sumsq);
    if (memcmp(&sum, &a[0], sizeof sum) || memcmp(&sumsq, &b[0], sizeof sumsq))
      fail_msg("%zu paths: %a, %a against the whole tree's %a, %a", n, sum, sumsq, a[0], b[0]);
  }

  /* accumulating two chunks and estimating the mean of 1, 2, 3, 4 */
  const double part[] = {3, 5, 7, 25};
  mcpi_accum a = {0, 0, 0};
  mcpi_tree t;
  assert_int_equal(mcpi_tree_init(&t, 1, 0, 2), 0);
  mcpi_tree_add(&t, part, 2, 0, 4);
  mcpi_tree_finish(&t, &a, 1);
  mcpi_tree_free(&t);
  assert_true(a.sum == 10 && a.sumsq == 30 && a.n == 4);
  mcp_estimate e;
  mcpi_estimate(&a, &e);
  double se = sqrt(5.0 / 3.0 / 4.0); /* sample variance 5/3 over n = 4 */
  assert_true(e.price == 2.5);
  assert_true(fabs(e.std_error - se) <= 1e-15);
  assert_true(fabs(e.ci_low - (2.5 - MCPI_Z95 * se)) <= 1e-15);
  assert_true(fabs(e.ci_high - (2.5 + MCPI_Z95 * se)) <= 1e-15);
  /* constant data has no error, even where rounding makes sumsq - sum mean < 0 */
  a = (mcpi_accum){0.3 + 0.6, 0.09 + 0.18, 3};
  mcpi_estimate(&a, &e);
  assert_true(e.std_error >= 0 && e.std_error < 1e-8);
}

/* The chunk sums' tree: the sum of 7 chunks is ((c0 + c1) + (c2 + c3)) +
 * (c4 + c5), then + c6, whatever the tiles; two slices' trees, 0..2 and
 * 3..6, merge into those bits; a node out of place is refused. */
static void test_chunk_tree(void **state)
{
  (void)state;
  /* columns: values where the order of the additions shows */
  const double c[2][7] = {{1e16, 1, -1e16, 1, 3, 5, 7}, {0.1, 0.2, 0.3, 1e-17, 0.7, 1e17, -1e17}};
  double part[2 * 2 * 7];
  for (int col = 0; col < 2; col++)
    for (int k = 0; k < 7; k++) {
      part[2 * (col * 7 + k)] = c[col][k];
      part[2 * (col * 7 + k) + 1] = c[col][k] * 2;
    }
  mcpi_accum whole[2], merged[2];
  mcpi_tree t, a, b, m;
  assert_int_equal(mcpi_tree_init(&t, 2, 0, 7), 0);
  /* tiles of 2, 4 and 1 chunks */
  double tile[2 * 2 * 4];
  const int from[4] = {0, 2, 6, 7};
  for (int s = 0; s < 3; s++) {
    int n = from[s + 1] - from[s];
    for (int col = 0; col < 2; col++)
      memcpy(tile + 2 * col * n, part + 2 * (col * 7 + from[s]), 2 * n * sizeof *tile);
    mcpi_tree_add(&t, tile, (size_t)n, 0, (uint64_t)n * MCP_CHUNK_PATHS);
  }
  mcpi_tree_finish(&t, whole, 1);
  for (int col = 0; col < 2; col++) {
    const double *x = c[col];
    double want = (((x[0] + x[1]) + (x[2] + x[3])) + (x[4] + x[5])) + x[6];
    assert_true(whole[col].sum == want);
    assert_true(whole[col].sumsq == 2 * want);
    assert_int_equal(whole[col].n, 7 * MCP_CHUNK_PATHS);
  }
  /* the tree's order, not the running sum's (16) */
  assert_true(whole[0].sum == 15);
  /* slices 0..2 and 3..6 */
  assert_int_equal(mcpi_tree_init(&a, 2, 0, 7), 0);
  assert_int_equal(mcpi_tree_init(&b, 2, 3, 7), 0);
  for (int col = 0; col < 2; col++)
    memcpy(tile + 2 * col * 3, part + 2 * (col * 7), 6 * sizeof *tile);
  mcpi_tree_add(&a, tile, 3, 0, 3 * MCP_CHUNK_PATHS);
  for (int col = 0; col < 2; col++)
    memcpy(tile + 2 * col * 4, part + 2 * (col * 7 + 3), 8 * sizeof *tile);
  mcpi_tree_add(&b, tile, 4, 0, 4 * MCP_CHUNK_PATHS);
  assert_int_equal(mcpi_tree_init(&m, 2, 0, 7), 0);
  double v[4];
  /* b's first node does not start where m ends */
  for (int col = 0; col < 2; col++)
    memcpy(v + 2 * col, b.val + 2 * col * b.cap, 2 * sizeof *v);
  assert_int_equal(mcpi_tree_push(&m, b.level[0], b.index[0], v), -1);
  const mcpi_tree *parts[2] = {&a, &b};
  for (int s = 0; s < 2; s++) {
    for (size_t d = 0; d < parts[s]->depth; d++) {
      for (int col = 0; col < 2; col++)
        memcpy(v + 2 * col, parts[s]->val + 2 * (col * parts[s]->cap + d), 2 * sizeof *v);
      assert_int_equal(mcpi_tree_push(&m, parts[s]->level[d], parts[s]->index[d], v), 0);
    }
    m.paths += parts[s]->paths;
  }
  mcpi_tree_finish(&m, merged, 1);
  assert_memory_equal(merged, whole, sizeof whole);
  /* nodes of 2 and 4 chunks, summed by halves as the GPU's sums give them
   * (tiles of 4 chunks at level 2, then 2 at level 1, then 1): the same bits */
  mcpi_tree g;
  assert_int_equal(mcpi_tree_init(&g, 2, 0, 7), 0);
  const int span[3][2] = {{0, 4}, {4, 6}, {6, 7}}, lv[3] = {2, 1, 0};
  double mixed[12];
  for (int s = 0; s < 3; s++) {
    double node[4];
    for (int col = 0; col < 2; col++)
      for (int q = 0; q < 2; q++) {
        const double *x = part + 2 * (col * 7 + span[s][0]) + q;
        int n = span[s][1] - span[s][0];
        node[2 * col + q] = n == 4   ? (x[0] + x[2]) + (x[4] + x[6])
                            : n == 2 ? x[0] + x[2]
                                     : x[0];
      }
    mcpi_tree_add(&g, node, (uint64_t)(span[s][1] - span[s][0]), (unsigned)lv[s],
                  (uint64_t)(span[s][1] - span[s][0]) * MCP_CHUNK_PATHS);
    for (int col = 0; col < 2; col++) /* the same nodes as one tile's at level 2 */
      for (int q = 0; q < 2; q++)
        mixed[2 * (col * 3 + s) + q] = node[2 * col + q];
  }
  mcpi_tree_finish(&g, merged, 1);
  assert_memory_equal(merged, whole, sizeof whole);
  /* a tile of 7 chunks at level 2: a node of 4, then of the digits 2 and 1 */
  assert_int_equal(mcpi_tree_nodes(7, 2), 3);
  mcpi_tree h;
  assert_int_equal(mcpi_tree_init(&h, 2, 0, 7), 0);
  mcpi_tree_add(&h, mixed, 7, 2, 7 * MCP_CHUNK_PATHS);
  mcpi_tree_finish(&h, merged, 1);
  assert_memory_equal(merged, whole, sizeof whole);
  mcpi_tree_free(&h);
  /* 391 chunks at level 8 (the 10,000-trade book's tile): 256, 128, 4, 2, 1 */
  const unsigned want_lv[5] = {8, 7, 2, 1, 0};
  const uint64_t want_first[5] = {0, 256, 384, 388, 390};
  assert_int_equal(mcpi_tree_nodes(391, 8), 5);
  for (uint64_t k = 0; k < 5; k++) {
    uint64_t first;
    assert_int_equal(mcpi_tree_node(391, 8, k, &first), want_lv[k]);
    assert_int_equal(first, want_first[k]);
  }
  assert_int_equal(mcpi_tree_nodes(512, 8), 2);
  mcpi_tree_free(&g);
  mcpi_tree_free(&t);
  mcpi_tree_free(&a);
  mcpi_tree_free(&b);
  mcpi_tree_free(&m);
}

/* ---- 11. more than eight schedules on one underlying ------------------- */

#define NSCHED 10

static void test_many_schedules(void **state)
{
  const bs_params u = {100, 0.04, 0.01, 0.3};
  double fix[NSCHED][NSCHED + 2];
  char id[NSCHED][16];
  mcp_market *m = new_market();
  add_underlying(m, "X", u);
  mcp_portfolio *p = new_portfolio(100000, 21);
  for (int k = 0; k < NSCHED; k++) {
    even_fixings(fix[k], (size_t)k + 3, 1.0);
    snprintf(id[k], sizeof id[k], "geo_%d", k);
    add_asian(p, id[k], "X", MCP_GEOMETRIC, k % 2 ? MCP_PUT : MCP_CALL, 90 + 2 * k,
              (size_t)k + 3, fix[k], 1.0, 1);
  }
  /* the plan has to split them: at most MCPI_MAX_SCHEDULES per job */
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  assert_int_equal(mcpi_plan_build(m, p, NULL, &plan, err), MCP_OK);
  assert_int_equal(plan.njobs, 2);
  assert_int_equal(plan.jobs[0].nreal + plan.jobs[1].nreal, NSCHED);
  assert_true(plan.jobs[0].stream != plan.jobs[1].stream);
  mcpi_plan_free(&plan);

  mcp_results *r = price(ctx_of(state), m, p);
  for (int k = 0; k < NSCHED; k++)
    assert_geometric(id[k], r, u, k % 2 ? MCP_PUT : MCP_CALL, 90 + 2 * k, (size_t)k + 3,
                     fix[k], 1.0);
  mcp_results_destroy(r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A plan with the Greeks of list laid out, as mcp_price_greeks makes it. */
typedef struct greek_plan {
  mcp_context *ctx;
  mcpi_settings set;
  mcpi_pde_batch pde;
  mcpi_greek_run g;
  mcp_greeks *req;
  mcpi_plan plan;
} greek_plan;

static void greek_plan_make(greek_plan *gp, const mcp_market *m, const mcp_portfolio *p,
                            const char *list, int bump_only, int buckets)
{
  char err[MCPI_ERRLEN];
  *gp = (greek_plan){0};
  assert_int_equal(mcp_context_create(&gp->ctx, MCP_BACKEND_CPU), MCP_OK);
  mcpi_context_settings(gp->ctx, p, &gp->set);
  assert_int_equal(mcpi_plan_build(m, p, NULL, &gp->plan, err), MCP_OK);
  assert_int_equal(mcpi_pde_plan(m, p, &gp->set.pde, &gp->pde, err), MCP_OK);
  assert_int_equal(mcp_greeks_create(&gp->req), MCP_OK);
  assert_int_equal(mcp_greeks_parse(gp->req, list), MCP_OK);
  assert_int_equal(mcp_greeks_set_bump_only(gp->req, bump_only), MCP_OK);
  assert_int_equal(mcp_greeks_set_buckets(gp->req, buckets), MCP_OK);
  assert_int_equal(
      mcpi_greeks_layout(m, p, &gp->set, gp->req, &gp->plan, &gp->pde, &gp->g, err), MCP_OK);
}

static void greek_plan_free(greek_plan *gp)
{
  mcpi_greeks_free(&gp->g);
  mcpi_pde_free(&gp->pde);
  mcpi_plan_free(&gp->plan);
  mcp_greeks_destroy(gp->req);
  mcp_context_destroy(gp->ctx);
}

/* The job-shaped states a plan's jobs fit (mcpi_job_small): a Heston (a
 * local-volatility) asset's Europeans and Asian the Heston (local
 * volatility) plain shape, with the
 * discretisation check's estimators or bumped Greeks too (not the check's
 * coarse pass, nor a Greek on the path); with a barrier (a monitor) none.
 * A Black-Scholes asset's the plain shape; with a bridge barrier, or a
 * Greek on the path, the small one.  A Heston asset by Euler: none. */
static void test_job_shapes(void **state)
{
  (void)state;
  double fix[12];
  even_fixings(fix, 12, 1.0);
  mcp_market *m = new_market();
  add_underlying(m, "X", (bs_params){100, 0.04, 0.01, 0.3});
  assert_int_equal(mcp_market_add_heston(m, "H", 100, 0.02, 0.01, 0.05, 1.2, 0.04, 0.9, -0.7),
                   MCP_OK);
  add_skew_surface(m, "V", 0.02);
  static const int plain[] = {MCPI_SHAPE_PLAIN, MCPI_SHAPE_HESTON_PLAIN, MCPI_SHAPE_LV_PLAIN};
  for (int u = 0; u < 3; u++)
    for (int barrier = 0; barrier < 2; barrier++) {
      const char *und = u == 2 ? "V" : u ? "H" : "X";
      mcp_portfolio *p = new_portfolio(1000, 3);
      add_european(p, "call", und, MCP_CALL, 100, 1.0, 1);
      add_european(p, "put", und, MCP_PUT, 90, 1.0, 1);
      add_asian(p, "asian", und, MCP_ARITHMETIC, MCP_CALL, 100, 12, fix, 1.0, 1);
      if (barrier) {
        mcp_trade t = trade_on("knock", und, MCP_PRODUCT_BARRIER, MCP_CALL, 100, 1.0);
        t.barrier_kind = MCP_UP_AND_OUT;
        t.barrier = 130;
        t.monitoring = MCP_MONITOR_BRIDGE;
        add_trade(p, &t);
      }
      mcpi_plan plan;
      char err[MCPI_ERRLEN];
      assert_int_equal(mcpi_plan_build(m, p, NULL, &plan, err), MCP_OK);
      assert_int_equal(plan.njobs, 1);
      int want = barrier ? (u ? 0 : MCPI_SHAPE_SMALL) : plain[u];
      assert_int_equal(mcpi_job_small(&plan.jobs[0]), want);
      /* the name a wisdom knows it by (mcp_tune), in each precision */
      static const char *const model[] = {"black-scholes", "heston", "local-volatility"};
      char name[MCP_WISDOM_NAME], expect[MCP_WISDOM_NAME];
      for (int f = 0; f < 2; f++) {
        snprintf(expect, sizeof expect, "%s %s %s", f ? "float" : "double", model[u],
                 !barrier ? "plain" : u ? "general" : "shaped");
        assert_int_equal(mcpi_job_tune_shape(&plan.jobs[0], f ? MCP_FLOAT : MCP_DOUBLE, name,
                                             sizeof name), 1);
        assert_string_equal(name, expect);
      }
      if (u) { /* the discretisation check */
        mcpi_settings set = {0};
        mcpi_greek_run g = {0};
        assert_int_equal(mcpi_grid_layout(&set, &plan, &g, err), MCP_OK);
        const mcpi_job *j = &plan.jobs[0], *c = &g.var[j->pass[0]].plan.jobs[0];
        assert_true(j->nest > j->nin && j->npass == 1);
        /* its estimators add columns after the body's: the shape stays */
        assert_int_equal(mcpi_job_small(j), want);
        /* its coarse pass holds steps: the general state alone */
        assert_false(mcpi_job_shape_fits(c, plain[u]));
        assert_int_equal(mcpi_job_small(c), 0);
        assert_true(mcpi_job_shape_fits(c, 0));
        mcpi_greeks_free(&g);
      }
      mcpi_plan_free(&plan);
      /* Greeks: bumped ones (columns after the body's) leave the shape; one
       * estimated on the path (the body writes it, nin > 0) tracks all; by
       * adjoint (local volatility, bump 2), the sweep's state tracks all,
       * its forward path the plain shape's where the trades fit it */
      for (int bump = 0; bump < 2 + (u == 2); bump++) {
        greek_plan gp;
        greek_plan_make(&gp, m, p, bump == 2 ? "delta,vega" : "delta", bump == 1, bump == 2);
        const mcpi_job *j = &gp.plan.jobs[0];
        /* (local volatility's delta is revalued: the surface moves with the
         * spot, or with buckets swept back on the path) */
        int on_path = (!bump && u != 2) || bump == 2;
        assert_true(j->nest > 0 && (on_path ? j->nin > 0 : j->nin == 0));
        if (bump == 2) {
          assert_true(j->gstate & MCPI_GSTATE_ADJOINT);
          assert_int_equal(mcpi_job_small(j), 0);
          assert_int_equal(mcpi_job_adjoint_shape(j), barrier ? 0 : MCPI_SHAPE_LV_PLAIN);
        } else {
          /* on the path: the whole observation tracked, in the small shape or none */
          assert_int_equal(mcpi_job_small(j), !on_path ? want : u ? 0 : MCPI_SHAPE_SMALL);
          assert_int_equal(mcpi_job_adjoint_shape(j), 0);
        }
        greek_plan_free(&gp);
      }
      mcp_portfolio_destroy(p);
    }
  /* the Heston plain shape is QE's alone (its step has no other scheme):
   * an Euler job takes the general state, for its price and its adjoint */
  mcp_portfolio *p = new_portfolio(1000, 3);
  add_european(p, "call", "H", MCP_CALL, 100, 1.0, 1);
  add_asian(p, "asian", "H", MCP_ARITHMETIC, MCP_CALL, 100, 12, fix, 1.0, 1);
  for (int scheme = 0; scheme < 2; scheme++) {
    assert_int_equal(mcp_portfolio_set_heston_scheme(p, (mcp_heston_scheme)scheme), MCP_OK);
    mcpi_plan plan;
    char err[MCPI_ERRLEN], name[MCP_WISDOM_NAME];
    assert_int_equal(mcpi_plan_build(m, p, NULL, &plan, err), MCP_OK);
    assert_int_equal(mcpi_job_small(&plan.jobs[0]), scheme ? 0 : MCPI_SHAPE_HESTON_PLAIN);
    assert_int_equal(mcpi_job_tune_shape(&plan.jobs[0], MCP_DOUBLE, name, sizeof name), 1);
    assert_string_equal(name, scheme ? "double heston general" : "double heston plain");
    mcpi_plan_free(&plan);
    greek_plan gp;
    greek_plan_make(&gp, m, p, "delta,vega", 0, 1);
    assert_true(gp.plan.jobs[0].gstate & MCPI_GSTATE_ADJOINT);
    assert_int_equal(mcpi_job_adjoint_shape(&gp.plan.jobs[0]),
                     scheme ? 0 : MCPI_SHAPE_HESTON_PLAIN);
    greek_plan_free(&gp);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A put and a monthly Asian on "V" to a year, antithetic. */
static mcp_portfolio *lv_pair(void)
{
  double fix[12];
  even_fixings(fix, 12, 1.0);
  mcp_portfolio *p = new_portfolio(1000, 3);
  assert_int_equal(mcp_portfolio_set_methods(p, MCP_ANTITHETIC), MCP_OK);
  add_european(p, "put", "V", MCP_PUT, 95, 1.0, 1);
  add_asian(p, "asian", "V", MCP_ARITHMETIC, MCP_CALL, 100, 12, fix, 1.0, 1);
  return p;
}

/* The adjoint's forward path in the plain shape's state (the GPU kernel's
 * for such a job, mcpi_job_adjoint_shape) gives the general state's bits:
 * each antithetic sample's prices, Greeks on the path (gamma) and buckets,
 * a European and an Asian under local volatility; and the sweep's dense
 * rows (adj_lvr) the sparse entries' bits, on steps that read one, two and
 * three of the surface's rows (the third: a surface time inside a step
 * after the first, the entries again). */
static void test_adjoint_plain_forward(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  const double t[3] = {0.1, 0.45, 3}, s[3] = {80, 100, 120};
  const double vol[9] = {0.3, 0.25, 0.2, 0.29, 0.245, 0.2, 0.28, 0.24, 0.2};
  assert_int_equal(mcp_market_add_local_vol(m, "V", 100, 0.02, 0.01, 3, t, 3, s, vol), MCP_OK);
  mcp_portfolio *p = lv_pair();
  greek_plan gp;
  greek_plan_make(&gp, m, p, "delta,gamma,vega,rho", 0, 1);
  const mcpi_job *j = &gp.plan.jobs[0];
  assert_int_equal(mcpi_job_adjoint_shape(j), MCPI_SHAPE_LV_PLAIN);
  int dense = 0, sparse = 0;
  for (size_t e = 0; e < j->nadj_lvr; e++)
    j->adj_lvr[e] >= 0 ? dense++ : sparse++;
  assert_true(dense > 0 && sparse > 0);
  mcpi_job_view v = mcpi_job_host_view(j), u;
  v.greeks = j->nin > 0;
  v.gstate = j->gstate;
  u = v;
  u.adj_lvr = NULL; /* the entries alone */
  size_t ncol = mcpi_job_pay_columns(j);
  double *pay[3], rows[2 * MCPI_ADJ_ROW_NODES];
  for (int k = 0; k < 3; k++)
    assert_non_null(pay[k] = calloc(ncol, sizeof(double)));
  double swept = 0; /* the Asian's buckets: not all nothing */
  for (uint64_t path = 0; path < 64; path++) {
    for (int k = 0; k < 3; k++) /* general, plain, general with the entries */
      mcpi_adjoint_sample(k < 2 ? &v : &u, NULL, 1, path, pay[k], 1, pay[k], 1, 0, rows, 1, 0,
                          v.adj_div, k == 1, v.adj_q != 0, 0, 1);
    assert_memory_equal(pay[0], pay[1], ncol * sizeof(double));
    assert_memory_equal(pay[0], pay[2], ncol * sizeof(double));
    for (int k = 0; k < v.adj_cols; k++)
      swept += fabs(pay[0][v.trades[1].g_adj + k]);
  }
  assert_true(v.trades[1].g_adj >= 0 && swept > 0);
  for (int k = 0; k < 3; k++)
    free(pay[k]);
  greek_plan_free(&gp);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A surface whose rows go on after the trades' last date: the adjoint
 * plan's zero columns (adj_zlo .. adj_zhi, which the CUDA backend sums as
 * zeros without reading them) are the nodes of the rows no step's slice
 * reads, here the last one's, and every path leaves them 0 (+0, the bits
 * of the zeros the GPU writes), while the row below them is reached. */
static void test_adjoint_zero_rows(void **state)
{
  (void)state;
  mcp_market *m = new_market();
  const double t[5] = {0.1, 0.45, 0.8, 1.5, 3}, s[3] = {80, 100, 120};
  double vol[15];
  for (int i = 0; i < 15; i++)
    vol[i] = 0.3 - 0.01 * (i % 3) - 0.005 * (i / 3);
  assert_int_equal(mcp_market_add_local_vol(m, "V", 100, 0.02, 0.01, 5, t, 3, s, vol), MCP_OK);
  mcp_portfolio *p = lv_pair();
  greek_plan gp;
  greek_plan_make(&gp, m, p, "delta,vega,rho", 0, 1);
  const mcpi_job *j = &gp.plan.jobs[0];
  assert_int_equal(j->adj_zhi - j->adj_zlo, 3); /* row 4's nodes (t = 3) */
  mcpi_job_view v = mcpi_job_host_view(j);
  v.greeks = j->nin > 0;
  v.gstate = j->gstate;
  size_t ncol = mcpi_job_pay_columns(j);
  double *pay = calloc(ncol, sizeof(double)), rows[2 * MCPI_ADJ_ROW_NODES], below = 0;
  assert_non_null(pay);
  for (uint64_t path = 0; path < 64; path++) {
    mcpi_adjoint_sample(&v, NULL, 1, path, pay, 1, pay, 1, 0, rows, 1, 0, v.adj_div, 0,
                        v.adj_q != 0, 0, 1);
    for (size_t tr = 0; tr < 2; tr++) {
      const double *b = pay + v.trades[tr].g_adj;
      for (int k = j->adj_zlo; k < j->adj_zhi; k++)
        if (memcmp(&b[k], &(double){0}, sizeof(double)) != 0)
          fail_msg("path %d trade %zu column %d: %.17g", (int)path, tr, k, b[k]);
      for (int k = j->adj_zlo - 3; k < j->adj_zlo; k++)
        below += fabs(b[k]);
    }
  }
  assert_true(below > 0);
  free(pay);
  greek_plan_free(&gp);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_job_shapes),
      cmocka_unit_test(test_adjoint_plain_forward),
      cmocka_unit_test(test_adjoint_zero_rows),
      cmocka_unit_test(test_european_table),
      cmocka_unit_test(test_float_paths),
      cmocka_unit_test(test_large_run),
      cmocka_unit_test(test_put_call_parity),
      cmocka_unit_test(test_asian),
      cmocka_unit_test(test_average_digital),
      cmocka_unit_test(test_tile_determinism),
      cmocka_unit_test(test_tile_determinism_large),
      cmocka_unit_test(test_seed),
      cmocka_unit_test(test_stream_independence),
      cmocka_unit_test(test_book),
      cmocka_unit_test(test_cpu_groups),
      cmocka_unit_test(test_equal_steps),
      cmocka_unit_test(test_lv_lookup),
      cmocka_unit_test(test_lv_slices),
      cmocka_unit_test(test_time_grid),
      cmocka_unit_test(test_chunk_sums),
      cmocka_unit_test(test_chunk_tree),
      cmocka_unit_test(test_many_schedules),
      cmocka_unit_test(test_team),
      cmocka_unit_test(test_parallel_plan),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
