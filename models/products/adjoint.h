/* adjoint.h: bucketed first-order sensitivities by reverse mode along each
 * path, shared by the CPU and GPU backends (gcc and nvcc), in double.
 *
 * A path of a single-asset Black-Scholes or local-volatility job is its
 * elements' steps x' = step(x, a_e, b_e, z_e) (path.h); a trade's payoff
 * reads the path only through its observations (sums, log-sums and extremes
 * of spots at its fixings, the spot at maturity).  Forward, the path runs as
 * for its price and keeps its log-spots and normals, all of them when they
 * fit (at most MCPI_ADJ_FULL elements), else its log-spot every c ~ sqrt(n)
 * elements; then, for each trade, the sweep goes back over the elements,
 * those of a segment recomputed from its checkpoint by the same step (the
 * same bits) when the path was not kept whole, carrying xbar = d payoff /
 * d x:
 *   at a fixing          xbar += the payoff's derivatives in its
 *                        observations (mcpi_payoff_derivative with unit
 *                        directions) times theirs in x (S, 1, and 1 at the
 *                        fixing whose log-spot an extreme holds);
 *   Black-Scholes        x' = x + a + b z: abar = xbar, bbar = xbar z;
 *   local volatility     x' = x + a - s^2 b^2 / 2 + s b z with s the step's
 *                        slice at x, linear between nodes i, i + 1 with
 *                        weight w: sbar = xbar (b z - s b^2) goes to the
 *                        nodes as (1 - w) sbar and w sbar, and
 *                        xbar *= 1 + (ds/dx) (b z - s b^2);
 *   a cash dividend D    x' = log(e^x - D) at a step's end, before its
 *                        fixings: xbar *= 1 + D / S', and D's own column
 *                        gets -xbar / S' (mcpi_adj_cash);
 *   a bridge monitor     a barrier's probability of no crossing, a factor a
 *                        step of x, x' and the step's variance
 *                        (mcpi_adj_bridge): to xbar, to the step's b (or
 *                        its slice) and to x.
 * The host's sparse Jacobians (src/plan/adjoint_plan.c) take each element's
 * abar and bbar, and each slice node's sbar, to the market inputs: the
 * volatility curve's pieces or the local-volatility surface's nodes, and
 * the rate curve's pieces, which also discount the payoff.  What is left in
 * xbar at the start is the delta (times the spot).  Memory a path: its
 * log-spots and normals (or the checkpoints and a segment's), and a
 * surface's two rows of nodes (mcpi_adj_rows); work about two forward paths
 * (three when the path is cut in segments) plus the Jacobians' rows a
 * trade.  Several correlated Black-Scholes assets: mcpi_adj_multi_sweep;
 * one Heston asset: mcpi_adj_heston_sweep; several local-volatility or
 * Heston assets: mcpi_adj_assets_pass. */
#ifndef MCP_ADJOINT_H
#define MCP_ADJOINT_H

#include "models/products/path.h"
#include "models/heston_adjoint.h"
#include "models/rng.h"

/* Checkpoints and a segment's log-spots: jobs of at most MCPI_ADJ_SEG^2
 * elements. */
#define MCPI_ADJ_SEG 128
#define MCPI_ADJ_MAX_ELEMENTS (MCPI_ADJ_SEG * MCPI_ADJ_SEG)
/* A path of at most this many elements is kept whole (log-spots and
 * normals, 8 KB a path): its sweep reads them instead of computing them
 * again, which costs a forward path (its normals, its steps); a longer one
 * keeps checkpoints and recomputes a segment at a time in the same
 * buffers (MCPI_ADJ_FULL >= MCPI_ADJ_SEG). */
#define MCPI_ADJ_FULL 512

/* The segment length for n elements: ceil(sqrt(n)). */
MCP_HD static inline int mcpi_adj_segment(int n)
{
  int c = 1;
  while (c * c < n)
    c++;
  return c;
}

/* Element e's normal: the path's column of the tile (z[e ldz]), or with z
 * NULL the canonical one of the job's sample path (rng.h), the same number. */
MCP_HD static inline double mcpi_adj_normal(const mcpi_job_view *j, const double *z, size_t ldz,
                                            uint64_t path, int e)
{
  if (z)
    return z[(size_t)e * ldz];
  double out[2];
  mcpi_rng_pair(j->seed, (uint64_t)e, path & ~(uint64_t)1, out);
  /* a select: out[path & 1], indexed at run time, kept out in local
   * memory on the GPU */
  return path & 1 ? out[1] : out[0];
}

/* Adds d times the Jacobian's rows off[q] .. off[q + 1] - 1 applied to
 * (abar, bbar) into the trade's block of columns; their sum. */
MCP_HD static inline double mcpi_adj_scatter(const int32_t *off, const mcpi_adj_entry *jac,
                                             size_t q, double abar, double bbar, double d,
                                             double *blk, size_t ldp)
{
  double sum = 0;
  for (int32_t r = off[q]; r < off[q + 1]; r++) {
    double v = jac[r].ja * abar + jac[r].jb * bbar;
    blk[(size_t)jac[r].col * ldp] += d * v;
    sum += v;
  }
  return sum;
}

/* A sweep's running sums into a trade's block, one a kind of element
 * column (volatility piece, rate piece), added to the column, times d, only
 * when the column changes: the columns follow the curves' pieces, which the
 * sweep meets in order.  tot: the kind's total, the sum of its buckets (a
 * column of the block's last ones, mcpi_adj_total: written here, not summed
 * over hundreds of columns afterwards).  A dividend yield's pieces have a
 * run of their own (its first slot), where the block has them (adj_div;
 * a constant in the kernels compiled for each, so that a sweep without
 * them is the code it was). */
typedef struct mcpi_adj_run {
  int32_t col[2];
  double val[2], tot[2];
} mcpi_adj_run;
#define MCPI_ADJ_RUN_INIT {{-1, -1}, {0, 0}, {0, 0}}

/* The block's column of kind k's total of asset i of n (adjoint_plan.c):
 * a vega an asset, a dividend an asset (adj_div), then the rho of them
 * all. */
MCP_HD static inline int mcpi_adj_total(const mcpi_job_view *j, int k, int i)
{
  int n = j->nassets;
  return k == 1 ? j->adj_cols - 1 : j->adj_cols - 1 - (k == 0 ? 1 + j->adj_div : 1) * n + i;
}

/* The block's first column of the Cholesky factor's adjoint (n assets' n
 * factors, or several Heston assets' 2 n). */
MCP_HD static inline int mcpi_adj_factor(const mcpi_job_view *j)
{
  int n = j->nassets * (j->nassets > 1 && j->model == MCPI_MODEL_HESTON ? 2 : 1);
  return mcpi_adj_total(j, 0, 0) - n * (n + 1) / 2;
}

/* (k, 0 or 1, read into scalars and written back by constant indices: a
 * run-time index kept the runs in local memory, on the sweep's path) */
MCP_HD static inline void mcpi_adj_run_put(mcpi_adj_run *r, int k, int32_t col, double v, double d,
                                           double *blk, size_t ldb)
{
  int32_t c = k ? r->col[1] : r->col[0];
  double val = k ? r->val[1] : r->val[0];
  if (c != col) {
    if (c >= 0)
      blk[(size_t)c * ldb] += d * val;
    c = col;
    val = 0;
  }
  val += v;
  if (k) {
    r->col[1] = c, r->val[1] = val;
    r->tot[1] += v;
  } else {
    r->col[0] = c, r->val[0] = val;
    r->tot[0] += v;
  }
}

/* Entry x's v into its run: r's, or a dividend yield's into q's. */
MCP_HD static inline void mcpi_adj_run_add(mcpi_adj_run *r, mcpi_adj_run *q, int div,
                                           const mcpi_adj_entry *x, double v, double d,
                                           double *blk, size_t ldb)
{
  if (div && x->kind == 2)
    mcpi_adj_run_put(q, 0, x->col, v, d, blk, ldb);
  else
    mcpi_adj_run_put(r, x->kind, x->col, v, d, blk, ldb);
}

/* Entry r0 of the Jacobian's, or a zero where the range r0 .. r1 is empty
 * (the array then may be NULL). */
MCP_HD static inline mcpi_adj_entry mcpi_adj_first(const mcpi_job_view *j, int32_t r0,
                                                   int32_t r1)
{
  mcpi_adj_entry none = {0, 0, 0, 0};
  return r0 < r1 ? j->adj[r0] : none;
}

/* Adds d times the runs' open sums and totals of asset i to the block. */
MCP_HD static inline void mcpi_adj_run_flush(const mcpi_job_view *j, const mcpi_adj_run *r,
                                             const mcpi_adj_run *q, int div, int i, double d,
                                             double *blk, size_t ldb)
{
  for (int k = 0; k < 2 + div; k++) {
    const mcpi_adj_run *x = k < 2 ? r : q;
    int s = k < 2 ? k : 0;
    if (x->col[s] >= 0)
      blk[(size_t)x->col[s] * ldb] += d * x->val[s];
    blk[(size_t)mcpi_adj_total(j, k, i) * ldb] += d * x->tot[s];
  }
}

/* The two rows of a local-volatility surface's nodes that the sweep is in
 * (lo and lo + 1, -1 before the first), summed in a buffer of the path's
 * and added to their columns, times d, when the sweep leaves them: the
 * rows a step reads are those about its time, which falls; every path
 * leaves a row at the same step, so the GPU's adds to the columns are
 * coalesced.  Node i of held row k is v[(k ns + i) st]: the CPU's buffer
 * on its stack (st 1), the GPU's in shared memory, the block's threads
 * interleaved (st the block's size: no bank conflict whatever node each
 * thread reads).  Surfaces of at most MCPI_ADJ_ROW_NODES spots (more: each
 * node's add goes to its column). */
#define MCPI_ADJ_ROW_NODES 32
/* A surface given implied volatilities (job adj_q, one asset): the rows
 * are its smiles, a row's nodes the 5 coordinates of a smile (svi.h), and
 * a row left goes to its quotes' columns, each the sum of the row's values
 * times the quote's derivatives of them (dq; quotes qoff[row] ..): a path
 * adds an element's few coordinates where it would add to every quote of
 * two smiles. */
#define MCPI_ADJ_SMILE 5
/* fresh: the block's columns of the nodes still hold the sample's zeros (its
 * first pass, sign 1: path_body.h's), so a row left is stored, not read and
 * added to: no other add reaches a row's columns before the row is left (a
 * step's add to a row above the two held goes to a row left before, or
 * never held), where each row has columns of its own.  The same value as
 * the read's 0 + d x; half the flushes' reads gone. */
typedef struct mcpi_adj_rows {
  int32_t lo, nt, ns, fresh;
  double *v;
  size_t st;
  const double *dq;
  const int32_t *qoff;
} mcpi_adj_rows;

/* The values a path holds of a row, or 0 where it holds none. */
MCP_HD static inline int mcpi_adj_row_width(const mcpi_job_view *j)
{
  return j->model != MCPI_MODEL_LOCAL_VOL ? 0
         : j->adj_q                        ? MCPI_ADJ_SMILE
         : j->lv_n <= MCPI_ADJ_ROW_NODES   ? j->lv_n
                                           : 0;
}

MCP_HD static inline double *mcpi_adj_row(const mcpi_adj_rows *h, int k, int i)
{
  return h->v + (size_t)(k * h->ns + i) * h->st;
}

/* A row's columns are read MCPI_ADJ_FLUSH at a time before any is
 * written: one after another, each add waited on its read. */
#define MCPI_ADJ_FLUSH 4
MCP_HD static inline void mcpi_adj_rows_flush(mcpi_adj_rows *h, int k, double d, double *blk,
                                              size_t ldb, int smiles)
{
  int row = h->lo + k, ns = h->ns, to = row < h->nt && !smiles, read = to && !h->fresh;
  if (smiles && row < h->nt) /* a smile's row: to its quotes */
    for (int q = h->qoff[row]; q < h->qoff[row + 1]; q++) {
      double x = 0;
      for (int i = 0; i < MCPI_ADJ_SMILE; i++)
        x += h->dq[(size_t)q * MCPI_ADJ_SMILE + i] * *mcpi_adj_row(h, k, i);
      blk[(size_t)(1 + q) * ldb] += d * x;
    }
  double *col = to ? blk + (size_t)(1 + row * ns) * ldb : blk;
  for (int i0 = 0; i0 < ns; i0 += MCPI_ADJ_FLUSH) {
    double b[MCPI_ADJ_FLUSH];
    MCP_UNROLL
    for (int q = 0; q < MCPI_ADJ_FLUSH; q++)
      b[q] = read && i0 + q < ns ? col[(size_t)(i0 + q) * ldb] : 0;
    MCP_UNROLL
    for (int q = 0; q < MCPI_ADJ_FLUSH; q++)
      if (i0 + q < ns) {
        double *x = mcpi_adj_row(h, k, i0 + q);
        if (to)
          col[(size_t)(i0 + q) * ldb] = b[q] + d * *x;
        *x = 0;
      }
  }
}

/* The rows held down to row m, where the sweep has come: the rows above
 * m + 1 are done, added to their columns. */
MCP_HD static inline void mcpi_adj_rows_to(mcpi_adj_rows *h, int m, double d, double *blk,
                                           size_t ldb, int smiles)
{
  if (h->lo < 0)
    h->lo = m;
  while (m < h->lo) { /* the upper row is done */
    mcpi_adj_rows_flush(h, 1, d, blk, ldb, smiles);
    for (int k = 0; k < h->ns; k++) {
      *mcpi_adj_row(h, 1, k) = *mcpi_adj_row(h, 0, k);
      *mcpi_adj_row(h, 0, k) = 0;
    }
    h->lo--;
  }
}

MCP_HD static inline void mcpi_adj_rows_add(mcpi_adj_rows *h, const mcpi_adj_entry *x, int i,
                                            double v, double d, double *blk, size_t ldb,
                                            int smiles)
{
  int m = x->kind;
  mcpi_adj_rows_to(h, m, d, blk, ldb, smiles);
  if (m > h->lo + 1 && !smiles) /* a step across more than two rows */
    blk[(size_t)x->col * ldb] += d * v;
  else if (m > h->lo + 1) /* across more than two smiles: to m's quotes */
    for (int q = h->qoff[m]; q < h->qoff[m + 1]; q++)
      blk[(size_t)(1 + q) * ldb] += d * (h->dq[(size_t)q * MCPI_ADJ_SMILE + i] * v);
  else
    *mcpi_adj_row(h, m - h->lo, i) += v;
}

/* A slice node's adjoint v through its Jacobian rows r0 .. r1 - 1, and
 * their shares of the total vega to *tot (a surface's nodes: the rows'
 * own; its quotes': the parallel move of its local volatility, the total
 * the bumps give); smiles: h's rows are smiles (mcpi_adj_rows). */
MCP_HD static inline void mcpi_adj_node_rows(const mcpi_job_view *j, int32_t r0, int32_t r1,
                                             int i, double v, mcpi_adj_rows *h, double d,
                                             double *blk, size_t ldb, double *tot, int smiles)
{
  for (int32_t r = r0; r < r1; r++) {
    double x = j->adj_lv[r].ja * v;
    if (h && h->v) /* a smile's coordinate: the entry's column */
      mcpi_adj_rows_add(h, &j->adj_lv[r], smiles ? j->adj_lv[r].col : i, x, d, blk, ldb, smiles);
    else
      blk[(size_t)j->adj_lv[r].col * ldb] += d * x;
    *tot += j->adj_lv[r].jb * v;
  }
}

/* The same for a node i of the dense rows (adj_lvc: c[0], c[1] its
 * derivatives in the held rows lo and lo + 1): the entries' operations in
 * their order (ja v to the row, jb v to *tot: one derivative, both), none
 * for a zero derivative, which has no entry (0 v would be NaN at an
 * infinite v). */
MCP_HD static inline void mcpi_adj_node_held(mcpi_adj_rows *h, int i, const double *c, double v,
                                             double *tot)
{
  for (int k = 0; k < 2; k++)
    if (c[k] != 0) {
      *mcpi_adj_row(h, k, i) += c[k] * v;
      *tot += c[k] * v;
    }
}

/* The same for slice node q's rows, off[q] .. */
MCP_HD static inline void mcpi_adj_node(const mcpi_job_view *j, size_t q, int i, double v,
                                        mcpi_adj_rows *h, double d, double *blk, size_t ldb,
                                        double *tot)
{
  mcpi_adj_node_rows(j, j->adj_lvoff[q], j->adj_lvoff[q + 1], i, v, h, d, blk, ldb, tot, 0);
}

/* What the sweep reads of element e's slice at log-spot x, loaded an
 * element ahead: x's interval i, the slice's values at max(i, 0) and the
 * next (local_vol.h, name_between), and of those two nodes either the
 * dense rows' first m0 and derivatives c (adj_lvr[e] >= 0), or else the
 * Jacobian's row offsets (off[0] .. off[2]; m0 -1).  The entries were
 * loaded where they were used, one after another (their offsets, then
 * each entry, then its product): a tenth of the kernel's stalls. */
typedef struct mcpi_adj_lv_at {
  int i, m0;
  double lo, hi, c[4];
  int32_t off[3];
} mcpi_adj_lv_at;

MCP_HD static inline mcpi_adj_lv_at mcpi_adj_lv_ahead(const mcpi_job_view *j, int e, double x)
{
  const double *y = j->lv_y, *v = j->lv_vol + (size_t)e * j->lv_n;
  int ns = j->lv_n, i = mcpi_local_vol_at(y, ns, j->lv_idx, j->lv_nb, j->lv_binv, x);
  int at = i < 0 ? 0 : i, up = at + 1 < ns ? at + 1 : at;
  /* (the other path's fields left unset: zeroed, they waited on this
   * path's loads, a scoreboard the two shared) */
  mcpi_adj_lv_at a;
  a.i = i, a.m0 = j->adj_lvr ? j->adj_lvr[e] : -1, a.lo = v[at], a.hi = v[up];
  if (a.m0 >= 0) {
    const double *c = j->adj_lvc + 2 * ((size_t)e * ns + at);
    a.c[0] = c[0], a.c[1] = c[1];
    a.c[2] = up != at ? c[2] : 0, a.c[3] = up != at ? c[3] : 0;
  } else {
    const int32_t *o = j->adj_lvoff + (size_t)e * ns + at;
    a.off[0] = o[0], a.off[1] = o[1], a.off[2] = o[1 + up - at];
  }
  return a;
}

/* The log-spot after element e from x: the model's step, and a cash
 * dividend's drop at its end, as path_body.h takes them (the same
 * operations, so the same bits; one asset of one factor: element e is step
 * e). */
MCP_HD static inline double mcpi_adj_step(const mcpi_job_view *j, int e, double x, double zz,
                                          int events)
{
  double a = j->ca[e], b = j->cb[e];
  if (j->model == MCPI_MODEL_LOCAL_VOL) {
    double s = MCPI_LOCAL_VOL_D(j->lv_y, j->lv_vol + (size_t)e * j->lv_n, j->lv_n, j->lv_idx,
                                j->lv_nb, j->lv_binv, x);
    return MCPI_GBM_STEP(x, a - MCPI_LOCAL_VOL_VAR(s, b) / 2, s * b, zz);
  }
  x = MCPI_GBM_STEP(x, a, b, zz);
  if (events && (j->tag[e] & MCPI_TAG_CASH)) {
    double left = mcpi_dexp(x) - j->cash[e];
    x = left > 0 ? mcpi_dlog(left) : -(double)INFINITY; /* the path body's */
  }
  return x;
}

/* The sweep at element e's cash dividend D, x' = log(e^y - D) with xa = x'
 * and xbar its adjoint: ybar = xbar e^y / e^x' = xbar (1 + D / S'), and
 * Dbar = -xbar / S' to the columns of the dividends paid there (dividend k
 * of the job's at column adj_cash + k, paid at the end of step adj_cstep[k]:
 * *k runs back over them, as the sweep does).  A path the dividend took to
 * 0 (x' = -inf) is 0 whatever moves: no derivative. */
MCP_HD static inline double mcpi_adj_cash(const mcpi_job_view *j, int e, double xa, double xbar,
                                          int *k, double d, double *blk, size_t ldb)
{
  double sx = mcpi_dexp(xa), f = sx > 0 ? xbar / sx : 0;
  for (; *k >= 0 && j->adj_cstep[*k] == e; --*k)
    blk[(size_t)(j->adj_cash + *k) * ldb] += d * -f;
  return sx > 0 ? xbar + j->cash[e] * f : 0;
}

/* A barrier watched on the bridge (trade p's monitor m, at steps up to
 * mon_end[m]) multiplies its probability of no crossing P by each step's
 * f = 1 - e^{-2 d0 d1 / var}, d0 and d1 the distances of the step's start
 * x0 and end x to the barrier (positive on the living side), var the step's
 * diffusion variance.  With pbar = d payoff / d P and P > 0 (else every
 * derivative is 0), the step's factor has adjoint pbar P / f, which goes to
 * x (returned), x0 (*x0bar) and var (*vbar).  Past MCPI_BRIDGE_FAR the
 * factor rounds to 1 and its derivatives to 0. */
MCP_HD static inline double mcpi_adj_bridge(const mcpi_job_view *j, int m, double pp, double x0,
                                            double x, double var, double *x0bar, double *vbar)
{
  double h = j->mon_log_barrier[m], s = j->mon_up[m] ? -1 : 1;
  double d0 = s * (x0 - h), d1 = s * (x - h), y = 2 * d0 * d1 / var;
  *x0bar = *vbar = 0;
  if (!(d0 > 0 && d1 > 0) || y > MCPI_BRIDGE_FAR)
    return 0;
  double e = mcpi_dexp(-y), fbar = pp / (1 - e) * e; /* pbar P / f, times df / dy */
  *x0bar = fbar * 2 * d1 / var * s;
  *vbar = -fbar * y / var;
  return fbar * 2 * d0 / var * s;
}

/* The payoff's derivatives in its observations (o), unit direction by
 * direction: in the schedule's sum, log-sum, extremes and the terminal
 * spot, and pp, pbar P of a barrier's bridge monitor m (mcpi_adj_bridge),
 * or 0 (m < 0). */
typedef struct mcpi_adj_w {
  double pp, ws, wl, wmx, wmn, wt;
} mcpi_adj_w;

MCP_HD static inline mcpi_adj_w mcpi_adj_weights(const mcpi_payoff_spec *p, const mcpi_observed *o,
                                                 int m)
{
  mcpi_adj_w w;
  mcpi_observed u = {0, 0, 0, 0, 0, 1};
  w.pp = m >= 0 && o->survival > 0 ? mcpi_payoff_derivative(p, o, &u) * o->survival : 0;
  u.survival = 0, u.sum = 1;
  w.ws = mcpi_payoff_derivative(p, o, &u);
  u.sum = 0, u.log_sum = 1;
  w.wl = mcpi_payoff_derivative(p, o, &u);
  u.log_sum = 0, u.log_max = 1;
  w.wmx = mcpi_payoff_derivative(p, o, &u);
  u.log_max = 0, u.log_min = 1;
  w.wmn = mcpi_payoff_derivative(p, o, &u);
  u.log_min = 0, u.terminal = 1;
  w.wt = mcpi_payoff_derivative(p, o, &u);
  return w;
}

/* xbar after the fixings of an element of tag tag, the log-spot xa after
 * it, for the trade's schedule ks and terminal kt: a schedule's extreme is
 * the fixing whose log-spot it holds (the same bits), the latest if
 * several (its weight then spent), or else the path's start. */
MCP_HD static inline double mcpi_adj_fixings(uint32_t tag, int ks, int kt, double xa,
                                             const mcpi_observed *o, mcpi_adj_w *w, double xbar)
{
  uint32_t mask = tag & MCPI_TAG_LAST ? tag & MCPI_TAG_MASK : 0;
  if (mask >> ks & 1u) {
    xbar += w->ws * mcpi_dexp(xa) + w->wl;
    if (w->wmx != 0 && xa == o->log_max) {
      xbar += w->wmx;
      w->wmx = 0;
    }
    if (w->wmn != 0 && xa == o->log_min) {
      xbar += w->wmn;
      w->wmn = 0;
    }
  }
  if (mask >> kt & 1u)
    xbar += w->wt * mcpi_dexp(xa);
  return xbar;
}

/* One trade's backward sweep on a pass's path of sign sign (1 on a
 * sample's first pass, whose block still holds its zeros; o its
 * observations): kept whole in xs (n + 1 log-spots) and zs (n signed
 * normals) when c = n, else its log-spot checkpoints ck, every c elements,
 * and xs and zs a segment's buffers; adding d times its sensitivities to
 * its block blk (stride ldb); rowbuf (stride rowst) holds 2
 * MCPI_ADJ_ROW_NODES values for a surface's rows, or is NULL; smiles: the
 * job's rows are an implied surface's smiles (j->adj_q); its fixings as
 * mcpi_adj_fixings takes them. */
MCP_HD static inline void mcpi_adj_sweep(const mcpi_job_view *j, const mcpi_payoff_spec *p,
                                         double sign, const double *z, size_t ldz,
                                         uint64_t path, const double *ck, int c, double *xs,
                                         double *zs, const mcpi_observed *o, double d,
                                         double *blk, size_t ldb, double *rowbuf, size_t rowst,
                                         int div, int smiles, int events, int lv)
{
  int m = events && p->product == MCP_PRODUCT_BARRIER ? p->monitor : -1;
  mcpi_adj_w w = mcpi_adj_weights(p, o, m);
  double pp = w.pp;
  int n = j->nelem, ks = p->schedule, kt = p->terminal;
  double xbar = 0;
  int kc = j->adj_ncash - 1; /* the last cash dividend's column */
  mcpi_adj_run run = MCPI_ADJ_RUN_INIT, qrun = MCPI_ADJ_RUN_INIT;
  /* (h->v NULL where no rows are held; h never NULL, so that the rows'
   * fields stay in registers) */
  mcpi_adj_rows rows = {-1, 0, smiles ? MCPI_ADJ_SMILE : j->lv_n, 0, NULL, rowst,
                        smiles ? j->adj_dq : NULL, smiles ? j->adj_qoff : NULL},
                *h = &rows;
  if (rowbuf && (smiles || (lv && j->lv_n <= MCPI_ADJ_ROW_NODES))) {
    h->v = rowbuf;
    h->nt = smiles ? j->adj_q : j->adj_nv / j->lv_n;
    /* fresh where a row's columns are its nodes' own: not a one-spot
     * surface's vega without buckets, one column that every row adds to */
    h->fresh = sign > 0 && h->nt > 1;
    for (int i = 0; i < 2 * h->ns; i++)
      *mcpi_adj_row(h, 0, i) = 0;
  }
  for (int s = (n - 1) / c; s >= 0; s--) {
    int e0 = s * c, e1 = e0 + c < n ? e0 + c : n;
    double x = c < n ? ck[s] : 0; /* the segment again */
    for (int e = e0; e < e1 && c < n; e++) {
      xs[e - e0] = x;
      zs[e - e0] = sign * mcpi_adj_normal(j, z, ldz, path, e);
      x = mcpi_adj_step(j, e, x, zs[e - e0], events);
    }
    if (c < n)
      xs[e1 - e0] = x;
    /* each element's loads (its normal, tag and coefficient, what it
     * reads of its slice, its Jacobian's offsets and first entry) an
     * element ahead, its log-spot two: a rolling prefetch; on the GPU the
     * path's buffers are in local memory, beyond L1, and the step waited on
     * them and on the Jacobian's offsets, then its entry (3.3% of the
     * local-volatility kernel's stalls) */
    int32_t r1_n = j->adj_off[e1], r0_n = j->adj_off[e1 - 1];
    mcpi_adj_entry a_n = mcpi_adj_first(j, r0_n, r1_n);
    uint32_t tag_n = j->tag[e1 - 1];
    double x_n = xs[e1 - 1 - e0], z_n = zs[e1 - 1 - e0], b_n = j->cb[e1 - 1], xa = xs[e1 - e0];
    double x_nn = xs[(e1 - 2 >= e0 ? e1 - 2 : e0) - e0];
    mcpi_adj_lv_at lv_n = {0, -1, 0, 0, {0, 0, 0, 0}, {0, 0, 0}};
    if (lv)
      lv_n = mcpi_adj_lv_ahead(j, e1 - 1, x_n);
    for (int e = e1 - 1; e >= e0; e--) {
      uint32_t tag = tag_n;
      double zz = z_n, b = b_n;
      mcpi_adj_lv_at sl = lv_n;
      x = x_n;
      /* not under a branch (the last element's loads clamped to the
       * segment's first, read again and unused): the branch's merge copied
       * each value as its load arrived, the sweep waiting on the copy of
       * x_nn, a twelfth of its stalls */
      int pe = e > e0 ? e - 1 : e0, qe = e - 2 >= e0 ? e - 2 : e0;
      int32_t r0 = r0_n, r1 = r1_n; /* e's entries: [adj_off[e], adj_off[e + 1]) */
      mcpi_adj_entry a0 = a_n;
      r1_n = r0; /* (pe = e0 at the segment's start: unused) */
      r0_n = j->adj_off[pe];
      a_n = mcpi_adj_first(j, r0_n, r1_n);
      tag_n = j->tag[pe];
      z_n = zs[pe - e0];
      b_n = j->cb[pe];
      x_n = x_nn;
      if (lv)
        lv_n = mcpi_adj_lv_ahead(j, pe, x_n);
      x_nn = xs[qe - e0];
      xbar = mcpi_adj_fixings(tag, ks, kt, xa, o, &w, xbar);
      if (events && (tag & MCPI_TAG_CASH)) /* the fixings saw the spot after the drop */
        xbar = mcpi_adj_cash(j, e, xa, xbar, &kc, d, blk, ldb);
      double x0bar = 0, vbar = 0; /* a bridge monitor's, in x and the step's variance */
      int watched = events && pp != 0 && e <= j->mon_end[m];
      if (watched) /* var = b^2 (Black-Scholes), s^2 b^2 (s the slice's value at x) */
        xbar += mcpi_adj_bridge(
            j, m, pp, x, xa,
            lv ? MCPI_LOCAL_VOL_VAR(mcpi_local_vol_between(j->lv_y, sl.lo, sl.hi, j->lv_n, sl.i, x),
                                    b)
               : b * b,
            &x0bar, &vbar);
      double bbar = xbar * zz, move = 1; /* d x' / d x */
      if (watched)
        bbar += 2 * b * vbar;
      if (lv) {
        const double *y = j->lv_y;
        int ns = j->lv_n, i = sl.i;
        double sv = mcpi_local_vol_between(y, sl.lo, sl.hi, ns, i, x);
        double g = b * zz - sv * b * b, sbar = xbar * g, w = 0, slope = 0; /* g: d x' / d s */
        if (i >= 0 && i < ns - 1) {
          w = (x - y[i]) / (y[i + 1] - y[i]);
          slope = (sl.hi - sl.lo) / (y[i + 1] - y[i]);
        }
        if (watched) { /* var's adjoint through s: to the nodes, and to x by the slope */
          double sx = 2 * sv * b * b * vbar;
          sbar += sx;
          x0bar += slope * sx;
        }
        int at = i < 0 ? 0 : i;
        if (sl.m0 >= 0) { /* the dense rows (held: the backends give the rows) */
          mcpi_adj_rows_to(h, sl.m0, d, blk, ldb, 0);
          mcpi_adj_node_held(h, at, sl.c, (1 - w) * sbar, &run.tot[0]);
          if (w != 0)
            mcpi_adj_node_held(h, at + 1, sl.c + 2, w * sbar, &run.tot[0]);
        } else {
          mcpi_adj_node_rows(j, sl.off[0], sl.off[1], at, (1 - w) * sbar, h, d, blk, ldb,
                             &run.tot[0], smiles);
          if (w != 0)
            mcpi_adj_node_rows(j, sl.off[1], sl.off[2], at + 1, w * sbar, h, d, blk, ldb,
                               &run.tot[0], smiles);
        }
        bbar = 0; /* b = sqrt(dt): no input */
        move = 1 + slope * g;
      }
      for (int32_t r = r0; r < r1; r++) {
        mcpi_adj_entry q = r == r0 ? a0 : j->adj[r];
        mcpi_adj_run_add(&run, &qrun, div, &q, q.ja * xbar + q.jb * bbar, d, blk, ldb);
      }
      xbar *= move;
      if (watched)
        xbar += x0bar;
      xa = x; /* the earlier element's x' */
    }
  }
  mcpi_adj_run_flush(j, &run, &qrun, div, 0, d, blk, ldb);
  for (int k = 0; h->v && h->lo >= 0 && k < 2; k++)
    mcpi_adj_rows_flush(h, k, d, blk, ldb, smiles);
  blk[0] += d * (xbar + w.wmx + w.wmn) / mcpi_dexp(j->log_spot); /* extremes at the start */
}

/* ---- one Heston asset ---------------------------------------------------------
 * Step s of the path is elements 2s (the variance's normal zv, the step's
 * drift and dt) and 2s + 1 (the spot's zx, E = e^{-kappa dt}, and the step
 * itself, heston.h), its fixings at its end.  The pass keeps each step's
 * start, x at xs[2s] and v at xs[2s + 1], and its signed normals, whole when
 * c = n, else from checkpoints of x (ck) and v (cv) every c elements (c
 * even) a segment at a time, computed again by the same step (the same
 * bits).  Going back, each step's drift has adjoint xbar (its element's
 * Jacobian rows: the rate and dividend curves' pieces), and
 * mcpi_heston_back carries xbar and vbar to the step's start and to the
 * parameters: the block's vega buckets are the parameters' derivatives
 * (v0, kappa, theta, xi, rho: v0's is vbar at the start) and the trade's
 * vega that of the roots of v0 and theta shifted together, 2 sqrt(v0)
 * d/dv0 + 2 sqrt(theta) d/dtheta (the bumps' vega, src/inputs/shift.c). */
#define MCPI_ADJ_HESTON 3 /* mcpi_adjoint_kind's */

/* The segment of n elements: ceil(sqrt(n)), even (whole steps). */
MCP_HD static inline int mcpi_adj_heston_segment(int n)
{
  int c = mcpi_adj_segment(n);
  return c + (c & 1);
}

/* One trade's sweep on a pass's Heston path, as mcpi_adj_sweep's; vlast:
 * its variance at the end.  A barrier's bridge over step s reads its
 * diffusion variance (v + v') dt / 2 (QE) or v+ dt (Euler), heston.h's var:
 * its adjoint goes to v' before the step's reverse and to v after it. */
MCP_HD static inline void mcpi_adj_heston_sweep(const mcpi_job_view *j, const mcpi_payoff_spec *p,
                                                double sign, const double *z, size_t ldz,
                                                uint64_t path, const double *ck, const double *cv,
                                                double vlast, int c, double *xs, double *zs,
                                                const mcpi_observed *o, double d, double *blk,
                                                size_t ldb, int div, int events)
{
  int m = events && p->product == MCP_PRODUCT_BARRIER ? p->monitor : -1;
  mcpi_adj_w w = mcpi_adj_weights(p, o, m);
  const mcpi_heston *h = &j->heston[0];
  const int qe = j->scheme != MCP_HESTON_EULER;
  int n = j->nelem, ks = p->schedule, kt = p->terminal;
  double xbar = 0, vbar = 0;
  mcpi_heston_bar g = {0, 0, 0, 0, 0, 0, 0, 0};
  mcpi_adj_run run = MCPI_ADJ_RUN_INIT, qrun = MCPI_ADJ_RUN_INIT;
  for (int sg = (n - 1) / c; sg >= 0; sg--) {
    int e0 = sg * c, e1 = e0 + c < n ? e0 + c : n;
    double vend = e1 < n ? cv[sg + 1] : vlast; /* v at the segment's end */
    if (c < n) { /* the segment again */
      double x = ck[sg], v = cv[sg], var;
      for (int e = e0; e < e1; e += 2) {
        double *zz = zs + (e - e0);
        xs[e - e0] = x;
        xs[e + 1 - e0] = v;
        zz[0] = sign * mcpi_adj_normal(j, z, ldz, path, e);
        zz[1] = sign * mcpi_adj_normal(j, z, ldz, path, e + 1);
        mcpi_heston_step(&x, &v, &var, h, j->scheme, j->ca[e], j->cb[e], j->ca[e + 1], zz[0],
                         zz[1]);
      }
      xs[e1 - e0] = x;
    }
    for (int e = e1 - 2; e >= e0; e -= 2) { /* step e / 2 */
      double v = xs[e + 1 - e0], vn = e + 2 < e1 ? xs[e + 3 - e0] : vend, dt = j->cb[e];
      xbar = mcpi_adj_fixings(j->tag[e + 1], ks, kt, xs[e + 2 - e0], o, &w, xbar);
      double x0bar = 0, varbar = 0; /* the bridge's, in x and var */
      if (w.pp != 0 && e / 2 <= j->mon_end[m]) {
        double var = qe ? 0.5 * (v + vn) * dt : (v > 0 ? v : 0) * dt;
        xbar += mcpi_adj_bridge(j, m, w.pp, xs[e - e0], xs[e + 2 - e0], var, &x0bar, &varbar);
        if (qe)
          vbar += 0.5 * dt * varbar;
      }
      for (int32_t r = j->adj_off[e]; r < j->adj_off[e + 1]; r++) /* the drift's */
        mcpi_adj_run_add(&run, &qrun, div, &j->adj[r], j->adj[r].ja * xbar, d, blk, ldb);
      mcpi_heston_back(h, j->scheme, v, vn, dt, j->ca[e + 1], zs[e - e0], zs[e + 1 - e0], xbar,
                       &vbar, &g, NULL);
      vbar += (qe ? 0.5 : v > 0 ? 1 : 0) * dt * varbar;
      xbar += x0bar;
    }
  }
  mcpi_heston_bar_params(h, &g);
  const double pbar[5] = {vbar, g.kappa, g.theta, g.xi, g.rho};
  for (int k = 0; k < 5; k++)
    blk[(size_t)(1 + k) * ldb] += d * pbar[k];
  mcpi_adj_run_flush(j, &run, &qrun, div, 0, d, blk, ldb);
  blk[(size_t)mcpi_adj_total(j, 0, 0) * ldb] +=
      d * (2 * sqrt(h->v0) * vbar + 2 * sqrt(h->theta) * g.theta);
  blk[0] += d * (xbar + w.wmx + w.wmn) / mcpi_dexp(j->log_spot);
}

/* A pass of the path in family S (the general double state): the prices
 * and on-path deltas and gammas of path_finish, then each trade's sweep
 * into its block.  (A job with blocks has no on-path vega or rho, the _g
 * body's: variants.c bumps its other trades'; the kernel takes half the
 * registers without that body's copy of the loop.) */
#define MCPI_ADJ_PASS(S)                                                                     \
  do {                                                                                       \
    mcpi_path_state##S st;                                                                   \
    mcpi_path_init##S(&st, j, pass);                                                         \
    for (int e = 0; e < n; e++) {                                                            \
      double zn = mcpi_adj_normal(j, z, ldz, path, e);                                       \
      if (c == n) { /* the path kept whole (Heston: x and v at a step's start) */            \
        xs[e] = heston && (e & 1) ? st.v : st.x;                                             \
        zs[e] = st.sign * zn;                                                                \
      } else if (e % c == 0) {                                                               \
        ck[e / c] = st.x;                                                                    \
        if (heston)                                                                          \
          cv[e / c] = st.v;                                                                  \
      }                                                                                      \
      mcpi_path_step##S(&st, j, zn, j->ca[e], j->cb[e], j->tag[e]);                          \
    }                                                                                        \
    if (c == n)                                                                              \
      xs[n] = st.x;                                                                          \
    mcpi_path_finish##S(&st, j, pay, ldp, pass);                                             \
    for (int t = 0; t < j->ntrades; t++) {                                                   \
      const mcpi_payoff_spec *p = &j->trades[t];                                             \
      if (p->g_adj < 0)                                                                      \
        continue;                                                                            \
      mcpi_observed o;                                                                       \
      mcpi_path_observed##S(&st, p, &o);                                                     \
      double d = half * p->discount, *b = blk + (size_t)(p->g_adj - g0) * ldb;               \
      if (heston)                                                                            \
        mcpi_adj_heston_sweep(j, p, st.sign, z, ldz, path, ck, cv, st.v, c, xs, zs, &o, d, b, \
                              ldb, div, events);                                             \
      else                                                                                   \
        mcpi_adj_sweep(j, p, st.sign, z, ldz, path, ck, c, xs, zs, &o, d, b, ldb, rowbuf,     \
                       rowst, div, smiles, events, lv);                                      \
      /* the discount's rates, and their total */                                            \
      b[(size_t)(j->adj_cols - 1) * ldb] +=                                                   \
          d * mcpi_adj_scatter(j->adj_doff, j->adj_d, (size_t)t, mcpi_payoff(p, &o), 0, d, b,  \
                               ldb);                                                         \
    }                                                                                        \
  } while (0)

/* ---- several correlated Black-Scholes assets --------------------------------
 * Asset i ends at x_i(T) = x_i(0) + sum over steps s of a_is + b_is w_is,
 * w_is = sum_{k <= i} L_ik z_ks (path_body.h, the multi state), and its
 * trades read x(T) alone: xbar_i = d payoff / d x_i(T) holds along the
 * path.  An element's adjoints are then abar = xbar_i and bbar = xbar_i
 * w_is, through its Jacobian's rows to the asset's buckets, and the
 * Cholesky factor's Lbar_ik = xbar_i sum_s b_is z_ks, whose products with
 * the factor's derivatives in each correlation are the correlations
 * (variants.c).  The sweep runs forward, the normals again from the tile or
 * the job's stream; it keeps no path. */
#define MCPI_ADJ_TRI (MCP_MAX_ASSETS * (MCP_MAX_ASSETS + 1) / 2)

/* Longstaff-Schwartz (j->lsm, the rule the fit left, frozen; a job of one
 * trade, trades[0], and its European held, flagged MCPI_LSM_HELD: plan.h):
 * at exercise date ex->e, a path at log-spots x (an array of
 * MCP_MAX_ASSETS, read at compile-time indices; sp its spots, e^x by
 * mcpi_dexp) not yet exercised decides as its price's path does
 * (path_body.h, mcpi_multi_exercise: the same operations, so the same
 * date), and the held European exercises at the last date where in the
 * money.  Returns which exercised here (bit k of k = 0 the trade, 1 the
 * held), each exercise's step, date, discount factor and exercise value in
 * ex; the held's never where its sweep is off (j->adj_held_off: its block
 * stays 0, as a path's never exercised; mcpi_adj_exercise_held keeps it
 * where asked, for the lanes' price, whose held European pays, and a
 * sweep's start then says tau[1] -1).  The sweep of each starts at its
 * step with the exercise value's derivatives (mcpi_lsm_exercise_dx): the
 * pathwise Greeks of the frozen rule, whose own moves change the price at
 * second order only (the rule is optimal where the fit is), as the bumped
 * revaluations have it (a Greek's revaluation keeps the rule: lsm_plan.c). */
typedef struct mcpi_adj_ex {
  int e, tau[2], date[2]; /* the next date; each exercise's step (-1: none yet), date */
  double df[2], h[2];
} mcpi_adj_ex;
#define MCPI_ADJ_EX_INIT {0, {-1, -1}, {-1, -1}, {0, 0}, {0, 0}}

/* The exercise value *hv at the date of row of a path at log-spots x (sp
 * its spots) of the job's n assets, and, open (not exercised yet), whether
 * the trade exercises there: every decision's operations, the price's as
 * the sweeps'.  (n is the job's; a kernel passes it bounded by a constant,
 * so that its arrays past the bound fold away.) */
MCP_HD static inline int mcpi_adj_decides(const mcpi_job_view *j, int n, const double *row,
                                          const double *x, const double *sp, int open, double *hv)
{
  const mcpi_payoff_spec *p = &j->trades[0];
  double r[MCP_MAX_ASSETS], under, value;
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++)
    r[i] = x[i] - p->log_initial[i];
  *hv = mcpi_lsm_exercise(p, sp, n, &under);
  return open && mcpi_lsm_exercises(row, *hv, mcpi_lsm_continuation(p, row, *hv, n, 0, under, r, 0),
                                    &value);
}

/* (swept: whether the held's exercise is kept: its sweep's, or a price's
 * whose held European pays, 1) */
MCP_HD static inline int mcpi_adj_exercise_held(const mcpi_job_view *j, const double *x,
                                                const double *sp, int s, mcpi_adj_ex *ex,
                                                int swept)
{
  const double *row = j->lsm + (size_t)ex->e++ * MCPI_LSM_ROW;
  int held = row[1] == MCPI_LSM_ALWAYS && swept; /* its date */
  if (ex->tau[0] >= 0 && !held)
    return 0;
  double hv;
  int now = mcpi_adj_decides(j, j->nassets, row, x, sp, ex->tau[0] < 0, &hv);
  now |= held && hv > 0 ? 2 : 0;
  for (int k = 0; k < 2; k++)
    if (now >> k & 1) {
      ex->tau[k] = s;
      ex->date[k] = ex->e - 1;
      ex->df[k] = row[0];
      ex->h[k] = hv;
    }
  return now;
}

MCP_HD static inline int mcpi_adj_exercise(const mcpi_job_view *j, const double *x,
                                           const double *sp, int s, mcpi_adj_ex *ex)
{
  return mcpi_adj_exercise_held(j, x, sp, s, ex, !j->adj_held_off);
}

/* An mcpi_adj_ex as MCPI_ADJ_EX_FIELDS numbers at[f ld] (a column of a
 * path's fields), and back. */
#define MCPI_ADJ_EX_FIELDS 9
MCP_HD static inline void mcpi_adj_ex_put(double *at, size_t ld, const mcpi_adj_ex *ex)
{
  at[0] = (double)ex->e;
  for (int k = 0; k < 2; k++) {
    at[(1 + k) * ld] = (double)ex->tau[k];
    at[(3 + k) * ld] = (double)ex->date[k];
    at[(5 + k) * ld] = ex->df[k];
    at[(7 + k) * ld] = ex->h[k];
  }
}

MCP_HD static inline void mcpi_adj_ex_get(const double *at, size_t ld, mcpi_adj_ex *ex)
{
  ex->e = (int)at[0];
  for (int k = 0; k < 2; k++) {
    ex->tau[k] = (int)at[(1 + k) * ld];
    ex->date[k] = (int)at[(3 + k) * ld];
    ex->df[k] = at[(5 + k) * ld];
    ex->h[k] = at[(7 + k) * ld];
  }
}

/* mcpi_adj_exercise on a path whose assets are all at hand (the CPU's and
 * the one-thread sweeps'): its spots at log-spots x into sp, and each
 * exercise made here its derivatives in the n log-spots into xe[k]. */
MCP_HD static inline void mcpi_adj_exercise_all(const mcpi_job_view *j, const double *x, int s,
                                                mcpi_adj_ex *ex, double *sp,
                                                double (*xe)[MCP_MAX_ASSETS])
{
  int n = j->nassets;
  for (int i = 0; i < MCP_MAX_ASSETS; i++)
    sp[i] = i < n ? mcpi_dexp(x[i]) : 0;
  int now = mcpi_adj_exercise(j, x, sp, s, ex);
  for (int k = 0; k < 2; k++)
    for (int i = 0; now >> k & 1 && i < n; i++)
      xe[k][i] = mcpi_lsm_exercise_dx(&j->trades[0], sp, n, ex->h[k], i);
}

/* Which of an early exercise's (mcpi_adj_ex's k) trade t's sweep follows. */
MCP_HD static inline int mcpi_adj_ex_of(const mcpi_job_view *j, int t)
{
  return (j->trades[t].flags & MCPI_LSM_HELD) != 0;
}

/* Whether step s of a job of nf elements a step ends on an exercise date. */
MCP_HD static inline int mcpi_adj_exercise_date(const mcpi_job_view *j, int s, int nf)
{
  return j->lsm && (j->tag[(size_t)(s + 1) * nf - 1] & j->lsm_mask);
}

/* One multi-asset trade's sweep on a pass's path of sign sign over its
 * first nel elements, xb its payoff's derivatives in the log-spots there
 * (the terminal ones', or an exercise's), adding d times its sensitivities
 * to its block: a delta an asset, the buckets, then Lbar's lower triangle
 * row by row (mcpi_adj_factor) and the totals (mcpi_adj_total). */
MCP_HD static inline void mcpi_adj_multi_sweep(const mcpi_job_view *j, double sign,
                                               const double *z, size_t ldz, uint64_t path,
                                               int nel, const double *xb, double d, double *blk,
                                               size_t ldb, int div)
{
  int n = j->nassets, tri = n * (n + 1) / 2, lb = mcpi_adj_factor(j);
  double xbar[MCP_MAX_ASSETS], zs[MCP_MAX_ASSETS], dl[MCPI_ADJ_TRI];
  mcpi_adj_run run[MCP_MAX_ASSETS], qrun[MCP_MAX_ASSETS]; /* an asset's pieces, in order */
  for (int i = 0; i < n; i++) {
    xbar[i] = xb[i];
    run[i] = (mcpi_adj_run)MCPI_ADJ_RUN_INIT;
    if (div)
      qrun[i] = run[i];
  }
  for (int q = 0; q < tri; q++)
    dl[q] = 0;
  const double *l = j->chol;
  for (int e0 = 0; e0 < nel; e0 += n) { /* a step's elements: one an asset */
    for (int f = 0; f < n; f++)
      zs[f] = sign * mcpi_adj_normal(j, z, ldz, path, e0 + f);
    for (int i = 0, q = 0; i < n; i++) {
      double b = j->cb[e0 + i], w = 0;
      for (int k = 0; k <= i; k++, q++) {
        w += l[i * MCPI_MAX_FACTORS + k] * zs[k];
        dl[q] += b * zs[k];
      }
      for (int32_t r = j->adj_off[e0 + i]; xbar[i] != 0 && r < j->adj_off[e0 + i + 1]; r++)
        mcpi_adj_run_add(&run[i], &qrun[i], div, &j->adj[r],
                         xbar[i] * (j->adj[r].ja + j->adj[r].jb * w), d, blk, ldb);
    }
  }
  for (int i = 0, q = 0; i < n; i++) {
    blk[(size_t)i * ldb] += d * xbar[i] / mcpi_dexp(j->log_spots[i]);
    for (int k = 0; k <= i; k++, q++)
      blk[(size_t)(lb + q) * ldb] += d * xbar[i] * dl[q];
    mcpi_adj_run_flush(j, &run[i], &qrun[i], div, i, d, blk, ldb); /* each adds to the rho */
  }
}

/* A pass of a multi-asset path (the general state's multi body): its
 * prices (an early exercise's, lsm: its exercises, mcpi_adj_exercise; the
 * price's own pass writes the price), then each trade's sweep into its
 * block and its discount's rhos. */
MCP_HD static inline void mcpi_adj_multi_pass(const mcpi_job_view *j, const double *z,
                                              size_t ldz, uint64_t path, double *pay,
                                              size_t ldp, double *blk, size_t ldb, int g0,
                                              int pass, double half, int div, int lsm)
{
  int n = j->nassets;
  mcpi_multi_state st;
  mcpi_multi_init(&st, j, pass);
  mcpi_adj_ex ex = MCPI_ADJ_EX_INIT;
  double spot[MCP_MAX_ASSETS], xe[2][MCP_MAX_ASSETS], c; /* each exercise's xbar */
  for (int e = 0; e < j->nelem; e++) {
    mcpi_multi_step(&st, j, mcpi_adj_normal(j, z, ldz, path, e), j->ca[e], j->cb[e], j->tag[e]);
    if (lsm && (e + 1) % n == 0 && mcpi_adj_exercise_date(j, e / n, n))
      mcpi_adj_exercise_all(j, st.x, e / n, &ex, spot, xe);
  }
  if (!lsm) {
    mcpi_multi_finish(&st, j, pay, ldp, pass);
    for (int i = 0; i < n; i++)
      spot[i] = mcpi_dexp(st.x[i]);
  }
  for (int t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
    int k = lsm ? mcpi_adj_ex_of(j, t) : 0, last = lsm ? ex.tau[k] : j->nelem / n - 1;
    if (p->g_adj < 0 || last < 0) /* (never exercised: its block stays 0) */
      continue;
    for (int i = 0; !lsm && i < n; i++)
      xe[0][i] = p->assets >> i & 1u ? mcpi_payoff_multi_dlambda(p, spot, n, i) : 0;
    double d = half * (lsm ? ex.df[k] : p->discount), *b = blk + (size_t)(p->g_adj - g0) * ldb;
    mcpi_adj_multi_sweep(j, st.sign, z, ldz, path, (last + 1) * n, xe[k], d, b, ldb, div);
    b[(size_t)(j->adj_cols - 1) * ldb] +=
        d * mcpi_adj_scatter(j->adj_doff, j->adj_d,
                             lsm ? (size_t)(j->ntrades + ex.date[k]) : (size_t)t,
                             lsm ? ex.h[k] : mcpi_payoff_multi(p, spot, n, &c), 0, d, b, ldb);
  }
}

/* ---- several correlated local-volatility assets -----------------------------
 * Asset i steps x_i' = x_i + a - s_i^2 b^2 / 2 + s_i b w_i, s_i its slice at
 * x_i (the multi state's step), so xbar_i changes along the path, as a single
 * asset's does, and each step needs its start.  Given the normals, an
 * asset's path is its own (w_i = sum_k<=i L_ik z_k reads no other asset's
 * state), so each asset keeps its own buffer: its log-spot at every c-th
 * step's start, and a segment of c steps' log-spots and signed normals,
 * recomputed from its checkpoint (the same bits) when the sweep goes back
 * over it.  At each asset's element, as for one asset, sbar_i = xbar_i g_i,
 * g_i = b w_i - s_i b^2, goes to the slice's nodes, xbar_i the element's
 * rate and dividend yield rows, Lbar_ik gains xbar_i s_i b z_k, and xbar_i
 * *= 1 + (ds_i/dx_i) g_i.  The CPU runs a path's assets in turn at each
 * step; the GPU a path's assets on lanes of a warp, the z_k by shuffles
 * (adjoint_kernel.cu), through the same functions.  Work about three
 * forward paths. */
#define MCPI_ADJ_MLV_LANE 256 /* an asset's buffer (2 KB): 7,225 steps */
#define MCPI_ADJ_MLV_BUF (MCP_MAX_ASSETS * MCPI_ADJ_MLV_LANE)

/* The segment length c of the checkpoints and segment over steps steps,
 * ceil(sqrt(steps)): 0 when they do not fit an asset's buffer. */
MCP_HD static inline int mcpi_adj_mlv_segment(int steps)
{
  int c = mcpi_adj_segment(steps), ncp = (steps + c - 1) / c;
  return ncp + 2 * c + 1 <= MCPI_ADJ_MLV_LANE ? c : 0;
}

/* Asset i's slice value at log-spot x in element e, with its interval i
 * (local_vol.h) and the slope ds/dx within it (0 on the flat ends). */
MCP_HD static inline double mcpi_adj_mlv_vol(const mcpi_job_view *j, int i, int e, double x,
                                             int *at, double *w, double *slope)
{
  int ns = j->lv_n;
  const double *y = j->lv_y + (size_t)i * ns, *v = j->lv_vol + (size_t)e * ns;
  int k = mcpi_local_vol_at(y, ns, j->lv_idx + (size_t)i * j->lv_nb, j->lv_nb, j->lv_bin[i], x);
  *at = k;
  *w = *slope = 0;
  if (k >= 0 && k < ns - 1) {
    *w = (x - y[k]) / (y[k + 1] - y[k]);
    *slope = (v[k + 1] - v[k]) / (y[k + 1] - y[k]);
  }
  return mcpi_local_vol_in(y, v, ns, k, x);
}

/* Asset i's correlated normal of a step's signed normals zs, summed as the
 * multi state sums it (the loop over every slot: registers on the GPU). */
MCP_HD static inline double mcpi_adj_mlv_w(const mcpi_job_view *j, int i, const double *zs)
{
  double acc = 0;
  MCP_UNROLL
  for (int k = 0; k < MCP_MAX_ASSETS; k++)
    if (k <= i)
      acc += j->chol[i * MCPI_MAX_FACTORS + k] * zs[k];
  return acc;
}

/* Asset i's log-spot after its element e from x, w its correlated normal:
 * the multi state's operations (path_body.h), so the same bits. */
MCP_HD static inline double mcpi_adj_mlv_advance(const mcpi_job_view *j, int i, int e, double x,
                                                 double w)
{
  int at;
  double wt, slope, sv = mcpi_adj_mlv_vol(j, i, e, x, &at, &wt, &slope), bb = j->cb[e];
  return x + (j->ca[e] - MCPI_LOCAL_VOL_VAR(sv, bb) / 2) + bb * sv * w;
}

/* Whether a several local-volatility assets' block holds its deltas alone
 * (a pass that sweeps back for a bumped adjoint, mcpi_adjoint_deltas): its
 * sweep then carries the log-spots' adjoints alone, no node, row or
 * factor's (about half a step's work). */
MCP_HD static inline int mcpi_adj_deltas_only(const mcpi_job_view *j)
{
  return j->adj_cols == j->nassets;
}

/* Asset i's sweep back over its element e from log-spot x0, w and zs as
 * above: its nodes' and rows' adjoints into its runs and the block, dl[k]
 * (k <= i) its row of Lbar (none of those for deltas alone), xbar carried
 * back. */
MCP_HD static inline void mcpi_adj_mlv_back(const mcpi_job_view *j, int i, int e, double x0,
                                            double w, const double *zs, double *xbar,
                                            mcpi_adj_run *run, mcpi_adj_run *qrun, double *dl,
                                            int div, double d, double *b, size_t ldb)
{
  int at, ns = j->lv_n;
  double wt, slope, sv = mcpi_adj_mlv_vol(j, i, e, x0, &at, &wt, &slope);
  double bb = j->cb[e], g = bb * w - sv * bb * bb;
  if (!mcpi_adj_deltas_only(j)) {
    double sbar = *xbar * g;
    int k0 = at < 0 ? 0 : at;
    mcpi_adj_node(j, (size_t)e * ns + k0, k0, (1 - wt) * sbar, NULL, d, b, ldb, &run->tot[0]);
    if (wt != 0)
      mcpi_adj_node(j, (size_t)e * ns + k0 + 1, k0 + 1, wt * sbar, NULL, d, b, ldb,
                    &run->tot[0]);
    for (int32_t r = j->adj_off[e]; *xbar != 0 && r < j->adj_off[e + 1]; r++)
      mcpi_adj_run_add(run, qrun, div, &j->adj[r], *xbar * j->adj[r].ja, d, b, ldb);
    MCP_UNROLL
    for (int k = 0; k < MCP_MAX_ASSETS; k++)
      if (k <= i)
        dl[k] += *xbar * (bb * sv) * zs[k];
  }
  *xbar *= 1 + slope * g;
}

/* Asset i's end of a trade's sweep: its delta, its row of Lbar (from
 * column lb + i (i + 1) / 2) and its runs into the block. */
MCP_HD static inline void mcpi_adj_mlv_close(const mcpi_job_view *j, int i, double xbar,
                                             const double *dl, const mcpi_adj_run *run,
                                             const mcpi_adj_run *qrun, int div, double d,
                                             double *b, size_t ldb)
{
  int q = mcpi_adj_factor(j) + i * (i + 1) / 2;
  b[(size_t)i * ldb] += d * xbar / mcpi_dexp(j->log_spots[i]);
  if (mcpi_adj_deltas_only(j))
    return;
  MCP_UNROLL
  for (int k = 0; k < MCP_MAX_ASSETS; k++)
    if (k <= i)
      b[(size_t)(q + k) * ldb] += d * dl[k];
  mcpi_adj_run_flush(j, run, qrun, div, i, d, b, ldb);
}

/* ---- several correlated Heston assets ---------------------------------------
 * Asset i takes the one-asset step (heston.h) driven by d0 and d1, rows
 * 2 i and 2 i + 1 of L z over the step's 2 n signed normals
 * (mcpi_mheston_drivers, path_body.h), so that, given the normals, its
 * path is its own, as a local-volatility asset's is.  Its x' = x + ... reads
 * no x: xbar_i, the payoff's derivative in its terminal log-spot, holds
 * along the path, while vbar_i goes back through mcpi_heston_back, which
 * also gives the drivers' adjoints: Lbar's rows 2 i and 2 i + 1 gain them
 * times the step's normals.  Each asset keeps a buffer of
 * MCPI_ADJ_MLV_LANE values: its variance at every c-th step's start, and a
 * segment's c + 1 variances and 2 c signed normals (its own two factors'),
 * recomputed from its checkpoint (the same bits).  The CPU runs a path's
 * assets in turn at each step, the GPU a path's assets on lanes of a warp
 * (adjoint_kernel.cu), through the same functions.  Asset i's vega buckets
 * are its parameters' (v0, kappa, theta, xi, rho, from column n + 5 i);
 * rho's column holds the step's part alone, to which the host adds its
 * part through L (its drivers' correlations, correlation.c; variants.c). */
#define MCPI_ADJ_MHESTON 4 /* mcpi_adjoint_kind's */

/* The segment length c over steps steps, ceil(sqrt(steps)): 0 when an
 * asset's checkpoints and segment do not fit its buffer. */
MCP_HD static inline int mcpi_adj_mheston_segment(int steps)
{
  int c = mcpi_adj_segment(steps), ncp = (steps + c - 1) / c;
  return ncp + 3 * c + 1 <= MCPI_ADJ_MLV_LANE ? c : 0;
}

/* The sweep's start of several Heston assets' early exercise, where a
 * kernel that steps the same paths (lsm_kernel.cu, the scaled scenarios'
 * record) leaves what the lanes' forward would (adjoint_kernel.cu), so
 * that the sweep does not step them forward again.  Pass q's path i
 * (leading dimension ld), field f at MCPI_ADJ_START(nf, ld, q, f) + i of
 * nf = MCPI_ADJ_START_FIELDS(n, ncp): asset a's checkpoints (its variance
 * at each c-th step), a ncp + k; each exercise k's derivatives in asset
 * a's log-spot (mcpi_lsm_exercise_dx, where it exercised), n ncp + k n +
 * a; then the mcpi_adj_ex (mcpi_adj_ex_put), from n ncp + 2 n. */
#define MCPI_ADJ_START_FIELDS(n, ncp) ((n) * (ncp) + 2 * (n) + MCPI_ADJ_EX_FIELDS)
#define MCPI_ADJ_START(nf, ld, q, f) (((size_t)(q) * (size_t)(nf) + (size_t)(f)) * (ld))

/* The checkpoints over steps steps (c, mcpi_adj_mheston_segment), 0 where
 * none fit. */
MCP_HD static inline int mcpi_adj_mheston_checkpoints(int steps)
{
  int c = mcpi_adj_mheston_segment(steps);
  return c ? (steps + c - 1) / c : 0;
}

/* Asset i's step s from (x, v), zs the step's 2 n signed normals in its
 * first slots (a constant at each call: a bound on 2 n; the GPU's in
 * registers): the mheston state's operations (path_body.h), so the same
 * bits. */
MCP_HD static inline void mcpi_adj_mh_advance(const mcpi_job_view *j, int i, int s, double *x,
                                              double *v, const double *zs, int slots)
{
  size_t e = (size_t)s * 2 * j->nassets + 2 * i;
  double d0, d1, var;
  mcpi_mheston_drivers(j->chol, zs, i, slots, &d0, &d1);
  mcpi_heston_step(x, v, &var, &j->heston[i], j->scheme, j->ca[e], j->cb[e], j->ca[e + 1], d0,
                   d1);
}

/* Asset i's sweep back over step s, its variance v at the start and vn at
 * the end (zs and slots as mcpi_adj_mh_advance's): its drift's rows into
 * its runs, vbar and g through the step, Lbar's rows 2 i (dl0, 2 i + 1
 * values) and 2 i + 1 (dl1) gaining the drivers' adjoints times zs (none
 * of those for deltas alone). */
MCP_HD static inline void mcpi_adj_mh_back(const mcpi_job_view *j, int i, int s, double v,
                                           double vn, const double *zs, int slots, double xbar,
                                           double *vbar, mcpi_heston_bar *g, double *dl0,
                                           double *dl1, mcpi_adj_run *run, mcpi_adj_run *qrun,
                                           int div, double d, double *b, size_t ldb)
{
  if (mcpi_adj_deltas_only(j))
    return;
  size_t e = (size_t)s * 2 * j->nassets + 2 * i;
  double d0, d1, zb[2];
  mcpi_mheston_drivers(j->chol, zs, i, slots, &d0, &d1);
  for (int32_t r = j->adj_off[e]; xbar != 0 && r < j->adj_off[e + 1]; r++)
    mcpi_adj_run_add(run, qrun, div, &j->adj[r], xbar * j->adj[r].ja, d, b, ldb);
  mcpi_heston_back(&j->heston[i], j->scheme, v, vn, j->cb[e], j->ca[e + 1], d0, d1, xbar, vbar,
                   g, zb);
  MCP_UNROLL
  for (int q = 0; q < slots; q++) {
    if (q <= 2 * i)
      dl0[q] += zb[0] * zs[q];
    if (q <= 2 * i + 1)
      dl1[q] += zb[1] * zs[q];
  }
}

/* Asset i's end of a trade's sweep: its delta, its parameters' columns and
 * vega, its rows of Lbar and its runs into the block. */
MCP_HD static inline void mcpi_adj_mh_close(const mcpi_job_view *j, int i, double xbar, double vbar,
                                            mcpi_heston_bar *g, const double *dl0,
                                            const double *dl1, int slots,
                                            const mcpi_adj_run *run, const mcpi_adj_run *qrun,
                                            int div, double d, double *b, size_t ldb)
{
  const mcpi_heston *h = &j->heston[i];
  b[(size_t)i * ldb] += d * xbar / mcpi_dexp(j->log_spots[i]);
  if (mcpi_adj_deltas_only(j))
    return;
  mcpi_heston_bar_params(h, g);
  const double pbar[5] = {vbar, g->kappa, g->theta, g->xi, g->rho};
  for (int k = 0; k < 5; k++)
    b[(size_t)(j->nassets + 5 * i + k) * ldb] += d * pbar[k];
  b[(size_t)mcpi_adj_total(j, 0, i) * ldb] +=
      d * (2 * sqrt(h->v0) * vbar + 2 * sqrt(h->theta) * g->theta);
  size_t r0 = (size_t)(mcpi_adj_factor(j) + i * (2 * i + 1)), r1 = r0 + 2 * i + 1;
  MCP_UNROLL
  for (int q = 0; q < slots; q++) {
    if (q <= 2 * i)
      b[(r0 + q) * ldb] += d * dl0[q];
    if (q <= 2 * i + 1)
      b[(r1 + q) * ldb] += d * dl1[q];
  }
  mcpi_adj_run_flush(j, run, qrun, div, i, d, b, ldb);
}

/* A pass of several local-volatility assets' path, or Heston ones
 * (heston): its prices (an early exercise's: its exercise, the price's
 * own pass writes the price), then each trade's sweep into its block and
 * its discount's rhos; buf: the path's MCPI_ADJ_MLV_BUF values, asset i's from
 * i MCPI_ADJ_MLV_LANE: its ncp checkpoints (a log-spot, or a variance), a
 * segment's c + 1 of them and its F c signed normals (F its factors).  The
 * assets in turn at each step, the GPU's lanes' functions. */
MCP_HD static inline void mcpi_adj_assets_pass(const mcpi_job_view *j, const double *z,
                                               size_t ldz, uint64_t path, double *pay,
                                               size_t ldp, double *blk, size_t ldb, int g0,
                                               int pass, double half, int div, double *buf,
                                               int heston)
{
  int n = j->nassets, F = heston ? 2 : 1, nf = F * n, steps = j->nelem / nf;
  int c = heston ? mcpi_adj_mheston_segment(steps) : mcpi_adj_mlv_segment(steps);
  int ncp = (steps + c - 1) / c, tri = nf * (nf + 1) / 2;
  double sign = pass ? -1 : 1, x[MCP_MAX_ASSETS], v[MCP_MAX_ASSETS], zs[MCPI_MAX_FACTORS];
  for (int i = 0; i < MCP_MAX_ASSETS; i++) {
    x[i] = j->log_spots[i];
    v[i] = heston ? j->heston[i].v0 : 0;
  }
  mcpi_adj_ex ex = MCPI_ADJ_EX_INIT;
  double spot[MCP_MAX_ASSETS], xe[2][MCP_MAX_ASSETS]; /* each exercise's xbar */
  for (int s = 0; s < steps; s++) {
    for (int i = 0; s % c == 0 && i < n; i++)
      buf[i * MCPI_ADJ_MLV_LANE + s / c] = heston ? v[i] : x[i];
    for (int f = 0; f < nf; f++)
      zs[f] = sign * mcpi_adj_normal(j, z, ldz, path, s * nf + f);
    for (int i = 0; i < n; i++)
      if (heston)
        mcpi_adj_mh_advance(j, i, s, &x[i], &v[i], zs, MCPI_MAX_FACTORS);
      else
        x[i] = mcpi_adj_mlv_advance(j, i, s * n + i, x[i], mcpi_adj_mlv_w(j, i, zs));
    if (mcpi_adj_exercise_date(j, s, nf))
      mcpi_adj_exercise_all(j, x, s, &ex, spot, xe);
  }
  if (!j->lsm) {
    mcpi_multi_pay(x, 0, 0, NULL, j, pay, ldp, pass);
    for (int i = 0; i < n; i++)
      spot[i] = mcpi_dexp(x[i]);
  }
  double xbar[MCP_MAX_ASSETS], vbar[MCP_MAX_ASSETS], y;
  double dl[MCPI_MAX_FACTORS * (MCPI_MAX_FACTORS + 1) / 2];
  for (int t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
    int k = j->lsm ? mcpi_adj_ex_of(j, t) : 0;
    int last = j->lsm ? ex.tau[k] : steps - 1; /* the sweep's first step back */
    if (p->g_adj < 0 || last < 0) /* (never exercised: its block stays 0) */
      continue;
    double d = half * (j->lsm ? ex.df[k] : p->discount), *b = blk + (size_t)(p->g_adj - g0) * ldb;
    mcpi_adj_run run[MCP_MAX_ASSETS], qrun[MCP_MAX_ASSETS];
    mcpi_heston_bar g[MCP_MAX_ASSETS];
    for (int i = 0; i < n; i++) {
      xbar[i] = j->lsm                  ? xe[k][i]
                : p->assets >> i & 1u ? mcpi_payoff_multi_dlambda(p, spot, n, i)
                                      : 0;
      vbar[i] = 0;
      g[i] = (mcpi_heston_bar){0, 0, 0, 0, 0, 0, 0, 0};
      run[i] = qrun[i] = (mcpi_adj_run)MCPI_ADJ_RUN_INIT;
    }
    for (int q = 0; q < tri; q++)
      dl[q] = 0;
    for (int sg = last / c; sg >= 0; sg--) {
      int s0 = sg * c, s1 = s0 + c <= last ? s0 + c : last + 1;
      for (int i = 0; i < n; i++) { /* the segment again */
        double *xs = buf + i * MCPI_ADJ_MLV_LANE + ncp;
        xs[0] = buf[i * MCPI_ADJ_MLV_LANE + sg];
      }
      for (int s = s0; s < s1; s++) {
        for (int f = 0; f < nf; f++)
          buf[f / F * MCPI_ADJ_MLV_LANE + ncp + c + 1 + F * (s - s0) + f % F] = zs[f] =
              sign * mcpi_adj_normal(j, z, ldz, path, s * nf + f);
        for (int i = 0; i < n; i++) {
          double *xs = buf + i * MCPI_ADJ_MLV_LANE + ncp + s - s0, xx = 0;
          xs[1] = xs[0];
          if (heston) /* the variance's step (its x unread) */
            mcpi_adj_mh_advance(j, i, s, &xx, &xs[1], zs, MCPI_MAX_FACTORS);
          else
            xs[1] = mcpi_adj_mlv_advance(j, i, s * n + i, xs[0], mcpi_adj_mlv_w(j, i, zs));
        }
      }
      for (int s = s1 - 1; s >= s0; s--) {
        for (int f = 0; f < nf; f++)
          zs[f] = buf[f / F * MCPI_ADJ_MLV_LANE + ncp + c + 1 + F * (s - s0) + f % F];
        for (int i = 0; i < n; i++) {
          const double *xs = buf + i * MCPI_ADJ_MLV_LANE + ncp + s - s0;
          double *r0 = dl + F * i * (F * i + 1) / 2; /* Lbar's rows F i .. */
          if (heston)
            mcpi_adj_mh_back(j, i, s, xs[0], xs[1], zs, MCPI_MAX_FACTORS, xbar[i], &vbar[i],
                             &g[i], r0, r0 + 2 * i + 1, &run[i], &qrun[i], div, d, b, ldb);
          else
            mcpi_adj_mlv_back(j, i, s * n + i, xs[0], mcpi_adj_mlv_w(j, i, zs), zs, &xbar[i],
                              &run[i], &qrun[i], r0, div, d, b, ldb);
        }
      }
    }
    for (int i = 0; i < n; i++) {
      const double *r0 = dl + F * i * (F * i + 1) / 2;
      if (heston)
        mcpi_adj_mh_close(j, i, xbar[i], vbar[i], &g[i], r0, r0 + 2 * i + 1, MCPI_MAX_FACTORS,
                          &run[i], &qrun[i], div, d, b, ldb);
      else
        mcpi_adj_mlv_close(j, i, xbar[i], r0, &run[i], &qrun[i], div, d, b, ldb);
    }
    if (!mcpi_adj_deltas_only(j)) /* an exercise's discount: its date's rows */
      b[(size_t)(j->adj_cols - 1) * ldb] +=
          d * mcpi_adj_scatter(j->adj_doff, j->adj_d,
                               j->lsm ? (size_t)(j->ntrades + ex.date[k]) : (size_t)t,
                               j->lsm ? ex.h[k] : mcpi_payoff_multi(p, spot, n, &y), 0, d, b,
                               ldb);
  }
}

/* A sample of an adjoint job (gstate MCPI_GSTATE_ADJOINT): its prices to pay
 * (as mcpi_path), and each trade's block (g_adj >= 0) of delta and
 * Jacobian columns, averaged over the antithetic pair, to blk: column
 * g_adj - g0 at stride ldb (pay itself where blk = pay + g0 ldp); path is the
 * sample's index in the job's stream; rowbuf as mcpi_adj_sweep's; multi:
 * 0 for one Black-Scholes or local-volatility asset, 1 for several
 * Black-Scholes assets, 2 for several local-volatility assets,
 * MCPI_ADJ_HESTON for one Heston asset, MCPI_ADJ_MHESTON for several; div: whether its block has the dividend yields'
 * columns; plain: 1 where one local-volatility or Heston asset's job fits
 * the plain shape (mcpi_job_adjoint_shape), whose state (the `_lp` or
 * `_hp` family's, the same steps and so the same bits) the forward path
 * then runs in, in registers; smiles: 1 where the sweep's rows are an implied surface's
 * smiles; events: 1 where the path has cash dividends or some trade is a
 * barrier watched on the bridge (mcpi_adjoint_events; each a constant in a
 * kernel compiled for it: the other's code and buffers left out, the
 * Black-Scholes sweep 10% faster without the bridge's, 2% without the
 * drops'; inlined into each kernel, so that those constants reach it); lv:
 * 1 where one asset's model is local volatility, 0 Black-Scholes (a
 * constant too: the Black-Scholes kernels without the surface's code). */
MCP_HD_INLINE static void mcpi_adjoint_sample(const mcpi_job_view *j, const double *z, size_t ldz,
                                              uint64_t path, double *pay, size_t ldp,
                                              double *blk, size_t ldb, int g0, double *rowbuf,
                                              size_t rowst, int multi, int div, int plain,
                                              int smiles, int events, int lv)
{
  int heston = multi == MCPI_ADJ_HESTON, n = j->nelem;
  int c = n <= MCPI_ADJ_FULL ? n : heston ? mcpi_adj_heston_segment(n) : mcpi_adj_segment(n);
  double ck[MCPI_ADJ_SEG], cv[MCPI_ADJ_SEG], xs[MCPI_ADJ_FULL + 1], zs[MCPI_ADJ_FULL];
  double half = j->antithetic ? 0.5 : 1;
  for (int t = 0; t < j->ntrades; t++)
    if (j->trades[t].g_adj >= 0)
      for (int k = 0; k < j->adj_cols; k++)
        blk[(size_t)(j->trades[t].g_adj - g0 + k) * ldb] = 0;
  for (int pass = 0; pass <= (j->antithetic ? 1 : 0); pass++) {
    if (multi == 2 || multi == MCPI_ADJ_MHESTON) {
      double buf[MCPI_ADJ_MLV_BUF];
      mcpi_adj_assets_pass(j, z, ldz, path, pay, ldp, blk, ldb, g0, pass, half, div, buf,
                           multi == MCPI_ADJ_MHESTON);
    } else if (multi == 1) { /* (plain: its early exercise) */
      mcpi_adj_multi_pass(j, z, ldz, path, pay, ldp, blk, ldb, g0, pass, half, div, plain);
    } else if (plain && heston) {
      MCPI_ADJ_PASS(_hp);
    } else if (plain) {
      MCPI_ADJ_PASS(_lp);
    } else {
      MCPI_ADJ_PASS();
    }
  }
}

/* Whether a job's sweep meets events (mcpi_adjoint_sample's events). */
MCP_HD static inline int mcpi_adjoint_events(const mcpi_job_view *j)
{
  return j->adj_bridge || j->cash;
}

/* Which sweep a job takes (mcpi_adjoint_sample's multi). */
MCP_HD static inline int mcpi_adjoint_kind(const mcpi_job_view *j)
{
  return j->nassets > 1 ? (j->model == MCPI_MODEL_LOCAL_VOL ? 2
                           : j->model == MCPI_MODEL_HESTON  ? MCPI_ADJ_MHESTON
                                                            : 1)
         : j->model == MCPI_MODEL_HESTON ? MCPI_ADJ_HESTON
                                         : 0;
}

MCP_HD static inline void mcpi_adjoint_path(const mcpi_job_view *j, const double *z, size_t ldz,
                                            uint64_t path, double *pay, size_t ldp, double *blk,
                                            size_t ldb, int g0, double *rowbuf, size_t rowst)
{
  mcpi_adjoint_sample(j, z, ldz, path, pay, ldp, blk, ldb, g0, rowbuf, rowst,
                      mcpi_adjoint_kind(j), j->adj_div, mcpi_adjoint_kind(j) == 1 && j->lsm,
                      j->adj_q != 0, mcpi_adjoint_events(j),
                      j->model == MCPI_MODEL_LOCAL_VOL);
}

#endif
