/* team.h: the size of a host-side OpenMP team of the plan's work (a call's
 * volatility slices; a large book's trades and jobs keep the whole team,
 * its Greeks' call measured slower capped), which runs between a
 * GPU's launches: a thread a grain of work, and at most half the host's
 * processors (two where it has fewer than four), nor more than OpenMP's
 * team.  All of them (the default team) made such calls slower and
 * erratic on a 16-core GPU host: the benchmark Asian under a 200 x 400
 * surface 6.3 to 13.9 ms a call against 4.2 with 4 to 8 threads, 1 thread
 * 4.3 to 4.7 (the idle threads spin, and the CUDA driver's work waits
 * for a core; bench/RESULTS.md, "host-threads").  And a device's
 * worker's share of its caller's team (spread.c). */
#ifndef MCP_TEAM_H
#define MCP_TEAM_H

#include <stddef.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static inline int mcpi_team(size_t work, size_t grain)
{
#ifdef _OPENMP
  int cap = omp_get_num_procs() / 2, most = omp_get_max_threads();
  size_t want = (work + grain - 1) / grain;
  cap = cap > 2 ? cap : 2; /* (two on a small host: the threads' paths run) */
  cap = cap < most ? cap : most;
  return want < (size_t)cap ? (want ? (int)want : 1) : cap;
#else
  (void)work;
  (void)grain;
  return 1;
#endif
}

/* The calling thread's OpenMP team set to n threads (a device's worker's
 * share of them, spread.c): the setting it replaced, to give back by the
 * same call (without OpenMP, nothing: 0). */
static inline int mcpi_team_set(int n)
{
#ifdef _OPENMP
  int was = omp_get_max_threads();
  if (n > 0)
    omp_set_num_threads(n);
  return was;
#else
  (void)n;
  return 0;
#endif
}

/* One of n workers' share of the calling thread's OpenMP team: at least 1. */
static inline int mcpi_team_share(size_t n)
{
#ifdef _OPENMP
  int share = omp_get_max_threads() / (int)n;
  return share > 1 ? share : 1;
#else
  (void)n;
  return 1;
#endif
}

#endif
