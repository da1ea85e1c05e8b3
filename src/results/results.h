/* results.h: per-trade and book estimates (internal view). */
#ifndef MCP_RESULTS_H
#define MCP_RESULTS_H

#include "mcprice.h"
#include "src/inputs/market.h"

/* Blocks of text that a results object owns: its sensitivities' names,
 * tens of thousands in a large book's Greeks, a malloc each before (the
 * Greeks' collection's largest cost). */
typedef struct mcpi_text {
  struct mcpi_text *next;
  size_t used, cap;
  char at[];
} mcpi_text;

/* One sensitivity (mcp_sensitivity), its strings in its list's text. */
typedef struct mcpi_sens {
  char *name, *u1, *u2; /* one piece, name's (mcpi_sens_add_bucket), label too */
  mcp_greek greek;
  mcp_greek_method method;
  long a, b; /* market indices of the underlyings, or -1 */
  long bucket; /* 0, or 1 + a bucket of label (after the name's '@') */
  char *label;
  mcp_estimate value;
} mcpi_sens;

typedef struct mcpi_sens_list {
  mcpi_sens *s;
  size_t n, cap;
  mcpi_text **text; /* where its names go: its results' (mcpi_results_sens) */
  int unordered; /* 0: s in mcpi_sens_sort's order (as the adds mostly come) */
} mcpi_sens_list;

/* Exercise boundaries (mcp_results_exercise_boundary): trade i's points
 * off[i] .. off[i + 1] - 1 of time and spot; off NULL where none were
 * asked (boundary.h lays them out). */
typedef struct mcpi_bounds {
  size_t *off;
  double *time, *spot;
} mcpi_bounds;

void mcpi_bounds_free(mcpi_bounds *b);
/* A copy of src, of n trades, into dst (empty where src is); 0 when out of
 * memory. */
int mcpi_bounds_copy(mcpi_bounds *dst, const mcpi_bounds *src, size_t n);

struct mcp_results {
  size_t n;
  char **id;
  double *quantity;
  mcp_estimate *est;
  mcp_engine *engine;
  unsigned *warn; /* mcp_warning bits, a trade */
  mcp_estimate total;
  uint64_t paths, seed;
  mcp_backend backend;
  double seconds;
  mcpi_sens_list *sens; /* n + 1 lists: the trades', then the book's; or NULL */
  mcpi_text *text;      /* the lists' names */
  /* autocallables' redemption probabilities: trade i's dates red_off[i] ..
   * red_off[i + 1] - 1 of red_time and red; all NULL where there are none */
  size_t *red_off;
  double *red_time;
  mcp_estimate *red;
  mcpi_bounds bnd; /* the exercise boundaries, where asked */
  /* the grid check's move of each trade's price, fine grid less the grid
   * twice as coarse on the same paths, where grid_on[i] (both NULL where no
   * trade was checked; reval.c) */
  mcp_estimate *grid;
  unsigned char *grid_on;
  /* a scenario point's book loss against its run's market (mcpi_reval
   * losses): the difference of the totals, and the standard error of the
   * paired difference path by path */
  mcp_estimate loss;
};

/* r's n + 1 lists of sensitivities, empty; 0 when out of memory. */
int mcpi_results_sens(mcp_results *r);
/* Appends a sensitivity named after its Greek and, with suffix, its
 * underlyings' names u1, u2 (or NULL); mean and variance give its estimate.
 * An entry of the same Greek and underlyings already there (the book's,
 * term by term) takes the sum instead.  0 when out of memory. */
int mcpi_sens_add(mcpi_sens_list *l, mcp_greek greek, mcp_greek_method method, long a, long b,
                  const char *u1, const char *u2, int suffix, double mean, double var);
/* The same for bucket (mcpi_est.bucket, 0 none) of that label, which ends the
 * name after '@'. */
int mcpi_sens_add_bucket(mcpi_sens_list *l, mcp_greek greek, mcp_greek_method method, long a,
                         long b, long bucket, const char *label, const char *u1, const char *u2,
                         int suffix, double mean, double var);
/* Sorts a list: delta, gamma, cross gamma, vega, rho, theta, then by
 * underlying, then by bucket. */
void mcpi_sens_sort(mcpi_sens_list *l);

mcp_results *mcpi_results_alloc(size_t n);

/* A scenario grid's results (scenario_results.c). */
struct mcp_scenario_results {
  size_t n[MCPI_NAXES]; /* a grid's shifts of each axis; a set's 0 */
  double *shift[MCPI_NAXES];
  mcp_shift_kind kind[MCPI_NAXES];
  size_t npoints;       /* a grid's n[0] n[1] n[2]; a set's nset + 1 */
  mcp_results **point;  /* a grid's point (i, j, k); a set's base, then its scenarios */
  size_t nset;          /* a set's scenarios, named name[s] */
  char **name;
};

#endif
