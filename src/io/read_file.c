/* read_file.c: the bounded reader of every input file (read_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "src/base/error.h"
#include "src/io/read_file.h"

enum { CHUNK = 65536 };


void mcpi_text_position(const char *text, size_t at, int *line, int *column)
{
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < at; i++)
    if (text[i] == '\n')
      ++*line, *column = 1;
    else if (((unsigned char)text[i] & 0xc0) != 0x80)
      ++*column;
}

static mcp_status too_large(const char *path, const mcpi_read_rules *r, char *err, size_t errlen)
{
  return mcpi_fail_to(err, errlen, MCP_ERR_INPUT, "%s: larger than %zu MiB; expected %s of at most that",
              path, r->max >> 20, r->kind);
}

/* The reading after open: fd's bytes into *out, each read() checked as it
 * arrives, so that a stream that never ends (a device, a FIFO) is judged on
 * its first bytes, and is never held beyond max + 1 bytes. */
static mcp_status read_fd(int fd, const char *path, const mcpi_read_rules *r, char **out,
                          size_t *len, char *err, size_t errlen)
{
  struct stat st;
  if (fstat(fd, &st) != 0)
    return mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot read: %s", path, strerror(errno));
  if (S_ISDIR(st.st_mode))
    return mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: is a directory; expected %s", path, r->kind);
  /* a regular file's size says at once whether it is too large */
  if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > r->max)
    return too_large(path, r, err, errlen);
  char *b = NULL;
  size_t n = 0, cap = 0;
  int checked = !r->check;
  for (;;) {
    size_t want = r->max + 1 - n < CHUNK ? r->max + 1 - n : CHUNK;
    if (cap - n < want + 1) { /* room for the terminator too */
      size_t c = cap ? 2 * cap : CHUNK + 1;
      if (c < n + want + 1)
        c = n + want + 1;
      char *more = realloc(b, c);
      if (!more) {
        free(b);
        return mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", path);
      }
      b = more;
      cap = c;
    }
    ssize_t got = read(fd, b + n, want);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      int e = errno;
      free(b);
      return mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot read: %s", path, strerror(e));
    }
    const char *nul = r->text ? memchr(b + n, '\0', (size_t)got) : NULL;
    n += (size_t)got;
    if (nul) {
      int line, column;
      mcpi_text_position(b, (size_t)(nul - b), &line, &column);
      free(b);
      return mcpi_fail_to(err, errlen, MCP_ERR_PARSE, "%s:%d:%d: a NUL byte; expected %s", path, line,
                  column, r->text);
    }
    if (n > r->max) {
      free(b);
      return too_large(path, r, err, errlen);
    }
    if (!checked && (n >= r->head || got == 0)) { /* the header, before the body */
      mcp_status cs = r->check((const unsigned char *)b, n, path, err, errlen);
      if (cs != MCP_OK) {
        free(b);
        return cs;
      }
      checked = 1;
    }
    if (got == 0)
      break;
  }
  b[n] = '\0';
  *out = b;
  *len = n;
  return MCP_OK;
}

mcp_status mcpi_read_file(const char *path, const mcpi_read_rules *r, char **out, size_t *len,
                          char *err, size_t errlen)
{
  *out = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
  mcp_status st = read_fd(fd, path, r, out, len, err, errlen);
  close(fd);
  return st;
}

mcp_status mcp_input_read(const char *path, char **text, size_t *len, char *err, size_t errlen)
{
  static const mcpi_read_rules rules = {MCP_INPUT_MAX_BYTES, "an input file",
                                        "JSON text (UTF-8)", 0, NULL};
  if (!path || !text || !len) {
    if (text)
      *text = NULL;
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "mcp_input_read: NULL argument");
  }
  return mcpi_read_file(path, &rules, text, len, err, errlen);
}
