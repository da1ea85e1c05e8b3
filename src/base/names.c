/* names.c: lookups of enumeration names, and the index of named elements
 * (names.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/base/names.h"

void mcpi_list_add(char *buf, size_t size, const char *name, const char *sep)
{
  size_t used = strlen(buf);
  snprintf(buf + used, size - used, "%s%s", used ? sep : "", name);
}

int mcpi_name_index(const char *const *names, int n, const char *name)
{
  for (int i = 0; name && i < n; i++)
    if (strcmp(name, names[i]) == 0)
      return i;
  return -1;
}

mcp_status mcpi_name_parse(const char *func, const char *const *names, int n, const char *name,
                           int *out)
{
  if (!name || !out)
    return mcpi_null(func, !name ? "name" : "out");
  int i = mcpi_name_index(names, n, name);
  if (i < 0) {
    char list[256] = "";
    for (int k = 0; k < n; k++)
      mcpi_list_add(list, sizeof list, names[k], ", ");
    return mcpi_error(MCP_ERR_NOT_FOUND, "%s: unknown name '%.64s' (expected one of %s)", func,
                      name, list);
  }
  *out = i;
  return MCP_OK;
}

static size_t name_hash(const char *name)
{
  size_t h = 1469598103934665603u;
  for (; *name; name++)
    h = (h ^ (unsigned char)*name) * 1099511628211u;
  return h;
}

/* The slot holding name, or the free slot where it would go. */
static size_t *slot_of(const mcpi_name_table *t, const char *name, mcpi_name_of name_of,
                       const void *owner)
{
  size_t i = name_hash(name) & (t->nslots - 1);
  while (t->slot[i] && strcmp(name_of(owner, t->slot[i] - 1), name) != 0)
    i = (i + 1) & (t->nslots - 1);
  return &t->slot[i];
}

long mcpi_name_find(const mcpi_name_table *t, const char *name, mcpi_name_of name_of,
                    const void *owner)
{
  return t->nslots && name ? (long)*slot_of(t, name, name_of, owner) - 1 : -1;
}

int mcpi_name_reserve(mcpi_name_table *t, size_t n, mcpi_name_of name_of, const void *owner)
{
  if (2 * (n + 1) <= t->nslots)
    return 1;
  size_t ns = t->nslots ? 2 * t->nslots : 64;
  while (2 * (n + 1) > ns)
    ns *= 2;
  size_t *slot = calloc(ns, sizeof *slot), *old = t->slot;
  if (!slot)
    return 0;
  t->slot = slot;
  t->nslots = ns;
  for (size_t i = 0; i < n; i++)
    *slot_of(t, name_of(owner, i), name_of, owner) = i + 1;
  free(old);
  return 1;
}

void mcpi_name_insert(mcpi_name_table *t, size_t i, mcpi_name_of name_of, const void *owner)
{
  *slot_of(t, name_of(owner, i), name_of, owner) = i + 1;
}

void mcpi_name_table_free(mcpi_name_table *t)
{
  free(t->slot);
  t->slot = NULL;
  t->nslots = 0;
}
