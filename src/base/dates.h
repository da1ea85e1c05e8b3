/* dates.h: civil dates, day counts, business-day calendars and schedules,
 * as a desk's files give them (doc/input-schema.md "Dates").  The readers
 * turn each date into the engine's time in years from the valuation date
 * once, at load; nothing past them sees a date. */
#ifndef MCP_DATES_H
#define MCP_DATES_H

#include <stddef.h>
#include <stdint.h>

/* Days since 1970-01-01 (proleptic Gregorian). */
typedef int32_t mcpi_date;

/* The dates a file may give: 1900-01-01 to 2199-12-31. */
#define MCPI_DATE_MIN_YEAR 1900
#define MCPI_DATE_MAX_YEAR 2199
#define MCPI_MAX_HOLIDAYS 100000
#define MCPI_MAX_CALENDARS 64

typedef enum mcpi_day_count {
  MCPI_DC_ACT_365F, /* actual days / 365 */
  MCPI_DC_ACT_360,  /* actual days / 360 */
  MCPI_DC_ACT_ACT,  /* ISDA: each calendar year's days over its length */
  MCPI_DC_30_360,   /* bond basis (ISDA 2006 4.16(f)) */
  MCPI_DC_BUS_252,  /* business days of the calendar / 252 */
  MCPI_DC_COUNT
} mcpi_day_count;

typedef enum mcpi_roll {
  MCPI_ROLL_FOLLOWING,
  MCPI_ROLL_MODIFIED_FOLLOWING,
  MCPI_ROLL_PRECEDING,
  MCPI_ROLL_MODIFIED_PRECEDING,
  MCPI_ROLL_UNADJUSTED
} mcpi_roll;

typedef enum mcpi_frequency {
  MCPI_FREQ_DAILY, /* every business day */
  MCPI_FREQ_WEEKLY,
  MCPI_FREQ_MONTHLY,
  MCPI_FREQ_QUARTERLY,
  MCPI_FREQ_SEMIANNUAL,
  MCPI_FREQ_ANNUAL
} mcpi_frequency;

/* Business days: not a weekend day (bit k: weekday k, 0 Monday), not a
 * holiday (sorted, each once). */
typedef struct mcpi_calendar {
  char *name;
  unsigned weekend;
  mcpi_date *holiday;
  size_t nholiday;
} mcpi_calendar;

#define MCPI_WEEKEND_SAT_SUN (1u << 5 | 1u << 6)

/* What turns a date into a time: the valuation date, the day count, and
 * the calendar of BUS/252 and of schedules where they name none. */
typedef struct mcpi_date_basis {
  mcpi_date valuation;
  mcpi_day_count day_count;
  const mcpi_calendar *calendar;
} mcpi_date_basis;

/* A market's dates: its basis and its calendars by name. */
typedef struct mcpi_dates {
  mcpi_date_basis basis;
  mcpi_calendar *cal;
  size_t ncal;
} mcpi_dates;

/* The calendar called name, or NULL. */
const mcpi_calendar *mcpi_dates_calendar(const mcpi_dates *d, const char *name);
/* The calendar of a market that names none: Saturdays and Sundays. */
extern const mcpi_calendar mcpi_weekends;
/* The time in years of date by d's basis. */
double mcpi_dates_time(const mcpi_dates *d, mcpi_date date);
void mcpi_dates_free(mcpi_dates *d);

/* A name's day count, or -1. */
int mcpi_day_count_of(const char *name);
/* Checks (validate.h's form: NULL, or what was expected; NULL fails): a
 * day count's name, a date YYYY-MM-DD. */
const char *mcpi_check_day_count(const char *name);
const char *mcpi_check_date(const char *s);

/* YYYY-MM-DD into *out; NULL, or what was expected. */
const char *mcpi_date_parse(const char *s, mcpi_date *out);
mcpi_date mcpi_date_of(int year, int month, int day);
void mcpi_date_civil(mcpi_date d, int *year, int *month, int *day);
/* YYYY-MM-DD into buf (at least 11 bytes). */
void mcpi_date_format(mcpi_date d, char *buf);
int mcpi_date_weekday(mcpi_date d); /* 0 Monday .. 6 Sunday */

int mcpi_business_day(const mcpi_calendar *c, mcpi_date d);
mcpi_date mcpi_date_roll(const mcpi_calendar *c, mcpi_date d, mcpi_roll roll);
/* The year fraction from a to b (negative where b is before a); c is
 * BUS/252's calendar. */
double mcpi_year_fraction(mcpi_day_count dc, mcpi_date a, mcpi_date b, const mcpi_calendar *c);

/* The dates from first to last at frequency, rolled on c: first, first + a
 * period, ... up to last, and last itself where the periods do not land on
 * it (daily: every business day of [first, last]); dates that roll onto
 * one another count once.  At most cap into out; the count, which a call
 * with cap 0 sizes.  Months keep first's day, or their last day where they
 * are shorter. */
size_t mcpi_schedule_dates(mcpi_date first, mcpi_date last, mcpi_frequency f, mcpi_roll roll,
                           const mcpi_calendar *c, mcpi_date *out, size_t cap);

/* A calendar's holidays sorted, each once. */
void mcpi_calendar_sort(mcpi_calendar *c);
void mcpi_calendars_free(mcpi_calendar *c, size_t n);

#endif
