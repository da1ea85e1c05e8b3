/* lsm_cpu.h: the Longstaff-Schwartz fit on the CPU. */
#ifndef MCP_LSM_CPU_H
#define MCP_LSM_CPU_H

#include "src/exec/context.h"
#include "src/plan/plan.h"

/* Fits j's table (lsm.h) on its regression paths, the job seen through view
 * (host pointers); errors to ctx.  A cancellation (mcp_context_cancel)
 * skips the paths not yet started, and the dates. */
mcp_status mcpi_lsm_fit_cpu(const mcpi_job_view *view, mcpi_job *j, mcp_context *ctx);

#endif
