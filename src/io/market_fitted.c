/* market_fitted.c: a market file with one underlying made a fitted model
 * (mcp_market_text_fitted): that underlying's object written anew, the rest
 * of the file kept byte for byte (jansson would print every number of it
 * with 17 digits). */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/io/json_locate.h"
#include "src/io/load_json.h"

/* The fields of an underlying that a model gives, all removed before the
 * fitted model's are set (load_market.c's). */
static const char *const model_keys[] = {"volatility", "v0",       "kappa",   "theta",
                                         "xi",         "rho",      "lambda",  "jump_mean",
                                         "jump_vol",   "local_volatility", "implied_volatility"};

mcp_status mcp_market_text_fitted(const char *name, const char *text, size_t len,
                                  const char *underlying, const mcp_fit *fit, char **out,
                                  size_t *outlen, char *err, size_t errlen)
{
  if (!text || !underlying || !fit || !out || (unsigned)fit->model > MCP_FIT_MERTON)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "fitted market: expected a market's "
                        "text, an underlying, a fit and a place for the text");
  size_t count = 0;
  while (mcp_fit_param_name(fit->model, count))
    count++;
  if (fit->nparams != count)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "fitted market: a %s fit has %zu "
                        "parameters, got %zu", mcp_fit_model_name(fit->model), count,
                        fit->nparams);
  for (size_t k = 0; k < count; k++)
    if (!isfinite(fit->params[k]))
      return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "fitted market: %s: expected a "
                          "finite number, got %g", mcp_fit_param_name(fit->model, k),
                          fit->params[k]);
  if (!name)
    name = "market";
  *out = NULL;
  json_error_t je;
  json_t *root = len <= MCPI_JSON_MAX_BYTES ? json_loadb(text, len, JSON_REJECT_DUPLICATES, &je)
                                            : NULL;
  if (!root)
    return mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: expected the market's JSON (load it "
                        "first for the place of its error)", name);
  json_t *list = json_object_get(root, "underlyings"), *u = NULL, *x;
  size_t i, at = 0;
  json_array_foreach(list, i, x) {
    json_t *n = json_object_get(x, "name");
    if (json_is_string(n) && strcmp(json_string_value(n), underlying) == 0) {
      u = x;
      at = i;
    }
  }
  mcp_status st = MCP_OK;
  if (!json_is_object(u)) {
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: underlyings: no underlying '%s'", name,
                      underlying);
    goto done;
  }
  for (size_t k = 0; k < MCPI_COUNT(model_keys); k++)
    json_object_del(u, model_keys[k]);
  json_object_del(json_object_get(u, "curves"), "volatility"); /* the diffusion's: fitted */
  int ok = json_object_set_new(u, "model", json_string(mcp_fit_model_name(fit->model))) == 0;
  for (size_t k = 0; ok && k < fit->nparams; k++)
    ok = json_object_set_new(u, mcp_fit_param_name(fit->model, k),
                             json_real(fit->params[k])) == 0;
  const mcpi_json_path lp = {NULL, "underlyings", 0}, up = {&lp, NULL, at};
  mcpi_json_pos pos;
  char *obj = ok ? json_dumps(u, JSON_REAL_PRECISION(17)) : NULL;
  char *dump = obj && mcpi_json_locate(text, len, &up, 0, &pos)
                   ? malloc(len - (pos.end - pos.offset) + strlen(obj) + 1)
                   : NULL;
  if (dump) { /* text before the object, the object, text after it */
    size_t m = strlen(obj);
    memcpy(dump, text, pos.offset);
    memcpy(dump + pos.offset, obj, m);
    memcpy(dump + pos.offset + m, text + pos.end, len - pos.end);
    dump[len - (pos.end - pos.offset) + m] = '\0';
  }
  free(obj);
  if (!dump) {
    st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "out of memory for the fitted market");
    goto done;
  }
  /* what a market file must be, checked as the fit's users will read it */
  mcp_market *check = NULL;
  char why[MCPI_ERRLEN];
  size_t n = strlen(dump);
  if ((st = mcp_market_load_text(&check, "the fitted market", dump, n, why, sizeof why)) !=
      MCP_OK) {
    mcpi_fail_to(err, errlen, st, "%s: '%s' as a %s underlying makes no market: %s", name,
                 underlying, mcp_fit_model_name(fit->model), why);
    free(dump);
    goto done;
  }
  mcp_market_destroy(check);
  *out = dump;
  if (outlen)
    *outlen = n;
done:
  json_decref(root);
  return st;
}
