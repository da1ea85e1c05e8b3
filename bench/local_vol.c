/* local_vol.c: path-steps per second of the benchmark Asian (252 daily
 * fixings, double) under local volatility, by surface size, against the same
 * trade under Black-Scholes on the same grid: on the GPU by normals mode and
 * prefetch strategy, and on the CPU.  Medians of timed repeats after a
 * warm-up; prints a Markdown table. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "bench/common.h"

#define REPEATS 5

/* Surfaces of nt times and ns spots (0 x 0: Black-Scholes), a skew about 25%
 * that flattens with time, spots from 40 to 250. */
static const int sizes[][2] = {{0, 0}, {20, 20}, {50, 100}, {200, 400}};
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

static mcp_market *market(int nt, int ns)
{
  mcp_market *m;
  mcp_market_create(&m);
  if (!nt) {
    mcp_market_add_black_scholes(m, "U", 100, 0.03, 0.01, 0.25);
    return m;
  }
  double *t = malloc(nt * sizeof *t), *s = malloc(ns * sizeof *s);
  double *v = malloc((size_t)nt * ns * sizeof *v);
  for (int i = 0; i < nt; i++)
    t[i] = 2.0 * i / (nt - 1);
  for (int k = 0; k < ns; k++)
    s[k] = 40 * pow(250 / 40.0, (double)k / (ns - 1));
  for (int i = 0; i < nt; i++)
    for (int k = 0; k < ns; k++)
      v[(size_t)i * ns + k] = 0.25 - 0.1 * log(s[k] / 100) / (1 + t[i]);
  for (size_t i = 0; i < (size_t)nt * ns; i++)
    v[i] = v[i] < 0.05 ? 0.05 : v[i];
  if (mcp_market_add_local_vol(m, "U", 100, 0.03, 0.01, nt, t, ns, s, v) != MCP_OK)
    fprintf(stderr, "local_vol: %s\n", mcp_market_last_error(m));
  free(t);
  free(s);
  free(v);
  return m;
}

/* Median seconds of mcp_price, or a negative number on failure. */
static double time_price(mcp_backend b, const mcp_market *m, uint64_t paths, mcp_normals normals,
                         mcp_prefetch strategy, double *price)
{
  double fix[BENCH_FIXINGS];
  for (int i = 0; i < BENCH_FIXINGS; i++)
    fix[i] = (i + 1) / (double)BENCH_FIXINGS;
  mcp_context *ctx;
  mcp_portfolio *p;
  if (mcp_context_create(&ctx, b) != MCP_OK)
    return -1;
  mcp_portfolio_create(&p);
  mcp_portfolio_add_asian(p, "asian", "U", MCP_ARITHMETIC, MCP_CALL, 100, BENCH_FIXINGS, fix, 1.0,
                          1);
  mcp_portfolio_set_paths(p, paths);
  mcp_run_options *o = NULL;
  mcp_status st = mcp_run_options_create(&o);
  st = st ? st : mcp_run_options_set_normals(o, normals);
  st = st ? st : mcp_run_options_set_prefetch(o, strategy, 4, 1);
  bench_use_options(ctx, o, st);
  double t = bench_time_price(ctx, m, p, 1, REPEATS, price, "local_vol");
  mcp_portfolio_destroy(p);
  mcp_context_destroy(ctx);
  return t;
}

typedef struct engine {
  const char *name;
  mcp_backend backend;
  mcp_normals normals;
  mcp_prefetch strategy;
  uint64_t paths;
} engine;

int main(void)
{
  static const engine engines[] = {
#ifdef MCP_HAVE_CUDA
      {"cuda fused", MCP_BACKEND_CUDA, MCP_NORMALS_FUSED, MCP_PREFETCH_NONE, 1 << 20},
      {"cuda stored, none", MCP_BACKEND_CUDA, MCP_NORMALS_STORED, MCP_PREFETCH_NONE, 1 << 20},
      {"cuda stored, scalar-rolling", MCP_BACKEND_CUDA, MCP_NORMALS_STORED,
       MCP_PREFETCH_SCALAR_ROLLING, 1 << 20},
      {"cuda stored, smem-async", MCP_BACKEND_CUDA, MCP_NORMALS_STORED, MCP_PREFETCH_SMEM_ASYNC,
       1 << 20},
#endif
      {"cpu", MCP_BACKEND_CPU, MCP_NORMALS_FUSED, MCP_PREFETCH_NONE, 1 << 16},
  };
  printf("# local_vol: arithmetic Asian call, %d daily fixings, double, medians of %d;\n"
         "# surfaces times x spots (0 x 0: Black-Scholes at 25%%), linear in time and "
         "log-spot\n\n",
         BENCH_FIXINGS, REPEATS);
  printf("| engine | surface | paths | time (ms) | path-steps/s | / Black-Scholes | price |\n"
         "|---|---|---:|---:|---:|---:|---:|\n");
  for (size_t e = 0; e < sizeof engines / sizeof *engines; e++) {
    double base = 0;
    for (int k = 0; k < NSIZES; k++) {
      mcp_market *m = market(sizes[k][0], sizes[k][1]);
      double price = 0, t = time_price(engines[e].backend, m, engines[e].paths,
                                       engines[e].normals, engines[e].strategy, &price);
      mcp_market_destroy(m);
      if (t < 0)
        continue;
      double rate = (double)engines[e].paths * BENCH_FIXINGS / t;
      if (k == 0)
        base = rate;
      printf("| %s | %d x %d | %llu | %.2f | %.3e | %.2f | %.6f |\n", engines[e].name,
             sizes[k][0], sizes[k][1], (unsigned long long)engines[e].paths, t * 1e3, rate,
             base > 0 ? rate / base : 0, price);
    }
  }
  return 0;
}
