/* asian.c: the Asian option, on the average of its fixings, arithmetic or
 * geometric, with a fixed or a floating strike. */
#include "src/products/units.h"

static const char *const fields[] = {"average", "fixings", "strike_kind", "past_fixings", NULL};
static const mcpi_json_choice averages[] = {
    {"arithmetic", MCP_ARITHMETIC}, {"geometric", MCP_GEOMETRIC}, {NULL, 0}};

mcp_status mcpi_read_average(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                             mcpi_trade_in *tr)
{
  return mcpi_json_enum(d, path, t, "average", MCPI_REQUIRED, averages, &tr->average);
}

mcp_status mcpi_check_average(const mcp_trade *t, char *err)
{
  if ((unsigned)t->average > MCP_GEOMETRIC)
    UNIT_FAIL(MCP_ERR_ARGUMENT, "trade '%s': average: expected arithmetic or geometric", t->id);
  return MCP_OK;
}

void mcpi_average_spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  (void)j;
  if (t->average == MCP_GEOMETRIC)
    s->flags |= MCPI_GEOMETRIC;
}

const mcpi_product_unit mcpi_asian_unit = {
    .name = "asian", .traits = MCPI_PT_SCHEDULE | MCPI_PT_FLOATING | MCPI_PT_PATHWISE,
    .fields = fields,
    .read = mcpi_read_average, .check = mcpi_check_average, .spec = mcpi_average_spec};
