// adjoint_kernel.cu: the path kernel of jobs with bucketed sensitivities by
// adjoint (models/products/adjoint.h): one thread a sample, its normals the
// tile's (stored, QMC) or computed again where needed (fused: the canonical
// numbers of rng.h, the same bits), the same calls as the CPU's loop.
#include "kernels/launch.h"
#include "models/products/adjoint.h"

__global__ void __launch_bounds__(128) mcpi_adjoint_kernel(mcpi_job_view j,
                                                           const double *__restrict__ z,
                                                           size_t ld, size_t n,
                                                           double *__restrict__ pay)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_adjoint_path(&j, z ? z + i : NULL, ld, j.p0 + i, pay + i, ld, pay + i, ld, 0);
}

extern "C" cudaError_t mcpi_launch_adjoint(mcpi_job_view job, const double *z, size_t ld,
                                           size_t n, double *pay, cudaStream_t stream)
{
  size_t blocks = (n + 127) / 128;
  mcpi_adjoint_kernel<<<(unsigned)(blocks < 65535 ? blocks : 65535), 128, 0, stream>>>(
      job, z, ld, n, pay);
  return cudaGetLastError();
}
