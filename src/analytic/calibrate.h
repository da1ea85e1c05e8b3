/* calibrate.h: models fitted to implied volatilities (mcp_calibrate). */
#ifndef MCP_ANALYTIC_CALIBRATE_H
#define MCP_ANALYTIC_CALIBRATE_H

#include "src/inputs/market.h"

/* The fit of model to the quotes qt on underlying u's forwards; each quoted
 * point's fitted volatility into model_vols (NAN elsewhere) when not NULL. */
mcp_status mcpi_calibrate(const mcpi_underlying *u, const mcp_quotes *qt, mcp_fit_model model,
                          mcp_fit *out, double *model_vols, char *err);

#endif
