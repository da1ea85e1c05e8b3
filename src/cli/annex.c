/* annex.c: the price command's inputs carried in a partial result. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "src/cli/annex.h"

#define TAG "mcprice-price/1"

typedef struct buf {
  char *b;
  size_t n, cap;
  int failed;
} buf;

static void put(buf *x, const char *s, size_t n)
{
  char head[24];
  int h = snprintf(head, sizeof head, "%zu:", n);
  size_t need = x->n + (size_t)h + n + 1;
  if (x->failed)
    return;
  if (need > x->cap) {
    size_t cap = x->cap ? x->cap : 256;
    while (cap < need)
      cap *= 2;
    char *b = realloc(x->b, cap);
    if (!b) {
      x->failed = 1;
      return;
    }
    x->b = b;
    x->cap = cap;
  }
  memcpy(x->b + x->n, head, (size_t)h);
  if (n)
    memcpy(x->b + x->n + h, s, n);
  x->b[x->n + h + n] = ',';
  x->n = need;
}

static void put_str(buf *x, const char *s) { put(x, s, strlen(s)); }

int cli_annex_encode(const cli_annex *a, char **out, size_t *len)
{
  buf x = {0};
  char num[24];
  size_t argc = 0;
  while (a->argv[argc])
    argc++;
  put_str(&x, TAG);
  snprintf(num, sizeof num, "%zu", argc);
  put_str(&x, num);
  for (size_t i = 0; i < argc; i++)
    put_str(&x, a->argv[i]);
  for (int f = 0; f < ANNEX_FILES; f++) {
    put_str(&x, a->text[f] ? "1" : "0");
    put(&x, a->text[f] ? a->text[f] : "", a->text[f] ? a->len[f] : 0);
  }
  if (x.failed) {
    free(x.b);
    return -1;
  }
  *out = x.b;
  *len = x.n;
  return 0;
}

/* The next netstring of b[*at .. n) as a NUL-terminated copy, or NULL. */
static char *get(const char *b, size_t n, size_t *at, size_t *len)
{
  size_t v = 0, i = *at;
  if (i >= n || b[i] < '0' || b[i] > '9')
    return NULL;
  for (; i < n && b[i] >= '0' && b[i] <= '9' && v <= (SIZE_MAX - 9) / 10; i++)
    v = 10 * v + (size_t)(b[i] - '0');
  if (i >= n || b[i] != ':' || n - i - 1 < v + 1 || b[i + 1 + v] != ',')
    return NULL;
  char *s = malloc(v + 1);
  if (!s)
    return NULL;
  memcpy(s, b + i + 1, v);
  s[v] = '\0';
  *at = i + v + 2;
  if (len)
    *len = v;
  return s;
}

int cli_annex_decode(const char *b, size_t n, cli_annex *a)
{
  memset(a, 0, sizeof *a);
  size_t at = 0, argc = 0;
  char *tag = get(b, n, &at, NULL), *count = tag ? get(b, n, &at, NULL) : NULL, *end;
  int ok = tag && count && strcmp(tag, TAG) == 0;
  if (ok) {
    errno = 0;
    unsigned long long c = strtoull(count, &end, 10);
    ok = !*end && errno == 0 && c < 4096;
    argc = (size_t)c;
  }
  free(tag);
  free(count);
  if (ok && !(a->argv = calloc(argc + 1, sizeof *a->argv)))
    ok = 0;
  for (size_t i = 0; ok && i < argc; i++)
    ok = (a->argv[i] = get(b, n, &at, NULL)) != NULL;
  for (int f = 0; ok && f < ANNEX_FILES; f++) {
    char *has = get(b, n, &at, NULL), *text = has ? get(b, n, &at, &a->len[f]) : NULL;
    ok = text && (strcmp(has, "1") == 0 || strcmp(has, "0") == 0);
    if (ok && has[0] == '1')
      a->text[f] = text;
    else
      free(text);
    free(has);
  }
  return ok && at == n ? 0 : -1;
}

void cli_annex_free(cli_annex *a)
{
  for (size_t i = 0; a->argv && a->argv[i]; i++)
    free(a->argv[i]);
  free(a->argv);
  for (int f = 0; f < ANNEX_FILES; f++)
    free(a->text[f]);
  memset(a, 0, sizeof *a);
}
