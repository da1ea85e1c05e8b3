/* path_body.h: the path body in one precision, MCPI_REAL: double, or float
 * with MCPI_FLOAT_BODY; included once a family of path_families.def
 * (path_families.h), which defines MCPI_P (the function name suffix) and
 * MCPI_NSCHED and MCPI_NMON (the schedules and barrier monitors the
 * single-asset state carries); with MCPI_GREEK_STATE (double) it also
 * carries what the pathwise and likelihood-ratio vega and rho need
 * (greeks.h).  With MCPI_SINGLE_ONLY it defines the single-asset state
 * alone: the job-shaped states of the GPU's kernels for Black-Scholes jobs
 * that use few schedules and monitors, and the plain shapes of one
 * Black-Scholes, Heston (QE: MCPI_SCHEME_OF) or local-volatility asset
 * (MCPI_MODEL_OF then names the model as a constant, and MCPI_TRACK_OF
 * what the fixings record besides the sums; its steps and payoffs are these
 * same lines).
 * No include guard on purpose. */

#ifdef MCPI_FLOAT_BODY
#define MCPI_REAL float
#ifdef __CUDA_ARCH__
/* the hardware exponential: within about 4e-7 relative for the log-spots of
 * a float path (its argument's rounding), 2 instructions against expf's 9 */
#define MCPI_EXP __expf
#else
#define MCPI_EXP expf
#endif
#define MCPI_LOG logf
#define MCPI_SQRT sqrtf
#define MCPI_NCDF MCPI_NCDF_F
#define MCPI_LOCAL_VOL mcpi_local_vol_f
#define MCPI_COEF(name) name##_f /* the view's coefficient arrays */
#else
#define MCPI_REAL double
#ifdef MCPI_MIXED_EXP /* the mixed precision's fixings: e^x in float's accuracy */
#define MCPI_EXP mcpi_mexp
#else
#define MCPI_EXP mcpi_dexp
#endif
#define MCPI_LOG mcpi_dlog /* log and Phi: the host's bits the device's */
#define MCPI_SQRT sqrt
#define MCPI_NCDF mcpi_dncdf
#define MCPI_LOCAL_VOL MCPI_LOCAL_VOL_D
#define MCPI_COEF(name) name
#endif

#include "models/heston.h"
#include "models/merton.h"

/* The spot Greeks of an exercise on scaled paths (lsm_greeks.h): the
 * MCPI_LSM_SCALED families', which run where the run estimates them alone
 * (mcpi_lsm_scaled_on, plan.h, chooses them on both backends); their
 * scenarios' array, or none. */
#ifdef MCPI_LSM_SCALED
#define MCPI_SCALED 1
#define MCPI_SC(st) ((st)->sc)
#else
#define MCPI_SCALED 0
#define MCPI_SC(st) ((double *)0)
#endif

/* ---- single asset ---------------------------------------------------------- */

typedef struct MCPI_P(mcpi_path_state) {
  MCPI_REAL x, v;           /* log-spot, Heston variance */
  MCPI_REAL x0, var;        /* log-spot at the step's start, the step's diffusion variance */
  MCPI_REAL z1, a1, b1;     /* earlier elements of the step */
  MCPI_REAL z0;             /* the path's first normal (the likelihood-ratio score) */
  MCPI_REAL sign;           /* +1, or -1 on an antithetic pass */
  int32_t step;
  MCPI_REAL sum[MCPI_NSCHED], log_sum[MCPI_NSCHED];
  MCPI_REAL log_max[MCPI_NSCHED], log_min[MCPI_NSCHED];
  MCPI_REAL survival[MCPI_NMON > 0 ? MCPI_NMON : 1]; /* the plain shape has none */
#ifdef MCPI_GREEK_STATE
  /* d/dsigma and d/dr of the observations (greeks.h) */
  mcpi_greek_state g;
  mcpi_greek_fixings gf[MCPI_NSCHED];
  mcpi_greek_monitor gm[MCPI_NMON > 0 ? MCPI_NMON : 1];
#endif
#ifdef MCPI_LSM_BODY
  int32_t ex, ex_done; /* Longstaff-Schwartz: exercise dates passed, and exercised */
  double ex_val;       /* the discounted amount received, 0 until exercised */
  double held;         /* that held to the last date (the European's), set there */
#endif
#ifdef MCPI_LSM_SCALED
  double sc[2];        /* the spot up and down (lsm_greeks.h) */
#endif
#ifndef MCPI_SINGLE_ONLY
  /* the grid check's coarse pass (path.h, MCPI_TAG_HOLD): a held step's
   * weighted normals, a factor each, and the weight of the merging step's */
  MCPI_REAL hz[MCPI_HOLD_FACTORS], hw;
#endif
} MCPI_P(mcpi_path_state);

/* The double general families' state lives in the kernels' frame (their
 * step is a call, path_families.def): a schedule is read at its index, one
 * load; the other states, in registers, only at compile-time indices. */
#if !defined MCPI_SINGLE_ONLY && !defined MCPI_FLOAT_BODY
#define MCPI_STATE_INDEXED
/* ... and its start stores the job's schedules and monitors alone (the
 * whole frame each pass held up the memory queue: bench/RESULTS.md, "The
 * bridge's far test and the estimators' reciprocals"); the rest is never
 * read. */
#define MCPI_SCHEDS_OF(j) ((j)->nsched)
#define MCPI_MONS_OF(j) ((j)->nmon)
#else
#define MCPI_SCHEDS_OF(j) MCPI_NSCHED
#define MCPI_MONS_OF(j) (MCPI_NMON > 0 ? MCPI_NMON : 1)
#endif

MCP_HD static inline void MCPI_P(mcpi_path_init)(MCPI_P(mcpi_path_state) *st,
                                                 const mcpi_job_view *j, int pass)
{
  st->x = st->x0 = (MCPI_REAL)j->log_spot;
  st->v = (MCPI_REAL)j->heston[0].v0;
  st->var = st->z1 = st->a1 = st->b1 = st->z0 = 0;
  st->sign = pass ? -1 : 1;
  st->step = 0;
  MCP_UNROLL
  for (int k = 0; k < MCPI_NSCHED; k++)
    if (k < MCPI_SCHEDS_OF(j)) {
      int open = j->open >> k & 1u; /* a seasoned lookback's: the fixings to come alone */
      st->sum[k] = st->log_sum[k] = 0;
      st->log_max[k] = open ? (MCPI_REAL)-INFINITY : st->x;
      st->log_min[k] = open ? (MCPI_REAL)INFINITY : st->x;
    }
  MCP_UNROLL
  for (int m = 0; m < (MCPI_NMON > 0 ? MCPI_NMON : 1); m++)
    st->survival[m] = 1;
#ifdef MCPI_LSM_BODY
  st->ex = st->ex_done = 0;
  st->ex_val = st->held = 0;
#endif
#ifdef MCPI_LSM_SCALED
  st->sc[0] = st->sc[1] = -1;
#endif
#ifndef MCPI_SINGLE_ONLY
  MCP_UNROLL
  for (int f = 0; f < MCPI_HOLD_FACTORS; f++)
    st->hz[f] = 0;
  st->hw = 0;
#endif
#ifdef MCPI_GREEK_STATE
  mcpi_greek_state_init(&st->g, j->gstate);
  MCP_UNROLL
  for (int k = 0; k < MCPI_NSCHED; k++)
    if (k < MCPI_SCHEDS_OF(j))
      mcpi_greek_fixings_init(&st->gf[k]);
  MCP_UNROLL
  for (int m = 0; m < (MCPI_NMON > 0 ? MCPI_NMON : 1); m++)
    if (m < MCPI_MONS_OF(j))
      mcpi_greek_monitor_init(&st->gm[m]);
#endif
}

/* The fixing of schedule k at the spot exp(x). */
MCP_HD static inline void MCPI_P(mcpi_path_fix_one)(MCPI_P(mcpi_path_state) *st,
                                                    const mcpi_job_view *j, int k,
                                                    MCPI_REAL spot)
{
#ifdef MCPI_GREEK_STATE
  mcpi_greek_state_fix(&st->g, &st->gf[k], spot, st->x > st->log_max[k],
                       st->x < st->log_min[k]);
#endif
  st->sum[k] += spot;
  if (MCPI_TRACK_OF(j) & MCPI_TRACK_LOG_SUM)
    st->log_sum[k] += st->x;
  if (MCPI_TRACK_OF(j) & MCPI_TRACK_EXTREMA) {
    st->log_max[k] = st->x > st->log_max[k] ? st->x : st->log_max[k];
    st->log_min[k] = st->x < st->log_min[k] ? st->x : st->log_min[k];
  }
}

/* The fixings of the schedules in mask, at the spot exp(x), in the order
 * of the schedules. */
MCP_HD static inline void MCPI_P(mcpi_path_fix)(MCPI_P(mcpi_path_state) *st,
                                                const mcpi_job_view *j, uint32_t mask,
                                                MCPI_REAL spot)
{
#ifdef MCPI_STATE_INDEXED
  for (int k = 0; k < MCPI_NSCHED && mask >> k; k++)
    if (mask >> k & 1u)
      MCPI_P(mcpi_path_fix_one)(st, j, k, spot);
#else
  MCP_UNROLL
  for (int k = 0; k < MCPI_NSCHED; k++)
    if (mask >> k & 1u)
      MCPI_P(mcpi_path_fix_one)(st, j, k, spot);
#endif
}

/* The barriers watched over the step, and the step counted: no crossing
 * between the end points of a Brownian bridge of variance var,
 * 1 - exp(-2 d0 d1 / var), d the distances to the barrier; by 1 / var, one
 * division a step, not one a monitor near its barrier (and the Greeks'
 * monitors' four: bench/RESULTS.md, "The bridge's factors by reciprocals"). */
MCP_HD static inline void MCPI_P(mcpi_path_watch)(MCPI_P(mcpi_path_state) *st,
                                                  const mcpi_job_view *j)
{
  MCPI_REAL iv = j->nmon ? 1 / st->var : 0;
  MCP_UNROLL
  for (int m = 0; m < MCPI_NMON; m++)
    if (m < j->nmon && st->step <= j->mon_end[m]) {
      MCPI_REAL h = (MCPI_REAL)j->mon_log_barrier[m];
      MCPI_REAL d0 = j->mon_up[m] ? h - st->x0 : st->x0 - h;
      MCPI_REAL d1 = j->mon_up[m] ? h - st->x : st->x - h;
      /* far from the barrier the factor rounds to 1 (greeks.h's
       * MCPI_BRIDGE_FAR): no division or exponential, the same bits */
      MCPI_REAL t = 2 * d0 * d1;
      MCPI_REAL f = !(d0 > 0 && d1 > 0)                        ? 0
                    : t > (MCPI_REAL)MCPI_BRIDGE_FAR * st->var ? 1
                                                               : 1 - MCPI_EXP(-t * iv);
#ifdef MCPI_GREEK_STATE
      if (j->gstate & MCPI_GSTATE_MONITORS)
        mcpi_greek_monitor_step(&st->gm[m], &st->g, st->survival[m], f, d0, d1, st->var, iv,
                                j->mon_up[m] ? -1 : 1, j->g.l, j->gstate & MCPI_GSTATE_SCALED);
#endif
      st->survival[m] *= f;
    }
#ifdef MCPI_GREEK_STATE
  st->g.w0 = st->g.w;
  st->g.t0 = st->g.t;
#endif
  st->step++;
}

/* A cash dividend at the end of the step just watched (st->step - 1): the
 * spot drops by the amount, floored at 0 (log-spot -inf), and a barrier
 * watched on the bridge, which saw the step up to the drop, sees the spot
 * after it too. */
MCP_HD static inline void MCPI_P(mcpi_path_cash)(MCPI_P(mcpi_path_state) *st,
                                                 const mcpi_job_view *j)
{
  int s = st->step - 1;
  MCPI_REAL left = MCPI_EXP(st->x) - (MCPI_REAL)j->cash[s];
  st->x = left > 0 ? MCPI_LOG(left) : -(MCPI_REAL)INFINITY;
  MCP_UNROLL
  for (int m = 0; m < MCPI_NMON; m++)
    if (m < j->nmon && s <= j->mon_end[m]) {
      MCPI_REAL h = (MCPI_REAL)j->mon_log_barrier[m];
      st->survival[m] *= (j->mon_up[m] ? st->x < h : st->x > h) ? 1 : 0;
    }
}

#ifdef MCPI_LSM_BODY
/* An exercise date of the job's Longstaff-Schwartz trade (its first): the
 * rule of the fitted table at the path's spot and variance (lsm.h), and at
 * its scaled spots where the trade's spot Greeks are on the path
 * (lsm_greeks.h). */
MCP_HD static inline void MCPI_P(mcpi_path_exercise)(MCPI_P(mcpi_path_state) *st,
                                                     const mcpi_job_view *j)
{
  const double *row = j->lsm + (size_t)st->ex++ * MCPI_LSM_ROW;
  const mcpi_payoff_spec *p = &j->trades[0];
  /* the last date: the European's too (the scenarios: every date) */
  if (st->ex_done && row[1] != MCPI_LSM_ALWAYS && !MCPI_SCALED)
    return;
  double s = mcpi_dexp((double)st->x), v = (double)st->v, under, value;
  int heston = j->model == MCPI_MODEL_HESTON;
  if (MCPI_SCALED)
    mcpi_lsm_scaled_date(p, row, &s, &s, 1, heston, v, MCPI_SC(st));
  if (st->ex_done && row[1] != MCPI_LSM_ALWAYS)
    return;
  double h = mcpi_lsm_exercise(p, &s, 1, &under);
  int ex = mcpi_lsm_exercises(row, h, mcpi_lsm_continuation(p, row, h, 1, heston, under, &s, v),
                              &value);
  if (ex && !st->ex_done) {
    st->ex_val = value;
    st->ex_done = 1;
  }
  if (row[1] == MCPI_LSM_ALWAYS)
    st->held = ex ? value : 0;
}
#define MCPI_EXERCISE(st, j, tag)                                                          \
  if ((j)->lsm && ((tag) & (j)->lsm_mask))                                                \
  MCPI_P(mcpi_path_exercise)(st, j)
#else
#define MCPI_EXERCISE(st, j, tag) (void)0
#endif

/* The end of a step: the fixings made there and the barriers watched; with
 * a cash dividend, the barriers up to the drop, then the drop, then the
 * fixings (which see the spot after it); then an exercise date's rule. */
MCP_HD static inline void MCPI_P(mcpi_path_observe)(MCPI_P(mcpi_path_state) *st,
                                                    const mcpi_job_view *j, uint32_t tag)
{
  uint32_t mask = tag & MCPI_TAG_MASK;
  if (MCPI_CASH_OF(j) && (tag & MCPI_TAG_CASH)) {
    MCPI_P(mcpi_path_watch)(st, j);
    MCPI_P(mcpi_path_cash)(st, j);
    if (mask)
      MCPI_P(mcpi_path_fix)(st, j, mask, MCPI_EXP(st->x));
  } else {
    if (mask)
      MCPI_P(mcpi_path_fix)(st, j, mask, MCPI_EXP(st->x));
    MCPI_P(mcpi_path_watch)(st, j);
  }
  MCPI_EXERCISE(st, j, tag);
}
#undef MCPI_EXERCISE

/* A continuously monitored lookback's element, after the model's: the
 * maximum and minimum of the Brownian bridge of variance var from x0 to x,
 * sampled by inversion from U = N(z), uniform in (0, 1),
 *   max = (x0 + x + sqrt((x - x0)^2 - 2 var log U)) / 2,
 *   min = (x0 + x - sqrt((x - x0)^2 - 2 var log U)) / 2,
 * into every schedule's extremes (the job's lookbacks share its maturity).
 * Exact for Black-Scholes on any grid; for Heston and Merton the step's
 * diffusion variance, an approximation that improves with the steps.  One
 * uniform serves both: each lookback reads one of them, whose law is then
 * exact. */
MCP_HD static inline void MCPI_P(mcpi_path_extrema)(MCPI_P(mcpi_path_state) *st,
                                                    const mcpi_job_view *j, MCPI_REAL z)
{
  MCPI_REAL d = st->x - st->x0;
  MCPI_REAL r = MCPI_SQRT(d * d - 2 * st->var * MCPI_LOG(MCPI_NCDF(z)));
  MCPI_REAL hi = (st->x0 + st->x + r) / 2, lo = (st->x0 + st->x - r) / 2;
  MCP_UNROLL
  for (int k = 0; k < MCPI_NSCHED; k++)
    if (k < MCPI_SCHEDS_OF(j)) {
      st->log_max[k] = hi > st->log_max[k] ? hi : st->log_max[k];
      st->log_min[k] = lo < st->log_min[k] ? lo : st->log_min[k];
    }
}

/* A Heston asset's scheme: the plain shape's (the only single-asset-only
 * family that steps Heston) is QE's alone (job_view.c's plain_trades), a
 * constant, so that its step has no Euler branch, which ended a basic block
 * a step (bench/RESULTS.md "heston-fast"). */
#ifdef MCPI_SINGLE_ONLY
#define MCPI_SCHEME_OF(j) MCP_HESTON_QE
#else
#define MCPI_SCHEME_OF(j) ((j)->scheme)
#endif

/* One element's share of the model's step. */
MCP_HD static inline void MCPI_P(mcpi_path_advance)(MCPI_P(mcpi_path_state) *st,
                                                    const mcpi_job_view *j, MCPI_REAL z,
                                                    MCPI_REAL a, MCPI_REAL b, uint32_t tag)
{
  uint32_t f = tag >> MCPI_TAG_FACTOR_SHIFT & 0xffu;
#ifndef MCPI_SINGLE_ONLY
  if (tag & (MCPI_TAG_HOLD | MCPI_TAG_MERGE)) { /* the grid check's coarse pass (path.h) */
    MCPI_REAL held = 0;
    MCP_UNROLL
    for (int k = 0; k < MCPI_HOLD_FACTORS; k++) /* selected: the normals stay in registers */
      if ((uint32_t)k == f) {
        held = st->hz[k];
        st->hz[k] = tag & MCPI_TAG_HOLD ? a * z : 0;
      }
    if (tag & MCPI_TAG_HOLD) {
      st->hw = b;
      if (tag & MCPI_TAG_LAST) /* the step counts, unobserved */
        st->step++;
      return;
    }
    z = held + st->hw * z;
  }
#endif
  z *= st->sign;
  if (MCPI_EXTREMA_OF(j) && f == (uint32_t)MCPI_EXTREMA_OF(j)) {
    MCPI_P(mcpi_path_extrema)(st, j, z);
    return;
  }
  if (j->greeks && st->step == 0 && f == 0) /* read by likelihood-ratio Greeks only */
    st->z0 = z;
#ifdef MCPI_GREEK_STATE
  mcpi_greek_state_step(&st->g, j->sqrt_dt, z, b, f, tag);
#endif
  switch (MCPI_MODEL_OF(j)) {
  case MCPI_MODEL_HESTON:
    if (f == 0) {
      st->z1 = z;
      st->a1 = a;
      st->b1 = b;
    } else {
      st->x0 = st->x;
      MCPI_P(mcpi_heston_step)(&st->x, &st->v, &st->var, &j->heston[0], MCPI_SCHEME_OF(j), st->a1,
                               st->b1, a, st->z1, z);
    }
    break;
  case MCPI_MODEL_MERTON:
    if (f == 0) {
      st->x0 = st->x;
      st->x = MCPI_GBM_STEP(st->x, a, b, z);
      st->var = b * b;
    } else if (f == 1) {
      st->z1 = MCPI_P(mcpi_poisson_inverse)(MCPI_NCDF(z), a);
    } else {
      st->x += st->z1 * a + MCPI_SQRT(st->z1) * b * z;
    }
    break;
  case MCPI_MODEL_LOCAL_VOL: { /* a: the step's (r - q) dt, b: sqrt(dt) */
    MCPI_REAL s = MCPI_LOCAL_VOL(j->MCPI_COEF(lv_y), j->MCPI_COEF(lv_vol) + st->step * j->lv_n,
                                 j->lv_n, j->lv_idx, j->lv_nb, (MCPI_REAL)j->lv_binv, st->x);
    st->x0 = st->x;
    st->var = MCPI_LOCAL_VOL_VAR(s, b);
    st->x = MCPI_GBM_STEP(st->x, a - st->var / 2, s * b, z);
    break;
  }
  default: /* Black-Scholes */
    st->x0 = st->x;
    st->x = MCPI_GBM_STEP(st->x, a, b, z);
    st->var = b * b;
  }
}

/* One element: the model's share of the step, then, on its last element, the
 * observations. */
MCP_HD static inline void MCPI_P(mcpi_path_step)(MCPI_P(mcpi_path_state) *st,
                                                 const mcpi_job_view *j, MCPI_REAL z,
                                                 MCPI_REAL a, MCPI_REAL b, uint32_t tag)
{
  MCPI_P(mcpi_path_advance)(st, j, z, a, b, tag);
#ifdef MCPI_SINGLE_ONLY
  if (tag & MCPI_TAG_LAST)
#else
  if ((tag & (MCPI_TAG_LAST | MCPI_TAG_HOLD)) == MCPI_TAG_LAST) /* a held step: no observation */
#endif
    MCPI_P(mcpi_path_observe)(st, j, tag);
}

/* What trade p observed of the path: its schedule's sum, log-sum and
 * extremes, its maturity's spot, its monitor's probability of no crossing;
 * at their indices where the state is in the frame (MCPI_STATE_INDEXED),
 * else selected at compile-time indices, so that it stays in registers. */
MCP_HD static inline void MCPI_P(mcpi_path_observed)(const MCPI_P(mcpi_path_state) *st,
                                                     const mcpi_payoff_spec *p, mcpi_observed *o)
{
  *o = (mcpi_observed){0, 0, 0, 0, 0, 1};
#ifdef MCPI_STATE_INDEXED
  int k = p->schedule, t = p->terminal, m = p->monitor;
  if (k >= 0 && k < MCPI_NSCHED) {
    o->sum = st->sum[k];
    o->log_sum = st->log_sum[k];
    o->log_max = st->log_max[k];
    o->log_min = st->log_min[k];
  }
  if (t >= 0 && t < MCPI_NSCHED)
    o->terminal = st->sum[t];
  if (m >= 0 && m < MCPI_NMON)
    o->survival = st->survival[m];
#else
  MCP_UNROLL
  for (int k = 0; k < MCPI_NSCHED; k++) {
    if (k == p->schedule) {
      o->sum = st->sum[k];
      o->log_sum = st->log_sum[k];
      o->log_max = st->log_max[k];
      o->log_min = st->log_min[k];
    }
    if (k == p->terminal)
      o->terminal = st->sum[k];
  }
  MCP_UNROLL
  for (int m = 0; m < MCPI_NMON; m++)
    if (m == p->monitor)
      o->survival = st->survival[m];
#endif
}

/* A trade's payoff, its emission and its Greeks on the path.  Where
 * product is not -1 it is the trade's, a constant in each of the general
 * and Greeks' bodies' calls (mcpi_path_finish), so that the payoffs' and
 * estimators' switches on it fold and a European reads and scales no
 * average's or extremes' terms (bench/RESULTS.md, "The trades' products as
 * constants in the Greeks' body"). */
static MCP_HD_INLINE void MCPI_P(mcpi_path_trade)(const MCPI_P(mcpi_path_state) *st,
                                                  const mcpi_job_view *j, int t,
                                                  const mcpi_payoff_spec *p, int product,
                                                  double *pay, size_t ldp, int pass,
                                                  double *book, double *gbook)
{
  if (product >= 0)
    MCPI_ASSUME(p->product == product);
  mcpi_observed o;
  MCPI_P(mcpi_path_observed)(st, p, &o);
  const mcpi_greek_monitor *gm = NULL; /* the trade's bridge monitor's derivatives */
#if defined MCPI_GREEK_STATE && !defined MCPI_SINGLE_ONLY
  /* indexed: the general state's derivatives stay in its frame (selected
   * like the shaped state's below, they would all take registers) */
  mcpi_greek_fixings fk = st->gf[p->schedule], fm = st->gf[p->terminal];
  if (j->gstate & MCPI_GSTATE_MONITORS && p->monitor >= 0)
    gm = &st->gm[p->monitor];
#elif defined MCPI_GREEK_STATE
  mcpi_greek_fixings fk = st->gf[0], fm = st->gf[0];
  mcpi_greek_monitor gsel = st->gm[0];
#endif
#if defined MCPI_GREEK_STATE && defined MCPI_SINGLE_ONLY
  MCP_UNROLL
  for (int k = 0; k < MCPI_NSCHED; k++) {
    if (k == p->schedule)
      fk = st->gf[k];
    if (k == p->terminal)
      fm = st->gf[k];
  }
  MCP_UNROLL
  for (int m = 0; m < MCPI_NMON; m++)
    if (m == p->monitor)
      gsel = st->gm[m];
  if (j->gstate & MCPI_GSTATE_MONITORS && p->monitor >= 0)
    gm = &gsel;
#endif
  double y = mcpi_payoff(p, &o);
  mcpi_emit(j, t, p->discount * y, mcpi_control_value(p, &o), pay, ldp, pass, book);
  if (j->greeks && p->g_col >= 0)
    mcpi_greeks_single(&j->g, p, &o, y, st->z0, gm, pay, ldp, pass, gbook);
#ifdef MCPI_GREEK_STATE
  if (j->greeks && p->g_col >= 0)
    mcpi_greeks_rates(p, &o, y, &st->g, &fk, &fm, gm, pay, ldp, pass, gbook);
#endif
}

MCP_HD static inline void MCPI_P(mcpi_path_finish)(const MCPI_P(mcpi_path_state) *st,
                                                   const mcpi_job_view *j, double *pay,
                                                   size_t ldp, int pass)
{
  double book = 0, gbook[MCPI_BOOK_GREEKS] = {0};
  for (int t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
#ifdef MCPI_LSM_BODY
    if (p->flags & MCPI_LSM) { /* discounted where exercised, or held to the end */
      int held = (p->flags & MCPI_LSM_HELD) != 0;
      mcpi_emit(j, t, held ? st->held : st->ex_val, 0, pay, ldp, pass, &book);
      if (MCPI_SCALED && !held) {
        mcpi_lsm_scaled_emit(p, 1, st->ex_val, MCPI_SC(st), NULL, &p->g_s0, pay, ldp, pass,
                             gbook);
      } else if (MCPI_SCALED && p->g_col >= 0) { /* the European's, at its last spot */
        double s = mcpi_dexp((double)st->x);
        mcpi_lsm_scaled_emit(p, 1, st->held, NULL, &s, &p->g_s0, pay, ldp, pass, gbook);
      }
      continue;
    }
#endif
#if defined MCPI_GREEK_STATE || !defined MCPI_SINGLE_ONLY
    /* a book's many trades: each product its own code (the shaped price
     * states' few trades keep one copy) */
    switch (p->product) {
    case MCP_PRODUCT_EUROPEAN:
      MCPI_P(mcpi_path_trade)(st, j, t, p, MCP_PRODUCT_EUROPEAN, pay, ldp, pass, &book, gbook);
      break;
    case MCP_PRODUCT_ASIAN:
      MCPI_P(mcpi_path_trade)(st, j, t, p, MCP_PRODUCT_ASIAN, pay, ldp, pass, &book, gbook);
      break;
    case MCP_PRODUCT_BARRIER:
      MCPI_P(mcpi_path_trade)(st, j, t, p, MCP_PRODUCT_BARRIER, pay, ldp, pass, &book, gbook);
      break;
    default:
      MCPI_P(mcpi_path_trade)(st, j, t, p, -1, pay, ldp, pass, &book, gbook);
    }
#else
    MCPI_P(mcpi_path_trade)(st, j, t, p, -1, pay, ldp, pass, &book, gbook);
#endif
  }
  pay[(size_t)j->ntrades * ldp] = book;
  if (j->greeks)
    mcpi_greeks_book(&j->g, gbook, pay, ldp);
}

MCP_HD static inline void MCPI_P(mcpi_path_log_spots)(const MCPI_P(mcpi_path_state) *st,
                                                      double *x)
{
  x[0] = st->x;
}

/* The barrier monitors' probabilities of no crossing, which the per-path
 * arrays' payoffs read (private.h): MCPI_MAX_MONITORS of them. */
MCP_HD static inline void MCPI_P(mcpi_path_survival)(const MCPI_P(mcpi_path_state) *st,
                                                     double *sv)
{
  MCP_UNROLL
  for (int m = 0; m < MCPI_MAX_MONITORS; m++)
    sv[m] = m < MCPI_NMON ? (double)st->survival[m < MCPI_NMON ? m : 0] : 1;
}

#ifndef MCPI_SINGLE_ONLY
/* ---- several correlated assets ---------------------------------------------- */

typedef struct MCPI_P(mcpi_multi_state) {
  MCPI_REAL x[MCP_MAX_ASSETS];   /* log-spots */
  MCPI_REAL acc[MCP_MAX_ASSETS]; /* the step's correlated normals, L z, as they build up */
  MCPI_REAL dev[MCP_MAX_ASSETS]; /* the step's standard deviations */
  MCPI_REAL sign;
  MCPI_REAL hw;                  /* local volatility's grid check: the merging step's weight */
  int32_t step;
#ifdef MCPI_LSM_BODY
  int32_t ex, ex_done; /* Longstaff-Schwartz, as the single-asset state's */
  double ex_val, held;
#endif
#ifdef MCPI_LSM_SCALED
  double sc[MCPI_LSM_MAX_SCALED]; /* the scaled spots' (lsm_greeks.h) */
#endif
} MCPI_P(mcpi_multi_state);

MCP_HD static inline void MCPI_P(mcpi_multi_init)(MCPI_P(mcpi_multi_state) *st,
                                                  const mcpi_job_view *j, int pass)
{
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++) {
    st->x[i] = (MCPI_REAL)j->log_spots[i];
    st->acc[i] = st->dev[i] = 0;
  }
  st->sign = pass ? -1 : 1;
  st->hw = 0;
  st->step = 0;
#ifdef MCPI_LSM_BODY
  st->ex = st->ex_done = 0;
  st->ex_val = st->held = 0;
#endif
#ifdef MCPI_LSM_SCALED
  mcpi_lsm_scaled_init(&j->trades[0], j->nassets, st->sc);
#endif
}

#ifdef MCPI_LSM_BODY
/* An exercise date of the job's Longstaff-Schwartz trade (its first) on
 * several assets at log-spots x (the multi-asset states' fields ex ...
 * held, and sc, its scaled spots' where its spot Greeks are on the path:
 * lsm_greeks.h), its arrays at compile-time indices (registers). */
MCP_HD static inline void MCPI_P(mcpi_multi_exercise)(const MCPI_REAL *x, int32_t *ex,
                                                      int32_t *ex_done, double *ex_val,
                                                      double *held, double *sc,
                                                      const mcpi_job_view *j)
{
  const double *row = j->lsm + (size_t)(*ex)++ * MCPI_LSM_ROW;
  const mcpi_payoff_spec *p = &j->trades[0];
  /* the last date: the European's too (the scenarios: every date) */
  if (*ex_done && row[1] != MCPI_LSM_ALWAYS && !MCPI_SCALED)
    return;
  double s[MCP_MAX_ASSETS], r[MCP_MAX_ASSETS], under, value;
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++) {
    double xi = (double)x[i];
    s[i] = i < j->nassets ? mcpi_dexp(xi) : 0;
    r[i] = xi - p->log_initial[i];
  }
  if (MCPI_SCALED)
    mcpi_lsm_scaled_date(p, row, s, r, j->nassets, 0, 0, sc);
  if (*ex_done && row[1] != MCPI_LSM_ALWAYS)
    return;
  double h = mcpi_lsm_exercise(p, s, j->nassets, &under);
  int e = mcpi_lsm_exercises(row, h, mcpi_lsm_continuation(p, row, h, j->nassets, 0, under, r, 0),
                             &value);
  if (e && !*ex_done) {
    *ex_val = value;
    *ex_done = 1;
  }
  if (row[1] == MCPI_LSM_ALWAYS)
    *held = e ? value : 0;
}
#endif

/* Element f: asset f's drift, and column f of the Cholesky factor times z;
 * the step's end adds each asset's deviation times its correlated normal.
 * Local volatility (lv, a constant where inlined): asset f's slice at its
 * log-spot gives the deviation s b and the drift a - s^2 b^2 / 2; its grid
 * check's coarse pass (path.h) holds a step's weighted normals in the sums,
 * as the Heston assets'. */
MCP_HD static inline void MCPI_P(mcpi_multi_step_as)(MCPI_P(mcpi_multi_state) *st,
                                                     const mcpi_job_view *j, MCPI_REAL z,
                                                     MCPI_REAL a, MCPI_REAL b, uint32_t tag,
                                                     int lv)
{
  z *= st->sign;
  int f = (int)(tag >> MCPI_TAG_FACTOR_SHIFT & 0xffu), held = 0;
  if (lv) {
    held = (tag & MCPI_TAG_HOLD) != 0;
    if (held) {
      z *= a;
      st->hw = b;
    } else {
      if (tag & MCPI_TAG_MERGE)
        z *= st->hw;
      MCPI_REAL x = 0;
      MCP_UNROLL
      for (int i = 0; i < MCP_MAX_ASSETS; i++)
        x = i == f ? st->x[i] : x;
      MCPI_REAL s = MCPI_LOCAL_VOL(
          j->MCPI_COEF(lv_y) + f * j->lv_n,
          j->MCPI_COEF(lv_vol) + ((size_t)st->step * j->nassets + f) * j->lv_n, j->lv_n,
          j->lv_idx + f * j->lv_nb, j->lv_nb, (MCPI_REAL)j->lv_bin[f], x);
      a -= MCPI_LOCAL_VOL_VAR(s, b) / 2;
      b *= s;
    }
  }
  const MCPI_REAL *col = j->MCPI_COEF(chol) + f;
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++)
    if (i < j->nassets) {
      if (i >= f)
        st->acc[i] += col[i * MCPI_MAX_FACTORS] * z;
      if (i == f && !held) {
        st->x[i] += a;
        st->dev[i] = b;
      }
    }
  if (tag & MCPI_TAG_LAST) {
    if (lv) /* the step of the slices */
      st->step++;
    if (held)
      return;
    MCP_UNROLL
    for (int i = 0; i < MCP_MAX_ASSETS; i++) {
      st->x[i] += st->dev[i] * st->acc[i];
      st->acc[i] = 0;
    }
#ifdef MCPI_LSM_BODY
    if (j->lsm && (tag & j->lsm_mask))
      MCPI_P(mcpi_multi_exercise)(st->x, &st->ex, &st->ex_done, &st->ex_val, &st->held,
                                  MCPI_SC(st), j);
#endif
  }
}

/* Several Black-Scholes assets: their kernels carry no surface.  (The
 * Longstaff-Schwartz bodies' kernels take local-volatility assets too.) */
MCP_HD static inline void MCPI_P(mcpi_multi_step)(MCPI_P(mcpi_multi_state) *st,
                                                  const mcpi_job_view *j, MCPI_REAL z,
                                                  MCPI_REAL a, MCPI_REAL b, uint32_t tag)
{
#ifdef MCPI_LSM_BODY
  MCPI_P(mcpi_multi_step_as)(st, j, z, a, b, tag, j->model == MCPI_MODEL_LOCAL_VOL);
#else
  MCPI_P(mcpi_multi_step_as)(st, j, z, a, b, tag, 0);
#endif
}

/* The trades of several assets at their terminal log-spots x (ex_val: a
 * Longstaff-Schwartz trade's discounted exercise, held: its European's). */
MCP_HD static inline void MCPI_P(mcpi_multi_pay)(const MCPI_REAL *x, double ex_val,
                                                 double held, const double *sc,
                                                 const mcpi_job_view *j, double *pay, size_t ldp,
                                                 int pass)
{
  double spot[MCP_MAX_ASSETS], s0[MCP_MAX_ASSETS], book = 0;
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++) {
    spot[i] = exp((double)x[i]);
    s0[i] = exp(j->log_spots[i]);
  }
  for (int t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
    if (p->flags & MCPI_LSM) { /* discounted where exercised, or held to the end */
      mcpi_emit(j, t, p->flags & MCPI_LSM_HELD ? held : ex_val, 0, pay, ldp, pass, &book);
      if (sc) {
        double xd[MCP_MAX_ASSETS];
        MCP_UNROLL
        for (int i = 0; i < MCP_MAX_ASSETS; i++)
          xd[i] = (double)x[i];
        mcpi_lsm_scaled_pay(p, j->nassets, ex_val, held, sc, xd, s0, pay, ldp, pass);
      }
      continue;
    }
    double c, y = mcpi_payoff_multi(p, spot, j->nassets, &c);
    mcpi_emit(j, t, p->discount * y, c, pay, ldp, pass, &book);
    if (j->greeks && p->g_col >= 0)
      mcpi_greeks_multi(p, spot, j->nassets, y, s0, pay, ldp, pass);
  }
  pay[(size_t)j->ntrades * ldp] = book;
}

MCP_HD static inline void MCPI_P(mcpi_multi_finish)(const MCPI_P(mcpi_multi_state) *st,
                                                    const mcpi_job_view *j, double *pay,
                                                    size_t ldp, int pass)
{
#ifdef MCPI_LSM_BODY
  MCPI_P(mcpi_multi_pay)(st->x, st->ex_val, st->held, MCPI_SC(st), j, pay, ldp, pass);
#else
  MCPI_P(mcpi_multi_pay)(st->x, 0, 0, NULL, j, pay, ldp, pass);
#endif
}

MCP_HD static inline void MCPI_P(mcpi_multi_log_spots)(const MCPI_P(mcpi_multi_state) *st,
                                                       double *x)
{
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++)
    x[i] = st->x[i];
}

/* Several assets watch no barrier. */
MCP_HD static inline void MCPI_P(mcpi_multi_survival)(const MCPI_P(mcpi_multi_state) *st,
                                                      double *sv)
{
  (void)st;
  MCP_UNROLL
  for (int m = 0; m < MCPI_MAX_MONITORS; m++)
    sv[m] = 1;
}

/* ---- several correlated local-volatility assets: the multi state, its
 * step reading the surfaces (a type of its own: the kernels of its
 * catalogue state, MCPI_STATE_MLV) */
typedef struct MCPI_P(mcpi_mlv_state) {
  MCPI_P(mcpi_multi_state) m;
} MCPI_P(mcpi_mlv_state);

MCP_HD static inline void MCPI_P(mcpi_mlv_init)(MCPI_P(mcpi_mlv_state) *st,
                                                const mcpi_job_view *j, int pass)
{
  MCPI_P(mcpi_multi_init)(&st->m, j, pass);
}

MCP_HD static inline void MCPI_P(mcpi_mlv_step)(MCPI_P(mcpi_mlv_state) *st,
                                                const mcpi_job_view *j, MCPI_REAL z, MCPI_REAL a,
                                                MCPI_REAL b, uint32_t tag)
{
  MCPI_P(mcpi_multi_step_as)(&st->m, j, z, a, b, tag, 1);
}

MCP_HD static inline void MCPI_P(mcpi_mlv_finish)(const MCPI_P(mcpi_mlv_state) *st,
                                                  const mcpi_job_view *j, double *pay,
                                                  size_t ldp, int pass)
{
  MCPI_P(mcpi_multi_finish)(&st->m, j, pay, ldp, pass);
}

MCP_HD static inline void MCPI_P(mcpi_mlv_log_spots)(const MCPI_P(mcpi_mlv_state) *st, double *x)
{
  MCPI_P(mcpi_multi_log_spots)(&st->m, x);
}

MCP_HD static inline void MCPI_P(mcpi_mlv_survival)(const MCPI_P(mcpi_mlv_state) *st, double *sv)
{
  MCPI_P(mcpi_multi_survival)(&st->m, sv);
}

/* ---- several correlated Heston assets ------------------------------------------
 * Asset i draws factors 2 i (its variance's driver) and 2 i + 1 (its spot's,
 * independent of it), correlated across assets by the lower Cholesky factor
 * (correlation.c): driver p sums the normals of factors f <= p,
 * so asset i's pair is complete at its factor 2 i + 1, where it takes the
 * one-asset step (heston.h) with its step's coefficients, read from the
 * job's arrays (the elements' own a and b come one at a time).  The loops
 * run over the assets at run time (the state in local memory): one copy of
 * the step's code, which unrolled over MCP_MAX_ASSETS would take nvcc many
 * minutes a kernel.  Early exercise as the multi state's, at the end of an
 * exercise date's step. */

/* Asset i's drivers d0 and d1 of a step's signed normals zs: rows 2 i and
 * 2 i + 1 of L z, each summed in the factors' order (the step's and the
 * adjoint's sweep's, adjoint.h: the same bits).  slots: 0, or the loop
 * over that many factor slots (a constant at each call), its bounds
 * tested, for a zs in registers. */
MCP_HD static inline void MCPI_P(mcpi_mheston_drivers)(const MCPI_REAL *chol, const MCPI_REAL *zs,
                                                       int i, int slots, MCPI_REAL *d0,
                                                       MCPI_REAL *d1)
{
  const MCPI_REAL *l0 = chol + 2 * i * MCPI_MAX_FACTORS, *l1 = l0 + MCPI_MAX_FACTORS;
  MCPI_REAL a = 0, b = 0;
  if (slots) {
    MCP_UNROLL
    for (int q = 0; q < slots; q++) {
      if (q <= 2 * i)
        a += l0[q] * zs[q];
      if (q <= 2 * i + 1)
        b += l1[q] * zs[q];
    }
  } else {
    for (int q = 0; q <= 2 * i; q++) {
      a += l0[q] * zs[q];
      b += l1[q] * zs[q];
    }
    b += l1[2 * i + 1] * zs[2 * i + 1];
  }
  *d0 = a;
  *d1 = b;
}

typedef struct MCPI_P(mcpi_mheston_state) {
  MCPI_REAL x[MCP_MAX_ASSETS], v[MCP_MAX_ASSETS]; /* log-spots, variances */
  MCPI_REAL zs[MCPI_MAX_FACTORS];  /* the step's normals, signed */
  MCPI_REAL acc[MCPI_MAX_FACTORS]; /* a merged step's drivers, L z, as they build up */
  MCPI_REAL sign;
  MCPI_REAL hw; /* the grid check's coarse pass: the merging step's weight (path.h) */
  int32_t step;
#ifdef MCPI_LSM_BODY
  int32_t ex, ex_done;
  double ex_val, held;
#endif
#ifdef MCPI_LSM_SCALED
  double sc[MCPI_LSM_MAX_SCALED];
#endif
} MCPI_P(mcpi_mheston_state);

MCP_HD static inline void MCPI_P(mcpi_mheston_init)(MCPI_P(mcpi_mheston_state) *st,
                                                    const mcpi_job_view *j, int pass)
{
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++) {
    st->x[i] = (MCPI_REAL)j->log_spots[i];
    st->v[i] = (MCPI_REAL)j->heston[i].v0;
  }
  MCP_UNROLL
  for (int f = 0; f < MCPI_MAX_FACTORS; f++)
    st->acc[f] = st->zs[f] = 0;
  st->sign = pass ? -1 : 1;
  st->hw = 0;
  st->step = 0;
#ifdef MCPI_LSM_BODY
  st->ex = st->ex_done = 0;
  st->ex_val = st->held = 0;
#endif
#ifdef MCPI_LSM_SCALED
  mcpi_lsm_scaled_init(&j->trades[0], j->nassets, st->sc);
#endif
}

MCP_HD static inline void MCPI_P(mcpi_mheston_step)(MCPI_P(mcpi_mheston_state) *st,
                                                    const mcpi_job_view *j, MCPI_REAL z,
                                                    MCPI_REAL a, MCPI_REAL b, uint32_t tag)
{
  /* the coefficients come from the job's arrays; the grid check's coarse
   * pass (path.h): the drivers are linear in the normals, so a held step
   * adds its normals times a to them and the merging step its own times the
   * weight b kept here, and the drivers sum the merged normals */
  if (tag & MCPI_TAG_HOLD) {
    z *= a;
    st->hw = b;
  } else if (tag & MCPI_TAG_MERGE) {
    z *= st->hw;
  }
  z *= st->sign;
  int f = (int)(tag >> MCPI_TAG_FACTOR_SHIFT & 0xffu), nf = 2 * j->nassets;
  const MCPI_REAL *chol = j->MCPI_COEF(chol);
  /* a step's drivers are L z summed over its factors in their order: a
   * merged step's as its two steps' normals come, the others' once an
   * asset's pair is complete, from the normals kept (the same products and
   * sums, in the same order: the same bits, with a store a factor where the
   * sums in the state took a load and a store a driver a factor) */
  if (tag & (MCPI_TAG_HOLD | MCPI_TAG_MERGE)) {
    for (int p = f; p < nf; p++)
      st->acc[p] += chol[p * MCPI_MAX_FACTORS + f] * z;
  } else {
    st->zs[f] = z;
  }
  if (f % 2 == 1 && !(tag & MCPI_TAG_HOLD)) { /* asset i's drivers are complete */
    int i = f / 2;
    size_t e = (size_t)st->step * nf + 2 * i;
    MCPI_REAL var, d0 = 0, d1 = 0;
    if (tag & MCPI_TAG_MERGE) {
      d0 = st->acc[2 * i];
      d1 = st->acc[2 * i + 1];
      st->acc[2 * i] = st->acc[2 * i + 1] = 0;
    } else {
      MCPI_P(mcpi_mheston_drivers)(chol, st->zs, i, 0, &d0, &d1);
    }
    MCPI_P(mcpi_heston_step)(&st->x[i], &st->v[i], &var, &j->heston[i], j->scheme,
                             j->MCPI_COEF(ca)[e], j->MCPI_COEF(cb)[e], j->MCPI_COEF(ca)[e + 1],
                             d0, d1);
  }
  if (tag & MCPI_TAG_LAST) {
    st->step++;
#ifdef MCPI_LSM_BODY
    if (j->lsm && (tag & j->lsm_mask) && !(tag & MCPI_TAG_HOLD))
      MCPI_P(mcpi_multi_exercise)(st->x, &st->ex, &st->ex_done, &st->ex_val, &st->held,
                                  MCPI_SC(st), j);
#endif
  }
}

MCP_HD static inline void MCPI_P(mcpi_mheston_finish)(const MCPI_P(mcpi_mheston_state) *st,
                                                      const mcpi_job_view *j, double *pay,
                                                      size_t ldp, int pass)
{
#ifdef MCPI_LSM_BODY
  MCPI_P(mcpi_multi_pay)(st->x, st->ex_val, st->held, MCPI_SC(st), j, pay, ldp, pass);
#else
  MCPI_P(mcpi_multi_pay)(st->x, 0, 0, NULL, j, pay, ldp, pass);
#endif
}

MCP_HD static inline void MCPI_P(mcpi_mheston_log_spots)(const MCPI_P(mcpi_mheston_state) *st,
                                                         double *x)
{
  MCP_UNROLL
  for (int i = 0; i < MCP_MAX_ASSETS; i++)
    x[i] = st->x[i];
}

MCP_HD static inline void MCPI_P(mcpi_mheston_survival)(const MCPI_P(mcpi_mheston_state) *st,
                                                        double *sv)
{
  (void)st;
  MCP_UNROLL
  for (int m = 0; m < MCPI_MAX_MONITORS; m++)
    sv[m] = 1;
}

/* ---- the plain loop: the CPU backend ----------------------------------------
 * A job with per-path arrays keeps them in the CPU's memory (mcpi_parr); the
 * trades' arrays record the fixings after each step (private.h). */

#ifndef MCPI_PLAIN_PASS
/* One pass of the path in state S (path, multi, mlv, mheston: the functions
 * mcpi_S_init, ..., of this body). */
#define MCPI_PLAIN_PASS(S)                                                                 \
  do {                                                                                     \
    MCPI_P(mcpi_##S##_state) st;                                                           \
    MCPI_P(mcpi_##S##_init)(&st, j, pass);                                                 \
    for (int e = 0; e < j->nelem; e++) {                                                   \
      MCPI_P(mcpi_##S##_step)(&st, j, z[(size_t)e * ldz], j->MCPI_COEF(ca)[e],              \
                              j->MCPI_COEF(cb)[e], j->tag[e]);                             \
      if (j->arr_len && mcpi_private_fixes(j->tag[e])) {                                   \
        MCPI_P(mcpi_##S##_log_spots)(&st, x);                                              \
        mcpi_private_fix(&arr, j, j->tag[e], x);                                           \
      }                                                                                    \
    }                                                                                      \
    if (j->arr_len) {                                                                      \
      MCPI_P(mcpi_##S##_survival)(&st, sv);                                                \
      mcpi_private_finish(&arr, j, sv, pay, ldp, pass);                                    \
    } else {                                                                               \
      MCPI_P(mcpi_##S##_finish)(&st, j, pay, ldp, pass);                                   \
    }                                                                                      \
  } while (0)
#endif

MCP_HD static inline void MCPI_P(mcpi_path)(const mcpi_job_view *j, const MCPI_REAL *z,
                                            size_t ldz, double *pay, size_t ldp)
{
  double buf[MCP_MAX_PRIVATE_ARRAY], x[MCP_MAX_ASSETS], sv[MCPI_MAX_MONITORS];
  mcpi_parr arr = {buf, 1};
  for (int pass = 0; pass <= (j->antithetic ? 1 : 0); pass++) {
    if (j->arr_len)
      mcpi_private_init(&arr, j);
    if (j->nassets > 1 && j->model == MCPI_MODEL_HESTON)
      MCPI_PLAIN_PASS(mheston);
    else if (j->nassets > 1 && j->model == MCPI_MODEL_LOCAL_VOL)
      MCPI_PLAIN_PASS(mlv);
    else if (j->nassets > 1)
      MCPI_PLAIN_PASS(multi);
    else
      MCPI_PLAIN_PASS(path);
  }
}
#endif /* MCPI_SINGLE_ONLY */

#undef MCPI_REAL
#undef MCPI_EXP
#undef MCPI_LOG
#undef MCPI_SQRT
#undef MCPI_NCDF
#undef MCPI_LOCAL_VOL
#undef MCPI_COEF
#undef MCPI_STATE_INDEXED
#undef MCPI_SCHEDS_OF
#undef MCPI_MONS_OF
#undef MCPI_SCALED
#undef MCPI_SC
#undef MCPI_SCHEME_OF
