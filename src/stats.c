/* stats.c: chunk sums and estimates. */
#include <math.h>
#include "stats.h"

void mcpi_chunk_sums(const double *v, size_t n, double *sum, double *sumsq)
{
  double a[MCP_CHUNK_PATHS], b[MCP_CHUNK_PATHS];
  for (size_t i = 0; i < MCP_CHUNK_PATHS; i++) {
    double x = i < n ? v[i] : 0.0;
    a[i] = x;
    b[i] = x * x;
  }
  for (size_t h = MCP_CHUNK_PATHS / 2; h >= 1; h /= 2)
    for (size_t i = 0; i < h; i++) {
      a[i] += a[i + h];
      b[i] += b[i + h];
    }
  *sum = a[0];
  *sumsq = b[0];
}

void mcpi_accum_add(mcpi_accum *a, const double *part, size_t nchunks, uint64_t n)
{
  for (size_t c = 0; c < nchunks; c++) {
    a->sum += part[2 * c];
    a->sumsq += part[2 * c + 1];
  }
  a->n += n;
}

void mcpi_estimate(const mcpi_accum *a, mcp_estimate *e)
{
  double n = (double)a->n;
  double mean = a->sum / n;
  double var = n > 1 ? (a->sumsq - a->sum * mean) / (n - 1) : 0.0;
  double se = var > 0 ? sqrt(var / n) : 0.0;
  e->price = mean;
  e->std_error = se;
  e->ci_low = mean - MCPI_Z95 * se;
  e->ci_high = mean + MCPI_Z95 * se;
}

void mcpi_estimate_replicates(const mcpi_accum *a, size_t stride, unsigned reps,
                              mcp_estimate *e)
{
  if (reps == 1) {
    mcpi_estimate(a, e);
    return;
  }
  double mean = 0, ss = 0;
  for (unsigned r = 0; r < reps; r++)
    mean += a[r * stride].sum / (double)a[r * stride].n;
  mean /= reps;
  for (unsigned r = 0; r < reps; r++) {
    double d = a[r * stride].sum / (double)a[r * stride].n - mean;
    ss += d * d;
  }
  double se = sqrt(ss / (reps - 1) / reps);
  e->price = mean;
  e->std_error = se;
  e->ci_low = mean - MCPI_Z95 * se;
  e->ci_high = mean + MCPI_Z95 * se;
}
