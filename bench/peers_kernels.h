/* peers_kernels.h: the hand-written kernels that bench/peers sets beside
 * mcprice: a fused arithmetic-Asian path kernel, a fused Heston European
 * path kernel, and a cuRAND Philox generate-and-sum kernel, the rate of
 * normals in registers. */
#ifndef MCP_PEERS_KERNELS_H
#define MCP_PEERS_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#define PEERS_BLOCK 256

/* Black-Scholes terms of the arithmetic Asian call on steps equal steps. */
typedef struct peers_asian {
  double spot, strike, rate, dividend, vol, maturity;
  int steps;
} peers_asian;

/* Heston terms of the European call on steps equal steps. */
typedef struct peers_heston {
  double spot, strike, rate, dividend, v0, kappa, theta, xi, rho, maturity;
  int steps;
} peers_heston;

#ifdef __cplusplus
extern "C" {
#endif
/* Both launchers run on the default stream; sums (2 doubles on the device)
 * is zeroed first and receives the sum and the sum of squares of the
 * discounted payoffs (peers_asian_launch) or the sum of the normals
 * (peers_rng_launch, sums[1] unused).  use_float picks float arithmetic. */
cudaError_t peers_asian_launch(int use_float, const peers_asian *a, uint64_t paths,
                               uint64_t seed, double *sums);
/* paths x steps normals, the same Philox streams as peers_asian_launch. */
cudaError_t peers_rng_launch(int use_float, uint64_t paths, int steps, uint64_t seed,
                             double *sums);
/* The Heston call in double by Andersen's quadratic-exponential scheme,
 * as mcprice's (models/heston.h): the same sums as peers_asian_launch. */
cudaError_t peers_heston_launch(const peers_heston *h, uint64_t paths, uint64_t seed,
                                double *sums);
/* Blocks of the grid of the Asian's or the generate-and-sum launcher:
 * whole waves, never more blocks than paths need; 0 on failure. */
int peers_grid(int use_float, int rng, uint64_t paths);
#ifdef __cplusplus
}
#endif
#endif
