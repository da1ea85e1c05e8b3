/* pde_operator.h: the Black-Scholes operator in log-spot on a uniform grid,
 * shared by the CPU and GPU finite-difference backends (gcc and nvcc).
 *
 * With tau the time to maturity and x = log S, a price V(tau, x) solves
 *   dV/dtau = a V_xx + mu V_x - c V,
 *   a = sigma^2 / 2,  mu = r - q - sigma^2 / 2,  c = r,
 * whose coefficients depend on time only, so the discrete operator is one
 * stencil of 2 R + 1 weights on the whole grid: central differences of
 * second order (R = 1) or fourth order (R = 2). */
#ifndef MCP_PDE_OPERATOR_H
#define MCP_PDE_OPERATOR_H

#include "models/mcp_hd.h"

#define MCPI_PDE_MAX_RADIUS 2
#define MCPI_PDE_MAX_TAPS (2 * MCPI_PDE_MAX_RADIUS + 1)

/* op[0 .. 2R] = the operator's weights on V[j - R .. j + R], grid step h. */
MCP_HD static inline void mcpi_bs_operator(int R, double a, double mu, double c, double h,
                                           double *op)
{
  double h2 = h * h;
  if (R == 1) {
    op[0] = a / h2 - mu / (2 * h);
    op[1] = -2 * a / h2 - c;
    op[2] = a / h2 + mu / (2 * h);
  } else {
    double d2 = a / (12 * h2), d1 = mu / (12 * h);
    op[0] = -d2 + d1;
    op[1] = 16 * d2 - 8 * d1;
    op[2] = -30 * d2 - c;
    op[3] = 16 * d2 + 8 * d1;
    op[4] = -d2 - d1;
  }
}

/* The two halves of a theta step of length dt: the explicit weights
 * e = I + (1 - theta) dt L and the implicit band m = I - theta dt L. */
MCP_HD static inline void mcpi_theta_weights(int R, const double *op, double theta, double dt,
                                             double *e, double *m)
{
  MCP_UNROLL
  for (int d = 0; d <= 2 * R; d++) {
    double id = d == R ? 1.0 : 0.0;
    e[d] = id + (1 - theta) * dt * op[d];
    m[d] = id - theta * dt * op[d];
  }
}

/* The largest explicit step that keeps every Fourier mode's amplification
 * below one, with a margin of two: the diffusion's symbol reaches 4/h^2
 * (R = 1) or 16/(3 h^2) (R = 2), and the drift asks dt < 2 a / mu^2. */
static inline double mcpi_explicit_dt_max(int R, double a, double mu, double c, double h)
{
  double rho = a * (R == 1 ? 4.0 : 16.0 / 3.0) / (h * h) + (c > 0 ? c : -c);
  double dt = 1.0 / rho;
  if (mu != 0 && a / (mu * mu) < dt)
    dt = a / (mu * mu);
  return dt;
}

#endif
