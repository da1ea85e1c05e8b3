/* rng.h: the canonical mapping from (job, step, path) to cuRAND's sequence.
 *
 * Each job has its own Philox4x32-10 seed, derived from the run's seed and the
 * job's key.  What cuRAND's generator API returns after
 * curandSetGeneratorOffset(k) (measured, host and device generators alike, on
 * CUDA 13.0): the double normal at offset k comes from Philox subsequence
 * (k / 4) mod 2^16 at counter floor(k / 2^18) + (k mod 4) / 2, component
 * k mod 2 of curand_normal2_double; one generate call follows offsets k + i
 * only for the first 2^18 values past an aligned multiple of 2^18.  Offsets
 * are therefore not distinct numbers: the window [2^18 R, 2^18 (R + 1)) uses
 * counters R and R + 1, and offset 2 repeats offset 2^18.
 *
 * The mapping uses even windows only, which are disjoint: path p at step s is
 * offset s 2^42 + 2^19 floor(p / 2^18) + (p mod 2^18), for p < 2^40 and
 * s < 2^22.  A tile of paths at one step is then a few windowed slices, the
 * same whatever the tile size, block size or device; the CPU reads them with
 * the host generator (mcpi_rng_fill), the GPU computes the same Philox states
 * directly with cuRAND's device API (kernels/rng_kernel.cu). */
#ifndef MCP_RNG_H
#define MCP_RNG_H

#include <stddef.h>
#include <stdint.h>
#include <curand.h>
#include "mcp_hd.h"

#define MCPI_RNG_WINDOW_LOG2 18
#define MCPI_RNG_WINDOW (UINT64_C(1) << MCPI_RNG_WINDOW_LOG2)
#define MCPI_RNG_MAX_STEPS (UINT64_C(1) << 22)
#define MCPI_RNG_MAX_PATHS (UINT64_C(1) << 40)

uint64_t mcpi_rng_job_seed(uint64_t seed, const char *underlying, unsigned ordinal);

MCP_HD static inline uint64_t mcpi_rng_offset(uint64_t step, uint64_t path)
{
  return (step << 42) + ((path >> MCPI_RNG_WINDOW_LOG2) << (MCPI_RNG_WINDOW_LOG2 + 1)) +
         (path & (MCPI_RNG_WINDOW - 1));
}

/* The Philox subsequence and counter behind generator offset k (see above). */
MCP_HD static inline uint64_t mcpi_rng_subsequence(uint64_t k) { return (k >> 2) & 0xffff; }
MCP_HD static inline uint64_t mcpi_rng_counter(uint64_t k)
{
  return (k >> MCPI_RNG_WINDOW_LOG2) + ((k & 3) >> 1);
}

/* Fills z[(s - step0) ld + i] = normal(step s, path p0 + i) for steps
 * step0 <= s < step0 + nsteps and i < n, with a generator (host or device) of
 * type CURAND_RNG_PSEUDO_PHILOX4_32_10; the device generator needs n and p0
 * even (window pieces then stay even). */
curandStatus_t mcpi_rng_fill(curandGenerator_t g, uint64_t job_seed, size_t step0,
                             size_t nsteps, uint64_t p0, size_t n, double *z, size_t ld);

#endif
