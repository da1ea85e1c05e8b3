/* slice.h: the work of one pricing cut into slices, and what a slice
 * leaves for the merge.  A job's units are its replicates' chunks of
 * MCP_CHUNK_PATHS samples, unit r C + c for chunk c of replicate r (C
 * chunks a replicate); the units of all jobs, in job order, are cut where
 * their work (path elements, passes included) reaches k / n of the whole,
 * so that a book of many small jobs is cut between jobs and one large job
 * within itself.  Every slice that holds a unit of a job redoes the job's
 * control-variate pilot and Longstaff-Schwartz fit (deterministic), and
 * slice 0 solves the PDE trades. */
#ifndef MCP_SLICE_H
#define MCP_SLICE_H

#include "src/plan/plan.h"
#include "src/base/stats.h"

/* The pricing kinds a partial can hold. */
typedef enum mcpi_part_kind { MCPI_PART_PRICES = 0, MCPI_PART_GREEKS, MCPI_PART_SCENARIOS } mcpi_part_kind;

typedef struct mcpi_part_tree mcpi_part_tree;
/* A run's plan and layouts, which a worker keeps between the slices it
 * computes of one pricing (opaque here: reval.h). */
typedef struct mcpi_setup mcpi_setup;

/* How one run (of a pricing's runs: one, or a scenario grid's groups of
 * points) takes part: compute slice k of n into out, or merge the n
 * partials in (in[k] slice k); NULL for a run of its own. */
typedef struct mcpi_slicing {
  unsigned k, n;
  mcp_partial *out;
  const mcp_partial *const *in;
  const mcpi_part_tree **sorted; /* merge: every tree of in, by run, job, replicate, chunk */
  size_t nsorted, *used;
  size_t run;
  mcpi_setup **keep; /* a price or Greeks run's setup kept between calls, or NULL */
} mcpi_slicing;

/* Chunks a replicate of job j. */
uint64_t mcpi_job_chunks(const mcpi_plan *plan, const mcpi_job *j);
/* The work of a path of job j: its elements and their end, for each of its
 * passes (the units in which slices are cut and progress reported). */
static inline double mcpi_path_work(const mcpi_job *j)
{
  return (double)(j->nelem + 1) * (double)(1 + j->npass);
}
/* The paths of job j's units u0 .. u1 - 1 (a unit a chunk of a replicate;
 * a replicate's last chunk may be short). */
double mcpi_range_paths(const mcpi_plan *plan, const mcpi_job *j, uint64_t u0, uint64_t u1);
/* Slice k of n: job ji's units range[2 ji] .. range[2 ji + 1] - 1.  With
 * lead, slice 0 holds at least the first unit of every job that fits an
 * exercise rule, so that it fits them all: the exercise boundaries reach a
 * merge from slice 0 alone (reval.c). */
void mcpi_slice_ranges(const mcpi_plan *plan, unsigned k, unsigned n, int lead,
                       uint64_t *range);

/* A tree of a partial: run, job and replicate, and its nodes (stats.h). */
struct mcpi_part_tree {
  uint64_t run, job, rep;
  mcpi_tree tree;
};

struct mcp_partial {
  unsigned k, n;
  mcpi_part_kind kind;
  uint64_t digest;
  mcp_backend backend;
  double seconds;
  mcpi_part_tree *tree;
  size_t ntree, tree_cap;
  /* slice 0: the PDE values of each run (reval.c), npde[run] of them */
  double **pde;
  size_t *npde, nruns;
  unsigned char *annex;
  size_t nannex;
  char *source; /* the file read, for messages, or NULL */
  char label[48]; /* "slice K of N", for messages without a file */
};

/* Takes over tree t of (run, job, rep) into p; 0, or -1 when out of memory
 * (t freed). */
int mcpi_partial_add_tree(mcp_partial *p, uint64_t run, uint64_t job, uint64_t rep, mcpi_tree *t);
/* Copies the n PDE values of run into p; 0 or -1 when out of memory. */
int mcpi_partial_set_pde(mcp_partial *p, size_t run, const double *v, size_t n);
mcp_partial *mcpi_partial_new(unsigned k, unsigned n, mcpi_part_kind kind, uint64_t digest,
                              mcp_backend backend);

/* The merge's slice 0; the time its slices took; a partial's file, or
 * "slice K of N". */
const mcp_partial *mcpi_slicing_first(const mcpi_slicing *sl);
double mcpi_slicing_seconds(const mcpi_slicing *sl);
const char *mcpi_partial_name(const mcp_partial *p);
/* Replicate r of job ji of the merge's run, of samples samples: its
 * accumulators (ncol) from the slices' trees; MCP_ERR_INPUT when they do not
 * hold each of its chunks, with its samples, once. */
mcp_status mcpi_merge_tree(const mcpi_slicing *sl, size_t ji, uint64_t r, size_t ncol,
                           uint64_t samples, mcpi_accum *acc, char *err);
/* Sorts the trees of a merge's partials by run, job, replicate and chunk. */
void mcpi_sort_trees(const mcpi_part_tree **trees, size_t n);
/* A merged call's time into its results (or every point's of a grid). */
void mcpi_set_seconds(mcp_results *r, mcp_scenario_results *sr, double seconds);

/* A digest of what decides a pricing's bits: the library's version, the
 * market, the portfolio's trades and the settings that change prices, the
 * run's (set) among them (not
 * the kernel strategies, placements or tile and block sizes, which do not),
 * the Greeks request or the scenario grid. */
uint64_t mcpi_digest(const mcp_market *m, const mcp_portfolio *p, const mcpi_settings *set,
                     const mcp_greeks *g, const mcp_scenarios *s);

#endif
