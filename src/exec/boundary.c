/* boundary.c: the exercise boundaries a run reports (boundary.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/exec/boundary.h"
#include "models/products/lsm.h"

/* A rule's boundary is searched between the strike and MCPI_BOUND_RANGE
 * times further from it (a put's down to K / 100, a call's up to 100 K), on
 * SCAN points equally spaced in log-spot; a region exercised narrower than
 * one spacing (0.9% of the spot) between two held is not seen. */
#define MCPI_BOUND_RANGE 100.0
#define SCAN 512

/* Whether the job's one-asset rule row (lsm.h) exercises at spot s, as a
 * path of the run does (the same functions, the same bits). */
static int exercises(const mcpi_payoff_spec *p, const double *row, double s)
{
  double under, value, r[MCP_MAX_ASSETS] = {0};
  double h = mcpi_lsm_exercise(p, &s, 1, &under);
  return mcpi_lsm_exercises(row, h, mcpi_lsm_continuation(p, row, h, 1, 0, under, r, 0),
                            &value);
}

/* The highest spot (put; call: the lowest) at which row exercises: the
 * first spot of the scan from the strike outwards that does, bisected
 * against the one before it to the last bit; none: 0 (put) or +inf.  A
 * call of strike 0, in the money at every spot, is scanned up from a
 * hundredth of the spot the basis is scaled by (1 / lsm_inv). */
static double rule_boundary(const mcpi_payoff_spec *p, const double *row)
{
  int put = p->type != MCP_CALL;
  double k = p->strike, step = (put ? -1 : 1) * log(MCPI_BOUND_RANGE) / SCAN;
  if (row[1] == MCPI_LSM_ALWAYS || (put && !(k > 0))) /* whenever in the money */
    return k;
  double base = k > 0 ? k : 1 / p->lsm_inv, out = k; /* held: at the money, or S = 0 */
  for (int i = k > 0 ? 1 : -SCAN; i <= SCAN; i++) {
    double in = base * exp(i * step);
    if (!exercises(p, row, in)) {
      out = in;
      continue;
    }
    for (;;) {
      double mid = 0.5 * (in + out);
      if (mid == in || mid == out)
        return in;
      if (exercises(p, row, mid))
        in = mid;
      else
        out = mid;
    }
  }
  return put ? 0 : INFINITY;
}

/* Whether job j's trade has a boundary in spot: one asset, a rule that
 * reads the spot alone (Heston's reads its variance too). */
static int rule_in_spot(const mcpi_job *j)
{
  return j->lsm_dates > 0 && j->nassets == 1 && j->model != MCPI_MODEL_HESTON;
}

/* Whether PDE trade t has a boundary: an American grid (a call never
 * exercised early is priced on the European's, and has none). */
static const mcpi_pde_grid *exercise_grid(const mcpi_pde_batch *pde, const mcpi_pde_trade *t)
{
  return t->engine == MCP_ENGINE_PDE && t->ngrids == 1 && pde->grid[t->grid].exercise
             ? &pde->grid[t->grid]
             : NULL;
}

/* The points of a grid's boundary: its recorded steps, and maturity. */
static size_t grid_points(const mcpi_pde_grid *G)
{
  return (size_t)((G->steps - 1) / G->bound_every + 1) + 1;
}

mcp_status mcpi_bounds_layout(const mcp_portfolio *p, const mcpi_plan *plan, mcpi_pde_batch *pde,
                              mcpi_bounds *b, char *err)
{
  *b = (mcpi_bounds){0};
  if (!(b->off = calloc(p->n + 1, sizeof *b->off)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the exercise boundaries");
  size_t *count = b->off + 1; /* then summed into the offsets */
  for (size_t ji = 0; ji < plan->njobs; ji++)
    if (rule_in_spot(&plan->jobs[ji]))
      count[plan->jobs[ji].trade[0]] = (size_t)plan->jobs[ji].lsm_dates;
  pde->nbound = 0;
  for (size_t i = 0; i < pde->ntrades; i++) {
    mcpi_pde_grid *G = (mcpi_pde_grid *)exercise_grid(pde, &pde->trade[i]);
    if (!G)
      continue;
    G->bound_every = (G->steps + MCPI_BOUND_POINTS - 1) / MCPI_BOUND_POINTS;
    G->bound0 = (int)pde->nbound;
    pde->nbound += grid_points(G) - 1;
    count[pde->trade[i].trade] = grid_points(G);
  }
  for (size_t i = 0; i < p->n; i++)
    b->off[i + 1] += b->off[i];
  size_t m = b->off[p->n] ? b->off[p->n] : 1;
  b->time = malloc(m * sizeof *b->time);
  b->spot = malloc(m * sizeof *b->spot);
  if (!b->time || !b->spot) {
    mcpi_bounds_free(b);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the exercise boundaries");
  }
  for (size_t k = 0; k < b->off[p->n]; k++)
    b->spot[k] = NAN;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    if (rule_in_spot(j))
      memcpy(b->time + b->off[j->trade[0]], j->lsm_time, (size_t)j->lsm_dates * sizeof *b->time);
  }
  /* a book's grids are thousands of points each: every thread its own */
#pragma omp parallel for schedule(static) if (pde->nbound > MCPI_BOUND_POINTS)
  for (size_t i = 0; i < pde->ntrades; i++) {
    const mcpi_pde_grid *G = exercise_grid(pde, &pde->trade[i]);
    if (!G)
      continue;
    double T = p->t[pde->trade[i].trade].maturity, *t = b->time + b->off[pde->trade[i].trade];
    size_t n = grid_points(G) - 1;
    for (size_t q = 0; q < n; q++) /* today first */
      t[q] = mcpi_pde_step_time(G, T, G->steps - 1 - (int)q * G->bound_every);
    t[n] = T;
  }
  return MCP_OK;
}

void mcpi_bounds_from_rules(const mcpi_plan *plan, mcpi_bounds *b)
{
  if (!b->off)
    return;
#pragma omp parallel for schedule(dynamic) if (plan->njobs > 1)
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    if (!rule_in_spot(j))
      continue;
    double *s = b->spot + b->off[j->trade[0]];
    for (int e = 0; e < j->lsm_dates; e++)
      s[e] = rule_boundary(&j->spec[0], j->lsm_table + (size_t)e * MCPI_LSM_ROW);
  }
}

void mcpi_bounds_from_grids(const mcp_portfolio *p, const mcpi_pde_batch *pde, const int *nodes,
                            mcpi_bounds *b)
{
  if (!b->off || !nodes)
    return;
#pragma omp parallel for schedule(static) if (pde->nbound > MCPI_BOUND_POINTS)
  for (size_t i = 0; i < pde->ntrades; i++) {
    const mcpi_pde_grid *G = exercise_grid(pde, &pde->trade[i]);
    if (!G)
      continue;
    double *s = b->spot + b->off[pde->trade[i].trade];
    int put = G->exercise == MCPI_EXERCISE_LOW;
    size_t n = grid_points(G) - 1;
    /* half-way from the last node exercised to the first held */
    for (size_t q = 0; q < n; q++) {
      int node = nodes[G->bound0 + (int)q];
      s[q] = put ? (node < 0 ? 0 : exp(G->x0 + (node + 0.5) * G->h))
                 : (node >= pde->n ? INFINITY : exp(G->x0 + (node - 0.5) * G->h));
    }
    s[n] = p->t[pde->trade[i].trade].strike; /* at maturity: whenever in the money */
  }
}
