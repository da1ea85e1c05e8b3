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
 * same whatever the tile size, block size or device.  Neither backend calls
 * the generator: both compute the Philox blocks and the Box-Muller transform
 * themselves (mcpi_rng_pair_block, mcpi_rng_box_muller), the CPU a chunk of
 * paths at a time (mcpi_rng_fill_host), the GPU in kernels/rng_kernel.cu and the fused
 * path kernels.  mcpi_rng_fill, through the generator API, is the reference
 * the tests hold them to, where cuRAND is present. */
#ifndef MCP_RNG_H
#define MCP_RNG_H

#include <stddef.h>
#include <math.h>
#include <stdint.h>
#if defined MCP_HAVE_CURAND || defined __CUDACC__
#include <curand.h>
#endif
#include "models/mcp_hd.h"
#include "models/mcp_dmath.h"

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

/* Philox4x32-10 (Salmon et al., SC11) as cuRAND computes it: the 128-bit
 * counter c[0..3] (least significant word first) under the 64-bit key. */
#define MCPI_PHILOX_M0 0xD2511F53u
#define MCPI_PHILOX_M1 0xCD9E8D57u
#define MCPI_PHILOX_W0 0x9E3779B9u
#define MCPI_PHILOX_W1 0xBB67AE85u
/* One round on the four words, in place, under the round's key words. */
MCP_HD static inline void mcpi_philox_round(uint32_t *c0, uint32_t *c1, uint32_t *c2,
                                            uint32_t *c3, uint32_t k0, uint32_t k1)
{
#ifdef __CUDA_ARCH__
  /* the high and low words apart: nvcc 13.0 turns the 64-bit product into
   * a wide multiply plus an add of zero to its high word (sm_90 SASS) */
  uint32_t h0 = __umulhi(MCPI_PHILOX_M0, *c0), l0 = MCPI_PHILOX_M0 * *c0;
  uint32_t h1 = __umulhi(MCPI_PHILOX_M1, *c2), l1 = MCPI_PHILOX_M1 * *c2;
#else
  uint64_t p0 = (uint64_t)MCPI_PHILOX_M0 * *c0, p1 = (uint64_t)MCPI_PHILOX_M1 * *c2;
  uint32_t h0 = (uint32_t)(p0 >> 32), l0 = (uint32_t)p0;
  uint32_t h1 = (uint32_t)(p1 >> 32), l1 = (uint32_t)p1;
#endif
  *c0 = h1 ^ *c1 ^ k0;
  *c1 = l1;
  *c2 = h0 ^ *c3 ^ k1;
  *c3 = l0;
}

MCP_HD static inline void mcpi_philox(uint32_t c[4], uint64_t key)
{
  uint32_t k0 = (uint32_t)key, k1 = (uint32_t)(key >> 32);
  for (int r = 0; r < 10; r++) {
    mcpi_philox_round(&c[0], &c[1], &c[2], &c[3], k0, k1);
    k0 += MCPI_PHILOX_W0;
    k1 += MCPI_PHILOX_W1;
  }
}

/* The Philox block of the canonical mapping's pair of paths p and p + 1 (p
 * even) at step s: curand_init(job_seed, subsequence(k), 4 counter(k)) for
 * k = mcpi_rng_offset(s, p) puts the subsequence in the counter's high 64
 * bits and counter(k) in its low ones; curand_normal2_double then transforms
 * the block at that counter.  ctr and sub as mcpi_rng_block_at gives them. */
MCP_HD static inline void mcpi_rng_block(uint64_t job_seed, uint64_t ctr, uint32_t sub,
                                         uint32_t c[4])
{
  c[0] = (uint32_t)ctr;
  c[1] = (uint32_t)(ctr >> 32);
  c[2] = sub;
  c[3] = 0;
  mcpi_philox(c, job_seed);
}

/* The counter and subsequence of the pair of paths p, p + 1 at step s; the
 * same pair at step s + d is at counter + d 2^24 (mcpi_rng_offset). */
MCP_HD static inline void mcpi_rng_block_at(uint64_t s, uint64_t p, uint64_t *ctr, uint32_t *sub)
{
  uint64_t k = mcpi_rng_offset(s, p);
  *ctr = mcpi_rng_counter(k);
  *sub = (uint32_t)mcpi_rng_subsequence(k);
}
#define MCPI_RNG_STEP_COUNTER (UINT64_C(1) << (42 - MCPI_RNG_WINDOW_LOG2))

/* x < 2^53 as a double, exactly: on the host from its two halves by the
 * exponent trick, integer and floating-point operations that AVX2 has in
 * vectors (it has no 64-bit integer conversion). */
MCP_HD static inline double mcpi_rng_u53(uint64_t x)
{
#ifdef __CUDA_ARCH__
  return (double)x;
#else
  const uint64_t two52 = UINT64_C(0x4330000000000000); /* 2^52 */
  return (mcpi_dfrom_bits(two52 | (x >> 26)) - 0x1p52) * 0x1p26 +
         (mcpi_dfrom_bits(two52 | (x & 0x3ffffff)) - 0x1p52);
#endif
}

/* The transform of the uniforms u in (0, 1) and v in (0, 2]. */
MCP_HD static inline void mcpi_rng_box_muller_uv(double u, double v, double *z0, double *z1)
{
#if defined __CUDA_ARCH__ && defined MCPI_RNG_CUDA_MATH
  /* CUDA's functions instead, to compare (NVCCFLAGS=-DMCPI_RNG_CUDA_MATH) */
  double r = sqrt(-2.0 * log(u));
  sincospi(v, z0, z1);
#else
  /* the polynomials alone (u is normal and v in (0, 2], inside their
   * ranges: no fallback branch on the device), on the host too, so that host
   * and device normals are the same bits */
  double r = sqrt(-2.0 * mcpi_dlog_poly(u));
  mcpi_dsincospi_poly(v, z0, z1);
#endif
  *z0 *= r;
  *z1 *= r;
}

#define MCPI_RNG_INV53 (1.0 / 9007199254740992.0) /* 2^-53 */

/* The transform of the block's two 53-bit integers, xu = c0 ^ (c1 << 21)
 * and xv = c2 ^ (c3 << 21) (the host's batches: 64-bit lanes only). */
MCP_HD static inline void mcpi_rng_box_muller_53(uint64_t xu, uint64_t xv, double *z0,
                                                 double *z1)
{
  mcpi_rng_box_muller_uv(mcpi_rng_u53(xu) * MCPI_RNG_INV53 + MCPI_RNG_INV53 / 2,
                         mcpi_rng_u53(xv) * (MCPI_RNG_INV53 * 2) + MCPI_RNG_INV53, z0, z1);
}

/* cuRAND's double Box-Muller of a block: 53 bits of each uniform from two
 * words; the logarithm, sine and cosine by the polynomials of mcp_dmath.h,
 * on the host as on the GPU (the same correctly rounded operations: the same
 * bits), which cuRAND's own generator matches to a few ulp. */
MCP_HD static inline void mcpi_rng_box_muller_words(uint32_t c0, uint32_t c1, uint32_t c2,
                                                    uint32_t c3, double *z0, double *z1)
{
  const double inv53 = MCPI_RNG_INV53;
  double u = (double)(c0 ^ ((uint64_t)c1 << 21)) * inv53 + inv53 / 2;
  double v = (double)(c2 ^ ((uint64_t)c3 << 21)) * (inv53 * 2) + inv53;
  mcpi_rng_box_muller_uv(u, v, z0, z1);
}

MCP_HD static inline void mcpi_rng_box_muller(const uint32_t c[4], double out[2])
{
  mcpi_rng_box_muller_words(c[0], c[1], c[2], c[3], &out[0], &out[1]);
}

/* The Philox block of the double mapping's pair of paths p, p + 1 (p even)
 * at step s. */
MCP_HD static inline void mcpi_rng_pair_block(uint64_t job_seed, uint64_t s, uint64_t p,
                                              uint32_t c[4])
{
  uint64_t ctr;
  uint32_t sub;
  mcpi_rng_block_at(s, p, &ctr, &sub);
  mcpi_rng_block(job_seed, ctr, sub, c);
}

/* Float paths have a mapping of their own, four normals a Philox block as
 * cuRAND's float generators draw them (two Box-Muller pairs on 32-bit
 * uniforms), which halves the Philox work that bounds a float path kernel
 * (bench/RESULTS.md): the normal of path p at element s is component s mod 4
 * of the float transform of the block that the double mapping gives pair
 * p & ~1 at step 2 floor(s / 4) + (p & 1).  Each block serves one path and
 * four consecutive elements, so a thread computes its own path's normals.
 * Float and double prices of one book therefore draw different numbers and
 * agree within their standard errors, not to rounding. */
MCP_HD static inline void mcpi_rng_quad_block(uint64_t job_seed, uint64_t s, uint64_t p,
                                              uint32_t c[4])
{
  mcpi_rng_pair_block(job_seed, 2 * (s >> 2) + (p & 1), p & ~UINT64_C(1), c);
}

/* The float Box-Muller pair of two words: u = (x + 1/2) 2^-32 in (0, 1) and
 * v = (y + 1/2) 2^-31 in (0, 2), radius sqrt(-2 log u), angle pi v.  For u
 * within 1/16 of 1, where u rounded to float (or a logarithm accurate to
 * 2^-21 absolute) would lose the distance w = 1 - u that the radius grows
 * from, -log u is the series of -log(1 - w) in w, w from the integer.  The
 * GPU takes the logarithm, sine and cosine by its hardware approximations
 * (errors near 2^-21, below the angle's own rounding; the sine and cosine of
 * pi v from those of pi (v - 1), in [-pi, pi), where they are accurate), the
 * host by mcp_dmath.h's polynomials in double (no library call, so that the
 * host's batches of blocks run it in vectors): the two agree to about
 * 1e-6 (1 + |z|), which moves float prices by ~1e-7 of their value. */
MCP_HD static inline void mcpi_rng_box_muller_f(uint32_t x, uint32_t y, float *z0, float *z1)
{
  const float inv32 = 1.0f / 4294967296.0f;
  float u = fmaf((float)x, inv32, inv32 / 2);
  float w = fmaf((float)~x, inv32, inv32 / 2); /* (2^32 - 1 - x + 1/2) 2^-32 */
  float v = fmaf((float)y, inv32 * 2, inv32);
  float series = 0.125f; /* w + w^2 / 2 + ... + w^8 / 8, to 2e-9 relative for w < 1/16 */
  MCP_UNROLL
  for (int k = 7; k >= 1; k--)
    series = fmaf(series, w, 1.0f / (float)k);
  series *= w;
#ifdef __CUDA_ARCH__
  /* .ftz here and at the root: u >= 2^-33 and 2 l >= 2^-32 are normal, so
   * the results are __logf's and rsqrtf's without their denormal handling */
  float lg;
  asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(lg) : "f"(u));
  float l = w < 0.0625f ? series : lg * -0x1.62e430p-1f, sn, cs;
  __sincosf((v - 1.0f) * 3.14159265f, &sn, &cs);
  sn = -sn, cs = -cs;
#else
  float lg = (float)-mcpi_dlog_poly((double)u); /* both sides: a select, in vectors */
  float l = w < 0.0625f ? series : lg;
  double sd, cd;
  mcpi_dsincospi_poly((double)v, &sd, &cd);
  float sn = (float)sd, cs = (float)cd;
#endif
#ifdef __CUDA_ARCH__
  float rs;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(rs) : "f"(2.0f * l));
  float r = 2.0f * l * rs; /* l > 0: w >= 2^-33, u <= 15/16 */
#else
  float r = sqrtf(2.0f * l);
#endif
  *z0 = sn * r;
  *z1 = cs * r;
}

/* The four float normals of a block, elements 4 g .. 4 g + 3 of its path. */
MCP_HD static inline void mcpi_rng_transform_f(const uint32_t c[4], float out[4])
{
  mcpi_rng_box_muller_f(c[0], c[1], &out[0], &out[1]);
  mcpi_rng_box_muller_f(c[2], c[3], &out[2], &out[3]);
}

/* The mixed precision's normals (mcp_precision): the double mapping's pair
 * from its block, each through the float transform of its uniforms' top 32
 * bits.  The double uniform's 53-bit integer c0 ^ (c1 << 21) has top bits
 * c1 ^ (c0 >> 21); so u and v move by at most 2^-33 and 2^-32, and the pair
 * is the double one's within the float transform's error. */
MCP_HD static inline uint32_t mcpi_rng_top32(uint32_t lo, uint32_t hi) { return hi ^ (lo >> 21); }

MCP_HD static inline void mcpi_rng_mixed_f(const uint32_t c[4], float out[2])
{
  mcpi_rng_box_muller_f(mcpi_rng_top32(c[0], c[1]), mcpi_rng_top32(c[2], c[3]), &out[0],
                        &out[1]);
}

MCP_HD static inline void mcpi_rng_box_muller_mixed(const uint32_t c[4], double out[2])
{
  float f[2];
  mcpi_rng_mixed_f(c, f);
  out[0] = f[0];
  out[1] = f[1];
}

/* The float normal of path p at element s (for the tests). */
MCP_HD static inline float mcpi_rng_normal_f(uint64_t job_seed, uint64_t s, uint64_t p)
{
  uint32_t c[4];
  float z[4];
  mcpi_rng_quad_block(job_seed, s, p, c);
  mcpi_rng_transform_f(c, z);
  return z[s & 3];
}

/* The two double normals of the canonical mapping at step s of paths p and
 * p + 1 (p even), out[0] and out[1]: what the cuRAND generator returns at
 * those offsets (rng.c). */
MCP_HD static inline void mcpi_rng_pair(uint64_t job_seed, uint64_t s, uint64_t p, double out[2])
{
  uint32_t c[4];
  mcpi_rng_pair_block(job_seed, s, p, c);
  mcpi_rng_box_muller(c, out);
}

/* Fills z[(s - step0) ld + i] = normal(step s, path p0 + i) for steps
 * step0 <= s < step0 + nsteps and i < n, on the host: the double mapping, or
 * the float one into zf when z is NULL. */
void mcpi_rng_fill_host(uint64_t job_seed, size_t step0, size_t nsteps, uint64_t p0, size_t n,
                        double *z, float *zf, size_t ld);
/* The same in a run's precision: the double mapping into z (double), its
 * mixed transform (mixed), or the float mapping (float, z a float array). */
void mcpi_rng_fill_host_in(int precision, uint64_t job_seed, size_t step0, size_t nsteps,
                           uint64_t p0, size_t n, void *z, size_t ld);

/* The host copies of mcpi_rng_fill_host: 0 plain C, 1 AVX2 and FMA, 2
 * AVX-512; the fastest the processor has is used, up to cap (for the tests,
 * which hold them to the same bits).  Returns the previous cap. */
#define MCPI_RNG_COPIES 3
int mcpi_rng_host_copy(int cap);
/* The copy this host runs (0, 1 or 2, under the cap), for every function
 * built in such copies (mcpi_exp_lanes too); their target attributes: */
int mcpi_host_copy(void);
#define MCPI_ISA_AVX512 "avx512f,avx512dq,avx512vl,fma"
#define MCPI_ISA_AVX2 "avx2,fma"

/* y[i] = e^x[i], i < n, by mcp_dmath.h's polynomial where |x| < 700 (the
 * GPU's exp, the same bits in every copy) and the C library's elsewhere, in
 * copy (mcpi_host_copy): the CPU's fixings a group of paths at a time, in
 * vectors. */
void mcpi_exp_lanes(int copy, const double *x, double *y, size_t n);

#if defined MCP_HAVE_CURAND || defined __CUDACC__
/* The same with a cuRAND generator (host or device) of type
 * CURAND_RNG_PSEUDO_PHILOX4_32_10, the reference: the device generator needs
 * n and p0 even (window pieces then stay even). */
curandStatus_t mcpi_rng_fill(curandGenerator_t g, uint64_t job_seed, size_t step0,
                             size_t nsteps, uint64_t p0, size_t n, double *z, size_t ld);
#endif

#endif
