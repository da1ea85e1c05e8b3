/* qmc.c: host Sobol points and Brownian-bridge construction. */
#include <stdlib.h>
#ifdef MCP_HAVE_CURAND
#include <curand.h>
#endif
#include "mcprice.h"
#include "src/base/error.h"
#include "models/qmc.h"

int mcpi_bridge_build(mcpi_bridge *b, size_t n, const double *t)
{
  *b = (mcpi_bridge){.n = (int32_t)n};
  b->m = malloc(n * sizeof *b->m);
  b->l = malloc(n * sizeof *b->l);
  b->r = malloc(n * sizeof *b->r);
  b->wl = malloc(n * sizeof *b->wl);
  b->wr = malloc(n * sizeof *b->wr);
  b->sd = malloc(n * sizeof *b->sd);
  b->inv_sqrt_dt = malloc(n * sizeof *b->inv_sqrt_dt);
  /* the queue of intervals: each of the n - 1 splits adds two */
  int32_t *ql = malloc(2 * n * sizeof *ql), *qr = malloc(2 * n * sizeof *qr);
  if (!b->m || !b->l || !b->r || !b->wl || !b->wr || !b->sd || !b->inv_sqrt_dt || !ql || !qr) {
    free(ql);
    free(qr);
    mcpi_bridge_free(b);
    return mcpi_no_memory(__func__);
  }
#define T(i) ((i) ? t[(i) - 1] : 0.0)
  /* level 0: the end point; then intervals (l, r) split breadth-first */
  b->m[0] = (int32_t)n, b->l[0] = 0, b->r[0] = 0, b->wl[0] = 0, b->wr[0] = 0;
  b->sd[0] = sqrt(t[n - 1]);
  size_t head = 0, tail = 0, k = 1;
  ql[tail] = 0, qr[tail++] = (int32_t)n;
  while (head < tail) {
    int32_t l = ql[head], r = qr[head++];
    if (r - l < 2)
      continue;
    int32_t m = l + (r - l) / 2;
    double tl = T(l), tm = T(m), tr = T(r);
    b->m[k] = m, b->l[k] = l, b->r[k] = r;
    b->wl[k] = (tr - tm) / (tr - tl);
    b->wr[k] = (tm - tl) / (tr - tl);
    b->sd[k++] = sqrt((tm - tl) * (tr - tm) / (tr - tl));
    ql[tail] = l, qr[tail++] = m;
    ql[tail] = m, qr[tail++] = r;
  }
  for (size_t s = 0; s < n; s++)
    b->inv_sqrt_dt[s] = 1 / sqrt(T(s + 1) - T(s));
#undef T
  free(ql);
  free(qr);
  return MCP_OK;
}

void mcpi_bridge_free(mcpi_bridge *b)
{
  free(b->m);
  free(b->l);
  free(b->r);
  free(b->wl);
  free(b->wr);
  free(b->sd);
  free(b->inv_sqrt_dt);
  *b = (mcpi_bridge){0};
}

mcpi_bridge_view mcpi_bridge_host_view(const mcpi_bridge *b)
{
  return (mcpi_bridge_view){b->n, b->m, b->l, b->r, b->wl, b->wr, b->sd, b->inv_sqrt_dt};
}

/* cuRAND's tables, or NULL in a build without it (time_grid.c refuses QMC there). */
const uint64_t *mcpi_sobol_directions(void)
{
#ifdef MCP_HAVE_CURAND
  curandDirectionVectors64_t *v = NULL;
  if (curandGetDirectionVectors64(&v, CURAND_SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6) ==
      CURAND_STATUS_SUCCESS)
    return (const uint64_t *)v;
#endif
  return NULL;
}

const uint64_t *mcpi_sobol_scrambles(void)
{
#ifdef MCP_HAVE_CURAND
  unsigned long long *c = NULL;
  if (curandGetScrambleConstants64(&c) == CURAND_STATUS_SUCCESS)
    return (const uint64_t *)c;
#endif
  return NULL;
}

static uint64_t mix(uint64_t x)
{
  x += UINT64_C(0x9e3779b97f4a7c15);
  x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
  return x ^ (x >> 31);
}

uint64_t mcpi_sobol_shift(uint64_t stream, unsigned replicate, size_t d)
{
  return mix(mix(stream ^ mix(replicate)) + d);
}

void mcpi_sobol_fill(const uint64_t *dirs, const uint64_t *scr, size_t ndim, uint64_t p0,
                     size_t n, double *z, size_t ld)
{
  for (size_t d = 0; d < ndim; d++) {
    const uint64_t *v = dirs + d * MCPI_SOBOL_BITS;
    uint64_t g = p0 ^ (p0 >> 1), x = scr[d];
    for (int b = 0; g; b++, g >>= 1)
      if (g & 1)
        x ^= v[b];
    /* Gray-code order: point p + 1 flips the direction of the lowest zero bit of p */
    for (size_t i = 0; i < n; i++) {
      z[d * ld + i] = mcpi_sobol_normal(x);
      uint64_t p = p0 + i;
      x ^= v[__builtin_ctzll(~p)];
    }
  }
}
