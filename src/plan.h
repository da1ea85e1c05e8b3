/* plan.h: trades grouped into jobs that share simulated paths.
 * A job is one underlying, one time grid (the union of its trades' fixing
 * times and the run's extra grid) and at most MCPI_MAX_SCHEDULES distinct
 * fixing schedules; each job draws from its own random stream. */
#ifndef MCP_PLAN_H
#define MCP_PLAN_H

#include "market.h"
#include "portfolio.h"
#include "path.h"

typedef struct mcpi_job {
  const mcpi_underlying *u;
  uint64_t stream;   /* cuRAND seed of the job's normals */
  size_t nsteps;
  double *times, *drift, *vol;
  float *drift_f, *vol_f; /* drift and vol rounded, for float paths */
  uint32_t *fixmask;
  size_t ntrades;
  size_t *trade;     /* index of each trade in the portfolio */
  mcpi_payoff_spec *spec;
} mcpi_job;

typedef struct mcpi_plan {
  mcpi_job *jobs;
  size_t njobs;
  uint64_t paths;
} mcpi_plan;

/* Two event times closer than this (years) are the same grid point. */
#define MCPI_TIME_EPS 1e-10

mcp_status mcpi_plan_build(const mcp_market *m, const mcp_portfolio *p, mcpi_plan *plan,
                           char *err);
void mcpi_plan_free(mcpi_plan *plan);
/* The job as the path body sees it (host pointers). */
mcpi_job_view mcpi_job_host_view(const mcpi_job *j);

#endif
