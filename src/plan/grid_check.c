/* grid_check.c: the discretisation check's coarse jobs and the estimators
 * that difference them with the job (grid_check.h).
 *
 * The coarse grid keeps every date where something happens (a fixing of some
 * schedule, so every maturity and exercise date, a cash dividend, a
 * barrier monitor's end, the last date) and merges pairs of consecutive
 * steps whose first ends on none of them (the uniform steps of
 * steps_per_year, and the run's extra grid times): from the start, a step
 * that ends on no event merges with the next, and the scan goes on after
 * the pair.  The coarse job runs the fine job's element stream on its
 * normals: a merged step's elements hold their normals and the next step's
 * merge them into the exact Brownian increment of the two (path.h,
 * MCPI_TAG_HOLD), and the merging step has the coefficients of the whole
 * coarse step (drift, deviation, Heston's e^{-kappa dt}, the local
 * volatility's slice over it) from the same functions as the fine job's
 * (coefficients.c).  So the two prices see the same Brownian paths, and their
 * difference, estimated path by path, has the small variance of the
 * discretisation's change alone. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/grow.h"
#include "src/base/team.h"
#include "src/plan/grid_check.h"

int mcpi_job_grid_checked(const mcpi_job *j)
{
  return mcpi_model_inexact(j->model, j->nmon, j->extrema);
}

/* Whether step s of j ends on an event the coarse grid keeps. */
static int event_at(const mcpi_job *j, size_t s)
{
  size_t F = (size_t)j->nfactors;
  if (s + 1 == j->nsteps || (j->tag[s * F + F - 1] & (MCPI_TAG_MASK | MCPI_TAG_CASH)))
    return 1;
  for (int m = 0; m < j->nmon; m++)
    if ((size_t)j->mon_end[m] == s)
      return 1;
  return 0;
}

int mcpi_job_grid_mergeable(const mcpi_job *j)
{
  for (size_t s = 0; s + 1 < j->nsteps; s++)
    if (!event_at(j, s))
      return 1;
  return 0;
}

double mcpi_job_longest_step(const mcpi_job *j)
{
  double longest = 0;
  for (size_t s = 0; s < j->nsteps; s++)
    longest = fmax(longest, j->times[s] - (s ? j->times[s - 1] : 0));
  return longest;
}

int mcpi_job_grid_unchecked(const mcpi_job *j)
{
  return mcpi_job_grid_checked(j) && !mcpi_job_grid_mergeable(j) &&
         mcpi_job_longest_step(j) * MCPI_MODEL_STEPS_PER_YEAR > 1 + 1e-9;
}

static void *dup(const void *p, size_t bytes)
{
  if (!p)
    return NULL;
  void *q = malloc(bytes ? bytes : 1);
  if (q)
    memcpy(q, p, bytes);
  return q;
}

/* The coarse job of j into c (its own copies of every array, so that
 * mcpi_plan_free frees it); 1 when made, 0 when j has no steps to merge (c
 * left as it was, empty: the copy of a daily Asian's arrays and adjoint
 * Jacobians took 50 us a call on an H200's host) or a merged Merton step
 * would expect too many jumps (no check), -1 when out of memory. */
static int coarse_job(const mcpi_job *j, mcpi_job *c)
{
  size_t F = (size_t)j->nfactors, n = j->nsteps;
  int ok = 1;
  if (!mcpi_job_grid_mergeable(j))
    return 0;
  *c = *j;
  c->nest = c->nin = c->nterm = c->npass = 0;
  c->pass_adj = 0;
  c->gstate = 0;
  memset(&c->bridge, 0, sizeof c->bridge); /* the passes read the job's normals */
#define MCPI_JOB_ARRAY(field, type, count)                                                     \
  c->field = dup(j->field, (count) * sizeof *j->field);                                        \
  ok = ok && (c->field || !j->field);
#define MCPI_GREEKS_ARRAY(field, type, count) c->field = NULL;
#include "models/products/job_arrays.def"
  if (!ok)
    return -1;
  size_t merged = 0, na = j->nassets, ns = (size_t)j->lv_n;
  for (size_t s = 0; s + 1 < n; s++) {
    if (event_at(j, s))
      continue;
    double t0 = s ? j->times[s - 1] : 0, t1 = j->times[s], t2 = j->times[s + 1];
    double w1 = sqrt((t1 - t0) / (t2 - t0)), w2 = sqrt((t2 - t1) / (t2 - t0));
    for (size_t f = 0; f < F; f++) {
      size_t e1 = s * F + f, e2 = e1 + F;
      double a, b;
      if (mcpi_job_step_coefficients(j, t0, t2, f, &a, &b))
        return 0;
      c->tag[e1] |= MCPI_TAG_HOLD;
      c->ca[e1] = w1;
      c->cb[e1] = w2;
      c->tag[e2] |= MCPI_TAG_MERGE;
      c->ca[e2] = a;
      c->cb[e2] = b;
    }
    merged++;
    s++; /* past the pair */
  }
  /* equal steps merged alike are equal pairs, but for the last step's;
   * then every element's float coefficients, as the job's (coefficients.c) */
  mcpi_job_equal_steps(c, 2 * F, c->nelem - F);
  for (size_t e = 0; e < c->nelem; e++) {
    c->ca_f[e] = (float)c->ca[e];
    c->cb_f[e] = (float)c->cb[e];
  }
  if (!ns)
    return merged > 0;
  /* a local-volatility job's merged steps' slices, read at the second step
   * of each pair (about half the job's values: the threshold doubled) */
#pragma omp parallel if (n * na * ns >= 2 * MCPI_PARALLEL_SLICES) \
    num_threads(mcpi_team(n * na * ns, 2 * MCPI_PARALLEL_SLICES))
  {
    size_t row[MCP_MAX_ASSETS] = {0};
#pragma omp for schedule(static)
    for (size_t s = 1; s < n; s++) {
      if (!(c->tag[s * F] & MCPI_TAG_MERGE))
        continue;
      for (size_t a = 0; a < na; a++)
        mcpi_job_slice(j, a, s > 1 ? j->times[s - 2] : 0, j->times[s], &row[a],
                       c->lv_vol + (s * na + a) * ns, c->lv_vol_f + (s * na + a) * ns);
    }
  }
  return merged > 0;
}

mcp_status mcpi_grid_layout(const mcpi_settings *set, mcpi_plan *plan, mcpi_greek_run *g,
                            char *err)
{
  size_t want = 0;
  for (size_t ji = 0; ji < plan->njobs; ji++)
    want += mcpi_job_grid_checked(&plan->jobs[ji]) && plan->jobs[ji].nreal > 0;
  if (!want)
    return MCP_OK;
  if (!g->set)
    g->set = set;
  mcpi_variant *var = realloc(g->var, (g->nvar + 1) * sizeof *var);
  if (!var)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the grid check");
  g->var = var;
  size_t vi = g->nvar;
  mcpi_variant *v = &g->var[vi];
  *v = (mcpi_variant){.kind = MCPI_VAR_GRID, .asset = -1, .mc = 1};
  v->plan = *plan;
  v->plan.jobs = calloc(plan->njobs, sizeof *v->plan.jobs);
  if (!v->plan.jobs)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the grid check");
  g->nvar++; /* freed with g from here on */
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    mcpi_job *j = &plan->jobs[ji], *c = &v->plan.jobs[ji];
    if (!mcpi_job_grid_checked(j) || !j->nreal)
      continue;
    int made = coarse_job(j, c); /* its arrays go with the variant's plan, made or not */
    if (made < 0)
      return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the grid check");
    if (!made) /* no pass reads it */
      continue;
    /* the pass and the estimators, after the job's: its pass columns move
     * right by the estimators added */
    /* a move a trade, and the held European's (its twin: MCPI_PRICED_HELD) */
    size_t nt = j->ntrades, add = j->nreal + (j->nheld ? 1 : 0), old = j->nest, p = j->npass;
    size_t *pass = realloc(j->pass, (p + 1) * sizeof *pass);
    if (pass)
      j->pass = pass;
    mcpi_est *est = realloc(j->est, (old + add) * sizeof *est);
    if (est)
      j->est = est;
    mcpi_term *term = realloc(j->term, (j->nterm + 2 * add) * sizeof *term);
    if (term)
      j->term = term;
    if (!pass || !est || !term)
      return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for the grid check");
    for (size_t k = 0; k < j->nterm; k++)
      if (j->term[k].col >= (int32_t)(nt + 1 + old))
        j->term[k].col += (int32_t)add;
    j->pass[p] = vi;
    j->npass = p + 1;
    j->nest = old + add;
    for (size_t k = 0; k < add; k++) {
      size_t t = k < j->nreal ? k : j->nreal + j->nred;
      j->est[old + k] = (mcpi_est){.trade = (long)t, .point = MCPI_EST_GRID, .a = -1, .b = -1,
                                   .term0 = j->nterm, .nterm = 2};
      j->term[j->nterm++] = (mcpi_term){(int32_t)t, 1.0};
      size_t col = nt + 1 + j->nest + p * mcpi_pass_width(j) + t;
      j->term[j->nterm++] = (mcpi_term){(int32_t)col, -1.0};
    }
    if (j->nheld)
      j->est[old].held = old + j->nreal + 1;
  }
  return MCP_OK;
}
