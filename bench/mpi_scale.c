/* mpi_scale.c: one pricing over the ranks of MPI_COMM_WORLD (mcp_mpi_price)
 * on the CPU backend: the benchmark Asian (2^20 paths) and the mixed book of
 * 10,000 trades (6,250 paths, 1/16 of its GPU size).  Wall-clock medians of
 * 3 after a warm-up, between barriers; rank 0 prints a Markdown row a book
 * and whether the merged results are those of its own mcp_price, to the bit.
 * bench/mpi_scale.sh runs it over 1, 2, 4 ranks with the cores shared out. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/common.h"
#include "mcprice_mpi.h"

#define REPEATS 3

static void run(mcp_context *c, const char *name, const mcp_market *m, const mcp_portfolio *p,
                int rank, int size)
{
  double t[REPEATS];
  mcp_results *r = NULL, *alone = NULL;
  for (int k = -1; k < REPEATS; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    mcp_status st = mcp_mpi_price(c, MPI_COMM_WORLD, 0, m, p, NULL, NULL, &r, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (st != MCP_OK) {
      if (rank == 0)
        fprintf(stderr, "mpi_scale: %s\n", mcp_context_last_error(c));
      return;
    }
    if (k >= 0)
      t[k] = MPI_Wtime() - t0;
    if (k < REPEATS - 1)
      mcp_results_destroy(r);
  }
  if (rank == 0) {
    int ok = mcp_price(c, m, p, &alone) == MCP_OK && bench_same_results(r, alone);
    const char *threads = getenv("OMP_NUM_THREADS");
    printf("| %s | %d | %s | %.1f | %s |\n", name, size, threads ? threads : "all",
           bench_median(t, REPEATS) * 1e3, ok ? "yes" : "NO");
  }
  mcp_results_destroy(r);
  mcp_results_destroy(alone);
}

int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mcp_context *c;
  if (mcp_context_create(&c, MCP_BACKEND_CPU) != MCP_OK) {
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
  mcp_market *m;
  mcp_portfolio *p;
  bench_asian_book(&m, &p, 1u << 20);
  run(c, "benchmark Asian, 2^20 paths", m, p, rank, size);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  if (bench_mixed_book(&m, &p, BENCH_MIXED_PATHS / 16) == MCP_OK)
    run(c, "mixed book, 10,000 trades, 6,250 paths", m, p, rank, size);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  mcp_context_destroy(c);
  MPI_Finalize();
  return 0;
}
