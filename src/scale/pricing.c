/* pricing.c: the pricing calls (mcp_price, mcp_price_greeks,
 * mcp_price_scenarios, mcp_price_frtb): their arguments checked, then one run or, on a
 * context of several devices, slices of it on each (spread.c); each clears
 * mcp_context_cancel's request as it returns. */
#include "src/exec/context.h"
#include "src/scale/scale.h"

/* The arguments of a pricing call: MCP_OK, or which one is missing
 * (absent: the name of the call's own input when it is NULL, else NULL). */
static mcp_status check_args(mcp_context *ctx, const char *fn, const mcp_market *market,
                             const mcp_portfolio *portfolio, const char *absent, int results)
{
  mcpi_call_begin(ctx);
  if (!results)
    return ctx ? mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "%s: results is NULL", fn)
               : mcpi_null(fn, "ctx and results");
  if (!ctx)
    return mcpi_null(fn, "ctx");
  if (!market || !portfolio || absent)
    return mcpi_fail(ctx->err, MCP_ERR_ARGUMENT, "%s: %s is NULL", fn,
                     !market ? "market" : !portfolio ? "portfolio" : absent);
  return MCP_OK;
}

mcp_status mcp_price(mcp_context *ctx, const mcp_market *market, const mcp_portfolio *portfolio,
                     mcp_results **results)
{
  if (results)
    *results = NULL;
  mcp_status st = check_args(ctx, "mcp_price", market, portfolio, NULL, results != NULL);
  return mcpi_call_end(ctx, st ? st
                                    : mcpi_spread(ctx, market, portfolio, NULL, NULL, results,
                                                  NULL));
}

mcp_status mcp_price_greeks(mcp_context *ctx, const mcp_market *market,
                            const mcp_portfolio *portfolio, const mcp_greeks *greeks,
                            mcp_results **results)
{
  if (results)
    *results = NULL;
  mcp_status st = check_args(ctx, "mcp_price_greeks", market, portfolio,
                             greeks ? NULL : "greeks", results != NULL);
  return mcpi_call_end(ctx, st ? st
                                    : mcpi_spread(ctx, market, portfolio, greeks, NULL, results,
                                                  NULL));
}

mcp_status mcp_price_scenarios(mcp_context *ctx, const mcp_market *market,
                               const mcp_portfolio *portfolio, const mcp_scenarios *scenarios,
                               mcp_scenario_results **results)
{
  if (results)
    *results = NULL;
  mcp_status st = check_args(ctx, "mcp_price_scenarios", market, portfolio,
                             scenarios ? NULL : "scenarios", results != NULL);
  return mcpi_call_end(ctx, st ? st
                                    : mcpi_spread(ctx, market, portfolio, NULL, scenarios, NULL,
                                                  results));
}

/* The FRTB view: its scenario set priced as any (frtb.c). */
mcp_status mcp_price_frtb(mcp_context *ctx, const mcp_market *market,
                          const mcp_portfolio *portfolio, mcp_frtb **out)
{
  if (out)
    *out = NULL;
  mcp_status st = check_args(ctx, "mcp_price_frtb", market, portfolio, NULL, out != NULL);
  if (st != MCP_OK)
    return mcpi_call_end(ctx, st);
  char err[MCPI_ERRLEN];
  mcp_scenarios *s = NULL;
  mcp_scenario_results *r = NULL;
  st = mcp_frtb_scenarios(market, portfolio, &s, err, sizeof err);
  if (st == MCP_OK && (st = mcp_price_scenarios(ctx, market, portfolio, s, &r)) == MCP_OK)
    st = mcp_frtb_from_results(market, portfolio, r, out, err, sizeof err);
  if (st != MCP_OK && !(s && !r)) /* the pricing said its own */
    mcpi_fail(ctx->err, st, "%s", err);
  mcp_scenario_results_destroy(r);
  mcp_scenarios_destroy(s);
  return mcpi_call_end(ctx, st);
}
