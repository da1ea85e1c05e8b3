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
        a['occ'] += m.get('sm__warps_active.avg.pct_of_peak_sustained_active', 0.0) * t
        for k, metric in (('lat', LAT), ('ni', STALL % 'no_instruction'),
                          ('ls', STALL % 'long_scoreboard'), ('br', STALL % 'branch_resolving')):
            if metric in m:  # ("n/a" or absent: printed "-", not a zero)
                a[k] += m[metric] * ins
                a['w' + k] += ins
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
        def mean(k):
            return a[k] / a['w' + k] if a['w' + k] else None
        def cell(v, fmt='%.2f'):
            return '-' if v is None else fmt % v
        waves = '%.2f-%.2f' % (a['wmin'], a['wmax']) if 'wmin' in a else '-'
        reg = '%d' % a['reg'] if 'reg' in a else '-'
        lat, ni = mean('lat'), mean('ni')
        share = 100 * ni / lat if lat and ni is not None else None
        print('| %s | %d | %.3f | %s | %s | %.0f%% | %s | %s | %s | %s | %s |' %
              (name, a['n'], a['t'] / 1e6, reg, waves, a['occ'] / max(a['t'], 1.0),
               cell(lat), cell(ni), cell(share, '%.1f%%'), cell(mean('ls')), cell(mean('br'))))
    return bool(rows)


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: ncu_stalls.py CSV...')
    empty = [p for p in sys.argv[1:] if not table(p)]
    if empty:
        sys.exit('ncu_stalls.py: no ncu rows in %s' % ', '.join(empty))
