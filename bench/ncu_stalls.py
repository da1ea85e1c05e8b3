#!/usr/bin/env python3
"""ncu_stalls.py CSV...: the kernels of ncu runs (--csv --print-units base
--metrics of .ci/gpu-steps' stalls step), summed by kernel: launches, time,
registers, waves, warps active, cycles between a warp's issues and what of
them it stalled on "No Instruction" (instruction fetch: its share is issue
36 part 7's target, under 5%), long scoreboard and branch resolving, each
weighted by the launches' instructions.  A range replay's CSV (one row a
metric, kernel name "range") prints as one row.  Markdown, one table a
file."""
import collections
import csv
import os
import re
import sys

LAT = 'smsp__average_warp_latency_per_inst_issued.ratio'
STALL = 'smsp__average_warps_issue_stalled_%s_per_issue_active.ratio'


def launches(path):
    """{(ID, kernel): {metric: value}} of ncu's CSV in path, which the
    profiled program's own output may precede or interleave."""
    rows = collections.OrderedDict()
    with open(path) as f:
        lines = f.readlines()
    head = next((i for i, l in enumerate(lines) if l.startswith('"ID",')), None)
    if head is None:
        return rows
    body = [lines[head]] + [l for l in lines[head + 1:] if l.startswith('"')]
    for r in csv.DictReader(body):
        v = r['Metric Value'].replace(',', '')
        try:
            value = float(v)
        except ValueError:
            continue
        rows.setdefault((r['ID'], r['Kernel Name']), {})[r['Metric Name']] = value
    return rows


def short(name):
    return re.sub(r'\((mcpi_|const |unsigned ).*', '', name).replace('void ', '')


def table(path):
    """Prints path's table; False where it holds no ncu rows."""
    by = collections.OrderedDict()
    rows = launches(path)
    for (_, name), m in rows.items():
        a = by.setdefault(short(name), collections.defaultdict(float))
        # each launch's ratios weighted by its instructions (by 1 where ncu
        # gave none: the ratios are then those of its launches alike)
        ins = m.get('smsp__inst_executed.sum', 1.0)
        t = m.get('gpu__time_duration.sum', 0.0)
        a['n'] += 1
        a['t'] += t
        a['ins'] += ins
        a['occ'] += m.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0.0) * t
        for k, metric in (('lat', LAT), ('ni', STALL % 'no_instruction'),
                          ('ls', STALL % 'long_scoreboard'), ('br', STALL % 'branch_resolving')):
            a[k] += m.get(metric, 0.0) * ins
        if 'launch__registers_per_thread' in m:
            a['reg'] = max(a['reg'], m['launch__registers_per_thread'])
        w = m.get('launch__waves_per_multiprocessor')
        if w is not None:
            a['wmax'] = max(a['wmax'], w)
            a['wmin'] = min(a.get('wmin', w), w)
    print('\n### %s\n' % os.path.basename(path))
    print('| kernel | launches | time (ms) | registers | waves | warps active | '
          'cycles an issue | No Instruction | its share | long scoreboard | branch |')
    print('|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|')
    for name, a in sorted(by.items(), key=lambda kv: -kv[1]['t']):
        ins = a['ins'] or 1.0
        waves = '%.2f-%.2f' % (a['wmin'], a['wmax']) if 'wmin' in a else '-'
        reg = '%d' % a['reg'] if 'reg' in a else '-'
        print('| %s | %d | %.3f | %s | %s | %.0f%% | %.2f | %.2f | %.1f%% | %.2f | %.2f |' %
              (name, a['n'], a['t'] / 1e6, reg, waves, a['occ'] / max(a['t'], 1.0),
               a['lat'] / ins, a['ni'] / ins, 100 * a['ni'] / max(a['lat'], 1e-9),
               a['ls'] / ins, a['br'] / ins))
    return bool(rows)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: ncu_stalls.py CSV...')
    empty = [p for p in sys.argv[1:] if not table(p)]
    if empty:
        sys.exit('ncu_stalls.py: no ncu rows in %s' % ', '.join(empty))
