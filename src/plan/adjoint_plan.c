/* adjoint_plan.c: the bucketed sensitivities by adjoint (adjoint_plan.h):
 * which trades take them, and the sparse Jacobians that carry a path's
 * adjoints of its elements' coefficients (models/products/adjoint.h) to the
 * market's inputs.  A trade's block of columns is its delta, then a vega a
 * volatility bucket, then a rho a rate bucket, then the vegas' and the
 * rhos' totals:
 *   Black-Scholes      the volatility curve's pieces that start before the
 *                      job's last date: a = int (r - q) - int sigma^2 / 2 and
 *                      b = sqrt(int sigma^2) over the step, so piece k moves
 *                      a by -sigma_k tau and b by sigma_k tau / b (tau: the
 *                      step's time in the piece);
 *   local volatility   the surface's nodes (row-major, times by spots): a
 *                      step's slice is the root mean square of the surface
 *                      over the step (coefficients.c), differentiated there;
 *                      a surface of implied volatilities' quotes instead,
 *                      each node's derivatives in them (implied.h) chained;
 *   rates              the rate curve's pieces that start before the job's
 *                      last date or a trade's payment: a moves by tau, and
 *                      the discount factor by -tau (to the payment) times
 *                      itself;
 *   dividend yields    the curve's pieces that start before the last date:
 *                      a moves by -tau;
 *   Heston             its five parameters, the sweep's own columns (no
 *                      Jacobian: adjoint.h, mcpi_adj_heston_sweep); the
 *                      rates and dividend yields through each step's
 *                      drift, its first element's a.
 * Several assets: each element's entries are its asset's buckets. */
#include <math.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include "src/analytic/heston.h"
#include "src/analytic/implied.h"
#include "src/analytic/svi.h"
#include "src/base/grow.h"
#include "src/inputs/product.h"
#include "src/plan/adjoint_plan.h"
#include "src/plan/plan_build.h"
#include "models/products/adjoint.h"

/* Piece k of c as (lo, hi]; the last piece runs on. */
static void piece(const mcpi_curve *c, size_t k, double *lo, double *hi)
{
  *lo = k ? c->end[k - 1] : 0;
  *hi = k + 1 < c->n ? c->end[k] : INFINITY;
}

static double overlap(const mcpi_curve *c, size_t k, double t0, double t1)
{
  double lo, hi;
  piece(c, k, &lo, &hi);
  double a = t0 > lo ? t0 : lo, b = t1 < hi ? t1 : hi;
  return b > a ? b - a : 0;
}

/* The pieces of c that start before t. */
static size_t pieces_before(const mcpi_curve *c, double t)
{
  size_t n = 0;
  while (n < c->n && (n == 0 || c->end[n - 1] < t))
    n++;
  return n;
}

int mcpi_adjoint_asked(const mcp_greeks *req, size_t nassets)
{
  const int *want = req->want;
  return (req->buckets && (want[MCP_GREEK_DELTA] || want[MCP_GREEK_VEGA] || want[MCP_GREEK_RHO])) ||
         (nassets > 1 && want[MCP_GREEK_CORRELATION]) || want[MCP_GREEK_DIVIDEND];
}

/* The least volatility the job's paths read: its assets' curves before
 * the last date, or its surface's (Heston's variance: none, infinite). */
static double least_vol(const mcpi_job *j)
{
  double lo = INFINITY, last = j->times[j->nsteps - 1];
  for (size_t a = 0; a < j->nassets; a++) {
    const mcpi_underlying *u = j->u[a];
    double l = INFINITY, hi;
    if (j->model != MCPI_MODEL_LOCAL_VOL && j->model != MCPI_MODEL_HESTON)
      mcpi_curve_abs_bounds(&u->vol, last, &l, &hi);
    for (size_t k = 0; j->model == MCPI_MODEL_LOCAL_VOL && k < u->lv.nt * u->lv.ns; k++)
      l = fmin(l, u->lv.values[k]);
    lo = fmin(lo, l);
  }
  return lo;
}

/* Whether an underlying's vega buckets are its implied volatilities'
 * quotes (else its surface's nodes, or its curve's pieces). */
static int by_quote(const mcpi_underlying *u)
{
  return u->iv.n && u->iv.qvegas;
}

/* The volatility buckets of an underlying of a job of model lv or not: a
 * curve's pieces, a surface's nodes, its implied volatilities' quotes, or
 * Heston's parameters. */
static size_t vol_buckets(const mcpi_underlying *u, int lv)
{
  return u->model == MCPI_MODEL_HESTON ? MCPI_HESTON_PARAMS
         : !lv                         ? u->vol.n
         : by_quote(u)                 ? u->iv.nq
                                       : u->lv.nt * u->lv.ns;
}

int mcpi_adjoint_job_fits(const mcpi_job *j, const mcp_greeks *req, mcp_precision precision)
{
  size_t buckets = 0, n = j->nassets;
  for (size_t a = 0; a < n; a++) {
    const mcpi_underlying *u = j->u[a];
    buckets += vol_buckets(u, j->model == MCPI_MODEL_LOCAL_VOL) + u->rate.n + u->dividend.n +
               (req->want[MCP_GREEK_DIVIDEND] ? u->ncash : 0);
  }
  /* a factor (Heston: two) an asset and step; several assets: one step's
   * elements each (no merged steps); the Black-Scholes sweep keeps no path
   * (its payoffs read the end), the local volatility's and several Heston
   * assets' checkpoints and a segment (adjoint.h) */
  int heston = j->model == MCPI_MODEL_HESTON;
  size_t per = heston ? MCPI_FACTORS_HESTON : 1;
  int shape = n == 1 ? (size_t)j->nfactors == per && j->nelem <= MCPI_ADJ_MAX_ELEMENTS
                     : (size_t)j->nfactors == n * per && j->nelem == j->nsteps * n * per &&
                           j->nsteps <= MCPI_ADJ_MAX_ELEMENTS &&
                           (j->model != MCPI_MODEL_LOCAL_VOL ||
                            mcpi_adj_mlv_segment((int)j->nsteps) > 0) &&
                           (!heston || mcpi_adj_mheston_segment((int)j->nsteps) > 0);
  /* an early exercise: several assets' sweeps (adjoint.h, mcpi_adj_exercise) */
  int lsm_ok = !j->lsm_dates || n > 1;
  return precision == MCP_DOUBLE && shape &&
         (j->model == MCPI_MODEL_BLACK_SCHOLES || j->model == MCPI_MODEL_LOCAL_VOL || heston) &&
         !j->extrema && lsm_ok && !j->arr_len &&
         (!req->buckets || buckets <= MCPI_ADJ_MAX_BUCKETS) && least_vol(j) > 0;
}

/* Whether the job's paths pay a cash dividend by time end (the job's). */
static int cash_by(const mcpi_job *j, double end)
{
  const mcpi_underlying *u = j->u[0];
  for (size_t i = 0; j->cash && i < u->ncash; i++) {
    double t = u->cash_t[i] - j->origin; /* as build_cash places it */
    if (t > 0 && t <= end + MCPI_TIME_EPS)
      return 1;
  }
  return 0;
}

int mcpi_adjoint_trade_fits(const mcpi_job *j, const mcpi_trade *t)
{
  if (j->nassets > 1) /* an American's or Bermudan's exercise value is one of these */
    return t->nassets > 1 &&
           (t->product == MCP_PRODUCT_BASKET || t->product == MCP_PRODUCT_BEST_OF ||
            t->product == MCP_PRODUCT_WORST_OF || mcpi_lsm_product(t->product));
  /* a barrier watched on the bridge is continuous in the path, but for a
   * cash dividend's drop across it (path_body.h's mcpi_path_cash): none
   * paid by its maturity */
  return t->nassets == 1 && (t->product == MCP_PRODUCT_EUROPEAN ||
                             t->product == MCP_PRODUCT_ASIAN ||
                             (t->product == MCP_PRODUCT_LOOKBACK && !t->extremes &&
                              t->monitoring != MCP_MONITOR_BRIDGE) ||
                             (t->product == MCP_PRODUCT_BARRIER &&
                              t->monitoring == MCP_MONITOR_BRIDGE &&
                              !cash_by(j, t->maturity - j->origin)));
}

/* Appends an entry to a growing array; 0 when out of memory. */
static int push(mcpi_adj_entry **a, size_t *n, size_t *cap, int32_t col, int32_t kind,
                double ja, double jb)
{
  if (*n == *cap) {
    size_t c = *cap ? 2 * *cap : 64;
    mcpi_adj_entry *x = realloc(*a, c * sizeof *x);
    if (!x)
      return 0;
    *a = x;
    *cap = c;
  }
  (*a)[(*n)++] = (mcpi_adj_entry){col, kind, ja, jb};
  return 1;
}

/* Appends column descriptor x to the job's; 0 when out of memory. */
static int push_col(mcpi_job *j, size_t *cap, mcpi_adj_col x)
{
  if (!mcpi_grow((void **)&j->adj_col, cap, (size_t)j->adj_cols + 1, sizeof *j->adj_col))
    return 0;
  j->adj_col[j->adj_cols++] = x;
  return 1;
}

/* Rows of an implied surface's grid differentiated in the coordinates of
 * its smiles (mcpi_implied_row_grad), the last few kept: the elements'
 * steps read rows in rising time; and an accumulator of a slice node's
 * derivatives, 5 a smile. */
#define SMILE_ROWS 4
typedef struct smile_rows {
  const mcpi_underlying *u;
  long row[SMILE_ROWS];
  size_t first[SMILE_ROWS], next;
  int ok[SMILE_ROWS];
  double *grad, *acc;
} smile_rows;

static int smile_rows_init(smile_rows *c, const mcpi_underlying *u)
{
  *c = (smile_rows){u, {-1, -1, -1, -1}, {0}, 0, {0}, NULL, NULL};
  c->grad = malloc(SMILE_ROWS * 10 * u->lv.ns * sizeof *c->grad);
  c->acc = calloc(5 * u->iv.n, sizeof *c->acc);
  return c->grad && c->acc;
}

static void smile_rows_free(smile_rows *c)
{
  free(c->grad);
  free(c->acc);
}

/* Row r's slot in c, found or made. */
static size_t smile_row(smile_rows *c, size_t r)
{
  for (size_t x = 0; x < SMILE_ROWS; x++)
    if (c->row[x] == (long)r)
      return x;
  size_t x = c->next;
  c->next = (x + 1) % SMILE_ROWS;
  c->row[x] = (long)r;
  c->ok[x] = mcpi_implied_row_grad(&c->u->iv, &c->u->lv, r, &c->first[x],
                                   c->grad + x * 10 * c->u->lv.ns);
  return x;
}

/* Slice node k's row derivatives d (rows m0 .. m1 - 1) chained through the
 * rows' to its smiles' coordinates: a window's entries (kind the smile, col
 * the coordinate, adjoint.h's mcpi_adj_rows) where quotes is 0, else on to
 * the quotes' columns from col; the first entry carries the total vega's
 * share, sum d (one with ja 0 where nothing else moves). */
static int push_smiles(mcpi_adj_entry **a, size_t *na, size_t *cap, smile_rows *c, size_t k,
                       const double *d, size_t m0, size_t m1, int quotes, int32_t col)
{
  const mcpi_implied *iv = &c->u->iv;
  size_t ns = c->u->lv.ns, lo = SIZE_MAX, hi = 0;
  double total = 0;
  for (size_t m = m0; m < m1; m++) {
    if (d[m] == 0)
      continue;
    size_t x = smile_row(c, m), f = c->first[x], top = f + 1 < iv->n ? f + 1 : f;
    const double *g = c->grad + (x * ns + k) * 10;
    total += d[m];
    for (size_t y = 0; y < (top > f ? 10 : 5) && c->ok[x]; y++)
      c->acc[5 * f + y] += d[m] * g[y];
    lo = c->ok[x] && f < lo ? f : lo;
    hi = c->ok[x] && top + 1 > hi ? top + 1 : hi;
  }
  int ok = 1, first = 1;
  for (size_t sm = lo; sm < hi && ok; sm++) {
    double *x = c->acc + 5 * sm, g[10] = {0}, v[2 * MCPI_SVI_MAX_QUOTES];
    size_t q0 = iv->qoff[sm], n = 5;
    for (size_t y = 0; y < 5; y++)
      g[y] = v[y] = x[y];
    if (quotes) /* this smile's quotes (the next's none: g's second half 0) */
      n = mcpi_implied_chain(iv, g, sm, 1, &q0, v);
    for (size_t q = 0; q < n && ok; q++)
      if (v[q] != 0) {
        ok = quotes ? push(a, na, cap, col + (int32_t)(q0 + q), 0, v[q], first ? total : 0)
                    : push(a, na, cap, (int32_t)q, (int32_t)sm, v[q], first ? total : 0);
        first = 0;
      }
    for (size_t y = 0; y < 5; y++)
      x[y] = 0;
  }
  return ok && (!first || total == 0 ||
                push(a, na, cap, quotes ? col : 0, quotes || lo == SIZE_MAX ? 0 : (int32_t)lo, 0,
                     total));
}

mcp_status mcpi_adjoint_jacobians(mcpi_job *j, const mcp_greeks *req, char *err)
{
  if (j->adj_cols)
    return MCP_OK;
  /* buckets not asked: one hidden column a kind and asset, whose pieces the
   * totals sum; dividend yields not asked: neither buckets nor entries */
  int each = req->buckets, div = req->want[MCP_GREEK_DIVIDEND];
  int lv = j->model == MCPI_MODEL_LOCAL_VOL, heston = j->model == MCPI_MODEL_HESTON;
  /* the factors of several assets (Heston's: two an asset) */
  size_t n = j->nassets, nf = n > 1 ? (size_t)j->nfactors : 0;
  double last = j->times[j->nsteps - 1], pay = last;
  for (size_t t = 0; t < j->nreal; t++)
    pay = fmax(pay, j->spec[t].g_time);
  /* the block: a delta an asset, the assets' volatility buckets, their rate
   * buckets, their dividend yield's, the Cholesky factor's adjoint (several
   * assets), a vega total an asset, a dividend total an asset (where asked),
   * the rho's total (mcpi_adj_total).  Kind k (volatility, rate, dividend
   * yield) of asset a: np[k][a] pieces of its curve (a surface's nodes or
   * Heston's parameters instead: no piece; the parameters' columns whether
   * or not buckets are asked, the sweep's own), its buckets from column
   * off[k][a]. */
  static const mcp_greek greek[3] = {MCP_GREEK_VEGA, MCP_GREEK_RHO, MCP_GREEK_DIVIDEND};
  size_t np[3][MCP_MAX_ASSETS], off[3][MCP_MAX_ASSETS + 1], at = n, ccap = 0;
  for (int k = 0; k < 3; k++) {
    for (size_t a = 0; a < n; a++) {
      const mcpi_underlying *u = j->u[a];
      np[k][a] = k == 0 ? (lv || heston ? 0 : pieces_before(&u->vol, last))
                 : k == 1 ? pieces_before(&u->rate, pay)
                          : (div ? pieces_before(&u->dividend, last) : 0);
      size_t cols = k == 0 && (lv || heston) ? vol_buckets(u, lv) : np[k][a];
      off[k][a] = at;
      at += !each && cols && !(k == 0 && heston) ? 1 : cols;
    }
    off[k][n] = at;
  }
  int ok = 1;
  j->adj_cols = 0;
  for (size_t a = 0; a < n && ok; a++)
    ok = push_col(j, &ccap, (mcpi_adj_col){MCP_GREEK_DELTA, (int)a, 0});
  for (int k = 0; k < 3; k++)
    for (size_t a = 0; a < n; a++)
      for (size_t c = off[k][a]; c < off[k][a + 1] && ok; c++)
        ok = push_col(j, &ccap, (mcpi_adj_col){greek[k], (int)a, (int)(1 + c - off[k][a])});
  /* one asset's cash dividends paid by the last date, a column each with
   * the yield's buckets: bucket 1 + the curve's pieces + the dividend's
   * index (mcpi_adjoint_label), and the step that pays it */
  const mcpi_underlying *u0 = j->u[0];
  size_t c0 = 0, nc = 0;
  for (size_t i = 0; n == 1 && each && div && i < u0->ncash; i++) {
    double t = u0->cash_t[i] - j->origin; /* as build_cash places it */
    if (t > 0 && t <= last + MCPI_TIME_EPS)
      c0 = nc++ ? c0 : i;
  }
  j->adj_cash = j->adj_cols;
  j->adj_ncash = (int)nc;
  ok = ok && (!nc || (j->adj_cstep = malloc(nc * sizeof *j->adj_cstep)) != NULL);
  for (size_t i = 0; i < nc && ok; i++) {
    j->adj_cstep[i] = (int32_t)mcpi_grid_index(j->times, j->nsteps, u0->cash_t[c0 + i] - j->origin);
    ok = push_col(j, &ccap, (mcpi_adj_col){MCP_GREEK_DIVIDEND, 0,
                                           (int)(1 + u0->dividend.n + c0 + i)});
  }
  for (size_t i = 0; i < nf; i++)
    for (size_t k = 0; k <= i && ok; k++)
      ok = push_col(j, &ccap, (mcpi_adj_col){-1, (int)i, (int)k});
  for (size_t a = 0; a < n && ok; a++)
    ok = push_col(j, &ccap, (mcpi_adj_col){MCP_GREEK_VEGA, (int)a, 0});
  for (size_t a = 0; a < n && ok && div; a++)
    ok = push_col(j, &ccap, (mcpi_adj_col){MCP_GREEK_DIVIDEND, (int)a, 0});
  ok = ok && push_col(j, &ccap, (mcpi_adj_col){MCP_GREEK_RHO, -1, 0});
  size_t cap = 0, lcap = 0, dcap = 0, ns = lv ? (size_t)j->lv_n : 0, nt = 0;
  for (size_t a = 0; a < n && lv; a++)
    nt = j->u[a]->lv.nt > nt ? j->u[a]->lv.nt : nt;
  ok = ok && (j->adj_off = malloc((j->nelem + 1) * sizeof *j->adj_off)) != NULL &&
       (j->adj_doff = malloc((j->ntrades + 1 + (size_t)j->lsm_dates) * sizeof *j->adj_doff)) !=
           NULL &&
       (!lv || (j->adj_lvoff = malloc((j->nelem * ns + 1) * sizeof *j->adj_lvoff)) != NULL);
  double *d = lv && ok ? calloc(nt * ns, sizeof *d) : NULL; /* a node's nt rows, node by node */
  ok = ok && (!lv || d);
  /* one asset's surface of nodes whose sweep holds two rows: the dense
   * rows (adj_lvr, adj_lvc) beside the entries; the condition is
   * mcpi_adj_row_width's without smiles (adj_q, set below, is nonzero
   * exactly for each && by_quote), where both backends give the sweep its
   * rows (adjoint_kernel.cu's job_rows, backend_cpu.c) */
  j->nadj_lvr = ok && lv && n == 1 && ns <= MCPI_ADJ_ROW_NODES && !(each && by_quote(j->u[0]))
                    ? j->nelem
                    : 0;
  ok = ok && (!j->nadj_lvr ||
              ((j->adj_lvr = malloc(j->nelem * sizeof *j->adj_lvr)) != NULL &&
               (j->adj_lvc = calloc(2 * j->nelem * ns, sizeof *j->adj_lvc)) != NULL));
  /* an implied surface's buckets are its quotes: one asset's sweep holds
   * its smiles' coordinates (adjoint.h's window), several assets' chain
   * each slice node to the quotes */
  smile_rows qr[MCP_MAX_ASSETS];
  size_t nqr = 0;
  for (; nqr < n && ok && lv && each; nqr++)
    ok = !by_quote(j->u[nqr]) || smile_rows_init(&qr[nqr], j->u[nqr]);
  const mcpi_implied *iv1 = n == 1 && lv && each && by_quote(j->u[0]) ? &j->u[0]->iv : NULL;
  j->adj_q = iv1 ? (int)iv1->n : 0;
  if (iv1 && ok) {
    ok = (j->adj_qoff = malloc((iv1->n + 1) * sizeof *j->adj_qoff)) != NULL &&
         (j->adj_dq = malloc(5 * iv1->nq * sizeof *j->adj_dq)) != NULL;
    for (size_t i = 0; ok && i <= iv1->n; i++)
      j->adj_qoff[i] = (int32_t)iv1->qoff[i];
    if (ok)
      memcpy(j->adj_dq, iv1->dsvi, 5 * iv1->nq * sizeof *j->adj_dq);
  }
  /* a slice node of such a surface has 5 entries a smile it is between
   * (several assets': their quotes), one of a surface of nodes an entry a
   * row its step reads: two, and one more a row's time inside the step
   * (each of an asset's rows inside one step at most); reserved once, not
   * grown by copies (20 x 20 nodes on 252 steps: 250 KB, whose growth
   * into realloc's fresh pages was a third of the Jacobians' time) */
  size_t per = 0;
  for (size_t a = 0; a < nqr; a++)
    for (size_t i = 0; by_quote(j->u[a]) && i < j->u[a]->iv.n; i++) {
      size_t m = iv1 ? MCPI_ADJ_SMILE : j->u[a]->iv.qoff[i + 1] - j->u[a]->iv.qoff[i];
      per = 2 * m + 1 > per ? 2 * m + 1 : per;
    }
  lcap = per ? j->nelem * ns * per : lv ? ns * (2 * j->nelem + n * nt) : 0;
  if (lcap && ok)
    ok = (j->adj_lv = malloc(lcap * sizeof *j->adj_lv)) != NULL;
  j->nadj = j->nadj_lv = j->nadj_d = 0;
  size_t top = 0; /* the rows the slices read: below top */
  for (size_t e = 0; e < j->nelem && ok; e++) {
    /* element e: asset a of step e / F, F a step's elements (n, or 2 n
     * Heston ones, an asset's drift its first's) */
    size_t s = e / (size_t)j->nfactors, a = e % (size_t)j->nfactors / (heston ? 2 : 1);
    const mcpi_underlying *u = j->u[a];
    const mcpi_curve *curve[3] = {&u->vol, &u->rate, &u->dividend};
    double t0 = s ? j->times[s - 1] : 0, t1 = j->times[s], b = j->cb[e];
    j->adj_off[e] = (int32_t)j->nadj;
    for (int k = 0; k < 3 && !(heston && e % 2); k++) /* a = int (r - q) - int sigma^2 / 2, */
      for (size_t p = 0; p < np[k][a] && ok; p++) {         /* b = sqrt(int sigma^2) */
        double tau = overlap(curve[k], p, t0, t1), sig = k == 0 ? u->vol.value[p] : 0;
        if (tau > 0)
          ok = push(&j->adj, &j->nadj, &cap, (int32_t)(off[k][a] + (each ? p : 0)), k,
                    k == 0 ? -sig * tau : k == 1 ? tau : -tau, sig * tau / b);
      }
    if (j->nadj_lvr)
      j->adj_lvr[e] = -2; /* not yet known */
    const mcpi_surface *sf = &u->lv;
    size_t lo = 0, hi = ns ? mcpi_job_slice_jacobian(j, a, t0, t1, j->lv_vol + e * ns, d, nt, &lo)
                           : 0;
    top = hi > top ? hi : top;
    for (size_t i = 0; i < ns && ok; i++) { /* a narrower surface's flat nodes: its last */
      size_t k = i < sf->ns ? i : sf->ns - 1, m0 = 0, m1 = 0;
      double *dk = d + k * nt; /* node k's rows */
      if (j->lv_vol[e * ns + i] > 0) /* else none: mcpi_job_slice_jacobian */
        m0 = lo, m1 = hi;
      j->adj_lvoff[e * ns + i] = (int32_t)j->nadj_lv;
      if (j->nadj_lvr) { /* every node's rows m0 and m0 + 1 at most, the same m0 */
        int32_t *r = &j->adj_lvr[e];
        *r = m1 > m0 && m1 - m0 <= 2 && (*r == -2 || *r == (int32_t)m0) ? (int32_t)m0 : -1;
        for (size_t m = m0; m < m1 && *r >= 0; m++)
          j->adj_lvc[2 * (e * ns + i) + (m - m0)] = dk[m];
      }
      if (each && by_quote(u))
        ok = push_smiles(&j->adj_lv, &j->nadj_lv, &lcap, &qr[a], k, dk, m0, m1, !iv1,
                         (int32_t)off[0][a]);
      for (size_t m = m0; m < m1 && ok && !(each && by_quote(u)); m++)
        if (dk[m] != 0)
          ok = push(&j->adj_lv, &j->nadj_lv, &lcap,
                    (int32_t)(off[0][a] + (each ? m * sf->ns + k : 0)), (int32_t)m, dk[m],
                    dk[m]);
    }
    for (size_t k = 0; k < (ns ? sf->ns : 0); k++) /* d stays zero outside a step's rows */
      for (size_t m = lo; m < hi; m++)
        d[k * nt + m] = 0;
  }
  /* the first asset's curve discounts: each trade's payment, then an early
   * exercise's dates (a path's row its exercise's, adjoint.h) */
  for (size_t q = 0; q < j->ntrades + (size_t)j->lsm_dates && ok; q++) {
    j->adj_doff[q] = (int32_t)j->nadj_d;
    double paid = q < j->ntrades ? j->spec[q].g_time : j->lsm_time[q - j->ntrades];
    for (size_t p = 0; p < np[1][0] && (q < j->nreal || q >= j->ntrades) && ok; p++) {
      double tau = overlap(&j->u[0]->rate, p, 0, paid);
      if (tau > 0)
        ok = push(&j->adj_d, &j->nadj_d, &dcap, (int32_t)(off[1][0] + (each ? p : 0)), 1, -tau, 0);
    }
  }
  free(d);
  for (size_t a = 0; a < nqr; a++)
    if (by_quote(j->u[a]))
      smile_rows_free(&qr[a]);
  if (!ok)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the adjoint's Jacobians");
  j->adj_off[j->nelem] = (int32_t)j->nadj;
  j->adj_doff[j->ntrades + (size_t)j->lsm_dates] = (int32_t)j->nadj_d;
  if (lv)
    j->adj_lvoff[j->nelem * ns] = (int32_t)j->nadj_lv;
  j->adj_div = div;
  j->adj_nv = (int)(off[0][n] - off[0][0]);
  /* one asset's node buckets: the rows from top on are never added to */
  j->adj_zlo = j->adj_zhi = 0;
  if (lv && n == 1 && each && !by_quote(j->u[0]) && top < j->u[0]->lv.nt) {
    j->adj_zlo = (int)(off[0][0] + top * j->u[0]->lv.ns);
    j->adj_zhi = (int)off[0][1];
  }
  return MCP_OK;
}

mcp_status mcpi_adjoint_deltas(mcpi_job *j, char *err)
{
  size_t cap = 0;
  int ok = 1;
  j->adj_cols = 0;
  for (size_t a = 0; a < j->nassets && ok; a++)
    ok = push_col(j, &cap, (mcpi_adj_col){MCP_GREEK_DELTA, (int)a, 0});
  return ok ? MCP_OK : mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the adjoint's deltas");
}

/* A several-Heston job's T (correlation.c: driver 2 a is asset a's
 * variance's Brownian motion, 2 a + 1 its spot's part independent of it,
 * (W_x - rho W_v) / sqrt(1 - rho^2)), dense over the factors, and with
 * da >= 0 its derivative in asset da's rho instead. */
static void heston_t(const mcpi_job *j, long da, double *t)
{
  size_t f = (size_t)j->nfactors;
  memset(t, 0, f * f * sizeof *t);
  for (size_t a = 0; a < j->nassets; a++) {
    double rho = j->u[a]->rho, s = sqrt(1 - rho * rho), s3 = s * s * s;
    size_t v = 2 * a, x = v + 1;
    if (da < 0) {
      t[v * f + v] = 1;
      t[x * f + x] = 1 / s;
      t[x * f + v] = -rho / s;
    } else if ((size_t)da == a) {
      t[x * f + x] = rho / s3;
      t[x * f + v] = -1 / s3;
    }
  }
}

/* r = a b' (transpose: b is read by rows) or a b, f x f. */
static void mul(size_t f, const double *a, const double *b, int bt, double *r)
{
  for (size_t i = 0; i < f; i++)
    for (size_t k = 0; k < f; k++) {
      double x = 0;
      for (size_t u = 0; u < f; u++)
        x += a[i * f + u] * (bt ? b[k * f + u] : b[u * f + k]);
      r[i * f + k] = x;
    }
}

/* x = dd's pair (p, q), each s, between L^-1 and L^-T: (L^-1 dd L^-T)'s
 * lower triangle as the dense products would make it, their zero terms
 * left out (each sum's first term added to +0, then the other: the same
 * bits), in O(f^2); p == q, a single entry. */
static void pair_between(size_t f, const double *inv, size_t p, size_t q, double s, double *x)
{
  size_t lo = p < q ? p : q, hi = p < q ? q : p;
  for (size_t i = 0; i < f; i++) {
    double ulo = 0.0 + inv[i * f + hi] * s, uhi = 0.0 + inv[i * f + lo] * s; /* (L^-1 dd)'s */
    for (size_t k = 0; k <= i; k++)
      x[i * f + k] = (0.0 + ulo * inv[k * f + lo]) + (lo < hi ? uhi * inv[k * f + hi] : 0.0);
  }
}

void mcpi_adjoint_correlation(const mcpi_job *j, const mcp_market *m, size_t p, size_t q,
                              double *dl)
{
  enum { F = MCPI_MAX_FACTORS };
  int heston = j->model == MCPI_MODEL_HESTON;
  size_t f = (size_t)j->nfactors;
  double l[F * F], inv[F * F] = {0}, x[F * F];
  for (size_t i = 0; i < f; i++)
    for (size_t k = 0; k < f; k++)
      l[i * f + k] = k <= i ? j->chol[i * MCPI_MAX_FACTORS + k] : 0;
  for (size_t col = 0; col < f; col++) /* L^-1 by columns: L y = e_col */
    for (size_t i = 0; i < f; i++) {
      double y = i == col ? 1 : 0;
      for (size_t k = 0; k < i; k++)
        y -= l[i * f + k] * inv[k * f + col];
      inv[i * f + col] = y / l[i * f + i];
    }
  /* X = L^-1 dD L^-T */
  if (!heston) {
    pair_between(f, inv, p, q, 1, x);
  } else if (p != q) { /* T dC T': the spots' entries of T, 1 / s */
    double sp = sqrt(1 - j->u[p]->rho * j->u[p]->rho), sq = sqrt(1 - j->u[q]->rho * j->u[q]->rho);
    pair_between(f, inv, 2 * p + 1, 2 * q + 1, 1 / (sp * sq), x);
  } else { /* dT C T' + T C dT' + T dC T', dC asset p's own pair */
    double dd[F * F] = {0}, c[F * F] = {0}, t[F * F] = {0}, u[F * F] = {0};
    size_t bm[F];
    for (size_t a = 0; a < j->nassets; a++) {
      size_t k = (size_t)(j->u[a] - m->u);
      bm[2 * a] = MCPI_VARIANCE_BM(k);
      bm[2 * a + 1] = MCPI_SPOT_BM(k);
    }
    for (size_t i = 0; i < f; i++)
      for (size_t k = 0; k < f; k++)
        c[i * f + k] = mcpi_market_bm_correlation(m, bm[i], bm[k]);
    heston_t(j, (long)p, x); /* dT */
    heston_t(j, -1, t);
    mul(f, x, c, 0, u);  /* dT C */
    mul(f, u, t, 1, dd); /* dT C T' */
    for (size_t i = 0; i < f; i++)
      for (size_t k = 0; k <= i; k++)
        dd[i * f + k] = dd[k * f + i] = dd[i * f + k] + dd[k * f + i];
    memset(c, 0, f * f * sizeof *c);
    c[2 * p * f + 2 * p + 1] = c[(2 * p + 1) * f + 2 * p] = 1;
    mul(f, t, c, 0, u); /* T dC */
    mul(f, u, t, 1, x); /* T dC T' */
    for (size_t i = 0; i < f * f; i++)
      dd[i] += x[i];
    for (size_t i = 0; i < f; i++) /* an asset's own pair: 0 and 1 whatever rho */
      for (size_t k = 0; k < f; k++)
        dd[i * f + k] = i / 2 == k / 2 ? 0 : dd[i * f + k];
    mul(f, inv, dd, 0, u);
    mul(f, u, inv, 1, x);
  }
  /* Phi(X): X's lower triangle, the diagonal halved; dL = L Phi(X) */
  for (size_t i = 0, at = 0; i < f; i++)
    for (size_t k = 0; k <= i; k++, at++) {
      double y = 0;
      for (size_t r = k; r <= i; r++)
        y += l[i * f + r] * (r > k ? x[r * f + k] : x[r * f + k] / 2);
      dl[at] = y;
    }
}

/* The fewest significant digits, from %g's 6, that tell the n ascending
 * values apart: two buckets never share a label (a name that a caller's
 * map would keep once), and the usual grids keep %g's. */
static int digits_apart(const double *v, size_t n)
{
  for (int d = 6; d < 17; d++) {
    /* values further apart than twice their larger's 10^(1 - d), above
     * the two roundings' halves of a unit in the d-th digit, differ in
     * %.*g; the others are formatted and compared */
    double far = 2 * pow(10, 1 - d);
    size_t i = 1;
    for (char a[32], b[32]; i < n; i++) {
      if (fabs(v[i] - v[i - 1]) > far * fmax(fabs(v[i]), fabs(v[i - 1])))
        continue;
      snprintf(a, sizeof a, "%.*g", d, v[i - 1]);
      snprintf(b, sizeof b, "%.*g", d, v[i]);
      if (strcmp(a, b) == 0)
        break;
    }
    if (i >= n)
      return d;
  }
  return 17;
}

void mcpi_label_digits_free(mcpi_label_digits *memo)
{
  free(memo->spot);
  memo->spot = NULL;
  memo->row = 0;
}

int mcpi_adjoint_label(const mcpi_underlying *u, mcp_greek greek, long bucket,
                       mcpi_label_digits *memo, char *out, size_t n)
{
  size_t k = (size_t)(bucket - 1);
  static const char *const heston[5] = {"v0", "kappa", "theta", "xi", "rho"};
  if (greek == MCP_GREEK_VEGA && u->model == MCPI_MODEL_HESTON && k < 5)
    return snprintf(out, n, "%s", heston[k]);
  int lv = greek == MCP_GREEK_VEGA && u->model == MCPI_MODEL_LOCAL_VOL;
  const mcpi_implied *iv = lv && by_quote(u) ? &u->iv : NULL;
  const mcpi_curve *c =
      greek == MCP_GREEK_VEGA ? &u->vol : greek == MCP_GREEK_RHO ? &u->rate : &u->dividend;
  mcpi_label_digits own = {NULL, greek, {0, 0}, NULL, 0, ""}, *m = memo ? memo : &own;
  if (m->u != u || m->greek != greek) {
    mcpi_label_digits_free(m);
    m->u = u;
    m->greek = greek;
    m->d[0] = iv   ? digits_apart(iv->t, iv->n)
              : lv ? digits_apart(u->lv.times, u->lv.nt)
                   : digits_apart(c->end, c->n - 1);
    m->d[1] = lv                            ? digits_apart(u->lv.spots, u->lv.ns)
              : greek == MCP_GREEK_DIVIDEND ? digits_apart(u->cash_t, u->ncash)
                                            : 0;
    for (size_t i = 0; iv && i < iv->n; i++) { /* a maturity's strikes apart */
      int d = digits_apart(iv->qk + iv->qoff[i], iv->qoff[i + 1] - iv->qoff[i]);
      m->d[1] = i == 0 || d > m->d[1] ? d : m->d[1];
    }
  }
  if (iv) { /* quote k: its maturity's and strike's */
    size_t i = 0;
    while (i + 1 < iv->n && k >= iv->qoff[i + 1])
      i++;
    return snprintf(out, n, "T=%.*g,K=%.*g", m->d[0], iv->t[i], m->d[1], iv->qk[k]);
  }
  if (greek == MCP_GREEK_DIVIDEND && k >= c->n) /* a cash dividend's amount */
    return snprintf(out, n, "t=%.*g", m->d[1], u->cash_t[k - c->n]);
  if (lv && memo) { /* each coordinate formatted once (no room: as below) */
    size_t ns = u->lv.ns, row = k / ns;
    if (!m->spot && (m->spot = malloc(ns * sizeof *m->spot)))
      for (size_t i = 0; i < ns; i++)
        snprintf(m->spot[i], sizeof *m->spot, "%.*g", m->d[1], u->lv.spots[i]);
    if (m->row != row + 1) {
      snprintf(m->time, sizeof m->time, "%.*g", m->d[0], u->lv.times[row]);
      m->row = row + 1;
    }
    if (m->spot) { /* copied: an snprintf was most of a label's time */
      const char *sp = m->spot[k % ns];
      size_t lt = strlen(m->time), ls = strlen(sp), len = 5 + lt + ls;
      if (len >= n)
        return snprintf(out, n, "t=%s,S=%s", m->time, sp);
      memcpy(out, "t=", 2);
      memcpy(out + 2, m->time, lt);
      memcpy(out + 2 + lt, ",S=", 3);
      memcpy(out + 5 + lt, sp, ls + 1);
      return (int)len;
    }
  }
  if (lv)
    return snprintf(out, n, "t=%.*g,S=%.*g", m->d[0], u->lv.times[k / u->lv.ns], m->d[1],
                    u->lv.spots[k % u->lv.ns]);
  double lo, hi;
  piece(c, k, &lo, &hi);
  int d = m->d[0];
  return isinf(hi) ? snprintf(out, n, "(%.*g,inf)", d, lo)
                   : snprintf(out, n, "(%.*g,%.*g]", d, lo, d, hi);
}
