/* report_frtb.c: the FRTB view's report (price --frtb): a table, CSV, JSON
 * or the CRIF file, a record a line, the book's as TOTAL. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "src/cli/report.h"

/* A record's label: vega's option maturity, GIRR's tenor, the curvature's
 * signed risk weight; empty for delta. */
static void label(const mcp_frtb_record *r, char *out, size_t n)
{
  if (r->risk == MCP_FRTB_EQ_DELTA)
    out[0] = 0;
  else
    snprintf(out, n, "%g", r->tenor);
}

/* A record's bucket, or nothing for GIRR's, which has none (bucket 0): the
 * CRIF leaves it blank too. */
static void bucket(const mcp_frtb_record *r, char *out, size_t n)
{
  if (r->bucket > 0)
    snprintf(out, n, "%d", r->bucket);
  else
    out[0] = 0;
}

/* s as a JSON string's body: the names exclude quotes and controls, not
 * backslashes. */
static void json_text(FILE *f, const char *s)
{
  for (; *s; s++)
    fprintf(f, *s == '\\' ? "\\\\" : "%c", *s);
}

int report_write_frtb(FILE *f, report_format format, const mcp_frtb *frtb)
{
  size_t n = mcp_frtb_count(frtb), width = 5;
  mcp_frtb_record r;
  char lab[32], bkt[16];
  if (format == REPORT_CRIF) {
    char *text = NULL;
    size_t len = 0;
    if (mcp_frtb_crif(frtb, &text, &len) != MCP_OK) {
      errno = ENOMEM;
      return -1;
    }
    int ok = fwrite(text, 1, len, f) == len;
    mcp_free(text);
    return ok && !ferror(f) ? 0 : -1;
  }
  for (size_t i = 0; i < n && mcp_frtb_record_at(frtb, i, &r) == MCP_OK; i++)
    if (r.trade_id && strlen(r.trade_id) > width)
      width = strlen(r.trade_id);
  if (format == REPORT_TABLE)
    fprintf(f, "%-*s  %-10s  %-12s  %6s  %6s  %22s  %s\n", (int)width, "id", "risk",
            "qualifier", "bucket", "label", "amount", "currency");
  else if (format == REPORT_CSV)
    fputs("id,risk,qualifier,bucket,label,amount,currency\n", f);
  else
    fputs("{\n  \"frtb\": [", f);
  for (size_t i = 0; i < n && mcp_frtb_record_at(frtb, i, &r) == MCP_OK; i++) {
    const char *id = r.trade_id ? r.trade_id : "TOTAL", *risk = mcp_frtb_risk_name(r.risk);
    label(&r, lab, sizeof lab);
    bucket(&r, bkt, sizeof bkt);
    if (format == REPORT_TABLE) {
      fprintf(f, "%-*s  %-10s  %-12s  %6s  %6s  %22.10g  %s\n", (int)width, id, risk,
              r.qualifier, bkt, lab, r.amount, r.currency);
    } else if (format == REPORT_CSV) {
      fprintf(f, "%s,%s,%s,%s,%s,%.17g,%s\n", id, risk, r.qualifier, bkt, lab, r.amount,
              r.currency);
    } else {
      fputs(i ? ",\n    {\"id\": " : "\n    {\"id\": ", f);
      if (r.trade_id) {
        fputc('"', f);
        json_text(f, r.trade_id);
        fputc('"', f);
      } else {
        fputs("null", f);
      }
      fprintf(f, ", \"risk\": \"%s\", \"qualifier\": \"", risk);
      json_text(f, r.qualifier);
      fprintf(f, "\", \"bucket\": %s, \"label\": ", bkt[0] ? bkt : "null");
      if (lab[0])
        fprintf(f, "%.17g", r.tenor);
      else
        fputs("null", f);
      fprintf(f, ", \"amount\": %.17g, \"currency\": \"%s\"}", r.amount, r.currency);
    }
  }
  if (format == REPORT_JSON)
    fputs("\n  ]\n}\n", f);
  return ferror(f) ? -1 : 0;
}
