/* test_catalogue.c: the path kernels' catalogue (kernels/catalogue.def)
 * against the keys a job can ask for (mcpi_kernel_key_for), without a GPU:
 * every key a job can reach is a kernel of every build, and every kernel
 * of every build is a key some job reaches; the tuning distances are the
 * only others; no key is listed twice; every translation unit builds a few. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "kernels/catalogue.h"
#include "models/products/path.h"

/* What the planner and the CUDA backend give the key function (plan.c's
 * mcpi_job_small, variants.c, backend_cuda.c's job_start and
 * resolve_placement): the job-shaped states only for one Black-Scholes
 * asset without arrays; per-path arrays of up to MCP_MAX_PRIVATE_ARRAY
 * elements, in registers only where a capacity holds them; on-path vega
 * and rho (gstate) only for one asset without arrays; several Heston
 * assets and the mixed plain shape without a prefetch strategy (their step
 * reads no ring; job_start); fused or stored normals for any job, but a
 * mixed job with arrays on stored ones (job_options); each strategy at the
 * default distance; the check's coarse path beside only the Heston plain
 * shape's fused kernel (job_start). */
static int reachable(const mcpi_kernel_options *o, int multi, int arr_len, int gstate)
{
  if (o->small && (multi || arr_len))
    return 0;
  if (o->checked && (o->small != MCPI_SHAPE_HESTON_PLAIN || !o->fused || gstate))
    return 0;
  if (gstate && (multi || arr_len))
    return 0;
  if ((multi == 2 || (o->precision == MCP_MIXED && o->small == MCPI_SHAPE_PLAIN)) &&
      o->strategy != MCP_PREFETCH_NONE)
    return 0;
  if (arr_len && o->placement == MCP_PLACEMENT_REGISTERS && !mcpi_register_capacity(arr_len))
    return 0;
  if (arr_len && o->precision == MCP_MIXED && o->fused)
    return 0;
  return 1;
}

/* Calls f on the key of every reachable request. */
static void each_request(void (*f)(const mcpi_kernel_key *, void *), void *user)
{
  static const int arrays[] = {0, 5, 8, 12, 16, 40, MCP_MAX_PRIVATE_ARRAY};
  static const mcp_placement places[] = {MCP_PLACEMENT_REGISTERS, MCP_PLACEMENT_LOCAL,
                                         MCP_PLACEMENT_SHARED};
  for (int prec = MCP_DOUBLE; prec <= MCP_MIXED; prec++)
    for (int s = 0; s < MCPI_NSTRATEGIES; s++)
      for (int fused = 0; fused < 2; fused++)
        for (int small = 0; small <= MCPI_SHAPE_LV_PLAIN; small++)
          for (int multi = 0; multi < 4; multi++)
            for (size_t a = 0; a < sizeof arrays / sizeof *arrays; a++)
              for (size_t pl = 0; pl < 3; pl++)
                for (int gstate = 0; gstate < 2; gstate++)
                  for (int checked = 0; checked < 2; checked++) {
                    mcpi_kernel_options o = {.precision = (mcp_precision)prec,
                                             .strategy = (mcp_prefetch)s,
                                             .distance = MCPI_DEFAULT_DISTANCE,
                                             .block = 128,
                                             .placement = places[pl],
                                             .fused = fused,
                                             .small = small,
                                             .checked = checked};
                    if (!reachable(&o, multi, arrays[a], gstate))
                      continue;
                    mcpi_kernel_key k = mcpi_kernel_key_for(&o, multi, arrays[a], gstate);
                    f(&k, user);
                  }
}

static void describe(const mcpi_kernel_key *k, char *buf, size_t len)
{
  snprintf(buf, len, "precision %d state %d strategy %d distance %d placement %d capacity %d "
           "fused %d", k->precision, k->state, k->strategy, k->distance, k->placement,
           k->capacity, k->fused);
}

/* Marks each request's entry; fails on a request the catalogue lacks or
 * has only for the tuning build. */
static void mark(const mcpi_kernel_key *k, void *user)
{
  char *seen = user, what[160];
  long i = mcpi_kernel_find(k);
  describe(k, what, sizeof what);
  if (i < 0)
    fail_msg("a job can ask for a kernel the catalogue lacks: %s", what);
  if (mcpi_kernel_catalogue[i].tuning)
    fail_msg("a job can ask for a kernel of the tuning build alone: %s", what);
  seen[i] = 1;
}

static void requests_are_built(void **state)
{
  (void)state;
  char seen[1024] = {0};
  assert_true(mcpi_kernel_count <= sizeof seen);
  each_request(mark, seen);
  size_t n = 0;
  for (size_t i = 0; i < mcpi_kernel_count; i++) {
    char what[160];
    describe(&mcpi_kernel_catalogue[i].key, what, sizeof what);
    if (!mcpi_kernel_catalogue[i].tuning && !seen[i])
      fail_msg("entry %zu is built but no job asks for it: %s", i, what);
    n += !mcpi_kernel_catalogue[i].tuning;
  }
  print_message("  %zu kernels in every build, %zu for the tuning build alone\n", n,
                mcpi_kernel_count - n);
}

/* Every tuning entry is a strategy at a distance other than the default,
 * each once with every other distance; no key twice. */
static void entries_unique(void **state)
{
  (void)state;
  for (size_t i = 0; i < mcpi_kernel_count; i++) {
    const mcpi_kernel_entry *e = &mcpi_kernel_catalogue[i];
    assert_int_equal(mcpi_kernel_find(&e->key), (long)i);
    assert_true(e->tu >= 0 && e->tu < MCPI_KERNEL_TUS);
    if (e->tuning) {
      assert_int_not_equal(e->key.strategy, MCP_PREFETCH_NONE);
      assert_int_not_equal(e->key.distance, MCPI_DEFAULT_DISTANCE);
      assert_true(mcpi_prefetch_distance_index(e->key.distance) >= 0);
      mcpi_kernel_key dflt = e->key;
      dflt.distance = MCPI_DEFAULT_DISTANCE;
      long d = mcpi_kernel_find(&dflt);
      assert_true(d >= 0 && !mcpi_kernel_catalogue[d].tuning);
    }
  }
}

/* Each unit builds a few of every build's kernels, and none more than
 * twice the mean: make -j spreads them. */
static void units_balanced(void **state)
{
  (void)state;
  size_t per[MCPI_KERNEL_TUS] = {0}, n = 0;
  for (size_t i = 0; i < mcpi_kernel_count; i++)
    if (!mcpi_kernel_catalogue[i].tuning) {
      per[mcpi_kernel_catalogue[i].tu]++;
      n++;
    }
  for (int u = 0; u < MCPI_KERNEL_TUS; u++) {
    assert_true(per[u] > 0);
    assert_true(per[u] * MCPI_KERNEL_TUS <= 2 * n);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(requests_are_built),
      cmocka_unit_test(entries_unique),
      cmocka_unit_test(units_balanced),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
