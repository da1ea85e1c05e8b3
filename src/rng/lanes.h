/* lanes.h: the CPU's single-asset paths in groups, in vector copies of
 * the host (lanes.c, in libmcprng with the host's normals). */
#ifndef MCP_LANES_H
#define MCP_LANES_H

#include <stddef.h>
#include "models/products/path.h"

/* Whether the CPU runs single-asset paths in groups (lanes.c; 1, the
 * default) or each path alone (0, for the tests, which hold the two to the
 * same bits); returns the previous setting. */
int mcpi_cpu_groups(int on);
/* Whether the view's paths run in groups, and m of them (normals z, element
 * e of path k at z[e ldz + k]; payoffs at pay[c ldp + k]) in the host's copy
 * (rng.h), with the plain shape's state when plain (mcpi_job_small): 1, or
 * 2 in mixed precision (its fixings' exp, the _mp family's). */
int mcpi_path_lanes_fit(const mcpi_job_view *v);
void mcpi_path_lanes(int copy, const mcpi_job_view *v, int plain, const double *z, size_t ldz,
                     size_t m, double *pay, size_t ldp);

#endif
