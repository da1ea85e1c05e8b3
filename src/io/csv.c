/* csv.c: CSV records (RFC 4180), and a book of trades as CSV
 * (doc/input-schema.md "Trades from CSV"): a header of trade fields, then
 * one trade a row, turned into the JSON document {"trades": [...]} that the
 * portfolio reader reads, with the line each row began on, for its
 * messages.  A book's cell is:
 *   empty                 the field left out;
 *   true, false           a boolean;
 *   a JSON number         that number, as written;
 *   [...] or {...}        that JSON value;
 *   FIRST..LAST/N         a schedule {first, last, count} (N a number) or
 *   FIRST..LAST/FREQ      {first, last, frequency} (FREQ a word);
 *   A;B;C                 an array of those scalars;
 *   anything else         a string (always, in the columns id and
 *                         underlying). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/base/grow.h"
#include "src/io/csv.h"

typedef struct buf {
  char *s;
  size_t n, cap;
} buf;

static int put(buf *b, const char *s, size_t n)
{
  if (!mcpi_grow((void **)&b->s, &b->cap, b->n + n + 1, 1))
    return 0;
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
  return 1;
}

static int puts_(buf *b, const char *s) { return put(b, s, strlen(s)); }

/* s[0..n) as a JSON string. */
static int put_string(buf *b, const char *s, size_t n)
{
  int ok = puts_(b, "\"");
  for (size_t i = 0; ok && i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    char esc[8];
    if (c == '"' || c == '\\') {
      esc[0] = '\\', esc[1] = (char)c;
      ok = put(b, esc, 2);
    } else if (c < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      ok = puts_(b, esc);
    } else
      ok = put(b, (const char *)&c, 1);
  }
  return ok && puts_(b, "\"");
}

/* Whether s[0..n) is a number in JSON's syntax. */
static int json_number(const char *s, size_t n)
{
  size_t i = 0;
  if (i < n && s[i] == '-')
    i++;
  if (i == n || s[i] < '0' || s[i] > '9')
    return 0;
  if (s[i] == '0')
    i++;
  else
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
  if (i < n && s[i] == '.') {
    if (++i == n || s[i] < '0' || s[i] > '9')
      return 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
  }
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    if (i < n && (s[i] == '+' || s[i] == '-'))
      i++;
    if (i == n || s[i] < '0' || s[i] > '9')
      return 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
      i++;
  }
  return i == n;
}

/* A scalar cell: boolean, number or string. */
static int put_scalar(buf *b, const char *s, size_t n)
{
  if ((n == 4 && !memcmp(s, "true", 4)) || (n == 5 && !memcmp(s, "false", 5)) ||
      json_number(s, n))
    return put(b, s, n);
  return put_string(b, s, n);
}

/* FIRST..LAST/N or FIRST..LAST/FREQ: its parts, or 0. */
static int schedule(const char *s, size_t n, size_t *dots, size_t *slash)
{
  const char *d = memchr(s, '.', n);
  while (d && !(d + 1 < s + n && d[1] == '.'))
    d = memchr(d + 1, '.', (size_t)(s + n - d - 1));
  const char *sl = d ? memchr(d, '/', (size_t)(s + n - d)) : NULL;
  if (!d || !sl || d == s || sl == d + 2 || sl + 1 == s + n || memchr(s, ';', n))
    return 0;
  *dots = (size_t)(d - s);
  *slash = (size_t)(sl - s);
  return 1;
}

/* Cell s[0..n) of column key as a JSON value into b; 0 and a message into
 * why where it is not one. */
static int put_cell(buf *b, const char *key, const char *s, size_t n, char *why, size_t wn)
{
  size_t dots, slash;
  if (!strcmp(key, "id") || !strcmp(key, "underlying"))
    return put_string(b, s, n);
  if (*s == '[' || *s == '{') {
    json_error_t e;
    json_t *v = json_loadb(s, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &e);
    json_decref(v);
    if (!v) {
      snprintf(why, wn, "expected a JSON array or object: %s", e.text);
      return 0;
    }
    return put(b, s, n);
  }
  if (schedule(s, n, &dots, &slash)) {
    const char *c = s + slash + 1;
    size_t cn = n - slash - 1;
    int count = json_number(c, cn);
    return puts_(b, "{\"first\": ") && put_scalar(b, s, dots) && puts_(b, ", \"last\": ") &&
           put_scalar(b, s + dots + 2, slash - dots - 2) &&
           puts_(b, count ? ", \"count\": " : ", \"frequency\": ") &&
           (count ? put(b, c, cn) : put_string(b, c, cn)) && puts_(b, "}");
  }
  if (!memchr(s, ';', n))
    return put_scalar(b, s, n);
  int ok = puts_(b, "[");
  for (const char *p = s, *end = s + n; ok && p <= end;) {
    const char *q = memchr(p, ';', (size_t)(end - p));
    size_t m = q ? (size_t)(q - p) : (size_t)(end - p);
    if (!m) {
      snprintf(why, wn, "expected values between the semicolons, got an empty one");
      return 0;
    }
    ok = (p == s || puts_(b, ", ")) && put_scalar(b, p, m);
    p += m + 1;
  }
  return ok && puts_(b, "]");
}

int mcpi_csv_record(char **at, char *end, mcpi_csv_field **f, size_t *cap, size_t *nf,
                    size_t *line, char *why, size_t wn)
{
  char *p = *at;
  *nf = 0;
  for (;;) {
    if (!mcpi_grow((void **)f, cap, *nf + 1, sizeof **f))
      return snprintf(why, wn, "out of memory"), 0;
    mcpi_csv_field *x = &(*f)[(*nf)++];
    if (p < end && *p == '"') { /* quoted: "" is a quote; it may hold newlines */
      char *w = ++p;
      x->s = w;
      for (;;) {
        if (p == end)
          return snprintf(why, wn, "a quoted field that never ends"), 0;
        if (*p == '"' && (p + 1 == end || p[1] != '"'))
          break;
        if (*p == '\n')
          ++*line;
        if (*p == '"')
          p++;
        *w++ = *p++;
      }
      x->n = (size_t)(w - x->s);
      p++;
    } else {
      x->s = p;
      while (p < end && *p != ',' && *p != '\n' && *p != '\r')
        p++;
      x->n = (size_t)(p - x->s);
    }
    if (p < end && *p == ',') {
      p++;
      continue;
    }
    if (p < end && *p == '\r')
      p++;
    if (p < end && *p != '\n')
      return snprintf(why, wn, "expected a comma or the end of the line after a quoted "
                      "field"), 0;
    if (p < end) {
      p++;
      ++*line;
    }
    *at = p;
    return 1;
  }
}

int mcpi_csv_blank(const mcpi_csv_field *f, size_t n) { return n == 1 && f[0].n == 0; }

int mcpi_csv_name(const char *file)
{
  size_t n = file ? strlen(file) : 0;
  return n >= 4 && (!strcmp(file + n - 4, ".csv") || !strcmp(file + n - 4, ".CSV"));
}

mcp_status mcpi_csv_book_read(const char *file, const char *text, size_t len,
                              mcpi_csv_book *out, char *err, size_t errlen)
{
  memset(out, 0, sizeof *out);
  char *copy = malloc(len + 1), *at = copy, *end = copy + len, why[256] = "";
  buf b = {0};
  mcpi_csv_field *head = NULL, *f = NULL;
  size_t hcap = 0, fcap = 0, nh = 0, nf = 0, line = 1, rcap = 0;
  mcp_status st = MCP_OK;
  if (!copy || !puts_(&b, "{\"trades\": [\n")) {
    st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", file);
    goto done;
  }
  memcpy(copy, text, len);
  if (len >= 3 && !memcmp(copy, "\xEF\xBB\xBF", 3)) /* a spreadsheet's byte-order mark */
    at += 3;
  if (!mcpi_csv_record(&at, end, &head, &hcap, &nh, &line, why, sizeof why)) {
    st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s:1: %s", file, why);
    goto done;
  }
  for (size_t i = 0; i < nh; i++) {
    head[i].s[head[i].n] = '\0'; /* its separator or quote: no longer needed */
    for (size_t j = 0; j < i && head[i].n; j++)
      if (!strcmp(head[i].s, head[j].s)) {
        st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row 1, column %zu: '%s' given "
                          "twice; expected each trade field once", file, i + 1, head[i].s);
        goto done;
      }
    if (!head[i].n) {
      st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row 1, column %zu: expected a trade "
                        "field's name, got an empty one", file, i + 1);
      goto done;
    }
  }
  while (at < end && st == MCP_OK) {
    size_t first = line;
    if (!mcpi_csv_record(&at, end, &f, &fcap, &nf, &line, why, sizeof why)) {
      st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row %zu: %s", file, first, why);
      break;
    }
    if (mcpi_csv_blank(f, nf))
      continue;
    if (nf > nh) {
      st = mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row %zu: expected at most %zu "
                        "fields (the header's), got %zu", file, first, nh, nf);
      break;
    }
    if (!mcpi_grow((void **)&out->row, &rcap, out->nrows + 1, sizeof *out->row) ||
        !puts_(&b, out->nrows ? ",\n{" : "{")) {
      st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", file);
      break;
    }
    out->row[out->nrows++] = first;
    int any = 0;
    for (size_t i = 0; i < nf && st == MCP_OK; i++) {
      if (!f[i].n)
        continue;
      if ((any++ && !puts_(&b, ", ")) || !put_string(&b, head[i].s, head[i].n) ||
          !puts_(&b, ": ") || !put_cell(&b, head[i].s, f[i].s, f[i].n, why, sizeof why))
        st = *why ? mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: row %zu, column %s: %s",
                                 file, first, head[i].s, why)
                  : mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", file);
    }
    if (st == MCP_OK && !puts_(&b, "}"))
      st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", file);
  }
  if (st == MCP_OK && !puts_(&b, "\n]}\n"))
    st = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", file);
done:
  free(copy);
  free(head);
  free(f);
  if (st == MCP_OK) {
    out->json = b.s;
    out->len = b.n;
  } else {
    free(b.s);
    mcpi_csv_book_free(out);
  }
  return st;
}

void mcpi_csv_book_free(mcpi_csv_book *book)
{
  free(book->json);
  free(book->row);
  memset(book, 0, sizeof *book);
}
