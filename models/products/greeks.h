/* greeks.h: Greeks estimated on a path from what it hands to the payoffs,
 * shared by the CPU and GPU backends (gcc and nvcc), in double.
 *
 * Every single-asset model here moves the log-spot by amounts that do not
 * depend on the spot, so the path of spot S0 (1 + h) is the path of S0
 * scaled by 1 + h: its payoff is the payoff of the scaled observations, and
 * a spot bump needs no new simulation (mcpi_observed_scaled).  Estimators:
 *   pathwise  d/dS0 of the payoff along the scaled path, D / S0 with
 *             D = d payoff(lambda path) / d lambda at lambda = 1;
 *   LR        Black-Scholes: the path depends on S0 only through the first
 *             step x1 = log S0 + a + b z, so d/dS0 E[f] = E[f z / (b S0)] and
 *             d2/dS0^2 E[f] = E[f ((z^2 - 1) / b^2 - z / b)] / S0^2;
 *   scaled    central differences of the scaled paths' payoffs.
 * Vega and rho (single asset, double; the _g body of path_body.h) shift
 * every step's b = sigma sqrt(dt) by sqrt(dt) (and a by -b sqrt(dt)), or its
 * drift a by dt, so along the path d x / d sigma = sum sqrt(dt) (z - b) and
 * d x / d r = t; the observations' derivatives follow (mcpi_greek_state),
 * and with them the payoff's (pathwise), or the likelihood-ratio scores
 * sum sqrt(dt) ((z^2 - 1) / b - z) and sum z dt / b (Black-Scholes).  A
 * barrier watched on the bridge carries its monitor's derivatives and scaled
 * probabilities (mcpi_greek_monitor) instead of revaluations.
 * A trade's columns, from spec->g_col: single asset delta, gamma, vega,
 * rho; several assets delta of each asset of the trade, gamma of each, then
 * the cross gamma of each pair (i < j), assets in the job's order. */
#ifndef MCP_GREEKS_H
#define MCP_GREEKS_H

#include "models/mcp_dmath.h"
#include "models/products/payoff.h"

typedef enum mcpi_gm {
  MCPI_GM_NONE = 0, MCPI_GM_PATHWISE, MCPI_GM_LR, MCPI_GM_SCALED
} mcpi_gm;

/* A bridge monitor's (path_body.h's survival): d/dsigma and d/dr of its
 * probability of no crossing, and that probability on the paths scaled by
 * the spot bumps (mcpi_observed_scaled), so that a barrier watched on the
 * bridge, continuous in the path, has its vega and rho pathwise and its
 * delta and gamma from scaled paths (pathwise, its delta's variance was
 * 10-20% above the scaled paths' central difference's). */
typedef struct mcpi_greek_monitor {
  double dv, dr, up, dn;
} mcpi_greek_monitor;

/* The Greeks whose book column the path body sums itself (the job's
 * book), in the order of a single-asset trade's columns. */
enum { MCPI_BOOK_DELTA, MCPI_BOOK_GAMMA, MCPI_BOOK_VEGA, MCPI_BOOK_RHO, MCPI_BOOK_GREEKS };

/* What the estimators read of their job (its view's g). */
typedef struct mcpi_greek_job {
  double lr_b;     /* the first element's b: the likelihood-ratio score's */
  double l[2];     /* the log shifts of the paths scaled by the spot bumps, up
                    * and down (the bridge monitors') */
  int32_t book[MCPI_BOOK_GREEKS]; /* the book's columns that the path body
                                   * sums (mcpi_greeks_book), or -1 */
} mcpi_greek_job;

/* The observations of the path scaled by the spec's factor k (0: up, 1:
 * down), e^l: each shift is the spec's (no transcendental or division a
 * path). */
MCP_HD static inline mcpi_observed mcpi_observed_scaled(const mcpi_payoff_spec *p,
                                                        const mcpi_observed *o, int k)
{
  mcpi_observed s = *o;
  s.sum *= p->g_e[k];
  s.log_sum += p->g_lsum[k];
  s.log_max += p->g_l[k];
  s.log_min += p->g_l[k];
  s.terminal *= p->g_e[k];
  return s;
}

/* d vanilla(type, lambda x, k) / d lambda at lambda = 1. */
MCP_HD static inline double mcpi_vanilla_dx(int type, double x, double k)
{
  return type == MCP_CALL ? (x > k ? x : 0) : (x < k ? -x : 0);
}

/* D of the continuous single-asset payoffs (pathwise). */
MCP_HD static inline double mcpi_payoff_dlambda(const mcpi_payoff_spec *p, const mcpi_observed *o)
{
  int call = p->type == MCP_CALL;
  switch (p->product) {
  case MCP_PRODUCT_ASIAN: {
    if (p->flags & MCPI_FLOATING) /* homogeneous of degree 1 */
      return mcpi_payoff(p, o);
    double a = p->flags & MCPI_GEOMETRIC ? exp(o->log_sum * p->inv_nfix) : o->sum * p->inv_nfix;
    return mcpi_vanilla_dx(p->type, a, p->strike);
  }
  case MCP_PRODUCT_LOOKBACK: { /* a seasoned one's extremes so far do not scale */
    int pmax = mcpi_path_max(p, o), pmin = mcpi_path_min(p, o);
    if (p->flags & MCPI_FLOATING)
      return call ? o->terminal - (pmin ? exp(o->log_min) : 0)
                  : (pmax ? exp(o->log_max) : 0) - o->terminal;
    return (call ? pmax : pmin)
               ? mcpi_vanilla_dx(p->type, exp(call ? o->log_max : o->log_min), p->strike)
               : 0;
  }
  default: /* European */
    return mcpi_vanilla_dx(p->type, o->terminal, p->strike);
  }
}

/* Column c of the pay matrix on pass (the antithetic partner averages);
 * adds the quantity q times the value written to *book, as the combined
 * book estimator (mcpi_combine) would add that column. */
MCP_HD static inline void mcpi_emit_column(double *pay, size_t ldp, int c, double v, int pass,
                                           double q, double *book)
{
  double *at = pay + (size_t)c * ldp;
  *at = pass ? 0.5 * (*at + v) : v;
  *book += q * *at;
}

/* The derivative of a continuous single-asset payoff along the path, from
 * those of its observations d (each of log_sum, log_max, log_min in log; a
 * bridge monitor's survival). */
MCP_HD static inline double mcpi_payoff_derivative(const mcpi_payoff_spec *p,
                                                   const mcpi_observed *o, const mcpi_observed *d)
{
  int call = p->type == MCP_CALL;
  switch (p->product) {
  case MCP_PRODUCT_ASIAN: {
    double a = o->sum * p->inv_nfix, da = d->sum * p->inv_nfix;
    if (p->flags & MCPI_GEOMETRIC) {
      a = exp(o->log_sum * p->inv_nfix);
      da = a * d->log_sum * p->inv_nfix;
    }
    if (p->flags & MCPI_FLOATING)
      return call ? (o->terminal > a ? d->terminal - da : 0)
                  : (a > o->terminal ? da - d->terminal : 0);
    return call ? (a > p->strike ? da : 0) : (a < p->strike ? -da : 0);
  }
  case MCP_PRODUCT_LOOKBACK: {
    int pmax = mcpi_path_max(p, o), pmin = mcpi_path_min(p, o);
    double mx = exp(pmax ? o->log_max : p->log_max0), mn = exp(pmin ? o->log_min : p->log_min0);
    double dmx = pmax ? d->log_max : 0, dmn = pmin ? d->log_min : 0;
    if (p->flags & MCPI_FLOATING)
      return call ? d->terminal - mn * dmn : mx * dmx - d->terminal;
    return call ? (mx > p->strike ? mx * dmx : 0) : (mn < p->strike ? -mn * dmn : 0);
  }
  case MCP_PRODUCT_BARRIER: { /* watched on the bridge: y = live V + (1 - live) rebate */
    double live = p->flags & MCPI_KNOCK_IN ? 1 - o->survival : o->survival;
    double dlive = p->flags & MCPI_KNOCK_IN ? -d->survival : d->survival;
    double dv = call ? (o->terminal > p->strike ? d->terminal : 0)
                     : (o->terminal < p->strike ? -d->terminal : 0);
    return live * dv + dlive * (mcpi_vanilla(p->type, o->terminal, p->strike) - p->rebate);
  }
  default: /* European */
    return call ? (o->terminal > p->strike ? d->terminal : 0)
                : (o->terminal < p->strike ? -d->terminal : 0);
  }
}

/* A single-asset trade's estimators: y its undiscounted payoff, z the
 * first step's normal (sign applied); m its bridge monitor's derivatives,
 * or NULL; the job gives the first step's deviation; book the sums of the
 * job's book columns. */
MCP_HD static inline void mcpi_greeks_single(const mcpi_greek_job *j, const mcpi_payoff_spec *p,
                                             const mcpi_observed *o, double y, double z,
                                             const mcpi_greek_monitor *m, double *pay,
                                             size_t ldp, int pass, double *book)
{
  int c = p->g_col;
  double d = p->discount, q = p->quantity, up = 0, dn = 0, s0 = p->g_s0, b = j->lr_b;
  if (p->g_delta == MCPI_GM_SCALED || p->g_gamma == MCPI_GM_SCALED) {
    mcpi_observed s = mcpi_observed_scaled(p, o, 0);
    if (m)
      s.survival = m->up;
    up = mcpi_payoff(p, &s);
    s = mcpi_observed_scaled(p, o, 1);
    if (m)
      s.survival = m->dn;
    dn = mcpi_payoff(p, &s);
  }
  /* the trade's constant denominators by their reciprocals (a division is
   * some 30 instructions: bench/RESULTS.md, "The bridge's far test and the
   * estimators' reciprocals") */
  if (p->g_delta) {
    double v = p->g_delta == MCPI_GM_PATHWISE ? mcpi_payoff_dlambda(p, o) * p->g_rd
               : p->g_delta == MCPI_GM_LR     ? y * z / (b * s0)
                                              : (up - dn) * p->g_rd;
    mcpi_emit_column(pay, ldp, c++, d * v, pass, q, &book[MCPI_BOOK_DELTA]);
  }
  if (p->g_gamma) {
    double v = p->g_gamma == MCPI_GM_LR ? y * ((z * z - 1) / (b * b) - z / b) / (s0 * s0)
                                        : (up - 2 * y + dn) * p->g_rg;
    mcpi_emit_column(pay, ldp, c, d * v, pass, q, &book[MCPI_BOOK_GAMMA]);
  }
}

/* ---- vega and rho along the path ---------------------------------------------- */

/* What a path carries for them: the scalars here, and a mcpi_greek_fixings
 * for each schedule of the path's state (path_body.h sizes the array). */
typedef struct mcpi_greek_state {
  int32_t e;          /* elements stepped */
  int32_t lr;         /* the likelihood-ratio scores are read (MCPI_GSTATE_LR) */
  double t, w;        /* the time, d x / d sigma */
  double lr_v, lr_r;  /* likelihood-ratio scores of sigma and r */
  double t0, w0;      /* t and w at the step's start (the bridge monitors') */
  double bc;          /* the step's diffusion b sqrt(dt): d var / d sigma = 2 bc */
} mcpi_greek_state;

/* A schedule's: d/dsigma of its sum, log_sum, log_max, log_min; d/dr of its
 * sum (sum t S) and of the extremes (the time of each). */
typedef struct mcpi_greek_fixings {
  double vsum, vlog, vmax, vmin, tsum, tmax, tmin;
} mcpi_greek_fixings;

/* The job view's gstate: the _g body runs; and some trade reads the
 * likelihood-ratio scores (whose divisions the other trades skip). */
#define MCPI_GSTATE_ON 1
#define MCPI_GSTATE_LR 2
/* ... and the job's bucketed sensitivities come by adjoint (adjoint.h) */
#define MCPI_GSTATE_ADJOINT 4
/* ... the bridge monitors' derivatives are carried, and their scaled
 * probabilities (a trade's delta or gamma reads them) */
#define MCPI_GSTATE_MONITORS 8
#define MCPI_GSTATE_SCALED 16

/* A row of the adjoint's sparse Jacobians (adjoint.h): column col of the
 * trade's block gets ja times the adjoint of an element's a plus jb times
 * that of its b (or ja times that of a volatility slice's node, jb its
 * share of the total vega, or of the discounted payoff); kind: an
 * element's, 0 for a volatility piece, 1 for a rate piece and 2 for a
 * dividend yield's; a slice node's, the surface's row. */
typedef struct mcpi_adj_entry {
  int32_t col, kind;
  double ja, jb;
} mcpi_adj_entry;

MCP_HD static inline void mcpi_greek_state_init(mcpi_greek_state *g, int gstate)
{
  g->e = 0;
  g->lr = (gstate & MCPI_GSTATE_LR) != 0;
  g->t = g->w = g->lr_v = g->lr_r = g->t0 = g->w0 = g->bc = 0;
}

MCP_HD static inline void mcpi_greek_monitor_init(mcpi_greek_monitor *m)
{
  m->dv = m->dr = 0;
  m->up = m->dn = 1;
}

/* A bridge factor 1 - exp(-2 d0 d1 / var), d the distances to the barrier
 * (positive on the living side), at the path shifted by l in log-spot: a
 * scaled path's (the path's own is path_body.h's mcpi_path_watch's); iv =
 * 1 / var, var > 0 (variants.c).  By the reciprocal and mcpi_dexp: this
 * line, with CUDA's exp and an IEEE division, was a fifth of the Greeks'
 * kernel's instructions on the book's barriers (bench/RESULTS.md, "The
 * bridge's factors by reciprocals"), and mcpi_dexp gives the host the
 * device's bits. */
MCP_HD static inline double mcpi_bridge_factor(double d0, double d1, double iv, double l)
{
  d0 += l;
  d1 += l;
  return d0 > 0 && d1 > 0 ? 1 - mcpi_dexp(-2 * d0 * d1 * iv) : 0;
}

/* Beyond it, 2 d0 d1 / var gives a factor 1 - e^-x that rounds to 1 and
 * derivatives 0 (e^-40 < 2^-57). */
#define MCPI_BRIDGE_FAR 40

/* Monitor m's step from distances d0, d1 (up: s = -1, the barrier above;
 * down: s = 1) with bridge variance var (iv its reciprocal, the step's one
 * division), before its probability sv takes the step's factor f (the
 * path's, as the watch computed it): the product rule on each derivative
 * (the distances move by s times the log-spots', var by 2 bc a unit of
 * sigma); ls the scaled paths' log shifts, read when scaled. */
MCP_HD static inline void mcpi_greek_monitor_step(mcpi_greek_monitor *m, const mcpi_greek_state *g,
                                                  double sv, double f, double d0, double d1,
                                                  double var, double iv, double s,
                                                  const double *ls, int scaled)
{
  double lu = s * ls[0], ld = s * ls[1];
  /* far from the barrier on the path (f rounds to 1, no derivative) and on
   * its scaled ones: nothing moves (the same bits, without the exponentials
   * and with no division: near the threshold either side gives 1) */
  if (f == 1 &&
      (!scaled || (2 * (d0 + lu) * (d1 + lu) > MCPI_BRIDGE_FAR * var && d0 + lu > 0 &&
                   2 * (d0 + ld) * (d1 + ld) > MCPI_BRIDGE_FAR * var && d0 + ld > 0)))
    return;
  double k = f > 0 && f < 1 ? 2 * (1 - f) * iv : 0; /* d f = k (d0' d1 + d0 d1' - d0 d1 var' / var) */
  double fv = k * (s * (g->w0 * d1 + d0 * g->w) - d0 * d1 * 2 * g->bc * iv);
  double fr = k * s * (g->t0 * d1 + d0 * g->t);
  m->dv = m->dv * f + sv * fv;
  m->dr = m->dr * f + sv * fr;
  if (scaled) {
    m->up *= mcpi_bridge_factor(d0, d1, iv, lu);
    m->dn *= mcpi_bridge_factor(d0, d1, iv, ld);
  }
}

MCP_HD static inline void mcpi_greek_fixings_init(mcpi_greek_fixings *f)
{
  f->vsum = f->vlog = f->vmax = f->vmin = f->tsum = f->tmax = f->tmin = 0;
}

/* An element: z its normal (sign applied), b its deviation, f its factor;
 * the diffusion's element (factor 0) of Black-Scholes and Merton moves w and
 * the scores (Heston's are not read). */
MCP_HD static inline void mcpi_greek_state_step(mcpi_greek_state *g, const double *sqrt_dt,
                                                double z, double b, uint32_t f, uint32_t tag)
{
  double c = sqrt_dt[g->e++];
  if (f == 0) {
    g->w += c * (z - b);
    g->bc = b * c;
  }
  if (g->lr && f == 0 && b > 0) {
    g->lr_v += c * ((z * z - 1) / b - z);
    g->lr_r += z * c * c / b;
  }
  if (tag & (1u << 31)) /* MCPI_TAG_LAST: the step's end */
    g->t += c * c;
}

/* A fixing of schedule x at spot, a new maximum or minimum or neither. */
MCP_HD static inline void mcpi_greek_state_fix(const mcpi_greek_state *g, mcpi_greek_fixings *x,
                                               double spot, int max, int min)
{
  x->vsum += spot * g->w;
  x->vlog += g->w;
  x->tsum += spot * g->t;
  if (max) {
    x->vmax = g->w;
    x->tmax = g->t;
  }
  if (min) {
    x->vmin = g->w;
    x->tmin = g->t;
  }
}

/* A single-asset trade's vega and rho columns (after its delta and gamma);
 * fk and fm are the fixings of its schedule and of its terminal one, m its
 * bridge monitor's derivatives or NULL. */
MCP_HD static inline void mcpi_greeks_rates(const mcpi_payoff_spec *p, const mcpi_observed *o,
                                            double y, const mcpi_greek_state *g,
                                            const mcpi_greek_fixings *fk,
                                            const mcpi_greek_fixings *fm,
                                            const mcpi_greek_monitor *m, double *pay, size_t ldp,
                                            int pass, double *book)
{
  int c = p->g_col + !!p->g_delta + !!p->g_gamma;
  if (p->g_vega) {
    mcpi_observed dv = {fk->vsum, fk->vlog, fk->vmax, fk->vmin, fm->vsum, m ? m->dv : 0};
    double v = p->g_vega == MCPI_GM_LR ? y * g->lr_v : mcpi_payoff_derivative(p, o, &dv);
    mcpi_emit_column(pay, ldp, c++, p->discount * v, pass, p->quantity, &book[MCPI_BOOK_VEGA]);
  }
  if (p->g_rho) {
    mcpi_observed dr = {fk->tsum, p->g_fix_time, fk->tmax, fk->tmin, fm->tsum, m ? m->dr : 0};
    double v = p->g_rho == MCPI_GM_LR ? y * g->lr_r : mcpi_payoff_derivative(p, o, &dr);
    mcpi_emit_column(pay, ldp, c, p->discount * (v - p->g_time * y), pass, p->quantity,
                     &book[MCPI_BOOK_RHO]);
  }
}

/* The book's columns that the path body sums (the job's book: those of
 * single-asset Greeks every one of whose trades' columns it writes). */
MCP_HD static inline void mcpi_greeks_book(const mcpi_greek_job *j, const double *book,
                                           double *pay, size_t ldp)
{
  for (int k = 0; k < MCPI_BOOK_GREEKS; k++)
    if (j->book[k] >= 0)
      pay[(size_t)j->book[k] * ldp] = book[k];
}

/* D_i of a multi-asset payoff for asset i (pathwise). */
MCP_HD static inline double mcpi_payoff_multi_dlambda(const mcpi_payoff_spec *p, const double *spot,
                                                      int nassets, int i)
{
  double ctl, y = mcpi_payoff_multi(p, spot, nassets, &ctl);
  if (y <= 0)
    return 0;
  if (p->product == MCP_PRODUCT_BASKET)
    return (p->type == MCP_CALL ? 1 : -1) * p->weight[i] * spot[i];
  /* best-of, worst-of: the asset that sets the payoff */
  int at = -1;
  for (int k = 0; k < nassets; k++)
    if (p->assets >> k & 1u &&
        (at < 0 || (p->product == MCP_PRODUCT_BEST_OF ? spot[k] > spot[at] : spot[k] < spot[at])))
      at = k;
  return at == i ? (p->type == MCP_CALL ? spot[i] : -spot[i]) : 0;
}

/* The payoff with assets i and j (or i alone, j < 0) scaled by ei, ej. */
MCP_HD static inline double mcpi_payoff_multi_scaled(const mcpi_payoff_spec *p, const double *spot,
                                                     int nassets, int i, double ei, int j,
                                                     double ej)
{
  double s[MCP_MAX_ASSETS], ctl;
  for (int k = 0; k < nassets; k++)
    s[k] = spot[k] * (k == i ? ei : k == j ? ej : 1);
  return mcpi_payoff_multi(p, s, nassets, &ctl);
}

/* A multi-asset trade's estimators: y its undiscounted payoff, s0 the spots
 * at the start. */
MCP_HD static inline void mcpi_greeks_multi(const mcpi_payoff_spec *p, const double *spot,
                                            int nassets, double y, const double *s0,
                                            double *pay, size_t ldp, int pass)
{
  int c = p->g_col;
  double d = p->discount, eu = p->g_e[0], ed = p->g_e[1], none = 0;
  for (int k = 0; k < 2; k++) /* the deltas, then the gammas */
    if (k ? p->g_gamma : p->g_delta)
      for (int i = 0; i < nassets; i++)
        if (p->assets >> i & 1u) {
          double hs = p->g_h * s0[i], v;
          if (k == 0 && p->g_delta == MCPI_GM_PATHWISE) {
            v = mcpi_payoff_multi_dlambda(p, spot, nassets, i) / s0[i];
          } else {
            double up = mcpi_payoff_multi_scaled(p, spot, nassets, i, eu, -1, 1);
            double dn = mcpi_payoff_multi_scaled(p, spot, nassets, i, ed, -1, 1);
            v = k ? (up - 2 * y + dn) / (hs * hs) : (up - dn) / (2 * hs);
          }
          mcpi_emit_column(pay, ldp, c++, d * v, pass, 0, &none);
        }
  if (p->g_cross)
    for (int i = 0; i < nassets; i++)
      for (int j = i + 1; j < nassets; j++)
        if (p->assets >> i & p->assets >> j & 1u) {
          double uu = mcpi_payoff_multi_scaled(p, spot, nassets, i, eu, j, eu);
          double ud = mcpi_payoff_multi_scaled(p, spot, nassets, i, eu, j, ed);
          double du = mcpi_payoff_multi_scaled(p, spot, nassets, i, ed, j, eu);
          double dd = mcpi_payoff_multi_scaled(p, spot, nassets, i, ed, j, ed);
          double h2 = 4 * p->g_h * p->g_h * s0[i] * s0[j];
          mcpi_emit_column(pay, ldp, c++, d * (uu - ud - du + dd) / h2, pass, 0, &none);
        }
}

/* ---- estimators combined from columns --------------------------------------
 * A bump estimator is a sum of coef x column over the payoffs of the passes
 * (the variants' revaluations) and the base; estimator k of n is written to
 * column col0 + k of each of np consecutive paths' pay (leading dimension ld)
 * from terms off[k] .. off[k + 1] - 1 (none: the path body wrote it), in
 * order, with rounded products and sums so that the CPU and the GPU add
 * alike (the CPU a chunk of paths at a time, down its columns; the GPU a
 * path a thread). */
typedef struct mcpi_term {
  int32_t col;
  double coef;
} mcpi_term;

#ifdef __CUDA_ARCH__
#define MCPI_ADD_RN(a, b) __dadd_rn(a, b)
#define MCPI_MUL_RN(a, b) __dmul_rn(a, b)
#else
#define MCPI_ADD_RN(a, b) ((a) + (b))
#define MCPI_MUL_RN(a, b) ((a) * (b))
#endif

MCP_HD static inline void mcpi_combine(const mcpi_term *term, const int32_t *off, int n, int col0,
                                       double *pay, size_t ld, size_t np)
{
  for (int k = 0; k < n; k++) {
    if (off[k] == off[k + 1]) /* the path body's sum (mcpi_greeks_book) */
      continue;
    double *out = pay + (size_t)(col0 + k) * ld;
    for (size_t p = 0; p < np; p++)
      out[p] = 0;
    for (int i = off[k]; i < off[k + 1]; i++) {
      const double *in = pay + (size_t)term[i].col * ld;
      for (size_t p = 0; p < np; p++)
        out[p] = MCPI_ADD_RN(out[p], MCPI_MUL_RN(term[i].coef, in[p]));
    }
  }
}

#endif
