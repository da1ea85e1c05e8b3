/* slice.c: which units of each job a slice computes, and how a merge finds
 * each job's trees among its slices'. */
#include <stdlib.h>
#include "src/results/results.h"
#include "src/slices/slice.h"

uint64_t mcpi_job_chunks(const mcpi_plan *plan, const mcpi_job *j)
{
  return (mcpi_job_samples(plan, j) + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
}

double mcpi_range_paths(const mcpi_plan *plan, const mcpi_job *j, uint64_t u0, uint64_t u1)
{
  uint64_t chunks = mcpi_job_chunks(plan, j), samples = mcpi_job_samples(plan, j);
  double n = 0;
  while (u0 < u1) { /* replicate r's chunks c0 .. c1 - 1 */
    uint64_t r = u0 / chunks, c0 = u0 - r * chunks;
    uint64_t c1 = u1 - r * chunks < chunks ? u1 - r * chunks : chunks;
    uint64_t end = c1 * MCP_CHUNK_PATHS < samples ? c1 * MCP_CHUNK_PATHS : samples;
    n += (double)(end - c0 * MCP_CHUNK_PATHS);
    u0 = r * chunks + c1;
  }
  return n;
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

void mcpi_slice_ranges(const mcpi_plan *plan, unsigned k, unsigned n, int lead,
                       uint64_t *range)
{
  double total = 0, start = 0;
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    total += (double)(mcpi_job_replicates(plan, j) * mcpi_job_chunks(plan, j)) * mcpi_path_work(j);
  }
  for (size_t ji = 0; ji < plan->njobs; ji++) {
    const mcpi_job *j = &plan->jobs[ji];
    uint64_t units = mcpi_job_replicates(plan, j) * mcpi_job_chunks(plan, j);
    double w = mcpi_path_work(j);
    range[2 * ji] = first(start, w, units, k, n, total);
    range[2 * ji + 1] = first(start, w, units, k + 1, n, total);
    for (unsigned e = 0; lead && j->lsm_dates > 1 && units && e < 2; e++)
      if (k + e > 0 && range[2 * ji + e] < 1) /* unit 0 is slice 0's */
        range[2 * ji + e] = 1;
    start += (double)units * w;
  }
}

void mcpi_set_seconds(mcp_results *r, mcp_scenario_results *sr, double seconds)
{
  if (r)
    r->seconds = seconds;
  for (size_t i = 0; sr && i < sr->npoints; i++)
    sr->point[i]->seconds = seconds;
}

const mcp_partial *mcpi_slicing_first(const mcpi_slicing *sl) { return sl->in[0]; }

double mcpi_slicing_seconds(const mcpi_slicing *sl)
{
  double s = 0;
  for (unsigned k = 0; k < sl->n; k++)
    s += sl->in[k]->seconds;
  return s;
}

const char *mcpi_partial_name(const mcp_partial *p) { return p->source ? p->source : p->label; }

static int cmp_key(const mcpi_part_tree *a, uint64_t run, uint64_t job, uint64_t rep)
{
  return a->run != run ? (a->run < run ? -1 : 1)
         : a->job != job ? (a->job < job ? -1 : 1)
         : a->rep != rep ? (a->rep < rep ? -1 : 1) : 0;
}

static int cmp_trees(const void *x, const void *y)
{
  const mcpi_part_tree *a = *(const mcpi_part_tree *const *)x;
  const mcpi_part_tree *b = *(const mcpi_part_tree *const *)y;
  int c = cmp_key(a, b->run, b->job, b->rep);
  return c ? c : a->tree.c0 != b->tree.c0 ? (a->tree.c0 < b->tree.c0 ? -1 : 1) : 0;
}

void mcpi_sort_trees(const mcpi_part_tree **trees, size_t n)
{
  qsort(trees, n, sizeof *trees, cmp_trees);
}

mcp_status mcpi_merge_tree(const mcpi_slicing *sl, size_t ji, uint64_t r, size_t ncol,
                           uint64_t samples, mcpi_accum *acc, char *err)
{
  uint64_t chunks = (samples + MCP_CHUNK_PATHS - 1) / MCP_CHUNK_PATHS;
  size_t lo = 0, hi = sl->nsorted;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (cmp_key(sl->sorted[mid], sl->run, ji, r) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  mcpi_tree m;
  double *v = malloc(2 * (ncol ? ncol : 1) * sizeof *v);
  if (!v || mcpi_tree_init(&m, ncol, 0, chunks)) {
    free(v);
    return mcpi_fail(err, MCP_ERR_NO_MEMORY, "out of memory merging the partial results");
  }
  mcp_status st = MCP_OK;
  for (size_t i = lo; st == MCP_OK && i < sl->nsorted &&
                      cmp_key(sl->sorted[i], sl->run, ji, r) == 0; i++) {
    const mcpi_tree *t = &sl->sorted[i]->tree;
    /* the samples of chunks c0 .. c1 - 1: a slice that says otherwise lies */
    uint64_t end = t->c1 * MCP_CHUNK_PATHS < samples ? t->c1 * MCP_CHUNK_PATHS : samples;
    if (t->ncol != ncol || t->c0 != m.c1 || t->c1 > chunks ||
        t->paths != end - t->c0 * MCP_CHUNK_PATHS) {
      st = mcpi_fail(err, MCP_ERR_INPUT,
                     "the partial results do not fit the inputs: run %zu, job %zu, replicate "
                     "%llu: %s (corrupted, or written by another build?)",
                     sl->run, ji, (unsigned long long)r,
                     t->ncol != ncol  ? "another number of columns"
                     : t->c0 > m.c1   ? "chunks in no slice"
                     : t->c0 < m.c1   ? "chunks in two slices"
                                      : "another number of paths");
      break;
    }
    for (size_t d = 0; st == MCP_OK && d < t->depth; d++) {
      for (size_t c = 0; c < ncol; c++) {
        v[2 * c] = t->val[2 * (c * t->cap + d)];
        v[2 * c + 1] = t->val[2 * (c * t->cap + d) + 1];
      }
      if (mcpi_tree_push(&m, t->level[d], t->index[d], v))
        st = mcpi_fail(err, MCP_ERR_INPUT,
                       "the partial results do not fit the inputs: run %zu, job %zu: a "
                       "block of chunks out of place (corrupted?)", sl->run, ji);
    }
    m.paths += t->paths;
    (*sl->used)++;
  }
  if (st == MCP_OK && m.c1 != chunks)
    st = mcpi_fail(err, MCP_ERR_INPUT,
                   "the partial results do not fit the inputs: run %zu, job %zu, replicate "
                   "%llu: chunks %llu to %llu are in no slice (corrupted?)",
                   sl->run, ji, (unsigned long long)r, (unsigned long long)m.c1,
                   (unsigned long long)chunks - 1);
  if (st == MCP_OK)
    mcpi_tree_finish(&m, acc, 1);
  mcpi_tree_free(&m);
  free(v);
  return st;
}
