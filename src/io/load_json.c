/* load_json.c: reading JSON files and reporting their errors at the field. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/io/csv.h"
#include "src/io/load_json.h"
#include "src/base/names.h"
#include "src/io/read_file.h"

#define PATHLEN 256

static mcp_status vfail_at(const mcpi_json_doc *d, const mcpi_json_pos *pos, const char *path,
                           mcp_status status, const char *fmt, va_list ap)
{
  char where[48] = "", msg[MCPI_ERRLEN], cell[PATHLEN + 32];
  size_t t, skip;
  if (pos && !d->csv)
    snprintf(where, sizeof where, ":%d:%d", pos->line, pos->column);
  /* a CSV book's trades[i].FIELD is its row's line and that column */
  if (d->rows && sscanf(path, "trades[%zu]%zn", &t, &skip) == 1 && t < d->nrows) {
    snprintf(cell, sizeof cell, "row %zu%s%s", d->rows[t], path[skip] ? ", column " : "",
             path[skip] ? path + skip + 1 : "");
    path = cell;
  }
  vsnprintf(msg, sizeof msg, fmt, ap);
  return mcpi_fail_to(d->err, d->errlen, status, "%s%s: %s%s%s", d->file, where, path,
                      *path ? ": " : "", msg);
}

static mcp_status fail_at(const mcpi_json_doc *d, const mcpi_json_pos *pos, const char *path,
                          mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static mcp_status fail_at(const mcpi_json_doc *d, const mcpi_json_pos *pos, const char *path,
                          mcp_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  status = vfail_at(d, pos, path, status, fmt, ap);
  va_end(ap);
  return status;
}

mcp_status mcpi_json_fail_file(const mcpi_json_doc *d, mcp_status status, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  status = vfail_at(d, NULL, "", status, fmt, ap);
  va_end(ap);
  return status;
}

mcp_status mcpi_json_fail(const mcpi_json_doc *d, const mcpi_json_path *path, int at_key,
                          mcp_status status, const char *fmt, ...)
{
  char name[PATHLEN];
  mcpi_json_pos pos;
  int found = mcpi_json_locate(d->text, d->len, path, at_key, &pos);
  va_list ap;
  mcpi_json_path_format(path, name, sizeof name);
  va_start(ap, fmt);
  status = vfail_at(d, found ? &pos : NULL, name, status, fmt, ap);
  va_end(ap);
  return status;
}

/* The value as written, shortened to fit, or what kind of container it is. */
static void describe(const char *v, size_t n, char *buf, size_t size)
{
  if (*v == '{') {
    snprintf(buf, size, "an object");
  } else if (*v == '[') {
    snprintf(buf, size, v[1 + strspn(v + 1, " \t\r\n")] == ']' ? "an empty array" : "an array");
  } else if (n < size) {
    snprintf(buf, size, "%.*s", (int)n, v);
  } else {
    size_t k = size - 4; /* room for "..." */
    while (k > 0 && ((unsigned char)v[k] & 0xC0) == 0x80) /* cut between UTF-8 characters */
      k--;
    snprintf(buf, size, "%.*s...", (int)k, v);
  }
}

mcp_status mcpi_json_expected(const mcpi_json_doc *d, const mcpi_json_path *path,
                              const char *what)
{
  char got[48] = "";
  mcpi_json_pos pos;
  if (mcpi_json_locate(d->text, d->len, path, 0, &pos))
    describe(d->text + pos.offset, pos.end - pos.offset, got, sizeof got);
  return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "expected %s%s%s", what, *got ? ", got " : "",
                        got);
}

mcp_status mcpi_json_object(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *value,
                            const char *what, const char *const *keys, size_t nkeys)
{
  const char *key;
  json_t *member;
  if (!json_is_object(value))
    return mcpi_json_expected(d, path, what);
  json_object_foreach(value, key, member) {
    size_t i = 0;
    while (i < nkeys && strcmp(key, keys[i]) != 0)
      i++;
    if (i == nkeys) {
      char known[MCPI_ERRLEN] = "";
      for (i = 0; i < nkeys; i++)
        mcpi_list_add(known, sizeof known, keys[i], ", ");
      return mcpi_json_fail(d, &(mcpi_json_path){path, key, 0}, 1, MCP_ERR_INPUT,
                            "unknown field; expected one of %s", known);
    }
  }
  return MCP_OK;
}

mcp_status mcpi_json_member(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            const char *key, int required, const char *what, json_t **out)
{
  *out = json_object_get(obj, key);
  if (!*out && required)
    return mcpi_json_fail(d, path, 0, MCP_ERR_INPUT, "missing field '%s' (expected %s)", key,
                          what);
  return MCP_OK;
}

mcp_status mcpi_json_number(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            const char *key, int required, const char *(*check)(double),
                            double *out)
{
  const char *what = check(NAN), *why;
  json_t *v;
  mcp_status st = mcpi_json_member(d, path, obj, key, required, what, &v);
  if (st != MCP_OK || !v)
    return st;
  if ((why = json_is_number(v) ? check(json_number_value(v)) : what))
    return mcpi_json_expected(d, &(mcpi_json_path){path, key, 0}, why);
  *out = json_number_value(v);
  return MCP_OK;
}

mcp_status mcpi_json_uint(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                          const char *key, int required, const char *(*check)(uint64_t),
                          uint64_t *out)
{
  const char *what = check(UINT64_MAX), *why;
  json_t *v;
  mcp_status st = mcpi_json_member(d, path, obj, key, required, what, &v);
  if (st != MCP_OK || !v)
    return st;
  json_int_t i = json_integer_value(v);
  if ((why = json_is_integer(v) && i >= 0 ? check((uint64_t)i) : what))
    return mcpi_json_expected(d, &(mcpi_json_path){path, key, 0}, why);
  *out = (uint64_t)i;
  return MCP_OK;
}

mcp_status mcpi_json_string(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            const char *key, int required, const char *(*check)(const char *),
                            const char **out)
{
  const char *what = check(NULL), *why;
  json_t *v;
  mcp_status st = mcpi_json_member(d, path, obj, key, required, what, &v);
  if (st != MCP_OK || !v)
    return st;
  if ((why = json_is_string(v) ? check(json_string_value(v)) : what))
    return mcpi_json_expected(d, &(mcpi_json_path){path, key, 0}, why);
  *out = json_string_value(v);
  return MCP_OK;
}

mcp_status mcpi_json_enum(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                          const char *key, int required, const mcpi_json_choice *choices,
                          int *out)
{
  json_t *v = json_object_get(obj, key);
  if (!v && !required)
    return MCP_OK;
  for (const mcpi_json_choice *c = choices; c->name && json_is_string(v); c++)
    if (strcmp(c->name, json_string_value(v)) == 0) {
      *out = c->value;
      return MCP_OK;
    }
  /* the choices' list for the message alone (a book's every field read
   * built it: a third of a 10,000-trade book's load) */
  char names[MCPI_ERRLEN / 2] = "", what[MCPI_ERRLEN];
  for (const mcpi_json_choice *c = choices; c->name; c++)
    mcpi_list_add(names, sizeof names, c->name, ", ");
  snprintf(what, sizeof what, "one of %s", names);
  mcp_status st = mcpi_json_member(d, path, obj, key, required, what, &v);
  return st != MCP_OK ? st : mcpi_json_expected(d, &(mcpi_json_path){path, key, 0}, what);
}

mcp_status mcpi_json_array(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                           const char *key, int required, size_t min, const char *what,
                           json_t **out)
{
  mcp_status st = mcpi_json_member(d, path, obj, key, required, what, out);
  if (st == MCP_OK && *out && (!json_is_array(*out) || json_array_size(*out) < min))
    return mcpi_json_expected(d, &(mcpi_json_path){path, key, 0}, what);
  return st;
}

/* Why a document without dates refused one. */
#define UNDATED " (a date needs the market's valuation_date, and a portfolio read with its market)"

/* What a time may be in d, for messages. */
static const char *time_what(const mcpi_json_doc *d)
{
  return d->dates ? "a time in years or a date YYYY-MM-DD" : "a time in years" UNDATED;
}

/* The time of v, a number or a date; NULL, or what was expected. */
static const char *time_of(const mcpi_json_doc *d, json_t *v, double *t)
{
  mcpi_date date;
  const char *why;
  if (json_is_number(v)) {
    *t = json_number_value(v);
    return NULL;
  }
  if (!json_is_string(v) || !d->dates)
    return time_what(d);
  if ((why = mcpi_date_parse(json_string_value(v), &date)))
    return why;
  *t = mcpi_dates_time(d->dates, date);
  return NULL;
}

mcp_status mcpi_json_time(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                          const char *key, int required, const char *(*check)(double),
                          double *out)
{
  const mcpi_json_path at = {path, key, 0};
  const char *what = check(NAN), *why;
  char buf[MCPI_ERRLEN / 2], day[11];
  json_t *v;
  double t = 0;
  mcp_status st = mcpi_json_member(d, path, obj, key, required, what, &v);
  if (st != MCP_OK || !v)
    return st;
  if (json_is_string(v) && !d->dates) {
    snprintf(buf, sizeof buf, "%s" UNDATED, what);
    return mcpi_json_expected(d, &at, buf);
  }
  if (!json_is_string(v) && !json_is_number(v))
    return mcpi_json_expected(d, &at, what);
  if ((why = time_of(d, v, &t)))
    return mcpi_json_expected(d, &at, why);
  if ((why = check(t)) && json_is_string(v)) { /* a date: say which time it is */
    mcpi_date_format(d->dates->basis.valuation, day);
    snprintf(buf, sizeof buf, "%s (this date is %.6g years from the valuation date %s)", why, t,
             day);
    return mcpi_json_expected(d, &at, buf);
  }
  if (why)
    return mcpi_json_expected(d, &at, why);
  *out = t;
  return MCP_OK;
}

mcp_status mcpi_json_array_of(const mcpi_json_doc *d, const mcpi_json_path *path,
                              json_t *array, mcpi_json_elem elem, const void *arg, double **out,
                              size_t *n)
{
  size_t i, count = json_array_size(array);
  json_t *v;
  const char *why;
  double *x = malloc((count ? count : 1) * sizeof *x);
  if (!x)
    return mcpi_json_fail_file(d, MCP_ERR_NO_MEMORY, "out of memory");
  json_array_foreach(array, i, v)
    if ((why = elem(d, v, arg, &x[i]))) {
      free(x);
      return mcpi_json_expected(d, &(mcpi_json_path){path, NULL, i}, why);
    }
  *out = x;
  *n = count;
  return MCP_OK;
}

static const char *time_elem(const mcpi_json_doc *d, json_t *v, const void *arg, double *x)
{
  return time_of(d, v, x);
}

mcp_status mcpi_json_times(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *array,
                           double **times, size_t *n)
{
  return mcpi_json_array_of(d, path, array, time_elem, NULL, times, n);
}

/* A number; arg: what it is, for messages. */
static const char *number_elem(const mcpi_json_doc *d, json_t *v, const void *arg, double *x)
{
  if (!json_is_number(v))
    return arg;
  *x = json_number_value(v);
  return NULL;
}

mcp_status mcpi_json_numbers(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *array,
                             const char *what, double **out, size_t *n)
{
  return mcpi_json_array_of(d, path, array, number_elem, what, out, n);
}

/* The NUL byte text[at]'s message, at its line and column. */
static mcp_status nul_at(const mcpi_json_doc *d, const char *text, size_t at)
{
  mcpi_json_pos pos = {at, at + 1, 1, 1};
  mcpi_text_position(text, at, &pos.line, &pos.column);
  return fail_at(d, &pos, "", MCP_ERR_PARSE, "a NUL byte; expected JSON text (UTF-8)");
}

static mcp_status parse_error(const mcpi_json_doc *d, const json_error_t *e)
{
  enum json_error_code code = json_error_code(e);
  char path[PATHLEN];
  mcpi_json_pos pos;
  /* Well-formed JSON that jansson refuses while parsing: name the field.  Its
   * position is the end of the offending key or number. */
  if ((code == json_error_duplicate_key || code == json_error_numeric_overflow) &&
      e->position >= 0 &&
      mcpi_json_path_at(d->text, d->len, (size_t)e->position, path, sizeof path, &pos))
    return fail_at(d, &pos, path, MCP_ERR_INPUT, "%s", e->text);
  /* jansson's column is that of the last character it read: 0 before any. */
  pos.line = e->line;
  pos.column = e->column > 0 ? e->column : 1;
  return fail_at(d, e->line > 0 ? &pos : NULL, "", MCP_ERR_PARSE, "JSON syntax error: %s",
                 e->text);
}

/* How load reads: JSON, a book (JSON, or CSV where the file is named so),
 * or JSON that a CSV file was turned into. */
enum { AS_JSON, AS_BOOK, FROM_CSV };

static mcp_status load(const char *file, const char *text, size_t len, char *err,
                       size_t errlen, mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                       void *target, int as)
{
  mcpi_json_doc d = {file, NULL, 0, NULL, err, errlen, NULL, as == FROM_CSV, NULL, 0};
  json_error_t e;
  mcp_status st;
  if (!file) {
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "no file name given");
  }
  if (text) {
    if (len > MCPI_JSON_MAX_BYTES)
      return mcpi_json_fail_file(&d, MCP_ERR_INPUT,
                                 "larger than %u MiB; expected an input of at most that",
                                 MCPI_JSON_MAX_BYTES >> 20);
    const char *nul = memchr(text, 0, len);
    if (nul)
      return nul_at(&d, text, (size_t)(nul - text));
    if (!(d.text = malloc(len + 1)))
      return mcpi_json_fail_file(&d, MCP_ERR_NO_MEMORY, "out of memory");
    memcpy(d.text, text, len);
    d.text[len] = '\0';
    d.len = len;
  } else {
    static const mcpi_read_rules rules = {MCPI_JSON_MAX_BYTES, "an input file",
                                          "JSON text (UTF-8)", 0, NULL};
    if ((st = mcpi_read_file(file, &rules, &d.text, &d.len, err, errlen)) != MCP_OK)
      return st;
  }
  mcpi_csv_book csv = {0};
  if (as == AS_BOOK && mcpi_csv_name(file)) { /* its JSON in place of its text */
    st = mcpi_csv_book_read(file, d.text, d.len, &csv, err, errlen);
    free(d.text);
    if (st != MCP_OK)
      return st;
    d.text = csv.json;
    d.len = csv.len;
    d.csv = 1;
    d.rows = csv.row;
    d.nrows = csv.nrows;
    csv.json = NULL;
  }
  /* The text was read here rather than by json_load_file so that error
   * messages locate values in exactly what was parsed. */
  if (!(d.root = json_loadb(d.text, d.len, JSON_REJECT_DUPLICATES, &e)))
    st = parse_error(&d, &e);
  else
    st = fill(&d, target);
  json_decref(d.root);
  free(d.text);
  mcpi_csv_book_free(&csv);
  return st;
}

mcp_status mcpi_json_load(const char *file, const char *text, size_t len, char *err,
                          size_t errlen, mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                          void *target)
{
  return load(file, text, len, err, errlen, fill, target, AS_JSON);
}

mcp_status mcpi_json_load_book(const char *file, const char *text, size_t len, char *err,
                               size_t errlen,
                               mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                               void *target)
{
  return load(file, text, len, err, errlen, fill, target, AS_BOOK);
}

mcp_status mcpi_json_load_from_csv(const char *file, const char *json, size_t len, char *err,
                                   size_t errlen,
                                   mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                                   void *target)
{
  return load(file, json, len, err, errlen, fill, target, FROM_CSV);
}

/* Checks that every member of obj, all among the nkeys keys (masks[i] says
 * which kinds, bits 1 << choice value, have keys[i]), is a field of the kind
 * `which` of choices (a model or a product).  A field of another kind is an
 * unknown field; the message names the kinds that have it. */
mcp_status mcpi_json_kind_keys(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                               const char *const *keys, const unsigned *masks, size_t nkeys,
                               const char *kind, const mcpi_json_choice *choices, int which)
{
  const char *key;
  json_t *member;
  json_object_foreach(obj, key, member) {
    size_t i = 0;
    while (i < nkeys && strcmp(key, keys[i]) != 0)
      i++;
    if (i == nkeys || masks[i] & 1u << which)
      continue;
    char known[MCPI_ERRLEN / 2] = "", owners[MCPI_ERRLEN / 3] = "";
    const char *own[32];
    size_t n = 0;
    for (size_t k = 0; k < nkeys; k++)
      if (masks[k] & 1u << which)
        mcpi_list_add(known, sizeof known, keys[k], ", ");
    for (const mcpi_json_choice *c = choices; c->name && n < MCPI_COUNT(own); c++)
      if (masks[i] & 1u << c->value)
        own[n++] = c->name;
    for (size_t k = 0; k < n; k++)
      mcpi_list_add(owners, sizeof owners, own[k], k + 1 == n ? " and " : ", ");
    return mcpi_json_fail(d, &(mcpi_json_path){path, key, 0}, 1, MCP_ERR_INPUT,
                          "unknown field; expected one of %s (%s is for %s%s %s)", known, key,
                          kind, n > 1 ? "s" : "", owners);
  }
  return MCP_OK;
}
