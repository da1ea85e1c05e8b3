/* common.h: what the benchmarks share: medians, the arithmetic Asian book,
 * CUDA event timing and the device's measured copy bandwidth. */
#ifndef MCP_BENCH_COMMON_H
#define MCP_BENCH_COMMON_H

#include <stdint.h>
#include "config.h"
#include "mcprice.h"

#define BENCH_FIXINGS 252

double bench_median(double *v, int n);

/* Sets the CPU backend's OpenMP threads to n (n > 0) and returns the count
 * in force before; 1 in a build without OpenMP. */
int bench_cpu_threads(int n);
/* One underlying (S 100, r 3%, q 1%, vol 25%) and an arithmetic Asian call
 * on BENCH_FIXINGS daily fixings over a year. */
void bench_asian_book(mcp_market **m, mcp_portfolio **p, uint64_t paths);
/* The mixed book: BENCH_MIXED_TRADES trades on BENCH_MIXED_UNDERLYINGS
 * Black-Scholes underlyings (Europeans, 12-fixing Asians, bridge barriers),
 * at paths paths (BENCH_MIXED_PATHS in the tables). */
#define BENCH_MIXED_UNDERLYINGS 50
#define BENCH_MIXED_TRADES 10000
#define BENCH_MIXED_PATHS 100000
mcp_status bench_mixed_book(mcp_market **m, mcp_portfolio **p, uint64_t paths);
/* Whether two results hold the same bits, trade by trade and in total. */
int bench_same_results(const mcp_results *a, const mcp_results *b);
/* Gives ctx the options o, which the setters' statuses st (0 each) built,
 * and frees o; exits on a refusal. */
void bench_use_options(mcp_context *ctx, mcp_run_options *o, mcp_status st);
/* Median seconds (mcp_results_seconds) of repeats pricings after warm
 * warm-up ones, at most 16, and the first trade's price; a negative number,
 * with the error on stderr after who, on failure. */
double bench_time_price(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p, int warm,
                        int repeats, double *price, const char *who);
/* The same with the Greeks of g (NULL: none), and the count of the first
 * trade's sensitivities into *nsens (when not NULL). */
double bench_time_greeks(mcp_context *ctx, const mcp_market *m, const mcp_portfolio *p,
                         const mcp_greeks *g, int warm, int repeats, double *price,
                         size_t *nsens, const char *who);

#ifdef MCP_HAVE_CUDA
#include <cuda_runtime_api.h>
float bench_event_ms(cudaEvent_t a, cudaEvent_t b);
/* Device-to-device copy of 1 GiB: bytes read plus written per second. */
double bench_copy_bandwidth(void);

#include "src/plan/plan.h"
/* The job's arrays copied to the device, as the path kernel reads them;
 * bench_device_view_free releases them. */
mcpi_job_view bench_device_view(const mcpi_job *j);
void bench_device_view_free(mcpi_job_view *v);
#endif

#endif
