/* himalaya.c: the Himalaya option, notional x (A - K)+ or (K - A)+, A the
 * mean of the performances recorded at the fixings, each of the best asset
 * still in the basket, which then leaves it (models/products/private.h). */
#include <math.h>
#include "src/products/units.h"

static const char *const fields[] = {"assets", "fixings", "notional", "initial_fixings",
                                     "past_fixings", NULL};

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  mcp_status st = mcpi_read_notional(d, path, t, tr);
  return st ? st : mcpi_read_initial_fixings(d, path, t, tr, MCPI_OPTIONAL);
}

static mcp_status check(const mcp_trade *t, char *err)
{
  mcp_status st = mcpi_check_array_terms(t, err);
  if (st == MCP_OK && t->nfixings != t->nassets)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected %zu, one for each asset, got %zu",
              t->id, t->nassets, t->nfixings);
  return st ? st : mcpi_check_seasoned_start(t, err);
}

/* A seasoned one (or one struck before today): the assets its past
 * fixings took out (the best performance from the initial fixings, the
 * first of equals, swapped out of the list: mcpi_himalaya_fix), in the
 * trade's order of assets, and the sum they recorded; every fixing past,
 * its amount is known. */
static int keep(mcpi_trade *c, const mcp_trade *t)
{
  size_t n = t->nassets, past = mcpi_past_fixings(t->nfixings, t->fixings);
  if (!t->initial_fixings)
    return 1;
  if (!mcpi_keep_seed(c, t))
    return 0;
  mcpi_payoff_spec p;
  mcpi_parr a = mcpi_replay(c, &p);
  for (size_t i = 0; i < n; i++)
    mcpi_aset(&a, (int)(n + i), (double)i);
  for (size_t k = 0; k < past; k++) {
    double x[MCP_MAX_ASSETS] = {0};
    for (size_t i = 0; i < n; i++)
      x[i] = log(t->past_fixings[k * n + i]);
    mcpi_himalaya_fix(&a, NULL, &p, x);
  }
  if (past == n)
    mcpi_replay_known(c, &a, &p);
  return 1;
}

const mcpi_product_unit mcpi_himalaya_unit = {
    .name = "himalaya", .traits = MCPI_PT_ASSETS | MCPI_PT_ONE_ASSET | MCPI_PT_SCHEDULE |
              MCPI_PT_DATED_TERMS,
    .fields = fields, .read = read, .check = check, .keep = keep, .spec = mcpi_array_spec};
