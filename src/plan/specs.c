/* specs.c: a job's payoff specs (payoff.h), one a trade of the portfolio
 * (its common terms here, its product's from its unit, src/inputs/product.h),
 * then the autocallables' redemption columns, a Longstaff-Schwartz trade's
 * European held and the martingale check's forwards (plan.h, mcpi_job). */
#include <math.h>
#include <stdlib.h>
#include "src/inputs/product.h"
#include "src/plan/plan_build.h"

/* A spec's lines of 128 bytes whole, so that each starts one on the device
 * (backend_cuda.c) and its path body's fields take two (payoff.h). */
_Static_assert(sizeof(mcpi_payoff_spec) % 128 == 0, "a spec is whole lines");

mcp_status mcpi_build_specs(mcpi_job *j, const mcp_portfolio *p, const job_draft *d, char *err)
{
  size_t dates = 0, seeds = 0;
  for (size_t i = 0; i < j->nreal; i++) {
    const mcpi_trade *t = &p->t[j->trade[i]];
    dates += mcpi_trade_dates(t->product, t);
    seeds += t->seed ? (size_t)mcpi_trade_array_len(t) : 0;
  }
  if (!(j->spec = calloc(j->ntrades + dates + 1 + j->nassets, sizeof *j->spec)) ||
      (dates && !(j->acall = malloc(dates * MCPI_AC_ROW * sizeof *j->acall))) ||
      (seeds && !(j->arr0 = malloc(seeds * sizeof *j->arr0))))
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory planning the run");
  for (size_t i = 0; i < j->nreal; i++) {
    const mcpi_trade *t = &p->t[j->trade[i]];
    const mcpi_underlying *u = j->u[0];
    mcpi_payoff_spec *s = &j->spec[i];
    const mcpi_product_unit *unit = mcpi_product_unit_of(t->product);
    int floating = t->strike_kind == MCP_FLOATING_STRIKE && (unit->traits & MCPI_PT_FLOATING);
    *s = (mcpi_payoff_spec){
        .product = t->product, .type = t->type,
        .schedule = mcpi_find_schedule(d, mcpi_main_schedule(d, t)),
        .terminal = mcpi_find_schedule(d, mcpi_terminal_schedule(t)),
        .monitor = mcpi_find_monitor(d, t), .flags = floating ? MCPI_FLOATING : 0,
        .strike = t->strike, .inv_nfix = 1.0 / (double)(t->nfix_all ? t->nfix_all : t->nfix),
        .discount = t->pay_scale * exp(-mcpi_curve_integral(&u->rate, 0, t->maturity)),
        .quantity = t->quantity, .rebate = t->rebate, .cash = t->cash, .g_col = -1, .g_adj = -1};
    if (unit->spec)
      unit->spec(j, t, s);
    if (mcpi_lsm_product(t->product) || mcpi_private_product(t->product))
      continue; /* no control variate */
    if (mcpi_multi_asset(t)) {
      for (size_t a = 0; a < t->nassets; a++) {
        size_t ja = mcpi_job_asset(j, t->asset[a]);
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
