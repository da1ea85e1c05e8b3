// lsm_kernel.cu: Longstaff-Schwartz on the GPU.  The fit, the twin of
// src/lsm_cpu.c: the same fit paths (lsm_fit.h) with their normals computed in
// place, the normal equations' chunk sums by the tree of mcpi_chunk_sums, the
// chunks summed in path order and solved by one thread, each date's rule left
// in the device's table for the next date and for the paths.  Then the priced
// paths: the plain loop of the bodies with exercise (path.h, _x and _fx) over
// a tile of stored normals, the CPU's loop, so that no other kernel carries
// the exercise's code.
#include "launch.h"
#include "lsm_fit.h"

#define HALF (MCP_CHUNK_PATHS / 2)

__global__ void mcpi_lsm_paths_kernel(mcpi_job_view j, uint64_t seed, const double *table,
                                      int dates, double *st, size_t n, double *y)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_lsm_fit_path(&j, NULL, 0, seed, i, table, dates, st, n, y + i);
}

// One block of HALF threads a chunk: thread t holds paths t and t + HALF of
// it, the first level of the CPU's halving tree.
__global__ void mcpi_lsm_terms_kernel(mcpi_job_view j, const double *__restrict__ table,
                                      const double *__restrict__ st, size_t n, int e,
                                      double *__restrict__ y, double *__restrict__ part)
{
  __shared__ double a[HALF];
  size_t c = blockIdx.x, nch = gridDim.x;
  unsigned t = threadIdx.x;
  size_t i0 = c * MCP_CHUNK_PATHS + t, i1 = i0 + HALF;
  int nb = j.lsm_nb, ncol = MCPI_LSM_COLUMNS(nb), m0 = 0, m1 = 0;
  double phi0[MCPI_LSM_MAX_BASIS], phi1[MCPI_LSM_MAX_BASIS], y0 = 0, y1 = 0;
  if (i0 < n) {
    y0 = y[i0];
    m0 = mcpi_lsm_fit_point(&j, table, st, n, i0, e, &y0, phi0);
    y[i0] = y0;
  }
  if (i1 < n) {
    y1 = y[i1];
    m1 = mcpi_lsm_fit_point(&j, table, st, n, i1, e, &y1, phi1);
    y[i1] = y1;
  }
  for (int q = 0; q < ncol; q++) {
    a[t] = mcpi_lsm_term(phi0, nb, y0, m0, q) + mcpi_lsm_term(phi1, nb, y1, m1, q);
    __syncthreads();
    for (unsigned h = HALF / 2; h >= 1; h /= 2) {
      if (t < h)
        a[t] += a[t + h];
      __syncthreads();
    }
    if (t == 0)
      part[(size_t)q * nch + c] = a[0];
    __syncthreads();
  }
}

__global__ void mcpi_lsm_solve_kernel(const double *__restrict__ part, size_t nch, int nb,
                                      double *row)
{
  __shared__ double sums[MCPI_LSM_COLUMNS(MCPI_LSM_MAX_BASIS)];
  for (int q = threadIdx.x; q < MCPI_LSM_COLUMNS(nb); q += blockDim.x) {
    double s = 0;
    for (size_t c = 0; c < nch; c++)
      s += part[(size_t)q * nch + c];
    sums[q] = s;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    mcpi_lsm_solve(nb, sums, row);
}

template <typename R> struct lsm_body;
template <> struct lsm_body<double> {
  static __device__ void run(const mcpi_job_view *j, const double *z, size_t ldz, double *pay,
                             size_t ldp)
  {
    mcpi_path_x(j, z, ldz, pay, ldp);
  }
};
template <> struct lsm_body<float> {
  static __device__ void run(const mcpi_job_view *j, const float *z, size_t ldz, double *pay,
                             size_t ldp)
  {
    mcpi_path_fx(j, z, ldz, pay, ldp);
  }
};

template <typename R>
__global__ void mcpi_lsm_price_kernel(mcpi_job_view j, const R *__restrict__ z, size_t ld,
                                      size_t n, double *__restrict__ pay)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    lsm_body<R>::run(&j, z + i, ld, pay + i, ld);
}

extern "C" cudaError_t mcpi_launch_lsm_price(mcpi_job_view job, const void *z, size_t ld,
                                             size_t n, double *pay, mcp_precision precision,
                                             cudaStream_t stream)
{
  size_t blocks = (n + 127) / 128;
  unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  if (precision == MCP_FLOAT)
    mcpi_lsm_price_kernel<float><<<grid, 128, 0, stream>>>(job, (const float *)z, ld, n, pay);
  else
    mcpi_lsm_price_kernel<double><<<grid, 128, 0, stream>>>(job, (const double *)z, ld, n, pay);
  return cudaGetLastError();
}

extern "C" cudaError_t mcpi_launch_lsm_paths(mcpi_job_view job, uint64_t seed,
                                             const double *table, int dates, double *st,
                                             size_t n, double *y, cudaStream_t stream)
{
  size_t blocks = (n + 127) / 128;
  mcpi_lsm_paths_kernel<<<(unsigned)(blocks < 65535 ? blocks : 65535), 128, 0, stream>>>(
      job, seed, table, dates, st, n, y);
  return cudaGetLastError();
}

extern "C" cudaError_t mcpi_launch_lsm_date(mcpi_job_view job, double *table, const double *st,
                                            size_t n, int e, double *y, double *part,
                                            cudaStream_t stream)
{
  size_t nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  mcpi_lsm_terms_kernel<<<(unsigned)nch, HALF, 0, stream>>>(job, table, st, n, e, y, part);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess)
    return err;
  mcpi_lsm_solve_kernel<<<1, 256, 0, stream>>>(part, nch, job.lsm_nb,
                                               table + (size_t)e * MCPI_LSM_ROW);
  return cudaGetLastError();
}
