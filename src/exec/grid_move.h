/* grid_move.h: the discretisation check's moves and warnings in a run's
 * results (src/plan/grid_check.h lays the check out). */
#ifndef MCP_GRID_MOVE_H
#define MCP_GRID_MOVE_H

#include "src/base/stats.h"
#include "src/plan/plan.h"

/* Standard errors of the move the check allows beyond the price's standard
 * error (grid_move.c). */
#define MCPI_GRID_SE 3.0

/* The moves of the run's checked trades into r (its grid and grid_on) from
 * the jobs' accumulated columns, and their warnings; with the check on
 * (check), the trades of jobs whose grids it cannot check and whose steps
 * are too long to pass unchecked (mcpi_job_grid_unchecked) are warned too.
 * now (by trade, MCPI_PRICED_*): a Longstaff-Schwartz trade priced at its
 * held European moves as that does, one exercised now not at all;
 * MCP_ERR_NO_MEMORY. */
mcp_status mcpi_grid_collect(const mcpi_plan *plan, mcp_precision precision, int check,
                             mcpi_accum **acc, const unsigned char *now, mcp_results *r);

#endif
