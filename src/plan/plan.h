/* plan.h: trades grouped into jobs that share simulated paths.
 * A job is one underlying (any model) or a set of correlated Black-Scholes
 * underlyings, one sampling method (plain, antithetic, QMC), one time grid
 * (the union of its trades' fixing times and the run's extra grid), at most
 * MCPI_MAX_SCHEDULES distinct fixing schedules and MCPI_MAX_MONITORS
 * continuously watched barriers; each job draws from its own random stream.
 * Trades with per-path arrays (Himalaya, cliquet, moving window) form jobs of
 * their own: of at most MCP_MAX_REGISTER_ARRAY elements a path when the first
 * trade's array fits that, else of at most MCP_MAX_PRIVATE_ARRAY. */
#ifndef MCP_PLAN_H
#define MCP_PLAN_H

#include <string.h>
#include "src/inputs/market.h"
#include "src/inputs/portfolio.h"
#include "models/products/path.h"
#include "models/qmc.h"

/* What a job estimates beside its prices, in pay column ntrades + 1 + its
 * index: a Greek, or a trade's (or the book's) value at a scenario point;
 * written by the path body (the job's first nin, and the book's sums of
 * those that have no terms, g_book), or the sum of terms
 * (models/products/greeks.h) evaluated after the passes.  Only the body's
 * book sums have no terms (variants.c's book). */
typedef struct mcpi_est {
  long trade;              /* job-local trade, or -1: the book */
  long point;              /* the scenario point (its market) it values at, or -1: a Greek */
  mcp_greek greek;         /* a Greek's: */
  mcp_greek_method method;
  long a, b;               /* the underlyings' market indices, or -1 */
  long bucket;             /* 0, or 1 + the bucket (mcpi_adjoint_label) */
  int book;                /* the book's too, times the trade's quantity: the only
                            * one of its Greek in the job (no column of the book's) */
  size_t term0, nterm;
  /* 1 + the index of the same Greek's estimator of the job's European held
   * (its twin, variants.c; the discretisation move's, grid_check.c), whose
   * value is the trade's where its price is that European's (reval.c); 0:
   * none (a twin follows its own) */
  size_t held;
} mcpi_est;
/* The point of a column written but not asked for (an adjoint block's,
 * variants.c): no result reads it. */
#define MCPI_EST_HIDDEN (-3L)
/* The point of a twin (held above): read only in its trade's stead. */
#define MCPI_EST_HELD (-4L)
/* What a Longstaff-Schwartz trade's price is, by trade (reval.c's now[]):
 * its fitted rule's (0), its exercise value today (exercise_start), or the
 * European held on the same paths (exercise_floor, its twins'). */
enum { MCPI_PRICED_EXERCISED = 1, MCPI_PRICED_HELD = 2 };

/* Values (regression paths x exercise dates x values a date) the
 * Longstaff-Schwartz fit may keep: 1 GiB in double. */
#define MCPI_LSM_MAX_STATES (1 << 27)

/* Volatility slices a local-volatility job may hold (steps x surface spots):
 * 256 MiB in double. */
#define MCPI_MAX_SLICES (1 << 25)

/* What column k of a trade's adjoint block holds (adjoint_plan.c): the
 * Greek of job asset `asset` (-1: of them all) and bucket (0: the total, or
 * 1 + the piece or node of mcpi_adjoint_label); greek -1: element (asset,
 * bucket) of the Cholesky factor's adjoint, of which the correlations are
 * sums (variants.c). */
typedef struct mcpi_adj_col {
  int greek, asset, bucket;
} mcpi_adj_col;

typedef struct mcpi_job {
  const mcpi_underlying *u[MCP_MAX_ASSETS];
  size_t nassets;
  mcpi_model model;
  int nfactors;
  int extrema;        /* its last factor samples the steps' extremes (bridge lookbacks) */
  uint32_t open;      /* schedules whose extremes are their fixings' alone (seasoned
                       * lookbacks on dates, barriers on dates), not from the spot
                       * at 0 */
  int antithetic, qmc;
  uint64_t stream;    /* cuRAND seed of the job's normals */
  size_t nsteps, nelem;
  /* its arrays (models/products/job_arrays.def) */
#define MCPI_JOB_ARRAY(field, type, count) type *field;
#include "models/products/job_arrays.def"
  /* local volatility: the surfaces' spots (lv_n) and their buckets (lv_nb,
   * a unit of the first asset's log-spot lv_binv, the others' lv_bin:
   * local_vol.h) */
  int lv_n, lv_nb;
  double lv_binv;
  /* Longstaff-Schwartz (lsm.h): the job's one trade, first, exercises at the
   * steps of schedule lsm_sched, lsm_dates of them (0: no such trade); the
   * basis's size; the fit's stream and paths.  The table's discount factors
   * and the last date's rule are set here, the rest by the fit (run_job.c) */
  int lsm_dates, lsm_nb, lsm_sched;
  uint64_t lsm_stream, lsm_paths;
  double origin; /* the portfolio's (theta): the market's dividend dates come closer */
  int knotted;   /* some curve knot is among its steps (time_grid.c) */
  unsigned steps_per_year; /* the uniform steps its grid has (0: none; time_grid.c) */
  int nmon;
  double mon_log_barrier[MCPI_MAX_MONITORS], mon_maturity[MCPI_MAX_MONITORS];
  int mon_up[MCPI_MAX_MONITORS], mon_end[MCPI_MAX_MONITORS];
  /* trades: the portfolio's first (nreal, trade[] their indices), then the
   * autocallables' redemption columns, one a date of each in the order of
   * the trades (nred, private.h), then a Longstaff-Schwartz trade's
   * European, held to its last exercise date on the same paths (nheld: 1 in
   * its job, else 0; the lower bound reval.c holds its price to), then the
   * martingale check's forwards, one an asset (none in jobs of per-path
   * arrays): the asset's discounted spot at the job's last date, whose mean
   * is fwd[k] for the k-th of them (controls.c, mcpi_add_forwards; none for
   * an asset whose spot a cash dividend may floor) */
  size_t ntrades, nreal, nred, nheld;
  size_t nacall; /* the autocallables' dates, MCPI_AC_ROW values each (private.h) */
  size_t narr0;  /* the seasoned arrays' values at 0 (private.h) */
  double fwd[MCP_MAX_ASSETS];
  int controls;       /* some trade uses a control variate */
  int arr_len;        /* elements of the per-path array (private.h), 0: none */
  mcpi_bridge bridge; /* QMC */
  mcp_heston_scheme scheme;
  /* Greeks (variants.c): estimators, their terms, and the variants whose
   * payoffs the path kernel also writes, pass p's trades and book in columns
   * ntrades + 1 + nest + p mcpi_pass_width(j) on; pass_adj: the columns
   * after those in each pass, where some pass's job sweeps its paths back
   * (its trades' adjoint blocks: a bumped adjoint's, variants.c), else 0 */
  size_t nest, nin, nterm, npass;
  int pass_adj;
  int gstate;              /* MCPI_GSTATE_*: some trade's vega or rho is estimated on the path */
  double g_l[2];           /* the log shifts of the paths scaled by the spot bumps */
  int32_t g_book[MCPI_BOOK_GREEKS]; /* the book's columns the path body sums (greeks.h),
                                     * -1: none */
  /* bucketed sensitivities by adjoint (adjoint_plan.c): a trade's block of
   * columns (adj_col says what each holds), its volatility buckets, whether
   * it has the dividend yields', the Jacobians' rows */
  int adj_cols, adj_nv, adj_div;
  int adj_q; /* one asset's implied smiles, its vega buckets their quotes (adjoint.h) */
  int adj_cash, adj_ncash; /* the cash dividends' columns (adj_cstep), where asked */
  int adj_bridge;          /* some trade's block is a bridge-watched barrier's */
  /* the Longstaff-Schwartz trade's held European (nheld) not swept: its
   * block stays 0, as its Greeks are read only where the floor reports its
   * price (reval.c, which then runs the job again with its sweep) */
  int adj_held_off;
  /* a trade's block's columns adj_zlo .. adj_zhi - 1 are 0 on every path:
   * the nodes of a surface's rows that no step's slice reads (those after
   * the job's last step; the sweep stores its held rows' zeros at most) */
  int adj_zlo, adj_zhi;
  size_t nadj, nadj_lv, nadj_d;
  size_t nadj_lvr; /* elements with adj_lvr (a surface's rows held: nelem), or 0 */
} mcpi_job;

/* Standard errors by which a simulated underlying's discounted spot may miss
 * its forward before its trades are warned (MCP_WARNING_MARTINGALE): a
 * chance of 6e-7 a job for an unbiased simulation. */
#define MCPI_MARTINGALE_SE 5.0

typedef struct mcpi_plan {
  mcpi_job *jobs;
  size_t njobs;
  uint64_t paths;
  unsigned scramblings; /* replicates of QMC jobs */
  double knot_pair;     /* the bump its knots pair at (time_grid.c), 0 if none stepped */
} mcpi_plan;

/* Uniform steps a year of a job whose model's step is not exact in law
 * (Heston, local volatility, and Merton where a barrier or extreme is
 * watched on the bridge, which does not see the jumps) where the run gives
 * no steps_per_year: daily.  Without them such a job stepped from fixing to
 * fixing (a Heston European in one step).  Black-Scholes and Merton
 * otherwise step exactly from date to date and get no extra steps. */
#define MCPI_MODEL_STEPS_PER_YEAR 252u
/* Whether a job of that model, barrier monitors and extremes factor steps
 * inexactly: the jobs that get MCPI_MODEL_STEPS_PER_YEAR by default and
 * the discretisation check (grid_check.h). */
int mcpi_model_inexact(mcpi_model model, int nmon, int extrema);

/* The largest |rho| / xi of a Heston underlying that float precision
 * prices: the QE step's log-spot takes rho / xi (v' - v) from two terms of
 * that size, which cancel to float's rounding of v times |rho| / xi (a 3%
 * price error at 5,000, measured against double; within 0.5 standard
 * errors at 500 and 950). */
#define MCPI_FLOAT_HESTON_RHO_XI 1000.0
/* MCP_ERR_INPUT where precision is float and a Heston job's underlying has
 * |rho| / xi above MCPI_FLOAT_HESTON_RHO_XI. */
mcp_status mcpi_plan_precision_check(const mcpi_plan *plan, mcp_precision precision, char *err);

/* The most simulation times (steps) a job may have. */
#define MCPI_MAX_STEPS 1000000
/* The largest expected number of jumps in one step (lambda dt). */
#define MCPI_MAX_JUMP_MEAN 50.0
/* Samples the control-variate coefficients are estimated on. */
#define MCPI_PILOT_SAMPLES 16384

/* The coefficients a, b of element f of a step of j from t0 to t1 (path.h;
 * coefficients.c): -1 where a Merton step would expect more than
 * MCPI_MAX_JUMP_MEAN jumps, else 0. */
int mcpi_job_step_coefficients(const mcpi_job *j, double t0, double t1, size_t f, double *a,
                               double *b);
/* Makes elements P .. n - 1 of j those of their place modulo P where each
 * is within rounding of it (the steps of a daily grid on flat curves:
 * coefficients.c), else leaves j as it is. */
void mcpi_job_equal_steps(mcpi_job *j, size_t P, size_t n);
/* A local-volatility job's slice of asset a over a step from t0 to t1 (the
 * job's lv_n spots), in double and float; *row: a bracket of the asset's
 * surface's rows at or before t0's (0 at worst), updated. */
void mcpi_job_slice(const mcpi_job *j, size_t a, double t0, double t1, size_t *row, double *vol,
                    float *vol_f);
/* The slice values (steps x nodes) from which the plan computes a job's
 * slices on the host's threads: the steps are independent, each thread's
 * in order, so that its bracket moves forward. */
#define MCPI_PARALLEL_SLICES 16384
/* The trades, and the jobs, from which the plan keys the trades and builds
 * the jobs on the host's threads (plan.c): a large book's planning is a
 * fifth of its call on a GPU. */
#define MCPI_PARALLEL_TRADES 512
#define MCPI_PARALLEL_JOBS 8
/* Adds to d[k ld + m] (node k's rows m of the asset's surface) the
 * derivative of that slice's node k (each of the surface's own, of value
 * v[k]), in the surface's value at row m and node k; the rows it adds to
 * are *lo .. the returned one less one, the same for every node (a node
 * whose v[k] is not above 0 has none: its column is added zeros, which
 * the caller leaves).  One node's sums are those it had alone: the
 * rows' brackets and weights are found once for them all. */
size_t mcpi_job_slice_jacobian(const mcpi_job *j, size_t a, double t0, double t1,
                               const double *v, double *d, size_t ld, size_t *lo);

/* Which job-shaped path state (path.h) a job fits: 0 none; MCPI_SHAPE_SMALL,
 * one Black-Scholes underlying, trades that use at most MCPI_SMALL_SCHEDULES
 * schedules and MCPI_SMALL_MONITORS monitors, and no per-path arrays;
 * MCPI_SHAPE_PLAIN, the same with no monitor and no log-sums or extremes
 * read; MCPI_SHAPE_HESTON_PLAIN and MCPI_SHAPE_LV_PLAIN, that of one Heston
 * (by QE) or local-volatility underlying, its steps not held (not the
 * discretisation check's coarse pass). */
int mcpi_job_small(const mcpi_job *j);
/* Whether job j runs in the state of shape (one of the above, or 0: the
 * general state, which every job fits): a pass whose job does not fit its
 * base job's shape (the coarse pass of the check) runs the general state. */
int mcpi_job_shape_fits(const mcpi_job *j, int shape);
/* The shape whose state the forward path of a job with bucketed
 * sensitivities by adjoint (gstate MCPI_GSTATE_ADJOINT) may run in:
 * MCPI_SHAPE_LV_PLAIN (MCPI_SHAPE_HESTON_PLAIN) for one local-volatility
 * (Heston) asset whose trades fit it and whose payoffs read nothing but
 * sums (the sweep and the Greeks on the path read the whole observation,
 * so mcpi_job_small gives such a job none: here what those trades read of
 * it is the same), else 0. */
int mcpi_job_adjoint_shape(const mcpi_job *j);
/* The name a wisdom (mcp_wisdom) knows a job's kernel by in precision prec:
 * its precision, its model (and basket), its state (general, shaped or
 * plain) and per-path arrays or QMC, as "double black-scholes plain", into
 * buf (n bytes); 0 for a job whose kernels have no option to tune (Longstaff-
 * Schwartz, a bucketed adjoint), else 1. */
int mcpi_job_tune_shape(const mcpi_job *j, mcp_precision prec, char *buf, size_t n);
/* What the kernel catalogue lacks in precision prec (catalogue.def), for
 * the CUDA backend and the tuner alike: mixed has no fused kernel with
 * per-path arrays (such a job draws its normals stored), and no prefetch
 * ring for the plain shape's own state (such a job runs without one: a
 * ring's kernel would step the shaped state's double exp, other bits). */
int mcpi_job_stored_only(const mcpi_job *j, mcp_precision prec);
int mcpi_job_ringless(const mcpi_job *j, mcp_precision prec);

/* The jobs of p's Monte Carlo trades, grid trades (of the numerics grid,
 * NULL: the portfolio's own, pde.h) left out. */
mcp_status mcpi_plan_build(const mcp_market *m, const mcp_portfolio *p,
                           const mcp_pde_settings *grid, mcpi_plan *plan, char *err);
/* Theta's bump in plan: bump, at most half a uniform step of any job. */
double mcpi_plan_theta_bump(const mcpi_plan *plan, double bump);
void mcpi_plan_free(mcpi_plan *plan);
/* A worker's view of base, a plan that workers share (spread.c): its jobs
 * copied by value, reading base's arrays in place but for the MCPI_RUN_ARRAY
 * rows (job_arrays.def) that a run writes, which are its own.  base is by
 * (var -1), or the plan of by's variant var, of which a run writes the jobs
 * it is a pass of alone; a row's condition reads by's job.  MCP_OK, or
 * MCP_ERR_NO_MEMORY with a message in err (out then needs mcpi_plan_unshare
 * too). */
mcp_status mcpi_plan_share(const mcpi_plan *base, const mcpi_plan *by, long var, mcpi_plan *out,
                           char *err);
/* Frees what mcpi_plan_share made of base into p. */
void mcpi_plan_unshare(mcpi_plan *p, const mcpi_plan *base);
/* The job as the path body sees it (host pointers). */
mcpi_job_view mcpi_job_host_view(const mcpi_job *j);

/* Samples of a job (pairs when antithetic) and replicates (scramblings of
 * QMC, else 1); every replicate draws samples_per_replicate. */
unsigned mcpi_job_replicates(const mcpi_plan *plan, const mcpi_job *j);
uint64_t mcpi_job_samples(const mcpi_plan *plan, const mcpi_job *j);
/* The index among j's assets of the underlying called name, one of them. */
static inline size_t mcpi_job_asset(const mcpi_job *j, const char *name)
{
  size_t a = 0;
  while (strcmp(j->u[a]->name, name) != 0)
    a++;
  return a;
}
/* Columns reduced: the trades, the book and the estimators; or, with the
 * controls, those the pilot reads: the trades, the book and the controls. */
static inline size_t mcpi_job_columns(const mcpi_job *j, int controls)
{
  return j->ntrades + 1 + (controls ? j->ntrades : j->nest);
}
/* Columns of each of a job's passes: its trades, its book, and pass_adj. */
static inline size_t mcpi_pass_width(const mcpi_job *j)
{
  return j->ntrades + 1 + (size_t)j->pass_adj;
}
/* Columns of a tile's pay matrix: the most either run writes (the pilot
 * writes the job's and then each pass's mcpi_job_columns(j, 1)). */
static inline size_t mcpi_job_pay_columns(const mcpi_job *j)
{
  size_t run = j->ntrades + 1 + j->nest + j->npass * mcpi_pass_width(j);
  size_t pilot = (1 + j->npass) * (2 * j->ntrades + 1);
  return run > pilot ? run : pilot;
}
/* The offsets of the job's combined estimators' terms (nest - nin + 1), for
 * mcpi_combine; NULL when out of memory. */
int32_t *mcpi_job_term_offsets(const mcpi_job *j);
/* The Longstaff-Schwartz rules of from's table (fitted) into to's, whose
 * dates' discount factors stay its own. */
void mcpi_lsm_copy_rules(const mcpi_job *from, mcpi_job *to);
/* A Longstaff-Schwartz job's basis as from's reads it (its returns' origin
 * and unit) into to, a Greek's revaluation of it: the frozen rule is then
 * the same function of the spots, whatever the bump (lsm.h). */
void mcpi_lsm_keep_basis(const mcpi_job *from, mcpi_job *to);
/* Whether a run of job j whose view writes Greeks (greeks) estimates its
 * Longstaff-Schwartz trade's spot Greeks on scaled paths: the kernels of
 * the MCPI_LSM_SCALED families (path_families.def). */
static inline int mcpi_lsm_scaled_on(const mcpi_job *j, int greeks)
{
  return j->lsm_dates && greeks && j->spec[0].g_col >= 0;
}
/* Sets the control-variate coefficients from the pilot's n samples in pay
 * (columns as written with controls, leading dimension ld). */
void mcpi_job_set_betas(mcpi_job *j, const double *pay, size_t ld, size_t n);

/* A Longstaff-Schwartz trade's spec (lsm_plan.c; its product units call
 * it): what it exercises, and the unit of its basis, the strike (or the
 * underlying at 0 for a strike of 0). */
void mcpi_lsm_spec(const mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s);

#endif
