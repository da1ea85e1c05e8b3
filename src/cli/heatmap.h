/* heatmap.h: a grid of values as a PNG heatmap, such as a scenario grid's
 * book values (heatmap.c). */
#ifndef MCP_CLI_HEATMAP_H
#define MCP_CLI_HEATMAP_H

#include <stddef.h>
#include <stdio.h>

typedef struct cli_heatmap {
  const char *title;             /* "book value"; NULL or "": none */
  const char *x_label, *y_label; /* the axes' names, "spot shift"; NULL or "": none */
  size_t nx, ny;                 /* columns (x) and rows (y), each at least 1 */
  const double *x, *y;           /* the axes' values, nx and ny of them */
  const double *value;           /* value[j * nx + i]: row j (y[j]), column i (x[i]) */
  double center;                 /* the value drawn white; NaN: the values' mean */
} cli_heatmap;

/* h as a PNG to f: a cell a value, row 0 at the bottom, blue below the
 * center, white at it and red above it, as far as the value farthest from
 * it (all white when all are equal); each cell's value in it, where it
 * fits; the axes' values and names, and the title.  0, or -1 for a bad
 * description (no cells, a NULL array, a value or axis value not
 * finite, an infinite center, an image over 16384 pixels a side: nothing
 * written), memory not had or a failed write. */
int cli_heatmap_write(FILE *f, const cli_heatmap *h);

/* Where cli_heatmap_write draws cell (i, j) of h, inside its frame: box
 * {x, y, width, height} in pixels, from the image's top left.  0, or -1 for
 * a bad description or cell. */
int cli_heatmap_cell(const cli_heatmap *h, size_t i, size_t j, size_t box[4]);

#endif
