/* test_rng.c: the canonical mapping of (step, path) to cuRAND's Philox
 * sequence (rng.h): the layout of cuRAND's offsets it relies on and the
 * host's own Philox against cuRAND's host generator (where cuRAND is built
 * in), distinct normals across windows, slices that do not depend on where a
 * tile starts or ends, and the host's vector copies equal to the scalar
 * definition to the bit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "models/rng.h"
#include "src/plan/slice_rms.h"

#define W MCPI_RNG_WINDOW

#ifdef MCP_HAVE_CURAND
static curandGenerator_t host_generator(void)
{
  curandGenerator_t g;
  assert_int_equal(curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10),
                   CURAND_STATUS_SUCCESS);
  return g;
}

static void draw(curandGenerator_t g, uint64_t offset, double out[2])
{
  assert_int_equal(curandSetGeneratorOffset(g, offset), CURAND_STATUS_SUCCESS);
  assert_int_equal(curandGenerateNormalDouble(g, out, 2, 0.0, 1.0), CURAND_STATUS_SUCCESS);
}

/* The layout rng.h describes: offsets 2^18 apart share a Philox counter, so
 * offset 2 repeats offset 2^18 and 2^18 + 2 repeats 2^19, while offsets
 * within one window differ.  If a cuRAND release changes this, the mapping
 * must be revisited, and this test says so. */
static void curand_offset_layout(void **state)
{
  curandGenerator_t g = host_generator();
  assert_int_equal(curandSetPseudoRandomGeneratorSeed(g, 12345), CURAND_STATUS_SUCCESS);
  double a[2], b[2], c[2];
  draw(g, 2, a);
  draw(g, W, b);
  assert_memory_equal(a, b, sizeof a);
  draw(g, W + 2, a);
  draw(g, 2 * W, b);
  assert_memory_equal(a, b, sizeof a);
  draw(g, 0, a);
  draw(g, 4, c);
  assert_true(a[0] != b[0] && a[0] != c[0] && b[0] != c[0]);
  curandDestroyGenerator(g);
}
#else
static void curand_offset_layout(void **state) { skip(); }
#endif

static void offsets_of_the_mapping(void **state)
{
  assert_int_equal(mcpi_rng_offset(0, 0), 0);
  assert_int_equal(mcpi_rng_offset(0, W - 1), W - 1);
  assert_int_equal(mcpi_rng_offset(0, W), 2 * W);      /* window 1 skips to 2^19 */
  assert_int_equal(mcpi_rng_offset(0, 3 * W + 5), 6 * W + 5);
  assert_int_equal(mcpi_rng_offset(1, 0), UINT64_C(1) << 42);
  /* the last path of a step stays below the next step */
  assert_true(mcpi_rng_offset(7, MCPI_RNG_MAX_PATHS - 1) < mcpi_rng_offset(8, 0));
  /* subsequence and counter of an offset, as the device kernel uses them */
  assert_int_equal(mcpi_rng_subsequence(W + 6), 1);
  assert_int_equal(mcpi_rng_counter(W + 6), 2);
  assert_int_equal(mcpi_rng_counter(mcpi_rng_offset(0, W)), 2);
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Two steps of 2 windows and a half of paths: all normals distinct (the
 * mapping once read offsets 2^18 apart and repeated a quarter of the paths),
 * with mean and variance of standard normals. */
static void normals_distinct_across_windows(void **state)
{
  const size_t n = 2 * W + W / 2, steps = 2;
  double *z = malloc(n * steps * sizeof *z);
  assert_non_null(z);
  mcpi_rng_fill_host(mcpi_rng_job_seed(1, "A", 0), 0, steps, 0, n, z, NULL, n);
  double sum = 0, sq = 0;
  for (size_t i = 0; i < n * steps; i++)
    sum += z[i], sq += z[i] * z[i];
  double mean = sum / (double)(n * steps), var = sq / (double)(n * steps) - mean * mean;
  assert_true(fabs(mean) < 5 / sqrt((double)(n * steps)));
  assert_true(fabs(var - 1) < 5 * sqrt(2.0 / (double)(n * steps)));
  qsort(z, n * steps, sizeof *z, cmp);
  for (size_t i = 1; i < n * steps; i++)
    if (z[i] == z[i - 1])
      fail_msg("normal %.17g appears twice", z[i]);
  free(z);
}

/* A tile that starts inside a window and ends in the next reads the same
 * numbers as one fill of all the paths; so does one that starts and ends on
 * an odd path, in double and in float. */
static void slices_match_one_fill(void **state)
{
  const size_t n = W + 4096, steps = 2;
  const size_t p0s[2] = {W - 1024, W - 1023}, ms[2] = {3072, 3071};
  double *all = malloc(n * steps * sizeof *all), *part = malloc(ms[0] * steps * sizeof *part);
  float *allf = malloc(n * steps * sizeof *allf), *partf = malloc(ms[0] * steps * sizeof *partf);
  assert_true(all && part && allf && partf);
  uint64_t seed = mcpi_rng_job_seed(99, "B", 3);
  mcpi_rng_fill_host(seed, 5, steps, 0, n, all, NULL, n);
  mcpi_rng_fill_host(seed, 5, steps, 0, n, NULL, allf, n);
  for (int k = 0; k < 2; k++) {
    size_t p0 = p0s[k], m = ms[k];
    mcpi_rng_fill_host(seed, 5, steps, p0, m, part, NULL, m);
    mcpi_rng_fill_host(seed, 5, steps, p0, m, NULL, partf, m);
    for (size_t s = 0; s < steps; s++) {
      assert_memory_equal(part + s * m, all + s * n + p0, m * sizeof *all);
      assert_memory_equal(partf + s * m, allf + s * n + p0, m * sizeof *allf);
    }
    /* and the second step alone is the second row */
    mcpi_rng_fill_host(seed, 6, 1, p0, m, part, NULL, m);
    assert_memory_equal(part, all + n + p0, m * sizeof *all);
  }
  free(all);
  free(part);
  free(allf);
  free(partf);
}

/* The host's tiles hold the normals of the scalar definitions, mcpi_rng_pair
 * and mcpi_rng_normal_f, to the bit, whichever copy fills them (plain, AVX2,
 * AVX-512: vectorised, as far as this processor has them); the steps 7 to 9
 * straddle two of the float mapping's groups of four. */
static void fill_host_is_pair(void **state)
{
  const size_t n = 1000, steps = 3;
  const uint64_t p0 = 3 * W - 500;
  double z[1000 * 3];
  float f[1000 * 3];
  uint64_t seed = mcpi_rng_job_seed(5, "D", 1);
  for (int copy = 0; copy < MCPI_RNG_COPIES; copy++) {
    int prev = mcpi_rng_host_copy(copy);
    mcpi_rng_fill_host(seed, 7, steps, p0, n, z, NULL, n);
    mcpi_rng_fill_host(seed, 7, steps, p0, n, NULL, f, n);
    mcpi_rng_host_copy(prev);
    for (size_t s = 0; s < steps; s++)
      for (size_t i = 0; i < n; i += 2) {
        double d[2];
        mcpi_rng_pair(seed, 7 + s, p0 + i, d);
        for (int c = 0; c < 2; c++) {
          float g = mcpi_rng_normal_f(seed, 7 + s, p0 + i + c);
          if (memcmp(&d[c], &z[s * n + i + c], sizeof *d))
            fail_msg("copy %d, step %zu path %zu: pair %a, tile %a", copy, 7 + s,
                     (size_t)p0 + i + c, d[c], z[s * n + i + c]);
          if (memcmp(&g, &f[s * n + i + c], sizeof g))
            fail_msg("copy %d, step %zu path %zu: float normal %a, tile %a", copy, 7 + s,
                     (size_t)p0 + i + c, (double)g, (double)f[s * n + i + c]);
        }
      }
  }
}

/* The host's tiles (and so mcpi_rng_pair, the Philox block and Box-Muller
 * transform the fused path kernels compute in registers) against cuRAND's
 * host generator at the same (step, path): steps 0 to 9, paths on both sides
 * of a window edge and at every position within a quad.  Equal to rounding
 * (cuRAND's logarithm, sine and cosine are not the polynomials of
 * mcp_dmath.h). */
static void pair_matches_generator(void **state)
{
#ifdef MCP_HAVE_CURAND
  const size_t n = 16, steps = 10;
  const uint64_t p0 = 3 * W - 8;
  double z[16 * 10], h[16 * 10];
  curandGenerator_t g = host_generator();
  uint64_t seed = mcpi_rng_job_seed(7, "C", 2);
  assert_int_equal(mcpi_rng_fill(g, seed, 0, steps, p0, n, z, n), CURAND_STATUS_SUCCESS);
  mcpi_rng_fill_host(seed, 0, steps, p0, n, h, NULL, n);
  for (size_t s = 0; s < steps; s++)
    for (size_t i = 0; i < n; i++)
      if (fabs(h[s * n + i] - z[s * n + i]) > 4e-15 * (1 + fabs(z[s * n + i])))
        fail_msg("step %zu path %zu: host %.17g, generator %.17g", s, (size_t)p0 + i,
                 h[s * n + i], z[s * n + i]);
  curandDestroyGenerator(g);
#else
  skip();
#endif
}

/* The float mapping (rng.h): the block of path p's elements 4 g .. 4 g + 3
 * is the double mapping's block of pair p & ~1 at step 2 g + (p & 1), so the
 * float normals of even and odd paths and of successive groups come from
 * distinct blocks; each normal is the Box-Muller transform of its block's
 * 32-bit words to about float rounding, 1e-6 (1 + |z|), near u = 1 too (words
 * near 2^32); and 2^18 of them have the moments of a standard normal. */
static void float_mapping(void **state)
{
  uint64_t seed = mcpi_rng_job_seed(11, "F", 0);
  for (uint64_t p = 2 * W - 4; p < 2 * W + 4; p++)
    for (uint64_t s = 0; s < 16; s++) {
      uint32_t c[4], d[4];
      mcpi_rng_quad_block(seed, s, p, c);
      mcpi_rng_pair_block(seed, 2 * (s / 4) + p % 2, p & ~UINT64_C(1), d);
      assert_memory_equal(c, d, sizeof c);
      /* the next path, and the next group, draw other blocks */
      mcpi_rng_quad_block(seed, s, p + 1, d);
      assert_memory_not_equal(c, d, sizeof c);
      mcpi_rng_quad_block(seed, s + 4, p, d);
      assert_memory_not_equal(c, d, sizeof c);
    }
  double worst = 0, m1 = 0, m2 = 0, m4 = 0;
  const unsigned count = 1u << 18;
  for (uint32_t i = 0; i < count / 2; i++) {
    uint32_t x = i < 64 ? UINT32_MAX - i * 977u : (uint32_t)(i * 2654435761u), y = i * 40503u;
    float f[2];
    mcpi_rng_box_muller_f(x, y, &f[0], &f[1]);
    double u = (x + 0.5) / 4294967296.0, v = (y + 0.5) / 2147483648.0;
    double r = sqrt(-2 * log(u)), ref[2] = {r * sin(3.14159265358979323846 * v),
                                              r * cos(3.14159265358979323846 * v)};
    for (int c = 0; c < 2; c++) {
      double err = fabs(f[c] - ref[c]) / (1e-6 * (1 + fabs(ref[c])));
      if (err > 1)
        fail_msg("words %08x %08x: float %.9g, exact %.17g", x, y, f[c], ref[c]);
      worst = fmax(worst, err);
    }
  }
  for (uint64_t i = 0; i < count; i++) {
    double z = mcpi_rng_normal_f(seed, i % 13, i / 13);
    m1 += z;
    m2 += z * z;
    m4 += z * z * z * z;
  }
  m1 /= count, m2 /= count, m4 /= count;
  print_message("  worst float normal error: %.2f of the bound; mean %.4f, variance %.4f, "
                "fourth moment %.3f\n", worst, m1, m2, m4);
  assert_true(fabs(m1) < 5 / sqrt(count));
  assert_true(fabs(m2 - 1) < 5 * sqrt(2.0 / count));
  assert_true(fabs(m4 - 3) < 5 * sqrt(96.0 / count));
}

/* The host's exp (src/rng/lanes.c), one at a time and across lanes in each
 * vector copy the processor has: the same bits as mcp_dmath.h's polynomial
 * inside its range, the C library's outside it, NaN kept; for group sizes
 * that are not multiples of the vector width. */
static void exp_lanes_are_the_polynomial(void **state)
{
  (void)state;
  enum { N = 203 };
  double x[N], y[N];
  uint64_t seed = mcpi_rng_job_seed(3, "E", 0);
  for (int i = 0; i < N; i++)
    x[i] = mcpi_rng_normal_f(seed, (uint64_t)i, 1) * 3.0 + 4.6;
  x[7] = 699.5, x[8] = -699.5, x[9] = 700.0, x[10] = -745.5, x[11] = 710.0, x[12] = NAN;
  x[13] = 0.0, x[14] = -0.0;
  for (int copy = 0; copy < MCPI_RNG_COPIES; copy++) {
    int prev = mcpi_rng_host_copy(copy);
    int used = mcpi_host_copy();
    for (size_t n = 1; n <= N; n += 29) {
      mcpi_exp_lanes(used, x, y, n);
      for (size_t i = 0; i < n; i++) {
        double want = fabs(x[i]) < 700.0 ? mcpi_dexp_poly(x[i]) : exp(x[i]);
        if (memcmp(&y[i], &want, sizeof want) && !(isnan(y[i]) && isnan(want)))
          fail_msg("copy %d, x %a: lanes %a, polynomial %a", used, x[i], y[i], want);
        double one = mcpi_dexp_host(x[i]);
        if (memcmp(&one, &want, sizeof want) && !(isnan(one) && isnan(want)))
          fail_msg("x %a: host exp %a, polynomial %a", x[i], one, want);
      }
    }
    mcpi_rng_host_copy(prev);
  }
}

/* A local-volatility slice's sums and roots (src/plan/slice_rms.c) in each
 * vector copy the processor has: the scalar formula's bits, for widths that
 * are not multiples of the vector's and a root written over its sum. */
static void slice_rms_copies_are_the_formula(void **state)
{
  (void)state;
  enum { N = 67 };
  double p[N], q[N], acc0[N], acc[N], vol[N];
  float vol_f[N];
  const double dt = 0.0123456789;
  uint64_t seed = mcpi_rng_job_seed(4, "S", 0);
  for (int i = 0; i < N; i++) {
    p[i] = 0.2 + 0.05 * mcpi_rng_normal_f(seed, (uint64_t)i, 0);
    q[i] = 0.2 + 0.05 * mcpi_rng_normal_f(seed, (uint64_t)i, 1);
    acc0[i] = 0.001 * fabs(mcpi_rng_normal_f(seed, (uint64_t)i, 2));
  }
  for (int copy = 0; copy < MCPI_RNG_COPIES; copy++) {
    int prev = mcpi_rng_host_copy(copy);
    int used = mcpi_host_copy();
    mcpi_rng_host_copy(prev);
    for (size_t n = 1; n <= N; n += 11) {
      memcpy(acc, acc0, sizeof acc);
      mcpi_rms_piece(used, acc, dt, p, q, n);
      memcpy(vol, acc, sizeof vol);
      mcpi_rms_roots(used, vol, 2 * dt, vol, vol_f, n);
      for (size_t i = 0; i < N; i++) {
        double sum = i < n ? acc0[i] + dt * (p[i] * p[i] + p[i] * q[i] + q[i] * q[i]) / 3 : acc0[i];
        double root = sqrt(sum / (2 * dt));
        if (memcmp(&acc[i], &sum, sizeof sum))
          fail_msg("copy %d, width %zu, node %zu: sum %a, formula %a", used, n, i, acc[i], sum);
        if (i < n && (memcmp(&vol[i], &root, sizeof root) || vol_f[i] != (float)root))
          fail_msg("copy %d, width %zu, node %zu: root %a, formula %a", used, n, i, vol[i], root);
      }
    }
  }
}

/* Job seeds: different runs, underlyings and job numbers give different
 * seeds; the same key gives the same one. */
static void job_seeds(void **state)
{
  uint64_t a = mcpi_rng_job_seed(1, "ACME", 0);
  assert_true(a == mcpi_rng_job_seed(1, "ACME", 0));
  assert_true(a != mcpi_rng_job_seed(2, "ACME", 0));
  assert_true(a != mcpi_rng_job_seed(1, "ACMF", 0));
  assert_true(a != mcpi_rng_job_seed(1, "ACME", 1));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(curand_offset_layout),
      cmocka_unit_test(offsets_of_the_mapping),
      cmocka_unit_test(normals_distinct_across_windows),
      cmocka_unit_test(slices_match_one_fill),
      cmocka_unit_test(fill_host_is_pair),
      cmocka_unit_test(pair_matches_generator),
      cmocka_unit_test(float_mapping),
      cmocka_unit_test(exp_lanes_are_the_polynomial),
      cmocka_unit_test(slice_rms_copies_are_the_formula),
      cmocka_unit_test(job_seeds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
