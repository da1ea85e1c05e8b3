/* payoff.h: product payoffs and the path state they need, shared by the CPU and
 * GPU backends.  Every product observes the spot on a schedule of fixing times
 * (a European on its maturity alone) and reads two running sums over it: the
 * spot and the log-spot. */
#ifndef MCP_PAYOFF_H
#define MCP_PAYOFF_H

#include <math.h>
#include <stdint.h>
#include "mcp_hd.h"
#include "mcprice.h"

typedef enum mcpi_product {
  MCPI_EUROPEAN = 0,
  MCPI_ASIAN_ARITHMETIC,
  MCPI_ASIAN_GEOMETRIC
} mcpi_product;

/* Distinct fixing schedules a path job tracks at once; their sums live in
 * registers (the indices are compile-time constants after unrolling). */
#define MCPI_MAX_SCHEDULES 8

typedef struct mcpi_payoff_spec {
  int32_t product;  /* mcpi_product */
  int32_t type;     /* mcp_option_type */
  int32_t schedule; /* which of the job's schedules the trade reads */
  int32_t pad;
  double strike;
  double inv_nfix;  /* 1 / number of fixings */
  double discount;  /* discount factor to the payment date */
  double quantity;
} mcpi_payoff_spec;

/* Undiscounted payoff from the schedule's sums of spot and log-spot. */
MCP_HD static inline double mcpi_payoff(const mcpi_payoff_spec *p, double spot_sum,
                                        double log_sum)
{
  double x;
  switch (p->product) {
  case MCPI_ASIAN_GEOMETRIC: x = exp(log_sum * p->inv_nfix); break;
  case MCPI_ASIAN_ARITHMETIC: x = spot_sum * p->inv_nfix; break;
  default: x = spot_sum; break; /* European: one fixing, at maturity */
  }
  double v = p->type == MCP_CALL ? x - p->strike : p->strike - x;
  return v > 0 ? v : 0;
}

#endif
