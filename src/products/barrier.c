/* barrier.c: the barrier option, a European knocked in or out by a barrier
 * watched on dates, on dates with the BGK shift, or on the Brownian bridge;
 * and the barrier terms a moving window shares. */
#include <math.h>
#include "src/analytic/analytic.h"
#include "src/products/units.h"

static const char *const fields[] = {"fixings", "barrier_kind", "barrier", "rebate",
                                     "monitoring", "past_fixings", "knocked", NULL};
static const mcpi_json_choice barrier_kinds[] = {{"up-and-out", MCP_UP_AND_OUT},
                                                 {"up-and-in", MCP_UP_AND_IN},
                                                 {"down-and-out", MCP_DOWN_AND_OUT},
                                                 {"down-and-in", MCP_DOWN_AND_IN},
                                                 {NULL, 0}};

mcp_status mcpi_read_knock(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                           mcpi_trade_in *tr, int need)
{
  mcp_status st;
  (void)((st = mcpi_json_enum(d, path, t, "barrier_kind", need, barrier_kinds,
                              &tr->barrier_kind)) ||
         (st = mcpi_json_number(d, path, t, "barrier", need, mcpi_check_spot, &tr->barrier)) ||
         (st = mcpi_json_number(d, path, t, "rebate", MCPI_OPTIONAL, mcpi_check_cash,
                                &tr->rebate)));
  return st;
}

mcp_status mcpi_check_rebate(const mcp_trade *t, char *err)
{
  if (!isfinite(t->rebate) || t->rebate < 0)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': rebate: expected a finite amount >= 0, got %g",
              t->id, t->rebate);
  return MCP_OK;
}

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  return mcpi_read_knock(d, path, t, tr, MCPI_REQUIRED);
}

static mcp_status check(const mcp_trade *t, char *err)
{
  const char *why;
  if ((unsigned)t->barrier_kind > MCP_DOWN_AND_IN)
    UNIT_FAIL(MCP_ERR_ARGUMENT, "trade '%s': barrier kind: expected up-and-out, up-and-in, "
              "down-and-out or down-and-in", t->id);
  if ((unsigned)t->monitoring > MCP_MONITOR_BRIDGE)
    UNIT_FAIL(MCP_ERR_ARGUMENT, "trade '%s': monitoring: expected discrete, bgk or bridge",
              t->id);
  if ((why = mcpi_check_spot(t->barrier)))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': barrier: expected %s, got %g", t->id, why,
              t->barrier);
  return mcpi_check_rebate(t, err);
}

/* Average variance of the underlying over [0, T], for the BGK shift. */
static double mean_variance(const mcpi_underlying *u, double T)
{
  if (u->model == MCPI_MODEL_HESTON)
    return u->theta + (u->v0 - u->theta) * (1 - exp(-u->kappa * T)) / (u->kappa * T);
  return mcpi_curve_integral_sq(&u->vol, 0, T) / T;
}

/* The mean spacing of the BGK barrier's dates to come, (t_n - t_1) / (n - 1)
 * (one date: t_1): the gap from today to the first date is no spacing of
 * the schedule.  A schedule whose first date is one spacing from today
 * takes t_n / n, the same spacing, as it did before (to keep its bits). */
static double bgk_spacing(const mcpi_trade *t)
{
  size_t n = t->nfix;
  double first = t->fix[0], last = t->fix[n - 1];
  double dt = n > 1 ? (last - first) / (double)(n - 1) : first;
  return fabs(dt - first) <= MCPI_TIME_EPS ? last / (double)n : dt;
}

static void spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  int up = mcpi_barrier_up(t);
  s->flags |= (up ? MCPI_UP : 0) |
              (t->barrier_kind == MCP_UP_AND_IN || t->barrier_kind == MCP_DOWN_AND_IN
                   ? MCPI_KNOCK_IN
                   : 0);
  double shift = 0;
  if (t->monitoring == MCP_MONITOR_BGK) {
    double dt = bgk_spacing(t);
    shift = MCPI_BGK_BETA * sqrt(mean_variance(j->u[0], t->maturity) * dt);
  }
  /* the discrete barrier moves towards the spot by the shift to price the
     continuous one: the path is seen less often, so it must be caught
     sooner */
  s->log_barrier = log(t->barrier) + (up ? -shift : shift);
}

const mcpi_product_unit mcpi_barrier_unit = {
    .name = "barrier", .traits = MCPI_PT_WATCHED | MCPI_PT_PDE,
    .fields = fields, .read = read, .check = check, .spec = spec};
