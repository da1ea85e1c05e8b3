/* lookback.c: the lookback option, on the extremum of the fixings (or of
 * the continuous path, on the bridge) and the spot at 0; seasoned, on the
 * extremes so far and those of the fixings to come (payoff.h). */
#include <math.h>
#include "src/products/units.h"

static const char *const fields[] = {"fixings", "strike_kind", "monitoring", "past_fixings",
                                     "extremum", NULL};

/* Whether the payoff reads the maximum: a fixed-strike call, a floating put. */
static int reads_max(mcp_option_type type, mcp_strike_kind kind)
{
  return (type == MCP_CALL) == (kind == MCP_FIXED_STRIKE);
}

static mcp_status read(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *t,
                       mcpi_trade_in *tr)
{
  if (tr->monitoring == MCP_MONITOR_BGK)
    return mcpi_json_expected(d, &(mcpi_json_path){path, "monitoring", 0},
                              "discrete or bridge for a lookback");
  if (tr->monitoring != MCP_MONITOR_BRIDGE && json_object_get(t, "extremum"))
    return mcpi_json_expected(d, &(mcpi_json_path){path, "extremum", 0},
                              "none on dates (their past_fixings give it); only a lookback "
                              "watched on the bridge gives its extremum so far");
  return mcpi_json_number(d, path, t, "extremum", MCPI_OPTIONAL, mcpi_check_spot,
                          &tr->extremum);
}

static mcp_status check(const mcp_trade *t, char *err)
{
  if (t->monitoring != MCP_MONITOR_DISCRETE && t->monitoring != MCP_MONITOR_BRIDGE)
    UNIT_FAIL((unsigned)t->monitoring > MCP_MONITOR_BRIDGE ? MCP_ERR_ARGUMENT : MCP_ERR_INPUT,
              "trade '%s': monitoring: expected discrete or bridge for a lookback", t->id);
  if (t->extremum != 0 && !(t->monitoring == MCP_MONITOR_BRIDGE && t->extremum > 0 &&
                            isfinite(t->extremum)))
    UNIT_FAIL(MCP_ERR_INPUT, "trade '%s': extremum: expected %s, got %g", t->id,
              t->monitoring == MCP_MONITOR_BRIDGE
                  ? "a spot > 0 (the extremum so far), or 0 for none"
                  : "0 on dates (past_fixings give a seasoned one's extremes)",
              t->extremum);
  return MCP_OK;
}

/* A seasoned one's extremes so far: its past fixings', or the extremum it
 * gives on the bridge. */
static int keep(mcpi_trade *c, const mcp_trade *t)
{
  if (t->extremum > 0) {
    c->extremes = 1;
    c->known_max = reads_max(t->type, t->strike_kind) ? t->extremum : 0;
    c->known_min = reads_max(t->type, t->strike_kind) ? HUGE_VAL : t->extremum;
  }
  return 1;
}

static void spec(mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s)
{
  (void)j;
  if (t->extremes) {
    s->flags |= MCPI_KNOWN_EXTREMES;
    s->log_max0 = log(t->known_max);
    s->log_min0 = log(t->known_min);
  }
}

const mcpi_product_unit mcpi_lookback_unit = {
    .name = "lookback", .traits = MCPI_PT_WATCHED | MCPI_PT_FLOATING | MCPI_PT_PATHWISE,
    .fields = fields,
    .read = read, .check = check, .keep = keep, .spec = spec};
