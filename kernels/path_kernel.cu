// path_kernel.cu: the Monte Carlo path kernel, one thread a path.
#include "launch.h"

__global__ void mcpi_path_kernel(mcpi_job_view job, const double *__restrict__ z, size_t ld,
                                 size_t n, double *__restrict__ pay)
{
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    mcpi_path(&job, z + i, ld, pay + i, ld);
}

extern "C" cudaError_t mcpi_launch_paths(mcpi_job_view job, const double *z, size_t ld,
                                         size_t n, double *pay, int block, cudaStream_t stream)
{
  if (n == 0)
    return cudaSuccess;
  unsigned grid = (unsigned)((n + block - 1) / block);
  mcpi_path_kernel<<<grid, block, 0, stream>>>(job, z, ld, n, pay);
  return cudaGetLastError();
}
