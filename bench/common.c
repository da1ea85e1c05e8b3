/* common.c: helpers shared by the benchmarks (common.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/common.h"
#include "src/base/team.h"

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int bench_cpu_threads(int n)
{
  int prev = mcpi_team_set(n); /* 0 without OpenMP: one thread */
  return prev > 0 ? prev : 1;
}

double bench_median(double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void bench_asian_book(mcp_market **m, mcp_portfolio **p, uint64_t paths)
{
  double fix[BENCH_FIXINGS];
  for (int i = 0; i < BENCH_FIXINGS; i++)
    fix[i] = (i + 1) / (double)BENCH_FIXINGS;
  mcp_market_create(m);
  mcp_market_add_black_scholes(*m, "ACME", 100, 0.03, 0.01, 0.25);
  mcp_portfolio_create(p);
  mcp_portfolio_add_asian(*p, "asian", "ACME", MCP_ARITHMETIC, MCP_CALL, 100, BENCH_FIXINGS,
                          fix, 1.0, 1);
  mcp_portfolio_set_paths(*p, paths);
}

double bench_time_greeks(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                         const mcp_greeks *g, int warm, int repeats, double *price,
                         size_t *nsens, const char *who)
{
  double t[16];
  if (repeats < 1 || repeats > 16) {
    fprintf(stderr, "%s: %d repeats: expected 1 to 16\n", who, repeats);
    return -1;
  }
  for (int r = -warm; r < repeats; r++) { /* r < 0: warm-up */
    mcp_results *res;
    if ((g ? mcp_price_greeks(ctx, m, p, g, &res) : mcp_price(ctx, m, p, &res)) != MCP_OK) {
      fprintf(stderr, "%s: %s\n", who, mcp_context_last_error(ctx));
      return -1;
    }
    if (r >= 0)
      t[r] = mcp_results_seconds(res);
    mcp_estimate e;
    mcp_results_trade(res, 0, &e);
    *price = e.price;
    if (nsens)
      *nsens = mcp_results_sensitivities(res, 0);
    mcp_results_destroy(res);
  }
  return bench_median(t, repeats);
}

double bench_time_price(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p, int warm,
                        int repeats, double *price, const char *who)
{
  return bench_time_greeks(ctx, m, p, NULL, warm, repeats, price, NULL, who);
}

#ifdef MCP_HAVE_CUDA
float bench_event_ms(cudaEvent_t a, cudaEvent_t b)
{
  float ms = 0;
  cudaEventSynchronize(b);
  cudaEventElapsedTime(&ms, a, b);
  return ms;
}

double bench_copy_bandwidth(void)
{
  size_t bytes = (size_t)1 << 30;
  void *a, *b;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess)
    return -1;
  cudaMemset(a, 1, bytes);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  double t[11];
  for (int r = -1; r < 11; r++) {
    cudaEventRecord(e0, 0);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1, 0);
    float ms = bench_event_ms(e0, e1);
    if (r >= 0)
      t[r] = ms;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / (bench_median(t, 11) * 1e-3);
}

static void *to_device(const void *host, size_t bytes)
{
  void *d = NULL;
  cudaMalloc(&d, bytes);
  cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice);
  return d;
}

mcpi_job_view bench_device_view(const mcpi_job *j)
{
  mcpi_job_view v = mcpi_job_host_view(j);
#define MCPI_VIEW_ARRAY(field, type, count, view)                                              \
  v.view = v.view ? to_device(j->field, (count) * sizeof *j->field) : NULL;
#include "models/products/job_arrays.def"
  return v;
}

void bench_device_view_free(mcpi_job_view *v)
{
#define MCPI_VIEW_ARRAY(field, type, count, view) cudaFree((void *)v->view);
#include "models/products/job_arrays.def"
}
#endif

/* Trade k: on underlying k mod 50, a European, a 12-fixing arithmetic Asian
 * or a Brownian-bridge barrier (up-and-out call, down-and-out put), the
 * maturities and strikes cycling, so that the underlyings' event dates
 * differ. */
mcp_status bench_mixed_book(mcp_market **m, mcp_portfolio **p, uint64_t paths)
{
  static const double maturities[4] = {0.25, 0.5, 1.0, 2.0};
  char name[16], id[16];
  mcp_status st = MCP_OK;
  mcp_market_create(m);
  for (int u = 0; u < BENCH_MIXED_UNDERLYINGS; u++) {
    snprintf(name, sizeof name, "U%02d", u);
    mcp_market_add_black_scholes(*m, name, 50 + 2 * u, 0.03, 0.01, 0.15 + 0.005 * u);
  }
  mcp_portfolio_create(p);
  for (int k = 0; k < BENCH_MIXED_TRADES && st == MCP_OK; k++) {
    int u = k % BENCH_MIXED_UNDERLYINGS;
    double spot = 50 + 2 * u, mat = maturities[(k / 3) % 4];
    double strike = spot * (0.8 + 0.05 * ((k / 12) % 9));
    snprintf(name, sizeof name, "U%02d", u);
    snprintf(id, sizeof id, "t%05d", k);
    if (k % 3 == 0) {
      st = mcp_portfolio_add_european(*p, id, name, k % 2 ? MCP_PUT : MCP_CALL, strike, mat, 1);
    } else if (k % 3 == 1) {
      double fix[12];
      for (int i = 0; i < 12; i++)
        fix[i] = mat * (i + 1) / 12;
      st = mcp_portfolio_add_asian(*p, id, name, MCP_ARITHMETIC, MCP_CALL, strike, 12, fix,
                                   mat, 1);
    } else {
      int up = (k / 150) % 2;
      mcp_trade t;
      mcp_trade_init(&t);
      t.id = id;
      t.product = MCP_PRODUCT_BARRIER;
      t.type = up ? MCP_CALL : MCP_PUT;
      t.underlying = name;
      t.strike = strike;
      t.maturity = mat;
      t.barrier_kind = up ? MCP_UP_AND_OUT : MCP_DOWN_AND_OUT;
      t.barrier = spot * (up ? 1.3 : 0.75);
      t.monitoring = MCP_MONITOR_BRIDGE;
      st = mcp_portfolio_add_trade(*p, &t);
    }
  }
  if (st != MCP_OK)
    fprintf(stderr, "mixed book: %s\n", mcp_portfolio_last_error(*p));
  mcp_portfolio_set_paths(*p, paths);
  return st;
}

int bench_same_results(const mcp_results *a, const mcp_results *b)
{
  mcp_estimate x, y;
  for (size_t i = 0; i < mcp_results_count(a); i++) {
    mcp_results_trade(a, i, &x);
    mcp_results_trade(b, i, &y);
    if (memcmp(&x, &y, sizeof x))
      return 0;
  }
  mcp_results_total(a, &x);
  mcp_results_total(b, &y);
  return memcmp(&x, &y, sizeof x) == 0;
}

void bench_use_options(mcp_context *ctx, mcp_run_options *o, mcp_status st)
{
  if (st != 0 || mcp_context_set_options(ctx, o) != MCP_OK) {
    fprintf(stderr, "run options: %s%s\n", st ? mcp_run_options_last_error(o) : "",
            st ? "" : mcp_context_last_error(ctx));
    exit(1);
  }
  mcp_run_options_destroy(o);
}
