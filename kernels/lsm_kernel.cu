// lsm_kernel.cu: Longstaff-Schwartz on the GPU.  The fit, the twin of
// src/exec/lsm_cpu.c: the same fit paths (lsm_fit.h) with their normals
// computed in place; every date's Gram sums (the chunks' by the tree of
// mcpi_chunk_sums, added in a fixed order) factored at once, with their
// solve operators, before the walk back (lsm.h); then a date at a time the
// cash flows' sums, the operators' products with them the date's rule, left
// in the device's table for the next date and for the paths; every date in
// one cooperative launch where the chunks' blocks fit the device at once
// (every block solves), else a launch a date (the last block to finish
// solves).  Then the
// priced paths: the bodies with exercise (path_families.def, _x and _fx)
// over a tile of stored normals, in kernels of their own, so that no other
// kernel carries the exercise's code; several Heston assets' paths on lanes
// (lanes.cuh), stored, their exercise tested apart, and their spot Greeks
// on scaled paths through a record of the paths (mcpi_launch_lsm_scaled).
#include <cooperative_groups.h>
#include <cuda_pipeline.h>
#include <type_traits>
#include "models/products/lsm_fit.h"
#include "kernels/lanes.cuh"
#include "kernels/path_kernel.cuh"

#define HALF (MCP_CHUNK_PATHS / 2)

// The kernels read the job's view in place (__grid_constant__, as the path
// kernels do: path_kernel.cuh says why).
__global__ void mcpi_lsm_paths_kernel(const __grid_constant__ mcpi_job_view j, uint64_t seed,
                                      const double *table, int dates, double *st, size_t n,
                                      double *y)
{
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    mcpi_lsm_fit_path(&j, NULL, 0, seed, i, table, dates, st, n, y + i);
}

// What the lanes paths kernel keeps beside the log-spots, for the record's
// windows (mcpi_launch_lsm_scaled): it steps s0 .. s1 - 1, from the states
// carry holds where s0 > 0 (field f of pass q at carry[q cq + f ld], x
// then v, as ld paths) and into it where s1 is below the steps, else each
// log-spot at the end into end[q eq + i ld]; each variance at the sweep's
// checkpoints into start (adjoint.h, MCPI_ADJ_START); each of the window's
// dates' steps into dstep.  The fit's and the split price's: steps 0 ..
// all, nothing kept (Keep 0: its code not compiled).
struct lanes_keep {
  int s0, s1;
  double *carry, *end, *start;
  size_t cq, eq;
  int *dstep;
};

static lanes_keep keep_none(const mcpi_job_view &j)
{
  return {0, (int)(j.nelem / (2 * j.nassets)), NULL, NULL, NULL, 0, 0, NULL};
}

// The paths of several Heston assets on the lanes of a warp (lanes.cuh:
// the same numbers as mcpi_lsm_fit_path's, their states in registers), each
// exercise date's log-spots into st[((q dates + e) n + i) npaths + path]
// for pass q of passes.  The fit's (z NULL): the canonical normals of the
// job's seed (the launch sets it, and p0 0), and y its cash flows at the
// last date; a path a thread held STAC-A2's 25,000 regression paths on 196
// warps, a tenth of the GPU, each stepping 5 assets in a row from a state
// in local memory (2.8 ms of the American's 15).  The price's and the
// record's: the tile's normals z[k ld + path] (launch.h,
// mcpi_launch_lsm_price), y NULL.  At most 8 assets, 8 blocks an SM (64
// registers, a few spills): STAC-A2's 1,042 blocks in one wave, where 72
// registers took 1.13 and the record's 80 1.32; on an H100 the fit's paths
// 1.56 -> 1.43 ms, the price's 1.36 -> 0.89, on an H200 the record's 1.46
// -> 0.95 (bench/RESULTS.md, "tests-bounds", "fit-pairs"); more assets as
// before (0: no floor).
template <int MaxA, int Keep>
__global__ void __launch_bounds__(128, MaxA > 8 ? 0 : 8)
    mcpi_lsm_lanes_paths_kernel(const __grid_constant__ mcpi_job_view j,
                                const double *__restrict__ z, size_t ld, int passes,
                                const double *table, int dates, double *st, size_t npaths,
                                double *y, lanes_keep k)
{
  int n = j.nassets, per = 32 / n, w = (int)(threadIdx.x % 32), grp = w / n, lane = w % n;
  size_t path = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32 * (unsigned)per + grp;
  int live = grp < per && path < npaths, i = live ? lane : 0, src = grp * n;
  size_t row = live ? path : npaths - 1;
  int steps = j.nelem / (2 * n);
  /* the fit's normals drawn by pairs of paths (lanes_draw_pairs) */
  int pairs = !Keep && !z && per % 2 == 0 && j.p0 % 2 == 0,
      partner = grp < per ? (grp ^ 1) * n + lane : w;
  double *start = Keep ? k.start : NULL;
  int c = start ? mcpi_adj_mheston_segment(steps) : 0;
  int ncp = start ? mcpi_adj_mheston_checkpoints(steps) : 0;
  double zf[2], zs[2 * MaxA];
  for (int pass = 0; pass < passes; pass++) {
    double sign = pass ? -1 : 1, x = j.log_spots[i], v = j.heston[i].v0;
    double *at = st + (size_t)pass * dates * n * npaths;
    double *cp = start ? start + MCPI_ADJ_START(MCPI_ADJ_START_FIELDS(n, ncp), ld, pass, 0) +
                               row + (size_t)i * ncp * ld
                         : NULL;
    if (Keep && k.s0 > 0 && live) {
      x = k.carry[pass * k.cq + (size_t)i * ld + row];
      v = k.carry[pass * k.cq + (size_t)(n + i) * ld + row];
    }
    for (int s = k.s0, e = 0; s < k.s1; s++) {
      if (cp && live && s % c == 0)
        cp[(size_t)(s / c) * ld] = v;
      if (pairs)
        lanes_draw_pairs(j, row, s, lane, grp & 1, partner, sign, zf);
      else
        lanes_draw<2>(j, z ? z + row : NULL, ld, row, s, i, sign, zf);
      lanes_gather<2, MaxA>(zf, n, src, zs);
      lanes_advance<1, MaxA>(j, i, s, zs, &x, &v);
      /* (the fit's view has no table: mcpi_adj_exercise_date would see none) */
      if ((j.tag[(size_t)(s + 1) * 2 * n - 1] & j.lsm_mask) && e < dates) {
        if (live)
          at[((size_t)e * n + i) * npaths + path] = x;
        if (Keep && path == 0 && w == 0 && pass == 0)
          k.dstep[e] = s;
        e++;
      }
    }
    if (Keep && live && k.s1 < steps) { /* for the next window */
      k.carry[pass * k.cq + (size_t)i * ld + path] = x;
      k.carry[pass * k.cq + (size_t)(n + i) * ld + path] = v;
    } else if (Keep && live) {
      k.end[pass * k.eq + (size_t)i * ld + path] = x;
    }
  }
  if (!y)
    return;
  __syncwarp(); /* the group's states of the last date written */
  if (live && lane == 0) {
    double under, r[MCP_MAX_ASSETS], vv, value;
    double h = mcpi_lsm_state_at(&j, mcpi_lsm_dims_of(&j), st, npaths, path, dates - 1, &under,
                                 r, &vv);
    y[path] = mcpi_lsm_exercises(table + (size_t)(dates - 1) * MCPI_LSM_ROW, h, 0, &value)
                  ? value
                  : 0;
  }
}

// A path's log-spots at exercise date e of pass q's store (the lanes paths
// kernel's) into x, past its n assets the job's, and their spots (mcpi_dexp,
// as the lanes' own) into sp.
static __device__ void stored_spots(const mcpi_job_view &j, int n, const double *st, size_t npaths,
                                    int dates, int q, int e, size_t path, double *x, double *sp)
{
  const double *at = st + ((size_t)q * dates + e) * n * npaths + path;
  MCP_UNROLL
  for (int k = 0; k < MCP_MAX_ASSETS; k++) {
    x[k] = k < n ? at[(size_t)k * npaths] : j.log_spots[k];
    sp[k] = k < n ? mcpi_dexp(x[k]) : 0;
  }
}

// The stored paths' pay, a thread a path, its passes in order: the exercise
// at its first date (its value again there) and the held European's at the
// last, where it is the rule's ALWAYS (mcpi_adj_exercise_held's amounts).
__global__ void __launch_bounds__(128)
    mcpi_lsm_split_pay_kernel(const __grid_constant__ mcpi_job_view j,
                              const double *__restrict__ st, size_t npaths, int dates,
                              const int *__restrict__ first, double *__restrict__ pay, size_t ld)
{
  size_t path = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (path >= npaths)
    return;
  const double *last = j.lsm + (size_t)(dates - 1) * MCPI_LSM_ROW;
  for (int q = 0; q <= (j.antithetic ? 1 : 0); q++) {
    double x[MCP_MAX_ASSETS], sp[MCP_MAX_ASSETS], hv, ex_val = 0, held = 0;
    int f = first[(size_t)q * npaths + path];
    if (f < dates) {
      stored_spots(j, j.nassets, st, npaths, dates, q, f, path, x, sp);
      mcpi_adj_decides(&j, j.nassets, j.lsm + (size_t)f * MCPI_LSM_ROW, x, sp, 0, &hv);
      ex_val = j.lsm[(size_t)f * MCPI_LSM_ROW] * hv;
    }
    stored_spots(j, j.nassets, st, npaths, dates, q, dates - 1, path, x, sp);
    if (last[1] == MCPI_LSM_ALWAYS) {
      mcpi_adj_decides(&j, j.nassets, last, x, sp, 0, &hv);
      held = hv > 0 ? last[0] * hv : 0;
    }
    mcpi_multi_pay_x(x, ex_val, held, NULL, &j, pay + path, ld, q);
  }
}

// Columns a block reduces at once.
#define BATCH 16

// The sums of ncol columns from their chunks' sums part (a column of nch
// after another) into sums, warp w of nw taking columns w, w + nw, ...,
// SUM_COLUMNS of them at once: lane l's strided sums of each (their L2 loads
// in flight together), through shared memory to lanes 0, 1, ..., which each
// add one column's 32 in order (mcpi_lsm_lane_sum).  A warp that added a
// column at a time, its 32 sums by shuffles, waited on one column's loads
// and then on its chain of 32 shuffles and additions before the next (the
// STAC-A2 American's walk: 2 columns a warp a date), while the block's other
// warps waited at its barrier.  Blocks of at most SUM_WARPS warps.
#define SUM_COLUMNS 2
#define SUM_WARPS (MCP_CHUNK_PATHS / 32)
static __device__ void column_sums(const double *part, size_t nch, int ncol, double *sums,
                                   unsigned w, unsigned nw)
{
  __shared__ double ls[SUM_WARPS][SUM_COLUMNS][MCPI_LSM_LANES + 1]; /* +1: lanes' rows apart */
  unsigned lane = threadIdx.x % MCPI_LSM_LANES, wb = threadIdx.x / MCPI_LSM_LANES;
  for (unsigned q0 = w; q0 < (unsigned)ncol; q0 += SUM_COLUMNS * nw) {
    MCP_UNROLL
    for (unsigned c = 0; c < SUM_COLUMNS; c++) {
      unsigned q = q0 + c * nw;
      ls[wb][c][lane] =
          q < (unsigned)ncol ? mcpi_lsm_lane_sum(part + (size_t)q * nch, nch, (int)lane) : 0;
    }
    __syncwarp();
    unsigned q = q0 + lane * nw;
    if (lane < SUM_COLUMNS && q < (unsigned)ncol) {
      double t = ls[wb][lane][0];
      MCP_UNROLL
      for (int l = 1; l < MCPI_LSM_LANES; l++)
        t += ls[wb][lane][l];
      sums[q] = t;
    }
    __syncwarp();
  }
}

// The fit's shapes the kernels are compiled for, K = 2 n + h: n assets, h 1
// where one Heston asset's variance is in the basis (K 3); K 0, any, read
// from the job.  With K > 0 the state, the basis and the chunk's terms
// unroll to constants and stay in registers, not in the local memory where
// nvcc keeps an array indexed at run time (1.64 GB of local loads in the
// Gram sums of 200,000 paths x 49 dates; the STAC-A2 American's 5 assets,
// 14 functions, took 2.2 ms of Gram sums and 5.9 of walk that way).
// LSM_SHAPES lists them: one asset, one Heston asset, and the baskets of 2
// to 12 assets whose basis has at most 16 functions (2, 3, 5, 6, 9 to 12
// assets); beyond, the Gram sums' products of a pair of paths spill
// (nvcc 13, -Xptxas -v: 18 functions, 780 bytes), and the rest are K 0.
#define LSM_SHAPES(X) X(2) X(3) X(4) X(6) X(10) X(12) X(18) X(20) X(22) X(24)
template <int K>
static __device__ mcpi_lsm_dims shape_dims(const mcpi_job_view &j)
{
  mcpi_lsm_dims d = mcpi_lsm_dims_of(&j);
  if (K) {
    d.n = K / 2;
    d.heston = K % 2;
  }
  return d;
}
#define SHAPE_NB(K) ((K) ? mcpi_lsm_nbasis((K) / 2, (K) % 2) : 0)

// Column k of ncol of a chunk's sums, as mcpi_lsm_term numbers it: the
// Gram's (mcpi_lsm_gram_column), or the cash flow's phi_k y.
static __device__ int term_column(int nb, int gram, int k)
{
  return gram ? mcpi_lsm_gram_column(nb, k) : nb * (nb + 1) / 2 + k;
}

// A chunk's sums of ncol columns (the Gram's, G, or the cash flow's), by
// its block of T = MCP_CHUNK_PATHS / P threads, P paths each: thread t holds
// path t and, P = 2, path t + T (phi, y, in the money m).  The CPU's halving
// tree (mcpi_chunk_sums) first adds paths t and t + 128: with P = 2 in the
// thread, with P = 1 in shared memory (a) as its next levels, for BATCH
// columns at a time; the last five by shuffles, a warp a column; the same
// additions in the same order.  Column k's sum goes to out[k * stride].
// NB > 0 is the job's nb at compile time (SHAPE_NB): the columns unroll to
// fixed basis functions, read into registers once; 0: nb at run time.
template <int NB, int G, int P>
static __device__ void chunk_sums(const double *phi0, const double *phi1, double y0, double y1,
                                  int m0, int m1, int nb, int ncol, double *out, size_t stride)
{
  constexpr unsigned T = MCP_CHUNK_PATHS / P;
  __shared__ double a[BATCH][T];
  unsigned t = threadIdx.x;
  const int nc = NB ? (G ? MCPI_LSM_GRAM(NB) : NB) : ncol;
  double f0[NB ? NB : 1], f1[NB ? NB : 1]; /* NB > 0: the basis in the money, else 0 */
  if (NB) {
    MCP_UNROLL
    for (int k = 0; k < NB; k++) {
      f0[k] = m0 ? phi0[k] : 0;
      f1[k] = P == 2 && m1 ? phi1[k] : 0;
    }
  }
  MCP_UNROLL
  for (int q0 = 0; q0 < nc; q0 += BATCH) {
    if (NB) { /* mcpi_lsm_term's products in its order, q constant once unrolled */
      int q = 0;
      MCP_UNROLL
      for (int k = 0; k < (NB ? NB : 1); k++) {
        MCP_UNROLL
        for (int l = G ? k : 0; l < (G ? NB : 1); l++, q++)
          if (q >= q0 && q < q0 + BATCH) {
            double t0 = m0 ? f0[k] * y0 : 0;
            a[q - q0][t] = G ? (P == 2 ? f0[k] * f0[l] + f1[k] * f1[l] : f0[k] * f0[l])
                           : P == 2 ? t0 + (m1 ? f1[k] * y1 : 0)
                                    : t0;
          }
      }
      if (G && q >= q0 && q < q0 + BATCH) /* the count */
        a[q - q0][t] = P == 2 ? (double)m0 + (double)m1 : (double)m0;
      MCP_UNROLL
      for (int b = 0; b < BATCH; b++)
        if (q0 + b >= nc)
          a[b][t] = 0;
    } else {
      MCP_UNROLL
      for (int b = 0; b < BATCH; b++) {
        int q = q0 + b;
        double t0 = q >= nc ? 0 : mcpi_lsm_term(phi0, nb, y0, m0, term_column(nb, G, q));
        a[b][t] = q >= nc    ? 0
                  : P == 2 ? t0 + mcpi_lsm_term(phi1, nb, y1, m1, term_column(nb, G, q))
                           : t0;
      }
    }
    __syncthreads();
    for (unsigned h = T / 2; h >= 32; h /= 2) {
      if (t < h) {
        MCP_UNROLL
        for (int b = 0; b < BATCH; b++)
          a[b][t] += a[b][t + h];
      }
      __syncthreads();
    }
    for (unsigned b = t / 32; b < BATCH && q0 + (int)b < nc; b += T / 32) {
      double v = a[b][t % 32];
      for (unsigned h = 16; h >= 1; h /= 2)
        v += __shfl_down_sync(0xffffffffu, v, h);
      if (t % 32 == 0)
        out[(size_t)(q0 + b) * stride] = v;
    }
    __syncthreads();
  }
}

// The Gram sums of every date but the last and their factors, before the
// walk back (lsm.h), a group of dates e0, e0 + 1, ... at a time: block (c,
// g) sums chunk c of date e0 + g into gram[(g ng + k) nch + c], column k of
// the date's ng = MCPI_LSM_GRAM(nb).  A block a chunk and date, all of them
// at once: a block that walked a lane's chunks one after another (the
// order of the sums) took 25 chunks' latency at 200,000 paths.
template <int K>
__global__ void mcpi_lsm_gram_kernel(const __grid_constant__ mcpi_job_view j, const double *st,
                                     size_t n, int e0, double *gram)
{
  mcpi_lsm_dims d = shape_dims<K>(j);
  int nb = j.lsm_nb, ng = MCPI_LSM_GRAM(nb), g = (int)blockIdx.y;
  size_t c = blockIdx.x, nch = gridDim.x, i0 = c * MCP_CHUNK_PATHS + threadIdx.x, i1 = i0 + HALF;
  double phi0[MCPI_LSM_MAX_BASIS], phi1[MCPI_LSM_MAX_BASIS];
  int m0 = i0 < n && mcpi_lsm_fit_basis(&j, d, st, n, i0, e0 + g, phi0);
  int m1 = i1 < n && mcpi_lsm_fit_basis(&j, d, st, n, i1, e0 + g, phi1);
  chunk_sums<SHAPE_NB(K), 1, 2>(phi0, phi1, 0, 0, m0, m1, nb, ng,
                                gram + (size_t)g * ng * nch + c, nch);
}

// A date's flag and operators in the device's work (lsm.h): what the walk
// reads of its factor; in shared memory, as many as shape K's (SHAPE_NB).
#define FAC_STRIDE MCPI_LSM_OPERATOR(MCPI_LSM_MAX_BASIS)
#define SHAPE_OPERATOR(K) MCPI_LSM_OPERATOR((K) ? SHAPE_NB(K) : MCPI_LSM_MAX_BASIS)

// Date e0 + g's factor (block g): its Gram columns' chunk sums added in
// mcpi_lsm_lane_sum's order, SUM_COLUMNS columns a warp, then thread 0
// factors and threads c < 2 nb make the operators' columns, in shared
// memory; their flag and operators go to fac (FAC_STRIDE a date).
__global__ void mcpi_lsm_factor_kernel(const __grid_constant__ mcpi_job_view j,
                                       const double *gram, size_t nch, int e0, double *fac)
{
  __shared__ double sums[MCPI_LSM_GRAM(MCPI_LSM_MAX_BASIS)], f[MCPI_LSM_FACTOR];
  int nb = j.lsm_nb, ng = MCPI_LSM_GRAM(nb), g = (int)blockIdx.x;
  unsigned t = threadIdx.x;
  column_sums(gram + (size_t)g * ng * nch, nch, ng, sums, t / MCPI_LSM_LANES,
              blockDim.x / MCPI_LSM_LANES);
  __syncthreads();
  if (t == 0)
    mcpi_lsm_factor(nb, sums, f);
  __syncthreads();
  if (t < 2 * (unsigned)nb && f[0] != 0)
    mcpi_lsm_operator_column(nb, f, (int)t);
  __syncthreads();
  for (unsigned q = t; q < (unsigned)MCPI_LSM_OPERATOR(nb); q += blockDim.x)
    fac[(size_t)(e0 + g) * FAC_STRIDE + q] = q == 0 || f[0] != 0 ? f[q] : 0;
}

// A date's flag and operators as its solve reads them (MCPI_LSM_OPERATOR)
// into shared memory fs, copied asynchronously (no registers held) as the
// date starts; factor_wait before the solve's barrier.
static __device__ void factor_fetch(const double *fac, int nb, double *fs)
{
  for (unsigned q = threadIdx.x; q < (unsigned)MCPI_LSM_OPERATOR(nb); q += blockDim.x)
    __pipeline_memcpy_async(fs + q, fac + q, sizeof(double));
  __pipeline_commit();
}
static __device__ void factor_wait(void)
{
  __pipeline_wait_prior(0);
}

// Date e's rule into row (the discount factor already there) from its flag
// and operators (fs, in shared memory: factor_fetch) and the sums of its
// cash-flow columns: the block adds them from the chunks' sums part (nch of
// each), or, sums not NULL, reads them there; then the first warp's thread
// i < nb makes w's element i and, from all of w, coefficient i
// (mcpi_lsm_solve's).  NB > 0: nb at compile time, the products unrolled.
template <int NB>
static __device__ void solve_date(const double *part, size_t nch, const double *sums, int nb,
                                  const double *fs, double *row)
{
  __shared__ double rhs[MCPI_LSM_MAX_BASIS], w[MCPI_LSM_MAX_BASIS];
  unsigned t = threadIdx.x;
  const int n = NB ? NB : nb;
  if (sums) {
    if (t < (unsigned)nb)
      rhs[t] = __ldcg(sums + t); /* from L2: other blocks wrote them */
  } else
    column_sums(part, nch, nb, rhs, t / MCPI_LSM_LANES, blockDim.x / MCPI_LSM_LANES);
  __syncthreads();
  if (t < 32) {
    int fit = fs[0] != 0, in = t < (unsigned)n;
    if (fit && in)
      w[t] = mcpi_lsm_forward(n, fs, rhs, (int)t);
    __syncwarp();
    if (t < MCPI_LSM_MAX_BASIS)
      row[2 + t] = fit && in ? mcpi_lsm_coefficient(n, fs, w, (int)t) : 0;
    if (t == 0)
      row[1] = fit ? MCPI_LSM_FIT : MCPI_LSM_HOLD;
  }
  __syncthreads();
}

// Paths a thread of the walk's kernels of shape K (threads WALK_THREADS(K)
// a block, a block a chunk): a several-asset shape's block takes a path a
// thread, so that each SM's only block (few chunks, 98 of the STAC-A2
// American's 25,000 regression paths) has twice the warps to hide the
// walk's latencies; the one-asset shapes keep two, so that their grid of
// many chunks (782 at 200,000 paths) stays resident for one cooperative
// launch.
#define WALK_P(K) ((K) == 2 || (K) == 3 ? 2 : 1)
#define WALK_THREADS(K) (MCP_CHUNK_PATHS / WALK_P(K))

// Block c's part of date e: the rule of date e + 1 (next, the block's copy)
// applied to its paths' cash flows y, then their chunk's sums of the
// cash-flow columns into part (column a of chunk c at part[a nch + c]).
template <int K>
static __device__ void date_sums(const mcpi_job_view &j, const double *next,
                                 const double *__restrict__ st, size_t n, int e,
                                 double *__restrict__ y, double *__restrict__ part, size_t c,
                                 size_t nch)
{
  mcpi_lsm_dims d = shape_dims<K>(j);
  size_t i0 = c * MCP_CHUNK_PATHS + threadIdx.x, i1 = i0 + HALF;
  int m0 = 0, m1 = 0;
  double phi0[MCPI_LSM_MAX_BASIS], phi1[MCPI_LSM_MAX_BASIS], y0 = 0, y1 = 0;
  if (i0 < n) {
    y0 = y[i0];
    m0 = mcpi_lsm_fit_point(&j, d, next, st, n, i0, e, &y0, phi0);
    y[i0] = y0;
  }
  if (WALK_P(K) == 2 && i1 < n) {
    y1 = y[i1];
    m1 = mcpi_lsm_fit_point(&j, d, next, st, n, i1, e, &y1, phi1);
    y[i1] = y1;
  }
  chunk_sums<SHAPE_NB(K), 0, WALK_P(K)>(phi0, phi1, y0, y1, m0, m1, j.lsm_nb, j.lsm_nb,
                                        part + c, nch);
}

// Date e, a block a chunk; the last block to finish (done counts them, and
// returns to 0) adds the columns and solves: one launch a date.  Date
// e + 1's row is read from L2 (an L1 line holding it may be older than the
// last launch's write).
template <int K>
__global__ void mcpi_lsm_date_kernel(const __grid_constant__ mcpi_job_view j, double *table,
                                     const double *fac, const double *st, size_t n, int e,
                                     double *y, double *part, unsigned *done)
{
  __shared__ double next[MCPI_LSM_ROW], row[MCPI_LSM_ROW], fs[SHAPE_OPERATOR(K)];
  __shared__ int last;
  unsigned t = threadIdx.x;
  if (t < MCPI_LSM_ROW) {
    next[t] = __ldcg(table + (size_t)(e + 1) * MCPI_LSM_ROW + t);
    row[t] = __ldcg(table + (size_t)e * MCPI_LSM_ROW + t);
  }
  __syncthreads();
  date_sums<K>(j, next, st, n, e, y, part, blockIdx.x, gridDim.x);
  if (t == 0) { /* its sums visible to the grid, then counted */
    __threadfence();
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last)
    return;
  __threadfence();
  /* the last block alone copies the factor: no copy left pending at a
   * block's exit */
  factor_fetch(fac + (size_t)e * FAC_STRIDE, j.lsm_nb, fs);
  factor_wait();
  solve_date<SHAPE_NB(K)>(part, gridDim.x, NULL, j.lsm_nb, fs, row);
  if (t >= 1 && t < MCPI_LSM_ROW) /* the rule and coefficients */
    table[(size_t)e * MCPI_LSM_ROW + t] = row[t];
  if (t == 0)
    *done = 0;
}

// Chunks up to which every block of the cooperative launch adds the
// cash-flow columns itself (a barrier a date); beyond, the blocks' reads of
// the same sums contend in L2 (200,000 regression paths, 782 chunks: 0.55
// ms more than the grid's sums over 49 dates, on an H200), so the grid adds
// them, SUM_COLUMNS columns a warp, behind a second barrier.
#define LOCAL_SUMS_CHUNKS 256

// A path of the cooperative walk: its cash flow y; its exercise value h and
// what its basis reads (under, r, v) at the date after the one walked, kept
// for that date's continuation value, so that a date's states are read
// once, not twice (the CPU keeps the basis itself: lsm_cpu.c); and its
// state at the date walked, x, read a date ahead (walk_read), so that those
// loads wait beside the grid's barrier and the date before's solve.
struct walk_path {
  double y, h, under, v, r[MCP_MAX_ASSETS], x[MCP_MAX_ASSETS];
};

// Path i's states at date e into x.
static __device__ void walk_read(const mcpi_lsm_dims &d, const double *__restrict__ st, size_t n,
                                 size_t i, int e, walk_path &p)
{
  int ns = mcpi_lsm_state_size(d);
  MCP_UNROLL
  for (int a = 0; a < MCP_MAX_ASSETS; a++)
    if (a < ns)
      p.x[a] = st[((size_t)e * ns + a) * n + i];
}

// Path i's walk from the last date: its exercise value there and what its
// basis reads (that date's basis is not summed), its cash flow y[i], and
// the states of the date before read.
static __device__ void walk_start(const mcpi_job_view &j, const mcpi_lsm_dims &d,
                                  const double *__restrict__ st, size_t n, size_t i, int dates,
                                  const double *y, walk_path &p)
{
  walk_read(d, st, n, i, dates - 1, p);
  p.h = mcpi_lsm_state_at(&j, d, p.x, 1, 0, 0, &p.under, p.r, &p.v);
  p.y = y[i];
  walk_read(d, st, n, i, dates - 2, p);
}

// Path p at the date of the state x it read: the rule of the date after
// (next, or none) applied to its cash flow, then its exercise value and
// basis phi there (x read as the states of one path and date); returns
// whether it is in the money.  mcpi_lsm_fit_point's operations in its order.
static __device__ int walk_date(const mcpi_job_view &j, const mcpi_lsm_dims &d,
                                const double *next, walk_path &p, double *phi)
{
  double value;
  if (next && mcpi_lsm_exercises(next, p.h,
                                 mcpi_lsm_continuation(&j.trades[0], next, p.h, d.n, d.heston,
                                                       p.under, p.r, p.v),
                                 &value))
    p.y = value;
  p.h = mcpi_lsm_fit_state(&j, d, p.x, 1, 0, 0, phi, &p.under, p.r, &p.v);
  return p.h > 0;
}

// Every date in one cooperative launch, all its blocks resident: the grid
// sums a date's chunks (part double-buffered by date, so that a block on
// the next date writes what no block still reads), then every block adds
// the columns (or reads the grid's sums of them) and solves the date
// itself, the same sums to the same rule; block 0 writes it to the table.
// Thread t walks path t of its block's chunk and, P = 2, path t + T
// (date_sums').
template <int K>
static __device__ __forceinline__ void dates_walk(const mcpi_job_view &j, double *table,
                                                  const double *fac, const double *st,
                                                  size_t n, int dates, const double *y,
                                                  double *part)
{
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  __shared__ double row[MCPI_LSM_ROW], fs[SHAPE_OPERATOR(K)];
  unsigned t = threadIdx.x, nw = blockDim.x / MCPI_LSM_LANES;
  int nb = j.lsm_nb;
  mcpi_lsm_dims d = shape_dims<K>(j);
  size_t nch = gridDim.x, i0 = (size_t)blockIdx.x * MCP_CHUNK_PATHS + t, i1 = i0 + HALF;
  int in0 = i0 < n, in1 = WALK_P(K) == 2 && i1 < n, m0 = 0, m1 = 0;
  double *sums = nch > LOCAL_SUMS_CHUNKS ? part + 2 * (size_t)nb * nch : NULL;
  walk_path p0, p1;
  double phi0[MCPI_LSM_MAX_BASIS], phi1[MCPI_LSM_MAX_BASIS];
  p0.y = p1.y = 0;
  if (in0)
    walk_start(j, d, st, n, i0, dates, y, p0);
  if (in1)
    walk_start(j, d, st, n, i1, dates, y, p1);
  if (t < MCPI_LSM_ROW)
    row[t] = table[(size_t)(dates - 1) * MCPI_LSM_ROW + t];
  __syncthreads();
  for (int e = dates - 2; e >= 0; e--) {
    double *mine = part + (size_t)(e & 1) * nb * nch;
    /* fs is free: date e + 1's solve (or, first, the row's copy)
     * ended at a barrier */
    factor_fetch(fac + (size_t)e * FAC_STRIDE, nb, fs);
    if (in0)
      m0 = walk_date(j, d, row, p0, phi0);
    if (in1)
      m1 = walk_date(j, d, row, p1, phi1);
    chunk_sums<SHAPE_NB(K), 0, WALK_P(K)>(phi0, phi1, p0.y, p1.y, m0, m1, nb, nb,
                                          mine + blockIdx.x, nch);
    if (e > 0 && in0) /* date e - 1's states, loaded beside the barrier */
      walk_read(d, st, n, i0, e - 1, p0);
    if (e > 0 && in1)
      walk_read(d, st, n, i1, e - 1, p1);
    factor_wait();
    grid.sync();
    if (sums) {
      column_sums(mine, nch, nb, sums, blockIdx.x * nw + t / MCPI_LSM_LANES, gridDim.x * nw);
      grid.sync();
    }
    if (t == 0)
      row[0] = table[(size_t)e * MCPI_LSM_ROW]; /* the discount factor: the host's */
    solve_date<SHAPE_NB(K)>(mine, nch, sums, nb, fs, row);
    if (blockIdx.x == 0 && t >= 1 && t < MCPI_LSM_ROW)
      table[(size_t)e * MCPI_LSM_ROW + t] = row[t];
  }
}

// Blocks an SM that the walk keeps resident, its registers capped to them,
// as many as before it kept the next date's states: 6 blocks of 128 threads
// hold the American put's 782 chunks of 200,000 regression paths on 132 SMs
// (uncapped, one asset took 128 registers, 4 blocks); one Heston asset 4;
// the general shape 5 of 256 (uncapped 80 registers, 3).
#define WALK_BLOCKS(K) ((K) == 2 ? 6 : (K) == 3 ? 4 : 5)
template <int K>
__global__ void __launch_bounds__(WALK_THREADS(K), WALK_BLOCKS(K))
    mcpi_lsm_dates_kernel(const __grid_constant__ mcpi_job_view j, double *table,
                          const double *fac, const double *st, size_t n, int dates, double *y,
                          double *part)
{
  dates_walk<K>(j, table, fac, st, n, dates, y, part);
}

// The same for a basket's shapes (K > 3), its registers capped so that 3
// blocks an SM stay resident: uncapped the 10-asset shape took 100, 2
// blocks an SM, and the STAC-A2 American's 100,000 regression paths (391
// chunks on 132 SMs) fell back to a launch a date.
#define WALK_BASKET_BLOCKS 3
template <int K>
__global__ void __launch_bounds__(MCP_CHUNK_PATHS, WALK_BASKET_BLOCKS)
    mcpi_lsm_basket_dates_kernel(const __grid_constant__ mcpi_job_view j, double *table,
                                 const double *fac, const double *st, size_t n, int dates,
                                 double *y, double *part)
{
  dates_walk<K>(j, table, fac, st, n, dates, y, part);
}

// A kernel a state S (one asset or several, double or float: each keeps only
// its own registers), one thread a path over its stored normals.
template <typename S, typename R>
__global__ void mcpi_lsm_price_kernel(const __grid_constant__ mcpi_job_view j,
                                      const R *__restrict__ z, size_t ld, size_t n,
                                      double *__restrict__ pay)
{
  const R *ca = real_traits<R>::ca(j), *cb = real_traits<R>::cb(j);
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    for (int pass = 0; pass <= (j.antithetic ? 1 : 0); pass++) {
      S st;
      body_init(&st, &j, pass);
      for (int e = 0; e < j.nelem; e++)
        body_step(&st, &j, z[(size_t)e * ld + i], ca[e], cb[e], j.tag[e]);
      body_finish(&st, &j, pay + i, ld, pass);
    }
}

// The price's paths of several Heston assets on the lanes of a warp
// (lanes.cuh), each date's spots an exp a lane and every lane of a path
// deciding its exercise (mcpi_adj_exercise_held, whose test the split's and
// the record's kernels take too: the price's operations, so the same bits
// as mcpi_lsm_price_kernel's).  A path a
// thread stepped its assets in turn from a state in local memory (the
// factor read at run time from the tag), on 782 warps for STAC-A2's 25,000
// paths.  Double normals, no grid check (lsm_lanes) and no scaled paths;
// where the split's log-spots pass their cap (launch.h).
template <int MaxA>
__global__ void __launch_bounds__(128)
    mcpi_lsm_lanes_price_kernel(const __grid_constant__ mcpi_job_view j,
                                const double *__restrict__ z, size_t ld, size_t npaths,
                                double *__restrict__ pay)
{
  const unsigned all = 0xffffffffu;
  int n = j.nassets, per = 32 / n, w = (int)(threadIdx.x % 32), grp = w / n, lane = w % n;
  size_t path = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / 32 * (unsigned)per + grp;
  int live = grp < per && path < npaths, i = live ? lane : 0, src = grp * n;
  size_t row = live ? path : npaths - 1;
  int steps = j.nelem / (2 * n);
  double zs[2 * MaxA], zf[2];
  for (int pass = 0; pass <= (j.antithetic ? 1 : 0); pass++) {
    double sign = pass ? -1 : 1, x = j.log_spots[i], v = j.heston[i].v0;
    double xa[MCP_MAX_ASSETS], spot[MCP_MAX_ASSETS];
    mcpi_adj_ex ex = MCPI_ADJ_EX_INIT;
    for (int s = 0; s < steps; s++) {
      lanes_draw<2>(j, z + row, ld, row, s, i, sign, zf);
      lanes_gather<2, MaxA>(zf, n, src, zs);
      lanes_advance<1, MaxA>(j, i, s, zs, &x, &v);
      if (!mcpi_adj_exercise_date(&j, s, 2 * n))
        continue;
      /* (a date where the warp's live paths have all exercised, but the
       * last, where the held European pays) */
      if (j.lsm[(size_t)ex.e * MCPI_LSM_ROW + 1] != MCPI_LSM_ALWAYS &&
          !__any_sync(all, live && ex.tau[0] < 0)) {
        ex.e++;
        continue;
      }
      lanes_spots<MaxA>(x, n, src, &j, xa, spot);
      mcpi_adj_exercise_held(&j, xa, spot, s, &ex, 1);
    }
    lanes_spots<MaxA>(x, n, src, &j, xa, spot);
    if (live && lane == 0)
      mcpi_multi_pay_x(xa, ex.tau[0] >= 0 ? ex.df[0] * ex.h[0] : 0,
                       ex.tau[1] >= 0 ? ex.df[1] * ex.h[1] : 0, NULL, &j, pay + path, ld, pass);
  }
}

// The spot Greeks on scaled paths (lsm_greeks.h) of several Heston assets
// in five kernels, where a path a thread evaluated its 50 scenarios a date
// in a row in 254 registers, on 196 warps (STAC-A2's American: 11.8 ms
// beside the 3.3 of its price alone; on lanes, a lane a path's scenarios
// k = lane + m n, 17.1 ms: a warp's 6 paths each decided their exercise on
// every lane; a thread a path and scenario, each reading the record's
// spots and returns of every date itself, 30.8 ms).  The priced paths
// step on the lanes (the lanes paths kernel: their log-spots at each date
// stored; a path a thread, which also tested each date's exercise as it
// stepped, took 4.28 ms at STAC-A2's small shape, bench/RESULTS.md,
// "record-split"); then a thread a (pass, date, path) tests its exercise
// and records within the scenarios' reach (mcpi_lsm_scaled_ready) what a
// scenario reads there; then a thread a path settles its exercises and, at
// the end, pays; then a warp a path
// walks the path's dates in reach, each date's record read once into
// shared memory, each lane evaluating its scenarios k = lane + 32 m until
// they exercise (mcpi_lsm_scaled_one: the CPU's operations on the same
// numbers, so the same bits); then a thread a path pays their columns
// (mcpi_lsm_scaled_pay).  A record over the cap (backend_cuda.c) is taken
// a window of `dates` exercise dates at a time, the four kernels before
// the pay a launch a window, each path's state, exercises and scenarios'
// values carried from one window to the next.  The record of pass q
// (antithetic: 2 passes), for paths of leading dimension ld:
//   path i's date d of the window, fields f: r_0 .. r_{n-1}, s_0 .. s_{n-1},
//   under, q0;
//   at the end, field f: x_0 .. x_{n-1}, the exercise's value, the held's;
//   scenario k's value;
//   the carry of path i, field f: x_0 .. x_{n-1}, v_0 .. v_{n-1}, the
//   exercises' state (adjoint.h, mcpi_adj_ex_put);
// then the window's log-spots (the lanes paths kernel's st), each path's
// first exercising date, each date's step, and a byte a path and date of
// the window, whether it is in reach.
#define REC_FIELDS(n) (2 * (n) + 2)
#define REC_CARRY_FIELDS(n) (2 * (n) + MCPI_ADJ_EX_FIELDS)
#define REC_AT(q, i, d) ((((size_t)(q) * ld + (i)) * dates + (d)) * REC_FIELDS(n))
#define REC_END(q, f) (((size_t)passes * dates * REC_FIELDS(n) + (size_t)(q) * (n + 2) + (f)) * ld)
#define REC_SC(q, k) \
  (((size_t)passes * (dates * REC_FIELDS(n) + n + 2) + (size_t)(q) * nsc + (k)) * ld)
#define REC_CARRY(q, f)                                                                      \
  (((size_t)passes * ((size_t)dates * REC_FIELDS(n) + n + 2 + nsc) +                         \
    (size_t)(q) * REC_CARRY_FIELDS(n) + (f)) *                                               \
   ld)
#define REC_REACH(q, i) (((size_t)(q) * ld + (i)) * dates)
#define REC_DOUBLES(n) \
  ((size_t)passes * ld * ((size_t)dates * REC_FIELDS(n) + (n) + 2 + nsc + REC_CARRY_FIELDS(n)))
#define SCENARIOS_A_LANE ((MCPI_LSM_MAX_SCALED + 31) / 32)

// Every (pass, date, path) of the stored log-spots (nd dates from d0, a
// window of `dates`), a thread each: its exercise test (the lanes'
// operations, mcpi_adj_decides), each path's first exercising date by the
// least (first[q npaths + path], set above every date before the first
// window); with Record (the scaled price's), its record where in the
// scenarios' reach.  The split price's (Record 0): every date, d0 0.  A
// block TESTS_PATHS paths at TESTS_DATES dates of one pass, a warp a date
// (the stored log-spots' loads whole): the least of its dates taken in
// shared memory first, and the record of a path's dates, contiguous,
// written from shared memory (launch: TESTS_SHARED bytes) by whole warps.
// A thread a (pass, date, path) in a row of paths wrote each record's
// numbers 24 KB apart from its neighbours', 7 of a sector's 32 bytes a
// store: STAC-A2's small American's tests 1.09 -> 1.03 ms on an H100, the
// same bits (bench/RESULTS.md, "tests-tiles").  The kernel is bound to
// MaxA assets (lanes_max_assets), so that its asset arrays past them fold
// away (the record's 128 registers 104 at 8, the split's 96 79), and, at
// most 8, to 3 blocks an SM with the record (80 registers), 4 without (64):
// a thread's one test of a date waits on its loads, and 2 blocks left 3.8
// warps a scheduler with none eligible 75% of the time (ncu); on an H100
// the record's 1.03 -> 0.81 ms, the split's 0.47 -> 0.29 ("tests-bounds").
#define TESTS_BLOCKS(MaxA, Record) ((MaxA) > 8 ? 0 : (Record) ? 3 : 4)
#define TESTS_PATHS 32
#define TESTS_DATES 8
// A path's staged record in shared memory: its dates' fields and one
// more, an odd count of doubles, so that a warp's lanes (its paths) store
// to distinct banks (an even stride of 96 put all 32 on one)
#define TESTS_STRIDE(n) (TESTS_DATES * REC_FIELDS(n) + 1)
#define TESTS_SHARED(n) ((size_t)TESTS_PATHS * TESTS_STRIDE(n) * sizeof(double))
template <int MaxA, int Record>
__global__ void __launch_bounds__(256, TESTS_BLOCKS(MaxA, Record))
    mcpi_lsm_tests_kernel(const __grid_constant__ mcpi_job_view j, const double *__restrict__ st,
                          size_t ld, size_t npaths, int dates, int nd, int d0,
                          double *__restrict__ rec, unsigned char *__restrict__ reach,
                          int *__restrict__ first)
{
  extern __shared__ double staged[]; /* Record: [path][date][field], TESTS_STRIDE a path */
  __shared__ int least[TESTS_PATHS];
  __shared__ unsigned char in[TESTS_PATHS][TESTS_DATES];
  int n = j.nassets < MaxA ? j.nassets : MaxA, lane = (int)(threadIdx.x % 32),
      de = (int)(threadIdx.x / 32);
  int e0 = (int)blockIdx.y * TESTS_DATES, e = e0 + de, q = (int)blockIdx.z;
  size_t p0 = (size_t)blockIdx.x * TESTS_PATHS, path = p0 + (size_t)lane;
  const mcpi_payoff_spec *p = &j.trades[0];
  if (threadIdx.x < TESTS_PATHS)
    least[threadIdx.x] = 0x7fffffff; /* (above any date) */
  __syncthreads();
  if (path < npaths && e < nd) {
    const double *row = j.lsm + (size_t)(d0 + e) * MCPI_LSM_ROW;
    double x[MCP_MAX_ASSETS], sp[MCP_MAX_ASSETS], r[MCP_MAX_ASSETS], hv, under, q0;
    stored_spots(j, n, st, npaths, dates, q, e, path, x, sp);
    if (mcpi_adj_decides(&j, n, row, x, sp, 1, &hv))
      atomicMin(&least[lane], d0 + e);
    if constexpr (Record) { /* (the split's: not compiled) */
      MCP_UNROLL
      for (int k = 0; k < MCP_MAX_ASSETS; k++)
        r[k] = x[k] - p->log_initial[k];
      int ok = mcpi_lsm_scaled_ready(p, row, sp, r, n, &under, &q0);
      in[lane][de] = (unsigned char)ok;
      double *f = staged + (size_t)lane * TESTS_STRIDE(n) + de * REC_FIELDS(n);
      MCP_UNROLL
      for (int k = 0; k < MCP_MAX_ASSETS; k++)
        if (ok && k < n) {
          f[k] = r[k];
          f[n + k] = sp[k];
        }
      if (ok) {
        f[2 * n] = under;
        f[2 * n + 1] = q0;
      }
    }
  }
  __syncthreads();
  if (threadIdx.x < TESTS_PATHS && path < npaths && least[lane] != 0x7fffffff)
    atomicMin(first + (size_t)q * npaths + path, least[lane]);
  if constexpr (Record) {
    int te = nd - e0 < TESTS_DATES ? nd - e0 : TESTS_DATES, span = te * REC_FIELDS(n);
    for (int k = (int)threadIdx.x; k < TESTS_PATHS * span; k += (int)blockDim.x) {
      int i = k / span, o = k % span;
      if (p0 + i < npaths && in[i][o / REC_FIELDS(n)])
        rec[REC_AT(q, p0 + i, e0) + o] = staged[(size_t)i * TESTS_STRIDE(n) + o];
    }
    for (int k = (int)threadIdx.x; k < TESTS_PATHS * te; k += (int)blockDim.x) {
      int i = k / te, d = k % te;
      if (p0 + i < npaths)
        reach[REC_REACH(q, p0 + i) + e0 + d] = in[i][d];
    }
  }
}

// The tests' grid: a block TESTS_PATHS paths x TESTS_DATES of nd dates, a
// pass a layer.
static dim3 tests_grid(size_t npaths, int nd, int passes)
{
  return dim3((unsigned)((npaths + TESTS_PATHS - 1) / TESTS_PATHS),
              (unsigned)((nd + TESTS_DATES - 1) / TESTS_DATES), (unsigned)passes);
}

// A thread a path, its passes in order: the exercises' state (adjoint.h,
// mcpi_adj_ex) carried over the window, the exercise's taken at the
// path's first date where the window holds it (its value again there, its
// step from dstep); at the last window, the held European's at the last
// date where it is the rule's ALWAYS, the exercise's value and the held's,
// the sweep's start of its exercises (MCPI_ADJ_START), and the pay:
// mcpi_adj_exercise_held's amounts, so the same bits as the path's own
// walk.
__global__ void __launch_bounds__(128)
    mcpi_lsm_record_settle_kernel(const __grid_constant__ mcpi_job_view j,
                                  const double *__restrict__ st, size_t ld, size_t npaths,
                                  int dates, int nsc, int nd, int d0, int last,
                                  const int *__restrict__ first, const int *__restrict__ dstep,
                                  double *__restrict__ rec, double *__restrict__ start,
                                  double *__restrict__ pay)
{
  size_t path = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (path >= npaths)
    return;
  int n = j.nassets, passes = j.antithetic ? 2 : 1, steps = j.nelem / (2 * n);
  int ncp = start ? mcpi_adj_mheston_checkpoints(steps) : 0;
  const mcpi_payoff_spec *p = &j.trades[0];
  for (int q = 0; q < passes; q++) {
    double *carried = rec + REC_CARRY(q, 2 * n) + path;
    double *sw = start ? start + MCPI_ADJ_START(MCPI_ADJ_START_FIELDS(n, ncp), ld, q, 0) + path
                       : NULL;
    double x[MCP_MAX_ASSETS], sp[MCP_MAX_ASSETS], hv;
    mcpi_adj_ex ex = MCPI_ADJ_EX_INIT;
    if (d0 > 0)
      mcpi_adj_ex_get(carried, ld, &ex);
    ex.e = d0 + nd;
    int f = first[(size_t)q * npaths + path];
    for (int k = 0; k < 2; k++) { /* the exercise's (at f), then the held's (the last date) */
      int e = k ? nd - 1 : f - d0;
      if (k ? !last : e < 0 || e >= nd)
        continue;
      const double *row = j.lsm + (size_t)(d0 + e) * MCPI_LSM_ROW;
      if (k && row[1] != MCPI_LSM_ALWAYS) /* (the last row's alone: lsm_plan.c) */
        continue;
      stored_spots(j, n, st, npaths, dates, q, e, path, x, sp);
      mcpi_adj_decides(&j, n, row, x, sp, 0, &hv);
      if (k && !(hv > 0))
        continue;
      ex.tau[k] = dstep[e];
      ex.date[k] = d0 + e;
      ex.df[k] = row[0];
      ex.h[k] = hv;
      MCP_UNROLL
      for (int i = 0; i < MCP_MAX_ASSETS; i++)
        if (sw && i < n)
          sw[(size_t)(n * ncp + k * n + i) * ld] = mcpi_lsm_exercise_dx(p, sp, n, hv, i);
    }
    if (!last) {
      mcpi_adj_ex_put(carried, ld, &ex);
      continue;
    }
    double ex_val = ex.tau[0] >= 0 ? ex.df[0] * ex.h[0] : 0;
    double held = ex.tau[1] >= 0 ? ex.df[1] * ex.h[1] : 0;
    if (sw) {
      if (j.adj_held_off) /* (as the sweep's forward: mcpi_adj_exercise) */
        ex.tau[1] = -1;
      mcpi_adj_ex_put(sw + (size_t)(n * ncp + 2 * n) * ld, ld, &ex);
    }
    MCP_UNROLL
    for (int a = 0; a < MCP_MAX_ASSETS; a++)
      x[a] = a < n ? rec[REC_END(q, a) + path] : j.log_spots[a];
    rec[REC_END(q, n) + path] = ex_val;
    rec[REC_END(q, n + 1) + path] = held;
    mcpi_multi_pay_x(x, ex_val, held, NULL, &j, pay + path, ld, q);
  }
}

// A warp a path, 4 a block, over the window's dates d0 .. d0 + nd - 1 (a
// window of `dates`), each scenario's value carried (-1: not exercised
// yet): 32 dates' reach bits at a time by a ballot, and at each date in
// reach its record read by the first lanes into the warp's shared row,
// which every lane's scenarios then read.  S: a lane's scenarios, k = lane
// + 32 m for m < S (scenario_slots).  Latency-bound: with the 7 that
// MCPI_LSM_MAX_SCALED needs, STAC-A2's 50 held 96 registers, 5 blocks an
// SM, in 2.61 ms on an H100; with 2, 72 and 7 blocks, in 1.60-1.67 (loading
// the next date's row ahead gained less and took 22 registers more:
// bench/RESULTS.md, "scenario-slots").  The bounds are caps: S = 1 takes
// 56 registers, 4 and 7 would take 144 and more without theirs.
template <int S>
__global__ void __launch_bounds__(128, S <= 2 ? 7 : 5)
    mcpi_lsm_scenario_kernel(const __grid_constant__ mcpi_job_view j, size_t ld, size_t npaths,
                             int dates, int d0, int nd, double *__restrict__ rec,
                             const unsigned char *__restrict__ reach)
{
  __shared__ double row[4][REC_FIELDS(MCP_MAX_ASSETS)];
  const unsigned all = 0xffffffffu;
  int n = j.nassets, passes = j.antithetic ? 2 : 1, lane = (int)(threadIdx.x % 32);
  size_t path = (size_t)blockIdx.x * 4 + threadIdx.x / 32;
  double *f = row[threadIdx.x / 32];
  const mcpi_payoff_spec *p = &j.trades[0];
  uint32_t mine = mcpi_lsm_mine(p, n);
  int nsc = mcpi_lsm_scaled_count(mine, p->g_cross);
  if (path >= npaths) /* (the warp's) */
    return;
  mcpi_lsm_which which[S];
  MCP_UNROLL
  for (int m = 0; m < S; m++)
    which[m] = mcpi_lsm_scaled_which(mine, lane + 32 * m < nsc ? lane + 32 * m : 0);
  for (int pass = 0; pass < passes; pass++) {
    double val[S];
    int waiting = 0;
    MCP_UNROLL
    for (int m = 0; m < S; m++) { /* (past the scenarios: none waits) */
      val[m] = lane + 32 * m >= nsc ? 0 : d0 ? rec[REC_SC(pass, lane + 32 * m) + path] : -1;
      waiting |= val[m] < 0;
    }
    if (!__any_sync(all, waiting)) /* (their values there already) */
      continue;
    const unsigned char *in = reach + REC_REACH(pass, path);
    for (int e0 = 0; e0 < nd; e0 += 32) {
      unsigned at = __ballot_sync(all, e0 + lane < nd && in[e0 + lane]);
      for (; at; at &= at - 1) {
        int e = e0 + __ffs(at) - 1, d = d0 + e;
        double v = lane < REC_FIELDS(n) ? rec[REC_AT(pass, path, e) + lane] : 0;
        __syncwarp(); /* the last date's row read */
        if (lane < REC_FIELDS(n))
          f[lane] = v;
        __syncwarp();
        MCP_UNROLL
        for (int m = 0; m < S; m++)
          if (val[m] < 0)
            mcpi_lsm_scaled_one(p, j.lsm + (size_t)d * MCPI_LSM_ROW, f + n, f, n, f[2 * n],
                                f[2 * n + 1], which[m], &val[m]);
      }
      waiting = 0;
      MCP_UNROLL
      for (int m = 0; m < S; m++)
        waiting |= val[m] < 0;
      if (!__any_sync(all, waiting))
        break;
    }
    MCP_UNROLL
    for (int m = 0; m < S; m++)
      if (lane + 32 * m < nsc)
        rec[REC_SC(pass, lane + 32 * m) + path] = val[m];
  }
}

// The first of the bounds B at or above v (the last past them all), as a
// type: the size tables by which a kernel's arrays are compiled.
template <int B, int... More, typename F> static void smallest_bound(int v, F launch)
{
  if constexpr (sizeof...(More) == 0)
    launch(std::integral_constant<int, B>());
  else if (v <= B)
    launch(std::integral_constant<int, B>());
  else
    smallest_bound<More...>(v, launch);
}

// A lane's scenarios (the scenario kernel's S) for nsc of them, nsc / 32
// rounded up to 1, 2, 4 or SCENARIOS_A_LANE (MCPI_LSM_MAX_SCALED's: 10
// assets with their cross gammas).
template <typename F> static void scenario_slots(int nsc, F launch)
{
  smallest_bound<1, 2, 4, SCENARIOS_A_LANE>((nsc + 31) / 32, launch);
}

// A thread a path: its trades' spot Greeks' columns, pass by pass.
__global__ void __launch_bounds__(128)
    mcpi_lsm_scaled_pay_kernel(const __grid_constant__ mcpi_job_view j, size_t ld,
                               size_t npaths, int dates, const double *__restrict__ rec,
                               double *__restrict__ pay)
{
  int n = j.nassets, passes = j.antithetic ? 2 : 1;
  size_t path = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  const mcpi_payoff_spec *p = &j.trades[0];
  int nsc = mcpi_lsm_scaled_count(mcpi_lsm_mine(p, n), p->g_cross);
  if (path >= npaths)
    return;
  double sc[MCPI_LSM_MAX_SCALED], x[MCP_MAX_ASSETS], s0[MCP_MAX_ASSETS];
  MCP_UNROLL
  for (int a = 0; a < MCP_MAX_ASSETS; a++)
    s0[a] = exp(j.log_spots[a]);
  for (int pass = 0; pass < passes; pass++) {
    for (int k = 0; k < nsc; k++)
      sc[k] = rec[REC_SC(pass, k) + path];
    MCP_UNROLL
    for (int a = 0; a < MCP_MAX_ASSETS; a++)
      x[a] = a < n ? rec[REC_END(pass, a) + path] : j.log_spots[a];
    for (int t = 0; t < j.ntrades; t++)
      if (j.trades[t].flags & MCPI_LSM)
        mcpi_lsm_scaled_pay(&j.trades[t], n, rec[REC_END(pass, n) + path],
                            rec[REC_END(pass, n + 1) + path], sc, x, s0, pay + path, ld, pass);
  }
}

// The lanes kernels' and the tests' largest asset count for n assets, as a
// type (their arrays' sizes: registers by the count).
template <typename F> static void lanes_max_assets(int n, F launch)
{
  smallest_bound<4, 8, 12, MCP_MAX_ASSETS>(n, launch);
}

extern "C" size_t mcpi_lsm_record_bytes(int nassets, int dates, int antithetic, int nsc,
                                        size_t ld)
{
  size_t passes = antithetic ? 2 : 1; /* the doubles, the log-spots, first, dstep, reach */
  return (REC_DOUBLES(nassets) + passes * ld * (size_t)dates * nassets) * sizeof(double) +
         (passes * ld + (size_t)dates) * sizeof(int) + passes * ld * (size_t)dates;
}

extern "C" cudaError_t mcpi_launch_lsm_scaled(mcpi_job_view job, const double *z, size_t ld,
                                              size_t n, int all, int dates, const int *first,
                                              int nsc, double *pay, void *work, double *start,
                                              cudaEvent_t recorded, cudaEvent_t ruled,
                                              cudaStream_t stream)
{
  int na = job.nassets, passes = job.antithetic ? 2 : 1, steps = job.nelem / (2 * na);
  double *rec = (double *)work, *st = rec + REC_DOUBLES(na);
  int *least = (int *)(st + (size_t)passes * ld * dates * na), *dstep = least + passes * ld;
  unsigned char *reach = (unsigned char *)(dstep + dates);
  if (REC_FIELDS(na) > 32) /* (a date's record a number a lane) */
    return cudaErrorInvalidValue;
  if (start && !mcpi_adj_mheston_checkpoints(steps)) /* (no segment: s % 0) */
    return cudaErrorInvalidValue;
  lanes_keep k = keep_none(job);
  { /* (the macros' n: the assets) */
    int n = na;
    k.carry = rec + REC_CARRY(0, 0);
    k.end = rec + REC_END(0, 0);
  }
  k.start = start;
  k.cq = (size_t)REC_CARRY_FIELDS(na) * ld;
  k.eq = (size_t)(na + 2) * ld;
  k.dstep = dstep;
  cudaError_t e;
  lanes_max_assets(na, [&](auto a) {
    e = cudaFuncSetAttribute(mcpi_lsm_tests_kernel<decltype(a)::value, 1>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize, (int)TESTS_SHARED(na));
  });
  if (e == cudaSuccess)
    e = cudaMemsetAsync(least, 0x7f, (size_t)passes * n * sizeof(int), stream);
  for (int w = 0, d0 = 0; e == cudaSuccess && d0 < all; w++, d0 += dates) {
    int nd = all - d0 < dates ? all - d0 : dates, fin = d0 + dates >= all;
    k.s0 = first[w];
    k.s1 = first[w + 1];
    lanes_max_assets(na, [&](auto a) {
      mcpi_lsm_lanes_paths_kernel<decltype(a)::value, 1><<<lanes_blocks(na, n), 128, 0, stream>>>(
          job, z, ld, passes, NULL, dates, st, n, NULL, k);
    });
    if (w == 0 && ruled && (e = cudaStreamWaitEvent(stream, ruled, 0)))
      break;
    lanes_max_assets(na, [&](auto a) {
      mcpi_lsm_tests_kernel<decltype(a)::value, 1>
          <<<tests_grid(n, nd, passes), 256, TESTS_SHARED(na), stream>>>(job, st, ld, n, dates, nd,
                                                                         d0, rec, reach, least);
    });
    mcpi_lsm_record_settle_kernel<<<(unsigned)((n + 127) / 128), 128, 0, stream>>>(
        job, st, ld, n, dates, nsc, nd, d0, fin, least, dstep, rec, start, pay);
    e = recorded && fin ? cudaEventRecord(recorded, stream) : cudaSuccess;
    if (e == cudaSuccess)
      scenario_slots(nsc, [&](auto s) {
        mcpi_lsm_scenario_kernel<decltype(s)::value>
            <<<(unsigned)((n + 3) / 4), 128, 0, stream>>>(job, ld, n, dates, d0, nd, rec, reach);
      });
  }
  if (e != cudaSuccess)
    return e;
  mcpi_lsm_scaled_pay_kernel<<<(unsigned)((n + 127) / 128), 128, 0, stream>>>(job, ld, n, dates,
                                                                              rec, pay);
  return cudaGetLastError();
}

// The kernel of the job's asset count in precision R, its states O's
// (lsm_state_of, or lsm_scaled_state_of with the spot Greeks on scaled
// paths).
template <typename R, template <typename, int> class O>
static void lsm_price(const mcpi_job_view &job, const R *z, size_t ld, size_t n, double *pay,
                      unsigned grid, cudaStream_t stream)
{
  if (job.nassets > 1 && job.model == MCPI_MODEL_HESTON)
    mcpi_lsm_price_kernel<typename O<R, MCPI_STATE_MHESTON>::type>
        <<<grid, 128, 0, stream>>>(job, z, ld, n, pay);
  else if (job.nassets > 1)
    mcpi_lsm_price_kernel<typename O<R, MCPI_STATE_MULTI>::type>
        <<<grid, 128, 0, stream>>>(job, z, ld, n, pay);
  else
    mcpi_lsm_price_kernel<typename O<R, MCPI_STATE_ONE>::type>
        <<<grid, 128, 0, stream>>>(job, z, ld, n, pay);
}

extern "C" size_t mcpi_lsm_split_bytes(int nassets, int dates, int antithetic, size_t ld)
{
  size_t passes = antithetic ? 2 : 1;
  return passes * ld * ((size_t)dates * nassets * sizeof(double) + sizeof(int));
}

// The split price (launch.h): the paths' log-spots at every date, then
// every date's tests at once, then the pay.  The lanes' own tests took a
// warp's instructions for its 6 paths, not 32, on the lanes' 25% occupancy
// (STAC-A2's small American: its pass 3.00 ms, the fit's lanes paths, the
// same steps, 1.5).
static cudaError_t lsm_split(const mcpi_job_view &job, const double *z, size_t ld, size_t n,
                             double *pay, int dates, void *work, cudaEvent_t ruled,
                             cudaStream_t stream)
{
  int passes = job.antithetic ? 2 : 1;
  double *st = (double *)work;
  int *first = (int *)(st + (size_t)passes * dates * job.nassets * n);
  cudaError_t e = cudaMemsetAsync(first, 0x7f, (size_t)passes * n * sizeof(int), stream);
  if (e) /* (0x7f7f7f7f: above any date) */
    return e;
  lanes_max_assets(job.nassets, [&](auto a) {
    mcpi_lsm_lanes_paths_kernel<decltype(a)::value, 0>
        <<<lanes_blocks(job.nassets, n), 128, 0, stream>>>(job, z, ld, passes, NULL, dates, st, n,
                                                           NULL, keep_none(job));
  });
  if (ruled && (e = cudaStreamWaitEvent(stream, ruled, 0)))
    return e;
  lanes_max_assets(job.nassets, [&](auto a) {
    mcpi_lsm_tests_kernel<decltype(a)::value, 0><<<tests_grid(n, dates, passes), 256, 0, stream>>>(
        job, st, 0, n, dates, dates, 0, NULL, NULL, first);
  });
  mcpi_lsm_split_pay_kernel<<<(unsigned)((n + 127) / 128), 128, 0, stream>>>(job, st, n, dates,
                                                                             first, pay, ld);
  return cudaGetLastError();
}

extern "C" cudaError_t mcpi_launch_lsm_price(mcpi_job_view job, const void *z, size_t ld, size_t n,
                                             double *pay, mcp_precision precision, int scaled,
                                             int lanes, int dates, void *work, cudaEvent_t ruled,
                                             cudaStream_t stream)
{
  size_t blocks = (n + 127) / 128;
  unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
  int on_lanes = lanes && precision == MCP_DOUBLE && !scaled && job.nassets > 1 &&
                 job.model == MCPI_MODEL_HESTON;
  if (on_lanes && work)
    return lsm_split(job, (const double *)z, ld, n, pay, dates, work, ruled, stream);
  cudaError_t e = ruled ? cudaStreamWaitEvent(stream, ruled, 0) : cudaSuccess;
  if (e)
    return e;
  if (on_lanes)
    lanes_max_assets(job.nassets, [&](auto a) {
      mcpi_lsm_lanes_price_kernel<decltype(a)::value>
          <<<lanes_blocks(job.nassets, n), 128, 0, stream>>>(job, (const double *)z, ld, n, pay);
    });
  else if (precision == MCP_FLOAT && scaled)
    lsm_price<float, lsm_scaled_state_of>(job, (const float *)z, ld, n, pay, grid, stream);
  else if (precision == MCP_FLOAT)
    lsm_price<float, lsm_state_of>(job, (const float *)z, ld, n, pay, grid, stream);
  else if (scaled)
    lsm_price<double, lsm_scaled_state_of>(job, (const double *)z, ld, n, pay, grid, stream);
  else
    lsm_price<double, lsm_state_of>(job, (const double *)z, ld, n, pay, grid, stream);
  return cudaGetLastError();
}

extern "C" cudaError_t mcpi_launch_lsm_paths(mcpi_job_view job, uint64_t seed,
                                             const double *table, int dates, double *st,
                                             size_t n, double *y, int lanes, cudaStream_t stream)
{
  if (lanes && job.nassets > 1 && job.model == MCPI_MODEL_HESTON) {
    job.seed = seed; /* the fit's canonical normals (mcpi_adj_normal) */
    job.p0 = 0;
    lanes_max_assets(job.nassets, [&](auto a) {
      mcpi_lsm_lanes_paths_kernel<decltype(a)::value, 0>
          <<<lanes_blocks(job.nassets, n), 128, 0, stream>>>(job, NULL, 0, 1, table, dates, st, n,
                                                             y, keep_none(job));
    });
    return cudaGetLastError();
  }
  size_t blocks = (n + 127) / 128;
  mcpi_lsm_paths_kernel<<<(unsigned)(blocks < 65535 ? blocks : 65535), 128, 0, stream>>>(
      job, seed, table, dates, st, n, y);
  return cudaGetLastError();
}

// Dates whose Gram sums the work holds at once: all, or as many as 64 MiB
// hold (at least one; and a grid's second dimension).
static size_t gram_dates(int nb, size_t nch, size_t walked)
{
  size_t per = (size_t)MCPI_LSM_GRAM(nb) * nch, most = ((size_t)8 << 20) / per;
  most = most < 65535 ? most : 65535;
  return walked < most ? walked : most ? most : 1;
}

extern "C" size_t mcpi_lsm_work_doubles(int nb, size_t n, int dates)
{
  size_t walked = dates > 1 ? (size_t)dates - 1 : 0;
  size_t nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  return walked * FAC_STRIDE + gram_dates(nb, nch, walked) * MCPI_LSM_GRAM(nb) * nch +
         2 * (size_t)nb * nch + (size_t)nb;
}

// The fit's dates of shape K (shape_dims).
template <int K>
static cudaError_t lsm_dates(mcpi_job_view &job, double *table, const double *st, size_t n,
                             int dates, double *y, double *work, unsigned *done,
                             cudaEvent_t walking, cudaStream_t stream)
{
  size_t nch = (n + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS, walked = (size_t)dates - 1;
  int dev = 0, coop = 0, sms = 0, per_sm = 0;
  cudaError_t err;
  const void *walk;
  if constexpr (K > 3)
    walk = (const void *)mcpi_lsm_basket_dates_kernel<K>;
  else
    walk = (const void *)mcpi_lsm_dates_kernel<K>;
  /* work: the factors, a group of dates' Gram sums, the cash-flow columns'
   * chunk sums (double-buffered), the grid's sums of them */
  size_t group = gram_dates(job.lsm_nb, nch, walked);
  double *fac = work, *gram = fac + walked * FAC_STRIDE;
  double *part = gram + group * MCPI_LSM_GRAM(job.lsm_nb) * nch;
  for (size_t e0 = 0; e0 < walked; e0 += group) {
    size_t g = walked - e0 < group ? walked - e0 : group;
    mcpi_lsm_gram_kernel<K><<<dim3((unsigned)nch, (unsigned)g), HALF, 0, stream>>>(job, st, n,
                                                                                (int)e0, gram);
    mcpi_lsm_factor_kernel<<<(unsigned)g, HALF, 0, stream>>>(job, gram, nch, (int)e0, fac);
  }
  if ((err = cudaGetLastError()) || (walking && (err = cudaEventRecord(walking, stream))) ||
      (err = cudaGetDevice(&dev)) ||
      (err = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev)) ||
      (err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
      (err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, walk, WALK_THREADS(K), 0)))
    return err;
  if (coop && nch <= (size_t)sms * (size_t)per_sm) {
    void *args[] = {&job, &table, &fac, &st, &n, &dates, &y, &part};
    return cudaLaunchCooperativeKernel(walk, dim3((unsigned)nch), dim3(WALK_THREADS(K)), args, 0,
                                       stream);
  }
  for (int e = dates - 2; e >= 0; e--) { /* more chunks than fit at once: a launch a date */
    mcpi_lsm_date_kernel<K><<<(unsigned)nch, WALK_THREADS(K), 0, stream>>>(job, table, fac, st,
                                                                             n, e, y, part, done);
    if ((err = cudaGetLastError()))
      return err;
  }
  return cudaSuccess;
}

extern "C" cudaError_t mcpi_launch_lsm_dates(mcpi_job_view job, double *table, const double *st,
                                             size_t n, int dates, double *y, double *work,
                                             unsigned *done, cudaEvent_t walking,
                                             cudaStream_t stream)
{
  mcpi_lsm_dims d = mcpi_lsm_dims_of(&job);
  if (dates < 2) /* (nothing walked) */
    return walking ? cudaEventRecord(walking, stream) : cudaSuccess;
  switch (2 * d.n + d.heston) {
#define SHAPE_CASE(K)                                                                              \
  case K:                                                                                          \
    return lsm_dates<K>(job, table, st, n, dates, y, work, done, walking, stream);
    LSM_SHAPES(SHAPE_CASE)
#undef SHAPE_CASE
  default:
    return lsm_dates<0>(job, table, st, n, dates, y, work, done, walking, stream);
  }
}
