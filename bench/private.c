/* private.c: where a per-thread array indexed at run time should live
 * (bench/RESULTS.md, issue 6).
 *   private                       both tables below
 *   private --one PLACE L         one configuration of the first (for ncu)
 *   private --products            the second only
 * For arrays of 8 to 64 doubles: local memory with warp-uniform indices,
 * local memory with each thread's own indices, shared memory laid out
 * element-major (i * BLOCK + t) and registers reached by a compile-time
 * scan; 132 x 16 blocks of 128 threads, 256 read-and-rewrite rounds each;
 * medians of 7 runs after a warm-up.  The non-uniform placements must give
 * the same checksums, bit for bit.
 * Then the products: one Himalaya, cliquet or moving-window trade, 1M
 * paths, its array in each placement: the path kernel alone (CUDA events,
 * median of 7 after a warm-up; the payoffs must agree to the bit) and
 * mcp_price end to end (median of 5; the prices must agree to the bit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/common.h"

#ifndef MCP_HAVE_CUDA
int main(void)
{
  printf("private: built without CUDA; nothing to measure\n");
  return 0;
}
#else
#include "kernels/launch.h"
#include "bench/private_arrays.h"

#define BLOCKS (132 * 16)
#define ITERS 256
#define REPS 7
static const char *const names[4] = {"local-uniform", "local-nonuniform", "shared",
                                     "registers"};

static int check(cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    fprintf(stderr, "private: %s: %s\n", what, cudaGetErrorString(e));
  return e != cudaSuccess;
}

/* Median milliseconds of one placement and length; the checksums in host. */
static double time_walk(int place, int length, double *dev, double *host)
{
  cudaEvent_t e0, e1;
  double ms[REPS];
  if (check(cudaEventCreate(&e0), "event") || check(cudaEventCreate(&e1), "event"))
    exit(1);
  for (int r = -1; r < REPS; r++) {
    cudaEventRecord(e0, 0);
    if (check(private_walk(length, place, dev, BLOCKS, ITERS, 2026u), names[place]))
      exit(1);
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    if (r >= 0)
      ms[r] = bench_event_ms(e0, e1);
  }
  cudaMemcpy(host, dev, (size_t)BLOCKS * PRIVATE_BLOCK * sizeof(double), cudaMemcpyDeviceToHost);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return bench_median(ms, REPS);
}

/* ---- the products end to end ------------------------------------------- */

#define PRODUCT_PATHS 1000000
#define PRODUCT_REPS 5
#define KERNEL_REPS 7
#define NASSETS 16

typedef struct product_case {
  const char *name;
  mcp_product product;
  size_t n;      /* fixings (Himalaya: assets) */
  size_t window; /* moving window */
  size_t best;   /* cliquet */
} product_case;

static const product_case cases[] = {
    {"himalaya 4 assets", MCP_PRODUCT_HIMALAYA, 4, 0, 0},
    {"himalaya 16 assets", MCP_PRODUCT_HIMALAYA, 16, 0, 0},
    {"cliquet 12 periods, best 6", MCP_PRODUCT_CLIQUET, 12, 0, 6},
    {"cliquet 30 periods, best 10", MCP_PRODUCT_CLIQUET, 30, 0, 10},
    {"moving window 12 of 52", MCP_PRODUCT_MOVING_WINDOW, 52, 12, 0},
    {"moving window 60 of 252", MCP_PRODUCT_MOVING_WINDOW, 252, 60, 0}};

static const char *const asset_names[NASSETS] = {"A00", "A01", "A02", "A03", "A04", "A05",
                                                 "A06", "A07", "A08", "A09", "A10", "A11",
                                                 "A12", "A13", "A14", "A15"};

static int ok(mcp_status st, const char *what)
{
  if (st != MCP_OK)
    fprintf(stderr, "private: %s: %s\n", what, mcp_strerror(st));
  return st == MCP_OK;
}

/* 16 Black-Scholes assets, pairwise correlation 0.3. */
static mcp_market *product_market(void)
{
  mcp_market *m = NULL;
  double rho[NASSETS * NASSETS];
  if (!ok(mcp_market_create(&m), "market"))
    exit(1);
  for (int a = 0; a < NASSETS; a++) {
    if (!ok(mcp_market_add_black_scholes(m, asset_names[a], 100, 0.03, 0.01, 0.2 + 0.01 * a),
            "asset"))
      exit(1);
    for (int b = 0; b < NASSETS; b++)
      rho[a * NASSETS + b] = a == b ? 1 : 0.3;
  }
  if (!ok(mcp_market_set_correlation(m, NASSETS, asset_names, rho), "correlation"))
    exit(1);
  return m;
}

static mcp_portfolio *product_portfolio(const product_case *c)
{
  double fix[256];
  mcp_portfolio *p = NULL;
  mcp_trade t;
  for (size_t k = 0; k < c->n; k++)
    fix[k] = (double)(k + 1) / (double)c->n;
  mcp_trade_init(&t);
  t.id = "T";
  t.product = c->product;
  t.maturity = 1;
  t.nfixings = c->n;
  t.fixings = fix;
  t.strike = c->product == MCP_PRODUCT_CLIQUET ? 0 : c->product == MCP_PRODUCT_HIMALAYA ? 1 : 100;
  if (c->product == MCP_PRODUCT_HIMALAYA) {
    t.nassets = c->n;
    t.assets = asset_names;
  } else {
    t.underlying = "A00";
  }
  t.best = c->best;
  t.window = c->window;
  if (c->product == MCP_PRODUCT_CLIQUET) {
    t.local_floor = -0.03;
    t.local_cap = 0.05;
  }
  if (!ok(mcp_portfolio_create(&p), "portfolio") || !ok(mcp_portfolio_add_trade(p, &t), "trade") ||
      !ok(mcp_portfolio_set_paths(p, PRODUCT_PATHS), "paths"))
    exit(1);
  return p;
}

/* Median seconds of mcp_price, or -1 where the placement refuses the job. */
static double time_product(mcp_context *ctx, const mcp_market *m, const product_case *c,
                           mcp_placement place, double *price)
{
  mcp_portfolio *p = product_portfolio(c);
  mcp_run_options *o = NULL;
  mcp_status st = mcp_run_options_create(&o);
  bench_use_options(ctx, o, st ? st : mcp_run_options_set_placement(o, place));
  double s[PRODUCT_REPS];
  for (int r = -1; r < PRODUCT_REPS; r++) {
    mcp_results *res = NULL;
    mcp_estimate e;
    if (mcp_price(ctx, m, p, &res) != MCP_OK) {
      mcp_portfolio_destroy(p);
      return -1;
    }
    mcp_results_trade(res, 0, &e);
    *price = e.price;
    if (r >= 0)
      s[r] = mcp_results_seconds(res);
    mcp_results_destroy(res);
  }
  mcp_portfolio_destroy(p);
  return bench_median(s, PRODUCT_REPS);
}

/* The path kernel alone on the trade's job: median milliseconds of each
 * placement (negative where refused); *same: the payoffs agree to the bit. */
static void time_kernels(const mcp_market *m, const product_case *c,
                         const mcp_placement places[3], double ms[3], int *same)
{
  mcp_portfolio *p = product_portfolio(c);
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK) {
    fprintf(stderr, "private: %s\n", err);
    exit(1);
  }
  const mcpi_job *j = &plan.jobs[0];
  size_t n = PRODUCT_PATHS, ncol = mcpi_job_columns(j, 0);
  mcpi_job_view v = bench_device_view(j);
  double *z, *pay, *host[3];
  cudaEvent_t e0, e1;
  if (check(cudaMalloc((void **)&z, n * j->nelem * sizeof(double)), "normals") ||
      check(cudaMalloc((void **)&pay, n * ncol * sizeof(double)), "payoffs") ||
      check(mcpi_launch_normals(j->stream, 0, j->nelem, 0, n, z, n, MCP_DOUBLE, 0), "normals") ||
      check(cudaEventCreate(&e0), "event") || check(cudaEventCreate(&e1), "event"))
    exit(1);
  *same = 1;
  for (int k = 0; k < 3; k++) {
    mcpi_kernel_options o = {MCP_DOUBLE, MCP_PREFETCH_NONE, 1, 0, 128, places[k]};
    int grid;
    double t[KERNEL_REPS];
    host[k] = NULL;
    ms[k] = -1;
    if (!mcpi_path_kernel_built(&o, MCPI_ASSETS_KIND(j->nassets, j->model), j->arr_len))
      continue;
    if (check(mcpi_path_grid(&o, MCPI_ASSETS_KIND(j->nassets, j->model), j->arr_len, &grid), "grid"))
      exit(1);
    for (int r = -1; r < KERNEL_REPS; r++) {
      cudaEventRecord(e0, 0);
      if (check(mcpi_launch_paths(v, z, n, n, pay, &o, grid, 0), "path kernel"))
        exit(1);
      cudaEventRecord(e1, 0);
      cudaEventSynchronize(e1);
      if (r >= 0)
        t[r] = bench_event_ms(e0, e1);
    }
    ms[k] = bench_median(t, KERNEL_REPS);
    if (!(host[k] = malloc(n * ncol * sizeof(double))) ||
        check(cudaMemcpy(host[k], pay, n * ncol * sizeof(double), cudaMemcpyDeviceToHost),
              "payoffs"))
      exit(1);
    for (int q = 0; q < k; q++)
      if (host[q])
        *same &= memcmp(host[q], host[k], n * ncol * sizeof(double)) == 0;
  }
  for (int k = 0; k < 3; k++)
    free(host[k]);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(z);
  cudaFree(pay);
  bench_device_view_free(&v);
  mcpi_plan_free(&plan);
  mcp_portfolio_destroy(p);
}

static void print_times(const double ms[3])
{
  for (int k = 0; k < 3; k++)
    if (ms[k] < 0)
      printf(" %9s", "refused");
    else
      printf(" %9.2f", ms[k]);
  printf(" %7.2f", ms[1] / ms[2]);
}

static int products_table(void)
{
  static const mcp_placement places[3] = {MCP_PLACEMENT_REGISTERS, MCP_PLACEMENT_LOCAL,
                                          MCP_PLACEMENT_SHARED};
  mcp_context *ctx = NULL;
  if (!ok(mcp_context_create(&ctx, MCP_BACKEND_CUDA), "context"))
    return 1;
  mcp_market *m = product_market();
  int bad = 0;
  printf("\n# products: %d paths, double, block 128; the path kernel alone (median of %d) "
         "and mcp_price end to end (median of %d), ms; l/s = local / shared\n",
         PRODUCT_PATHS, KERNEL_REPS, PRODUCT_REPS);
  printf("%-28s %5s | %9s %9s %9s %7s | %9s %9s %9s %7s | %s\n", "product", "array",
         "registers", "local", "shared", "l/s", "registers", "local", "shared", "l/s",
         "same bits");
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double kms[3], ms[3], price[3];
    int same_kernel, same = 1, first = -1;
    time_kernels(m, &cases[c], places, kms, &same_kernel);
    for (int k = 0; k < 3; k++) {
      ms[k] = 1e3 * time_product(ctx, m, &cases[c], places[k], &price[k]);
      if (ms[k] < 0)
        continue;
      if (first < 0)
        first = k;
      else
        same &= memcmp(&price[k], &price[first], sizeof(double)) == 0;
    }
    bad |= !same || !same_kernel;
    printf("%-28s %5d |", cases[c].name,
           cases[c].product == MCP_PRODUCT_HIMALAYA  ? (int)(2 * cases[c].n + 2)
           : cases[c].product == MCP_PRODUCT_CLIQUET ? (int)(cases[c].n + 2)
                                                     : (int)(cases[c].window + 2));
    print_times(kms);
    printf(" |");
    print_times(ms);
    printf(" | %s\n", same && same_kernel ? "yes" : "NO");
  }
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
  return bad;
}

int main(int argc, char **argv)
{
  int one = argc == 4 && strcmp(argv[1], "--one") == 0;
  int products_only = argc == 2 && strcmp(argv[1], "--products") == 0;
  if (argc != 1 && !one && !products_only) {
    fprintf(stderr, "usage: private | private --one PLACE LENGTH | private --products\n");
    return 2;
  }
  if (mcp_device_count() == 0) {
    printf("private: no CUDA device; nothing to measure\n");
    return 0;
  }
  if (products_only)
    return products_table();
  size_t n = (size_t)BLOCKS * PRIVATE_BLOCK;
  double *dev, *host[4];
  if (check(cudaMalloc((void **)&dev, n * sizeof(double)), "allocation"))
    return 1;
  for (int p = 0; p < 4; p++)
    if (!(host[p] = malloc(n * sizeof(double))))
      return 1;
  if (one) {
    int place = 0, length = atoi(argv[3]);
    while (place < 4 && strcmp(names[place], argv[2]) != 0)
      place++;
    if (place == 4 || (length != 8 && length != 16 && length != 32 && length != 64)) {
      fprintf(stderr, "private --one: expected local-uniform, local-nonuniform, shared or "
                      "registers, and a length of 8, 16, 32 or 64\n");
      return 2;
    }
    printf("%s L=%d: %.4f ms\n", names[place], length, time_walk(place, length, dev, host[0]));
    return 0;
  }
  printf("# %d threads, arrays of doubles, %d read-and-rewrite rounds, median of %d\n",
         (int)n, ITERS, REPS);
  printf("%4s %14s %17s %10s %10s %14s %17s %s\n", "L", "local-uniform", "local-nonuniform",
         "shared", "registers", "uniform/shared", "nonuniform/shared", "same bits");
  int bad = 0;
  for (int length = 8; length <= 64; length *= 2) {
    double ms[4];
    for (int p = 0; p < 4; p++)
      ms[p] = time_walk(p, length, dev, host[p]);
    int same = memcmp(host[1], host[2], n * sizeof(double)) == 0 &&
               memcmp(host[1], host[3], n * sizeof(double)) == 0;
    bad |= !same;
    printf("%4d %11.3f ms %14.3f ms %7.3f ms %7.3f ms %14.2f %17.2f %s\n", length, ms[0], ms[1],
           ms[2], ms[3], ms[0] / ms[2], ms[1] / ms[2], same ? "yes" : "NO");
  }
  cudaFree(dev);
  for (int p = 0; p < 4; p++)
    free(host[p]);
  return bad | products_table();
}
#endif
