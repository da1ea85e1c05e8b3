/* rng_curand.c: the canonical mapping drawn through cuRAND's generator API,
 * the reference for the backends' own Philox (rng.h). */
#include "models/rng.h"

curandStatus_t mcpi_rng_fill(curandGenerator_t g, uint64_t job_seed, size_t step0,
                             size_t nsteps, uint64_t p0, size_t n, double *z, size_t ld)
{
  curandStatus_t st = curandSetPseudoRandomGeneratorSeed(g, job_seed);
  for (size_t s = 0; s < nsteps && st == CURAND_STATUS_SUCCESS; s++)
    for (size_t i = 0, m; i < n && st == CURAND_STATUS_SUCCESS; i += m) {
      m = (size_t)(MCPI_RNG_WINDOW - (p0 + i) % MCPI_RNG_WINDOW); /* rest of the window */
      if (m > n - i)
        m = n - i;
      st = curandSetGeneratorOffset(g, mcpi_rng_offset(step0 + s, p0 + i));
      if (st == CURAND_STATUS_SUCCESS)
        st = curandGenerateNormalDouble(g, z + s * ld + i, m, 0.0, 1.0);
    }
  return st;
}
