/* names.c: lookups of enumeration names (names.h). */
#include <string.h>
#include "names.h"

int mcpi_name_index(const char *const *names, int n, const char *name)
{
  for (int i = 0; name && i < n; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -1;
}

mcp_status mcpi_name_parse(const char *const *names, int n, const char *name, int *out)
{
  if (!name)
    return MCP_ERR_ARGUMENT;
  int i = mcpi_name_index(names, n, name);
  if (i < 0)
    return MCP_ERR_NOT_FOUND;
  *out = i;
  return MCP_OK;
}
