/* controls.c: what a job's paths are held against: the underlyings'
 * forwards, the control variates' means and their coefficients fitted on
 * the pilot, and the martingale check's forwards. */
#include <math.h>
#include "src/analytic/analytic.h"
#include "src/analytic/engine.h"
#include "src/plan/plan_build.h"

static double forward_growth(const mcpi_underlying *u, double t)
{
  return exp(mcpi_curve_integral(&u->rate, 0, t) - mcpi_curve_integral(&u->dividend, 0, t));
}

/* The forward of u at t, less the cash dividends paid by then (exact while
 * the floor at 0 does not bind), from a valuation date moved by origin. */
static double forward(const mcpi_underlying *u, double t, double origin)
{
  return u->spot * forward_growth(u, t) - mcpi_cash_carried(u, origin, t);
}

/* Whether the floor at 0 of u's spot, after a cash dividend paid by t, may
 * bind: the spot just before it falls below it with a probability above
 * 1e-9 under the law without the floor (lognormal), so that forward() is
 * not the spot's mean.  Such an underlying has no control variate of its
 * spot and no martingale check (the paths floor it, and are right). */
static int floor_binds(const mcpi_underlying *u, double t, double origin)
{
  for (size_t i = 0; i < u->ncash; i++) {
    double ti = u->cash_t[i] - origin, d = u->cash_amount[i];
    if (!(ti > 0 && ti <= t))
      continue;
    double f = forward(u, ti, origin) + d, var = mcpi_curve_integral_sq(&u->vol, 0, ti);
    if (!(f > d) || (var > 0 && 0.5 * erfc(-(log(d / f) + 0.5 * var) / sqrt(2 * var)) > 1e-9))
      return 1;
  }
  return 0;
}

void mcpi_set_control(const mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  const mcpi_underlying *u = j->u[0];
  double T = t->maturity;
  if (j->nassets == 1 && floor_binds(u, T, j->origin))
    return;
  if (j->nassets > 1) {
    double mean = 0;
    for (size_t a = 0; a < j->nassets; a++)
      if (s->assets >> a & 1u)
        mean += (t->product == MCP_PRODUCT_BASKET ? s->weight[a] : 1) * j->u[a]->spot *
                forward_growth(j->u[a], T);
    s->control = MCPI_CV_TERMINAL;
    s->control_mean = s->discount * mean;
    return;
  }
  if (t->product == MCP_PRODUCT_ASIAN && t->average == MCP_ARITHMETIC &&
      t->strike_kind == MCP_FIXED_STRIKE) {
    if (u->model == MCPI_MODEL_BLACK_SCHOLES && !u->ncash) {
      s->control = MCPI_CV_GEOMETRIC;
      s->control_mean = mcpi_geometric_asian(t->type, u->spot, t->strike, &u->rate,
                                             &u->dividend, &u->vol, t->nfix, t->fix,
                                             s->discount);
      return;
    }
    double mean = 0;
    for (size_t i = 0; i < t->nfix; i++)
      mean += forward(u, t->fix[i], j->origin);
    s->control = MCPI_CV_AVERAGE;
    s->control_mean = s->discount * mean / (double)t->nfix;
    return;
  }
  if (u->model == MCPI_MODEL_HESTON && t->strike > 0 &&
      (t->product == MCP_PRODUCT_BARRIER ||
       (t->product == MCP_PRODUCT_LOOKBACK && t->strike_kind == MCP_FIXED_STRIKE))) {
    /* Heston's barriers and lookbacks against the European of their strike
     * (Lewis's integral), closer to their payoffs than the spot */
    mcpi_heston_params h = mcpi_heston_of(u);
    mcpi_fwd_call c;
    char scratch[MCPI_ERRLEN];
    double f = forward(u, T, j->origin);
    if (mcpi_heston_calls(&h, T, f, 1, &t->strike, &c, NULL, scratch) == MCP_OK) {
      s->control = MCPI_CV_VANILLA;
      s->control_mean = s->discount * (t->type == MCP_CALL ? c.call : c.call - (f - t->strike));
      return;
    }
  }
  s->control = MCPI_CV_TERMINAL;
  s->control_mean = s->discount * forward(u, T, j->origin);
}

void mcpi_job_set_betas(mcpi_job *j, const double *pay, size_t ld, size_t n)
{
  for (size_t t = 0; t < j->ntrades; t++) {
    mcpi_payoff_spec *s = &j->spec[t];
    if (!s->control)
      continue;
    const double *y = pay + t * ld, *x = pay + (j->ntrades + 1 + t) * ld;
    double my = 0, mx = 0, sxy = 0, sxx = 0;
    for (size_t i = 0; i < n; i++) {
      my += y[i];
      mx += x[i];
    }
    my /= (double)n;
    mx /= (double)n;
    for (size_t i = 0; i < n; i++) {
      sxy += (x[i] - mx) * (y[i] - my);
      sxx += (x[i] - mx) * (x[i] - mx);
    }
    s->beta = sxx > 0 ? sxy / sxx : 0;
  }
}

/* The martingale check of every simulated underlying (issue 17): after the
 * job's trades, a forward a asset paying its spot at the job's last date,
 * on the schedule of that date alone, which the job always has (the last
 * date is some trade's maturity), so that the job's schedules, shape and
 * paths stay as they were; quantity 0, outside the book.  Jobs of per-path
 * arrays run only their own products and have none. */
void mcpi_add_forwards(mcpi_job *j, const job_draft *d)
{
  double last = 0;
  for (int k = 0; k < d->nsched; k++)
    last = fmax(last, d->sched[k].t[d->sched[k].n - 1]);
  int at = mcpi_find_schedule(d, (schedule){1, &last, MCPI_OPEN_ANY});
  if (j->arr_len || at < 0)
    return;
  size_t nf = 0; /* the forwards added, in fwd[] */
  for (size_t a = 0; a < j->nassets; a++) {
    const mcpi_underlying *u = j->u[a];
    if (floor_binds(u, last, j->origin))
      continue;
    double discount = exp(-mcpi_curve_integral(&u->rate, 0, last));
    mcpi_payoff_spec *s = &j->spec[j->ntrades++];
    *s = (mcpi_payoff_spec){.product = j->nassets > 1 ? MCP_PRODUCT_BASKET : MCP_PRODUCT_EUROPEAN,
                            .type = MCP_CALL, .schedule = at, .terminal = at, .monitor = -1,
                            .inv_nfix = 1, .discount = discount, .g_col = -1, .g_adj = -1};
    if (j->nassets > 1) {
      s->assets = 1u << a;
      s->weight[a] = 1;
    }
    j->fwd[nf++] = discount * forward(u, last, j->origin);
  }
}
