/* clock.h: the monotonic clock in seconds, for a call's time and its
 * progress reports. */
#ifndef MCP_CLOCK_H
#define MCP_CLOCK_H

#include <time.h>

static inline double mcpi_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
