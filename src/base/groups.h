/* groups.h: items numbered by the groups of equal keys they fall in, the
 * groups in the order of their first items, through an open-addressing
 * table of the keys' hashes: the plan's trades by their keys (plan.c), the
 * Greeks' estimators by their Greeks (variants.c), where sorts of them took
 * a fifth of a 10,000-trade book's plan and Greeks' layout. */
#ifndef MCP_GROUPS_H
#define MCP_GROUPS_H

#include <stddef.h>
#include <stdint.h>

/* The items' keys: item i's hash, and whether items i and j have one key
 * (equal keys hash alike). */
typedef struct mcpi_keys {
  uint64_t (*hash)(const void *items, size_t i);
  int (*same)(const void *items, size_t i, size_t j);
  const void *items;
} mcpi_keys;

/* group[i]: item i's group, first[g]: group g's first item, for n items;
 * the number of groups, or SIZE_MAX when out of memory. */
size_t mcpi_group(size_t n, const mcpi_keys *k, size_t *group, size_t *first);

#endif
