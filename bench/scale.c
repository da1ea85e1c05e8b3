/* scale.c: the cost of cutting one pricing into slices, on one device.
 * For the benchmark Asian (2^24 paths) and the mixed book of 10,000 trades
 * (100,000 paths): the whole mcp_price; then, for 1, 2, 4 and 8 slices,
 * every slice (mcp_price_slice) one after another on the same context and
 * their merge (mcp_partials_merge): the sum (the work the slices do in all;
 * efficiency = whole / sum), the largest slice with the merge (the time on
 * as many devices, were they free: speed-up = whole / that), the bytes of a
 * partial, and whether the merge gave the whole run's bits.  Then
 * mcp_context_set_devices with the device listed twice (two workers on one
 * GPU).  Wall-clock medians of 3 after a warm-up.  Then the host's fixed
 * cost of workers: the mixed book at 64 paths (next to no paths to run) on
 * one device listed 1, 2, 4 and 8 times, medians of 15.  With --devices instead:
 * the same books (and the Asian at 2^28 paths) on 1, 2, 4 and 8 of the
 * host's GPUs (mcp_context_set_devices), their speed-up and efficiency
 * against one, and whether each gave one GPU's bits.
 *
 *   scale [--cpu | --devices]   --cpu: the CPU backend at 1/16 of the paths */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/common.h"

#define REPEATS 3
#define NCOUNTS 4
static const unsigned counts[NCOUNTS] = {1, 2, 4, 8};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

typedef struct row {
  double sum, longest, merge; /* seconds: medians */
  size_t bytes;               /* the largest partial */
  int same;
} row;

/* n slices one after another, then their merge, compared with whole. */
static int sliced(mcp_context *c, const mcp_market *m, const mcp_portfolio *p, unsigned n,
                  const mcp_results *whole, row *out)
{
  double sum[REPEATS], longest[REPEATS], merge[REPEATS];
  mcp_partial *parts[8];
  *out = (row){.same = 1};
  for (int r = -1; r < REPEATS; r++) {
    double top = 0, all = 0;
    for (unsigned k = 0; k < n; k++) {
      double t0 = now();
      if (mcp_price_slice(c, m, p, NULL, NULL, k, n, &parts[k]) != MCP_OK) {
        fprintf(stderr, "scale: %s\n", mcp_context_last_error(c));
        return -1;
      }
      double t = now() - t0;
      all += t;
      top = t > top ? t : top;
      void *bytes;
      size_t len;
      if (mcp_partial_encode(parts[k], &bytes, &len) == MCP_OK) {
        out->bytes = len > out->bytes ? len : out->bytes;
        free(bytes);
      }
    }
    mcp_results *res = NULL;
    double t0 = now();
    if (mcp_partials_merge(c, m, p, NULL, NULL, parts, n, &res, NULL) != MCP_OK) {
      fprintf(stderr, "scale: %s\n", mcp_context_last_error(c));
      return -1;
    }
    double tm = now() - t0;
    out->same &= bench_same_results(res, whole);
    mcp_results_destroy(res);
    for (unsigned k = 0; k < n; k++)
      mcp_partial_destroy(parts[k]);
    if (r >= 0) {
      sum[r] = all + tm;
      longest[r] = top + tm;
      merge[r] = tm;
    }
  }
  out->sum = bench_median(sum, REPEATS);
  out->longest = bench_median(longest, REPEATS);
  out->merge = bench_median(merge, REPEATS);
  return 0;
}

/* The whole run's median wall time and results (kept in *whole). */
static double whole_run(mcp_context *c, const mcp_market *m, const mcp_portfolio *p,
                        mcp_results **whole)
{
  double t[REPEATS];
  for (int r = -1; r < REPEATS; r++) {
    mcp_results *res = NULL;
    double t0 = now();
    if (mcp_price(c, m, p, &res) != MCP_OK) {
      fprintf(stderr, "scale: %s\n", mcp_context_last_error(c));
      return -1;
    }
    if (r >= 0)
      t[r] = now() - t0;
    mcp_results_destroy(*whole);
    *whole = res;
  }
  return bench_median(t, REPEATS);
}

static void book(mcp_context *c, const char *name, const mcp_market *m, const mcp_portfolio *p)
{
  mcp_results *whole = NULL;
  double tw = whole_run(c, m, p, &whole);
  if (tw < 0)
    return;
  printf("\n### %s\n\nwhole mcp_price: %.1f ms\n\n", name, tw * 1e3);
  printf("| slices | sum of slices + merge (ms) | efficiency | largest slice + merge (ms) | "
         "speed-up on as many devices | merge (ms) | largest partial (bytes) | same bits |\n"
         "|---|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < NCOUNTS; i++) {
    row x;
    if (sliced(c, m, p, counts[i], whole, &x) != 0)
      break;
    printf("| %u | %.1f | %.3f | %.1f | %.2f | %.2f | %zu | %s |\n", counts[i], x.sum * 1e3,
           tw / x.sum, x.longest * 1e3, tw / x.longest, x.merge * 1e3, x.bytes,
           x.same ? "yes" : "NO");
  }
  /* two workers on the one device */
  mcp_context *two;
  const int list[2] = {0, 0};
  if (mcp_context_create(&two, mcp_context_backend(c)) == MCP_OK &&
      mcp_context_set_devices(two, 2, list) == MCP_OK) {
    mcp_results *res = NULL;
    double t = whole_run(two, m, p, &res);
    printf("\n--devices 0,0 (8 slices, two workers on one device): %.1f ms (%.3f of the whole "
           "run's time), same bits: %s\n", t * 1e3, t / tw, res && bench_same_results(res, whole) ? "yes" : "NO");
    mcp_results_destroy(res);
  }
  mcp_context_destroy(two);
  mcp_results_destroy(whole);
}

/* What workers cost the host: a book of next to no paths on the one
 * device listed 1, 2, 4 and 8 times (each worker plans the book, each slice
 * runs its jobs, the merge collects). */
static void fixed_cost(mcp_backend backend, const mcp_market *m, const mcp_portfolio *p)
{
  enum { FIXED_REPEATS = 15 };
  double one = 0;
  printf("\n### the workers' fixed cost: the mixed book at %llu paths, one device listed "
         "W times\n\n| W | mcp_price (ms, median of %d) | over W = 1 |\n|---|---|---|\n",
         (unsigned long long)mcp_portfolio_paths(p), FIXED_REPEATS);
  for (int w = 1; w <= 8; w *= 2) {
    const int list[8] = {0};
    double t[FIXED_REPEATS];
    mcp_context *c;
    if (mcp_context_create(&c, backend) != MCP_OK ||
        (w > 1 && mcp_context_set_devices(c, (size_t)w, list) != MCP_OK)) {
      mcp_context_destroy(c);
      return;
    }
    int ok = 1;
    for (int r = -1; r < FIXED_REPEATS && ok; r++) {
      mcp_results *res = NULL;
      double t0 = now();
      ok = mcp_price(c, m, p, &res) == MCP_OK;
      if (r >= 0)
        t[r] = now() - t0;
      mcp_results_destroy(res);
    }
    if (!ok) {
      fprintf(stderr, "scale: %d workers: %s\n", w, mcp_context_last_error(c));
      mcp_context_destroy(c);
      return;
    }
    mcp_context_destroy(c);
    double x = bench_median(t, FIXED_REPEATS);
    one = w == 1 ? x : one;
    printf("| %d | %.2f | %+.2f |\n", w, x * 1e3, (x - one) * 1e3);
  }
}

/* The book on the first 1, 2, 4, 8 GPUs against one. */
static void devices(const char *name, const mcp_market *m, const mcp_portfolio *p)
{
  int n = mcp_device_count();
  mcp_results *one = NULL;
  double t1 = 0;
  printf("\n### %s\n\n| GPUs | mcp_price (ms) | speed-up | efficiency | same bits as one GPU |\n"
         "|---|---|---|---|---|\n", name);
  for (int g = 1; g <= n && g <= 8; g *= 2) {
    int list[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    mcp_context *c;
    mcp_results *r = NULL;
    if (mcp_context_create(&c, MCP_BACKEND_CUDA) != MCP_OK ||
        mcp_context_set_devices(c, (size_t)g, list) != MCP_OK) {
      fprintf(stderr, "scale: no context on %d GPUs\n", g);
      mcp_context_destroy(c);
      break;
    }
    double t = whole_run(c, m, p, &r);
    mcp_context_destroy(c);
    if (t < 0)
      break;
    if (g == 1) {
      t1 = t;
      one = r;
      r = NULL;
    }
    printf("| %d | %.1f | %.2f | %.3f | %s |\n", g, t * 1e3, t1 / t, t1 / t / g,
           g == 1 || (r && bench_same_results(r, one)) ? "yes" : "NO");
    mcp_results_destroy(r);
  }
  mcp_results_destroy(one);
}

static int devices_main(void)
{
  printf("## scale --devices: one pricing over the host's %d GPUs\n", mcp_device_count());
  static const uint64_t asian[2] = {1u << 24, 1u << 28};
  for (int i = 0; i < 2; i++) {
    mcp_market *m;
    mcp_portfolio *p;
    char name[96];
    bench_asian_book(&m, &p, asian[i]);
    snprintf(name, sizeof name, "benchmark Asian, %llu paths x 252 steps",
             (unsigned long long)asian[i]);
    devices(name, m, p);
    mcp_portfolio_destroy(p);
    mcp_market_destroy(m);
  }
  mcp_market *m;
  mcp_portfolio *p;
  if (bench_mixed_book(&m, &p, BENCH_MIXED_PATHS) == MCP_OK)
    devices("mixed book, 10000 trades on 50 underlyings, 100000 paths", m, p);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc > 1 && strcmp(argv[1], "--devices") == 0)
    return mcp_device_count() > 0 ? devices_main() : (printf("scale: no GPU\n"), 0);
  int cpu = argc > 1 && strcmp(argv[1], "--cpu") == 0;
  mcp_context *c;
  if (mcp_context_create(&c, cpu ? MCP_BACKEND_CPU : MCP_BACKEND_AUTO) != MCP_OK) {
    fprintf(stderr, "scale: no context\n");
    return 1;
  }
  uint64_t asian = cpu ? (1u << 20) : (1u << 24), mixed = BENCH_MIXED_PATHS / (cpu ? 16 : 1);
  printf("## scale: slices of one pricing on one device (%s backend)\n",
         mcp_backend_name(mcp_context_backend(c)));
  mcp_market *m;
  mcp_portfolio *p;
  char name[128];
  bench_asian_book(&m, &p, asian);
  snprintf(name, sizeof name, "benchmark Asian, %llu paths x 252 steps",
           (unsigned long long)asian);
  book(c, name, m, p);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  if (bench_mixed_book(&m, &p, mixed) == MCP_OK) {
    snprintf(name, sizeof name, "mixed book, %d trades on %d underlyings, %llu paths",
             BENCH_MIXED_TRADES, BENCH_MIXED_UNDERLYINGS, (unsigned long long)mixed);
    book(c, name, m, p);
    mcp_portfolio_set_paths(p, 64);
    fixed_cost(mcp_context_backend(c), m, p);
  }
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(c);
  return 0;
}
