// lsm_kernel.cu: Longstaff-Schwartz on the GPU.  The fit, the twin of
// src/exec/lsm_cpu.c: the same fit paths (lsm_fit.h) with their normals computed in
// place, the normal equations' chunk sums by the tree of mcpi_chunk_sums, the
// chunks summed in a fixed order and solved by one thread, each date's rule
// left in the device's table for the next date and for the paths; every date
// in one cooperative launch where the chunks' blocks fit the device at once,
// else a launch a date.  Then the priced paths: the bodies with exercise
// (path_families.def, _x and _fx) over a tile of stored normals, in kernels
// of their own, so that no other kernel carries the exercise's code.
#include <cooperative_groups.h>
#include "models/products/lsm_fit.h"
#include "kernels/path_kernel.cuh"

#define HALF (MCP_CHUNK_PATHS / 2)

// The kernels read the job's view in place (__grid_constant__, as the path
// kernels do: path_kernel.cuh says why).
__global__ void mcpi_lsm_paths_kernel(const __grid_constant__ mcpi_job_view j, uint64_t seed,
                                      const double *table, int dates, double *st, size_t n,
                                      double *y)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_lsm_fit_path(&j, NULL, 0, seed, i, table, dates, st, n, y + i);
}

// Columns a block reduces at once.
#define BATCH 16

// The sums of the normal equations' ncol columns from the chunks' sums part
// (a column of nch after another) into sums: a warp a column, lane l's
// strided sum, then lane 0 adds the 32 in order (mcpi_lsm_lane_sum); warp w
// of nw takes columns w, w + nw, ...
static __device__ void column_sums(const double *part, size_t nch, int ncol, double *sums,
                                   unsigned w, unsigned nw)
{
  unsigned lane = threadIdx.x % MCPI_LSM_LANES;
  for (unsigned q = w; q < (unsigned)ncol; q += nw) {
    double s = mcpi_lsm_lane_sum(part + (size_t)q * nch, nch, (int)lane), t = 0;
    for (int l = 0; l < MCPI_LSM_LANES; l++) {
      double sl = __shfl_sync(0xffffffffu, s, l);
      t = l ? t + sl : sl;
    }
    if (lane == 0)
      sums[q] = t;
  }
}

// Date e's rule into row from the chunks' sums, by the block; thread 0
// solves.
static __device__ void solve_date(const double *part, size_t nch, int nb, double *row)
{
  __shared__ double sums[MCPI_LSM_COLUMNS(MCPI_LSM_MAX_BASIS)];
  column_sums(part, nch, MCPI_LSM_COLUMNS(nb), sums, threadIdx.x / MCPI_LSM_LANES,
              blockDim.x / MCPI_LSM_LANES);
  __syncthreads();
  if (threadIdx.x == 0)
    mcpi_lsm_solve(nb, sums, row);
}

// Block c's part of date e: one block of HALF threads a chunk, thread t
// holds paths t and t + HALF of it, the first level of the CPU's halving tree
// (mcpi_chunk_sums); the next two levels in shared memory for BATCH columns
// at a time, the last five by shuffles, a warp a column, the same additions
// in the same order.  Date e + 1's row is read from L2 (a block of the grid may
// just have written it, and an L1 line holding the row before it may be
// older).
static __device__ void date_sums(const mcpi_job_view &j, const double *table,
                                 const double *__restrict__ st, size_t n, int e,
                                 double *__restrict__ y, double *__restrict__ part, size_t c,
                                 size_t nch)
{
  __shared__ double a[BATCH][HALF], next[MCPI_LSM_ROW];
  unsigned t = threadIdx.x;
  if (t < MCPI_LSM_ROW)
    next[t] = __ldcg(table + (size_t)(e + 1) * MCPI_LSM_ROW + t);
  __syncthreads();
  size_t i0 = c * MCP_CHUNK_PATHS + t, i1 = i0 + HALF;
  int nb = j.lsm_nb, ncol = MCPI_LSM_COLUMNS(nb), m0 = 0, m1 = 0;
  double phi0[MCPI_LSM_MAX_BASIS], phi1[MCPI_LSM_MAX_BASIS], y0 = 0, y1 = 0;
  if (i0 < n) {
    y0 = y[i0];
    m0 = mcpi_lsm_fit_point(&j, next, st, n, i0, e, &y0, phi0);
    y[i0] = y0;
  }
  if (i1 < n) {
    y1 = y[i1];
    m1 = mcpi_lsm_fit_point(&j, next, st, n, i1, e, &y1, phi1);
    y[i1] = y1;
  }
  for (int q0 = 0; q0 < ncol; q0 += BATCH) {
    MCP_UNROLL
    for (int b = 0; b < BATCH; b++)
      a[b][t] = q0 + b < ncol ? mcpi_lsm_term(phi0, nb, y0, m0, q0 + b) +
                                    mcpi_lsm_term(phi1, nb, y1, m1, q0 + b)
                              : 0;
    __syncthreads();
    for (unsigned h = HALF / 2; h >= 32; h /= 2) {
      if (t < h) {
        MCP_UNROLL
        for (int b = 0; b < BATCH; b++)
          a[b][t] += a[b][t + h];
      }
      __syncthreads();
    }
    for (unsigned b = t / 32; b < BATCH && q0 + (int)b < ncol; b += HALF / 32) {
      double v = a[b][t % 32];
      for (unsigned h = 16; h >= 1; h /= 2)
        v += __shfl_down_sync(0xffffffffu, v, h);
      if (t % 32 == 0)
        part[(size_t)(q0 + b) * nch + c] = v;
    }
    __syncthreads();
  }
}

// Date e, a block a chunk; the last block to finish (done counts them, and
// returns to 0) solves it: one launch a date.
__global__ void mcpi_lsm_date_kernel(const __grid_constant__ mcpi_job_view j, double *table,
                                     const double *st, size_t n, int e, double *y, double *part,
                                     unsigned *done)
{
  __shared__ int last;
  date_sums(j, table, st, n, e, y, part, blockIdx.x, gridDim.x);
  if (threadIdx.x == 0) { /* its sums visible to the grid, then counted */
    __threadfence();
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  solve_date(part, gridDim.x, j.lsm_nb, table + (size_t)e * MCPI_LSM_ROW);
  if (threadIdx.x == 0)
    *done = 0;
}

// Every date in one cooperative launch, all its blocks resident: the grid
// sums a date's chunks, then its columns (a warp of the grid a column, into
// the sums after part's chunks: one warp of one block took 33 of the 151 us
// a date of STAC-A2's American on an H200), block 0 solves it, and the grid
// goes on to the date before.
__global__ void mcpi_lsm_dates_kernel(const __grid_constant__ mcpi_job_view j, double *table,
                                      const double *st, size_t n, int dates, double *y,
                                      double *part)
{
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  __shared__ double mine[MCPI_LSM_COLUMNS(MCPI_LSM_MAX_BASIS)];
  int ncol = MCPI_LSM_COLUMNS(j.lsm_nb);
  unsigned nw = blockDim.x / MCPI_LSM_LANES;
  double *sums = part + (size_t)ncol * gridDim.x;
  for (int e = dates - 2; e >= 0; e--) {
    date_sums(j, table, st, n, e, y, part, blockIdx.x, gridDim.x);
    grid.sync();
    column_sums(part, gridDim.x, ncol, sums, blockIdx.x * nw + threadIdx.x / MCPI_LSM_LANES,
                gridDim.x * nw);
    grid.sync();
    if (blockIdx.x == 0) { /* from L2: other blocks wrote them */
      for (int q = (int)threadIdx.x; q < ncol; q += (int)blockDim.x)
        mine[q] = __ldcg(sums + q);
      __syncthreads();
      if (threadIdx.x == 0)
        mcpi_lsm_solve(j.lsm_nb, mine, table + (size_t)e * MCPI_LSM_ROW);
    }
    grid.sync();
  }
}

// A kernel a state S (one asset or several, double or float: each keeps only
// its own registers), one thread a path over its stored normals.
template <typename S, typename R>
__global__ void mcpi_lsm_price_kernel(const __grid_constant__ mcpi_job_view j,
                                      const R *__restrict__ z, size_t ld, size_t n,
                                      double *__restrict__ pay)
{
  const R *ca = real_traits<R>::ca(j), *cb = real_traits<R>::cb(j);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    for (int pass = 0; pass <= (j.antithetic ? 1 : 0); pass++) {
      S st;
      body_init(&st, &j, pass);
      for (int e = 0; e < j.nelem; e++)
        body_step(&st, &j, z[(size_t)e * ld + i], ca[e], cb[e], j.tag[e]);
      body_finish(&st, &j, pay + i, ld, pass);
    }
}

// The kernel of the job's asset count in precision R (lsm_state_of).
template <typename R>
static void lsm_price(const mcpi_job_view &job, const R *z, size_t ld, size_t n, double *pay,
                      unsigned grid, cudaStream_t stream)
{
  if (job.nassets > 1 && job.model == MCPI_MODEL_HESTON)
    mcpi_lsm_price_kernel<typename lsm_state_of<R, MCPI_STATE_MHESTON>::type>
        <<<grid, 128, 0, stream>>>(job, z, ld, n, pay);
  else if (job.nassets > 1)
    mcpi_lsm_price_kernel<typename lsm_state_of<R, MCPI_STATE_MULTI>::type>
        <<<grid, 128, 0, stream>>>(job, z, ld, n, pay);
  else
    mcpi_lsm_price_kernel<typename lsm_state_of<R, MCPI_STATE_ONE>::type>
        <<<grid, 128, 0, stream>>>(job, z, ld, n, pay);
}

extern "C" cudaError_t mcpi_launch_lsm_price(mcpi_job_view job, const void *z, size_t ld,
                                             size_t n, double *pay, mcp_precision precision,
                                             cudaStream_t stream)
{
  size_t blocks = (n + 127) / 128;
  unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  if (precision == MCP_FLOAT)
    lsm_price(job, (const float *)z, ld, n, pay, grid, stream);
  else
    lsm_price(job, (const double *)z, ld, n, pay, grid, stream);
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

extern "C" cudaError_t mcpi_launch_lsm_dates(mcpi_job_view job, double *table, const double *st,
                                             size_t n, int dates, double *y, double *part,
                                             unsigned *done, cudaStream_t stream)
{
  size_t nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  cudaError_t err;
  if (dates < 2)
    return cudaSuccess;
  if ((err = cudaGetDevice(&dev)) ||
      (err = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev)) ||
      (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
      (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mcpi_lsm_dates_kernel, HALF,
                                                           0)))
    return err;
  if (coop && nch <= (size_t)sms * (size_t)per_sm) {
    void *args[] = {&job, &table, &st, &n, &dates, &y, &part};
    return cudaLaunchCooperativeKernel((const void *)mcpi_lsm_dates_kernel, dim3((unsigned)nch),
                                       dim3(HALF), args, 0, stream);
  }
  for (int e = dates - 2; e >= 0; e--) { /* more chunks than fit at once: a launch a date */
    mcpi_lsm_date_kernel<<<(unsigned)nch, HALF, 0, stream>>>(job, table, st, n, e, y, part,
                                                               done);
    if ((err = cudaGetLastError()))
      return err;
  }
  return cudaSuccess;
}
