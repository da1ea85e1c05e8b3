/* pde_settings.c: engines, products' default engines and the
 * finite-difference settings of a portfolio, and their names (the
 * products': src/products/products.c). */
#include <stdint.h>
#include "src/base/names.h"
#include "src/inputs/portfolio.h"
#include "src/inputs/product.h"
#include "src/base/validate.h"

static const char *const engine_names[] = {"mc", "pde", "analytic"};
static const char *const scheme_names[] = {"crank-nicolson", "explicit"};
static const char *const stencil_names[] = {"regcache", "smem", "global"};

MCPI_NAMED_ENUM(mcp_engine, mcp_engine_from_name, mcp_engine_name, engine_names, "default")
MCPI_NAMED_ENUM(mcp_pde_scheme, mcp_pde_scheme_from_name, mcp_pde_scheme_name, scheme_names,
           "unknown")
MCPI_NAMED_ENUM(mcp_stencil, mcp_stencil_from_name, mcp_stencil_name, stencil_names, "unknown")

mcp_status mcp_portfolio_set_engine(mcp_portfolio *p, mcp_product product, mcp_engine engine)
{
  if (!p)
    return mcpi_null(__func__, "portfolio");
  if ((unsigned)product >= MCP_PRODUCT_COUNT)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine: unknown product %d", (int)product);
  if (engine != MCP_ENGINE_MC && engine != MCP_ENGINE_PDE && engine != MCP_ENGINE_ANALYTIC)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine of %s: expected mc, pde or analytic",
                     mcp_product_name(product));
  const char *why = mcpi_engine_misfit(product, engine);
  if (why)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine of %s: %s", mcp_product_name(product), why);
  p->engine[product] = engine;
  return MCP_OK;
}

const char *mcpi_engine_misfit(mcp_product product, mcp_engine engine)
{
  if (engine == MCP_ENGINE_PDE && !mcpi_product_is(product, MCPI_PT_PDE))
    return "the grid prices european, american and barrier options; expected mc";
  if (engine == MCP_ENGINE_ANALYTIC && product != MCP_PRODUCT_EUROPEAN)
    return "the closed forms price european options; expected mc";
  return NULL;
}

mcp_engine mcp_portfolio_engine(const mcp_portfolio *p, mcp_product product)
{
  if (!p || (unsigned)product >= MCP_PRODUCT_COUNT)
    return MCP_ENGINE_DEFAULT;
  return p->engine[product];
}

void mcp_pde_settings_init(mcp_pde_settings *s)
{
  if (s)
    *s = (mcp_pde_settings){.scheme = MCP_PDE_CRANK_NICOLSON, .stencil_points = 3,
                            .space_points = 401, .time_steps = 400, .rannacher = 2,
                            .width = 6.0, .stencil = MCP_STENCIL_REGCACHE, .coarsening = 2};
}
