/* deprecated.c: the setters of 0.1 that put how to run on the portfolio,
 * kept for one release.  They fill the portfolio's own settings, which a
 * pricing call takes where its context leaves an option unset
 * (mcpi_settings_resolve); new code gives them to the context
 * (mcp_run_options, mcp_context_set_options). */
#define MCP_ALLOW_DEPRECATED
#include "src/inputs/portfolio.h"

mcp_status mcp_portfolio_set_backend(mcp_portfolio *p, mcp_backend b)
{
  mcp_status st = !p ? mcpi_null(__func__, "portfolio") : mcpi_check_backend(b, p->err);
  if (st == MCP_OK)
    p->backend = b;
  return st;
}

mcp_backend mcp_portfolio_backend(const mcp_portfolio *p)
{
  return p ? p->backend : MCP_BACKEND_AUTO;
}

mcp_status mcp_portfolio_set_precision(mcp_portfolio *p, mcp_precision precision)
{
  return p ? mcpi_settings_precision(&p->legacy, precision, p->err)
           : mcpi_null(__func__, "portfolio");
}

mcp_precision mcp_portfolio_precision(const mcp_portfolio *p)
{
  return p ? p->legacy.precision : MCP_DOUBLE;
}

mcp_status mcp_portfolio_set_prefetch(mcp_portfolio *p, mcp_prefetch strategy, int distance,
                                      int padding)
{
  return p ? mcpi_settings_prefetch(&p->legacy, strategy, distance, padding, p->err)
           : mcpi_null(__func__, "portfolio");
}

void mcp_portfolio_prefetch(const mcp_portfolio *p, mcp_prefetch *strategy, int *distance,
                            int *padding)
{
  mcpi_settings_get_prefetch(p ? &p->legacy : NULL, strategy, distance, padding);
}

mcp_status mcp_portfolio_set_placement(mcp_portfolio *p, mcp_placement placement)
{
  return p ? mcpi_settings_placement(&p->legacy, placement, p->err)
           : mcpi_null(__func__, "portfolio");
}

mcp_placement mcp_portfolio_placement(const mcp_portfolio *p)
{
  return p ? p->legacy.placement : MCP_PLACEMENT_AUTO;
}

mcp_status mcp_portfolio_set_normals(mcp_portfolio *p, mcp_normals normals)
{
  return p ? mcpi_settings_normals(&p->legacy, normals, p->err) : mcpi_null(__func__, "portfolio");
}

mcp_normals mcp_portfolio_normals(const mcp_portfolio *p)
{
  return p ? p->legacy.normals : MCP_NORMALS_FUSED;
}

mcp_status mcp_portfolio_set_pde(mcp_portfolio *p, const mcp_pde_settings *settings)
{
  return p ? mcpi_settings_pde(&p->legacy, settings, p->err) : mcpi_null(__func__, "portfolio");
}

void mcp_portfolio_pde(const mcp_portfolio *p, mcp_pde_settings *settings)
{
  if (!settings)
    return;
  if (p)
    *settings = p->legacy.pde;
  else
    mcp_pde_settings_init(settings);
}
