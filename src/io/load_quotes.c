/* load_quotes.c: reading a surface of implied volatilities (mcp_quotes)
 *   {"underlying": "ACME", "maturities": [0.25, "2027-06-30"],
 *    "strikes": [90, 100, 110] (or "moneyness": [0.9, 1, 1.1]),
 *    "volatilities": [[0.24, 0.21, null], [0.23, 0.21, 0.2]]}
 * the maturities in years or, where the market has a valuation date, dates;
 * a moneyness is strike over the underlying's spot in the market.  A file
 * named .csv holds one quote a row (columns underlying, maturity, strike or
 * moneyness, volatility), turned into that document. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/grow.h"
#include "src/base/validate.h"
#include "src/inputs/market.h"
#include "src/io/csv.h"
#include "src/io/load_json.h"
#include "src/io/read_file.h"

static const char *const keys[] = {"underlying", "maturities", "strikes", "moneyness",
                                   "volatilities"};

typedef struct loading {
  mcp_quotes *q;
  const mcp_market *market;
} loading;

/* An increasing list: the first element at or below the one before, or n. */
static size_t unsorted(const double *x, size_t n)
{
  for (size_t i = 1; i < n; i++)
    if (!(x[i] > x[i - 1]))
      return i;
  return n;
}

/* One row of volatilities, at path, into v[0..n). */
static mcp_status read_row(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *row,
                           size_t n, double *v)
{
  if (!json_is_array(row) || json_array_size(row) != n) {
    char what[64];
    snprintf(what, sizeof what, "an array of %zu volatilities (null where none)", n);
    return mcpi_json_expected(d, path, what);
  }
  for (size_t k = 0; k < n; k++) {
    json_t *x = json_array_get(row, k);
    const mcpi_json_path at = {path, NULL, k};
    if (json_is_null(x)) {
      v[k] = NAN;
      continue;
    }
    if (!json_is_number(x) || !(json_number_value(x) > 0 && json_number_value(x) <= 10))
      return mcpi_json_expected(d, &at, "a volatility in (0, 10], or null");
    v[k] = json_number_value(x);
  }
  return MCP_OK;
}

mcp_status mcpi_json_surface(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             double spot, mcp_quotes *q)
{
  const mcpi_json_path mpath = {path, "maturities", 0}, vpath = {path, "volatilities", 0};
  json_t *mat, *strikes = NULL, *money = NULL, *vols;
  mcp_status st;
  if ((st = mcpi_json_array(d, path, obj, "maturities", MCPI_REQUIRED, 1,
                            "a non-empty array of maturities", &mat)) ||
      (st = mcpi_json_array(d, path, obj, "strikes", MCPI_OPTIONAL, 1,
                            "a non-empty array of strikes", &strikes)) ||
      (st = mcpi_json_array(d, path, obj, "moneyness", MCPI_OPTIONAL, 1,
                            "a non-empty array of strikes over spot", &money)) ||
      (st = mcpi_json_array(d, path, obj, "volatilities", MCPI_REQUIRED, 1,
                            "an array of rows of volatilities, one a maturity", &vols)))
    return st;
  if (!strikes == !money)
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "expected strikes or moneyness, one of "
                          "them");
  const mcpi_json_path kpath = {path, strikes ? "strikes" : "moneyness", 0};
  if ((st = mcpi_json_times(d, &mpath, mat, &q->maturities, &q->nmaturities)) ||
      (st = mcpi_json_numbers(d, &kpath, strikes ? strikes : money,
                              strikes ? "a strike" : "a strike over spot", &q->strikes,
                              &q->nstrikes)))
    return st;
  size_t bad;
  for (size_t i = 0; i < q->nmaturities; i++)
    if (mcpi_check_maturity(q->maturities[i]))
      return mcpi_json_expected(d, &(mcpi_json_path){&mpath, NULL, i},
                                mcpi_check_maturity(q->maturities[i]));
  if ((bad = unsorted(q->maturities, q->nmaturities)) < q->nmaturities)
    return mcpi_json_expected(d, &(mcpi_json_path){&mpath, NULL, bad},
                              "a maturity after the one before");
  for (size_t k = 0; k < q->nstrikes; k++) {
    if (!(q->strikes[k] > 0))
      return mcpi_json_expected(d, &(mcpi_json_path){&kpath, NULL, k}, "a number > 0");
    q->strikes[k] *= money ? spot : 1;
  }
  if ((bad = unsorted(q->strikes, q->nstrikes)) < q->nstrikes)
    return mcpi_json_expected(d, &(mcpi_json_path){&kpath, NULL, bad},
                              "a strike above the one before");
  if (json_array_size(vols) != q->nmaturities)
    return mcpi_json_fail(d, &vpath, 0, MCP_ERR_INPUT, "expected %zu rows, one a maturity, "
                          "got %zu", q->nmaturities, json_array_size(vols));
  if (!(q->vols = malloc(q->nmaturities * q->nstrikes * sizeof *q->vols)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory for the quotes");
  for (size_t i = 0; i < q->nmaturities; i++)
    if ((st = read_row(d, &(mcpi_json_path){&vpath, NULL, i}, json_array_get(vols, i),
                       q->nstrikes, q->vols + i * q->nstrikes)))
      return st;
  return MCP_OK;
}

static mcp_status fill_quotes(const mcpi_json_doc *file, void *target)
{
  const loading *in = target;
  mcpi_json_doc dated = *file;
  const mcpi_json_doc *d = &dated;
  dated.dates = in->market->dates;
  const char *name;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a quotes object", keys, MCPI_COUNT(keys))) ||
      (st = mcpi_json_string(d, NULL, d->root, "underlying", MCPI_REQUIRED, mcpi_check_name,
                             &name)))
    return st;
  const mcpi_underlying *u = mcpi_market_find(in->market, name);
  if (!u) {
    const mcpi_json_path p = {NULL, "underlying", 0};
    return mcpi_json_fail(d, &p, 0, MCP_ERR_INPUT, "expected an underlying of the market, got "
                          "'%s'", name);
  }
  if ((st = mcpi_json_surface(d, NULL, d->root, u->spot, in->q)))
    return st;
  if (!(in->q->underlying = strdup(name)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory for the quotes");
  return MCP_OK;
}

/* ---- quotes from CSV ----------------------------------------------------- */

enum { C_UNDERLYING, C_MATURITY, C_STRIKE, C_MONEYNESS, C_VOLATILITY, C_COLUMNS };
static const char *const columns[C_COLUMNS] = {"underlying", "maturity", "strike",
                                               "moneyness", "volatility"};

typedef struct quote {
  double t, k, v;
  size_t row;
} quote;

typedef struct csv_reading {
  const char *file;
  const mcp_market *market;
  char *err;
  size_t errlen;
  int col[C_COLUMNS]; /* each column's index in the header, or -1 */
  char *underlying;
  quote *q;
  size_t n, cap;
} csv_reading;

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The number in f (all of it, finite), or 0. */
static int number(const mcpi_csv_field *f, double *x)
{
  char buf[64], *end;
  if (!f->n || f->n >= sizeof buf)
    return 0;
  memcpy(buf, f->s, f->n);
  buf[f->n] = '\0';
  *x = strtod(buf, &end);
  return *end == '\0' && isfinite(*x);
}

static mcp_status cell_fail(csv_reading *r, size_t row, int c, const char *what,
                            const mcpi_csv_field *f)
{
  return mcpi_fail_to(r->err, r->errlen, MCP_ERR_INPUT, "%s: row %zu, column %s: expected %s, "
                      "got '%.*s'", r->file, row, columns[c], what, (int)(f->n < 40 ? f->n : 40),
                      f->s);
}

/* Row row's quote from its fields f[0..nf). */
static mcp_status csv_row(csv_reading *r, size_t row, const mcpi_csv_field *f, size_t nf)
{
  static const mcpi_csv_field none = {"", 0};
  const mcpi_csv_field *c[C_COLUMNS];
  for (int k = 0; k < C_COLUMNS; k++)
    c[k] = r->col[k] >= 0 && (size_t)r->col[k] < nf ? &f[r->col[k]] : &none;
  int kc = r->col[C_STRIKE] >= 0 ? C_STRIKE : C_MONEYNESS;
  quote q = {.row = row};
  const mcpi_dates *dates = r->market->dates;
  mcpi_date day;
  char date[16];
  if (!r->underlying) {
    if (!(r->underlying = strndup(c[C_UNDERLYING]->s, c[C_UNDERLYING]->n)))
      return mcpi_fail_to(r->err, r->errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", r->file);
    if (mcpi_check_name(r->underlying))
      return cell_fail(r, row, C_UNDERLYING, mcpi_check_name(r->underlying), c[C_UNDERLYING]);
  }
  if (strlen(r->underlying) != c[C_UNDERLYING]->n ||
      memcmp(r->underlying, c[C_UNDERLYING]->s, c[C_UNDERLYING]->n)) {
    char what[160];
    snprintf(what, sizeof what, "the underlying of the rows before, '%s' (a file holds one "
             "underlying's quotes)", r->underlying);
    return cell_fail(r, row, C_UNDERLYING, what, c[C_UNDERLYING]);
  }
  int dated = c[C_MATURITY]->n == 10 && dates;
  if (dated) {
    memcpy(date, c[C_MATURITY]->s, 10);
    date[10] = '\0';
  }
  if (dated && !mcpi_date_parse(date, &day))
    q.t = mcpi_dates_time(dates, day);
  else if (!number(c[C_MATURITY], &q.t))
    return cell_fail(r, row, C_MATURITY, dates ? "a time in years or a date YYYY-MM-DD"
                                               : "a time in years (a date needs the market's "
                                                 "valuation_date)", c[C_MATURITY]);
  if (mcpi_check_maturity(q.t))
    return cell_fail(r, row, C_MATURITY, mcpi_check_maturity(q.t), c[C_MATURITY]);
  if (!number(c[kc], &q.k) || !(q.k > 0))
    return cell_fail(r, row, kc, "a number > 0", c[kc]);
  if (!number(c[C_VOLATILITY], &q.v) || !(q.v > 0 && q.v <= 10))
    return cell_fail(r, row, C_VOLATILITY, "a volatility in (0, 10]", c[C_VOLATILITY]);
  if (!mcpi_grow((void **)&r->q, &r->cap, r->n + 1, sizeof *r->q))
    return mcpi_fail_to(r->err, r->errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", r->file);
  r->q[r->n++] = q;
  return MCP_OK;
}

/* Sorted distinct values of x[0..n) into x, their count. */
static size_t distinct(double *x, size_t n)
{
  qsort(x, n, sizeof *x, by_value);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!m || x[i] != x[m - 1])
      x[m++] = x[i];
  return m;
}

/* The index of v in the sorted x[0..n). */
static size_t index_of(const double *x, size_t n, double v)
{
  const double *p = bsearch(&v, x, n, sizeof *x, by_value);
  return (size_t)(p - x);
}

/* x[0..n) as a JSON array of numbers, NAN as null (NULL when out of memory). */
static json_t *reals(const double *x, size_t n)
{
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++)
    if (json_array_append_new(a, isnan(x[i]) ? json_null() : json_real(x[i]))) {
      json_decref(a);
      return NULL;
    }
  return a;
}

/* The quotes document of r's quotes into *json (*len bytes). */
static mcp_status csv_document(csv_reading *r, char **json, size_t *len)
{
  double *t = malloc(r->n * sizeof *t), *k = malloc(r->n * sizeof *k), *v = NULL;
  size_t *from = NULL, nt = 0, nk = 0;
  char *out = NULL;
  size_t n = 0;
  mcp_status st = MCP_OK;
  for (size_t i = 0; t && k && i < r->n; i++) {
    t[i] = r->q[i].t;
    k[i] = r->q[i].k;
  }
  if (t && k) {
    nt = distinct(t, r->n);
    nk = distinct(k, r->n);
    v = malloc(nt * nk * sizeof *v);
    from = calloc(nt * nk, sizeof *from);
  }
  if (!v || !from) {
    st = mcpi_fail_to(r->err, r->errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", r->file);
    goto done;
  }
  for (size_t i = 0; i < nt * nk; i++)
    v[i] = NAN;
  for (size_t i = 0; i < r->n && st == MCP_OK; i++) {
    size_t at = index_of(t, nt, r->q[i].t) * nk + index_of(k, nk, r->q[i].k);
    if (from[at])
      st = mcpi_fail_to(r->err, r->errlen, MCP_ERR_INPUT, "%s: row %zu: maturity %g, strike "
                        "%g quoted again (row %zu); expected one quote a point", r->file,
                        r->q[i].row, r->q[i].t, r->q[i].k, from[at]);
    v[at] = r->q[i].v;
    from[at] = r->q[i].row;
  }
  json_t *doc = json_object(), *rows = json_array();
  int ok = st == MCP_OK && doc && rows &&
           !json_object_set_new(doc, "underlying", json_string(r->underlying)) &&
           !json_object_set_new(doc, "maturities", reals(t, nt)) &&
           !json_object_set_new(doc, r->col[C_STRIKE] >= 0 ? "strikes" : "moneyness",
                                reals(k, nk));
  for (size_t i = 0; ok && i < nt; i++)
    ok = !json_array_append_new(rows, reals(v + i * nk, nk));
  ok = ok && !json_object_set(doc, "volatilities", rows);
  /* 17 digits: read back, the same doubles */
  if (ok && (out = json_dumps(doc, JSON_REAL_PRECISION(17))))
    n = strlen(out);
  json_decref(rows);
  json_decref(doc);
  if (st == MCP_OK && !out)
    st = mcpi_fail_to(r->err, r->errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", r->file);
done:
  free(t);
  free(k);
  free(v);
  free(from);
  if (st == MCP_OK) {
    *json = out;
    *len = n;
  } else
    free(out);
  return st;
}

/* A quotes CSV's text (len bytes) as its JSON document. */
static mcp_status csv_quotes(const char *file, const char *text, size_t len,
                             const mcp_market *m, char **json, size_t *jlen, char *err,
                             size_t errlen)
{
  csv_reading r = {.file = file, .market = m, .err = err, .errlen = errlen};
  char *copy = malloc(len + 1), *at = copy, why[256];
  mcpi_csv_field *f = NULL;
  size_t fcap = 0, nf = 0, line = 1;
  mcp_status st = MCP_OK;
  for (int k = 0; k < C_COLUMNS; k++)
    r.col[k] = -1;
  if (!copy) {
    st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", file);
    goto done;
  }
  memcpy(copy, text, len);
  if (len >= 3 && !memcmp(copy, "\xEF\xBB\xBF", 3))
    at += 3;
  if (!mcpi_csv_record(&at, copy + len, &f, &fcap, &nf, &line, why, sizeof why)) {
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row 1: %s", file, why);
    goto done;
  }
  for (size_t i = 0; i < nf && st == MCP_OK; i++) {
    int k = 0;
    while (k < C_COLUMNS && !(strlen(columns[k]) == f[i].n && !memcmp(columns[k], f[i].s, f[i].n)))
      k++;
    if (k == C_COLUMNS || r.col[k] >= 0)
      st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row 1, column %zu: expected one of "
                        "underlying, maturity, strike, moneyness, volatility, each once, got "
                        "'%.*s'", file, i + 1, (int)(f[i].n < 40 ? f[i].n : 40), f[i].s);
    else
      r.col[k] = (int)i;
  }
  if (st == MCP_OK && (r.col[C_UNDERLYING] < 0 || r.col[C_MATURITY] < 0 ||
                       r.col[C_VOLATILITY] < 0 || (r.col[C_STRIKE] < 0) == (r.col[C_MONEYNESS] < 0)))
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row 1: expected the columns underlying, "
                      "maturity, volatility and strike or moneyness (one of them)", file);
  while (st == MCP_OK && at < copy + len) {
    size_t first = line;
    if (!mcpi_csv_record(&at, copy + len, &f, &fcap, &nf, &line, why, sizeof why))
      st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row %zu: %s", file, first, why);
    else if (!mcpi_csv_blank(f, nf))
      st = csv_row(&r, first, f, nf);
  }
  if (st == MCP_OK && !r.n)
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: expected a quote a row after the header, "
                      "got none", file);
  if (st == MCP_OK)
    st = csv_document(&r, json, jlen);
done:
  free(copy);
  free(f);
  free(r.q);
  free(r.underlying);
  return st;
}

static mcp_status load(const char *name, const char *text, size_t len, const mcp_market *market,
                       mcp_quotes *out, char *err, size_t errlen)
{
  if (!out || !market) {
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT,
                        "quotes: expected a market and a place for the quotes");
  }
  memset(out, 0, sizeof *out);
  loading in = {out, market};
  mcp_status st;
  if (name && mcpi_csv_name(name)) {
    static const mcpi_read_rules rules = {MCPI_JSON_MAX_BYTES, "an input file",
                                          "CSV text (UTF-8)", 0, NULL};
    char *file = NULL, *json = NULL;
    size_t flen = 0, jlen = 0;
    if (!text && (st = mcpi_read_file(name, &rules, &file, &flen, err, errlen)) != MCP_OK)
      return st;
    st = csv_quotes(name, text ? text : file, text ? len : flen, market, &json, &jlen, err,
                    errlen);
    free(file);
    if (st == MCP_OK)
      st = mcpi_json_load_from_csv(name, json, jlen, err, errlen, fill_quotes, &in);
    free(json);
  } else
    st = mcpi_json_load(name, text, len, err, errlen, fill_quotes, &in);
  if (st != MCP_OK)
    mcp_quotes_free(out);
  return st;
}

mcp_status mcp_quotes_load(const char *path, const mcp_market *market, mcp_quotes *out,
                           char *err, size_t errlen)
{
  return load(path, NULL, 0, market, out, err, errlen);
}

mcp_status mcp_quotes_load_text(const char *name, const char *text, size_t len,
                                const mcp_market *market, mcp_quotes *out, char *err,
                                size_t errlen)
{
  return load(name, text ? text : "", text ? len : 0, market, out, err, errlen);
}

void mcp_quotes_free(mcp_quotes *q)
{
  if (!q)
    return;
  free(q->underlying);
  free(q->maturities);
  free(q->strikes);
  free(q->vols);
  memset(q, 0, sizeof *q);
}
