/* pde_settings.c: engines, products' default engines and the
 * finite-difference settings of a portfolio, and their names. */
#include <math.h>
#include "names.h"
#include "pde.h"

static const char *const engine_names[] = {"mc", "pde"};
static const char *const product_names[MCP_PRODUCT_COUNT] = {
    "european", "digital", "asian", "barrier", "lookback", "basket", "best-of", "worst-of",
    "american"};
static const char *const scheme_names[] = {"crank-nicolson", "explicit"};
static const char *const stencil_names[] = {"regcache", "smem", "global"};

#define NAMES(a) (int)(sizeof a / sizeof *a)

/* The from_name and name calls of an enumeration whose values index table. */
#define NAMED_ENUM(type, from_name, name_of, table, unknown)                                \
  mcp_status from_name(const char *name, type *out)                                       \
  {                                                                                        \
    int i = 0;                                                                             \
    mcp_status st = out ? mcpi_name_parse(table, NAMES(table), name, &i) : MCP_ERR_ARGUMENT; \
    if (st == MCP_OK)                                                                      \
      *out = (type)i;                                                                      \
    return st;                                                                             \
  }                                                                                        \
  const char *name_of(type v)                                                              \
  {                                                                                        \
    return (unsigned)v < (unsigned)NAMES(table) ? table[v] : unknown;                      \
  }

NAMED_ENUM(mcp_engine, mcp_engine_from_name, mcp_engine_name, engine_names, "default")
NAMED_ENUM(mcp_product, mcp_product_from_name, mcp_product_name, product_names, "unknown")
NAMED_ENUM(mcp_pde_scheme, mcp_pde_scheme_from_name, mcp_pde_scheme_name, scheme_names,
           "unknown")
NAMED_ENUM(mcp_stencil, mcp_stencil_from_name, mcp_stencil_name, stencil_names, "unknown")

mcp_status mcp_portfolio_set_engine(mcp_portfolio *p, mcp_product product, mcp_engine engine)
{
  if (!p)
    return MCP_ERR_ARGUMENT;
  if ((unsigned)product >= MCP_PRODUCT_COUNT)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine: unknown product %d", (int)product);
  if (engine != MCP_ENGINE_MC && engine != MCP_ENGINE_PDE)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "engine of %s: expected mc or pde",
                     product_names[product]);
  p->engine[product] = engine;
  return MCP_OK;
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
  if (s->stencil_points != 3 && s->stencil_points != 5)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.stencil_points: expected 3 or 5, got %d",
                     s->stencil_points);
  if (s->space_points < MCPI_PDE_MIN_POINTS || s->space_points > MCPI_PDE_MAX_POINTS)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT,
                     "pde.space_points: expected an integer from %u to %u, got %u",
                     MCPI_PDE_MIN_POINTS, MCPI_PDE_MAX_POINTS, s->space_points);
  if (s->time_steps < 1 || s->time_steps > MCPI_PDE_MAX_STEPS)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT,
                     "pde.time_steps: expected an integer from 1 to %u, got %u",
                     MCPI_PDE_MAX_STEPS, s->time_steps);
  if (s->rannacher > 16)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT,
                     "pde.rannacher: expected an integer from 0 to 16, got %u", s->rannacher);
  if (!(s->width >= 1 && s->width <= 20))
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT,
                     "pde.width: expected a number of standard deviations from 1 to 20, got %g",
                     s->width);
  if ((unsigned)s->stencil > MCP_STENCIL_GLOBAL)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.stencil: expected regcache, smem or global");
  if (s->coarsening != 1 && s->coarsening != 2 && s->coarsening != 4 && s->coarsening != 8)
    return mcpi_fail(p->err, MCP_ERR_ARGUMENT, "pde.coarsening: expected 1, 2, 4 or 8, got %d",
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
