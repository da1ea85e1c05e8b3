/* lsm.h: Longstaff-Schwartz exercise of American and Bermudan options,
 * shared by the CPU and GPU backends, in double: the regression basis, the
 * exercise value, the normal equations of one path and their solution, and
 * the exercise rule that the fit leaves in a table (mcprice.h says which
 * basis and why).
 *
 * A table has a row per exercise date: the discount factor to the date, a
 * rule and the basis coefficients.  Values are discounted to time 0
 * throughout, so the continuation value and the exercise value compare
 * without rediscounting.
 *
 * The basis reads the spots through the trade's spec: the underlying in
 * units of 1 / lsm_inv and each asset's log-return from log_initial, the
 * run's log-spots.  A Greek's revaluation keeps the fitted rule and these
 * (lsm_plan.c), so that the rule stays one function of the spots: with the
 * returns from a bumped start instead, a bump would also move the rule, a
 * loss of second order in the bump whose central difference biases every
 * gamma and cross gamma by a constant (a basket's gamma came out
 * negative). */
#ifndef MCP_LSM_H
#define MCP_LSM_H

#include "models/products/payoff.h"

/* The most basis functions: 4 in the payoff's underlying, and each asset's
 * log-return and its square (of at most MCPI_LSM_SQUARES assets; beyond,
 * the log-returns alone). */
#define MCPI_LSM_SQUARES 8
#define MCPI_LSM_CROSS 4
#define MCPI_LSM_MAX_BASIS (4 + 2 * MCPI_LSM_SQUARES)
#define MCPI_LSM_ROW (2 + MCPI_LSM_MAX_BASIS) /* df, rule, coefficients */
/* A date's rule: never exercise (too few paths in the money to fit), the
 * fitted regression, or whenever in the money (the last date). */
enum { MCPI_LSM_HOLD = 0, MCPI_LSM_FIT = 1, MCPI_LSM_ALWAYS = 2 };
/* The least-squares fit's floors, per basis function (issue 31).  On m
 * paths the fitted continuation value errs by about s sqrt(nb / m), s the
 * cash flows' spread about it, and a rule that errs exercises wrongly at
 * every date it meets; 16 paths a function keep the error within a quarter
 * of s.  A date with fewer paths in the money than that holds (it is never
 * exercised: the rule falls back to the European's).  The regression paths
 * are at least 4 times as many (64 a function: a date of a quarter of them
 * in the money still fits; 256, the least the input takes, for a
 * one-asset trade): the default is raised to that, a smaller
 * run.regression_paths is refused (lsm_plan.c). */
#define MCPI_LSM_ITM_PER_BASIS 16
#define MCPI_LSM_MIN_ITM(nb) (MCPI_LSM_ITM_PER_BASIS * (nb))
#define MCPI_LSM_MIN_PATHS(nb) (4 * MCPI_LSM_MIN_ITM(nb))
/* Columns of one path's normal equations: the upper triangle of phi phi^T,
 * phi y, and the path's count (1 in the money, else 0). */
#define MCPI_LSM_COLUMNS(nb) ((nb) * ((nb) + 1) / 2 + (nb) + 1)

/* Basis functions for a job of n assets (Heston: one asset with variance). */
MCP_HD static inline MCP_CONSTEXPR int mcpi_lsm_nbasis(int nassets, int heston)
{
  return nassets > MCPI_LSM_SQUARES ? 4 + nassets
         : nassets > MCPI_LSM_CROSS    ? 4 + 2 * nassets
         : nassets > 1                 ? 4 + 2 * nassets + nassets * (nassets - 1) / 2
         : heston                      ? 6
                                       : 4;
}

/* The exercise value (undiscounted) of trade p at spots s[0..n) (an array
 * of MCP_MAX_ASSETS, read at compile-time indices), and the underlying it
 * is exercised on. */
MCP_HD static inline double mcpi_lsm_exercise(const mcpi_payoff_spec *p, const double *s, int n,
                                              double *under)
{
  if (n == 1) {
    *under = s[0];
    return mcpi_vanilla(p->type, s[0], p->strike);
  }
  double basket = 0, best = -INFINITY, worst = INFINITY;
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++)
    if (i < n && (p->assets >> i & 1u)) {
      basket += p->weight[i] * s[i];
      best = s[i] > best ? s[i] : best;
      worst = s[i] < worst ? s[i] : worst;
    }
  *under = p->flags & MCPI_LSM_BEST ? best : p->flags & MCPI_LSM_WORST ? worst : basket;
  return mcpi_vanilla(p->type, *under, p->strike);
}

/* The derivative of the exercise value h of trade p at spots s (several
 * assets, h > 0 where in the money) in asset i's log-spot: a basket's
 * underlying moves by w_i s_i, a best-of's or worst-of's by its spot where
 * asset i sets it (the first of equals, as mcpi_lsm_exercise finds it). */
MCP_HD static inline double mcpi_lsm_exercise_dx(const mcpi_payoff_spec *p, const double *s,
                                                 int n, double h, int i)
{
  if (!(h > 0) || !(p->assets >> i & 1u))
    return 0;
  int best = (p->flags & MCPI_LSM_BEST) != 0, at = -1;
  double si = 0, sat = 0; /* (the spots read at compile-time indices: a GPU's registers) */
  MCP_UNROLL
  for (int k = 0; k < MCP_MAX_ASSETS; k++) {
    si = k == i ? s[k] : si;
    if (k < n && (p->assets >> k & 1u) && (at < 0 || (best ? s[k] > sat : s[k] < sat))) {
      at = k;
      sat = s[k];
    }
  }
  double sign = p->type == MCP_CALL ? 1 : -1;
  if (!(p->flags & (MCPI_LSM_BEST | MCPI_LSM_WORST)))
    return sign * p->weight[i] * si;
  return at == i ? sign * si : 0;
}

/* The basis at a date, written once for the fit and the paths: each value
 * phi_k, k < nb, into phi (or not, NULL) and its sum with the coefficients
 * beta (or 0, NULL), returned.  under is the payoff's underlying; several
 * assets add their log-returns r (an array of MCP_MAX_ASSETS, read at
 * compile-time indices, so that a path kernel keeps it in registers), their
 * squares and the products of pairs; Heston its variance v. */
#define MCPI_LSM_PUT(value)                                                                \
  do {                                                                                     \
    double f_ = (value);                                                                   \
    if (phi)                                                                               \
      phi[k] = f_;                                                                         \
    if (beta)                                                                              \
      c += beta[k] * f_;                                                                   \
    k++;                                                                                   \
  } while (0)
MCP_HD static inline double mcpi_lsm_basis(const mcpi_payoff_spec *p, int nassets, int heston,
                                           double under, const double *r, double v, double *phi,
                                           const double *beta)
{
  double y = under * p->lsm_inv, c = 0;
  int k = 0;
  MCPI_LSM_PUT(1.0);
  MCPI_LSM_PUT(y);
  MCPI_LSM_PUT(y * y);
  MCPI_LSM_PUT(y * y * y);
  if (nassets > 1) {
    MCP_UNROLL
    for (int i = 0; i < MCP_MAX_ASSETS; i++)
      if (i < nassets)
        MCPI_LSM_PUT(r[i]);
    if (nassets <= MCPI_LSM_SQUARES) {
      MCP_UNROLL
      for (int i = 0; i < MCPI_LSM_SQUARES; i++)
        if (i < nassets)
          MCPI_LSM_PUT(r[i] * r[i]);
    }
    if (nassets <= MCPI_LSM_CROSS) {
      MCP_UNROLL
      for (int i = 0; i < MCPI_LSM_CROSS; i++) {
        MCP_UNROLL
        for (int l = i + 1; l < MCPI_LSM_CROSS; l++)
          if (l < nassets)
            MCPI_LSM_PUT(r[i] * r[l]);
      }
    }
  } else if (heston) {
    MCPI_LSM_PUT(v);
    MCPI_LSM_PUT(v * y);
  }
  return c;
}
#undef MCPI_LSM_PUT

/* How the basis's sum with beta moves (several assets) when the log-returns
 * r of assets a and b (b < 0: none) move by la and lb and nothing else
 * does: the changes of the terms in those returns, in mcpi_lsm_basis's
 * order of them. */
MCP_HD static inline double mcpi_lsm_basis_move(int nassets, const double *r, int a, double la,
                                                int b, double lb, const double *beta)
{
  double d = beta[4 + a] * la + (b >= 0 ? beta[4 + b] * lb : 0);
  int k = 4 + nassets;
  if (nassets <= MCPI_LSM_SQUARES) {
    d += beta[k + a] * (la * (2 * r[a] + la));
    if (b >= 0)
      d += beta[k + b] * (lb * (2 * r[b] + lb));
    k += nassets;
  }
  if (nassets <= MCPI_LSM_CROSS) {
    MCP_UNROLL
    for (int i = 0; i < MCPI_LSM_CROSS; i++) {
      MCP_UNROLL
      for (int l = i + 1; l < MCPI_LSM_CROSS; l++)
        if (l < nassets) {
          double di = i == a ? la : i == b ? lb : 0, dl = l == a ? la : l == b ? lb : 0;
          d += beta[k++] * (di * r[l] + dl * r[i] + di * dl);
        }
    }
  }
  return d;
}

/* Whether a path exercises at the date of row with exercise value h, cont
 * the fitted continuation value there (read where the rule is the fit's),
 * and the discounted amount it then receives. */
MCP_HD static inline int mcpi_lsm_exercises(const double *row, double h, double cont,
                                            double *value)
{
  *value = row[0] * h;
  return h > 0 && (row[1] == MCPI_LSM_ALWAYS || (row[1] == MCPI_LSM_FIT && *value >= cont));
}

/* The continuation value of row at a state (mcpi_lsm_basis's arguments),
 * computed only where the rule reads it. */
MCP_HD static inline double mcpi_lsm_continuation(const mcpi_payoff_spec *p, const double *row,
                                                  double h, int nassets, int heston,
                                                  double under, const double *r, double v)
{
  return h > 0 && row[1] == MCPI_LSM_FIT
             ? mcpi_lsm_basis(p, nassets, heston, under, r, v, (double *)0, row + 2)
             : 0;
}

/* Column c of a path's normal equations: phi_a phi_b (a <= b, row by row),
 * then phi_a y, then 1; 0 out of the money. */
MCP_HD static inline double mcpi_lsm_term(const double *phi, int nb, double y, int itm, int c)
{
  if (!itm)
    return 0;
  int ntri = nb * (nb + 1) / 2;
  if (c >= ntri)
    return c - ntri < nb ? phi[c - ntri] * y : 1;
  int a = 0;
  while (c >= nb - a) {
    c -= nb - a;
    a++;
  }
  return phi[a] * phi[a + c];
}

/* Loads a lane issues before it adds them (mcpi_lsm_lane_sum). */
#define MCPI_LSM_LANE_LOADS 4
/* The chunks' sums of a column, part[c] for c < nch, added in the order
 * both backends keep: 32 strided partial sums, s_l = part[l] + part[l + 32]
 * + ..., then s_0 + s_1 + ... + s_31 (on the GPU a lane each, so that a warp
 * reads its column in parallel).  lane_sum is s_l. */
MCP_HD static inline double mcpi_lsm_lane_sum(const double *part, size_t nch, int l)
{
  double s = 0;
  /* a few loads issued before their additions: on the GPU they wait on L2
   * together, not one after another */
  for (size_t c0 = (size_t)l; c0 < nch; c0 += 32 * MCPI_LSM_LANE_LOADS) {
    double v[MCPI_LSM_LANE_LOADS];
    MCP_UNROLL
    for (int k = 0; k < MCPI_LSM_LANE_LOADS; k++) {
      size_t c = c0 + 32 * (size_t)k;
#ifdef __CUDA_ARCH__
      v[k] = c < nch ? __ldcg(part + c) : 0; /* from L2: other blocks of the grid wrote them */
#else
      v[k] = c < nch ? part[c] : 0;
#endif
    }
    MCP_UNROLL
    for (int k = 0; k < MCPI_LSM_LANE_LOADS; k++)
      if (c0 + 32 * (size_t)k < nch)
        s += v[k];
  }
  return s;
}
#define MCPI_LSM_LANES 32

/* A date's normal equations A beta = b split by what they depend on: A (the
 * Gram sums of phi_a phi_b) and the count of paths in the money are the
 * states' alone, b (the sums of phi_a y) the later dates' rules'.  So every
 * date's A is factored, and its solves made operators, before the dates
 * are walked back (all at once, in parallel), and a date of the walk sums b
 * alone and multiplies it by those operators.  The Gram columns of a date: the
 * triangle, then the count. */
#define MCPI_LSM_GRAM(nb) ((nb) * ((nb) + 1) / 2 + 1)
/* Column k < MCPI_LSM_GRAM(nb) of the Gram's, as mcpi_lsm_term numbers it. */
MCP_HD static inline int mcpi_lsm_gram_column(int nb, int k)
{
  int ntri = nb * (nb + 1) / 2;
  return k < ntri ? k : ntri + nb;
}
/* A date's factor: whether it fits; its solve operators, the linear maps of
 * the two triangular solves, F from the sums of phi_a y to w (L w = D b)
 * and B from w to the coefficients (L^T u = w, beta = D u), each column k at
 * k nb (F's then B's: MCPI_LSM_OPERATOR(nb) in all, the part the walk back
 * reads); then what they are made of: the scales d, the live flags (1 or 0)
 * and the lower Cholesky factor (row a at a nb).  A date's coefficients are
 * then two products, B's rows times F's rows times the sums, each row's
 * independent of the others, where a substitution was a chain of 2 nb
 * dependent divisions (on the GPU, the walk's block waited at its barrier
 * while one warp substituted: bench/RESULTS.md, "subst-regs").  Rounding
 * (bench/RESULTS.md, "walk-operator"): on the 37,615 dates the regression
 * tests fit, the fitted values' error against a long double substitution
 * is at most 3.9e-10 of their size (the double substitution's 9.6e-11);
 * the whole inverse as one product erred by up to 7.3e-5, its rows
 * cancelling a median 2.6e6 times their result. */
#define MCPI_LSM_OPERATOR(nb) (1 + 2 * (nb) * (nb))
#define MCPI_LSM_FACTOR                                                                            \
  (MCPI_LSM_OPERATOR(MCPI_LSM_MAX_BASIS) + 2 * MCPI_LSM_MAX_BASIS +                                \
   MCPI_LSM_MAX_BASIS * MCPI_LSM_MAX_BASIS)
#define MCPI_LSM_SCALES(fac) ((fac) + MCPI_LSM_OPERATOR(MCPI_LSM_MAX_BASIS))

/* A date's factor from its Gram sums (MCPI_LSM_GRAM(nb) of them), its
 * operators not yet made (mcpi_lsm_operator_column): A scaled to a unit
 * diagonal and factored by Cholesky; a basis function that the others span
 * (a pivot below 1e-10 of the scaled diagonal: say x^3 on paths of nearly one
 * spot) is not live and gets the coefficient 0.  A date with too few paths in
 * the money does not fit (holds). */
MCP_HD static inline void mcpi_lsm_factor(int nb, const double *gram, double *fac)
{
  double *d = MCPI_LSM_SCALES(fac), *live = d + MCPI_LSM_MAX_BASIS, *l = live + MCPI_LSM_MAX_BASIS;
  int ntri = nb * (nb + 1) / 2;
  fac[0] = gram[ntri] < MCPI_LSM_MIN_ITM(nb) ? 0 : 1;
  if (fac[0] == 0)
    return;
  for (int a = 0, c = 0; a < nb; a++)
    for (int b = a; b < nb; b++, c++) {
      l[a * nb + b] = l[b * nb + a] = gram[c];
      if (a == b)
        d[a] = gram[c] > 0 ? 1 / sqrt(gram[c]) : 0;
    }
  for (int a = 0; a < nb; a++)
    for (int b = 0; b < nb; b++)
      l[a * nb + b] *= d[a] * d[b];
  for (int k = 0; k < nb; k++) { /* lower Cholesky factor in place */
    double piv = l[k * nb + k];
    for (int j = 0; j < k; j++)
      piv -= l[k * nb + j] * l[k * nb + j];
    live[k] = d[k] > 0 && piv > 1e-10;
    double r = live[k] != 0 ? sqrt(piv) : 1;
    l[k * nb + k] = r;
    for (int i = k + 1; i < nb; i++) {
      double s = l[i * nb + k];
      for (int j = 0; j < k; j++)
        s -= l[i * nb + j] * l[k * nb + j];
      l[i * nb + k] = live[k] != 0 ? s / r : 0;
    }
  }
}

/* Column c < 2 nb of a fitting date's operators, from its factor: F's
 * column c (c < nb: the forward solve of the unit vector e_c, lower) or B's
 * column c - nb (the backward solve of e_(c - nb), upper), by substitution
 * (the columns are independent: the GPU makes them a thread each).  The
 * solve's elements before e_k's 1 (F) or after it (B) are +0, and so is
 * each of their terms' effect on the others: they are skipped. */
MCP_HD static inline void mcpi_lsm_operator_column(int nb, double *fac, int c)
{
  const double *d = MCPI_LSM_SCALES(fac), *live = d + MCPI_LSM_MAX_BASIS,
               *l = live + MCPI_LSM_MAX_BASIS;
  double x[MCPI_LSM_MAX_BASIS], *col = fac + 1 + c * nb;
  int k = c < nb ? c : c - nb;
  for (int i = 0; i < nb; i++)
    col[i] = 0;
  if (c < nb)
    for (int i = k; i < nb; i++) { /* L w = D e_k */
      double s = i == k ? d[i] : 0;
      for (int j = k; j < i; j++)
        s -= l[i * nb + j] * x[j];
      x[i] = live[i] != 0 ? s / l[i * nb + i] : 0;
      col[i] = x[i];
    }
  else
    for (int i = k; i >= 0; i--) { /* L^T u = e_k, beta = D u */
      double s = i == k ? 1 : 0;
      for (int j = i + 1; j <= k; j++)
        s -= l[j * nb + i] * x[j];
      x[i] = live[i] != 0 ? s / l[i * nb + i] : 0;
      col[i] = x[i] * d[i];
    }
}

/* w's element i < nb of a fitting date, from its operators and the sums of
 * phi_a y (rhs): F's row i times rhs, a <= i in order. */
MCP_HD static inline double mcpi_lsm_forward(int nb, const double *fac, const double *rhs, int i)
{
  double s = 0;
  MCP_UNROLL
  for (int a = 0; a < nb; a++)
    if (a <= i)
      s += fac[1 + a * nb + i] * rhs[a];
  return s;
}

/* Its coefficient i < nb from w: B's row i times w, a >= i in order. */
MCP_HD static inline double mcpi_lsm_coefficient(int nb, const double *fac, const double *w, int i)
{
  const double *b = fac + 1 + nb * nb;
  double s = 0;
  MCP_UNROLL
  for (int a = 0; a < nb; a++)
    if (a >= i)
      s += b[a * nb + i] * w[a];
  return s;
}

/* The date's rule and coefficients (row + 1 on) from its factor, its
 * operators made, and the sums of phi_a y (rhs, nb of them). */
MCP_HD static inline void mcpi_lsm_solve(int nb, const double *fac, const double *rhs, double *row)
{
  double w[MCPI_LSM_MAX_BASIS];
  for (int i = 0; fac[0] != 0 && i < nb; i++)
    w[i] = mcpi_lsm_forward(nb, fac, rhs, i);
  row[1] = fac[0] == 0 ? MCPI_LSM_HOLD : MCPI_LSM_FIT;
  for (int i = 0; i < MCPI_LSM_MAX_BASIS; i++)
    row[2 + i] = fac[0] != 0 && i < nb ? mcpi_lsm_coefficient(nb, fac, w, i) : 0;
}

#endif
