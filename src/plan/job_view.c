/* job_view.c: what the backends read of a built job: its samples and
 * replicates, the offsets of its estimators' terms, the view the path body
 * sees (with what its trades track) and the job-shaped state it fits. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/plan/plan.h"

unsigned mcpi_job_replicates(const mcpi_plan *plan, const mcpi_job *j)
{
  return j->qmc ? plan->scramblings : 1;
}

uint64_t mcpi_job_samples(const mcpi_plan *plan, const mcpi_job *j)
{
  uint64_t s = j->antithetic ? (plan->paths + 1) / 2 : plan->paths;
  return j->qmc ? s / plan->scramblings : s;
}

int32_t *mcpi_job_term_offsets(const mcpi_job *j)
{
  size_t nc = j->nest - j->nin;
  int32_t *off = malloc((nc + 1) * sizeof *off);
  if (off) {
    for (size_t k = 0; k < nc; k++)
      off[k] = (int32_t)j->est[j->nin + k].term0;
    off[nc] = (int32_t)j->nterm;
  }
  return off;
}

/* MCPI_TRACK_* of what the trades' payoffs read of a path besides its
 * sums. */
static int32_t trades_track(const mcpi_job *j)
{
  int32_t t = 0;
  for (size_t i = 0; i < j->ntrades; i++) {
    const mcpi_payoff_spec *p = &j->spec[i];
    if (p->flags & MCPI_GEOMETRIC || p->control == MCPI_CV_GEOMETRIC)
      t |= MCPI_TRACK_LOG_SUM;
    if (p->product == MCP_PRODUCT_LOOKBACK ||
        (p->product == MCP_PRODUCT_BARRIER && p->monitor < 0))
      t |= MCPI_TRACK_EXTREMA;
  }
  return t;
}

/* What the path tracks: the trades' reads, or all of it where a Greek is
 * estimated on the path or swept back by adjoint (those read the whole
 * observation); the estimators after the body's nin add pay columns and
 * read none of it. */
static int32_t mcpi_job_track(const mcpi_job *j)
{
  return j->nin || j->gstate ? MCPI_TRACK_LOG_SUM | MCPI_TRACK_EXTREMA : trades_track(j);
}

/* Whether j's elements below n repeat with period P: their coefficients,
 * and their tags but for the last element's where last_free. */
static int repeats(const mcpi_job *j, size_t P, size_t n, int last_free)
{
  for (size_t e = P; e < n; e++)
    if (j->ca[e] != j->ca[e % P] || j->cb[e] != j->cb[e % P] ||
        (j->tag[e] != j->tag[e % P] && !(last_free && e + 1 == j->nelem)))
      return 0;
  return 1;
}

/* The schedules a job's steps fix or its trades read: the first n. */
static int32_t schedules_in_use(const mcpi_job *j)
{
  uint32_t mask = j->open;
  for (size_t e = 0; e < j->nelem; e++)
    mask |= j->tag[e] & MCPI_TAG_MASK;
  int32_t n = 0;
  while (mask >> n)
    n++;
  for (size_t t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->spec[t];
    n = p->schedule >= n ? p->schedule + 1 : n;
    n = p->terminal >= n ? p->terminal + 1 : n;
  }
  return n;
}

mcpi_job_view mcpi_job_host_view(const mcpi_job *j)
{
  mcpi_job_view v = {.log_spot = log(j->u[0]->spot),
                     .nelem = (int32_t)j->nelem,
                     .ntrades = (int32_t)j->ntrades,
                     .model = j->model,
                     .nassets = (int32_t)j->nassets,
                     .antithetic = j->antithetic,
                     .scheme = j->scheme,
                     .nmon = j->nmon,
                     .arr_len = j->arr_len,
                     .narrays = j->arr_len ? (int32_t)j->nreal : 0,
                     .gstate = j->gstate,
                     .extrema = j->extrema,
                     .g = {.lr_b = j->nelem ? j->cb[0] : 0, .l = {j->g_l[0], j->g_l[1]}},
                     .lv_n = j->lv_n,
                     .lv_nb = j->lv_nb,
                     .lv_binv = j->lv_binv,
                     .lsm_nb = j->lsm_nb,
                     .adj_cols = j->adj_cols,
                     .adj_nv = j->adj_nv,
                     .adj_q = j->adj_q,
                     .adj_div = j->adj_div,
                     .adj_cash = j->adj_cash,
                     .adj_ncash = j->adj_ncash,
                     .adj_bridge = j->adj_bridge,
                     .adj_held_off = j->adj_held_off,
                     .lsm_mask = j->lsm_dates ? 1u << j->lsm_sched : 0,
                     .seed = j->stream};
  memcpy(v.g.book, j->g_book, sizeof v.g.book);
  /* an empty array reads as NULL, as on the device (backend_cuda.c): a job
   * without exercise dates has no table */
#define MCPI_VIEW_ARRAY(field, type, count, view) v.view = (count) > 0 ? j->field : NULL;
#include "models/products/job_arrays.def"
  for (size_t a = 0; a < j->nassets; a++) {
    const mcpi_underlying *u = j->u[a];
    v.log_spots[a] = log(u->spot);
    v.heston[a] = mcpi_heston_view(u->kappa, u->theta, u->xi, u->rho, u->v0);
  }
  v.track = mcpi_job_track(j);
  v.open = j->open;
  v.nsched = schedules_in_use(j);
  /* a job whose elements repeat every step (one factor, or a Heston
   * asset's two), but the last element's tag: read by the plain kernels;
   * a grid check's pass whose elements repeat every two steps, held then
   * merged, but the last step's: read by the checked kernel */
  size_t F = (size_t)j->nfactors;
  v.uniform = j->nassets == 1 && 2 * F <= MCPI_UNIFORM_PERIOD && j->nelem >= F &&
              repeats(j, F, j->nelem, 1);
  v.paired = j->nassets == 1 && 2 * F <= MCPI_UNIFORM_PERIOD && j->nelem > 2 * F &&
             (j->tag[0] & MCPI_TAG_HOLD) && (j->tag[F] & MCPI_TAG_MERGE) &&
             repeats(j, 2 * F, j->nelem - F, 0);
  size_t P = v.paired ? 2 * F : v.uniform ? F : 0;
  for (size_t f = 0; f < P; f++)
    v.u[f] = (mcpi_uniform_element){j->ca[f], j->cb[f], j->ca_f[f], j->cb_f[f], j->tag[f]};
  if (v.uniform)
    v.utag_last = j->tag[j->nelem - 1];
  for (int i = 0; i < j->nmon; i++) {
    v.mon_log_barrier[i] = j->mon_log_barrier[i];
    v.mon_up[i] = j->mon_up[i];
    v.mon_end[i] = j->mon_end[i];
  }
  return v;
}

/* Whether a job is one underlying of the model without per-path arrays
 * whose trades use at most nsched schedules and nmon monitors, and whose
 * steps are not held (the shaped bodies have no coarse pass). */
static int job_fits(const mcpi_job *j, mcpi_model model, int nsched, int nmon)
{
  if (j->model != model || j->nassets > 1 || j->arr_len || j->nmon > nmon || j->extrema ||
      j->cash || j->lsm_dates)
    return 0;
  for (size_t e = 0; e < j->nelem; e++)
    if ((j->tag[e] & MCPI_TAG_MASK) >> nsched || (j->tag[e] & (MCPI_TAG_HOLD | MCPI_TAG_MERGE)))
      return 0;
  for (size_t t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->spec[t];
    if (p->schedule >= nsched || p->terminal >= nsched || p->monitor >= nmon)
      return 0;
  }
  return 1;
}

/* A plain shape's trades: one underlying of the model, no monitor, sums
 * alone; a Heston asset's by QE (the shape's step has no other scheme:
 * path_body.h's MCPI_SCHEME_OF). */
static int plain_trades(const mcpi_job *j, mcpi_model model)
{
  return job_fits(j, model, MCPI_PLAIN_SCHEDULES, 0) && trades_track(j) == 0 &&
         (model != MCPI_MODEL_HESTON || j->scheme == MCP_HESTON_QE);
}

/* A plain shape's job: such trades, and no Greek that reads the whole
 * observation (mcpi_job_track). */
static int plain_fits(const mcpi_job *j, mcpi_model model)
{
  return plain_trades(j, model) && mcpi_job_track(j) == 0;
}

int mcpi_job_shape_fits(const mcpi_job *j, int shape)
{
  switch (shape) {
  case MCPI_SHAPE_HESTON_PLAIN:
    return plain_fits(j, MCPI_MODEL_HESTON);
  case MCPI_SHAPE_LV_PLAIN:
    return plain_fits(j, MCPI_MODEL_LOCAL_VOL);
  case MCPI_SHAPE_PLAIN:
    return plain_fits(j, MCPI_MODEL_BLACK_SCHOLES);
  case MCPI_SHAPE_SMALL:
    return job_fits(j, MCPI_MODEL_BLACK_SCHOLES, MCPI_SMALL_SCHEDULES, MCPI_SMALL_MONITORS);
  default:
    return shape == 0;
  }
}

int mcpi_job_stored_only(const mcpi_job *j, mcp_precision prec)
{
  return prec == MCP_MIXED && j->arr_len;
}

int mcpi_job_ringless(const mcpi_job *j, mcp_precision prec)
{
  return prec == MCP_MIXED && mcpi_job_small(j) == MCPI_SHAPE_PLAIN;
}

int mcpi_job_adjoint_shape(const mcpi_job *j)
{
  return !(j->gstate & MCPI_GSTATE_ADJOINT)          ? 0
         : plain_trades(j, MCPI_MODEL_LOCAL_VOL) ? MCPI_SHAPE_LV_PLAIN
         : plain_trades(j, MCPI_MODEL_HESTON)    ? MCPI_SHAPE_HESTON_PLAIN
                                                 : 0;
}

int mcpi_job_small(const mcpi_job *j)
{
  static const int narrowest_first[] = {MCPI_SHAPE_HESTON_PLAIN, MCPI_SHAPE_LV_PLAIN,
                                        MCPI_SHAPE_PLAIN, MCPI_SHAPE_SMALL};
  for (size_t i = 0; i < sizeof narrowest_first / sizeof *narrowest_first; i++)
    if (mcpi_job_shape_fits(j, narrowest_first[i]))
      return narrowest_first[i];
  return 0;
}

int mcpi_job_tune_shape(const mcpi_job *j, mcp_precision prec, char *buf, size_t n)
{
  static const char *const model[] = {"black-scholes", "heston", "merton", "local-volatility"};
  int small = mcpi_job_small(j);
  if (j->lsm_dates || j->gstate & MCPI_GSTATE_ADJOINT || (unsigned)j->model > 3)
    return 0;
  snprintf(buf, n, "%s %s%s %s%s%s", mcp_precision_name(prec), model[j->model],
           j->nassets > 1 ? " basket" : "",
           !small ? "general" : small == MCPI_SHAPE_SMALL ? "shaped" : "plain",
           j->arr_len ? " arrays" : "", j->qmc ? " qmc" : "");
  return 1;
}
