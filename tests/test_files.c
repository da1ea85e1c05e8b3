/* test_files.c: the library's file rules (mcprice.h, "Files"): every writer
 * writes a device or FIFO in place, follows a link, keeps the old file until
 * the new one is whole and refuses before any work what the caller may not
 * write; every reader is bounded, judges a stream on its first bytes and
 * names a NUL byte's line and column.  Cases that need another user run in
 * a child as nobody when the tests run as root, and are skipped (said so)
 * where they cannot be set up. */
#define _GNU_SOURCE /* setgroups, S_ISVTX */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "mcprice.h"

#define NOBODY 65534

static char dir[] = "/tmp/test_files.XXXXXX";

/* A small partial: slice 0 of 2 of the CLI tests' book. */
static mcp_partial *a_partial(void)
{
  mcp_market *m = NULL;
  mcp_portfolio *p = NULL;
  mcp_context *c = NULL;
  mcp_partial *part = NULL;
  char err[512];
  assert_int_equal(mcp_market_load(&m, SRCDIR "/tests/data/cli_market.json", err, sizeof err),
                   MCP_OK);
  assert_int_equal(
      mcp_portfolio_load(&p, SRCDIR "/tests/data/cli_portfolio.json", err, sizeof err), MCP_OK);
  assert_int_equal(mcp_portfolio_set_paths(p, 2048), MCP_OK);
  assert_int_equal(mcp_context_create(&c, MCP_BACKEND_CPU), MCP_OK);
  assert_int_equal(mcp_price_slice(c, m, p, NULL, NULL, 0, 2, &part), MCP_OK);
  mcp_context_destroy(c);
  mcp_portfolio_destroy(p);
  mcp_market_destroy(m);
  return part;
}

static const char *in_dir(const char *name)
{
  static char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  return path;
}

static void put_file(const char *path, const char *text, mode_t mode)
{
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
  assert_int_equal(chmod(path, mode), 0);
}

static int same_text(const char *path, const char *text)
{
  char buf[256] = "";
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return strcmp(buf, text) == 0;
}

/* Whether the folder holds exactly count entries (no temporary left). */
static void expect_entries(const char *folder, int count)
{
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq %d", folder, count);
  if (system(cmd) != 0) {
    snprintf(cmd, sizeof cmd, "ls -lA '%s' >&2", folder);
    (void)!system(cmd);
    fail_msg("expected %d entries in %s", count, folder);
  }
}

static void expect_partial_in(const char *path)
{
  mcp_partial *back = NULL;
  char err[512];
  if (mcp_partial_read(&back, path, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  unsigned n;
  assert_int_equal(mcp_partial_slice(back, &n), 0);
  assert_int_equal(n, 2);
  mcp_partial_destroy(back);
}

/* ---- writing ------------------------------------------------------------ */

/* A FIFO stays one, written through to its reader; a link stays one, its
 * target written; the old file's mode is kept; a 250-byte name works. */
static void writes_in_place_and_through_links(void **state)
{
  (void)state;
  mcp_partial *part = a_partial();
  char err[512], fifo[1024], got[1024];
  snprintf(fifo, sizeof fifo, "%s", in_dir("fifo"));
  snprintf(got, sizeof got, "%s", in_dir("got.mcpart"));
  assert_int_equal(mkfifo(fifo, 0600), 0);
  pid_t reader = fork();
  assert_true(reader >= 0);
  if (reader == 0) { /* copies what comes through the FIFO */
    alarm(30);
    int in = open(fifo, O_RDONLY), out = open(got, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char b[65536];
    ssize_t n;
    while (in >= 0 && out >= 0 && (n = read(in, b, sizeof b)) > 0)
      if (write(out, b, (size_t)n) != n)
        _exit(1);
    _exit(in >= 0 && out >= 0 ? 0 : 1);
  }
  mcp_status st = mcp_partial_write(part, fifo, err, sizeof err);
  struct stat s;
  int still_fifo = lstat(fifo, &s) == 0 && S_ISFIFO(s.st_mode);
  if (!still_fifo || st != MCP_OK) {
    kill(reader, SIGKILL);
    waitpid(reader, NULL, 0);
    fail_msg("the FIFO %s (status %d: %s)", still_fifo ? "stays one" : "was replaced", st,
             st == MCP_OK ? "" : err);
  }
  int ws;
  assert_int_equal(waitpid(reader, &ws, 0), reader);
  assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
  expect_partial_in(got);

  /* a link is followed, the target keeps its mode, no temporary is left */
  char target[1024];
  snprintf(target, sizeof target, "%s", in_dir("target.mcpart"));
  put_file(target, "old", 0640);
  assert_int_equal(symlink("target.mcpart", in_dir("link.mcpart")), 0);
  assert_int_equal(mcp_partial_write(part, in_dir("link.mcpart"), err, sizeof err), MCP_OK);
  assert_int_equal(lstat(in_dir("link.mcpart"), &s), 0);
  assert_true(S_ISLNK(s.st_mode));
  assert_int_equal(stat(target, &s), 0);
  assert_int_equal(s.st_mode & 07777, 0640);
  expect_partial_in(target);
  expect_entries(dir, 4); /* fifo, got, target, link */

  /* the longest names: the temporary's name is shortened to fit */
  char name[251];
  memset(name, 'n', 250);
  name[250] = '\0';
  char *path = strdup(in_dir(name));
  if (mcp_partial_write(part, path, err, sizeof err) != MCP_OK)
    fail_msg("a 250-byte name: %s", err);
  expect_partial_in(path);
  expect_entries(dir, 5);
  free(path);

  /* refused before anything is written: a directory, a dangling link */
  assert_int_equal(mkdir(in_dir("folder"), 0700), 0);
  assert_int_equal(mcp_partial_write(part, in_dir("folder"), err, sizeof err), MCP_ERR_ARGUMENT);
  assert_non_null(strstr(err, "folder: is a directory"));
  assert_int_equal(symlink("nowhere/x", in_dir("dangling")), 0);
  assert_int_equal(mcp_partial_write(part, in_dir("dangling"), err, sizeof err),
                   MCP_ERR_ARGUMENT);
  assert_non_null(strstr(err, "leads nowhere"));
  expect_entries(in_dir("folder"), 0);
  mcp_partial_destroy(part);
}

/* Runs mcp_partial_write(path) as nobody (root's tests) or as this user; its
 * status, and its message in err. */
static int write_as_nobody(const mcp_partial *part, const char *path, char *err, size_t errlen)
{
  if (geteuid() != 0)
    return mcp_partial_write(part, path, err, errlen);
  int fds[2];
  assert_int_equal(pipe(fds), 0);
  pid_t child = fork();
  assert_true(child >= 0);
  if (child == 0) {
    close(fds[0]);
    if (setgroups(0, NULL) != 0 || setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
      _exit(100);
    char msg[512] = "";
    int st = mcp_partial_write(part, path, msg, sizeof msg);
    (void)!write(fds[1], msg, strlen(msg) + 1);
    _exit(st);
  }
  close(fds[1]);
  ssize_t n = read(fds[0], err, errlen - 1);
  err[n > 0 ? n : 0] = '\0';
  close(fds[0]);
  int ws;
  assert_int_equal(waitpid(child, &ws, 0), child);
  assert_true(WIFEXITED(ws));
  if (WEXITSTATUS(ws) == 100)
    fail_msg("cannot become nobody");
  return WEXITSTATUS(ws);
}

/* What the caller may not write is refused before any work, the file kept:
 * a read-only file (which rename() alone would replace), and another
 * user's file in a sticky folder (which rename() may not replace, however
 * writable the file). */
static void refuses_what_the_caller_may_not_write(void **state)
{
  (void)state;
  mcp_partial *part = a_partial();
  char err[512];
  int root = geteuid() == 0;
  /* nobody must reach the folder: it is only the files that refuse */
  assert_int_equal(chmod(dir, root ? 0777 : 0700), 0);
  put_file(in_dir("ro.mcpart"), "read-only", 0444);
  assert_int_equal(write_as_nobody(part, in_dir("ro.mcpart"), err, sizeof err), MCP_ERR_IO);
  if (!strstr(err, "ro.mcpart: cannot write it: Permission denied"))
    fail_msg("unexpected message: %s", err);
  assert_true(same_text(in_dir("ro.mcpart"), "read-only"));

  if (!root) {
    printf("[  SKIP    ] another user's file in a sticky folder: needs root to make one\n");
  } else {
    char sticky[1024];
    snprintf(sticky, sizeof sticky, "%s", in_dir("sticky"));
    assert_int_equal(mkdir(sticky, 0777), 0);
    assert_int_equal(chmod(sticky, 01777), 0);
    char path[1200];
    snprintf(path, sizeof path, "%s/theirs.mcpart", sticky);
    put_file(path, "theirs", 0666); /* root's: another user's to nobody */
    assert_int_equal(write_as_nobody(part, path, err, sizeof err), MCP_ERR_IO);
    if (!strstr(err, "theirs.mcpart: cannot replace it") || !strstr(err, "sticky folder"))
      fail_msg("unexpected message: %s", err);
    assert_true(same_text(path, "theirs"));
    expect_entries(sticky, 1);
    /* nobody's own file there is replaced */
    snprintf(path, sizeof path, "%s/mine.mcpart", sticky);
    put_file(path, "mine", 0644);
    assert_int_equal(chown(path, NOBODY, NOBODY), 0);
    if (write_as_nobody(part, path, err, sizeof err) != MCP_OK)
      fail_msg("%s", err);
    expect_partial_in(path);
  }
  assert_int_equal(chmod(dir, 0700), 0);
  mcp_partial_destroy(part);
}

/* A name of a descriptor is judged by what it is open on: an input opened
 * by the shell ("3<>market.json") is refused, whatever its name. */
static void descriptors_compared_by_inode(void **state)
{
  (void)state;
  char err[512], name[64];
  char input[1024];
  snprintf(input, sizeof input, "%s", in_dir("market.json"));
  put_file(input, "{}", 0644);
  int fd = open(input, O_RDWR);
  assert_true(fd >= 0);
  snprintf(name, sizeof name, "/dev/fd/%d", fd);
  mcp_output *o = (mcp_output *)1;
  const char *inputs[] = {input};
  assert_int_equal(mcp_output_open(&o, name, inputs, 1, err, sizeof err), MCP_ERR_ARGUMENT);
  assert_null(o);
  if (!strstr(err, "is also the input file") || !strstr(err, "market.json"))
    fail_msg("unexpected message: %s", err);
  assert_true(same_text(input, "{}"));
  close(fd);
  /* open for reading only: nothing to write through */
  fd = open(input, O_RDONLY);
  snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
  assert_int_equal(mcp_output_open(&o, name, NULL, 0, err, sizeof err), MCP_ERR_IO);
  assert_non_null(strstr(err, "reading only"));
  close(fd);
  /* another file, written through its descriptor where it stands */
  char out[1024];
  snprintf(out, sizeof out, "%s", in_dir("out.txt"));
  put_file(out, "head:", 0644);
  fd = open(out, O_WRONLY | O_APPEND);
  snprintf(name, sizeof name, "/dev/fd/%d", fd);
  if (mcp_output_open(&o, name, inputs, 1, err, sizeof err) != MCP_OK)
    fail_msg("%s", err);
  assert_null(mcp_output_temporary(o));
  assert_int_equal(mcp_output_write(o, "tail", 4, err, sizeof err), MCP_OK);
  assert_int_equal(mcp_output_commit(o, err, sizeof err), MCP_OK);
  close(fd);
  assert_true(same_text(out, "head:tail"));
  /* a new file through a temporary beside it, which commit renames */
  assert_int_equal(mcp_output_open(&o, in_dir("new.txt"), inputs, 1, err, sizeof err), MCP_OK);
  assert_non_null(mcp_output_temporary(o));
  assert_int_equal(access(in_dir("new.txt"), F_OK), -1);
  assert_int_equal(mcp_output_write(o, "whole", 5, err, sizeof err), MCP_OK);
  assert_int_equal(mcp_output_commit(o, err, sizeof err), MCP_OK);
  assert_true(same_text(in_dir("new.txt"), "whole"));
  /* abort leaves the old file */
  assert_int_equal(mcp_output_open(&o, in_dir("new.txt"), NULL, 0, err, sizeof err), MCP_OK);
  assert_int_equal(mcp_output_write(o, "half", 4, err, sizeof err), MCP_OK);
  mcp_output_abort(o);
  assert_true(same_text(in_dir("new.txt"), "whole"));
  expect_entries(dir, 3);
}

/* ---- reading ------------------------------------------------------------ */

/* A writer into a FIFO that sends text and then holds the FIFO open, as a
 * device that never ends would: the reader must judge the first bytes. */
static pid_t stalling_writer(const char *fifo, const char *text, size_t len)
{
  pid_t w = fork();
  assert_true(w >= 0);
  if (w == 0) {
    int fd = open(fifo, O_WRONLY);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len)
      _exit(1);
    sleep(60);
    _exit(0);
  }
  return w;
}

static void stop(pid_t w)
{
  kill(w, SIGKILL);
  waitpid(w, NULL, 0);
}

static void reads_are_bounded(void **state)
{
  (void)state;
  char err[512];
  char fifo[1024];
  snprintf(fifo, sizeof fifo, "%s", in_dir("stream"));
  assert_int_equal(mkfifo(fifo, 0600), 0);
  alarm(20); /* a reader that waits for the end fails here, not forever */
  pid_t w = stalling_writer(fifo, "not a partial, and more to come", 31);
  mcp_partial *part = (mcp_partial *)1;
  mcp_status st = mcp_partial_read(&part, fifo, err, sizeof err);
  stop(w);
  assert_int_equal(st, MCP_ERR_PARSE);
  assert_null(part);
  assert_non_null(strstr(err, "stream: not a partial result of mcprice"));
  /* a partial of another library version: refused on its header */
  w = stalling_writer(fifo, "MCPPART\x1a\x01\0\0\0\0\0\0\0\x07\0\0\0\0\0\0\0", 24);
  st = mcp_partial_read(&part, fifo, err, sizeof err);
  stop(w);
  assert_int_equal(st, MCP_ERR_INPUT);
  assert_non_null(strstr(err, "written by mcprice version number 7"));
  /* text: stopped at its first NUL byte, named at its line and column */
  w = stalling_writer(fifo, "{\n  \"tr\0", 9);
  char *text = NULL;
  size_t len = 0;
  st = mcp_input_read(fifo, &text, &len, err, sizeof err);
  stop(w);
  assert_int_equal(st, MCP_ERR_PARSE);
  assert_null(text);
  if (!strstr(err, "stream:2:6: a NUL byte; expected JSON text"))
    fail_msg("unexpected message: %s", err);
  mcp_portfolio *p = (mcp_portfolio *)1;
  w = stalling_writer(fifo, "{\n\n \0", 5);
  st = mcp_portfolio_load(&p, fifo, err, sizeof err);
  stop(w);
  assert_int_equal(st, MCP_ERR_PARSE);
  assert_non_null(strstr(err, "stream:3:2: a NUL byte"));
  alarm(0);
  /* the same in given text */
  assert_int_equal(mcp_portfolio_load_text(&p, "book.json", "{\n \"a\0", 6, err, sizeof err),
                   MCP_ERR_PARSE);
  if (!strstr(err, "book.json:2:4: a NUL byte"))
    fail_msg("unexpected message: %s", err);
  /* a regular file too large is refused by its size, unread */
  char big[1024];
  snprintf(big, sizeof big, "%s", in_dir("big.json"));
  int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, (off_t)MCP_INPUT_MAX_BYTES + 1), 0);
  close(fd);
  assert_int_equal(mcp_input_read(big, &text, &len, err, sizeof err), MCP_ERR_INPUT);
  assert_non_null(strstr(err, "big.json: larger than 256 MiB"));
  assert_int_equal(unlink(big), 0);
  /* a directory, and a file read whole */
  assert_int_equal(mcp_input_read(dir, &text, &len, err, sizeof err), MCP_ERR_IO);
  assert_non_null(strstr(err, "is a directory"));
  put_file(in_dir("small.json"), "{\"a\": 1}\n", 0644);
  assert_int_equal(mcp_input_read(in_dir("small.json"), &text, &len, err, sizeof err), MCP_OK);
  assert_int_equal(len, 9);
  assert_string_equal(text, "{\"a\": 1}\n");
  free(text);
}

static int make_dir(void **state)
{
  (void)state;
  return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
  (void)state;
  char cmd[128];
  chmod(dir, 0700);
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* Each test in a fresh folder. */
static int fresh(void **state)
{
  remove_dir(state);
  strcpy(dir, "/tmp/test_files.XXXXXX");
  return make_dir(state);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(writes_in_place_and_through_links, fresh),
      cmocka_unit_test_setup(refuses_what_the_caller_may_not_write, fresh),
      cmocka_unit_test_setup(descriptors_compared_by_inode, fresh),
      cmocka_unit_test_setup(reads_are_bounded, fresh),
  };
  return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
