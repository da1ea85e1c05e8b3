/* pde.c: the finite-difference benchmarks (bench/RESULTS.md).
 *   pde [--csv FILE]
 * 1. Stencil sweeps: `regcache` against `smem` (and `global`) for radius
 *    K = 1 .. 12 and coarsening C = 1, 2, 4, 8: 4224 grids (32 a
 *    multiprocessor of an H100) of 2048 nodes, 50 sweeps each, one warp a
 *    grid; median of 7 timed runs after a warm-up; node updates per second,
 *    and whether every implementation wrote the same bits.  The table goes to
 *    FILE (default pde_stencil.csv) for bench/pde.gp.
 * 2. The implicit half: mcprice's banded solver (one thread a system)
 *    against cuSPARSE's gtsv2StridedBatch on 10,000 tridiagonal systems.
 * 3. A batch of 10,000 American puts priced through mcp_price on the GPU
 *    (and a slice of it on the CPU), with its accuracy against a binomial
 *    tree of 10,000 steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "common.h"

#ifndef MCP_HAVE_CUDA
int main(void)
{
  printf("pde: built without CUDA; nothing to measure\n");
  return 0;
}
#else
#include <cusparse.h>
#include "stencil_bench.h"

#define CHECK(x)                                                                        \
  do {                                                                                  \
    cudaError_t e_ = (x);                                                               \
    if (e_ != cudaSuccess) {                                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));       \
      exit(1);                                                                          \
    }                                                                                   \
  } while (0)

typedef cudaError_t (*sweep_fn)(int, int, double *, double *, int, int, int, int,
                                const double *);
static const sweep_fn impls[3] = {bench_sweep_regcache, bench_sweep_smem, bench_sweep_global};
static const char *const impl_names[3] = {"regcache", "smem", "global"};

#define GRIDS 4224
#define NODES 2048
#define SWEEPS 50
#define REPS 7

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Median milliseconds of one configuration; the final buffer's checksum
 * bits in *sum. */
static double time_sweeps(int impl, int K, int C, double *a, double *b, const double *a0,
                          const double *w, size_t bytes, uint64_t *hash, double *host)
{
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  double ms[REPS];
  for (int r = -1; r < REPS; r++) {
    CHECK(cudaMemcpy(a, a0, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(b, a0, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e0, 0));
    CHECK(impls[impl](K, C, a, b, NODES, NODES, GRIDS, SWEEPS, w));
    CHECK(cudaEventRecord(e1, 0));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      ms[r] = bench_event_ms(e0, e1);
  }
  CHECK(cudaMemcpy(host, SWEEPS % 2 ? b : a, bytes, cudaMemcpyDeviceToHost));
  uint64_t h = 1469598103934665603ull;
  const unsigned char *p = (const unsigned char *)host;
  for (size_t i = 0; i < bytes; i++)
    h = (h ^ p[i]) * 1099511628211ull;
  *hash = h;
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return bench_median(ms, REPS);
}

static int stencil_table(const char *csv_path)
{
  size_t bytes = (size_t)GRIDS * NODES * sizeof(double);
  double *a, *b, *a0, *w, *host = malloc(bytes);
  CHECK(cudaMalloc((void **)&a, bytes));
  CHECK(cudaMalloc((void **)&b, bytes));
  CHECK(cudaMalloc((void **)&a0, bytes));
  CHECK(cudaMalloc((void **)&w, 25 * sizeof(double)));
  for (size_t i = 0; i < (size_t)GRIDS * NODES; i++)
    host[i] = sin(0.001 * (double)i) + 1.5;
  CHECK(cudaMemcpy(a0, host, bytes, cudaMemcpyHostToDevice));
  FILE *csv = fopen(csv_path, "w");
  if (!csv) {
    perror(csv_path);
    return 1;
  }
  fprintf(csv, "K,C,impl,ms,gupdates,speedup_over_smem,identical\n");
  printf("\n== stencil sweeps: %d grids x %d nodes x %d sweeps, double, median of %d ==\n",
         GRIDS, NODES, SWEEPS, REPS);
  printf("%3s %2s %12s %12s %12s %9s %9s %s\n", "K", "C", "regcache", "smem", "global",
         "rc/smem", "rc/glob", "G node-updates/s (regcache)");
  int all_identical = 1;
  for (int K = 1; K <= 12; K++) {
    double wh[25], tot = 0;
    for (int d = 0; d <= 2 * K; d++)
      tot += (wh[d] = 1.0 / (1 + abs(d - K)));
    for (int d = 0; d <= 2 * K; d++)
      wh[d] /= tot; /* an averaging stencil keeps the values bounded */
    CHECK(cudaMemcpy(w, wh, (2 * K + 1) * sizeof(double), cudaMemcpyHostToDevice));
    for (int C = 1; C <= 8; C *= 2) {
      double ms[3];
      uint64_t hash[3];
      for (int i = 0; i < 3; i++)
        ms[i] = time_sweeps(i, K, C, a, b, a0, w, bytes, &hash[i], host);
      int same = hash[0] == hash[1] && hash[1] == hash[2];
      all_identical &= same;
      double updates = (double)GRIDS * (NODES - 2 * K) * SWEEPS;
      for (int i = 0; i < 3; i++)
        fprintf(csv, "%d,%d,%s,%.4f,%.2f,%.4f,%d\n", K, C, impl_names[i], ms[i],
                updates / ms[i] * 1e-6, ms[1] / ms[i], same);
      printf("%3d %2d %9.3f ms %9.3f ms %9.3f ms %9.2f %9.2f %8.1f %s\n", K, C, ms[0], ms[1],
             ms[2], ms[1] / ms[0], ms[2] / ms[0], updates / ms[0] * 1e-6,
             same ? "" : "DIFFERENT BITS");
    }
  }
  fclose(csv);
  printf("all implementations bit-identical: %s\n", all_identical ? "yes" : "NO");
  cudaFree(a);
  cudaFree(b);
  cudaFree(a0);
  cudaFree(w);
  free(host);
  return !all_identical;
}

#define SYSTEMS 10000
#define SYS_N 401

static void solver_table(void)
{
  size_t cells = (size_t)SYSTEMS * SYS_N, bytes = cells * sizeof(double);
  double *y0, *y, *u, *x, *m, *dl, *d, *du, *host = malloc(bytes);
  CHECK(cudaMalloc((void **)&y0, bytes));
  CHECK(cudaMalloc((void **)&y, bytes));
  CHECK(cudaMalloc((void **)&u, bytes));
  CHECK(cudaMalloc((void **)&x, bytes));
  CHECK(cudaMalloc((void **)&m, 3 * sizeof(double)));
  CHECK(cudaMalloc((void **)&dl, bytes));
  CHECK(cudaMalloc((void **)&d, bytes));
  CHECK(cudaMalloc((void **)&du, bytes));
  /* a Crank-Nicolson band: -l, 1 + 2l, -l with l = 0.5 dt a / h^2 ~ 5 */
  const double band[3] = {-5.0, 11.0, -5.0};
  CHECK(cudaMemcpy(m, band, sizeof band, cudaMemcpyHostToDevice));
  for (size_t i = 0; i < cells; i++)
    host[i] = cos(0.01 * (double)i);
  CHECK(cudaMemcpy(y0, host, bytes, cudaMemcpyHostToDevice));
  /* cuSPARSE's diagonals, with the identity rows at both ends of each system */
  double *hd = malloc(3 * bytes);
  for (size_t s = 0; s < SYSTEMS; s++)
    for (size_t j = 0; j < SYS_N; j++) {
      int edge = j == 0 || j == SYS_N - 1;
      size_t k = s * SYS_N + j;
      hd[k] = edge || j == 0 ? 0 : band[0];
      hd[cells + k] = edge ? 1 : band[1];
      hd[2 * cells + k] = edge ? 0 : band[2];
    }
  CHECK(cudaMemcpy(dl, hd, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d, hd + cells, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(du, hd + 2 * cells, bytes, cudaMemcpyHostToDevice));
  cusparseHandle_t sp;
  if (cusparseCreate(&sp) != CUSPARSE_STATUS_SUCCESS) {
    printf("cuSPARSE unavailable\n");
    return;
  }
  size_t need = 0;
  cusparseDgtsv2StridedBatch_bufferSizeExt(sp, SYS_N, dl, d, du, y, SYSTEMS, SYS_N, &need);
  void *work;
  CHECK(cudaMalloc(&work, need ? need : 1));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  double ms[2][REPS];
  for (int r = -1; r < REPS; r++)
    for (int v = 0; v < 2; v++) {
      CHECK(cudaMemcpy(y, y0, bytes, cudaMemcpyDeviceToDevice));
      CHECK(cudaEventRecord(e0, 0));
      if (v == 0)
        CHECK(bench_band_solve(m, y, u, x, SYS_N, SYS_N, SYSTEMS));
      else if (cusparseDgtsv2StridedBatch(sp, SYS_N, dl, d, du, y, SYSTEMS, SYS_N, work) !=
               CUSPARSE_STATUS_SUCCESS)
        printf("cusparseDgtsv2StridedBatch failed\n");
      CHECK(cudaEventRecord(e1, 0));
      CHECK(cudaEventSynchronize(e1));
      if (r >= 0)
        ms[v][r] = bench_event_ms(e0, e1);
    }
  /* the two solutions agree */
  double *hx = malloc(bytes);
  CHECK(cudaMemcpy(hx, x, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(host, y, bytes, cudaMemcpyDeviceToHost));
  double diff = 0;
  for (size_t i = 0; i < cells; i++)
    diff = fmax(diff, fabs(hx[i] - host[i]));
  double own = bench_median(ms[0], REPS), cus = bench_median(ms[1], REPS);
  printf("\n== implicit half: %d tridiagonal systems of %d unknowns, median of %d ==\n",
         SYSTEMS, SYS_N, REPS);
  printf("mcprice band solve (thread a system): %8.3f ms  %6.1f GB/s (y, u, x once each way)\n",
         own, 5.0 * bytes / own * 1e-6);
  printf("cusparseDgtsv2StridedBatch:           %8.3f ms  ratio %.2f; max |difference| %.2e\n",
         cus, cus / own, diff);
  cusparseDestroy(sp);
  cudaFree(work);
  cudaFree(y0);
  cudaFree(y);
  cudaFree(u);
  cudaFree(x);
  cudaFree(m);
  cudaFree(dl);
  cudaFree(d);
  cudaFree(du);
  free(hd);
  free(hx);
  free(host);
}

/* CRR tree with early exercise (the accuracy reference). */
static double crr_put(double S, double K, double T, double r, double q, double vol, int n)
{
  double dt = T / n, u = exp(vol * sqrt(dt)), dn = 1 / u;
  double p = (exp((r - q) * dt) - dn) / (u - dn), df = exp(-r * dt);
  double *v = malloc((size_t)(n + 1) * sizeof *v);
  for (int i = 0; i <= n; i++)
    v[i] = fmax(K - S * pow(u, 2 * i - n), 0);
  for (int k = n - 1; k >= 0; k--)
    for (int i = 0; i <= k; i++)
      v[i] = fmax(df * (p * v[i + 1] + (1 - p) * v[i]), K - S * pow(u, 2 * i - k));
  double x = v[0];
  free(v);
  return x;
}

static double price_book(mcp_backend backend, const mcp_market *mk, mcp_portfolio *p,
                         double *first)
{
  mcp_context *ctx;
  mcp_results *r;
  mcp_context_create(&ctx, backend);
  double t0 = now();
  if (mcp_price(ctx, mk, p, &r) != MCP_OK) {
    printf("mcp_price: %s\n", mcp_context_last_error(ctx));
    exit(1);
  }
  double s = now() - t0;
  mcp_estimate e;
  mcp_results_trade(r, 0, &e);
  *first = e.price;
  mcp_results_destroy(r);
  mcp_context_destroy(ctx);
  return s;
}

static void american_table(void)
{
  mcp_market *mk;
  mcp_market_create(&mk);
  mcp_market_add_black_scholes(mk, "ACME", 100, 0.05, 0.02, 0.25);
  double tree = crr_put(100, 100, 1.0, 0.05, 0.02, 0.25, 10000);
  printf("\n== 10,000 American puts (S 100, K 80..120, T 0.25..2, r 5%%, q 2%%, vol 25%%) ==\n");
  printf("%-15s %6s %6s %-9s %2s %10s %12s %12s\n", "scheme", "nodes", "steps", "stencil", "C",
         "seconds", "options/s", "error(ATM)");
  static const struct { mcp_pde_scheme scheme; unsigned n, m; mcp_stencil st; int c; } cfg[] = {
      {MCP_PDE_CRANK_NICOLSON, 401, 400, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_CRANK_NICOLSON, 401, 400, MCP_STENCIL_SMEM, 2},
      {MCP_PDE_CRANK_NICOLSON, 401, 400, MCP_STENCIL_GLOBAL, 1},
      {MCP_PDE_CRANK_NICOLSON, 201, 200, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_REGCACHE, 1},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_REGCACHE, 4},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_SMEM, 2},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_GLOBAL, 1}};
  for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++) {
    for (int cpu = 0; cpu < 2; cpu++) {
      if (cpu && c != 0 && c != 4)
        continue;
      int count = cpu ? 500 : 10000; /* the CPU prices a slice */
      mcp_portfolio *p;
      mcp_portfolio_create(&p);
      mcp_pde_settings s;
      mcp_pde_settings_init(&s);
      s.scheme = cfg[c].scheme;
      s.space_points = cfg[c].n;
      s.time_steps = cfg[c].m;
      s.stencil = cfg[c].st;
      s.coarsening = cfg[c].c;
      mcp_portfolio_set_pde(p, &s);
      for (int i = 0; i < count; i++) {
        mcp_trade t;
        char id[16];
        mcp_trade_init(&t);
        snprintf(id, sizeof id, "P%d", i);
        t.id = id;
        t.product = MCP_PRODUCT_AMERICAN;
        t.type = MCP_PUT;
        t.underlying = "ACME";
        t.strike = i == 0 ? 100 : 80 + 40.0 * (i % 97) / 96;
        t.maturity = i == 0 ? 1.0 : 0.25 + 1.75 * (i % 89) / 88;
        mcp_portfolio_add_trade(p, &t);
      }
      double first, times[3];
      int reps = cpu ? 1 : 3;
      price_book(cpu ? MCP_BACKEND_CPU : MCP_BACKEND_CUDA, mk, p, &first); /* warm-up */
      for (int r = 0; r < reps; r++)
        times[r] = price_book(cpu ? MCP_BACKEND_CPU : MCP_BACKEND_CUDA, mk, p, &first);
      double sec = bench_median(times, reps);
      printf("%-15s %6u %6u %-9s %2d %10.4f %12.0f %12.2e%s\n", mcp_pde_scheme_name(s.scheme),
             s.space_points, s.time_steps, mcp_stencil_name(s.stencil), s.coarsening, sec,
             count / sec, fabs(first - tree), cpu ? "  (CPU, 500 options)" : "");
      mcp_portfolio_destroy(p);
    }
  }
  printf("(error: the K 100, T 1 put against a 10,000-step binomial tree, %.6f)\n", tree);
  mcp_market_destroy(mk);
}

int main(int argc, char **argv)
{
  const char *csv = "pde_stencil.csv";
  if (argc == 3 && strcmp(argv[1], "--csv") == 0)
    csv = argv[2];
  else if (argc != 1) {
    fprintf(stderr, "usage: pde [--csv FILE]\n");
    return 2;
  }
  if (mcp_device_count() == 0) {
    printf("pde: no CUDA device; nothing to measure\n");
    return 0;
  }
  mcp_device_info info;
  mcp_device_get_info(0, &info);
  printf("# %s, %d SMs; measured copy bandwidth %.0f GB/s\n", info.name, info.multiprocessors,
         bench_copy_bandwidth() * 1e-9);
  int bad = stencil_table(csv);
  solver_table();
  american_table();
  return bad;
}
#endif
