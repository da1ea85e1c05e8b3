/* prefetch.c: the path kernel under every prefetch strategy, distance and
 * shared-memory layout, for the arithmetic Asian (252 fixings) under
 * Black-Scholes, in double and float, at several path counts.  Times the path
 * kernel alone (normals generated once beforehand) with CUDA events, medians
 * of REPEATS after a warm-up; checks that every variant writes the same
 * payoffs as "none"; prints Markdown tables of speed-up over "none" and
 * writes every measurement as CSV.
 *
 *   prefetch [--csv FILE]         the sweep (default CSV: prefetch.csv)
 *   prefetch --one PREC STRATEGY DISTANCE PADDING PATHS
 *                                 one launch of one variant, for ncu */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/common.h"

#ifndef MCP_HAVE_CUDA
int main(void)
{
  printf("prefetch: built without CUDA; nothing to measure\n");
  return 0;
}
#else
#include "kernels/launch.h"

#define REPEATS 7
#define NLAYOUTS 3 /* shared-memory variants: padding 0, padding to 2^k + 1, interleaved */

typedef struct bench {
  mcpi_job_view view;
  int nsteps;
  void *z;
  double *pay, *ref;
  size_t n, ncol; /* paths; the payoff columns the kernel writes */
  mcp_precision prec;
  int small; /* the job fits the job-shaped state (mcpi_job_small), as mcp_price runs it */
  cudaEvent_t e0, e1;
} bench;

/* The padding that makes the slot D + padding a power of two plus one. */
static int pow2_plus_one_padding(int d)
{
  int p2 = 1;
  while (p2 + 1 < d)
    p2 *= 2;
  return p2 + 1 - d;
}

static int layout_padding(int layout, int d)
{
  return layout == 0 ? 0 : layout == 1 ? pow2_plus_one_padding(d) : MCP_PADDING_INTERLEAVED;
}

static const char *layout_name(int layout)
{
  return layout == 0 ? "pad0" : layout == 1 ? "pad2k+1" : "interleaved";
}

static int setup(bench *b, mcp_precision prec, size_t n)
{
  mcp_market *m;
  mcp_portfolio *p;
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  bench_asian_book(&m, &p, n);
  if (mcpi_plan_build(m, p, NULL, &plan, err) != MCP_OK) {
    fprintf(stderr, "prefetch: %s\n", err);
    return -1;
  }
  const mcpi_job *j = &plan.jobs[0];
  memset(b, 0, sizeof *b);
  b->view = bench_device_view(j);
  b->nsteps = (int)j->nsteps;
  b->n = n;
  b->ncol = mcpi_job_columns(j, 0);
  size_t alloc = mcpi_job_pay_columns(j) * n * sizeof(double);
  b->prec = prec;
  b->small = mcpi_job_small(j);
  size_t real = prec == MCP_FLOAT ? sizeof(float) : sizeof(double);
  int ok = cudaMalloc(&b->z, n * j->nsteps * real) == cudaSuccess &&
           cudaMalloc((void **)&b->pay, alloc) == cudaSuccess &&
           cudaMalloc((void **)&b->ref, alloc) == cudaSuccess &&
           mcpi_launch_normals(j->stream, 0, j->nsteps, 0, n, b->z, n, prec, 0) == cudaSuccess;
  cudaEventCreate(&b->e0);
  cudaEventCreate(&b->e1);
  mcpi_plan_free(&plan);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  if (!ok) {
    fprintf(stderr, "prefetch: cannot set up %zu paths: %s\n", n,
            cudaGetErrorString(cudaGetLastError()));
    return -1;
  }
  return 0;
}

static void teardown(bench *b)
{
  bench_device_view_free(&b->view);
  cudaFree(b->z);
  cudaFree(b->pay);
  cudaFree(b->ref);
  cudaEventDestroy(b->e0);
  cudaEventDestroy(b->e1);
}

/* Median kernel time (ms) of one variant, 0 where this build does not have
 * it (configure --enable-tuning-kernels builds every distance), or a
 * negative number on failure; *same says whether its payoffs equal the
 * reference's, bit for bit. */
static double time_variant(bench *b, mcp_prefetch s, int d, int pad, double *out, int *same)
{
  mcpi_kernel_options o = {.precision = b->prec, .strategy = s, .distance = d, .padding = pad,
                           .block = 128, .small = b->small};
  int grid;
  if (!mcpi_path_kernel_built(&o, 0, 0))
    return 0;
  if (mcpi_path_grid(&o, 0, 0, &grid) != cudaSuccess)
    return -1;
  double t[REPEATS];
  for (int r = -1; r < REPEATS; r++) {
    cudaEventRecord(b->e0, 0);
    cudaError_t e = mcpi_launch_paths(b->view, b->z, b->n, b->n, out, &o, grid, 0);
    cudaEventRecord(b->e1, 0);
    if (e != cudaSuccess)
      return -1;
    float ms = bench_event_ms(b->e0, b->e1);
    if (r >= 0)
      t[r] = ms;
  }
  if (cudaDeviceSynchronize() != cudaSuccess)
    return -1;
  if (same) {
    size_t bytes = b->ncol * b->n * sizeof(double);
    double *x = malloc(bytes), *y = malloc(bytes);
    cudaMemcpy(x, out, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(y, b->ref, bytes, cudaMemcpyDeviceToHost);
    *same = x && y && memcmp(x, y, bytes) == 0;
    free(x);
    free(y);
  }
  return bench_median(t, REPEATS);
}

/* Bytes the path kernel moves: the normals read, the payoff columns written
 * (the trade, the hidden forward of the martingale check, the book). */
static double kernel_bytes(const bench *b)
{
  size_t real = b->prec == MCP_FLOAT ? sizeof(float) : sizeof(double);
  return (double)b->n * b->nsteps * real + (double)b->ncol * b->n * sizeof(double);
}

static int sweep(const char *csv_path)
{
  static const size_t sizes[] = {1 << 16, 1 << 18, 1 << 20, 1 << 22};
  FILE *csv = fopen(csv_path, "w");
  if (!csv) {
    perror(csv_path);
    return 1;
  }
  mcp_device_info info;
  mcp_device_get_info(0, &info);
  double copy = bench_copy_bandwidth();
  printf("# prefetch: path kernel, arithmetic Asian, %d steps; %s, %d SMs; block 128\n",
         BENCH_FIXINGS, info.name, info.multiprocessors);
  printf("# device copy bandwidth %.0f GB/s (read + write); medians of %d\n", copy * 1e-9,
         REPEATS);
  fprintf(csv, "precision,paths,strategy,distance,layout,padding,ms,speedup,GBps,identical\n");
  int bad = 0;
  for (int prec = 0; prec < 2; prec++)
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
      bench b;
      if (setup(&b, (mcp_precision)prec, sizes[si]))
        return 1;
      double none = time_variant(&b, MCP_PREFETCH_NONE, 4, 0, b.ref, NULL);
      if (none < 0)
        return 1;
      double bytes = kernel_bytes(&b);
      fprintf(csv, "%s,%zu,none,0,-,0,%.5f,1.0000,%.1f,1\n", mcp_precision_name(b.prec), b.n,
              none, bytes / none * 1e-6);
      printf("\n### %s, %zu paths: none %.3f ms (%.0f GB/s, %.0f%% of copy)\n\n",
             mcp_precision_name(b.prec), b.n, none, bytes / none * 1e-6,
             100 * bytes / none * 1e-6 / (copy * 1e-9));
      printf("| strategy | layout | d=1 | d=2 | d=4 | d=6 | d=8 | d=12 | d=16 |\n");
      printf("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
      double best = none;
      char best_name[96] = "none";
      for (int s = MCP_PREFETCH_UNROLL; s <= MCP_PREFETCH_SMEM_ASYNC; s++) {
        int layouts = mcpi_prefetch_uses_smem((mcp_prefetch)s) ? NLAYOUTS : 1;
        for (int l = 0; l < layouts; l++) {
          printf("| %s | %s |", mcp_prefetch_name((mcp_prefetch)s),
                 layouts > 1 ? layout_name(l) : "-");
          for (int di = 0; di < MCPI_NDISTANCES; di++) {
            int d = mcpi_prefetch_distances[di], pad = layout_padding(l, d), same = 0;
            double ms = time_variant(&b, (mcp_prefetch)s, d, pad, b.pay, &same);
            if (ms == 0) {
              printf(" - |");
              continue;
            }
            if (ms < 0) {
              printf(" fail |");
              bad = 1;
              continue;
            }
            bad |= !same;
            printf(" %.2f%s |", none / ms, same ? "" : " (differs!)");
            fprintf(csv, "%s,%zu,%s,%d,%s,%d,%.5f,%.4f,%.1f,%d\n", mcp_precision_name(b.prec),
                    b.n, mcp_prefetch_name((mcp_prefetch)s), d,
                    layouts > 1 ? layout_name(l) : "-", pad, ms, none / ms, bytes / ms * 1e-6,
                    same);
            if (ms < best) {
              best = ms;
              snprintf(best_name, sizeof best_name, "%s d=%d %s",
                       mcp_prefetch_name((mcp_prefetch)s), d, layouts > 1 ? layout_name(l) : "");
            }
          }
          printf("\n");
        }
      }
      printf("\nbest: %s, %.3f ms, %.2fx over none, %.0f GB/s (%.0f%% of copy)\n", best_name,
             best, none / best, bytes / best * 1e-6, 100 * bytes / best * 1e-6 / (copy * 1e-9));
      fflush(stdout);
      teardown(&b);
    }
  fclose(csv);
#ifndef MCP_TUNING_KERNELS
  printf("\n'-': not built; configure --enable-tuning-kernels builds every distance\n");
#endif
  if (bad)
    printf("\nSOME VARIANTS FAILED OR DIFFERED FROM none\n");
  return bad;
}

/* One launch of one variant (after one warm-up), for a profiler. */
static int one(char **argv)
{
  mcp_precision prec;
  mcp_prefetch s;
  int d = atoi(argv[2]);
  int pad = strcmp(argv[3], "interleaved") == 0 ? MCP_PADDING_INTERLEAVED : atoi(argv[3]);
  size_t n = (size_t)strtoull(argv[4], NULL, 10);
  if (mcp_precision_from_name(argv[0], &prec) != MCP_OK ||
      mcp_prefetch_from_name(argv[1], &s) != MCP_OK || mcpi_prefetch_check(s, d, pad) || n < 2) {
    fprintf(stderr, "prefetch --one PREC STRATEGY DISTANCE PADDING PATHS: bad arguments\n");
    return 2;
  }
  bench b;
  if (setup(&b, prec, n))
    return 1;
  double ms = time_variant(&b, s, d, pad, b.pay, NULL);
  if (ms == 0) {
    fprintf(stderr, "prefetch: %s at distance %d is not built; configure "
                    "--enable-tuning-kernels builds every distance\n", argv[1], d);
    teardown(&b);
    return 2;
  }
  printf("%s %s d=%d padding=%d %zu paths: %.3f ms, %.0f GB/s\n", argv[0], argv[1], d, pad, n,
         ms, kernel_bytes(&b) / ms * 1e-6);
  teardown(&b);
  return ms < 0;
}

int main(int argc, char **argv)
{
  if (mcp_device_count() == 0) {
    printf("prefetch: no CUDA device; nothing to measure\n");
    return 0;
  }
  if (argc == 7 && strcmp(argv[1], "--one") == 0)
    return one(argv + 2);
  if (argc == 3 && strcmp(argv[1], "--csv") == 0)
    return sweep(argv[2]);
  if (argc == 1)
    return sweep("prefetch.csv");
  fprintf(stderr, "usage: prefetch [--csv FILE] | --one PREC STRATEGY DISTANCE PADDING PATHS\n");
  return 2;
}
#endif
