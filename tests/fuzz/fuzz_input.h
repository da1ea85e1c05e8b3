/* fuzz_input.h: what the libFuzzer targets share.  The loaders read files,
 * so each input is written to an anonymous in-memory file (Linux memfd) and
 * loaded by its /proc path: the loaders run exactly as on a disk file. */
#ifndef MCP_FUZZ_INPUT_H
#define MCP_FUZZ_INPUT_H

#define _GNU_SOURCE /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "mcprice.h"

/* The path of a file holding data[0 .. n); aborts (a fuzzer failure, not a
 * finding) when the system cannot make one.  (Inline: the CSV target, which
 * reads text, has no use for it.) */
static inline const char *fuzz_file(const uint8_t *data, size_t n)
{
  static int fd = -1;
  static char path[64];
  if (fd < 0) {
    if ((fd = memfd_create("mcprice-fuzz", 0)) < 0) {
      perror("memfd_create");
      abort();
    }
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  }
  if (ftruncate(fd, 0) != 0 || (n && pwrite(fd, data, n, 0) != (ssize_t)n)) {
    perror("fuzz input");
    abort();
  }
  return path;
}

/* A loader's failure must say why: a status without a message is a finding. */
static void fuzz_check_message(mcp_status st, const char *err)
{
  if (st != MCP_OK && !err[0])
    abort();
}

#endif
