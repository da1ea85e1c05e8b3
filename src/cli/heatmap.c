/* heatmap.c: a grid of values as a PNG heatmap (mcprice price --scenarios
 * --plot): a cell a value on a diverging scale about a center, with the
 * values, the axes' values and names and a title in a bitmap font of its
 * own. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "src/cli/heatmap.h"
#include "src/cli/png.h"

enum {
  MARGIN = 10,   /* around the image */
  GAP = 6,       /* between a label and what it labels */
  PAD = 3,       /* a cell's text from its edges */
  CELL_W = 64,   /* a cell's pitch (its inside and one line of frame), */
  CELL_H = 28,   /* at most, */
  MIN_CELL = 3,  /* at least (4096 cells of a grid's longest axis fit), */
  GRID_W = 1500, /* and the grid's size the pitch shrinks towards */
  GRID_H = 1000,
  MAX_SIDE = 16384, /* the largest image drawn, in pixels a side */
  ADVANCE = 6,      /* a glyph's width and the space after it */
  GLYPH_H = 7,      /* a glyph's height above the baseline */
  LINE = 8,         /* and with its descender */
  BIG = 2           /* the title's and the axes' names' scale */
};

/* 5 x 8 glyphs from ' ' to '~', a byte a row from the top (bit 4 the left
 * column), the baseline under row 6; a character not here draws blank. */
static const uint8_t font[95][LINE] = {
    ['0' - ' '] = {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e},
    ['1' - ' '] = {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e},
    ['2' - ' '] = {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f},
    ['3' - ' '] = {0x0e, 0x11, 0x01, 0x06, 0x01, 0x11, 0x0e},
    ['4' - ' '] = {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02},
    ['5' - ' '] = {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e},
    ['6' - ' '] = {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e},
    ['7' - ' '] = {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08},
    ['8' - ' '] = {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e},
    ['9' - ' '] = {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c},
    ['.' - ' '] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c},
    ['-' - ' '] = {0x00, 0x00, 0x00, 0x1f}, ['+' - ' '] = {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04},
    ['%' - ' '] = {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03},
    ['(' - ' '] = {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02},
    [')' - ' '] = {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08},
    [',' - ' '] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08},
    [':' - ' '] = {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c},
    ['/' - ' '] = {0x00, 0x01, 0x02, 0x04, 0x08, 0x10},
    ['_' - ' '] = {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f},
    ['=' - ' '] = {0x00, 0x00, 0x1f, 0x00, 0x1f},
    ['A' - ' '] = {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},
    ['B' - ' '] = {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e},
    ['C' - ' '] = {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e},
    ['D' - ' '] = {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c},
    ['E' - ' '] = {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f},
    ['F' - ' '] = {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10},
    ['G' - ' '] = {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f},
    ['H' - ' '] = {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11},
    ['I' - ' '] = {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e},
    ['J' - ' '] = {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c},
    ['K' - ' '] = {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11},
    ['L' - ' '] = {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f},
    ['M' - ' '] = {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11},
    ['N' - ' '] = {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11},
    ['O' - ' '] = {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e},
    ['P' - ' '] = {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10},
    ['Q' - ' '] = {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d},
    ['R' - ' '] = {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11},
    ['S' - ' '] = {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e},
    ['T' - ' '] = {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04},
    ['U' - ' '] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e},
    ['V' - ' '] = {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04},
    ['W' - ' '] = {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a},
    ['X' - ' '] = {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11},
    ['Y' - ' '] = {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04},
    ['Z' - ' '] = {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f},
    ['a' - ' '] = {0x00, 0x00, 0x0e, 0x01, 0x0f, 0x11, 0x0f},
    ['b' - ' '] = {0x10, 0x10, 0x1e, 0x11, 0x11, 0x11, 0x1e},
    ['c' - ' '] = {0x00, 0x00, 0x0e, 0x10, 0x10, 0x11, 0x0e},
    ['d' - ' '] = {0x01, 0x01, 0x0f, 0x11, 0x11, 0x11, 0x0f},
    ['e' - ' '] = {0x00, 0x00, 0x0e, 0x11, 0x1f, 0x10, 0x0e},
    ['f' - ' '] = {0x06, 0x09, 0x08, 0x1c, 0x08, 0x08, 0x08},
    ['g' - ' '] = {0x00, 0x00, 0x0f, 0x11, 0x11, 0x0f, 0x01, 0x0e},
    ['h' - ' '] = {0x10, 0x10, 0x16, 0x19, 0x11, 0x11, 0x11},
    ['i' - ' '] = {0x04, 0x00, 0x0c, 0x04, 0x04, 0x04, 0x0e},
    ['j' - ' '] = {0x02, 0x00, 0x06, 0x02, 0x02, 0x02, 0x12, 0x0c},
    ['k' - ' '] = {0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12},
    ['l' - ' '] = {0x0c, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e},
    ['m' - ' '] = {0x00, 0x00, 0x1a, 0x15, 0x15, 0x15, 0x15},
    ['n' - ' '] = {0x00, 0x00, 0x16, 0x19, 0x11, 0x11, 0x11},
    ['o' - ' '] = {0x00, 0x00, 0x0e, 0x11, 0x11, 0x11, 0x0e},
    ['p' - ' '] = {0x00, 0x00, 0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10},
    ['q' - ' '] = {0x00, 0x00, 0x0f, 0x11, 0x11, 0x0f, 0x01, 0x01},
    ['r' - ' '] = {0x00, 0x00, 0x16, 0x19, 0x10, 0x10, 0x10},
    ['s' - ' '] = {0x00, 0x00, 0x0f, 0x10, 0x0e, 0x01, 0x1e},
    ['t' - ' '] = {0x08, 0x08, 0x1c, 0x08, 0x08, 0x09, 0x06},
    ['u' - ' '] = {0x00, 0x00, 0x11, 0x11, 0x11, 0x13, 0x0d},
    ['v' - ' '] = {0x00, 0x00, 0x11, 0x11, 0x11, 0x0a, 0x04},
    ['w' - ' '] = {0x00, 0x00, 0x11, 0x11, 0x15, 0x15, 0x0a},
    ['x' - ' '] = {0x00, 0x00, 0x11, 0x0a, 0x04, 0x0a, 0x11},
    ['y' - ' '] = {0x00, 0x00, 0x11, 0x11, 0x11, 0x0f, 0x01, 0x0e},
    ['z' - ' '] = {0x00, 0x00, 0x1f, 0x02, 0x04, 0x08, 0x1f},
};

typedef struct canvas {
  uint8_t *px; /* RGB, row-major */
  size_t w, h;
} canvas;

/* A rectangle of colour rgb, clipped to the canvas. */
static void rect(const canvas *c, size_t x, size_t y, size_t w, size_t h, const uint8_t rgb[3])
{
  for (size_t j = y; j < c->h && j - y < h; j++)
    for (size_t i = x; i < c->w && i - x < w; i++)
      memcpy(c->px + 3 * (j * c->w + i), rgb, 3);
}

/* The width of s drawn at scale, 0 for NULL; long texts count as wider
 * than any image. */
static size_t text_width(const char *s, size_t scale)
{
  size_t n = s ? strnlen(s, MAX_SIDE) : 0;
  return n ? (n * ADVANCE - 1) * scale : 0;
}

/* s at scale, its top left at (x, y). */
static void text(const canvas *c, size_t x, size_t y, const char *s, size_t scale,
                 const uint8_t rgb[3])
{
  for (; *s && x < c->w; s++, x += ADVANCE * scale) {
    unsigned char ch = (unsigned char)*s;
    if (ch < ' ' || ch > '~')
      continue;
    for (size_t r = 0; r < LINE; r++)
      for (size_t k = 0; k < 5; k++)
        if (font[ch - ' '][r] >> (4 - k) & 1)
          rect(c, x + k * scale, y + r * scale, scale, scale, rgb);
  }
}

/* An axis value's text; -0 as 0. */
static void tick(char *buf, size_t n, double v) { snprintf(buf, n, "%g", v + 0.0); }

/* A cell's value: with the grid's decimals, else with the most
 * significant digits (4 to 1) that fit in width; "" when none do. */
static void cell_text(char *buf, size_t n, double v, int decimals, size_t width)
{
  snprintf(buf, n, "%.*f", decimals, v);
  if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1)) /* "-0.00": 0.00 */
    memmove(buf, buf + 1, strlen(buf));
  for (int digits = 4; text_width(buf, 1) + 2 * PAD > width; digits--) {
    if (digits == 0) {
      buf[0] = '\0';
      return;
    }
    snprintf(buf, n, "%.*g", digits, v + 0.0);
  }
}

static size_t clamp(size_t v, size_t lo, size_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static size_t max2(size_t a, size_t b) { return a > b ? a : b; }

/* Where everything goes, in pixels from the top left. */
typedef struct layout {
  size_t w, h;                     /* the image */
  size_t gx, gy, cw, ch;           /* the grid's top left (on its frame), a cell's pitch */
  size_t title_y, ylabel_y, xtick_y, xlabel_y;
  double center, spread;           /* white, and the largest |v / 2 - center / 2| (halves:
                                      no overflow) */
  int decimals;                    /* the values': 4 significant digits of the largest */
} layout;

/* h's layout; -1 for a bad description. */
static int geometry(const cli_heatmap *h, layout *L)
{
  if (!h || !h->x || !h->y || !h->value || h->nx == 0 || h->ny == 0 || h->nx > MAX_SIDE ||
      h->ny > MAX_SIDE || isinf(h->center))
    return -1;
  size_t n = h->nx * h->ny, xt = 0, yt = 0;
  char buf[32];
  for (size_t i = 0; i < h->nx; i++) {
    if (!isfinite(h->x[i]))
      return -1;
    tick(buf, sizeof buf, h->x[i]);
    xt = max2(xt, text_width(buf, 1));
  }
  for (size_t j = 0; j < h->ny; j++) {
    if (!isfinite(h->y[j]))
      return -1;
    tick(buf, sizeof buf, h->y[j]);
    yt = max2(yt, text_width(buf, 1));
  }
  double mean = 0;
  for (size_t k = 0; k < n; k++) {
    if (!isfinite(h->value[k]))
      return -1;
    mean += h->value[k] / (double)n;
  }
  L->center = isnan(h->center) ? mean : h->center;
  L->spread = 0;
  double largest = 0;
  for (size_t k = 0; k < n; k++) {
    L->spread = fmax(L->spread, fabs(h->value[k] / 2 - L->center / 2));
    largest = fmax(largest, fabs(h->value[k]));
  }
  L->decimals = largest > 0 ? 3 - (int)fmax(-3, fmin(3, floor(log10(largest)))) : 0;

  L->cw = clamp(GRID_W / h->nx, MIN_CELL, CELL_W);
  L->ch = clamp(GRID_H / h->ny, MIN_CELL, CELL_H);
  /* an x tick wider than its column reaches past the grid's sides */
  size_t over = xt > L->cw ? (xt - L->cw + 1) / 2 : 0;
  L->gx = MARGIN + max2(yt + GAP, over);
  size_t gw = h->nx * L->cw + 1, gh = h->ny * L->ch + 1;
  L->w = max2(L->gx + gw + over + MARGIN, 2 * MARGIN + text_width(h->title, BIG));
  L->w = max2(L->w, 2 * MARGIN + text_width(h->x_label, BIG));
  L->w = max2(L->w, 2 * MARGIN + text_width(h->y_label, BIG));
  size_t y = MARGIN;
  L->title_y = y;
  if (text_width(h->title, BIG))
    y += LINE * BIG + GAP;
  L->ylabel_y = y; /* above the grid, over the y ticks: no room beside it */
  if (text_width(h->y_label, BIG))
    y += LINE * BIG + GAP;
  L->gy = y;
  L->xtick_y = y += gh + GAP;
  L->xlabel_y = y += LINE + GAP;
  if (text_width(h->x_label, BIG))
    y += LINE * BIG;
  L->h = y + MARGIN;
  return L->w <= MAX_SIDE && L->h <= MAX_SIDE ? 0 : -1;
}

/* Cell (i, j)'s inside: row 0 at the bottom. */
static void cell_box(const cli_heatmap *h, const layout *L, size_t i, size_t j, size_t box[4])
{
  box[0] = L->gx + i * L->cw + 1;
  box[1] = L->gy + (h->ny - 1 - j) * L->ch + 1;
  box[2] = L->cw - 1;
  box[3] = L->ch - 1;
}

int cli_heatmap_cell(const cli_heatmap *h, size_t i, size_t j, size_t box[4])
{
  layout L;
  if (geometry(h, &L) != 0 || i >= h->nx || j >= h->ny)
    return -1;
  cell_box(h, &L, i, j, box);
  return 0;
}

/* The colour of t in [-1, 1]: blue at -1, white at 0, red at 1. */
static void shade(double t, uint8_t rgb[3])
{
  static const uint8_t blue[3] = {33, 102, 172}, red[3] = {178, 24, 43};
  const uint8_t *end = t < 0 ? blue : red;
  for (int k = 0; k < 3; k++)
    rgb[k] = (uint8_t)lround(255 - fabs(t) * (255 - end[k]));
}

int cli_heatmap_write(FILE *f, const cli_heatmap *h)
{
  static const uint8_t ink[3] = {24, 24, 24}, paper[3] = {255, 255, 255},
                       frame[3] = {160, 160, 160};
  layout L;
  if (geometry(h, &L) != 0)
    return -1;
  canvas c = {malloc(3 * L.w * L.h), L.w, L.h};
  if (!c.px)
    return -1;
  memset(c.px, 255, 3 * L.w * L.h);
  char buf[32];
  size_t box[4];
  rect(&c, L.gx, L.gy, h->nx * L.cw + 1, h->ny * L.ch + 1, frame);
  for (size_t j = 0; j < h->ny; j++)
    for (size_t i = 0; i < h->nx; i++) {
      double v = h->value[j * h->nx + i];
      uint8_t rgb[3];
      shade(L.spread > 0 ? (v / 2 - L.center / 2) / L.spread : 0, rgb);
      cell_box(h, &L, i, j, box);
      rect(&c, box[0], box[1], box[2], box[3], rgb);
      cell_text(buf, sizeof buf, v, L.decimals, box[2]);
      /* light text on the darker shades */
      int dark = 299 * rgb[0] + 587 * rgb[1] + 114 * rgb[2] < 140000;
      text(&c, box[0] + (box[2] - text_width(buf, 1)) / 2, box[1] + (box[3] - GLYPH_H) / 2, buf,
           1, dark ? paper : ink);
    }
  /* the x ticks centred under their columns, each that would overlap the
   * one before left out */
  for (size_t i = 0, free_x = 0; i < h->nx; i++) {
    tick(buf, sizeof buf, h->x[i]);
    size_t tw = text_width(buf, 1), x = L.gx + i * L.cw + (L.cw + 1) / 2 - tw / 2;
    if (x >= free_x) {
      text(&c, x, L.xtick_y, buf, 1, ink);
      free_x = x + tw + ADVANCE;
    }
  }
  for (size_t j = 0; j < h->ny; j++) {
    tick(buf, sizeof buf, h->y[j]);
    cell_box(h, &L, 0, j, box);
    text(&c, L.gx - GAP - text_width(buf, 1), box[1] + (box[3] - GLYPH_H) / 2, buf, 1, ink);
  }
  if (h->title) /* bold: twice, a pixel apart */
    for (size_t k = 0; k < 2; k++)
      text(&c, (L.w - text_width(h->title, BIG)) / 2 + k, L.title_y, h->title, BIG, ink);
  if (h->y_label)
    text(&c, MARGIN, L.ylabel_y, h->y_label, BIG, ink);
  if (h->x_label) {
    /* centred under the grid, within the image */
    size_t xw = text_width(h->x_label, BIG), mid = L.gx + (h->nx * L.cw + 1) / 2;
    size_t x = clamp(mid > xw / 2 ? mid - xw / 2 : 0, MARGIN, L.w - MARGIN - xw);
    text(&c, x, L.xlabel_y, h->x_label, BIG, ink);
  }
  int rc = cli_png_write(f, (uint32_t)L.w, (uint32_t)L.h, c.px);
  free(c.px);
  return rc;
}
