/* load_portfolio.c: reading a portfolio file (doc/input-schema.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "load_json.h"
#include "prefetch.h"
#include "portfolio.h"
#include "validate.h"

enum { EUROPEAN, ASIAN };

static const char *const top_keys[] = {"run", "trades"};
static const char *const run_keys[] = {"paths",    "seed",     "steps_per_year",    "grid",
                                       "backend",  "precision", "prefetch", "prefetch_distance",
                                       "padding"};
/* A European takes the first EUROPEAN_KEYS fields: it has no fixings. */
static const char *const trade_keys[] = {"id", "product", "type", "underlying", "strike",
                                         "maturity", "quantity", "average", "fixings"};
#define EUROPEAN_KEYS 7
static const char *const schedule_keys[] = {"first", "last", "count"};

static const mcpi_json_choice products[] = {{"european", EUROPEAN}, {"asian", ASIAN}, {NULL, 0}};
static const mcpi_json_choice types[] = {{"call", MCP_CALL}, {"put", MCP_PUT}, {NULL, 0}};
static const mcpi_json_choice averages[] = {
    {"arithmetic", MCP_ARITHMETIC}, {"geometric", MCP_GEOMETRIC}, {NULL, 0}};
static const mcpi_json_choice backends[] = {
    {"auto", MCP_BACKEND_AUTO}, {"cpu", MCP_BACKEND_CPU}, {"cuda", MCP_BACKEND_CUDA}, {NULL, 0}};

static const mcpi_json_choice precisions[] = {
    {"double", MCP_DOUBLE}, {"float", MCP_FLOAT}, {NULL, 0}};
static const mcpi_json_choice strategies[] = {{"none", MCP_PREFETCH_NONE},
                                              {"unroll", MCP_PREFETCH_UNROLL},
                                              {"scalar-batch", MCP_PREFETCH_SCALAR_BATCH},
                                              {"smem-batch", MCP_PREFETCH_SMEM_BATCH},
                                              {"scalar-rolling", MCP_PREFETCH_SCALAR_ROLLING},
                                              {"smem-rolling", MCP_PREFETCH_SMEM_ROLLING},
                                              {"smem-async", MCP_PREFETCH_SMEM_ASYNC},
                                              {NULL, 0}};

static const char *check_distance(uint64_t d)
{
  return d <= 16 && mcpi_prefetch_distance_index((int)d) >= 0
             ? NULL
             : "one of " MCPI_PREFETCH_DISTANCES_TEXT;
}

static const char *check_padding(uint64_t p)
{
  return p <= MCPI_MAX_PADDING ? NULL : "an integer from 0 to 32, or \"interleaved\"";
}

#define FIXINGS_WHAT "an array of times or an object {first, last, count}"

typedef struct trade {
  const char *id, *underlying;
  int product, type, average;
  double strike, maturity, quantity;
  double *fix;
  size_t nfix;
} trade;

/* The JSON reader accepts any non-negative json_int_t. */
static const char *check_seed(uint64_t seed)
{
  return seed <= INT64_MAX ? NULL : "an integer between 0 and 2^63-1";
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
 * it. */
static const char *check_times(int grid, size_t n, const double *t, double maturity,
                               size_t *bad)
{
  const char *why = check_window(grid, n, t, maturity), *w;
  *bad = n;
  for (size_t i = 0; why && i < n; i++) {
    size_t k = i ? 2 : 1;
    if ((w = check_window(grid, k, t + i + 1 - k, maturity))) {
      *bad = i;
      return w;
    }
  }
  return why;
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

static mcp_status read_run(const mcpi_json_doc *d, mcp_portfolio *pf)
{
  const mcpi_json_path path = {NULL, "run", 0}, grid_path = {&path, "grid", 0};
  uint64_t paths = mcp_portfolio_paths(pf), seed = mcp_portfolio_seed(pf), steps = 0;
  int backend = mcp_portfolio_backend(pf), precision = mcp_portfolio_precision(pf);
  mcp_prefetch pre;
  int distance, padding;
  mcp_portfolio_prefetch(pf, &pre, &distance, &padding);
  int strategy = pre;
  uint64_t dist = (uint64_t)distance, pad = padding < 0 ? 0 : (uint64_t)padding;
  json_t *run, *grid, *padv;
  const char *what = "an object of run settings";
  mcp_status st = mcpi_json_member(d, NULL, d->root, "run", MCPI_OPTIONAL, what, &run);
  if (st != MCP_OK || !run)
    return st;
  if ((st = mcpi_json_object(d, &path, run, what, run_keys, MCPI_COUNT(run_keys))) ||
      (st = mcpi_json_uint(d, &path, run, "paths", MCPI_OPTIONAL, mcpi_check_paths, &paths)) ||
      (st = mcpi_json_uint(d, &path, run, "seed", MCPI_OPTIONAL, check_seed, &seed)) ||
      (st = mcpi_json_uint(d, &path, run, "steps_per_year", MCPI_OPTIONAL,
                           mcpi_check_steps_per_year, &steps)) ||
      (st = mcpi_json_enum(d, &path, run, "backend", MCPI_OPTIONAL, backends, &backend)) ||
      (st = mcpi_json_enum(d, &path, run, "precision", MCPI_OPTIONAL, precisions, &precision)) ||
      (st = mcpi_json_enum(d, &path, run, "prefetch", MCPI_OPTIONAL, strategies, &strategy)) ||
      (st = mcpi_json_uint(d, &path, run, "prefetch_distance", MCPI_OPTIONAL, check_distance,
                           &dist)))
    return st;
  /* padding: an integer, or the name of the layout that needs none */
  padv = json_object_get(run, "padding");
  if (padv && json_is_string(padv) && strcmp(json_string_value(padv), "interleaved") == 0)
    padding = MCP_PADDING_INTERLEAVED;
  else if ((st = mcpi_json_uint(d, &path, run, "padding", MCPI_OPTIONAL, check_padding, &pad)))
    return st;
  else if (padv)
    padding = (int)pad;
  if ((st = mcpi_json_array(d, &path, run, "grid", MCPI_OPTIONAL, 0, "an array of times",
                            &grid)))
    return st;
  if ((st = mcp_portfolio_set_paths(pf, paths)) || (st = mcp_portfolio_set_seed(pf, seed)) ||
      (st = mcp_portfolio_set_steps_per_year(pf, (unsigned)steps)) ||
      (st = mcp_portfolio_set_backend(pf, (mcp_backend)backend)) ||
      (st = mcp_portfolio_set_precision(pf, (mcp_precision)precision)) ||
      (st = mcp_portfolio_set_prefetch(pf, (mcp_prefetch)strategy, (int)dist, padding)))
    return mcpi_json_fail(d, &path, 0, st, "%s", mcp_portfolio_last_error(pf));
  return grid ? read_grid(d, &grid_path, grid, pf) : MCP_OK;
}

/* {first, last, count}: count times evenly spaced from first to last. */
static mcp_status read_schedule(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *s,
                                trade *tr)
{
  double first = 0, last = 0;
  uint64_t count = 0;
  mcp_status st;
  /* A fixing time lies in (0, maturity], so within a maturity's bounds. */
  if ((st = mcpi_json_object(d, path, s, FIXINGS_WHAT, schedule_keys,
                             MCPI_COUNT(schedule_keys))) ||
      (st = mcpi_json_number(d, path, s, "first", MCPI_REQUIRED, mcpi_check_maturity, &first)) ||
      (st = mcpi_json_number(d, path, s, "last", MCPI_REQUIRED, mcpi_check_maturity, &last)) ||
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

/* The average and the fixings of an Asian, and its maturity when the file
 * leaves it to default to the last fixing. */
static mcp_status read_asian(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             trade *tr)
{
  const mcpi_json_path fix_path = {path, "fixings", 0};
  int has_maturity = json_object_get(t, "maturity") != NULL;
  json_t *fixings;
  size_t bad;
  const char *why;
  mcp_status st;
  if ((st = mcpi_json_enum(d, path, t, "average", MCPI_REQUIRED, averages, &tr->average)) ||
      (st = mcpi_json_member(d, path, t, "fixings", MCPI_REQUIRED, FIXINGS_WHAT, &fixings)))
    return st;
  if (json_is_array(fixings))
    st = mcpi_json_times(d, &fix_path, fixings, &tr->fix, &tr->nfix);
  else if (json_is_object(fixings))
    st = read_schedule(d, &fix_path, fixings, tr);
  else
    st = mcpi_json_expected(d, &fix_path, FIXINGS_WHAT);
  if (st != MCP_OK)
    return st;
  if (!has_maturity && tr->nfix)
    tr->maturity = tr->fix[tr->nfix - 1];
  why = check_times(0, tr->nfix, tr->fix, tr->maturity, &bad);
  /* A defaulted maturity is the last fixing: report it there. */
  if (!why && !has_maturity && (why = mcpi_check_maturity(tr->maturity)))
    bad = tr->nfix - 1;
  return why ? time_error(d, &fix_path, json_is_object(fixings), bad, tr->nfix, why) : MCP_OK;
}

static mcp_status unique_id(const mcpi_json_doc *d, const mcpi_json_path *path, const char *id,
                            const mcp_portfolio *pf)
{
  for (size_t i = 0; i < mcp_portfolio_size(pf); i++)
    if (strcmp(mcp_portfolio_trade_id(pf, i), id) == 0) {
      char what[64];
      snprintf(what, sizeof what, "an id not taken (trades[%zu] has it)", i);
      return mcpi_json_expected(d, &(mcpi_json_path){path, "id", 0}, what);
    }
  return MCP_OK;
}

static mcp_status read_trade(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             mcp_portfolio *pf)
{
  trade tr = {.type = MCP_CALL, .quantity = 1};
  mcp_status st;
  /* All trade fields first, so that a misspelt "product" reads as unknown. */
  if ((st = mcpi_json_object(d, path, t, "a trade object", trade_keys,
                             MCPI_COUNT(trade_keys))) ||
      (st = mcpi_json_string(d, path, t, "id", MCPI_REQUIRED, mcpi_check_name, &tr.id)) ||
      (st = unique_id(d, path, tr.id, pf)) ||
      (st = mcpi_json_enum(d, path, t, "product", MCPI_REQUIRED, products, &tr.product)) ||
      (tr.product == EUROPEAN &&
       (st = mcpi_json_object(d, path, t, "a trade object", trade_keys, EUROPEAN_KEYS))) ||
      (st = mcpi_json_enum(d, path, t, "type", MCPI_REQUIRED, types, &tr.type)) ||
      (st = mcpi_json_string(d, path, t, "underlying", MCPI_REQUIRED, mcpi_check_name,
                             &tr.underlying)) ||
      (st = mcpi_json_number(d, path, t, "strike", MCPI_REQUIRED, mcpi_check_strike,
                             &tr.strike)) ||
      (st = mcpi_json_number(d, path, t, "maturity", tr.product == EUROPEAN,
                             mcpi_check_maturity, &tr.maturity)) ||
      (st = mcpi_json_number(d, path, t, "quantity", MCPI_OPTIONAL, mcpi_check_quantity,
                             &tr.quantity)) ||
      (tr.product == ASIAN && (st = read_asian(d, path, t, &tr))))
    goto done;
  if (tr.product == EUROPEAN)
    st = mcp_portfolio_add_european(pf, tr.id, tr.underlying, (mcp_option_type)tr.type,
                                    tr.strike, tr.maturity, tr.quantity);
  else
    st = mcp_portfolio_add_asian(pf, tr.id, tr.underlying, (mcp_average)tr.average,
                                 (mcp_option_type)tr.type, tr.strike, tr.nfix, tr.fix,
                                 tr.maturity, tr.quantity);
  if (st != MCP_OK)
    st = mcpi_json_fail(d, path, 0, st, "%s", mcp_portfolio_last_error(pf));
done:
  free(tr.fix);
  return st;
}

static mcp_status fill_portfolio(const mcpi_json_doc *d, void *target)
{
  const mcpi_json_path list_path = {NULL, "trades", 0};
  json_t *list, *t;
  size_t i;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a portfolio object", top_keys,
                             MCPI_COUNT(top_keys))) ||
      (st = read_run(d, target)) ||
      (st = mcpi_json_array(d, NULL, d->root, "trades", MCPI_REQUIRED, 1,
                            "a non-empty array of trades", &list)))
    return st;
  json_array_foreach(list, i, t)
    if ((st = read_trade(d, &(mcpi_json_path){&list_path, NULL, i}, t, target)))
      return st;
  return MCP_OK;
}

mcp_status mcp_portfolio_load(mcp_portfolio **portfolio, const char *path, char *err,
                              size_t errlen)
{
  if (!portfolio)
    return MCP_ERR_ARGUMENT;
  mcp_status st = mcp_portfolio_create(portfolio);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_strerror(st));
  else if ((st = mcpi_json_load(path, err, errlen, fill_portfolio, *portfolio)) != MCP_OK) {
    mcp_portfolio_destroy(*portfolio);
    *portfolio = NULL;
  }
  return st;
}
