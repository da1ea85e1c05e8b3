/* private.c: where a per-thread array indexed at run time should live
 * (bench/RESULTS.md, issue 6).
 *   private                       the table below
 *   private --one PLACE L         one configuration (for ncu)
 * For arrays of 8 to 64 doubles: local memory with warp-uniform indices,
 * local memory with each thread's own indices, shared memory laid out
 * element-major (i * BLOCK + t) and registers reached by a compile-time
 * scan; 132 x 16 blocks of 128 threads, 256 read-and-rewrite rounds each;
 * medians of 7 runs after a warm-up.  The non-uniform placements must give
 * the same checksums, bit for bit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common.h"

#ifndef MCP_HAVE_CUDA
int main(void)
{
  printf("private: built without CUDA; nothing to measure\n");
  return 0;
}
#else
#include "private_arrays.h"

#define BLOCKS (132 * 16)
#define ITERS 256
#define REPS 7
static const char *const names[4] = {"local-uniform", "local-nonuniform", "shared",
                                     "registers"};

static int check(cudaError_t e, const char *what)
{
  if (e != cudaSuccess)
    fprintf(stderr, "private: %s: %s\n", what, cudaGetErrorString(e));
  return e != cudaSuccess;
}

/* Median milliseconds of one placement and length; the checksums in host. */
static double time_walk(int place, int length, double *dev, double *host)
{
  cudaEvent_t e0, e1;
  double ms[REPS];
  if (check(cudaEventCreate(&e0), "event") || check(cudaEventCreate(&e1), "event"))
    exit(1);
  for (int r = -1; r < REPS; r++) {
    cudaEventRecord(e0, 0);
    if (check(private_walk(length, place, dev, BLOCKS, ITERS, 2026u), names[place]))
      exit(1);
    cudaEventRecord(e1, 0);
    cudaEventSynchronize(e1);
    if (r >= 0)
      ms[r] = bench_event_ms(e0, e1);
  }
  cudaMemcpy(host, dev, (size_t)BLOCKS * PRIVATE_BLOCK * sizeof(double), cudaMemcpyDeviceToHost);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return bench_median(ms, REPS);
}

int main(int argc, char **argv)
{
  int one = argc == 4 && strcmp(argv[1], "--one") == 0;
  if (argc != 1 && !one) {
    fprintf(stderr, "usage: private | private --one PLACE LENGTH\n");
    return 2;
  }
  if (mcp_device_count() == 0) {
    printf("private: no CUDA device; nothing to measure\n");
    return 0;
  }
  size_t n = (size_t)BLOCKS * PRIVATE_BLOCK;
  double *dev, *host[4];
  if (check(cudaMalloc((void **)&dev, n * sizeof(double)), "allocation"))
    return 1;
  for (int p = 0; p < 4; p++)
    if (!(host[p] = malloc(n * sizeof(double))))
      return 1;
  if (one) {
    int place = 0, length = atoi(argv[3]);
    while (place < 4 && strcmp(names[place], argv[2]) != 0)
      place++;
    if (place == 4 || (length != 8 && length != 16 && length != 32 && length != 64)) {
      fprintf(stderr, "private --one: expected local-uniform, local-nonuniform, shared or "
                      "registers, and a length of 8, 16, 32 or 64\n");
      return 2;
    }
    printf("%s L=%d: %.4f ms\n", names[place], length, time_walk(place, length, dev, host[0]));
    return 0;
  }
  printf("# %d threads, arrays of doubles, %d read-and-rewrite rounds, median of %d\n",
         (int)n, ITERS, REPS);
  printf("%4s %14s %17s %10s %10s %14s %17s %s\n", "L", "local-uniform", "local-nonuniform",
         "shared", "registers", "uniform/shared", "nonuniform/shared", "same bits");
  int bad = 0;
  for (int length = 8; length <= 64; length *= 2) {
    double ms[4];
    for (int p = 0; p < 4; p++)
      ms[p] = time_walk(p, length, dev, host[p]);
    int same = memcmp(host[1], host[2], n * sizeof(double)) == 0 &&
               memcmp(host[1], host[3], n * sizeof(double)) == 0;
    bad |= !same;
    printf("%4d %11.3f ms %14.3f ms %7.3f ms %7.3f ms %14.2f %17.2f %s\n", length, ms[0], ms[1],
           ms[2], ms[3], ms[0] / ms[2], ms[1] / ms[2], same ? "yes" : "NO");
  }
  cudaFree(dev);
  for (int p = 0; p < 4; p++)
    free(host[p]);
  return bad;
}
#endif
