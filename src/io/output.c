/* output.c: where a writer of the library or the tool puts its bytes
 * (mcp_output_open in mcprice.h): the shell's > rules, checked before any
 * work, and a regular file replaced only once complete. */
#define _XOPEN_SOURCE 700 /* S_ISVTX */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "mcprice.h"
#include "src/base/error.h"

struct mcp_output {
  char *name;   /* as the caller gave it, for messages */
  char *target; /* the file written: a link's target */
  char *tmp;    /* the temporary renamed over target, or NULL: written in place */
  int fd;
};


/* The descriptor a name of an open one means (/dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N), or -1: written through that descriptor, as
 * the caller's shell opened it (appending, say), not reopened and truncated. */
static int named_descriptor(const char *path)
{
  if (strcmp(path, "/dev/stdout") == 0)
    return 1;
  if (strcmp(path, "/dev/stderr") == 0)
    return 2;
  const char *n = strncmp(path, "/dev/fd/", 8) == 0         ? path + 8
                  : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14
                                                             : NULL;
  if (!n || !*n || strspn(n, "0123456789") != strlen(n) || strlen(n) > 9)
    return -1;
  return atoi(n);
}

/* Refuses a directory, and one of the inputs by device and inode (a link to
 * it, or a descriptor the shell opened on it, as well as its name). */
static mcp_status refused(const char *path, const struct stat *st, const char *const *inputs,
                          size_t ninputs, char *err, size_t errlen)
{
  if (S_ISDIR(st->st_mode))
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: is a directory; expected a file to write",
                path);
  for (size_t k = 0; k < ninputs; k++) {
    struct stat in;
    if (inputs[k] && stat(inputs[k], &in) == 0 && in.st_dev == st->st_dev &&
        in.st_ino == st->st_ino)
      return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT,
                  "%s: is also the input file %s; expected another file to write", path,
                  inputs[k]);
  }
  return MCP_OK;
}

/* The folder of path ("." for a bare name), malloc'd. */
static char *folder_of(const char *path)
{
  const char *slash = strrchr(path, '/');
  if (!slash)
    return strdup(".");
  size_t n = slash == path ? 1 : (size_t)(slash - path);
  char *d = malloc(n + 1);
  if (d) {
    memcpy(d, path, n);
    d[n] = '\0';
  }
  return d;
}

/* Whether rename() may replace the existing file st in folder: in a sticky
 * folder (/tmp) only its owner, the folder's or a privileged user may, even
 * where the file itself is writable. */
static int may_replace(const struct stat *st, const char *folder)
{
  struct stat d;
  uid_t me = geteuid();
  if (stat(folder, &d) != 0 || !(d.st_mode & S_ISVTX))
    return 1;
  return me == 0 || me == st->st_uid || me == d.st_uid;
}

/* A fresh file beside target, named TARGET.XXXXXX with TARGET's last part
 * shortened to fit the folder's longest name, opened O_EXCL with mode
 * 0666 & ~umask (mkstemp's 0600 would hide a result from other users). */
static int make_temporary(const char *target, const char *folder, char **tmp)
{
  static atomic_uint serial;
  static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const char *base = strrchr(target, '/');
  base = base ? base + 1 : target;
  long name_max = pathconf(folder, _PC_NAME_MAX);
  size_t keep = strlen(base), most = name_max > 7 ? (size_t)name_max - 7 : 248;
  if (keep > most)
    keep = most;
  size_t head = (size_t)(base - target) + keep;
  if (!(*tmp = malloc(head + 8))) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(*tmp, target, head);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ (uint64_t)getpid() << 40;
  for (int tries = 0; tries < 100; tries++) {
    uint64_t v = x + 0x9E3779B97F4A7C15u * (atomic_fetch_add(&serial, 1) + 1u);
    v ^= v >> 31;
    (*tmp)[head] = '.';
    for (int i = 1; i <= 6; i++, v /= 62)
      (*tmp)[head + (size_t)i] = digits[v % 62];
    (*tmp)[head + 7] = '\0';
    int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST)
      return fd;
  }
  return -1;
}

static mcp_status open_in_place(mcp_output *o, const char *path, int fd, char *err,
                                size_t errlen)
{
  if (fd < 0)
    return mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot write it: %s", path, strerror(errno));
  o->fd = fd;
  return MCP_OK;
}

/* The regular (or new) file target: a temporary beside it, after the checks
 * of what the rename will need. */
static mcp_status open_replacing(mcp_output *o, const char *path, const struct stat *st,
                                 char *err, size_t errlen)
{
  char *folder = folder_of(o->target);
  if (!folder)
    return mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", path);
  mcp_status rc = MCP_OK;
  if (st && faccessat(AT_FDCWD, o->target, W_OK, AT_EACCESS) != 0)
    rc = mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot write it: %s", path, strerror(errno));
  else if (st && !may_replace(st, folder))
    rc = mcpi_fail_to(err, errlen, MCP_ERR_IO,
              "%s: cannot replace it: it belongs to another user in the sticky folder %s; "
              "expected a file of this user there, or another folder",
              path, folder);
  else if ((o->fd = make_temporary(o->target, folder, &o->tmp)) < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    rc = mcpi_fail_to(err, errlen, e == ENOMEM ? MCP_ERR_NO_MEMORY : MCP_ERR_IO,
              "%s: cannot write it: no temporary file can be made beside it in %s (%s)", path,
              folder, strerror(e));
  } else if (st) {
    /* the replacement keeps the file's owner (where allowed) and mode */
    if (st->st_uid != geteuid() || st->st_gid != getegid())
      (void)!fchown(o->fd, st->st_uid, st->st_gid); /* else it becomes this user's */
    if (fchmod(o->fd, st->st_mode & 07777) != 0)
      rc = mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot set the mode of %s: %s", path, o->tmp,
                strerror(errno));
  }
  free(folder);
  return rc;
}

mcp_status mcp_output_open(mcp_output **out, const char *path, const char *const *inputs,
                           size_t ninputs, char *err, size_t errlen)
{
  if (!out || !path || !*path || (ninputs && !inputs)) {
    if (out)
      *out = NULL;
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "mcp_output_open: %s",
                !out ? "out is NULL" : !path || !*path ? "no file name" : "inputs is NULL");
  }
  *out = NULL;
  mcp_output *o = calloc(1, sizeof *o);
  if (!o)
    return mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", path);
  o->fd = -1;
  if (!(o->name = strdup(path))) {
    free(o);
    return mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", path);
  }
  struct stat st;
  mcp_status rc;
  int n = named_descriptor(path);
  if (n >= 0) { /* compared by what it is open on: "3<>market.json" is the market */
    int mode;
    if (fstat(n, &st) != 0 || (mode = fcntl(n, F_GETFL)) < 0)
      rc = mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot write it: %s", path, strerror(errno));
    else if ((rc = refused(path, &st, inputs, ninputs, err, errlen)) != MCP_OK)
      ;
    else if ((mode & O_ACCMODE) == O_RDONLY)
      rc = mcpi_fail_to(err, errlen, MCP_ERR_IO,
                "%s: cannot write it: open for reading only; expected a descriptor open for "
                "writing", path);
    else
      rc = open_in_place(o, path, fcntl(n, F_DUPFD_CLOEXEC, 3), err, errlen);
  } else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && !(o->target = realpath(path, NULL)))
    rc = mcpi_fail_to(err, errlen, errno == ENOMEM ? MCP_ERR_NO_MEMORY : MCP_ERR_ARGUMENT,
              "%s: a symbolic link that leads nowhere (%s); expected a file or a link to one",
              path, strerror(errno));
  else if (!o->target && !(o->target = strdup(path)))
    rc = mcpi_fail_to(err, errlen, MCP_ERR_NO_MEMORY, "%s: out of memory", path);
  else if (stat(o->target, &st) != 0)
    rc = errno == ENOENT ? open_replacing(o, path, NULL, err, errlen)
                         : mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot write it: %s", path,
                                strerror(errno));
  else if ((rc = refused(path, &st, inputs, ninputs, err, errlen)) != MCP_OK)
    ;
  else if (!S_ISREG(st.st_mode)) /* a device or a FIFO: in place, as > would */
    rc = open_in_place(o, path, open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC), err, errlen);
  else
    rc = open_replacing(o, path, &st, err, errlen);
  if (rc != MCP_OK) {
    mcp_output_abort(o);
    return rc;
  }
  *out = o;
  return MCP_OK;
}

int mcp_output_fd(const mcp_output *o) { return o ? o->fd : -1; }

const char *mcp_output_temporary(const mcp_output *o) { return o ? o->tmp : NULL; }

mcp_status mcp_output_write(mcp_output *o, const void *bytes, size_t len, char *err,
                            size_t errlen)
{
  if (!o || (!bytes && len))
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "mcp_output_write: NULL argument");
  for (const char *b = bytes; len > 0;) {
    ssize_t w = write(o->fd, b, len);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot write it: %s", o->name,
                  w < 0 ? strerror(errno) : "nothing written");
    b += w;
    len -= (size_t)w;
  }
  return MCP_OK;
}

mcp_status mcp_output_commit(mcp_output *o, char *err, size_t errlen)
{
  if (!o)
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "mcp_output_commit: output is NULL");
  /* the bytes on the disk before the name points at them */
  int ok = !o->tmp || fsync(o->fd) == 0, e = errno;
  if (close(o->fd) != 0 && ok) {
    ok = 0;
    e = errno;
  }
  o->fd = -1;
  if (ok && o->tmp && rename(o->tmp, o->target) != 0) {
    ok = 0;
    e = errno;
  }
  mcp_status rc = MCP_OK;
  if (!ok)
    rc = mcpi_fail_to(err, errlen, MCP_ERR_IO, "%s: cannot write it: %s", o->name, strerror(e));
  else {
    free(o->tmp); /* renamed: nothing to remove */
    o->tmp = NULL;
  }
  mcp_output_abort(o);
  return rc;
}

void mcp_output_abort(mcp_output *o)
{
  if (!o)
    return;
  if (o->fd >= 0)
    close(o->fd);
  if (o->tmp)
    unlink(o->tmp);
  free(o->tmp);
  free(o->target);
  free(o->name);
  free(o);
}
