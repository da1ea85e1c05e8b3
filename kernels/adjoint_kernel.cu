// adjoint_kernel.cu: the path kernel of jobs with bucketed sensitivities by
// adjoint (models/products/adjoint.h): one thread a sample, its normals the
// tile's (stored, QMC) or computed again where needed (fused: the canonical
// numbers of rng.h, the same bits), the same calls as the CPU's loop.

// The forward step's local volatility with the slice's nodes and values
// loaded before the search selects (local_vol.h, the same value): here its
// registers pay, in the price kernels they do not (bench/RESULTS.md).
#define MCPI_LOCAL_VOL_D mcpi_local_vol_together
#include "kernels/lanes.cuh"
#include "kernels/launch.h"
#include "models/products/adjoint.h"

// A local-volatility job's values of the two rows a path holds in shared
// memory (adjoint.h, mcpi_adj_rows: a surface's nodes, or its smiles'
// coordinates), or 0.
static __host__ __device__ int job_rows(const mcpi_job_view &j)
{
  return mcpi_adjoint_kind(&j) == 0 ? mcpi_adj_row_width(&j) : 0;
}

// Blocks of 128 an SM that the registers must allow, by model.  Local
// volatility: 4 (128 registers) ran its sweep 1.37 times as fast as 1 (255)
// and 1.10 times as fast as 8 (64, spilling) on an H200, and 1.16 times as
// fast as 5 or 6; Black-Scholes, whose sweep holds no surface, 1.12 times
// as fast at 6 (80 registers) as at 4; the multi-asset sweep, whose
// assets' arrays spill at 80, 1.50 times as fast at 4 (128 registers) as at
// 6, 1.06 times as at 3 (bench/RESULTS.md, "adjoint").
#ifndef MCPI_ADJ_MIN_BLOCKS_LV
#define MCPI_ADJ_MIN_BLOCKS_LV 4
#endif
// the plain shape's forward (Plain below): 108 registers and no spill at 4
#ifndef MCPI_ADJ_MIN_BLOCKS_LVP
#define MCPI_ADJ_MIN_BLOCKS_LVP 4
#endif
#ifndef MCPI_ADJ_MIN_BLOCKS_BS
#define MCPI_ADJ_MIN_BLOCKS_BS 6
#endif
#ifndef MCPI_ADJ_MIN_BLOCKS_MULTI
#define MCPI_ADJ_MIN_BLOCKS_MULTI 4
#endif
#ifndef MCPI_ADJ_MIN_BLOCKS_MLV
#define MCPI_ADJ_MIN_BLOCKS_MLV 4
#endif
// several Heston assets on lanes (their normals' and Lbar's rows' slots in
// registers): 3 (168 registers) ran STAC-A2's European (5 assets, the
// kernel of 8; 10, then of 16) in 7.2 ms and 0.55 s a call, 4 (128,
// spilling 1 and 2.4 KB) in 8.6 ms and 1.02 s, 2 (254) in 9.8 ms and
// 0.57 s on an H100 (bench/RESULTS.md, "mheston-adjoint")
#ifndef MCPI_ADJ_MIN_BLOCKS_MHESTON
#define MCPI_ADJ_MIN_BLOCKS_MHESTON 3
#endif
// an early exercise's of at most 6 (its forward the record's: fewer
// registers live): 4 (128 registers; 1,042 blocks of STAC-A2's small
// American in 1.97 waves, not 2.63) swept it in 3.2 ms where 3 and the
// bound of 8 took 4.4 on an H100, with more spills (bench/RESULTS.md,
// "lanes-few")
#ifndef MCPI_ADJ_MIN_BLOCKS_MHESTON_FEW
#define MCPI_ADJ_MIN_BLOCKS_MHESTON_FEW 4
#endif
// one Heston asset (x and v a step kept; its forward in the plain shape's
// state where the trades fit it, else the general state's)
#ifndef MCPI_ADJ_MIN_BLOCKS_HESTON
#define MCPI_ADJ_MIN_BLOCKS_HESTON 4
#endif
// Threads a block: 128, and Heston's 256 (as many warps an SM, the same
// registers): its kernel 2.2% faster on an H200, where the local-volatility
// kernel bounded for 256 was 6% slower; measured, not explained
// (bench/RESULTS.md, "The chunk sums inside the adjoint kernel").
#define MCPI_ADJ_THREADS(multi) ((multi) == MCPI_ADJ_HESTON ? 256 : 128)

// Multi: 1 in the kernel of several Black-Scholes assets, MCPI_ADJ_HESTON in
// one Heston asset's (sweeps of their own, adjoint.h; several
// local-volatility assets have the kernel below);
// Div: of blocks with the dividend yields' columns (without them the sweep
// is the code it was: 7% faster on the Black-Scholes benchmark); Plain: of
// a local-volatility job of the plain shape, its forward path in that
// shape's state (mcpi_adjoint_sample), or with Multi 1 of an early
// exercise (the others' code as it was); Smiles: of one asset given implied
// volatilities (the sweep's rows its smiles: without it the other kernels
// keep their registers); Events: of a job whose sweep meets cash dividends'
// drops or bridge-watched barriers (mcpi_adjoint_events; without it, the
// Black-Scholes sweep 10% faster; a Heston job outside the plain shape
// takes it always, its trades' barriers read at run time); Lv: of one
// local-volatility asset (without it, the Black-Scholes kernels hold no
// surface's code).
template <int MinBlocks, int Multi, int Div, int Plain, int Smiles, int Events, int Lv>
__global__ void __launch_bounds__(MCPI_ADJ_THREADS(Multi),
                                  MinBlocks * 128 / MCPI_ADJ_THREADS(Multi))
    mcpi_adjoint_kernel(const __grid_constant__ mcpi_job_view j, const double *__restrict__ z,
                        size_t ld, size_t n, double *__restrict__ pay)
{
  static_assert(MinBlocks * 128 % MCPI_ADJ_THREADS(Multi) == 0, "as many warps an SM");
  extern __shared__ double rows[]; /* a surface's two rows a thread, interleaved */
  double *mine = job_rows(j) ? rows + threadIdx.x : NULL;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_adjoint_sample(&j, z ? z + i : NULL, ld, j.p0 + i, pay + i, ld, pay + i, ld, 0, mine,
                        blockDim.x, Multi, Div, Plain, Smiles, Events, Lv);
}

// Several local-volatility assets (adjoint kind 2), or Heston ones
// (MCPI_ADJ_MHESTON: Heston 1): a path's n assets on n lanes of a warp
// (32 / n paths a warp), asset i on the group's lane i, the step's signed
// normals of the others by shuffles (a Heston asset's two factors'); each
// lane its asset's buffer of checkpoints and a segment (adjoint.h: a
// local-volatility asset's log-spots, a Heston one's variances).  One
// thread a path left one warp a scheduler on the du Toit-Lotz-Naumann case
// (10 assets, 10,000 paths): 8.7 cycles between a warp's instructions
// (bench/RESULTS.md, "adjoint-mlv").  Every lane of the warp runs every
// step (the shuffles), those past the groups or the paths on asset 0 of
// the last path, writing nothing.  The rho's total, which every asset's
// runs add to, is added lane by lane in the CPU's order.  MaxA: a bound on
// the assets, the normals' and Lbar's rows' slots in registers (Heston's:
// a kernel for 4, 8, 12 and 16 assets, an early exercise's for 5 and 6
// too, 12's running STAC-A2's 10 in 0.45 s
// where 16's took 0.55; local volatility's: MCP_MAX_ASSETS).  Heston
// assets' early exercise: with start (adjoint.h, MCPI_ADJ_START) no
// forward, its checkpoints and exercises the record's (lsm_kernel.cu).
template <int Div, int Heston, int MaxA, int Lsm>
__global__ void __launch_bounds__(128, !Heston            ? MCPI_ADJ_MIN_BLOCKS_MLV
                                       : Lsm && MaxA <= 6 ? MCPI_ADJ_MIN_BLOCKS_MHESTON_FEW
                                                          : MCPI_ADJ_MIN_BLOCKS_MHESTON)
    mcpi_adjoint_lanes_kernel(const __grid_constant__ mcpi_job_view j, const double *__restrict__ z,
                              size_t ld, size_t npaths, double *__restrict__ pay,
                              const double *__restrict__ start)
{
  const unsigned all = 0xffffffffu;
  const int F = Heston ? 2 : 1; /* an asset's factors */
  int n = j.nassets, per = 32 / n, w = (int)(threadIdx.x % 32), grp = w / n, lane = w % n;
  size_t path = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32 * (unsigned)per + grp;
  int live = grp < per && path < npaths, i = live ? lane : 0, src = grp * n;
  size_t row = live ? path : npaths - 1;
  const double *zp = z ? z + row : NULL;
  int steps = j.nelem / (F * n);
  int c = Heston ? mcpi_adj_mheston_segment(steps) : mcpi_adj_mlv_segment(steps);
  int ncp = (steps + c - 1) / c, nf = MCPI_ADJ_START_FIELDS(n, ncp);
  double buf[MCPI_ADJ_MLV_LANE], *pp = pay + row, *ck = buf, *xs = ck + ncp, *zb = xs + c + 1;
  double half = j.antithetic ? 0.5 : 1;
  for (int t = 0; t < j.ntrades; t++)
    if (j.trades[t].g_adj >= 0)
      for (int k = lane; live && k < j.adj_cols; k += n)
        pp[(size_t)(j.trades[t].g_adj + k) * ld] = 0;
  __syncwarp();
  double zs[F * MaxA], zf[F];
  for (int pass = 0; pass <= (j.antithetic ? 1 : 0); pass++) {
    double sign = pass ? -1 : 1, x = j.log_spots[i], v = Heston ? j.heston[i].v0 : 0;
    double xa[MCP_MAX_ASSETS], spot[MCP_MAX_ASSETS], xe0 = 0, xe1 = 0; /* the exercises' xbar */
    mcpi_adj_ex ex = MCPI_ADJ_EX_INIT;
    /* an early exercise's forward that the scaled scenarios' record took */
    const double *st = Heston && Lsm && start ? start + MCPI_ADJ_START(nf, ld, pass, 0) + row
                                              : NULL;
    if (st) {
      mcpi_adj_ex_get(st + (size_t)(n * ncp + 2 * n) * ld, ld, &ex);
      xe0 = ex.tau[0] >= 0 ? st[(size_t)(n * ncp + i) * ld] : 0;
      xe1 = ex.tau[1] >= 0 ? st[(size_t)(n * ncp + n + i) * ld] : 0;
    }
    for (int s = 0; !st && s < steps; s++) {
      if (s % c == 0)
        ck[s / c] = Heston ? v : x;
      lanes_draw<F>(j, zp, ld, row, s, i, sign, zf);
      lanes_gather<F, MaxA>(zf, n, src, zs);
      lanes_advance<Heston, MaxA>(j, i, s, zs, &x, &v);
      if (!Lsm || !mcpi_adj_exercise_date(&j, s, F * n))
        continue;
      /* (a date where the warp's live paths have all exercised: the held's
       * last alone, where it is swept) */
      if ((j.lsm[(size_t)ex.e * MCPI_LSM_ROW + 1] != MCPI_LSM_ALWAYS || j.adj_held_off) &&
          !__any_sync(all, live && ex.tau[0] < 0)) {
        ex.e++;
        continue;
      }
      lanes_spots<MaxA>(x, n, src, &j, xa, spot);
      int now = mcpi_adj_exercise(&j, xa, spot, s, &ex);
      if (now & 1)
        xe0 = mcpi_lsm_exercise_dx(&j.trades[0], spot, n, ex.h[0], i);
      if (now & 2)
        xe1 = mcpi_lsm_exercise_dx(&j.trades[0], spot, n, ex.h[1], i);
    }
    double y;
    if constexpr (!Lsm) {
      lanes_spots<MaxA>(x, n, src, &j, xa, spot);
      if (live && lane == 0)
        mcpi_multi_pay(xa, 0, 0, NULL, &j, pp, ld, pass);
    }
    for (int t = 0; t < j.ntrades; t++) {
      const mcpi_payoff_spec *p = &j.trades[t];
      /* the sweep back from the warp's last exercise (or the last step),
       * each path from its own (an early exercise's: the trade's, or its
       * held European's) */
      int held = Lsm && mcpi_adj_ex_of(&j, t);
      int mine = !Lsm ? steps - 1 : held ? ex.tau[1] : ex.tau[0];
      int last = Lsm ? lanes_max(live ? mine : -1) : mine; /* (the live paths') */
      if (p->g_adj < 0 || last < 0)
        continue;
      double d = half * (!Lsm ? p->discount : held ? ex.df[1] : ex.df[0]);
      double *b = pp + (size_t)p->g_adj * ld, dl[F][F * MaxA], vbar = 0;
      double xbar = !live || mine < 0        ? 0
                    : Lsm                    ? (held ? xe1 : xe0)
                    : p->assets >> i & 1u ? mcpi_payoff_multi_dlambda(p, spot, n, i)
                                          : 0;
      mcpi_adj_run run = MCPI_ADJ_RUN_INIT, qrun = MCPI_ADJ_RUN_INIT;
      mcpi_heston_bar g = {0, 0, 0, 0, 0, 0, 0, 0};
      MCP_UNROLL
      for (int k = 0; k < F * MaxA; k++)
        MCP_UNROLL
        for (int f = 0; f < F; f++)
          dl[f][k] = 0;
      for (int sg = last / c; sg >= 0; sg--) {
        int s0 = sg * c, s1 = s0 + c <= last ? s0 + c : last + 1;
        xs[0] = st ? st[(size_t)(i * ncp + sg) * ld] : ck[sg];
        for (int s = s0; s < s1; s++) { /* the segment again */
          lanes_draw<F>(j, zp, ld, row, s, i, sign, zf);
          MCP_UNROLL
          for (int f = 0; f < F; f++)
            zb[F * (s - s0) + f] = zf[f];
          lanes_gather<F, MaxA>(zf, n, src, zs);
          double xx = xs[s - s0], vv = xx; /* a Heston asset's variance (its x unread) */
          lanes_advance<Heston, MaxA>(j, i, s, zs, &xx, &vv);
          xs[s - s0 + 1] = Heston ? vv : xx;
        }
        for (int s = s1 - 1; s >= s0; s--) {
          MCP_UNROLL
          for (int f = 0; f < F; f++)
            zf[f] = zb[F * (s - s0) + f];
          lanes_gather<F, MaxA>(zf, n, src, zs);
          if (s > mine)
            continue;
          if constexpr (Heston) {
            if (live)
              mcpi_adj_mh_back(&j, i, s, xs[s - s0], xs[s - s0 + 1], zs, 2 * MaxA, xbar, &vbar,
                               &g, dl[0], dl[F - 1], &run, &qrun, Div, d, b, ld);
          } else if (live) {
            mcpi_adj_mlv_back(&j, i, s * n + i, xs[s - s0], mcpi_adj_mlv_w(&j, i, zs), zs,
                              &xbar, &run, &qrun, dl[0], Div, d, b, ld);
          }
        }
      }
      for (int a = 0; a < n; a++) { /* in the assets' order: each adds to the rho's total */
        if constexpr (Heston) { /* (a path never exercised: nothing) */
          if (live && lane == a && mine >= 0)
            mcpi_adj_mh_close(&j, i, xbar, vbar, &g, dl[0], dl[F - 1], 2 * MaxA, &run, &qrun,
                              Div, d, b, ld);
        } else if (live && lane == a && mine >= 0) {
          mcpi_adj_mlv_close(&j, i, xbar, dl[0], &run, &qrun, Div, d, b, ld);
        }
        __syncwarp();
      }
      if (live && lane == 0 && mine >= 0 && !mcpi_adj_deltas_only(&j))
        b[(size_t)(j.adj_cols - 1) * ld] +=
            d * mcpi_adj_scatter(j.adj_doff, j.adj_d,
                                 !Lsm ? (size_t)t
                                 : (size_t)j.ntrades + (size_t)(held ? ex.date[1] : ex.date[0]),
                                 !Lsm ? mcpi_payoff_multi(p, spot, n, &y)
                                 : held ? ex.h[1]
                                        : ex.h[0],
                                 0, d, b, ld);
      __syncwarp();
    }
  }
}

template <int MinBlocks, int Multi, int Div, int Lv, int Plain = 0, int Smiles = 0, int Events = 0>
static cudaError_t launch(const mcpi_job_view &job, const double *z, size_t ld, size_t n,
                          double *pay, cudaStream_t stream)
{
  const size_t threads = MCPI_ADJ_THREADS(Multi);
  size_t blocks = (n + threads - 1) / threads;
  size_t smem = (size_t)job_rows(job) * 2 * threads * sizeof(double);
  cudaError_t e = cudaFuncSetAttribute(
      mcpi_adjoint_kernel<MinBlocks, Multi, Div, Plain, Smiles, Events, Lv>,
      cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (e)
    return e;
  unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  mcpi_adjoint_kernel<MinBlocks, Multi, Div, Plain, Smiles, Events, Lv>
      <<<grid, (unsigned)threads, smem, stream>>>(job, z, ld, n, pay);
  return cudaGetLastError();
}

template <int Div>
static cudaError_t launch_kind(const mcpi_job_view &job, int shape, const double *z, size_t ld,
                               size_t n, double *pay, const double *start, cudaStream_t stream)
{
  int kind = mcpi_adjoint_kind(&job);
  if (kind == 2 || kind == MCPI_ADJ_MHESTON) {
    unsigned g = lanes_blocks(job.nassets, n);
    /* an early exercise's kernels apart (the others' registers as they
     * were), a bound an asset count up to 6 (registers by the bound) */
    if (job.lsm && kind == 2)
      mcpi_adjoint_lanes_kernel<Div, 0, MCP_MAX_ASSETS, 1><<<g, 128, 0, stream>>>(
          job, z, ld, n, pay, start);
    else if (job.lsm && job.nassets <= 4)
      mcpi_adjoint_lanes_kernel<Div, 1, 4, 1><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.lsm && job.nassets <= 5)
      mcpi_adjoint_lanes_kernel<Div, 1, 5, 1><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.lsm && job.nassets <= 6)
      mcpi_adjoint_lanes_kernel<Div, 1, 6, 1><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.lsm && job.nassets <= 8)
      mcpi_adjoint_lanes_kernel<Div, 1, 8, 1><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.lsm && job.nassets <= 12)
      mcpi_adjoint_lanes_kernel<Div, 1, 12, 1><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.lsm)
      mcpi_adjoint_lanes_kernel<Div, 1, MCP_MAX_ASSETS, 1><<<g, 128, 0, stream>>>(
          job, z, ld, n, pay, start);
    else if (kind == 2)
      mcpi_adjoint_lanes_kernel<Div, 0, MCP_MAX_ASSETS, 0><<<g, 128, 0, stream>>>(
          job, z, ld, n, pay, start);
    else if (job.nassets <= 4)
      mcpi_adjoint_lanes_kernel<Div, 1, 4, 0><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.nassets <= 8)
      mcpi_adjoint_lanes_kernel<Div, 1, 8, 0><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else if (job.nassets <= 12)
      mcpi_adjoint_lanes_kernel<Div, 1, 12, 0><<<g, 128, 0, stream>>>(job, z, ld, n, pay, start);
    else
      mcpi_adjoint_lanes_kernel<Div, 1, MCP_MAX_ASSETS, 0><<<g, 128, 0, stream>>>(
          job, z, ld, n, pay, start);
    return cudaGetLastError();
  }
  if (job.nassets > 1) /* an early exercise's kernel apart (Plain: its own) */
    return job.lsm ? launch<MCPI_ADJ_MIN_BLOCKS_MULTI, 1, Div, 0, 1>(job, z, ld, n, pay, stream)
                   : launch<MCPI_ADJ_MIN_BLOCKS_MULTI, 1, Div, 0>(job, z, ld, n, pay, stream);
  if (mcpi_adjoint_kind(&job) == MCPI_ADJ_HESTON) /* its forward in the plain shape's state, */
    return shape == MCPI_SHAPE_HESTON_PLAIN           /* which has no barrier; else the general */
               ? launch<MCPI_ADJ_MIN_BLOCKS_HESTON, MCPI_ADJ_HESTON, Div, 0, 1>(job, z, ld, n,
                                                                               pay, stream)
               : launch<MCPI_ADJ_MIN_BLOCKS_HESTON, MCPI_ADJ_HESTON, Div, 0, 0, 0, 1>(
                     job, z, ld, n, pay, stream);
  if (shape == MCPI_SHAPE_LV_PLAIN) /* sums alone: no barrier */
    return job.adj_q ? launch<MCPI_ADJ_MIN_BLOCKS_LVP, 0, Div, 1, 1, 1>(job, z, ld, n, pay, stream)
                     : launch<MCPI_ADJ_MIN_BLOCKS_LVP, 0, Div, 1, 1>(job, z, ld, n, pay, stream);
  if (mcpi_adjoint_events(&job))
    return job.adj_q ? launch<MCPI_ADJ_MIN_BLOCKS_LV, 0, Div, 1, 0, 1, 1>(job, z, ld, n, pay,
                                                                         stream)
           : job.model == MCPI_MODEL_LOCAL_VOL
               ? launch<MCPI_ADJ_MIN_BLOCKS_LV, 0, Div, 1, 0, 0, 1>(job, z, ld, n, pay, stream)
               : launch<MCPI_ADJ_MIN_BLOCKS_BS, 0, Div, 0, 0, 0, 1>(job, z, ld, n, pay, stream);
  if (job.adj_q)
    return launch<MCPI_ADJ_MIN_BLOCKS_LV, 0, Div, 1, 0, 1>(job, z, ld, n, pay, stream);
  return job.model == MCPI_MODEL_LOCAL_VOL
             ? launch<MCPI_ADJ_MIN_BLOCKS_LV, 0, Div, 1>(job, z, ld, n, pay, stream)
             : launch<MCPI_ADJ_MIN_BLOCKS_BS, 0, Div, 0>(job, z, ld, n, pay, stream);
}

extern "C" cudaError_t mcpi_launch_adjoint(mcpi_job_view job, int shape, const double *z,
                                           size_t ld, size_t n, double *pay, const double *start,
                                           cudaStream_t stream)
{
  return job.adj_div ? launch_kind<1>(job, shape, z, ld, n, pay, start, stream)
                     : launch_kind<0>(job, shape, z, ld, n, pay, start, stream);
}
