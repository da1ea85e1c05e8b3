/* test_wisdom.c: a wisdom's entries (mcp_wisdom): put, replaced by key,
 * refused field by field; written and read back to the same values; bad
 * files refused naming the field; mcp_tune's refusals; and the CPU's
 * prices, which a wisdom leaves to the bit.  On the GPU, test_gpu tunes
 * and prices with what it wrote. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "mcprice.h"
#include "src/exec/context.h"
#include "tests/same_results.h"

static mcp_wisdom_entry entry(const char *shape, int block)
{
  mcp_wisdom_entry e = {.capability = 90, .driver = 12080, .normals = MCP_NORMALS_STORED,
                        .prefetch = MCP_PREFETCH_SMEM_ROLLING, .distance = 4,
                        .padding = MCP_PADDING_INTERLEAVED, .block = block,
                        .tile_paths = 65536, .seconds = 0.1 / 3, .rules_seconds = 0.2 / 3};
  snprintf(e.device, sizeof e.device, "NVIDIA H200");
  snprintf(e.shape, sizeof e.shape, "%s", shape);
  return e;
}

static void same_entry(const mcp_wisdom_entry *a, const mcp_wisdom_entry *b)
{
  assert_string_equal(a->device, b->device);
  assert_string_equal(a->shape, b->shape);
  assert_int_equal(a->capability, b->capability);
  assert_int_equal(a->driver, b->driver);
  assert_int_equal(a->normals, b->normals);
  assert_int_equal(a->prefetch, b->prefetch);
  assert_int_equal(a->distance, b->distance);
  assert_int_equal(a->padding, b->padding);
  assert_int_equal(a->block, b->block);
  assert_int_equal(a->tile_paths, b->tile_paths);
  assert_memory_equal(&a->seconds, &b->seconds, sizeof a->seconds);
  assert_memory_equal(&a->rules_seconds, &b->rules_seconds, sizeof a->seconds);
}

static void put_replaces_by_key(void **state)
{
  (void)state;
  mcp_wisdom *w;
  assert_int_equal(mcp_wisdom_create(&w), MCP_OK);
  mcp_wisdom_entry a = entry("double black-scholes plain", 128), got;
  assert_int_equal(mcp_wisdom_put(w, &a), MCP_OK);
  a.block = 256; /* the same GPU, driver and shape: replaced */
  assert_int_equal(mcp_wisdom_put(w, &a), MCP_OK);
  assert_int_equal(mcp_wisdom_count(w), 1);
  assert_int_equal(mcp_wisdom_get(w, 0, &got), MCP_OK);
  assert_int_equal(got.block, 256);
  mcp_wisdom_entry b = a;
  b.driver = 12090; /* another driver: an entry of its own */
  assert_int_equal(mcp_wisdom_put(w, &b), MCP_OK);
  mcp_wisdom_entry c = entry("double heston plain", 64);
  assert_int_equal(mcp_wisdom_put(w, &c), MCP_OK);
  assert_int_equal(mcp_wisdom_count(w), 3);
  assert_int_equal(mcp_wisdom_get(w, 3, &got), MCP_ERR_ARGUMENT);
  mcp_wisdom_destroy(w);
}

static void put_refuses_each_field(void **state)
{
  (void)state;
  mcp_wisdom *w;
  assert_int_equal(mcp_wisdom_create(&w), MCP_OK);
  static const char *const field[] = {"device",   "capability",        "driver",
                                      "shape",    "normals",           "prefetch",
                                      "prefetch_distance", "padding",  "block_size",
                                      "tile_paths", "seconds",         "rules_seconds"};
  for (size_t k = 0; k < sizeof field / sizeof *field; k++) {
    mcp_wisdom_entry e = entry("double black-scholes plain", 128);
    switch (k) {
    case 0: e.device[0] = '\0'; break;
    case 1: e.capability = 9; break;
    case 2: e.driver = 0; break;
    case 3: memset(e.shape, 'x', sizeof e.shape); break; /* no NUL */
    case 4: e.normals = (mcp_normals)2; break;
    case 5: e.prefetch = (mcp_prefetch)7; break;
    case 6: e.distance = 5; break;
    case 7: e.padding = 33; break;
    case 8: e.block = 100; break;
    case 9: e.tile_paths = 100; break;
    case 10: e.seconds = -1; break;
    default: e.rules_seconds = 1.0 / 0.0; break;
    }
    assert_int_equal(mcp_wisdom_put(w, &e), MCP_ERR_ARGUMENT);
    char want[64];
    snprintf(want, sizeof want, "mcp_wisdom_put: %s: expected", field[k]);
    assert_non_null(strstr(mcp_last_error(), want));
  }
  assert_int_equal(mcp_wisdom_count(w), 0);
  mcp_wisdom_destroy(w);
}

/* A temporary file's name (the caller removes it). */
static void temp_name(char *buf, size_t n, const char *what)
{
  snprintf(buf, n, "%s/test_wisdom_%ld_%s.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
           (long)getpid(), what);
}

static void saved_and_loaded_alike(void **state)
{
  (void)state;
  mcp_wisdom *w, *back;
  char path[512], err[512];
  temp_name(path, sizeof path, "round");
  assert_int_equal(mcp_wisdom_create(&w), MCP_OK);
  mcp_wisdom_entry e[3] = {entry("double black-scholes plain", 128),
                           entry("float local-volatility plain", 512),
                           entry("double black-scholes basket general arrays", 64)};
  e[1].padding = 3;
  e[1].normals = MCP_NORMALS_FUSED;
  e[1].prefetch = MCP_PREFETCH_NONE;
  e[2].tile_paths = 0;
  e[2].seconds = e[2].rules_seconds = 0;
  for (int k = 0; k < 3; k++)
    assert_int_equal(mcp_wisdom_put(w, &e[k]), MCP_OK);
  assert_int_equal(mcp_wisdom_save(w, path, err, sizeof err), MCP_OK);
  assert_int_equal(mcp_wisdom_load(&back, path, err, sizeof err), MCP_OK);
  assert_int_equal(mcp_wisdom_count(back), 3);
  for (size_t k = 0; k < 3; k++) {
    mcp_wisdom_entry got;
    assert_int_equal(mcp_wisdom_get(back, k, &got), MCP_OK);
    same_entry(&got, &e[k]);
  }
  /* a directory is refused before anything is written */
  assert_int_equal(mcp_wisdom_save(w, getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", err,
                                   sizeof err),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(err, "is a directory"));
  remove(path);
  mcp_wisdom_destroy(back);
  mcp_wisdom_destroy(w);
}

static void bad_files_are_refused(void **state)
{
  (void)state;
  static const struct {
    const char *text, *says;
  } bad[] = {
      {"[]", "expected a wisdom object"},
      {"{\"entries\": []}", "missing field 'mcprice_wisdom'"},
      {"{\"mcprice_wisdom\": 1}", "missing field 'entries'"},
      {"{\"mcprice_wisdom\": 1, \"entries\": [{\"device\": \"G\", \"capability\": 90, "
       "\"driver\": 12080, \"shape\": \"s\", \"normals\": \"fused\", \"prefetch\": \"none\", "
       "\"prefetch_distance\": 4, \"padding\": 0, \"block_size\": 100, \"tile_paths\": 0}]}",
       ":1:192: entries[0].block_size: expected a multiple of 32"},
      {"{\"mcprice_wisdom\": 1, \"entries\": [{\"device\": \"G\", \"capability\": 90, "
       "\"driver\": 12080, \"shape\": \"s\", \"normals\": \"fused\", \"prefetch\": \"none\", "
       "\"prefetch_distance\": 4, \"padding\": \"wide\", \"block_size\": 64, "
       "\"tile_paths\": 0}]}",
       "entries[0].padding: expected an integer from 0 to 32, or \"interleaved\""},
      {"{\"mcprice_wisdom\": 1, \"entries\": [{\"device\": \"G\"}]}",
       "entries[0]: missing field 'capability'"},
  };
  char path[512], err[512];
  temp_name(path, sizeof path, "bad");
  for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(bad[k].text, f);
    fclose(f);
    mcp_wisdom *w = (mcp_wisdom *)1;
    assert_int_not_equal(mcp_wisdom_load(&w, path, err, sizeof err), MCP_OK);
    assert_null(w);
    if (!strstr(err, bad[k].says))
      fail_msg("case %zu: '%s' does not say '%s'", k, err, bad[k].says);
  }
  remove(path);
}

static mcp_market *example_market(void)
{
  mcp_market *m;
  char err[512];
  assert_int_equal(mcp_market_load(&m, SRCDIR "/examples/market.json", err, sizeof err), MCP_OK);
  return m;
}

static mcp_portfolio *example_book(const mcp_market *m)
{
  mcp_portfolio *p;
  char err[512];
  assert_int_equal(mcp_portfolio_load_for(&p, m, SRCDIR "/examples/book.json", err, sizeof err),
                   MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 4096), MCP_OK);
  return p;
}

static void tune_refusals(void **state)
{
  (void)state;
  mcp_market *m = example_market();
  mcp_portfolio *p = example_book(m);
  mcp_context *c;
  mcp_wisdom *w;
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_wisdom_create(&w), MCP_OK);
  assert_int_equal(mcp_tune(c, m, p, 3, w), MCP_ERR_UNAVAILABLE);
  assert_non_null(strstr(mcp_context_last_error(c), "the kernel options are a GPU's"));
  assert_int_equal(mcp_tune(c, m, p, 0, w), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(mcp_context_last_error(c), "repeats: expected 1 to 15, got 0"));
  assert_int_equal(mcp_tune(c, m, p, 3, NULL), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_tune(NULL, m, p, 3, w), MCP_ERR_ARGUMENT);
  assert_int_equal(mcp_wisdom_count(w), 0);
  mcp_wisdom_destroy(w);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

/* The CPU has no kernel options: a wisdom (copied by the context, so that
 * the caller's may go) leaves every bit, on one worker and on three. */
static void cpu_prices_keep_their_bits(void **state)
{
  (void)state;
  mcp_market *m = example_market();
  mcp_portfolio *p = example_book(m);
  mcp_context *plain, *wise;
  mcp_wisdom *w;
  assert_int_equal(mcp_context_create(&plain, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_context_create(&wise, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_wisdom_create(&w), MCP_OK);
  mcp_wisdom_entry e = entry("double black-scholes plain", 256);
  assert_int_equal(mcp_wisdom_put(w, &e), MCP_OK);
  assert_int_equal(mcp_context_set_wisdom(wise, w), MCP_OK);
  mcp_wisdom_destroy(w);
  mcp_results *a, *b;
  char msg[256];
  assert_int_equal(mcp_price(plain, m, p, &a), MCP_OK);
  assert_int_equal(mcp_price(wise, m, p, &b), MCP_OK);
  if (!same_results(a, b, msg, sizeof msg))
    fail_msg("with a wisdom: %s", msg);
  mcp_results_destroy(b);
  const int three[3] = {0, 0, 0};
  assert_int_equal(mcp_context_set_devices(wise, 3, three), MCP_OK);
  assert_int_equal(mcp_price(wise, m, p, &b), MCP_OK);
  if (!same_results(a, b, msg, sizeof msg))
    fail_msg("with a wisdom on three workers: %s", msg);
  mcp_results_destroy(b);
  /* the workers copy it once, and again where it changes */
  const mcp_wisdom *held = wise->workers[2]->wisdom;
  assert_non_null(held);
  assert_int_equal(mcp_price(wise, m, p, &b), MCP_OK);
  mcp_results_destroy(b);
  assert_ptr_equal(wise->workers[2]->wisdom, held);
  assert_int_equal(mcp_context_set_wisdom(wise, NULL), MCP_OK);
  assert_int_equal(mcp_price(wise, m, p, &b), MCP_OK);
  if (!same_results(a, b, msg, sizeof msg))
    fail_msg("with the rules on three workers: %s", msg);
  mcp_results_destroy(b);
  assert_null(wise->workers[2]->wisdom);
  assert_int_equal(mcp_context_set_wisdom(NULL, NULL), MCP_ERR_ARGUMENT);
  mcp_results_destroy(a);
  mcp_context_destroy(wise);
  mcp_context_destroy(plain);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(put_replaces_by_key),
      cmocka_unit_test(put_refuses_each_field),
      cmocka_unit_test(saved_and_loaded_alike),
      cmocka_unit_test(bad_files_are_refused),
      cmocka_unit_test(tune_refusals),
      cmocka_unit_test(cpu_prices_keep_their_bits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
