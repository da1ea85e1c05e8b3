/* pde.c: the finite-difference benchmarks (bench/RESULTS.md).
 *   pde [--csv FILE]            everything below
 *   pde --one IMPL K C NODES    one stencil configuration (for ncu)
 * 1. Stencil sweeps: `regcache` against `smem` (and `global`) for radius
 *    K = 1 .. 12 and coarsening C = 1, 2, 4, 8: 4224 grids (32 a
 *    multiprocessor of an H100), one warp a grid, 50 sweeps each, for grids
 *    of 512 nodes (34.6 MB in all: the L2 holds them, as it holds a batch of
 *    option grids) and of 2048 nodes (138 MB: from DRAM); median of 7 timed
 *    runs after a warm-up; node updates per second, and whether every
 *    implementation wrote the same bits.  The table goes to FILE (default
 *    pde_stencil.csv) for bench/pde.gp.
 * 2. The implicit half: mcprice's banded solver (one thread a system)
 *    against cuSPARSE's gtsv2StridedBatch on 10,000 tridiagonal systems,
 *    alone and inside a whole Crank-Nicolson march (a stencil launch and a
 *    solve a step, against mcprice's one fused kernel).
 * 3. A batch of 10,000 American puts: the kernel alone (CUDA events) and
 *    mcp_price end to end, on the GPU and (a slice) on the CPU, with the
 *    accuracy against a binomial tree of 10,000 steps. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "bench/common.h"

#ifndef MCP_HAVE_CUDA
int main(void)
{
  printf("pde: built without CUDA; nothing to measure\n");
  return 0;
}
#else
#include <cusparse.h>
#include "kernels/launch.h"
#include "src/plan/pde.h"
#include "src/exec/boundary.h"
#include "bench/stencil_bench.h"

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
static double time_sweeps(int impl, int K, int C, int nodes, double *a, double *b,
                          const double *a0, const double *w, size_t bytes, uint64_t *hash,
                          double *host)
{
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  double ms[REPS];
  for (int r = -1; r < REPS; r++) {
    CHECK(cudaMemcpy(a, a0, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(b, a0, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e0, 0));
    CHECK(impls[impl](K, C, a, b, nodes, nodes, GRIDS, SWEEPS, w));
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

/* The averaging (2K + 1)-point stencil (it keeps the values bounded). */
static void weights(int K, double *w)
{
  double wh[25], tot = 0;
  for (int d = 0; d <= 2 * K; d++)
    tot += (wh[d] = 1.0 / (1 + abs(d - K)));
  for (int d = 0; d <= 2 * K; d++)
    wh[d] /= tot;
  CHECK(cudaMemcpy(w, wh, (2 * K + 1) * sizeof(double), cudaMemcpyHostToDevice));
}

static int stencil_table(FILE *csv, int nodes, int K1, int K2, int C1, int C2, int only)
{
  size_t bytes = (size_t)GRIDS * nodes * sizeof(double);
  double *a, *b, *a0, *w, *host = malloc(bytes);
  CHECK(cudaMalloc((void **)&a, bytes));
  CHECK(cudaMalloc((void **)&b, bytes));
  CHECK(cudaMalloc((void **)&a0, bytes));
  CHECK(cudaMalloc((void **)&w, 25 * sizeof(double)));
  for (size_t i = 0; i < (size_t)GRIDS * nodes; i++)
    host[i] = sin(0.001 * (double)i) + 1.5;
  CHECK(cudaMemcpy(a0, host, bytes, cudaMemcpyHostToDevice));
  printf("\n== stencil sweeps: %d grids x %d nodes x %d sweeps (%.1f MB), double, median of "
         "%d ==\n", GRIDS, nodes, SWEEPS, 2e-6 * (double)bytes, REPS);
  printf("%3s %2s %12s %12s %12s %9s %9s %s\n", "K", "C", "regcache", "smem", "global",
         "rc/smem", "rc/glob", "G node-updates/s (regcache)");
  int all_identical = 1;
  for (int K = K1; K <= K2; K++) {
    weights(K, w);
    for (int C = C1; C <= C2; C *= 2) {
      double ms[3] = {0, 0, 0};
      uint64_t hash[3] = {0, 0, 0};
      for (int i = 0; i < 3; i++)
        if (only < 0 || only == i)
          ms[i] = time_sweeps(i, K, C, nodes, a, b, a0, w, bytes, &hash[i], host);
      int same = hash[0] == hash[1] && hash[1] == hash[2];
      all_identical &= same || only >= 0;
      double updates = (double)GRIDS * (nodes - 2 * K) * SWEEPS;
      for (int i = 0; csv && i < 3; i++)
        fprintf(csv, "%d,%d,%d,%s,%.4f,%.2f,%.4f,%d\n", nodes, K, C, impl_names[i], ms[i],
                updates / ms[i] * 1e-6, ms[1] / ms[i], same);
      printf("%3d %2d %9.3f ms %9.3f ms %9.3f ms %9.2f %9.2f %8.1f %s\n", K, C, ms[0], ms[1],
             ms[2], ms[1] / ms[0], ms[2] / ms[0], updates / ms[0] * 1e-6,
             same ? "" : "DIFFERENT BITS");
    }
  }
  if (only < 0)
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
#define SYS_LD 402 /* even: the stencil kernels load 16-byte pairs */
#define MARCH_STEPS 400

/* A batch of options as the library plans it (pde.h), on the device, with
 * every row a march outside shared memory needs. */
typedef struct device_batch {
  mcpi_pde_batch b;
  mcpi_pde_view v;
} device_batch;

static void batch_upload(device_batch *d)
{
  mcpi_pde_batch *b = &d->b;
  size_t rows = b->ngrids * (size_t)b->ld * sizeof(double);
  void *p[7];
  size_t bytes[7] = {b->ngrids * sizeof *b->grid, b->nseg * sizeof *b->seg, rows, rows,
                     rows * (size_t)MCPI_PDE_FACTOR_ROWS(b->radius), rows,
                     b->ngrids * (2 * (size_t)b->radius + 1) * 8};
  for (int i = 0; i < 7; i++) {
    CHECK(cudaMalloc(&p[i], bytes[i]));
    CHECK(cudaMemset(p[i], 0, bytes[i]));
  }
  CHECK(cudaMemcpy(p[0], b->grid, bytes[0], cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(p[1], b->seg, bytes[1], cudaMemcpyHostToDevice));
  int american = 0;
  for (size_t g = 0; g < b->ngrids; g++)
    american |= b->grid[g].exercise != 0;
  d->v = (mcpi_pde_view){.n = b->n, .ld = b->ld, .radius = b->radius, .ngrids = (int)b->ngrids,
                         .grid = p[0], .seg = p[1], .american = american, .v = p[2], .w = p[3],
                         .u = p[4], .ex = p[5], .out = p[6]};
}

static void batch_free(device_batch *d)
{
  void *p[7] = {(void *)d->v.grid, (void *)d->v.seg, d->v.v, d->v.w, d->v.u,
                (void *)d->v.ex, d->v.out};
  for (int i = 0; i < 7; i++)
    cudaFree(p[i]);
  mcpi_pde_free(&d->b);
}

/* Median milliseconds of the fused kernel on the batch. */
static double time_fused(device_batch *d, int reps)
{
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  double ms[16];
  for (int r = -1; r < reps; r++) {
    CHECK(cudaEventRecord(e0, 0));
    CHECK(mcpi_launch_pde(d->v, d->b.set.scheme == MCP_PDE_EXPLICIT, (int)d->b.set.stencil,
                          d->b.set.coarsening, 0));
    CHECK(cudaEventRecord(e1, 0));
    CHECK(cudaEventSynchronize(e1));
    if (r >= 0)
      ms[r] = bench_event_ms(e0, e1);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return bench_median(ms, reps);
}

/* The fused kernel's median milliseconds with every grid's exercise
 * boundary recorded (boundary.h's layout of p's grids). */
static double time_fused_bound(device_batch *d, const mcp_portfolio *p)
{
  mcpi_plan none = {0};
  mcpi_bounds bnd;
  char err[512];
  if (mcpi_bounds_layout(p, &none, &d->b, &bnd, err) != MCP_OK) {
    printf("boundary layout: %s\n", err);
    exit(1);
  }
  int *nodes;
  CHECK(cudaMalloc((void **)&nodes, d->b.nbound * sizeof *nodes));
  CHECK(cudaMemcpy((void *)d->v.grid, d->b.grid, d->b.ngrids * sizeof *d->b.grid,
                   cudaMemcpyHostToDevice));
  d->v.bound = nodes;
  double ms = time_fused(d, 5);
  d->v.bound = NULL;
  cudaFree(nodes);
  mcpi_bounds_free(&bnd);
  return ms;
}

/* count options on ACME (S 100, r 5%, q 2%, vol 25%): strikes 80 .. 120,
 * maturities 0.25 .. 2; the first is the K 100, T 1 one. */
static mcp_portfolio *option_book(mcp_product product, int count)
{
  mcp_portfolio *p;
  mcp_portfolio_create(&p);
  for (int i = 0; i < count; i++) {
    mcp_trade t;
    char id[16];
    mcp_trade_init(&t);
    snprintf(id, sizeof id, "P%d", i);
    t.id = id;
    t.product = product;
    t.type = MCP_PUT;
    t.underlying = "ACME";
    t.engine = MCP_ENGINE_PDE;
    t.strike = i == 0 ? 100 : 80 + 40.0 * (i % 97) / 96;
    t.maturity = i == 0 ? 1.0 : 0.25 + 1.75 * (i % 89) / 88;
    mcp_portfolio_add_trade(p, &t);
  }
  return p;
}

static mcp_market *acme(void)
{
  mcp_market *mk;
  mcp_market_create(&mk);
  mcp_market_add_black_scholes(mk, "ACME", 100, 0.05, 0.02, 0.25);
  return mk;
}

static void plan_on_device(device_batch *d, const mcp_market *mk, const mcp_portfolio *p,
                           const mcp_pde_settings *s)
{
  char err[512];
  if (mcpi_pde_plan(mk, p, s, &d->b, err) != MCP_OK) {
    printf("plan: %s\n", err);
    exit(1);
  }
  batch_upload(d);
}

static void solver_table(void)
{
  size_t cells = (size_t)SYSTEMS * SYS_LD, bytes = cells * sizeof(double);
  double *y0, *y, *u, *x, *m, *dl, *d, *du, *host = malloc(bytes);
  CHECK(cudaMalloc((void **)&y0, bytes));
  CHECK(cudaMalloc((void **)&y, bytes));
  CHECK(cudaMalloc((void **)&u, MCPI_PDE_FACTOR_ROWS(1) * bytes)); /* a factor table a system */
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
  memset(hd, 0, 3 * bytes);
  for (size_t s = 0; s < SYSTEMS; s++)
    for (size_t j = 0; j < SYS_N; j++) {
      int edge = j == 0 || j == SYS_N - 1;
      size_t k = s * SYS_LD + j;
      hd[k] = edge ? 0 : band[0];
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
  cusparseDgtsv2StridedBatch_bufferSizeExt(sp, SYS_N, dl, d, du, y, SYSTEMS, SYS_LD, &need);
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
        CHECK(bench_band_solve(m, y, u, x, SYS_N, SYS_LD, SYSTEMS));
      else if (cusparseDgtsv2StridedBatch(sp, SYS_N, dl, d, du, y, SYSTEMS, SYS_LD, work) !=
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
    if (i % SYS_LD < SYS_N)
      diff = fmax(diff, fabs(hx[i] - host[i]));
  double own = bench_median(ms[0], REPS), cus = bench_median(ms[1], REPS);
  printf("\n== implicit half: %d tridiagonal systems of %d unknowns, median of %d ==\n",
         SYSTEMS, SYS_N, REPS);
  printf("one solve, mcprice band solve (thread a system): %8.3f ms\n", own);
  printf("one solve, cusparseDgtsv2StridedBatch:           %8.3f ms (%.2fx); max |diff| %.1e\n",
         cus, own / cus, diff);
  /* a whole march: per step a 3-point sweep launch and a solve, against the
   * fused kernel on a batch of as many European puts of the same grid */
  double march[2][3];
  for (int r = 0; r < 3; r++)
    for (int v = 0; v < 2; v++) {
      CHECK(cudaEventRecord(e0, 0));
      for (int step = 0; step < MARCH_STEPS; step++) {
        CHECK(bench_sweep_regcache(1, 2, y0, y, SYS_N, SYS_LD, SYSTEMS, 1, m));
        if (v == 0)
          CHECK(bench_band_solve(m, y, u, y0, SYS_N, SYS_LD, SYSTEMS));
        else
          cusparseDgtsv2StridedBatch(sp, SYS_N, dl, d, du, y, SYSTEMS, SYS_LD, work);
      }
      CHECK(cudaEventRecord(e1, 0));
      CHECK(cudaEventSynchronize(e1));
      march[v][r] = bench_event_ms(e0, e1);
    }
  mcp_market *mk = acme();
  mcp_pde_settings s;
  mcp_pde_settings_init(&s);
  s.space_points = SYS_N;
  s.time_steps = MARCH_STEPS;
  s.rannacher = 0;
  mcp_portfolio *p = option_book(MCP_PRODUCT_EUROPEAN, SYSTEMS);
  device_batch db;
  plan_on_device(&db, mk, p, &s);
  double fused = time_fused(&db, 5);
  printf("march of %d Crank-Nicolson steps:\n", MARCH_STEPS);
  printf("  a sweep launch + mcprice solve a step:  %8.2f ms\n", bench_median(march[0], 3));
  printf("  a sweep launch + cuSPARSE a step:       %8.2f ms\n", bench_median(march[1], 3));
  printf("  mcprice fused kernel (10,000 European): %8.2f ms\n", fused);
  batch_free(&db);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(mk);
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
                         const mcp_pde_settings *grid, int boundary, double *first)
{
  mcp_context *ctx;
  mcp_results *r;
  mcp_run_options *o = NULL;
  mcp_status st = mcp_run_options_create(&o);
  if (mcp_context_create(&ctx, backend) != MCP_OK) {
    printf("no %s context\n", mcp_backend_name(backend));
    exit(1);
  }
  if (st == MCP_OK && boundary)
    st = mcp_run_options_set_exercise_boundary(o, 1);
  bench_use_options(ctx, o, st ? st : mcp_run_options_set_pde(o, grid));
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

#define AMERICANS 10000
#define CPU_SLICE 500

static void american_table(void)
{
  mcp_market *mk = acme();
  double tree = crr_put(100, 100, 1.0, 0.05, 0.02, 0.25, 10000);
  printf("\n== %d American puts (S 100, K 80..120, T 0.25..2, r 5%%, q 2%%, vol 25%%) ==\n",
         AMERICANS);
  printf("%-15s %5s %6s %-8s %1s %9s %11s %9s %11s %9s %9s %10s %11s\n", "scheme", "nodes",
         "steps", "stencil", "C", "kernel ms", "options/s", "price s", "options/s", "kernel+b",
         "price+b", "CPU s", "error(ATM)");
  static const struct { mcp_pde_scheme scheme; unsigned n, m; mcp_stencil st; int c; } cfg[] = {
      {MCP_PDE_CRANK_NICOLSON, 401, 400, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_CRANK_NICOLSON, 401, 400, MCP_STENCIL_SMEM, 2},
      {MCP_PDE_CRANK_NICOLSON, 401, 400, MCP_STENCIL_GLOBAL, 1},
      {MCP_PDE_CRANK_NICOLSON, 201, 200, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_CRANK_NICOLSON, 801, 800, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_REGCACHE, 1},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_REGCACHE, 2},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_REGCACHE, 4},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_SMEM, 2},
      {MCP_PDE_EXPLICIT, 401, 1, MCP_STENCIL_GLOBAL, 1},
      {MCP_PDE_EXPLICIT, 201, 1, MCP_STENCIL_REGCACHE, 2}};
  for (size_t c = 0; c < sizeof cfg / sizeof *cfg; c++) {
    mcp_pde_settings s;
    mcp_pde_settings_init(&s);
    s.scheme = cfg[c].scheme;
    s.space_points = cfg[c].n;
    s.time_steps = cfg[c].m;
    s.rannacher = s.scheme == MCP_PDE_EXPLICIT ? 0 : 2;
    s.stencil = cfg[c].st;
    s.coarsening = cfg[c].c;
    mcp_portfolio *p = option_book(MCP_PRODUCT_AMERICAN, AMERICANS);
    device_batch db;
    plan_on_device(&db, mk, p, &s);
    double kernel = time_fused(&db, 5), kernel_b = 0;
    if (c == 0 || c == 5) /* and with every grid's exercise boundary recorded */
      kernel_b = time_fused_bound(&db, p);
    unsigned steps = (unsigned)db.b.grid[0].steps;
    batch_free(&db);
    double first, times[3];
    price_book(MCP_BACKEND_CUDA, mk, p, &s, 0, &first); /* warm-up */
    for (int r = 0; r < 3; r++)
      times[r] = price_book(MCP_BACKEND_CUDA, mk, p, &s, 0, &first);
    double sec = bench_median(times, 3), cpu = 0, bound = 0;
    if (c == 0 || c == 5) { /* and with every grid's exercise boundary recorded */
      for (int r = 0; r < 3; r++)
        times[r] = price_book(MCP_BACKEND_CUDA, mk, p, &s, 1, &first);
      bound = bench_median(times, 3);
    }
    mcp_portfolio_destroy(p);
    if (c == 0 || c == 5) {
      double f2;
      p = option_book(MCP_PRODUCT_AMERICAN, CPU_SLICE);
      cpu = price_book(MCP_BACKEND_CPU, mk, p, &s, 0, &f2) * AMERICANS / CPU_SLICE;
      mcp_portfolio_destroy(p);
    }
    printf("%-15s %5u %6u %-8s %1d %9.2f %11.0f %9.4f %11.0f %9.2f %9.4f %10.2f %11.2e\n",
           mcp_pde_scheme_name(s.scheme), s.space_points, steps, mcp_stencil_name(s.stencil),
           s.coarsening, kernel, AMERICANS / kernel * 1e3, sec, AMERICANS / sec, kernel_b, bound,
           cpu, fabs(first - tree));
  }
  printf("(steps: of the ATM grid; kernel+b, price+b: kernel ms and price s with every "
         "grid's exercise boundary recorded (0: not timed); CPU s: %d options timed, scaled to %d; error: the K 100, "
         "T 1 put against a 10,000-step binomial tree, %.6f)\n", CPU_SLICE, AMERICANS, tree);
  mcp_market_destroy(mk);
}

int main(int argc, char **argv)
{
  const char *csv_path = "pde_stencil.csv";
  int one = argc == 6 && strcmp(argv[1], "--one") == 0;
  if (argc == 3 && strcmp(argv[1], "--csv") == 0)
    csv_path = argv[2];
  else if (argc != 1 && !one) {
    fprintf(stderr, "usage: pde [--csv FILE] | pde --one regcache|smem|global K C NODES\n");
    return 2;
  }
  if (mcp_device_count() == 0) {
    printf("pde: no CUDA device; nothing to measure\n");
    return 0;
  }
  if (one) {
    int impl = 0, K = atoi(argv[3]), C = atoi(argv[4]), nodes = atoi(argv[5]);
    while (impl < 3 && strcmp(impl_names[impl], argv[2]) != 0)
      impl++;
    if (impl == 3 || K < 1 || K > 12 || (C != 1 && C != 2 && C != 4 && C != 8) || nodes < 64) {
      fprintf(stderr, "pde --one: expected regcache|smem|global, K 1..12, C 1|2|4|8, NODES >= 64\n");
      return 2;
    }
    return stencil_table(NULL, nodes, K, K, C, C, impl);
  }
  mcp_device_info info;
  mcp_device_get_info(0, &info);
  printf("# %s, %d SMs; measured copy bandwidth %.0f GB/s\n", info.name, info.multiprocessors,
         bench_copy_bandwidth() * 1e-9);
  FILE *csv = fopen(csv_path, "w");
  if (!csv) {
    perror(csv_path);
    return 1;
  }
  fprintf(csv, "nodes,K,C,impl,ms,gupdates,speedup_over_smem,identical\n");
  int bad = stencil_table(csv, 512, 1, 12, 1, 8, -1);
  bad |= stencil_table(csv, 2048, 1, 12, 1, 8, -1);
  fclose(csv);
  solver_table();
  american_table();
  return bad;
}
#endif
