/* market.c: building and querying a market. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "models/local_vol.h"
#include "src/inputs/market.h"
#include "src/base/validate.h"

mcp_status mcp_market_create(mcp_market **market)
{
  if (!market)
    return mcpi_null(__func__, "market");
  *market = calloc(1, sizeof **market);
  return *market ? MCP_OK : mcpi_no_memory(__func__);
}

void mcpi_surface_free(mcpi_surface *s)
{
  free(s->times);
  free(s->spots);
  free(s->values);
  *s = (mcpi_surface){0, 0, NULL, NULL, NULL};
}

int mcpi_surface_copy(mcpi_surface *dst, const mcpi_surface *src)
{
  size_t nt = src->nt, ns = src->ns;
  *dst = (mcpi_surface){nt, ns, NULL, NULL, NULL};
  if (!nt)
    return 1;
  dst->times = malloc(nt * sizeof(double));
  dst->spots = malloc(ns * sizeof(double));
  dst->values = malloc(nt * ns * sizeof(double));
  if (!dst->times || !dst->spots || !dst->values) {
    mcpi_surface_free(dst);
    return 0;
  }
  memcpy(dst->times, src->times, nt * sizeof(double));
  memcpy(dst->spots, src->spots, ns * sizeof(double));
  memcpy(dst->values, src->values, nt * ns * sizeof(double));
  return 1;
}

double mcpi_surface_row_at(const mcpi_surface *s, size_t r, double t, size_t k)
{
  double v;
  mcpi_surface_row_values(s, r, t, k, 1, &v);
  return v;
}

void mcpi_surface_row_values(const mcpi_surface *s, size_t r, double t, size_t k, size_t m,
                             double *out)
{
  if (r == 0 || r == s->nt) {
    memcpy(out, s->values + (r ? r - 1 : 0) * s->ns + k, m * sizeof *out);
    return;
  }
  double t0 = s->times[r - 1], w = (t - t0) / (s->times[r] - t0);
  const double *a = s->values + (r - 1) * s->ns + k, *b = a + s->ns;
#pragma omp simd
  for (size_t i = 0; i < m; i++)
    out[i] = a[i] + w * (b[i] - a[i]);
}

void mcpi_implied_free(mcpi_implied *s)
{
  free(s->t);
  free(s->svi);
  free(s->kmin);
  free(s->kmax);
  free(s->qoff);
  free(s->qk);
  free(s->dsvi);
  mcpi_curve_free(&s->rate);
  mcpi_curve_free(&s->dividend);
  *s = (mcpi_implied){0};
}

int mcpi_implied_copy(mcpi_implied *dst, const mcpi_implied *src)
{
  *dst = *src;
  dst->t = dst->svi = dst->kmin = dst->kmax = dst->qk = dst->dsvi = NULL;
  dst->qoff = NULL;
  dst->rate = dst->dividend = (mcpi_curve){0, NULL, NULL, NULL};
  if (!src->n)
    return 1;
  size_t n = src->n, nq = src->nq;
  int ok = (dst->t = malloc(n * sizeof(double))) && (dst->svi = malloc(5 * n * sizeof(double))) &&
           (dst->kmin = malloc(n * sizeof(double))) && (dst->kmax = malloc(n * sizeof(double))) &&
           (dst->qoff = malloc((n + 1) * sizeof(size_t))) &&
           (dst->qk = malloc(nq * sizeof(double))) &&
           (dst->dsvi = malloc(5 * nq * sizeof(double))) &&
           mcpi_curve_copy(&dst->rate, &src->rate) &&
           mcpi_curve_copy(&dst->dividend, &src->dividend);
  if (!ok) {
    mcpi_implied_free(dst);
    return 0;
  }
  memcpy(dst->t, src->t, n * sizeof(double));
  memcpy(dst->svi, src->svi, 5 * n * sizeof(double));
  memcpy(dst->kmin, src->kmin, n * sizeof(double));
  memcpy(dst->kmax, src->kmax, n * sizeof(double));
  memcpy(dst->qoff, src->qoff, (n + 1) * sizeof(size_t));
  memcpy(dst->qk, src->qk, nq * sizeof(double));
  memcpy(dst->dsvi, src->dsvi, 5 * nq * sizeof(double));
  return 1;
}

double mcpi_surface_vol_at(const mcpi_surface *s, double spot)
{
  double *y = malloc(s->ns * sizeof *y);
  if (!y)
    return -1;
  /* by the paths' lookup (a one-bucket table: the search walks from the
   * first node) */
  for (size_t k = 0; k < s->ns; k++)
    y[k] = log(s->spots[k]);
  const int32_t first = 0;
  double at = mcpi_local_vol(y, s->values, (int)s->ns, &first, 1, 0, log(spot));
  free(y);
  return at;
}

int mcpi_cash_copy(mcpi_underlying *dst, const mcpi_underlying *src)
{
  dst->ncash = 0;
  dst->cash_t = dst->cash_amount = NULL;
  if (!src->ncash)
    return 1;
  dst->cash_t = malloc(src->ncash * sizeof(double));
  dst->cash_amount = malloc(src->ncash * sizeof(double));
  if (!dst->cash_t || !dst->cash_amount) {
    free(dst->cash_t);
    free(dst->cash_amount);
    dst->cash_t = dst->cash_amount = NULL;
    return 0;
  }
  memcpy(dst->cash_t, src->cash_t, src->ncash * sizeof(double));
  memcpy(dst->cash_amount, src->cash_amount, src->ncash * sizeof(double));
  dst->ncash = src->ncash;
  return 1;
}

double mcpi_cash_carried(const mcpi_underlying *u, double origin, double t)
{
  double sum = 0;
  for (size_t i = 0; i < u->ncash; i++) {
    double ti = u->cash_t[i] - origin;
    if (ti > 0 && ti <= t)
      sum += u->cash_amount[i] * exp(mcpi_curve_integral(&u->rate, ti, t) -
                                     mcpi_curve_integral(&u->dividend, ti, t));
  }
  return sum;
}

static void free_underlying(mcpi_underlying *u)
{
  free(u->cash_t);
  free(u->cash_amount);
  free(u->name);
  mcpi_curve_free(&u->rate);
  mcpi_curve_free(&u->dividend);
  mcpi_curve_free(&u->vol);
  mcpi_surface_free(&u->lv);
  mcpi_implied_free(&u->iv);
}

void mcp_market_destroy(mcp_market *m)
{
  if (!m)
    return;
  for (size_t i = 0; i < m->n; i++)
    free_underlying(&m->u[i]);
  free(m->u);
  free(m->corr);
  mcpi_name_table_free(&m->names);
  mcpi_dates_free(m->dates);
  free(m);
}

static const char *underlying_name(const void *owner, size_t i)
{
  return ((const mcp_market *)owner)->u[i].name;
}

const mcpi_underlying *mcpi_market_find(const mcp_market *m, const char *name)
{
  long i = mcpi_name_find(&m->names, name, underlying_name, m);
  return i >= 0 ? &m->u[i] : NULL;
}

int mcpi_market_index(mcp_market *m)
{
  if (!mcpi_name_reserve(&m->names, m->n, underlying_name, m))
    return 0;
  for (size_t i = 0; i < m->n; i++)
    mcpi_name_insert(&m->names, i, underlying_name, m);
  return 1;
}

/* Checks what every model shares and appends the underlying with flat
 * curves; the caller fills the model's own parameters. */
static mcp_status add(const char *fn, mcp_market *m, const char *name, mcpi_model model,
                      double spot, double rate, double dividend, double vol, mcpi_underlying **out)
{
  const char *why;
  if (!m)
    return mcpi_null(fn, "market");
  if ((why = mcpi_check_name(name)))
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "underlying name: expected %s", why);
  if (mcpi_market_find(m, name))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s' is defined twice", name);
  if ((why = mcpi_check_spot(spot)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': spot: expected %s, got %g", name,
                     why, spot);
  if ((why = mcpi_check_rate(rate)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': rate: expected %s, got %g", name,
                     why, rate);
  if ((why = mcpi_check_rate(dividend)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': dividend: expected %s, got %g",
                     name, why, dividend);
  if ((why = mcpi_check_volatility(vol)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': volatility: expected %s, got %g",
                     name, why, vol);
  if (m->n == m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 8;
    mcpi_underlying *u = realloc(m->u, cap * sizeof *u);
    if (!u)
      return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory adding underlying '%s'", name);
    m->u = u;
    m->cap = cap;
  }
  mcpi_underlying u = {.name = strdup(name), .model = model, .spot = spot};
  if (!u.name || mcpi_curve_flat(&u.rate, rate) || mcpi_curve_flat(&u.dividend, dividend) ||
      mcpi_curve_flat(&u.vol, vol)) {
    free_underlying(&u);
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory adding underlying '%s'", name);
  }
  if (!mcpi_name_reserve(&m->names, m->n, underlying_name, m)) {
    free_underlying(&u);
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory adding underlying '%s'", name);
  }
  m->u[m->n] = u;
  mcpi_name_insert(&m->names, m->n, underlying_name, m);
  *out = &m->u[m->n++];
  return MCP_OK;
}

mcp_status mcp_market_add_black_scholes(mcp_market *m, const char *name, double spot,
                                        double rate, double dividend, double volatility)
{
  mcpi_underlying *u;
  return add(__func__, m, name, MCPI_MODEL_BLACK_SCHOLES, spot, rate, dividend, volatility, &u);
}

mcp_status mcp_market_add_heston(mcp_market *m, const char *name, double spot, double rate,
                                 double dividend, double v0, double kappa, double theta,
                                 double xi, double rho)
{
  const char *why = NULL, *field = NULL;
  double bad = 0;
  if (!m)
    return mcpi_null(__func__, "market");
  if ((why = mcpi_check_variance(v0)))
    field = "v0", bad = v0;
  else if ((why = mcpi_check_positive(kappa)))
    field = "kappa", bad = kappa;
  else if ((why = mcpi_check_positive(theta))) /* the QE moments divide by it */
    field = "theta", bad = theta;
  else if ((why = mcpi_check_positive(xi)))
    field = "xi", bad = xi;
  else if ((why = mcpi_check_correlation(rho)))
    field = "rho", bad = rho;
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': %s: expected %s, got %g",
                     name ? name : "", field, why, bad);
  mcpi_underlying *u;
  mcp_status st = add(__func__, m, name, MCPI_MODEL_HESTON, spot, rate, dividend, sqrt(v0), &u);
  if (st == MCP_OK) {
    u->v0 = v0;
    u->kappa = kappa;
    u->theta = theta;
    u->xi = xi;
    u->rho = rho;
  }
  return st;
}

mcp_status mcp_market_add_merton(mcp_market *m, const char *name, double spot, double rate,
                                 double dividend, double volatility, double lambda,
                                 double jump_mean, double jump_vol)
{
  const char *why = NULL, *field = NULL;
  double bad = 0;
  if (!m)
    return mcpi_null(__func__, "market");
  if ((why = mcpi_check_intensity(lambda)))
    field = "lambda", bad = lambda;
  else if ((why = mcpi_check_jump_mean(jump_mean)))
    field = "jump_mean", bad = jump_mean;
  else if ((why = mcpi_check_volatility(jump_vol)))
    field = "jump_vol", bad = jump_vol;
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': %s: expected %s, got %g",
                     name ? name : "", field, why, bad);
  mcpi_underlying *u;
  mcp_status st = add(__func__, m, name, MCPI_MODEL_MERTON, spot, rate, dividend, volatility, &u);
  if (st == MCP_OK) {
    u->lambda = lambda;
    u->jump_mean = jump_mean;
    u->jump_vol = jump_vol;
  }
  return st;
}

/* Whether the n axis values are finite, in [low, high] and strictly
 * increasing. */
static int axis_ok(size_t n, const double *x, double low, double high)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i]) || x[i] < low || x[i] > high || (i && x[i] <= x[i - 1]))
      return 0;
  return 1;
}

mcp_status mcp_market_set_classification(mcp_market *m, const char *name, const char *currency,
                                         int frtb_bucket)
{
  if (!m)
    return mcpi_null(__func__, "market");
  if (!name)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "classification: underlying name is NULL");
  mcpi_underlying *u = (mcpi_underlying *)mcpi_market_find(m, name);
  if (!u)
    return mcpi_fail(m->err, MCP_ERR_NOT_FOUND,
                     "classification: underlying '%s' is not in the market", name);
  const char *why = currency ? mcpi_check_currency(currency) : NULL;
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': currency: expected %s, got '%.16s'",
                     name, why, currency);
  if (frtb_bucket && (why = mcpi_check_frtb_bucket(frtb_bucket < 0 ? UINT64_MAX
                                                                   : (uint64_t)frtb_bucket)))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': frtb_bucket: expected %s, got %d",
                     name, why, frtb_bucket);
  if (currency)
    memcpy(u->currency, currency, 4);
  if (frtb_bucket)
    u->frtb_bucket = frtb_bucket;
  return MCP_OK;
}

mcp_status mcp_market_set_cash_dividends(mcp_market *m, const char *name, size_t n,
                                        const double *times, const double *amounts)
{
  if (!m)
    return mcpi_null(__func__, "market");
  if (!name)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "cash dividends: underlying name is NULL");
  mcpi_underlying *u = (mcpi_underlying *)mcpi_market_find(m, name);
  if (!u)
    return mcpi_fail(m->err, MCP_ERR_NOT_FOUND,
                     "cash dividends: underlying '%s' is not in the market", name);
  if (u->model != MCPI_MODEL_BLACK_SCHOLES)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': cash dividends: expected a Black-Scholes underlying",
                     name);
  if (n && (!times || !amounts))
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "underlying '%s': cash dividends: NULL times or amounts", name);
  if (n > MCPI_MAX_CASH_DIVIDENDS)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': cash dividends: expected at most %d, got %zu", name,
                     MCPI_MAX_CASH_DIVIDENDS, n);
  const char *why = mcpi_check_grid(n, times);
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': cash dividends: times: expected %s",
                     name, why);
  for (size_t i = 0; i < n; i++)
    if ((why = mcpi_check_cash(amounts[i])))
      return mcpi_fail(m->err, MCP_ERR_INPUT,
                       "underlying '%s': cash dividends: amount %zu: expected %s, got %g", name,
                       i, why, amounts[i]);
  mcpi_underlying given = {.ncash = n, .cash_t = (double *)times,
                           .cash_amount = (double *)amounts},
                  copy;
  if (!mcpi_cash_copy(&copy, &given))
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for cash dividends");
  free(u->cash_t);
  free(u->cash_amount);
  u->ncash = copy.ncash;
  u->cash_t = copy.cash_t;
  u->cash_amount = copy.cash_amount;
  return MCP_OK;
}

mcp_status mcp_market_add_local_vol(mcp_market *m, const char *name, double spot, double rate,
                                    double dividend, size_t ntimes, const double *times,
                                    size_t nspots, const double *spots, const double *values)
{
  if (!m)
    return mcpi_null(__func__, "market");
  const char *id = name ? name : "";
  if (!times || !spots || !values)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "underlying '%s': local volatility: NULL times, spots or values", id);
  if (ntimes < 1 || ntimes > MCPI_MAX_SURFACE || nspots < 1 || nspots > MCPI_MAX_SURFACE)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': local volatility: expected 1 to %d times and 1 to %d "
                     "spots, got %zu and %zu",
                     id, MCPI_MAX_SURFACE, MCPI_MAX_SURFACE, ntimes, nspots);
  if (!axis_ok(ntimes, times, 0, MCPI_MAX_MATURITY))
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': local volatility: times: expected strictly increasing "
                     "times in years >= 0 and <= 100",
                     id);
  if (!axis_ok(nspots, spots, DBL_MIN, DBL_MAX))
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': local volatility: spots: expected strictly increasing "
                     "finite spots > 0",
                     id);
  for (size_t i = 0; i < ntimes * nspots; i++) {
    const char *why = mcpi_check_volatility(values[i]);
    if (why)
      return mcpi_fail(m->err, MCP_ERR_INPUT,
                       "underlying '%s': local volatility: values[%zu][%zu]: expected %s, got "
                       "%g",
                       id, i / nspots, i % nspots, why, values[i]);
  }
  mcpi_surface given = {ntimes, nspots, (double *)times, (double *)spots, (double *)values}, s;
  double at = mcpi_surface_vol_at(&given, spot);
  if (at < 0 || !mcpi_surface_copy(&s, &given))
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory adding underlying '%s'", id);
  mcpi_underlying *u;
  mcp_status st = add(__func__, m, name, MCPI_MODEL_LOCAL_VOL, spot, rate, dividend, at, &u);
  if (st == MCP_OK)
    u->lv = s;
  else
    mcpi_surface_free(&s);
  return st;
}

mcp_status mcp_market_set_curve(mcp_market *m, const char *name, mcp_curve which, size_t n,
                                const double *end, const double *value)
{
  return m ? mcpi_market_set_curve_sloped(m, name, which, n, end, value, NULL)
           : mcpi_null(__func__, "market");
}

mcp_status mcpi_market_set_curve_sloped(mcp_market *m, const char *name, mcp_curve which,
                                        size_t n, const double *end, const double *value,
                                        const double *slope)
{
  static const char *const names[] = {"rate", "dividend", "volatility", "repo"};
  if (!name)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "curve: underlying name is NULL");
  mcpi_underlying *u = (mcpi_underlying *)mcpi_market_find(m, name);
  if (!u)
    return mcpi_fail(m->err, MCP_ERR_NOT_FOUND, "curve: underlying '%s' is not in the market",
                     name);
  if ((unsigned)which > MCP_CURVE_REPO)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "underlying '%s': curve: expected rate, dividend, volatility or repo", name);
  /* the repo adds to the dividend yield, once, after it */
  if (u->repo && (which == MCP_CURVE_DIVIDEND || which == MCP_CURVE_REPO))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': %s curve: its repo curve is "
                     "set (and added to its dividend yield); expected the dividend curve set "
                     "before the repo, and one repo curve", name, names[which]);
  if (which == MCP_CURVE_VOLATILITY && u->model == MCPI_MODEL_HESTON)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': volatility curve: a Heston underlying has none (its "
                     "variance follows v0, kappa, theta)",
                     name);
  if (which == MCP_CURVE_VOLATILITY && u->model == MCPI_MODEL_LOCAL_VOL)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': volatility curve: a local-volatility underlying has "
                     "none (its volatility is its surface)",
                     name);
  if (u->iv.n)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "underlying '%s': %s curve: its implied surface's forwards are fixed; "
                     "expected the curves set before the implied volatilities",
                     name, names[which]);
  if (n == 0 || !end || !value)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "underlying '%s': %s curve: expected n >= 1 "
                     "and the end and value arrays", name, names[which]);
  /* a sloped curve's last end only marks its flat tail (beyond 100 for a
   * last pillar past 99 years) */
  const char *why = mcpi_check_grid(slope && n > 1 ? n - 1 : n, end);
  if (!why && slope && n > 1 && !(end[n - 1] > end[n - 2]))
    why = "strictly increasing ends";
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "underlying '%s': %s curve: ends: expected %s",
                     name, names[which], why);
  if (slope && (which == MCP_CURVE_VOLATILITY || slope[n - 1] != 0))
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT, "underlying '%s': %s curve: slopes on a rate "
                     "or dividend curve alone, the last piece flat", name, names[which]);
  for (size_t i = 0; i < n; i++) {
    /* a sloped piece's value at its end too */
    double v = value[i] + (slope && i + 1 < n ? slope[i] * (end[i] - (i ? end[i - 1] : 0)) : 0);
    v = which == MCP_CURVE_VOLATILITY || mcpi_check_rate(value[i]) ? value[i] : v;
    why = which == MCP_CURVE_VOLATILITY ? mcpi_check_volatility(v) : mcpi_check_rate(v);
    if (why)
      return mcpi_fail(m->err, MCP_ERR_INPUT,
                       "underlying '%s': %s curve: value %zu: expected %s, got %g", name,
                       names[which], i, why, v);
  }
  mcpi_curve c = {n, malloc(n * sizeof(double)), malloc(n * sizeof(double)),
                  slope ? malloc(n * sizeof(double)) : NULL};
  if (!c.end || !c.value || (slope && !c.slope)) {
    mcpi_curve_free(&c);
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for a curve");
  }
  memcpy(c.end, end, n * sizeof(double));
  memcpy(c.value, value, n * sizeof(double));
  if (slope)
    memcpy(c.slope, slope, n * sizeof(double));
  if (which == MCP_CURVE_REPO) {
    mcpi_curve sum;
    int st = mcpi_curve_sum(&sum, &u->dividend, &c);
    mcpi_curve_free(&c);
    if (st != MCP_OK)
      return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for a curve");
    c = sum;
    u->repo = 1;
  }
  mcpi_curve *dst = which == MCP_CURVE_RATE ? &u->rate
                    : which == MCP_CURVE_VOLATILITY ? &u->vol
                                                    : &u->dividend;
  mcpi_curve_free(dst);
  *dst = c;
  return MCP_OK;
}

size_t mcpi_cholesky(size_t n, const double *c, double *l)
{
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      if (j > i) {
        l[i * n + j] = 0;
        continue;
      }
      double s = c[i * n + j];
      for (size_t k = 0; k < j; k++)
        s -= l[i * n + k] * l[j * n + k];
      if (i == j) {
        /* a relative floor: a singular matrix is rejected, not factored */
        if (!(s > 1e-12))
          return i + 1;
        l[i * n + i] = sqrt(s);
      } else {
        l[i * n + j] = s / l[j * n + j];
      }
    }
  return 0;
}

double mcpi_market_correlation(const mcp_market *m, size_t a, size_t b)
{
  return mcpi_market_bm_correlation(m, MCPI_SPOT_BM(a), MCPI_SPOT_BM(b));
}

void mcpi_market_bm_name(const mcp_market *m, size_t x, char *buf, size_t len)
{
  snprintf(buf, len, "%s%s", m->u[x / 2].name, x % 2 ? ":variance" : "");
}

double mcpi_market_bm_correlation(const mcp_market *m, size_t a, size_t b)
{
  if (a == b)
    return 1;
  if (a / 2 == b / 2) /* a Heston underlying's spot and variance */
    return m->u[a / 2].rho;
  size_t lo = a < b ? a : b, hi = a < b ? b : a;
  for (size_t i = 0; i < m->ncorr; i++)
    if (m->corr[i].a == lo && m->corr[i].b == hi)
      return m->corr[i].rho;
  return 0;
}

static mcp_status set_pair(mcp_market *m, size_t a, size_t b, double rho)
{
  size_t lo = a < b ? a : b, hi = a < b ? b : a;
  for (size_t i = 0; i < m->ncorr; i++)
    if (m->corr[i].a == lo && m->corr[i].b == hi) {
      m->corr[i].rho = rho;
      return MCP_OK;
    }
  if (m->ncorr == m->corr_cap) {
    size_t cap = m->corr_cap ? 2 * m->corr_cap : 16;
    mcpi_correlation *c = realloc(m->corr, cap * sizeof *c);
    if (!c)
      return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory for correlations");
    m->corr = c;
    m->corr_cap = cap;
  }
  m->corr[m->ncorr++] = (mcpi_correlation){lo, hi, rho};
  return MCP_OK;
}

const char *mcpi_market_bm(const mcp_market *m, const char *name, size_t *bm, int *found)
{
  static const char suffix[] = ":variance";
  const mcpi_underlying *u = name ? mcpi_market_find(m, name) : NULL;
  size_t len = name ? strlen(name) : 0, k = sizeof suffix - 1;
  *found = 1;
  if (u) {
    *bm = MCPI_SPOT_BM((size_t)(u - m->u));
    return u->model != MCPI_MODEL_MERTON
               ? NULL
               : "a Black-Scholes, Heston or local-volatility underlying (only those are "
                 "correlated)";
  }
  if (len > k && strcmp(name + len - k, suffix) == 0) {
    char base[MCPI_MAX_ID_BYTES + 1];
    if (len - k <= MCPI_MAX_ID_BYTES) {
      memcpy(base, name, len - k);
      base[len - k] = 0;
      if ((u = mcpi_market_find(m, base)) && u->model == MCPI_MODEL_HESTON) {
        *bm = MCPI_VARIANCE_BM((size_t)(u - m->u));
        return NULL;
      }
    }
    *found = u != NULL;
    return "NAME:variance of a Heston underlying of the market";
  }
  *found = 0;
  return "the name of an underlying of the market (or NAME:variance of a Heston one)";
}

mcp_status mcp_market_set_correlation(mcp_market *m, size_t n, const char *const *names,
                                      const double *c)
{
  if (!m)
    return mcpi_null(__func__, "market");
  if (n < 2 || n > MCPI_MAX_BMS || !names || !c)
    return mcpi_fail(m->err, MCP_ERR_ARGUMENT,
                     "correlation: expected 2 to %d names and an n x n matrix", MCPI_MAX_BMS);
  size_t bm[MCPI_MAX_BMS];
  double l[MCPI_MAX_BMS * MCPI_MAX_BMS];
  for (size_t i = 0; i < n; i++) {
    int found;
    const char *why = mcpi_market_bm(m, names[i], &bm[i], &found);
    if (why)
      return mcpi_fail(m->err, found ? MCP_ERR_INPUT : MCP_ERR_NOT_FOUND,
                       "correlation: names[%zu] ('%s'): expected %s", i,
                       names[i] ? names[i] : "(null)", why);
    for (size_t k = 0; k < i; k++)
      if (bm[k] == bm[i])
        return mcpi_fail(m->err, MCP_ERR_INPUT, "correlation: '%s' is named twice", names[i]);
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      double x = c[i * n + j];
      if (i == j ? x != 1 : !(fabs(x) <= 1))
        return mcpi_fail(m->err, MCP_ERR_INPUT,
                         "correlation: matrix[%zu][%zu]: expected %s, got %g", i, j,
                         i == j ? "1 on the diagonal" : "a number between -1 and 1", x);
      if (x != c[j * n + i])
        return mcpi_fail(m->err, MCP_ERR_INPUT,
                         "correlation: matrix[%zu][%zu]: expected a symmetric matrix, got %g "
                         "and %g at [%zu][%zu]",
                         i, j, x, c[j * n + i], j, i);
      double own = mcpi_market_bm_correlation(m, bm[i], bm[j]);
      if (i != j && bm[i] / 2 == bm[j] / 2 && x != own)
        return mcpi_fail(m->err, MCP_ERR_INPUT,
                         "correlation: matrix[%zu][%zu]: expected %g, the rho of '%s' (its "
                         "spot's and its variance's correlation), got %g",
                         i, j, own, m->u[bm[i] / 2].name, x);
    }
  size_t row = mcpi_cholesky(n, c, l);
  if (row)
    return mcpi_fail(m->err, MCP_ERR_INPUT,
                     "correlation: the matrix is not positive definite (its Cholesky "
                     "factorisation fails at row %zu, '%s')",
                     row - 1, names[row - 1]);
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++)
      if (bm[i] / 2 != bm[j] / 2) {
        mcp_status st = set_pair(m, bm[i], bm[j], c[i * n + j]);
        if (st != MCP_OK)
          return st;
      }
  return MCP_OK;
}

size_t mcp_market_size(const mcp_market *m) { return m ? m->n : 0; }

const char *mcp_market_last_error(const mcp_market *m) { return m ? m->err : "no market"; }
