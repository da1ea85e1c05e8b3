/* catalogue.c: the table of the path kernels (catalogue.def) and a job's
 * key in it. */
#include <string.h>
#include "kernels/catalogue.h"
#include "models/products/path.h"

const mcpi_kernel_entry mcpi_kernel_catalogue[] = {
#define MCPI_KERNEL(tu, prec, state, s, d, place, cap, fused)                                 \
  {{prec, state, s, d, place, cap, fused}, tu, 0},
#define MCPI_TUNED_KERNEL(tu, prec, state, s, d) {{prec, state, s, d, 0, 0, 0}, tu, 1},
#include "kernels/catalogue.def"
#undef MCPI_KERNEL
#undef MCPI_TUNED_KERNEL
};
const size_t mcpi_kernel_count = sizeof mcpi_kernel_catalogue / sizeof *mcpi_kernel_catalogue;

int mcpi_register_capacity(int arr_len)
{
  for (int c = 0; c < MCPI_NREG_CAPACITIES; c++)
    if (arr_len <= mcpi_reg_capacities[c])
      return mcpi_reg_capacities[c];
  return 0;
}

mcpi_kernel_key mcpi_kernel_key_for(const mcpi_kernel_options *o, int multi, int arr_len,
                                    int gstate)
{
  /* mixed: its fused kernels (no per-path array: such jobs run stored,
   * job_options in backend_cuda.c); stored, the double ones on a tile of
   * its normals (catalogue.def), but the plain shape's own */
  int mixed = o->precision == MCP_MIXED && o->fused;
  int prec = o->precision == MCP_MIXED && !mixed ? MCP_DOUBLE : (int)o->precision;
  mcpi_kernel_key k = {.precision = prec, .strategy = MCP_PREFETCH_NONE, .distance = 1,
                       .fused = o->fused != 0};
  /* the Black-Scholes shapes' job-shaped state */
  int shaped = o->small == MCPI_SHAPE_SMALL || o->small == MCPI_SHAPE_PLAIN;
  if (gstate) {
    k.precision = mixed ? MCP_MIXED : MCP_DOUBLE;
    k.state = shaped ? MCPI_STATE_SHAPED : MCPI_STATE_ONE;
    k.placement = MCPI_PATH_GREEKS;
    return k;
  }
  if (!multi &&
      (o->small == MCPI_SHAPE_PLAIN || o->small == MCPI_SHAPE_HESTON_PLAIN ||
       o->small == MCPI_SHAPE_LV_PLAIN) &&
      !arr_len && (o->fused || o->strategy == MCP_PREFETCH_NONE)) {
    k.state = o->small == MCPI_SHAPE_PLAIN      ? MCPI_STATE_PLAIN
              : o->small == MCPI_SHAPE_LV_PLAIN ? MCPI_STATE_LV_PLAIN
              : o->fused && o->checked          ? MCPI_STATE_HESTON_CHECKED
                                                : MCPI_STATE_HESTON_PLAIN;
    if (k.state == MCPI_STATE_PLAIN && o->precision == MCP_MIXED) { /* fused and stored */
      k.state = MCPI_STATE_PLAIN_MIXED;
      k.precision = MCP_MIXED;
    }
    return k;
  }
  k.state = multi == 1   ? MCPI_STATE_MULTI
            : multi == 2 ? MCPI_STATE_MHESTON
            : multi == 3 ? MCPI_STATE_MLV
            : shaped     ? MCPI_STATE_SHAPED
                         : MCPI_STATE_ONE;
  if (arr_len) { /* the plain loop */
    k.placement = multi == 3 ? MCP_PLACEMENT_LOCAL : o->placement;
    k.capacity = k.placement == MCP_PLACEMENT_REGISTERS ? mcpi_register_capacity(arr_len) : 0;
  } else if (!o->fused && multi < 2 && o->strategy != MCP_PREFETCH_NONE) {
    /* (several Heston or local-volatility assets take no ring: the first's
     * step reads the job's arrays, the other's kernels are few) */
    k.strategy = o->strategy;
    k.distance = o->distance;
  }
  return k;
}

long mcpi_kernel_find(const mcpi_kernel_key *key)
{
  for (size_t i = 0; i < mcpi_kernel_count; i++)
    if (!memcmp(&mcpi_kernel_catalogue[i].key, key, sizeof *key))
      return (long)i;
  return -1;
}
