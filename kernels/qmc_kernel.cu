// qmc_kernel.cu: quasi-Monte Carlo normals (qmc.h): cuRAND's scrambled Sobol64
// points through the normal quantile, then the Brownian bridge of each path.
#include <curand_kernel.h>
#include "kernels/launch.h"
#include "models/qmc.h"

// One thread a (dimension, point): cuRAND skips to the point by its Gray code.
__global__ void mcpi_sobol_kernel(const uint64_t *__restrict__ dirs,
                                  const uint64_t *__restrict__ scr, size_t ndim, uint64_t p0,
                                  size_t n, double *__restrict__ z, size_t ld)
{
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * ndim)
    return;
  size_t d = t / n, i = t % n;
  curandStateScrambledSobol64_t st;
  curand_init((unsigned long long *)(dirs + d * MCPI_SOBOL_BITS), scr[d], p0 + i, &st);
  z[d * ld + i] = mcpi_sobol_normal(curand(&st));
}

// One thread a (path, factor).
template <typename R>
__global__ void mcpi_bridge_kernel(mcpi_bridge_view b, int nf, const double *__restrict__ zq,
                                   double *w, size_t ld, size_t n, R *z)
{
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * (size_t)nf)
    return;
  size_t i = t % n;
  int f = (int)(t / n);
  mcpi_bridge_path(&b, nf, f, zq + i, ld, w + i, ld);
  if ((void *)z != (void *)w)
    for (int s = 0; s < b.n; s++) {
      size_t e = ((size_t)s * nf + f) * ld + i;
      z[e] = (R)w[e];
    }
}

extern "C" cudaError_t mcpi_launch_sobol(const uint64_t *dirs, const uint64_t *scr, size_t ndim,
                                         uint64_t p0, size_t n, double *z, size_t ld,
                                         cudaStream_t stream)
{
  size_t threads = n * ndim;
  if (threads == 0)
    return cudaSuccess;
  mcpi_sobol_kernel<<<(unsigned)((threads + 255) / 256), 256, 0, stream>>>(dirs, scr, ndim, p0,
                                                                            n, z, ld);
  return cudaGetLastError();
}

extern "C" cudaError_t mcpi_launch_bridge(mcpi_bridge_view b, int nf, const double *zq,
                                          double *w, size_t ld, size_t n, void *z,
                                          mcp_precision precision, cudaStream_t stream)
{
  size_t threads = n * (size_t)nf;
  if (threads == 0)
    return cudaSuccess;
  unsigned grid = (unsigned)((threads + 127) / 128);
  if (precision == MCP_FLOAT)
    mcpi_bridge_kernel<<<grid, 128, 0, stream>>>(b, nf, zq, w, ld, n, (float *)z);
  else
    mcpi_bridge_kernel<<<grid, 128, 0, stream>>>(b, nf, zq, w, ld, n, (double *)z);
  return cudaGetLastError();
}
