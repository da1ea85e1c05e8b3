/* moving_window.c: the moving-window option, on the average of the last
 * `window` fixings at the last one, knocked out while that average is past
 * an optional barrier (models/products/private.h). */
#include <math.h>
#include "src/products/units.h"

static const char *const fields[] = {"fixings", "barrier_kind", "barrier", "rebate", "window",
                                     "past_fixings", NULL};

static const char *check_window(uint64_t n)
{
  return n >= 1 && n <= MCP_MAX_PRIVATE_ARRAY - 2 ? NULL : "an integer from 1 to 62";
}

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  /* The barrier is optional, but its kind and rebate mean nothing without
   * it: any of the three needs the other two. */
  int need = json_object_get(t, "barrier") || json_object_get(t, "barrier_kind") ||
             json_object_get(t, "rebate");
  mcp_status st = mcpi_read_knock(d, path, t, tr, need);
  return st ? st
            : mcpi_json_uint(d, path, t, "window", MCPI_REQUIRED, check_window, &tr->window);
}

static mcp_status check(const mcp_trade *t, char *err)
{
  const char *why;
  size_t n = t->nfixings, room = MCP_MAX_PRIVATE_ARRAY - 2;
  mcp_status st = mcpi_check_no_control(t, err);
  if (st != MCP_OK)
    return st;
  if (t->window < 1 || t->window > n || t->window > room)
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': window: expected 1 to %zu fixings, got %zu", t->id,
              n < room ? n : room, t->window);
  if (t->barrier != 0) {
    if (t->barrier_kind != MCP_UP_AND_OUT && t->barrier_kind != MCP_DOWN_AND_OUT)
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': barrier kind: expected up-and-out or "
                "down-and-out for a moving window", t->id);
    if ((why = mcpi_check_spot(t->barrier)))
      UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': barrier: expected %s, or 0 for none, got %g",
                t->id, why, t->barrier);
  } else if (t->barrier_kind != MCP_UP_AND_OUT || t->rebate != 0) {
    /* Without a barrier these terms would be dropped silently (the trade then
     * prices as if it had none), as a barrier without its kind is refused. */
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': barrier: expected a level > 0 with %s, got none (0)",
              t->id, t->rebate != 0 ? "a rebate" : "a barrier kind");
  }
  return mcpi_check_rebate(t, err);
}

/* A seasoned one: its past fixings in the ring and their windows against
 * the barrier (mcpi_window_fix); knocked out, its rebate is known, and
 * every fixing past, its amount. */
static int keep(mcpi_trade *c, const mcp_trade *t)
{
  size_t n = t->nfixings, w = t->window, past = mcpi_past_fixings(n, t->fixings);
  if (!past)
    return 1;
  if (!mcpi_keep_seed(c, t))
    return 0;
  mcpi_payoff_spec p;
  mcpi_parr a = mcpi_replay(c, &p);
  mcpi_aset(&a, (int)w, 1); /* alive */
  for (size_t k = 0; k < past; k++)
    mcpi_window_fix(&a, &p, log(t->past_fixings[k]));
  if (mcpi_aget(&a, (int)w) == 0 || past == n)
    mcpi_replay_known(c, &a, &p);
  return 1;
}

const mcpi_product_unit mcpi_moving_window_unit = {
    .name = "moving-window", .traits = MCPI_PT_SCHEDULE | MCPI_PT_DATED_TERMS, .fields = fields,
    .read = read, .check = check, .keep = keep, .spec = mcpi_array_spec};
