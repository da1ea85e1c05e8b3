/* market_dates.c: a market's valuation date and day count, and the times in
 * years of dates by them (src/base/dates.h). */
#include <stdlib.h>
#include "src/inputs/market.h"

/* The day count called name (NULL: the market's own, or ACT/365F), or -1. */
static int day_count(const mcp_market *m, const char *name)
{
  if (!name)
    return m->dates ? (int)m->dates->basis.day_count : MCPI_DC_ACT_365F;
  return mcpi_day_count_of(name);
}

mcp_status mcp_market_set_valuation_date(mcp_market *m, const char *date, const char *name)
{
  if (!m)
    return MCP_ERR_ARGUMENT;
  mcpi_date d;
  const char *why = date ? mcpi_date_parse(date, &d) : "a date YYYY-MM-DD";
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "valuation date: expected %s, got '%.32s'", why,
                     date ? date : "NULL");
  int dc = day_count(m, name);
  if (dc < 0)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "day count: expected %s, got '%.32s'",
                     mcpi_check_day_count(name), name);
  if (!m->dates && !(m->dates = calloc(1, sizeof *m->dates)))
    return mcpi_fail(m->err, MCP_ERR_NO_MEMORY, "out of memory");
  m->dates->basis.valuation = d;
  m->dates->basis.day_count = (mcpi_day_count)dc;
  if (!m->dates->basis.calendar)
    m->dates->basis.calendar = &mcpi_weekends;
  return MCP_OK;
}

mcp_status mcp_market_year_fraction(const mcp_market *m, const char *date, const char *name,
                                    double *years, char *err, size_t errlen)
{
  if (!m || !years)
    return MCP_ERR_ARGUMENT;
  if (!m->dates)
    return mcpi_fail_to(err, errlen, MCP_ERR_INPUT,
                        "year fraction: the market has no valuation date (its file's "
                        "valuation_date, or mcp_market_set_valuation_date)");
  mcpi_date d;
  const char *why = date ? mcpi_date_parse(date, &d) : "a date YYYY-MM-DD";
  if (why)
    return mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "year fraction: expected %s, got '%.32s'",
                        why, date ? date : "NULL");
  int dc = day_count(m, name);
  if (dc < 0)
    return mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "day count: expected %s, got '%.32s'",
                        mcpi_check_day_count(name), name);
  const mcpi_date_basis *b = &m->dates->basis;
  *years = mcpi_year_fraction((mcpi_day_count)dc, b->valuation, d, b->calendar);
  return MCP_OK;
}
