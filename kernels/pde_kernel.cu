/* pde_kernel.cu: the finite-difference grids on the GPU, one warp a grid,
 * each filling its own values at maturity (pde_terminal.h).
 * Explicit scheme: every step a stencil sweep between the two time levels.
 * Theta scheme: every step the warp sweeps the grid (the explicit half,
 * into the right-hand side), then solves the band with the factors of its
 * segment and step kind (the implicit half): radius 1 by chunks, a lane
 * each, and a scan across the lanes (pde_grid.h, the blocked solve), or,
 * for radius 2 and floored systems whose band is not monotone, lane 0
 * alone.  With the regcache stencil, radius 1 and up to 32 x 33 nodes, a
 * lane keeps its chunk's values in registers from step to step
 * (pde_resident, a kernel for each chunk length); otherwise the march is staged in shared memory where it
 * fits, else in global memory.  The arithmetic of a grid is the CPU's,
 * step for step, and every form's bits are the same. */
#include "kernels/launch.h"
#include "models/products/pde_grid.h"
#include "kernels/stencil.cuh"

#define PDE_BLOCK 128

/* The boundary value of node i < 2K that this lane writes (bnd is indexed
 * by constants only, to stay in registers). */
template <int K>
__device__ __forceinline__ double pick(const double *bnd, int i)
{
  double b = bnd[0];
#pragma unroll
  for (int q = 1; q < 2 * K; q++)
    if (i == q)
      b = bnd[q];
  return b;
}

/* The warp's jumps of grid g (its values v, scratch w) across the cash
 * dividends after step s: w from v, then back into v (every lane's nodes).
 * The grids' functions that are not inlined take g in global memory: a
 * copy's address would keep the kernel's copy out of registers. */
__device__ void dividends(const mcpi_pde_view &b, const mcpi_pde_grid *g, int s, double *v,
                          double *w, const double *ex, int lane)
{
  for (int k = 0; k < g->ndiv; k++)
    if (b.div[g->div0 + k].step == s) {
      const mcpi_pde_dividend *d = &b.div[g->div0 + k];
      for (int j = lane; j < b.n; j += 32)
        w[j] = mcpi_pde_jump(g, b.n, v, j, d, ex);
      __syncwarp();
      for (int j = lane; j < b.n; j += 32)
        v[j] = w[j];
      __syncwarp();
    }
}

/* The warp's values of grid g at maturity into v and, where fl is not
 * NULL, its exercise values into fl. */
__device__ void terminal(int K, int n, const mcpi_pde_grid *g, double *v, double *fl, int lane)
{
  for (int j = lane; j < n; j += 32) {
    double x;
    v[j] = mcpi_pde_terminal(K, n, g, j, &x);
    if (fl)
      fl[j] = x;
  }
  __syncwarp();
}

/* The warp's exercise boundary node of grid g at slot (mcpi_pde_bound_slot)
 * from each lane's own: the lanes' extreme (by shuffles: any architecture). */
__device__ __forceinline__ void put_bound(const mcpi_pde_view &b, const mcpi_pde_grid &g,
                                          int slot, int node, int lane)
{
  const int low = g.exercise == MCPI_EXERCISE_LOW;
#pragma unroll
  for (int d = 16; d >= 1; d /= 2) {
    int other = __shfl_xor_sync(MCPI_FULL_MASK, node, d);
    node = low ? max(node, other) : min(node, other);
  }
  if (lane == 0)
    b.bound[slot] = node;
}

/* After step s, grid g's exercise boundary from its values v and exercise
 * values ex in memory, where recorded (warp-uniform). */
__device__ __forceinline__ void record_bound(const mcpi_pde_view &b, const mcpi_pde_grid &g,
                                             int s, const double *v, const double *ex, int lane)
{
  int slot = b.bound ? mcpi_pde_bound_slot(&g, s) : -1;
  if (slot < 0)
    return;
  int node = mcpi_pde_bound_none(&g, b.n);
  for (int j = lane; j < b.n; j += 32)
    node = mcpi_pde_bound_at(&g, node, j, v[j], ex[j]);
  put_bound(b, g, slot, node, lane);
}

template <int IMPL, int K, int C>
__global__ void __launch_bounds__(PDE_BLOCK) pde_explicit(mcpi_pde_view b)
{
  extern __shared__ double smem[];
  const int gi = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (gi >= b.ngrids)
    return;
  double *sm = smem + (threadIdx.x >> 5) * mcpi_smem_slots(K, C);
  const mcpi_pde_grid g = b.grid[gi];
  const size_t row = (size_t)gi * b.ld;
  double *v = b.v + row, *w = b.w + row, *fl = b.american ? b.ex + row : NULL;
  const double *ex = g.exercise ? fl : NULL;
  terminal(K, b.n, &b.grid[gi], v, fl, lane);
  mcpi_pde_state st = {g.seg, 0.0, 0.0, 0.0};
  for (int s = 0; s < g.steps; s++) {
    double e[2 * K + 1], m[2 * K + 1], bnd[2 * K];
    mcpi_pde_step(K, &g, b.seg, s, &st, e, m, bnd);
    mcpi_sweep<IMPL, K, C>(v, w, b.n, e, ex, sm);
    if (lane < 2 * K) {
      int j = mcpi_pde_boundary_node(K, b.n, lane);
      double x = pick<K>(bnd, lane);
      w[j] = ex ? mcpi_floor(x, ex[j]) : x;
    }
    __syncwarp();
    double *t = v;
    v = w;
    w = t;
    if (g.ndiv) {
      dividends(b, &b.grid[gi], s, v, w, ex, lane);
      mcpi_pde_cross(&g, b.div, s, &st);
    }
    record_bound(b, g, s, v, ex, lane);
  }
  if (lane <= 2 * K)
    b.out[(size_t)gi * (2 * K + 1) + lane] = v[g.center - K + lane];
}

/* The blocked solve's scans across the lanes: each lane's forward map
 * (A, B) after those of the lanes before it, giving the y before its
 * chunk; and its back map (P, Q, M) after those of the lanes after it,
 * giving the x after its chunk. */
__device__ __forceinline__ double scan_forward(double A, double B, int lane)
{
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    double Ap = __shfl_up_sync(MCPI_FULL_MASK, A, d), Bp = __shfl_up_sync(MCPI_FULL_MASK, B, d);
    if (lane >= d)
      mcpi_fwd_after(&A, &B, Ap, Bp);
  }
  double y = __shfl_up_sync(MCPI_FULL_MASK, A, 1);
  return lane ? y : 0;
}

__device__ __forceinline__ double scan_back(double P, double Q, double M, int floored, int lane)
{
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    double Pn = __shfl_down_sync(MCPI_FULL_MASK, P, d), Qn = __shfl_down_sync(MCPI_FULL_MASK, Q, d),
           Mn = __shfl_down_sync(MCPI_FULL_MASK, M, d);
    if (lane + d < 32)
      mcpi_back_after(&P, &Q, &M, Pn, Qn, Mn, floored);
  }
  double xb = floored ? mcpi_floor(P, M) : P, xn = __shfl_down_sync(MCPI_FULL_MASK, xb, 1);
  return lane + 1 < 32 ? xn : 0;
}

/* The warp's blocked solve of a radius-1 system (mcpi_band_solve_blocked's
 * steps, the scans by shuffles): r (overwritten by y) into x. */
__device__ void solve_blocked(int n, int rev, const double *fac, int ld, double *r, double *x,
                              const double *fl, int lane)
{
  int i0, i1;
  mcpi_chunk(n, lane, &i0, &i1);
  double A, B;
  mcpi_fwd_map(n, rev, fac, ld, r, i0, i1, &A, &B);
  mcpi_fwd_sweep(n, rev, fac, ld, r, i0, i1, scan_forward(A, B, lane));
  __syncwarp();
  double P, Q, M;
  mcpi_back_map(n, rev, fac, ld, r, fl, i0, i1, &P, &Q, &M);
  mcpi_back_sweep(n, rev, fac, ld, r, x, fl, i0, i1, scan_back(P, Q, M, fl != NULL, lane));
}

/* Doubles of shared memory a warp stages a grid of row stride ld in (the
 * values, the right-hand side, the factors, the exercise values), beside
 * its stencil's slots. */
__host__ __device__ constexpr size_t staged_doubles(int K, int ld)
{
  return (size_t)(3 + MCPI_PDE_FACTOR_ROWS(K)) * (size_t)ld;
}

/* At step s of grid g, whose band key is *key: where the band m changes
 * (segment or step kind), lane 0 factors it into fac; returns whether the
 * warp solves by the blocked solve. */
template <int K>
__device__ __forceinline__ int band(const mcpi_pde_grid &g, int n, int ld, const double *m,
                                    int s, const mcpi_pde_state &st, double *fac, int *key,
                                    int blocked, int lane)
{
  int k = 2 * st.seg + (s < g.half_steps);
  if (k == *key)
    return blocked;
  int monotone = 0;
  __syncwarp(); /* every lane's reads of the last band's factors done */
  if (lane == 0)
    monotone = mcpi_band_factor(K, n, m, g.exercise == MCPI_EXERCISE_LOW, fac, ld);
  monotone = __shfl_sync(MCPI_FULL_MASK, monotone, 0);
  *key = k;
  __syncwarp();
  return K == 1 && (monotone || !g.exercise);
}

template <int IMPL, int K, int C>
__global__ void __launch_bounds__(PDE_BLOCK) pde_theta(mcpi_pde_view b)
{
  extern __shared__ double smem[];
  const int gi = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  if (gi >= b.ngrids)
    return;
  const mcpi_pde_grid g = b.grid[gi];
  const size_t row = (size_t)gi * b.ld;
  double *sm = smem + (threadIdx.x >> 5) * mcpi_smem_slots(K, C);
  double *v = b.v + row, *r = b.w + row, *fl = b.american ? b.ex + row : NULL;
  double *fac = b.u + (size_t)gi * MCPI_PDE_FACTOR_ROWS(K) * b.ld;
  if (b.staged) { /* a warp a block: the whole march in shared memory, whose
                     latency the solve's chains wait on rather than L2's */
    v = smem;
    r = v + b.ld;
    fl = r + b.ld;
    fac = fl + b.ld;
    sm = smem + staged_doubles(K, b.ld);
  }
  terminal(K, b.n, &b.grid[gi], v, fl, lane);
  const double *ex = g.exercise ? fl : NULL;
  const int rev = g.exercise == MCPI_EXERCISE_LOW;
  mcpi_pde_state st = {g.seg, 0.0, 0.0, 0.0};
  int key = -1, blocked = 0;
  for (int s = 0; s < g.steps; s++) {
    double e[2 * K + 1], m[2 * K + 1], bnd[2 * K];
    mcpi_pde_step(K, &g, b.seg, s, &st, e, m, bnd);
    blocked = band<K>(g, b.n, b.ld, m, s, st, fac, &key, blocked, lane);
    mcpi_sweep<IMPL, K, C>(v, r, b.n, e, NULL, sm);
    if (lane < 2 * K) {
      int j = mcpi_pde_boundary_node(K, b.n, lane);
      double x = pick<K>(bnd, lane);
      r[j] = ex ? mcpi_floor(x, ex[j]) : x;
    }
    __syncwarp();
    if (blocked)
      solve_blocked(b.n, rev, fac, b.ld, r, v, ex, lane);
    else if (lane == 0)
      mcpi_band_substitute(K, b.n, fac, b.ld, rev, r, v, ex);
    __syncwarp();
    if (g.ndiv) {
      dividends(b, &b.grid[gi], s, v, r, ex, lane);
      mcpi_pde_cross(&g, b.div, s, &st);
    }
    record_bound(b, g, s, v, ex, lane);
  }
  if (lane <= 2 * K)
    b.out[(size_t)gi * (2 * K + 1) + lane] = v[g.center - K + lane];
}

/* ---- radius 1 in registers --------------------------------------------------
 * Lane l holds the values of its chunk of sweep positions (mcpi_chunk), LEN
 * of them, x[k] at position p0 + k, node mcpi_sweep_node(p0 + k), from step
 * to step.  Every step runs in registers: the stencil takes the chunk's
 * neighbours from the lanes beside it by shuffles, and the blocked solve's
 * chunk maps and sweeps read the factors and floors from shared memory.
 * Positions before 0 (the first chunks' short part, or a chunk with none
 * from 0 on) run through rows that keep the map (beta 1, inv 0: a = y 0 +
 * a, the empty chunk's (0, 1) forward), so that every lane runs LEN
 * positions without a test; their values go nowhere.  Only cash dividends
 * and bands that are not monotone go through the rows r and v (the staged
 * march's steps).  Shared memory: the three factor rows and the exercise
 * values, each with MARGIN slots on either side for those positions, and
 * r and v. */
#define MARGIN 40 /* >= the positions before 0 a lane reads: at most LEN <= 33 */
#define RESIDENT_DOUBLES(ld) (3 * ((ld) + 2 * MARGIN) + ((ld) + 2 * MARGIN) + 2 * (ld))

/* y[k] = the explicit half at the chunk's positions: the weights e inside,
 * the boundary values bnd at nodes 0 and n - 1 (floored by fl). */
template <int LEN, int FLOOR>
__device__ __forceinline__ void resident_sweep(const double *x, double *y, int n, int rev, int p0,
                                               const double *e, const double *bnd,
                                               const double *fl)
{
  double before = __shfl_up_sync(MCPI_FULL_MASK, x[LEN - 1], 1);
  double after = __shfl_down_sync(MCPI_FULL_MASK, x[0], 1);
  double lo = FLOOR ? mcpi_floor(bnd[0], fl[0]) : bnd[0];
  double hi = FLOOR ? mcpi_floor(bnd[1], fl[n - 1]) : bnd[1];
#pragma unroll
  for (int k = 0; k < LEN; k++) {
    int j = mcpi_sweep_node(n, rev, p0 + k); /* outside [0, n) before position 0 */
    double p = k > 0 ? x[k > 0 ? k - 1 : 0] : before;
    double q = k + 1 < LEN ? x[k + 1 < LEN ? k + 1 : k] : after;
    double w[3] = {rev ? q : p, x[k], rev ? p : q}; /* in node order */
    y[k] = j == 0 ? lo : j == n - 1 ? hi : mcpi_taps(1, e, w);
  }
}

/* The blocked solve (solve_blocked) of the right-hand side y into x; the
 * factor rows F[0 .. 2] and fl indexed by position and node. */
template <int LEN, int FLOOR>
__device__ __forceinline__ void resident_solve(double *x, double *y, int n, int rev, int p0,
                                               const double *F0, const double *F1,
                                               const double *F2, const double *fl, int lane)
{
  double A = 0, B = 1;
#pragma unroll
  for (int k = 0; k < LEN; k++) {
    double beta = F0[p0 + k];
    A = mcpi_fwd_step(y[k], F1[p0 + k], beta, A);
    B = beta * B;
  }
  double yp = scan_forward(A, B, lane);
#pragma unroll
  for (int k = 0; k < LEN; k++)
    y[k] = yp = mcpi_fwd_step(y[k], F1[p0 + k], F0[p0 + k], yp);
  double P = y[LEN - 1], Q = F2[p0 + LEN - 1];
  double M = FLOOR ? fl[mcpi_sweep_node(n, rev, p0 + LEN - 1)] : -1.7976931348623157e308;
#pragma unroll
  for (int k = LEN - 2; k >= 0; k--) {
    double g = F2[p0 + k];
    if (FLOOR)
      M = mcpi_floor(mcpi_back_step(y[k], g, M), fl[mcpi_sweep_node(n, rev, p0 + k)]);
    P = mcpi_back_step(y[k], g, P);
    Q = g * Q;
  }
  double xn = scan_back(P, Q, M, FLOOR, lane);
#pragma unroll
  for (int k = LEN - 1; k >= 0; k--) {
    xn = mcpi_back_step(y[k], F2[p0 + k], xn);
    if (FLOOR)
      xn = mcpi_floor(xn, fl[mcpi_sweep_node(n, rev, p0 + k)]);
    x[k] = xn;
  }
}

/* The chunk's values between registers and the row v (to shared memory:
 * out set), its positions from 0 on. */
template <int LEN>
__device__ __forceinline__ void resident_move(double *x, double *v, int n, int rev, int p0, int out)
{
#pragma unroll
  for (int k = 0; k < LEN; k++)
    if (p0 + k >= 0) {
      int j = mcpi_sweep_node(n, rev, p0 + k);
      if (out)
        v[j] = x[k];
      else
        x[k] = v[j];
    }
  __syncwarp();
}

/* Whether a cash dividend of grid g is paid after step s. */
__device__ __forceinline__ int pays(const mcpi_pde_view &b, const mcpi_pde_grid &g, int s)
{
  for (int k = 0; k < g.ndiv; k++)
    if (b.div[g.div0 + k].step == s)
      return 1;
  return 0;
}

/* Grid gi's march from its values at maturity in v, floored by fl where
 * FLOOR (fac, fl, r: the rows above, fac's with their margins); leaves the
 * values in v. */
template <int LEN, int FLOOR>
__device__ __forceinline__ void resident_march(const mcpi_pde_view &b, int gi, double *fac,
                                               double *fl, double *r, double *v, int lane)
{
  const mcpi_pde_grid g = b.grid[gi];
  const int n = b.n, ld = b.ld, S = ld + 2 * MARGIN, rev = g.exercise == MCPI_EXERCISE_LOW;
  const double *ex = FLOOR ? fl : NULL;
  /* mcpi_chunk's first position, before 0 included; a lane with none from
     0 on runs the LEN identities before 0 */
  const int p0 = max(n - (MCPI_PDE_LANES - lane) * LEN, -LEN);
  double x[LEN], y[LEN];
#pragma unroll
  for (int k = 0; k < LEN; k++)
    x[k] = 0;
  resident_move<LEN>(x, v, n, rev, p0, 0);
  mcpi_pde_state st = {g.seg, 0.0, 0.0, 0.0};
  int key = -1, blocked = 0;
  for (int s = 0; s < g.steps; s++) {
    double e[3], m[3], bnd[2];
    mcpi_pde_step(1, &g, b.seg, s, &st, e, m, bnd);
    blocked = band<1>(g, n, S, m, s, st, fac, &key, blocked, lane);
    resident_sweep<LEN, FLOOR>(x, y, n, rev, p0, e, bnd, fl);
    if (blocked) {
      resident_solve<LEN, FLOOR>(x, y, n, rev, p0, fac, fac + S, fac + 2 * S, fl, lane);
    } else {
      resident_move<LEN>(y, r, n, rev, p0, 1);
      if (lane == 0)
        mcpi_band_substitute(1, n, fac, S, rev, r, v, ex);
      __syncwarp();
      resident_move<LEN>(x, v, n, rev, p0, 0);
    }
    if (g.ndiv && pays(b, g, s)) {
      resident_move<LEN>(x, v, n, rev, p0, 1);
      dividends(b, &b.grid[gi], s, v, r, ex, lane);
      resident_move<LEN>(x, v, n, rev, p0, 0);
    }
    if (g.ndiv)
      mcpi_pde_cross(&g, b.div, s, &st);
    int slot = FLOOR && b.bound ? mcpi_pde_bound_slot(&g, s) : -1;
    if (slot >= 0) { /* the boundary from the registers (record_bound's) */
      int node = mcpi_pde_bound_none(&g, n);
#pragma unroll
      for (int k = 0; k < LEN; k++)
        if (p0 + k >= 0) {
          int j = mcpi_sweep_node(n, rev, p0 + k);
          node = mcpi_pde_bound_at(&g, node, j, x[k], fl[j]);
        }
      put_bound(b, g, slot, node, lane);
    }
  }
  resident_move<LEN>(x, v, n, rev, p0, 1);
}

template <int LEN>
__global__ void __launch_bounds__(32, 1) pde_resident(mcpi_pde_view b)
{
  extern __shared__ double smem[];
  const int gi = blockIdx.x, lane = threadIdx.x, ld = b.ld, S = ld + 2 * MARGIN;
  double *fac = smem + MARGIN, *fl = fac + 3 * S, *r = fl + S - MARGIN, *v = r + ld;
  for (int i = lane; i < MARGIN; i += 32) { /* the identities before position 0 */
    fac[-1 - i] = 1;
    fac[S - 1 - i] = fac[2 * S - 1 - i] = 0;
    fl[-1 - i] = fl[b.n + i] = 0; /* their nodes' floors, finite */
  }
  terminal(1, b.n, &b.grid[gi], v, fl, lane);
  if (b.grid[gi].exercise)
    resident_march<LEN, 1>(b, gi, fac, fl, r, v, lane);
  else
    resident_march<LEN, 0>(b, gi, fac, fl, r, v, lane);
  if (lane <= 2)
    b.out[(size_t)gi * 3 + lane] = v[b.grid[gi].center - 1 + lane];
}

typedef void (*pde_fn)(mcpi_pde_view);

#define BY_C(kern, I, K) {kern<I, K, 1>, kern<I, K, 2>, kern<I, K, 4>, kern<I, K, 8>}
#define BY_K(kern, I) {BY_C(kern, I, 1), BY_C(kern, I, 2)}
#define TABLE(kern) {BY_K(kern, MCPI_ST_REGCACHE), BY_K(kern, MCPI_ST_SMEM), BY_K(kern, MCPI_ST_GLOBAL)}
static const pde_fn explicit_table[3][2][4] = TABLE(pde_explicit);
static const pde_fn theta_table[3][2][4] = TABLE(pde_theta);
/* pde_resident by chunk length (MCPI_PDE_CHUNK_LENGTHS) */
static const int resident_len[] = {MCPI_PDE_CHUNK_LENGTHS};
static const pde_fn resident_table[] = {pde_resident<3>,  pde_resident<5>,  pde_resident<7>,
                                        pde_resident<9>,  pde_resident<13>, pde_resident<17>,
                                        pde_resident<25>, pde_resident<27>, pde_resident<33>};
static_assert(sizeof resident_len / sizeof *resident_len ==
                  sizeof resident_table / sizeof *resident_table,
              "a kernel for each chunk length");

static int log2c(int c) { return c == 8 ? 3 : c == 4 ? 2 : c == 2 ? 1 : 0; }

/* The kernel of a batch and its shared memory; *staged when the march runs
 * in shared memory or registers (no rows in global memory). */
static pde_fn choose(const mcpi_pde_view &b, int explicit_scheme, int stencil, int coarsening,
                     size_t *smem, int *staged)
{
  int K = b.radius, ci = log2c(coarsening), C = 1 << ci, len = mcpi_chunk_len(b.n);
  *staged = 0;
  *smem = stencil == MCPI_ST_SMEM ? (size_t)(PDE_BLOCK / 32) * sizeof(double) *
                                        mcpi_smem_slots(K, C)
                                  : 0;
  if (explicit_scheme)
    return explicit_table[stencil][K - 1][ci];
  int dev = 0, most = 0; /* the device's opt-in shared memory a block */
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    most = 0;
  cudaGetLastError();
  size_t resident = (size_t)RESIDENT_DOUBLES(b.ld) * sizeof(double);
  for (size_t i = 0; i < sizeof resident_len / sizeof *resident_len; i++)
    if (K == 1 && stencil == MCPI_ST_REGCACHE && len == resident_len[i] &&
        resident <= (size_t)most) {
      *staged = 1;
      *smem = resident;
      return resident_table[i];
    }
  size_t bytes = (staged_doubles(K, b.ld) + mcpi_smem_slots(K, C)) * sizeof(double);
  if (bytes <= (size_t)most) {
    *staged = 1;
    *smem = bytes;
  }
  return theta_table[stencil][K - 1][ci];
}

extern "C" int mcpi_pde_staged(mcpi_pde_view b, int explicit_scheme, int stencil, int coarsening)
{
  size_t smem;
  int staged;
  choose(b, explicit_scheme, stencil, coarsening, &smem, &staged);
  return staged;
}

extern "C" cudaError_t mcpi_launch_pde(mcpi_pde_view b, int explicit_scheme, int stencil,
                                       int coarsening, cudaStream_t stream)
{
  if ((b.ld & 1) || b.radius < 1 || b.radius > 2 || (unsigned)stencil > MCPI_ST_GLOBAL)
    return cudaErrorInvalidValue; /* rows must be 16-byte aligned for the paired accesses */
  size_t smem;
  pde_fn kern = choose(b, explicit_scheme, stencil, coarsening, &smem, &b.staged);
  if (b.staged && smem > 48 * 1024) {
    cudaError_t e = cudaFuncSetAttribute((const void *)kern,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (e != cudaSuccess)
      return e;
  }
  if (b.staged) /* a warp a block */
    kern<<<b.ngrids, 32, smem, stream>>>(b);
  else
    kern<<<(b.ngrids + PDE_BLOCK / 32 - 1) / (PDE_BLOCK / 32), PDE_BLOCK, smem, stream>>>(b);
  return cudaGetLastError();
}
