/* merton.h: the jump part of a Merton (1976) step, in precision MCPI_REAL;
 * included once per precision by path_body.h (no include guard).  A step of
 * length dt draws N ~ Poisson(lambda dt) by inverting its distribution at
 * U = Phi(z), then the sum of N normal log-jumps as N mu + sqrt(N) delta z'
 * (exact in law).  The diffusion part is the GBM step, whose drift carries the
 * compensator -lambda (e^{mu + delta^2/2} - 1) dt. */

/* Inverse Poisson distribution function at u; the planner keeps
 * mean = lambda dt at most MCPI_MAX_JUMP_MEAN, so that e^{-mean} stays normal
 * in float and the sum converges well within the cap. */
MCP_HD static inline MCPI_REAL MCPI_P(mcpi_poisson_inverse)(MCPI_REAL u, MCPI_REAL mean)
{
  MCPI_REAL p = MCPI_EXP(-mean), c = p;
  int n = 0;
  /* stop once the terms no longer move c: rounding may keep c below a u near 1 */
  while (u > c && n < 256 && p > (MCPI_REAL)1e-17 * c) {
    n++;
    p *= mean / (MCPI_REAL)n;
    c += p;
  }
  return (MCPI_REAL)n;
}
