/* backend.h: what the CPU and CUDA backends compute for a planned run. */
#ifndef MCP_BACKEND_H
#define MCP_BACKEND_H

#include "context.h"
#include "plan.h"
#include "prefetch.h"
#include "stats.h"

typedef struct mcpi_run {
  const mcpi_plan *plan;
  mcp_context *ctx;  /* tile and block sizes, device, progress; errors go to ctx->err */
  mcpi_accum **acc;  /* acc[job][col]: one column a trade of the job, then the book */
  mcpi_kernel_options kopt; /* precision (both backends); strategy, block (GPU) */
  int grid;                 /* GPU: blocks of the path kernel, a whole wave */
  double work_done, work_total; /* path-steps, for progress */
} mcpi_run;

mcp_status mcpi_cpu_price(mcpi_run *run);
mcp_status mcpi_cuda_price(mcpi_run *run);

/* Reports progress after a tile of n paths of job j. */
void mcpi_run_progress(mcpi_run *run, const mcpi_job *j, uint64_t n);

#endif
