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
#include <time.h>
#include "src/exec/backend.h"
#include "src/plan/variants.h"
#include "src/plan/grid_check.h"
#include "src/exec/grid_move.h"
#include "src/plan/pde.h"
#include "src/results/results.h"
#include "src/exec/reval.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The rounding of a path's value relative to it, in the run's precision (a
 * float path's log-spot sums its steps in float), below which a standard
 * error or a miss says nothing. */
static double rounding(mcp_precision x) { return x == MCP_FLOAT ? 1e-4 : 1e-9; }

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

/* A Longstaff-Schwartz trade (its job's one, plan.h) whose fitted rule is
 * worth less on the run's paths than holding to the last date (acc: that
 * European's column on the same paths, equal to the trade's on every path
 * the rule does not exercise early): the rule is an admissible one, and so
 * is holding, so both estimate lower bounds of the option; the larger one
 * is reported, the European's with its standard error (and the job's book,
 * the trade's quantity times it), flagged MCP_WARNING_EXERCISE so that a
 * price is never the European's unsaid.  Any shortfall counts, not only a
 * significant one: the two differ only on the paths exercised early, so a
 * rule whose early exercises lose on average has lost on these paths. */
static void exercise_floor(const mcp_portfolio *p, const mcpi_job *j, const mcpi_accum *acc,
                           size_t ncol, unsigned reps, mcp_results *r, mcp_estimate *book)
{
  mcp_estimate held, *e = &r->est[j->trade[0]];
  mcpi_estimate_replicates(acc, ncol, reps, &held);
  if (!(held.price > e->price))
    return;
  double q = p->t[j->trade[0]].quantity;
  *e = held;
  book->price = q * held.price;
  book->std_error = fabs(q) * held.std_error;
  r->warn[j->trade[0]] |= MCP_WARNING_EXERCISE;
}

/* The autocallables' redemption probabilities (plan.h: each job's columns
 * after its real trades, a date each, in the order of its trades). */
static mcp_status collect_redemptions(const mcp_portfolio *p, const mcpi_plan *plan,
                                      mcpi_accum **acc, long k, mcp_results *r)
{
  size_t total = 0;
  for (size_t i = 0; i < p->n; i++)
    total += p->t[i].product == MCP_PRODUCT_AUTOCALLABLE ? p->t[i].nfix : 0;
  if (!total)
    return MCP_OK;
  if (!(r->red_off = calloc(p->n + 1, sizeof *r->red_off)) ||
      !(r->red_time = malloc(total * sizeof *r->red_time)) ||
      !(r->red = malloc(total * sizeof *r->red)))
    return MCP_ERR_NO_MEMORY;
  for (size_t i = 0; i < p->n; i++) {
    const mcpi_trade *t = &p->t[i];
    size_t n = t->product == MCP_PRODUCT_AUTOCALLABLE ? t->nfix : 0;
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
static mcp_status collect(const mcp_portfolio *p, mcp_precision precision, const mcpi_plan *plan,
                          mcpi_accum **acc, const mcpi_pde_batch *pde, long k, mcp_results *r)
{
  double var = 0;
  r->total.price = 0;
  for (size_t i = 0; i < pde->ntrades; i++) { /* PDE prices carry no sampling error */
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
      exercise_floor(p, j, &acc[ji][c0 + j->nreal + j->nred], ncol, reps, r, &book);
    r->total.price += book.price;
    var += book.std_error * book.std_error;
  }
  r->total.std_error = sqrt(var);
  r->total.ci_low = r->total.price - MCPI_Z95 * r->total.std_error;
  r->total.ci_high = r->total.price + MCPI_Z95 * r->total.std_error;
  for (size_t i = 0; i < pde->ntrades; i++)
    r->engine[pde->trade[i].trade] = MCP_ENGINE_PDE; /* calloc'd: the rest MCP_ENGINE_MC */
  for (size_t i = 0; i < p->n; i++) {
    r->quantity[i] = p->t[i].quantity;
    if (!(r->id[i] = strdup(p->t[i].id)))
      return MCP_ERR_NO_MEMORY;
  }
  return collect_redemptions(p, plan, acc, k, r);
}

/* The name of market underlying a, or NULL. */
static const char *und(const mcp_market *m, long a) { return a >= 0 ? m->u[a].name : NULL; }

/* Every trade's and the book's Greeks: the jobs' estimators, then the PDE
 * trades' grid deltas and gammas and their revalued grids' differences. */
static mcp_status collect_greeks(const mcp_market *m, const mcp_portfolio *p,
                                 const mcpi_plan *plan, mcpi_accum **acc,
                                 const mcpi_pde_batch *pde, const double *dg,
                                 const mcpi_greek_run *g, mcp_results *r)
{
  if (!(r->sens = calloc(p->n + 1, sizeof *r->sens)))
    return MCP_ERR_NO_MEMORY;
  mcpi_sens_list *bk = &r->sens[p->n];
  int ok = 1;
  for (size_t ji = 0; ji < plan->njobs && ok; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    unsigned reps = mcpi_job_replicates(plan, j);
    size_t ncol = mcpi_job_columns(j, 0);
    for (size_t k = 0; k < j->nest && ok; k++) {
      const mcpi_est *e = &j->est[k];
      if (e->point == MCPI_EST_GRID) /* the grid check's (mcpi_grid_collect) */
        continue;
      mcp_estimate v;
      mcpi_estimate_replicates(&acc[ji][j->ntrades + 1 + k], ncol, reps, &v);
      double var = v.std_error * v.std_error;
      ok = e->trade < 0
               ? mcpi_sens_add(bk, e->greek, e->method, e->a, e->b, und(m, e->a), und(m, e->b),
                               1, v.price, var)
               : mcpi_sens_add(&r->sens[j->trade[e->trade]], e->greek, e->method, e->a, e->b,
                               und(m, e->a), und(m, e->b), j->nassets > 1, v.price, var);
    }
  }
  const mcp_greek grid_greeks[2] = {MCP_GREEK_DELTA, MCP_GREEK_GAMMA};
  for (size_t i = 0; i < pde->ntrades && ok; i++) {
    size_t t = pde->trade[i].trade;
    long a = (long)(mcpi_market_find(m, p->t[t].asset[0]) - m->u);
    for (int k = 0; k < 2 && ok; k++)
      if (g->req->want[grid_greeks[k]])
        ok = mcpi_sens_add(&r->sens[t], grid_greeks[k], MCP_METHOD_GRID, a, -1, und(m, a), NULL,
                           0, dg[2 * t + k], 0) &&
             mcpi_sens_add(bk, grid_greeks[k], MCP_METHOD_GRID, a, -1, und(m, a), NULL, 1,
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
    ok = mcpi_sens_add(&r->sens[t], x->greek, MCP_METHOD_GRID, a, -1, und(m, a), NULL, 0, v,
                       0) &&
         mcpi_sens_add(bk, x->greek, MCP_METHOD_GRID, a, -1, und(m, a), NULL, 1,
                       p->t[t].quantity * v, 0);
  }
  for (size_t i = 0; i <= p->n; i++)
    mcpi_sens_sort(&r->sens[i]);
  return ok ? MCP_OK : MCP_ERR_NO_MEMORY;
}

/* The variants' estimates of the PDE trades, set by finish_pde or a merge. */
static mcp_status alloc_pde_est(mcp_context *ctx, const mcp_portfolio *p, mcpi_greek_run *g)
{
  for (size_t v = 0; g && v < g->nvar; v++)
    if (g->var[v].pde && !(g->var[v].pde_est = calloc(p->n, sizeof *g->var[v].pde_est)))
      return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE Greeks");
  return MCP_OK;
}

/* The grids of the PDE trades and, with Greeks, of the variants (which
 * join the base's in one solve, which a GPU runs in the time of one), into
 * *all, started into *out (out[g (2R + 1) + i]: the value at node center
 * - R + i): on the GPU beside the Monte Carlo jobs that come next, on the
 * CPU solved here.  finish_pde follows, whatever happens. */
static mcp_status start_pde(mcp_context *ctx, const mcpi_pde_batch *base, mcpi_greek_run *g,
                            mcpi_pde_batch *all, double **out)
{
  *all = (mcpi_pde_batch){.set = base->set, .n = base->n, .ld = base->ld, .radius = base->radius};
  mcp_status st = mcpi_pde_append(all, base, ctx->err);
  for (size_t v = 0; g && v < g->nvar && st == MCP_OK; v++)
    if (g->var[v].pde)
      st = mcpi_pde_append(all, &g->var[v].grid, ctx->err);
  if (st != MCP_OK || !all->ngrids)
    return st;
  if (!(*out = calloc(all->ngrids * (2 * (size_t)all->radius + 1), sizeof **out)))
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE results");
  return ctx->backend == MCP_BACKEND_CUDA ? mcpi_pde_cuda_start(ctx, all, *out)
                                          : mcpi_pde_cpu(all, *out, ctx->err);
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

static void estimate_slots(const mcp_estimate *e, double **slot, size_t *n)
{
  const double *v[4] = {&e->price, &e->std_error, &e->ci_low, &e->ci_high};
  for (int i = 0; i < 4; i++, (*n)++)
    if (slot)
      slot[*n] = (double *)v[i];
}

/* The addresses of a run's PDE values into slot (when not NULL), in the
 * order a partial keeps them: each PDE trade's estimate and, with Greeks,
 * its grid delta and gamma; then each variant's re-solved estimates.
 * Returns their count. */
static size_t pde_slots(const mcpi_pde_batch *pde, const mcpi_greek_run *g, mcp_estimate *est,
                        double *dg, double **slot)
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
  return n;
}

/* Copies a run's PDE values to (out) or from the slice that solved them. */
static mcp_status pass_pde(mcp_context *ctx, const mcpi_slicing *sl, const mcpi_pde_batch *pde,
                           const mcpi_greek_run *g, mcp_estimate *est, double *dg, int out)
{
  size_t n = pde_slots(pde, g, est, dg, NULL);
  double **slot = malloc((n ? n : 1) * sizeof *slot), *v = NULL;
  if (!slot)
    return mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the PDE values");
  pde_slots(pde, g, est, dg, slot);
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
static void flag_warnings(const mcp_portfolio *p, mcp_precision precision, mcp_results *r)
{
  double tiny = precision == MCP_FLOAT ? 1e-6 : 1e-7 / sqrt((double)p->paths);
  for (size_t i = 0; i < r->n; i++)
    if (r->engine[i] != MCP_ENGINE_PDE && r->est[i].std_error <= tiny * fabs(r->est[i].price))
      r->warn[i] |= MCP_WARNING_CONSTANT;
}

/* The slice's trees to sl->out, or the run's accumulators: its own trees
 * (a whole run) or the partials' merged. */
static mcp_status sums(mcp_context *ctx, const mcpi_plan *plan, const mcpi_slicing *sl,
                       mcpi_tree **trees, mcpi_accum **acc)
{
  mcp_status st = MCP_OK;
  for (size_t ji = 0; st == MCP_OK && ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    size_t ncol = mcpi_job_columns(j, 0);
    for (unsigned r = 0; st == MCP_OK && r < mcpi_job_replicates(plan, j); r++) {
      mcpi_tree *t = &trees[ji][r];
      if (sl && sl->in)
        st = mcpi_merge_tree(sl, ji, r, ncol, mcpi_job_samples(plan, j), acc[ji] + r * ncol,
                             ctx->err);
      else if (sl && sl->out) {
        if (t->level && mcpi_partial_add_tree(sl->out, sl->run, ji, r, t))
          st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the partial result");
        *t = (mcpi_tree){0};
      } else
        mcpi_tree_finish(t, acc[ji] + r * ncol, 1);
    }
  }
  return st;
}

/* What a run prices before it computes: its plan, the PDE trades, the
 * layout of the Greeks' or the scenario points' revaluations; built from
 * market, portfolio and req, which a worker's next slice of the same
 * pricing (spread.c) finds here again. */
struct mcpi_setup {
  const mcp_market *market;
  const mcp_portfolio *portfolio;
  const mcp_greeks *req;
  mcpi_settings set; /* the context's options over the portfolio's */
  mcpi_plan plan;
  mcpi_pde_batch pde;
  mcpi_greek_run greeks;
  double *dg;
  int passes;
};

void mcpi_setup_free(mcpi_setup *su)
{
  if (!su)
    return;
  free(su->dg);
  mcpi_greeks_free(&su->greeks);
  mcpi_plan_free(&su->plan);
  mcpi_pde_free(&su->pde);
  free(su);
}

/* The run's setup into *out; it takes over the npoints markets (freed on
 * failure too). */
static mcp_status setup(mcp_context *ctx, const mcp_market *market,
                        const mcp_portfolio *portfolio, const mcp_greeks *req,
                        mcp_market **markets, size_t npoints, mcpi_setup **out)
{
  mcpi_setup *su = calloc(1, sizeof *su);
  if (su)
    mcpi_context_settings(ctx, portfolio, &su->set);
  mcp_status st = su ? mcpi_plan_build(market, portfolio, &su->set.pde, &su->plan, ctx->err)
                     : mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  if (st == MCP_OK &&
      (st = mcpi_pde_plan(market, portfolio, &su->set.pde, &su->pde, ctx->err)) != MCP_OK)
    mcpi_plan_free(&su->plan);
  if (st != MCP_OK) {
    for (size_t k = 0; k < npoints; k++)
      mcp_market_destroy(markets[k]);
    free(su);
    return st;
  }
  su->market = market;
  su->portfolio = portfolio;
  su->req = req;
  su->passes = req || npoints;
  if (npoints)
    st = mcpi_points_layout(markets, npoints, market, portfolio, &su->set, &su->plan, &su->pde,
                            &su->greeks, ctx->err);
  else if (req &&
           (st = mcpi_greeks_layout(market, portfolio, &su->set, req, &su->plan, &su->pde,
                                    &su->greeks, ctx->err)) == MCP_OK &&
           !(su->dg = calloc(2 * portfolio->n, sizeof *su->dg)))
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for the Greeks");
  /* the grid check's coarse passes, after the Greeks' or the points' */
  if (st == MCP_OK && su->set.grid_check &&
      (st = mcpi_grid_layout(&su->set, &su->plan, &su->greeks, ctx->err)) == MCP_OK)
    su->passes = su->passes || su->greeks.nvar > 0;
  if (st == MCP_OK)
    st = alloc_pde_est(ctx, portfolio, su->passes ? &su->greeks : NULL);
  if (st != MCP_OK) {
    mcpi_setup_free(su);
    return st;
  }
  *out = su;
  return MCP_OK;
}

mcp_status mcpi_reval_run(mcp_context *ctx, const mcp_market *market,
                          const mcp_portfolio *portfolio, const mcpi_reval *what,
                          mcp_results **out, const mcpi_slicing *sl)
{
  const mcp_greeks *req = what->greeks;
  mcp_market **markets = what->points;
  size_t npoints = what->npoints;
  mcp_results **results = out, **points = out + 1;
  double t0 = now();
  int merge = sl && sl->in, slice = sl && sl->out;
  /* a worker's slices of one pricing, and their merge in its process, plan
   * it once (the pilot zeroes the control coefficients and sets them again,
   * the fit rewrites its rules); a scenario group's markets are its own */
  mcpi_setup **keep = sl && !markets ? sl->keep : NULL, *su = NULL;
  if (keep && *keep && (*keep)->market == market && (*keep)->portfolio == portfolio &&
      (*keep)->req == req)
    su = *keep;
  else {
    mcp_status st = setup(ctx, market, portfolio, req, markets, npoints, &su);
    if (st != MCP_OK)
      return st;
    if (keep) {
      mcpi_setup_free(*keep);
      *keep = su;
    }
  }
  mcpi_plan *plan = &su->plan;
  const mcpi_pde_batch *pde = &su->pde;
  mcpi_greek_run *greeks = &su->greeks;
  mcp_status st = MCP_OK;
  mcpi_accum **acc = calloc(plan->njobs, sizeof *acc);
  mcpi_tree **trees = calloc(plan->njobs, sizeof *trees);
  uint64_t *range = calloc(2 * plan->njobs + 1, sizeof *range);
  mcp_results *r = slice ? NULL : mcpi_results_alloc(portfolio->n);
  mcpi_run run = {.plan = plan, .portfolio = portfolio, .ctx = ctx, .trees = trees,
                  .range = range,
                  .kopt = {.precision = su->set.precision, .strategy = su->set.prefetch,
                           .distance = su->set.distance, .padding = su->set.padding,
                           .block = ctx->block, .placement = su->set.placement},
                  .normals = su->set.normals,
                  .greeks = su->passes ? greeks : NULL};
  /* a slice keeps its PDE values in r's estimates until they go out */
  mcp_estimate *est = slice ? calloc(portfolio->n + 1, sizeof *est) : r ? r->est : NULL;
  if (!acc || !trees || !range || !est)
    st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
  if (st == MCP_OK && !merge)
    mcpi_slice_ranges(plan, sl ? sl->k : 0, sl ? sl->n : 1, range);
  for (size_t j = 0; st == MCP_OK && j < plan->njobs; j++) {
    const mcpi_job *job = &plan->jobs[j];
    unsigned reps = mcpi_job_replicates(plan, job);
    if (!(acc[j] = calloc(reps * mcpi_job_columns(job, 0), sizeof **acc)) ||
        !(trees[j] = calloc(reps, sizeof **trees)))
      st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
    run.work_total += (double)(range[2 * j + 1] - range[2 * j]) * MCP_CHUNK_PATHS *
                      (double)(job->nelem + 1) * (double)(1 + job->npass);
  }
  /* the PDE trades: solved by a run of its own and by slice 0, beside the
     Monte Carlo jobs */
  int grids = st == MCP_OK && !merge && (!sl || sl->k == 0);
  mcpi_pde_batch all = {0};
  double *values = NULL;
  if (grids)
    st = start_pde(ctx, pde, su->passes ? greeks : NULL, &all, &values);
  if (st == MCP_OK && plan->njobs && !merge)
    st = ctx->backend == MCP_BACKEND_CUDA ? mcpi_cuda_price(&run) : mcpi_cpu_price(&run);
  if (grids)
    st = finish_pde(ctx, portfolio, &all, values, pde->ntrades, su->passes ? greeks : NULL, est,
                    su->dg, st);
  if (st == MCP_OK && (merge || (slice && sl->k == 0)))
    st = pass_pde(ctx, sl, pde, greeks, est, su->dg, slice);
  if (st == MCP_OK)
    st = sums(ctx, plan, sl, trees, acc);
  if (st == MCP_OK && !slice && (st = collect(portfolio, su->set.precision, plan, acc, pde, -1, r)) != MCP_OK)
    mcpi_fail(ctx->err, st, "out of memory for results");
  if (st == MCP_OK && !slice && (st = mcpi_grid_collect(plan, su->set.precision, acc, r)) != MCP_OK)
    mcpi_fail(ctx->err, st, "out of memory for results");
  if (st == MCP_OK && !slice && (st = check_finite(r, ctx->err)) == MCP_OK)
    flag_warnings(portfolio, su->set.precision, r);
  if (st == MCP_OK && !slice && req && !npoints &&
      (st = collect_greeks(market, portfolio, plan, acc, pde, su->dg, greeks, r)) != MCP_OK)
    mcpi_fail(ctx->err, st, "out of memory for the Greeks");
  else if (st == MCP_OK && !slice && req && !npoints)
    st = check_finite(r, ctx->err); /* now the Greeks too */
  for (size_t k = 0; st == MCP_OK && !slice && k < npoints; k++) {
    if (!(points[k] = mcpi_results_alloc(portfolio->n))) {
      st = mcpi_fail(ctx->err, MCP_ERR_NO_MEMORY, "out of memory for results");
      break;
    }
    for (size_t i = 0; i < pde->ntrades; i++)
      points[k]->est[pde->trade[i].trade] = greeks->var[k].pde_est[pde->trade[i].trade];
    if ((st = collect(portfolio, su->set.precision, plan, acc, pde, (long)k, points[k])) != MCP_OK)
      mcpi_fail(ctx->err, st, "out of memory for results");
    else if ((st = check_finite(points[k], ctx->err)) == MCP_OK)
      flag_warnings(portfolio, su->set.precision, points[k]);
  }
  for (size_t j = 0; trees && j < plan->njobs; j++)
    for (unsigned k = 0; trees[j] && k < mcpi_job_replicates(plan, &plan->jobs[j]); k++)
      mcpi_tree_free(&trees[j][k]);
  for (size_t j = 0; trees && j < plan->njobs; j++)
    free(trees[j]);
  free(trees);
  free(range);
  if (slice)
    free(est);
  for (size_t j = 0; acc && j < plan->njobs; j++)
    free(acc[j]);
  free(acc);
  if (su != (keep ? *keep : NULL))
    mcpi_setup_free(su);
  if (st != MCP_OK || slice) {
    mcp_results_destroy(r);
    for (size_t k = 0; !slice && k < npoints; k++) {
      mcp_results_destroy(points[k]);
      points[k] = NULL;
    }
    if (st == MCP_OK)
      sl->out->seconds += now() - t0;
    return st;
  }
  /* a merge's time: its slices' and its own */
  double seconds = now() - t0 + (merge ? mcpi_slicing_seconds(sl) : 0);
  for (size_t k = 0; k <= npoints; k++) {
    mcp_results *x = k ? points[k - 1] : r;
    x->paths = portfolio->paths;
    x->seed = portfolio->seed;
    x->backend = merge ? mcpi_slicing_first(sl)->backend : ctx->backend;
    x->seconds = seconds;
  }
  *results = r;
  return MCP_OK;
}
