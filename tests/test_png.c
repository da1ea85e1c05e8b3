/* test_png.c: the PNG writer and the heatmap (src/io/png.c, heatmap.c),
 * read back by a decoder of their own: the signature, each chunk's length,
 * type and CRC-32, the header's fields, the stored deflate blocks and the
 * Adler-32 of the zlib stream, and every pixel; a raster of several blocks;
 * a heatmap's colours by cell, and the descriptions it refuses. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "src/cli/heatmap.h"
#include "src/cli/png.h"

static uint32_t crc32_bits(const uint8_t *b, size_t n)
{
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < 8; k++) {
      uint32_t bit = (crc ^ (uint32_t)(b[i] >> k)) & 1;
      crc = crc >> 1 ^ (bit ? 0xEDB88320u : 0);
    }
  return crc ^ 0xFFFFFFFFu;
}

static uint32_t adler32(const uint8_t *b, size_t n)
{
  uint64_t s1 = 1, s2 = 0;
  for (size_t i = 0; i < n; i++) {
    s1 = (s1 + b[i]) % 65521;
    s2 = (s2 + s1) % 65521;
  }
  return (uint32_t)(s2 << 16 | s1);
}

static uint32_t be32(const uint8_t *p)
{
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

typedef struct image {
  uint32_t w, h;
  uint8_t *rgb; /* w x h pixels, 3 bytes each */
  size_t blocks;
} image;

/* The whole of f. */
static uint8_t *slurp(FILE *f, size_t *n)
{
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  long end = ftell(f);
  assert_true(end > 0);
  rewind(f);
  uint8_t *b = malloc((size_t)end);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)end, f), (size_t)end);
  *n = (size_t)end;
  return b;
}

/* The PNG in f, every part of it checked on the way. */
static image decode(FILE *f)
{
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  size_t n, at = 8, zn = 0, chunks = 0;
  uint8_t *b = slurp(f, &n), *z = NULL;
  image im = {0, 0, NULL, 0};
  assert_true(n >= 8);
  assert_memory_equal(b, signature, 8);
  for (int end = 0; !end; chunks++) {
    assert_true(n - at >= 12);
    size_t len = be32(b + at);
    assert_true(len <= n - at - 12);
    const uint8_t *type = b + at + 4, *data = b + at + 8;
    assert_int_equal(be32(data + len), crc32_bits(type, 4 + len));
    if (chunks == 0) {
      assert_memory_equal(type, "IHDR", 4);
      assert_int_equal(len, 13);
      im.w = be32(data), im.h = be32(data + 4);
      assert_true(im.w > 0 && im.h > 0);
      assert_int_equal(data[8], 8);  /* bits a sample */
      assert_int_equal(data[9], 2);  /* RGB */
      assert_int_equal(data[10], 0); /* deflate */
      assert_int_equal(data[11], 0); /* filter method 0 */
      assert_int_equal(data[12], 0); /* not interlaced */
    } else if (!memcmp(type, "IDAT", 4)) {
      z = realloc(z, zn + len + 1);
      assert_non_null(z);
      memcpy(z + zn, data, len);
      zn += len;
    } else {
      assert_memory_equal(type, "IEND", 4);
      assert_int_equal(len, 0);
      end = 1;
    }
    at += 12 + len;
  }
  assert_int_equal(at, n); /* nothing after IEND */
  free(b);

  /* the zlib stream: its header, stored blocks to the final one, Adler-32 */
  assert_true(zn >= 2 + 5 + 4);
  assert_int_equal(z[0] & 0x0f, 8);    /* deflate */
  assert_int_equal(z[1] & 0x20, 0);    /* no dictionary */
  assert_int_equal((z[0] << 8 | z[1]) % 31, 0);
  size_t row = 1 + 3 * (size_t)im.w, total = row * im.h, got = 0;
  uint8_t *raw = malloc(total);
  assert_non_null(raw);
  at = 2;
  for (int last = 0; !last; im.blocks++) {
    assert_true(zn - at >= 5);
    last = z[at] & 1;
    assert_int_equal(z[at] >> 1 & 3, 0); /* BTYPE 00: stored */
    size_t len = z[at + 1] | (size_t)z[at + 2] << 8, nlen = z[at + 3] | (size_t)z[at + 4] << 8;
    assert_int_equal(nlen, ~len & 0xffff);
    at += 5;
    assert_true(len <= zn - at && len <= total - got);
    memcpy(raw + got, z + at, len);
    got += len, at += len;
  }
  assert_int_equal(got, total);
  assert_int_equal(zn - at, 4);
  assert_int_equal(be32(z + at), adler32(raw, total));
  free(z);

  im.rgb = malloc(total - im.h);
  assert_non_null(im.rgb);
  for (size_t r = 0; r < im.h; r++) {
    assert_int_equal(raw[r * row], 0); /* filter: none */
    memcpy(im.rgb + r * (row - 1), raw + r * row + 1, row - 1);
  }
  free(raw);
  return im;
}

/* A w x h raster's PNG read back to the same pixels. */
static image round_trip(uint32_t w, uint32_t h, uint32_t seed)
{
  size_t n = 3 * (size_t)w * h;
  uint8_t *rgb = malloc(n);
  assert_non_null(rgb);
  for (size_t i = 0; i < n; i++)
    rgb[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(cli_png_write(f, w, h, rgb), 0);
  image im = decode(f);
  fclose(f);
  assert_int_equal(im.w, w);
  assert_int_equal(im.h, h);
  assert_memory_equal(im.rgb, rgb, n);
  free(rgb);
  return im;
}

static void test_small(void **state)
{
  image im = round_trip(5, 3, 1);
  assert_int_equal(im.blocks, 1);
  free(im.rgb);
  /* a size PNG cannot hold */
  FILE *f = tmpfile();
  assert_non_null(f);
  uint8_t px[3] = {0};
  assert_int_equal(cli_png_write(f, 0, 1, px), -1);
  assert_int_equal(ftell(f), 0);
  fclose(f);
}

/* 301 x 250 pixels: 226,000 bytes of scanlines, in 4 stored blocks, rows
 * across their edges. */
static void test_blocks(void **state)
{
  image im = round_trip(301, 250, 7);
  assert_int_equal(im.blocks, 4);
  free(im.rgb);
}

static const uint8_t *pixel(const image *im, size_t x, size_t y)
{
  assert_true(x < im->w && y < im->h);
  return im->rgb + 3 * (y * im->w + x);
}

static void test_heatmap(void **state)
{
  const double x[3] = {-0.1, 0, 0.1}, y[2] = {-0.05, 0.05};
  /* the largest at (2, 1), the smallest at (0, 0); the mean 4 white */
  const double value[6] = {1, 3, 4, 4, 3, 9};
  cli_heatmap h = {"book value", "spot shift", "volatility shift", 3, 2, x, y, value, NAN};
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(cli_heatmap_write(f, &h), 0);
  image im = decode(f);
  fclose(f);
  size_t big[4], small[4], mid[4], up[4];
  assert_int_equal(cli_heatmap_cell(&h, 2, 1, big), 0);
  assert_int_equal(cli_heatmap_cell(&h, 0, 0, small), 0);
  assert_int_equal(cli_heatmap_cell(&h, 2, 0, mid), 0);
  assert_int_equal(cli_heatmap_cell(&h, 0, 1, up), 0);
  assert_int_equal(cli_heatmap_cell(&h, 3, 0, up), -1);
  /* the image holds the grid and more, and no more than the width allowed */
  assert_true(im.w > 3 * big[2] && im.h > 2 * big[3] && im.w < 1600);
  assert_true(big[0] + big[2] <= im.w && small[1] + small[3] <= im.h);
  assert_true(up[1] < small[1]); /* row 1 above row 0 */
  assert_true(small[0] < big[0]);
  /* at the middle of each cell's left edge, clear of its centred text */
  const uint8_t *hot = pixel(&im, big[0] + 1, big[1] + big[3] / 2),
                *cold = pixel(&im, small[0] + 1, small[1] + small[3] / 2),
                *white = pixel(&im, mid[0] + 1, mid[1] + mid[3] / 2);
  assert_true(hot[0] > hot[2] + 50);
  assert_true(cold[2] > cold[0] + 50);
  assert_true(white[0] == 255 && white[1] == 255 && white[2] == 255);
  free(im.rgb);

  /* a center given: all of them above it, red */
  h.center = 0;
  f = tmpfile();
  assert_non_null(f);
  assert_int_equal(cli_heatmap_write(f, &h), 0);
  im = decode(f);
  fclose(f);
  cold = pixel(&im, small[0] + 1, small[1] + small[3] / 2);
  assert_true(cold[0] > cold[2]);
  free(im.rgb);

  /* refused, and nothing written */
  const double not_finite[6] = {1, 3, 4, 4, NAN, 9};
  cli_heatmap bad[4] = {h, h, h, h};
  bad[0].value = not_finite;
  bad[1].nx = 0;
  bad[2].center = INFINITY;
  bad[3].value = NULL;
  for (int k = 0; k < 4; k++) {
    f = tmpfile();
    assert_non_null(f);
    assert_int_equal(cli_heatmap_write(f, &bad[k]), -1);
    assert_int_equal(ftell(f), 0);
    fclose(f);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_small),
      cmocka_unit_test(test_blocks),
      cmocka_unit_test(test_heatmap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
