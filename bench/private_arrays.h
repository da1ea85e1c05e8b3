/* private_arrays.h: the launcher of the private-array microbenchmark. */
#ifndef MCP_PRIVATE_ARRAYS_H
#define MCP_PRIVATE_ARRAYS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#define PRIVATE_BLOCK 128
enum { PRIVATE_LOCAL_UNIFORM = 0, PRIVATE_LOCAL_NONUNIFORM, PRIVATE_SHARED, PRIVATE_REGISTERS };

#ifdef __cplusplus
extern "C" {
#endif
/* blocks x PRIVATE_BLOCK threads, each with an array of length (8, 16, 32
 * or 64) doubles in placement place, iters read-and-rewrite rounds; out gets
 * a checksum a thread. */
cudaError_t private_walk(int length, int place, double *out, int blocks, int iters,
                         uint32_t seed);
#ifdef __cplusplus
}
#endif
#endif
