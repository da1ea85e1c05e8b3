/* path.h: one Monte Carlo path of a job, the body shared by the CPU loop and the
 * CUDA path kernel.  The normals of the path are z[0], z[ldz], z[2 ldz], ...
 * (step-major tiles); it writes the discounted payoff of trade t to pay[t ldp]
 * and the book value (sum of quantity x payoff) to pay[ntrades ldp]. */
#ifndef MCP_PATH_H
#define MCP_PATH_H

#include <stddef.h>
#include "gbm.h"
#include "payoff.h"

typedef struct mcpi_job_view {
  double log_spot;
  int32_t nsteps, ntrades;
  const double *drift, *vol; /* per-step GBM coefficients */
  const uint32_t *fixmask;   /* per step: bit k set when schedule k fixes there */
  const mcpi_payoff_spec *trades;
} mcpi_job_view;

MCP_HD static inline void mcpi_path(const mcpi_job_view *j, const double *z, size_t ldz,
                                    double *pay, size_t ldp)
{
  double spot_sum[MCPI_MAX_SCHEDULES], log_sum[MCPI_MAX_SCHEDULES];
  MCP_UNROLL
  for (int k = 0; k < MCPI_MAX_SCHEDULES; k++)
    spot_sum[k] = log_sum[k] = 0;
  double log_spot = j->log_spot;
  for (int s = 0; s < j->nsteps; s++) {
    log_spot = mcpi_gbm_step(log_spot, j->drift[s], j->vol[s], z[(size_t)s * ldz]);
    uint32_t mask = j->fixmask[s];
    if (mask) {
      double spot = exp(log_spot);
      MCP_UNROLL
      for (int k = 0; k < MCPI_MAX_SCHEDULES; k++)
        if (mask >> k & 1u) {
          spot_sum[k] += spot;
          log_sum[k] += log_spot;
        }
    }
  }
  double book = 0;
  for (int t = 0; t < j->ntrades; t++) {
    const mcpi_payoff_spec *p = &j->trades[t];
    double a = 0, l = 0;
    MCP_UNROLL
    for (int k = 0; k < MCPI_MAX_SCHEDULES; k++)
      if (k == p->schedule) {
        a = spot_sum[k];
        l = log_sum[k];
      }
    double v = p->discount * mcpi_payoff(p, a, l);
    pay[(size_t)t * ldp] = v;
    book += p->quantity * v;
  }
  pay[(size_t)j->ntrades * ldp] = book;
}

#endif
