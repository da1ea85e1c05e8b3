/* shift.c: a copy of a market with its spots, volatilities and rates
 * shifted (scenario points and the Greeks' bumps). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/inputs/market.h"
#include "src/base/validate.h"

static const char *const axis_names[MCPI_NAXES] = {"spot", "volatility", "rate"};

const char *mcpi_axis_name(mcp_shift_axis axis)
{
  return (unsigned)axis < MCPI_NAXES ? axis_names[axis] : "unknown";
}

static double shifted(double v, mcp_shift_kind kind, double x)
{
  return kind == MCP_SHIFT_RELATIVE ? v * (1 + x) : v + x;
}

static int copy_curve(mcpi_curve *dst, const mcpi_curve *src, mcp_shift_kind kind, double x)
{
  if (!mcpi_curve_copy(dst, src))
    return 0;
  for (size_t i = 0; i < src->n; i++) {
    dst->value[i] = shifted(src->value[i], kind, x);
    if (dst->slope && kind == MCP_SHIFT_RELATIVE)
      dst->slope[i] *= 1 + x;
  }
  return 1;
}

/* Checks one shifted value: MCP_OK, or MCP_ERR_INPUT naming the underlying
 * and the shift. */
static mcp_status check_value(char *err, const char *und, const char *what, double v,
                              const char *(*check)(double), mcp_shift_axis axis, double x)
{
  const char *why = check(v);
  if (!why)
    return MCP_OK;
  return mcpi_fail(err, MCP_ERR_INPUT,
                   "underlying '%s': %s shift %g makes the %s %g; expected %s", und,
                   axis_names[axis], x, what, v, why);
}

mcp_status mcpi_market_shifted(const mcp_market *m, const mcp_shift_kind *kind, const double *x,
                               long only, const unsigned char *used, mcp_market **out, char *err)
{
  double *xs = malloc((m->n ? m->n : 1) * MCPI_NAXES * sizeof *xs);
  if (!xs)
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for a scenario");
  for (size_t i = 0; i < m->n; i++) {
    /* an underlying no trade uses keeps its curves; a variant of one asset
     * (only) shifts its spot and volatility alone (its vega among several) */
    int one = only < 0 || (size_t)only == i, in = !used || used[i];
    xs[i * MCPI_NAXES + MCP_SHIFT_SPOT] = one ? x[MCP_SHIFT_SPOT] : 0;
    xs[i * MCPI_NAXES + MCP_SHIFT_VOLATILITY] = one && in ? x[MCP_SHIFT_VOLATILITY] : 0;
    xs[i * MCPI_NAXES + MCP_SHIFT_RATE] = in ? x[MCP_SHIFT_RATE] : 0;
  }
  mcp_status st = mcpi_market_shifted_each(m, kind, xs, out, err);
  free(xs);
  return st;
}

mcp_status mcpi_market_shifted_each(const mcp_market *m, const mcp_shift_kind *kind,
                                    const double *xs, mcp_market **out, char *err)
{
  mcp_market *c = calloc(1, sizeof *c);
  int ok = c != NULL;
  if (ok) {
    c->u = calloc(m->n ? m->n : 1, sizeof *c->u);
    c->corr = malloc((m->ncorr ? m->ncorr : 1) * sizeof *c->corr);
    ok = c->u && c->corr;
  }
  for (size_t i = 0; ok && i < m->n; i++) {
    const mcpi_underlying *u = &m->u[i];
    mcpi_underlying *v = &c->u[i];
    *v = *u;
    v->name = NULL;
    v->rate = v->dividend = v->vol = (mcpi_curve){0, NULL, NULL, NULL};
    v->lv = (mcpi_surface){0, 0, NULL, NULL, NULL};
    v->iv = (mcpi_implied){0};
    v->ncash = 0;
    v->cash_t = v->cash_amount = NULL;
    c->n = i + 1;
    const double *x = xs + i * MCPI_NAXES;
    double xv = x[MCP_SHIFT_VOLATILITY], xr = x[MCP_SHIFT_RATE];
    ok = (v->name = strdup(u->name)) &&
         copy_curve(&v->rate, &u->rate, kind[MCP_SHIFT_RATE], xr) &&
         copy_curve(&v->dividend, &u->dividend, MCP_SHIFT_ABSOLUTE, 0) &&
         copy_curve(&v->vol, &u->vol, kind[MCP_SHIFT_VOLATILITY], xv) &&
         mcpi_surface_copy(&v->lv, &u->lv) && mcpi_implied_copy(&v->iv, &u->iv) &&
         mcpi_cash_copy(v, u);
    if (!ok)
      break;
    for (size_t k = 0; k < v->lv.nt * v->lv.ns; k++) /* the whole surface moves */
      v->lv.values[k] = shifted(v->lv.values[k], kind[MCP_SHIFT_VOLATILITY], xv);
    /* the implied volatilities move as their local ones (v -> scale v + shift) */
    if (kind[MCP_SHIFT_VOLATILITY] == MCP_SHIFT_RELATIVE)
      v->iv.scale = u->iv.scale * (1 + xv);
    v->iv.shift = shifted(u->iv.shift, kind[MCP_SHIFT_VOLATILITY], xv);
    v->spot = shifted(u->spot, kind[MCP_SHIFT_SPOT], x[MCP_SHIFT_SPOT]);
    if (u->model == MCPI_MODEL_HESTON && xv != 0) {
      /* the volatility is the variance's root; a root shifted below 0 keeps
       * its sign in the variance, which the checks below then refuse (no
       * shift keeps the variances' bits: a root squared may not) */
      double r0 = shifted(sqrt(u->v0), kind[MCP_SHIFT_VOLATILITY], xv);
      double rt = shifted(sqrt(u->theta), kind[MCP_SHIFT_VOLATILITY], xv);
      v->v0 = r0 < 0 ? -r0 * r0 : r0 * r0;
      v->theta = rt < 0 ? -rt * rt : rt * rt;
    }
  }
  mcp_status st = ok && mcpi_market_index(c)
                      ? MCP_OK
                      : mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory for a scenario");
  for (size_t i = 0; st == MCP_OK && i < c->n; i++) {
    const mcpi_underlying *v = &c->u[i];
    const double *x = xs + i * MCPI_NAXES;
    st = check_value(err, v->name, "spot", v->spot, mcpi_check_spot, MCP_SHIFT_SPOT,
                     x[MCP_SHIFT_SPOT]);
    for (size_t k = 0; st == MCP_OK && k < v->vol.n; k++)
      st = check_value(err, v->name, "volatility", v->vol.value[k], mcpi_check_volatility,
                       MCP_SHIFT_VOLATILITY, x[MCP_SHIFT_VOLATILITY]);
    for (size_t k = 0; st == MCP_OK && k < v->lv.nt * v->lv.ns; k++)
      st = check_value(err, v->name, "local volatility", v->lv.values[k],
                       mcpi_check_volatility, MCP_SHIFT_VOLATILITY, x[MCP_SHIFT_VOLATILITY]);
    for (size_t k = 0; st == MCP_OK && k < v->rate.n; k++) {
      double v0, v1; /* a sloped piece's at both ends */
      mcpi_curve_piece_ends(&v->rate, k, HUGE_VAL, &v0, &v1);
      st = check_value(err, v->name, "rate", mcpi_check_rate(v0) ? v0 : v1, mcpi_check_rate,
                       MCP_SHIFT_RATE, x[MCP_SHIFT_RATE]);
    }
    if (st == MCP_OK && v->model == MCPI_MODEL_HESTON)
      st = check_value(err, v->name, "variance v0", v->v0, mcpi_check_variance,
                       MCP_SHIFT_VOLATILITY, x[MCP_SHIFT_VOLATILITY]);
    if (st == MCP_OK && v->model == MCPI_MODEL_HESTON)
      st = check_value(err, v->name, "variance theta", v->theta, mcpi_check_variance,
                       MCP_SHIFT_VOLATILITY, x[MCP_SHIFT_VOLATILITY]);
  }
  if (st == MCP_OK) {
    if (m->ncorr) /* a market without correlations has none to copy (NULL) */
      memcpy(c->corr, m->corr, m->ncorr * sizeof *c->corr);
    c->ncorr = c->corr_cap = m->ncorr;
    c->cap = c->n;
    c->base = m->base ? m->base : m;
    *out = c;
  } else {
    mcp_market_destroy(c);
  }
  return st;
}
