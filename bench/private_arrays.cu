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
#include "private_arrays.h"

#define BLOCK PRIVATE_BLOCK

template <int L, int PLACE>
struct slots {
  double r[L];
  __device__ __forceinline__ double get(int i, double *sm) const
  {
    if (PLACE == PRIVATE_SHARED)
      return sm[i * BLOCK + threadIdx.x];
    if (PLACE == PRIVATE_REGISTERS) {
      double v = r[0];
#pragma unroll
      for (int q = 1; q < L; q++)
        v = q == i ? r[q] : v;
      return v;
    }
    return r[i];
  }
  __device__ __forceinline__ void set(int i, double v, double *sm)
  {
    if (PLACE == PRIVATE_SHARED) {
      sm[i * BLOCK + threadIdx.x] = v;
    } else if (PLACE == PRIVATE_REGISTERS) {
#pragma unroll
      for (int q = 0; q < L; q++)
        r[q] = q == i ? v : r[q];
    } else {
      r[i] = v;
    }
  }
};

template <int L, int PLACE>
__global__ void __launch_bounds__(BLOCK) walk(double *out, int iters, uint32_t seed)
{
  extern __shared__ double sm[];
  const uint32_t gid = blockIdx.x * BLOCK + threadIdx.x;
  slots<L, PLACE> a;
#pragma unroll
  for (int i = 0; i < L; i++)
    a.set(i, 1.0 + 0.001 * i + 1e-9 * gid, sm);
  uint32_t h = seed ^ (gid * 0x9E3779B9u);
  double acc = 0;
  for (int k = 0; k < iters; k++) {
    h = h * 1664525u + 1013904223u;
    uint32_t key = PLACE == PRIVATE_LOCAL_UNIFORM ? (uint32_t)k * 2654435761u + seed : h;
    int i = (int)((key >> 16) % L), j = (int)((key >> 8) % L);
    double x = a.get(i, sm);
    acc += x;
    a.set(j, x * 0.999 + 0.001, sm);
  }
  out[gid] = acc + a.get(0, sm);
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
