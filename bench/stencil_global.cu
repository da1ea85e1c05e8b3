/* stencil_global.cu: the benchmark's global stencil kernels. */
#include "bench/stencil_bench.cuh"

BENCH_LAUNCHER(bench_sweep_global, MCPI_ST_GLOBAL)

__global__ void bench_solve(const double *m, double *y, double *u, double *x, int n, int ld,
                            int ngrids)
{
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g < ngrids) {
    size_t row = (size_t)g * ld;
    mcpi_band_solve(1, n, m, y + row, u + MCPI_PDE_FACTOR_ROWS(1) * row, x + row, NULL, 0);
  }
}

extern "C" cudaError_t bench_band_solve(const double *m, double *y, double *u, double *x, int n,
                                        int ld, int ngrids)
{
  bench_solve<<<(ngrids + 127) / 128, 128>>>(m, y, u, x, n, ld, ngrids);
  return cudaGetLastError();
}
