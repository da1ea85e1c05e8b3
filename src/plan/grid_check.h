/* grid_check.h: the discretisation check (issue 31): a job whose model's
 * step is not exact also prices its trades on a grid twice as coarse, on the
 * same Brownian paths, and a trade whose price moves by more than its
 * standard error is warned (MCP_WARNING_GRID). */
#ifndef MCP_GRID_CHECK_H
#define MCP_GRID_CHECK_H

#include "src/plan/variants.h"

/* Marks an estimator (mcpi_est.point) as a trade's grid move, fine - coarse. */
#define MCPI_EST_GRID (-2L)

/* Whether j's model steps inexactly (time_grid.c, steps_per_year: Heston, local
 * volatility, Merton watched on the bridge), so that its grid is checked. */
int mcpi_job_grid_checked(const mcpi_job *j);
/* Whether j has a pair of steps the coarse job merges (a step before its
 * last that ends on no event); without one its grid cannot be checked. */
int mcpi_job_grid_mergeable(const mcpi_job *j);
/* The longest of j's steps, in years. */
double mcpi_job_longest_step(const mcpi_job *j);
/* Whether j's model steps inexactly on a grid that cannot be checked (no
 * pair to merge) and is coarser than the model's default, a step longer
 * than a day (1 / MCPI_MODEL_STEPS_PER_YEAR): plan.c refuses such a job at
 * steps_per_year 0; at others its trades are warned MCP_WARNING_GRID, with
 * no move (grid_move.c), while the check is on.  Daily steps on daily
 * dates are the default's step, and pass. */
int mcpi_job_grid_unchecked(const mcpi_job *j);

/* Adds to g a variant whose plan holds each checked job's coarse job (path.h,
 * MCPI_TAG_HOLD), a pass of it to the job and an estimator a trade of the
 * fine price less the coarse one, after the job's other estimators (and a
 * Longstaff-Schwartz trade's held European's, its twin: trade nreal + nred,
 * which the trade's held names); jobs
 * with no pair of steps to merge are not checked.  g may be a run's Greeks
 * or scenario points, or empty (then its settings are set).  Their moves:
 * src/exec/grid_move.h. */
mcp_status mcpi_grid_layout(const mcpi_settings *set, mcpi_plan *plan, mcpi_greek_run *g,
                            char *err);

#endif
