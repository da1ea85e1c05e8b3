/* backend.h: what the CPU and CUDA backends compute for a planned run.
 * Both present their tile machinery to one driver (run_job.c), which runs the
 * control-variate pilot, then the samples of the run's slice (slice.h) tile
 * by tile, and adds their chunk sums to each replicate's tree (stats.h). */
#ifndef MCP_BACKEND_H
#define MCP_BACKEND_H

#include "src/exec/context.h"
#include "src/inputs/wisdom.h"
#include "src/plan/variants.h"
#include "src/plan/plan.h"
#include "models/prefetch.h"
#include "src/slices/slice.h"
#include "src/base/stats.h"
#include "src/rng/lanes.h"

typedef struct mcpi_run {
  mcpi_plan *plan;   /* the pilot sets the jobs' control coefficients */
  const mcp_portfolio *portfolio; /* trade ids for messages */
  mcp_context *ctx;  /* tile and block sizes, device, progress; errors go to ctx->err */
  mcpi_tree **trees; /* trees[job][rep]: the slice's chunk sums of the job's columns */
  const uint64_t *range; /* the slice's units of job ji: range[2 ji] .. range[2 ji + 1] - 1 */
  mcpi_kernel_options kopt; /* precision (both backends); strategy, block (GPU) */
  mcp_normals normals;      /* fused or stored (GPU) */
  unsigned given;           /* the options the caller gave (MCPI_OPT_*): a wisdom
                               replaces only the others (GPU) */
  double work_done, work_total; /* path-elements, for progress */
  double progress_at;           /* when it was last reported (mcpi_now) */
  mcpi_greek_run *greeks;    /* the variants of the jobs' passes, or NULL */
} mcpi_run;

/* Whether the run's slice holds some of job ji's paths. */
static inline int mcpi_run_has(const mcpi_run *run, size_t ji)
{
  return run->range[2 * ji] < run->range[2 * ji + 1];
}

/* Job ji of the variant of its pass p. */
static inline mcpi_job *mcpi_pass_job(const mcpi_run *run, size_t ji, size_t p)
{
  return &run->greeks->var[run->plan->jobs[ji].pass[p]].plan.jobs[ji];
}
/* The first pay column of pass p of job j. */
static inline size_t mcpi_pass_column(const mcpi_job *j, size_t p)
{
  return j->ntrades + 1 + j->nest + p * mcpi_pass_width(j);
}

/* A backend's tiles for one job: tile samples at a time. */
typedef struct mcpi_tiler {
  void *self;
  size_t tile;
  /* the normals of samples s0 .. s0 + n of replicate rep */
  mcp_status (*fill)(void *self, unsigned rep, uint64_t s0, size_t n);
  /* the payoff columns of the tile's n samples, with the controls (the
   * pilot) or, without, with the passes and the estimators */
  mcp_status (*paths)(void *self, size_t n, int controls);
  /* chunk sums of the mcpi_job_columns(j, 0) columns into part (host), as
   * mcpi_tree_add reads them, in its nodes at level (at most the tiler's):
   * there when sums returns, or, for a tiler with wait, when wait
   * does (each tile then has a part of its own) */
  mcp_status (*sums)(void *self, size_t n, unsigned level, double *part);
  /* the 2 ntrades + 1 columns written with controls, of the job and then of
   * each pass, to pay[col ld + i] (host) */
  mcp_status (*read)(void *self, size_t n, double *pay, size_t ld);
  /* the job's and its passes' payoff specs changed (control coefficients) */
  mcp_status (*update_specs)(void *self);
  /* Longstaff-Schwartz: fits the table of the job (variant 0) or of its pass
   * variant - 1 (lsm_fit.h), or with frozen takes the job's rules (already
   * fitted), on the host and where the paths read it */
  mcp_status (*fit)(void *self, size_t variant, int frozen);
  /* NULL, or: every tile's sums are in their parts once it returns */
  mcp_status (*wait)(void *self);
  /* NULL, or a host buffer of bytes for a part of chunk sums, the tiler's
   * (pinned: a copy from the device at full speed, and no pages to fault
   * in a call), valid until its job's run ends; NULL where it has none
   * (the run then allocates it) */
  double *(*part)(void *self, size_t bytes);
  /* the deepest nodes its sums give: the GPU sums its chunks' first levels
   * of the tree (nodes of 16 chunks, or 256 for a job of many columns, then
   * a node for each binary digit of the rest: a tile of 391 chunks is 5
   * nodes to copy and push, not 391), the CPU none */
  unsigned level;
} mcpi_tiler;

/* A job's tiles whose sums are under way (a tiler with wait). */
typedef struct mcpi_tile_sums {
  mcpi_tree *tree; /* the replicate's */
  double *part;
  int own; /* part is the run's to free (not the tiler's) */
  size_t nchunks;
  unsigned level; /* part's nodes: mcpi_tree_nodes(nchunks, level) of them */
  uint64_t n;
} mcpi_tile_sums;
typedef struct mcpi_job_sums {
  mcpi_tile_sums *tile;
  size_t n, cap;
} mcpi_job_sums;

/* Job ji through t: its pilot or fits, then every tile of the run's slice,
 * whose sums start adds to the trees (a tiler without wait) or leaves in js
 * for finish (with wait), which adds them after the tiler's wait; finish
 * follows every start (st: the start's status or a later error, which it
 * returns after freeing js).  mcpi_run_job is the two in turn. */
mcp_status mcpi_run_job_start(mcpi_run *run, size_t ji, const mcpi_tiler *t, mcpi_job_sums *js);
mcp_status mcpi_run_job_finish(mcpi_run *run, size_t ji, const mcpi_tiler *t,
                               mcpi_job_sums *js, mcp_status st);
mcp_status mcpi_run_job(mcpi_run *run, size_t job, const mcpi_tiler *t);
/* The progress callback, where set, with work_done and ahead more. */
void mcpi_run_progress(mcpi_run *run, double ahead);

mcp_status mcpi_cpu_price(mcpi_run *run);
mcp_status mcpi_cuda_price(mcpi_run *run);
/* The context's GPU as a wisdom knows it (mcp_tune); MCP_ERR_UNAVAILABLE
 * in a build without CUDA. */
mcp_status mcpi_cuda_gpu_id(mcp_context *ctx, mcpi_gpu_id *out);
/* Whether the prefetch strategy of w, at its distance, padding and block,
 * is one this build has (a wisdom of a build with the tuning kernels may be
 * read by one without) and the device's shared memory holds, in prec; 0
 * before the context's first GPU run (mcpi_cuda_gpu_id makes it ready). */
int mcpi_cuda_prefetch_fits(const mcp_context *ctx, mcp_precision prec,
                            const mcp_wisdom_entry *w);

/* The PDE batch's solvers (pde_cpu.c, pde_cuda.c): every grid; out[g (2R +
 * 1) + i] = the value at node center - R + i.  On the GPU the solve starts
 * on a stream of its own, beside what the context runs next (the Monte
 * Carlo jobs), and out is written by mcpi_pde_cuda_finish, which every
 * start that succeeds must be followed by (b and out alive until then).
 * bound, where not NULL, gets the exercise boundaries' nodes
 * (mcpi_pde_bound_slot), as out does.  On the CPU a cancellation
 * (mcp_context_cancel) skips the grids not yet started. */
mcp_status mcpi_pde_cpu(const mcpi_pde_batch *b, double *out, int *bound, mcp_context *ctx);
mcp_status mcpi_pde_cuda_start(mcp_context *ctx, const mcpi_pde_batch *b, double *out,
                               int *bound);
mcp_status mcpi_pde_cuda_finish(mcp_context *ctx);

#endif
