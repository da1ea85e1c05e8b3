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

#include "models/products/pde_grid.h"

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

/* Stores the 16-byte pair (a, b) at out[j], or the halves inside [K, n - K). */
template <int K>
__device__ __forceinline__ void mcpi_store_pair(double *out, int j, int n, double a, double b)
{
  if (j >= K && j + 1 < n - K) {
    *reinterpret_cast<double2 *>(out + j) = make_double2(a, b);
  } else {
    if (j >= K && j < n - K)
      out[j] = a;
    if (j + 1 >= K && j + 1 < n - K)
      out[j + 1] = b;
  }
}

/* The lane's C outputs from its window win[0 .. C + 2K), floored by fl.
 * A lane's C consecutive outputs span C/2 16-byte pairs; stored as they
 * are, every store instruction would write half or a quarter of each 32-byte
 * sector it touches, and L2 would take each sector two or four times.  So
 * groups of P = C/2 lanes first transpose their P x P pairs by P/2
 * exchanges of log2 P butterfly stages (warp shuffles), and store
 * instruction q then writes lane q's P pairs, whole sectors. */
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
  if constexpr (C == 1) {
    if (j0 >= K && j0 < n - K)
      out[j0] = o[0];
  } else if constexpr (C == 2) {
    mcpi_store_pair<K>(out, j0, n, o[0], o[1]);
  } else {
    constexpr int P = C / 2;
    const int r = (threadIdx.x & 31) % P, gb = j0 - r * C; /* the group's first node */
#pragma unroll
    for (int m = 1; m < P; m *= 2)
#pragma unroll
      for (int t = 0; t < P; t++) {
        if (t & m)
          continue;
        int hi = r & m; /* lane r keeps pair t | hi and sends the other */
        double sa = hi ? o[2 * t] : o[2 * (t | m)], sb = hi ? o[2 * t + 1] : o[2 * (t | m) + 1];
        double ra = __shfl_xor_sync(MCPI_FULL_MASK, sa, m);
        double rb = __shfl_xor_sync(MCPI_FULL_MASK, sb, m);
        if (hi) {
          o[2 * t] = ra;
          o[2 * t + 1] = rb;
        } else {
          o[2 * (t | m)] = ra;
          o[2 * (t | m) + 1] = rb;
        }
      }
    /* lane r now holds pair r of every lane q of its group, in o[2q], o[2q + 1] */
#pragma unroll
    for (int q = 0; q < P; q++)
      mcpi_store_pair<K>(out, gb + 2 * (q * P + r), n, o[2 * q], o[2 * q + 1]);
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
