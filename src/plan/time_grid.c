/* time_grid.c: a job's simulation times: its schedules' dates, the
 * uniform steps of steps_per_year (the run's, or by default those of a
 * model whose step is not exact), the run's extra grid, the cash
 * dividends' dates and, in a job that watches the Brownian bridge, the
 * knots of its underlyings' curves (some in pairs, for theta: add_knots),
 * sorted and merged within MCPI_TIME_EPS
 * (refused past the random dimensions a job may draw); and a date's place
 * among them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/plan/plan_build.h"
#include "models/rng.h"

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

size_t mcpi_grid_index(const double *g, size_t n, double t)
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

int mcpi_model_inexact(mcpi_model model, int nmon, int extrema)
{
  return model == MCPI_MODEL_HESTON || model == MCPI_MODEL_LOCAL_VOL ||
         (model == MCPI_MODEL_MERTON && (nmon || extrema));
}

/* The uniform steps a year of the job: the run's, or where it gives none,
 * its model's (MCPI_MODEL_STEPS_PER_YEAR). */
static unsigned steps_per_year(const mcpi_job *j, const mcp_portfolio *p, const job_draft *d)
{
  if (p->steps_given)
    return p->steps_per_year;
  return mcpi_model_inexact(j->model, d->nmon, j->extrema) ? MCPI_MODEL_STEPS_PER_YEAR : 0;
}

/* The end of the job's bridge: a Black-Scholes job that watches a barrier
 * on the Brownian bridge or samples the steps' extremes (bridge lookbacks)
 * reads each step's bridge, exact only where the step's volatility and
 * drift are constant; the latest maturity so watched, or 0 for none (the
 * other models' bridges are approximations that their steps refine). */
static double bridge_end(const mcpi_job *j, const job_draft *d, double last)
{
  if (j->model != MCPI_MODEL_BLACK_SCHOLES)
    return 0;
  double end = j->extrema ? last : 0; /* the extremes to the job's one maturity */
  for (int i = 0; i < d->nmon; i++)
    end = fmax(end, d->mon[i].maturity);
  return end;
}

/* Whether sorted g[0..n) holds a time in [lo, hi] (within MCPI_TIME_EPS). */
static int time_in(const double *g, size_t n, double lo, double hi)
{
  size_t i = n ? mcpi_grid_index(g, n, lo) : 0;
  return n && g[i] >= lo - MCPI_TIME_EPS && g[i] <= hi + MCPI_TIME_EPS;
}

/* Adds to j's times g (from n, returned) the knots of c, where a piece ends
 * and the next begins (end[0..n-2]; the last piece goes on), inside the
 * bridge's span (0, end); g[0..dates) holds the job's other times, sorted.
 * Theta's revaluation (p->origin > 0: its dates, uniform steps and grid
 * times a bump closer) keeps the curves' tenors, so its knots stay where
 * they are, and it must keep its base's steps, in number and order, so
 * that both draw the same normals.  A knot k with a date at it or up to a
 * bump h after it (h the portfolio's knot_pair: theta's bump, reval.c)
 * steps twice: the base on k and k + h, theta on k - h and k, each with k
 * among its steps (mcpi_plan_build sets h to the bump theta takes by
 * default, reval.c to another bump asked).  Theta puts a knot past its own
 * span's end (after its last bridge, no step reads it) a bump closer, as
 * its dates.  A knot that cannot pair (within h of today, or of the span's
 * end) steps once; where dates then come between it and theta's, the two
 * differ, and theta is refused (variants.c), not priced wrong.  j->knotted
 * says a knot steps. */
static size_t add_knots(mcpi_job *j, double *g, size_t n, size_t dates, const mcpi_curve *c,
                        double end, const mcp_portfolio *p)
{
  double origin = p->origin, h = mcpi_knot_pair(p);
  double span = end + origin; /* at origin 0 */
  for (size_t i = 0; i + 1 < c->n; i++) {
    double k = c->end[i];
    if (!(k > MCPI_TIME_EPS && k < span - MCPI_TIME_EPS))
      continue;
    int pair = k > h + MCPI_TIME_EPS && k + h < span - MCPI_TIME_EPS &&
               time_in(g, dates, k - origin, k + h - origin);
    j->knotted = 1;
    if (pair) {
      g[n++] = k - origin;
      g[n++] = origin > 0 ? k : k + h;
    } else
      g[n++] = origin > 0 && k >= end - MCPI_TIME_EPS ? k - origin : k;
  }
  return n;
}

mcp_status mcpi_build_grid(mcpi_job *j, const mcp_market *mk, const mcp_portfolio *p,
                           const job_draft *d, char *err)
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
  /* a bridge watched over a knot of the rate, dividend (and repo) or
   * volatility curve would take one volatility and drift for the step: the
   * knots inside the bridge's span become simulation times.  A shifted
   * market's job (a Greek's or a scenario's) takes its base's, so that
   * every variant keeps the base's times (a key-rate shift adds knots). */
  double bend = bridge_end(j, d, last);
  const mcp_market *base = mk->base ? mk->base : mk;
  const mcpi_underlying *ku[MCP_MAX_ASSETS];
  for (size_t a = 0; a < j->nassets; a++) {
    ku[a] = &base->u[j->u[a] - mk->u];
    if (bend > 0)
      cap += 2 * (ku[a]->rate.n + ku[a]->dividend.n + ku[a]->vol.n);
  }
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
  size_t dates = n;
  if (bend > 0)
    qsort(g, dates, sizeof *g, cmp_double);
  for (size_t a = 0; bend > 0 && a < j->nassets; a++) {
    n = add_knots(j, g, n, dates, &ku[a]->rate, bend, p);
    n = add_knots(j, g, n, dates, &ku[a]->dividend, bend, p);
    n = add_knots(j, g, n, dates, &ku[a]->vol, bend, p);
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
