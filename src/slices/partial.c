/* partial.c: partial results, and their file format (doc/partial-format.md):
 * little-endian integers, doubles as their IEEE 754 bits, whatever the
 * host, and a checksum of everything before it at the end. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/base/error.h"
#include "src/base/grow.h"
#include "src/io/read_file.h"
#include "src/slices/slice.h"

#define MAGIC "MCPPART\x1a"
#define FORMAT_VERSION 1u
/* A partial file's largest count of anything, before memory is asked for */
#define MAX_COUNT ((uint64_t)1 << 40)
/* The largest file mcp_partial_read reads: 64 GiB */
#define MAX_FILE ((size_t)1 << 36)

mcp_partial *mcpi_partial_new(unsigned k, unsigned n, mcpi_part_kind kind, uint64_t digest,
                              mcp_backend backend)
{
  mcp_partial *p = calloc(1, sizeof *p);
  if (p) {
    *p = (mcp_partial){.k = k, .n = n, .kind = kind, .digest = digest, .backend = backend};
    snprintf(p->label, sizeof p->label, "slice %u of %u", k, n);
  }
  return p;
}

void mcp_partial_destroy(mcp_partial *p)
{
  if (!p)
    return;
  for (size_t i = 0; i < p->ntree; i++)
    mcpi_tree_free(&p->tree[i].tree);
  for (size_t r = 0; r < p->nruns; r++)
    free(p->pde[r]);
  free(p->tree);
  free(p->pde);
  free(p->npde);
  free(p->annex);
  free(p->source);
  free(p);
}

int mcpi_partial_add_tree(mcp_partial *p, uint64_t run, uint64_t job, uint64_t rep, mcpi_tree *t)
{
  if (!mcpi_grow((void **)&p->tree, &p->tree_cap, p->ntree + 1, sizeof *p->tree)) {
    mcpi_tree_free(t);
    return -1;
  }
  p->tree[p->ntree++] = (mcpi_part_tree){run, job, rep, *t};
  return 0;
}

static int ensure_runs(mcp_partial *p, size_t nruns)
{
  if (nruns <= p->nruns)
    return 0;
  double **pde = realloc(p->pde, nruns * sizeof *pde);
  if (pde)
    p->pde = pde;
  size_t *npde = realloc(p->npde, nruns * sizeof *npde);
  if (npde)
    p->npde = npde;
  if (!pde || !npde)
    return -1;
  for (size_t r = p->nruns; r < nruns; r++) {
    p->pde[r] = NULL;
    p->npde[r] = 0;
  }
  p->nruns = nruns;
  return 0;
}

int mcpi_partial_set_pde(mcp_partial *p, size_t run, const double *v, size_t n)
{
  if (ensure_runs(p, run + 1))
    return -1;
  double *c = malloc((n ? n : 1) * sizeof *c);
  if (!c)
    return -1;
  if (n)
    memcpy(c, v, n * sizeof *c);
  free(p->pde[run]);
  p->pde[run] = c;
  p->npde[run] = n;
  return 0;
}

unsigned mcp_partial_slice(const mcp_partial *p, unsigned *n)
{
  if (n)
    *n = p ? p->n : 0;
  return p ? p->k : 0;
}

mcp_status mcp_partial_set_annex(mcp_partial *p, const void *data, size_t len)
{
  if (!p || (!data && len))
    return mcpi_null(__func__, !p ? "partial" : "data");
  unsigned char *c = malloc(len ? len : 1);
  if (!c)
    return mcpi_no_memory(__func__);
  if (len)
    memcpy(c, data, len);
  free(p->annex);
  p->annex = c;
  p->nannex = len;
  return MCP_OK;
}

const void *mcp_partial_annex(const mcp_partial *p, size_t *len)
{
  if (len)
    *len = p ? p->nannex : 0;
  return p && p->nannex ? p->annex : NULL;
}

/* ---- encoding ------------------------------------------------------------- */

typedef struct sink {
  unsigned char *b;
  size_t n, cap;
  int failed;
} sink;

static void put(sink *s, const void *v, size_t n)
{
  if (n == 0) /* v may be NULL then (no annex) */
    return;
  if (s->failed || !mcpi_grow((void **)&s->b, &s->cap, s->n + n, 1)) {
    s->failed = 1;
    return;
  }
  memcpy(s->b + s->n, v, n);
  s->n += n;
}

static void put_u64(sink *s, uint64_t v)
{
  unsigned char b[8];
  for (int i = 0; i < 8; i++)
    b[i] = (unsigned char)(v >> (8 * i));
  put(s, b, 8);
}

static void put_f64(sink *s, double v)
{
  uint64_t u;
  memcpy(&u, &v, 8);
  put_u64(s, u);
}

/* FNV-1a, 64 bits: the trailer's checksum. */
static uint64_t checksum(const unsigned char *b, size_t n)
{
  uint64_t h = 0xcbf29ce484222325u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3u;
  return h;
}

static mcp_status encode(const mcp_partial *p, sink *s)
{
  put(s, MAGIC, 8);
  put_u64(s, FORMAT_VERSION);
  put_u64(s, (uint64_t)mcp_version_number());
  put_u64(s, p->kind);
  put_u64(s, p->k);
  put_u64(s, p->n);
  put_u64(s, p->digest);
  put_u64(s, (uint64_t)p->backend);
  put_f64(s, p->seconds);
  put_u64(s, p->nruns);
  for (size_t r = 0; r < p->nruns; r++) {
    put_u64(s, p->npde[r]);
    for (size_t i = 0; i < p->npde[r]; i++)
      put_f64(s, p->pde[r][i]);
  }
  put_u64(s, p->ntree);
  for (size_t i = 0; i < p->ntree; i++) {
    const mcpi_part_tree *x = &p->tree[i];
    const mcpi_tree *t = &x->tree;
    put_u64(s, x->run);
    put_u64(s, x->job);
    put_u64(s, x->rep);
    put_u64(s, t->c0);
    put_u64(s, t->c1);
    put_u64(s, t->paths);
    put_u64(s, t->ncol);
    put_u64(s, t->depth);
    for (size_t d = 0; d < t->depth; d++) {
      put_u64(s, t->level[d]);
      put_u64(s, t->index[d]);
    }
    for (size_t c = 0; c < t->ncol; c++)
      for (size_t d = 0; d < 2 * t->depth; d++)
        put_f64(s, t->val[2 * c * t->cap + d]);
  }
  put_u64(s, p->nannex);
  put(s, p->annex, p->nannex);
  if (!s->failed)
    put_u64(s, checksum(s->b, s->n));
  return s->failed ? mcpi_no_memory(__func__) : MCP_OK;
}

mcp_status mcp_partial_encode(const mcp_partial *p, void **bytes, size_t *len)
{
  if (!bytes || !len)
    return mcpi_null(__func__, "bytes or len");
  *bytes = NULL;
  *len = 0;
  if (!p)
    return mcpi_null(__func__, "partial");
  sink s = {0};
  mcp_status st = encode(p, &s);
  if (st != MCP_OK) {
    free(s.b);
    return st;
  }
  *bytes = s.b;
  *len = s.n;
  return MCP_OK;
}

mcp_status mcp_partial_write(const mcp_partial *p, const char *path, char *err, size_t errlen)
{
  if (!p || !path) {
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: %s is NULL", __func__,
                        !p ? "partial" : "path");
  }
  /* the output's rules before the work: a device or FIFO written in place,
   * a regular file replaced only when whole */
  mcp_output *o = NULL;
  mcp_status st = mcp_output_open(&o, path, NULL, 0, err, errlen);
  if (st != MCP_OK)
    return st;
  sink s = {0};
  if ((st = encode(p, &s)) != MCP_OK)
    mcpi_copy_message(err, errlen, "out of memory encoding a partial result");
  else if ((st = mcp_output_write(o, s.b, s.n, err, errlen)) == MCP_OK) {
    st = mcp_output_commit(o, err, errlen);
    o = NULL;
  }
  mcp_output_abort(o);
  free(s.b);
  return st;
}

/* ---- decoding ------------------------------------------------------------- */

typedef struct source {
  const unsigned char *b;
  size_t n, at; /* n: the bytes before the checksum */
  const char *name;
  char *err;
  size_t errlen;
  mcp_status st;
} source;

static void fail(source *s, mcp_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(source *s, mcp_status st, const char *fmt, ...)
{
  if (s->st != MCP_OK)
    return;
  char what[MCPI_ERRLEN / 2];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  s->st = mcpi_fail_to(s->err, s->errlen, st, "%s: %s", s->name, what);
}

static uint64_t get_u64(source *s)
{
  if (s->st != MCP_OK)
    return 0;
  if (s->n - s->at < 8) {
    fail(s, MCP_ERR_PARSE, "truncated: ends within the field at byte %zu", s->at);
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)s->b[s->at + i] << (8 * i);
  s->at += 8;
  return v;
}

static double get_f64(source *s)
{
  uint64_t u = get_u64(s);
  double v;
  memcpy(&v, &u, 8);
  return v;
}

/* A count of items of size bytes each that the rest of the file can hold. */
static uint64_t get_count(source *s, size_t size, const char *what)
{
  uint64_t v = get_u64(s);
  if (s->st == MCP_OK && (v > MAX_COUNT || v * size > s->n - s->at))
    fail(s, MCP_ERR_PARSE, "%s: %llu is more than the file holds (truncated or corrupted)",
         what, (unsigned long long)v);
  return s->st == MCP_OK ? v : 0;
}

static void get_tree(source *s, mcp_partial *p, size_t i)
{
  uint64_t run = get_u64(s), job = get_u64(s), rep = get_u64(s);
  uint64_t c0 = get_u64(s), c1 = get_u64(s), paths = get_u64(s);
  uint64_t ncol = get_count(s, 16, "columns"), depth = get_count(s, 16, "nodes");
  /* a slice writes a tree for chunks it holds: one node at least, and at
   * most 256 paths a chunk */
  if (s->st == MCP_OK &&
      (c1 <= c0 || depth == 0 || depth > 130 || ncol == 0 || ncol * depth * 16 > s->n - s->at ||
       paths > (c1 - c0) * MCP_CHUNK_PATHS || paths <= (c1 - c0 - 1) * MCP_CHUNK_PATHS))
    fail(s, MCP_ERR_PARSE, "tree %zu: a shape no slice writes (corrupted)", i);
  if (s->st != MCP_OK)
    return;
  mcpi_tree t = {.c0 = c0, .c1 = c0, .paths = paths, .ncol = ncol, .depth = depth,
                 .cap = depth};
  t.level = malloc(t.cap);
  t.index = malloc(t.cap * sizeof *t.index);
  t.val = malloc(ncol * t.cap * 2 * sizeof *t.val);
  if (!t.level || !t.index || !t.val) {
    mcpi_tree_free(&t);
    fail(s, MCP_ERR_NO_MEMORY, "out of memory");
    return;
  }
  for (size_t d = 0; d < depth; d++) {
    uint64_t level = get_u64(s), index = get_u64(s);
    /* the nodes are consecutive aligned blocks from c0 to c1 */
    if (s->st == MCP_OK &&
        (level >= 64 || index > (UINT64_MAX >> level) || index << level != t.c1 ||
         ((uint64_t)1 << level) > c1 - t.c1))
      fail(s, MCP_ERR_PARSE, "tree %zu: node %zu is not the block after the last (corrupted)",
           i, d);
    t.level[d] = (unsigned char)level;
    t.index[d] = index;
    t.c1 += s->st == MCP_OK ? (uint64_t)1 << level : 0;
  }
  if (s->st == MCP_OK && t.c1 != c1)
    fail(s, MCP_ERR_PARSE, "tree %zu: its nodes do not cover its chunks (corrupted)", i);
  for (size_t v = 0; v < 2 * ncol * depth && s->st == MCP_OK; v++)
    t.val[v] = get_f64(s);
  if (s->st != MCP_OK || mcpi_partial_add_tree(p, run, job, rep, &t) != 0) {
    mcpi_tree_free(&t);
    fail(s, MCP_ERR_NO_MEMORY, "out of memory");
  }
}

static void decode(source *s, mcp_partial *p)
{
  if (s->n < 8 || memcmp(s->b, MAGIC, 8) != 0) {
    fail(s, MCP_ERR_PARSE, "not a partial result of mcprice (it does not begin with %.7s)",
         MAGIC);
    return;
  }
  s->at = 8;
  uint64_t version = get_u64(s), lib = get_u64(s);
  if (s->st == MCP_OK && version != FORMAT_VERSION)
    fail(s, MCP_ERR_PARSE, "partial format version %llu; this mcprice reads version %u",
         (unsigned long long)version, FORMAT_VERSION);
  if (s->st == MCP_OK && lib != (uint64_t)mcp_version_number())
    fail(s, MCP_ERR_INPUT, "written by mcprice version number %llu; this is %d (prices may "
         "differ in their last bits between versions: compute every slice with one)",
         (unsigned long long)lib, mcp_version_number());
  uint64_t kind = get_u64(s), k = get_u64(s), n = get_u64(s);
  p->digest = get_u64(s);
  uint64_t backend = get_u64(s);
  p->seconds = get_f64(s);
  if (s->st == MCP_OK && (kind > MCPI_PART_SCENARIOS || n == 0 || n > MCP_MAX_SLICES ||
                          k >= n || (backend != MCP_BACKEND_CPU && backend != MCP_BACKEND_CUDA)))
    fail(s, MCP_ERR_PARSE, "a header no slice writes (kind %llu, slice %llu of %llu, backend "
         "%llu): corrupted", (unsigned long long)kind, (unsigned long long)k,
         (unsigned long long)n, (unsigned long long)backend);
  p->kind = (mcpi_part_kind)kind;
  p->k = (unsigned)k;
  p->n = (unsigned)n;
  p->backend = (mcp_backend)backend;
  snprintf(p->label, sizeof p->label, "slice %u of %u", p->k, p->n);
  uint64_t nruns = get_count(s, 8, "runs");
  if (s->st == MCP_OK && ensure_runs(p, nruns))
    fail(s, MCP_ERR_NO_MEMORY, "out of memory");
  for (size_t r = 0; r < nruns && s->st == MCP_OK; r++) {
    uint64_t m = get_count(s, 8, "PDE values");
    if (s->st == MCP_OK && !(p->pde[r] = malloc((m ? m : 1) * sizeof(double))))
      fail(s, MCP_ERR_NO_MEMORY, "out of memory");
    for (size_t i = 0; i < m && s->st == MCP_OK; i++)
      p->pde[r][i] = get_f64(s);
    p->npde[r] = s->st == MCP_OK ? m : 0;
  }
  uint64_t ntree = get_count(s, 64, "trees");
  for (size_t i = 0; i < ntree && s->st == MCP_OK; i++)
    get_tree(s, p, i);
  uint64_t nannex = get_count(s, 1, "annex bytes");
  if (s->st == MCP_OK && mcp_partial_set_annex(p, s->b + s->at, nannex) != MCP_OK)
    fail(s, MCP_ERR_NO_MEMORY, "out of memory");
  s->at += s->st == MCP_OK ? nannex : 0;
  if (s->st == MCP_OK && s->at != s->n)
    fail(s, MCP_ERR_PARSE, "%zu bytes after the last field (corrupted)", s->n - s->at);
}

/* The first 24 bytes: the magic, the version and the library version, which
 * a reader checks before it reads (or sums) the rest. */
static mcp_status check_head(const unsigned char *b, size_t n, const char *name, char *err,
                             size_t errlen)
{
  source s = {b, n, 8, name, err, errlen, MCP_OK};
  if (n < 8 || memcmp(b, MAGIC, 8) != 0) {
    fail(&s, MCP_ERR_PARSE, "not a partial result of mcprice (it does not begin with %.7s)",
         MAGIC);
    return s.st;
  }
  uint64_t version = get_u64(&s), lib = get_u64(&s);
  if (s.st == MCP_OK && version != FORMAT_VERSION)
    fail(&s, MCP_ERR_PARSE, "partial format version %llu; this mcprice reads version %u",
         (unsigned long long)version, FORMAT_VERSION);
  if (s.st == MCP_OK && lib != (uint64_t)mcp_version_number())
    fail(&s, MCP_ERR_INPUT, "written by mcprice version number %llu; this is %d (prices may "
         "differ in their last bits between versions: compute every slice with one)",
         (unsigned long long)lib, mcp_version_number());
  return s.st;
}

static mcp_status decode_bytes(mcp_partial **out, const unsigned char *b, size_t len,
                               const char *name, char *err, size_t errlen)
{
  source s = {b, len >= 8 ? len - 8 : 0, 0, name, err, errlen, MCP_OK};
  mcp_partial *p = calloc(1, sizeof *p);
  if (!p) {
    mcpi_copy_message(err, errlen, "out of memory");
    return mcpi_no_memory(__func__);
  }
  if ((s.st = check_head(b, len, name, err, errlen)) != MCP_OK)
    ;
  else if (len < 32)
    fail(&s, MCP_ERR_PARSE, "truncated: ends within its header");
  else {
    uint64_t want = 0;
    for (int i = 0; i < 8; i++)
      want |= (uint64_t)b[len - 8 + i] << (8 * i);
    /* the checksum first: a damaged file is reported as such, whatever
     * field the damage reached */
    if (checksum(b, len - 8) != want)
      fail(&s, MCP_ERR_PARSE, "checksum mismatch: the file is truncated or corrupted");
    else
      decode(&s, p);
  }
  if (s.st == MCP_OK && name && !(p->source = strdup(name)))
    fail(&s, MCP_ERR_NO_MEMORY, "out of memory");
  if (s.st != MCP_OK) {
    mcp_partial_destroy(p);
    return s.st;
  }
  *out = p;
  return MCP_OK;
}

mcp_status mcp_partial_decode(mcp_partial **out, const void *bytes, size_t len, const char *name,
                              char *err, size_t errlen)
{
  if (!out || (!bytes && len)) {
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: %s is NULL", __func__,
                        !out ? "out" : "bytes");
  }
  *out = NULL;
  return decode_bytes(out, bytes, len, name ? name : "partial", err, errlen);
}

mcp_status mcp_partial_read(mcp_partial **out, const char *path, char *err, size_t errlen)
{
  static const mcpi_read_rules rules = {MAX_FILE, "a partial result", NULL, 24, check_head};
  if (!out || !path) {
    return mcpi_fail_to(err, errlen, MCP_ERR_ARGUMENT, "%s: %s is NULL", __func__,
                        !out ? "out" : "path");
  }
  *out = NULL;
  char *b = NULL;
  size_t n = 0;
  mcp_status st = mcpi_read_file(path, &rules, &b, &n, err, errlen);
  if (st == MCP_OK)
    st = decode_bytes(out, (const unsigned char *)b, n, path, err, errlen);
  free(b);
  return st;
}
