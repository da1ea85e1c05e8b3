/* boundary.h: the exercise boundaries a run reports (run.exercise_boundary,
 * mcp_results_exercise_boundary): which trades have one and at what times,
 * and their critical spots, from the rules a Longstaff-Schwartz fit left
 * or from the nodes a grid exercised (mcpi_pde_bound_slot). */
#ifndef MCP_BOUNDARY_H
#define MCP_BOUNDARY_H

#include "src/plan/plan.h"
#include "src/plan/pde.h"
#include "src/results/results.h"

/* The most points a grid's boundary reports: a march of more time steps
 * records every few of them. */
#define MCPI_BOUND_POINTS 1000

/* The points of p's trades that have a boundary into b (times set, spots
 * NaN until computed): a one-asset Longstaff-Schwartz trade whose rule reads
 * the spot alone, a point an exercise date; an American grid, a point a
 * recorded step and one at maturity; the grids' records set in pde (its
 * nbound).  MCP_ERR_NO_MEMORY with a message in err. */
mcp_status mcpi_bounds_layout(const mcp_portfolio *p, const mcpi_plan *plan, mcpi_pde_batch *pde,
                              mcpi_bounds *b, char *err);
/* The Longstaff-Schwartz trades' spots, from their jobs' fitted rules. */
void mcpi_bounds_from_rules(const mcpi_plan *plan, mcpi_bounds *b);
/* The grids' spots, from the nodes their solve recorded. */
void mcpi_bounds_from_grids(const mcp_portfolio *p, const mcpi_pde_batch *pde, const int *nodes,
                            mcpi_bounds *b);

#endif
