/* stencil.cuh: a warp applies a (2K + 1)-point stencil to one grid,
 * out[j] = taps(e, in[j - K .. j + K]) for K <= j < n - K (floored by fl),
 * in tiles of 32 C nodes, lane l computing the C consecutive nodes from
 * tile + l C.  Three ways of bringing the taps into registers, all passing
 * the same values to mcpi_taps, so all give the same bits:
 *   global    each lane loads its C + 2K inputs itself (through L1);
 *   smem      the warp stages the tile and its halo in shared memory, laid
 *             out with one pad slot after every C values so that the lanes'
 *             strided reads fall in distinct banks;
 *   regcache  the warp keeps three tiles in registers (previous, current,
 *             next) and each lane takes the 2K halo values it lacks from its
 *             neighbours by shuffles: the source lane picks the current or
 *             the adjacent tile, so one shuffle serves every lane. */
#ifndef MCP_STENCIL_CUH
#define MCP_STENCIL_CUH

#include "pde_grid.h"

#define MCPI_FULL_MASK 0xffffffffu
enum { MCPI_ST_REGCACHE = 0, MCPI_ST_SMEM, MCPI_ST_GLOBAL }; /* mcp_stencil's order */

__host__ __device__ constexpr int mcpi_smem_pad(int m, int C) { return C > 1 ? m + m / C : m; }
/* shared-memory doubles a warp stages for radius K and coarsening C */
__host__ __device__ constexpr int mcpi_smem_slots(int K, int C)
{
  return mcpi_smem_pad(32 * C + 2 * K, C) + 1;
}

/* x[i] = in[j0 + i], i < C, zero past n; rows are 16-byte aligned and j0 is
 * even when C is, so pairs load as one 16-byte access. */
template <int C>
__device__ __forceinline__ void mcpi_load_tile(const double *in, int n, int j0, double *x)
{
#pragma unroll
  for (int i = 0; C == 1 && i < 1; i++)
    x[0] = j0 < n ? in[j0] : 0.0;
#pragma unroll
  for (int i = 0; C > 1 && i < C; i += 2) {
    int j = j0 + i;
    if (j + 1 < n) {
      double2 p = *reinterpret_cast<const double2 *>(in + j);
      x[i] = p.x;
      x[i + 1] = p.y;
    } else {
      x[i] = j < n ? in[j] : 0.0;
      x[i + 1] = 0.0;
    }
  }
}

/* The lane's C outputs from its window win[0 .. C + 2K); pairs of outputs
 * go out as one 16-byte store (j0 is even when C is). */
template <int K, int C>
__device__ __forceinline__ void mcpi_tile_out(const double *win, int j0, int n, const double *e,
                                              const double *fl, double *out)
{
  double o[C];
#pragma unroll
  for (int i = 0; i < C; i++) {
    int j = j0 + i;
    o[i] = mcpi_taps(K, e, win + i);
    if (fl && j >= K && j < n - K)
      o[i] = mcpi_floor(o[i], fl[j]);
  }
#pragma unroll
  for (int i = 0; i < C; i += C > 1 ? 2 : 1) {
    int j = j0 + i;
    if (C > 1 && j >= K && j + 1 < n - K) {
      *reinterpret_cast<double2 *>(out + j) = make_double2(o[i], o[i + 1]);
    } else {
#pragma unroll
      for (int q = 0; q < (C > 1 ? 2 : 1); q++)
        if (j + q >= K && j + q < n - K)
          out[j + q] = o[i + q];
    }
  }
}

template <int IMPL, int K, int C>
__device__ __forceinline__ void mcpi_sweep(const double *in, double *out, int n, const double *e,
                                           const double *fl, double *sm)
{
  const int lane = threadIdx.x & 31;
  if (IMPL == MCPI_ST_GLOBAL) {
    for (int base = 0; base < n; base += 32 * C) {
      int j0 = base + lane * C;
      double win[C + 2 * K];
#pragma unroll
      for (int i = 0; i < C + 2 * K; i++) {
        int j = j0 - K + i;
        win[i] = j >= 0 && j < n ? in[j] : 0.0;
      }
      mcpi_tile_out<K, C>(win, j0, n, e, fl, out);
    }
  } else if (IMPL == MCPI_ST_SMEM) {
    for (int base = 0; base < n; base += 32 * C) {
      for (int m = lane; m < 32 * C + 2 * K; m += 32) {
        int j = base - K + m;
        sm[mcpi_smem_pad(m, C)] = j >= 0 && j < n ? in[j] : 0.0;
      }
      __syncwarp();
      double win[C + 2 * K];
#pragma unroll
      for (int i = 0; i < C + 2 * K; i++)
        win[i] = sm[lane * (C > 1 ? C + 1 : 1) + i + (C > 1 ? i / C : 0)];
      mcpi_tile_out<K, C>(win, base + lane * C, n, e, fl, out);
      __syncwarp();
    }
  } else {
    double prv[C], cur[C], nxt[C];
#pragma unroll
    for (int i = 0; i < C; i++)
      prv[i] = 0.0;
    mcpi_load_tile<C>(in, n, lane * C, cur);
    mcpi_load_tile<C>(in, n, 32 * C + lane * C, nxt);
    for (int base = 0; base < n; base += 32 * C) {
      double win[C + 2 * K];
#pragma unroll
      for (int i = 0; i < C; i++)
        win[K + i] = cur[i];
#pragma unroll
      for (int o = -K; o < 0; o++) { /* left halo: from lane + f, f < 0 */
        const int f = -((-o + C - 1) / C), r = o - f * C;
        double send = lane >= 32 + f ? prv[r] : cur[r];
        win[K + o] = __shfl_sync(MCPI_FULL_MASK, send, (lane + f) & 31);
      }
#pragma unroll
      for (int o = C; o < C + K; o++) { /* right halo: from lane + f, f > 0 */
        const int f = o / C, r = o - f * C;
        double send = lane < f ? nxt[r] : cur[r];
        win[K + o] = __shfl_sync(MCPI_FULL_MASK, send, (lane + f) & 31);
      }
      mcpi_tile_out<K, C>(win, base + lane * C, n, e, fl, out);
#pragma unroll
      for (int i = 0; i < C; i++) {
        prv[i] = cur[i];
        cur[i] = nxt[i];
      }
      mcpi_load_tile<C>(in, n, base + 64 * C + lane * C, nxt);
    }
  }
}

#endif
