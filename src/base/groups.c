/* groups.c: items numbered by their keys' groups (groups.h). */
#include <stdlib.h>
#include "src/base/groups.h"

size_t mcpi_group(size_t n, const mcpi_keys *k, size_t *group, size_t *first)
{
  size_t cap = 16, ng = 0;
  while (cap < 2 * n)
    cap *= 2;
  size_t *slot = calloc(cap, sizeof *slot); /* a group's number + 1, or 0: empty */
  if (!slot)
    return SIZE_MAX;
  for (size_t i = 0; i < n; i++) {
    uint64_t h = k->hash(k->items, i);
    size_t q = (size_t)(h ^ h >> 32) & (cap - 1);
    while (slot[q] && !k->same(k->items, first[slot[q] - 1], i))
      q = (q + 1) & (cap - 1);
    if (!slot[q]) {
      first[ng] = i;
      slot[q] = ++ng;
    }
    group[i] = slot[q] - 1;
  }
  free(slot);
  return ng;
}
