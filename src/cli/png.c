/* png.c: PNG images of RGB rasters without a compression library: the
 * image data is one zlib stream of stored (uncompressed) deflate blocks,
 * an IDAT chunk each. */
#include <stdlib.h>
#include <string.h>
#include "src/cli/png.h"

#define BLOCK 65535u /* a stored block's most bytes: its length is 16 bits */

/* CRC-32 (reflected polynomial 0xEDB88320) of b[0..n) after crc (0 to
 * start), bit by bit: no table to build or share between threads. */
static uint32_t crc32_of(uint32_t crc, const uint8_t *b, size_t n)
{
  crc = ~crc;
  for (size_t i = 0; i < n; i++) {
    crc ^= b[i];
    for (int k = 0; k < 8; k++)
      crc = crc >> 1 ^ (0xEDB88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

/* Adler-32 of b[0..n) after a (1 to start). */
static uint32_t adler32_of(uint32_t a, const uint8_t *b, size_t n)
{
  uint32_t s1 = a & 0xffff, s2 = a >> 16;
  for (size_t i = 0; i < n; i++) {
    s1 = (s1 + b[i]) % 65521;
    s2 = (s2 + s1) % 65521;
  }
  return s2 << 16 | s1;
}

static void be32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* A chunk: its length, type, data and the CRC of type and data. */
static int chunk(FILE *f, const char *type, const uint8_t *data, size_t n)
{
  uint8_t head[8], crc[4];
  be32(head, (uint32_t)n);
  memcpy(head + 4, type, 4);
  be32(crc, crc32_of(crc32_of(0, head + 4, 4), data, n));
  return fwrite(head, 1, 8, f) == 8 && (n == 0 || fwrite(data, 1, n, f) == n) &&
                 fwrite(crc, 1, 4, f) == 4
             ? 0
             : -1;
}

/* Bytes [at, at + n) of the scanlines, each a filter byte 0 (none) and a
 * row of rgb: row bytes in all. */
static void scanlines(uint8_t *out, const uint8_t *rgb, size_t row, size_t at, size_t n)
{
  while (n > 0) {
    size_t r = at / row, c = at % row, m = 1;
    if (c == 0)
      *out = 0;
    else {
      m = row - c < n ? row - c : n;
      memcpy(out, rgb + r * (row - 1) + c - 1, m);
    }
    out += m, at += m, n -= m;
  }
}

int cli_png_write(FILE *f, uint32_t width, uint32_t height, const uint8_t *rgb)
{
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  size_t row = 1 + 3 * (size_t)width, total = row * height;
  /* PNG's limits, and the scanlines' bytes within size_t (32-bit hosts) */
  if (width == 0 || height == 0 || width > INT32_MAX || height > INT32_MAX ||
      (row - 1) / 3 != width || total / row != height)
    return -1;
  uint8_t ihdr[13] = {0};
  be32(ihdr, width), be32(ihdr + 4, height);
  ihdr[8] = 8, ihdr[9] = 2; /* 8 bits a sample, RGB; deflate, no filters chosen, no interlace */
  /* an IDAT's data: the zlib header (the first), a stored block's header
   * and bytes, the Adler-32 of all the blocks' bytes (the last) */
  uint8_t *idat = malloc(2 + 5 + BLOCK + 4);
  if (!idat)
    return -1;
  int rc = fwrite(signature, 1, 8, f) == 8 ? chunk(f, "IHDR", ihdr, sizeof ihdr) : -1;
  uint32_t adler = 1;
  for (size_t at = 0; rc == 0 && at < total;) {
    size_t n = total - at < BLOCK ? total - at : BLOCK, k = 0;
    int last = at + n == total;
    if (at == 0) /* deflate with a 32K window, no dictionary: 0x7801 a multiple of 31 */
      idat[k++] = 0x78, idat[k++] = 0x01;
    idat[k++] = (uint8_t)last; /* BFINAL, and BTYPE 00: stored, the rest of the byte unused */
    idat[k++] = (uint8_t)n, idat[k++] = (uint8_t)(n >> 8);
    idat[k++] = (uint8_t)~n, idat[k++] = (uint8_t)(~n >> 8);
    scanlines(idat + k, rgb, row, at, n);
    adler = adler32_of(adler, idat + k, n);
    k += n;
    if (last)
      be32(idat + k, adler), k += 4;
    rc = chunk(f, "IDAT", idat, k);
    at += n;
  }
  free(idat);
  return rc == 0 && chunk(f, "IEND", NULL, 0) == 0 && fflush(f) == 0 ? 0 : -1;
}
