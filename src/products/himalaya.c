/* himalaya.c: the Himalaya option, notional x (A - K)+ or (K - A)+, A the
 * mean of the performances recorded at the fixings, each of the best asset
 * still in the basket, which then leaves it (models/products/private.h). */
#include "src/products/units.h"

static const char *const fields[] = {"assets", "fixings", "notional", NULL};

static mcp_status check(const mcp_trade *t, char *err)
{
  mcp_status st = mcpi_check_array_terms(t, err);
  if (st == MCP_OK && t->nfixings != t->nassets)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected %zu, one for each asset, got %zu",
              t->id, t->nassets, t->nfixings);
  return st;
}

const mcpi_product_unit mcpi_himalaya_unit = {
    .name = "himalaya", .traits = MCPI_PT_ASSETS | MCPI_PT_ONE_ASSET | MCPI_PT_SCHEDULE |
              MCPI_PT_DATED_TERMS,
    .fields = fields, .read = mcpi_read_notional, .check = check, .spec = mcpi_array_spec};
