/* load_json.h: what the market and portfolio file readers share: reading
 * and parsing a file, messages that point at a field, and field getters that
 * check types and values.  Every failing call leaves its message in the
 * caller's buffer, in the form "FILE:LINE:COL: PATH: what went wrong". */
#ifndef MCP_LOAD_JSON_H
#define MCP_LOAD_JSON_H

#include <jansson.h>
#include <stdint.h>
#include "src/base/dates.h"
#include "src/io/json_locate.h"
#include "mcprice.h"

#define MCPI_COUNT(a) (sizeof(a) / sizeof *(a))

/* The largest input file read: a portfolio of a million trades fits. */
#define MCPI_JSON_MAX_BYTES MCP_INPUT_MAX_BYTES

enum { MCPI_OPTIONAL = 0, MCPI_REQUIRED = 1 };

typedef struct mcpi_json_doc {
  const char *file; /* as the caller named it, for messages */
  char *text;       /* the raw contents (NUL-terminated), to locate values */
  size_t len;
  json_t *root;
  char *err; /* the caller's message buffer, may be NULL */
  size_t errlen;
  /* what turns a date into a time (a market's), or NULL: times are numbers */
  const mcpi_dates *dates;
  /* read from CSV (csv.h): no line and column in messages, and a book's
   * trades named by the line each one's row began on */
  int csv;
  const size_t *rows;
  size_t nrows;
} mcpi_json_doc;

/* A name of a closed list and the enumeration value it stands for; lists
 * end with a NULL name. */
typedef struct mcpi_json_choice {
  const char *name;
  int value;
} mcpi_json_choice;

/* Reads and parses file (or, when text is not NULL, its len bytes, which
 * messages call file), then runs fill(doc, target) to build target from
 * doc->root.  I/O failures give MCP_ERR_IO, malformed JSON MCP_ERR_PARSE, and
 * duplicate keys or numbers too large to represent MCP_ERR_INPUT. */
mcp_status mcpi_json_load(const char *file, const char *text, size_t len, char *err,
                          size_t errlen, mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                          void *target);
/* The same for a book: a file named .csv is a CSV book (csv.h), read
 * as the JSON document it stands for. */
mcp_status mcpi_json_load_book(const char *file, const char *text, size_t len, char *err,
                               size_t errlen,
                               mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                               void *target);
/* The same for JSON text that a CSV file (file) was turned into: messages
 * name the file and the field, no line or column. */
mcp_status mcpi_json_load_from_csv(const char *file, const char *json, size_t len, char *err,
                                   size_t errlen,
                                   mcp_status (*fill)(const mcpi_json_doc *doc, void *target),
                                   void *target);

/* "FILE: message", for failures that no field explains. */
mcp_status mcpi_json_fail_file(const mcpi_json_doc *d, mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "FILE:LINE:COL: PATH: message", at the value at path or, with at_key, at
 * its member name. */
mcp_status mcpi_json_fail(const mcpi_json_doc *d, const mcpi_json_path *path, int at_key,
                          mcp_status status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* MCP_ERR_INPUT, "...: PATH: expected WHAT, got VALUE" with VALUE as written
 * in the file. */
mcp_status mcpi_json_expected(const mcpi_json_doc *d, const mcpi_json_path *path,
                              const char *what);

/* Checks that value, at path, is an object (else "expected WHAT") whose
 * members are all among the nkeys keys. */
mcp_status mcpi_json_object(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *value,
                            const char *what, const char *const *keys, size_t nkeys);

/* Getters of the member key of object obj, which lies at path.  A missing
 * member is an error when required; when optional, the getter succeeds and
 * leaves *out as it was, holding the default (the member and array getters
 * set it to NULL).  what, or the phrase of the check function, says what a valid value
 * is, for messages. */
mcp_status mcpi_json_member(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            const char *key, int required, const char *what, json_t **out);
/* A number that check accepts; check(NAN) must fail: its phrase is the one
 * given for a missing member or one of the wrong type. */
mcp_status mcpi_json_number(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            const char *key, int required, const char *(*check)(double),
                            double *out);
/* A JSON integer >= 0 that check accepts; check(UINT64_MAX) must fail. */
mcp_status mcpi_json_uint(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                          const char *key, int required, const char *(*check)(uint64_t),
                          uint64_t *out);
/* A string that check accepts; check(NULL) must fail.  *out points into the
 * document. */
mcp_status mcpi_json_string(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                            const char *key, int required, const char *(*check)(const char *),
                            const char **out);
/* One of the names of choices; *out receives its value. */
mcp_status mcpi_json_enum(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                          const char *key, int required, const mcpi_json_choice *choices,
                          int *out);
/* An array of at least min elements. */
mcp_status mcpi_json_array(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                           const char *key, int required, size_t min, const char *what,
                           json_t **out);
/* A time: a number of years that check accepts or, where the document has
 * dates, a date YYYY-MM-DD after the valuation date, its time by the
 * dates' basis; check(NAN) must fail. */
mcp_status mcpi_json_time(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                          const char *key, int required, const char *(*check)(double),
                          double *out);
/* Copies the times of array (numbers, or dates as mcpi_json_time reads
 * them), which lies at path, into *times (n of them, to be freed by the
 * caller). */
mcp_status mcpi_json_times(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *array,
                           double **times, size_t *n);
/* The same for numbers of any meaning; what names them in messages. */
mcp_status mcpi_json_numbers(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *array,
                             const char *what, double **out, size_t *n);
/* How an element v of an array becomes *x (arg: the caller's): NULL, or
 * what was expected. */
typedef const char *(*mcpi_json_elem)(const mcpi_json_doc *d, json_t *v, const void *arg,
                                      double *x);
/* The elements of array, at path, each by elem, into *out (n of them, to be
 * freed by the caller); an element elem refuses is reported at its index. */
mcp_status mcpi_json_array_of(const mcpi_json_doc *d, const mcpi_json_path *path,
                              json_t *array, mcpi_json_elem elem, const void *arg, double **out,
                              size_t *n);

/* Checks that every member of obj, all among the nkeys keys (masks[i] says
 * which kinds, bits 1 << choice value, have keys[i]), is a field of the kind
 * `which` of choices (a model or a product); a field of another kind is an
 * unknown field whose message names the kinds that have it. */
mcp_status mcpi_json_kind_keys(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                               const char *const *keys, const unsigned *masks, size_t nkeys,
                               const char *kind, const mcpi_json_choice *choices, int which);

/* The surface of implied volatilities in obj, at path (its maturities,
 * strikes or moneyness, volatilities: load_quotes.c), into q, the
 * moneyness made strikes on spot; q's arrays are the caller's to free,
 * whatever the status. */
mcp_status mcpi_json_surface(const mcpi_json_doc *d, const mcpi_json_path *path, json_t *obj,
                             double spot, mcp_quotes *q);

#endif
