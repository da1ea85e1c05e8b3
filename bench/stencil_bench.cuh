/* stencil_bench.cuh: the general (2K + 1)-point stencil kernel of the
 * benchmark: one warp a grid of n nodes, `sweeps` applications of the
 * stencil w between two buffers, with the implementations of the pricing
 * kernels (kernels/stencil.cuh) for K = 1 .. 12 and C = 1, 2, 4, 8. */
#include "kernels/stencil.cuh"
#include "bench/stencil_bench.h"

template <int IMPL, int K, int C>
__global__ void __launch_bounds__(128) bench_sweeps(double *a, double *b, int n, int ld,
                                                    int ngrids, int sweeps, const double *w)
{
  extern __shared__ double smem[];
  const int gi = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  if (gi >= ngrids)
    return;
  double e[2 * K + 1];
#pragma unroll
  for (int d = 0; d <= 2 * K; d++)
    e[d] = w[d];
  double *in = a + (size_t)gi * ld, *out = b + (size_t)gi * ld;
  double *sm = smem + (threadIdx.x >> 5) * mcpi_smem_slots(K, C);
  for (int s = 0; s < sweeps; s++) {
    mcpi_sweep<IMPL, K, C>(in, out, n, e, NULL, sm);
    __syncwarp();
    double *t = in;
    in = out;
    out = t;
  }
}

typedef void (*bench_fn)(double *, double *, int, int, int, int, const double *);
#define BENCH_C(I, K) {bench_sweeps<I, K, 1>, bench_sweeps<I, K, 2>, bench_sweeps<I, K, 4>, bench_sweeps<I, K, 8>}
#define BENCH_TABLE(I)                                                                    \
  {BENCH_C(I, 1), BENCH_C(I, 2), BENCH_C(I, 3), BENCH_C(I, 4), BENCH_C(I, 5), BENCH_C(I, 6), \
   BENCH_C(I, 7), BENCH_C(I, 8), BENCH_C(I, 9), BENCH_C(I, 10), BENCH_C(I, 11), BENCH_C(I, 12)}

#define BENCH_LAUNCHER(name, I)                                                            \
  static const bench_fn name##_table[12][4] = BENCH_TABLE(I);                             \
  extern "C" cudaError_t name(int K, int C, double *a, double *b, int n, int ld, int ngrids, \
                              int sweeps, const double *w)                                 \
  {                                                                                        \
    int ci = C == 8 ? 3 : C == 4 ? 2 : C == 2 ? 1 : 0;                                     \
    size_t smem = I == MCPI_ST_SMEM ? 4 * sizeof(double) * mcpi_smem_slots(K, C) : 0;      \
    name##_table[K - 1][ci]<<<(ngrids + 3) / 4, 128, smem>>>(a, b, n, ld, ngrids, sweeps, w); \
    return cudaGetLastError();                                                             \
  }
