/* test_private.c: the products that keep an array per path (Himalaya,
 * cliquet, moving window) on the CPU backend:
 *   1. against a reference written here, on the very normals the library
 *      draws (same plan, same cuRAND stream), to rounding;
 *   2. reduced cases with known prices: a one-asset Himalaya is a call, a
 *      full window is an Asian, a cliquet summing every clamped return has a
 *      closed form (plain and QMC paths);
 *   3. relations between prices on shared paths;
 *   4. bad inputs; 5. names and the placement setting; 6. antithetic
 *      sampling; 7. the split of trades into jobs by the size of the
 *      per-path array.
 * Statistical checks use fixed seeds, so they are deterministic once they
 * pass. */
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
#include "tests/closed_form.h"
#include "tests/mc_check.h"
#include "mcprice.h"
#include "src/plan/plan.h"
#include "models/rng.h"

#define NSE 3.5   /* width of the statistical bands, in standard errors */
#define REL 1e-10 /* library against the reference on the same normals */

/* ---- the reference: the same normals, paths and payoffs written plainly ---- */

/* The assets of a job in its own order (the market's), with their
 * correlations, as the test knows them. */
typedef struct ref_job {
  mcpi_plan plan;
  const mcpi_job *j;
  size_t na;                                  /* assets */
  bs_params u[MCP_MAX_ASSETS];
  double chol[MCP_MAX_ASSETS * MCP_MAX_ASSETS]; /* lower factor, na x na */
  size_t samples;                             /* pairs when antithetic */
  double *z;                                  /* element e of path i at z[e samples + i] */
} ref_job;

typedef struct ref_estimate {
  double price, std_error;
  double mean_perf; /* Himalaya: the mean over the samples of A */
  double out;       /* moving window: fraction of the samples knocked out */
} ref_estimate;

/* Plain Cholesky factor of an n x n correlation matrix (row-major). */
static void cholesky(size_t n, const double *c, double *l)
{
  memset(l, 0, n * n * sizeof *l);
  for (size_t i = 0; i < n; i++)
    for (size_t k = 0; k <= i; k++) {
      double s = c[i * n + k];
      for (size_t m = 0; m < k; m++)
        s -= l[i * n + m] * l[k * n + m];
      if (i == k) {
        assert_true(s > 0);
        l[i * n + i] = sqrt(s);
      } else {
        l[i * n + k] = s / l[k * n + k];
      }
    }
}

/* The job of the plan that prices the portfolio's trade `trade`. */
static const mcpi_job *job_of(const mcpi_plan *plan, size_t trade)
{
  for (size_t k = 0; k < plan->njobs; k++)
    for (size_t i = 0; i < plan->jobs[k].ntrades; i++)
      if (plan->jobs[k].trade[i] == trade)
        return &plan->jobs[k];
  fail_msg("trade %zu is in no job", trade);
  return NULL;
}

/* Plans the portfolio, takes the job of its trade `trade`, whose assets are
 * u[0..na) in market order (corr their correlation matrix, NULL:
 * independent), and draws its normals as the CPU backend does: one Philox
 * stream a job, element e of path i at the offset mcpi_rng_offset(e, i). */
static void ref_open(ref_job *r, const mcp_market *m, const mcp_portfolio *p, size_t trade,
                     const bs_params *u, size_t na, const double *corr)
{
  char err[MCPI_ERRLEN];
  memset(r, 0, sizeof *r);
  if (mcpi_plan_build(m, p, NULL, &r->plan, err) != MCP_OK)
    fail_msg("plan: %s", err);
  r->j = job_of(&r->plan, trade);
  r->na = na;
  memcpy(r->u, u, na * sizeof *u);
  double id[MCP_MAX_ASSETS * MCP_MAX_ASSETS] = {0};
  for (size_t a = 0; a < na; a++)
    id[a * na + a] = 1;
  cholesky(na, corr ? corr : id, r->chol);
  /* one normal a step and asset, plainly laid out */
  assert_int_equal(r->j->nassets, na);
  assert_int_equal(r->j->nfactors, (int)na);
  assert_int_equal(r->j->nelem, r->j->nsteps * na);
  assert_false(r->j->qmc);
  uint64_t paths = mcp_portfolio_paths(p);
  r->samples = r->j->antithetic ? (size_t)(paths + 1) / 2 : (size_t)paths;
  r->z = malloc(r->j->nelem * r->samples * sizeof *r->z);
  assert_non_null(r->z);
  mcpi_rng_fill_host(r->j->stream, 0, r->j->nelem, 0, r->samples, r->z, NULL, r->samples);
}

static void ref_close(ref_job *r)
{
  free(r->z);
  mcpi_plan_free(&r->plan);
}

/* The grid step at time t, which the job's grid must hold. */
static size_t step_at(const mcpi_job *j, double t)
{
  for (size_t s = 0; s < j->nsteps; s++)
    if (fabs(j->times[s] - t) < 1e-12)
      return s;
  fail_msg("time %g is not on the job's grid", t);
  return 0;
}

/* Exact GBM steps on the job's grid: S[s na + a] is asset a at grid time s,
 * driven by the correlated normals L z (sign -1: the antithetic path). */
static void simulate(const ref_job *r, size_t i, double sign, double *S)
{
  const mcpi_job *j = r->j;
  size_t na = r->na;
  double x[MCP_MAX_ASSETS], t0 = 0;
  for (size_t a = 0; a < na; a++)
    x[a] = log(r->u[a].spot);
  for (size_t s = 0; s < j->nsteps; s++) {
    double dt = j->times[s] - t0;
    t0 = j->times[s];
    for (size_t a = 0; a < na; a++) {
      double w = 0, vol = r->u[a].vol;
      for (size_t b = 0; b <= a; b++)
        w += r->chol[a * na + b] * r->z[(s * na + b) * r->samples + i];
      x[a] += (r->u[a].rate - r->u[a].dividend - 0.5 * vol * vol) * dt +
              vol * sqrt(dt) * sign * w;
      S[s * na + a] = exp(x[a]);
    }
  }
}

static double vanilla(mcp_option_type type, double x, double strike)
{
  return fmax(type == MCP_CALL ? x - strike : strike - x, 0.0);
}

/* Himalaya on all the job's assets: at each fixing the best performance of
 * the assets left is recorded and that asset removed from the list. */
static double ref_himalaya(const ref_job *r, const mcp_trade *t, const double *S, double *A)
{
  size_t n = t->nassets, left[MCP_MAX_ASSETS], nleft = n;
  assert_int_equal(n, r->na);
  for (size_t a = 0; a < n; a++)
    left[a] = a;
  double sum = 0;
  for (size_t k = 0; k < t->nfixings; k++) {
    const double *row = S + step_at(r->j, t->fixings[k]) * n;
    size_t at = 0;
    for (size_t q = 1; q < nleft; q++)
      if (row[left[q]] / r->u[left[q]].spot > row[left[at]] / r->u[left[at]].spot)
        at = q;
    sum += row[left[at]] / r->u[left[at]].spot;
    memmove(left + at, left + at + 1, (nleft - at - 1) * sizeof *left);
    nleft--;
  }
  *A = sum / (double)n;
  return t->notional * vanilla(t->type, *A, t->strike);
}

static int descending(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x < y) - (x > y);
}

/* Cliquet: clamped period returns, sorted, the best ones summed, the sum
 * clamped. */
static double ref_cliquet(const ref_job *r, const mcp_trade *t, const double *S)
{
  double ret[MCP_MAX_PRIVATE_ARRAY], prev = r->u[0].spot, sum = 0;
  size_t n = t->nfixings, best = t->best ? t->best : n;
  for (size_t k = 0; k < n; k++) {
    double s = S[step_at(r->j, t->fixings[k])];
    ret[k] = fmin(fmax(s / prev - 1, t->local_floor), t->local_cap);
    prev = s;
  }
  qsort(ret, n, sizeof *ret, descending);
  for (size_t k = 0; k < best; k++)
    sum += ret[k];
  return t->notional * fmin(fmax(sum, t->global_floor), t->global_cap);
}

/* Moving window: the spots at the fixings in an array; from the W-th on,
 * the mean of the last W against the barrier. */
static double ref_window(const ref_job *r, const mcp_trade *t, const double *S, int *out)
{
  double f[MCP_MAX_PRIVATE_ARRAY * 4], avg = 0;
  size_t n = t->nfixings, w = t->window;
  assert_true(n <= sizeof f / sizeof *f);
  for (size_t k = 0; k < n; k++)
    f[k] = S[step_at(r->j, t->fixings[k])];
  *out = 0;
  for (size_t k = w - 1; k < n; k++) {
    avg = 0;
    for (size_t q = k + 1 - w; q <= k; q++)
      avg += f[q];
    avg /= (double)w;
    if (t->barrier > 0 &&
        (t->barrier_kind == MCP_UP_AND_OUT ? avg >= t->barrier : avg <= t->barrier)) {
      *out = 1;
      return t->rebate;
    }
  }
  return vanilla(t->type, avg, t->strike);
}

/* Undiscounted payoff of t on the path S. */
static double ref_payoff(const ref_job *r, const mcp_trade *t, const double *S, double *A,
                         int *out)
{
  *A = 0;
  *out = 0;
  switch (t->product) {
  case MCP_PRODUCT_HIMALAYA: return ref_himalaya(r, t, S, A);
  case MCP_PRODUCT_CLIQUET: return ref_cliquet(r, t, S);
  case MCP_PRODUCT_MOVING_WINDOW: return ref_window(r, t, S, out);
  default: fail_msg("no reference for product %d", (int)t->product);
  }
  return 0;
}

/* Mean and standard error of the discounted payoff over the job's samples
 * (an antithetic sample is the mean of the path and its mirror). */
static ref_estimate ref_price(const ref_job *r, const mcp_trade *t)
{
  const mcpi_job *j = r->j;
  double *S = malloc(j->nsteps * r->na * sizeof *S), *y = malloc(r->samples * sizeof *y);
  assert_true(S && y);
  double df = exp(-r->u[0].rate * t->maturity), sum = 0, ss = 0, sum_a = 0, outs = 0;
  int passes = j->antithetic ? 2 : 1;
  for (size_t i = 0; i < r->samples; i++) {
    y[i] = 0;
    for (int pass = 0; pass < passes; pass++) {
      double A;
      int out;
      simulate(r, i, pass ? -1.0 : 1.0, S);
      y[i] += df * ref_payoff(r, t, S, &A, &out) / passes;
      sum_a += A / passes;
      outs += (double)out / passes;
    }
    sum += y[i];
  }
  double n = (double)r->samples, mean = sum / n;
  for (size_t i = 0; i < r->samples; i++)
    ss += (y[i] - mean) * (y[i] - mean);
  free(S);
  free(y);
  return (ref_estimate){mean, sqrt(ss / (n - 1) / n), sum_a / n, outs / n};
}

/* The library's estimate of t against the reference: the prices to REL, the
 * standard errors to 1e-6 (the library sums squares; the reference centres). */
static ref_estimate assert_reference(const ref_job *r, const mcp_results *res,
                                     const mcp_trade *t)
{
  mcp_estimate e = estimate(res, t->id);
  ref_estimate q = ref_price(r, t);
  double d = fabs(e.price - q.price) / fmax(fabs(q.price), 1e-300);
  print_message("  %-10s lib %.15f +- %.3e  ref %.15f +- %.3e  rel %.1e\n", t->id, e.price,
                e.std_error, q.price, q.std_error, d);
  assert_true(e.std_error > 0);
  if (!(d <= REL))
    fail_msg("%s: library %.17g, reference %.17g on the same normals (rel %.3g)", t->id,
             e.price, q.price, d);
  if (!(fabs(e.std_error - q.std_error) <= 1e-6 * q.std_error))
    fail_msg("%s: standard error %.17g, reference %.17g", t->id, e.std_error, q.std_error);
  return q;
}

/* Trade t priced alone: such portfolios on the same assets and seed all
 * draw the stream of ordinal 0 (mcpi_rng_job_seed), so their prices share
 * paths whatever the planner's grouping of trades into jobs. */
static mcp_estimate price_alone(mcp_context *ctx, const mcp_market *m, const mcp_trade *t,
                                uint64_t paths, uint64_t seed)
{
  mcp_portfolio *p = new_portfolio(paths, seed);
  add_trade(p, t);
  mcp_results *res = price(ctx, m, p);
  mcp_estimate e = estimate(res, t->id);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  return e;
}

/* ---- trades ------------------------------------------------------------ */

static mcp_trade himalaya(const char *id, size_t n, const char *const *assets,
                          const double *fix, double maturity, mcp_option_type type,
                          double strike, double notional)
{
  mcp_trade t;
  mcp_trade_init(&t);
  t.id = id;
  t.product = MCP_PRODUCT_HIMALAYA;
  t.type = type;
  t.strike = strike;
  t.maturity = maturity;
  t.nassets = n;
  t.assets = assets;
  t.nfixings = n;
  t.fixings = fix;
  t.notional = notional;
  return t;
}

/* A cliquet with the defaults: every period, no bounds, notional 1. */
static mcp_trade cliquet(const char *id, const char *und, size_t n, const double *fix,
                         double maturity)
{
  mcp_trade t = trade_on(id, und, MCP_PRODUCT_CLIQUET, MCP_CALL, 0, maturity);
  t.nfixings = n;
  t.fixings = fix;
  return t;
}

/* A moving window without a barrier. */
static mcp_trade window(const char *id, const char *und, mcp_option_type type, double strike,
                        size_t n, const double *fix, double maturity, size_t w)
{
  mcp_trade t = trade_on(id, und, MCP_PRODUCT_MOVING_WINDOW, type, strike, maturity);
  t.nfixings = n;
  t.fixings = fix;
  t.window = w;
  return t;
}

/* n fixings evenly spaced on (0, end]. */
static void even_fixings(double *t, size_t n, double end)
{
  for (size_t i = 0; i < n; i++)
    t[i] = end * (double)(i + 1) / (double)n;
}

static const bs_params ACME = {100.0, 0.03, 0.01, 0.25};

static mcp_market *acme_market(void)
{
  mcp_market *m = new_market();
  add_underlying(m, "ACME", ACME);
  return m;
}

/* ---- 1. against the reference on the same normals ----------------------- */

/* Three correlated assets with different spots, dividends and volatilities
 * (equal rates: the discount is the first asset's); the trade lists them in
 * another order than the market, which must not matter. */
static const bs_params H3[3] = {{100.0, 0.03, 0.00, 0.20},
                                {50.0, 0.03, 0.01, 0.30},
                                {80.0, 0.03, 0.02, 0.25}};
static const char *const H3_NAMES[3] = {"ALPHA", "BETA", "GAMMA"};
static const char *const H3_TRADE_ORDER[3] = {"GAMMA", "ALPHA", "BETA"};
static const double H3_CORR[9] = {1.0, 0.5, 0.3, 0.5, 1.0, 0.4, 0.3, 0.4, 1.0};
static const double H3_FIX[3] = {0.25, 0.6, 1.0};
#define H3_T 1.25 /* after the last fixing: the grid has a step without one */

static mcp_market *h3_market(void)
{
  mcp_market *m = new_market();
  for (int a = 0; a < 3; a++)
    add_underlying(m, H3_NAMES[a], H3[a]);
  assert_int_equal(mcp_market_set_correlation(m, 3, H3_NAMES, H3_CORR), MCP_OK);
  return m;
}

static void himalaya_against_reference(void **state)
{
  mcp_market *m = h3_market();
  mcp_portfolio *p = new_portfolio(4000, 7); /* not a whole number of chunks */
  mcp_trade call = himalaya("him_call", 3, H3_TRADE_ORDER, H3_FIX, H3_T, MCP_CALL, 1.0, 100);
  mcp_trade put = himalaya("him_put", 3, H3_TRADE_ORDER, H3_FIX, H3_T, MCP_PUT, 1.05, 100);
  add_trade(p, &call);
  add_trade(p, &put);
  mcp_results *res = price(*state, m, p);
  for (size_t i = 0; i < 2; i++) {
    ref_job r;
    ref_open(&r, m, p, i, H3, 3, H3_CORR);
    assert_int_equal(r.j->nsteps, 4);
    assert_reference(&r, res, i ? &put : &call);
    ref_close(&r);
  }
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The most assets a Himalaya may have, uncorrelated (pairs never set). */
static void himalaya_sixteen_assets(void **state)
{
  char names[MCP_MAX_ASSETS][8];
  const char *list[MCP_MAX_ASSETS];
  bs_params u[MCP_MAX_ASSETS];
  double fix[MCP_MAX_ASSETS];
  mcp_market *m = new_market();
  for (int a = 0; a < MCP_MAX_ASSETS; a++) {
    snprintf(names[a], sizeof names[a], "S%02d", a);
    list[a] = names[a];
    u[a] = (bs_params){50.0 + 5 * a, 0.02, 0.005 * (a % 3), 0.15 + 0.01 * a};
    add_underlying(m, names[a], u[a]);
    fix[a] = (a + 1) / 16.0;
  }
  mcp_portfolio *p = new_portfolio(1000, 3);
  mcp_trade t = himalaya("him16", MCP_MAX_ASSETS, list, fix, 1.0, MCP_CALL, 0.98, 10);
  add_trade(p, &t);
  mcp_results *res = price(*state, m, p);
  ref_job r;
  ref_open(&r, m, p, 0, u, MCP_MAX_ASSETS, NULL);
  assert_int_equal(r.j->arr_len, 2 * MCP_MAX_ASSETS + 2);
  assert_reference(&r, res, &t);
  ref_close(&r);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Monthly periods, the best 8 of 12, both pairs of bounds binding on some
 * paths. */
static void cliquet_against_reference(void **state)
{
  double fix[12];
  even_fixings(fix, 12, 1.0);
  mcp_market *m = acme_market();
  mcp_portfolio *p = new_portfolio(5000, 11);
  mcp_trade t = cliquet("cliq", "ACME", 12, fix, 1.0);
  t.best = 8;
  t.local_floor = -0.03;
  t.local_cap = 0.05;
  t.global_floor = 0.02;
  t.global_cap = 0.3;
  t.notional = 10;
  add_trade(p, &t);
  mcp_results *res = price(*state, m, p);
  ref_job r;
  ref_open(&r, m, p, 0, &ACME, 1, NULL);
  assert_int_equal(r.j->arr_len, 12 + 2);
  assert_reference(&r, res, &t);
  ref_close(&r);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Windows of 3 of 10 fixings, an up-and-out call and a down-and-out put,
 * each knocked out on a good share of the paths (both branches count), and
 * a window of one fixing (the spot itself against the barrier). */
static void window_against_reference(void **state)
{
  double fix[10];
  even_fixings(fix, 10, 1.0);
  mcp_market *m = acme_market();
  mcp_portfolio *p = new_portfolio(5000, 13);
  mcp_trade up = window("win_up", "ACME", MCP_CALL, 100, 10, fix, 1.1, 3);
  up.barrier = 125;
  up.barrier_kind = MCP_UP_AND_OUT;
  up.rebate = 2.5;
  mcp_trade down = window("win_down", "ACME", MCP_PUT, 105, 10, fix, 1.1, 3);
  down.barrier = 85;
  down.barrier_kind = MCP_DOWN_AND_OUT;
  down.rebate = 1;
  mcp_trade one = window("win_one", "ACME", MCP_CALL, 110, 10, fix, 1.1, 1);
  one.barrier = 135;
  one.barrier_kind = MCP_UP_AND_OUT;
  one.rebate = 0.5;
  add_trade(p, &up);
  add_trade(p, &down);
  add_trade(p, &one);
  mcp_results *res = price(*state, m, p);
  ref_estimate q[3];
  for (size_t i = 0; i < 3; i++) {
    ref_job r;
    ref_open(&r, m, p, i, &ACME, 1, NULL);
    q[i] = assert_reference(&r, res, i == 0 ? &up : i == 1 ? &down : &one);
    ref_close(&r);
  }
  ref_estimate a = q[0], b = q[1];
  print_message("  knocked out: up %.3f, down %.3f of the paths\n", a.out, b.out);
  assert_true(a.out > 0.05 && a.out < 0.95);
  assert_true(b.out > 0.05 && b.out < 0.95);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The three products in one job, on schedules of their own: each trade
 * reads its own part of the path's array and its own fixings of the union
 * grid.  The first trade's array (18 elements) is larger than
 * MCP_MAX_REGISTER_ARRAY, so the planner lets the job grow to
 * MCP_MAX_PRIVATE_ARRAY and the three share it. */
static void shared_job_against_reference(void **state)
{
  static const char *const acme[1] = {"ACME"};
  double cfix[16], wfix[8], hfix[1] = {0.9};
  even_fixings(cfix, 16, 1.5);
  even_fixings(wfix, 8, 1.2);
  mcp_market *m = acme_market();
  mcp_portfolio *p = new_portfolio(3000, 17);
  mcp_trade c = cliquet("s_cliq", "ACME", 16, cfix, 1.5);
  c.local_floor = 0;
  c.local_cap = 0.05;
  c.best = 10;
  mcp_trade w = window("s_win", "ACME", MCP_CALL, 95, 8, wfix, 1.2, 4);
  w.barrier = 80;
  w.barrier_kind = MCP_DOWN_AND_OUT;
  w.rebate = 3;
  mcp_trade h = himalaya("s_him", 1, acme, hfix, 1.5, MCP_PUT, 1.1, 20);
  add_trade(p, &c);
  add_trade(p, &w);
  add_trade(p, &h);
  mcp_results *res = price(*state, m, p);
  ref_job r;
  ref_open(&r, m, p, 0, &ACME, 1, NULL);
  assert_int_equal(r.plan.njobs, 1);
  assert_int_equal(r.j->ntrades, 3);
  assert_int_equal(r.j->arr_len, (16 + 2) + (4 + 2) + (2 + 2));
  assert_reference(&r, res, &c);
  assert_reference(&r, res, &w);
  assert_reference(&r, res, &h);
  ref_close(&r);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* ---- 2. reduced cases with known prices --------------------------------- */

/* One asset, one fixing at T: N (S_T / S0 - K)+ = N / S0 (S_T - K S0)+, the
 * European call on the same stream (both jobs are ordinal 0 of "ACME"). */
static void himalaya_one_asset_is_a_call(void **state)
{
  static const char *const acme[1] = {"ACME"};
  const double T = 1.0, K = 1.05, N = 50, fix[1] = {T};
  mcp_market *m = acme_market();
  mcp_portfolio *ph = new_portfolio(20000, 5), *pe = new_portfolio(20000, 5);
  mcp_trade h = himalaya("him1", 1, acme, fix, T, MCP_CALL, K, N);
  add_trade(ph, &h);
  add_european(pe, "euro", "ACME", MCP_CALL, K * ACME.spot, T, 1);
  mcp_results *rh = price(*state, m, ph), *re = price(*state, m, pe);
  mcp_estimate eh = estimate(rh, "him1"), ee = estimate(re, "euro");
  double scaled = N / ACME.spot * ee.price, d = fabs(eh.price - scaled) / scaled;
  print_message("  himalaya %.15f, N/S0 x european %.15f (rel %.1e)\n", eh.price, scaled, d);
  assert_true(d <= 1e-12);
  assert_true(fabs(eh.std_error - N / ACME.spot * ee.std_error) <= 1e-9 * eh.std_error);
  assert_within("him1", eh,
                N / ACME.spot *
                    cf_black_scholes(MCP_CALL, ACME.spot, K * ACME.spot, T, ACME.rate,
                                     ACME.dividend, ACME.vol),
                NSE);
  mcp_results_destroy(rh);
  mcp_results_destroy(re);
  mcp_portfolio_destroy(ph);
  mcp_portfolio_destroy(pe);
  mcp_market_destroy(m);
}

/* W = n without a barrier: the arithmetic Asian, summed in the same order on
 * the same stream, so equal to the last bit. */
static void full_window_is_asian(void **state)
{
  double fix[6];
  even_fixings(fix, 6, 0.75);
  mcp_market *m = acme_market();
  for (int type = MCP_CALL; type <= MCP_PUT; type++) {
    mcp_portfolio *pw = new_portfolio(6000, 19), *pa = new_portfolio(6000, 19);
    mcp_trade w = window("win", "ACME", (mcp_option_type)type, 100, 6, fix, 1.0, 6);
    add_trade(pw, &w);
    add_asian(pa, "asian", "ACME", MCP_ARITHMETIC, (mcp_option_type)type, 100, 6, fix, 1.0, 1);
    mcp_results *rw = price(*state, m, pw), *ra = price(*state, m, pa);
    mcp_estimate ew = estimate(rw, "win"), ea = estimate(ra, "asian");
    print_message("  %s: window %.17g  asian %.17g\n", type == MCP_CALL ? "call" : "put",
                  ew.price, ea.price);
    assert_true(ew.price > 0);
    assert_true(ew.price == ea.price);
    assert_true(ew.std_error == ea.std_error);
    mcp_results_destroy(rw);
    mcp_results_destroy(ra);
    mcp_portfolio_destroy(pw);
    mcp_portfolio_destroy(pa);
  }
  mcp_market_destroy(m);
}

/* E[clamp(R - 1, f, c)] = f + C(1 + f) - C(1 + c), C the undiscounted call
 * on the gross return R, lognormal with forward e^{(r-q) dt}. */
static double cf_clamped_return(bs_params u, double dt, double f, double c)
{
  double fwd = exp((u.rate - u.dividend) * dt), s = u.vol * sqrt(dt);
  return f + cf_black(MCP_CALL, fwd, 1 + f, s, 1.0) - cf_black(MCP_CALL, fwd, 1 + c, s, 1.0);
}

/* Every period summed and no global bounds: the expectation of the sum is
 * the sum of the periods' expectations.  Plain paths, and scrambled Sobol
 * points with the Brownian bridge (whose error is the spread of the
 * scramblings). */
static void cliquet_sum_of_clamped_returns(void **state)
{
  const double fix[8] = {0.2, 0.5, 0.75, 1.0, 1.1, 1.5, 1.8, 2.0}, T = 2.0, N = 100;
  const double lf = -0.05, lc = 0.08;
  double exact = 0, t0 = 0;
  for (int k = 0; k < 8; k++) {
    exact += cf_clamped_return(ACME, fix[k] - t0, lf, lc);
    t0 = fix[k];
  }
  exact *= N * exp(-ACME.rate * T);
  mcp_market *m = acme_market();
  mcp_trade t = cliquet("cliq_all", "ACME", 8, fix, T);
  t.local_floor = lf;
  t.local_cap = lc;
  t.notional = N;
  assert_within("plain", price_alone(*state, m, &t, 200000, 23), exact, NSE);
#ifdef MCP_HAVE_CURAND /* QMC's Sobol directions */
  t.methods = MCP_QMC;
  assert_within("qmc", price_alone(*state, m, &t, 1 << 16, 23), exact, NSE);
#endif
  mcp_market_destroy(m);
}

/* ---- 3. relations on shared paths ------------------------------------- */

/* Pathwise call - put = N (A - K): the difference of the prices is the
 * discounted mean of A over the same paths, less the discounted strike. */
static void himalaya_call_minus_put(void **state)
{
  const double K = 1.02, N = 100;
  mcp_market *m = h3_market();
  mcp_trade call = himalaya("hc", 3, H3_TRADE_ORDER, H3_FIX, H3_T, MCP_CALL, K, N);
  mcp_trade put = himalaya("hp", 3, H3_TRADE_ORDER, H3_FIX, H3_T, MCP_PUT, K, N);
  double diff = price_alone(*state, m, &call, 4000, 29).price -
                price_alone(*state, m, &put, 4000, 29).price;
  /* E[A] on those paths */
  mcp_portfolio *p = new_portfolio(4000, 29);
  add_trade(p, &call);
  ref_job r;
  ref_open(&r, m, p, 0, H3, 3, H3_CORR);
  ref_estimate q = ref_price(&r, &call);
  double df = exp(-H3[0].rate * H3_T), expect = N * df * (q.mean_perf - K);
  print_message("  call - put %.15f, N df (E[A] - K) %.15f (E[A] = %.6f)\n", diff, expect,
                q.mean_perf);
  assert_true(fabs(diff - expect) <= REL * N * df);
  ref_close(&r);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* best = n is best = 0; with local_floor >= 0 every return adds, so fewer
 * terms never pay more, pathwise and so on shared paths. */
static void cliquet_best_relations(void **state)
{
  enum { N = 6 };
  static const char *const ids[N + 1] = {"b0", "b1", "b2", "b3", "b4", "b5", "b6"};
  double fix[N];
  even_fixings(fix, N, 1.5);
  mcp_market *m = acme_market();
  mcp_estimate e[N + 1];
  for (size_t b = 0; b <= N; b++) {
    mcp_trade t = cliquet(ids[b], "ACME", N, fix, 1.5);
    t.best = b;
    t.local_floor = 0;
    t.local_cap = 0.12;
    t.global_cap = 0.4; /* a nondecreasing clamp keeps the order */
    e[b] = price_alone(*state, m, &t, 4000, 31);
  }
  assert_true(memcmp(&e[0], &e[N], sizeof e[0]) == 0);
  for (size_t b = 1; b <= N; b++) {
    print_message("  best %zu: %.6f +- %.2e\n", b, e[b].price, e[b].std_error);
    assert_true(e[b].price > 0);
    if (b > 1)
      assert_true(e[b].price >= e[b - 1].price);
  }
  assert_true(e[N].price > e[1].price);
  mcp_market_destroy(m);
}

/* A barrier never reached changes nothing; one always crossed leaves the
 * discounted rebate on every path. */
static void window_barrier_limits(void **state)
{
  double fix[8];
  even_fixings(fix, 8, 1.0);
  const double T = 1.0, df = exp(-ACME.rate * T);
  mcp_market *m = acme_market();
  mcp_trade plain = window("plain", "ACME", MCP_CALL, 100, 8, fix, T, 3);
  mcp_trade far = plain, below = plain, above = plain;
  far.id = "far";
  far.barrier = 1e6;
  far.barrier_kind = MCP_UP_AND_OUT;
  below.id = "below"; /* up-and-out under the spot: out at the third fixing */
  below.barrier = 1.0;
  below.barrier_kind = MCP_UP_AND_OUT;
  below.rebate = 4.0;
  above.id = "above"; /* down-and-out over the spot */
  above.barrier = 1e6;
  above.barrier_kind = MCP_DOWN_AND_OUT;
  above.rebate = 1.5;
  mcp_estimate e0 = price_alone(*state, m, &plain, 4000, 37);
  mcp_estimate e1 = price_alone(*state, m, &far, 4000, 37);
  mcp_estimate eb = price_alone(*state, m, &below, 4000, 37);
  mcp_estimate ea = price_alone(*state, m, &above, 4000, 37);
  print_message("  plain %.17g far %.17g below %.17g (%.17g) above %.17g (%.17g)\n",
                e0.price, e1.price, eb.price, 4.0 * df, ea.price, 1.5 * df);
  assert_true(e0.price > 0 && e0.price == e1.price && e0.std_error == e1.std_error);
  assert_true(fabs(eb.price - 4.0 * df) <= 1e-14 * 4.0 * df);
  assert_true(fabs(ea.price - 1.5 * df) <= 1e-14 * 1.5 * df);
  /* no spread but the rounding of the sums of squares (reval.c) */
  assert_true(eb.std_error <= 1e-7 / sqrt(4000.0) * eb.price);
  assert_true(ea.std_error <= 1e-7 / sqrt(4000.0) * ea.price);
  mcp_market_destroy(m);
}

/* The run's control variate does not reach these products (only a trade's
 * own methods naming it are refused): the prices are those of a plain run. */
static void run_control_variate_is_ignored(void **state)
{
  double fix[5];
  even_fixings(fix, 5, 1.0);
  mcp_market *m = acme_market();
  mcp_estimate e[2][2];
  for (int cv = 0; cv < 2; cv++) {
    mcp_portfolio *p = new_portfolio(3000, 41);
    assert_int_equal(mcp_portfolio_set_methods(p, cv ? MCP_CONTROL_VARIATE : 0), MCP_OK);
    mcp_trade c = cliquet("c", "ACME", 5, fix, 1.0), w = window("w", "ACME", MCP_PUT, 100, 5,
                                                              fix, 1.0, 2);
    c.local_cap = 0.1;
    add_trade(p, &c);
    add_trade(p, &w);
    mcp_results *res = price(*state, m, p);
    e[cv][0] = estimate(res, "c");
    e[cv][1] = estimate(res, "w");
    mcp_results_destroy(res);
    mcp_portfolio_destroy(p);
  }
  assert_same_bits("run control variate", e[0], e[1], 2);
  mcp_market_destroy(m);
}

/* ---- 4. bad inputs ---------------------------------------------------- */

/* The trade is refused with status want and a message naming it and the
 * field. */
static void assert_refused(mcp_portfolio *p, const mcp_trade *t, mcp_status want,
                           const char *field)
{
  mcp_status st = mcp_portfolio_add_trade(p, t);
  const char *msg = mcp_portfolio_last_error(p);
  print_message("  %-12s %s\n", field, msg);
  if (st != want)
    fail_msg("trade '%s': status %s, expected %s (%s)", t->id, mcp_strerror(st),
             mcp_strerror(want), msg);
  assert_non_null(strstr(msg, t->id));
  if (!strstr(msg, field))
    fail_msg("trade '%s': the message does not name '%s': %s", t->id, field, msg);
}

static void bad_inputs(void **state)
{
  char names[MCP_MAX_ASSETS + 1][8];
  const char *list[MCP_MAX_ASSETS + 1];
  double fix[64];
  for (int a = 0; a <= MCP_MAX_ASSETS; a++) {
    snprintf(names[a], sizeof names[a], "N%02d", a);
    list[a] = names[a];
  }
  for (int k = 0; k < 64; k++)
    fix[k] = (k + 1) / 64.0;
  mcp_portfolio *p = new_portfolio(1000, 1);

  /* Himalaya: one fixing an asset, at most MCP_MAX_ASSETS assets */
  mcp_trade h = himalaya("him_fix", 3, list, fix, 1.0, MCP_CALL, 1, 1);
  h.nfixings = 2;
  assert_refused(p, &h, MCP_ERR_INPUT, "fixings");
  h = himalaya("him_17", MCP_MAX_ASSETS + 1, list, fix, 1.0, MCP_CALL, 1, 1);
  assert_refused(p, &h, MCP_ERR_INPUT, "assets");
  h = himalaya("him_nan", 2, list, fix, 1.0, MCP_CALL, 1, NAN);
  assert_refused(p, &h, MCP_ERR_INPUT, "notional");

  /* cliquet */
  mcp_trade c = cliquet("cliq_best", "ACME", 4, fix, 1.0);
  c.best = 5;
  assert_refused(p, &c, MCP_ERR_INPUT, "best");
  c = cliquet("cliq_local", "ACME", 4, fix, 1.0);
  c.local_floor = 0.1;
  c.local_cap = 0.05;
  assert_refused(p, &c, MCP_ERR_INPUT, "local_cap");
  c = cliquet("cliq_global", "ACME", 4, fix, 1.0);
  c.global_floor = 0.2;
  c.global_cap = 0.1;
  assert_refused(p, &c, MCP_ERR_INPUT, "global_cap");
  c = cliquet("cliq_63", "ACME", 63, fix, 1.0); /* 63 + 2 > MCP_MAX_PRIVATE_ARRAY */
  assert_refused(p, &c, MCP_ERR_INPUT, "fixings");
  c = cliquet("cliq_cv", "ACME", 4, fix, 1.0);
  c.methods = MCP_ANTITHETIC | MCP_CONTROL_VARIATE;
  assert_refused(p, &c, MCP_ERR_INPUT, "methods");
  c = cliquet("cliq_nan", "ACME", 4, fix, 1.0);
  c.notional = NAN;
  assert_refused(p, &c, MCP_ERR_INPUT, "notional");

  /* moving window */
  mcp_trade w = window("win_0", "ACME", MCP_CALL, 100, 4, fix, 1.0, 0);
  assert_refused(p, &w, MCP_ERR_INPUT, "window");
  w = window("win_5", "ACME", MCP_CALL, 100, 4, fix, 1.0, 5);
  assert_refused(p, &w, MCP_ERR_INPUT, "window");
  w = window("win_in", "ACME", MCP_CALL, 100, 4, fix, 1.0, 2);
  w.barrier = 120;
  w.barrier_kind = MCP_UP_AND_IN;
  assert_refused(p, &w, MCP_ERR_INPUT, "barrier kind");
  w = window("win_rebate", "ACME", MCP_CALL, 100, 4, fix, 1.0, 2);
  w.barrier = 120;
  w.rebate = -1;
  assert_refused(p, &w, MCP_ERR_INPUT, "rebate");
  /* a kind or a rebate without a barrier would be dropped: refused */
  w = window("win_kind_alone", "ACME", MCP_CALL, 100, 4, fix, 1.0, 2);
  w.barrier_kind = MCP_DOWN_AND_OUT;
  assert_refused(p, &w, MCP_ERR_INPUT, "barrier: expected a level > 0 with a barrier kind");
  w = window("win_rebate_alone", "ACME", MCP_CALL, 100, 4, fix, 1.0, 2);
  w.rebate = 1;
  assert_refused(p, &w, MCP_ERR_INPUT, "barrier: expected a level > 0 with a rebate");
  w = window("win_cv", "ACME", MCP_CALL, 100, 4, fix, 1.0, 2);
  w.methods = MCP_CONTROL_VARIATE;
  assert_refused(p, &w, MCP_ERR_INPUT, "methods");
  assert_int_equal(mcp_portfolio_size(p), 0);

  /* the limits themselves are accepted */
  h = himalaya("him_16", MCP_MAX_ASSETS, list, fix, 1.0, MCP_CALL, 1, 1);
  add_trade(p, &h);
  c = cliquet("cliq_62", "ACME", 62, fix, 1.0);
  c.best = 62;
  add_trade(p, &c);
  w = window("win_4", "ACME", MCP_CALL, 100, 4, fix, 1.0, 4);
  add_trade(p, &w);
  assert_int_equal(mcp_portfolio_size(p), 3);
  mcp_portfolio_destroy(p);
}

/* ---- 5. names and the placement setting ------------------------------ */

/* The products' names round-trip; an unknown name walks the whole table. */
static void product_names(void **state)
{
  static const struct {
    const char *name;
    mcp_product product;
  } k[] = {{"himalaya", MCP_PRODUCT_HIMALAYA},
           {"cliquet", MCP_PRODUCT_CLIQUET},
           {"moving-window", MCP_PRODUCT_MOVING_WINDOW}};
  for (size_t i = 0; i < sizeof k / sizeof *k; i++) {
    mcp_product pr = MCP_PRODUCT_EUROPEAN;
    assert_int_equal(mcp_product_from_name(k[i].name, &pr), MCP_OK);
    assert_int_equal(pr, k[i].product);
    assert_non_null(mcp_product_name(k[i].product));
    assert_string_equal(mcp_product_name(k[i].product), k[i].name);
  }
  mcp_product pr = MCP_PRODUCT_CLIQUET;
  assert_int_equal(mcp_product_from_name("moving_window", &pr), MCP_ERR_NOT_FOUND);
  assert_int_equal(pr, MCP_PRODUCT_CLIQUET);
  assert_string_equal(mcp_product_name(MCP_PRODUCT_COUNT), "unknown");
}

static void placement_setting(void **state)
{
  static const char *const names[] = {"auto", "registers", "local", "shared"};
  mcp_portfolio *p = new_portfolio(1000, 1);
  assert_int_equal(mcp_portfolio_placement(p), MCP_PLACEMENT_AUTO);
  for (int i = 0; i < 4; i++) {
    mcp_placement pl = (mcp_placement)-1;
    assert_int_equal(mcp_portfolio_set_placement(p, (mcp_placement)i), MCP_OK);
    assert_int_equal(mcp_portfolio_placement(p), i);
    assert_int_equal(mcp_placement_from_name(names[i], &pl), MCP_OK);
    assert_int_equal(pl, i);
    assert_string_equal(mcp_placement_name(pl), names[i]);
  }
  assert_int_equal(mcp_portfolio_set_placement(p, (mcp_placement)7), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_portfolio_last_error(p), "placement"));
  assert_int_equal(mcp_portfolio_placement(p), MCP_PLACEMENT_SHARED); /* unchanged */
  assert_int_equal(mcp_portfolio_set_placement(NULL, MCP_PLACEMENT_LOCAL), MCP_ERR_ARGUMENT);
  mcp_placement pl = MCP_PLACEMENT_LOCAL;
  assert_int_equal(mcp_placement_from_name("stack", &pl), MCP_ERR_NOT_FOUND);
  assert_int_equal(pl, MCP_PLACEMENT_LOCAL);
  assert_int_equal(mcp_placement_from_name(NULL, &pl), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_placement_from_name("auto", NULL), MCP_ERR_ARGUMENT);
  assert_string_equal(mcp_placement_name((mcp_placement)7), "unknown");
  mcp_portfolio_destroy(p);
}

/* The CPU ignores the placement: the same bits under each, even registers
 * for a job whose array exceeds MCP_MAX_REGISTER_ARRAY (the GPU refuses it). */
static void placement_ignored_on_cpu(void **state)
{
  double fix[20];
  even_fixings(fix, 20, 1.0);
  mcp_market *m = acme_market();
  mcp_estimate base[4], e[4];
  for (int i = 0; i < 4; i++) {
    mcp_portfolio *p = new_portfolio(2000, 43);
    assert_int_equal(mcp_portfolio_set_placement(p, (mcp_placement)i), MCP_OK);
    mcp_trade c = cliquet("c", "ACME", 20, fix, 1.0);
    c.local_floor = -0.02;
    c.local_cap = 0.03;
    mcp_trade w = window("w", "ACME", MCP_CALL, 100, 20, fix, 1.0, 5);
    add_trade(p, &c);
    add_trade(p, &w);
    mcp_results *res = price(*state, m, p);
    size_t n = snapshot(res, i ? e : base, 4);
    if (i)
      assert_same_bits(mcp_placement_name((mcp_placement)i), base, e, n);
    mcp_results_destroy(res);
    mcp_portfolio_destroy(p);
  }
  assert_true(MCP_MAX_REGISTER_ARRAY < 20 + 2 + 5 + 2);
  mcp_market_destroy(m);
}

/* ---- 6. antithetic sampling -------------------------------------------- */

/* The pairs (z, -z) on their own stream: the reference averages each pair,
 * and the price agrees with plain sampling within the combined error. */
static void antithetic_cliquet(void **state)
{
  double fix[12];
  even_fixings(fix, 12, 1.0);
  mcp_market *m = acme_market();
  mcp_trade t = cliquet("cliq", "ACME", 12, fix, 1.0);
  t.local_floor = -0.02;
  t.local_cap = 0.04;
  t.global_floor = 0;
  mcp_estimate e[2];
  for (int anti = 0; anti < 2; anti++) {
    mcp_portfolio *p = new_portfolio(20002, 47); /* even: antithetic samples are pairs */
    t.methods = anti ? MCP_ANTITHETIC : MCP_METHODS_DEFAULT;
    add_trade(p, &t);
    mcp_results *res = price(*state, m, p);
    e[anti] = estimate(res, "cliq");
    if (anti) {
      ref_job r;
      ref_open(&r, m, p, 0, &ACME, 1, NULL);
      assert_true(r.j->antithetic);
      assert_int_equal(r.samples, 10001);
      assert_reference(&r, res, &t);
      ref_close(&r);
    }
    mcp_results_destroy(res);
    mcp_portfolio_destroy(p);
  }
  double se = sqrt(e[0].std_error * e[0].std_error + e[1].std_error * e[1].std_error);
  print_message("  plain %.6f +- %.2e  antithetic %.6f +- %.2e  (%+.2f combined se)\n",
                e[0].price, e[0].std_error, e[1].price, e[1].std_error,
                (e[1].price - e[0].price) / se);
  assert_true(fabs(e[1].price - e[0].price) <= 4 * se);
  mcp_market_destroy(m);
}

/* ---- 7. jobs split by the size of the per-path array ------------------ */

/* Three cliquets of 30 periods keep 32 elements each: two fill a job's 64,
 * the third opens another job (its own stream).  The two of the first job
 * have the same terms, so any overlap of their array parts would show. */
static void job_splitting(void **state)
{
  double fix[30];
  even_fixings(fix, 30, 1.0);
  mcp_market *m = acme_market();
  mcp_portfolio *p = new_portfolio(3000, 53);
  const char *ids[3] = {"c1", "c2", "c3"};
  for (int i = 0; i < 3; i++) {
    mcp_trade t = cliquet(ids[i], "ACME", 30, fix, 1.0);
    t.local_floor = -0.01;
    t.local_cap = 0.015;
    t.best = 20;
    add_trade(p, &t);
  }
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK)
    fail_msg("plan: %s", err);
  assert_int_equal(plan.njobs, 2);
  assert_int_equal(plan.jobs[0].arr_len, 64);
  assert_int_equal(plan.jobs[0].ntrades, 2);
  assert_int_equal(plan.jobs[1].arr_len, 32);
  assert_int_equal(plan.jobs[1].ntrades, 1);
  assert_int_equal(plan.jobs[1].trade[0], 2);
  assert_true(plan.jobs[0].stream != plan.jobs[1].stream);
  mcpi_plan_free(&plan);
  mcp_results *res = price(*state, m, p);
  mcp_estimate e1 = estimate(res, "c1"), e2 = estimate(res, "c2"), e3 = estimate(res, "c3");
  print_message("  c1 %.6f +- %.2e  c2 %.6f  c3 %.6f +- %.2e\n", e1.price, e1.std_error,
                e2.price, e3.price, e3.std_error);
  assert_true(e1.std_error > 0 && e3.std_error > 0);
  assert_true(memcmp(&e1, &e2, sizeof e1) == 0);
  assert_true(e1.price != e3.price); /* another stream */
  assert_true(fabs(e1.price - e3.price) <= 4 * sqrt(2.0) * e1.std_error);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* A cliquet of 62 periods fills a job's array exactly (62 + 2 elements). */
static void cliquet_full_array(void **state)
{
  double fix[62];
  even_fixings(fix, 62, 2.0);
  mcp_market *m = acme_market();
  mcp_portfolio *p = new_portfolio(1500, 59);
  mcp_trade t = cliquet("cliq62", "ACME", 62, fix, 2.0);
  t.best = 40;
  t.local_floor = -0.01;
  t.local_cap = 0.02;
  add_trade(p, &t);
  mcp_results *res = price(*state, m, p);
  ref_job r;
  ref_open(&r, m, p, 0, &ACME, 1, NULL);
  assert_int_equal(r.j->arr_len, MCP_MAX_PRIVATE_ARRAY);
  assert_reference(&r, res, &t);
  ref_close(&r);
  mcp_results_destroy(res);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(himalaya_against_reference),
      cmocka_unit_test(himalaya_sixteen_assets),
      cmocka_unit_test(cliquet_against_reference),
      cmocka_unit_test(window_against_reference),
      cmocka_unit_test(shared_job_against_reference),
      cmocka_unit_test(himalaya_one_asset_is_a_call),
      cmocka_unit_test(full_window_is_asian),
      cmocka_unit_test(cliquet_sum_of_clamped_returns),
      cmocka_unit_test(himalaya_call_minus_put),
      cmocka_unit_test(cliquet_best_relations),
      cmocka_unit_test(window_barrier_limits),
      cmocka_unit_test(run_control_variate_is_ignored),
      cmocka_unit_test(bad_inputs),
      cmocka_unit_test(product_names),
      cmocka_unit_test(placement_setting),
      cmocka_unit_test(placement_ignored_on_cpu),
      cmocka_unit_test(antithetic_cliquet),
      cmocka_unit_test(job_splitting),
      cmocka_unit_test(cliquet_full_array),
  };
  return cmocka_run_group_tests(tests, mc_setup_cpu, mc_teardown);
}
