/* plan.c: grouping trades into path jobs and building their time grids. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"
#include "rng.h"
#include "validate.h"

#define MCPI_MAX_STEPS 1000000

/* the canonical RNG mapping has room for every step and path allowed */
_Static_assert(MCPI_MAX_STEPS <= MCPI_RNG_MAX_STEPS, "steps beyond the RNG mapping");
_Static_assert(MCPI_MAX_PATHS <= MCPI_RNG_MAX_PATHS, "paths beyond the RNG mapping");

static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int same_schedule(const mcpi_trade *a, const mcpi_trade *b)
{
  if (a->nfix != b->nfix)
    return 0;
  for (size_t i = 0; i < a->nfix; i++)
    if (fabs(a->fix[i] - b->fix[i]) > MCPI_TIME_EPS)
      return 0;
  return 1;
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

/* Fills the job's grid, coefficients, masks and payoff specs; sched[k] is a
 * trade (portfolio index) carrying schedule k. */
static mcp_status build_job(mcpi_job *j, const mcp_portfolio *p, const size_t *sched,
                            int nsched, char *err)
{
  double last = 0;
  size_t cap = 0;
  for (int k = 0; k < nsched; k++) {
    const mcpi_trade *t = &p->t[sched[k]];
    cap += t->nfix;
    last = fmax(last, t->fix[t->nfix - 1]);
  }
  size_t nuni = p->steps_per_year ? (size_t)ceil(last * p->steps_per_year - 1e-9) : 0;
  cap += nuni + p->ngrid;
  if (cap > MCPI_MAX_STEPS)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "underlying '%s': %zu simulation times, more than the %d allowed; "
                     "lower steps_per_year or the number of fixings",
                     j->u->name, cap, MCPI_MAX_STEPS);
  double *g = malloc((cap ? cap : 1) * sizeof *g);
  if (!g)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
  size_t n = 0;
  for (int k = 0; k < nsched; k++) {
    const mcpi_trade *t = &p->t[sched[k]];
    memcpy(g + n, t->fix, t->nfix * sizeof *g);
    n += t->nfix;
  }
  for (size_t i = 1; i <= nuni; i++)
    g[n++] = fmin((double)i / p->steps_per_year, last);
  for (size_t i = 0; i < p->ngrid; i++)
    if (p->grid[i] < last)
      g[n++] = p->grid[i];
  qsort(g, n, sizeof *g, cmp_double);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || g[i] - g[m - 1] > MCPI_TIME_EPS)
      g[m++] = g[i];
  j->times = g;
  j->nsteps = m;
  j->drift = malloc(m * sizeof(double));
  j->vol = malloc(m * sizeof(double));
  j->drift_f = malloc(m * sizeof(float));
  j->vol_f = malloc(m * sizeof(float));
  j->fixmask = calloc(m, sizeof(uint32_t));
  j->spec = calloc(j->ntrades, sizeof *j->spec);
  if (!j->drift || !j->vol || !j->drift_f || !j->vol_f || !j->fixmask || !j->spec)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the time grid");
  mcpi_gbm_coefficients(j->u->rate, j->u->dividend, j->u->volatility, m, g, j->drift, j->vol);
  for (size_t s = 0; s < m; s++) {
    j->drift_f[s] = (float)j->drift[s];
    j->vol_f[s] = (float)j->vol[s];
  }
  for (int k = 0; k < nsched; k++) {
    const mcpi_trade *t = &p->t[sched[k]];
    for (size_t i = 0; i < t->nfix; i++)
      j->fixmask[grid_index(g, m, t->fix[i])] |= 1u << k;
  }
  for (size_t i = 0; i < j->ntrades; i++) {
    const mcpi_trade *t = &p->t[j->trade[i]];
    int k = 0;
    while (!same_schedule(t, &p->t[sched[k]]))
      k++;
    j->spec[i] = (mcpi_payoff_spec){.product = t->product,
                                    .type = t->type,
                                    .schedule = k,
                                    .strike = t->strike,
                                    .inv_nfix = 1.0 / (double)t->nfix,
                                    .discount = exp(-j->u->rate * t->maturity),
                                    .quantity = t->quantity};
  }
  return MCP_OK;
}

mcp_status mcpi_plan_build(const mcp_market *m, const mcp_portfolio *p, mcpi_plan *plan,
                           char *err)
{
  memset(plan, 0, sizeof *plan);
  plan->paths = p->paths;
  if (p->n == 0)
    return mcpi_fail(err, MCP_ERR_INPUT, "the portfolio has no trades");
  for (size_t i = 0; i < p->n; i++)
    if (!mcpi_market_find(m, p->t[i].underlying))
      return mcpi_fail(err, MCP_ERR_NOT_FOUND,
                       "trade '%s': underlying: '%s' is not in the market", p->t[i].id,
                       p->t[i].underlying);
  /* every trade can open a job at worst */
  plan->jobs = calloc(p->n, sizeof *plan->jobs);
  size_t *assigned = calloc(p->n, sizeof *assigned);
  size_t *members = malloc(p->n * sizeof *members);
  mcp_status st = MCP_OK;
  if (!plan->jobs || !assigned || !members) {
    st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
    goto done;
  }
  /* Jobs in order of the underlying's first trade; within an underlying, a
   * new job opens when a ninth distinct schedule appears. */
  for (size_t first = 0; first < p->n && st == MCP_OK; first++) {
    if (assigned[first])
      continue;
    const mcpi_underlying *u = mcpi_market_find(m, p->t[first].underlying);
    unsigned ordinal = 0;
    for (size_t start = first; start < p->n && st == MCP_OK;) {
      size_t sched[MCPI_MAX_SCHEDULES];
      int nsched = 0;
      size_t nm = 0, next = p->n;
      for (size_t i = start; i < p->n; i++) {
        if (assigned[i] || strcmp(p->t[i].underlying, u->name) != 0)
          continue;
        int k = 0;
        while (k < nsched && !same_schedule(&p->t[i], &p->t[sched[k]]))
          k++;
        if (k == nsched) {
          if (nsched == MCPI_MAX_SCHEDULES) {
            if (next == p->n)
              next = i;
            continue;
          }
          sched[nsched++] = i;
        }
        members[nm++] = i;
        assigned[i] = 1;
      }
      mcpi_job *j = &plan->jobs[plan->njobs++];
      j->u = u;
      j->stream = mcpi_rng_job_seed(p->seed, u->name, ordinal++);
      j->ntrades = nm;
      j->trade = malloc(nm * sizeof *j->trade);
      if (!j->trade) {
        st = mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
        break;
      }
      memcpy(j->trade, members, nm * sizeof *members);
      st = build_job(j, p, sched, nsched, err);
      start = next;
    }
  }
done:
  free(assigned);
  free(members);
  if (st != MCP_OK)
    mcpi_plan_free(plan);
  return st;
}

void mcpi_plan_free(mcpi_plan *plan)
{
  for (size_t i = 0; i < plan->njobs; i++) {
    mcpi_job *j = &plan->jobs[i];
    free(j->times);
    free(j->drift);
    free(j->vol);
    free(j->drift_f);
    free(j->vol_f);
    free(j->fixmask);
    free(j->trade);
    free(j->spec);
  }
  free(plan->jobs);
  memset(plan, 0, sizeof *plan);
}

mcpi_job_view mcpi_job_host_view(const mcpi_job *j)
{
  return (mcpi_job_view){.log_spot = log(j->u->spot),
                         .nsteps = (int32_t)j->nsteps,
                         .ntrades = (int32_t)j->ntrades,
                         .drift = j->drift,
                         .vol = j->vol,
                         .drift_f = j->drift_f,
                         .vol_f = j->vol_f,
                         .fixmask = j->fixmask,
                         .trades = j->spec};
}
