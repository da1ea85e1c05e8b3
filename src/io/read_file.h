/* read_file.h: the one reader of every input file (the JSON loaders, the
 * partial results, mcp_input_read): bounded, a header checked before the
 * body is read, and text refused at its first NUL byte. */
#ifndef MCP_READ_FILE_H
#define MCP_READ_FILE_H

#include <stddef.h>
#include "mcprice.h"

typedef struct mcpi_read_rules {
  size_t max;       /* the largest file read */
  const char *kind; /* what a file is expected to be, for messages: "an input file" */
  const char *text; /* text, as this says ("JSON text (UTF-8)"): a NUL byte is
                       refused at its line and column; NULL for bytes */
  /* check, when not NULL, sees the first head bytes (fewer in a shorter
   * file) before the rest is read; it returns MCP_OK or an error with its
   * message in err */
  size_t head;
  mcp_status (*check)(const unsigned char *b, size_t n, const char *name, char *err,
                      size_t errlen);
} mcpi_read_rules;

/* The file at path into *out (malloc'd, with a NUL after its *len bytes).
 * MCP_ERR_IO for a file that cannot be opened or read, or a directory;
 * MCP_ERR_INPUT for one larger than rules->max; MCP_ERR_PARSE for a NUL
 * byte in text; check's status; messages "PATH: ..." or "PATH:LINE:COL: ...". */
mcp_status mcpi_read_file(const char *path, const mcpi_read_rules *rules, char **out,
                          size_t *len, char *err, size_t errlen);

/* The line and column (UTF-8 characters, as jansson counts) of text[at]. */
void mcpi_text_position(const char *text, size_t at, int *line, int *column);

#endif
