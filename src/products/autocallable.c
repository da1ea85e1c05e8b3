/* autocallable.c: the autocallable note on one underlying or the worst of
 * several assets (include/mcprice.h, mcp_trade, has its terms; the path's
 * part: models/products/private.h), with its redemption probabilities, one
 * a date. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/products/units.h"

static const char *const fields[] = {"assets", "strike", "fixings", "monitoring", "notional",
                                     "initial_fixings", "autocall_level", "coupon",
                                     "coupon_barrier", "memory", "knock_in", "past_fixings",
                                     "knocked", NULL};

static const char *check_level(double x)
{
  return isfinite(x) && x > 0 ? NULL : "a finite level > 0 (a fraction of the initial spot)";
}

static const char *check_level0(double x)
{
  return isfinite(x) && x >= 0 ? NULL : "a finite level >= 0 (a fraction of the initial spot)";
}

/* The knocked-in put's strike (a fraction, 1 by default), the notional, the
 * initial fixings, the autocall level (one, or one an observation date),
 * coupons and knock-in. */
static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  const mcpi_json_path level_path = {path, "autocall_level", 0};
  const char *what = "a level > 0, or an array of them (null: not callable), one for each "
                     "fixing";
  json_t *level, *memory = json_object_get(t, "memory");
  mcp_status st;
  tr->strike = 1;
  if ((st = mcpi_json_number(d, path, t, "strike", MCPI_OPTIONAL, mcpi_check_strike,
                             &tr->strike)) ||
      (st = mcpi_read_notional(d, path, t, tr)) || (st = mcpi_read_initial_fixings(d, path, t, tr, MCPI_REQUIRED)) ||
      (st = mcpi_json_member(d, path, t, "autocall_level", MCPI_REQUIRED, what, &level)) ||
      (st = mcpi_json_number(d, path, t, "coupon", MCPI_OPTIONAL, mcpi_check_cash,
                             &tr->coupon)) ||
      (st = mcpi_json_number(d, path, t, "coupon_barrier", MCPI_OPTIONAL, check_level0,
                             &tr->coupon_barrier)) ||
      (st = mcpi_json_number(d, path, t, "knock_in", MCPI_OPTIONAL, check_level0,
                             &tr->knock_in)))
    return st;
  /* The strike and the monitoring are the knock-in put's: refused without
   * one, rather than dropped. */
  if (tr->knock_in == 0)
    for (const char *const *k = (const char *const[]){"strike", "monitoring", NULL}; *k; k++)
      if (json_object_get(t, *k))
        return mcpi_json_expected(d, &(mcpi_json_path){path, *k, 0},
                                  "none without a knock_in > 0 (it is the knock-in's)");
  if (memory && !json_is_boolean(memory))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "memory", 0}, "true or false");
  tr->memory = memory && json_is_true(memory);
  if (json_is_number(level)) {
    const char *why = check_level(json_number_value(level));
    if (why)
      return mcpi_json_expected(d, &level_path, why);
    tr->autocall_level = json_number_value(level);
    return MCP_OK;
  }
  if (!json_is_array(level))
    return mcpi_json_expected(d, &level_path, what);
  size_t n = json_array_size(level), k;
  json_t *v;
  if (n != tr->nfix)
    return mcpi_json_fail(d, &level_path, 0, MCP_ERR_INPUT,
                          "expected %zu levels, one for each fixing, got %zu", tr->nfix, n);
  if (!(tr->autocall_levels = malloc(n * sizeof *tr->autocall_levels)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_array_foreach(level, k, v) {
    const char *why = json_is_null(v) ? NULL
                                      : check_level(json_is_number(v) ? json_number_value(v) : NAN);
    if (why)
      return mcpi_json_expected(d, &(mcpi_json_path){&level_path, NULL, k},
                                "a finite level > 0 (a fraction of the initial spot), or null "
                                "(not callable)");
    tr->autocall_levels[k] = json_is_null(v) ? HUGE_VAL : json_number_value(v);
  }
  return MCP_OK;
}

/* A level: a performance > 0, HUGE_VAL for none. */
static int level_ok(double x) { return x > 0 && !isnan(x); }

static double level_at(const mcp_trade *t, size_t k)
{
  return t->autocall_levels ? t->autocall_levels[k] : t->autocall_level;
}

/* Its first past observation dates, as the path would have seen them
 * (private.h): the coupons due after them and in *knocked whether one
 * knocked it in; -1 - k where it was called at the k-th. */
static long history(const mcp_trade *t, size_t past, int *knocked)
{
  size_t na = t->nassets ? t->nassets : 1;
  long due = 0;
  *knocked = 0;
  for (size_t k = 0; k < past; k++) {
    double perf = HUGE_VAL;
    for (size_t a = 0; a < na; a++)
      perf = fmin(perf, t->past_fixings[k * na + a] / t->initial_fixings[a]);
    due++;
    *knocked |= perf < t->knock_in;
    if (perf >= level_at(t, k))
      return -1 - (long)k;
    if (perf >= t->coupon_barrier || !t->memory)
      due = 0;
  }
  return due;
}

static mcp_status check(const mcp_trade *t, char *err)
{
  const char *id = t->id;
  size_t n = t->nfixings;
  mcp_status st = mcpi_check_array_terms(t, err);
  if (st != MCP_OK)
    return st;
  if (fabs(t->fixings[n - 1] - t->maturity) > MCPI_TIME_EPS)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected the last observation date at the "
              "maturity, %g, got %g", id, t->maturity, t->fixings[n - 1]);
  for (size_t k = 1; k < n; k++)
    if (t->fixings[k] - t->fixings[k - 1] <= MCPI_TIME_EPS)
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': fixings[%zu]: expected a time more than %g years "
                "after the one before, got %.17g after %.17g", id, k, MCPI_TIME_EPS,
                t->fixings[k], t->fixings[k - 1]);
  for (size_t k = 0; t->autocall_levels && k < n; k++)
    if (!level_ok(t->autocall_levels[k]))
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': autocall_levels[%zu]: expected a level > 0 (a "
                "fraction of the initial spot; HUGE_VAL: not callable), got %g", id, k,
                t->autocall_levels[k]);
  size_t na = t->nassets ? t->nassets : 1;
  if (!t->initial_fixings)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': initial_fixings: expected %zu spot%s of the strike "
              "date, got none", id, na, na > 1 ? "s, one for each asset" : "");
  for (size_t a = 0; a < na; a++)
    if (!isfinite(t->initial_fixings[a]) || t->initial_fixings[a] <= 0)
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': initial_fixings[%zu]: expected a finite spot > 0, "
                "got %g", id, a, t->initial_fixings[a]);
  if (!t->autocall_levels && !level_ok(t->autocall_level))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': autocall_level: expected a level > 0 (a fraction "
              "of the initial spot; HUGE_VAL: never callable), got %g", id, t->autocall_level);
  if (!isfinite(t->coupon) || t->coupon < 0)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': coupon: expected a finite fraction of the notional "
              ">= 0, got %g", id, t->coupon);
  if (isnan(t->coupon_barrier) || t->coupon_barrier < 0)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': coupon_barrier: expected a level >= 0 (HUGE_VAL: "
              "coupons only when called), got %g", id, t->coupon_barrier);
  if (!isfinite(t->knock_in) || t->knock_in < 0)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': knock_in: expected a finite level >= 0 (0: none), "
              "got %g", id, t->knock_in);
  if (t->knock_in > 0 && !(t->strike > 0))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': strike: expected the knocked-in put's strike > 0 (a "
              "fraction of the initial fixing, 1 at it), got %g", id, t->strike);
  if (t->monitoring != MCP_MONITOR_DISCRETE && t->monitoring != MCP_MONITOR_BRIDGE)
    UNIT_FAIL((unsigned)t->monitoring > MCP_MONITOR_BRIDGE ? MCP_ERR_ARGUMENT : MCP_ERR_INPUT,
              "trade '%s': monitoring: expected discrete (the observation dates) or bridge "
              "(continuous) for an autocallable's knock-in", id);
  if (t->monitoring == MCP_MONITOR_BRIDGE && t->nassets > 1)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': monitoring: bridge watches one underlying; expected "
              "discrete for a worst-of on %zu assets", id, t->nassets);
  /* The monitoring and the strike are the knock-in's: without one they would
   * be dropped silently (the default strike is 1, or 0 from mcp_trade_init). */
  if (t->knock_in == 0 && t->monitoring != MCP_MONITOR_DISCRETE)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': knock_in: expected a level > 0 with monitoring "
              "bridge (it watches the knock-in), got none (0)", id);
  if (t->knock_in == 0 && t->strike != 0 && t->strike != 1)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': knock_in: expected a level > 0 with strike %g (the "
              "knocked-in put's), got none (0)", id, t->strike);
  /* a seasoned one (its past fixings checked by the portfolio's check_past) */
  size_t past = mcpi_past_fixings(n, t->fixings);
  int knocked = 0;
  long h = past ? history(t, past, &knocked) : 0;
  if (h < 0)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': past_fixings: the note was called at fixings[%ld] "
              "(its performance reached the autocall level) and has redeemed; expected a note "
              "still alive (remove a redeemed one from the book)", id, -1 - h);
  if (t->knocked && t->monitoring == MCP_MONITOR_DISCRETE && !knocked)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': knocked: a knock-in watched on the observation dates "
              "is knocked by a past fixing below it, and none of its past_fixings is; expected "
              "knocked false, or the spots that knocked it", id);
  return MCP_OK;
}

/* Its autocall level at each date to come, its assets' initial fixings and
 * a seasoned one's coupons due and knock-in. */
static int keep(mcpi_trade *c, const mcp_trade *t)
{
  size_t past = mcpi_past_fixings(t->nfixings, t->fixings);
  c->coupon = t->coupon;
  c->coupon_barrier = t->coupon_barrier;
  c->knock_in = t->knock_in;
  c->memory = t->memory != 0;
  c->ac_due = past ? (int)history(t, past, &c->ac_knocked) : 0;
  c->ac_knocked |= t->knocked != 0;
  if ((c->autocall = malloc(t->nfixings * sizeof(double))))
    for (size_t k = past; k < t->nfixings; k++)
      c->autocall[k - past] = level_at(t, k);
  if ((c->initial = malloc(c->nassets * sizeof(double))))
    memcpy(c->initial, t->initial_fixings, c->nassets * sizeof(double));
  return c->autocall && c->initial;
}

/* After the per-path array's terms: its rows of the job's table of dates,
 * and its redemption columns after the columns so far. */
static void spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  mcpi_array_spec(j, t, s);
  s->discount = 1; /* its amounts are discounted from their dates */
  s->ac_row = (int32_t)j->nacall;
  s->coupon = t->coupon;
  s->log_coupon = log(t->coupon_barrier);
  s->log_knock_in = t->monitoring == MCP_MONITOR_DISCRETE ? log(t->knock_in) : -INFINITY;
  s->flags = t->memory ? MCPI_MEMORY : 0;
  s->ac_due0 = t->ac_due;
  s->ac_knocked0 = t->ac_knocked;
  for (size_t a = 0; a < t->nassets; a++) {
    size_t ja = mcpi_job_asset(j, t->asset[a]);
    s->assets |= 1u << ja;
    s->log_initial[ja] = log(t->initial[a]);
  }
  /* its first asset's curve discounts */
  const mcpi_underlying *first = j->u[mcpi_job_asset(j, t->asset[0])];
  for (size_t k = 0; k < t->nfix; k++) {
    double *row = j->acall + (j->nacall + k) * MCPI_AC_ROW;
    row[0] = exp(-mcpi_curve_integral(&first->rate, 0, t->fix[k]));
    row[1] = log(t->autocall[k]);
    j->spec[j->ntrades++] = (mcpi_payoff_spec){
        .product = MCPI_PRODUCT_REDEMPTION, .schedule = s->schedule, .terminal = s->terminal,
        .monitor = -1, .arr_off = s->arr_off, .ac_date = (int32_t)k, .discount = 1,
        .g_col = -1, .g_adj = -1};
  }
  j->nacall += t->nfix;
  j->nred += t->nfix;
}

static size_t dates(const mcpi_trade *t) { return t->nfix; }

const mcpi_product_unit mcpi_autocallable_unit = {
    .name = "autocallable",
    .traits = MCPI_PT_ASSETS_OR_ONE | MCPI_PT_SCHEDULE | MCPI_PT_NO_TYPE | MCPI_PT_OWN_STRIKE |
              MCPI_PT_DATED_TERMS,
    .fields = fields, .read = read, .check = check, .keep = keep, .spec = spec,
    .dates = dates};
