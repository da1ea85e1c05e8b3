/* validate.c: value checks shared by the API builders and the file readers. */
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "mcprice.h"
#include "src/base/validate.h"

uint32_t mcpi_utf8_next(const unsigned char **p)
{
  const unsigned char *b = *p;
  uint32_t c = b[0];
  int n = c < 0x80 ? 0 : c >= 0xc2 && c < 0xe0 ? 1 : c >= 0xe0 && c < 0xf0 ? 2
          : c >= 0xf0 && c < 0xf5 ? 3 : -1;
  if (n < 0)
    return UINT32_MAX;
  c &= n == 0 ? 0x7f : 0x3f >> n;
  for (int i = 1; i <= n; i++) {
    if ((b[i] & 0xc0) != 0x80)
      return UINT32_MAX;
    c = c << 6 | (b[i] & 0x3f);
  }
  /* overlong forms, surrogates and beyond U+10FFFF */
  if ((n == 2 && c < 0x800) || (n == 3 && (c < 0x10000 || c > 0x10ffff)) ||
      (c >= 0xd800 && c < 0xe000))
    return UINT32_MAX;
  *p = b + n + 1;
  return c;
}

const char *mcpi_check_name(const char *s)
{
  if (!s || !*s)
    return "a non-empty string";
  /* characters, not bytes, as the documents say: UTF-8 decoded, and the
   * controls beyond ASCII's refused with its own (DEL, C1, and the line and
   * paragraph separators, which end a line in a JavaScript reader) */
  size_t chars = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p; chars++) {
    uint32_t c = mcpi_utf8_next(&p);
    if (c == UINT32_MAX)
      return "a UTF-8 string";
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029 ||
        c == ',' || c == '"')
      return "a string without control characters, commas or quotes";
  }
  if (chars > MCPI_MAX_ID)
    return "a string of at most 128 characters";
  /* the reports' book row; a spreadsheet reads a CSV cell that starts so as
   * a formula */
  if (strcmp(s, "TOTAL") == 0)
    return "a name other than TOTAL (the book's row in the reports)";
  if (strchr("=+-@", *s))
    return "a string that does not start with =, +, - or @ (a formula in a spreadsheet)";
  return NULL;
}

const char *mcpi_check_spot(double x)
{
  return isfinite(x) && x > 0 ? NULL : "a finite number > 0";
}

const char *mcpi_check_rate(double x)
{
  return isfinite(x) && fabs(x) <= MCPI_MAX_RATE ? NULL : "a number between -1 and 1";
}

const char *mcpi_check_volatility(double x)
{
  return isfinite(x) && x >= 0 && x <= MCPI_MAX_VOLATILITY ? NULL : "a number between 0 and 10";
}

const char *mcpi_check_strike(double x)
{
  return isfinite(x) && x >= 0 ? NULL : "a finite number >= 0";
}

const char *mcpi_check_maturity(double x)
{
  return isfinite(x) && x > 0 && x <= MCPI_MAX_MATURITY ? NULL
                                                        : "a time in years > 0 and <= 100";
}

const char *mcpi_check_finite(double x)
{
  return isfinite(x) ? NULL : "a finite number";
}

const char *mcpi_check_quantity(double x) { return mcpi_check_finite(x); }

const char *mcpi_check_variance(double x)
{
  return isfinite(x) && x >= 0 && x <= 100 ? NULL : "a variance between 0 and 100";
}

const char *mcpi_check_positive(double x)
{
  return isfinite(x) && x > 0 && x <= 1000 ? NULL : "a number > 0 and <= 1000";
}

const char *mcpi_check_correlation(double x)
{
  return isfinite(x) && fabs(x) <= 1 ? NULL : "a number between -1 and 1";
}

const char *mcpi_check_intensity(double x)
{
  return isfinite(x) && x >= 0 && x <= 1000 ? NULL : "a number of jumps a year between 0 and 1000";
}

const char *mcpi_check_jump_mean(double x)
{
  return isfinite(x) && fabs(x) <= 10 ? NULL : "a mean log jump between -10 and 10";
}

const char *mcpi_check_cash(double x)
{
  return isfinite(x) && x >= 0 ? NULL : "a finite amount >= 0";
}

const char *mcpi_check_fixings(size_t n, const double *t, double maturity)
{
  if (n == 0 || n > MCPI_MAX_FIXINGS)
    return "between 1 and 100000 fixing times";
  /* the order before the maturity: [1, 0.5] with the maturity taken from
   * the last time is out of order, not past its maturity */
  for (size_t i = 0; i < n; i++)
    if (!isfinite(t[i]) || t[i] <= 0)
      return "fixing times > 0";
  for (size_t i = 1; i < n; i++)
    if (t[i] <= t[i - 1])
      return "strictly increasing fixing times";
  return t[n - 1] > maturity ? "fixing times not after the maturity" : NULL;
}

const char *mcpi_check_paths(uint64_t n)
{
  return n >= 2 && n <= MCPI_MAX_PATHS ? NULL : "an integer between 2 and 2^40";
}

const char *mcpi_check_steps_per_year(uint64_t n)
{
  return n <= MCPI_MAX_STEPS_PER_YEAR ? NULL : "an integer between 0 and 100000";
}

const char *mcpi_check_grid(size_t n, const double *t)
{
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(t[i]) || t[i] <= 0 || t[i] > MCPI_MAX_MATURITY)
      return "times in years > 0 and <= 100";
    if (i > 0 && t[i] <= t[i - 1])
      return "strictly increasing times";
  }
  return NULL;
}

const char *mcpi_check_stencil_points(uint64_t n)
{
  return n == 3 || n == 5 ? NULL : "3 or 5";
}

const char *mcpi_check_space_points(uint64_t n)
{
  return n >= MCPI_PDE_MIN_POINTS && n <= MCPI_PDE_MAX_POINTS ? NULL
                                                               : "an integer from 16 to 65536";
}

const char *mcpi_check_time_steps(uint64_t n)
{
  return n >= 1 && n <= MCPI_PDE_MAX_STEPS ? NULL : "an integer from 1 to 100000";
}

const char *mcpi_check_rannacher(uint64_t n)
{
  return n <= 16 ? NULL : "an integer from 0 to 16";
}

const char *mcpi_check_width(double w)
{
  return w >= 1 && w <= 20 ? NULL : "a number of standard deviations from 1 to 20";
}

const char *mcpi_check_coarsening(uint64_t c)
{
  return c == 1 || c == 2 || c == 4 || c == 8 ? NULL : "1, 2, 4 or 8";
}

const char *mcpi_check_tile_paths(uint64_t n)
{
  return n % MCP_CHUNK_PATHS == 0 && n <= (UINT64_C(1) << 32)
             ? NULL
             : "0 or a multiple of 256 up to 2^32";
}

const char *mcpi_check_block_size(int threads)
{
  return threads >= 32 && threads <= 1024 && threads % 32 == 0
             ? NULL
             : "a multiple of 32 from 32 to 1024";
}

const char *mcpi_check_currency(const char *s)
{
  int ok = s && strlen(s) == 3;
  for (int i = 0; ok && i < 3; i++)
    ok = s[i] >= 'A' && s[i] <= 'Z';
  return ok ? NULL : "a currency code of three capital letters (ISO 4217, e.g. USD)";
}

const char *mcpi_check_frtb_bucket(uint64_t b)
{
  return b >= 1 && b <= MCP_FRTB_EQ_BUCKETS ? NULL : "an FRTB equity bucket from 1 to 13";
}
