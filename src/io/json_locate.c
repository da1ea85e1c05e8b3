/* json_locate.c: a scanner that walks JSON text, skipping values without
 * building them, to find where a path leads or which path leads to an offset.
 * It trusts the text to be well-formed where it reads (jansson has parsed it)
 * but never reads past its end. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include "src/io/json_locate.h"

typedef struct cursor {
  const char *p, *end;
} cursor;

static int peek(const cursor *c) { return c->p < c->end ? (unsigned char)*c->p : -1; }

static int is_space(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

static void skip_space(cursor *c)
{
  while (is_space(peek(c)))
    c->p++;
}

/* From the opening quote to just after the closing one. */
static int skip_string(cursor *c)
{
  while (++c->p < c->end) {
    if (*c->p == '"') {
      c->p++;
      return 1;
    }
    if (*c->p == '\\' && c->p + 1 < c->end)
      c->p++;
  }
  return 0;
}

/* Moves c from a container's opening bracket, or from the end of its
 * previous member, to the start of the next member's value, setting *key to
 * the member's name (quotes included) in an object once that name is read.
 * Returns 0 at the closing bracket, where c is left. */
static int next_member(cursor *c, int object, cursor *key)
{
  skip_space(c);
  int ch = peek(c);
  if (ch != ',' && ch != '[' && ch != '{')
    return 0;
  c->p++;
  skip_space(c);
  if (object) {
    if (peek(c) != '"')
      return 0;
    const char *name = c->p;
    if (!skip_string(c))
      return 0;
    *key = (cursor){name, c->p};
    skip_space(c);
    if (peek(c) != ':')
      return 0;
    c->p++;
    skip_space(c);
  }
  ch = peek(c);
  return ch != -1 && ch != ']';
}

/* Moves c past the value it is at.  The depth bound matters where the text
 * past jansson's stopping point is scanned: it may nest without end. */
static int skip_value(cursor *c, int depth)
{
  int open = peek(c);
  if (open == '"')
    return skip_string(c);
  if (open == '{' || open == '[') {
    cursor key;
    if (depth >= JSON_PARSER_MAX_DEPTH)
      return 0;
    while (next_member(c, open == '{', &key))
      if (!skip_value(c, depth + 1))
        return 0;
    if (peek(c) != (open == '{' ? '}' : ']'))
      return 0;
    c->p++;
    return 1;
  }
  const char *start = c->p;
  for (int ch = peek(c); ch != -1 && !is_space(ch) && !strchr(",]}:", ch); ch = peek(c))
    c->p++;
  return c->p > start;
}

/* Member names may hold escapes: jansson decodes them. */
static json_t *decode_name(const cursor *key)
{
  return json_loadb(key->p, (size_t)(key->end - key->p), JSON_DECODE_ANY, NULL);
}

static int name_is(const cursor *key, const char *name)
{
  json_t *s = decode_name(key);
  int same = json_is_string(s) && json_string_length(s) == strlen(name) &&
             memcmp(json_string_value(s), name, json_string_length(s)) == 0;
  json_decref(s);
  return same;
}

/* Moves c to the value at path, or to its member name with at_key. */
static int descend(cursor *c, const mcpi_json_path *path, int at_key)
{
  if (!path) {
    skip_space(c);
    return peek(c) != -1;
  }
  if (!descend(c, path->parent, 0))
    return 0;
  int object = path->key != NULL;
  if (peek(c) != (object ? '{' : '['))
    return 0;
  cursor key;
  for (size_t i = 0; next_member(c, object, &key); i++) {
    if (object ? name_is(&key, path->key) : i == path->index) {
      if (at_key && object)
        c->p = key.p;
      return 1;
    }
    if (!skip_value(c, 0))
      return 0;
  }
  return 0;
}

static void set_pos(const char *text, const char *start, const char *end, mcpi_json_pos *pos)
{
  pos->offset = (size_t)(start - text);
  pos->end = (size_t)(end - text);
  pos->line = 1;
  pos->column = 1;
  for (const char *q = text; q < start; q++) {
    if (*q == '\n') {
      pos->line++;
      pos->column = 1;
    } else if (((unsigned char)*q & 0xC0) != 0x80) { /* not a UTF-8 continuation byte */
      pos->column++;
    }
  }
}

/* Moves the line and column of *pos, at byte from, on to byte to. */
static void advance_pos(const char *from, const char *to, mcpi_json_pos *pos)
{
  for (const char *q = from; q < to; q++) {
    if (*q == '\n') {
      pos->line++;
      pos->column = 1;
    } else if (((unsigned char)*q & 0xC0) != 0x80) {
      pos->column++;
    }
  }
}

size_t mcpi_json_elements(const char *text, size_t len, const mcpi_json_path *array,
                          void (*each)(size_t index, const mcpi_json_pos *pos, void *user),
                          void *user)
{
  cursor c = {text, text + len};
  if (!descend(&c, array, 0) || peek(&c) != '[')
    return 0;
  mcpi_json_pos pos = {0, 0, 1, 1};
  const char *at = text; /* where pos's line and column are */
  cursor key;
  size_t i = 0;
  for (; next_member(&c, 0, &key); i++) {
    cursor v = c;
    if (!skip_value(&v, 0))
      break;
    advance_pos(at, c.p, &pos);
    at = c.p;
    pos.offset = (size_t)(c.p - text);
    pos.end = (size_t)(v.p - text);
    each(i, &pos, user);
    c = v;
  }
  return i;
}

int mcpi_json_locate(const char *text, size_t len, const mcpi_json_path *path, int at_key,
                     mcpi_json_pos *pos)
{
  cursor c = {text, text + len};
  if (!descend(&c, path, at_key))
    return 0;
  cursor v = c;
  if (!skip_value(&v, 0))
    return 0;
  set_pos(text, c.p, v.p, pos);
  return 1;
}

/* A bounded string being appended to. */
typedef struct out {
  char *buf;
  size_t n, used;
} out;

static void put(out *o, char ch)
{
  if (o->used + 1 < o->n) {
    o->buf[o->used++] = ch;
    o->buf[o->used] = '\0';
  }
}

/* Appends ".key" ("key" first) or "[index]" when key is NULL; control
 * characters in names would break the one-line message, so they become '?'. */
static void put_step(out *o, const char *key, size_t keylen, size_t index)
{
  char tmp[32];
  if (!key) {
    keylen = (size_t)snprintf(tmp, sizeof tmp, "[%zu]", index);
    key = tmp;
  } else if (o->used) {
    put(o, '.');
  }
  for (size_t i = 0; i < keylen; i++)
    put(o, (unsigned char)key[i] < 0x20 ? '?' : key[i]);
}

static void put_path(out *o, const mcpi_json_path *path)
{
  if (!path)
    return;
  put_path(o, path->parent);
  put_step(o, path->key, path->key ? strlen(path->key) : 0, path->index);
}

void mcpi_json_path_format(const mcpi_json_path *path, char *buf, size_t n)
{
  out o = {buf, n, 0};
  buf[0] = '\0';
  put_path(&o, path);
}

static void put_name(out *o, const cursor *key)
{
  json_t *s = decode_name(key);
  if (json_is_string(s))
    put_step(o, json_string_value(s), json_string_length(s), 0);
  json_decref(s);
}

int mcpi_json_path_at(const char *text, size_t len, size_t offset, char *buf, size_t n,
                      mcpi_json_pos *pos)
{
  out o = {buf, n, 0};
  cursor c = {text, text + len}, key;
  const char *at = text + offset;
  buf[0] = '\0';
  if (offset > len)
    return 0;
  skip_space(&c);
  /* Enter the member that ends at or after offset, level by level: the
   * members before it were parsed by jansson, so they can be skipped, but
   * jansson may have stopped right after a name, before its colon. */
  while (peek(&c) == '{' || peek(&c) == '[') {
    int object = peek(&c) == '{';
    size_t i;
    for (i = 0;; i++) {
      key.end = NULL;
      int more = next_member(&c, object, &key);
      if (key.end && at <= key.end) {
        put_name(&o, &key);
        set_pos(text, key.p, key.end, pos);
        return 1;
      }
      if (!more)
        return 0;
      cursor v = c;
      if (!skip_value(&v, 0) || at <= v.p)
        break;
      c = v;
    }
    if (object)
      put_name(&o, &key);
    else
      put_step(&o, NULL, 0, i);
  }
  cursor v = c;
  if (!skip_value(&v, 0))
    return 0;
  set_pos(text, c.p, v.p, pos);
  return 1;
}
