/* load_portfolio.c: reading a portfolio file (doc/input-schema.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/io/load_run_options.h"
#include "src/io/trade_in.h"
#include "src/inputs/market.h"
#include "src/inputs/product.h"
#include "src/base/validate.h"

static const char *const top_keys[] = {"run", "trades"};
static const char *const schedule_keys[] = {"first", "last", "count", "frequency", "calendar",
                                            "roll"};
static const mcpi_json_choice frequencies[] = {
    {"daily", MCPI_FREQ_DAILY},           {"weekly", MCPI_FREQ_WEEKLY},
    {"monthly", MCPI_FREQ_MONTHLY},       {"quarterly", MCPI_FREQ_QUARTERLY},
    {"semiannual", MCPI_FREQ_SEMIANNUAL}, {"annual", MCPI_FREQ_ANNUAL},
    {NULL, 0}};
static const mcpi_json_choice rolls[] = {{"following", MCPI_ROLL_FOLLOWING},
                                         {"modified-following", MCPI_ROLL_MODIFIED_FOLLOWING},
                                         {"preceding", MCPI_ROLL_PRECEDING},
                                         {"modified-preceding", MCPI_ROLL_MODIFIED_PRECEDING},
                                         {"unadjusted", MCPI_ROLL_UNADJUSTED},
                                         {NULL, 0}};

/* Every field of a trade object, in the order messages list them: those
 * that every product has, its type, underlying and strike unless its unit
 * says otherwise (src/inputs/product.h), and the units' own. */
static const char *const trade_keys[] = {
    "id", "product", "type", "underlying", "strike", "maturity", "quantity", "average",
    "fixings", "strike_kind", "digital", "cash", "barrier_kind", "barrier", "rebate",
    "monitoring", "assets", "weights", "payoff", "exercises", "exercise_dates", "notional",
    "best", "local_floor", "local_cap", "global_floor", "global_cap", "window",
    "initial_fixings", "autocall_level", "coupon", "coupon_barrier", "memory", "knock_in",
    "past_fixings", "knocked", "extremum", "methods", "method"};
#define NKEYS MCPI_COUNT(trade_keys)

/* What a trade object may hold, from the product units: the products by
 * name, and the products (bits 1 << mcp_product) that have each field. */
typedef struct vocabulary {
  mcpi_json_choice products[MCP_PRODUCT_COUNT + 1];
  unsigned masks[NKEYS];
} vocabulary;

static int common_key(const mcpi_product_unit *u, const char *key)
{
  if (strcmp(key, "type") == 0)
    return !(u->traits & MCPI_PT_NO_TYPE);
  if (strcmp(key, "underlying") == 0)
    return !(u->traits & MCPI_PT_ASSETS);
  if (strcmp(key, "strike") == 0)
    return !(u->traits & MCPI_PT_OWN_STRIKE);
  for (const char *const *k = (const char *const[]){"id", "product", "maturity", "quantity",
                                                     "methods", "method", NULL};
       *k; k++)
    if (strcmp(key, *k) == 0)
      return 1;
  return 0;
}

static void make_vocabulary(vocabulary *v)
{
  memset(v, 0, sizeof *v);
  for (int p = 0; p < MCP_PRODUCT_COUNT; p++) {
    const mcpi_product_unit *u = mcpi_product_unit_of((mcp_product)p);
    v->products[p] = (mcpi_json_choice){u->name, p};
    for (size_t k = 0; k < NKEYS; k++)
      if (common_key(u, trade_keys[k]) || mcpi_unit_has_field(u, trade_keys[k]))
        v->masks[k] |= 1u << p;
  }
}

static const mcpi_json_choice engines[] = {
    {"mc", MCP_ENGINE_MC}, {"pde", MCP_ENGINE_PDE}, {"analytic", MCP_ENGINE_ANALYTIC}, {NULL, 0}};
static const mcpi_json_choice types[] = {{"call", MCP_CALL}, {"put", MCP_PUT}, {NULL, 0}};
static const mcpi_json_choice strike_kinds[] = {
    {"fixed", MCP_FIXED_STRIKE}, {"floating", MCP_FLOATING_STRIKE}, {NULL, 0}};
static const mcpi_json_choice monitorings[] = {{"discrete", MCP_MONITOR_DISCRETE},
                                               {"bgk", MCP_MONITOR_BGK},
                                               {"bridge", MCP_MONITOR_BRIDGE},
                                               {NULL, 0}};
static const mcpi_json_choice methods[] = {{"antithetic", MCP_ANTITHETIC},
                                           {"control-variate", MCP_CONTROL_VARIATE},
                                           {"qmc", MCP_QMC},
                                           {NULL, 0}};
static const mcpi_json_choice schemes[] = {
    {"qe", MCP_HESTON_QE}, {"euler", MCP_HESTON_EULER}, {NULL, 0}};
#define FIXINGS_WHAT                                                                       \
  "a non-empty array of times or a schedule object {first, last, count} or {first, last, "     \
  "frequency}"

#define ASSETS_WHAT "an array of 2 to 16 underlying names"
#define ONE_ASSET_WHAT "an array of 1 to 16 underlying names"
#define METHODS_WHAT "an array of method names (antithetic, control-variate, qmc)"

static int is(const mcpi_trade_in *tr, unsigned traits)
{
  return mcpi_product_is((mcp_product)tr->product, traits);
}

/* Named by a list of assets: the multi-asset products, and those that may
 * be and give one (t: the trade's object). */
static int multi_asset(const mcpi_trade_in *tr, json_t *t)
{
  return is(tr, MCPI_PT_ASSETS) || (is(tr, MCPI_PT_ASSETS_OR_ONE) && json_object_get(t, "assets"));
}

/* Whether the trade has fixings (monitoring dates for a barrier): barriers
 * and lookbacks on the bridge watch the continuous path instead. */
static int has_schedule(const mcpi_trade_in *tr)
{
  return is(tr, MCPI_PT_SCHEDULE) ||
         (is(tr, MCPI_PT_WATCHED) && tr->monitoring != MCP_MONITOR_BRIDGE);
}


static const char *check_regression_paths(uint64_t n)
{
  return n >= MCP_CHUNK_PATHS && n <= ((uint64_t)1 << 24) ? NULL
                                                           : "an integer from 256 to 16777216";
}

/* The JSON reader accepts any non-negative json_int_t. */
static const char *check_seed(uint64_t seed)
{
  return seed <= INT64_MAX ? NULL : "an integer between 0 and 2^63-1";
}

static const char *check_scramblings(uint64_t n)
{
  return n >= 2 && n <= MCPI_MAX_SCRAMBLINGS ? NULL : "an integer between 2 and 1024";
}

static const char *check_count(uint64_t n)
{
  return n >= 1 && n <= MCPI_MAX_FIXINGS ? NULL : "an integer between 1 and 100000";
}

static const char *check_window(int grid, size_t n, const double *t, double maturity)
{
  return grid ? mcpi_check_grid(n, t) : mcpi_check_fixings(n, t, maturity);
}

/* Checks times as a time grid or as fixings up to maturity.  On failure *bad
 * is the first offending time, or n when their number is at fault: the
 * checks compare each time with its predecessor only, so windows of two find
 * it, the first window failing for the whole list's reason first (times out
 * of order are reported as such, not as past a maturity taken from the
 * last). */
static const char *check_times(int grid, size_t n, const double *t, double maturity,
                               size_t *bad)
{
  const char *why = check_window(grid, n, t, maturity), *w, *first = NULL;
  *bad = n;
  for (size_t i = 0; why && i < n; i++) {
    size_t k = i ? 2 : 1;
    if ((w = check_window(grid, k, t + i + 1 - k, maturity))) {
      if (w == why) {
        *bad = i;
        return w;
      }
      if (!first) {
        first = w;
        *bad = i;
      }
    }
  }
  return first ? first : why;
}

/* Reports time bad of the n at path: an array element or, for a schedule,
 * its first time or its last, which the times after the first follow. */
static mcp_status time_error(const mcpi_json_doc *d, const mcpi_json_path *path, int schedule,
                             size_t bad, size_t n, const char *why)
{
  if (bad == n)
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "expected %s, got %zu", why, n);
  mcpi_json_path at = {path, schedule ? (bad ? "last" : "first") : NULL, bad};
  return mcpi_json_expected(d, &at, why);
}

static mcp_status read_grid(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *grid,
                            mcp_portfolio *pf)
{
  double *t;
  size_t n, bad;
  const char *why;
  mcp_status st = mcpi_json_times(d, path, grid, &t, &n);
  if (st != MCP_OK)
    return st;
  if ((why = check_times(1, n, t, 0, &bad)))
    st = time_error(d, path, 0, bad, n, why);
  else if ((st = mcp_portfolio_set_time_grid(pf, n, t)))
    st = mcpi_json_fail(d, path, 0, st, "%s", mcp_portfolio_last_error(pf));
  free(t);
  return st;
}


/* "methods" of obj, at path: an array of method names, each at most once;
 * an empty array is plain Monte Carlo.  *out keeps its value when absent. */
static mcp_status read_methods(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                               int *out)
{
  const mcpi_json_path list_path = {path, "methods", 0};
  json_t *list, *v;
  size_t i;
  int flags = 0;
  mcp_status st =
      mcpi_json_array(d, path, obj, "methods", MCPI_OPTIONAL, 0, METHODS_WHAT, &list);
  if (st != MCP_OK || !list)
    return st;
  json_array_foreach(list, i, v) {
    const mcpi_json_path at = {&list_path, NULL, i};
    const mcpi_json_choice *c = methods;
    while (c->name && !(json_is_string(v) && strcmp(c->name, json_string_value(v)) == 0))
      c++;
    if (!c->name)
      return mcpi_json_expected(d, &at, "one of antithetic, control-variate, qmc");
    if (flags & c->value)
      return mcpi_json_expected(d, &at, "a method not listed before");
    flags |= c->value;
  }
  *out = flags;
  return MCP_OK;
}

/* "products" of the pde settings: the products priced on the grid unless a
 * trade says otherwise. */
static mcp_status read_pde_products(const mcpi_json_doc *d, const mcpi_json_path *path,
                                    json_t *obj, mcp_portfolio *pf)
{
  const mcpi_json_path list_path = {path, "products", 0};
  const char *what = "an array of product names (european, barrier, american)";
  json_t *list, *v;
  size_t i;
  mcp_status st = mcpi_json_array(d, path, obj, "products", MCPI_OPTIONAL, 0, what, &list);
  if (st != MCP_OK || !list)
    return st;
  json_array_foreach(list, i, v) {
    const mcpi_json_path at = {&list_path, NULL, i};
    mcp_product product;
    if (!json_is_string(v) ||
        mcp_product_from_name(json_string_value(v), &product) != MCP_OK ||
        !mcpi_product_is(product, MCPI_PT_PDE))
      return mcpi_json_expected(d, &at, "european, barrier or american (the products the "
                                        "PDE prices)");
    mcp_portfolio_set_engine(pf, product, MCP_ENGINE_PDE);
  }
  return MCP_OK;
}

static mcp_status read_run(const mcpi_json_doc *d, mcp_portfolio *pf)
{
  const mcpi_json_path path = {NULL, "run", 0}, grid_path = {&path, "grid", 0},
                       pde_path = {&path, "pde", 0};
  /* steps: UINT64_MAX while not given (each model's default, plan.h) */
  uint64_t paths = mcp_portfolio_paths(pf), seed = mcp_portfolio_seed(pf), steps = UINT64_MAX;
  int methods = mcp_portfolio_methods(pf), scheme = pf->heston;
  uint64_t scramblings = pf->scramblings, regression = mcp_portfolio_regression_paths(pf);
  json_t *run, *grid, *pde;
  mcp_run_options *o = NULL;
  const char *what = "an object of run settings";
  mcp_status st = mcpi_json_member(d, NULL, d->root, "run", MCPI_OPTIONAL, what, &run);
  if (st != MCP_OK || !run)
    return st;
  if ((st = mcpi_json_object(d, &path, run, what, mcpi_run_keys, mcpi_nrun_keys)) ||
      (st = mcpi_json_uint(d, &path, run, "paths", MCPI_OPTIONAL, mcpi_check_paths, &paths)) ||
      (st = mcpi_json_uint(d, &path, run, "seed", MCPI_OPTIONAL, check_seed, &seed)) ||
      (st = mcpi_json_uint(d, &path, run, "steps_per_year", MCPI_OPTIONAL,
                           mcpi_check_steps_per_year, &steps)) ||
      (st = read_methods(d, &path, run, &methods)) ||
      (st = mcpi_json_uint(d, &path, run, "scramblings", MCPI_OPTIONAL, check_scramblings,
                           &scramblings)) ||
      (st = mcpi_json_enum(d, &path, run, "heston_scheme", MCPI_OPTIONAL, schemes, &scheme)) ||
      (st = mcpi_json_uint(d, &path, run, "regression_paths", MCPI_OPTIONAL,
                           check_regression_paths, &regression)))
    return st;
  /* how to run: kept on the portfolio for the deprecated path (run_options.h) */
  if ((st = mcp_run_options_create(&o)) != MCP_OK)
    return mcpi_json_fail_file(d, st, "out of memory");
  st = mcpi_read_run_options(d, &path, run, o);
  if (st == MCP_OK) {
    pf->legacy = o->s;
    if (o->s.given & MCPI_OPT_BACKEND)
      pf->backend = o->backend;
  }
  mcp_run_options_destroy(o);
  if (st != MCP_OK)
    return st;
  if ((pde = json_object_get(run, "pde")) && (st = read_pde_products(d, &pde_path, pde, pf)))
    return st;
  if ((st = mcpi_json_array(d, &path, run, "grid", MCPI_OPTIONAL, 0, "an array of times",
                            &grid)))
    return st;
  if ((st = mcp_portfolio_set_paths(pf, paths)) || (st = mcp_portfolio_set_seed(pf, seed)) ||
      (steps != UINT64_MAX && (st = mcp_portfolio_set_steps_per_year(pf, (unsigned)steps))) ||
      (st = mcp_portfolio_set_methods(pf, methods)) ||
      (st = mcp_portfolio_set_scramblings(pf, (unsigned)scramblings)) ||
      (st = mcp_portfolio_set_heston_scheme(pf, (mcp_heston_scheme)scheme)) ||
      (st = mcp_portfolio_set_regression_paths(pf, regression)))
    return mcpi_json_fail(d, &path, 0, st, "%s", mcp_portfolio_last_error(pf));
  return grid ? read_grid(d, &grid_path, grid, pf) : MCP_OK;
}

/* {first, last, frequency, calendar, roll}: the dates of a calendar's
 * schedule (dates.h), their times. */
static mcp_status read_dated_schedule(const mcpi_json_doc *d, const mcpi_json_path *path,
                                      json_t *s, mcpi_trade_in *tr)
{
  const mcpi_json_path cal_path = {path, "calendar", 0};
  const char *first_s = NULL, *last_s = NULL, *cal = NULL, *why;
  int freq = 0, roll = MCPI_ROLL_MODIFIED_FOLLOWING;
  mcpi_date first, last;
  mcp_status st;
  if (!d->dates)
    return mcpi_json_fail(d, &(mcpi_json_path){path, "frequency", 0}, 1, MCP_ERR_INPUT,
                          "a schedule of dates needs the market's valuation_date, and the "
                          "portfolio loaded with that market");
  if (json_object_get(s, "count"))
    return mcpi_json_fail(d, &(mcpi_json_path){path, "count", 0}, 1, MCP_ERR_INPUT,
                          "a schedule gives a count or a frequency, not both");
  if ((st = mcpi_json_string(d, path, s, "first", MCPI_REQUIRED, mcpi_check_date, &first_s)) ||
      (st = mcpi_json_string(d, path, s, "last", MCPI_REQUIRED, mcpi_check_date, &last_s)) ||
      (st = mcpi_json_enum(d, path, s, "frequency", MCPI_REQUIRED, frequencies, &freq)) ||
      (st = mcpi_json_string(d, path, s, "calendar", MCPI_OPTIONAL, mcpi_check_name, &cal)) ||
      (st = mcpi_json_enum(d, path, s, "roll", MCPI_OPTIONAL, rolls, &roll)))
    return st;
  const mcpi_calendar *c = cal ? mcpi_dates_calendar(d->dates, cal) : d->dates->basis.calendar;
  if (!c)
    return mcpi_json_expected(d, &cal_path, "the name of one of the market's calendars");
  mcpi_date_parse(first_s, &first);
  mcpi_date_parse(last_s, &last);
  if (last < first)
    return mcpi_json_expected(d, &(mcpi_json_path){path, "last", 0}, "a date on or after first");
  size_t n = mcpi_schedule_dates(first, last, (mcpi_frequency)freq, (mcpi_roll)roll, c, NULL, 0);
  if ((why = check_count(n)))
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT,
                          "expected a schedule of 1 to 100000 dates, got %zu", n);
  mcpi_date *dates = malloc(n * sizeof *dates);
  if (!dates || !(tr->fix = malloc(n * sizeof *tr->fix))) {
    free(dates);
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  }
  mcpi_schedule_dates(first, last, (mcpi_frequency)freq, (mcpi_roll)roll, c, dates, n);
  for (size_t i = 0; i < n; i++)
    tr->fix[i] = mcpi_dates_time(d->dates, dates[i]);
  tr->nfix = n;
  free(dates);
  return MCP_OK;
}

/* {first, last, count}: count times evenly spaced from first to last. */
static mcp_status read_schedule(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *s,
                                mcpi_trade_in *tr)
{
  double first = 0, last = 0;
  uint64_t count = 0;
  mcp_status st;
  if ((st = mcpi_json_object(d, path, s, FIXINGS_WHAT, schedule_keys,
                             MCPI_COUNT(schedule_keys))))
    return st;
  if (json_object_get(s, "frequency"))
    return read_dated_schedule(d, path, s, tr);
  for (size_t k = 3; k < MCPI_COUNT(schedule_keys); k++)
    if (json_object_get(s, schedule_keys[k]))
      return mcpi_json_fail(d, &(mcpi_json_path){path, schedule_keys[k], 0}, 1, MCP_ERR_INPUT,
                            "a schedule's calendar and roll go with a frequency");
  /* A fixing time lies in (0, maturity], so within a maturity's bounds. */
  if ((st = mcpi_json_time(d, path, s, "first", MCPI_REQUIRED, mcpi_check_maturity, &first)) ||
      (st = mcpi_json_time(d, path, s, "last", MCPI_REQUIRED, mcpi_check_maturity, &last)) ||
      (st = mcpi_json_uint(d, path, s, "count", MCPI_REQUIRED, check_count, &count)))
    return st;
  if (count == 1 ? last != first : last <= first)
    return mcpi_json_expected(d, &(mcpi_json_path){path, "last", 0},
                              count == 1 ? "the time of first, as count is 1"
                                         : "a time after first, as count is above 1");
  if (!(tr->fix = malloc(count * sizeof *tr->fix)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  tr->nfix = count;
  for (size_t i = 0; i + 1 < count; i++)
    tr->fix[i] = first + (last - first) * (double)i / (double)(count - 1);
  tr->fix[count - 1] = last; /* exactly, as the default maturity copies it */
  return MCP_OK;
}

/* The fixings of an Asian or a lookback, or the monitoring dates of a
 * barrier, and the maturity when the file leaves it to default to the last
 * fixing. */
static mcp_status read_fixings(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                               mcpi_trade_in *tr)
{
  const char *key =
      mcpi_unit_has_field(mcpi_product_unit_of((mcp_product)tr->product), "exercise_dates")
          ? "exercise_dates"
          : "fixings";
  const mcpi_json_path fix_path = {path, key, 0};
  int has_maturity = json_object_get(t, "maturity") != NULL;
  json_t *fixings;
  size_t bad = 0; /* (read below where no future fixing was checked) */
  const char *why;
  mcp_status st;
  if ((st = mcpi_json_member(d, path, t, key, MCPI_REQUIRED, FIXINGS_WHAT, &fixings)))
    return st;
  if (json_is_array(fixings))
    st = mcpi_json_times(d, &fix_path, fixings, &tr->fix, &tr->nfix);
  else if (json_is_object(fixings))
    st = read_schedule(d, &fix_path, fixings, tr);
  else
    st = mcpi_json_expected(d, &fix_path, FIXINGS_WHAT);
  if (st != MCP_OK)
    return st;
  if (!tr->nfix) /* an empty array: no date to check, none to index */
    return mcpi_json_expected(d, &fix_path, FIXINGS_WHAT);
  if (!has_maturity)
    tr->maturity = tr->fix[tr->nfix - 1];
  /* a seasoned trade's fixings on or before the valuation date (check_past
   * of the portfolio's); those to come, here */
  size_t past = mcpi_past_fixings(tr->nfix, tr->fix);
  why = past < tr->nfix ? check_times(0, tr->nfix - past, tr->fix + past, tr->maturity, &bad)
                        : NULL;
  bad += past;
  /* A defaulted maturity is the last fixing: report it there. */
  if (!why && !has_maturity && (why = mcpi_check_maturity(tr->maturity))) {
    bad = tr->nfix - 1;
    if (tr->maturity <= 0)
      why = "a fixing after the valuation date, or a maturity (the payment date) after it: "
            "every fixing has passed (an expired trade is refused: remove it from the book)";
  }
  return why ? time_error(d, &fix_path, json_is_object(fixings), bad, tr->nfix, why) : MCP_OK;
}

/* The assets of a multi-asset trade, and a basket's weights. */
static mcp_status read_assets(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                              mcpi_trade_in *tr)
{
  const mcpi_json_path assets_path = {path, "assets", 0}, weights_path = {path, "weights", 0};
  json_t *list, *weights, *v;
  size_t i;
  const char *why;
  mcp_status st;
  int one = is(tr, MCPI_PT_ONE_ASSET);
  const char *assets_what = one ? ONE_ASSET_WHAT : ASSETS_WHAT;
  if ((st = mcpi_json_array(d, path, t, "assets", MCPI_REQUIRED, one ? 1 : 2, assets_what,
                            &list)))
    return st;
  if (json_array_size(list) > MCP_MAX_ASSETS)
    return mcpi_json_expected(d, &assets_path, assets_what);
  json_array_foreach(list, i, v) {
    const mcpi_json_path at = {&assets_path, NULL, i};
    if ((why = mcpi_check_name(json_is_string(v) ? json_string_value(v) : NULL)))
      return mcpi_json_expected(d, &at, why);
    tr->assets[i] = json_string_value(v);
    for (size_t k = 0; k < i; k++)
      if (strcmp(tr->assets[k], tr->assets[i]) == 0) {
        char what[64];
        snprintf(what, sizeof what, "a name not listed before (assets[%zu] has it)", k);
        return mcpi_json_expected(d, &at, what);
      }
  }
  tr->nassets = json_array_size(list);
  if ((st = mcpi_json_array(d, path, t, "weights", MCPI_OPTIONAL, 0,
                            "an array of weights, one for each asset", &weights)) ||
      !weights)
    return st;
  if (json_array_size(weights) != tr->nassets)
    return mcpi_json_fail(d, &weights_path, 0, MCP_ERR_INPUT,
                          "expected %zu weights, one for each asset, got %zu", tr->nassets,
                          json_array_size(weights));
  json_array_foreach(weights, i, v) {
    if ((why = mcpi_check_quantity(json_is_number(v) ? json_number_value(v) : NAN)))
      return mcpi_json_expected(d, &(mcpi_json_path){&weights_path, NULL, i}, why);
    tr->weights[i] = json_number_value(v);
  }
  tr->has_weights = 1;
  return MCP_OK;
}

/* The strike: none for a floating one, nor for the products that read
 * their own. */
static mcp_status read_strike(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                              mcpi_trade_in *tr)
{
  if (is(tr, MCPI_PT_OWN_STRIKE))
    return MCP_OK;
  if (tr->strike_kind != MCP_FLOATING_STRIKE)
    return mcpi_json_number(d, path, t, "strike", MCPI_REQUIRED, mcpi_check_strike,
                            &tr->strike);
  if (json_object_get(t, "strike"))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "strike", 0},
                              "no strike, as strike_kind is floating");
  return MCP_OK;
}

/* The past fixings of an autocallable on per assets: rows of their spots,
 * flattened date by date. */
static mcp_status past_rows(const mcpi_json_doc *d, const mcpi_json_path *at, json_t *past,
                            size_t per, mcpi_trade_in *tr)
{
  size_t k, i;
  json_t *row, *x;
  if (!(tr->past = malloc((json_array_size(past) * per + 1) * sizeof *tr->past)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_array_foreach(past, k, row) {
    const mcpi_json_path rp = {at, NULL, k};
    if (!json_is_array(row) || json_array_size(row) != per)
      return mcpi_json_fail(d, &rp, 0, MCP_ERR_INPUT, "expected an array of %zu spots, one "
                            "for each asset", per);
    json_array_foreach(row, i, x) {
      if (!json_is_number(x) || !(json_number_value(x) > 0))
        return mcpi_json_expected(d, &(mcpi_json_path){&rp, NULL, i}, "a spot > 0");
      tr->past[tr->npast++] = json_number_value(x);
    }
  }
  return MCP_OK;
}

/* A seasoned trade's history: past_fixings, the spots of its fixings on or
 * before the valuation date (an autocallable on several assets: a row of
 * their spots a date); knocked, a barrier's or a knock-in's state. */
static mcp_status read_history(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                               mcpi_trade_in *tr)
{
  json_t *past = json_object_get(t, "past_fixings"), *knocked = json_object_get(t, "knocked");
  if (knocked && !json_is_boolean(knocked))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "knocked", 0}, "true or false");
  tr->knocked = json_is_true(knocked);
  const mcpi_json_path at = {path, "past_fixings", 0};
  /* products that take a history need it; others are refused by the
   * portfolio (check_past), naming those that do */
  int takes = mcpi_unit_has_field(mcpi_product_unit_of((mcp_product)tr->product),
                                  "past_fixings") &&
              !(tr->product == MCP_PRODUCT_ASIAN && tr->strike_kind == MCP_FLOATING_STRIKE);
  if (!past && tr->nfix && tr->fix[0] <= 0 && takes)
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "missing field 'past_fixings' (expected "
                          "the spots of the fixings on or before the valuation date, one "
                          "each)");
  if (!past)
    return MCP_OK;
  if (!json_is_array(past) && !json_is_number(past))
    return mcpi_json_expected(d, &at, "an array of the spots fixed on or before the valuation "
                              "date (one: a number)");
  if (json_is_number(past)) { /* one spot: a CSV cell */
    if (!(tr->past = malloc(sizeof *tr->past)))
      return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
    tr->past[0] = json_number_value(past);
    tr->npast = 1;
    past = NULL;
  }
  size_t want = mcpi_past_fixings(tr->nfix, tr->fix);
  size_t got = past ? json_array_size(past) : tr->npast;
  /* an autocallable on several assets, a Himalaya: a row of their spots a date */
  size_t per = (tr->product == MCP_PRODUCT_AUTOCALLABLE || tr->product == MCP_PRODUCT_HIMALAYA) &&
                       tr->nassets > 1
                   ? tr->nassets
                   : 1;
  if (got != want)
    return mcpi_json_fail(d, &at, 0, MCP_ERR_INPUT, "expected %zu %s%s, one for each "
                          "fixing on or before the valuation date, got %zu", want,
                          per > 1 ? "row" : "spot", want == 1 ? "" : "s", got);
  if (per > 1 && !tr->npast && want)
    return past_rows(d, &at, past, per, tr);
  mcp_status st = past && want
                      ? mcpi_json_numbers(d, &at, past, "a spot", &tr->past, &tr->npast)
                      : MCP_OK;
  for (size_t i = 0; st == MCP_OK && i < tr->npast; i++)
    if (!(tr->past[i] > 0))
      st = mcpi_json_expected(d, &(mcpi_json_path){&at, NULL, i}, "a spot > 0");
  return st;
}

/* A trade that may be named by its assets names no underlying beside them;
 * one watched on the bridge has no fixings. */
static mcp_status check_naming(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                               const mcpi_trade_in *tr)
{
  if (is(tr, MCPI_PT_ASSETS_OR_ONE) && tr->nassets && json_object_get(t, "underlying"))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "underlying", 0},
                              "no underlying, as the trade names its assets");
  if (is(tr, MCPI_PT_WATCHED) && tr->monitoring == MCP_MONITOR_BRIDGE &&
      json_object_get(t, "fixings"))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "fixings", 0},
                              "no fixings, as bridge monitoring is continuous");
  return MCP_OK;
}

static mcp_status unique_id(const mcpi_json_doc *d, const mcpi_json_path *path, const char *id,
                            const mcp_portfolio *pf)
{
  long i = mcpi_portfolio_find(pf, id);
  if (i >= 0) {
    char what[64];
    snprintf(what, sizeof what, "an id not taken (trades[%ld] has it)", i);
    return mcpi_json_expected(d, &(mcpi_json_path){path, "id", 0}, what);
  }
  return MCP_OK;
}

static mcp_status read_trade(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             const vocabulary *v, mcp_portfolio *pf)
{
  mcp_status st;
  mcpi_trade_in tr = {.type = MCP_CALL, .quantity = 1, .cash = 1, .methods = MCP_METHODS_DEFAULT,
                      .payoff = MCP_PRODUCT_BASKET, .coupon_barrier = HUGE_VAL,
                      .engine = MCP_ENGINE_DEFAULT, .notional = 1, .local_floor = -HUGE_VAL,
                      .local_cap = HUGE_VAL, .global_floor = -HUGE_VAL, .global_cap = HUGE_VAL};
  mcp_trade api;
  /* All trade fields first, so that a misspelt "product" reads as unknown;
   * then those of the product, its own last (its unit's).  A field a product
   * lacks is absent, so that reading it leaves its default. */
  if ((st = mcpi_json_object(d, path, t, "a trade object", trade_keys, NKEYS)) ||
      (st = mcpi_json_string(d, path, t, "id", MCPI_REQUIRED, mcpi_check_name, &tr.id)) ||
      (st = unique_id(d, path, tr.id, pf)) ||
      (st = mcpi_json_enum(d, path, t, "product", MCPI_REQUIRED, v->products, &tr.product)))
    goto done;
  const mcpi_product_unit *unit = mcpi_product_unit_of((mcp_product)tr.product);
  if ((st = mcpi_json_kind_keys(d, path, t, trade_keys, v->masks, NKEYS, "product",
                                v->products, tr.product)) ||
      (st = mcpi_json_enum(d, path, t, "type", !is(&tr, MCPI_PT_NO_TYPE), types, &tr.type)) ||
      (st = multi_asset(&tr, t) ? read_assets(d, path, t, &tr)
                                : mcpi_json_string(d, path, t, "underlying", MCPI_REQUIRED,
                                                   mcpi_check_name, &tr.underlying)) ||
      (st = mcpi_json_enum(d, path, t, "strike_kind", MCPI_OPTIONAL, strike_kinds,
                           &tr.strike_kind)) ||
      (st = read_strike(d, path, t, &tr)) ||
      (st = mcpi_json_enum(d, path, t, "monitoring", MCPI_OPTIONAL, monitorings,
                           &tr.monitoring)) ||
      (st = mcpi_json_time(d, path, t, "maturity", !has_schedule(&tr), mcpi_check_maturity,
                           &tr.maturity)) ||
      (st = mcpi_json_number(d, path, t, "quantity", MCPI_OPTIONAL, mcpi_check_quantity,
                             &tr.quantity)) ||
      (st = check_naming(d, path, t, &tr)) ||
      (has_schedule(&tr) && (st = read_fixings(d, path, t, &tr))) ||
      (st = read_history(d, path, t, &tr)) ||
      (unit->read && (st = unit->read(d, path, t, &tr))) ||
      (st = read_methods(d, path, t, &tr.methods)) ||
      (st = mcpi_json_enum(d, path, t, "method", MCPI_OPTIONAL, engines, &tr.engine)))
    goto done;
  mcp_trade_init(&api);
  api.id = tr.id;
  api.product = (mcp_product)tr.product;
  api.type = (mcp_option_type)tr.type;
  api.strike = tr.strike;
  api.maturity = tr.maturity;
  api.quantity = tr.quantity;
  api.underlying = tr.underlying;
  api.nassets = tr.nassets;
  api.assets = tr.nassets ? tr.assets : NULL;
  api.weights = tr.has_weights ? tr.weights : NULL;
  api.nfixings = tr.nfix;
  api.fixings = tr.fix;
  api.average = (mcp_average)tr.average;
  api.strike_kind = (mcp_strike_kind)tr.strike_kind;
  api.digital = (mcp_digital)tr.digital;
  api.cash = tr.cash;
  api.barrier_kind = (mcp_barrier_kind)tr.barrier_kind;
  api.barrier = tr.barrier;
  api.rebate = tr.rebate;
  api.monitoring = (mcp_monitoring)tr.monitoring;
  api.methods = tr.methods;
  api.engine = (mcp_engine)tr.engine;
  api.notional = tr.notional;
  api.best = (size_t)tr.best;
  api.local_floor = tr.local_floor;
  api.local_cap = tr.local_cap;
  api.global_floor = tr.global_floor;
  api.global_cap = tr.global_cap;
  api.window = (size_t)tr.window;
  api.exercises = (size_t)tr.exercises;
  api.payoff = (mcp_product)tr.payoff;
  api.initial_fixings = tr.has_initial ? tr.initial : NULL;
  api.autocall_levels = tr.autocall_levels;
  api.autocall_level = tr.autocall_levels ? HUGE_VAL : tr.autocall_level;
  api.coupon = tr.coupon;
  api.coupon_barrier = tr.coupon_barrier;
  api.memory = tr.memory;
  api.knock_in = tr.knock_in;
  api.npast = tr.npast;
  api.past_fixings = tr.past;
  api.knocked = tr.knocked;
  api.extremum = tr.extremum;
  if ((st = mcp_portfolio_add_trade(pf, &api)) != MCP_OK)
    st = mcpi_json_fail(d, path, 0, st, "%s", mcp_portfolio_last_error(pf));
done:
  free(tr.fix);
  free(tr.past);
  free(tr.autocall_levels);
  return st;
}

/* Where trade i was read (mcp_portfolio_trade_source). */
static void record_source(size_t i, const mcpi_json_pos *pos, void *target)
{
  mcp_portfolio *pf = target;
  if (i < pf->n) {
    pf->t[i].line = pos->line;
    pf->t[i].column = pos->column;
  }
}

/* What fill_portfolio fills, the market's dates its times may give, and
 * the run object's options where they are read from the same parse. */
typedef struct loading {
  mcp_portfolio *pf;
  const mcpi_dates *dates;
  mcp_run_options *options; /* or NULL */
} loading;

static mcp_status fill_portfolio(const mcpi_json_doc *file, void *target)
{
  const mcpi_json_path list_path = {NULL, "trades", 0};
  const loading *in = target;
  mcpi_json_doc dated = *file;
  const mcpi_json_doc *d = &dated;
  json_t *list, *t;
  size_t i;
  mcp_status st;
  vocabulary v;
  dated.dates = in->dates;
  target = in->pf;
  make_vocabulary(&v);
  if ((st = mcpi_json_object(d, NULL, d->root, "a portfolio object", top_keys,
                             MCPI_COUNT(top_keys))) ||
      (st = read_run(d, target)) ||
      (st = mcpi_json_array(d, NULL, d->root, "trades", MCPI_REQUIRED, 1,
                            "a non-empty array of trades", &list)))
    return st;
  json_array_foreach(list, i, t)
    if ((st = read_trade(d, &(mcpi_json_path){&list_path, NULL, i}, t, &v, target)))
      return st;
  mcpi_json_elements(d->text, d->len, &list_path, record_source, target);
  for (i = 0; d->rows && i < d->nrows && i < in->pf->n; i++) { /* a CSV book: its rows */
    in->pf->t[i].line = (int)d->rows[i];
    in->pf->t[i].column = 1;
  }
  return in->options ? mcpi_run_options_fill(file, in->options) : MCP_OK;
}

/* The book of path (or of text) into *portfolio and, where options is not
 * NULL, its run object's options into *options, in one parse. */
static mcp_status load(const char *fn, mcp_portfolio **portfolio, mcp_run_options **options,
                       const mcp_market *market, const char *path, const char *text, size_t len,
                       char *err, size_t errlen)
{
  if (options)
    *options = NULL;
  if (!portfolio)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: portfolio is NULL", fn);
  mcp_status st = mcp_portfolio_create(portfolio);
  if (st == MCP_OK && options)
    st = mcp_run_options_create(options);
  loading in = {*portfolio, market ? market->dates : NULL, options ? *options : NULL};
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_last_error());
  else
    st = mcpi_json_load_book(path, text, len, err, errlen, fill_portfolio, &in);
  if (st != MCP_OK) {
    mcp_portfolio_destroy(*portfolio);
    *portfolio = NULL;
    if (options) {
      mcp_run_options_destroy(*options);
      *options = NULL;
    }
  }
  return st;
}

mcp_status mcp_portfolio_load(mcp_portfolio **portfolio, const char *path, char *err, size_t errlen)
{
  return load(__func__, portfolio, NULL, NULL, path, NULL, 0, err, errlen);
}

mcp_status mcp_portfolio_load_text(mcp_portfolio **portfolio, const char *name, const char *text,
                                   size_t len, char *err, size_t errlen)
{
  return load(__func__, portfolio, NULL, NULL, name, text ? text : "", text ? len : 0, err,
              errlen);
}

mcp_status mcp_portfolio_load_for(mcp_portfolio **portfolio, const mcp_market *market,
                                  const char *path, char *err, size_t errlen)
{
  return load(__func__, portfolio, NULL, market, path, NULL, 0, err, errlen);
}

mcp_status mcp_portfolio_load_text_for(mcp_portfolio **portfolio, const mcp_market *market,
                                       const char *name, const char *text, size_t len,
                                       char *err, size_t errlen)
{
  return load(__func__, portfolio, NULL, market, name, text ? text : "", text ? len : 0, err,
              errlen);
}

mcp_status mcp_portfolio_load_with_options(mcp_portfolio **portfolio, mcp_run_options **options,
                                           const mcp_market *market, const char *path,
                                           char *err, size_t errlen)
{
  if (!options)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: options is NULL", __func__);
  return load(__func__, portfolio, options, market, path, NULL, 0, err, errlen);
}

mcp_status mcp_portfolio_load_text_with_options(mcp_portfolio **portfolio,
                                                mcp_run_options **options,
                                                const mcp_market *market, const char *name,
                                                const char *text, size_t len, char *err,
                                                size_t errlen)
{
  if (!options)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: options is NULL", __func__);
  return load(__func__, portfolio, options, market, name, text ? text : "", text ? len : 0, err,
              errlen);
}
