/* digital.c: the digital option, cash or the asset when S_T ends in the
 * money. */
#include "src/products/units.h"

static const char *const fields[] = {"digital", "cash", NULL};
static const mcpi_json_choice digitals[] = {{"cash-or-nothing", MCP_CASH_OR_NOTHING},
                                            {"asset-or-nothing", MCP_ASSET_OR_NOTHING},
                                            {NULL, 0}};

mcp_status mcpi_read_digital(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             mcpi_trade_in *tr)
{
  mcp_status st;
  if ((st = mcpi_json_enum(d, path, t, "digital", MCPI_OPTIONAL, digitals, &tr->digital)) ||
      (st = mcpi_json_number(d, path, t, "cash", MCPI_OPTIONAL, mcpi_check_cash, &tr->cash)))
    return st;
  if (tr->digital == MCP_ASSET_OR_NOTHING && json_object_get(t, "cash"))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "cash", 0},
                              "no cash, as digital is asset-or-nothing");
  return MCP_OK;
}

mcp_status mcpi_check_digital(const mcp_trade *t, char *err)
{
  const char *why;
  if ((unsigned)t->digital > MCP_ASSET_OR_NOTHING)
    UNIT_FAIL(MCP_ERR_ARGUMENT, "trade '%s': digital: expected cash-or-nothing or "
              "asset-or-nothing", t->id);
  if ((why = mcpi_check_cash(t->cash)))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': cash: expected %s, got %g", t->id, why, t->cash);
  return MCP_OK;
}

void mcpi_digital_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  (void)j;
  if (t->digital == MCP_ASSET_OR_NOTHING)
    s->flags |= MCPI_ASSET;
}

const mcpi_product_unit mcpi_digital_unit = {
    .name = "digital", .fields = fields,
    .read = mcpi_read_digital, .check = mcpi_check_digital, .spec = mcpi_digital_spec};
