/* products.c: the table of product units, by mcp_product, and the products'
 * names. */
#include <string.h>
#include "src/products/units.h"

extern const mcpi_product_unit mcpi_european_unit, mcpi_digital_unit, mcpi_asian_unit,
    mcpi_barrier_unit, mcpi_lookback_unit, mcpi_basket_unit, mcpi_best_of_unit,
    mcpi_worst_of_unit, mcpi_american_unit, mcpi_himalaya_unit, mcpi_cliquet_unit,
    mcpi_moving_window_unit, mcpi_bermudan_unit, mcpi_autocallable_unit,
    mcpi_average_digital_unit;

static const mcpi_product_unit *const units[] = {
    [MCP_PRODUCT_EUROPEAN] = &mcpi_european_unit,
    [MCP_PRODUCT_DIGITAL] = &mcpi_digital_unit,
    [MCP_PRODUCT_ASIAN] = &mcpi_asian_unit,
    [MCP_PRODUCT_BARRIER] = &mcpi_barrier_unit,
    [MCP_PRODUCT_LOOKBACK] = &mcpi_lookback_unit,
    [MCP_PRODUCT_BASKET] = &mcpi_basket_unit,
    [MCP_PRODUCT_BEST_OF] = &mcpi_best_of_unit,
    [MCP_PRODUCT_WORST_OF] = &mcpi_worst_of_unit,
    [MCP_PRODUCT_AMERICAN] = &mcpi_american_unit,
    [MCP_PRODUCT_HIMALAYA] = &mcpi_himalaya_unit,
    [MCP_PRODUCT_CLIQUET] = &mcpi_cliquet_unit,
    [MCP_PRODUCT_MOVING_WINDOW] = &mcpi_moving_window_unit,
    [MCP_PRODUCT_BERMUDAN] = &mcpi_bermudan_unit,
    [MCP_PRODUCT_AUTOCALLABLE] = &mcpi_autocallable_unit,
    [MCP_PRODUCT_AVERAGE_DIGITAL] = &mcpi_average_digital_unit,
};
_Static_assert(sizeof units / sizeof *units == MCP_PRODUCT_COUNT, "a unit for each product");

const mcpi_product_unit *mcpi_product_unit_of(mcp_product product)
{
  return (unsigned)product < MCP_PRODUCT_COUNT ? units[product] : NULL;
}

mcp_status mcp_product_from_name(const char *name, mcp_product *out)
{
  if (!name || !out)
    return mcpi_null(__func__, "name or out");
  for (int k = 0; k < MCP_PRODUCT_COUNT; k++)
    if (strcmp(units[k]->name, name) == 0) {
      *out = (mcp_product)k;
      return MCP_OK;
    }
  return mcpi_error(MCP_ERR_NOT_FOUND, "%s: no product '%s'", __func__, name);
}

const char *mcp_product_name(mcp_product product)
{
  return (unsigned)product < MCP_PRODUCT_COUNT ? units[product]->name : "unknown";
}
