/* private_arrays.cu: the private-array microbenchmark of bench/private
 * (issue 6): every thread keeps an array of L doubles and, for `iters`
 * rounds, reads one element and rewrites another at indices known only at
 * run time.  Where the array lives:
 *   local-uniform     local memory, every thread of the grid at the same index
 *   local-nonuniform  local memory, each thread at its own indices
 *   shared            shared memory, element i of thread t at i * BLOCK + t
 *                     (each thread's elements in its own bank)
 *   registers         registers, the dynamic index resolved by a scan of
 *                     compile-time indices (L selects an access)
 * The three non-uniform placements follow the same index sequence and give
 * the same bits. */
#include <cuda_runtime.h>
#include <stdint.h>
#include "models/products/path.h"
#include "bench/private_arrays.h"

#define BLOCK PRIVATE_BLOCK

// The array of a placement, reached through the library's accessors
// (models/products/private.h), as the path kernels reach theirs.
template <int L, int PLACE> struct array_of {
  typedef mcpi_parr type;
  double frame[L];
  __device__ type make(double *sm)
  {
    return PLACE == PRIVATE_SHARED ? mcpi_parr{sm + threadIdx.x, BLOCK} : mcpi_parr{frame, 1u};
  }
};
template <int L> struct array_of<L, PRIVATE_REGISTERS> {
  typedef mcpi_rarr<L> type;
  __device__ type make(double *) { return type(); }
};

template <int L, int PLACE>
__global__ void __launch_bounds__(BLOCK) walk(double *out, int iters, uint32_t seed)
{
  extern __shared__ double sm[];
  const uint32_t gid = blockIdx.x * BLOCK + threadIdx.x;
  array_of<L, PLACE> store;
  typename array_of<L, PLACE>::type a = store.make(sm);
#pragma unroll
  for (int i = 0; i < L; i++)
    mcpi_aset(&a, i, 1.0 + 0.001 * i + 1e-9 * gid);
  uint32_t h = seed ^ (gid * 0x9E3779B9u);
  double acc = 0;
  for (int k = 0; k < iters; k++) {
    h = h * 1664525u + 1013904223u;
    uint32_t key = PLACE == PRIVATE_LOCAL_UNIFORM ? (uint32_t)k * 2654435761u + seed : h;
    int i = (int)((key >> 16) % L), j = (int)((key >> 8) % L);
    double x = mcpi_aget(&a, i);
    acc += x;
    mcpi_aset(&a, j, x * 0.999 + 0.001);
  }
  out[gid] = acc + mcpi_aget(&a, 0);
}
typedef void (*walk_fn)(double *, int, uint32_t);
#define BY_PLACE(L) {walk<L, 0>, walk<L, 1>, walk<L, 2>, walk<L, 3>}
static const walk_fn table[4][4] = {BY_PLACE(8), BY_PLACE(16), BY_PLACE(32), BY_PLACE(64)};

extern "C" cudaError_t private_walk(int length, int place, double *out, int blocks, int iters,
                                    uint32_t seed)
{
  int li = length == 8 ? 0 : length == 16 ? 1 : length == 32 ? 2 : length == 64 ? 3 : -1;
  if (li < 0 || place < 0 || place > 3)
    return cudaErrorInvalidValue;
  size_t smem = place == PRIVATE_SHARED ? (size_t)length * BLOCK * sizeof(double) : 0;
  cudaError_t e = cudaFuncSetAttribute(table[li][place],
                                       cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e != cudaSuccess)
    return e;
  table[li][place]<<<blocks, BLOCK, smem>>>(out, iters, seed);
  return cudaGetLastError();
}
