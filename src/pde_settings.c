/* pde_settings.c: engines, products' default engines and the
 * finite-difference settings of a portfolio, and their names. */
#include <stdint.h>
#include "names.h"
#include "pde.h"
#include "validate.h"

static const char *const engine_names[] = {"mc", "pde"};
static const char *const product_names[MCP_PRODUCT_COUNT] = {
    "european", "digital", "asian", "barrier", "lookback", "basket", "best-of", "worst-of",
    "american", "himalaya", "cliquet", "moving-window", "bermudan",
    "autocallable"};
static const char *const scheme_names[] = {"crank-nicolson", "explicit"};
static const char *const stencil_names[] = {"regcache", "smem", "global"};

MCPI_NAMED_ENUM(mcp_engine, mcp_engine_from_name, mcp_engine_name, engine_names, "default")
MCPI_NAMED_ENUM(mcp_product, mcp_product_from_name, mcp_product_name, product_names, "unknown")
MCPI_NAMED_ENUM(mcp_pde_scheme, mcp_pde_scheme_from_name, mcp_pde_scheme_name, scheme_names,
           "unknown")
MCPI_NAMED_ENUM(mcp_stencil, mcp_stencil_from_name, mcp_stencil_name, stencil_names, "unknown")

mcp_status mcp_portfolio_set_engine(mcp_portfolio *p, mcp_product product, mcp_engine engine)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  if ((unsigned)product >= MCP_PRODUCT_COUNT)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine: unknown product %d", (int)product);
  if (engine != MCP_ENGINE_MC && engine != MCP_ENGINE_PDE)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine of %s: expected mc or pde",
                     product_names[product]);
  const char *why = mcpi_engine_misfit(product, engine);
  if (why)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine of %s: %s", product_names[product], why);
  p->engine[product] = engine;
  return MCP_OK;
}

const char *mcpi_engine_misfit(mcp_product product, mcp_engine engine)
{
  if (engine == MCP_ENGINE_PDE && product != MCP_PRODUCT_EUROPEAN &&
      product != MCP_PRODUCT_AMERICAN && product != MCP_PRODUCT_BARRIER)
    return "the grid prices european, american and barrier options; expected mc";
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

mcp_status mcp_portfolio_set_pde(mcp_portfolio *p, const mcp_pde_settings *s)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  if (!s)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "mcp_portfolio_set_pde: settings is NULL");
  if (s->scheme != MCP_PDE_CRANK_NICOLSON && s->scheme != MCP_PDE_EXPLICIT)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.scheme: expected crank-nicolson or explicit");
  const char *why;
  if ((why = mcpi_check_stencil_points(s->stencil_points < 0 ? UINT64_MAX
                                                             : (uint64_t)s->stencil_points)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.stencil_points: expected %s, got %d", why,
                     s->stencil_points);
  if ((why = mcpi_check_space_points(s->space_points)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.space_points: expected %s, got %u", why,
                     s->space_points);
  if ((why = mcpi_check_time_steps(s->time_steps)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.time_steps: expected %s, got %u", why,
                     s->time_steps);
  if ((why = mcpi_check_rannacher(s->rannacher)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.rannacher: expected %s, got %u", why,
                     s->rannacher);
  if ((why = mcpi_check_width(s->width)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.width: expected %s, got %g", why, s->width);
  if ((unsigned)s->stencil > MCP_STENCIL_GLOBAL)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.stencil: expected regcache, smem or global");
  if ((why = mcpi_check_coarsening(s->coarsening < 0 ? UINT64_MAX : (uint64_t)s->coarsening)))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.coarsening: expected %s, got %d", why,
                     s->coarsening);
  p->pde = *s;
  return MCP_OK;
}

void mcp_portfolio_pde(const mcp_portfolio *p, mcp_pde_settings *s)
{
  if (!s)
    return;
  if (p)
    *s = p->pde;
  else
    mcp_pde_settings_init(s);
}
