/* launch.h: the CUDA kernels as C functions for the host code in src/. */
#ifndef MCP_LAUNCH_H
#define MCP_LAUNCH_H

#include <cuda_runtime_api.h>
#include "models/prefetch.h"

/* The views the launches take, by name alone: a kernel includes the header
 * of those it reads (path.h, greeks.h, qmc.h, pde_grid.h), so that an edit
 * of one rebuilds only the kernels that read it. */
typedef struct mcpi_job_view mcpi_job_view;
typedef struct mcpi_term mcpi_term;
typedef struct mcpi_bridge_view mcpi_bridge_view;
typedef struct mcpi_pde_view mcpi_pde_view;

#ifdef __cplusplus
extern "C" {
#endif

/* One thread a path: paths i < n of a tile whose normals are z[s ld + i]
 * (double or float, as o->precision says); writes the payoff columns
 * pay[col ld + i].  job points to device arrays.  grid is the number of
 * blocks of a whole wave (mcpi_path_grid); threads loop over the paths. */
cudaError_t mcpi_launch_paths(mcpi_job_view job, const void *z, size_t ld, size_t n,
                              double *pay, const mcpi_kernel_options *o, int grid,
                              cudaStream_t stream);
/* The same, fused, for a job in the Heston plain shape (o->checked) and its
 * discretisation check's coarse pass (view coarse): both on one draw of the
 * normals, the pass's payoff columns written to pay_c. */
cudaError_t mcpi_launch_paths_checked(mcpi_job_view job, mcpi_job_view coarse, size_t ld,
                                      size_t n, double *pay, double *pay_c,
                                      const mcpi_kernel_options *o, int grid,
                                      cudaStream_t stream);
/* Blocks of the path kernel (single or multi-asset, with per-path arrays of
 * arr_len elements or none) that the current device runs at once (its
 * occupancy times the multiprocessors); sets the kernel's shared memory, and
 * lowers o->block to what the kernel's registers allow.  A job with arrays
 * runs the plain loop, its arrays where o->placement (not auto) says. */
cudaError_t mcpi_path_grid(mcpi_kernel_options *o, int multi, int arr_len, int *grid);
/* A job with bucketed sensitivities by adjoint (job.gstate
 * MCPI_GSTATE_ADJOINT; adjoint.h): paths i < n, one thread each, their
 * normals z[s ld + i] (double), or with z NULL the canonical ones of
 * samples job.p0 + i; pay[col ld + i] as mcpi_launch_paths; shape: the
 * job's mcpi_job_adjoint_shape, whose state the forward path may take;
 * start: NULL, or the sweep's start of several Heston assets' early
 * exercise (adjoint.h, MCPI_ADJ_START) that mcpi_launch_lsm_scaled left. */
cudaError_t mcpi_launch_adjoint(mcpi_job_view job, int shape, const double *z, size_t ld,
                                size_t n, double *pay, const double *start,
                                cudaStream_t stream);
/* The same for the kernel of jobs whose vega or rho is estimated on the path
 * (job.gstate: double, one asset, no array), which mcpi_launch_paths runs
 * for such a job's view. */
cudaError_t mcpi_path_grid_greeks(mcpi_kernel_options *o, int *grid);
/* Whether this build has the path kernel of o for such a job (the prefetch
 * strategies' distances other than the default are built only with configure
 * --enable-tuning-kernels). */
int mcpi_path_kernel_built(const mcpi_kernel_options *o, int multi, int arr_len);
/* The compiled attributes (registers, local memory a thread) of the kernel
 * that mcpi_launch_paths runs for those options and job shape. */
cudaError_t mcpi_path_kernel_attributes(const mcpi_kernel_options *o, int multi, int arr_len,
                                        struct cudaFuncAttributes *attr);
/* Dynamic shared memory of the path kernel per block: the prefetch ring, or
 * a job's shared arrays. */
size_t mcpi_path_smem_bytes(const mcpi_kernel_options *o, int arr_len);
/* Dynamic shared memory of the path kernel per block (0 without a ring). */
size_t mcpi_prefetch_smem_bytes(mcp_precision precision, mcp_prefetch strategy, int distance,
                                int padding, int block);

/* The canonical normals (rng.h) of steps step0 <= s < step0 + nsteps and
 * paths p0 + i, i < n, into z[(s - step0) ld + i]; p0 a multiple of 4.  In
 * float, those of the float mapping (four a block, mcpi_rng_quad_block); in
 * mixed, the double mapping's by the mixed transform (rng.h). */
cudaError_t mcpi_launch_normals(uint64_t seed, size_t step0, size_t nsteps, uint64_t p0,
                                size_t n, void *z, size_t ld, mcp_precision precision,
                                cudaStream_t stream);

/* QMC (qmc.h): z[d ld + i] = the Sobol normal of dimension d < ndim at point
 * p0 + i (i < n), with cuRAND's scrambled Sobol64 generator, the direction
 * vectors dirs (MCPI_SOBOL_BITS a dimension) and scramble constants scr. */
cudaError_t mcpi_launch_sobol(const uint64_t *dirs, const uint64_t *scr, size_t ndim,
                              uint64_t p0, size_t n, double *z, size_t ld, cudaStream_t stream);
/* The Brownian bridge of every path and factor: levels zq -> W in w (double)
 * -> step normals in z (w itself when z is double and the same buffer). */
cudaError_t mcpi_launch_bridge(mcpi_bridge_view b, int nfactors, const double *zq, double *w,
                               size_t ld, size_t n, void *z, mcp_precision precision,
                               cudaStream_t stream);

/* Chunk sums of ncol columns of n values (stride ld): part[(col nodes + g) 2
 * + {0,1}] = sum and sum of squares of node g (mcpi_tree_node: nodes of
 * 2^level chunks, then of the binary digits of the chunks left; nodes =
 * mcpi_tree_nodes(nch, level), nch = ceil(n / MCP_CHUNK_PATHS)): each
 * chunk's by the pairwise tree of mcpi_chunk_sums, a node's the sum of its
 * halves (the host tree's order).  The deepest level the CUDA tiler
 * asks: 4, and for a job of MCPI_GPU_WIDE columns or more 8 (an adjoint's
 * 426 columns of 1M paths: 109,056 nodes copied and added to the host's
 * trees at 4, in 155 us, 6,816 at 8, in 9 us). */
#define MCPI_GPU_TREE_LEVEL 4
#define MCPI_GPU_TREE_WIDE 8
#define MCPI_GPU_WIDE 64
cudaError_t mcpi_launch_chunk_sums(const double *pay, size_t ld, size_t n, size_t ncol,
                                   unsigned level, double *part, cudaStream_t stream);

/* The Longstaff-Schwartz fit (lsm_fit.h) of a job (device view, lsm NULL):
 * its n fit paths of seed into the states st and cash flows y, table the
 * device's copy of the job's table (lanes: the job's elements are its steps'
 * factors alone, none held or merged, so that several Heston assets' paths
 * may run on the lanes of a warp); then every date's factor (lsm.h) and,
 * for each date e from the last but one down to 0, the rule of date e into
 * table (work: mcpi_lsm_work_doubles; done: a counter, 0 before, left 0);
 * walking: NULL, or an event recorded on stream once the factors are
 * launched, before the walk back, so that a tile's work that reads no rule
 * may start beside the walk (whose grid is then resident first). */
size_t mcpi_lsm_work_doubles(int nb, size_t n, int dates);
cudaError_t mcpi_launch_lsm_paths(mcpi_job_view job, uint64_t seed, const double *table,
                                  int dates, double *st, size_t n, double *y, int lanes,
                                  cudaStream_t stream);
cudaError_t mcpi_launch_lsm_dates(mcpi_job_view job, double *table, const double *st, size_t n,
                                  int dates, double *y, double *work, unsigned *done,
                                  cudaEvent_t walking, cudaStream_t stream);

/* The priced paths i < n of a Longstaff-Schwartz job (device view, its table
 * fitted): the plain loop of the bodies with exercise over the stored
 * normals z[s ld + i] (double or float, as precision says), payoffs into
 * pay[col ld + i]; scaled: with the trade's spot Greeks on scaled paths
 * (lsm_greeks.h, where the view writes Greeks).  lanes: the paths may take
 * the lanes' steps (as the fit's): several Heston assets' in double, not
 * scaled, then do (the same bits); and with work (else NULL), of
 * mcpi_lsm_split_bytes(assets, dates, antithetic, ld) bytes, where the
 * job's last step is one of its `dates` exercise dates, their log-spots at
 * every date stored there, then every date's exercise tested at once (the
 * same bits).  ruled: NULL, or an event that the table's fit records:
 * stream waits for it before the first kernel that reads the table (the
 * stored paths need no rule, so they may run beside the fit). */
size_t mcpi_lsm_split_bytes(int nassets, int dates, int antithetic, size_t ld);
cudaError_t mcpi_launch_lsm_price(mcpi_job_view job, const void *z, size_t ld, size_t n,
                                  double *pay, mcp_precision precision, int scaled, int lanes,
                                  int dates, void *work, cudaEvent_t ruled, cudaStream_t stream);

/* The same, scaled, of 2 to 15 Heston assets in double whose paths may
 * take the lanes' steps (as the fit's), all exercise dates and nsc
 * scenarios a path (lsm_greeks.h): the paths record what the scenarios
 * read, a window of `dates` exercise dates at a time, window w's steps
 * first[w] .. first[w + 1] - 1; then a warp a path walks the window's
 * record for its scenarios (lsm_kernel.cu); work holds
 * mcpi_lsm_record_bytes(assets, dates, antithetic, nsc, ld) bytes; start
 * NULL, or where the record's paths leave the sweep's start of the job's
 * Greeks by adjoint (adjoint.h, MCPI_ADJ_START; its checkpoints
 * mcpi_adj_mheston_checkpoints); recorded: NULL, or an event recorded on
 * stream once the last window's record is settled (then the start is
 * whole: the sweep may run beside the last scenarios); ruled as the
 * price's. */
size_t mcpi_lsm_record_bytes(int nassets, int dates, int antithetic, int nsc, size_t ld);
cudaError_t mcpi_launch_lsm_scaled(mcpi_job_view job, const double *z, size_t ld, size_t n, int all,
                                   int dates, const int *first, int nsc, double *pay, void *work,
                                   double *start, cudaEvent_t recorded, cudaEvent_t ruled,
                                   cudaStream_t stream);

/* The combined estimators (greeks.h) of paths i < n: mcpi_combine of each,
 * term and off device arrays. */
cudaError_t mcpi_launch_combine(const mcpi_term *term, const int32_t *off, int nest, int col0,
                                double *pay, size_t ld, size_t n, cudaStream_t stream);

/* Solves every grid of the batch b (device pointers) by the explicit or
 * the theta scheme, the stencil applied by implementation stencil
 * (mcp_stencil) with coarsening 1, 2, 4 or 8; writes b.out. */
cudaError_t mcpi_launch_pde(mcpi_pde_view b, int explicit_scheme, int stencil, int coarsening,
                            cudaStream_t stream);
/* Whether that launch marches in shared memory: then b needs no rows (v,
 * w, u, ex) in global memory. */
int mcpi_pde_staged(mcpi_pde_view b, int explicit_scheme, int stencil, int coarsening);

#ifdef __cplusplus
}
#endif
#endif
