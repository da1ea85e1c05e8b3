/* catalogue.h: the path kernels a build can ship, each described once by a
 * named key (kernels/catalogue.def), for gcc and nvcc alike.  The table is
 * made from that description (catalogue.c); the CUDA translation units
 * that instantiate the kernels are made from it too, a few kernels each
 * (path_kernels_tu.cuh), and the launcher finds a job's kernel by its key
 * (path_kernel.cu), so that a kernel no job can ask for is never built. */
#ifndef MCP_CATALOGUE_H
#define MCP_CATALOGUE_H

#include <stddef.h>
#include "models/prefetch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The path state a kernel carries (path_kernel.cuh's M): one asset; several
 * Black-Scholes assets; one asset in the job-shaped state (path.h's
 * MCPI_SMALL_SCHEDULES and MCPI_SMALL_MONITORS); the plain shape (one
 * schedule, no monitor, sums alone); several Heston assets; several
 * local-volatility assets; the plain shape of one Heston asset; the same
 * with its discretisation check's coarse path beside it, on its fused
 * normals; the plain shape of one local-volatility asset; the plain shape in
 * mixed precision (its fixings' exp in float's accuracy). */
enum {
  MCPI_STATE_ONE = 0,
  MCPI_STATE_MULTI = 1,
  MCPI_STATE_SHAPED = 2,
  MCPI_STATE_PLAIN = 3,
  MCPI_STATE_MHESTON = 4,
  MCPI_STATE_MLV = 5,
  MCPI_STATE_HESTON_PLAIN = 6,
  MCPI_STATE_HESTON_CHECKED = 7,
  MCPI_STATE_LV_PLAIN = 8,
  MCPI_STATE_PLAIN_MIXED = 9
};

/* A kernel's placement beside mcp_placement's (not auto: 0 is no per-path
 * array): the plain loop with the state of on-path vega and rho. */
#define MCPI_PATH_GREEKS 7

typedef struct mcpi_kernel_key {
  int precision; /* mcp_precision */
  int state;     /* MCPI_STATE_* */
  int strategy;  /* mcp_prefetch: none for arrays, on-path Greeks and fused normals */
  int distance;  /* the strategy's; 1 where it has none */
  int placement; /* of the per-path arrays (mcp_placement), MCPI_PATH_GREEKS, or 0 */
  int capacity;  /* the register arrays' elements a path (mcpi_reg_capacities), else 0 */
  int fused;     /* normals computed in the kernel */
} mcpi_kernel_key;

typedef struct mcpi_kernel_entry {
  mcpi_kernel_key key;
  int tu;     /* the translation unit that builds it: kernels/path_kernels_<tu>.cu */
  int tuning; /* built by configure --enable-tuning-kernels alone */
} mcpi_kernel_entry;

/* Translation units of the path kernels (kernels/path_kernels_NN.cu). */
#define MCPI_KERNEL_TUS 12

extern const mcpi_kernel_entry mcpi_kernel_catalogue[];
extern const size_t mcpi_kernel_count;

/* The key of the kernel that runs a job: one asset, several Black-Scholes,
 * Heston or local-volatility assets (multi 0, 1, 2, 3: MCPI_ASSETS_KIND),
 * per-path arrays of arr_len elements (0: none) where o->placement (not
 * auto) says (several local-volatility assets: in local memory),
 * or with gstate the double single-asset kernel of on-path vega and rho;
 * o->small picks the job-shaped state of a single-asset job, and the plain
 * one (Black-Scholes, Heston or local volatility: MCPI_SHAPE_PLAIN,
 * MCPI_SHAPE_HESTON_PLAIN, MCPI_SHAPE_LV_PLAIN) for its fused kernel and
 * its stored one without prefetching (in mixed precision the plain
 * Black-Scholes shape's own, MCPI_STATE_PLAIN_MIXED, fused and stored; its
 * other fused kernels are mixed, its stored ones double's); o->checked the
 * Heston plain fused kernel that steps the check's coarse path too. */
mcpi_kernel_key mcpi_kernel_key_for(const mcpi_kernel_options *o, int multi, int arr_len,
                                    int gstate);

/* The catalogue's index of key, or -1. */
long mcpi_kernel_find(const mcpi_kernel_key *key);

/* The least register-array capacity that holds arr_len elements, or 0. */
int mcpi_register_capacity(int arr_len);

#ifdef __cplusplus
}
#endif

#endif
