/* report.c: the table, CSV and JSON reports, and the output file that is
 * replaced atomically (temporary + fsync + rename). */
/* realpath */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "src/cli/cli.h"
#include "src/cli/report.h"

static const char *const format_names[] = {"table", "csv", "json", "crif"};

int report_format_from_name(const char *name, report_format *out)
{
  for (int f = 0; f < 4; f++)
    if (strcmp(name, format_names[f]) == 0) {
      *out = (report_format)f;
      return 0;
    }
  return -1;
}

/* ---- rows ---------------------------------------------------------------- */

/* One line of a report: a trade (per-unit estimate) or, at index == count,
 * the book, whose estimate is that of the total value. */
typedef struct row {
  const char *id, *method; /* method: "" for the book */
  int is_total;
  double quantity, value;
  mcp_estimate e;
} row;

static void get_row(const mcp_results *r, size_t i, row *out)
{
  memset(out, 0, sizeof *out);
  out->method = "";
  out->is_total = i == mcp_results_count(r);
  if (out->is_total) {
    out->id = "TOTAL";
    mcp_results_total(r, &out->e);
    out->value = out->e.price;
  } else {
    out->id = mcp_results_trade_id(r, i);
    mcp_results_trade(r, i, &out->e);
    out->quantity = mcp_results_quantity(r, i);
    out->value = out->quantity * out->e.price;
    out->method = mcp_engine_name(mcp_results_engine(r, i));
  }
}

/* Whether the results carry Greeks (mcp_price_greeks). */
static int has_greeks(const mcp_results *r)
{
  for (size_t i = 0; i <= mcp_results_count(r); i++)
    if (mcp_results_sensitivities(r, i))
      return 1;
  return 0;
}

/* Whether some trade reports redemption probabilities (autocallables). */
static int has_redemptions(const mcp_results *r)
{
  for (size_t i = 0; i < mcp_results_count(r); i++)
    if (mcp_results_redemptions(r, i))
      return 1;
  return 0;
}

/* Whether some trade reports an exercise boundary. */
static int has_boundaries(const mcp_results *r)
{
  for (size_t i = 0; i < mcp_results_count(r); i++)
    if (mcp_results_exercise_boundaries(r, i))
      return 1;
  return 0;
}

/* The measure name of a quantity at time t (an autocallable's redemption, a
 * boundary's point), "what:t": the fewest digits (10 at least) that give t
 * back, so that two dates never share a name (at 10 digits, 50 and
 * 50.0000000001 both read "redemption:50"). */
static void timed_name(char *buf, size_t len, const char *what, double t)
{
  size_t at = strlen(what) + 1;
  for (int digits = 10; digits <= 17; digits++) {
    snprintf(buf, len, "%s:%.*g", what, digits, t);
    if (strtod(buf + at, NULL) == t)
      return;
  }
}

enum { NCOL = 8, CELL = 40 };
static const char *const column_names[NCOL] = {"id",       "quantity",  "price", "std_error",
                                               "ci95_low", "ci95_high", "value", "method"};

/* Every write goes through emit, which remembers the first failure. */
typedef struct out {
  FILE *f;
  int failed, err;
  const mcp_market *market; /* whose dates the times are, or NULL */
} out;

static void emit(out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void emit(out *o, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  if (vfprintf(o->f, fmt, ap) < 0 && !o->failed) {
    o->failed = 1;
    o->err = errno;
  }
  va_end(ap);
}

/* ---- table --------------------------------------------------------------- */

static void fixed(char *cell, double x)
{
  /* %.6f of a huge value would not fit a column; switch to an exponent */
  snprintf(cell, CELL, fabs(x) < 1e15 || !isfinite(x) ? "%.6f" : "%.6e", x);
}

/* The cells of a row after the id; the book has no quantity, per-unit
 * price or method. */
static void table_cells(const row *w, char cell[NCOL][CELL])
{
  cell[1][0] = cell[2][0] = '\0';
  if (!w->is_total) {
    snprintf(cell[1], CELL, "%.10g", w->quantity);
    fixed(cell[2], w->e.price);
  }
  fixed(cell[3], w->e.std_error);
  fixed(cell[4], w->e.ci_low);
  fixed(cell[5], w->e.ci_high);
  fixed(cell[6], w->value);
  snprintf(cell[7], CELL, "%s", w->method);
}

/* The Greeks below the prices: per unit for a trade, the position-weighted
 * sum for the book (TOTAL). */
/* Columns a UTF-8 string takes: its code points (a byte not 10xxxxxx starts
 * one), so that names beyond ASCII line up. */
static int text_width(const char *s)
{
  int w = 0;
  for (; *s; s++)
    w += ((unsigned char)*s & 0xc0) != 0x80;
  return w;
}

/* s, left-aligned in width columns. */
static void emit_left(out *o, const char *s, int width)
{
  emit(o, "%s%*s", s, width - text_width(s) > 0 ? width - text_width(s) : 0, "");
}

/* After the table: a line a trade and warning (mcp_warning). */
static void write_warnings(out *o, const mcp_results *r)
{
  for (size_t i = 0; i < mcp_results_count(r); i++)
    for (int b = 0; b < MCP_WARNING_COUNT; b++)
      if (mcp_results_warnings(r, i) >> b & 1u)
        emit(o, "# warning  %s: %s\n", mcp_results_trade_id(r, i),
             mcp_warning_text((mcp_warning)(1u << b)));
}

static void write_greek_table(out *o, const mcp_results *r, int idw)
{
  size_t n = mcp_results_count(r);
  int gw = (int)strlen("greek");
  mcp_sensitivity s;
  for (size_t i = 0; i <= n; i++)
    for (size_t k = 0; mcp_results_sensitivity(r, i, k, &s) == MCP_OK; k++)
      if (text_width(s.name) > gw)
        gw = text_width(s.name);
  emit(o, "\n%-*s  %-*s  %16s  %12s  %s\n", idw, "id", gw, "greek", "value", "std_error",
       "method");
  for (size_t i = 0; i <= n; i++)
    for (size_t k = 0; mcp_results_sensitivity(r, i, k, &s) == MCP_OK; k++) {
      emit_left(o, i < n ? mcp_results_trade_id(r, i) : "TOTAL", idw);
      emit(o, "  ");
      emit_left(o, s.name, gw);
      emit(o, "  %16.6f  %12.6f  %s\n", s.value.price, s.value.std_error,
           mcp_greek_method_name(s.method));
    }
}

/* The date of time t where the market has a valuation date, else "". */
static const char *date_of(const out *o, double t, char *buf)
{
  if (!o->market || mcp_market_date_of(o->market, t, buf) != MCP_OK)
    buf[0] = '\0';
  return buf;
}

/* The autocallables' redemption probabilities, a line a date (and its date
 * where the market has dates). */
static void write_redemption_table(out *o, const mcp_results *r, int idw)
{
  char day[11];
  int dated = o->market && mcp_market_date_of(o->market, 0, day) == MCP_OK;
  emit(o, "\n%-*s  %12s  %12s  %12s%s\n", idw, "id", "redeems_at", "probability", "std_error",
       dated ? "  date" : "");
  for (size_t i = 0; i < mcp_results_count(r); i++) {
    double t;
    mcp_estimate e;
    for (size_t k = 0; mcp_results_redemption(r, i, k, &t, &e) == MCP_OK; k++) {
      emit_left(o, mcp_results_trade_id(r, i), idw);
      emit(o, "  %12.6f  %12.6f  %12.6f%s%s\n", t, e.price, e.std_error, dated ? "  " : "",
           date_of(o, t, day));
    }
  }
}

/* The exercise boundaries, a line a point (and its date where the market
 * has dates); "inf" where a call is exercised at no spot. */
static void write_boundary_table(out *o, const mcp_results *r, int idw)
{
  char day[11];
  int dated = o->market && mcp_market_date_of(o->market, 0, day) == MCP_OK;
  emit(o, "\n%-*s  %12s  %17s%s\n", idw, "id", "time", "exercise_boundary",
       dated ? "  date" : "");
  for (size_t i = 0; i < mcp_results_count(r); i++) {
    double t, spot;
    for (size_t k = 0; mcp_results_exercise_boundary(r, i, k, &t, &spot) == MCP_OK; k++) {
      emit_left(o, mcp_results_trade_id(r, i), idw);
      emit(o, "  %12.6f  %17.6f%s%s\n", t, spot, dated ? "  " : "", date_of(o, t, day));
    }
  }
}

static void write_table(out *o, const mcp_results *r)
{
  size_t n = mcp_results_count(r);
  int width[NCOL];
  char cell[NCOL][CELL];
  row w;
  for (int c = 0; c < NCOL; c++)
    width[c] = (int)strlen(column_names[c]);
  for (size_t i = 0; i <= n; i++) { /* first pass: column widths */
    get_row(r, i, &w);
    table_cells(&w, cell);
    if (text_width(w.id) > width[0])
      width[0] = text_width(w.id);
    for (int c = 1; c < NCOL; c++)
      if ((int)strlen(cell[c]) > width[c])
        width[c] = (int)strlen(cell[c]);
  }
  emit(o, "# mcprice %s\n# backend  %s\n# paths    %llu\n# seed     %llu\n# time     %.3f s\n",
       mcp_version(), mcp_backend_name(mcp_results_backend(r)),
       (unsigned long long)mcp_results_paths(r), (unsigned long long)mcp_results_seed(r),
       mcp_results_seconds(r));
  emit(o, "%-*s", width[0], column_names[0]);
  for (int c = 1; c < NCOL; c++)
    emit(o, "  %*s", width[c], column_names[c]);
  emit(o, "\n");
  for (size_t i = 0; i <= n; i++) {
    get_row(r, i, &w);
    table_cells(&w, cell);
    emit_left(o, w.id, width[0]);
    for (int c = 1; c < NCOL; c++)
      emit(o, "  %*s", width[c], cell[c]);
    emit(o, "\n");
  }
  write_warnings(o, r);
  if (has_redemptions(r))
    write_redemption_table(o, r, width[0]);
  if (has_boundaries(r))
    write_boundary_table(o, r, width[0]);
  if (has_greeks(r))
    write_greek_table(o, r, width[0]);
}

/* ---- CSV ----------------------------------------------------------------- */

/* RFC 4180: quote a field holding a separator, a quote or a line break. */
static void csv_field(out *o, const char *s)
{
  if (!strpbrk(s, ",\"\r\n")) {
    emit(o, "%s", s);
    return;
  }
  emit(o, "\"");
  for (; *s; s++)
    if (*s == '"')
      emit(o, "\"\"");
    else
      emit(o, "%c", *s);
  emit(o, "\"");
}

/* A row of the long CSV: a measure's estimate e and method, the trade's
 * quantity and the position's value of the measure (each empty where NAN),
 * and the trade's warnings (names, ";" between). */
static void measure_row(out *o, const char *id, const char *measure, const mcp_estimate *e,
                        const char *method, double quantity, double position,
                        const char *warnings)
{
  csv_field(o, id);
  emit(o, ",");
  csv_field(o, measure);
  emit(o, ",%.17g,%.17g,%.17g,%.17g,%s,", e->price, e->std_error, e->ci_low, e->ci_high, method);
  if (!isnan(quantity))
    emit(o, "%.17g", quantity);
  emit(o, ",");
  if (!isnan(position))
    emit(o, "%.17g", position);
  emit(o, ",");
  csv_field(o, warnings);
  emit(o, "\n");
}

/* Trade i's warnings' names, ";" between, into buf (len bytes). */
static const char *warning_names(const mcp_results *r, size_t i, char *buf, size_t len)
{
  size_t at = 0;
  buf[0] = '\0';
  for (int b = 0; b < MCP_WARNING_COUNT && i < mcp_results_count(r); b++)
    if (mcp_results_warnings(r, i) >> b & 1u) {
      int k = snprintf(buf + at, len - at, "%s%s", at ? ";" : "",
                       mcp_warning_name((mcp_warning)(1u << b)));
      at = k < 0 || (size_t)k >= len - at ? len - 1 : at + (size_t)k;
    }
  return buf;
}

/* With Greeks, redemption probabilities or exercise boundaries: a row a
 * trade (or TOTAL) and measure, the price first, with the trade's quantity,
 * the position's value of its price and Greeks (the book's own for TOTAL)
 * and its warnings: the Python package's long frame, column for column. */
static void write_measure_csv(out *o, const mcp_results *r)
{
  emit(o, "id,measure,value,std_error,ci95_low,ci95_high,method,quantity,position_value,"
          "warnings\n");
  row w;
  mcp_sensitivity s;
  char names[256];
  for (size_t i = 0; i <= mcp_results_count(r); i++) {
    get_row(r, i, &w);
    double q = w.is_total ? NAN : w.quantity, scale = w.is_total ? 1 : w.quantity;
    mcp_estimate e = w.e;
    e.price = w.is_total ? w.value : w.e.price;
    measure_row(o, w.id, w.is_total ? "value" : "price", &e, w.method, q, w.value,
                warning_names(r, i, names, sizeof names));
    double t, spot;
    for (size_t k = 0; !w.is_total && mcp_results_redemption(r, i, k, &t, &e) == MCP_OK; k++) {
      char name[64];
      timed_name(name, sizeof name, "redemption", t);
      measure_row(o, w.id, name, &e, w.method, q, NAN, "");
    }
    for (size_t k = 0; !w.is_total && mcp_results_exercise_boundary(r, i, k, &t, &spot) == MCP_OK;
         k++) {
      char name[64];
      timed_name(name, sizeof name, "exercise_boundary", t);
      measure_row(o, w.id, name, &(mcp_estimate){spot, 0, spot, spot}, w.method, q, NAN, "");
    }
    for (size_t k = 0; mcp_results_sensitivity(r, i, k, &s) == MCP_OK; k++)
      measure_row(o, w.id, s.name, &s.value, mcp_greek_method_name(s.method), q,
                  scale * s.value.price, "");
  }
}

static void write_csv(out *o, const mcp_results *r)
{
  if (has_greeks(r) || has_redemptions(r) || has_boundaries(r)) {
    write_measure_csv(o, r);
    return;
  }
  for (int c = 0; c < NCOL; c++)
    emit(o, c ? ",%s" : "%s", column_names[c]);
  emit(o, "\n");
  row w;
  for (size_t i = 0; i <= mcp_results_count(r); i++) {
    get_row(r, i, &w);
    csv_field(o, w.id);
    if (w.is_total)
      emit(o, ",,");
    else
      emit(o, ",%.17g,%.17g", w.quantity, w.e.price);
    emit(o, ",%.17g,%.17g,%.17g,%.17g,%s\n", w.e.std_error, w.e.ci_low, w.e.ci_high, w.value,
         w.method);
  }
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_string(out *o, const char *s)
{
  emit(o, "\"");
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      emit(o, "\\%c", ch);
    else if (ch < 0x20)
      emit(o, "\\u%04x", ch);
    else
      emit(o, "%c", ch);
  }
  emit(o, "\"");
}

/* JSON has no NaN or infinity: those become null. */
static void json_number(out *o, double x)
{
  if (isfinite(x))
    emit(o, "%.17g", x);
  else
    emit(o, "null");
}

static void json_member(out *o, const char *name, double x)
{
  emit(o, ", \"%s\": ", name);
  json_number(o, x);
}

static void json_interval(out *o, const mcp_estimate *e)
{
  json_member(o, "std_error", e->std_error);
  json_member(o, "ci95_low", e->ci_low);
  json_member(o, "ci95_high", e->ci_high);
}

/* , "greeks": {name: {value, std_error, ci95_low, ci95_high, method}, ...} */
static void json_greeks(out *o, const mcp_results *r, size_t i)
{
  mcp_sensitivity s;
  if (!mcp_results_sensitivities(r, i))
    return;
  emit(o, ", \"greeks\": {");
  for (size_t k = 0; mcp_results_sensitivity(r, i, k, &s) == MCP_OK; k++) {
    emit(o, "%s", k ? ", " : "");
    json_string(o, s.name);
    emit(o, ": {\"value\": ");
    json_number(o, s.value.price);
    json_interval(o, &s.value);
    emit(o, ", \"method\": ");
    json_string(o, mcp_greek_method_name(s.method));
    emit(o, "}");
  }
  emit(o, "}");
}

/* , "grid_move": {value, std_error, ci95_low, ci95_high}: the discretisation
 * check's move of the price (mcp_results_grid_move), where it ran */
static void json_grid_move(out *o, const mcp_results *r, size_t i)
{
  mcp_estimate e;
  if (mcp_results_grid_move(r, i, &e) != MCP_OK)
    return;
  emit(o, ", \"grid_move\": {\"value\": ");
  json_number(o, e.price);
  json_interval(o, &e);
  emit(o, "}");
}

/* Point k of an array of dated values: {"time": t, and "date" where the
 * market has one for t (its members follow, then "}"). */
static void json_timed(out *o, size_t k, double t)
{
  char day[11];
  emit(o, "%s{\"time\": ", k ? ", " : "");
  json_number(o, t);
  if (date_of(o, t, day)[0]) {
    emit(o, ", \"date\": ");
    json_string(o, day);
  }
}

/* , "redemption": [{time, date, probability, std_error, ci95_low, ci95_high},
 * ...] */
static void json_redemptions(out *o, const mcp_results *r, size_t i)
{
  double t;
  mcp_estimate e;
  if (!mcp_results_redemptions(r, i))
    return;
  emit(o, ", \"redemption\": [");
  for (size_t k = 0; mcp_results_redemption(r, i, k, &t, &e) == MCP_OK; k++) {
    json_timed(o, k, t);
    json_member(o, "probability", e.price);
    json_interval(o, &e);
    emit(o, "}");
  }
  emit(o, "]");
}

/* , "exercise_boundary": [{time, date, spot}, ...], null for a call's
 * infinite spot */
static void json_boundary(out *o, const mcp_results *r, size_t i)
{
  double t, spot;
  if (!mcp_results_exercise_boundaries(r, i))
    return;
  emit(o, ", \"exercise_boundary\": [");
  for (size_t k = 0; mcp_results_exercise_boundary(r, i, k, &t, &spot) == MCP_OK; k++) {
    json_timed(o, k, t);
    json_member(o, "spot", spot);
    emit(o, "}");
  }
  emit(o, "]");
}

static void write_json(out *o, const mcp_results *r)
{
  emit(o, "{\n  \"backend\": ");
  json_string(o, mcp_backend_name(mcp_results_backend(r)));
  emit(o, ",\n  \"paths\": %llu,\n  \"seed\": %llu,\n  \"seconds\": ",
       (unsigned long long)mcp_results_paths(r), (unsigned long long)mcp_results_seed(r));
  json_number(o, mcp_results_seconds(r));
  emit(o, ",\n  \"trades\": [");
  size_t n = mcp_results_count(r);
  row w;
  for (size_t i = 0; i < n; i++) {
    get_row(r, i, &w);
    emit(o, "%s\n    {\"id\": ", i ? "," : "");
    json_string(o, w.id);
    json_member(o, "quantity", w.quantity);
    json_member(o, "price", w.e.price);
    json_interval(o, &w.e);
    json_member(o, "value", w.value);
    emit(o, ", \"method\": ");
    json_string(o, w.method);
    emit(o, ", \"warnings\": [");
    for (int b = 0, k = 0; b < MCP_WARNING_COUNT; b++)
      if (mcp_results_warnings(r, i) >> b & 1u) {
        emit(o, k++ ? ", " : "");
        json_string(o, mcp_warning_name((mcp_warning)(1u << b)));
      }
    emit(o, "]");
    json_grid_move(o, r, i);
    json_redemptions(o, r, i);
    json_boundary(o, r, i);
    json_greeks(o, r, i);
    emit(o, "}");
  }
  get_row(r, n, &w);
  emit(o, "%s],\n  \"total\": {\"value\": ", n ? "\n  " : "");
  json_number(o, w.value);
  json_interval(o, &w.e);
  json_greeks(o, r, n);
  emit(o, "}\n}\n");
}

int report_write(FILE *f, report_format format, const mcp_results *results,
                 const mcp_market *market)
{
  out o = {f, 0, 0, market};
  if (format == REPORT_CSV)
    write_csv(&o, results);
  else if (format == REPORT_JSON)
    write_json(&o, results);
  else
    write_table(&o, results);
  if (o.failed)
    errno = o.err;
  return o.failed ? -1 : 0;
}

/* ---- scenario grids ------------------------------------------------------ */

static const char *const axis_labels[3] = {"spot", "volatility", "rate"};

/* Estimate of trade t (the book at t == count) at point (i, j, k); the book's
 * is its total value. */
static mcp_estimate point_estimate(const mcp_scenario_results *r, size_t t, size_t i, size_t j,
                                   size_t k)
{
  mcp_estimate e;
  if (t == mcp_scenario_results_count(r))
    mcp_scenario_results_total(r, i, j, k, &e);
  else
    mcp_scenario_results_trade(r, t, i, j, k, &e);
  return e;
}

static const char *point_id(const mcp_scenario_results *r, size_t t)
{
  return t == mcp_scenario_results_count(r) ? "TOTAL" : mcp_scenario_results_trade_id(r, t);
}

static const char *kind_name(const mcp_scenario_results *r, int a)
{
  return mcp_scenario_results_kind(r, (mcp_shift_axis)a) == MCP_SHIFT_RELATIVE ? "relative"
                                                                               : "absolute";
}

/* Per trade and rate shift, the prices (the book: its value) as a matrix of
 * spot shifts (rows) by volatility shifts (columns). */
static void write_scenario_table(out *o, const mcp_scenario_results *r)
{
  size_t n[3];
  for (int a = 0; a < 3; a++) {
    n[a] = mcp_scenario_results_shifts(r, (mcp_shift_axis)a);
    emit(o, "# %-10s %s:", axis_labels[a], kind_name(r, a));
    for (size_t i = 0; i < n[a]; i++)
      emit(o, " %g", mcp_scenario_results_shift(r, (mcp_shift_axis)a, i));
    emit(o, "\n");
  }
  for (size_t t = 0; t <= mcp_scenario_results_count(r); t++)
    for (size_t k = 0; k < n[2]; k++) {
      emit(o, "\n%s%s", point_id(r, t), t == mcp_scenario_results_count(r) ? " (value)" : "");
      if (n[2] > 1)
        emit(o, ", rate shift %g", mcp_scenario_results_shift(r, MCP_SHIFT_RATE, k));
      emit(o, "\n%12s", "spot \\ vol");
      for (size_t j = 0; j < n[1]; j++)
        emit(o, "  %14g", mcp_scenario_results_shift(r, MCP_SHIFT_VOLATILITY, j));
      emit(o, "\n");
      for (size_t i = 0; i < n[0]; i++) {
        char cell[CELL];
        emit(o, "%12g", mcp_scenario_results_shift(r, MCP_SHIFT_SPOT, i));
        for (size_t j = 0; j < n[1]; j++) {
          fixed(cell, point_estimate(r, t, i, j, k).price);
          emit(o, "  %14s", cell);
        }
        emit(o, "\n");
      }
    }
}

/* One row a trade (and the book) and point: the shifts, the estimate. */
static void write_scenario_csv(out *o, const mcp_scenario_results *r)
{
  size_t n[3];
  for (int a = 0; a < 3; a++)
    n[a] = mcp_scenario_results_shifts(r, (mcp_shift_axis)a);
  emit(o, "id,spot_shift,volatility_shift,rate_shift,quantity,price,std_error,value\n");
  for (size_t t = 0; t <= mcp_scenario_results_count(r); t++)
    for (size_t i = 0; i < n[0]; i++)
      for (size_t j = 0; j < n[1]; j++)
        for (size_t k = 0; k < n[2]; k++) {
          mcp_estimate e = point_estimate(r, t, i, j, k);
          int book = t == mcp_scenario_results_count(r);
          csv_field(o, point_id(r, t));
          emit(o, ",%.17g,%.17g,%.17g", mcp_scenario_results_shift(r, MCP_SHIFT_SPOT, i),
               mcp_scenario_results_shift(r, MCP_SHIFT_VOLATILITY, j),
               mcp_scenario_results_shift(r, MCP_SHIFT_RATE, k));
          if (book)
            emit(o, ",,,%.17g,%.17g\n", e.std_error, e.price);
          else
            emit(o, ",%.17g,%.17g,%.17g,%.17g\n", mcp_scenario_results_quantity(r, t), e.price,
                 e.std_error, mcp_scenario_results_quantity(r, t) * e.price);
        }
}

/* A member holding the [spot][volatility][rate] array of a field. */
static void json_grid(out *o, const char *name, const mcp_scenario_results *r, size_t t,
                      int error)
{
  size_t n[3];
  for (int a = 0; a < 3; a++)
    n[a] = mcp_scenario_results_shifts(r, (mcp_shift_axis)a);
  emit(o, ", \"%s\": [", name);
  for (size_t i = 0; i < n[0]; i++) {
    emit(o, "%s[", i ? ", " : "");
    for (size_t j = 0; j < n[1]; j++) {
      emit(o, "%s[", j ? ", " : "");
      for (size_t k = 0; k < n[2]; k++) {
        mcp_estimate e = point_estimate(r, t, i, j, k);
        emit(o, "%s", k ? ", " : "");
        json_number(o, error ? e.std_error : e.price);
      }
      emit(o, "]");
    }
    emit(o, "]");
  }
  emit(o, "]");
}

static void write_scenario_json(out *o, const mcp_scenario_results *r)
{
  emit(o, "{\n  \"shifts\": {");
  for (int a = 0; a < 3; a++) {
    emit(o, "%s\"%s\": {\"kind\": \"%s\", \"values\": [", a ? ", " : "", axis_labels[a],
         kind_name(r, a));
    for (size_t i = 0; i < mcp_scenario_results_shifts(r, (mcp_shift_axis)a); i++) {
      emit(o, "%s", i ? ", " : "");
      json_number(o, mcp_scenario_results_shift(r, (mcp_shift_axis)a, i));
    }
    emit(o, "]}");
  }
  emit(o, "},\n  \"trades\": [");
  size_t n = mcp_scenario_results_count(r);
  for (size_t t = 0; t < n; t++) {
    emit(o, "%s\n    {\"id\": ", t ? "," : "");
    json_string(o, point_id(r, t));
    json_member(o, "quantity", mcp_scenario_results_quantity(r, t));
    json_grid(o, "price", r, t, 0);
    json_grid(o, "std_error", r, t, 1);
    emit(o, "}");
  }
  emit(o, "%s],\n  \"total\": {\"id\": \"TOTAL\"", n ? "\n  " : "");
  json_grid(o, "value", r, n, 0);
  json_grid(o, "std_error", r, n, 1);
  emit(o, "}\n}\n");
}

/* ---- scenario sets ------------------------------------------------------- */

/* Estimate of trade t (the book's value at t == count) at point q: 0 the
 * base, s + 1 scenario s. */
static mcp_estimate set_estimate(const mcp_scenario_results *r, size_t t, size_t q)
{
  mcp_estimate e = {0};
  int book = t == mcp_scenario_results_count(r);
  if (book && q == 0)
    mcp_scenario_results_base(r, &e);
  else if (book)
    mcp_scenario_results_set_total(r, q - 1, &e);
  else if (q == 0)
    mcp_scenario_results_base_trade(r, t, &e);
  else
    mcp_scenario_results_set_trade(r, t, q - 1, &e);
  return e;
}

/* The book's loss at point q: 0 at the base (q = 0). */
static mcp_estimate set_loss(const mcp_scenario_results *r, size_t q)
{
  mcp_estimate e = {0};
  if (q)
    mcp_scenario_results_loss(r, q - 1, &e);
  return e;
}

/* The book's value, its error and its loss (and that one's) in each
 * scenario; VaR and ES. */
static void write_set_table(out *o, const mcp_scenario_results *r, const double *levels,
                            size_t nlevels)
{
  size_t n = mcp_scenario_results_scenarios(r), book = mcp_scenario_results_count(r);
  emit(o, "# scenario set: %zu scenarios on the paths of the base (the market unshifted)\n", n);
  emit(o, "# kinds: spot %s, volatility %s, rate %s\n", kind_name(r, 0), kind_name(r, 1),
       kind_name(r, 2));
  emit(o, "%-24s  %14s  %14s  %14s  %14s\n", "scenario", "book value", "std error", "loss",
       "std error");
  for (size_t q = 0; q <= n; q++) {
    char v[CELL], se[CELL], l[CELL], lse[CELL];
    mcp_estimate e = set_estimate(r, book, q), x = set_loss(r, q);
    fixed(v, e.price);
    fixed(se, e.std_error);
    fixed(l, x.price);
    fixed(lse, x.std_error);
    emit(o, "%-24s  %14s  %14s  %14s  %14s\n", q ? mcp_scenario_results_name(r, q - 1) : "base", v,
         se, l, lse);
  }
  for (size_t k = 0; k < nlevels; k++) {
    double var, es;
    char a[CELL], b[CELL];
    mcp_scenario_results_var(r, levels[k], &var, &es);
    fixed(a, var);
    fixed(b, es);
    emit(o, "%s%g%%: VaR %s, ES %s", k ? "; " : "# historical, level ", 100 * levels[k], a,
         b);
  }
  emit(o, "\n");
}

/* One row a point (the base, then each scenario) and trade (and the book). */
static void write_set_csv(out *o, const mcp_scenario_results *r)
{
  size_t n = mcp_scenario_results_scenarios(r), book = mcp_scenario_results_count(r);
  emit(o, "scenario,id,quantity,price,std_error,value,loss,loss_std_error\n");
  for (size_t q = 0; q <= n; q++)
    for (size_t t = 0; t <= book; t++) {
      mcp_estimate e = set_estimate(r, t, q);
      csv_field(o, q ? mcp_scenario_results_name(r, q - 1) : "base");
      emit(o, ",");
      csv_field(o, point_id(r, t));
      mcp_estimate x = set_loss(r, q);
      if (t == book)
        emit(o, ",,,%.17g,%.17g,%.17g,%.17g\n", e.std_error, e.price, x.price, x.std_error);
      else
        emit(o, ",%.17g,%.17g,%.17g,%.17g,,\n", mcp_scenario_results_quantity(r, t), e.price,
             e.std_error, mcp_scenario_results_quantity(r, t) * e.price);
    }
}

static void write_set_json(out *o, const mcp_scenario_results *r, const double *levels,
                           size_t nlevels)
{
  size_t n = mcp_scenario_results_scenarios(r), book = mcp_scenario_results_count(r);
  emit(o, "{\n  \"kinds\": {\"spot\": \"%s\", \"volatility\": \"%s\", \"rate\": \"%s\"},",
       kind_name(r, 0), kind_name(r, 1), kind_name(r, 2));
  emit(o, "\n  \"scenarios\": [");
  for (size_t q = 0; q <= n; q++) {
    mcp_estimate e = set_estimate(r, book, q), l = set_loss(r, q);
    emit(o, "%s\n    {\"name\": ", q ? "," : "");
    json_string(o, q ? mcp_scenario_results_name(r, q - 1) : "base");
    json_member(o, "value", e.price);
    json_member(o, "std_error", e.std_error);
    json_member(o, "loss", l.price);
    json_member(o, "loss_std_error", l.std_error);
    emit(o, ", \"trades\": [");
    for (size_t t = 0; t < book; t++) {
      mcp_estimate x = set_estimate(r, t, q);
      emit(o, "%s{\"id\": ", t ? ", " : "");
      json_string(o, point_id(r, t));
      json_member(o, "price", x.price);
      json_member(o, "std_error", x.std_error);
      emit(o, "}");
    }
    emit(o, "]}");
  }
  emit(o, "\n  ],\n  \"risk\": [");
  for (size_t k = 0; k < nlevels; k++) {
    double var, es;
    mcp_scenario_results_var(r, levels[k], &var, &es);
    emit(o, "%s{\"level\": %g", k ? ", " : "", levels[k]); /* as written */
    json_member(o, "var", var);
    json_member(o, "es", es);
    emit(o, "}");
  }
  emit(o, "]\n}\n");
}

int report_write_scenarios(FILE *f, report_format format, const mcp_scenario_results *results,
                           const double *levels, size_t nlevels)
{
  out o = {f, 0, 0, NULL};
  int set = mcp_scenario_results_scenarios(results) > 0;
  if (set && format == REPORT_CSV)
    write_set_csv(&o, results);
  else if (set && format == REPORT_JSON)
    write_set_json(&o, results, levels, nlevels);
  else if (set)
    write_set_table(&o, results, levels, nlevels);
  else if (format == REPORT_CSV)
    write_scenario_csv(&o, results);
  else if (format == REPORT_JSON)
    write_scenario_json(&o, results);
  else
    write_scenario_table(&o, results);
  if (o.failed)
    errno = o.err;
  return o.failed ? -1 : 0;
}

/* ---- output file --------------------------------------------------------- */

/* The temporaries to remove should a signal end the run while they exist
 * (the report's and --plot's): copies, which the handler may read whatever
 * the outputs have freed. */
#define SINKS 2
static char pending_tmp[SINKS][4096];
static volatile sig_atomic_t pending[SINKS];

static void on_fatal_signal(int sig)
{
  for (int k = 0; k < SINKS; k++)
    if (pending[k])
      unlink(pending_tmp[k]);
  raise(sig); /* SA_RESETHAND restored the default action */
}

static void forget_temporary(report_sink *s)
{
  if (s->slot >= 0)
    pending[s->slot] = 0;
  s->slot = -1;
}

static void catch_fatal_signals(void)
{
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (size_t k = 0; k < sizeof sigs / sizeof *sigs; k++)
    if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN) /* keep nohup's */
      sigaction(sigs[k], &sa, NULL);
}

int report_open(report_sink *s, const char *option, const char *path,
                const report_input *inputs, size_t ninputs)
{
  char err[1024];
  memset(s, 0, sizeof *s);
  s->path = path;
  s->option = option;
  s->slot = -1;
  if (!path) {
    s->f = stdout;
    return 0;
  }
  /* the library's rules (mcp_output_open), the run's inputs by device and inode */
  const char *names[8];
  size_t n = 0;
  for (size_t k = 0; k < ninputs && n < sizeof names / sizeof *names; k++)
    if (inputs[k].path)
      names[n++] = inputs[k].path;
  const char **many = ninputs > sizeof names / sizeof *names ? malloc(ninputs * sizeof *many)
                                                             : NULL;
  if (many)
    for (size_t k = n = 0; k < ninputs; k++)
      if (inputs[k].path)
        many[n++] = inputs[k].path;
  catch_fatal_signals();
  mcp_status st = mcp_output_open(&s->out, path, many ? many : names, n, err, sizeof err);
  free(many);
  if (st != MCP_OK) {
    cli_error("%s %s", option, err);
    return st == MCP_ERR_ARGUMENT ? -2 : -1;
  }
  const char *tmp = mcp_output_temporary(s->out);
  for (int k = 0; tmp && s->slot < 0 && k < SINKS; k++)
    if (!pending[k] && strlen(tmp) < sizeof pending_tmp[k]) {
      strcpy(pending_tmp[k], tmp);
      pending[k] = 1;
      s->slot = k;
    }
  /* stdio over a copy of the output's descriptor, which commit syncs */
  int copy = dup(mcp_output_fd(s->out));
  if (copy < 0 || !(s->f = fdopen(copy, "w"))) {
    cli_error("%s %s: cannot write it: %s", option, path, strerror(errno));
    if (copy >= 0)
      close(copy);
    report_abort(s);
    return -1;
  }
  return 0;
}

int report_commit(report_sink *s)
{
  char err[1024];
  int ok = fflush(s->f) == 0 && !ferror(s->f), e = errno;
  if (!s->path) {
    if (!ok)
      cli_error("cannot write standard output: %s", strerror(e));
    return ok ? 0 : -1;
  }
  if (fclose(s->f) != 0 && ok) {
    ok = 0;
    e = errno;
  }
  s->f = NULL;
  if (!ok) {
    cli_error("cannot write %s: %s", s->path, strerror(e));
    report_abort(s);
    return -1;
  }
  mcp_status st = mcp_output_commit(s->out, err, sizeof err);
  s->out = NULL;
  forget_temporary(s);
  if (st != MCP_OK) {
    cli_error("%s", err);
    return -1;
  }
  return 0;
}

void report_abort(report_sink *s)
{
  if (!s || !s->path)
    return;
  if (s->f)
    fclose(s->f);
  s->f = NULL;
  mcp_output_abort(s->out); /* removes the temporary */
  s->out = NULL;
  forget_temporary(s);
}
