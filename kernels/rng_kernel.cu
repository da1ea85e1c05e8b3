// rng_kernel.cu: the canonical normals of a tile (rng.h), computed with
// cuRAND's device API in one launch.  cuRAND's generator API would need one
// call per step and window of 2^18 paths (about 22 us each on an H100), which
// made the fill 15 times slower than the generator's own bulk speed.
#include <curand_kernel.h>
#include "launch.h"
#include "rng.h"

// One thread, four consecutive paths of one step: Philox counters c and c + 1
// of one subsequence, two curand_normal2_double each, as the generator does.
template <typename R>
__global__ void mcpi_normals_kernel(unsigned long long seed, size_t step0, size_t nsteps,
                                    uint64_t p0, size_t n, R *__restrict__ z, size_t ld)
{
  size_t quads = (n + 3) / 4;
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= quads * nsteps)
    return;
  size_t s = t / quads, i = 4 * (t % quads);
  uint64_t k = mcpi_rng_offset(step0 + s, p0 + i);
  curandStatePhilox4_32_10_t st;
  curand_init(seed, mcpi_rng_subsequence(k), 4 * mcpi_rng_counter(k), &st);
  double2 a = curand_normal2_double(&st), b = curand_normal2_double(&st);
  R *out = z + s * ld + i;
  if (i + 3 < n) {
    out[0] = (R)a.x, out[1] = (R)a.y, out[2] = (R)b.x, out[3] = (R)b.y;
  } else {
    const double v[4] = {a.x, a.y, b.x, b.y};
    for (size_t j = 0; i + j < n; j++)
      out[j] = (R)v[j];
  }
}

extern "C" cudaError_t mcpi_launch_normals(uint64_t seed, size_t step0, size_t nsteps,
                                           uint64_t p0, size_t n, void *z, size_t ld,
                                           mcp_precision precision, cudaStream_t stream)
{
  size_t threads = (n + 3) / 4 * nsteps;
  if (threads == 0)
    return cudaSuccess;
  const int block = 256;
  unsigned grid = (unsigned)((threads + block - 1) / block);
  if (precision == MCP_FLOAT)
    mcpi_normals_kernel<<<grid, block, 0, stream>>>(seed, step0, nsteps, p0, n, (float *)z, ld);
  else
    mcpi_normals_kernel<<<grid, block, 0, stream>>>(seed, step0, nsteps, p0, n, (double *)z, ld);
  return cudaGetLastError();
}
