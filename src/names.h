/* names.h: enumerations named in files, on the command line and in the API. */
#ifndef MCP_NAMES_H
#define MCP_NAMES_H

#include "mcprice.h"

/* Index of name in names[0 .. n), or -1. */
int mcpi_name_index(const char *const *names, int n, const char *name);
/* The from_name calls of the API: MCP_ERR_ARGUMENT for a NULL name,
 * MCP_ERR_NOT_FOUND for a name not in names, else *out = its index. */
mcp_status mcpi_name_parse(const char *const *names, int n, const char *name, int *out);

#endif
