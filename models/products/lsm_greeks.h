/* lsm_greeks.h: the spot Greeks of a Longstaff-Schwartz trade on the
 * price's own paths, shared by the CPU and GPU backends, in double.
 *
 * Where a model moves the log-spots by amounts that do not depend on the
 * spots (Black-Scholes, Merton, Heston: greeks.h), the paths from spots moved by
 * 1 + h are the price's paths scaled.  A Greek's revaluation keeps the
 * fitted exercise rule (run_job.c), so a scaled path's value is that rule
 * applied to the scaled spots at each exercise date: the basis's
 * log-returns and variance do not move, the payoff's underlying does.  A
 * path therefore carries, beside its own exercise, one for each scenario of
 * scaled spots, and no revaluation simulates them again.  Scenarios, in
 * order: each asset of the trade up (g_e[0]) and down (g_e[1]); with cross
 * gammas, each pair a < b of them, q = 0 .. 3: a up for q < 2, b up for
 * even q.  A scenario's value is the discounted amount received, below 0
 * until it exercises. */
#ifndef MCP_LSM_GREEKS_H
#define MCP_LSM_GREEKS_H

#include "models/products/greeks.h"
#include "models/products/lsm.h"

/* The most scenarios a path carries (10 assets with their cross gammas,
 * STAC-A2's large shape: 1,600 bytes of a thread's frame); beyond, the spot
 * Greeks are revaluations (variants.c). */
#define MCPI_LSM_MAX_SCALED 200

/* The assets a trade of n reads (one asset: the one). */
MCP_HD static inline uint32_t mcpi_lsm_mine(const mcpi_payoff_spec *p, int n)
{
  return n > 1 ? p->assets : 1u;
}

/* The scenarios of a trade reading the assets in mine. */
MCP_HD static inline int mcpi_lsm_scaled_count(uint32_t mine, int cross)
{
  int k = 0;
  for (uint32_t m = mine; m; m &= m - 1)
    k++;
  return 2 * k + (cross ? 2 * k * (k - 1) : 0);
}

/* A path's scenarios of trade p on n assets, none exercised. */
MCP_HD static inline void mcpi_lsm_scaled_init(const mcpi_payoff_spec *p, int n, double *sc)
{
  int k = mcpi_lsm_scaled_count(mcpi_lsm_mine(p, n), p->g_cross);
  for (int i = 0; i < k; i++)
    sc[i] = -1;
}

/* The underlying of p (several assets) with assets a and b (b < 0: none)
 * scaled by fa and fb: a basket's moves by those assets' shares, a
 * best-of's or worst-of's is found again. */
MCP_HD static inline double mcpi_lsm_under_moved(const mcpi_payoff_spec *p, const double *s,
                                                 int n, double under, int a, double fa, int b,
                                                 double fb)
{
  if (!(p->flags & (MCPI_LSM_BEST | MCPI_LSM_WORST)))
    return under + p->weight[a] * s[a] * (fa - 1) + (b >= 0 ? p->weight[b] * s[b] * (fb - 1) : 0);
  int best = (p->flags & MCPI_LSM_BEST) != 0;
  double u = best ? -INFINITY : INFINITY;
  for (int i = 0; i < n; i++)
    if (p->assets >> i & 1u) {
      double x = s[i] * (i == a ? fa : i == b ? fb : 1.0);
      u = best ? (x > u ? x : u) : (x < u ? x : u);
    }
  return u;
}

/* A scenario's exercise where its underlying is under and the fitted
 * continuation's terms other than the underlying's (with beta_0) sum to
 * cq: the underlying's terms added here, as mcpi_lsm_basis has them. */
MCP_HD static inline void mcpi_lsm_scaled_at(const mcpi_payoff_spec *p, const double *row,
                                             double under, double cq, double *val)
{
  double h = mcpi_vanilla(p->type, under, p->strike), y = under * p->lsm_inv;
  double c = row[1] == MCPI_LSM_FIT ? cq + row[3] * y + row[4] * (y * y) + row[5] * (y * y * y) : 0;
  double value;
  if (mcpi_lsm_exercises(row, h, c, &value))
    *val = value;
}

/* Whether no scenario of p can be in the money at spots s (n of them): the
 * scaled underlying moves by at most the largest relative bump times the
 * sum of its assets' shares (a basket's), or times itself (one asset, a
 * best-of's or worst-of's).  Most of an at-the-money option's dates are
 * so, out of the money by more than the bump (the margin of 1e-12 of that
 * sum covers the rounding of a scenario's, however small the bump). */
MCP_HD static inline int mcpi_lsm_scaled_out(const mcpi_payoff_spec *p, const double *s, int n)
{
  double under, m = fmax(fabs(p->g_e[0] - 1), fabs(p->g_e[1] - 1)) + 1e-12, reach;
  mcpi_lsm_exercise(p, s, n, &under);
  if (n == 1 || (p->flags & (MCPI_LSM_BEST | MCPI_LSM_WORST))) {
    reach = under * m;
  } else {
    reach = 0;
    MCP_UNROLL
    for (int i = 0; i < MCP_MAX_ASSETS; i++)
      if (i < n && (p->assets >> i & 1u))
        reach += fabs(p->weight[i]) * s[i];
    reach *= m;
  }
  return p->type == MCP_CALL ? under + reach < p->strike : under - reach > p->strike;
}

/* Scenario k of a trade reading the assets in mine (the order above): asset
 * a scaled by g_e[qa], and asset b (b < 0: none) by g_e[qb]. */
typedef struct {
  int a, qa, b, qb;
} mcpi_lsm_which;

/* The asset of rank r among those in mine. */
MCP_HD static inline int mcpi_lsm_nth(uint32_t mine, int r)
{
  for (int a = 0; a < 32; a++)
    if (mine >> a & 1u && r-- == 0)
      return a;
  return -1;
}

MCP_HD static inline mcpi_lsm_which mcpi_lsm_scaled_which(uint32_t mine, int k)
{
  int m = mcpi_lsm_scaled_count(mine, 0) / 2;
  mcpi_lsm_which w = {0, 0, -1, 0};
  if (k < 2 * m) {
    w.a = mcpi_lsm_nth(mine, k / 2);
    w.qa = k % 2;
    return w;
  }
  int pair = (k - 2 * m) / 4, q = (k - 2 * m) % 4, ra = 0;
  while (pair >= m - 1 - ra) /* the pairs (ra, rb > ra) in order */
    pair -= m - 1 - ra++;
  w.a = mcpi_lsm_nth(mine, ra);
  w.b = mcpi_lsm_nth(mine, ra + 1 + pair);
  w.qa = q >> 1;
  w.qb = q & 1;
  return w;
}

/* Whether the scenarios of several assets are evaluated at the exercise
 * date of row, spots s and log-returns r there (arrays of MCP_MAX_ASSETS):
 * not on a date held, nor out of their reach (mcpi_lsm_scaled_out); if so
 * the base's underlying under and its fitted continuation's sum q0. */
MCP_HD static inline int mcpi_lsm_scaled_ready(const mcpi_payoff_spec *p, const double *row,
                                               const double *s, const double *r, int n,
                                               double *under, double *q0)
{
  if (row[1] == MCPI_LSM_HOLD || mcpi_lsm_scaled_out(p, s, n))
    return 0;
  mcpi_lsm_exercise(p, s, n, under);
  *q0 = row[1] == MCPI_LSM_FIT ? mcpi_lsm_basis(p, n, 0, 0, r, 0, (double *)0, row + 2) : 0;
  return 1;
}

/* Scenario w of several assets at a date mcpi_lsm_scaled_ready admits (its
 * under and q0), its value *val set where it exercises: the base's
 * underlying and the basis's terms in the returns moved by the scaled
 * assets' moves alone (mcpi_lsm_under_moved, mcpi_lsm_basis_move: a few
 * operations a scenario, whose rounding differs from a revaluation's, so
 * that only a path whose exercise and continuation values agree to the
 * last digits may tell them apart). */
MCP_HD static inline void mcpi_lsm_scaled_one(const mcpi_payoff_spec *p, const double *row,
                                              const double *s, const double *r, int n,
                                              double under, double q0, mcpi_lsm_which w,
                                              double *val)
{
  double fb = w.b >= 0 ? p->g_e[w.qb] : 1, lb = w.b >= 0 ? p->g_l[w.qb] : 0;
  mcpi_lsm_scaled_at(
      p, row, mcpi_lsm_under_moved(p, s, n, under, w.a, p->g_e[w.qa], w.b, fb),
      row[1] == MCPI_LSM_FIT ? q0 + mcpi_lsm_basis_move(n, r, w.a, p->g_l[w.qa], w.b, lb, row + 2)
                             : 0,
      val);
}

/* Every scenario not yet exercised, at the exercise date of row; s and r
 * the path's spots and log-returns there (arrays of MCP_MAX_ASSETS; one
 * asset: s[0]), v its variance.  One asset evaluates each scenario whole;
 * several, each by mcpi_lsm_scaled_one (the GPU's lanes, lsm_kernel.cu,
 * share a path's scenarios out).  Dates out of the scenarios' reach are
 * skipped (mcpi_lsm_scaled_out). */
MCP_HD static inline void mcpi_lsm_scaled_date(const mcpi_payoff_spec *p, const double *row,
                                               const double *s, const double *r, int n,
                                               int heston, double v, double *sc)
{
  if (n == 1) {
    if (row[1] == MCPI_LSM_HOLD || mcpi_lsm_scaled_out(p, s, n))
      return;
    for (int q = 0; q < 2; q++) {
      double t = s[0] * p->g_e[q], under, value;
      double h = mcpi_lsm_exercise(p, &t, 1, &under);
      if (sc[q] < 0 &&
          mcpi_lsm_exercises(row, h, mcpi_lsm_continuation(p, row, h, 1, heston, under, &t, v),
                             &value))
        sc[q] = value;
    }
    return;
  }
  double under, q0;
  int k = 0;
  if (!mcpi_lsm_scaled_ready(p, row, s, r, n, &under, &q0))
    return;
  for (int a = 0; a < n; a++)
    if (p->assets >> a & 1u)
      for (int q = 0; q < 2; q++, k++)
        if (sc[k] < 0) {
          mcpi_lsm_which w = {a, q, -1, 0};
          mcpi_lsm_scaled_one(p, row, s, r, n, under, q0, w, &sc[k]);
        }
  if (p->g_cross)
    for (int a = 0; a < n; a++)
      for (int b = a + 1; b < n; b++)
        if (p->assets >> a & p->assets >> b & 1u)
          for (int q = 0; q < 4; q++, k++)
            if (sc[k] < 0) {
              mcpi_lsm_which w = {a, q >> 1, b, q & 1};
              mcpi_lsm_scaled_one(p, row, s, r, n, under, q0, w, &sc[k]);
            }
}

/* A scenario's value, the spots of asset a scaled by fa and of b (b < 0:
 * none) by fb: the path's under the rule, sc[k] (below 0: none received),
 * or where sc is NULL that of the trade held to its last date (its
 * European, MCPI_LSM_HELD), its payoff at the path's spots s there so
 * scaled, discounted by p->discount (variants.c: that date's factor, as the
 * held value's). */
MCP_HD static inline double mcpi_lsm_scenario(const mcpi_payoff_spec *p, const double *sc, int k,
                                              const double *s, int n, int a, double fa, int b,
                                              double fb)
{
  if (sc)
    return sc[k] > 0 ? sc[k] : 0;
  double under;
  mcpi_lsm_exercise(p, s, n, &under);
  return p->discount *
         mcpi_vanilla(p->type, n == 1 ? s[0] * fa : mcpi_lsm_under_moved(p, s, n, under, a, fa, b, fb),
                      p->strike);
}

/* The trade's columns (greeks.h's order: the deltas, the gammas, the cross
 * gammas) from its value y on the path and its scenarios (mcpi_lsm_scenario:
 * sc, or the held trade's at spots s), s0 the assets' spots today.  One
 * asset adds the quantity times each column to the body's book sums (book,
 * greeks.h); several leave the book to the combination (book NULL). */
MCP_HD static inline void mcpi_lsm_scaled_emit(const mcpi_payoff_spec *p, int n, double y,
                                               const double *sc, const double *s,
                                               const double *s0, double *pay, size_t ldp,
                                               int pass, double *book)
{
  uint32_t mine = mcpi_lsm_mine(p, n);
  int c = p->g_col;
  double q = book ? p->quantity : 0, none = 0;
  for (int g = 0; g < 2; g++) {
    if (!(g ? p->g_gamma : p->g_delta))
      continue;
    for (int a = 0, k = 0; a < n; a++)
      if (mine >> a & 1u) {
        double up = mcpi_lsm_scenario(p, sc, k, s, n, a, p->g_e[0], -1, 1);
        double dn = mcpi_lsm_scenario(p, sc, k + 1, s, n, a, p->g_e[1], -1, 1);
        double hs = p->g_h * s0[a];
        k += 2;
        mcpi_emit_column(pay, ldp, c++, g ? (up - 2 * y + dn) / (hs * hs) : (up - dn) / (2 * hs),
                         pass, q, book ? &book[g ? MCPI_BOOK_GAMMA : MCPI_BOOK_DELTA] : &none);
      }
  }
  if (!p->g_cross)
    return;
  int k = mcpi_lsm_scaled_count(mine, 0);
  for (int a = 0; a < n; a++)
    for (int b = a + 1; b < n; b++)
      if (mine >> a & mine >> b & 1u) {
        double x[4];
        for (int i = 0; i < 4; i++, k++) /* a up for i < 2, b up for even i */
          x[i] = mcpi_lsm_scenario(p, sc, k, s, n, a, p->g_e[i >> 1], b, p->g_e[i & 1]);
        double h2 = 4 * p->g_h * p->g_h * s0[a] * s0[b];
        mcpi_emit_column(pay, ldp, c++, (x[0] - x[1] - x[2] + x[3]) / h2, pass, 0, &none);
      }
}

/* The spot Greeks' columns of Longstaff-Schwartz trade p of several assets
 * on a path (mcpi_lsm_scaled_emit): the trade's from its exercise's value
 * ex_val and its scenarios sc, or where it is the held European (its
 * columns asked for) from held and the path's terminal log-spots x. */
MCP_HD static inline void mcpi_lsm_scaled_pay(const mcpi_payoff_spec *p, int n, double ex_val,
                                              double held, const double *sc, const double *x,
                                              const double *s0, double *pay, size_t ldp,
                                              int pass)
{
  if (!(p->flags & MCPI_LSM_HELD)) {
    mcpi_lsm_scaled_emit(p, n, ex_val, sc, (const double *)0, s0, pay, ldp, pass, (double *)0);
  } else if (p->g_col >= 0) { /* at its last spots, as the held value's */
    double s[MCP_MAX_ASSETS];
    MCP_UNROLL
    for (int i = 0; i < MCP_MAX_ASSETS; i++)
      s[i] = i < n ? mcpi_dexp(x[i]) : 0;
    mcpi_lsm_scaled_emit(p, n, held, (const double *)0, s, s0, pay, ldp, pass, (double *)0);
  }
}

#endif
