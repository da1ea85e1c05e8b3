/* path.h: one Monte Carlo path of a job, the body shared by the CPU loop and the
 * CUDA path kernels, in double and in float (path_body.h, included once per
 * precision).  A path is init, one step per simulation date, finish: the GPU's
 * prefetch strategies differ only in how a step's inputs reach registers.
 * The normals of a path are z[0], z[ldz], z[2 ldz], ... (step-major tiles); it
 * writes the discounted payoff of trade t to pay[t ldp] and the book value
 * (sum of quantity x payoff) to pay[ntrades ldp], in double either way. */
#ifndef MCP_PATH_H
#define MCP_PATH_H

#include <stddef.h>
#include "gbm.h"
#include "payoff.h"

typedef struct mcpi_job_view {
  double log_spot;
  int32_t nsteps, ntrades;
  const double *drift, *vol;    /* per-step GBM coefficients, double */
  const float *drift_f, *vol_f; /* the same, rounded to float */
  const uint32_t *fixmask;      /* per step: bit k set when schedule k fixes there */
  const mcpi_payoff_spec *trades;
} mcpi_job_view;

/* Payoffs from the schedules' sums (in double: once a path), then the book. */
MCP_HD static inline void mcpi_path_payoffs(const mcpi_job_view *j, const double *spot_sum,
                                            const double *log_sum, double *pay, size_t ldp)
{
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

#define MCPI_REAL double
#define MCPI_EXP exp
#define MCPI_P(name) name
#define MCPI_COEF(name) name
#include "path_body.h"
#undef MCPI_REAL
#undef MCPI_EXP
#undef MCPI_P
#undef MCPI_COEF

#define MCPI_REAL float
#define MCPI_EXP expf
#define MCPI_P(name) name##_f
#define MCPI_COEF(name) name##_f
#include "path_body.h"
#undef MCPI_REAL
#undef MCPI_EXP
#undef MCPI_P
#undef MCPI_COEF

#endif
