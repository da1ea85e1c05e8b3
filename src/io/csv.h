/* csv.h: CSV records, and a book of trades as CSV turned into its JSON
 * document (csv.c). */
#ifndef MCP_IO_CSV_BOOK_H
#define MCP_IO_CSV_BOOK_H

#include <stddef.h>
#include "mcprice.h"

typedef struct mcpi_csv_book {
  char *json;  /* {"trades": [...]}, trade i on line i + 2 */
  size_t len;
  size_t *row; /* the line trade i's row began on */
  size_t nrows;
} mcpi_csv_book;

/* Whether file names a CSV file (".csv"). */
int mcpi_csv_name(const char *file);

/* A field of a record, in the text it was read from. */
typedef struct mcpi_csv_field {
  char *s;
  size_t n;
} mcpi_csv_field;
/* The next record's fields from *at (the text ends at end) into *f (grown,
 * *cap of them), their count into *nf, unquoted in place (a quoted field's
 * "" become one quote, its quotes go; it may hold commas and newlines);
 * *line advances over the record's newlines.  0, and why in why (wn
 * bytes), for a quoted field that never ends or is followed by more. */
int mcpi_csv_record(char **at, char *end, mcpi_csv_field **f, size_t *cap, size_t *nf,
                    size_t *line, char *why, size_t wn);
/* Whether a record is a blank line. */
int mcpi_csv_blank(const mcpi_csv_field *f, size_t n);
/* The book of text (len bytes of file), or MCP_ERR_INPUT naming file, row and
 * column. */
mcp_status mcpi_csv_book_read(const char *file, const char *text, size_t len,
                              mcpi_csv_book *out, char *err, size_t errlen);
void mcpi_csv_book_free(mcpi_csv_book *book);

#endif
