/* private.h: the products that keep a small array per path (Himalaya,
 * cliquet, moving window, autocallable), shared by the CPU and GPU backends,
 * in double.
 *
 * A job of such trades gives each path one array of j->arr_len doubles; trade
 * p owns elements p->arr_off .. p->arr_off + p->arr_len - 1 (slots below are
 * relative to it).  The algorithms reach the array only through mcpi_aget and
 * mcpi_aset, so that where it lives is the caller's choice (the placements of
 * mcp_placement):
 *   mcpi_parr     memory: element i at p[i stride]; local memory (stride 1),
 *                 shared memory (p = base + thread, stride = block), the CPU;
 *   mcpi_rarr<L>  registers (CUDA): every access a scan of the L compile-time
 *                 indices, so that no index is left for the compiler to
 *                 resolve at run time.
 * Under C the functions take mcpi_parr; under C++ they are templates over
 * the array type.  Every placement runs the same operations in the same
 * order, so per-path values are identical bit for bit.
 *
 * Layouts (n fixings, W the window):
 *   Himalaya  [0, n) performances at the fixing, [n, 2n) the remaining
 *             assets' indices (the path's own order), 2n the sum of the
 *             recorded performances, 2n + 1 the fixings done (a seasoned
 *             one's past ones among them: its array at 0 is seeded);
 *   cliquet   [0, n) the clamped period returns so far, sorted descending,
 *             n the previous fixing's spot, n + 1 the fixings done;
 *   window    [0, W) ring of the last W spots (fixing k in slot k mod W),
 *             W 1 while alive, W + 1 the fixings done;
 *   autocall  the fixings done, the date it redeems (the last until called),
 *             1 while alive, the coupons due, the discounted amount paid so
 *             far, 1 once knocked in (at a date, or before the valuation
 *             date), the last log-performance.
 * An autocallable's redemption probabilities are columns of their own: a
 * spec a date (MCPI_PRODUCT_REDEMPTION, quantity 0) that reads the date of
 * redemption from its trade's array and pays 1 on that date. */
#ifndef MCP_PRIVATE_H
#define MCP_PRIVATE_H

/* included by path.h, after mcpi_job_view and mcpi_emit */
#include "models/products/payoff.h"
#include "models/mcp_dmath.h"

/* The spots of the arrays: on the host the paths' own exp (mcpi_dexp, the
 * polynomial), so that an array product and the plain product it equals (a
 * full window and the Asian) read the same spots; CUDA's exp on the device. */
#ifdef __CUDA_ARCH__
#define MCPI_ARRAY_EXP exp
#else
#define MCPI_ARRAY_EXP mcpi_dexp
#endif

typedef struct mcpi_parr {
  double *p;
  uint32_t stride;
} mcpi_parr;

MCP_HD static inline double mcpi_aget(const mcpi_parr *a, int i)
{
  return a->p[(size_t)i * a->stride];
}

MCP_HD static inline void mcpi_aset(mcpi_parr *a, int i, double v)
{
  a->p[(size_t)i * a->stride] = v;
}

#ifdef __cplusplus
template <int L> struct mcpi_rarr {
  double r[L];
};

template <int L> MCP_HD static inline double mcpi_aget(const mcpi_rarr<L> *a, int i)
{
  double v = a->r[0];
#pragma unroll
  for (int q = 1; q < L; q++)
    v = q == i ? a->r[q] : v;
  return v;
}

template <int L> MCP_HD static inline void mcpi_aset(mcpi_rarr<L> *a, int i, double v)
{
#pragma unroll
  for (int q = 0; q < L; q++)
    a->r[q] = q == i ? v : a->r[q];
}
#define MCPI_ARRAY_FN template <typename A> MCP_HD static inline
#define MCPI_ARRAY A
#else
#define MCPI_ARRAY_FN MCP_HD static inline
#define MCPI_ARRAY mcpi_parr
#endif

#define MCPI_PRODUCT_REDEMPTION 1000 /* past mcp_product's values */
enum { MCPI_AC_DONE, MCPI_AC_DATE, MCPI_AC_ALIVE, MCPI_AC_DUE, MCPI_AC_PAID, MCPI_AC_KNOCKED,
       MCPI_AC_PERF, MCPI_AC_SLOTS };
/* An autocallable date's row of the view's table: its discount factor and
 * the log of its autocall level. */
#define MCPI_AC_ROW 2

/* Elements a trade's array needs: n fixings (Himalaya: n assets), W window. */
static inline int mcpi_private_len(int product, int nfix, int window)
{
  switch (product) {
  case MCP_PRODUCT_HIMALAYA: return 2 * nfix + 2;
  case MCP_PRODUCT_CLIQUET: return nfix + 2;
  case MCP_PRODUCT_MOVING_WINDOW: return window + 2;
  case MCP_PRODUCT_AUTOCALLABLE: return MCPI_AC_SLOTS;
  default: return 0;
  }
}

static inline int mcpi_private_product(int product)
{
  return mcpi_private_len(product, 1, 1) > 0;
}

/* The log-spot at 0 of the job's asset i. */
MCP_HD static inline double mcpi_log_spot0(const mcpi_job_view *j, int i)
{
  return j->nassets > 1 ? j->log_spots[i] : j->log_spot;
}

MCPI_ARRAY_FN void mcpi_private_init(MCPI_ARRAY *a, const mcpi_job_view *j)
{
  for (int t = 0; t < j->narrays; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
    int o = p->arr_off, n = p->nper;
    if (p->flags & MCPI_SEEDED) { /* a seasoned one's, from its history */
      for (int i = 0; i < p->arr_len; i++)
        mcpi_aset(a, o + i, j->arr0[p->arr_seed - 1 + i]);
      continue;
    }
    switch (p->product) {
    case MCP_PRODUCT_HIMALAYA:
      for (int i = 0; i < n; i++)
        mcpi_aset(a, o + n + i, i);
      mcpi_aset(a, o + 2 * n, 0);
      mcpi_aset(a, o + 2 * n + 1, 0);
      break;
    case MCP_PRODUCT_CLIQUET:
      mcpi_aset(a, o + n, MCPI_ARRAY_EXP(j->log_spot));
      mcpi_aset(a, o + n + 1, 0);
      break;
    case MCP_PRODUCT_AUTOCALLABLE: /* a seasoned one's coupons due and knock-in */
      for (int i = 0; i < MCPI_AC_SLOTS; i++)
        mcpi_aset(a, o + i, i == MCPI_AC_DATE      ? n - 1
                            : i == MCPI_AC_ALIVE   ? 1
                            : i == MCPI_AC_DUE     ? p->ac_due0
                            : i == MCPI_AC_KNOCKED ? p->ac_knocked0
                                                   : 0);
      break;
    default: /* moving window */
      mcpi_aset(a, o + p->window, 1);
      mcpi_aset(a, o + p->window + 1, 0);
    }
  }
}

/* Himalaya fixing: the best performer among the remaining assets is recorded
 * and swapped out of the list (the first of equals wins); performances from
 * the spots at 0, or a seasoned one's initial fixings. */
MCPI_ARRAY_FN void mcpi_himalaya_fix(MCPI_ARRAY *a, const mcpi_job_view *j,
                                     const mcpi_payoff_spec *p, const double *x)
{
  int o = p->arr_off, n = p->nper, k = (int)mcpi_aget(a, o + 2 * n + 1);
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++) /* x[i] stays a register */
    if (i < n)
      mcpi_aset(a, o + i, MCPI_ARRAY_EXP(x[i] - (p->flags & MCPI_SEEDED ? p->log_initial[i]
                                                                        : mcpi_log_spot0(j, i))));
  int left = n - k, at = 0;
  double best = -INFINITY;
  for (int q = 0; q < left; q++) {
    double v = mcpi_aget(a, o + (int)mcpi_aget(a, o + n + q));
    if (v > best) {
      best = v;
      at = q;
    }
  }
  mcpi_aset(a, o + 2 * n, mcpi_aget(a, o + 2 * n) + best);
  mcpi_aset(a, o + n + at, mcpi_aget(a, o + n + left - 1));
  mcpi_aset(a, o + 2 * n + 1, k + 1);
}

/* Cliquet fixing: the period's clamped return inserted into the sorted list. */
MCPI_ARRAY_FN void mcpi_cliquet_fix(MCPI_ARRAY *a, const mcpi_payoff_spec *p, double x)
{
  int o = p->arr_off, n = p->nper, k = (int)mcpi_aget(a, o + n + 1);
  double s = MCPI_ARRAY_EXP(x), r = s / mcpi_aget(a, o + n) - 1;
  r = fmin(fmax(r, p->local_floor), p->local_cap);
  int i = k;
  for (; i > 0; i--) {
    double up = mcpi_aget(a, o + i - 1);
    if (up >= r)
      break;
    mcpi_aset(a, o + i, up);
  }
  mcpi_aset(a, o + i, r);
  mcpi_aset(a, o + n, s);
  mcpi_aset(a, o + n + 1, k + 1);
}

/* The sum of a moving window's W slots, in slot order (with W the number of
 * fixings, the Asian's order of summation). */
MCPI_ARRAY_FN double mcpi_window_sum(const MCPI_ARRAY *a, const mcpi_payoff_spec *p)
{
  double sum = 0;
  for (int i = 0; i < p->window; i++)
    sum += mcpi_aget(a, p->arr_off + i);
  return sum;
}

/* Moving-window fixing: the spot into the ring; from the W-th fixing on, the
 * window's average against the barrier. */
MCPI_ARRAY_FN void mcpi_window_fix(MCPI_ARRAY *a, const mcpi_payoff_spec *p, double x)
{
  int o = p->arr_off, w = p->window, k = (int)mcpi_aget(a, o + w + 1);
  mcpi_aset(a, o + k % w, MCPI_ARRAY_EXP(x));
  if (k + 1 >= w && p->barrier > 0) {
    double avg = mcpi_window_sum(a, p) * p->inv_window;
    if (p->flags & MCPI_UP ? avg >= p->barrier : avg <= p->barrier)
      mcpi_aset(a, o + w, 0);
  }
  mcpi_aset(a, o + w + 1, k + 1);
}

/* Autocallable observation date: the worst log-performance of the trade's
 * assets against the date's levels (the class comment in mcprice.h). */
MCPI_ARRAY_FN void mcpi_autocall_fix(MCPI_ARRAY *a, const mcpi_job_view *j,
                                     const mcpi_payoff_spec *p, const double *x)
{
  int o = p->arr_off, k = (int)mcpi_aget(a, o + MCPI_AC_DONE);
  mcpi_aset(a, o + MCPI_AC_DONE, k + 1);
  if (mcpi_aget(a, o + MCPI_AC_ALIVE) == 0)
    return;
  double lp = INFINITY;
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++) /* x[i] stays a register */
    if (i < j->nassets && (p->assets >> i & 1u)) {
      double r = x[i] - p->log_initial[i];
      lp = r < lp ? r : lp;
    }
  const double *row = j->acall + (size_t)(p->ac_row + k) * MCPI_AC_ROW;
  double due = mcpi_aget(a, o + MCPI_AC_DUE) + 1, paid = mcpi_aget(a, o + MCPI_AC_PAID);
  if (lp < p->log_knock_in)
    mcpi_aset(a, o + MCPI_AC_KNOCKED, 1);
  if (lp >= row[1]) {
    paid += row[0] * p->notional * (1 + p->coupon * due);
    due = 0;
    mcpi_aset(a, o + MCPI_AC_ALIVE, 0);
    mcpi_aset(a, o + MCPI_AC_DATE, k);
  } else if (lp >= p->log_coupon) {
    paid += row[0] * p->notional * p->coupon * due;
    due = 0;
  } else if (!(p->flags & MCPI_MEMORY)) {
    due = 0;
  }
  mcpi_aset(a, o + MCPI_AC_DUE, due);
  mcpi_aset(a, o + MCPI_AC_PAID, paid);
  mcpi_aset(a, o + MCPI_AC_PERF, lp);
}

/* Whether the element of this tag ends a step with fixings, after which the
 * arrays record the log-spots (mcpi_private_fix). */
MCP_HD static inline int mcpi_private_fixes(uint32_t tag)
{
  return (tag & MCPI_TAG_LAST) && (tag & MCPI_TAG_MASK);
}

/* The end of a step with fixings (mcpi_private_fixes): the trades of those
 * schedules record the log-spots x (one for each of the job's assets). */
MCPI_ARRAY_FN void mcpi_private_fix(MCPI_ARRAY *a, const mcpi_job_view *j, uint32_t tag,
                                    const double *x)
{
  uint32_t mask = tag & MCPI_TAG_MASK;
  for (int t = 0; t < j->narrays; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
    if (!(mask >> p->schedule & 1u))
      continue;
    switch (p->product) {
    case MCP_PRODUCT_HIMALAYA: mcpi_himalaya_fix(a, j, p, x); break;
    case MCP_PRODUCT_CLIQUET: mcpi_cliquet_fix(a, p, x[0]); break;
    case MCP_PRODUCT_AUTOCALLABLE: mcpi_autocall_fix(a, j, p, x); break;
    default: mcpi_window_fix(a, p, x[0]);
    }
  }
}

/* Undiscounted payoff of trade p at the end of the path (an autocallable's
 * and a redemption column's discounted: their discount is 1); survival: the
 * path's barrier monitors' (path_body.h). */
MCPI_ARRAY_FN double mcpi_private_payoff(const MCPI_ARRAY *a, const mcpi_job_view *j,
                                         const mcpi_payoff_spec *p, const double *survival)
{
  int o = p->arr_off, n = p->nper;
  switch (p->product) {
  case MCP_PRODUCT_AUTOCALLABLE: {
    double v = mcpi_aget(a, o + MCPI_AC_PAID);
    if (mcpi_aget(a, o + MCPI_AC_ALIVE) != 0) { /* to maturity, not called there */
      double alive = 1; /* selected, so that no index is left for run time (registers) */
      MCP_UNROLL
      for (int m = 0; m < MCPI_MAX_MONITORS; m++)
        alive = m == p->monitor ? survival[m] : alive;
      double in = p->monitor >= 0 ? 1 - alive : mcpi_aget(a, o + MCPI_AC_KNOCKED);
      double put = p->strike - MCPI_ARRAY_EXP(mcpi_aget(a, o + MCPI_AC_PERF));
      double df = j->acall[(size_t)(p->ac_row + n - 1) * MCPI_AC_ROW];
      v += df * p->notional * (1 - in * (put > 0 ? put : 0));
    }
    return v;
  }
  case MCPI_PRODUCT_REDEMPTION:
    return mcpi_aget(a, o + MCPI_AC_DATE) == p->ac_date;
  case MCP_PRODUCT_HIMALAYA:
    return p->notional * mcpi_vanilla(p->type, mcpi_aget(a, o + 2 * n) * p->inv_nfix, p->strike);
  case MCP_PRODUCT_CLIQUET: {
    double sum = 0;
    for (int i = 0; i < p->best; i++)
      sum += mcpi_aget(a, o + i);
    return p->notional * fmin(fmax(sum, p->global_floor), p->global_cap);
  }
  default:
    return mcpi_aget(a, o + p->window) != 0
               ? mcpi_vanilla(p->type, mcpi_window_sum(a, p) * p->inv_window, p->strike)
               : p->rebate;
  }
}

MCPI_ARRAY_FN void mcpi_private_finish(const MCPI_ARRAY *a, const mcpi_job_view *j,
                                       const double *survival, double *pay, size_t ldp, int pass)
{
  double book = 0;
  for (int t = 0; t < j->ntrades; t++)
    mcpi_emit(j, t, j->trades[t].discount * mcpi_private_payoff(a, j, &j->trades[t], survival), 0,
              pay, ldp, pass, &book);
  pay[(size_t)j->ntrades * ldp] = book;
}

#endif
