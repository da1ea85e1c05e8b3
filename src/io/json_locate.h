/* json_locate.h: where values lie in JSON text.  Jansson keeps no positions
 * for the values it parses, so error messages find them again in the raw
 * text of the file. */
#ifndef MCP_JSON_LOCATE_H
#define MCP_JSON_LOCATE_H

#include <stddef.h>

/* A path from the root to a value, as a chain of steps built on the stack:
 * NULL is the root, {parent, "strike", 0} a member of an object and
 * {parent, NULL, 3} an element of an array. */
typedef struct mcpi_json_path {
  const struct mcpi_json_path *parent;
  const char *key; /* member name, or NULL for an array element */
  size_t index;    /* array element, when key is NULL */
} mcpi_json_path;

typedef struct mcpi_json_pos {
  size_t offset, end; /* byte span of the value (or key) */
  int line, column;   /* 1-based; columns count UTF-8 characters, as jansson's do */
} mcpi_json_pos;

/* Finds the value at path in text (len bytes, well-formed JSON); with at_key
 * and a path ending in an object member, finds that member's name instead.
 * Returns 0 when there is no such value. */
int mcpi_json_locate(const char *text, size_t len, const mcpi_json_path *path, int at_key,
                     mcpi_json_pos *pos);

/* Calls each(i, position of element i, user) for the elements of the array
 * at path, in one pass over the text (a locate an element would take time
 * quadratic in their number); returns how many. */
size_t mcpi_json_elements(const char *text, size_t len, const mcpi_json_path *array,
                          void (*each)(size_t index, const mcpi_json_pos *pos, void *user),
                          void *user);

/* Finds the innermost member name or value ending at or spanning offset, in
 * text that is well-formed up to offset (where jansson stopped: a duplicate
 * key or an overflowing number); writes its path, as mcpi_json_path_format
 * does, into buf (n bytes).  Returns 0 when offset lies in no value. */
int mcpi_json_path_at(const char *text, size_t len, size_t offset, char *buf, size_t n,
                      mcpi_json_pos *pos);

/* Writes path as in "trades[3].fixings[0]" into buf (n > 0 bytes, truncated);
 * the root is "". */
void mcpi_json_path_format(const mcpi_json_path *path, char *buf, size_t n);

#endif
