// rng_kernel.cu: the canonical normals of a tile (rng.h) in one launch, by the
// same Philox blocks and transforms as the fused path kernels compute in
// registers (tests/test_gpu.c checks the double ones against cuRAND's device
// generator, the float ones against the host's).  cuRAND's generator API would need one call per step and window
// of 2^18 paths (about 22 us each on an H100), which made the fill 15 times
// slower than the generator's own bulk speed.
#include "kernels/launch.h"
#include "models/rng.h"

// A block's pair by the double transform, or (Mixed) the mixed precision's.
template <bool Mixed> static __device__ __forceinline__ void pair(const uint32_t c[4], double *v)
{
  if constexpr (Mixed)
    mcpi_rng_box_muller_mixed(c, v);
  else
    mcpi_rng_box_muller(c, v);
}

// Double: one thread, four consecutive paths of one step: the blocks at
// counters c and c + 1 of one subsequence, two normals each, as the generator
// does.
template <bool Mixed>
__global__ void mcpi_normals_kernel(unsigned long long seed, size_t step0, size_t nsteps,
                                    uint64_t p0, size_t n, double *__restrict__ z, size_t ld)
{
  size_t quads = (n + 3) / 4;
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= quads * nsteps)
    return;
  size_t s = t / quads, i = 4 * (t % quads);
  uint64_t ctr;
  uint32_t sub, c[4];
  double v[4];
  mcpi_rng_block_at(step0 + s, p0 + i, &ctr, &sub);
  mcpi_rng_block(seed, ctr, sub, c);
  pair<Mixed>(c, v);
  mcpi_rng_block(seed, ctr + 1, sub, c);
  pair<Mixed>(c, v + 2);
  double *out = z + s * ld + i;
  // Two 16-byte stores where the row's four fit and align: its 32-byte
  // sector then reaches L2 once (ncu); four 8-byte ones that the compiler
  // spread among the mixed transform's instructions wrote each sector four
  // times, which made that kernel L2-bound, 1.5 times the double one's time.
  if (i + 4 <= n && ((uintptr_t)out & 15u) == 0) {
    reinterpret_cast<double2 *>(out)[0] = make_double2(v[0], v[1]);
    reinterpret_cast<double2 *>(out)[1] = make_double2(v[2], v[3]);
    return;
  }
#pragma unroll
  for (int j = 0; j < 4; j++) // constant indices: v stays in registers
    if (i + j < n)
      out[j] = v[j];
}

// Float: one thread, one path's block of four elements 4 g .. 4 g + 3 (rng.h),
// those of them in [step0, step0 + nsteps); neighbouring threads take
// neighbouring paths, so each element's writes are coalesced.
__global__ void mcpi_normals_kernel_f(unsigned long long seed, size_t step0, size_t nsteps,
                                      uint64_t p0, size_t n, float *__restrict__ z, size_t ld)
{
  size_t g0 = step0 / 4, groups = (step0 + nsteps + 3) / 4 - g0;
  size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= groups * n)
    return;
  size_t g = g0 + t / n, i = t % n;
  uint32_t c[4];
  float v[4];
  mcpi_rng_quad_block(seed, 4 * g, p0 + i, c);
  mcpi_rng_transform_f(c, v);
#pragma unroll
  for (int k = 0; k < 4; k++)
    if (4 * g + k >= step0 && 4 * g + k < step0 + nsteps)
      z[(4 * g + k - step0) * ld + i] = v[k];
}

extern "C" cudaError_t mcpi_launch_normals(uint64_t seed, size_t step0, size_t nsteps,
                                           uint64_t p0, size_t n, void *z, size_t ld,
                                           mcp_precision precision, cudaStream_t stream)
{
  size_t threads = precision == MCP_FLOAT ? ((step0 + nsteps + 3) / 4 - step0 / 4) * n
                                          : (n + 3) / 4 * nsteps;
  if (n == 0 || nsteps == 0)
    return cudaSuccess;
  const int block = 256;
  unsigned grid = (unsigned)((threads + block - 1) / block);
  if (precision == MCP_FLOAT)
    mcpi_normals_kernel_f<<<grid, block, 0, stream>>>(seed, step0, nsteps, p0, n, (float *)z, ld);
  else if (precision == MCP_MIXED)
    mcpi_normals_kernel<true>
        <<<grid, block, 0, stream>>>(seed, step0, nsteps, p0, n, (double *)z, ld);
  else
    mcpi_normals_kernel<false>
        <<<grid, block, 0, stream>>>(seed, step0, nsteps, p0, n, (double *)z, ld);
  return cudaGetLastError();
}
