/* arrays.c: what the products that keep an array per path
 * (models/products/private.h) share: no control variate, a notional, and
 * their part of the path's array. */
#include <math.h>
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

mcp_status mcpi_check_array_terms(const mcp_trade *t, char *err)
{
  mcp_status st = mcpi_check_no_control(t, err);
  if (st == MCP_OK && !isfinite(t->notional))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': notional: expected a finite amount, got %g", t->id,
              t->notional);
  return st;
}

void mcpi_array_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  s->arr_off = j->arr_len;
  s->arr_len = mcpi_private_len(t->product, (int)t->nfix, (int)t->window);
  j->arr_len += s->arr_len;
  s->nper = (int32_t)t->nfix;
  s->best = t->best ? (int32_t)t->best : (int32_t)t->nfix;
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
