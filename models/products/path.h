/* path.h: one Monte Carlo sample of a job, the body shared by the CPU loop and
 * the CUDA path kernels (path_body.h, included once per family of
 * path_families.def: precision, state sizes, what it carries).
 *
 * A job's normals form a stream of elements e = s F + f: step s, factor f of
 * the F its model draws a step (Black-Scholes 1, Heston 2, Merton 3, the
 * correlated multi-asset model one an asset).  Each element comes with two
 * coefficients a, b and a tag (the factor, and on a step's last element the
 * schedules fixing there); the model decides what a and b mean:
 *   Black-Scholes   a = drift, b = standard deviation of the log-spot step;
 *   Merton          f 0: the diffusion's a, b; f 1: a = lambda dt;
 *                   f 2: a = mean, b = deviation of a log-jump;
 *   Heston          f 0: a = (r - q) dt, b = dt; f 1: a = e^{-kappa dt};
 *   multi-asset     f i: asset i's drift and deviation.
 * A path is init, one call per element, finish: the GPU's prefetch
 * strategies differ only in how an element's inputs reach registers.  The
 * normals of a path are z[0], z[ldz], z[2 ldz], ...; finish writes the
 * discounted payoff of trade t to pay[t ldp] and the book value to
 * pay[ntrades ldp], in double either way.  An antithetic sample is two passes
 * (sign +1, then -1); the second averages into what the first wrote. */
#ifndef MCP_PATH_H
#define MCP_PATH_H

#include <stddef.h>
#include "models/gbm.h"
#include "models/local_vol.h"
#include "models/mcp_dmath.h"
#include "models/model.h"
#include "models/products/payoff.h"
#include "models/products/greeks.h"
#include "models/products/lsm.h"
#include "models/products/lsm_greeks.h"

#define MCPI_TAG_MASK 0xffu        /* schedules fixing at the end of this step */
#define MCPI_TAG_FACTOR_SHIFT 16   /* the element's factor */
#define MCPI_TAG_LAST (1u << 31)   /* the step's last element */
#define MCPI_TAG_CASH (1u << 30)   /* a cash dividend at the end of this step (last element) */
/* The grid check's coarse pass (plan.h, mcpi_grid_layout): the same element
 * stream with two consecutive steps merged into one where the first ends on
 * no event.  Each element of the first step (HOLD) keeps its normal times
 * a = sqrt(dt1 / (dt1 + dt2)) and takes no model step and no observation
 * (its last element still counts the step, so per-step arrays index alike);
 * b = sqrt(dt2 / (dt1 + dt2)) is the weight of the normal of the same
 * factor in the second step (MERGE), which then steps the model on the
 * merged normal z_c = a z_1 + b z_2, the exact Brownian increment of the
 * two, with the coarse step's coefficients.  Only the general single-asset
 * state, the multi-Heston state and the checked Heston kernel's coarse path
 * (path_kernel.cuh, coarse_twin) carry it (Black-Scholes jobs, whose steps
 * are exact, get no check). */
#define MCPI_TAG_HOLD (1u << 29)
#define MCPI_TAG_MERGE (1u << 28)
/* The most factors of a single-asset step (Merton's three and the extremes'). */
#define MCPI_HOLD_FACTORS 4
/* The most elements of a constant step's period (mcpi_job_view.uniform,
 * .paired): a Heston asset's two factors, over the two steps of a merged
 * pair; an element's coefficients in both precisions, and its tag. */
#define MCPI_UNIFORM_PERIOD 4
typedef struct {
  double a, b;
  float a_f, b_f;
  uint32_t tag;
} mcpi_uniform_element;
/* What a single-asset path records at its fixings besides the sum of spots:
 * the sum of log-spots (geometric averages) and the extremes (lookbacks,
 * barriers watched on dates); a job records only what its trades read. */
#define MCPI_TRACK_LOG_SUM 1
#define MCPI_TRACK_EXTREMA 2

/* The most normals a multi-asset step draws (two an asset under Heston), and
 * the row stride of the Cholesky factor of their correlations. */
#define MCPI_MAX_FACTORS (2 * MCP_MAX_ASSETS)
#define MCPI_CHOL_SIZE (MCPI_MAX_FACTORS * MCPI_MAX_FACTORS)

/* The path state a job runs (path_body.h): one asset (0), several
 * Black-Scholes assets (1), several Heston assets (2), several
 * local-volatility assets (3). */
#define MCPI_ASSETS_KIND(nassets, model)                                                     \
  ((nassets) > 1 ? ((model) == MCPI_MODEL_HESTON     ? 2                                    \
                    : (model) == MCPI_MODEL_LOCAL_VOL ? 3                                    \
                                                      : 1)                                   \
                 : 0)

/* An underlying's Heston parameters (heston.h), and the terms of its QE
 * step that they alone fix, in double and in float (mcpi_heston_view
 * computes them in each precision): rho / xi, kappa rho / xi - 1/2,
 * -rho kappa theta, xi^2 / kappa. */
typedef struct mcpi_heston {
  double kappa, theta, xi, rho, v0;
  double rx, krx, rkt, xk;
  float rx_f, krx_f, rkt_f, xk_f;
} mcpi_heston;

static inline mcpi_heston mcpi_heston_view(double kappa, double theta, double xi,
                                           double rho, double v0)
{
  mcpi_heston h = {0};
  h.kappa = kappa;
  h.theta = theta;
  h.xi = xi;
  h.rho = rho;
  h.v0 = v0;
  h.rx = rho / xi;
  h.krx = kappa * rho / xi - 0.5;
  h.rkt = -rho * kappa * theta;
  h.xk = xi * xi / kappa;
  float k = (float)kappa, t = (float)theta, x = (float)xi, r = (float)rho;
  h.rx_f = r / x;
  h.krx_f = k * r / x - 0.5f;
  h.rkt_f = -r * k * t;
  h.xk_f = x * x / k;
  return h;
}

typedef struct mcpi_job_view {
  double log_spot;           /* single asset */
  int32_t nelem, ntrades;    /* elements (steps x factors) and trades */
  int32_t model;             /* mcpi_model, single asset */
  int32_t nassets;           /* 1, or the multi-asset model's assets */
  int32_t antithetic;        /* two passes a sample */
  int32_t write_controls;    /* also write control values to columns ntrades + 1 + t */
  int32_t scheme;            /* mcp_heston_scheme */
  int32_t nmon;              /* barrier monitors in use */
  int32_t arr_len;           /* elements of the per-path array (private.h), 0: none */
  int32_t narrays;           /* the trades that own a part of it, the first (the
                              * redemption columns after them only read) */
  int32_t greeks;            /* write the trades' Greek columns (greeks.h) */
  int32_t gstate;            /* MCPI_GSTATE_* (greeks.h): run the _g body, read the LR scores */
  int32_t track;             /* MCPI_TRACK_*: what the fixings record besides the sums */
  int32_t extrema;           /* the factor whose element samples the step's extremes
                              * (bridge lookbacks, path_body.h), 0: none */
  uint32_t open;             /* schedules whose extremes start with their first fixing
                              * (plan.h's mcpi_job) */
  int32_t nsched;            /* the schedules in use, the first ones: the general
                              * state starts those alone (path_body.h) */
  mcpi_greek_job g;          /* what the on-path Greeks read (greeks.h) */
  mcpi_heston heston[MCP_MAX_ASSETS];   /* Heston: an asset's parameters */
  double log_spots[MCP_MAX_ASSETS];      /* multi-asset */
  double mon_log_barrier[MCPI_MAX_MONITORS];
  int32_t mon_up[MCPI_MAX_MONITORS], mon_end[MCPI_MAX_MONITORS]; /* last step watched */
  /* the job's arrays that the path body reads (job_arrays.def), NULL when
   * empty */
#define MCPI_VIEW_ARRAY(field, type, count, view) const type *view;
#include "models/products/job_arrays.def"
  int32_t lv_n;              /* local volatility: the slices' spots (local_vol.h) */
  int32_t lv_nb;             /* the log-spots' buckets */
  double lv_binv;            /* buckets a unit of log-spot */
  /* Longstaff-Schwartz (lsm.h): the basis's size; the schedule bit of the
   * exercise dates in the tags */
  int32_t lsm_nb;
  uint32_t lsm_mask;
  int32_t adj_cols;          /* a trade's adjoint block (adjoint.h): delta, the
                              * volatility's adj_nv buckets, the rate's */
  int32_t adj_nv;
  int32_t adj_div;           /* the block has the dividend yields' columns */
  int32_t adj_q;             /* an implied surface's smiles (adjoint.h), or 0 */
  int32_t adj_cash, adj_ncash; /* the cash dividends' first column and count */
  int32_t adj_bridge;        /* some trade's block is a barrier's watched on the bridge */
  int32_t adj_held_off;      /* an early exercise's held European not swept (plan.h) */
  uint64_t seed;             /* the job's Philox seed (rng.h), for fused normals */
  uint64_t p0;               /* the tile's first sample, likewise */
  /* A job of constant steps (job_view.c): element e is u[e % F], F its
   * factors (1, or a Heston asset's 2), but for the last one's tag
   * (utag_last); its fused plain kernels then read no coefficient arrays.
   * A grid check's pass that merges every pair of the job's constant steps
   * (paired): element e is u[e % 2F] but for the last step's, so that the
   * checked kernel's coarse path has its coefficients and tags as
   * constants too (path_kernel.cuh, coarse_twin). */
  int32_t uniform, paired;
  uint32_t utag_last;
  mcpi_uniform_element u[MCPI_UNIFORM_PERIOD];
} mcpi_job_view;

/* Writes trade t's value on pass (0, or 1 for the antithetic partner, which
 * averages with pass 0) and adds it to the book. */
MCP_HD static inline void mcpi_emit(const mcpi_job_view *j, int t, double y, double x,
                                    double *pay, size_t ldp, int pass, double *book)
{
  const mcpi_payoff_spec *p = &j->trades[t];
  double v = p->control ? y - p->beta * (x - p->control_mean) : y;
  if (pass) { /* the control columns exist only while they are written */
    v = 0.5 * (pay[(size_t)t * ldp] + v);
    if (j->write_controls)
      x = 0.5 * (pay[(size_t)(j->ntrades + 1 + t) * ldp] + x);
  }
  pay[(size_t)t * ldp] = v;
  if (j->write_controls)
    pay[(size_t)(j->ntrades + 1 + t) * ldp] = x;
  *book += p->quantity * v;
}

#include "models/products/private.h"

/* Phi in float: each side's library (in double mcp_dmath.h's, the same bits
 * on both) */
#ifdef __CUDACC__
#define MCPI_NCDF_F normcdff
#else
#define MCPI_NCDF_F(x) (0.5f * erfcf(-(x) * 0.70710678118654752440f))
#endif

/* The states' sizes where a family fixes them (path_families.def): the
 * Longstaff-Schwartz bodies', the job-shaped and the plain shape's; and the
 * shape a job fits (mcpi_job_small). */
#define MCPI_LSM_SCHEDULES 2
#define MCPI_SMALL_SCHEDULES 2
#define MCPI_SMALL_MONITORS 1
#define MCPI_PLAIN_SCHEDULES 2
#define MCPI_SHAPE_SMALL 1
#define MCPI_SHAPE_PLAIN 2
#define MCPI_SHAPE_HESTON_PLAIN 3
#define MCPI_SHAPE_LV_PLAIN 4

/* The body once a family of path_families.def. */
#include "models/products/path_families.h"

#endif
