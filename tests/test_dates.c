/* test_dates.c: dates, day counts, calendars and schedules (src/base/dates.h),
 * and the market and portfolio files that give them: each against values
 * worked by hand or by counting day by day. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "src/base/dates.h"
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"

static mcpi_date day(const char *s)
{
  mcpi_date d = 0;
  const char *why = mcpi_date_parse(s, &d);
  if (why)
    fail_msg("%s: %s", s, why);
  return d;
}

static void test_parse(void **state)
{
  mcpi_date d;
  assert_int_equal(day("1970-01-01"), 0);
  assert_int_equal(day("1970-01-02"), 1);
  assert_int_equal(day("1969-12-31"), -1);
  assert_int_equal(day("2000-03-01") - day("2000-02-28"), 2); /* 2000 leaps */
  assert_int_equal(day("1900-03-01") - day("1900-02-28"), 1); /* 1900 does not */
  const char *bad[] = {"2026-1-01", "2026-01-1", "2026/01/01", "2026-01-01x", "2026-02-29",
                       "2026-13-01", "2026-00-10", "2026-04-31", "1899-12-31", "2200-01-01",
                       "", "20260101", " 2026-01-01"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (!mcpi_date_parse(bad[i], &d))
      fail_msg("'%s' parsed", bad[i]);
  assert_string_equal(mcpi_date_parse("2026-02-30", &d), "a date whose day is in its month");
  assert_string_equal(mcpi_date_parse("1899-12-31", &d), "a date of the years 1900 to 2199");
}

/* Every day of the range back to its fields and text, one day apart, and
 * the weekdays a week apart. */
static void test_civil_round_trip(void **state)
{
  mcpi_date lo = mcpi_date_of(1900, 1, 1), hi = mcpi_date_of(2199, 12, 31);
  int y0, m0, d0;
  mcpi_date_civil(lo, &y0, &m0, &d0);
  for (mcpi_date d = lo; d <= hi; d++) {
    int y, m, dd;
    char text[11];
    mcpi_date_civil(d, &y, &m, &dd);
    if (mcpi_date_of(y, m, dd) != d)
      fail_msg("day %d", (int)d);
    if (d > lo && !(dd == d0 + 1 || (dd == 1 && (m == m0 % 12 + 1))))
      fail_msg("day %d: %d-%d-%d after %d-%d-%d", (int)d, y, m, dd, y0, m0, d0);
    mcpi_date_format(d, text);
    assert_int_equal(day(text), d);
    y0 = y, m0 = m, d0 = dd;
  }
  assert_int_equal(mcpi_date_weekday(day("2026-11-29")), 6); /* a Sunday */
  assert_int_equal(mcpi_date_weekday(day("2000-01-01")), 5); /* a Saturday */
  assert_int_equal(mcpi_date_weekday(day("1900-01-01")), 0); /* a Monday */
}

static void test_day_counts(void **state)
{
  const mcpi_calendar *w = &mcpi_weekends;
  assert_true(mcpi_year_fraction(MCPI_DC_ACT_365F, day("2026-01-01"), day("2027-01-01"), w) == 1);
  assert_true(mcpi_year_fraction(MCPI_DC_ACT_360, day("2026-01-01"), day("2026-07-01"), w) ==
              181.0 / 360);
  /* ISDA's example: 61 days of 2003 and 121 of 2004 */
  double isda = mcpi_year_fraction(MCPI_DC_ACT_ACT, day("2003-11-01"), day("2004-05-01"), w);
  assert_true(isda == 61.0 / 365 + 121.0 / 366);
  assert_true(fabs(isda - 0.497724380567) < 1e-12);
  /* 2003's last 334 days, 2004 and 2005 whole, 2006's first 31 */
  assert_true(mcpi_year_fraction(MCPI_DC_ACT_ACT, day("2003-02-01"), day("2006-02-01"), w) ==
              334.0 / 365 + 2 + 31.0 / 365);
  /* 30/360: a 31st is the 30th; the end's only where the start is the 30th or 31st */
  assert_true(mcpi_year_fraction(MCPI_DC_30_360, day("2026-01-31"), day("2026-03-31"), w) ==
              60.0 / 360);
  assert_true(mcpi_year_fraction(MCPI_DC_30_360, day("2026-02-28"), day("2026-03-31"), w) ==
              33.0 / 360);
  assert_true(mcpi_year_fraction(MCPI_DC_30_360, day("2026-01-30"), day("2027-02-28"), w) ==
              (360.0 + 30 - 2) / 360);
  /* backwards: the negative */
  assert_true(mcpi_year_fraction(MCPI_DC_ACT_360, day("2026-07-01"), day("2026-01-01"), w) ==
              -181.0 / 360);
  /* BUS/252: Monday to Monday, five days; a Wednesday holiday one less; a
   * Saturday one changes nothing */
  mcpi_date hol[] = {day("2026-12-02"), day("2026-12-05")};
  mcpi_calendar c = {"X", MCPI_WEEKEND_SAT_SUN, hol, 2};
  assert_true(mcpi_year_fraction(MCPI_DC_BUS_252, day("2026-11-30"), day("2026-12-07"), w) ==
              5.0 / 252);
  assert_true(mcpi_year_fraction(MCPI_DC_BUS_252, day("2026-11-30"), day("2026-12-07"), &c) ==
              4.0 / 252);
}

/* BUS/252's count against a walk over the days, for calendars of several
 * weekends and holidays and for many spans. */
static void test_business_days_counted(void **state)
{
  mcpi_date hol[40];
  uint64_t x = 88172645463325252u;
  for (int cal = 0; cal < 8; cal++) {
    mcpi_calendar c = {"X", cal == 0 ? 0u : cal == 1 ? 1u << 4 | 1u << 5 : MCPI_WEEKEND_SAT_SUN,
                       hol, 0};
    for (int k = 0; k < 40; k++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      hol[k] = day("2026-01-01") + (mcpi_date)(x % 1500);
    }
    c.nholiday = (size_t)cal * 5;
    mcpi_calendar_sort(&c);
    for (int s = 0; s < 200; s++) {
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      mcpi_date a = day("2025-10-01") + (mcpi_date)(x % 1800);
      mcpi_date b = a + (mcpi_date)((x >> 32) % 900);
      int n = 0;
      for (mcpi_date d = a; d < b; d++)
        n += mcpi_business_day(&c, d);
      if (mcpi_year_fraction(MCPI_DC_BUS_252, a, b, &c) != n / 252.0)
        fail_msg("calendar %d, days %d to %d: %g, counted %d", cal, (int)a, (int)b,
                 252 * mcpi_year_fraction(MCPI_DC_BUS_252, a, b, &c), n);
    }
  }
}

static void test_rolls(void **state)
{
  const mcpi_calendar *w = &mcpi_weekends;
  mcpi_date sat = day("2026-11-28");
  assert_int_equal(mcpi_date_roll(w, sat, MCPI_ROLL_FOLLOWING), day("2026-11-30"));
  assert_int_equal(mcpi_date_roll(w, sat, MCPI_ROLL_PRECEDING), day("2026-11-27"));
  assert_int_equal(mcpi_date_roll(w, sat, MCPI_ROLL_UNADJUSTED), sat);
  /* a month's last Saturday: modified following stays in the month */
  assert_int_equal(mcpi_date_roll(w, day("2026-05-30"), MCPI_ROLL_MODIFIED_FOLLOWING),
                   day("2026-05-29"));
  assert_int_equal(mcpi_date_roll(w, day("2026-05-30"), MCPI_ROLL_FOLLOWING), day("2026-06-01"));
  /* a month's first Sunday: modified preceding too */
  assert_int_equal(mcpi_date_roll(w, day("2026-11-01"), MCPI_ROLL_MODIFIED_PRECEDING),
                   day("2026-11-02"));
  mcpi_date hol[] = {day("2026-11-30")};
  mcpi_calendar c = {"X", MCPI_WEEKEND_SAT_SUN, hol, 1};
  assert_int_equal(mcpi_date_roll(&c, sat, MCPI_ROLL_FOLLOWING), day("2026-12-01"));
  assert_int_equal(mcpi_date_roll(&c, day("2026-11-30"), MCPI_ROLL_MODIFIED_FOLLOWING),
                   day("2026-11-27"));
}

static void expect_schedule(const char *first, const char *last, mcpi_frequency f, mcpi_roll r,
                            const mcpi_calendar *c, const char *const *want, size_t n)
{
  mcpi_date got[64];
  size_t k = mcpi_schedule_dates(day(first), day(last), f, r, c, got, 64);
  assert_int_equal(k, n);
  assert_int_equal(mcpi_schedule_dates(day(first), day(last), f, r, c, NULL, 0), n);
  for (size_t i = 0; i < n; i++)
    if (got[i] != day(want[i])) {
      char text[11];
      mcpi_date_format(got[i], text);
      fail_msg("date %zu: %s, expected %s", i, text, want[i]);
    }
}

static void test_schedules(void **state)
{
  const mcpi_calendar *w = &mcpi_weekends;
  /* months keep the first's day or end where shorter, not where the last one did */
  expect_schedule("2027-01-31", "2027-06-30", MCPI_FREQ_MONTHLY, MCPI_ROLL_UNADJUSTED, w,
                  (const char *const[]){"2027-01-31", "2027-02-28", "2027-03-31", "2027-04-30",
                                        "2027-05-31", "2027-06-30"},
                  6);
  /* rolled: 2027-01-31 and 2027-02-28 are Sundays, their Mondays another month */
  expect_schedule("2026-12-31", "2027-03-31", MCPI_FREQ_MONTHLY, MCPI_ROLL_MODIFIED_FOLLOWING, w,
                  (const char *const[]){"2026-12-31", "2027-01-29", "2027-02-26", "2027-03-31"},
                  4);
  /* a stub: the last date after the last whole period */
  expect_schedule("2027-01-15", "2027-08-01", MCPI_FREQ_QUARTERLY, MCPI_ROLL_FOLLOWING, w,
                  (const char *const[]){"2027-01-15", "2027-04-15", "2027-07-15", "2027-08-02"},
                  4);
  expect_schedule("2026-11-27", "2026-12-14", MCPI_FREQ_WEEKLY, MCPI_ROLL_PRECEDING, w,
                  (const char *const[]){"2026-11-27", "2026-12-04", "2026-12-11", "2026-12-14"},
                  4);
  /* daily: the business days; the weekend and a holiday left out */
  mcpi_date hol[] = {day("2026-12-25")};
  mcpi_calendar c = {"X", MCPI_WEEKEND_SAT_SUN, hol, 1};
  expect_schedule("2026-12-23", "2026-12-29", MCPI_FREQ_DAILY, MCPI_ROLL_FOLLOWING, &c,
                  (const char *const[]){"2026-12-23", "2026-12-24", "2026-12-28", "2026-12-29"},
                  4);
  /* dates that roll onto one another count once: two weekend days, following */
  expect_schedule("2026-11-28", "2026-11-29", MCPI_FREQ_WEEKLY, MCPI_ROLL_FOLLOWING, w,
                  (const char *const[]){"2026-11-30"}, 1);
}

/* ---- the files ------------------------------------------------------------- */

static const char market_text[] =
    "{\"valuation_date\": \"2026-11-29\", \"calendar\": \"XNYS\",\n"
    " \"calendars\": {\"XNYS\": {\"holidays\": [\"2026-12-25\", \"2027-01-01\"]},\n"
    "               \"GULF\": {\"weekend\": [\"friday\", \"saturday\"]}},\n"
    " \"rate\": 0.03,\n"
    " \"underlyings\": [{\"name\": \"ACME\", \"spot\": 100, \"volatility\": 0.2,\n"
    "                  \"dividends\": [{\"time\": \"2027-05-29\", \"amount\": 1}]}]}\n";

static mcp_market *dated_market(void)
{
  mcp_market *m = NULL;
  char err[512] = "";
  if (mcp_market_load_text(&m, "market.json", market_text, sizeof market_text - 1, err,
                           sizeof err) != MCP_OK)
    fail_msg("%s", err);
  return m;
}

static mcp_portfolio *load_for(const mcp_market *m, const char *text, char *err, size_t errlen)
{
  mcp_portfolio *p = NULL;
  err[0] = '\0';
  mcp_portfolio_load_text_for(&p, m, "book.json", text, strlen(text), err, errlen);
  return p;
}

static mcp_portfolio *must_load_for(const mcp_market *m, const char *text)
{
  char err[512];
  mcp_portfolio *p = load_for(m, text, err, sizeof err);
  if (!p)
    fail_msg("%s", err);
  return p;
}

/* A time back to its date under each day count: the date itself, or of
 * the dates at that time the first business day. */
static void test_date_of(void **state)
{
  (void)state;
  static const char *const counts[] = {"ACT/365F", "ACT/360", "ACT/ACT ISDA", "30/360",
                                       "BUS/252"};
  static const char *const dates[] = {"2026-11-30", "2026-12-01", "2027-02-26", "2027-03-01",
                                      "2028-02-29", "2031-06-30", "1999-12-30"};
  char out[11];
  for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
    mcp_market *m = NULL;
    assert_int_equal(mcp_market_create(&m), MCP_OK);
    assert_int_equal(mcp_market_date_of(m, 0.5, out), MCP_ERR_INPUT);
    assert_string_equal(out, "");
    assert_int_equal(mcp_market_set_valuation_date(m, "2026-11-30", counts[c]), MCP_OK);
    for (size_t k = 0; k < sizeof dates / sizeof *dates; k++) {
      double t;
      assert_int_equal(mcp_market_year_fraction(m, dates[k], NULL, &t, NULL, 0), MCP_OK);
      assert_int_equal(mcp_market_date_of(m, t, out), MCP_OK);
      if (strcmp(out, dates[k]) != 0)
        fail_msg("%s: %s is %.17g years, back to %s", counts[c], dates[k], t, out);
    }
    /* a Saturday under BUS/252 is the Monday's time: the Monday */
    double t;
    assert_int_equal(mcp_market_year_fraction(m, "2027-01-09", NULL, &t, NULL, 0), MCP_OK);
    assert_int_equal(mcp_market_date_of(m, t, out), MCP_OK);
    assert_string_equal(out, c == 4 ? "2027-01-11" : "2027-01-09");
    assert_int_equal(mcp_market_date_of(m, 1.0 / 7777, out), MCP_ERR_INPUT); /* no day */
    mcp_market_destroy(m);
  }
}

static void test_market_dates(void **state)
{
  mcp_market *m = dated_market();
  assert_non_null(m->dates);
  assert_int_equal(m->dates->basis.valuation, day("2026-11-29"));
  assert_int_equal(m->dates->basis.day_count, MCPI_DC_ACT_365F);
  assert_string_equal(m->dates->basis.calendar->name, "XNYS");
  assert_int_equal(m->dates->ncal, 2);
  const mcpi_calendar *gulf = mcpi_dates_calendar(m->dates, "GULF");
  assert_non_null(gulf);
  assert_int_equal(gulf->weekend, 1u << 4 | 1u << 5);
  const mcpi_underlying *u = mcpi_market_find(m, "ACME");
  assert_int_equal(u->ncash, 1);
  assert_true(u->cash_t[0] == 181.0 / 365); /* 2026-11-29 to 2027-05-29 */
  double t;
  char err[256];
  assert_int_equal(mcp_market_year_fraction(m, "2027-11-29", NULL, &t, err, sizeof err), MCP_OK);
  assert_true(t == 1);
  assert_int_equal(mcp_market_year_fraction(m, "2027-11-29", "ACT/360", &t, err, sizeof err),
                   MCP_OK);
  assert_true(t == 365.0 / 360);
  /* BUS/252 on the market's calendar: 2026-11-30 to 2027-01-04 is 25
   * weekdays less the two holidays */
  assert_int_equal(mcp_market_year_fraction(m, "2027-01-04", "BUS/252", &t, err, sizeof err),
                   MCP_OK);
  assert_true(t == 23.0 / 252);
  assert_int_equal(mcp_market_year_fraction(m, "2027-02-30", NULL, &t, err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "a date whose day is in its month"));
  assert_int_equal(mcp_market_year_fraction(m, "2027-01-04", "ACT/366", &t, err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "ACT/365F, ACT/360"));
  /* a new valuation date keeps the file's day count and calendars */
  assert_int_equal(mcp_market_set_valuation_date(m, "2026-12-28", NULL), MCP_OK);
  assert_int_equal(mcp_market_year_fraction(m, "2027-01-04", "BUS/252", &t, NULL, 0), MCP_OK);
  assert_true(t == 4.0 / 252); /* 12-28 to 12-31; 2027-01-01 a holiday */
  mcp_market_destroy(m);
  /* set by the call: its day count */
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_year_fraction(m, "2027-01-04", NULL, &t, err, sizeof err),
                   MCP_ERR_INPUT);
  assert_non_null(strstr(err, "no valuation date"));
  assert_int_equal(mcp_market_set_valuation_date(m, "2026-02-30", NULL), MCP_ERR_INPUT);
  assert_int_equal(mcp_market_set_valuation_date(m, "2026-01-31", "30/360"), MCP_OK);
  assert_int_equal(mcp_market_year_fraction(m, "2026-03-31", NULL, &t, err, sizeof err), MCP_OK);
  assert_true(t == 60.0 / 360);
  mcp_market_destroy(m);
}

/* A dated book's times, and the same book in years priced to the same bits. */
static void test_dated_book(void **state)
{
  mcp_market *m = dated_market();
  char err[512];
  const char *dated =
      "{\"run\": {\"paths\": 4096, \"seed\": 7},\n"
      " \"trades\": [\n"
      "  {\"id\": \"E\", \"product\": \"european\", \"type\": \"call\", \"underlying\": \"ACME\", \"strike\": 100,\n"
      "   \"maturity\": \"2027-11-29\"},\n"
      "  {\"id\": \"A\", \"product\": \"asian\", \"average\": \"arithmetic\", \"type\": \"call\", \"underlying\": \"ACME\", \"strike\": 100,\n"
      "   \"fixings\": {\"first\": \"2026-12-31\", \"last\": \"2027-03-31\",\n"
      "                \"frequency\": \"monthly\", \"calendar\": \"GULF\"}},\n"
      "  {\"id\": \"B\", \"product\": \"asian\", \"average\": \"arithmetic\", \"type\": \"call\", \"underlying\": \"ACME\", \"strike\": 100,\n"
      "   \"fixings\": [\"2027-01-29\", 0.5, \"2027-11-29\"]}]}\n";
  mcp_portfolio *p = must_load_for(m, dated);
  assert_true(p->t[0].maturity == 1);
  /* on the Gulf calendar (Friday and Saturday off) 2027-01-31, a Sunday,
   * stands; 2027-02-28, a Sunday, too; 2026-12-31 is a Thursday */
  const double fa[] = {32.0 / 365, 63.0 / 365, 91.0 / 365, 122.0 / 365};
  assert_int_equal(p->t[1].nfix, 4);
  for (int k = 0; k < 4; k++)
    assert_true(p->t[1].fix[k] == fa[k]);
  assert_true(p->t[1].maturity == fa[3]);
  assert_true(p->t[2].fix[0] == 61.0 / 365 && p->t[2].fix[1] == 0.5 && p->t[2].fix[2] == 1);
  /* the same book in years (each the double nearest its fraction: the
   * shortest decimals that read back to it) */
  const char *years =
      "{\"run\": {\"paths\": 4096, \"seed\": 7},\n"
      " \"trades\": [\n"
      "  {\"id\": \"E\", \"product\": \"european\", \"type\": \"call\", \"underlying\": \"ACME\",\n"
      "   \"strike\": 100, \"maturity\": 1},\n"
      "  {\"id\": \"A\", \"product\": \"asian\", \"average\": \"arithmetic\", \"type\": \"call\",\n"
      "   \"underlying\": \"ACME\", \"strike\": 100,\n"
      "   \"fixings\": [0.08767123287671233, 0.1726027397260274, 0.2493150684931507,\n"
      "                0.33424657534246577]},\n"
      "  {\"id\": \"B\", \"product\": \"asian\", \"average\": \"arithmetic\", \"type\": \"call\",\n"
      "   \"underlying\": \"ACME\", \"strike\": 100, \"fixings\": [0.16712328767123288, 0.5, 1]}]}\n";
  mcp_portfolio *q = NULL;
  assert_int_equal(mcp_portfolio_load_text(&q, "years.json", years, strlen(years), err, sizeof err),
                   MCP_OK);
  mcp_context *ctx = NULL;
  assert_int_equal(mcp_context_create(&ctx, MCP_BACKEND_CPU), MCP_OK);
  mcp_results *rp = NULL, *rq = NULL;
  assert_int_equal(mcp_price(ctx, m, p, &rp), MCP_OK);
  assert_int_equal(mcp_price(ctx, m, q, &rq), MCP_OK);
  for (size_t i = 0; i < 3; i++) {
    mcp_estimate ep, eq;
    assert_int_equal(mcp_results_trade(rp, i, &ep), MCP_OK);
    assert_int_equal(mcp_results_trade(rq, i, &eq), MCP_OK);
    assert_memory_equal(&ep, &eq, sizeof ep);
  }
  mcp_results_destroy(rp);
  mcp_results_destroy(rq);
  mcp_context_destroy(ctx);
  mcp_portfolio_destroy(p);
  mcp_portfolio_destroy(q);
  mcp_market_destroy(m);
}

/* The other places a date may stand: a schedule {first, last, count} of
 * dates, a Bermudan's exercise dates by frequency, the run's grid; and a
 * calendar's holidays as a file may give them, unsorted and twice. */
static void test_other_dated_fields(void **state)
{
  char err[512];
  const char *mtext =
      "{\"valuation_date\": \"2026-11-27\", \"calendar\": \"X\",\n"
      " \"calendars\": {\"X\": {\"holidays\": [\"2027-03-01\", \"2026-12-25\", \"2027-03-01\"]},\n"
      "               \"ALL\": {\"weekend\": []}},\n"
      " \"rate\": 0.03, \"underlyings\": [{\"name\": \"ACME\", \"spot\": 100, \"volatility\": 0.2}]}";
  mcp_market *m = NULL;
  if (mcp_market_load_text(&m, "market.json", mtext, strlen(mtext), err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  const mcpi_calendar *x = mcpi_dates_calendar(m->dates, "X");
  assert_int_equal(x->nholiday, 2);
  assert_true(x->holiday[0] == day("2026-12-25") && x->holiday[1] == day("2027-03-01"));
  assert_int_equal(mcpi_dates_calendar(m->dates, "ALL")->weekend, 0);
  const char *book =
      "{\"run\": {\"grid\": [\"2027-01-27\", 0.5]},\n"
      " \"trades\": [\n"
      "  {\"id\": \"A\", \"product\": \"asian\", \"average\": \"arithmetic\", \"type\": \"call\",\n"
      "   \"underlying\": \"ACME\", \"strike\": 100,\n"
      "   \"fixings\": {\"first\": \"2027-02-26\", \"last\": \"2027-11-26\", \"count\": 4}},\n"
      "  {\"id\": \"B\", \"product\": \"bermudan\", \"type\": \"put\", \"underlying\": \"ACME\",\n"
      "   \"strike\": 100, \"exercise_dates\": {\"first\": \"2027-02-27\", \"last\": \"2027-11-27\",\n"
      "   \"frequency\": \"quarterly\", \"roll\": \"following\"}}]}";
  mcp_portfolio *p = must_load_for(m, book);
  /* 91 and 364 days on, and two times evenly between */
  assert_true(p->t[0].fix[0] == 91.0 / 365 && p->t[0].fix[3] == 364.0 / 365);
  /* 2027-02-27 a Saturday, 2027-03-01 a holiday: 03-02; 05-27 a Thursday;
   * 08-27 a Friday; 11-27 a Saturday: 11-29 */
  const double ex[] = {95.0 / 365, 181.0 / 365, 273.0 / 365, 367.0 / 365};
  assert_int_equal(p->t[1].nfix, 4);
  for (int k = 0; k < 4; k++)
    if (p->t[1].fix[k] != ex[k])
      fail_msg("exercise %d: %.17g days, expected %.17g", k, 365 * p->t[1].fix[k], 365 * ex[k]);
  assert_true(p->ngrid == 2 && p->grid[0] == 61.0 / 365 && p->grid[1] == 0.5);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* Bad dates: each message names the file, line, column and field, and says
 * what was expected. */
static void expect_refused(const mcp_market *m, const char *trade, const char *want)
{
  char text[1024], err[512];
  snprintf(text, sizeof text,
           "{\"trades\": [{\"id\": \"T\", \"product\": \"asian\", \"average\": \"arithmetic\", \"type\": \"call\",\n"
           "  \"underlying\": \"ACME\",\n"
           "  \"strike\": 100, %s}]}",
           trade);
  mcp_portfolio *p = load_for(m, text, err, sizeof err);
  if (p || !strstr(err, want) || strncmp(err, "book.json:", 10) != 0)
    fail_msg("%s: got '%s', expected '%s'", trade, p ? "(loaded)" : err, want);
}

static void test_bad_dates(void **state)
{
  mcp_market *m = dated_market();
  expect_refused(m, "\"fixings\": [\"2027-02-30\"]", "fixings[0]: expected a date whose day");
  expect_refused(m, "\"fixings\": [0.5], \"maturity\": \"2026-06-01\"",
                 "maturity: expected a time in years > 0 and <= 100 (this date is -0.49589 years "
                 "from the valuation date 2026-11-29)");
  expect_refused(m, "\"fixings\": [0.5], \"maturity\": true",
                 "maturity: expected a time in years > 0 and <= 100, got true");
  /* one clock, the market's: a trade has no day count of its own */
  expect_refused(m, "\"fixings\": [0.5], \"day_count\": \"ACT/360\"",
                 "day_count: unknown field");
  expect_refused(m,
                 "\"fixings\": {\"first\": \"2027-01-01\", \"last\": \"2027-06-01\", "
                 "\"frequency\": \"monthly\", \"calendar\": \"LSE\"}",
                 "fixings.calendar: expected the name of one of the market's calendars");
  expect_refused(m,
                 "\"fixings\": {\"first\": \"2027-01-01\", \"last\": \"2027-06-01\", "
                 "\"frequency\": \"monthly\", \"count\": 6}",
                 "a count or a frequency, not both");
  expect_refused(m,
                 "\"fixings\": {\"first\": \"2027-01-01\", \"last\": \"2026-12-01\", "
                 "\"frequency\": \"weekly\"}",
                 "fixings.last: expected a date on or after first");
  expect_refused(m,
                 "\"fixings\": {\"first\": 0.1, \"last\": 0.5, \"frequency\": \"weekly\"}",
                 "fixings.first: expected a date YYYY-MM-DD");
  expect_refused(m, "\"fixings\": {\"first\": 0.1, \"last\": 0.5, \"count\": 3, \"roll\": "
                    "\"following\"}",
                 "calendar and roll go with a frequency");
  /* dates before the valuation date, within a schedule: a seasoned
   * trade's, whose spots it must give */
  expect_refused(m,
                 "\"fixings\": {\"first\": \"2026-10-01\", \"last\": \"2027-06-01\", "
                 "\"frequency\": \"monthly\"}",
                 "trades[0]: missing field 'past_fixings' (expected the spots of the fixings on "
                 "or before the valuation date, one each)");
  /* without the market's dates */
  expect_refused(NULL, "\"fixings\": [0.5], \"maturity\": \"2027-06-01\"",
                 "maturity: expected a time in years > 0 and <= 100 (a date needs the market's "
                 "valuation_date");
  expect_refused(NULL, "\"fixings\": [\"2027-06-01\"]", "fixings[0]: expected a time in years (a "
                                                        "date needs");
  mcp_market_destroy(m);
}

static void expect_market_refused(const char *fields, const char *want)
{
  char text[1024], err[512] = "";
  snprintf(text, sizeof text,
           "{%s,\n \"rate\": 0.03, \"underlyings\": [{\"name\": \"ACME\", \"spot\": 100, "
           "\"volatility\": 0.2}]}",
           fields);
  mcp_market *m = NULL;
  mcp_market_load_text(&m, "market.json", text, strlen(text), err, sizeof err);
  if (m || !strstr(err, want) || strncmp(err, "market.json:", 12) != 0)
    fail_msg("%s: got '%s', expected '%s'", fields, m ? "(loaded)" : err, want);
}

static void test_bad_market_dates(void **state)
{
  expect_market_refused("\"day_count\": \"ACT/360\"", "day_count: dates need a valuation_date");
  expect_market_refused("\"valuation_date\": \"2026-11-31\"",
                        "valuation_date: expected a date whose day is in its month");
  expect_market_refused("\"valuation_date\": \"2026-11-29\", \"calendar\": \"XNYS\"",
                        "calendar: expected the name of one of the market's calendars");
  expect_market_refused("\"valuation_date\": \"2026-11-29\", \"calendars\": {\"X\": "
                        "{\"weekend\": [\"monday\", \"tuesday\", \"wednesday\", \"thursday\", "
                        "\"friday\", \"saturday\", \"sunday\"]}}",
                        "calendars.X.weekend: expected an array of weekdays");
  expect_market_refused("\"valuation_date\": \"2026-11-29\", \"calendars\": {\"X\": "
                        "{\"weekend\": [\"sunday\", \"sunday\"]}}",
                        "calendars.X.weekend[1]: expected a weekday not listed before");
  expect_market_refused("\"valuation_date\": \"2026-11-29\", \"calendars\": {\"X\": "
                        "{\"holidays\": [\"2026-12-25\", \"25/12/2026\"]}}",
                        "calendars.X.holidays[1]: expected a date YYYY-MM-DD");
  expect_market_refused("\"valuation_date\": \"2026-11-29\", \"calendars\": {\"X\": "
                        "{\"holiday\": []}}",
                        "calendars.X.holiday: unknown field");
  /* BUS/252 from a Sunday: the Monday would be 0 years away */
  expect_market_refused("\"valuation_date\": \"2026-11-29\", \"day_count\": \"BUS/252\"",
                        "valuation_date: expected a business day of the calendar under BUS/252");
  mcp_market *m = NULL;
  assert_int_equal(mcp_market_create(&m), MCP_OK);
  assert_int_equal(mcp_market_set_valuation_date(m, "2026-11-29", "BUS/252"), MCP_ERR_INPUT);
  assert_int_equal(mcp_market_set_valuation_date(m, "2026-11-30", "BUS/252"), MCP_OK);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse),          cmocka_unit_test(test_civil_round_trip),
      cmocka_unit_test(test_day_counts),     cmocka_unit_test(test_business_days_counted),
      cmocka_unit_test(test_rolls),          cmocka_unit_test(test_schedules),
      cmocka_unit_test(test_market_dates),   cmocka_unit_test(test_dated_book),
      cmocka_unit_test(test_date_of),
      cmocka_unit_test(test_other_dated_fields), cmocka_unit_test(test_bad_dates),
      cmocka_unit_test(test_bad_market_dates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
