// adjoint_kernel.cu: the path kernel of jobs with bucketed sensitivities by
// adjoint (models/products/adjoint.h): one thread a sample, its normals the
// tile's (stored, QMC) or computed again where needed (fused: the canonical
// numbers of rng.h, the same bits), the same calls as the CPU's loop.
#include "kernels/launch.h"
#include "models/products/adjoint.h"

// A local-volatility job's spots whose two rows of nodes a path holds in
// shared memory (adjoint.h, mcpi_adj_rows), or 0.
static __host__ __device__ int job_rows(const mcpi_job_view &j)
{
  return mcpi_adjoint_kind(&j) == 0 && j.model == MCPI_MODEL_LOCAL_VOL &&
                 j.lv_n <= MCPI_ADJ_ROW_NODES
             ? j.lv_n
             : 0;
}

// Blocks of 128 an SM that the registers must allow, by model.  Local
// volatility: 4 (128 registers) ran its sweep 1.37 times as fast as 1 (255)
// and 1.10 times as fast as 8 (64, spilling) on an H200, and 1.16 times as
// fast as 5 or 6; Black-Scholes, whose sweep holds no surface, 1.12 times
// as fast at 6 (80 registers) as at 4; the multi-asset sweep, whose
// assets' arrays spill at 80, 1.50 times as fast at 4 (128 registers) as at
// 6, 1.06 times as at 3 (bench/RESULTS.md, "adjoint").
#ifndef MCPI_ADJ_MIN_BLOCKS_LV
#define MCPI_ADJ_MIN_BLOCKS_LV 4
#endif
#ifndef MCPI_ADJ_MIN_BLOCKS_BS
#define MCPI_ADJ_MIN_BLOCKS_BS 6
#endif
#ifndef MCPI_ADJ_MIN_BLOCKS_MULTI
#define MCPI_ADJ_MIN_BLOCKS_MULTI 4
#endif

// Multi: the kernel of multi-asset jobs (a sweep of its own, adjoint.h: 1
// Black-Scholes, 2 local volatility, whose buffer only its kernel holds);
// Div: of blocks with the dividend yields' columns (without them the sweep
// is the code it was: 7% faster on the Black-Scholes benchmark).
template <int MinBlocks, int Multi, int Div>
__global__ void __launch_bounds__(128, MinBlocks) mcpi_adjoint_kernel(mcpi_job_view j,
                                                                   const double *__restrict__ z,
                                                                   size_t ld, size_t n,
                                                                   double *__restrict__ pay)
{
  extern __shared__ double rows[]; /* a surface's two rows a thread, interleaved */
  double *mine = job_rows(j) ? rows + threadIdx.x : NULL;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_adjoint_sample(&j, z ? z + i : NULL, ld, j.p0 + i, pay + i, ld, pay + i, ld, 0, mine,
                        blockDim.x, Multi, Div);
}

template <int MinBlocks, int Multi, int Div>
static cudaError_t launch(const mcpi_job_view &job, const double *z, size_t ld, size_t n,
                          double *pay, cudaStream_t stream)
{
  size_t blocks = (n + 127) / 128, smem = (size_t)job_rows(job) * 2 * 128 * sizeof(double);
  cudaError_t e = cudaFuncSetAttribute(mcpi_adjoint_kernel<MinBlocks, Multi, Div>,
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e)
    return e;
  unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  mcpi_adjoint_kernel<MinBlocks, Multi, Div><<<grid, 128, smem, stream>>>(job, z, ld, n, pay);
  return cudaGetLastError();
}

template <int Div>
static cudaError_t launch_kind(const mcpi_job_view &job, const double *z, size_t ld, size_t n,
                               double *pay, cudaStream_t stream)
{
  if (mcpi_adjoint_kind(&job) == 2)
    return launch<MCPI_ADJ_MIN_BLOCKS_MULTI, 2, Div>(job, z, ld, n, pay, stream);
  if (job.nassets > 1)
    return launch<MCPI_ADJ_MIN_BLOCKS_MULTI, 1, Div>(job, z, ld, n, pay, stream);
  return job.model == MCPI_MODEL_LOCAL_VOL
             ? launch<MCPI_ADJ_MIN_BLOCKS_LV, 0, Div>(job, z, ld, n, pay, stream)
             : launch<MCPI_ADJ_MIN_BLOCKS_BS, 0, Div>(job, z, ld, n, pay, stream);
}

extern "C" cudaError_t mcpi_launch_adjoint(mcpi_job_view job, const double *z, size_t ld,
                                           size_t n, double *pay, cudaStream_t stream)
{
  return job.adj_div ? launch_kind<1>(job, z, ld, n, pay, stream)
                     : launch_kind<0>(job, z, ld, n, pay, stream);
}
