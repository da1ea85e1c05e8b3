/* names.h: enumerations named in files, on the command line and in the API. */
#ifndef MCP_NAMES_H
#define MCP_NAMES_H

#include "mcprice.h"

/* Index of name in names[0 .. n), or -1. */
int mcpi_name_index(const char *const *names, int n, const char *name);
/* The from_name calls of the API: MCP_ERR_ARGUMENT for a NULL name,
 * MCP_ERR_NOT_FOUND for a name not in names, else *out = its index. */
mcp_status mcpi_name_parse(const char *const *names, int n, const char *name, int *out);

#define MCPI_NAMES(a) (int)(sizeof a / sizeof *a)

/* Defines the from_name and name calls of an enumeration whose values index
 * table; name_of gives unknown for a value out of range. */
#define MCPI_NAMED_ENUM(type, from_name, name_of, table, unknown)                                \
  mcp_status from_name(const char *name, type *out)                                       \
  {                                                                                        \
    int i = 0;                                                                             \
    mcp_status st =                                                                        \
        out ? mcpi_name_parse(table, MCPI_NAMES(table), name, &i) : MCP_ERR_ARGUMENT;     \
    if (st == MCP_OK)                                                                      \
      *out = (type)i;                                                                      \
    return st;                                                                             \
  }                                                                                        \
  const char *name_of(type v)                                                              \
  {                                                                                        \
    return (unsigned)v < (unsigned)MCPI_NAMES(table) ? table[v] : unknown;                 \
  }

#endif
