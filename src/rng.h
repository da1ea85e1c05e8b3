/* rng.h: the canonical mapping from (job, step, path) to cuRAND's sequence.
 * Each job has its own Philox4x32-10 seed, derived from the run's seed and
 * the job's key; the normal of path p at step s is element s * 2^40 + p of
 * that seed's normal sequence.  A tile of paths [p0, p0 + n) at step s is then
 * one contiguous slice, whatever the tile size, block size or device, and the
 * CPU (host generator) and GPU (device generator) read the same slice.
 *
 * One generate call returns elements offset + i of the sequence only for
 * i < 2^18 (past that the generator interleaves its internal subsequences, on
 * the host and the device alike), so a fill never asks one call for more than
 * the rest of an aligned window of 2^18 elements.  Each new offset costs the
 * host generator about 8 ms (it re-seeds its internal states), so the CPU
 * backend fills whole windows where it can. */
#ifndef MCP_RNG_H
#define MCP_RNG_H

#include <stddef.h>
#include <stdint.h>
#include <curand.h>

#define MCPI_RNG_STEP_STRIDE (UINT64_C(1) << 40)
#define MCPI_RNG_WINDOW (UINT64_C(1) << 18)

uint64_t mcpi_rng_job_seed(uint64_t seed, const char *underlying, unsigned ordinal);

static inline uint64_t mcpi_rng_offset(size_t step, uint64_t path)
{
  return (uint64_t)step * MCPI_RNG_STEP_STRIDE + path;
}

/* Fills z[(s - step0) ld + i] = normal(step s, path p0 + i) for steps
 * step0 <= s < step0 + nsteps and i < n, with a generator (host or device) of
 * type CURAND_RNG_PSEUDO_PHILOX4_32_10; the device generator needs n even
 * and p0 even (window pieces then stay even). */
curandStatus_t mcpi_rng_fill(curandGenerator_t g, uint64_t job_seed, size_t step0,
                             size_t nsteps, uint64_t p0, size_t n, double *z, size_t ld);

#endif
