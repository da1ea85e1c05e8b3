/* cliquet.c: the cliquet, notional x min(global_cap, max(global_floor, the
 * sum of the best period returns, each clamped to [local_floor,
 * local_cap])) (models/products/private.h). */
#include <math.h>
#include "src/products/units.h"

static const char *const fields[] = {"fixings", "notional", "best", "local_floor", "local_cap",
                                     "global_floor", "global_cap", "initial_fixings",
                                     "past_fixings", NULL};

static const char *check_best(uint64_t n)
{
  return n <= MCP_MAX_PRIVATE_ARRAY ? NULL : "a number of periods (0 for all)";
}

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  mcp_status st;
  (void)((st = mcpi_json_uint(d, path, t, "best", MCPI_OPTIONAL, check_best, &tr->best)) ||
         (st = mcpi_json_number(d, path, t, "local_floor", MCPI_OPTIONAL, mcpi_check_finite,
                                &tr->local_floor)) ||
         (st = mcpi_json_number(d, path, t, "local_cap", MCPI_OPTIONAL, mcpi_check_finite,
                                &tr->local_cap)) ||
         (st = mcpi_json_number(d, path, t, "global_floor", MCPI_OPTIONAL, mcpi_check_finite,
                                &tr->global_floor)) ||
         (st = mcpi_json_number(d, path, t, "global_cap", MCPI_OPTIONAL, mcpi_check_finite,
                                &tr->global_cap)) ||
         (st = mcpi_read_notional(d, path, t, tr)) ||
         (st = mcpi_read_initial_fixings(d, path, t, tr, MCPI_OPTIONAL)));
  return st;
}

static mcp_status check(const mcp_trade *t, char *err)
{
  size_t n = t->nfixings, room = MCP_MAX_PRIVATE_ARRAY - 2;
  mcp_status st = mcpi_check_array_terms(t, err);
  if (st != MCP_OK)
    return st;
  if (n > room)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': fixings: expected at most %zu periods, got %zu",
              t->id, room, n);
  if (t->best > n)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': best: expected 0 (all) to %zu periods, got %zu",
              t->id, n, t->best);
  if (isnan(t->local_floor) || isnan(t->local_cap) || t->local_floor > t->local_cap)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': local_cap: expected at least local_floor (%g), "
              "got %g", t->id, t->local_floor, t->local_cap);
  if (isnan(t->global_floor) || isnan(t->global_cap) || t->global_floor > t->global_cap)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': global_cap: expected at least global_floor (%g), "
              "got %g", t->id, t->global_floor, t->global_cap);
  return mcpi_check_seasoned_start(t, err);
}

/* A seasoned one (or one struck before today): its past periods' clamped
 * returns, sorted, from its initial fixing (mcpi_cliquet_fix); every period
 * past, its amount is known. */
static int keep(mcpi_trade *c, const mcp_trade *t)
{
  size_t n = t->nfixings, past = mcpi_past_fixings(n, t->fixings);
  if (!t->initial_fixings)
    return 1;
  if (!mcpi_keep_seed(c, t))
    return 0;
  mcpi_payoff_spec p;
  mcpi_parr a = mcpi_replay(c, &p);
  mcpi_aset(&a, (int)n, t->initial_fixings[0]); /* the first period's start */
  for (size_t k = 0; k < past; k++)
    mcpi_cliquet_fix(&a, &p, log(t->past_fixings[k]));
  if (past == n)
    mcpi_replay_known(c, &a, &p);
  return 1;
}

const mcpi_product_unit mcpi_cliquet_unit = {
    .name = "cliquet", .traits = MCPI_PT_SCHEDULE | MCPI_PT_NO_TYPE | MCPI_PT_OWN_STRIKE |
              MCPI_PT_DATED_TERMS,
    .fields = fields, .read = read, .check = check, .keep = keep, .spec = mcpi_array_spec};
