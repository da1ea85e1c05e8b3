/* grid_move.c: the discretisation check's moves of the prices, fine grid
 * less coarse, and its warnings (grid_move.h; the estimators:
 * src/plan/grid_check.c). */
#include <math.h>
#include <stdlib.h>
#include "src/exec/grid_move.h"
#include "src/plan/grid_check.h"
#include "src/results/results.h"

/* The decision rule (mcpi_grid_collect): the check asks
 * whether the grid's error is as large as the price's sampling error, and
 * estimates the move d = fine - coarse, which (with the scheme's error of
 * order dt) is about the fine grid's own error, from the paired difference
 * of the two prices on the same paths, of standard error se_d.  It warns
 * where |d| > se + 3 se_d: if the true move were at most the price's
 * standard error se, such an estimate would come with a chance below
 * 0.00135 (one-sided normal tail at 3), so a warning says with that
 * confidence that the grid moves the price by more than its standard error;
 * a move well below se (the usual case on a fine enough grid) is warned far
 * more rarely.  The paired difference's se_d is much smaller than se where
 * the grids agree, so the rule still catches a move of about se. */

/* MCPI_GRID_SE for an estimate of reps replicates (QMC's scramblings):
 * Student's t with reps - 1 degrees of freedom at the normal's 3 (a tail of
 * 0.00135), else 3. */
static double grid_limit(unsigned reps)
{
  static const double t[30] = {235.8, 19.21, 9.22, 6.62, 5.51, 4.9,  4.53, 4.28, 4.09, 3.96,
                               3.85,  3.76,  3.69, 3.64, 3.59, 3.54, 3.51, 3.48, 3.45, 3.42,
                               3.4,   3.38,  3.36, 3.34, 3.33, 3.32, 3.3,  3.29, 3.28, 3.27};
  return mcpi_t_limit(MCPI_GRID_SE, t, reps);
}

mcp_status mcpi_grid_collect(const mcpi_plan *plan, mcp_precision precision, int check,
                             mcpi_accum **acc, const unsigned char *now, mcp_results *r)
{
  /* below a path's rounding a move says nothing (reval.c, rounding) */
  double tiny = precision == MCP_FLOAT ? 1e-4 : 1e-9;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    if (check && mcpi_job_grid_unchecked(j)) /* steps too long to go unchecked */
      for (size_t t = 0; t < j->nreal; t++)
        if (now[j->trade[t]] != MCPI_PRICED_EXERCISED) /* exact: no grid */
          r->warn[j->trade[t]] |= MCP_WARNING_GRID;
    unsigned reps = mcpi_job_replicates(plan, j);
    size_t ncol = mcpi_job_columns(j, 0);
    for (size_t k = 0; k < j->nest; k++) {
      const mcpi_est *e = &j->est[k];
      /* a held European's (a twin: trade nreal + nred) read through e->held */
      if (e->point != MCPI_EST_GRID || (size_t)e->trade >= j->nreal)
        continue;
      if (!r->grid && (!(r->grid = calloc(r->n, sizeof *r->grid)) ||
                       !(r->grid_on = calloc(r->n, sizeof *r->grid_on))))
        return mcpi_no_memory(__func__);
      size_t i = j->trade[e->trade];
      int how = now[i];
      mcp_estimate d = {0}, *p = &r->est[i];
      r->grid_on[i] = 1;
      if (how == MCPI_PRICED_EXERCISED) { /* its exercise value, exact: no move */
        r->grid[i] = d;
        continue;
      }
      /* priced at the European it holds: that one's move */
      size_t at = how == MCPI_PRICED_HELD && e->held ? e->held - 1 : k;
      mcpi_estimate_replicates(&acc[ji][j->ntrades + 1 + at], ncol, reps, &d);
      r->grid[i] = d;
      if (fabs(d.price) > p->std_error + grid_limit(reps) * d.std_error &&
          fabs(d.price) > tiny * fabs(p->price))
        r->warn[i] |= MCP_WARNING_GRID;
    }
  }
  return MCP_OK;
}
