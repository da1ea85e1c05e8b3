/* fuzz_wisdom.c: libFuzzer target for the wisdom loader (mcp_wisdom_load):
 * a failure must say why, and what it reads, written (mcp_wisdom_save) and
 * read again, is the same entries. */
#include "tests/fuzz/fuzz_input.h" /* first: its _GNU_SOURCE */
#include <string.h>

static int same(const mcp_wisdom_entry *a, const mcp_wisdom_entry *b)
{
  return !strcmp(a->device, b->device) && !strcmp(a->shape, b->shape) &&
         a->capability == b->capability && a->driver == b->driver &&
         a->normals == b->normals && a->prefetch == b->prefetch &&
         a->distance == b->distance && a->padding == b->padding && a->block == b->block &&
         a->tile_paths == b->tile_paths && !memcmp(&a->seconds, &b->seconds, sizeof(double)) &&
         !memcmp(&a->rules_seconds, &b->rules_seconds, sizeof(double));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t n)
{
  char err[512] = "", path[64];
  mcp_wisdom *w = NULL, *back = NULL;
  mcp_status st = mcp_wisdom_load(&w, fuzz_file(data, n), err, sizeof err);
  fuzz_check_message(st, err);
  if (st == MCP_OK) {
    static int fd = -1;
    if (fd < 0 && (fd = memfd_create("mcprice-fuzz-out", 0)) < 0)
      abort();
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0 ||
        mcp_wisdom_save(w, path, err, sizeof err) != MCP_OK ||
        mcp_wisdom_load(&back, path, err, sizeof err) != MCP_OK ||
        mcp_wisdom_count(back) != mcp_wisdom_count(w))
      abort();
    for (size_t i = 0; i < mcp_wisdom_count(w); i++) {
      mcp_wisdom_entry a, b;
      if (mcp_wisdom_get(w, i, &a) != MCP_OK || mcp_wisdom_get(back, i, &b) != MCP_OK ||
          !same(&a, &b))
        abort();
    }
  }
  mcp_wisdom_destroy(back);
  mcp_wisdom_destroy(w);
  return 0;
}
