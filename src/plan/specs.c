/* specs.c: a job's payoff specs (payoff.h), one a trade of the portfolio,
 * then the autocallables' redemption columns, a Longstaff-Schwartz trade's
 * European held and the martingale check's forwards (plan.h, mcpi_job). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/plan/analytic.h"
#include "src/plan/plan_build.h"

/* Average variance of the trade's underlying over [0, T], for the BGK shift. */
static double mean_variance(const mcpi_underlying *u, double T)
{
  if (u->model == MCPI_MODEL_HESTON)
    return u->theta + (u->v0 - u->theta) * (1 - exp(-u->kappa * T)) / (u->kappa * T);
  return mcpi_curve_integral_sq(&u->vol, 0, T) / T;
}

/* An autocallable's spec (after the per-path array's fields), its rows of
 * the job's table of dates, and its redemption columns, after the columns
 * so far. */
static void autocall_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  s->discount = 1; /* its amounts are discounted from their dates */
  s->ac_row = (int32_t)j->nacall;
  s->coupon = t->coupon;
  s->log_coupon = log(t->coupon_barrier);
  s->log_knock_in = t->monitoring == MCP_MONITOR_DISCRETE ? log(t->knock_in) : -INFINITY;
  s->flags = t->memory ? MCPI_MEMORY : 0;
  for (size_t a = 0; a < t->nassets; a++) {
    size_t ja = 0;
    while (strcmp(j->u[ja]->name, t->asset[a]) != 0)
      ja++;
    s->assets |= 1u << ja;
    s->log_initial[ja] = log(t->initial[a]);
  }
  const mcpi_underlying *first = j->u[0]; /* its first asset's curve discounts */
  for (size_t a = 0; a < j->nassets; a++)
    if (strcmp(j->u[a]->name, t->asset[0]) == 0)
      first = j->u[a];
  for (size_t k = 0; k < t->nfix; k++) {
    double *row = j->acall + (j->nacall + k) * MCPI_AC_ROW;
    row[0] = exp(-mcpi_curve_integral(&first->rate, 0, t->fix[k]));
    row[1] = log(t->autocall[k]);
    j->spec[j->ntrades++] = (mcpi_payoff_spec){
        .product = MCPI_PRODUCT_REDEMPTION, .schedule = s->schedule, .terminal = s->terminal,
        .monitor = -1, .arr_off = s->arr_off, .ac_date = (int32_t)k, .discount = 1,
        .g_col = -1};
  }
  j->nacall += t->nfix;
  j->nred += t->nfix;
}

mcp_status mcpi_build_specs(mcpi_job *j, const mcp_portfolio *p, const job_draft *d, char *err)
{
  size_t dates = 0;
  for (size_t i = 0; i < j->nreal; i++)
    if (p->t[j->trade[i]].product == MCP_PRODUCT_AUTOCALLABLE)
      dates += p->t[j->trade[i]].nfix;
  if (!(j->spec = calloc(j->ntrades + dates + 1 + j->nassets, sizeof *j->spec)) ||
      (dates && !(j->acall = malloc(dates * MCPI_AC_ROW * sizeof *j->acall))))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  for (size_t i = 0; i < j->nreal; i++) {
    const mcpi_trade *t = &p->t[j->trade[i]];
    const mcpi_underlying *u = j->u[0];
    mcpi_payoff_spec *s = &j->spec[i];
    int floating = t->strike_kind == MCP_FLOATING_STRIKE &&
                   (t->product == MCP_PRODUCT_ASIAN || t->product == MCP_PRODUCT_LOOKBACK);
    *s = (mcpi_payoff_spec){
        .product = t->product, .type = t->type,
        .schedule = mcpi_find_schedule(d, mcpi_main_schedule(d, t)),
        .terminal = mcpi_find_schedule(d, mcpi_terminal_schedule(t)),
        .monitor = mcpi_find_monitor(d, t),
        .flags = (t->product == MCP_PRODUCT_BARRIER && mcpi_barrier_up(t) ? MCPI_UP : 0) |
                 (t->product == MCP_PRODUCT_BARRIER &&
                          (t->barrier_kind == MCP_UP_AND_IN || t->barrier_kind == MCP_DOWN_AND_IN)
                      ? MCPI_KNOCK_IN
                      : 0) |
                 (floating ? MCPI_FLOATING : 0) |
                 (t->product == MCP_PRODUCT_ASIAN && t->average == MCP_GEOMETRIC
                      ? MCPI_GEOMETRIC
                      : 0) |
                 (t->product == MCP_PRODUCT_DIGITAL && t->digital == MCP_ASSET_OR_NOTHING
                      ? MCPI_ASSET
                      : 0),
        .strike = t->strike, .inv_nfix = 1.0 / (double)t->nfix,
        .discount = exp(-mcpi_curve_integral(&u->rate, 0, t->maturity)),
        .quantity = t->quantity, .rebate = t->rebate, .cash = t->cash, .g_col = -1};
    if (mcpi_lsm_product(t->product)) {
      mcpi_lsm_spec(j, t, s);
      continue; /* no control variate */
    }
    if (mcpi_private_product(t->product)) {
      s->arr_off = j->arr_len;
      s->arr_len = mcpi_trade_array_len(t);
      j->arr_len += s->arr_len;
      s->nper = (int32_t)t->nfix;
      s->best = t->best ? (int32_t)t->best : (int32_t)t->nfix;
      s->window = (int32_t)t->window;
      s->inv_window = t->window ? 1.0 / (double)t->window : 0;
      s->notional = t->notional;
      s->local_floor = t->local_floor;
      s->local_cap = t->local_cap;
      s->global_floor = t->global_floor;
      s->global_cap = t->global_cap;
      s->flags = t->barrier_kind == MCP_UP_AND_OUT ? MCPI_UP : 0;
      s->barrier = t->barrier;
      if (t->product == MCP_PRODUCT_AUTOCALLABLE)
        autocall_spec(j, t, s);
      continue; /* no control variate */
    }
    if (t->product == MCP_PRODUCT_BARRIER) {
      double shift = 0;
      if (t->monitoring == MCP_MONITOR_BGK) {
        double dt = t->fix[t->nfix - 1] / (double)t->nfix;
        shift = MCPI_BGK_BETA * sqrt(mean_variance(u, t->maturity) * dt);
      }
      /* the discrete barrier moves towards the spot by the shift to price the
       continuous one: the path is seen less often, so it must be caught
       sooner */
      s->log_barrier = log(t->barrier) + (mcpi_barrier_up(t) ? -shift : shift);
    }
    if (mcpi_multi_asset(t)) {
      for (size_t a = 0; a < t->nassets; a++) {
        size_t ja = 0;
        while (strcmp(j->u[ja]->name, t->asset[a]) != 0)
          ja++;
        s->assets |= 1u << ja;
        if (t->weight)
          s->weight[ja] = t->weight[a];
      }
    }
    if (mcpi_trade_methods(p, t) & MCP_CONTROL_VARIATE) {
      mcpi_set_control(j, t, s);
      j->controls = 1;
    }
  }
  if (j->spec[0].flags & MCPI_LSM) { /* its European: the same spec held (plan.h) */
    j->spec[j->ntrades] = j->spec[0];
    j->spec[j->ntrades].flags |= MCPI_LSM_HELD;
    j->spec[j->ntrades++].quantity = 0;
    j->nheld = 1;
  }
  mcpi_add_forwards(j, d);
  return MCP_OK;
}
