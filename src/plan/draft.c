/* draft.c: a job being filled (plan_build.h, job_draft): the fixing
 * schedules and bridge monitors its trades need, each held once, and whether
 * those of one more trade fit beside them.  plan.c fills the drafts as it
 * groups the trades; specs.c finds each trade's schedules and monitor in
 * them. */
#include <math.h>
#include "src/plan/plan_build.h"

/* The same dates, and extremes of one kind (or of a kind one of them does
 * not read: MCPI_OPEN_ANY). */
static int same_schedule(schedule a, schedule b)
{
  if (a.n != b.n ||
      (a.open != b.open && a.open != MCPI_OPEN_ANY && b.open != MCPI_OPEN_ANY))
    return 0;
  for (size_t i = 0; i < a.n; i++)
    if (fabs(a.t[i] - b.t[i]) > MCPI_TIME_EPS)
      return 0;
  return 1;
}

/* The barrier the trade watches on the bridge, if any: a barrier option's,
 * or an autocallable's knock-in (a fraction of its initial fixing). */
static int bridge_monitor(const mcpi_trade *t, monitor *m)
{
  if (t->product == MCP_PRODUCT_BARRIER && t->monitoring == MCP_MONITOR_BRIDGE)
    *m = (monitor){t->barrier, t->maturity, mcpi_barrier_up(t)};
  else if (t->product == MCP_PRODUCT_AUTOCALLABLE && t->monitoring == MCP_MONITOR_BRIDGE &&
           t->knock_in > 0 && !t->ac_knocked) /* knocked in already: its array says so */
    *m = (monitor){t->knock_in * t->initial[0], t->maturity, 0};
  else
    return 0;
  return 1;
}

int mcpi_find_schedule(const job_draft *d, schedule s)
{
  for (int k = 0; k < d->nsched; k++)
    if (same_schedule(d->sched[k], s))
      return k;
  return -1;
}

int mcpi_find_monitor(const job_draft *d, const mcpi_trade *t)
{
  monitor m;
  if (!bridge_monitor(t, &m))
    return -1;
  for (int k = 0; k < d->nmon; k++)
    if (d->mon[k].barrier == m.barrier && d->mon[k].up == m.up &&
        fabs(d->mon[k].maturity - m.maturity) <= MCPI_TIME_EPS)
      return k;
  return -1;
}

int mcpi_draft_add(job_draft *d, const mcpi_trade *t)
{
  schedule s[2] = {mcpi_main_schedule(d, t), mcpi_terminal_schedule(t)};
  monitor m;
  int need = 0, mon = bridge_monitor(t, &m) && mcpi_find_monitor(d, t) < 0, k[2];
  for (int i = 0; i < 2; i++)
    if ((k[i] = mcpi_find_schedule(d, s[i])) < 0 && !(i == 1 && same_schedule(s[0], s[1])))
      need++;
  /* a job's array fits the register kernels when its first trade's does, so
   * that every placement can run it; the jobs do not depend on the placement */
  int len = mcpi_trade_array_len(t);
  int cap = d->arr_len ? d->arr_cap
            : len <= MCP_MAX_REGISTER_ARRAY ? MCP_MAX_REGISTER_ARRAY : MCP_MAX_PRIVATE_ARRAY;
  if (d->nsched + need > MCPI_MAX_SCHEDULES || d->nmon + mon > MCPI_MAX_MONITORS ||
      d->arr_len + len > cap)
    return 0;
  d->arr_len += len;
  d->arr_cap = cap;
  for (int i = 0; i < 2; i++) {
    /* found above, but a terminal schedule that the main one just added may
     * now be (what is appended, or an open kind set, moves no first match
     * of the terminal's, whose kind is any) */
    int at = i == 1 && k[1] < 0 ? mcpi_find_schedule(d, s[1]) : k[i];
    if (at < 0)
      d->sched[d->nsched++] = s[i];
    else if (d->sched[at].open == MCPI_OPEN_ANY) /* now read: of this trade's kind */
      d->sched[at].open = s[i].open;
  }
  if (mon)
    d->mon[d->nmon++] = m;
  return 1;
}
