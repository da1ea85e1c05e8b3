// reduce_kernel.cu: fixed-order chunk sums, the GPU twin of mcpi_chunk_sums.
#include "kernels/launch.h"
#include "models/products/greeks.h"
#include "mcprice.h"

#define HALF (MCP_CHUNK_PATHS / 2)

// One block of HALF threads a (node of 2^level chunks, column). Thread t
// starts with elements t and t + HALF of a chunk, which is the first level
// of the CPU's halving tree; the squares are rounded products (__dmul_rn)
// so that no fused multiply-add changes the rounding against the CPU.  The
// node's chunks are then summed by halves, left + right, as the host's tree
// (mcpi_tree_add) would have summed them one by one.  (Their trees side by
// side in shared memory, their loads at once, ran no faster on an H200.)
__global__ void mcpi_chunk_sums_kernel(const double *__restrict__ pay, size_t ld, size_t n,
                                       size_t ncol, unsigned level, double *__restrict__ part)
{
  __shared__ double a[HALF], b[HALF], node[2 << MCPI_GPU_TREE_LEVEL];
  size_t g = blockIdx.x, nodes = gridDim.x, per = (size_t)1 << level;
  unsigned t = threadIdx.x;
  for (size_t col = blockIdx.y; col < ncol; col += gridDim.y) {
    for (size_t k = 0; k < per; k++) {
      size_t base = (g * per + k) * MCP_CHUNK_PATHS;
      size_t m = n - base < MCP_CHUNK_PATHS ? n - base : MCP_CHUNK_PATHS;
      const double *v = pay + col * ld + base;
      double x0 = t < m ? v[t] : 0.0, x1 = t + HALF < m ? v[t + HALF] : 0.0;
      a[t] = x0 + x1;
      b[t] = __dmul_rn(x0, x0) + __dmul_rn(x1, x1);
      __syncthreads();
      for (unsigned h = HALF / 2; h >= 1; h /= 2) {
        if (t < h) {
          a[t] += a[t + h];
          b[t] += b[t + h];
        }
        __syncthreads();
      }
      if (t == 0) {
        node[2 * k] = a[0];
        node[2 * k + 1] = b[0];
      }
      __syncthreads();
    }
    if (t == 0) {
      for (size_t w = 1; w < per; w *= 2)
        for (size_t i = 0; i < per; i += 2 * w) {
          node[2 * i] = node[2 * i] + node[2 * (i + w)];
          node[2 * i + 1] = node[2 * i + 1] + node[2 * (i + w) + 1];
        }
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
  dim3 grid((unsigned)(((n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS) >> level),
            (unsigned)(ncol < 65535 ? ncol : 65535));
  mcpi_chunk_sums_kernel<<<grid, HALF, 0, stream>>>(pay, ld, n, ncol, level, part);
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
