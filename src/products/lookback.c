/* lookback.c: the lookback option, on the extremum of the fixings (or of
 * the continuous path, on the bridge) and the spot at 0. */
#include "src/products/units.h"

static const char *const fields[] = {"fixings", "strike_kind", "monitoring", NULL};

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  (void)t;
  if (tr->monitoring == MCP_MONITOR_BGK)
    return mcpi_json_expected(d, &(mcpi_json_path){path, "monitoring", 0},
                              "discrete or bridge for a lookback");
  return MCP_OK;
}

static mcp_status check(const mcp_trade *t, char *err)
{
  if (t->monitoring != MCP_MONITOR_DISCRETE && t->monitoring != MCP_MONITOR_BRIDGE)
    UNIT_FAIL((unsigned)t->monitoring > MCP_MONITOR_BRIDGE ? MCP_ERR_ARGUMENT : MCP_ERR_INPUT,
              "trade '%s': monitoring: expected discrete or bridge for a lookback", t->id);
  return MCP_OK;
}

const mcpi_product_unit mcpi_lookback_unit = {
    .name = "lookback", .traits = MCPI_PT_WATCHED | MCPI_PT_FLOATING | MCPI_PT_PATHWISE,
    .fields = fields,
    .read = read, .check = check};
