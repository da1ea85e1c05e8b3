// reduce_kernel.cu: fixed-order chunk sums, the GPU twin of mcpi_chunk_sums.
#include "kernels/launch.h"
#include "models/products/greeks.h"
#include "mcprice.h"
#include "models/tree_nodes.h"

#define WARP 32
#define LANES (MCP_CHUNK_PATHS / WARP) /* a chunk's values a lane */

// A chunk's sum and sum of squares by the CPU's halving tree, on one warp:
// lane l holds elements l + 32 q (q < 8) and adds them in the tree's order
// while the pairs are its own (the levels of 128, 64 and 32 apart, the
// squares rounded products, __dmul_rn, so that no fused multiply-add rounds
// otherwise than the CPU), then by shuffles down the last five levels,
// a[t] + a[t + h] as the tree adds them.  No barrier: a block's warps sum
// chunks side by side.
static __device__ __forceinline__ void chunk_sum(const double *__restrict__ v, size_t m,
                                                 unsigned l, double *sum, double *sq)
{
  double a[LANES], b[LANES];
#pragma unroll
  for (int q = 0; q < LANES; q++) {
    size_t i = l + (size_t)WARP * q;
    double x = i < m ? v[i] : 0.0;
    a[q] = x;
    b[q] = __dmul_rn(x, x);
  }
#pragma unroll
  for (int h = LANES / 2; h >= 1; h /= 2)
#pragma unroll
    for (int q = 0; q < h; q++) {
      a[q] += a[q + h];
      b[q] += b[q + h];
    }
#pragma unroll
  for (int h = WARP / 2; h >= 1; h /= 2) {
    a[0] += __shfl_down_sync(0xffffffffu, a[0], h);
    b[0] += __shfl_down_sync(0xffffffffu, b[0], h);
  }
  *sum = a[0];
  *sq = b[0];
}

// One block a (node, column), a warp a chunk in turn; the
// node's chunks are then summed by halves, left + right, as the host's tree
// (mcpi_tree_add) would have summed them one by one: a level's pairs apart
// are the block's threads' (their sums are the same).
__global__ void mcpi_chunk_sums_kernel(const double *__restrict__ pay, size_t ld, size_t n,
                                       size_t ncol, unsigned level, double *__restrict__ part)
{
  __shared__ double node[2 << MCPI_GPU_TREE_WIDE];
  uint64_t first;
  size_t g = blockIdx.x, nodes = gridDim.x;
  size_t per = (size_t)1 << mcpi_tree_node((n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS, level,
                                           g, &first);
  unsigned w = threadIdx.x / WARP, l = threadIdx.x % WARP, nw = blockDim.x / WARP;
  for (size_t col = blockIdx.y; col < ncol; col += gridDim.y) {
    for (size_t k = w; k < per; k += nw) {
      size_t base = (first + k) * MCP_CHUNK_PATHS;
      size_t m = n - base < MCP_CHUNK_PATHS ? n - base : MCP_CHUNK_PATHS;
      double a, b;
      chunk_sum(pay + col * ld + base, m, l, &a, &b);
      if (l == 0) {
        node[2 * k] = a;
        node[2 * k + 1] = b;
      }
    }
    for (size_t s = 1; s < per; s *= 2) {
      __syncthreads();
      for (size_t i = 2 * s * threadIdx.x; i < per; i += 2 * s * blockDim.x) {
        node[2 * i] = node[2 * i] + node[2 * (i + s)];
        node[2 * i + 1] = node[2 * i + 1] + node[2 * (i + s) + 1];
      }
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      part[(col * nodes + g) * 2] = node[0];
      part[(col * nodes + g) * 2 + 1] = node[1];
    }
    __syncthreads();
  }
}

extern "C" cudaError_t mcpi_launch_chunk_sums(const double *pay, size_t ld, size_t n,
                                              size_t ncol, unsigned level, double *part,
                                              cudaStream_t stream)
{
  if (n == 0)
    return cudaSuccess;
  dim3 grid((unsigned)mcpi_tree_nodes((n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS, level),
            (unsigned)(ncol < 65535 ? ncol : 65535));
  unsigned warps = level < 2 ? 1u << level : 4u; /* at most a warp a chunk of the node */
  mcpi_chunk_sums_kernel<<<grid, warps * WARP, 0, stream>>>(pay, ld, n, ncol, level, part);
  return cudaGetLastError();
}

// One thread a path: its combined estimators from its columns.
__global__ void mcpi_combine_kernel(const mcpi_term *__restrict__ term,
                                    const int32_t *__restrict__ off, int nest, int col0,
                                    double *__restrict__ pay, size_t ld, size_t n)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_combine(term, off, nest, col0, pay + i, ld, 1);
}

extern "C" cudaError_t mcpi_launch_combine(const mcpi_term *term, const int32_t *off, int nest,
                                           int col0, double *pay, size_t ld, size_t n,
                                           cudaStream_t stream)
{
  if (n == 0 || nest == 0)
    return cudaSuccess;
  unsigned blocks = (unsigned)((n + 255) / 256);
  mcpi_combine_kernel<<<blocks < 65535 ? blocks : 65535, 256, 0, stream>>>(term, off, nest, col0,
                                                                          pay, ld, n);
  return cudaGetLastError();
}
