/* exp_lanes.c: e^x on the host by mcp_dmath.h's polynomial, as on the GPU:
 * one at a time, and across a group of paths in vector registers (rng.h). */
#include <stdatomic.h>
#include "rng.h"

static inline double dexp_one(double x)
{
  return fabs(x) < 700.0 ? mcpi_dexp_poly(x) : exp(x);
}

#if defined __x86_64__ && defined __GNUC__
__attribute__((target("fma"))) static double dexp_fma(double x) { return dexp_one(x); }
#endif

/* Chosen by a flag read each call, not an ifunc: the sanitizers' runtimes
 * are not up when the loader runs a resolver. */
double mcpi_dexp_host(double x)
{
#if defined __x86_64__ && defined __GNUC__
  static _Atomic int has_fma = -1; /* not yet asked */
  int f = atomic_load_explicit(&has_fma, memory_order_relaxed);
  if (f < 0) {
    f = __builtin_cpu_supports("fma") ? 1 : 0;
    atomic_store_explicit(&has_fma, f, memory_order_relaxed);
  }
  if (f)
    return dexp_fma(x);
#endif
  return dexp_one(x);
}

static inline void exp_lanes(const double *x, double *y, size_t n)
{
#pragma omp simd
  for (size_t i = 0; i < n; i++) /* lanes out of range take 0 and are redone */
    y[i] = mcpi_dexp_poly(fabs(x[i]) < 700.0 ? x[i] : 0.0);
  int out = 0; /* outside the polynomial's range: a reduction, in vectors */
  for (size_t i = 0; i < n; i++)
    out |= !(fabs(x[i]) < 700.0);
  if (out)
    for (size_t i = 0; i < n; i++)
      if (!(fabs(x[i]) < 700.0))
        y[i] = exp(x[i]);
}

#if defined __x86_64__ && defined __GNUC__
__attribute__((target(MCPI_ISA_AVX512), flatten)) static void
exp_lanes_avx512(const double *x, double *y, size_t n)
{
  exp_lanes(x, y, n);
}
__attribute__((target(MCPI_ISA_AVX2), flatten)) static void exp_lanes_avx2(const double *x,
                                                                            double *y, size_t n)
{
  exp_lanes(x, y, n);
}
#endif

void mcpi_exp_lanes(int copy, const double *x, double *y, size_t n)
{
#if defined __x86_64__ && defined __GNUC__
  switch (copy) {
  case 2:
    exp_lanes_avx512(x, y, n);
    return;
  case 1:
    exp_lanes_avx2(x, y, n);
    return;
  }
#else
  (void)copy;
#endif
  exp_lanes(x, y, n);
}
