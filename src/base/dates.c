/* dates.c: civil dates, day counts, calendars and schedules (dates.h). */
#include <stdlib.h>
#include <string.h>
#include "src/base/dates.h"

/* Days from 1970-01-01 by the 400-year cycle of 146,097 days, the year
 * counted from March so that the leap day ends it. */
mcpi_date mcpi_date_of(int year, int month, int day)
{
  int y = year - (month <= 2);
  int era = (y >= 0 ? y : y - 399) / 400;
  int yoe = y - era * 400;                                      /* [0, 399] */
  int doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1; /* [0, 365] */
  int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;              /* [0, 146096] */
  return (mcpi_date)(era * 146097 + doe - 719468);
}

void mcpi_date_civil(mcpi_date d, int *year, int *month, int *day)
{
  int z = (int)d + 719468;
  int era = (z >= 0 ? z : z - 146096) / 146097;
  int doe = z - era * 146097;
  int yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  int doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  int mp = (5 * doy + 2) / 153;
  int m = mp < 10 ? mp + 3 : mp - 9;
  *day = doy - (153 * mp + 2) / 5 + 1;
  *month = m;
  *year = yoe + era * 400 + (m <= 2);
}

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int month_days(int y, int m)
{
  static const int n[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : n[m - 1];
}

static int digits(const char *s, int n, int *out)
{
  int v = 0;
  for (int i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9')
      return 0;
    v = 10 * v + (s[i] - '0');
  }
  *out = v;
  return 1;
}

const char *mcpi_date_parse(const char *s, mcpi_date *out)
{
  int y, m, d;
  if (!digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &m) || s[7] != '-' ||
      !digits(s + 8, 2, &d) || s[10] != '\0')
    return "a date YYYY-MM-DD";
  if (y < MCPI_DATE_MIN_YEAR || y > MCPI_DATE_MAX_YEAR)
    return "a date of the years 1900 to 2199";
  if (m < 1 || m > 12)
    return "a date whose month is 01 to 12";
  if (d < 1 || d > month_days(y, m))
    return "a date whose day is in its month";
  *out = mcpi_date_of(y, m, d);
  return NULL;
}

void mcpi_date_format(mcpi_date d, char *buf)
{
  int y, m, day;
  mcpi_date_civil(d, &y, &m, &day);
  /* years 1900 to 2199 (parse's): four digits each */
  buf[0] = (char)('0' + y / 1000);
  buf[1] = (char)('0' + y / 100 % 10);
  buf[2] = (char)('0' + y / 10 % 10);
  buf[3] = (char)('0' + y % 10);
  buf[4] = '-';
  buf[5] = (char)('0' + m / 10);
  buf[6] = (char)('0' + m % 10);
  buf[7] = '-';
  buf[8] = (char)('0' + day / 10);
  buf[9] = (char)('0' + day % 10);
  buf[10] = '\0';
}

int mcpi_date_weekday(mcpi_date d)
{
  return (int)(((int64_t)d % 7 + 7 + 3) % 7); /* 1970-01-01 was a Thursday */
}

/* The holidays of c before d. */
static size_t holidays_before(const mcpi_calendar *c, mcpi_date d)
{
  size_t lo = 0, hi = c->nholiday;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c->holiday[mid] < d)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

int mcpi_business_day(const mcpi_calendar *c, mcpi_date d)
{
  if (c->weekend >> mcpi_date_weekday(d) & 1u)
    return 0;
  size_t k = holidays_before(c, d);
  return !(k < c->nholiday && c->holiday[k] == d);
}

/* The business day on or after d (step 1) or on or before it (-1): a
 * calendar has a business day a week beside its holidays, so the walk ends. */
static mcpi_date walk(const mcpi_calendar *c, mcpi_date d, int step)
{
  while (!mcpi_business_day(c, d))
    d += step;
  return d;
}

static int month_of(mcpi_date d)
{
  int y, m, day;
  mcpi_date_civil(d, &y, &m, &day);
  return m;
}

mcpi_date mcpi_date_roll(const mcpi_calendar *c, mcpi_date d, mcpi_roll roll)
{
  mcpi_date r;
  switch (roll) {
  case MCPI_ROLL_FOLLOWING:
    return walk(c, d, 1);
  case MCPI_ROLL_MODIFIED_FOLLOWING:
    r = walk(c, d, 1);
    return month_of(r) == month_of(d) ? r : walk(c, d, -1);
  case MCPI_ROLL_PRECEDING:
    return walk(c, d, -1);
  case MCPI_ROLL_MODIFIED_PRECEDING:
    r = walk(c, d, -1);
    return month_of(r) == month_of(d) ? r : walk(c, d, 1);
  default:
    return d;
  }
}

/* Business days of c in [a, b), a <= b: the weeks' working days, the
 * remainder's, less the holidays that fall on working days. */
static int64_t business_days(const mcpi_calendar *c, mcpi_date a, mcpi_date b)
{
  int working = 0;
  for (int k = 0; k < 7; k++)
    working += !(c->weekend >> k & 1u);
  int64_t n = (int64_t)(b - a) / 7 * working;
  for (mcpi_date d = a + (b - a) / 7 * 7; d < b; d++)
    n += !(c->weekend >> mcpi_date_weekday(d) & 1u);
  for (size_t k = holidays_before(c, a); k < c->nholiday && c->holiday[k] < b; k++)
    n -= !(c->weekend >> mcpi_date_weekday(c->holiday[k]) & 1u);
  return n;
}

double mcpi_year_fraction(mcpi_day_count dc, mcpi_date a, mcpi_date b, const mcpi_calendar *c)
{
  if (b < a)
    return -mcpi_year_fraction(dc, b, a, c);
  int y1, m1, d1, y2, m2, d2;
  switch (dc) {
  case MCPI_DC_ACT_360:
    return (double)(b - a) / 360.0;
  case MCPI_DC_ACT_ACT:
    mcpi_date_civil(a, &y1, &m1, &d1);
    mcpi_date_civil(b, &y2, &m2, &d2);
    if (y1 == y2)
      return (double)(b - a) / (leap(y1) ? 366.0 : 365.0);
    return (double)(mcpi_date_of(y1 + 1, 1, 1) - a) / (leap(y1) ? 366.0 : 365.0) +
           (double)(y2 - y1 - 1) +
           (double)(b - mcpi_date_of(y2, 1, 1)) / (leap(y2) ? 366.0 : 365.0);
  case MCPI_DC_30_360:
    mcpi_date_civil(a, &y1, &m1, &d1);
    mcpi_date_civil(b, &y2, &m2, &d2);
    if (d1 == 31)
      d1 = 30;
    if (d2 == 31 && d1 > 29)
      d2 = 30;
    return (double)(360 * (y2 - y1) + 30 * (m2 - m1) + (d2 - d1)) / 360.0;
  case MCPI_DC_BUS_252:
    return (double)business_days(c, a, b) / 252.0;
  default:
    return (double)(b - a) / 365.0;
  }
}

/* d moved by k months, its day kept or the month's last. */
static mcpi_date add_months(mcpi_date d, int k)
{
  int y, m, day;
  mcpi_date_civil(d, &y, &m, &day);
  int months = y * 12 + (m - 1) + k;
  y = months / 12;
  m = months % 12 + 1;
  int last = month_days(y, m);
  return mcpi_date_of(y, m, day < last ? day : last);
}

size_t mcpi_schedule_dates(mcpi_date first, mcpi_date last, mcpi_frequency f, mcpi_roll roll,
                           const mcpi_calendar *c, mcpi_date *out, size_t cap)
{
  size_t n = 0;
  mcpi_date prev = INT32_MIN;
#define PUT(x)                                                                             \
  do {                                                                                     \
    mcpi_date v_ = (x);                                                                    \
    if (v_ > prev) {                                                                       \
      if (n < cap)                                                                         \
        out[n] = v_;                                                                       \
      n++;                                                                                 \
      prev = v_;                                                                           \
    }                                                                                      \
  } while (0)
  if (f == MCPI_FREQ_DAILY) {
    for (mcpi_date d = first; d <= last; d++)
      if (mcpi_business_day(c, d))
        PUT(d);
    return n;
  }
  static const int months[] = {0, 0, 1, 3, 6, 12}; /* a period's, by frequency */
  for (int k = 0;; k++) {
    mcpi_date u = f == MCPI_FREQ_WEEKLY ? first + 7 * k : add_months(first, months[f] * k);
    if (u >= last)
      break;
    PUT(mcpi_date_roll(c, u, roll));
  }
  PUT(mcpi_date_roll(c, last, roll));
#undef PUT
  return n;
}

static int cmp_date(const void *a, const void *b)
{
  mcpi_date x = *(const mcpi_date *)a, y = *(const mcpi_date *)b;
  return (x > y) - (x < y);
}

void mcpi_calendar_sort(mcpi_calendar *c)
{
  if (c->nholiday > 1)
    qsort(c->holiday, c->nholiday, sizeof *c->holiday, cmp_date);
  size_t n = 0;
  for (size_t k = 0; k < c->nholiday; k++)
    if (n == 0 || c->holiday[k] != c->holiday[n - 1])
      c->holiday[n++] = c->holiday[k];
  c->nholiday = n;
}

void mcpi_calendars_free(mcpi_calendar *c, size_t n)
{
  for (size_t k = 0; c && k < n; k++) {
    free(c[k].name);
    free(c[k].holiday);
  }
  free(c);
}

static const char *const day_count_names[MCPI_DC_COUNT] = {"ACT/365F", "ACT/360",
                                                          "ACT/ACT ISDA", "30/360", "BUS/252"};

int mcpi_day_count_of(const char *name)
{
  for (int k = 0; name && k < MCPI_DC_COUNT; k++)
    if (strcmp(name, day_count_names[k]) == 0)
      return k;
  return -1;
}

const char *mcpi_check_day_count(const char *name)
{
  return mcpi_day_count_of(name) >= 0 ? NULL
                                      : "one of ACT/365F, ACT/360, ACT/ACT ISDA, 30/360, BUS/252";
}

const char *mcpi_check_date(const char *s)
{
  mcpi_date x;
  return s ? mcpi_date_parse(s, &x) : "a date YYYY-MM-DD";
}

const mcpi_calendar mcpi_weekends = {"weekends", MCPI_WEEKEND_SAT_SUN, NULL, 0};

const mcpi_calendar *mcpi_dates_calendar(const mcpi_dates *d, const char *name)
{
  for (size_t k = 0; k < d->ncal; k++)
    if (strcmp(d->cal[k].name, name) == 0)
      return &d->cal[k];
  return NULL;
}

double mcpi_dates_time(const mcpi_dates *d, mcpi_date date)
{
  return mcpi_year_fraction(d->basis.day_count, d->basis.valuation, date, d->basis.calendar);
}

void mcpi_dates_free(mcpi_dates *d)
{
  if (d) {
    mcpi_calendars_free(d->cal, d->ncal);
    free(d);
  }
}
