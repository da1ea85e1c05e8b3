/* load_market.c: reading a market file (doc/input-schema.md). */
#include <stdio.h>
#include "load_json.h"
#include "market.h"
#include "validate.h"

static const char *const market_keys[] = {"rate", "underlyings"};
static const char *const underlying_keys[] = {"name", "model",    "spot",
                                              "rate", "dividend", "volatility"};
static const mcpi_json_choice models[] = {{"black-scholes", MCPI_MODEL_BLACK_SCHOLES},
                                          {NULL, 0}};

/* rate is the file's default rate; rate_required says that it has none. */
static mcp_status read_underlying(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *u,
                                  int rate_required, double rate, mcp_market *m)
{
  const char *name = NULL;
  int model = MCPI_MODEL_BLACK_SCHOLES; /* checked; the only model so far */
  double spot = 0, dividend = 0, volatility = 0;
  const mcpi_underlying *same;
  mcp_status st;
  if ((st = mcpi_json_object(d, path, u, "an underlying object", underlying_keys,
                             MCPI_COUNT(underlying_keys))) ||
      (st = mcpi_json_string(d, path, u, "name", MCPI_REQUIRED, mcpi_check_name, &name)) ||
      (st = mcpi_json_enum(d, path, u, "model", MCPI_OPTIONAL, models, &model)) ||
      (st = mcpi_json_number(d, path, u, "spot", MCPI_REQUIRED, mcpi_check_spot, &spot)) ||
      (st = mcpi_json_number(d, path, u, "rate", rate_required, mcpi_check_rate, &rate)) ||
      (st = mcpi_json_number(d, path, u, "dividend", MCPI_OPTIONAL, mcpi_check_rate,
                             &dividend)) ||
      (st = mcpi_json_number(d, path, u, "volatility", MCPI_REQUIRED, mcpi_check_volatility,
                             &volatility)))
    return st;
  if ((same = mcpi_market_find(m, name))) {
    char what[64];
    snprintf(what, sizeof what, "a name not taken (underlyings[%zu] has it)",
             (size_t)(same - m->u));
    return mcpi_json_expected(d, &(mcpi_json_path){path, "name", 0}, what);
  }
  if ((st = mcp_market_add_black_scholes(m, name, spot, rate, dividend, volatility)))
    return mcpi_json_fail(d, path, 0, st, "%s", mcp_market_last_error(m));
  return MCP_OK;
}

static mcp_status fill_market(const mcpi_json_doc *d, void *target)
{
  const mcpi_json_path list_path = {NULL, "underlyings", 0};
  double rate = 0;
  json_t *list, *u;
  size_t i;
  mcp_status st;
  if ((st = mcpi_json_object(d, NULL, d->root, "a market object", market_keys,
                             MCPI_COUNT(market_keys))) ||
      (st = mcpi_json_number(d, NULL, d->root, "rate", MCPI_OPTIONAL, mcpi_check_rate, &rate)) ||
      (st = mcpi_json_array(d, NULL, d->root, "underlyings", MCPI_REQUIRED, 1,
                            "a non-empty array of underlyings", &list)))
    return st;
  int rate_required = !json_object_get(d->root, "rate");
  json_array_foreach(list, i, u)
    if ((st = read_underlying(d, &(mcpi_json_path){&list_path, NULL, i}, u, rate_required, rate,
                              target)))
      return st;
  return MCP_OK;
}

mcp_status mcp_market_load(mcp_market **market, const char *path, char *err, size_t errlen)
{
  if (!market)
    return MCP_ERR_ARGUMENT;
  mcp_status st = mcp_market_create(market);
  if (st != MCP_OK)
    mcpi_copy_message(err, errlen, mcp_strerror(st));
  else if ((st = mcpi_json_load(path, err, errlen, fill_market, *market)) != MCP_OK) {
    mcp_market_destroy(*market);
    *market = NULL;
  }
  return st;
}
