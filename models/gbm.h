/* gbm.h: Black-Scholes geometric Brownian motion, simulated exactly in log-spot.
 *   log S(t+dt) = log S(t) + (r - q - sigma^2/2) dt + sigma sqrt(dt) Z
 * The host precomputes the per-step drift and volatility arrays once; the step
 * itself is shared by the CPU and GPU backends. */
#ifndef MCP_GBM_H
#define MCP_GBM_H

#include <math.h>
#include <stddef.h>

/* The step in either precision: log-spot, per-step drift and volatility, normal. */
#define MCPI_GBM_STEP(log_spot, drift, vol, z) ((log_spot) + ((drift) + (vol) * (z)))

/* Per-step coefficients on the grid 0 < times[0] < ... < times[n-1]. */
static inline void mcpi_gbm_coefficients(double rate, double dividend, double sigma,
                                         size_t n, const double *times, double *drift,
                                         double *vol)
{
  double prev = 0;
  for (size_t s = 0; s < n; s++) {
    double dt = times[s] - prev;
    drift[s] = (rate - dividend - 0.5 * sigma * sigma) * dt;
    vol[s] = sigma * sqrt(dt);
    prev = times[s];
  }
}

#endif
