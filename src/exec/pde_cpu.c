/* pde_cpu.c: the CPU finite-difference backend, the reference of the GPU's:
 * the same steps (pde_grid.h) on each grid in turn. */
#include <stdlib.h>
#include <string.h>
#include "src/exec/backend.h"

/* Marches grid g from maturity to today in v (w, fl: scratch of n; fac:
 * MCPI_PDE_FACTOR_ROWS(R) n) and writes the values around the center to
 * out (and its exercise boundary to bound): the GPU's steps
 * (kernels/pde_kernel.cu), its warp's solve lane by lane. */
static void solve_grid(const mcpi_pde_batch *b, size_t g, double *v, double *w, double *fl,
                       double *fac, double *out, int *bound)
{
  const mcpi_pde_grid *G = &b->grid[g];
  int R = b->radius, n = b->n, rev = G->exercise == MCPI_EXERCISE_LOW, key = -1, blocked = 0;
  const double *ex = G->exercise ? fl : NULL;
  for (int j = 0; j < n; j++)
    v[j] = mcpi_pde_terminal(R, n, G, j, &fl[j]);
  mcpi_pde_state st = {.seg = G->seg};
  double e[MCPI_PDE_MAX_TAPS], m[MCPI_PDE_MAX_TAPS], bnd[2 * MCPI_PDE_MAX_RADIUS];
  for (int s = 0; s < G->steps; s++) {
    mcpi_pde_step(R, G, b->seg, s, &st, e, m, bnd);
    int theta = G->theta != 0, k = 2 * st.seg + (s < G->half_steps);
    if (theta && k != key) { /* a new band: its factors */
      int monotone = mcpi_band_factor(R, n, m, rev, fac, n);
      blocked = R == 1 && (monotone || !ex);
      key = k;
    }
    mcpi_stencil_sweep(R, n, e, v, w, theta ? NULL : ex);
    for (int i = 0; i < 2 * R; i++) {
      int j = mcpi_pde_boundary_node(R, n, i);
      w[j] = ex ? mcpi_floor(bnd[i], ex[j]) : bnd[i];
    }
    if (!theta) {
      double *t = v;
      v = w;
      w = t;
    } else if (blocked) {
      mcpi_band_solve_blocked(n, rev, fac, n, w, v, ex);
    } else {
      mcpi_band_substitute(R, n, fac, n, rev, w, v, ex);
    }
    for (int k = 0; k < G->ndiv; k++)
      if (b->div[G->div0 + k].step == s) {
        for (int j = 0; j < n; j++)
          w[j] = mcpi_pde_jump(G, n, v, j, &b->div[G->div0 + k], ex);
        double *t = v;
        v = w;
        w = t;
      }
    mcpi_pde_cross(G, b->div, s, &st);
    int slot = bound ? mcpi_pde_bound_slot(G, s) : -1;
    if (slot >= 0) {
      int node = mcpi_pde_bound_none(G, n);
      for (int j = 0; j < n; j++)
        node = mcpi_pde_bound_at(G, node, j, v[j], ex[j]);
      bound[slot] = node;
    }
  }
  memcpy(out, v + G->center - R, (2 * (size_t)R + 1) * sizeof *out);
}

mcp_status mcpi_pde_cpu(const mcpi_pde_batch *b, double *out, int *bound, mcp_context *ctx)
{
  int R = b->radius, failed = 0;
  size_t taps = 2 * (size_t)R + 1, n = (size_t)b->n;
#pragma omp parallel reduction(| : failed) if (b->ngrids > 1)
  {
    double *buf = malloc((3 + (size_t)MCPI_PDE_FACTOR_ROWS(R)) * n * sizeof *buf);
    failed = !buf;
#pragma omp for schedule(dynamic)
    for (long g = 0; g < (long)b->ngrids; g++)
      if (buf && !mcpi_cancel_asked(ctx)) /* a cancellation skips the grids not started */
        solve_grid(b, (size_t)g, buf, buf + n, buf + 2 * n, buf + 3 * n, out + (size_t)g * taps,
                   bound);
    free(buf);
  }
  return failed ? mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE grids")
                : mcpi_cancel_check(ctx);
}
