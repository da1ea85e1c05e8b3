/* lsm_plan.c: a Longstaff-Schwartz trade's plan (lsm.h): what its spec
 * exercises, its job's table of dates (discount factors, and the rules the
 * fit sets) and the fit's paths, and the fitted rules copied between jobs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/plan/plan_build.h"

void mcpi_lsm_spec(const mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  double s0[MCP_MAX_ASSETS], under;
  s->flags = MCPI_LSM | (t->payoff == MCP_PRODUCT_BEST_OF    ? MCPI_LSM_BEST
                         : t->payoff == MCP_PRODUCT_WORST_OF ? MCPI_LSM_WORST
                                                             : 0);
  for (size_t a = 0; a < j->nassets; a++) {
    s0[a] = j->u[a]->spot;
    s->log_initial[a] = log(s0[a]); /* the view's log_spots, its returns' origin */
    if (j->nassets > 1) {
      size_t ta = 0;
      while (strcmp(t->asset[ta], j->u[a]->name) != 0)
        ta++;
      s->assets |= 1u << a;
      s->weight[a] = t->weight ? t->weight[ta] : 0;
    }
  }
  mcpi_lsm_exercise(s, s0, (int)j->nassets, &under);
  s->lsm_inv = t->strike > 0 ? 1 / t->strike : under > 0 ? 1 / under : 1;
}

mcp_status mcpi_lsm_table(mcpi_job *j, const mcp_portfolio *p, const job_draft *d, char *err)
{
  const mcpi_trade *t = &p->t[j->trade[0]];
  schedule dates = mcpi_main_schedule(d, t);
  size_t n = dates.n, ns = j->nassets > 1 ? j->nassets : j->model == MCPI_MODEL_HESTON ? 2 : 1;
  /* by default the run's paths, at most MCP_DEFAULT_REGRESSION_PATHS and
   * what the states may hold, and at least the basis's floor (lsm.h: the
   * fit's paths are a stream of their own, not the run's) */
  int nb = mcpi_lsm_nbasis((int)j->nassets, j->model == MCPI_MODEL_HESTON);
  uint64_t room = (uint64_t)MCPI_LSM_MAX_STATES / (n * ns), fit = p->regression_paths;
  uint64_t least = MCPI_LSM_MIN_PATHS(nb);
  if (!fit) {
    fit = p->paths < MCP_DEFAULT_REGRESSION_PATHS ? p->paths : MCP_DEFAULT_REGRESSION_PATHS;
    fit = fit > least ? fit : least;
    fit = fit < room ? fit : room > least ? room : least;
  }
  if ((double)fit * (double)n * (double)ns > (double)MCPI_LSM_MAX_STATES)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': %llu regression paths x %zu exercise dates x %zu values a "
                     "date exceed the %d the fit keeps; %s", t->id, (unsigned long long)fit, n,
                     ns, MCPI_LSM_MAX_STATES,
                     p->regression_paths ? "lower run.regression_paths or the exercise dates"
                                         : "lower the exercise dates");
  if (fit < least)
    return mcpi_fail(err, MCP_ERR_INPUT,
                     "trade '%s': run.regression_paths: %llu paths fit its %d basis functions "
                     "on fewer than the %d paths each the regression needs; give at least %llu",
                     t->id, (unsigned long long)fit, nb, MCPI_LSM_MIN_PATHS(1),
                     (unsigned long long)least);
  if (d->nsched > MCPI_LSM_SCHEDULES || d->nmon) /* a job a trade: its dates, its maturity */
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': its job holds %d schedules; the "
                     "exercise's paths keep %d", t->id, d->nsched, MCPI_LSM_SCHEDULES);
  if (!(j->lsm_table = calloc(n * MCPI_LSM_ROW, sizeof *j->lsm_table)) ||
      !(j->lsm_time = malloc(n * sizeof *j->lsm_time)))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  j->lsm_dates = (int)n;
  j->lsm_nb = nb;
  j->lsm_sched = mcpi_find_schedule(d, dates);
  j->lsm_paths = fit;
  size_t tagged = 0; /* a step a date: the dates are more than MCPI_TIME_EPS apart */
  for (size_t e = 0; e < j->nelem; e++)
    tagged += (j->tag[e] & MCPI_TAG_LAST) && (j->tag[e] >> j->lsm_sched & 1u);
  if (tagged != n)
    return mcpi_fail(err, MCP_ERR_INPUT, "trade '%s': %zu exercise dates fall on %zu "
                     "simulation steps; expected dates more than %g years apart", t->id, n,
                     tagged, MCPI_TIME_EPS);
  for (size_t e = 0; e < n; e++) {
    double *row = j->lsm_table + e * MCPI_LSM_ROW;
    row[0] = exp(-mcpi_curve_integral(&j->u[0]->rate, 0, dates.t[e]));
    row[1] = e + 1 == n ? MCPI_LSM_ALWAYS : MCPI_LSM_HOLD;
    j->lsm_time[e] = dates.t[e];
  }
  return MCP_OK;
}

void mcpi_lsm_keep_basis(const mcpi_job *from, mcpi_job *to)
{
  if (!to->lsm_dates)
    return;
  memcpy(to->spec[0].log_initial, from->spec[0].log_initial, sizeof to->spec[0].log_initial);
  to->spec[0].lsm_inv = from->spec[0].lsm_inv;
}

void mcpi_lsm_copy_rules(const mcpi_job *from, mcpi_job *to)
{
  for (int e = 0; e < to->lsm_dates; e++)
    memcpy(to->lsm_table + (size_t)e * MCPI_LSM_ROW + 1,
           from->lsm_table + (size_t)e * MCPI_LSM_ROW + 1, (MCPI_LSM_ROW - 1) * sizeof(double));
}
