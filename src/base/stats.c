/* stats.c: chunk sums and estimates. */
#include <math.h>
#include <stdlib.h>
#include "src/base/stats.h"

/* The tree over the chunk's MCP_CHUNK_PATHS values, those past n zeros,
 * which it never stores nor adds to each other: at each level the values
 * [0, live) are all that are not zeros, and one whose partner is a zero
 * adds 0.0 (its bits, but -0 + 0 = +0, as the whole tree gives).  A chunk
 * of a few paths (a small run's one chunk) costs its paths, not 256. */
void mcpi_chunk_sums(const double *v, size_t n, double *sum, double *sumsq)
{
  double a[MCP_CHUNK_PATHS], b[MCP_CHUNK_PATHS];
  size_t live = n < MCP_CHUNK_PATHS ? n : MCP_CHUNK_PATHS;
  for (size_t i = 0; i < live; i++) {
    a[i] = v[i];
    b[i] = v[i] * v[i];
  }
  for (size_t h = MCP_CHUNK_PATHS / 2; h >= 1; h /= 2) {
    size_t both = live > h ? live - h : 0, top = live < h ? live : h;
    for (size_t i = 0; i < both; i++) {
      a[i] += a[i + h];
      b[i] += b[i + h];
    }
    for (size_t i = both; i < top; i++) {
      a[i] += 0.0;
      b[i] += 0.0;
    }
    live = top;
  }
  *sum = live ? a[0] : 0.0;
  *sumsq = live ? b[0] : 0.0;
}

static unsigned bits(uint64_t x)
{
  unsigned b = 0;
  for (; x; x >>= 1)
    b++;
  return b;
}

int mcpi_tree_init(mcpi_tree *t, size_t ncol, uint64_t c0, uint64_t chunks)
{
  /* a range's blocks: at most one a level rising to its largest, one a
   * level falling after it, and the one being pushed */
  size_t cap = 2 * (size_t)bits(chunks) + 2;
  *t = (mcpi_tree){.c0 = c0, .c1 = c0, .ncol = ncol, .cap = cap};
  t->level = malloc(cap);
  t->index = malloc(cap * sizeof *t->index);
  t->val = malloc((ncol ? ncol : 1) * cap * 2 * sizeof *t->val);
  if (t->level && t->index && t->val)
    return 0;
  mcpi_tree_free(t);
  return -1;
}

void mcpi_tree_free(mcpi_tree *t)
{
  free(t->level);
  free(t->index);
  free(t->val);
  t->level = NULL;
  t->index = NULL;
  t->val = NULL;
}

/* Pushes node (level, index) on the stack's shape, merging it with the
 * top while that is its left sibling: the nodes merged. */
static size_t shape_push(mcpi_tree *t, unsigned level, uint64_t index)
{
  size_t d = t->depth, m = 0;
  while (m < d && t->level[d - m - 1] == level && (index & 1) &&
         t->index[d - m - 1] == index - 1) {
    m++;
    level++;
    index >>= 1;
  }
  t->level[d - m] = (unsigned char)level;
  t->index[d - m] = index;
  t->depth = d - m + 1;
  return m;
}

/* Column x's values (sum, sum of squares) pushed on its stack of depth d,
 * merged with the m nodes below; the new depth. */
static size_t value_push(double *x, size_t d, size_t m, double s, double q)
{
  for (size_t k = 1; k <= m; k++) {
    s = x[2 * (d - k)] + s;
    q = x[2 * (d - k) + 1] + q;
  }
  x[2 * (d - m)] = s;
  x[2 * (d - m) + 1] = q;
  return d - m + 1;
}

/* The shape moves alike for every column: the merges of a batch of chunks
 * first, then each column's values down the batch (contiguous reads, not a
 * column's stride a chunk): the same sums in the same order. */
void mcpi_tree_add(mcpi_tree *t, const double *part, uint64_t nchunks, unsigned level,
                   uint64_t n)
{
  size_t m[256], nnodes = (size_t)mcpi_tree_nodes(nchunks, level);
  for (size_t c0 = 0; c0 < nnodes; c0 += 256) {
    size_t nb = nnodes - c0 < 256 ? nnodes - c0 : 256, d0 = t->depth;
    for (size_t c = 0; c < nb; c++) {
      uint64_t first;
      unsigned lv = mcpi_tree_node(nchunks, level, c0 + c, &first);
      m[c] = shape_push(t, lv, t->c1 >> lv);
      t->c1 += (uint64_t)1 << lv;
    }
    for (size_t col = 0; col < t->ncol; col++) {
      double *x = t->val + 2 * col * t->cap;
      const double *v = part + 2 * (col * nnodes + c0);
      for (size_t c = 0, d = d0; c < nb; c++)
        d = value_push(x, d, m[c], v[2 * c], v[2 * c + 1]);
    }
  }
  t->paths += n;
}

int mcpi_tree_push(mcpi_tree *t, unsigned level, uint64_t index, const double *v)
{
  if (level >= 64 || index > (UINT64_MAX >> level) || index << level != t->c1 ||
      t->depth == t->cap)
    return -1;
  size_t d = t->depth, m = shape_push(t, level, index);
  for (size_t col = 0; col < t->ncol; col++)
    value_push(t->val + 2 * col * t->cap, d, m, v[2 * col], v[2 * col + 1]);
  t->c1 += (uint64_t)1 << level;
  return 0;
}

void mcpi_tree_finish(const mcpi_tree *t, mcpi_accum *a, size_t stride)
{
  for (size_t col = 0; col < t->ncol; col++) {
    const double *x = t->val + 2 * col * t->cap;
    double s = 0, q = 0;
    for (size_t k = 0; k < t->depth; k++) {
      s = k ? s + x[2 * k] : x[0];
      q = k ? q + x[2 * k + 1] : x[1];
    }
    a[col * stride] = (mcpi_accum){s, q, t->paths};
  }
}

void mcpi_estimate(const mcpi_accum *a, mcp_estimate *e)
{
  double n = (double)a->n;
  double mean = a->sum / n;
  double var = n > 1 ? (a->sumsq - a->sum * mean) / (n - 1) : 0.0;
  /* Sums that overflow double (values beyond 1e154 square to infinity) give
   * no standard error, not 0: NaN, which the run refuses (reval.c), rather
   * than a false zero that would read as a constant payoff. */
  double se = !isfinite(a->sum) || !isfinite(a->sumsq) || isnan(var) ? NAN
              : var > 0                                              ? sqrt(var / n)
                                                                     : 0.0;
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

double mcpi_t_limit(double z, const double t2_31[30], unsigned reps)
{
  if (reps <= 1)
    return z;
  if (reps - 1 <= 30)
    return t2_31[reps - 2];
  double v = reps - 1;
  return z + (z * z * z + z) / (4 * v) +
         (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v) +
         (3 * pow(z, 7) + 19 * pow(z, 5) + 17 * z * z * z - 15 * z) / (384 * v * v * v);
}
