/* gbm.h: Black-Scholes geometric Brownian motion, simulated exactly in log-spot.
 *   log S(t+dt) = log S(t) + (r - q - sigma^2/2) dt + sigma sqrt(dt) Z
 * The host integrates the piecewise-constant rate, dividend and volatility
 * curves over each step once (coefficients.c); the step itself is shared by
 * the CPU and GPU backends, and is also the diffusion part of Merton's model. */
#ifndef MCP_GBM_H
#define MCP_GBM_H

/* The step in either precision: log-spot, per-step drift and volatility, normal. */
#define MCPI_GBM_STEP(log_spot, drift, vol, z) ((log_spot) + ((drift) + (vol) * (z)))

#endif
