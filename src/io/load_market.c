/* load_market.c: reading a market file (doc/input-schema.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/io/load_json.h"
#include "src/inputs/market.h"
#include "src/base/validate.h"

static const char *const market_keys[] = {"rate",     "currency",       "underlyings",
                                          "correlations", "valuation_date", "day_count",
                                          "calendar", "calendars", "discount_curves"};

/* The fields of an underlying, each with the models (bits 1 << mcpi_model)
 * that have it, in the order messages list them. */
enum {
  BS = 1 << MCPI_MODEL_BLACK_SCHOLES,
  HESTON = 1 << MCPI_MODEL_HESTON,
  MERTON = 1 << MCPI_MODEL_MERTON,
  LOCAL = 1 << MCPI_MODEL_LOCAL_VOL,
  ALL = BS | HESTON | MERTON | LOCAL
};
#define UNDERLYING_FIELDS(F)                                                                \
  F("name", ALL) F("model", ALL) F("spot", ALL) F("rate", ALL) F("dividend", ALL)           \
  F("repo", ALL)                                                                            \
  F("volatility", BS | MERTON) F("v0", HESTON) F("kappa", HESTON) F("theta", HESTON)       \
  F("xi", HESTON) F("rho", HESTON) F("lambda", MERTON) F("jump_mean", MERTON)              \
  F("jump_vol", MERTON) F("local_volatility", LOCAL) F("implied_volatility", BS | LOCAL)     \
  F("dividends", BS) F("curves", ALL) F("currency", ALL) F("frtb_bucket", ALL)
#define FIELD_KEY(key, models) key,
#define FIELD_MODELS(key, models) models,
static const char *const underlying_keys[] = {UNDERLYING_FIELDS(FIELD_KEY)};
static const unsigned underlying_models[] = {UNDERLYING_FIELDS(FIELD_MODELS)};
static const mcpi_json_choice models[] = {{"black-scholes", MCPI_MODEL_BLACK_SCHOLES},
                                          {"heston", MCPI_MODEL_HESTON},
                                          {"merton", MCPI_MODEL_MERTON},
                                          {"local-volatility", MCPI_MODEL_LOCAL_VOL},
                                          {NULL, 0}};

/* The curves an underlying may give, in mcp_curve order. */
static const char *const curves_keys[] = {"rate", "dividend", "volatility", "repo"};
static const char *const curve_keys[] = {"end", "value"};
static const char *const correlation_keys[] = {"underlyings", "matrix"};

#define CURVES_WHAT "an object of curves {rate, dividend, volatility, repo}"
#define CURVE_WHAT                                                                         \
  "a curve object {end, value} or {pillars, ...}, or for a rate the name of a discount curve"
#define SURFACE_WHAT "a surface object {times, spots, values}"
static const char *const surface_keys[] = {"times", "spots", "values"};
#define IMPLIED_WHAT "an implied surface {maturities, strikes or moneyness, volatilities}"
static const char *const implied_keys[] = {"maturities", "strikes", "moneyness",
                                           "volatilities"};
#define CORRELATION_WHAT "a correlation object {underlyings, matrix}"
#define CORR_NAMES_WHAT                                                                    \
  "an array of 2 to 32 names of underlyings (NAME:variance: a Heston one's variance)"


/* A curve read from the file, set once its underlying is added. */
typedef mcpi_curve curve;

static void free_curves(curve *c)
{
  for (size_t k = 0; k < MCPI_COUNT(curves_keys); k++)
    mcpi_curve_free(&c[k]);
}

/* A number that the check *arg (a check) accepts. */
typedef struct checked {
  const char *(*check)(double);
} checked;

static const char *checked_elem(const mcpi_json_doc *d, json_t *v, const void *arg, double *x)
{
  const checked *c = arg;
  const char *why = json_is_number(v) ? c->check(json_number_value(v)) : c->check(NAN);
  if (!why)
    *x = json_number_value(v);
  return why;
}

/* Copies the numbers of array, at path, into *out; check judges each. */
static mcp_status read_values(const mcpi_json_doc *d, const mcpi_json_path *path,
                              json_t *array, const char *(*check)(double), double **out)
{
  const checked c = {check};
  size_t n;
  return mcpi_json_array_of(d, path, array, checked_elem, &c, out, &n);
}

/* What a curve given by its pillars reads beside it: the market's named
 * discount curves, and for a dividend curve of forwards the spot and the
 * rate (its curve where it has one, else flat). */
typedef struct named_curve {
  const char *name; /* the document's */
  curve c;
} named_curve;
typedef struct curve_ctx {
  const named_curve *named;
  size_t nnamed;
  double spot, rate;
  const curve *rate_curve;
  int cash; /* the underlying has cash dividends */
  int repo; /* it has a repo rate, flat or a curve */
} curve_ctx;

static const char *const pillar_keys[] = {"pillars",  "discount_factors", "zero_rates",
                                          "yields",   "forwards",         "interpolation"};
#define PILLAR_FIELDS(which)                                                              \
  ((which) == MCP_CURVE_RATE       ? "discount_factors or zero_rates"                       \
   : (which) == MCP_CURVE_DIVIDEND ? "yields or forwards"                                   \
                                   : "yields")

static const char *check_above_zero(double x)
{
  return isfinite(x) && x > 0 ? NULL : "a number > 0";
}

/* A curve's knots, the members tkey and vkey of obj at path: its times
 * into c (a grid: strictly increasing, in (0, 100]; dates where the document
 * has them) and one value for each (per: what a time is, for messages) that
 * check accepts, into *values. */
static mcp_status read_knots(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             const char *tkey, const char *vkey, const char *per,
                             const char *(*check)(double), curve *c, double **values)
{
  const mcpi_json_path t_path = {path, tkey, 0}, v_path = {path, vkey, 0};
  json_t *times, *vals;
  const char *why;
  mcp_status st;
  if ((st = mcpi_json_array(d, path, obj, tkey, MCPI_REQUIRED, 1, "a non-empty array of times",
                            &times)) ||
      (st = mcpi_json_array(d, path, obj, vkey, MCPI_REQUIRED, 1, "a non-empty array of values",
                            &vals)) ||
      (st = mcpi_json_times(d, &t_path, times, &c->end, &c->n)))
    return st;
  /* a time grid: each compared with its predecessor */
  for (size_t i = 0; i < c->n; i++)
    if ((why = mcpi_check_grid(i ? 2 : 1, c->end + i - (i ? 1 : 0))))
      return mcpi_json_expected(d, &(mcpi_json_path){&t_path, NULL, i}, why);
  if (json_array_size(vals) != c->n)
    return mcpi_json_fail(d, &v_path, 0, MCP_ERR_INPUT,
                          "expected %zu values, one for each %s, got %zu", c->n, per,
                          json_array_size(vals));
  return read_values(d, &v_path, vals, check, values);
}

/* The curve c of pillars c->end whose log discount factors are ld (freed
 * here), values at v_path, as zero rates linear between them: each zero
 * rate, and each forward at the ends of its pieces, in [-1, 1]. */
static mcp_status linear_zero(const mcpi_json_doc *d, const mcpi_json_path *v_path, double *ld,
                              curve *c)
{
  const char *why = NULL;
  double x = 0, v0, v1;
  size_t at = 0, n = c->n;
  for (; at < n && !why; at++)
    why = mcpi_check_rate(x = -ld[at] / c->end[at]);
  curve z = {0};
  int oom = !why && mcpi_curve_linear_zero(&z, n, c->end, ld) != MCP_OK;
  free(ld);
  if (why || oom) {
    if (oom)
      return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
    char what[160];
    snprintf(what, sizeof what, "a value whose zero rate is %s (here %g)", why, x);
    return mcpi_json_expected(d, &(mcpi_json_path){v_path, NULL, at - 1}, what);
  }
  mcpi_curve_free(c);
  *c = z;
  for (size_t i = 0; i < z.n; i++) {
    mcpi_curve_piece_ends(&z, i, HUGE_VAL, &v0, &v1);
    if ((why = mcpi_check_rate(x = mcpi_check_rate(v0) ? v0 : v1))) {
      char what[160];
      snprintf(what, sizeof what, "a value whose forward rate towards it is %s (here %g)", why,
               x);
      return mcpi_json_expected(d, &(mcpi_json_path){v_path, NULL, i < n ? i : n - 1}, what);
    }
  }
  return MCP_OK;
}

/* {pillars, VALUES, interpolation} at path: the log discount factors of
 * the values (discount factors, zero rates, dividend yields or forward
 * prices) at the pillars, log-linear between them (the piecewise-constant
 * curve of their forward rates, mcpi_curve_forwards) or their zero rates
 * linear (mcpi_curve_linear_zero). */
static mcp_status read_pillars(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                               int which, const curve_ctx *x, curve *c)
{
  const char *key = NULL, *why;
  json_t *interp;
  double *v = NULL;
  mcp_status st;
  if ((st = mcpi_json_object(d, path, obj, "a curve object", pillar_keys,
                             MCPI_COUNT(pillar_keys))))
    return st;
  for (size_t k = 1; k < 5; k++) {
    const char *kk = pillar_keys[k];
    if (!json_object_get(obj, kk))
      continue;
    int ours = which == MCP_CURVE_RATE ? k < 3 : which == MCP_CURVE_DIVIDEND ? k >= 3 : k == 3;
    if (!ours || key)
      return mcpi_json_fail(d, &(mcpi_json_path){path, kk, 0}, 1, MCP_ERR_INPUT,
                            "expected one of %s, not %s", PILLAR_FIELDS(which),
                            ours ? "both" : "this field");
    key = kk;
  }
  if (!key)
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "missing field: expected %s",
                          PILLAR_FIELDS(which));
  int linear = 0;
  if ((interp = json_object_get(obj, "interpolation")) &&
      !(json_is_string(interp) &&
        (strcmp(json_string_value(interp), "log-linear") == 0 ||
         (linear = strcmp(json_string_value(interp), "linear-zero") == 0))))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "interpolation", 0},
                              "log-linear (on the discount factors: constant forward rates "
                              "between pillars) or linear-zero (zero rates linear in time)");
  const mcpi_json_path v_path = {path, key, 0};
  int df = strcmp(key, "discount_factors") == 0, fwd = strcmp(key, "forwards") == 0;
  if (fwd && (x->cash || x->repo))
    return mcpi_json_fail(d, &v_path, 1, MCP_ERR_INPUT,
                          "forwards give the yield that makes them: with %s, give yields",
                          x->cash ? "cash dividends" : "a repo rate (which they include)");
  if ((st = read_knots(d, path, obj, "pillars", key, "pillar",
                        df || fwd ? check_above_zero : mcpi_check_rate, c, &v)))
    return st;
  mcpi_curve rate = x->rate_curve && x->rate_curve->n
                        ? *x->rate_curve
                        : (mcpi_curve){1, (double *)&x->rate, (double *)&x->rate, NULL};
  for (size_t i = 0; i < c->n; i++) /* each value's log discount factor, in place */
    v[i] = df ? log(v[i])
           : fwd ? log(v[i] / x->spot) - mcpi_curve_integral(&rate, 0, c->end[i])
                 : -v[i] * c->end[i];
  if (linear)
    return linear_zero(d, &v_path, v, c);
  if (!(c->value = malloc(c->n * sizeof *c->value))) {
    free(v);
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  }
  mcpi_curve_forwards(c->n, c->end, v, c->value);
  free(v);
  for (size_t i = 0; i < c->n; i++)
    if ((why = mcpi_check_rate(c->value[i]))) {
      char what[160];
      snprintf(what, sizeof what, "a value whose forward rate from the pillar before is %s "
               "(here %g)", why, c->value[i]);
      return mcpi_json_expected(d, &(mcpi_json_path){&v_path, NULL, i}, what);
    }
  return MCP_OK;
}

/* One curve at path, which its mcp_curve: {end, value}; {pillars, ...}
 * (read_pillars); or, for a rate, the name of one of the market's discount
 * curves, copied. */
static mcp_status read_curve(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             int which, const curve_ctx *x, curve *c)
{
  mcp_status st;
  if (which == MCP_CURVE_RATE && json_is_string(obj)) {
    for (size_t k = 0; k < x->nnamed; k++)
      if (strcmp(x->named[k].name, json_string_value(obj)) == 0) {
        if (!mcpi_curve_copy(c, &x->named[k].c))
          return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
        return MCP_OK;
      }
    return mcpi_json_expected(d, path, "the name of one of the market's discount_curves");
  }
  if (which != MCP_CURVE_VOLATILITY && json_is_object(obj) && json_object_get(obj, "pillars"))
    return read_pillars(d, path, obj, which, x, c);
  if ((st = mcpi_json_object(d, path, obj, CURVE_WHAT, curve_keys, MCPI_COUNT(curve_keys))))
    return st;
  return read_knots(d, path, obj, "end", "value", "end",
                    which == MCP_CURVE_VOLATILITY ? mcpi_check_volatility : mcpi_check_rate, c,
                    &c->value);
}

static mcp_status read_curves(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                              curve_ctx *x, curve *c)
{
  const mcpi_json_path curves_path = {path, "curves", 0};
  json_t *curves, *one;
  mcp_status st;
  if ((st = mcpi_json_member(d, path, obj, "curves", MCPI_OPTIONAL, CURVES_WHAT, &curves)) ||
      !curves)
    return st;
  if ((st = mcpi_json_object(d, &curves_path, curves, CURVES_WHAT, curves_keys,
                             MCPI_COUNT(curves_keys))))
    return st;
  x->rate_curve = &c[MCP_CURVE_RATE]; /* read first: a dividend's forwards need it */
  for (size_t k = 0; k < MCPI_COUNT(curves_keys); k++)
    if ((one = json_object_get(curves, curves_keys[k])) &&
        (st = read_curve(d, &(mcpi_json_path){&curves_path, curves_keys[k], 0}, one, (int)k, x,
                         &c[k])))
      return st;
  return MCP_OK;
}

/* A local-volatility surface {times, spots, values} at path: values one row
 * of len(spots) numbers a time; the library checks the axes' order. */
typedef struct surface {
  double *times, *spots, *values;
  size_t nt, ns;
} surface;

static mcp_status read_surface(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                               surface *s)
{
  const mcpi_json_path at = {path, "local_volatility", 0};
  const mcpi_json_path times_path = {&at, "times", 0}, spots_path = {&at, "spots", 0};
  const mcpi_json_path values_path = {&at, "values", 0};
  json_t *surf, *times, *spots, *values, *row;
  mcp_status st;
  size_t i;
  if ((st = mcpi_json_member(d, path, obj, "local_volatility", MCPI_REQUIRED, SURFACE_WHAT,
                             &surf)) ||
      (st = mcpi_json_object(d, &at, surf, SURFACE_WHAT, surface_keys,
                             MCPI_COUNT(surface_keys))) ||
      (st = mcpi_json_array(d, &at, surf, "times", MCPI_REQUIRED, 1,
                            "a non-empty array of times", &times)) ||
      (st = mcpi_json_array(d, &at, surf, "spots", MCPI_REQUIRED, 1,
                            "a non-empty array of spots", &spots)) ||
      (st = mcpi_json_array(d, &at, surf, "values", MCPI_REQUIRED, 1,
                            "an array of rows, one for each time", &values)) ||
      (st = mcpi_json_numbers(d, &times_path, times, "times", &s->times, &s->nt)) ||
      (st = mcpi_json_numbers(d, &spots_path, spots, "spots", &s->spots, &s->ns)))
    return st;
  if (json_array_size(values) != s->nt)
    return mcpi_json_fail(d, &values_path, 0, MCP_ERR_INPUT,
                          "expected %zu rows, one for each time, got %zu", s->nt,
                          json_array_size(values));
  if (s->nt > MCPI_MAX_SURFACE || s->ns > MCPI_MAX_SURFACE)
    return mcpi_json_fail(d, &at, 0, MCP_ERR_INPUT,
                          "expected at most %d times and %d spots, got %zu and %zu",
                          MCPI_MAX_SURFACE, MCPI_MAX_SURFACE, s->nt, s->ns);
  if (!(s->values = malloc(s->nt * s->ns * sizeof(double))))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_array_foreach(values, i, row) {
    const mcpi_json_path row_path = {&values_path, NULL, i};
    double *x;
    if (json_array_size(row) != s->ns)
      return mcpi_json_fail(d, &row_path, 0, MCP_ERR_INPUT,
                            "expected a row of %zu values, one for each spot", s->ns);
    if ((st = read_values(d, &row_path, row, mcpi_check_volatility, &x)))
      return st;
    memcpy(s->values + i * s->ns, x, s->ns * sizeof(double));
    free(x);
  }
  return MCP_OK;
}

/* Cash dividends [{time, amount}, ...] at path (the library checks the
 * times' order and the amounts). */
static const char *const cash_keys[] = {"time", "amount"};
#define CASH_WHAT "a dividend object {time, amount}"

static mcp_status read_cash(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            curve *c)
{
  const mcpi_json_path at = {path, "dividends", 0};
  json_t *list, *one;
  size_t i;
  mcp_status st;
  if ((st = mcpi_json_array(d, path, obj, "dividends", MCPI_OPTIONAL, 0,
                            "an array of dividend objects {time, amount}", &list)) ||
      !list)
    return st;
  size_t n = json_array_size(list);
  c->end = malloc((n ? n : 1) * sizeof(double));
  c->value = malloc((n ? n : 1) * sizeof(double));
  if (!c->end || !c->value)
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_array_foreach(list, i, one) {
    const mcpi_json_path item = {&at, NULL, i};
    if ((st = mcpi_json_object(d, &item, one, CASH_WHAT, cash_keys, MCPI_COUNT(cash_keys))) ||
        (st = mcpi_json_time(d, &item, one, "time", MCPI_REQUIRED, mcpi_check_maturity,
                             &c->end[i])) ||
        (st = mcpi_json_number(d, &item, one, "amount", MCPI_REQUIRED, mcpi_check_cash,
                               &c->value[i])))
      return st;
    if (i && c->end[i] <= c->end[i - 1])
      return mcpi_json_expected(d, &(mcpi_json_path){&item, "time", 0},
                                "a time after the previous dividend's");
  }
  c->n = n;
  return MCP_OK;
}

/* Whether the underlying u gives curves.KEY. */
static int has_curve(json_t *u, const char *key)
{
  json_t *curves = json_object_get(u, "curves");
  return json_is_object(curves) && json_object_get(curves, key);
}

/* The flat value key of u, required unless a curve or a default stands in;
 * a flat value and a curve for one field are an error. */
static mcp_status read_flat(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *u,
                            const char *key, int required, const char *(*check)(double),
                            double *out)
{
  int curve = has_curve(u, key);
  if (curve && json_object_get(u, key))
    return mcpi_json_fail(d, &(mcpi_json_path){path, key, 0}, 1, MCP_ERR_INPUT,
                          "expected either a flat %s or curves.%s, not both", key, key);
  return mcpi_json_number(d, path, u, key, required && !curve, check, out);
}

/* rate is the file's default rate; rate_required says that it has none. */
static mcp_status read_underlying(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *u,
                                  int rate_required, double rate, const char *currency,
                                  const named_curve *named, size_t nnamed, mcp_market *m)
{
  const char *name = NULL;
  uint64_t bucket = 0;
  int model = MCPI_MODEL_BLACK_SCHOLES;
  double spot = 0, dividend = 0, repo = 0, volatility = 0;
  double v0 = 0, kappa = 0, theta = 0, xi = 0, rho = 0, lambda = 0, jump_mean = 0,
         jump_vol = 0;
  curve curves[MCPI_COUNT(curves_keys)] = {{0}};
  surface lv = {0};
  mcp_quotes quotes = {0};
  curve cash = {0};
  const mcpi_json_path curves_path = {path, "curves", 0};
  const mcpi_underlying *same;
  mcp_status st;
  json_t *implied = json_object_get(u, "implied_volatility");
  const mcpi_json_path ipath = {path, "implied_volatility", 0};
  /* All fields first, so that a misspelt "model" reads as unknown. */
  if ((st = mcpi_json_object(d, path, u, "an underlying object", underlying_keys,
                             MCPI_COUNT(underlying_keys))) ||
      (st = mcpi_json_string(d, path, u, "name", MCPI_REQUIRED, mcpi_check_name, &name)) ||
      (st = mcpi_json_enum(d, path, u, "model", MCPI_OPTIONAL, models, &model)) ||
      (st = mcpi_json_kind_keys(d, path, u, underlying_keys, underlying_models,
                      MCPI_COUNT(underlying_keys), "model", models, model)) ||
      (st = mcpi_json_number(d, path, u, "spot", MCPI_REQUIRED, mcpi_check_spot, &spot)) ||
      (st = read_flat(d, path, u, "rate", rate_required, mcpi_check_rate, &rate)) ||
      (st = read_flat(d, path, u, "dividend", MCPI_OPTIONAL, mcpi_check_rate, &dividend)) ||
      (st = read_flat(d, path, u, "repo", MCPI_OPTIONAL, mcpi_check_rate, &repo)) ||
      (st = mcpi_json_string(d, path, u, "currency", MCPI_OPTIONAL, mcpi_check_currency,
                             &currency)) ||
      (st = mcpi_json_uint(d, path, u, "frtb_bucket", MCPI_OPTIONAL, mcpi_check_frtb_bucket,
                           &bucket)))
    return st;
  if (model == MCPI_MODEL_HESTON) {
    if ((st = mcpi_json_number(d, path, u, "v0", MCPI_REQUIRED, mcpi_check_variance, &v0)) ||
        (st = mcpi_json_number(d, path, u, "kappa", MCPI_REQUIRED, mcpi_check_positive,
                               &kappa)) ||
        (st = mcpi_json_number(d, path, u, "theta", MCPI_REQUIRED, mcpi_check_positive,
                               &theta)) ||
        (st = mcpi_json_number(d, path, u, "xi", MCPI_REQUIRED, mcpi_check_positive, &xi)) ||
        (st = mcpi_json_number(d, path, u, "rho", MCPI_REQUIRED, mcpi_check_correlation,
                               &rho)))
      return st;
  } else if (model != MCPI_MODEL_LOCAL_VOL &&
             (st = read_flat(d, path, u, "volatility", !implied, mcpi_check_volatility,
                             &volatility))) {
    return st;
  }
  if (implied && (json_object_get(u, "volatility") || has_curve(u, "volatility") ||
                  json_object_get(u, "local_volatility")))
    return mcpi_json_fail(d, &(mcpi_json_path){path, "implied_volatility", 0}, 1,
                          MCP_ERR_INPUT, "expected either implied_volatility or %s, not both",
                          model == MCPI_MODEL_LOCAL_VOL ? "local_volatility" : "a volatility");
  if (model == MCPI_MODEL_MERTON &&
      ((st = mcpi_json_number(d, path, u, "lambda", MCPI_REQUIRED, mcpi_check_intensity,
                              &lambda)) ||
       (st = mcpi_json_number(d, path, u, "jump_mean", MCPI_REQUIRED, mcpi_check_jump_mean,
                              &jump_mean)) ||
       (st = mcpi_json_number(d, path, u, "jump_vol", MCPI_REQUIRED, mcpi_check_volatility,
                              &jump_vol))))
    return st;
  if ((same = mcpi_market_find(m, name))) {
    char what[64];
    snprintf(what, sizeof what, "a name not taken (underlyings[%zu] has it)",
             (size_t)(same - m->u));
    return mcpi_json_expected(d, &(mcpi_json_path){path, "name", 0}, what);
  }
  curve_ctx x = {named, nnamed, spot, rate, NULL,
                 json_array_size(json_object_get(u, "dividends")) > 0,
                 json_object_get(u, "repo") || has_curve(u, "repo")};
  if ((st = read_curves(d, path, u, &x, curves)) != MCP_OK ||
      (model == MCPI_MODEL_BLACK_SCHOLES && (st = read_cash(d, path, u, &cash)) != MCP_OK) ||
      (model == MCPI_MODEL_LOCAL_VOL && !implied &&
       (st = read_surface(d, path, u, &lv)) != MCP_OK) ||
      (implied && ((st = mcpi_json_object(d, &ipath, implied, IMPLIED_WHAT, implied_keys,
                                          MCPI_COUNT(implied_keys))) ||
                   (st = mcpi_json_surface(d, &ipath, implied, spot, &quotes)))))
    goto done;
  switch (implied ? MCPI_MODEL_BLACK_SCHOLES : model) { /* the surface comes once curves do */
  case MCPI_MODEL_LOCAL_VOL:
    st = mcp_market_add_local_vol(m, name, spot, rate, dividend, lv.nt, lv.times, lv.ns,
                                  lv.spots, lv.values);
    break;
  case MCPI_MODEL_HESTON:
    st = mcp_market_add_heston(m, name, spot, rate, dividend, v0, kappa, theta, xi, rho);
    break;
  case MCPI_MODEL_MERTON:
    st = mcp_market_add_merton(m, name, spot, rate, dividend, volatility, lambda, jump_mean,
                               jump_vol);
    break;
  default:
    st = mcp_market_add_black_scholes(m, name, spot, rate, dividend, volatility);
  }
  if (st != MCP_OK) {
    st = mcpi_json_fail(d, path, 0, st, "%s", mcp_market_last_error(m));
    goto done;
  }
  if ((currency || bucket) &&
      (st = mcp_market_set_classification(m, name, currency, (int)bucket)) != MCP_OK) {
    st = mcpi_json_fail(d, path, 0, st, "%s", mcp_market_last_error(m));
    goto done;
  }
  if (cash.n && (st = mcp_market_set_cash_dividends(m, name, cash.n, cash.end, cash.value)))
    st = mcpi_json_fail(d, &(mcpi_json_path){path, "dividends", 0}, 0, st, "%s",
                        mcp_market_last_error(m));
  /* The library's checks of a curve the reader let through (a Heston
   * volatility curve) are reported at the curve. */
  for (size_t k = 0; k < MCPI_COUNT(curves_keys) && st == MCP_OK; k++)
    if (curves[k].n &&
        (st = mcpi_market_set_curve_sloped(m, name, (mcp_curve)k, curves[k].n, curves[k].end,
                                           curves[k].value, curves[k].slope)))
      st = mcpi_json_fail(d, &(mcpi_json_path){&curves_path, curves_keys[k], 0}, 0, st, "%s",
                          mcp_market_last_error(m));
  if (st == MCP_OK && repo != 0 &&
      (st = mcp_market_set_curve(m, name, MCP_CURVE_REPO, 1, (double[]){1}, &repo)))
    st = mcpi_json_fail(d, &(mcpi_json_path){path, "repo", 0}, 0, st, "%s",
                        mcp_market_last_error(m));
  if (st == MCP_OK && implied && (st = mcp_market_set_implied_volatility(m, name, &quotes)))
    st = mcpi_json_fail(d, &ipath, 0, st, "%s", mcp_market_last_error(m));
done:
  mcp_quotes_free(&quotes);
  free_curves(curves);
  free(cash.end);
  free(cash.value);
  free(lv.times);
  free(lv.spots);
  free(lv.values);
  return st;
}

/* The underlyings of a correlation block, at path: n names of the
 * Brownian motions of the file's underlyings (mcpi_market_bm: Black-Scholes
 * and Heston spots, NAME:variance of a Heston one), none twice. */
static mcp_status read_correlated(const mcpi_json_doc *d, const mcpi_json_path *path,
                                  json_t *list, const mcp_market *m, const char **names)
{
  size_t i;
  json_t *v;
  const char *why;
  if (json_array_size(list) > MCPI_MAX_BMS)
    return mcpi_json_expected(d, path, CORR_NAMES_WHAT);
  json_array_foreach(list, i, v) {
    const mcpi_json_path at = {path, NULL, i};
    size_t bm;
    int found;
    /* a name the market resolves is well formed (its underlying's was
     * checked when added); else the name's own fault first */
    names[i] = json_is_string(v) ? json_string_value(v) : NULL;
    if (!names[i] || (why = mcpi_market_bm(m, names[i], &bm, &found))) {
      const char *bad = mcpi_check_name(names[i]);
      return mcpi_json_expected(d, &at, bad ? bad : why);
    }
    for (size_t k = 0; k < i; k++)
      if (strcmp(names[k], names[i]) == 0) {
        char what[96];
        snprintf(what, sizeof what, "a name not listed before (underlyings[%zu] has it)", k);
        return mcpi_json_expected(d, &at, what);
      }
  }
  return MCP_OK;
}

/* The n x n matrix at path, row arrays, into c (row-major): a unit
 * diagonal, correlations in [-1, 1], symmetric. */
static mcp_status read_matrix(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *rows,
                              size_t n, double *c)
{
  char what[64];
  size_t r, k;
  json_t *row, *v;
  snprintf(what, sizeof what, "an array of %zu rows, one for each underlying", n);
  if (!json_is_array(rows))
    return mcpi_json_expected(d, path, what);
  if (json_array_size(rows) != n)
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "expected %s, got %zu", what,
                          json_array_size(rows));
  snprintf(what, sizeof what, "a row of %zu numbers, one for each underlying", n);
  json_array_foreach(rows, r, row) {
    const mcpi_json_path row_path = {path, NULL, r};
    if (!json_is_array(row))
      return mcpi_json_expected(d, &row_path, what);
    if (json_array_size(row) != n)
      return mcpi_json_fail(d, &row_path, 0, MCP_ERR_INPUT, "expected %s, got %zu", what,
                            json_array_size(row));
    json_array_foreach(row, k, v) {
      const mcpi_json_path at = {&row_path, NULL, k};
      double x = json_number_value(v);
      if (r == k ? !json_is_number(v) || x != 1
                 : !json_is_number(v) || mcpi_check_correlation(x))
        return mcpi_json_expected(d, &at, r == k ? "1 on the diagonal"
                                                 : "a correlation between -1 and 1");
      if (k < r && x != c[k * n + r]) {
        char sym[96];
        snprintf(sym, sizeof sym, "the value at [%zu][%zu] (a symmetric matrix)", k, r);
        return mcpi_json_expected(d, &at, sym);
      }
      c[r * n + k] = x;
    }
  }
  return MCP_OK;
}

static mcp_status read_correlation(const mcpi_json_doc *d, const mcpi_json_path *path,
                                   json_t *obj, mcp_market *m)
{
  const mcpi_json_path names_path = {path, "underlyings", 0}, matrix_path = {path, "matrix", 0};
  const char *names[MCPI_MAX_BMS];
  double c[MCPI_MAX_BMS * MCPI_MAX_BMS];
  json_t *list, *rows;
  mcp_status st;
  if ((st = mcpi_json_object(d, path, obj, CORRELATION_WHAT, correlation_keys,
                             MCPI_COUNT(correlation_keys))) ||
      (st = mcpi_json_array(d, path, obj, "underlyings", MCPI_REQUIRED, 2, CORR_NAMES_WHAT,
                            &list)) ||
      (st = read_correlated(d, &names_path, list, m, names)) ||
      (st = mcpi_json_member(d, path, obj, "matrix", MCPI_REQUIRED,
                             "an array of rows, one for each underlying", &rows)) ||
      (st = read_matrix(d, &matrix_path, rows, json_array_size(list), c)))
    return st;
  /* What is left to the library: positive definiteness. */
  if ((st = mcp_market_set_correlation(m, json_array_size(list), names, c))) {
    const char *msg = mcp_market_last_error(m);
    if (strncmp(msg, "correlation: ", 13) == 0)
      msg += 13;
    return mcpi_json_fail(d, &matrix_path, 0, st, "%s", msg);
  }
  return MCP_OK;
}

/* ---- dates: the valuation date, the day count, the calendars ------------ */

static const char *const date_keys[] = {"day_count", "calendar", "calendars"};
static const char *const calendar_keys[] = {"holidays", "weekend"};
static const char *const weekdays[7] = {"monday", "tuesday",  "wednesday", "thursday",
                                        "friday", "saturday", "sunday"};
#define CALENDAR_WHAT "a calendar object {holidays, weekend}"
#define CALENDARS_WHAT "an object of calendars by name"
#define HOLIDAYS_WHAT "an array of dates YYYY-MM-DD"
#define WEEKEND_WHAT "an array of weekdays (monday to sunday), not all seven"

/* Calendar name, the object c at path, into *out (its name first, so that
 * a failure frees what it holds). */
static mcp_status read_calendar(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *c,
                                const char *name, mcpi_calendar *out)
{
  const mcpi_json_path hol_path = {path, "holidays", 0}, wk_path = {path, "weekend", 0};
  json_t *hol, *wk, *v;
  size_t i;
  const char *why;
  mcp_status st;
  if ((why = mcpi_check_name(name)))
    return mcpi_json_fail(d, path, 1, MCP_ERR_INPUT, "expected a calendar's name: %s", why);
  if (!(out->name = strdup(name)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  if ((st = mcpi_json_object(d, path, c, CALENDAR_WHAT, calendar_keys,
                             MCPI_COUNT(calendar_keys))) ||
      (st = mcpi_json_array(d, path, c, "holidays", MCPI_OPTIONAL, 0, HOLIDAYS_WHAT, &hol)) ||
      (st = mcpi_json_array(d, path, c, "weekend", MCPI_OPTIONAL, 0, WEEKEND_WHAT, &wk)))
    return st;
  out->weekend = wk ? 0 : MCPI_WEEKEND_SAT_SUN;
  json_array_foreach(wk, i, v) {
    int k = 0;
    while (k < 7 && !(json_is_string(v) && strcmp(json_string_value(v), weekdays[k]) == 0))
      k++;
    if (k == 7 || out->weekend >> k & 1u)
      return mcpi_json_expected(d, &(mcpi_json_path){&wk_path, NULL, i},
                                k == 7 ? "a weekday, monday to sunday"
                                       : "a weekday not listed before");
    out->weekend |= 1u << k;
  }
  if (out->weekend == 0x7fu)
    return mcpi_json_expected(d, &wk_path, WEEKEND_WHAT);
  size_t n = json_array_size(hol);
  if (n > MCPI_MAX_HOLIDAYS)
    return mcpi_json_fail(d, &hol_path, 0, MCP_ERR_INPUT, "expected at most %d holidays, got %zu",
                          MCPI_MAX_HOLIDAYS, n);
  if (!(out->holiday = malloc((n ? n : 1) * sizeof *out->holiday)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_array_foreach(hol, i, v) {
    if ((why = mcpi_check_date(json_is_string(v) ? json_string_value(v) : NULL)))
      return mcpi_json_expected(d, &(mcpi_json_path){&hol_path, NULL, i}, why);
    mcpi_date_parse(json_string_value(v), &out->holiday[i]);
    out->nholiday = i + 1;
  }
  mcpi_calendar_sort(out);
  return MCP_OK;
}

/* The market's dates, where it gives a valuation date (the other fields
 * need one). */
static mcp_status read_dates(const mcpi_json_doc *d, mcp_market *m)
{
  const mcpi_json_path cal_path = {NULL, "calendars", 0};
  const char *date = NULL, *name = NULL, *dc = NULL, *key;
  json_t *cals, *c;
  mcp_status st;
  if (!json_object_get(d->root, "valuation_date")) {
    for (size_t k = 0; k < MCPI_COUNT(date_keys); k++)
      if (json_object_get(d->root, date_keys[k]))
        return mcpi_json_fail(d, &(mcpi_json_path){NULL, date_keys[k], 0}, 1, MCP_ERR_INPUT,
                              "dates need a valuation_date (YYYY-MM-DD) in the market");
    return MCP_OK;
  }
  if ((st = mcpi_json_string(d, NULL, d->root, "valuation_date", MCPI_REQUIRED,
                             mcpi_check_date, &date)) ||
      (st = mcpi_json_string(d, NULL, d->root, "day_count", MCPI_OPTIONAL, mcpi_check_day_count,
                             &dc)) ||
      (st = mcpi_json_member(d, NULL, d->root, "calendars", MCPI_OPTIONAL, CALENDARS_WHAT,
                             &cals)) ||
      (st = mcpi_json_string(d, NULL, d->root, "calendar", MCPI_OPTIONAL, mcpi_check_name,
                             &name)))
    return st;
  if (cals && (!json_is_object(cals) || json_object_size(cals) > MCPI_MAX_CALENDARS))
    return mcpi_json_expected(d, &cal_path, CALENDARS_WHAT " (at most 64)");
  mcpi_dates *x = m->dates = calloc(1, sizeof *m->dates);
  if (!x || (cals && !(x->cal = calloc(json_object_size(cals) ? json_object_size(cals) : 1,
                                       sizeof *x->cal))))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_object_foreach(cals, key, c)
    if ((st = read_calendar(d, &(mcpi_json_path){&cal_path, key, 0}, c, key, &x->cal[x->ncal++])))
      return st;
  mcpi_date_parse(date, &x->basis.valuation);
  x->basis.day_count = dc ? (mcpi_day_count)mcpi_day_count_of(dc) : MCPI_DC_ACT_365F;
  x->basis.calendar = name ? mcpi_dates_calendar(x, name) : &mcpi_weekends;
  if (!x->basis.calendar)
    return mcpi_json_expected(d, &(mcpi_json_path){NULL, "calendar", 0},
                              "the name of one of the market's calendars");
  if (x->basis.day_count == MCPI_DC_BUS_252 &&
      !mcpi_business_day(x->basis.calendar, x->basis.valuation))
    return mcpi_json_expected(d, &(mcpi_json_path){NULL, "valuation_date", 0},
                              "a business day of the calendar under BUS/252 (the next one would "
                              "be 0 years away, as today)");
  return MCP_OK;
}

/* The market's discount curves by name, {pillars, discount_factors |
 * zero_rates}, which an underlying's curves.rate may name. */
static mcp_status read_named_curves(const mcpi_json_doc *d, named_curve **out, size_t *n)
{
  const mcpi_json_path path = {NULL, "discount_curves", 0};
  const char *what = "an object of discount curves by name, each {pillars, discount_factors "
                     "or zero_rates}";
  const curve_ctx none = {0};
  const char *key, *why;
  json_t *all, *c;
  mcp_status st = mcpi_json_member(d, NULL, d->root, "discount_curves", MCPI_OPTIONAL, what,
                                   &all);
  if (st != MCP_OK || !all)
    return st;
  if (!json_is_object(all))
    return mcpi_json_expected(d, &path, what);
  if (!(*out = calloc(json_object_size(all) + 1, sizeof **out)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_object_foreach(all, key, c) {
    const mcpi_json_path at = {&path, key, 0};
    if ((why = mcpi_check_name(key)))
      return mcpi_json_fail(d, &at, 1, MCP_ERR_INPUT, "expected a curve's name: %s", why);
    named_curve *nc = &(*out)[(*n)++];
    nc->name = key;
    if (!json_is_object(c) || !json_object_get(c, "pillars"))
      return mcpi_json_expected(d, &at, "a curve object {pillars, discount_factors or "
                                        "zero_rates}");
    if ((st = read_pillars(d, &at, c, MCP_CURVE_RATE, &none, &nc->c)))
      return st;
  }
  return MCP_OK;
}

static mcp_status fill_market(const mcpi_json_doc *d, void *target)
{
  const mcpi_json_path list_path = {NULL, "underlyings", 0};
  const mcpi_json_path corr_path = {NULL, "correlations", 0};
  double rate = 0;
  const char *currency = NULL;
  json_t *list, *corr, *u;
  size_t i;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a market object", market_keys,
                             MCPI_COUNT(market_keys))) ||
      (st = mcpi_json_number(d, NULL, d->root, "rate", MCPI_OPTIONAL, mcpi_check_rate, &rate)) ||
      (st = mcpi_json_string(d, NULL, d->root, "currency", MCPI_OPTIONAL, mcpi_check_currency,
                             &currency)) ||
      (st = mcpi_json_array(d, NULL, d->root, "underlyings", MCPI_REQUIRED, 1,
                            "a non-empty array of underlyings", &list)) ||
      (st = mcpi_json_array(d, NULL, d->root, "correlations", MCPI_OPTIONAL, 0,
                            "an array of correlation objects {underlyings, matrix}", &corr)))
    return st;
  if ((st = read_dates(d, target)))
    return st;
  /* the underlyings' and curves' times may be dates */
  mcpi_json_doc dated = *d;
  dated.dates = ((mcp_market *)target)->dates;
  named_curve *named = NULL;
  size_t nnamed = 0;
  int rate_required = !json_object_get(d->root, "rate");
  st = read_named_curves(&dated, &named, &nnamed);
  json_array_foreach(list, i, u)
    if (st == MCP_OK)
      st = read_underlying(&dated, &(mcpi_json_path){&list_path, NULL, i}, u, rate_required,
                           rate, currency, named, nnamed, target);
  for (size_t k = 0; k < nnamed; k++)
    mcpi_curve_free(&named[k].c);
  free(named);
  if (st != MCP_OK)
    return st;
  /* Correlations name underlyings: read once they are all in. */
  json_array_foreach(corr, i, u)
    if ((st = read_correlation(d, &(mcpi_json_path){&corr_path, NULL, i}, u, target)))
      return st;
  return MCP_OK;
}

static mcp_status load(const char *fn, mcp_market **market, const char *path, const char *text,
                       size_t len, char *err, size_t errlen)
{
  if (!market)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: market is NULL", fn);
  mcp_status st = mcp_market_create(market);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_last_error());
  else if ((st = mcpi_json_load(path, text, len, err, errlen, fill_market, *market)) != MCP_OK) {
    mcp_market_destroy(*market);
    *market = NULL;
  }
  return st;
}

mcp_status mcp_market_load(mcp_market **market, const char *path, char *err, size_t errlen)
{
  return load(__func__, market, path, NULL, 0, err, errlen);
}

mcp_status mcp_market_load_text(mcp_market **market, const char *name, const char *text, size_t len,
                            char *err, size_t errlen)
{
  return load(__func__, market, name, text ? text : "", text ? len : 0, err, errlen);
}
