/* fuzz_main.c: runs a fuzz target over the files named on the command line,
 * for builds without libFuzzer (make check replays the seeds and the
 * regression inputs through it; libFuzzer brings its own main, and the fuzz
 * build defines MCP_LIBFUZZER). */
#ifndef MCP_LIBFUZZER
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n);

int main(int argc, char **argv)
{
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      perror(argv[i]);
      return 2;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
      n += got;
      if (n == cap) {
        uint8_t *more = realloc(buf, cap *= 2);
        if (!more)
          free(buf);
        buf = more;
      }
    }
    fclose(f);
    if (!buf) {
      fprintf(stderr, "%s: out of memory\n", argv[i]);
      return 2;
    }
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
  }
  return 0;
}
#endif
