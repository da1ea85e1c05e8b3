/* grow.h: growing a heap array by doubling. */
#ifndef MCP_GROW_H
#define MCP_GROW_H

#include <stdlib.h>

/* Makes room for need elements of size bytes in *a of capacity *cap; 0 when
 * out of memory (*a unchanged). */
static inline int mcpi_grow(void **a, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return 1;
  size_t c = *cap ? 2 * *cap : 16;
  while (c < need)
    c *= 2;
  void *b = realloc(*a, c * size);
  if (!b)
    return 0;
  *a = b;
  *cap = c;
  return 1;
}

#endif
