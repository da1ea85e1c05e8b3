/* slice.c: which units of each job a slice computes. */
#include "slice.h"

uint64_t mcpi_job_chunks(const mcpi_plan *plan, const mcpi_job *j)
{
  return (mcpi_job_samples(plan, j) + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
}

static double weight(const mcpi_job *j)
{
  return (double)(j->nelem + 1) * (double)(1 + j->npass);
}

/* The first of a job's units (starting at work start, w each) whose start
 * lies at or beyond q / n of total; owner is monotone in the unit, so the
 * slices' ranges are consecutive and cover every unit once. */
static uint64_t first(double start, double w, uint64_t units, unsigned q, unsigned n,
                      double total)
{
  if (q == 0)
    return 0;
  if (q >= n)
    return units;
  uint64_t lo = 0, hi = units;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if ((start + (double)mid * w) / total * n >= q)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

void mcpi_slice_ranges(const mcpi_plan *plan, unsigned k, unsigned n, uint64_t *range)
{
  double total = 0, start = 0;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    total += (double)(mcpi_job_replicates(plan, j) * mcpi_job_chunks(plan, j)) * weight(j);
  }
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    uint64_t units = mcpi_job_replicates(plan, j) * mcpi_job_chunks(plan, j);
    double w = weight(j);
    range[2 * ji] = first(start, w, units, k, n, total);
    range[2 * ji + 1] = first(start, w, units, k + 1, n, total);
    start += (double)units * w;
  }
}
