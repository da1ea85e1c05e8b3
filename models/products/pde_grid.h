/* pde_grid.h: one option's finite-difference grid and the time steps both
 * backends take on it (gcc and nvcc).
 *
 * A grid holds n nodes x_j = x_0 + j h of log-spot; the spot is node
 * `center`.  Marching in time to maturity tau, step s (of `steps`) is a
 * theta step: the explicit half is a stencil application (the weights e)
 * and the implicit half a banded solve (the band m, R sub- and
 * super-diagonals).  The first `half_steps` steps are fully implicit steps
 * of dt / 2 (Rannacher's start), the others steps of dt.  The R nodes at
 * each end hold Dirichlet values alpha S Dq(tau) + beta Dr(tau), with Dr and
 * Dq the discount factors of the rate and the dividend yield over tau.
 * American grids are floored by their exercise values: after the stencil
 * (explicit scheme) or inside the solve (Brennan-Schwartz). */
#ifndef MCP_PDE_GRID_H
#define MCP_PDE_GRID_H

#include <math.h>
#include "models/mcp_hd.h"
#include "models/pde_operator.h"
#include "models/products/pde_terminal.h"

#ifdef __CUDA_ARCH__
#define MCPI_FMA(a, b, c) fma(a, b, c)
#else
#define MCPI_FMA(a, b, c) ((a) * (b) + (c))
#endif

/* Coefficients of steps s < end (and >= the previous segment's end). */
typedef struct mcpi_pde_segment {
  int end;
  double a, mu, c;
} mcpi_pde_segment;

enum { MCPI_EXERCISE_NONE = 0, MCPI_EXERCISE_HIGH, MCPI_EXERCISE_LOW };

/* A cash dividend paid between time steps: after step `step` (marching
 * back from maturity) the values jump across it (mcpi_pde_jump); at_zero is
 * the grid's value just after it at spot 0, where a spot the dividend
 * exceeds is absorbed (the Monte Carlo paths' floor). */
typedef struct mcpi_pde_dividend {
  int step;
  double amount, at_zero;
} mcpi_pde_dividend;

typedef struct mcpi_pde_grid {
  int steps, half_steps;
  int seg;           /* first segment in the batch's table */
  int div0, ndiv;    /* its dividends in the batch's table, by step */
  double x0;         /* node 0's log-spot */
  int center;
  int exercise;      /* MCPI_EXERCISE_*: where an American grid exercises (call: high) */
  /* the exercise boundary's record (mcpi_pde_bound_slot): its first slot in
   * the batch's, or -1 (none), and every how many steps back from today */
  int bound0, bound_every;
  double h, dt, theta;
  double alpha[2], beta[2];                  /* low and high boundaries */
  double spot[2 * MCPI_PDE_MAX_RADIUS];     /* S at the R low, then the R high nodes */
  mcpi_pde_payoff pay;                      /* at maturity (pde_terminal.h) */
} mcpi_pde_grid;

/* A batch of grids of n nodes (row stride ld) sharing the radius R. */
typedef struct mcpi_pde_view {
  int n, ld, radius, ngrids;
  const mcpi_pde_grid *grid;
  const mcpi_pde_segment *seg;
  const mcpi_pde_dividend *div;
  int american;     /* whether any grid exercises */
  /* a grid's rows in global memory, ld each, where they are not staged in
   * shared memory (mcpi_pde_staged): */
  double *v;        /* the values */
  double *w;        /* explicit: the other time level; theta: the right-hand side */
  double *u;        /* theta: the band's factors, MCPI_PDE_FACTOR_ROWS(R) rows */
  double *ex;       /* the exercise values (American grids) */
  double *out;      /* 2 R + 1 values around the center a grid */
  int *bound;       /* the exercise boundaries' nodes (mcpi_pde_bound_slot), or NULL */
  int staged;       /* theta: the march in shared memory (mcpi_launch_pde) */
} mcpi_pde_view;

/* What a step carries to the next: the segment, the integrals of the rate
 * and dividend yield since maturity, and the cash dividends crossed so far
 * (paid between now and maturity), as sum d e^{ir - iq} at their dates:
 * the forward's boundary value S Dq - Dr cash (mcpi_pde_cross). */
typedef struct mcpi_pde_state {
  int seg;
  double ir, iq, cash;
} mcpi_pde_state;

/* Step s of grid g: the explicit weights e, the implicit band m and the
 * boundary values at the step's end, bnd[0 .. R) low and bnd[R .. 2R) high
 * (American: floored by the exercise values fl_lo, fl_hi at those nodes).
 * The asymptote's spot term is the forward less the cash dividends to come,
 * floored at 0 as the spot is: at a low end below them, a put is worth
 * K Dr. */
MCP_HD static inline void mcpi_pde_step(int R, const mcpi_pde_grid *g,
                                        const mcpi_pde_segment *seg, int s, mcpi_pde_state *st,
                                        double *e, double *m, double *bnd)
{
  while (s >= seg[st->seg].end)
    st->seg++;
  const mcpi_pde_segment *k = &seg[st->seg];
  int half = s < g->half_steps;
  double dt = half ? 0.5 * g->dt : g->dt, theta = half ? 1.0 : g->theta;
  double op[MCPI_PDE_MAX_TAPS];
  mcpi_bs_operator(R, k->a, k->mu, k->c, g->h, op);
  mcpi_theta_weights(R, op, theta, dt, e, m);
  st->ir += k->c * dt;
  st->iq += (k->c - k->mu - k->a) * dt;
  double dr = exp(-st->ir), dq = exp(-st->iq);
  MCP_UNROLL
  for (int i = 0; i < 2 * R; i++) {
    int side = i >= R;
    double fwd = g->spot[i] * dq - dr * st->cash;
    bnd[i] = g->alpha[side] * (fwd > 0 ? fwd : 0) + g->beta[side] * dr;
  }
}

/* After step s's jumps: the dividends of grid g paid there are to come from
 * any earlier time (mcpi_pde_state). */
MCP_HD static inline void mcpi_pde_cross(const mcpi_pde_grid *g, const mcpi_pde_dividend *div,
                                         int s, mcpi_pde_state *st)
{
  for (int k = 0; k < g->ndiv; k++)
    if (div[g->div0 + k].step == s)
      st->cash += div[g->div0 + k].amount * exp(st->ir - st->iq);
}

/* Index of boundary value i (of 2R) in a grid of n nodes. */
MCP_HD static inline int mcpi_pde_boundary_node(int R, int n, int i)
{
  return i < R ? i : n - 2 * R + i;
}

/* sum_d e[d] v[d], d = 0 .. 2R, in this order: every stencil implementation
 * calls it on the same values, so all give the same bits. */
MCP_HD static inline double mcpi_taps(int R, const double *e, const double *v)
{
  double acc = e[0] * v[0];
  MCP_UNROLL
  for (int d = 1; d <= 2 * R; d++)
    acc = MCPI_FMA(e[d], v[d], acc);
  return acc;
}

MCP_HD static inline double mcpi_floor(double v, double fl) { return v < fl ? fl : v; }

/* The exercise boundary's record of grid g after step s (its values then
 * at time to maturity ending the step): its slot in the batch's, or -1
 * where not recorded.  Every bound_every-th step back from today is, today
 * first, so that the slots run forward in time. */
MCP_HD static inline int mcpi_pde_bound_slot(const mcpi_pde_grid *g, int s)
{
  int back = g->steps - 1 - s;
  return g->bound0 >= 0 && back % g->bound_every == 0 ? g->bound0 + back / g->bound_every : -1;
}

/* A step's boundary node: the last node exercised (floored to its exercise
 * value, in the money) from the end that exercises, the low one for a put
 * (the highest such node), the high one for a call (the lowest); none:
 * -1 (put) or n (call).  mcpi_pde_bound_none starts it, mcpi_pde_bound_at
 * takes node j, and two partial ones (a warp's lanes) join by max or min. */
MCP_HD static inline int mcpi_pde_bound_none(const mcpi_pde_grid *g, int n)
{
  return g->exercise == MCPI_EXERCISE_LOW ? -1 : n;
}

MCP_HD static inline int mcpi_pde_bound_at(const mcpi_pde_grid *g, int node, int j, double v,
                                           double ex)
{
  if (!(ex > 0 && v == ex))
    return node;
  return g->exercise == MCPI_EXERCISE_LOW ? (j > node ? j : node) : (j < node ? j : node);
}

/* Node j's value at maturity, floored by its exercise value, which goes to
 * *ex (0 where g does not exercise). */
MCP_HD static inline double mcpi_pde_terminal(int R, int n, const mcpi_pde_grid *g, int j,
                                              double *ex)
{
  double x = g->x0 + (double)j * g->h, v;
  int i = j < R ? j : j >= n - R ? j - (n - 2 * R) : -1; /* a boundary value's index */
  if (i >= 0) { /* by selects: an array indexed at run time would keep g in memory */
    double s = g->spot[0];
    MCP_UNROLL
    for (int q = 1; q < 2 * MCPI_PDE_MAX_RADIUS; q++)
      s = i == q ? g->spot[q] : s;
    v = i >= R ? g->alpha[1] * s + g->beta[1] : g->alpha[0] * s + g->beta[0];
  } else {
    v = mcpi_pde_smoothed(&g->pay, x, g->h, R);
  }
  *ex = g->exercise ? mcpi_pde_intrinsic(&g->pay, x) : 0;
  return g->exercise ? mcpi_floor(v, *ex) : v;
}

/* Node j's value just before a cash dividend d from the values v just after
 * it: v at the spot S_j - d (no arbitrage: the holder's spot drops by d),
 * linear in log-spot between nodes; at a spot of at most 0, the value of an
 * absorbed spot, d.at_zero; between 0 and node 0's spot, linear in the spot
 * between the two.  fl: the exercise values (American), or NULL. */
MCP_HD static inline double mcpi_pde_jump(const mcpi_pde_grid *g, int n, const double *v,
                                          int j, const mcpi_pde_dividend *d, const double *fl)
{
  double s = exp(g->x0 + j * g->h) - d->amount, p = s > 0 ? (log(s) - g->x0) / g->h : -1, x;
  if (!(s > 0))
    x = d->at_zero;
  else if (!(p > 0))
    x = d->at_zero + (v[0] - d->at_zero) * (s / exp(g->x0));
  else if (p >= n - 1)
    x = v[n - 1];
  else {
    int i = (int)p;
    x = v[i] + (p - i) * (v[i + 1] - v[i]);
  }
  return fl ? mcpi_floor(x, fl[j]) : x;
}

/* The plain stencil sweep (the CPU's, and the reference of the GPU's):
 * out[j] = taps(in[j - R .. j + R]) for R <= j < n - R, floored by fl. */
static inline void mcpi_stencil_sweep(int R, int n, const double *e, const double *in,
                                      double *out, const double *fl)
{
  for (int j = R; j < n - R; j++) {
    double a = mcpi_taps(R, e, in + j - R);
    out[j] = fl ? mcpi_floor(a, fl[j]) : a;
  }
}

/* The implicit half.  The band m (R sub- and super-diagonals, Toeplitz; the
 * rows of the R nodes at each end identities) changes only with the
 * segment and the step's kind, so it is factored once for them
 * (mcpi_band_factor: Gaussian elimination without pivoting, in sweep order
 * i, node j = i, or n - 1 - i with rev) and each step solves its right-hand
 * side with the factors: forward, y_i = r_i inv_i + sum_k beta_k y_{i-k};
 * back, x_i = y_i + sum_q gamma_q x_{i+q}, floored by fl when given
 * (Brennan-Schwartz: the back-substitution ends on the exercise side, so a
 * put sweeps from high to low index, rev).  A factor table holds
 * MCPI_PDE_FACTOR_ROWS(R) rows of stride ld: beta_1 .. beta_R, inv,
 * gamma_1 .. gamma_R, by sweep position. */
#define MCPI_PDE_FACTOR_ROWS(R) (2 * (R) + 1)

/* Factors m into fac; returns whether every gamma is >= 0 (a monotone band,
 * as central differences give on grids fine enough for the drift), which
 * the blocked solve of floored systems needs (mcpi_back_after). */
MCP_HD static inline int mcpi_band_factor(int R, int n, const double *m, int rev, double *fac,
                                          int ld)
{
  if (R > MCPI_PDE_MAX_RADIUS) /* never (1 or 2): bounds m for the compiler */
    R = MCPI_PDE_MAX_RADIUS;
  double band[MCPI_PDE_MAX_TAPS] = {0}; /* in sweep order: band[R + d] multiplies x[i + d] */
  MCP_UNROLL
  for (int d = 0; d <= 2 * R; d++)
    band[d] = rev ? m[2 * R - d] : m[d];
  double up[MCPI_PDE_MAX_RADIUS][MCPI_PDE_MAX_RADIUS] = {{0}}; /* the last R rows' upper bands */
  int monotone = 1;
  for (int i = 0; i < n; i++) {
    double f[MCPI_PDE_MAX_RADIUS] = {0}, ui[MCPI_PDE_MAX_RADIUS] = {0}, inv = 1;
    if (i >= R && i < n - R) {
      double row[MCPI_PDE_MAX_TAPS] = {0};
      MCP_UNROLL
      for (int d = 0; d <= 2 * R; d++)
        row[d] = band[d];
      /* eliminate x[i - k], k = R .. 1, with the stored row i - k (up[k - 1]) */
      MCP_UNROLL
      for (int k = R; k >= 1; k--) {
        f[k - 1] = row[R - k];
        MCP_UNROLL
        for (int q = 1; q <= R; q++)
          row[R - k + q] -= f[k - 1] * up[k - 1][q - 1];
      }
      inv = 1.0 / row[R];
      MCP_UNROLL
      for (int q = 0; q < R; q++)
        ui[q] = row[R + 1 + q] * inv;
    }
    MCP_UNROLL
    for (int k = R - 1; k >= 1; k--)
      MCP_UNROLL
      for (int q = 0; q < R; q++)
        up[k][q] = up[k - 1][q];
    MCP_UNROLL
    for (int q = 0; q < R; q++) {
      up[0][q] = ui[q];
      fac[(size_t)(R + 1 + q) * ld + i] = -ui[q];
      monotone &= -ui[q] >= 0;
    }
    MCP_UNROLL
    for (int k = 0; k < R; k++)
      fac[(size_t)k * ld + i] = -f[k] * inv;
    fac[(size_t)R * ld + i] = inv;
  }
  return monotone;
}

/* The node of sweep position i. */
MCP_HD static inline int mcpi_sweep_node(int n, int rev, int i) { return rev ? n - 1 - i : i; }

/* The forward and back substitutions in one sweep each: r (overwritten by
 * y) into x. */
MCP_HD static inline void mcpi_band_substitute(int R, int n, const double *fac, int ld, int rev,
                                               double *r, double *x, const double *fl)
{
  double yp[MCPI_PDE_MAX_RADIUS] = {0};
  for (int i = 0; i < n; i++) {
    int j = mcpi_sweep_node(n, rev, i);
    double y = r[j] * fac[(size_t)R * ld + i];
    MCP_UNROLL
    for (int k = R; k >= 1; k--)
      y = y + fac[(size_t)(k - 1) * ld + i] * yp[k - 1];
    MCP_UNROLL
    for (int k = R - 1; k >= 1; k--)
      yp[k] = yp[k - 1];
    yp[0] = y;
    r[j] = y;
  }
  double xn[MCPI_PDE_MAX_RADIUS] = {0}; /* x of the R rows after i, in sweep order */
  for (int i = n - 1; i >= 0; i--) {
    int j = mcpi_sweep_node(n, rev, i);
    double xi = r[j];
    MCP_UNROLL
    for (int q = 0; q < R; q++)
      xi = xi + fac[(size_t)(R + 1 + q) * ld + i] * xn[q];
    if (fl)
      xi = mcpi_floor(xi, fl[j]);
    MCP_UNROLL
    for (int q = R - 1; q >= 1; q--)
      xn[q] = xn[q - 1];
    xn[0] = xi;
    x[j] = xi;
  }
}

/* Factors and solves in one call (u: MCPI_PDE_FACTOR_ROWS(R) n of scratch),
 * for a system that is solved once. */
MCP_HD static inline void mcpi_band_solve(int R, int n, const double *m, double *y, double *u,
                                          double *x, const double *fl, int rev)
{
  mcpi_band_factor(R, n, m, rev, u, n);
  mcpi_band_substitute(R, n, u, n, rev, y, x, fl);
}

/* ---- the blocked solve of radius 1: a warp a system -------------------------
 * The sweep positions fall in MCPI_PDE_LANES chunks of consecutive nodes, a
 * lane each.  Forward, each step y_i = a_i + b_i y_{i-1} is an affine map,
 * and a chunk's composition (A, B) maps the y before it to its last y; a
 * scan of the chunks' maps gives each chunk its y before it, and each lane
 * then sweeps its chunk.  Back, x_i = max(y_i + g_i x_{i+1}, fl_i) is a map
 * max(P + Q x, M), closed under composition while Q >= 0 (monotone bands),
 * swept the other way.  The CPU runs the same chunks and the same scan
 * order (mcpi_band_solve_blocked), so both give the same bits. */
#define MCPI_PDE_LANES 32

/* The chunks' length for a system of n: the least of these that covers it
 * in MCPI_PDE_LANES chunks (the GPU keeps a chunk in registers, a kernel
 * for each), else the least odd one.  Odd: the lanes' strided accesses to
 * shared memory fall in distinct banks. */
#define MCPI_PDE_CHUNK_LENGTHS 3, 5, 7, 9, 13, 17, 25, 27, 33
MCP_HD static inline int mcpi_chunk_len(int n)
{
  const int len[] = {MCPI_PDE_CHUNK_LENGTHS};
  int need = (n + MCPI_PDE_LANES - 1) / MCPI_PDE_LANES;
  for (int i = 0; i < (int)(sizeof len / sizeof len[0]); i++)
    if (len[i] >= need)
      return len[i];
  return need | 1;
}

/* Chunk c of a system of n: the last chunk ends at n, so that the
 * positions the chunks' length leaves over come before position 0 (the
 * first chunks short or empty): a lane keeping whole chunks in registers
 * runs them through identities there (pde_kernel.cu). */
MCP_HD static inline void mcpi_chunk(int n, int c, int *i0, int *i1)
{
  int len = mcpi_chunk_len(n), end = n - (MCPI_PDE_LANES - 1 - c) * len;
  *i0 = end - len > 0 ? end - len : 0;
  *i1 = end > 0 ? end : 0;
}

/* A position's forward step, y from the y before it, and its back step, x
 * from the x after it (before any floor): every form of the solve takes
 * these, in the same order, so all give the same bits. */
MCP_HD static inline double mcpi_fwd_step(double r, double inv, double beta, double y)
{
  return r * inv + beta * y;
}

MCP_HD static inline double mcpi_back_step(double y, double g, double xn) { return y + g * xn; }

/* The forward map of chunk [i0, i1). */
MCP_HD static inline void mcpi_fwd_map(int n, int rev, const double *fac, int ld, const double *r,
                                       int i0, int i1, double *A, double *B)
{
  double a = 0, b = 1;
  for (int i = i0; i < i1; i++) {
    double beta = fac[i];
    a = mcpi_fwd_step(r[mcpi_sweep_node(n, rev, i)], fac[(size_t)ld + i], beta, a);
    b = beta * b;
  }
  *A = a;
  *B = b;
}

/* (A, B) after (Ap, Bp): the map of the earlier chunks, then this one's. */
MCP_HD static inline void mcpi_fwd_after(double *A, double *B, double Ap, double Bp)
{
  *A = *A + *B * Ap;
  *B = *B * Bp;
}

/* The chunk's y from the y before it (r overwritten). */
MCP_HD static inline void mcpi_fwd_sweep(int n, int rev, const double *fac, int ld, double *r,
                                         int i0, int i1, double y)
{
  for (int i = i0; i < i1; i++) {
    int j = mcpi_sweep_node(n, rev, i);
    y = mcpi_fwd_step(r[j], fac[(size_t)ld + i], fac[i], y);
    r[j] = y;
  }
}

/* The back map of chunk [i0, i1), its last position first: (P, Q, M), M
 * unused without floors; an empty chunk's maps anything to 0. */
MCP_HD static inline void mcpi_back_map(int n, int rev, const double *fac, int ld, const double *y,
                                        const double *fl, int i0, int i1, double *P, double *Q,
                                        double *M)
{
  double p = 0, q = 0, mx = -1.7976931348623157e308;
  for (int i = i1 - 1; i >= i0; i--) {
    int j = mcpi_sweep_node(n, rev, i);
    double g = fac[(size_t)2 * ld + i];
    if (i == i1 - 1) {
      p = y[j];
      q = g;
      mx = fl ? fl[j] : mx;
    } else {
      if (fl)
        mx = mcpi_floor(mcpi_back_step(y[j], g, mx), fl[j]);
      p = mcpi_back_step(y[j], g, p);
      q = g * q;
    }
  }
  *P = p;
  *Q = q;
  *M = mx;
}

/* (P, Q, M) after (Pn, Qn, Mn), the map of the later chunks: Q >= 0. */
MCP_HD static inline void mcpi_back_after(double *P, double *Q, double *M, double Pn, double Qn,
                                          double Mn, int floored)
{
  if (floored)
    *M = mcpi_floor(*P + *Q * Mn, *M);
  *P = *P + *Q * Pn;
  *Q = *Q * Qn;
}

/* The chunk's x from the x after it. */
MCP_HD static inline void mcpi_back_sweep(int n, int rev, const double *fac, int ld, const double *y,
                                          double *x, const double *fl, int i0, int i1, double xn)
{
  for (int i = i1 - 1; i >= i0; i--) {
    int j = mcpi_sweep_node(n, rev, i);
    xn = mcpi_back_step(y[j], fac[(size_t)2 * ld + i], xn);
    if (fl)
      xn = mcpi_floor(xn, fl[j]);
    x[j] = xn;
  }
}

/* The blocked solve as the warp runs it, lane by lane (the CPU's). */
static inline void mcpi_band_solve_blocked(int n, int rev, const double *fac, int ld, double *r,
                                           double *x, const double *fl)
{
  enum { L = MCPI_PDE_LANES };
  double A[L], B[L], P[L], Q[L], M[L];
  int i0[L], i1[L];
  for (int c = 0; c < L; c++) {
    mcpi_chunk(n, c, &i0[c], &i1[c]);
    mcpi_fwd_map(n, rev, fac, ld, r, i0[c], i1[c], &A[c], &B[c]);
  }
  for (int d = 1; d < L; d *= 2) /* Hillis-Steele, as the shuffles: from lane c - d */
    for (int c = L - 1; c >= d; c--)
      mcpi_fwd_after(&A[c], &B[c], A[c - d], B[c - d]);
  for (int c = 0; c < L; c++)
    mcpi_fwd_sweep(n, rev, fac, ld, r, i0[c], i1[c], c ? A[c - 1] : 0);
  for (int c = 0; c < L; c++)
    mcpi_back_map(n, rev, fac, ld, r, fl, i0[c], i1[c], &P[c], &Q[c], &M[c]);
  for (int d = 1; d < L; d *= 2) /* from lane c + d */
    for (int c = 0; c + d < L; c++)
      mcpi_back_after(&P[c], &Q[c], &M[c], P[c + d], Q[c + d], M[c + d], fl != NULL);
  for (int c = 0; c < L; c++) {
    double xn = c + 1 < L ? (fl ? mcpi_floor(P[c + 1], M[c + 1]) : P[c + 1]) : 0;
    mcpi_back_sweep(n, rev, fac, ld, r, x, fl, i0[c], i1[c], xn);
  }
}

#endif
