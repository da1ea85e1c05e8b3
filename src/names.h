/* names.h: enumerations named in files, on the command line and in the API. */
#ifndef MCP_NAMES_H
#define MCP_NAMES_H

#include "mcprice.h"

/* Index of name in names[0 .. n), or -1. */
int mcpi_name_index(const char *const *names, int n, const char *name);
/* The names joined by ", " (for error messages). */
const char *mcpi_prefetch_names_text(void);

#endif
