/* arrays.c: what the products that keep an array per path
 * (models/products/private.h) share: no control variate, a notional, and
 * their part of the path's array. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/products/units.h"

mcp_status mcpi_check_no_control(const mcp_trade *t, char *err)
{
  if (t->methods != MCP_METHODS_DEFAULT && (t->methods & MCP_CONTROL_VARIATE))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': methods: %s has no control variate", t->id,
              mcp_product_name(t->product));
  return MCP_OK;
}

mcp_status mcpi_read_notional(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                              mcpi_trade_in *tr)
{
  return mcpi_json_number(d, path, t, "notional", MCPI_OPTIONAL, mcpi_check_finite,
                          &tr->notional);
}

mcp_status mcpi_read_initial_fixings(const mcpi_json_doc *d, const mcpi_json_path *path,
                                     json_t *t, mcpi_trade_in *tr, int required)
{
  const mcpi_json_path at = {path, "initial_fixings", 0};
  size_t n = tr->nassets ? tr->nassets : 1;
  const char *what = n > 1 ? "an array of spots > 0, one for each asset" : "a spot > 0";
  json_t *v;
  mcp_status st = mcpi_json_member(d, path, t, "initial_fixings", required, what, &v);
  if (st != MCP_OK || !v)
    return st;
  if (n == 1 && json_is_number(v)) {
    if (mcpi_check_spot(json_number_value(v)))
      return mcpi_json_expected(d, &at, mcpi_check_spot(json_number_value(v)));
    tr->initial[0] = json_number_value(v);
    tr->has_initial = 1;
    return MCP_OK;
  }
  if (!json_is_array(v))
    return mcpi_json_expected(d, &at, what);
  if (json_array_size(v) != n)
    return mcpi_json_fail(d, &at, 0, MCP_ERR_INPUT, "expected %zu spot%s, got %zu", n,
                          n > 1 ? "s, one for each asset" : "", json_array_size(v));
  size_t i;
  json_t *x;
  json_array_foreach(v, i, x) {
    const char *why = mcpi_check_spot(json_is_number(x) ? json_number_value(x) : NAN);
    if (why)
      return mcpi_json_expected(d, &(mcpi_json_path){&at, NULL, i}, why);
    tr->initial[i] = json_number_value(x);
  }
  tr->has_initial = 1;
  return MCP_OK;
}

mcp_status mcpi_check_seasoned_start(const mcp_trade *t, char *err)
{
  size_t past = mcpi_past_fixings(t->nfixings, t->fixings), na = t->nassets ? t->nassets : 1;
  if (past && !t->initial_fixings)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': initial_fixings: expected the spot%s it started from, "
              "as %zu of its fixings have passed", t->id, na > 1 ? "s of its assets" : "",
              past);
  for (size_t a = 0; t->initial_fixings && a < na; a++)
    if (!(isfinite(t->initial_fixings[a]) && t->initial_fixings[a] > 0))
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': initial_fixings[%zu]: expected a finite spot > 0, "
                "got %g", t->id, a, t->initial_fixings[a]);
  return MCP_OK;
}

int mcpi_keep_seed(mcpi_trade *c, const mcp_trade *t)
{
  c->nfix_all = t->nfixings;
  c->seed = calloc((size_t)mcpi_private_len(t->product, (int)t->nfixings, (int)t->window),
                   sizeof(double));
  if (!t->initial_fixings) /* a moving window's start is its fixings */
    return c->seed != NULL;
  c->initial = malloc(c->nassets * sizeof(double));
  if (c->initial)
    memcpy(c->initial, t->initial_fixings, c->nassets * sizeof(double));
  return c->seed && c->initial;
}

mcp_status mcpi_check_array_terms(const mcp_trade *t, char *err)
{
  mcp_status st = mcpi_check_no_control(t, err);
  if (st == MCP_OK && !isfinite(t->notional))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': notional: expected a finite amount, got %g", t->id,
              t->notional);
  return st;
}

/* The terms of t's spec that its fixings and payoff read (private.h), its
 * array at offset 0. */
static void array_terms(const mcpi_trade *t, mcpi_payoff_spec *s)
{
  int n = (int)(t->nfix_all ? t->nfix_all : t->nfix); /* a seasoned one's past too */
  s->arr_off = 0;
  s->arr_len = mcpi_private_len(t->product, n, (int)t->window);
  s->nper = n;
  s->best = t->best ? (int32_t)t->best : n;
  s->window = (int32_t)t->window;
  s->inv_window = t->window ? 1.0 / (double)t->window : 0;
  s->notional = t->notional;
  s->local_floor = t->local_floor;
  s->local_cap = t->local_cap;
  s->global_floor = t->global_floor;
  s->global_cap = t->global_cap;
  s->flags = t->barrier_kind == MCP_UP_AND_OUT ? MCPI_UP : 0;
  s->barrier = t->barrier;
}

void mcpi_array_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  int n = (int)(t->nfix_all ? t->nfix_all : t->nfix);
  array_terms(t, s);
  s->arr_off = j->arr_len;
  j->arr_len += s->arr_len;
  if (!t->seed)
    return;
  /* seasoned: its array at 0, a Himalaya's assets and initial fixings the
   * job's (specs.c sized arr0) */
  double *seed = j->arr0 + j->narr0;
  memcpy(seed, t->seed, (size_t)s->arr_len * sizeof *seed);
  for (int i = 0; t->product == MCP_PRODUCT_HIMALAYA && i < n; i++) {
    int ja = (int)mcpi_job_asset(j, t->asset[i]);
    s->log_initial[ja] = log(t->initial[i]);
    if (i < n - (int)t->seed[2 * n + 1]) /* a remaining asset */
      seed[n + i] = (double)mcpi_job_asset(j, t->asset[(int)t->seed[n + i]]);
  }
  s->flags |= MCPI_SEEDED;
  s->arr_seed = (int32_t)j->narr0 + 1;
  j->narr0 += (size_t)s->arr_len;
}

mcpi_parr mcpi_replay(const mcpi_trade *c, mcpi_payoff_spec *p)
{
  *p = (mcpi_payoff_spec){.product = c->product, .type = c->type, .strike = c->strike,
                          .inv_nfix = 1.0 / (double)c->nfix_all, .rebate = c->rebate};
  array_terms(c, p);
  for (size_t i = 0; c->initial && i < c->nassets; i++) /* a Himalaya's performances */
    p->log_initial[i] = log(c->initial[i]);
  if (c->initial)
    p->flags |= MCPI_SEEDED;
  return (mcpi_parr){c->seed, 1};
}

void mcpi_replay_known(mcpi_trade *c, const mcpi_parr *a, const mcpi_payoff_spec *p)
{
  static const double alive[MCPI_MAX_MONITORS]; /* no monitors: read by none of these */
  c->known = 1;
  c->known_amount = mcpi_private_payoff(a, NULL, p, alive);
}
