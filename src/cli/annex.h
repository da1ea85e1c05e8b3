/* annex.h: what "mcprice price --slice" carries in its partial result for
 * "mcprice merge": the price command's arguments and its input files'
 * contents, as netstrings ("LEN:BYTES,") after a tag naming the layout. */
#ifndef MCPRICE_ANNEX_H
#define MCPRICE_ANNEX_H

#include <stddef.h>

enum { ANNEX_MARKET = 0, ANNEX_PORTFOLIO, ANNEX_SCENARIOS, ANNEX_FILES };

typedef struct cli_annex {
  char **argv;               /* NULL-terminated */
  char *text[ANNEX_FILES];   /* a file's contents (NUL-terminated), or NULL */
  size_t len[ANNEX_FILES];
} cli_annex;

/* The annex as bytes (malloc'd); 0, or -1 when out of memory. */
int cli_annex_encode(const cli_annex *a, char **out, size_t *len);
/* 0, or -1 for bytes that are not an annex of this layout (a owns what it
 * holds either way: cli_annex_free). */
int cli_annex_decode(const char *b, size_t n, cli_annex *a);
void cli_annex_free(cli_annex *a);

#endif
