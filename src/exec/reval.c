/* reval.c: the revaluation module.  One run of a book on one set of paths:
 * built (the plan of its Monte Carlo jobs, the PDE trades' grids, the
 * layout of its variants: the Greeks' bumped markets and estimators, or a
 * scenario grid's points), executed (the backend's path kernels, the PDE
 * solves) and collected into results; alone, as a slice, or as the merge of
 * slices.  Its callers: a whole run or the devices' slices (spread.c), a
 * process's slice or merge (merge.c), a scenario grid's groups (grid.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/exec/backend.h"
#include "src/exec/boundary.h"
#include "src/inputs/product.h"
#include "src/plan/adjoint_plan.h"
#include "src/plan/variants.h"
#include "src/plan/grid_check.h"
#include "src/exec/grid_move.h"
#include "src/analytic/engine.h"
#include "src/plan/pde.h"
#include "src/results/results.h"
#include "src/exec/reval.h"
#include "src/exec/setup.h"
#include "src/base/clock.h"
#include "models/products/lsm.h"

/* The rounding of a path's value relative to it, in the run's precision (a
 * float path's log-spot sums its steps in float; a mixed plain path's
 * fixings take e^x to float's accuracy, about 1e-7), below which a standard
 * error or a miss says nothing. */
static double rounding(mcp_precision x)
{
  return x == MCP_FLOAT ? 1e-4 : x == MCP_MIXED ? 1e-6 : 1e-9;
}

/* How many standard errors an unbiased estimate misses its mean by as
 * seldom as 5 of a normal one (5.7e-7): Student's t with reps - 1 degrees
 * of freedom where the error comes from reps replicates (QMC's
 * scramblings), else 5. */
static double martingale_limit(unsigned reps)
{
  static const double t[30] = {1110441.8, 1320.71, 156.68, 56.85, 31.85, 22.02, 17.1, 14.25,
                               12.42,     11.17,   10.26,  9.57,  9.04,  8.61,  8.27, 7.98,
                               7.74,      7.53,    7.35,   7.2,   7.06,  6.94,  6.83, 6.74,
                               6.65,      6.57,    6.5,    6.43,  6.37,  6.32};
  return mcpi_t_limit(MCPI_MARTINGALE_SE, t, reps);
}

/* Whether every forward of the job's martingale check (plan.h) meets its
 * mean: within martingale_limit standard errors, or to rounding. */
static int martingale(mcp_precision precision, const mcpi_job *j, const mcpi_accum *acc,
                      size_t ncol, unsigned reps)
{
  size_t f0 = j->nreal + j->nred + j->nheld;
  for (size_t t = f0; t < j->ntrades; t++) {
    mcp_estimate e;
    mcpi_estimate_replicates(&acc[t], ncol, reps, &e);
    double want = j->fwd[t - f0], miss = fabs(e.price - want);
    if (!(miss <= martingale_limit(reps) * e.std_error || miss <= rounding(precision) * want))
      return 0;
  }
  return 1;
}

/* Job j's asset a as market m holds it (a scenario point's: its spots and
 * curves), or the job's own where m has no such name. */
static const mcpi_underlying *asset_in(const mcp_market *m, const mcpi_job *j, size_t a)
{
  const mcpi_underlying *u = mcpi_market_find(m, j->u[a]->name);
  return u ? u : j->u[a];
}

/* Whether the job's Longstaff-Schwartz trade is a call on one asset whose
 * early exercise never pays: no dividend yield (nor repo) and no cash
 * dividend, and rates >= 0, up to its maturity in market m.  Its discounted
 * spot is a martingale in every model here, so its European is worth at
 * least S - K e^{-r tau} >= S - K at any time: its American is its European. */
static int never_early(const mcp_market *m, const mcp_portfolio *p, const mcpi_job *j)
{
  const mcpi_trade *t = &p->t[j->trade[0]];
  if (t->type != MCP_CALL || j->nassets != 1)
    return 0;
  const mcpi_underlying *u = asset_in(m, j, 0);
  double T = t->maturity + p->origin, lo, hi;
  mcpi_curve_abs_bounds(&u->dividend, T, &lo, &hi);
  return !u->ncash && hi == 0 && mcpi_curve_min(&u->rate, T) >= 0;
}

/* A Longstaff-Schwartz trade (its job's one, plan.h) whose fitted rule is
 * worth less on the run's paths than holding to the last date (acc: that
 * European's column on the same paths, equal to the trade's on every path
 * the rule does not exercise early): the rule is an admissible one, and so
 * is holding, so both estimate lower bounds of the option; the larger one
 * is reported, the European's with its standard error (and the job's book,
 * the trade's quantity times it), flagged MCP_WARNING_EXERCISE so that a
 * price is never the European's unsaid; its Greeks are then the European's
 * too (now[trade] MCPI_PRICED_HELD, where now is given).  Any shortfall counts, not only a
 * significant one: the two differ only on the paths exercised early, so a
 * rule whose early exercises lose on average has lost on these paths.  A
 * call whose early exercise never pays (never_early) is not flagged: its
 * European is its price, and its rule lost to it by exercising at all. */
static int floor_takes(const mcp_estimate *held, const mcp_estimate *trade)
{
  return held->price > trade->price;
}

/* The floor applied to job j's trade in r where floor_takes (acc: the held
 * European's column). */
static void exercise_floor(const mcp_market *m, const mcp_portfolio *p, const mcpi_job *j,
                           const mcpi_accum *acc, size_t ncol, unsigned reps, mcp_results *r,
                           mcp_estimate *book, unsigned char *now)
{
  mcp_estimate held, *e = &r->est[j->trade[0]];
  mcpi_estimate_replicates(acc, ncol, reps, &held);
  if (!floor_takes(&held, e))
    return;
  double q = p->t[j->trade[0]].quantity;
  *e = held;
  book->price = q * held.price;
  book->std_error = fabs(q) * held.std_error;
  if (now)
    now[j->trade[0]] = MCPI_PRICED_HELD;
  if (!never_early(m, p, j))
    r->warn[j->trade[0]] |= MCP_WARNING_EXERCISE;
}

/* The value of exercising the job's Longstaff-Schwartz trade now, in
 * market m (the run's or a scenario point's): an American's exercise value
 * at today's spots (lsm.h, as its paths' exercise value at a date); 0 for a
 * Bermudan, whose dates are its own, all after today. */
static double exercise_now(const mcp_market *m, const mcp_portfolio *p, const mcpi_job *j)
{
  if (!j->lsm_dates || p->t[j->trade[0]].product != MCP_PRODUCT_AMERICAN)
    return 0;
  double s[MCP_MAX_ASSETS] = {0}, under;
  for (size_t a = 0; a < j->nassets; a++)
    s[a] = asset_in(m, j, a)->spot;
  return mcpi_lsm_exercise(&j->spec[0], s, (int)j->nassets, &under);
}

/* An American exercised now (the decision at t = 0, which its dates, from
 * T / exercises on, leave out): where its exercise value today h > 0
 * reaches the estimate (the fitted rule's, or the European's it was floored
 * to), h is its value, known exactly (standard error 0, no warning
 * `exercise` or `constant`: now[trade] MCPI_PRICED_EXERCISED), and the job's book q h.  The
 * estimate and h are lower bounds alike (exercising now is a rule), so the
 * larger is reported, as exercise_floor does. */
static void exercise_start(const mcp_market *m, const mcp_portfolio *p, const mcpi_job *j,
                           mcp_results *r, mcp_estimate *book, unsigned char *now)
{
  size_t i = j->trade[0];
  double h = exercise_now(m, p, j), q = p->t[i].quantity;
  if (!(h > 0 && h >= r->est[i].price))
    return;
  r->est[i] = (mcp_estimate){.price = h, .std_error = 0, .ci_low = h, .ci_high = h};
  *book = (mcp_estimate){.price = q * h, .std_error = 0, .ci_low = q * h, .ci_high = q * h};
  r->warn[i] &= ~(unsigned)MCP_WARNING_EXERCISE;
  if (now)
    now[i] = MCPI_PRICED_EXERCISED;
}

/* A Greek of an American exercised now (exercise_start), its exercise
 * value's at today's spots in m, per unit: the delta of the payoff's
 * underlying in asset a (market index) is +1 (call) or -1 (put) times its
 * weight in a basket, or for the best (worst) asset of a best-of
 * (worst-of); every other Greek 0 (the value is the spots' alone). */
static double exercise_greek(const mcp_market *m, const mcpi_job *j, const mcpi_est *e)
{
  const mcpi_payoff_spec *sp = &j->spec[0];
  if (e->greek != MCP_GREEK_DELTA || e->bucket)
    return 0;
  double sign = sp->type == MCP_CALL ? 1 : -1, s[MCP_MAX_ASSETS] = {0};
  long ia = -1;
  for (size_t a = 0; a < j->nassets; a++) {
    const mcpi_underlying *u = asset_in(m, j, a);
    s[a] = u->spot;
    if (e->a >= 0 && u == &m->u[e->a])
      ia = (long)a;
  }
  if (ia < 0)
    return 0;
  if (j->nassets == 1)
    return sign;
  if (!(sp->assets >> ia & 1u))
    return 0;
  if (!(sp->flags & (MCPI_LSM_BEST | MCPI_LSM_WORST)))
    return sign * sp->weight[ia];
  for (size_t a = 0; a < j->nassets; a++) /* the first of equal ones, as lsm.h's strict test */
    if ((sp->assets >> a & 1u) &&
        (sp->flags & MCPI_LSM_BEST ? s[a] > s[ia] || (s[a] == s[ia] && (long)a < ia)
                                   : s[a] < s[ia] || (s[a] == s[ia] && (long)a < ia)))
      return 0;
  return sign;
}

/* The autocallables' redemption probabilities (plan.h: each job's columns
 * after its real trades, a date each, in the order of its trades). */
static mcp_status collect_redemptions(const mcp_portfolio *p, const mcpi_plan *plan,
                                      mcpi_accum **acc, long k, mcp_results *r)
{
  size_t total = 0;
  for (size_t i = 0; i < p->n; i++)
    total += mcpi_trade_dates(p->t[i].product, &p->t[i]);
  if (!total)
    return MCP_OK;
  if (!(r->red_off = calloc(p->n + 1, sizeof *r->red_off)) ||
      !(r->red_time = malloc(total * sizeof *r->red_time)) ||
      !(r->red = malloc(total * sizeof *r->red)))
    return mcpi_no_memory(__func__);
  for (size_t i = 0; i < p->n; i++) {
    const mcpi_trade *t = &p->t[i];
    size_t n = mcpi_trade_dates(t->product, t);
    r->red_off[i + 1] = r->red_off[i] + n;
    memcpy(r->red_time + r->red_off[i], t->fix, n * sizeof *r->red_time);
  }
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    unsigned reps = mcpi_job_replicates(plan, j);
    size_t ncol = mcpi_job_columns(j, 0), col = (size_t)(k + 1) * (j->ntrades + 1) + j->nreal;
    for (size_t t = 0; t < j->nreal; t++) {
      size_t i = j->trade[t];
      for (size_t d = r->red_off[i]; d < r->red_off[i + 1]; d++)
        mcpi_estimate_replicates(&acc[ji][col++], ncol, reps, &r->red[d]);
    }
  }
  return MCP_OK;
}

/* Per-trade estimates and the book's of the run (k = -1) or of its
 * revaluation in market k (mcpi_points_layout), whose trade t a job writes in
 * column (k + 1) (ntrades + 1) + t, the book after them; the PDE prices are
 * in r->est.  Jobs draw independent streams, so the book variance is the sum
 * of the jobs' book-column variances. */
static mcp_status collect(const mcp_market *m, const mcp_portfolio *p, mcp_precision precision,
                          const mcpi_plan *plan, mcpi_accum **acc, const mcpi_pde_batch *pde,
                          long k, mcp_results *r, unsigned char *now)
{
  double var = 0;
  r->total.price = 0;
  for (size_t i = 0; i < pde->ntrades; i++) { /* grids, closed forms: no sampling error */
    size_t t = pde->trade[i].trade;
    r->total.price += p->t[t].quantity * r->est[t].price;
  }
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    unsigned reps = mcpi_job_replicates(plan, j);
    size_t ncol = mcpi_job_columns(j, 0), c0 = (size_t)(k + 1) * (j->ntrades + 1);
    for (size_t t = 0; t < j->nreal; t++)
      mcpi_estimate_replicates(&acc[ji][c0 + t], ncol, reps, &r->est[j->trade[t]]);
    if (k < 0 && !martingale(precision, j, acc[ji], ncol, reps))
      for (size_t t = 0; t < j->nreal; t++)
        r->warn[j->trade[t]] |= MCP_WARNING_MARTINGALE;
    mcp_estimate book;
    mcpi_estimate_replicates(&acc[ji][c0 + j->ntrades], ncol, reps, &book);
    if (j->nheld)
      exercise_floor(m, p, j, &acc[ji][c0 + j->nreal + j->nred], ncol, reps, r, &book, now);
    if (j->lsm_dates)
      exercise_start(m, p, j, r, &book, now);
    r->total.price += book.price;
    var += book.std_error * book.std_error;
  }
  r->total.std_error = sqrt(var);
  r->total.ci_low = r->total.price - MCPI_Z95 * r->total.std_error;
  r->total.ci_high = r->total.price + MCPI_Z95 * r->total.std_error;
  for (size_t i = 0; i < pde->ntrades; i++) /* calloc'd: the rest MCP_ENGINE_MC */
    r->engine[pde->trade[i].trade] = pde->trade[i].engine;
  for (size_t i = 0; i < p->n; i++) {
    r->quantity[i] = p->t[i].quantity;
    if (!(r->id[i] = strdup(p->t[i].id)))
      return mcpi_no_memory(__func__);
  }
  return collect_redemptions(p, plan, acc, k, r);
}

/* The method of the Greeks of a trade priced without paths by engine. */
static mcp_greek_method off_paths_method(mcp_engine engine)
{
  return engine == MCP_ENGINE_ANALYTIC ? MCP_METHOD_ANALYTIC : MCP_METHOD_GRID;
}

/* The name of market underlying a, or NULL. */
static const char *und(const mcp_market *m, long a) { return a >= 0 ? m->u[a].name : NULL; }

/* Every trade's and the book's Greeks: the jobs' estimators, then the PDE
 * trades' grid deltas and gammas and their revalued grids' differences. */
static mcp_status collect_greeks(const mcp_market *m, const mcp_portfolio *p,
                                 const mcpi_plan *plan, mcpi_accum **acc,
                                 const mcpi_pde_batch *pde, const double *dg,
                                 const mcpi_greek_run *g, const unsigned char *now,
                                 mcp_results *r)
{
  if (!mcpi_results_sens(r))
    return mcpi_no_memory(__func__);
  mcpi_sens_list *bk = &r->sens[p->n];
  mcpi_label_digits digits = {0};
  int ok = 1;
  for (size_t ji = 0; ji < plan->njobs && ok; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    unsigned reps = mcpi_job_replicates(plan, j);
    size_t ncol = mcpi_job_columns(j, 0);
    for (size_t k = 0; k < j->nest && ok; k++) {
      const mcpi_est *e = &j->est[k];
      /* the grid check's (mcpi_grid_collect), columns not asked for, and
       * twins, read in their trade's stead */
      if (e->point == MCPI_EST_GRID || e->point == MCPI_EST_HIDDEN || e->point == MCPI_EST_HELD)
        continue;
      unsigned char how = j->lsm_dates ? now[j->trade[0]] : 0;
      size_t at = how == MCPI_PRICED_HELD && e->held ? e->held - 1 : k; /* its European's */
      mcp_estimate v;
      mcpi_estimate_replicates(&acc[ji][j->ntrades + 1 + at], ncol, reps, &v);
      double var = v.std_error * v.std_error;
      if (how == MCPI_PRICED_EXERCISED && e->trade <= 0) { /* its exercise value's */
        v.price = (e->trade < 0 ? j->spec[0].quantity : 1) * exercise_greek(m, j, e);
        var = 0;
      }
      char label[96];
      if (e->bucket)
        mcpi_adjoint_label(&m->u[e->a], e->greek, e->bucket, &digits, label, sizeof label);
      ok = mcpi_sens_add_bucket(e->trade < 0 ? bk : &r->sens[j->trade[e->trade]], e->greek,
                                e->method, e->a, e->b, e->bucket, e->bucket ? label : NULL,
                                und(m, e->a), und(m, e->b), e->trade < 0 || j->nassets > 1,
                                v.price, var);
      if (ok && e->book) { /* the book's too, the trade's quantity times it (variants.c) */
        double q = j->spec[e->trade].quantity;
        ok = mcpi_sens_add_bucket(bk, e->greek, e->method, e->a, e->b, e->bucket,
                                  e->bucket ? label : NULL, und(m, e->a), und(m, e->b), 1,
                                  q * v.price, q * q * var);
      }
    }
    /* buckets asked and none: the trade is warned */
    for (size_t t = 0; t < j->nreal; t++)
      if (j->spec[t].g_adj < 0 && mcpi_adjoint_asked(g->req, p->t[j->trade[t]].nassets))
        r->warn[j->trade[t]] |= MCP_WARNING_BUCKETS;
  }
  const mcp_greek grid_greeks[2] = {MCP_GREEK_DELTA, MCP_GREEK_GAMMA};
  for (size_t i = 0; i < pde->ntrades && ok; i++) {
    size_t t = pde->trade[i].trade;
    long a = (long)(mcpi_market_find(m, p->t[t].asset[0]) - m->u);
    const mcpi_underlying *u = &m->u[a];
    mcp_greek_method how = off_paths_method(r->engine[t]);
    char why[MCPI_ERRLEN], label[96];
    /* with buckets, a closed form's vegas: a Heston trade's model vegas, as
     * the paths' (variants.c), here the integral's exact gradient; an
     * implied surface's quote vegas, Black's vega through the smile */
    int vegas = r->engine[t] == MCP_ENGINE_ANALYTIC && g->req->buckets &&
                g->req->want[MCP_GREEK_VEGA] && (u->model == MCPI_MODEL_HESTON || u->iv.n);
    size_t nd = u->iv.n ? u->iv.nq : MCPI_HESTON_PARAMS;
    double *d = vegas ? malloc(nd * sizeof *d) : NULL;
    ok = !vegas || d;
    vegas = vegas && d &&
            (u->iv.n ? mcpi_analytic_quote_vegas(&p->t[t], u, d, why)
                     : mcpi_analytic_heston_grad(&p->t[t], u, d, why)) == MCP_OK;
    /* warned where buckets were asked and it has none; an implied surface's
     * trade has all of its buckets where the rho's and dividend's are not
     * asked */
    if (mcpi_adjoint_asked(g->req, 1) &&
        !(vegas && u->iv.n && !g->req->want[MCP_GREEK_RHO] && !g->req->want[MCP_GREEK_DIVIDEND]))
      r->warn[t] |= MCP_WARNING_BUCKETS;
    for (size_t k = 0; k < nd && ok && vegas; k++) {
      mcpi_adjoint_label(u, MCP_GREEK_VEGA, (long)k + 1, &digits, label, sizeof label);
      ok = mcpi_sens_add_bucket(&r->sens[t], MCP_GREEK_VEGA, how, a, -1, (long)k + 1, label,
                                und(m, a), NULL, 0, d[k], 0) &&
           mcpi_sens_add_bucket(bk, MCP_GREEK_VEGA, how, a, -1, (long)k + 1, label, und(m, a),
                                NULL, 1, p->t[t].quantity * d[k], 0);
    }
    free(d);
    for (int k = 0; k < 2 && ok; k++)
      if (g->req->want[grid_greeks[k]])
        ok = mcpi_sens_add(&r->sens[t], grid_greeks[k], how, a, -1, und(m, a), NULL, 0,
                           dg[2 * t + k], 0) &&
             mcpi_sens_add(bk, grid_greeks[k], how, a, -1, und(m, a), NULL, 1,
                           p->t[t].quantity * dg[2 * t + k], 0);
  }
  for (size_t i = 0; i < g->npg && ok; i++) {
    const mcpi_pde_greek *x = &g->pg[i];
    size_t t = x->trade;
    /* a side without its variant (a one-sided difference) is the price itself */
    double lo = x->var[1] >= 0 ? g->var[x->var[1]].pde_est[t].price : r->est[t].price;
    double hi = x->var[0] >= 0 ? g->var[x->var[0]].pde_est[t].price : r->est[t].price;
    double v = (hi - lo) / x->scale;
    /* a vega is its underlying's (the book's sums by underlying) */
    long a = x->greek == MCP_GREEK_VEGA ? (long)(mcpi_market_find(m, p->t[t].asset[0]) - m->u)
                                        : -1;
    mcp_greek_method how = off_paths_method(r->engine[t]);
    ok = mcpi_sens_add(&r->sens[t], x->greek, how, a, -1, und(m, a), NULL, 0, v, 0) &&
         mcpi_sens_add(bk, x->greek, how, a, -1, und(m, a), NULL, 1, p->t[t].quantity * v, 0);
  }
  mcpi_label_digits_free(&digits);
  for (size_t i = 0; i <= p->n; i++)
    mcpi_sens_sort(&r->sens[i]);
  return ok ? MCP_OK : mcpi_no_memory(__func__);
}

/* The grids of the PDE trades and, with Greeks, of the variants (which
 * join the base's in one solve, which a GPU runs in the time of one), into
 * *all, started into *out (out[g (2R + 1) + i]: the value at node center
 * - R + i): on the GPU beside the Monte Carlo jobs that come next, on the
 * CPU solved here.  finish_pde follows, whatever happens. */
static mcp_status start_pde(mcp_context *ctx, const mcpi_pde_batch *base, mcpi_greek_run *g,
                            mcpi_pde_batch *all, double **out, int *bound)
{
  *all = (mcpi_pde_batch){.set = base->set, .n = base->n, .ld = base->ld, .radius = base->radius};
  mcp_status st = mcpi_pde_append(all, base, ctx->err);
  for (size_t v = 0; g && v < g->nvar && st == MCP_OK; v++)
    if (g->var[v].pde)
      st = mcpi_pde_append(all, &g->var[v].grid, ctx->err);
  if (st != MCP_OK || !all->ngrids)
    return st;
  if ((st = mcpi_cancel_check(ctx)) != MCP_OK) /* a GPU's solve runs whole once started */
    return st;
  if (!(*out = calloc(all->ngrids * (2 * (size_t)all->radius + 1), sizeof **out)))
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE results");
  return ctx->backend == MCP_BACKEND_CUDA ? mcpi_pde_cuda_start(ctx, all, *out, bound)
                                          : mcpi_pde_cpu(all, *out, bound, ctx);
}

/* After start_pde and what ran beside it (st: how that went, whose error
 * stands): the PDE trades' prices (and grid deltas and gammas into dg) and
 * the variants'; frees all and out. */
static mcp_status finish_pde(mcp_context *ctx, const mcp_portfolio *p, mcpi_pde_batch *all,
                             double *out, size_t nbase, mcpi_greek_run *g, mcp_estimate *est,
                             double *dg, mcp_status st)
{
  if (ctx->backend == MCP_BACKEND_CUDA) { /* the solve ends, even after an error */
    char first[MCPI_ERRLEN];
    memcpy(first, ctx->err, sizeof first);
    mcp_status w = mcpi_pde_cuda_finish(ctx);
    if (st != MCP_OK)
      memcpy(ctx->err, first, sizeof first);
    st = st != MCP_OK ? st : w;
  }
  size_t t0 = nbase;
  if (st == MCP_OK)
    st = mcpi_pde_values(p, all, out, 0, t0, est, dg, ctx->err);
  for (size_t v = 0; g && v < g->nvar && st == MCP_OK; v++)
    if (g->var[v].pde) {
      size_t n = g->var[v].grid.ntrades;
      st = mcpi_pde_values(p, all, out, t0, t0 + n, g->var[v].pde_est, NULL, ctx->err);
      t0 += n;
    }
  free(out);
  mcpi_pde_free(all);
  return st;
}

static int estimate_finite(const mcp_estimate *e)
{
  return isfinite(e->price) && isfinite(e->std_error);
}

/* A result that is not a finite number (inputs that overflow double, such as
 * a spot or a quantity of 1e308, or whose squares do, 1e160; a spot of
 * 1e-300 whose gamma does) is an error naming the trade, or the book, never
 * a number in a report: its price, its standard error (NaN where the sums of
 * squares overflow, stats.c) and, once collected, each of its Greeks. */
static mcp_status check_finite(const mcp_results *r, char *err)
{
  for (size_t i = 0; i <= r->n; i++) {
    const mcp_estimate *e = i < r->n ? &r->est[i] : &r->total;
    const char *what = "price";
    for (size_t k = 0; estimate_finite(e) && r->sens && k < r->sens[i].n; k++) {
      e = &r->sens[i].s[k].value;
      what = r->sens[i].s[k].name;
    }
    if (estimate_finite(e))
      continue;
    if (i < r->n)
      return mcpi_fail(err, MCP_ERR_INPUT,
                       "trade '%s': its %s (%g +- %g) is not a finite number: its values "
                       "overflow double precision (a spot, strike, notional or quantity too "
                       "large, or a spot too small)",
                       r->id[i], what, e->price, e->std_error);
    /* the book's per-path sums of quantity x value overflow: name the largest
     * position, the likeliest cause (a quantity of 1e160) */
    size_t big = 0;
    double most = -1;
    for (size_t t = 0; t < r->n; t++) {
      double x = fabs(r->quantity[t]) * (fabs(r->est[t].price) + r->est[t].std_error);
      if (!(x <= most)) {
        big = t;
        most = x;
      }
    }
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "the book's %s (%g +- %g) is not a finite number: the quantities times "
                     "the trades' values overflow double precision (the largest position: "
                     "trade '%s', quantity %g)",
                     strcmp(what, "price") ? what : "value", e->price, e->std_error,
                     r->n ? r->id[big] : "", r->n ? r->quantity[big] : 0.0);
  }
  return MCP_OK;
}

/* The warnings a Monte Carlo estimate needs (mcp_warning): a standard error
 * at or below the rounding of the price says every path gave the same value.
 * For n equal values c the sums of x and x^2 carry relative errors of a few
 * epsilon, which sum x^2 - (sum x)^2 / n keeps: a variance of c^2 eps, an
 * error of |c| sqrt(eps / n) (1.5e-8 |c| / sqrt(n)) in double. */
static void flag_warnings(const mcp_portfolio *p, mcp_precision precision, mcp_results *r,
                          const unsigned char *now)
{
  double tiny = precision == MCP_FLOAT ? 1e-6 : 1e-7 / sqrt((double)p->paths);
  for (size_t i = 0; i < r->n; i++) /* an American exercised now is known exactly */
    if (r->engine[i] == MCP_ENGINE_MC && now[i] != MCPI_PRICED_EXERCISED &&
        r->est[i].std_error <= tiny * fabs(r->est[i].price))
      r->warn[i] |= MCP_WARNING_CONSTANT;
}

static void estimate_slots(const mcp_estimate *e, double **slot, size_t *n)
{
  const double *v[4] = {&e->price, &e->std_error, &e->ci_low, &e->ci_high};
  for (int i = 0; i < 4; i++, (*n)++)
    if (slot)
      slot[*n] = (double *)v[i];
}

/* The addresses of a run's PDE values into slot (when not NULL), in the
 * order a partial keeps them: each PDE trade's estimate and, with Greeks,
 * its grid delta and gamma; then each variant's re-solved estimates; then
 * the exercise boundaries' spots (bnd, of n trades: slice 0's, its fit's
 * and grids').  Returns their count. */
static size_t pde_slots(const mcpi_pde_batch *pde, const mcpi_greek_run *g, mcp_estimate *est,
                        double *dg, const mcpi_bounds *bnd, size_t ntrades, double **slot)
{
  size_t n = 0;
  for (size_t i = 0; i < pde->ntrades; i++) {
    size_t t = pde->trade[i].trade;
    estimate_slots(&est[t], slot, &n);
    for (int k = 0; dg && k < 2; k++, n++)
      if (slot)
        slot[n] = &dg[2 * t + k];
  }
  for (size_t v = 0; v < g->nvar; v++)
    for (size_t i = 0; g->var[v].pde && i < g->var[v].grid.ntrades; i++)
      estimate_slots(&g->var[v].pde_est[g->var[v].grid.trade[i].trade], slot, &n);
  for (size_t k = 0; bnd->off && k < bnd->off[ntrades]; k++, n++)
    if (slot)
      slot[n] = &bnd->spot[k];
  return n;
}

/* Copies a run's PDE values to (out) or from the slice that solved them. */
static mcp_status pass_pde(mcp_context *ctx, const mcpi_slicing *sl, const mcpi_setup *su,
                           mcp_estimate *est, int out)
{
  const mcpi_pde_batch *pde = &su->pde;
  const mcpi_greek_run *g = &su->greeks;
  size_t n = pde_slots(pde, g, est, su->dg, &su->bnd, su->portfolio->n, NULL);
  double **slot = malloc((n ? n : 1) * sizeof *slot), *v = NULL;
  if (!slot)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE values");
  pde_slots(pde, g, est, su->dg, &su->bnd, su->portfolio->n, slot);
  mcp_status st = MCP_OK;
  if (out) {
    if ((v = malloc((n ? n : 1) * sizeof *v)))
      for (size_t i = 0; i < n; i++)
        v[i] = *slot[i];
    if (!v || mcpi_partial_set_pde(sl->out, sl->run, v, n))
      st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE values");
  } else {
    const mcp_partial *p0 = mcpi_slicing_first(sl);
    size_t have = sl->run < p0->nruns ? p0->npde[sl->run] : 0;
    if (have != n)
      st = mcpi_fail(ctx->err, MCP_ERR_INPUT,
                     "%s: slice 0 holds %zu PDE values of run %zu, the inputs have %zu",
                     mcpi_partial_name(p0), have, sl->run, n);
    for (size_t i = 0; st == MCP_OK && i < n; i++)
      *slot[i] = p0->pde[sl->run][i];
  }
  free(v);
  free(slot);
  return st;
}

/* A run's mode (reval.h), from its slicing: the whole run (sl NULL), a slice
 * of it whose sums go to a partial (sl->out), or the merge of the slices'
 * partials (sl->in), which computes nothing and collects their sums. */
typedef enum run_mode { RUN_WHOLE, RUN_SLICE, RUN_MERGE } run_mode;

/* A run between its steps. */
typedef struct run_state {
  mcp_context *ctx;
  const mcpi_slicing *sl; /* NULL for a whole run */
  run_mode mode;
  mcpi_setup *su;
  mcpi_setup **keep; /* where su is kept between calls, or NULL: su dies with the run */
  mcpi_accum **acc;  /* acc[job]: its replicates' columns */
  mcpi_tree **trees; /* trees[job][rep]: the run's chunk sums */
  uint64_t *range;   /* the slice's units of each job (mcpi_run) */
  mcpi_run run;      /* the backend's view of the above */
  mcp_results *r;    /* the base market's results; a slice has none */
  mcp_estimate *est; /* the PDE trades' estimates */
  /* what the Longstaff-Schwartz trades' prices are (MCPI_PRICED_*), by trade: in
   * the base market, and in the scenario point last collected */
  unsigned char *now, *now_pt;
  size_t npoints;
  mcp_results **points; /* the scenario points' results */
  int again; /* some jobs made again for their held Europeans' sweeps (run_again) */
} run_state;

/* The run's setup: the one kept between calls when it is this pricing's,
 * else a new one, kept in its stead. */
static mcp_status find_setup(run_state *s, const mcp_market *market,
                             const mcp_portfolio *portfolio, const mcpi_reval *what)
{
  /* the slices of one pricing in a process, and their merge, read one
   * setup (a worker's share of its caller's: spread.c; the pilot zeroes the
   * control coefficients and sets them again, the fit rewrites its rules);
   * a scenario group's markets are its own */
  mcpi_setup **keep = s->keep = s->sl && !what->points ? s->sl->keep : NULL;
  if (keep && *keep && (*keep)->market == market && (*keep)->portfolio == portfolio &&
      (*keep)->req == what->greeks) {
    s->su = *keep;
    return MCP_OK;
  }
  mcp_status st =
      mcpi_setup_build(s->ctx, market, portfolio, what->greeks, what->points, what->npoints,
                       what->losses, &s->su);
  if (st == MCP_OK && keep) {
    mcpi_setup_free(*keep);
    *keep = s->su;
  }
  return st;
}

/* The run's accumulators and trees (a job's replicates each), the slice's
 * ranges, the results (a slice has none) and the backend's run. */
static mcp_status alloc_run(run_state *s)
{
  mcpi_setup *su = s->su;
  mcpi_plan *plan = &su->plan;
  s->acc = calloc(plan->njobs, sizeof *s->acc);
  s->trees = calloc(plan->njobs, sizeof *s->trees);
  s->range = calloc(2 * plan->njobs + 1, sizeof *s->range);
  s->r = s->mode == RUN_SLICE ? NULL : mcpi_results_alloc(su->portfolio->n);
  s->run = (mcpi_run){.plan = plan, .portfolio = su->portfolio, .ctx = s->ctx,
                      .progress_at = mcpi_now(),
                      .trees = s->trees, .range = s->range,
                      .kopt = {.precision = su->set.precision, .strategy = su->set.prefetch,
                               .distance = su->set.distance, .padding = su->set.padding,
                               .block = s->ctx->block, .placement = su->set.placement},
                      .normals = su->set.normals, .given = su->set.given,
                      .greeks = su->passes ? &su->greeks : NULL};
  /* a slice keeps its PDE values in r's estimates until they go out */
  s->est = s->mode == RUN_SLICE ? calloc(su->portfolio->n + 1, sizeof *s->est)
                                : s->r ? s->r->est : NULL;
  if (s->mode != RUN_SLICE && (s->now = calloc(2 * (su->portfolio->n + 1), 1)))
    s->now_pt = s->now + su->portfolio->n + 1;
  if (!s->acc || !s->trees || !s->range || !s->est || (s->mode != RUN_SLICE && !s->now))
    return mcpi_fail(s->ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
  if (s->mode != RUN_MERGE) /* a merge's ranges stay empty: it runs no paths */
    mcpi_slice_ranges(plan, s->mode == RUN_SLICE ? s->sl->k : 0,
                      s->mode == RUN_SLICE ? s->sl->n : 1, su->bnd.off != NULL, s->range);
  for (size_t j = 0; j < plan->njobs; j++) {
    const mcpi_job *job = &plan->jobs[j];
    unsigned reps = mcpi_job_replicates(plan, job);
    if (!(s->acc[j] = calloc(reps * mcpi_job_columns(job, 0), sizeof **s->acc)) ||
        !(s->trees[j] = calloc(reps, sizeof **s->trees)))
      return mcpi_fail(s->ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
    s->run.work_total += mcpi_range_paths(plan, job, s->range[2 * j], s->range[2 * j + 1]) *
                         mcpi_path_work(job);
  }
  return MCP_OK;
}

/* The run's computation (a merge has none): the PDE grids started, the
 * Monte Carlo jobs on the backend, the grids finished. */
static mcp_status compute(run_state *s)
{
  mcp_context *ctx = s->ctx;
  mcpi_setup *su = s->su;
  /* the PDE trades: solved by a run of its own and by slice 0, beside the
     Monte Carlo jobs */
  int grids = (s->mode == RUN_WHOLE && !s->again) || (s->mode == RUN_SLICE && s->sl->k == 0);
  mcpi_pde_batch all = {0};
  double *values = NULL;
  int *bound = NULL; /* the grids' exercise boundaries */
  mcp_status st = MCP_OK;
  if (grids && su->pde.nbound && !(bound = malloc(su->pde.nbound * sizeof *bound)))
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the exercise boundaries");
  if (grids && st == MCP_OK)
    st = start_pde(ctx, &su->pde, s->run.greeks, &all, &values, bound);
  if (st == MCP_OK && su->plan.njobs)
    st = ctx->backend == MCP_BACKEND_CUDA ? mcpi_cuda_price(&s->run) : mcpi_cpu_price(&s->run);
  if (grids)
    st = finish_pde(ctx, su->portfolio, &all, values, su->pde.ntrades, s->run.greeks, s->est,
                    su->dg, st);
  if (st == MCP_OK && grids) { /* the fitted rules' boundaries, and the grids' */
    mcpi_bounds_from_rules(&su->plan, &su->bnd);
    mcpi_bounds_from_grids(su->portfolio, &su->pde, bound, &su->bnd);
  }
  free(bound);
  return st;
}

/* The run's sums to where its mode takes them: slice 0's PDE values into
 * its partial, or a merge's from slice 0's; the slice's trees to sl->out,
 * or the run's accumulators: its own trees (a whole run) or the partials'
 * merged. */
static mcp_status gather(run_state *s)
{
  mcp_context *ctx = s->ctx;
  const mcpi_plan *plan = &s->su->plan;
  mcp_status st = MCP_OK;
  if (s->mode == RUN_MERGE || (s->mode == RUN_SLICE && s->sl->k == 0))
    st = pass_pde(ctx, s->sl, s->su, s->est, s->mode == RUN_SLICE);
  for (size_t ji = 0; st == MCP_OK && ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    size_t ncol = mcpi_job_columns(j, 0);
    for (unsigned r = 0; st == MCP_OK && r < mcpi_job_replicates(plan, j); r++) {
      mcpi_tree *t = &s->trees[ji][r];
      mcpi_accum *acc = s->acc[ji] + r * ncol;
      switch (s->mode) {
      case RUN_MERGE:
        st = mcpi_merge_tree(s->sl, ji, r, ncol, mcpi_job_samples(plan, j), acc, ctx->err);
        break;
      case RUN_SLICE:
        if (t->level && mcpi_partial_add_tree(s->sl->out, s->sl->run, ji, r, t))
          st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the partial result");
        *t = (mcpi_tree){0};
        break;
      case RUN_WHOLE:
        mcpi_tree_finish(t, acc, 1);
        break;
      }
    }
  }
  return st;
}

/* One market's prices into r (k as collect's), checked finite and flagged;
 * the base market's (k = -1) with the grid check's moves. */
static mcp_status collect_prices(const run_state *s, long k, mcp_results *r)
{
  const mcpi_setup *su = s->su;
  const mcp_market *m = k < 0 ? su->market : su->greeks.var[k].market;
  unsigned char *now = k < 0 ? s->now : s->now_pt;
  memset(now, 0, su->portfolio->n + 1);
  mcp_status st = collect(m ? m : su->market, su->portfolio, su->set.precision, &su->plan, s->acc,
                          &su->pde, k, r, now);
  if (st == MCP_OK && k < 0)
    st = mcpi_grid_collect(&su->plan, su->set.precision, su->set.grid_check, s->acc, now, r);
  if (st != MCP_OK)
    return mcpi_fail(s->ctx->err, st, "out of memory for results");
  if ((st = check_finite(r, s->ctx->err)) == MCP_OK)
    flag_warnings(su->portfolio, su->set.precision, r, now);
  return st;
}

/* Point k's loss: the base's total less its own, and the error of the
 * jobs' paired columns (independent streams: their variances add; PDE
 * prices carry none), after the points' estimators (mcpi_points_layout).
 * A Longstaff-Schwartz trade priced at its held European (MCPI_PRICED_HELD) in the
 * base, the point or both pairs that column, its quantity times it, in
 * place of the book's (the layout's three pairs after the losses); an
 * American exercised now (exercise_start) in both markets adds no error,
 * in one of them the other's column's. */
static void collect_loss(run_state *s, size_t k)
{
  const mcpi_plan *plan = &s->su->plan;
  size_t n = s->npoints;
  double var = 0;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    size_t nt = j->ntrades, col = (n + 1) * (nt + 1) + k, held = j->nreal + j->nred;
    int base = j->lsm_dates ? s->now[j->trade[0]] : 0;
    int point = j->lsm_dates ? s->now_pt[j->trade[0]] : 0;
    double w = 1; /* the column's weight in the book */
    if (base == MCPI_PRICED_EXERCISED && point == MCPI_PRICED_EXERCISED)
      continue;
    if (base == MCPI_PRICED_EXERCISED || point == MCPI_PRICED_EXERCISED) {
      int other = base == MCPI_PRICED_EXERCISED ? point : base;
      col = (base == MCPI_PRICED_EXERCISED ? k + 1 : 0) * (nt + 1) +
            (other == MCPI_PRICED_HELD ? held : nt);
      w = other == MCPI_PRICED_HELD ? s->su->portfolio->t[j->trade[0]].quantity : 1;
    } else if (base == MCPI_PRICED_HELD || point == MCPI_PRICED_HELD) {
      col = (n + 1) * (nt + 1) + n + 3 * k + (size_t)(base == MCPI_PRICED_HELD) +
            2 * (size_t)(point == MCPI_PRICED_HELD) - 1;
    }
    mcp_estimate e;
    mcpi_estimate_replicates(&s->acc[ji][col], mcpi_job_columns(j, 0),
                             mcpi_job_replicates(plan, j), &e);
    var += w * w * e.std_error * e.std_error;
  }
  mcp_estimate *l = &s->points[k]->loss;
  l->price = s->r->total.price - s->points[k]->total.price;
  l->std_error = sqrt(var);
  l->ci_low = l->price - MCPI_Z95 * l->std_error;
  l->ci_high = l->price + MCPI_Z95 * l->std_error;
}

/* The boundary of a Longstaff-Schwartz trade priced at its held European
 * (MCPI_PRICED_HELD): that European's, holding at every date before the
 * last (nothing exercised: +infinity for a call, 0 for a put), the last
 * the rule's at maturity, the strike. */
static void held_bounds(const mcp_portfolio *p, const unsigned char *now, mcpi_bounds *b)
{
  for (size_t i = 0; b->off && i < p->n; i++)
    for (size_t k = b->off[i]; now[i] == MCPI_PRICED_HELD && k + 1 < b->off[i + 1]; k++)
      b->spot[k] = p->t[i].type == MCP_CALL ? INFINITY : 0;
}

/* A whole run's Greeks of a Longstaff-Schwartz trade are its held
 * European's only where the floor reports that European's price
 * (exercise_floor), which only the run's paths tell: so where later is
 * set, the European's sweep by adjoint, as long as the trade's, is left
 * out (plan.h's adj_held_off: its block stays 0), and the jobs where the
 * floor takes the trade run again with it (run_again), the same bits as
 * one run with every sweep; else (a slice, whose merge cannot run again)
 * every sweep is made.  Returns how many jobs are left for later. */
static int held_later(mcpi_plan *plan, int later)
{
  int n = 0;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    mcpi_job *j = &plan->jobs[ji];
    j->adj_held_off = later && j->nheld && j->spec[j->nreal + j->nred].g_adj >= 0;
    n += j->adj_held_off;
  }
  return n;
}

/* The results of a whole run or a merge: the base market's prices, then
 * the Greeks, or each scenario point's prices (its PDE trades' from its
 * variant's solve). */
static mcp_status collect_run(run_state *s, const mcp_greeks *req)
{
  const mcpi_setup *su = s->su;
  const mcpi_pde_batch *pde = &su->pde;
  mcp_status st = collect_prices(s, -1, s->r);
  /* the boundaries: the setup's own where it dies with the run, else a copy */
  if (st == MCP_OK && !s->keep) {
    s->r->bnd = su->bnd;
    s->su->bnd = (mcpi_bounds){0};
  } else if (st == MCP_OK && !mcpi_bounds_copy(&s->r->bnd, &su->bnd, su->portfolio->n))
    return mcpi_fail(s->ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
  if (st == MCP_OK)
    held_bounds(su->portfolio, s->now, &s->r->bnd);
  if (st == MCP_OK && req && !s->npoints) {
    if ((st = collect_greeks(su->market, su->portfolio, &su->plan, s->acc, pde, su->dg,
                             &su->greeks, s->now, s->r)) != MCP_OK)
      return mcpi_fail(s->ctx->err, st, "out of memory for the Greeks");
    return check_finite(s->r, s->ctx->err); /* now the Greeks too */
  }
  for (size_t k = 0; st == MCP_OK && k < s->npoints; k++) {
    if (!(s->points[k] = mcpi_results_alloc(su->portfolio->n)))
      return mcpi_fail(s->ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
    for (size_t i = 0; i < pde->ntrades; i++)
      s->points[k]->est[pde->trade[i].trade] = su->greeks.var[k].pde_est[pde->trade[i].trade];
    st = collect_prices(s, (long)k, s->points[k]);
    if (st == MCP_OK && su->losses)
      collect_loss(s, k);
  }
  return st;
}

/* Whether job ji's price is its held European's (floor_takes, on the
 * sums exercise_floor reads). */
static int held_floored(const run_state *s, size_t ji)
{
  const mcpi_job *j = &s->su->plan.jobs[ji];
  unsigned reps = mcpi_job_replicates(&s->su->plan, j);
  size_t ncol = mcpi_job_columns(j, 0);
  mcp_estimate trade, held;
  mcpi_estimate_replicates(&s->acc[ji][0], ncol, reps, &trade);
  mcpi_estimate_replicates(&s->acc[ji][j->nreal + j->nred], ncol, reps, &held);
  return floor_takes(&held, &trade);
}

/* The jobs of a whole run whose held European was not swept
 * (held_later) and whose price is that European's (held_floored), made
 * ready to run again with its sweep: their sums dropped, every other
 * job's range emptied (its sums stay).  Returns how many; the run's
 * progress stays at the whole (the progress callback reports at most 1). */
static int run_again(run_state *s)
{
  mcpi_plan *plan = &s->su->plan;
  int n = 0;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    mcpi_job *j = &plan->jobs[ji];
    unsigned reps = mcpi_job_replicates(plan, j);
    if (!j->adj_held_off || !held_floored(s, ji)) {
      s->range[2 * ji + 1] = s->range[2 * ji];
      continue;
    }
    j->adj_held_off = 0;
    for (unsigned r = 0; r < reps; r++)
      mcpi_tree_free(&s->trees[ji][r]);
    memset(s->trees[ji], 0, reps * sizeof **s->trees);
    n++;
  }
  return n;
}

/* Frees the run's accumulators and trees, its setup unless kept and, after
 * a failure (st), its results. */
static void free_run(run_state *s, mcp_status st)
{
  const mcpi_plan *plan = &s->su->plan;
  for (size_t j = 0; s->trees && j < plan->njobs; j++)
    for (unsigned k = 0; s->trees[j] && k < mcpi_job_replicates(plan, &plan->jobs[j]); k++)
      mcpi_tree_free(&s->trees[j][k]);
  for (size_t j = 0; s->trees && j < plan->njobs; j++)
    free(s->trees[j]);
  free(s->trees);
  free(s->range);
  if (s->mode == RUN_SLICE)
    free(s->est);
  for (size_t j = 0; s->acc && j < plan->njobs; j++)
    free(s->acc[j]);
  free(s->acc);
  free(s->now);
  if (!s->keep)
    mcpi_setup_free(s->su);
  if (st != MCP_OK) {
    mcp_results_destroy(s->r);
    for (size_t k = 0; s->mode != RUN_SLICE && k < s->npoints; k++) {
      mcp_results_destroy(s->points[k]);
      s->points[k] = NULL;
    }
  }
}

/* The run's time since t0: a slice's into its partial; a whole run's or a
 * merge's into each market's results, with their paths, seed and backend. */
static void times(const run_state *s, const mcp_portfolio *portfolio, double t0)
{
  if (s->mode == RUN_SLICE) {
    s->sl->out->seconds += mcpi_now() - t0;
    return;
  }
  /* a merge's time: its slices' and its own */
  double seconds = mcpi_now() - t0 + (s->mode == RUN_MERGE ? mcpi_slicing_seconds(s->sl) : 0);
  for (size_t k = 0; k <= s->npoints; k++) {
    mcp_results *x = k ? s->points[k - 1] : s->r;
    x->paths = portfolio->paths;
    x->seed = portfolio->seed;
    x->backend = s->mode == RUN_MERGE ? mcpi_slicing_first(s->sl)->backend : s->ctx->backend;
    x->seconds = seconds;
  }
}

mcp_status mcpi_reval_run(mcp_context *ctx, const mcp_market *market,
                          const mcp_portfolio *portfolio, const mcpi_reval *what,
                          mcp_results **out, const mcpi_slicing *sl)
{
  double t0 = mcpi_now();
  run_state s = {.ctx = ctx, .sl = sl, .npoints = what->npoints, .points = out + 1,
                 .mode = !sl ? RUN_WHOLE : sl->in ? RUN_MERGE : RUN_SLICE};
  mcp_status st = find_setup(&s, market, portfolio, what);
  if (st != MCP_OK)
    return st;
  st = alloc_run(&s);
  int later = st == MCP_OK &&
              held_later(&s.su->plan, s.mode == RUN_WHOLE && what->greeks && !s.npoints);
  if (st == MCP_OK && s.mode != RUN_MERGE)
    st = compute(&s);
  if (st == MCP_OK)
    st = gather(&s);
  if (st == MCP_OK && later && (s.again = run_again(&s)) != 0) {
    st = compute(&s);
    if (st == MCP_OK)
      st = gather(&s);
  }
  if (st == MCP_OK && s.mode != RUN_SLICE) /* a slice's results are its partial */
    st = collect_run(&s, what->greeks);
  free_run(&s, st);
  if (st != MCP_OK)
    return st;
  times(&s, portfolio, t0);
  if (s.mode != RUN_SLICE)
    *out = s.r;
  return MCP_OK;
}
