/* stencil_bench.h: launchers of the benchmark's stencil kernels, one per
 * implementation (compiled in parallel), and of the banded solvers. */
#ifndef MCP_STENCIL_BENCH_H
#define MCP_STENCIL_BENCH_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
/* sweeps applications of the (2K + 1)-point stencil w (device) to ngrids
 * grids of n nodes (stride ld), alternately from a to b and back. */
cudaError_t bench_sweep_regcache(int K, int C, double *a, double *b, int n, int ld, int ngrids,
                                 int sweeps, const double *w);
cudaError_t bench_sweep_smem(int K, int C, double *a, double *b, int n, int ld, int ngrids,
                             int sweeps, const double *w);
cudaError_t bench_sweep_global(int K, int C, double *a, double *b, int n, int ld, int ngrids,
                               int sweeps, const double *w);
/* ngrids tridiagonal Toeplitz systems m (3 values), right-hand sides y
 * (overwritten) into x, one thread a system (mcpi_band_solve); u: scratch of
 * MCPI_PDE_FACTOR_ROWS(1) ld a system. */
cudaError_t bench_band_solve(const double *m, double *y, double *u, double *x, int n, int ld,
                             int ngrids);
#ifdef __cplusplus
}
#endif
#endif
