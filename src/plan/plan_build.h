/* plan_build.h: what the pieces of mcpi_plan_build share, inside src/plan
 * alone.  plan.c groups the trades into jobs by their keys, filling a draft
 * of each (draft.c), and builds each job in turn: its simulation times
 * (time_grid.c), its coefficients (coefficients.c, and correlation.c for
 * several assets), its payoff specs (specs.c, with the control variates
 * and forwards of controls.c) and a Longstaff-Schwartz trade's table
 * (lsm_plan.c). */
#ifndef MCP_PLAN_BUILD_H
#define MCP_PLAN_BUILD_H

#include "src/plan/plan.h"

/* What trades must share to share paths. */
typedef struct job_key {
  size_t n, asset[MCP_MAX_ASSETS]; /* market indices, increasing */
  int antithetic, qmc;
  int array;                       /* products with per-path arrays (private.h) */
  int extrema;                     /* bridge lookbacks: a factor samples the extremes */
  size_t lsm;                      /* Longstaff-Schwartz: its trade + 1, a job each */
  double maturity;                 /* multi-asset and extrema jobs: one maturity */
} job_key;

/* A fixing schedule: n times; open: its extremes are its fixings' alone
 * (1: plan.h's mcpi_job), start from the spot at 0 (0), or are read by none
 * of its trades (MCPI_OPEN_ANY: it shares a schedule of its dates of either
 * kind, which the first trade that reads them makes its own). */
#define MCPI_OPEN_ANY 2
typedef struct schedule {
  size_t n;
  const double *t;
  int open;
} schedule;

typedef struct monitor {
  double barrier, maturity;
  int up;
} monitor;

/* A job being filled: its schedules and monitors. */
typedef struct job_draft {
  schedule sched[MCPI_MAX_SCHEDULES];
  int nsched;
  monitor mon[MCPI_MAX_MONITORS];
  int nmon;
  int arr_len, arr_cap; /* of the per-path array */
  schedule ex;          /* an American by Monte Carlo (its job's one trade): its dates */
} job_draft;

static inline int mcpi_multi_asset(const mcpi_trade *t) { return t->nassets > 1; }

/* Its fixings in all (a seasoned one's past ones too): its array's. */
static inline int mcpi_trade_array_len(const mcpi_trade *t)
{
  return mcpi_private_len(t->product, (int)(t->nfix_all ? t->nfix_all : t->nfix),
                          (int)t->window);
}

/* The trade's schedule and its terminal schedule (the maturity alone); an
 * American by Monte Carlo's is its exercise dates, which the draft holds. */
static inline schedule mcpi_main_schedule(const job_draft *d, const mcpi_trade *t)
{
  /* a lookback's extremes start from the spot at 0, but a seasoned one's on
   * dates (the extremes of its fixings to come); a barrier watched on dates
   * is knocked at its fixings alone (today's spot is not one); the other
   * products read no extremes of their dates */
  int open = t->product == MCP_PRODUCT_LOOKBACK
                 ? t->extremes && t->monitoring == MCP_MONITOR_DISCRETE
             : t->product == MCP_PRODUCT_BARRIER && t->monitoring != MCP_MONITOR_BRIDGE
                 ? 1
                 : MCPI_OPEN_ANY;
  return t->product == MCP_PRODUCT_AMERICAN && d->ex.n ? d->ex
                                                       : (schedule){t->nfix, t->fix, open};
}
static inline schedule mcpi_terminal_schedule(const mcpi_trade *t)
{
  return (schedule){1, &t->maturity, MCPI_OPEN_ANY};
}

/* The draft's schedule of the dates of s (within MCPI_TIME_EPS), or -1. */
int mcpi_find_schedule(const job_draft *d, schedule s);
/* The draft's monitor of the trade's barrier, or -1 (none yet, or none). */
int mcpi_find_monitor(const job_draft *d, const mcpi_trade *t);
/* Adds the trade's schedules and monitor to the draft if they fit. */
int mcpi_draft_add(job_draft *d, const mcpi_trade *t);

/* Index of t in the sorted grid g[0..n), which holds it. */
size_t mcpi_grid_index(const double *g, size_t n, double t);

/* The steps of building job j from its draft d, in the order build_job
 * takes them (plan.c), each MCP_OK or the error in err. */

/* Its simulation times (mk: the market whose underlyings j->u point into). */
mcp_status mcpi_build_grid(mcpi_job *j, const mcp_market *mk, const mcp_portfolio *p,
                           const job_draft *d, char *err);
/* The per-element coefficients of path.h, and the fixing tags. */
mcp_status mcpi_build_coefficients(mcpi_job *j, const job_draft *d, char *err);
/* Several assets (k's): the Cholesky factor of the correlations of the
 * job's factors; t, its first trade, is the one its errors name. */
mcp_status mcpi_build_correlation(mcpi_job *j, const mcp_market *m, const job_key *k,
                                  const mcpi_trade *t, char *err);
/* The payoff specs (payoff.h) of the job's trades, then those it adds
 * (plan.h, mcpi_job: redemptions, a European held, forwards). */
mcp_status mcpi_build_specs(mcpi_job *j, const mcp_portfolio *p, const job_draft *d, char *err);
/* The Longstaff-Schwartz table's discount factors and the last date's
 * rule (lsm.h); the fit sets the other rules. */
mcp_status mcpi_lsm_table(mcpi_job *j, const mcp_portfolio *p, const job_draft *d, char *err);

/* The parts of the specs that mcpi_build_specs takes from controls.c and
 * lsm_plan.c. */

/* The trade's control variate and its mean. */
void mcpi_set_control(const mcpi_job *j, const mcpi_trade *t, mcpi_payoff_spec *s);
/* The martingale check's forwards, after the job's trades. */
void mcpi_add_forwards(mcpi_job *j, const job_draft *d);

#endif
