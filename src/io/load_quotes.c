/* load_quotes.c: reading a surface of implied volatilities (mcp_quotes)
 *   {"underlying": "ACME", "maturities": [0.25, "2027-06-30"],
 *    "strikes": [90, 100, 110] (or "moneyness": [0.9, 1, 1.1]),
 *    "volatilities": [[0.24, 0.21, null], [0.23, 0.21, 0.2]]}
 * the maturities in years or, where the market has a valuation date, dates;
 * a moneyness is strike over the underlying's spot in the market. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/validate.h"
#include "src/inputs/market.h"
#include "src/io/load_json.h"

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

static mcp_status fill_quotes(const mcpi_json_doc *file, void *target)
{
  const loading *in = target;
  mcpi_json_doc dated = *file;
  const mcpi_json_doc *d = &dated;
  dated.dates = in->market->dates;
  mcp_quotes *q = in->q;
  const mcpi_json_path mpath = {NULL, "maturities", 0}, vpath = {NULL, "volatilities", 0};
  const char *name;
  json_t *mat, *strikes = NULL, *money = NULL, *vols;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a quotes object", keys, MCPI_COUNT(keys))) ||
      (st = mcpi_json_string(d, NULL, d->root, "underlying", MCPI_REQUIRED, mcpi_check_name,
                             &name)) ||
      (st = mcpi_json_array(d, NULL, d->root, "maturities", MCPI_REQUIRED, 1,
                            "a non-empty array of maturities", &mat)) ||
      (st = mcpi_json_array(d, NULL, d->root, "strikes", MCPI_OPTIONAL, 1,
                            "a non-empty array of strikes", &strikes)) ||
      (st = mcpi_json_array(d, NULL, d->root, "moneyness", MCPI_OPTIONAL, 1,
                            "a non-empty array of strikes over spot", &money)) ||
      (st = mcpi_json_array(d, NULL, d->root, "volatilities", MCPI_REQUIRED, 1,
                            "an array of rows of volatilities, one a maturity", &vols)))
    return st;
  const mcpi_underlying *u = mcpi_market_find(in->market, name);
  if (!u) {
    const mcpi_json_path p = {NULL, "underlying", 0};
    return mcpi_json_fail(d, &p, 0, MCP_ERR_INPUT, "expected an underlying of the market, got "
                          "'%s'", name);
  }
  if (!strikes == !money)
    return mcpi_json_fail(d, NULL, 0, MCP_ERR_INPUT, "expected strikes or moneyness, one of "
                          "them");
  const mcpi_json_path kpath = {NULL, strikes ? "strikes" : "moneyness", 0};
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
    q->strikes[k] *= money ? u->spot : 1;
  }
  if ((bad = unsorted(q->strikes, q->nstrikes)) < q->nstrikes)
    return mcpi_json_expected(d, &(mcpi_json_path){&kpath, NULL, bad},
                              "a strike above the one before");
  if (json_array_size(vols) != q->nmaturities)
    return mcpi_json_fail(d, &vpath, 0, MCP_ERR_INPUT, "expected %zu rows, one a maturity, "
                          "got %zu", q->nmaturities, json_array_size(vols));
  if (!(q->vols = malloc(q->nmaturities * q->nstrikes * sizeof *q->vols)) ||
      !(q->underlying = strdup(name)))
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory for the quotes");
  for (size_t i = 0; i < q->nmaturities; i++)
    if ((st = read_row(d, &(mcpi_json_path){&vpath, NULL, i}, json_array_get(vols, i),
                       q->nstrikes, q->vols + i * q->nstrikes)))
      return st;
  return MCP_OK;
}

static mcp_status load(const char *name, const char *text, size_t len, const mcp_market *market,
                       mcp_quotes *out, char *err, size_t errlen)
{
  if (!out || !market) {
    mcpi_copy_message(err, errlen, "quotes: expected a market and a place for the quotes");
    return MCP_ERR_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  loading in = {out, market};
  mcp_status st = mcpi_json_load(name, text, len, err, errlen, fill_quotes, &in);
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
