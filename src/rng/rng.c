/* rng.c: job seeds, and the host's tiles of canonical normals (rng.h). */
#include "models/rng.h"
#include "mcprice.h"

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

enum { BATCH = 64 }; /* pairs of paths a batch */

/* mcpi_philox on the batch's blocks, a round across them at a time. */
static inline void rounds(uint32_t *c0, uint32_t *c1, uint32_t *c2, uint32_t *c3, uint64_t seed)
{
  uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
  for (int r = 0; r < 10; r++) {
#pragma omp simd
    for (size_t j = 0; j < BATCH; j++)
      mcpi_philox_round(&c0[j], &c1[j], &c2[j], &c3[j], k0, k1);
    k0 += MCPI_PHILOX_W0;
    k1 += MCPI_PHILOX_W1;
  }
}

#if defined __x86_64__ && defined __GNUC__
#include <immintrin.h>
/* The same rounds with the words in 64-bit lanes, where the processor's
 * multiply of the lanes' low halves gives each 64-bit product in one
 * instruction (gcc 12 widens rounds() to 64-bit multiplies of three micro-
 * operations each, plus shuffles).  Between rounds the lanes' high halves
 * hold what the multiply ignores; the stores keep the low ones. */
#define PHILOX_LANES(vec, n, load, store, mul, srl, xor3, set1)                            \
  vec key0[10], key1[10];                                                                   \
  for (int r = 0; r < 10; r++) {                                                            \
    key0[r] = set1((uint32_t)seed + (uint32_t)r * MCPI_PHILOX_W0);                          \
    key1[r] = set1((uint32_t)(seed >> 32) + (uint32_t)r * MCPI_PHILOX_W1);                  \
  }                                                                                         \
  const vec m0 = set1(MCPI_PHILOX_M0), m1 = set1(MCPI_PHILOX_M1);                          \
  for (size_t j = 0; j < BATCH; j += 4 * n) { /* four vectors: the multiplies overlap */     \
    vec a0[4], a1[4], a2[4], a3[4];                                                         \
    for (int u = 0; u < 4; u++) {                                                           \
      a0[u] = load(c0 + j + u * n), a1[u] = load(c1 + j + u * n);                           \
      a2[u] = load(c2 + j + u * n), a3[u] = load(c3 + j + u * n);                           \
    }                                                                                       \
    _Pragma("GCC unroll 10") for (int r = 0; r < 10; r++)                                   \
    _Pragma("GCC unroll 4") for (int u = 0; u < 4; u++)                                     \
    {                                                                                       \
      vec p0 = mul(a0[u], m0), p1 = mul(a2[u], m1);                                         \
      a0[u] = xor3(srl(p1, 32), a1[u], key0[r]);                                            \
      a2[u] = xor3(srl(p0, 32), a3[u], key1[r]);                                            \
      a1[u] = p1;                                                                           \
      a3[u] = p0;                                                                           \
    }                                                                                       \
    for (int u = 0; u < 4; u++) {                                                           \
      store(c0 + j + u * n, a0[u]), store(c1 + j + u * n, a1[u]);                           \
      store(c2 + j + u * n, a2[u]), store(c3 + j + u * n, a3[u]);                           \
    }                                                                                       \
  }

#define LOAD512(p) _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(p)))
#define STORE512(p, v) _mm256_storeu_si256((__m256i *)(p), _mm512_cvtepi64_epi32(v))
#define XOR512(a, b, c) _mm512_ternarylogic_epi64(a, b, c, 0x96)
#define SET512(k) _mm512_set1_epi64((long long)(k))
__attribute__((target(MCPI_ISA_AVX512))) static inline void
rounds_avx512(uint32_t *c0, uint32_t *c1, uint32_t *c2, uint32_t *c3, uint64_t seed)
{
  PHILOX_LANES(__m512i, 8, LOAD512, STORE512, _mm512_mul_epu32, _mm512_srli_epi64, XOR512,
               SET512)
}

#define LOAD256(p) _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(p)))
/* the low words of four 64-bit lanes */
#define STORE256(p, v)                                                                     \
  _mm_storeu_si128((__m128i *)(p),                                                         \
                   _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(                     \
                       v, _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0))))
#define XOR256(a, b, c) _mm256_xor_si256(_mm256_xor_si256(a, b), c)
#define SET256(k) _mm256_set1_epi64x((long long)(k))
__attribute__((target(MCPI_ISA_AVX2))) static inline void
rounds_avx2(uint32_t *c0, uint32_t *c1, uint32_t *c2, uint32_t *c3, uint64_t seed)
{
  PHILOX_LANES(__m256i, 4, LOAD256, STORE256, _mm256_mul_epu32, _mm256_srli_epi64, XOR256,
               SET256)
}
#endif

/* The double normals of paths q .. q + 2m - 1 (q even, m <= BATCH) at step s
 * into z[0 .. 2m); or, when z is NULL, the float transform of the same
 * blocks into zf[0 .. 4m), four a block (rng.h: the float mapping's blocks of
 * paths q + 2j + (s & 1), at elements 4 floor(s / 2) to that plus 3).  copy
 * picks the rounds (a constant in each copy of the batch). */
static inline void batch(int copy, uint64_t seed, uint64_t s, uint64_t q, size_t m, double *z,
                         float *zf, int mixed)
{
  uint32_t c0[BATCH], c1[BATCH], c2[BATCH], c3[BATCH];
  for (size_t j = 0; j < BATCH; j++) { /* whole batches: fixed-length vector loops */
    uint64_t ctr;
    uint32_t sub;
    mcpi_rng_block_at(s, q + 2 * j, &ctr, &sub);
    c0[j] = (uint32_t)ctr;
    c1[j] = (uint32_t)(ctr >> 32);
    c2[j] = sub;
    c3[j] = 0;
  }
#if defined __x86_64__ && defined __GNUC__
  if (copy == 2)
    rounds_avx512(c0, c1, c2, c3, seed);
  else if (copy == 1)
    rounds_avx2(c0, c1, c2, c3, seed);
  else
#endif
    rounds(c0, c1, c2, c3, seed);
  if (z && mixed) { /* mcpi_rng_box_muller_mixed, in lanes of unit stride */
    float a[BATCH], b[BATCH];
#pragma omp simd
    for (size_t j = 0; j < BATCH; j++)
      mcpi_rng_box_muller_f(mcpi_rng_top32(c0[j], c1[j]), mcpi_rng_top32(c2[j], c3[j]), &a[j],
                            &b[j]);
    for (size_t j = 0; j < m; j++) {
      z[2 * j] = a[j];
      z[2 * j + 1] = b[j];
    }
  } else if (z) {
    /* the uniforms' integers first: the transform's loop then has 64-bit
     * lanes only, which AVX2 vectorises along with the doubles */
    uint64_t xu[BATCH], xv[BATCH];
    for (size_t j = 0; j < BATCH; j++) {
      xu[j] = c0[j] ^ ((uint64_t)c1[j] << 21);
      xv[j] = c2[j] ^ ((uint64_t)c3[j] << 21);
    }
    double a[BATCH], b[BATCH];
#pragma omp simd
    for (size_t j = 0; j < BATCH; j++)
      mcpi_rng_box_muller_53(xu[j], xv[j], &a[j], &b[j]);
    for (size_t j = 0; j < m; j++) {
      z[2 * j] = a[j];
      z[2 * j + 1] = b[j];
    }
  } else { /* mcpi_rng_transform_f, in lanes of unit stride */
    float f[4][BATCH];
#pragma omp simd
    for (size_t j = 0; j < BATCH; j++) {
      mcpi_rng_box_muller_f(c0[j], c1[j], &f[0][j], &f[1][j]);
      mcpi_rng_box_muller_f(c2[j], c3[j], &f[2][j], &f[3][j]);
    }
    for (size_t j = 0; j < m; j++)
      for (size_t k = 0; k < 4; k++)
        zf[4 * j + k] = f[k][j];
  }
}

/* The blocks of a batch are independent, so the Philox rounds and the
 * transform run across them in vector registers (the transform's 64-bit
 * integers converted by exponent tricks, mcpi_rng_u53 and mcp_dmath.h's
 * mcpi_dint and mcpi_dlow2, which AVX2 vectorises too).  On x86-64 copies
 * for AVX-512 and for AVX2 are chosen at run time; every copy computes the
 * same correctly rounded operations (the plain one calls the C library's
 * fma), so the normals do not depend on the host. */
typedef void batch_fn(uint64_t, uint64_t, uint64_t, size_t, double *, float *, int);
static int copy_cap = MCPI_RNG_COPIES - 1; /* the best copy the tests allow */

int mcpi_rng_host_copy(int cap)
{
  int prev = copy_cap;
  copy_cap = cap < 0 ? 0 : cap >= MCPI_RNG_COPIES ? MCPI_RNG_COPIES - 1 : cap;
  return prev;
}

int mcpi_host_copy(void)
{
#if defined __x86_64__ && defined __GNUC__
  if (copy_cap >= 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl"))
    return 2;
  if (copy_cap >= 1 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return 1;
#endif
  return 0;
}

static void batch_plain(uint64_t seed, uint64_t s, uint64_t q, size_t m, double *z, float *zf,
                        int mixed)
{
  batch(0, seed, s, q, m, z, zf, mixed);
}

#if defined __x86_64__ && defined __GNUC__
#define BATCH_COPY(name, copy, isa)                                                              \
  __attribute__((target(isa), flatten)) static void name(uint64_t seed, uint64_t s, uint64_t q, \
                                                         size_t m, double *z, float *zf,        \
                                                         int mixed)                             \
  {                                                                                              \
    batch(copy, seed, s, q, m, z, zf, mixed);                                                    \
  }
BATCH_COPY(batch_avx2, 1, MCPI_ISA_AVX2)
BATCH_COPY(batch_avx512, 2, MCPI_ISA_AVX512)

static batch_fn *batch_for_host(void)
{
  batch_fn *const copies[MCPI_RNG_COPIES] = {batch_plain, batch_avx2, batch_avx512};
  return copies[mcpi_host_copy()];
}
#else
static batch_fn *batch_for_host(void) { return batch_plain; }
#endif

/* The float mapping's normals: the blocks of even and then odd paths at
 * each double step 2 g + parity give elements 4 g .. 4 g + 3. */
static void fill_host_f(batch_fn *fn, uint64_t job_seed, size_t step0, size_t nsteps, uint64_t p0,
                        size_t n, float *zf, size_t ld)
{
  float bf[4 * BATCH];
  for (size_t g = step0 / 4; 4 * g < step0 + nsteps; g++)
    for (unsigned parity = 0; parity < 2; parity++)
      for (uint64_t q = p0 & ~UINT64_C(1); q < p0 + n; q += 2 * BATCH) {
        size_t m = (size_t)((p0 + n - q + 1) / 2);
        m = m < BATCH ? m : BATCH;
        fn(job_seed, 2 * g + parity, q, m, NULL, bf, 0);
        for (size_t j = 0; j < m; j++) {
          uint64_t p = q + 2 * j + parity;
          if (p < p0 || p >= p0 + n)
            continue;
          for (size_t k = 0; k < 4; k++)
            if (4 * g + k >= step0 && 4 * g + k < step0 + nsteps)
              zf[(4 * g + k - step0) * ld + (p - p0)] = bf[4 * j + k];
        }
      }
}

static void fill_host(uint64_t job_seed, size_t step0, size_t nsteps, uint64_t p0, size_t n,
                      double *z, float *zf, size_t ld, int mixed)
{
  double bz[2 * BATCH];
  batch_fn *fn = batch_for_host();
  if (!z) {
    fill_host_f(fn, job_seed, step0, nsteps, p0, n, zf, ld);
    return;
  }
  for (size_t s = 0; s < nsteps; s++)
    for (uint64_t q = p0 & ~UINT64_C(1); q < p0 + n; q += 2 * BATCH) {
      size_t m = (size_t)((p0 + n - q + 1) / 2);
      m = m < BATCH ? m : BATCH;
      fn(job_seed, step0 + s, q, m, bz, NULL, mixed);
      /* the batch's paths in [p0, p0 + n) */
      uint64_t a = q < p0 ? p0 : q, b = q + 2 * m < p0 + n ? q + 2 * m : p0 + n;
      for (uint64_t p = a; p < b; p++)
        z[s * ld + (p - p0)] = bz[p - q];
    }
}

void mcpi_rng_fill_host(uint64_t job_seed, size_t step0, size_t nsteps, uint64_t p0, size_t n,
                        double *z, float *zf, size_t ld)
{
  fill_host(job_seed, step0, nsteps, p0, n, z, zf, ld, 0);
}

void mcpi_rng_fill_host_in(int precision, uint64_t job_seed, size_t step0, size_t nsteps,
                           uint64_t p0, size_t n, void *z, size_t ld)
{
  if (precision == MCP_FLOAT)
    fill_host(job_seed, step0, nsteps, p0, n, NULL, z, ld, 0);
  else
    fill_host(job_seed, step0, nsteps, p0, n, z, NULL, ld, precision == MCP_MIXED);
}
