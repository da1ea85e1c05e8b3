/* slice_rms.c: the slices' sums and roots in the host's vector copies
 * (slice_rms.h).  Additions, products, quotients and roots round alike at
 * every vector width, and no multiply-add is fused (-ffp-contract=off): each
 * copy gives the plain code's bits. */
#include <math.h>
#include "src/plan/slice_rms.h"
#include "models/rng.h"

static inline void piece(double *acc, double dt, const double *p, const double *q, size_t m)
{
#pragma omp simd
  for (size_t i = 0; i < m; i++)
    acc[i] += dt * (p[i] * p[i] + p[i] * q[i] + q[i] * q[i]) / 3;
}

static inline void roots(const double *acc, double dt, double *vol, float *vol_f, size_t m)
{
#pragma omp simd
  for (size_t i = 0; i < m; i++) {
    double v = sqrt(acc[i] / dt);
    vol[i] = v;
    vol_f[i] = (float)v;
  }
}

#if defined __x86_64__ && defined __GNUC__
#define RMS_COPY(isa, suffix)                                                                   \
  __attribute__((target(isa))) static void piece##suffix(double *acc, double dt,               \
                                                         const double *p, const double *q,     \
                                                         size_t m)                             \
  {                                                                                             \
    piece(acc, dt, p, q, m);                                                                    \
  }                                                                                             \
  __attribute__((target(isa))) static void roots##suffix(const double *acc, double dt,         \
                                                         double *vol, float *vol_f, size_t m)  \
  {                                                                                             \
    roots(acc, dt, vol, vol_f, m);                                                              \
  }
RMS_COPY(MCPI_ISA_AVX512, _avx512)
RMS_COPY(MCPI_ISA_AVX2, _avx2)
#endif

void mcpi_rms_piece(int copy, double *acc, double dt, const double *p, const double *q, size_t m)
{
#if defined __x86_64__ && defined __GNUC__
  switch (copy) {
  case 2:
    piece_avx512(acc, dt, p, q, m);
    return;
  case 1:
    piece_avx2(acc, dt, p, q, m);
    return;
  }
#else
  (void)copy;
#endif
  piece(acc, dt, p, q, m);
}

void mcpi_rms_roots(int copy, const double *acc, double dt, double *vol, float *vol_f, size_t m)
{
#if defined __x86_64__ && defined __GNUC__
  switch (copy) {
  case 2:
    roots_avx512(acc, dt, vol, vol_f, m);
    return;
  case 1:
    roots_avx2(acc, dt, vol, vol_f, m);
    return;
  }
#else
  (void)copy;
#endif
  roots(acc, dt, vol, vol_f, m);
}
