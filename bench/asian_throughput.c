/* asian_throughput.c: paths x steps per second for an arithmetic Asian call
 * with 252 daily fixings in double, on the GPU and the CPU, beside the GPU's
 * measured device-to-device copy bandwidth and the time split of one GPU
 * tile between cuRAND and the path kernel.  Medians of timed repeats after a
 * warm-up; prints a Markdown table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/common.h"
#include "src/plan/plan.h"
#include "models/rng.h"
#ifdef MCP_HAVE_CUDA
#include "kernels/launch.h"
#endif

#define REPEATS 5

/* Median wall time of mcp_price in seconds over repeats runs after warm
 * warm-up runs, or a negative number on failure. */
static double time_price(mcp_backend b, uint64_t paths, int warm, int repeats, double *price)
{
  mcp_context *ctx;
  mcp_market *m;
  mcp_portfolio *p;
  if (mcp_context_create(&ctx, b) != MCP_OK)
    return -1;
  bench_asian_book(&m, &p, paths);
  double t = bench_time_price(ctx, m, p, warm, repeats, price, "asian_throughput");
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(ctx);
  return t;
}

#ifdef MCP_HAVE_CUDA
/* One tile of n paths, timed in parts (ms): the canonical normals by the
 * normals kernel, the path kernel, the same normals by the generator API,
 * and the same count in one generator call. */
typedef struct split {
  double rng_ms, kernel_ms, gen_ms, bulk_ms;
} split;

static void tile_split(size_t n, split *s)
{
  mcp_market *m;
  mcp_portfolio *p;
  mcpi_plan plan;
  char err[MCPI_ERRLEN];
  bench_asian_book(&m, &p, n);
  mcpi_plan_build(m, p, NULL, &plan, err);
  const mcpi_job *j = &plan.jobs[0];
  mcpi_job_view v = bench_device_view(j);
  double *z, *pay;
  cudaMalloc((void **)&z, n * j->nsteps * sizeof *z);
  cudaMalloc((void **)&pay, mcpi_job_pay_columns(j) * n * sizeof *pay);
  mcpi_kernel_options opt = {.precision = MCP_DOUBLE, .strategy = MCP_PREFETCH_NONE,
                             .distance = 4, .block = 128, .small = mcpi_job_small(j)};
  int grid;
  mcpi_path_grid(&opt, 0, 0, &grid);
  curandGenerator_t g;
  curandCreateGenerator(&g, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  cudaEvent_t e0, e1, e2;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  cudaEventCreate(&e2);
  double tr[REPEATS], tk[REPEATS], tg[REPEATS], tb[REPEATS];
  for (int r = -1; r < REPEATS; r++) {
    cudaEventRecord(e0, 0);
    mcpi_launch_normals(j->stream, 0, j->nsteps, 0, n, z, n, MCP_DOUBLE, 0);
    cudaEventRecord(e1, 0);
    mcpi_launch_paths(v, z, n, n, pay, &opt, grid, 0);
    cudaEventRecord(e2, 0);
    cudaEventSynchronize(e2);
    if (r >= 0) {
      tr[r] = bench_event_ms(e0, e1);
      tk[r] = bench_event_ms(e1, e2);
    }
    /* the same normals through the generator API, a call per step and
     * window, and as many normals in one bulk call (cuRAND's own speed) */
    cudaEventRecord(e0, 0);
    mcpi_rng_fill(g, j->stream, 0, j->nsteps, 0, n, z, n);
    cudaEventRecord(e1, 0);
    curandGenerateNormalDouble(g, z, n * j->nsteps, 0.0, 1.0);
    cudaEventRecord(e2, 0);
    cudaEventSynchronize(e2);
    if (r >= 0) {
      tg[r] = bench_event_ms(e0, e1);
      tb[r] = bench_event_ms(e1, e2);
    }
  }
  s->rng_ms = bench_median(tr, REPEATS);
  s->kernel_ms = bench_median(tk, REPEATS);
  s->gen_ms = bench_median(tg, REPEATS);
  s->bulk_ms = bench_median(tb, REPEATS);
  curandDestroyGenerator(g);
  cudaFree(z);
  cudaFree(pay);
  bench_device_view_free(&v);
  mcpi_plan_free(&plan);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
}
#endif

int main(void)
{
  static const uint64_t sizes[] = {1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24};
  int ngpu = mcp_device_count();
  printf("# asian_throughput: arithmetic Asian call, %d fixings, double, medians of %d\n",
         BENCH_FIXINGS, REPEATS);
  printf("# %s\n", mcp_build_info());
#ifdef MCP_HAVE_CUDA
  if (ngpu > 0) {
    mcp_device_info info;
    mcp_device_get_info(0, &info);
    printf("# GPU: %s, %d SMs; device copy bandwidth %.0f GB/s (read + write)\n", info.name,
           info.multiprocessors, bench_copy_bandwidth() * 1e-9);
    split t;
    tile_split((size_t)1 << 20, &t);
    double bytes = (double)(1 << 20) * BENCH_FIXINGS * sizeof(double);
    printf("# one tile of 2^20 paths x %d steps (ms): normals kernel %.3f (%.0f GB/s written), "
           "path kernel %.3f (%.0f GB/s read);\n#   the same normals by generator calls per "
           "step and window %.3f, as many in one generator call %.3f\n",
           BENCH_FIXINGS, t.rng_ms, bytes / t.rng_ms * 1e-6, t.kernel_ms, bytes / t.kernel_ms * 1e-6,
           t.gen_ms, t.bulk_ms);
  }
#endif
  printf("\n| backend | threads | paths | time (ms) | paths x steps / s | a thread | price |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (size_t i = 0; ngpu > 0 && i < sizeof sizes / sizeof *sizes; i++) {
    double price = 0, t = time_price(MCP_BACKEND_CUDA, sizes[i], 1, REPEATS, &price);
    if (t < 0)
      return 1;
    printf("| cuda | | %llu | %.2f | %.3e | | %.6f |\n", (unsigned long long)sizes[i], t * 1e3,
           (double)sizes[i] * BENCH_FIXINGS / t, price);
    fflush(stdout);
  }
  /* the CPU on one thread and on all: its rate a core, against QuantLib's
   * published 1.5e6 to 1.8e6 path-steps a second on one (bench/RESULTS.md) */
  static const uint64_t cpu_sizes[] = {1 << 16, 1 << 18, 1 << 20};
  int all = bench_cpu_threads(0), counts[2] = {1, all};
  for (int c = 0; c < (all > 1 ? 2 : 1); c++) {
    bench_cpu_threads(counts[c]);
    for (size_t i = 0; i < sizeof cpu_sizes / sizeof *cpu_sizes; i++) {
      double price = 0, t = time_price(MCP_BACKEND_CPU, cpu_sizes[i], 1, 3, &price);
      if (t < 0)
        return 1;
      double rate = (double)cpu_sizes[i] * BENCH_FIXINGS / t;
      printf("| cpu | %d | %llu | %.2f | %.3e | %.3e | %.6f |\n", counts[c],
             (unsigned long long)cpu_sizes[i], t * 1e3, rate, rate / counts[c], price);
      fflush(stdout);
    }
  }
  bench_cpu_threads(all);
  return 0;
}
