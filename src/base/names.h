/* names.h: enumerations named in files, on the command line and in the API. */
#ifndef MCP_NAMES_H
#define MCP_NAMES_H

#include "mcprice.h"

/* Index of name in names[0 .. n), or -1. */
int mcpi_name_index(const char *const *names, int n, const char *name);
/* The from_name calls of the API (func, for the message): MCP_ERR_ARGUMENT
 * for a NULL name or out, MCP_ERR_NOT_FOUND for a name not in names, else
 * *out = its index. */
mcp_status mcpi_name_parse(const char *func, const char *const *names, int n, const char *name,
                           int *out);

#define MCPI_NAMES(a) (int)(sizeof a / sizeof *a)

/* Appends name to the list in buf (size bytes), after sep unless it is the
 * first; a list that outgrows buf is cut short. */
void mcpi_list_add(char *buf, size_t size, const char *name, const char *sep);

/* An index of an owner's named elements (a portfolio's trades by id, a
 * market's underlyings by name): open addressing, at most half full, slot
 * = element index + 1 (0 free), so that finding one stays O(1) in books of
 * 10^6 trades.  name_of(owner, i) is element i's name. */
typedef const char *(*mcpi_name_of)(const void *owner, size_t i);
typedef struct mcpi_name_table {
  size_t *slot, nslots;
} mcpi_name_table;
/* The index of name, or -1. */
long mcpi_name_find(const mcpi_name_table *t, const char *name, mcpi_name_of name_of,
                    const void *owner);
/* Room for element n, the n before it indexed again when the table grows;
 * 0 when out of memory (the table unchanged). */
int mcpi_name_reserve(mcpi_name_table *t, size_t n, mcpi_name_of name_of, const void *owner);
/* Indexes element i, whose name is not in the table yet (reserved). */
void mcpi_name_insert(mcpi_name_table *t, size_t i, mcpi_name_of name_of, const void *owner);
void mcpi_name_table_free(mcpi_name_table *t);

/* Defines the from_name and name calls of an enumeration whose values index
 * table; name_of gives unknown for a value out of range. */
#define MCPI_NAMED_ENUM(type, from_name, name_of, table, unknown)                                \
  mcp_status from_name(const char *name, type *out)                                       \
  {                                                                                        \
    int i = 0;                                                                             \
    mcp_status st = mcpi_name_parse(__func__, table, MCPI_NAMES(table), name, out ? &i : NULL); \
    if (st == MCP_OK)                                                                      \
      *out = (type)i;                                                                      \
    return st;                                                                             \
  }                                                                                        \
  const char *name_of(type v)                                                              \
  {                                                                                        \
    return (unsigned)v < (unsigned)MCPI_NAMES(table) ? table[v] : unknown;                 \
  }

#endif
