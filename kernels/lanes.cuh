// lanes.cuh: the lanes layout of several assets' paths, a path's n assets
// on n lanes of a warp (32 / n paths a warp), asset i on its group's lane
// i, each lane stepping its own asset with the step's normals of the others
// by shuffles: the adjoint's lanes kernel (adjoint_kernel.cu) and the
// Longstaff-Schwartz fit's and price's paths (lsm_kernel.cu).  The steps are
// adjoint.h's forward ones, the mheston and multi states' operations: the
// same bits as a path a thread.
#ifndef MCPI_LANES_CUH
#define MCPI_LANES_CUH

#include "models/products/adjoint.h"

// The lanes kernel's pieces (F an asset's factors): lane i's signed
// normals of step s; the step's of the group's n assets, zs, from each
// lane's own zf by shuffles; asset i's step from x (and a Heston asset's v).
template <int F>
static __device__ __forceinline__ void lanes_draw(const mcpi_job_view &j, const double *zp,
                                                  size_t ld, size_t row, int s, int i,
                                                  double sign, double *zf)
{
  MCP_UNROLL
  for (int f = 0; f < F; f++)
    zf[f] = sign * mcpi_adj_normal(&j, zp, ld, j.p0 + row, (s * j.nassets + i) * F + f);
}

// lanes_draw<2>'s canonical normals (zp NULL) where groups g and g ^ 1
// of the warp hold paths 2k and 2k + 1 (32 / n even, p0 even): as
// mcpi_rng_pair draws an element's numbers for both paths of a pair, the
// lane of group parity b (asset a, its partner lane the other group's)
// draws element 2 (s n + a) + b's pair alone, keeps its path's number and
// gives the other path's to its partner.  Half the Philox blocks and
// Box-Muller transforms, the same numbers: on an H200, STAC-A2's fit's
// paths 976 -> 735 M warp-instructions, 1.43 -> 1.11 ms (bench/RESULTS.md,
// "fit-pairs").  (A lane past the paths, row npaths - 1, draws for its
// partner's pair where that is the last path.)
static __device__ __forceinline__ void lanes_draw_pairs(const mcpi_job_view &j, size_t row, int s,
                                                        int a, int b, int partner, double sign,
                                                        double *zf)
{
  double out[2];
  mcpi_rng_pair(j.seed, (uint64_t)((s * j.nassets + a) * 2 + b), (j.p0 + row) & ~(uint64_t)1, out);
  double mine = b ? out[1] : out[0], got = __shfl_sync(0xffffffffu, b ? out[0] : out[1], partner);
  zf[0] = sign * (b ? got : mine); /* (selects: zf stays in registers) */
  zf[1] = sign * (b ? mine : got);
}

template <int F, int MaxA>
static __device__ __forceinline__ void lanes_gather(const double *zf, int n, int src, double *zs)
{
  MCP_UNROLL
  for (int k = 0; k < F * MaxA; k++)
    zs[k] = k < F * n ? __shfl_sync(0xffffffffu, zf[k % F], src + k / F) : 0;
}

// The warp's largest v (by shuffles: any architecture).
static __device__ __forceinline__ int lanes_max(int v)
{
  for (int o = 16; o > 0; o /= 2)
    v = max(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// The group's log-spots xa and spots (mcpi_dexp, each lane its own) from
// each lane's x by shuffles; past the assets, the job's log-spots and 0.
template <int MaxA>
static __device__ __forceinline__ void lanes_spots(double x, int n, int src,
                                                   const mcpi_job_view *j, double *xa,
                                                   double *spot)
{
  double sx = mcpi_dexp(x);
  MCP_UNROLL
  for (int k = 0; k < MCP_MAX_ASSETS; k++) {
    xa[k] = k < n && k < MaxA ? __shfl_sync(0xffffffffu, x, src + k) : j->log_spots[k];
    spot[k] = k < n && k < MaxA ? __shfl_sync(0xffffffffu, sx, src + k) : 0;
  }
}

template <int Heston, int MaxA>
static __device__ __forceinline__ void lanes_advance(const mcpi_job_view &j, int i, int s,
                                                     const double *zs, double *x, double *v)
{
  if constexpr (Heston) /* (the other's reads of zs past 2 MaxA not compiled) */
    mcpi_adj_mh_advance(&j, i, s, x, v, zs, 2 * MaxA);
  else
    *x = mcpi_adj_mlv_advance(&j, i, s * j.nassets + i, *x, mcpi_adj_mlv_w(&j, i, zs));
}

// The lanes kernels' grid for n paths of nassets assets: 4 warps a block of
// 128 threads, 32 / nassets paths a warp.
static inline unsigned lanes_blocks(int nassets, size_t n)
{
  size_t per = 4 * (size_t)(32 / nassets); /* paths a block */
  return (unsigned)((n + per - 1) / per);
}

#endif
