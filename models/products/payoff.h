/* payoff.h: product payoffs, shared by the CPU and GPU backends, in double.
 * A single-asset path keeps, for each of its job's fixing schedules, the sum
 * of the spot, the sum of the log-spot and the extremes of the log-spot
 * (starting from the spot at 0), and for each continuously watched barrier
 * the probability that the path has not crossed it.  A multi-asset path ends
 * with the terminal spots of its assets.  A trade reads its schedule (the
 * averaging, lookback or monitoring dates) and its terminal schedule (the
 * maturity alone). */
#ifndef MCP_PAYOFF_H
#define MCP_PAYOFF_H

#include <math.h>
#include <stdint.h>
#include "models/mcp_hd.h"
#include "mcprice.h"

/* Distinct fixing schedules and continuously watched barriers a job tracks
 * at once; their state lives in registers (indices are compile-time
 * constants after unrolling). */
#define MCPI_MAX_SCHEDULES 8
#define MCPI_MAX_MONITORS 4

typedef enum mcpi_control {
  MCPI_CV_NONE = 0,
  MCPI_CV_TERMINAL,  /* discounted terminal spot (or weighted basket of them) */
  MCPI_CV_GEOMETRIC, /* the geometric Asian of the same strike and fixings */
  MCPI_CV_AVERAGE,   /* the discounted arithmetic average of the fixings */
  MCPI_CV_VANILLA    /* the discounted European of the same type and strike at maturity */
} mcpi_control;

enum { MCPI_UP = 1, MCPI_KNOCK_IN = 2, MCPI_FLOATING = 4, MCPI_GEOMETRIC = 8, MCPI_ASSET = 16,
       /* exercised by Longstaff-Schwartz (lsm.h), on several assets' best or worst */
       MCPI_LSM = 32, MCPI_LSM_BEST = 64, MCPI_LSM_WORST = 128,
       /* an autocallable's coupons not paid stay due */
       MCPI_MEMORY = 256,
       /* the Longstaff-Schwartz trade held to its last date: its European (plan.h) */
       MCPI_LSM_HELD = 512,
       /* a seasoned lookback: its extremes so far, log_max0 and log_min0 */
       MCPI_KNOWN_EXTREMES = 1024,
       /* a seasoned array's: its array starts from the view's arr0 at
        * arr_seed - 1, and a Himalaya's performances are from log_initial */
       MCPI_SEEDED = 2048 };

typedef struct mcpi_payoff_spec {
  /* What a single-asset trade's finish reads in the path body, its
   * on-path Greeks' fields included, comes first: its first line of 128
   * bytes, the scaled paths' shifts in the next 64 (each spec starts a line
   * on the device: backend_cuda.c), where they were spread over five lines
   * (bench/RESULTS.md, "A trade's spec in two lines") */
  int32_t product;  /* mcp_product */
  int32_t type;     /* mcp_option_type */
  int32_t schedule; /* which of the job's schedules the trade reads */
  int32_t terminal; /* the schedule holding the maturity alone */
  int32_t monitor;  /* the barrier monitor (bridge), or -1: the schedule's extremes */
  int32_t flags;    /* MCPI_UP, ... */
  int32_t control;  /* mcpi_control */
  uint32_t assets;  /* multi-asset: bit i for the job's asset i */
  /* Greeks estimated on the path (greeks.h): the first column written, or
   * -1, and the estimator of each (mcpi_gm); the first column of its
   * adjoint block (adjoint.h), or -1 */
  int32_t g_col, g_delta, g_gamma, g_cross, g_vega, g_rho;
  int32_t g_adj, pad_; /* (pad_: the doubles after it on their 8 bytes) */
  double strike;
  double inv_nfix;  /* 1 / number of fixings */
  double discount;  /* discount factor to the payment date */
  double quantity;
  double rebate;
  /* the reciprocals of the delta's denominator (S0 pathwise, 2 h S0 scaled)
   * and of the scaled gamma's ((h S0)^2), which the paths multiply by; the
   * payment time (the discount's rho) and the sum of the schedule's fixing
   * times */
  double g_rd, g_rg, g_time, g_fix_time;
  /* the relative spot bump h, the spot, the scaled paths' log shifts
   * log(1 + h), log(1 - h), their factors and the shifts of the log-sum
   * (greeks.h's mcpi_observed_scaled) */
  double g_l[2], g_e[2], g_lsum[2], g_h, g_s0;
  double log_barrier; /* log of the (shifted) barrier */
  double log_max0, log_min0; /* MCPI_KNOWN_EXTREMES */
  double cash;
  double beta, control_mean; /* the control variate's coefficient and mean */
  double weight[MCP_MAX_ASSETS]; /* basket */
  /* products with a per-path array (private.h) */
  int32_t arr_off, arr_len; /* the trade's part of the path's array */
  int32_t arr_seed;         /* MCPI_SEEDED: 1 + its first value in the view's arr0 */
  int32_t nper;             /* fixings (Himalaya: one an asset) */
  int32_t best;             /* cliquet: returns summed, the best ones */
  int32_t window;           /* moving window */
  double notional, inv_window;
  double local_floor, local_cap, global_floor, global_cap;
  double barrier;           /* moving window: the level of the average, 0 for none */
  double lsm_inv;           /* Longstaff-Schwartz: 1 / the basis's unit (lsm.h) */
  /* autocallable (private.h): its first row in the view's table of dates,
   * the coupon, the coupon barrier and the knock-in level as log-performances,
   * the logs of the initial fixings (by the job's assets; Longstaff-Schwartz:
   * the log-spots its basis's returns are from, lsm.h); a redemption
   * column's date; a seasoned one's coupons due and knock-in (private.h) */
  int32_t ac_row, ac_date, ac_due0, ac_knocked0;
  double coupon, log_coupon, log_knock_in;
  double log_initial[MCP_MAX_ASSETS];
  double pad_end_; /* a multiple of 128 bytes */
} mcpi_payoff_spec;

/* What a single-asset path hands to the payoffs for one trade. */
typedef struct mcpi_observed {
  double sum, log_sum, log_max, log_min; /* over the trade's schedule */
  double terminal;                       /* the spot at maturity */
  double survival; /* probability of no barrier crossing, when watched continuously */
} mcpi_observed;

MCP_HD static inline double mcpi_vanilla(int type, double x, double strike)
{
  double v = type == MCP_CALL ? x - strike : strike - x;
  return v > 0 ? v : 0;
}

/* The average of the trade's fixings, arithmetic or geometric. */
MCP_HD static inline double mcpi_average(const mcpi_payoff_spec *p, const mcpi_observed *o)
{
  return p->flags & MCPI_GEOMETRIC ? exp(o->log_sum * p->inv_nfix) : o->sum * p->inv_nfix;
}

/* Whether the path's maximum (minimum) is a lookback's: not a seasoned
 * one's beyond it. */
MCP_HD static inline int mcpi_path_max(const mcpi_payoff_spec *p, const mcpi_observed *o)
{
  return !(p->flags & MCPI_KNOWN_EXTREMES) || o->log_max > p->log_max0;
}
MCP_HD static inline int mcpi_path_min(const mcpi_payoff_spec *p, const mcpi_observed *o)
{
  return !(p->flags & MCPI_KNOWN_EXTREMES) || o->log_min < p->log_min0;
}

/* Undiscounted payoff of a single-asset trade. */
MCP_HD static inline double mcpi_payoff(const mcpi_payoff_spec *p, const mcpi_observed *o)
{
  int call = p->type == MCP_CALL;
  switch (p->product) {
  case MCP_PRODUCT_DIGITAL: {
    int in = call ? o->terminal > p->strike : o->terminal < p->strike;
    return in ? (p->flags & MCPI_ASSET ? o->terminal : p->cash) : 0;
  }
  case MCP_PRODUCT_ASIAN: {
    double a = mcpi_average(p, o);
    return p->flags & MCPI_FLOATING ? mcpi_vanilla(p->type, o->terminal, a)
                                    : mcpi_vanilla(p->type, a, p->strike);
  }
  case MCP_PRODUCT_AVERAGE_DIGITAL: {
    double a = mcpi_average(p, o);
    int in = call ? a > p->strike : a < p->strike;
    return in ? (p->flags & MCPI_ASSET ? a : p->cash) : 0;
  }
  case MCP_PRODUCT_LOOKBACK: {
    double mx = mcpi_path_max(p, o) ? o->log_max : p->log_max0;
    double mn = mcpi_path_min(p, o) ? o->log_min : p->log_min0;
    if (p->flags & MCPI_FLOATING)
      return call ? o->terminal - exp(mn) : exp(mx) - o->terminal;
    return mcpi_vanilla(p->type, exp(call ? mx : mn), p->strike);
  }
  case MCP_PRODUCT_BARRIER: {
    /* survival: 1 or 0 when watched on dates, a probability on a bridge */
    double alive = p->monitor >= 0 ? o->survival
                   : p->flags & MCPI_UP ? (o->log_max < p->log_barrier)
                                        : (o->log_min > p->log_barrier);
    double live = p->flags & MCPI_KNOCK_IN ? 1 - alive : alive;
    return live * mcpi_vanilla(p->type, o->terminal, p->strike) + (1 - live) * p->rebate;
  }
  default: /* European */
    return mcpi_vanilla(p->type, o->terminal, p->strike);
  }
}

/* The control variate's discounted value on the same path. */
MCP_HD static inline double mcpi_control_value(const mcpi_payoff_spec *p, const mcpi_observed *o)
{
  switch (p->control) {
  case MCPI_CV_GEOMETRIC:
    return p->discount * mcpi_vanilla(p->type, exp(o->log_sum * p->inv_nfix), p->strike);
  case MCPI_CV_AVERAGE: return p->discount * o->sum * p->inv_nfix;
  case MCPI_CV_TERMINAL: return p->discount * o->terminal;
  case MCPI_CV_VANILLA: return p->discount * mcpi_vanilla(p->type, o->terminal, p->strike);
  default: return 0;
  }
}

/* Undiscounted payoff of a multi-asset trade from the terminal spots. */
MCP_HD static inline double mcpi_payoff_multi(const mcpi_payoff_spec *p, const double *spot,
                                              int nassets, double *control)
{
  double basket = 0, best = -INFINITY, worst = INFINITY, sum = 0;
  for (int i = 0; i < nassets; i++)
    if (p->assets >> i & 1u) {
      basket += p->weight[i] * spot[i];
      sum += spot[i];
      best = spot[i] > best ? spot[i] : best;
      worst = spot[i] < worst ? spot[i] : worst;
    }
  double x = p->product == MCP_PRODUCT_BASKET ? basket
             : p->product == MCP_PRODUCT_BEST_OF ? best
                                                 : worst;
  /* the control: the discounted basket, or the assets' plain sum */
  *control = p->discount * (p->product == MCP_PRODUCT_BASKET ? basket : sum);
  return mcpi_vanilla(p->type, x, p->strike);
}

#endif
