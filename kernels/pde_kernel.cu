/* pde_kernel.cu: the finite-difference grids on the GPU.
 * Explicit scheme: one warp a grid, every step a stencil sweep between the
 * two time levels.  Theta scheme: one warp for `per` grids; every step the
 * warp sweeps each of its grids in turn (the explicit half, into the
 * right-hand side), then lane q solves grid q's band (the implicit half, one
 * thread a system, sequential like the CPU's, so that American grids can be
 * projected as they are solved).  The arithmetic of a grid is the CPU's,
 * step for step (pde_grid.h). */
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

template <int IMPL, int K, int C>
__global__ void __launch_bounds__(PDE_BLOCK) pde_theta(mcpi_pde_view b, int per)
{
  extern __shared__ double smem[];
  const int wi = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
  const int g0 = wi * per;
  if (g0 >= b.ngrids)
    return;
  const int cnt = min(per, b.ngrids - g0), mine = lane < cnt;
  double *sm = smem + (threadIdx.x >> 5) * mcpi_smem_slots(K, C);
  const int gi = g0 + (mine ? lane : 0);
  const mcpi_pde_grid g = b.grid[gi];
  const size_t row = (size_t)gi * b.ld;
  double *v = b.v + row, *r = b.w + row, *u = b.u + (size_t)gi * K * b.ld;
  const double *ex = g.exercise ? b.ex + row : NULL;
  mcpi_pde_state st = {g.seg, 0.0, 0.0, 0.0};
  for (int s = 0; s < g.steps; s++) {
    double e[2 * K + 1], m[2 * K + 1], bnd[2 * K];
    mcpi_pde_step(K, &g, b.seg, s, &st, e, m, bnd);
    for (int q = 0; q < cnt; q++) {
      double eq[2 * K + 1];
#pragma unroll
      for (int d = 0; d <= 2 * K; d++)
        eq[d] = __shfl_sync(MCPI_FULL_MASK, e[d], q);
      size_t rq = (size_t)(g0 + q) * b.ld;
      mcpi_sweep<IMPL, K, C>(b.v + rq, b.w + rq, b.n, eq, NULL, sm);
    }
    if (mine)
#pragma unroll
      for (int i = 0; i < 2 * K; i++) {
        int j = mcpi_pde_boundary_node(K, b.n, i);
        r[j] = ex ? mcpi_floor(bnd[i], ex[j]) : bnd[i];
      }
    __syncwarp();
    if (mine)
      mcpi_band_solve(K, b.n, m, r, u, v, ex, g.exercise == MCPI_EXERCISE_LOW);
    __syncwarp();
    for (int q = 0; b.div && q < cnt; q++) { /* each grid's jumps by the warp, r as scratch */
      const mcpi_pde_grid gq = b.grid[g0 + q];
      if (gq.ndiv) {
        size_t rq = (size_t)(g0 + q) * b.ld;
        dividends(b, gq, s, b.v + rq, b.w + rq, gq.exercise ? b.ex + rq : NULL, lane);
      }
    }
    if (mine && g.ndiv)
      mcpi_pde_cross(&g, b.div, s, &st);
  }
  if (mine)
#pragma unroll
    for (int i = 0; i <= 2 * K; i++)
      b.out[(size_t)gi * (2 * K + 1) + i] = v[g.center - K + i];
}

typedef void (*explicit_fn)(mcpi_pde_view);
typedef void (*theta_fn)(mcpi_pde_view, int);

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
  if (explicit_scheme) {
    int blocks = (b.ngrids + PDE_BLOCK / 32 - 1) / (PDE_BLOCK / 32);
    explicit_table[stencil][K - 1][ci]<<<blocks, PDE_BLOCK, smem, stream>>>(b);
  } else {
    /* enough warps to fill the device, as few grids a warp as that allows */
    int dev = 0, sms = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    int per = 1, want = sms * 32;
    while (per < 32 && (b.ngrids + per - 1) / per > want)
      per *= 2;
    int warps = (b.ngrids + per - 1) / per;
    int blocks = (warps + PDE_BLOCK / 32 - 1) / (PDE_BLOCK / 32);
    theta_table[stencil][K - 1][ci]<<<blocks, PDE_BLOCK, smem, stream>>>(b, per);
  }
  return cudaGetLastError();
}
