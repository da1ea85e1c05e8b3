/* plan.c: grouping trades into path jobs and building their time grids and
 * per-element coefficients. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/plan/analytic.h"
#include "src/plan/plan.h"
#include "src/plan/pde.h"
#include "models/rng.h"
#include "src/base/validate.h"

/* the canonical RNG mapping has room for every element and path allowed */
_Static_assert(MCPI_MAX_PATHS <= MCPI_RNG_MAX_PATHS, "paths beyond the RNG mapping");

/* What trades must share to share paths. */
typedef struct job_key {
  size_t n, asset[MCP_MAX_ASSETS]; /* market indices, increasing */
  int antithetic, qmc;
  int array;                       /* products with per-path arrays (private.h) */
  int extrema;                     /* bridge lookbacks: a factor samples the extremes */
  size_t lsm;                      /* Longstaff-Schwartz: its trade + 1, a job each */
  double maturity;                 /* multi-asset and extrema jobs: one maturity */
} job_key;

/* A fixing schedule: n times. */
typedef struct schedule {
  size_t n;
  const double *t;
} schedule;

typedef struct monitor {
  double barrier, maturity;
  int up;
} monitor;

/* A job being filled: its schedules and monitors. */
typedef struct job_draft {
  schedule sched[MCPI_MAX_SCHEDULES];
  int nsched;
  monitor mon[MCPI_MAX_MONITORS];
  int nmon;
  int arr_len, arr_cap; /* of the per-path array */
  schedule ex;          /* an American by Monte Carlo (its job's one trade): its dates */
} job_draft;

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int cmp_size(const void *a, const void *b)
{
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

static int multi_asset(const mcpi_trade *t) { return t->nassets > 1; }

static int same_schedule(schedule a, schedule b)
{
  if (a.n != b.n)
    return 0;
  for (size_t i = 0; i < a.n; i++)
    if (fabs(a.t[i] - b.t[i]) > MCPI_TIME_EPS)
      return 0;
  return 1;
}

static int same_key(const job_key *a, const job_key *b)
{
  if (a->n != b->n || a->antithetic != b->antithetic || a->qmc != b->qmc ||
      a->array != b->array || a->extrema != b->extrema || a->lsm != b->lsm ||
      fabs(a->maturity - b->maturity) > MCPI_TIME_EPS)
    return 0;
  for (size_t i = 0; i < a->n; i++)
    if (a->asset[i] != b->asset[i])
      return 0;
  return 1;
}

static int trade_array_len(const mcpi_trade *t)
{
  return mcpi_private_len(t->product, (int)t->nfix, (int)t->window);
}

static int barrier_up(const mcpi_trade *t);

/* The barrier the trade watches on the bridge, if any: a barrier option's,
 * or an autocallable's knock-in (a fraction of its initial fixing). */
static int bridge_monitor(const mcpi_trade *t, monitor *m)
{
  if (t->product == MCP_PRODUCT_BARRIER && t->monitoring == MCP_MONITOR_BRIDGE)
    *m = (monitor){t->barrier, t->maturity, barrier_up(t)};
  else if (t->product == MCP_PRODUCT_AUTOCALLABLE && t->monitoring == MCP_MONITOR_BRIDGE &&
           t->knock_in > 0)
    *m = (monitor){t->knock_in * t->initial[0], t->maturity, 0};
  else
    return 0;
  return 1;
}

/* A lookback on the continuous path: its job samples each step's extremes
 * (path_body.h, mcpi_path_extrema) and it reads them at its maturity. */
static int extrema_sampled(const mcpi_trade *t)
{
  return t->product == MCP_PRODUCT_LOOKBACK && t->monitoring == MCP_MONITOR_BRIDGE;
}

static int barrier_up(const mcpi_trade *t)
{
  return t->barrier_kind == MCP_UP_AND_OUT || t->barrier_kind == MCP_UP_AND_IN;
}

/* The trade's schedule and its terminal schedule (the maturity alone); an
 * American by Monte Carlo's is its exercise dates, which the draft holds. */
static schedule main_schedule(const job_draft *d, const mcpi_trade *t)
{
  return t->product == MCP_PRODUCT_AMERICAN && d->ex.n ? d->ex : (schedule){t->nfix, t->fix};
}
static schedule terminal_schedule(const mcpi_trade *t) { return (schedule){1, &t->maturity}; }

static int find_schedule(const job_draft *d, schedule s)
{
  for (int k = 0; k < d->nsched; k++)
    if (same_schedule(d->sched[k], s))
      return k;
  return -1;
}

/* The draft's monitor of the trade's barrier, or -1 (none yet, or none). */
static int find_monitor(const job_draft *d, const mcpi_trade *t)
{
  monitor m;
  if (!bridge_monitor(t, &m))
    return -1;
  for (int k = 0; k < d->nmon; k++)
    if (d->mon[k].barrier == m.barrier && d->mon[k].up == m.up &&
        fabs(d->mon[k].maturity - m.maturity) <= MCPI_TIME_EPS)
      return k;
  return -1;
}

/* Adds the trade's schedules and monitor to the draft if they fit. */
static int draft_add(job_draft *d, const mcpi_trade *t)
{
  schedule s[2] = {main_schedule(d, t), terminal_schedule(t)};
  monitor m;
  int need = 0, mon = bridge_monitor(t, &m) && find_monitor(d, t) < 0;
  for (int i = 0; i < 2; i++)
    if (find_schedule(d, s[i]) < 0 && !(i == 1 && same_schedule(s[0], s[1])))
      need++;
  /* a job's array fits the register kernels when its first trade's does, so
   * that every placement can run it; the jobs do not depend on the placement */
  int len = trade_array_len(t);
  int cap = d->arr_len ? d->arr_cap
            : len <= MCP_MAX_REGISTER_ARRAY ? MCP_MAX_REGISTER_ARRAY : MCP_MAX_PRIVATE_ARRAY;
  if (d->nsched + need > MCPI_MAX_SCHEDULES || d->nmon + mon > MCPI_MAX_MONITORS ||
      d->arr_len + len > cap)
    return 0;
  d->arr_len += len;
  d->arr_cap = cap;
  for (int i = 0; i < 2; i++)
    if (find_schedule(d, s[i]) < 0)
      d->sched[d->nsched++] = s[i];
  if (mon)
    d->mon[d->nmon++] = m;
  return 1;
}

/* Resolves the trade's assets in the market and its job key. */
static mcp_status trade_key(const mcp_market *m, const mcp_portfolio *p, const mcpi_trade *t,
                            job_key *k, char *err)
{
  int methods = mcpi_trade_methods(p, t);
  *k = (job_key){.n = t->nassets, .antithetic = !!(methods & MCP_ANTITHETIC),
                 .qmc = !!(methods & MCP_QMC), .array = mcpi_private_product(t->product),
                 .extrema = extrema_sampled(t),
                 .lsm = mcpi_lsm_product(t->product) ? (size_t)(t - p->t) + 1 : 0,
                 .maturity = multi_asset(t) || extrema_sampled(t) ? t->maturity : 0};
  for (size_t a = 0; a < t->nassets; a++) {
    const mcpi_underlying *u = mcpi_market_find(m, t->asset[a]);
    if (!u)
      return mcpi_fail(err, MCP_ERR_NOT_FOUND, "trade '%s': %s: '%s' is not in the market",
                       t->id, multi_asset(t) ? "assets" : "underlying", t->asset[a]);
    const mcpi_underlying *u0 = mcpi_market_find(m, t->asset[0]);
    if (multi_asset(t) && ((u->model != MCPI_MODEL_BLACK_SCHOLES &&
                            u->model != MCPI_MODEL_HESTON) ||
                           (u0 && u->model != u0->model)))
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' is not a %s underlying; multi-asset "
                       "products need Black-Scholes underlyings, or Heston ones throughout",
                       t->id, u->name,
                       u0 && u0->model == MCPI_MODEL_HESTON && u != u0 ? "Heston"
                                                                       : "Black-Scholes");
    if (multi_asset(t) && u->model == MCPI_MODEL_HESTON && mcpi_lsm_product(t->product))
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: Longstaff-Schwartz takes several Black-Scholes "
                       "assets or one Heston underlying; expected no early exercise on "
                       "several Heston assets", t->id);
    if (multi_asset(t) && u->ncash)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' pays cash dividends, which multi-asset "
                       "products do not take; expected underlyings without them",
                       t->id, u->name);
    k->asset[a] = (size_t)(u - m->u);
  }
  qsort(k->asset, k->n, sizeof *k->asset, cmp_size);
  return MCP_OK;
}

static double forward_growth(const mcpi_underlying *u, double t)
{
  return exp(mcpi_curve_integral(&u->rate, 0, t) - mcpi_curve_integral(&u->dividend, 0, t));
}

/* The forward of u at t, less the cash dividends paid by then (exact while
 * the floor at 0 does not bind), from a valuation date moved by origin. */
static double forward(const mcpi_underlying *u, double t, double origin)
{
  return u->spot * forward_growth(u, t) - mcpi_cash_carried(u, origin, t);
}

/* Index of t in the sorted grid g[0..n), which holds it. */
static size_t grid_index(const double *g, size_t n, double t)
{
  size_t lo = 0, hi = n - 1;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (g[mid] < t - MCPI_TIME_EPS)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The uniform steps a year of the job: the run's, or where it gives none,
 * its model's (MCPI_MODEL_STEPS_PER_YEAR). */
int mcpi_model_inexact(mcpi_model model, int nmon, int extrema)
{
  return model == MCPI_MODEL_HESTON || model == MCPI_MODEL_LOCAL_VOL ||
         (model == MCPI_MODEL_MERTON && (nmon || extrema));
}

static unsigned steps_per_year(const mcpi_job *j, const mcp_portfolio *p, const job_draft *d)
{
  if (p->steps_given)
    return p->steps_per_year;
  return mcpi_model_inexact(j->model, d->nmon, j->extrema) ? MCPI_MODEL_STEPS_PER_YEAR : 0;
}

static mcp_status build_grid(mcpi_job *j, const mcp_portfolio *p, const job_draft *d,
                             char *err)
{
  double last = 0;
  size_t cap = 0;
  for (int k = 0; k < d->nsched; k++) {
    cap += d->sched[k].n;
    last = fmax(last, d->sched[k].t[d->sched[k].n - 1]);
  }
  /* the uniform grid stays on the dates it has at origin 0 (theta moves the
   * origin: the same steps, each one day closer) */
  unsigned spy = j->steps_per_year = steps_per_year(j, p, d);
  size_t nuni = spy ? (size_t)ceil((last + p->origin) * spy - 1e-9) : 0;
  const mcpi_underlying *u0 = j->u[0];
  size_t ncash = j->nassets == 1 ? u0->ncash : 0;
  cap += nuni + p->ngrid + ncash;
  if (cap > MCPI_MAX_STEPS)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "underlying '%s': %zu simulation times, more than the %d allowed; "
                     "lower steps_per_year (%u a year here) or the number of fixings",
                     j->u[0]->name, cap, MCPI_MAX_STEPS, spy);
  double *g = malloc((cap ? cap : 1) * sizeof *g);
  if (!g)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
  size_t n = 0;
  for (int k = 0; k < d->nsched; k++) {
    memcpy(g + n, d->sched[k].t, d->sched[k].n * sizeof *g);
    n += d->sched[k].n;
  }
  for (size_t i = 1; i <= nuni; i++)
    g[n++] = fmin((double)i / spy - p->origin, last);
  for (size_t i = 0; i < p->ngrid; i++)
    if (p->grid[i] < last)
      g[n++] = p->grid[i];
  for (size_t i = 0; i < ncash; i++) { /* the spot drops at the end of a step */
    double t = u0->cash_t[i] - p->origin; /* theta: one bump closer, as the trades' dates */
    if (t > 0 && t <= last)
      g[n++] = t;
  }
  qsort(g, n, sizeof *g, cmp_double);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || g[i] - g[m - 1] > MCPI_TIME_EPS)
      g[m++] = g[i];
  j->times = g;
  j->nsteps = m;
  j->nelem = m * (size_t)j->nfactors;
  if (j->nelem >= MCPI_RNG_MAX_STEPS)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "underlying '%s': %zu simulation times x %d normals a step exceed the "
                     "%llu random dimensions of a job",
                     j->u[0]->name, m, j->nfactors, (unsigned long long)MCPI_RNG_MAX_STEPS);
  if (j->qmc && j->nelem > MCPI_QMC_MAX_DIMENSIONS)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "underlying '%s': QMC needs at most %d dimensions (simulation times x "
                     "normals a step), this job has %zu x %d; use plain or antithetic "
                     "sampling, or fewer simulation times",
                     j->u[0]->name, MCPI_QMC_MAX_DIMENSIONS, m, j->nfactors);
#ifndef MCP_HAVE_CURAND
  if (j->qmc)
    return mcpi_fail(err, MCP_ERR_UNAVAILABLE,
                     "underlying '%s': QMC takes its Sobol directions from cuRAND, which this "
                     "build lacks (configure found no CUDA toolkit; give --with-cuda=DIR); use "
                     "plain, antithetic or control-variate sampling",
                     j->u[0]->name);
#endif
  return MCP_OK;
}

/* Steps of one length on flat curves (a daily grid) get one drift and one
 * deviation: the grid's times, sums of rounded fractions, make the steps
 * differ in their last bits (the more, the more steps), and with them the
 * coefficients; within 64 ulp a step of that rounding they are the same
 * step, and the GPU's plain kernel then takes them as constants
 * (path_kernel.cuh, mcpi_job_view.uniform).  The drift is measured against
 * its terms' size (b^2 is the variance), which a drift that nearly cancels
 * would not show. */
static void equal_steps(mcpi_job *j)
{
  if (j->model != MCPI_MODEL_BLACK_SCHOLES || j->nassets != 1 || j->nfactors != 1)
    return;
  const double tol = 64 * DBL_EPSILON * (double)j->nelem;
  const double a0 = j->ca[0], b0 = j->cb[0];
  for (size_t e = 1; e < j->nelem; e++)
    if (fabs(j->ca[e] - a0) > tol * (fabs(a0) + b0 * b0) || fabs(j->cb[e] - b0) > tol * b0)
      return;
  for (size_t e = 1; e < j->nelem; e++) {
    j->ca[e] = j->ca[0];
    j->cb[e] = j->cb[0];
  }
}

/* The cash dividends paid within the job's dates: the amount dropped at the
 * end of each step (0 for most) and the steps' tags. */
static mcp_status build_cash(mcpi_job *j, char *err)
{
  const mcpi_underlying *u = j->u[0];
  size_t F = (size_t)j->nfactors, n = j->nsteps;
  double last = j->times[n - 1];
  if (!(j->cash = calloc(n, sizeof *j->cash)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the cash dividends");
  for (size_t i = 0; i < u->ncash; i++) {
    double t = u->cash_t[i] - j->origin; /* as build_grid placed it */
    if (t > 0 && t <= last + MCPI_TIME_EPS) {
      size_t s = grid_index(j->times, n, t);
      j->cash[s] += u->cash_amount[i];
      j->tag[s * F + F - 1] |= MCPI_TAG_CASH;
    }
  }
  return MCP_OK;
}

/* A local-volatility job's surface: its log-spots and a slice a step, each
 * node's root mean square over the step, sqrt(int sigma^2 dt / dt) with
 * sigma linear in time between the surface's times: exact for a surface of
 * time alone (local_vol.h). */
static mcp_status build_slices(mcpi_job *j, char *err)
{
  const mcpi_surface *s = &j->u[0]->lv;
  size_t ns = s->ns, n = j->nsteps;
  if (n * ns > MCPI_MAX_SLICES)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "underlying '%s': %zu simulation times x %zu surface spots exceed the "
                     "%d volatility values a job may hold; use fewer steps or spots",
                     j->u[0]->name, n, ns, MCPI_MAX_SLICES);
  j->lv_n = (int)ns;
  j->lv_y = malloc(ns * sizeof(double));
  j->lv_y_f = malloc(ns * sizeof(float));
  j->lv_vol = malloc(n * ns * sizeof(double));
  j->lv_vol_f = malloc(n * ns * sizeof(float));
  if (!j->lv_y || !j->lv_y_f || !j->lv_vol || !j->lv_vol_f)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the volatility slices");
  for (size_t k = 0; k < ns; k++) {
    j->lv_y[k] = log(s->spots[k]);
    j->lv_y_f[k] = (float)j->lv_y[k];
  }
  /* the bucket table: each bucket the interval of its left end */
  j->lv_nb = ns > 1 ? 4 * (int)ns : 1;
  if (!(j->lv_idx = malloc((size_t)j->lv_nb * sizeof *j->lv_idx)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the volatility slices");
  double span = ns > 1 ? j->lv_y[ns - 1] - j->lv_y[0] : 1;
  j->lv_binv = j->lv_nb / span;
  for (int b = 0, i = 0; b < j->lv_nb; b++) {
    double left = j->lv_y[0] + b / j->lv_binv;
    while (i + 2 < (int)ns && j->lv_y[i + 1] <= left)
      i++;
    j->lv_idx[b] = i;
  }
  size_t r = 0; /* the row bracket of the step's start: times[r - 1] <= t0 < times[r] */
  for (size_t i = 0; i < n; i++)
    mcpi_job_slice(j, i ? j->times[i - 1] : 0, j->times[i], &r, j->lv_vol + i * ns,
                   j->lv_vol_f + i * ns);
  return MCP_OK;
}

void mcpi_job_slice(const mcpi_job *j, double t0, double t1, size_t *row, double *vol,
                    float *vol_f)
{
  const mcpi_surface *s = &j->u[0]->lv;
  size_t ns = s->ns, r = *row;
  while (r < s->nt && s->times[r] <= t0)
    r++;
  *row = r;
  for (size_t k = 0; k < ns; k++) {
    /* pieces between t0, the surface's times inside the step, and t1 */
    double acc = 0, pt = t0, pv = mcpi_surface_row_at(s, r, t0, k);
    for (size_t q = r;; q++) {
      int inside = q < s->nt && s->times[q] < t1;
      double qt = inside ? s->times[q] : t1;
      double qv = inside ? s->values[q * ns + k] : mcpi_surface_row_at(s, q, t1, k);
      acc += (qt - pt) * (pv * pv + pv * qv + qv * qv) / 3;
      if (!inside)
        break;
      pt = qt;
      pv = qv;
    }
    double v = sqrt(acc / (t1 - t0));
    vol[k] = v;
    vol_f[k] = (float)v;
  }
}

int mcpi_job_step_coefficients(const mcpi_job *j, double t0, double t1, size_t f, double *a,
                               double *b)
{
  size_t F = (size_t)j->nfactors, per = j->nassets > 1 ? F / j->nassets : F;
  /* a multi-asset job draws its assets' factors in turn */
  const mcpi_underlying *u = j->u[j->nassets > 1 ? f / per : 0];
  double dt = t1 - t0;
  if (j->extrema && f == (size_t)j->extrema) { /* reads the normal alone */
    *a = *b = 0;
    return 0;
  }
  double rq = mcpi_curve_integral(&u->rate, t0, t1) - mcpi_curve_integral(&u->dividend, t0, t1);
  double v2 = mcpi_curve_integral_sq(&u->vol, t0, t1);
  switch (j->model) {
  case MCPI_MODEL_HESTON: /* an asset's first factor drives its variance */
    *a = f % 2 == 0 ? rq : exp(-u->kappa * dt);
    *b = f % 2 == 0 ? dt : 0;
    break;
  case MCPI_MODEL_MERTON: {
    double jump_k = exp(u->jump_mean + 0.5 * u->jump_vol * u->jump_vol) - 1;
    if (u->lambda * dt > MCPI_MAX_JUMP_MEAN)
      return -1;
    *a = f == 0 ? rq - 0.5 * v2 - u->lambda * jump_k * dt : f == 1 ? u->lambda * dt : u->jump_mean;
    *b = f == 0 ? sqrt(v2) : f == 1 ? 0 : u->jump_vol;
    break;
  }
  case MCPI_MODEL_LOCAL_VOL: /* the volatility comes from the slice */
    *a = rq;
    *b = sqrt(dt);
    break;
  default:
    *a = rq - 0.5 * v2;
    *b = sqrt(v2);
  }
  return 0;
}

/* The per-element coefficients of path.h, and the fixing tags. */
static mcp_status build_coefficients(mcpi_job *j, const job_draft *d, char *err)
{
  mcp_status st;
  size_t ne = j->nelem, F = (size_t)j->nfactors;
  j->ca = malloc(ne * sizeof(double));
  j->cb = malloc(ne * sizeof(double));
  j->ca_f = malloc(ne * sizeof(float));
  j->cb_f = malloc(ne * sizeof(float));
  j->tag = calloc(ne, sizeof(uint32_t));
  j->sqrt_dt = malloc(ne * sizeof(double));
  if (!j->ca || !j->cb || !j->ca_f || !j->cb_f || !j->tag || !j->sqrt_dt)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
  const mcpi_underlying *u0 = j->u[0];
  for (size_t s = 0; s < j->nsteps; s++) {
    double t0 = s ? j->times[s - 1] : 0, t1 = j->times[s], dt = t1 - t0;
    double *a = j->ca + s * F, *b = j->cb + s * F;
    for (size_t f = 0; f < F; f++) {
      j->tag[s * F + f] = (uint32_t)f << MCPI_TAG_FACTOR_SHIFT;
      j->sqrt_dt[s * F + f] = sqrt(dt);
      if (mcpi_job_step_coefficients(j, t0, t1, f, &a[f], &b[f])) {
        const mcpi_underlying *u = j->u[0]; /* Merton: one underlying */
        return mcpi_fail(err, MCP_ERR_INPUT,
                         "underlying '%s': lambda x step = %g expected jumps in one step, "
                         "more than %g; add simulation times (steps_per_year)",
                         u->name, u->lambda * dt, MCPI_MAX_JUMP_MEAN);
      }
    }
    j->tag[s * F + F - 1] |= MCPI_TAG_LAST;
  }
  if (j->model == MCPI_MODEL_LOCAL_VOL && j->nassets == 1 &&
      (st = build_slices(j, err)) != MCP_OK)
    return st;
  equal_steps(j);
  for (size_t e = 0; e < ne; e++) {
    j->ca_f[e] = (float)j->ca[e];
    j->cb_f[e] = (float)j->cb[e];
  }
  for (int k = 0; k < d->nsched; k++)
    for (size_t i = 0; i < d->sched[k].n; i++)
      j->tag[grid_index(j->times, j->nsteps, d->sched[k].t[i]) * F + F - 1] |= 1u << k;
  return j->nassets == 1 && u0->ncash ? build_cash(j, err) : MCP_OK;
}

/* Average variance of the trade's underlying over [0, T], for the BGK shift. */
static double mean_variance(const mcpi_underlying *u, double T)
{
  if (u->model == MCPI_MODEL_HESTON)
    return u->theta + (u->v0 - u->theta) * (1 - exp(-u->kappa * T)) / (u->kappa * T);
  return mcpi_curve_integral_sq(&u->vol, 0, T) / T;
}

/* Whether the floor at 0 of u's spot, after a cash dividend paid by t, may
 * bind: the spot just before it falls below it with a probability above
 * 1e-9 under the law without the floor (lognormal), so that forward() is
 * not the spot's mean.  Such an underlying has no control variate of its
 * spot and no martingale check (the paths floor it, and are right). */
static int floor_binds(const mcpi_underlying *u, double t, double origin)
{
  for (size_t i = 0; i < u->ncash; i++) {
    double ti = u->cash_t[i] - origin, d = u->cash_amount[i];
    if (!(ti > 0 && ti <= t))
      continue;
    double f = forward(u, ti, origin) + d, var = mcpi_curve_integral_sq(&u->vol, 0, ti);
    if (!(f > d) || (var > 0 && 0.5 * erfc(-(log(d / f) + 0.5 * var) / sqrt(2 * var)) > 1e-9))
      return 1;
  }
  return 0;
}

/* The trade's control variate and its mean. */
static void set_control(const mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  const mcpi_underlying *u = j->u[0];
  double T = t->maturity;
  if (j->nassets == 1 && floor_binds(u, T, j->origin))
    return;
  if (j->nassets > 1) {
    double mean = 0;
    for (size_t a = 0; a < j->nassets; a++)
      if (s->assets >> a & 1u)
        mean += (t->product == MCP_PRODUCT_BASKET ? s->weight[a] : 1) * j->u[a]->spot *
                forward_growth(j->u[a], T);
    s->control = MCPI_CV_TERMINAL;
    s->control_mean = s->discount * mean;
    return;
  }
  if (t->product == MCP_PRODUCT_ASIAN && t->average == MCP_ARITHMETIC &&
      t->strike_kind == MCP_FIXED_STRIKE) {
    if (u->model == MCPI_MODEL_BLACK_SCHOLES && !u->ncash) {
      s->control = MCPI_CV_GEOMETRIC;
      s->control_mean = mcpi_geometric_asian(t->type, u->spot, t->strike, &u->rate,
                                             &u->dividend, &u->vol, t->nfix, t->fix,
                                             s->discount);
      return;
    }
    double mean = 0;
    for (size_t i = 0; i < t->nfix; i++)
      mean += forward(u, t->fix[i], j->origin);
    s->control = MCPI_CV_AVERAGE;
    s->control_mean = s->discount * mean / (double)t->nfix;
    return;
  }
  s->control = MCPI_CV_TERMINAL;
  s->control_mean = s->discount * forward(u, T, j->origin);
}

/* The martingale check of every simulated underlying (issue 17): after the
 * job's trades, a forward a asset paying its spot at the job's last date,
 * on the schedule of that date alone, which the job always has (the last
 * date is some trade's maturity), so that the job's schedules, shape and
 * paths stay as they were; quantity 0, outside the book.  Jobs of per-path
 * arrays run only their own products and have none. */
static void add_forwards(mcpi_job *j, const job_draft *d)
{
  double last = 0;
  for (int k = 0; k < d->nsched; k++)
    last = fmax(last, d->sched[k].t[d->sched[k].n - 1]);
  int at = find_schedule(d, (schedule){1, &last});
  if (j->arr_len || at < 0)
    return;
  size_t nf = 0; /* the forwards added, in fwd[] */
  for (size_t a = 0; a < j->nassets; a++) {
    const mcpi_underlying *u = j->u[a];
    if (floor_binds(u, last, j->origin))
      continue;
    double discount = exp(-mcpi_curve_integral(&u->rate, 0, last));
    mcpi_payoff_spec *s = &j->spec[j->ntrades++];
    *s = (mcpi_payoff_spec){.product = j->nassets > 1 ? MCP_PRODUCT_BASKET : MCP_PRODUCT_EUROPEAN,
                            .type = MCP_CALL, .schedule = at, .terminal = at, .monitor = -1,
                            .inv_nfix = 1, .discount = discount, .g_col = -1};
    if (j->nassets > 1) {
      s->assets = 1u << a;
      s->weight[a] = 1;
    }
    j->fwd[nf++] = discount * forward(u, last, j->origin);
  }
}

/* A Longstaff-Schwartz trade's spec: what it exercises, and the unit of
 * its basis, the strike (or the underlying at 0 for a strike of 0). */
static void lsm_spec(const mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  double s0[MCP_MAX_ASSETS], under;
  s->flags = MCPI_LSM | (t->payoff == MCP_PRODUCT_BEST_OF    ? MCPI_LSM_BEST
                         : t->payoff == MCP_PRODUCT_WORST_OF ? MCPI_LSM_WORST
                                                             : 0);
  for (size_t a = 0; a < j->nassets; a++) {
    s0[a] = j->u[a]->spot;
    if (j->nassets > 1) {
      size_t ta = 0;
      while (strcmp(t->asset[ta], j->u[a]->name) != 0)
        ta++;
      s->assets |= 1u << a;
      s->weight[a] = t->weight ? t->weight[ta] : 0;
    }
  }
  mcpi_lsm_exercise(s, s0, (int)j->nassets, &under);
  s->lsm_inv = t->strike > 0 ? 1 / t->strike : under > 0 ? 1 / under : 1;
}

/* The Longstaff-Schwartz table's discount factors and the last date's
 * rule (lsm.h); the fit sets the other rules. */
static mcp_status lsm_table(mcpi_job *j, const mcp_portfolio *p, const job_draft *d,
                            char *err)
{
  const mcpi_trade *t = &p->t[j->trade[0]];
  schedule dates = main_schedule(d, t);
  size_t n = dates.n, ns = j->nassets > 1 ? j->nassets : j->model == MCPI_MODEL_HESTON ? 2 : 1;
  /* by default the run's paths, at most MCP_DEFAULT_REGRESSION_PATHS and
   * what the states may hold, and at least the basis's floor (lsm.h: the
   * fit's paths are a stream of their own, not the run's) */
  int nb = mcpi_lsm_nbasis((int)j->nassets, j->model == MCPI_MODEL_HESTON);
  uint64_t room = (uint64_t)MCPI_LSM_MAX_STATES / (n * ns), fit = p->regression_paths;
  uint64_t least = MCPI_LSM_MIN_PATHS(nb);
  if (!fit) {
    fit = p->paths < MCP_DEFAULT_REGRESSION_PATHS ? p->paths : MCP_DEFAULT_REGRESSION_PATHS;
    fit = fit > least ? fit : least;
    fit = fit < room ? fit : room > least ? room : least;
  }
  if ((double)fit * (double)n * (double)ns > (double)MCPI_LSM_MAX_STATES)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': %llu regression paths x %zu exercise dates x %zu values a "
                     "date exceed the %d the fit keeps; %s", t->id, (unsigned long long)fit, n,
                     ns, MCPI_LSM_MAX_STATES,
                     p->regression_paths ? "lower run.regression_paths or the exercise dates"
                                         : "lower the exercise dates");
  if (fit < least)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': run.regression_paths: %llu paths fit its %d basis functions "
                     "on fewer than the %d paths each the regression needs; give at least %llu",
                     t->id, (unsigned long long)fit, nb, MCPI_LSM_MIN_PATHS(1),
                     (unsigned long long)least);
  if (d->nsched > MCPI_LSM_SCHEDULES || d->nmon) /* a job a trade: its dates, its maturity */
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': its job holds %d schedules; the "
                     "exercise's paths keep %d", t->id, d->nsched, MCPI_LSM_SCHEDULES);
  if (!(j->lsm_table = calloc(n * MCPI_LSM_ROW, sizeof *j->lsm_table)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  j->lsm_dates = (int)n;
  j->lsm_nb = nb;
  j->lsm_sched = find_schedule(d, dates);
  j->lsm_paths = fit;
  size_t tagged = 0; /* a step a date: the dates are more than MCPI_TIME_EPS apart */
  for (size_t e = 0; e < j->nelem; e++)
    tagged += (j->tag[e] & MCPI_TAG_LAST) && (j->tag[e] >> j->lsm_sched & 1u);
  if (tagged != n)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': %zu exercise dates fall on %zu "
                     "simulation steps; expected dates more than %g years apart", t->id, n,
                     tagged, MCPI_TIME_EPS);
  for (size_t e = 0; e < n; e++) {
    double *row = j->lsm_table + e * MCPI_LSM_ROW;
    row[0] = exp(-mcpi_curve_integral(&j->u[0]->rate, 0, dates.t[e]));
    row[1] = e + 1 == n ? MCPI_LSM_ALWAYS : MCPI_LSM_HOLD;
  }
  return MCP_OK;
}

/* An autocallable's spec (after the per-path array's fields), its rows of
 * the job's table of dates, and its redemption columns, after the columns
 * so far. */
static void autocall_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  s->discount = 1; /* its amounts are discounted from their dates */
  s->ac_row = (int32_t)j->nacall;
  s->coupon = t->coupon;
  s->log_coupon = log(t->coupon_barrier);
  s->log_knock_in = t->monitoring == MCP_MONITOR_DISCRETE ? log(t->knock_in) : -INFINITY;
  s->flags = t->memory ? MCPI_MEMORY : 0;
  for (size_t a = 0; a < t->nassets; a++) {
    size_t ja = 0;
    while (strcmp(j->u[ja]->name, t->asset[a]) != 0)
      ja++;
    s->assets |= 1u << ja;
    s->log_initial[ja] = log(t->initial[a]);
  }
  const mcpi_underlying *first = j->u[0]; /* its first asset's curve discounts */
  for (size_t a = 0; a < j->nassets; a++)
    if (strcmp(j->u[a]->name, t->asset[0]) == 0)
      first = j->u[a];
  for (size_t k = 0; k < t->nfix; k++) {
    double *row = j->acall + (j->nacall + k) * MCPI_AC_ROW;
    row[0] = exp(-mcpi_curve_integral(&first->rate, 0, t->fix[k]));
    row[1] = log(t->autocall[k]);
    j->spec[j->ntrades++] = (mcpi_payoff_spec){
        .product = MCPI_PRODUCT_REDEMPTION, .schedule = s->schedule, .terminal = s->terminal,
        .monitor = -1, .arr_off = s->arr_off, .ac_date = (int32_t)k, .discount = 1,
        .g_col = -1};
  }
  j->nacall += t->nfix;
  j->nred += t->nfix;
}

static mcp_status build_specs(mcpi_job *j, const mcp_portfolio *p, const job_draft *d,
                              char *err)
{
  size_t dates = 0;
  for (size_t i = 0; i < j->nreal; i++)
    if (p->t[j->trade[i]].product == MCP_PRODUCT_AUTOCALLABLE)
      dates += p->t[j->trade[i]].nfix;
  if (!(j->spec = calloc(j->ntrades + dates + 1 + j->nassets, sizeof *j->spec)) ||
      (dates && !(j->acall = malloc(dates * MCPI_AC_ROW * sizeof *j->acall))))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  for (size_t i = 0; i < j->nreal; i++) {
    const mcpi_trade *t = &p->t[j->trade[i]];
    const mcpi_underlying *u = j->u[0];
    mcpi_payoff_spec *s = &j->spec[i];
    int floating = t->strike_kind == MCP_FLOATING_STRIKE &&
                   (t->product == MCP_PRODUCT_ASIAN || t->product == MCP_PRODUCT_LOOKBACK);
    *s = (mcpi_payoff_spec){
        .product = t->product, .type = t->type,
        .schedule = find_schedule(d, main_schedule(d, t)),
        .terminal = find_schedule(d, terminal_schedule(t)),
        .monitor = find_monitor(d, t),
        .flags = (t->product == MCP_PRODUCT_BARRIER && barrier_up(t) ? MCPI_UP : 0) |
                 (t->product == MCP_PRODUCT_BARRIER &&
                          (t->barrier_kind == MCP_UP_AND_IN || t->barrier_kind == MCP_DOWN_AND_IN)
                      ? MCPI_KNOCK_IN
                      : 0) |
                 (floating ? MCPI_FLOATING : 0) |
                 (t->product == MCP_PRODUCT_ASIAN && t->average == MCP_GEOMETRIC
                      ? MCPI_GEOMETRIC
                      : 0) |
                 (t->product == MCP_PRODUCT_DIGITAL && t->digital == MCP_ASSET_OR_NOTHING
                      ? MCPI_ASSET
                      : 0),
        .strike = t->strike, .inv_nfix = 1.0 / (double)t->nfix,
        .discount = exp(-mcpi_curve_integral(&u->rate, 0, t->maturity)),
        .quantity = t->quantity, .rebate = t->rebate, .cash = t->cash, .g_col = -1};
    if (mcpi_lsm_product(t->product)) {
      lsm_spec(j, t, s);
      continue; /* no control variate */
    }
    if (mcpi_private_product(t->product)) {
      s->arr_off = j->arr_len;
      s->arr_len = trade_array_len(t);
      j->arr_len += s->arr_len;
      s->nper = (int32_t)t->nfix;
      s->best = t->best ? (int32_t)t->best : (int32_t)t->nfix;
      s->window = (int32_t)t->window;
      s->inv_window = t->window ? 1.0 / (double)t->window : 0;
      s->notional = t->notional;
      s->local_floor = t->local_floor;
      s->local_cap = t->local_cap;
      s->global_floor = t->global_floor;
      s->global_cap = t->global_cap;
      s->flags = t->barrier_kind == MCP_UP_AND_OUT ? MCPI_UP : 0;
      s->barrier = t->barrier;
      if (t->product == MCP_PRODUCT_AUTOCALLABLE)
        autocall_spec(j, t, s);
      continue; /* no control variate */
    }
    if (t->product == MCP_PRODUCT_BARRIER) {
      double shift = 0;
      if (t->monitoring == MCP_MONITOR_BGK) {
        double dt = t->fix[t->nfix - 1] / (double)t->nfix;
        shift = MCPI_BGK_BETA * sqrt(mean_variance(u, t->maturity) * dt);
      }
      /* the discrete barrier moves towards the spot by the shift to price the
       continuous one: the path is seen less often, so it must be caught
       sooner */
      s->log_barrier = log(t->barrier) + (barrier_up(t) ? -shift : shift);
    }
    if (multi_asset(t)) {
      for (size_t a = 0; a < t->nassets; a++) {
        size_t ja = 0;
        while (strcmp(j->u[ja]->name, t->asset[a]) != 0)
          ja++;
        s->assets |= 1u << ja;
        if (t->weight)
          s->weight[ja] = t->weight[a];
      }
    }
    if (mcpi_trade_methods(p, t) & MCP_CONTROL_VARIATE) {
      set_control(j, t, s);
      j->controls = 1;
    }
  }
  if (j->spec[0].flags & MCPI_LSM) { /* its European: the same spec held (plan.h) */
    j->spec[j->ntrades] = j->spec[0];
    j->spec[j->ntrades].flags |= MCPI_LSM_HELD;
    j->spec[j->ntrades++].quantity = 0;
    j->nheld = 1;
  }
  add_forwards(j, d);
  return MCP_OK;
}

/* The Cholesky factor of the correlations of the job's factors.
 * Black-Scholes: one an asset, its Brownian motion.  Heston: two an asset,
 * in the order the one-asset step reads them (heston.h), z_v = W_v, the
 * variance's Brownian motion, and z_x = (W_x - rho W_v) / sqrt(1 - rho^2),
 * the spot's part independent of it; their correlations follow from those
 * of the 2 n Brownian motions (mcpi_market_bm_correlation), which must be
 * positive definite, and each asset's own pair is exactly uncorrelated and
 * of unit variance, so that an asset's step is the one-asset step. */
static mcp_status build_correlation(mcpi_job *j, const mcp_market *m, const job_key *k,
                                    const mcpi_trade *t, char *err)
{
  size_t per = j->model == MCPI_MODEL_HESTON ? 2 : 1, n = j->nassets * per;
  for (size_t a = 0; per == 2 && a < j->nassets; a++)
    if (fabs(j->u[a]->rho) >= 1)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': assets: '%s' has rho %g, its spot and variance one "
                       "Brownian motion; several Heston assets need |rho| < 1",
                       t->id, j->u[a]->name, j->u[a]->rho);
  size_t bm[MCPI_MAX_FACTORS];
  double c[MCPI_MAX_FACTORS * MCPI_MAX_FACTORS], l[MCPI_MAX_FACTORS * MCPI_MAX_FACTORS];
  for (size_t a = 0; a < j->nassets; a++) {
    bm[a * per] = per == 2 ? MCPI_VARIANCE_BM(k->asset[a]) : MCPI_SPOT_BM(k->asset[a]);
    if (per == 2)
      bm[a * per + 1] = MCPI_SPOT_BM(k->asset[a]);
  }
  for (size_t p = 0; p < n; p++)
    for (size_t q = 0; q < n; q++)
      c[p * n + q] = mcpi_market_bm_correlation(m, bm[p], bm[q]);
  size_t row = mcpi_cholesky(n, c, l);
  if (row) {
    char name[MCPI_MAX_ID_BYTES + 16];
    mcpi_market_bm_name(m, bm[row - 1], name, sizeof name);
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': the correlation matrix of its assets%s is not positive "
                     "definite (Cholesky fails at '%s')",
                     t->id, per == 2 ? "' spots and variances" : "", name);
  }
  if (per == 2) { /* the drivers' correlations, T c T' */
    double d[MCPI_MAX_FACTORS * MCPI_MAX_FACTORS], w[MCPI_MAX_FACTORS][2];
    size_t col[MCPI_MAX_FACTORS][2];
    for (size_t a = 0; a < j->nassets; a++) {
      double rho = j->u[a]->rho, s = sqrt(1 - rho * rho);
      size_t v = 2 * a, x = 2 * a + 1;
      col[v][0] = col[v][1] = v;
      w[v][0] = 1, w[v][1] = 0;
      col[x][0] = x, col[x][1] = v;
      w[x][0] = 1 / s, w[x][1] = -rho / s;
    }
    for (size_t p = 0; p < n; p++)
      for (size_t q = 0; q < n; q++) {
        double sum = 0;
        for (int r = 0; r < 2; r++)
          for (int u = 0; u < 2; u++)
            sum += w[p][r] * w[q][u] * c[col[p][r] * n + col[q][u]];
        d[p * n + q] = p == q ? 1 : p / 2 == q / 2 ? 0 : sum;
      }
    if ((row = mcpi_cholesky(n, d, l)))
      return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': the correlations of its assets' "
                       "Heston drivers are not positive definite (row %zu)", t->id, row - 1);
  }
  j->chol = calloc(MCPI_CHOL_SIZE, sizeof *j->chol);
  j->chol_f = calloc(MCPI_CHOL_SIZE, sizeof *j->chol_f);
  if (!j->chol || !j->chol_f)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  for (size_t p = 0; p < n; p++)
    for (size_t q = 0; q <= p; q++) {
      j->chol[p * MCPI_MAX_FACTORS + q] = l[p * n + q];
      j->chol_f[p * MCPI_MAX_FACTORS + q] = (float)l[p * n + q];
    }
  return MCP_OK;
}

static mcp_status build_job(mcpi_job *j, const mcp_market *m, const mcp_portfolio *p,
                            const job_key *k, const job_draft *d, char *err)
{
  const mcpi_trade *first = &p->t[j->trade[0]];
  j->nassets = k->n;
  for (size_t a = 0; a < k->n; a++)
    j->u[a] = &m->u[k->asset[a]];
  /* several assets: Black-Scholes, or Heston throughout (trade_key) */
  j->model = k->n > 1 && j->u[0]->model != MCPI_MODEL_HESTON ? MCPI_MODEL_BLACK_SCHOLES
                                                               : j->u[0]->model;
  j->nfactors = k->n > 1 ? (int)k->n * (j->model == MCPI_MODEL_HESTON ? 2 : 1)
                : j->model == MCPI_MODEL_HESTON ? MCPI_FACTORS_HESTON
                : j->model == MCPI_MODEL_MERTON ? MCPI_FACTORS_MERTON
                                                : MCPI_FACTORS_BLACK_SCHOLES;
  if (k->extrema) /* the model's factors, then the extremes' */
    j->extrema = j->nfactors++;
  j->antithetic = k->antithetic;
  j->qmc = k->qmc;
  j->origin = p->origin;
  j->scheme = p->heston;
  mcp_status st;
  if ((st = build_grid(j, p, d, err)) || (st = build_coefficients(j, d, err)) ||
      (k->n > 1 && (st = build_correlation(j, m, k, first, err))) ||
      (st = build_specs(j, p, d, err)) || (k->lsm && (st = lsm_table(j, p, d, err))))
    return st;
  j->nmon = d->nmon;
  for (int i = 0; i < d->nmon; i++) {
    j->mon_log_barrier[i] = log(d->mon[i].barrier);
    j->mon_up[i] = d->mon[i].up;
    j->mon_maturity[i] = d->mon[i].maturity;
    j->mon_end[i] = (int)grid_index(j->times, j->nsteps, d->mon[i].maturity);
  }
  if (j->qmc && mcpi_bridge_build(&j->bridge, j->nsteps, j->times))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the Brownian bridge");
  return MCP_OK;
}

/* The name that seeds a job's stream: its assets, and its sampling (control
 * characters, which names cannot hold, keep the suffixes apart). */
static void stream_name(const mcp_market *m, const job_key *k, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = 0;
  for (size_t a = 0; a < k->n && used < len; a++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", a ? "," : "", m->u[k->asset[a]].name);
  if (used < len)
    snprintf(buf + used, len - used, "%s%s%s%s", k->antithetic ? "\001a" : "",
             k->qmc ? "\001q" : "", k->extrema ? "\001x" : "", k->lsm ? "\001l" : "");
}

/* Trades by key, so that forming a job reads its key's trades alone (a
 * book of 10^5 trades forms thousands of jobs): the trades sorted by the
 * hash of their key (its maturity aside: keys equal within MCPI_TIME_EPS
 * hash alike), then by index; at[i] is trade i's place. */
typedef struct key_entry {
  uint64_t hash;
  size_t trade;
} key_entry;

static uint64_t key_hash(const job_key *k)
{
  uint64_t h = 0xcbf29ce484222325u;
  const uint64_t v[] = {k->n, (uint64_t)k->antithetic, (uint64_t)k->qmc, (uint64_t)k->array,
                        (uint64_t)k->extrema, k->lsm};
  for (size_t i = 0; i < sizeof v / sizeof *v; i++)
    h = (h ^ v[i]) * 0x100000001b3u;
  for (size_t a = 0; a < k->n; a++)
    h = (h ^ k->asset[a]) * 0x100000001b3u;
  return h;
}

static int cmp_entry(const void *x, const void *y)
{
  const key_entry *a = x, *b = y;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  return (a->trade > b->trade) - (a->trade < b->trade);
}

/* Jobs a stream name has had so far, by name: a job's ordinal among them
 * seeds its stream. */
typedef struct name_counts {
  char **name;
  unsigned *count;
  size_t n, cap;
  mcpi_name_table index;
} name_counts;

static const char *counted_name(const void *owner, size_t i)
{
  return ((const name_counts *)owner)->name[i];
}

/* The count of name's jobs (a new name at 0), or NULL when out of memory. */
static unsigned *name_count(name_counts *c, const char *name)
{
  long i = mcpi_name_find(&c->index, name, counted_name, c);
  if (i >= 0)
    return &c->count[i];
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    char **nm = realloc(c->name, cap * sizeof *nm);
    if (nm)
      c->name = nm;
    unsigned *ct = realloc(c->count, cap * sizeof *ct);
    if (ct)
      c->count = ct;
    if (!nm || !ct)
      return NULL;
    c->cap = cap;
  }
  if (!mcpi_name_reserve(&c->index, c->n, counted_name, c) || !(c->name[c->n] = strdup(name)))
    return NULL;
  c->count[c->n] = 0;
  mcpi_name_insert(&c->index, c->n, counted_name, c);
  return &c->count[c->n++];
}

static void name_counts_free(name_counts *c)
{
  for (size_t i = 0; i < c->n; i++)
    free(c->name[i]);
  free(c->name);
  free(c->count);
  mcpi_name_table_free(&c->index);
}

mcp_status mcpi_plan_build(const mcp_market *m, const mcp_portfolio *p,
                           const mcp_pde_settings *grid, mcpi_plan *plan, char *err)
{
  memset(plan, 0, sizeof *plan);
  plan->paths = p->paths;
  plan->scramblings = p->scramblings;
  if (p->n == 0)
    return mcpi_fail(err, MCP_ERR_INPUT, "the portfolio has no trades");
  job_key *keys = calloc(p->n, sizeof *keys);
  size_t *assigned = calloc(p->n, sizeof *assigned);
  size_t *members = malloc(p->n * sizeof *members), *at = malloc(p->n * sizeof *at);
  key_entry *byk = malloc(p->n * sizeof *byk);
  name_counts names = {0};
  /* every trade can open a job at worst */
  plan->jobs = calloc(p->n, sizeof *plan->jobs);
  mcp_status st = MCP_OK;
  if (!keys || !assigned || !members || !at || !byk || !plan->jobs) {
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
    goto done;
  }
  for (size_t i = 0; i < p->n && st == MCP_OK; i++) /* grid trades are the PDE's */
    if (!(assigned[i] = mcpi_trade_on_grid(m, p, grid, &p->t[i])))
      st = trade_key(m, p, &p->t[i], &keys[i], err);
  for (size_t i = 0; i < p->n; i++) /* keys[i] of a failed trade_key: zeros */
    byk[i] = (key_entry){assigned[i] ? 0 : key_hash(&keys[i]), i};
  qsort(byk, p->n, sizeof *byk, cmp_entry);
  for (size_t q = 0; q < p->n; q++)
    at[byk[q].trade] = q;
  /* Jobs in order of their first trade; a job of the same key opens when the
   * schedules or monitors are full.  ordinal counts jobs of one stream name. */
  for (size_t first = 0; first < p->n && st == MCP_OK; first++) {
    if (assigned[first])
      continue;
    char name[MCP_MAX_ASSETS * (MCPI_MAX_ID_BYTES + 1) + 8];
    stream_name(m, &keys[first], name, sizeof name);
    unsigned *count = name_count(&names, name);
    if (!count) {
      st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
      break;
    }
    unsigned ordinal = *count; /* jobs already drawing from this name */
    for (size_t start = first; start < p->n && st == MCP_OK;) {
      job_draft d = {.nsched = 0};
      const mcpi_trade *lead = &p->t[first];
      double *ex = NULL; /* an American by Monte Carlo's dates */
      if (keys[first].lsm && lead->product == MCP_PRODUCT_AMERICAN) {
        if (!(ex = malloc(lead->exercises * sizeof *ex))) {
          st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
          break;
        }
        mcpi_american_dates(lead->exercises, lead->maturity, p->origin, ex);
        d.ex = (schedule){lead->exercises, ex};
      }
      size_t nm = 0, next = p->n;
      /* the trades from start on of first's key: those of its hash */
      for (size_t q = at[start]; q < p->n && byk[q].hash == byk[at[start]].hash; q++) {
        size_t i = byk[q].trade;
        if (assigned[i] || !same_key(&keys[i], &keys[first]))
          continue;
        if (!draft_add(&d, &p->t[i])) {
          if (next == p->n)
            next = i;
          continue;
        }
        members[nm++] = i;
        assigned[i] = 1;
      }
      mcpi_job *j = &plan->jobs[plan->njobs++];
      j->lsm_stream = mcpi_rng_job_seed(p->seed, name, ordinal | 1u << 31); /* the fit's */
      j->stream = mcpi_rng_job_seed(p->seed, name, ordinal++);
      j->ntrades = j->nreal = nm;
      if (!(j->trade = malloc(nm * sizeof *j->trade))) {
        st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
        free(ex);
        break;
      }
      memcpy(j->trade, members, nm * sizeof *members);
      st = build_job(j, m, p, &keys[first], &d, err);
      free(ex);
      start = next;
    }
    *count = ordinal;
  }
  /* a standard error needs two samples, and a control variate's fitted
   * beta one more; fewer would report 0 +- 0 */
  for (size_t i = 0; st == MCP_OK && i < plan->njobs; i++) {
    const mcpi_job *j = &plan->jobs[i];
    uint64_t samples = mcpi_job_samples(plan, j);
    size_t ctl = j->ntrades; /* the first trade with a control variate */
    for (size_t t = 0; t < j->ntrades && ctl == j->ntrades; t++)
      if (j->spec[t].control)
        ctl = t;
    int control = ctl < j->ntrades;
    unsigned per = j->antithetic ? 2 : 1, need = control ? 3 : 2;
    if (j->antithetic && plan->paths % 2)
      /* the last pair would be half reported, or its extra path unreported */
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "paths: trade '%s' (antithetic) needs an even number of paths, each "
                     "sample a pair, got %llu",
                     p->t[j->trade[0]].id, (unsigned long long)plan->paths);
    else if (j->qmc && samples < 2)
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "paths: QMC with %u scramblings needs at least %u paths%s, got %llu",
                     plan->scramblings, 2 * plan->scramblings * per,
                     j->antithetic ? " (antithetic)" : "", (unsigned long long)plan->paths);
    else if (!j->qmc && samples < need)
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "paths: trade '%s'%s%s needs at least %u paths for a standard error, "
                     "got %llu",
                     p->t[j->trade[control ? ctl : 0]].id, control ? " (control variate)" : "",
                     j->antithetic ? " (antithetic)" : "", need * per,
                     (unsigned long long)plan->paths);
  }
done:
  free(keys);
  free(assigned);
  free(members);
  free(at);
  free(byk);
  name_counts_free(&names);
  if (st != MCP_OK)
    mcpi_plan_free(plan);
  return st;
}

void mcpi_plan_free(mcpi_plan *plan)
{
  for (size_t i = 0; i < plan->njobs; i++) {
    mcpi_job *j = &plan->jobs[i];
    free(j->times);
    free(j->ca);
    free(j->cb);
    free(j->ca_f);
    free(j->cb_f);
    free(j->tag);
    free(j->sqrt_dt);
    free(j->lv_y);
    free(j->lv_vol);
    free(j->lv_y_f);
    free(j->lv_vol_f);
    free(j->lv_idx);
    free(j->cash);
    free(j->lsm_table);
    free(j->acall);
    free(j->chol);
    free(j->chol_f);
    free(j->trade);
    free(j->spec);
    free(j->est);
    free(j->term);
    free(j->pass);
    mcpi_bridge_free(&j->bridge);
  }
  free(plan->jobs);
  memset(plan, 0, sizeof *plan);
}

unsigned mcpi_job_replicates(const mcpi_plan *plan, const mcpi_job *j)
{
  return j->qmc ? plan->scramblings : 1;
}

uint64_t mcpi_job_samples(const mcpi_plan *plan, const mcpi_job *j)
{
  uint64_t s = j->antithetic ? (plan->paths + 1) / 2 : plan->paths;
  return j->qmc ? s / plan->scramblings : s;
}

int32_t *mcpi_job_term_offsets(const mcpi_job *j)
{
  size_t nc = j->nest - j->nin;
  int32_t *off = malloc((nc + 1) * sizeof *off);
  if (off) {
    for (size_t k = 0; k < nc; k++)
      off[k] = (int32_t)j->est[j->nin + k].term0;
    off[nc] = (int32_t)j->nterm;
  }
  return off;
}

void mcpi_lsm_copy_rules(const mcpi_job *from, mcpi_job *to)
{
  for (int e = 0; e < to->lsm_dates; e++)
    memcpy(to->lsm_table + (size_t)e * MCPI_LSM_ROW + 1,
           from->lsm_table + (size_t)e * MCPI_LSM_ROW + 1, (MCPI_LSM_ROW - 1) * sizeof(double));
}

void mcpi_job_set_betas(mcpi_job *j, const double *pay, size_t ld, size_t n)
{
  for (size_t t = 0; t < j->ntrades; t++) {
    mcpi_payoff_spec *s = &j->spec[t];
    if (!s->control)
      continue;
    const double *y = pay + t * ld, *x = pay + (j->ntrades + 1 + t) * ld;
    double my = 0, mx = 0, sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
      my += y[i];
      mx += x[i];
    }
    my /= (double)n;
    mx /= (double)n;
    for (size_t i = 0; i < n; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    s->beta = sxx > 0 ? sxy / sxx : 0;
  }
}

/* MCPI_TRACK_* of what the job's trades read: all of it where a Greek is
 * estimated on the path (its estimators read the whole observation). */
static int32_t mcpi_job_track(const mcpi_job *j)
{
  if (j->nest || j->gstate)
    return MCPI_TRACK_LOG_SUM | MCPI_TRACK_EXTREMA;
  int32_t t = 0;
  for (size_t i = 0; i < j->ntrades; i++) {
    const mcpi_payoff_spec *p = &j->spec[i];
    if ((p->product == MCP_PRODUCT_ASIAN && p->flags & MCPI_GEOMETRIC) ||
        p->control == MCPI_CV_GEOMETRIC)
      t |= MCPI_TRACK_LOG_SUM;
    if (p->product == MCP_PRODUCT_LOOKBACK ||
        (p->product == MCP_PRODUCT_BARRIER && p->monitor < 0))
      t |= MCPI_TRACK_EXTREMA;
  }
  return t;
}

mcpi_job_view mcpi_job_host_view(const mcpi_job *j)
{
  mcpi_job_view v = {.log_spot = log(j->u[0]->spot),
                     .nelem = (int32_t)j->nelem,
                     .ntrades = (int32_t)j->ntrades,
                     .model = j->model,
                     .nassets = (int32_t)j->nassets,
                     .antithetic = j->antithetic,
                     .scheme = j->scheme,
                     .nmon = j->nmon,
                     .arr_len = j->arr_len,
                     .narrays = j->arr_len ? (int32_t)j->nreal : 0,
                     .gstate = j->gstate,
                     .extrema = j->extrema,
                     .lr_b = j->nelem ? j->cb[0] : 0,
                     .sqrt_dt = j->sqrt_dt,
                     .ca = j->ca,
                     .cb = j->cb,
                     .ca_f = j->ca_f,
                     .cb_f = j->cb_f,
                     .tag = j->tag,
                     .lv_n = j->lv_n,
                     .lv_y = j->lv_y,
                     .lv_vol = j->lv_vol,
                     .lv_y_f = j->lv_y_f,
                     .lv_vol_f = j->lv_vol_f,
                     .lv_idx = j->lv_idx,
                     .lv_nb = j->lv_nb,
                     .lv_binv = j->lv_binv,
                     .cash = j->cash,
                     .lsm = j->lsm_dates ? j->lsm_table : NULL,
                     .lsm_nb = j->lsm_nb,
                     .lsm_mask = j->lsm_dates ? 1u << j->lsm_sched : 0,
                     .acall = j->acall,
                     .chol = j->chol,
                     .chol_f = j->chol_f,
                     .trades = j->spec,
                     .seed = j->stream};
  for (size_t a = 0; a < j->nassets; a++) {
    const mcpi_underlying *u = j->u[a];
    v.log_spots[a] = log(u->spot);
    v.heston[a] = (mcpi_heston){u->kappa, u->theta, u->xi, u->rho, u->v0};
  }
  v.track = mcpi_job_track(j);
  v.uniform = j->nelem > 0 && j->nfactors == 1; /* read by the one-factor plain kernel */
  for (size_t e = 1; e < j->nelem && v.uniform; e++)
    v.uniform = j->ca[e] == j->ca[0] && j->cb[e] == j->cb[0] &&
                (e + 1 == j->nelem || j->tag[e] == j->tag[0]);
  if (v.uniform) {
    v.ua = j->ca[0];
    v.ub = j->cb[0];
    v.ua_f = j->ca_f[0];
    v.ub_f = j->cb_f[0];
    v.utag = j->tag[0];
    v.utag_last = j->tag[j->nelem - 1];
  }
  for (int i = 0; i < j->nmon; i++) {
    v.mon_log_barrier[i] = j->mon_log_barrier[i];
    v.mon_up[i] = j->mon_up[i];
    v.mon_end[i] = j->mon_end[i];
  }
  return v;
}

/* Whether a job is one Black-Scholes underlying without per-path arrays
 * whose trades use at most nsched schedules and nmon monitors. */
static int job_fits(const mcpi_job *j, int nsched, int nmon)
{
  if (j->model != MCPI_MODEL_BLACK_SCHOLES || j->nassets > 1 || j->arr_len || j->nmon > nmon ||
      j->extrema || j->cash || j->lsm_dates)
    return 0;
  for (size_t e = 0; e < j->nelem; e++)
    if ((j->tag[e] & MCPI_TAG_MASK) >> nsched)
      return 0;
  for (size_t t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->spec[t];
    if (p->schedule >= nsched || p->terminal >= nsched || p->monitor >= nmon)
      return 0;
  }
  return 1;
}

int mcpi_job_small(const mcpi_job *j)
{
  if (!job_fits(j, MCPI_SMALL_SCHEDULES, MCPI_SMALL_MONITORS))
    return 0;
  return job_fits(j, MCPI_PLAIN_SCHEDULES, 0) && mcpi_job_track(j) == 0 ? MCPI_SHAPE_PLAIN
                                                                       : MCPI_SHAPE_SMALL;
}
