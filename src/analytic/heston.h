/* heston.h: European options under Heston (1993) by Fourier inversion.
 *   X = log(S_T / F), F the forward; with w = 1/2 + iu (the contour
 *   Im z = -1/2 of Lewis 2001, on which w (1 - w) = u^2 + 1/4 is real),
 *   beta = kappa - rho xi w, d = sqrt(beta^2 + xi^2 (u^2 + 1/4)),
 *   g = (beta - d) / (beta + d), E[e^{wX}] = exp(C + D v0) with
 *     D = (beta - d) / xi^2 (1 - e^{-dT}) / (1 - g e^{-dT}),
 *     C = kappa theta [(beta - d) / xi^2 T - 2 / xi^2 log((1 - g e^{-dT}) / (1 - g))],
 *   the form of Albrecher, Mayer, Schoutens and Tistaert (2007, "The little
 *   Heston trap"), on the principal branch at every maturity; beta - d is
 *   formed as -xi^2 (u^2 + 1/4) / (beta + d) and the logarithm as a log1p,
 *   so that nothing cancels for a small xi.
 *   With k = log(F / K) and phi(u) = E[e^{wX}], the undiscounted call is
 *     C = F - sqrt(F K) / pi I0,    I0 = int_0^inf Re(e^{iuk} phi) / (u^2 + 1/4) du,
 *   and its derivatives in F
 *     dC/dF = 1 - sqrt(K / F) / pi I1,        I1 = int Re(e^{iuk} phi / (1/2 - iu)) du,
 *     d2C/dF2 = sqrt(K) F^{-3/2} / pi I2,     I2 = int Re(e^{iuk} phi) du. */
#ifndef MCP_ANALYTIC_HESTON_H
#define MCP_ANALYTIC_HESTON_H

#include <stddef.h>
#include "src/analytic/analytic.h"

typedef struct mcpi_heston_params {
  double v0, kappa, theta, xi, rho;
} mcpi_heston_params;
#define MCPI_HESTON_PARAMS 5 /* in that order */

/* The calls of n strikes (> 0) at maturity T > 0 into out[0..n), to about
 * 1e-13 of fwd, and when grad is not NULL their derivatives in v0, kappa,
 * theta, xi and rho into grad[5 i .. 5 i + 4] (phi's gradient carried
 * through the same integral): one set of characteristic-function values
 * serves every strike.  MCP_ERR_INPUT, with why in err, where the integrals
 * do not converge (a distribution too narrow to resolve: T v0 and T theta
 * near 0). */
mcp_status mcpi_heston_calls(const mcpi_heston_params *h, double T, double fwd, size_t n,
                             const double *strikes, mcpi_fwd_call *out, double *grad,
                             char *err);

#endif
