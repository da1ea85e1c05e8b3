/* lsm_cpu.h: the Longstaff-Schwartz fit on the CPU. */
#ifndef MCP_LSM_CPU_H
#define MCP_LSM_CPU_H

#include "src/plan/plan.h"

/* Fits j's table (lsm.h) on its regression paths, the job seen through view
 * (host pointers). */
mcp_status mcpi_lsm_fit_cpu(const mcpi_job_view *view, mcpi_job *j, char *err);

#endif
