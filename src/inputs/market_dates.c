/* market_dates.c: a market's valuation date and day count, and the times in
 * years of dates by them (src/base/dates.h). */
#include <math.h>
#include <stdlib.h>
#include "src/inputs/market.h"
#include "src/base/validate.h"

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
    return mcpi_null(__func__, "market");
  mcpi_date d;
  const char *why = date ? mcpi_date_parse(date, &d) : "a date YYYY-MM-DD";
  if (why)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "valuation date: expected %s, got '%.32s'", why,
                     date ? date : "NULL");
  int dc = day_count(m, name);
  if (dc < 0)
    return mcpi_fail(m->err, MCP_ERR_INPUT, "day count: expected %s, got '%.32s'",
                     mcpi_check_day_count(name), name);
  const mcpi_calendar *cal = m->dates && m->dates->basis.calendar ? m->dates->basis.calendar
                                                                   : &mcpi_weekends;
  if (dc == MCPI_DC_BUS_252 && !mcpi_business_day(cal, d))
    return mcpi_fail(m->err, MCP_ERR_INPUT, "valuation date: expected a business day of the "
                     "calendar under BUS/252 (the next one would be 0 years away, as today), "
                     "got '%.32s'", date);
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
    return mcpi_null(__func__, "market or years");
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

mcp_status mcp_market_date_of(const mcp_market *m, double years, char *date)
{
  if (!m || !date)
    return mcpi_null(__func__, "market or date");
  date[0] = '\0';
  if (!m->dates || !(fabs(years) <= MCPI_MAX_MATURITY))
    return mcpi_error(MCP_ERR_INPUT, "%s: %s", __func__,
                      !m->dates ? "the market has no valuation date"
                                : "expected a time within the dates' range");
  const mcpi_date_basis *b = &m->dates->basis;
  const double tol = 1e-9; /* years: a date's time, whatever rounding it went through */
#define TIME_OF(day) mcpi_year_fraction(b->day_count, b->valuation, (day), b->calendar)
  /* the first day whose time reaches years: times rise with the date */
  mcpi_date lo = b->valuation - 36600, hi = b->valuation + 36600;
  while (lo < hi) {
    mcpi_date mid = lo + (hi - lo) / 2;
    if (TIME_OF(mid) < years - tol)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* of the days at that time (a weekend's under BUS/252, a 31st's under
   * 30/360), the first business day, else the first */
  mcpi_date best = lo;
  for (mcpi_date d = lo; d < lo + 8 && fabs(TIME_OF(d) - years) <= tol; d++)
    if (mcpi_business_day(b->calendar, d)) {
      best = d;
      break;
    }
  if (!(fabs(TIME_OF(best) - years) <= tol))
    return mcpi_error(MCP_ERR_INPUT, "%s: no date falls at %.17g years", __func__, years);
#undef TIME_OF
  mcpi_date_format(best, date);
  return MCP_OK;
}
