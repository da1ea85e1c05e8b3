/* pde_kernel.cu: the finite-difference grids on the GPU, one warp a grid.
 * Explicit scheme: every step a stencil sweep between the two time levels.
 * Theta scheme: every step the warp sweeps the grid (the explicit half,
 * into the right-hand side), then solves the band with the factors of its
 * segment and step kind (the implicit half): radius 1 by chunks, a lane
 * each, and a scan across the lanes (pde_grid.h, the blocked solve), or,
 * for radius 2 and floored systems whose band is not monotone, lane 0
 * alone.  The arithmetic of a grid is the CPU's, step for step. */
#include "kernels/launch.h"
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
 * dividends after step s: w from v, then back into v (every lane's nodes). */
__device__ void dividends(const mcpi_pde_view &b, const mcpi_pde_grid &g, int s, double *v,
                          double *w, const double *ex, int lane)
{
  for (int k = 0; k < g.ndiv; k++)
    if (b.div[g.div0 + k].step == s) {
      const mcpi_pde_dividend *d = &b.div[g.div0 + k];
      for (int j = lane; j < b.n; j += 32)
        w[j] = mcpi_pde_jump(&g, b.n, v, j, d, ex);
      __syncwarp();
      for (int j = lane; j < b.n; j += 32)
        v[j] = w[j];
      __syncwarp();
    }
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
  double *v = b.v + row, *w = b.w + row;
  const double *ex = g.exercise ? b.ex + row : NULL;
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
      dividends(b, g, s, v, w, ex, lane);
      mcpi_pde_cross(&g, b.div, s, &st);
    }
  }
  if (lane <= 2 * K)
    b.out[(size_t)gi * (2 * K + 1) + lane] = v[g.center - K + lane];
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
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    double Ap = __shfl_up_sync(MCPI_FULL_MASK, A, d), Bp = __shfl_up_sync(MCPI_FULL_MASK, B, d);
    if (lane >= d)
      mcpi_fwd_after(&A, &B, Ap, Bp);
  }
  double y = __shfl_up_sync(MCPI_FULL_MASK, A, 1);
  mcpi_fwd_sweep(n, rev, fac, ld, r, i0, i1, lane ? y : 0);
  __syncwarp();
  double P, Q, M;
  mcpi_back_map(n, rev, fac, ld, r, fl, i0, i1, &P, &Q, &M);
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    double Pn = __shfl_down_sync(MCPI_FULL_MASK, P, d), Qn = __shfl_down_sync(MCPI_FULL_MASK, Q, d),
           Mn = __shfl_down_sync(MCPI_FULL_MASK, M, d);
    if (lane + d < 32)
      mcpi_back_after(&P, &Q, &M, Pn, Qn, Mn, fl != NULL);
  }
  double xb = fl ? mcpi_floor(P, M) : P, xn = __shfl_down_sync(MCPI_FULL_MASK, xb, 1);
  mcpi_back_sweep(n, rev, fac, ld, r, x, fl, i0, i1, lane + 1 < 32 ? xn : 0);
}

/* Doubles of shared memory a warp stages a grid of row stride ld in (the
 * values, the right-hand side, the factors, the exercise values), beside
 * its stencil's slots. */
__host__ __device__ constexpr size_t staged_doubles(int K, int ld, int american)
{
  return (size_t)(2 + MCPI_PDE_FACTOR_ROWS(K) + american) * (size_t)ld;
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
  double *v = b.v + row, *r = b.w + row;
  double *fac = b.u + (size_t)gi * MCPI_PDE_FACTOR_ROWS(K) * b.ld;
  const double *ex = g.exercise ? b.ex + row : NULL;
  if (b.staged) { /* a warp a block: the whole march in shared memory, whose
                     latency the solve's chains wait on rather than L2's */
    double *fl = smem + (size_t)(2 + MCPI_PDE_FACTOR_ROWS(K)) * b.ld;
    for (int j = lane; j < b.n; j += 32) {
      smem[j] = v[j];
      if (ex)
        fl[j] = ex[j];
    }
    v = smem;
    r = v + b.ld;
    fac = r + b.ld;
    ex = ex ? fl : NULL;
    sm = smem + staged_doubles(K, b.ld, b.ex != NULL);
    __syncwarp();
  }
  const int rev = g.exercise == MCPI_EXERCISE_LOW;
  mcpi_pde_state st = {g.seg, 0.0, 0.0, 0.0};
  int key = -1, blocked = 0;
  for (int s = 0; s < g.steps; s++) {
    double e[2 * K + 1], m[2 * K + 1], bnd[2 * K];
    mcpi_pde_step(K, &g, b.seg, s, &st, e, m, bnd);
    int k = 2 * st.seg + (s < g.half_steps);
    if (k != key) { /* a new band: its factors */
      int monotone = 0;
      if (lane == 0)
        monotone = mcpi_band_factor(K, b.n, m, rev, fac, b.ld);
      monotone = __shfl_sync(MCPI_FULL_MASK, monotone, 0);
      blocked = K == 1 && (monotone || !ex);
      key = k;
      __syncwarp();
    }
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
      dividends(b, g, s, v, r, ex, lane);
      mcpi_pde_cross(&g, b.div, s, &st);
    }
  }
  if (lane <= 2 * K)
    b.out[(size_t)gi * (2 * K + 1) + lane] = v[g.center - K + lane];
}

typedef void (*explicit_fn)(mcpi_pde_view);
typedef void (*theta_fn)(mcpi_pde_view);

#define BY_C(kern, I, K) {kern<I, K, 1>, kern<I, K, 2>, kern<I, K, 4>, kern<I, K, 8>}
#define BY_K(kern, I) {BY_C(kern, I, 1), BY_C(kern, I, 2)}
#define TABLE(kern) {BY_K(kern, MCPI_ST_REGCACHE), BY_K(kern, MCPI_ST_SMEM), BY_K(kern, MCPI_ST_GLOBAL)}
static const explicit_fn explicit_table[3][2][4] = TABLE(pde_explicit);
static const theta_fn theta_table[3][2][4] = TABLE(pde_theta);

static int log2c(int c) { return c == 8 ? 3 : c == 4 ? 2 : c == 2 ? 1 : 0; }

extern "C" cudaError_t mcpi_launch_pde(mcpi_pde_view b, int explicit_scheme, int stencil,
                                       int coarsening, cudaStream_t stream)
{
  if ((b.ld & 1) || b.radius < 1 || b.radius > 2 || (unsigned)stencil > MCPI_ST_GLOBAL)
    return cudaErrorInvalidValue; /* rows must be 16-byte aligned for the paired accesses */
  int K = b.radius, ci = log2c(coarsening);
  size_t smem = stencil == MCPI_ST_SMEM ? (size_t)(PDE_BLOCK / 32) * sizeof(double) *
                                              mcpi_smem_slots(K, coarsening)
                                        : 0;
  int blocks = (b.ngrids + PDE_BLOCK / 32 - 1) / (PDE_BLOCK / 32);
  if (explicit_scheme) {
    explicit_table[stencil][K - 1][ci]<<<blocks, PDE_BLOCK, smem, stream>>>(b);
    return cudaGetLastError();
  }
  /* theta: a warp a block with its grid in shared memory where it fits */
  theta_fn kern = theta_table[stencil][K - 1][ci];
  size_t staged = (staged_doubles(K, b.ld, b.ex != NULL) + mcpi_smem_slots(K, coarsening)) *
                  sizeof(double);
  int dev = 0, most = 0; /* the device's opt-in shared memory a block */
  if (cudaGetDevice(&dev) != cudaSuccess ||
      cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    most = 0;
  b.staged = most > 0 && staged <= (size_t)most &&
             (staged <= 48 * 1024 ||
              cudaFuncSetAttribute((const void *)kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   most) == cudaSuccess);
  cudaGetLastError();
  if (b.staged)
    kern<<<b.ngrids, 32, staged, stream>>>(b);
  else
    kern<<<blocks, PDE_BLOCK, smem, stream>>>(b);
  return cudaGetLastError();
}
