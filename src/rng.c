/* rng.c: job seeds and tile filling through the cuRAND generator API. */
#include "rng.h"

/* splitmix64 finaliser: well-mixed seeds from structured inputs */
static uint64_t mix(uint64_t x)
{
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

uint64_t mcpi_rng_job_seed(uint64_t seed, const char *underlying, unsigned ordinal)
{
  uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a of the name */
  for (const unsigned char *c = (const unsigned char *)underlying; *c; c++)
    h = (h ^ *c) * UINT64_C(0x100000001b3);
  return mix(mix(seed) ^ mix(h + ordinal));
}

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
