#!/usr/bin/env python3
"""Summarizes the raw output of scripts/stream-ab.sh: per jar, the per-item ns of `stream items`
(median over JVMs of each JVM's best and median batch) and the pooled tuples/s of `stream pipeline`
(ratio to the same jar's threads+spsc, and to the first jar with a two-sided Mann-Whitney p of the
per-JVM values). usage: scripts/stream-ab-summary.py RAW [RAW...]"""
import sys, re, statistics as st
from mannwhitney import mw
from collections import defaultdict
files = sys.argv[1:]
items = defaultdict(lambda: defaultdict(list))   # jar -> variant -> [(pb,pm,cb,cm)]
pipe = defaultdict(lambda: defaultdict(list))    # jar -> (sec,variant) -> [runs list per JVM]
loads = defaultdict(list)
jar = None; sec = None
for f in files:
    for line in open(f):
        m = re.match(r'# jar (\S+) round (\d+) \S+ load: (\S+)', line)
        if m:
            jar = m.group(1); loads[jar].append(float(m.group(3))); continue
        m = re.match(r'\s+(stage put|stage feeder|spsc queue)\s+producer best\s+(\S+) median\s+(\S+)\s+consumer best\s+(\S+) median\s+(\S+)', line)
        if m:
            items[jar][m.group(1)].append(tuple(float(x) for x in m.groups()[1:])); continue
        m = re.match(r'== (\d)-stage', line)
        if m:
            sec = m.group(1); continue
        m = re.match(r'\s+(stages\+feeder|stages|actors/become|actors|threads\+spsc)\s+median .*runs: (.*)', line)
        if m and sec:
            pipe[jar][(sec, m.group(1))].append([float(x) for x in m.group(2).split()])
jars = list(pipe.keys()) or list(items.keys())
base = jars[0]
print("load (1-min) at JVM starts:", {j: "%.1f-%.1f" % (min(l), max(l)) for j, l in loads.items()})
print("\n== stream items -r 300: ns per tuple, median over JVMs of [best batch (median batch)]; n JVMs")
for j in items:
    for v, rs in items[j].items():
        pb = st.median(r[0] for r in rs); pm = st.median(r[1] for r in rs)
        cb = st.median(r[2] for r in rs); cm = st.median(r[3] for r in rs)
        extra = ""
        if j != base and v in items[base]:
            extra = "  p(prod best)=%.2f p(cons best)=%.2f" % (mw([r[0] for r in rs], [r[0] for r in items[base][v]]), mw([r[2] for r in rs], [r[2] for r in items[base][v]]))
        print("%-28s %-13s n=%d producer %.2f (%.2f)  consumer %.2f (%.2f)%s" % (j, v, len(rs), pb, pm, cb, cm, extra))
print("\n== stream pipeline -n 5000000 -r 5: pooled median tuples/s (M), ratio to the same jar's threads+spsc (ratio of medians, median per-round ratio), per-JVM median range, best three rounds (M)")
for sec in ("3", "2"):
    for j in pipe:
        d = pipe[j]
        if (sec, "threads+spsc") not in d: continue
        basel = d[(sec, "threads+spsc")]
        bm = st.median([x for r in basel for x in r])
        for v in ("stages", "stages+feeder", "actors", "actors/become", "threads+spsc"):
            runs = d.get((sec, v));
            if not runs: continue
            pooled = [x for r in runs for x in r]
            med = st.median(pooled)
            per_round = [a/b for ra, rb in zip(runs, basel) for a, b in zip(ra, rb)]
            jm = [st.median(r) for r in runs]
            extra = ""
            if j != base and (sec, v) in pipe[base]:
                bjm = [st.median(r) for r in pipe[base][(sec, v)]]
                bpool = st.median([x for r in pipe[base][(sec, v)] for x in r])
                extra = "  vs %s: %.2fx p=%.2f" % (base, med / bpool, mw(jm, bjm))
            top = sorted(pooled, reverse=True)[:3]
            print("%s-stage %-26s %-14s n=%d %6.1f M  /base %.2f (%.2f)  JVM medians %.1f-%.1f  best rounds %s%s" % (sec, j, v, len(runs), med/1e6, med/bm, st.median(per_round), min(jm)/1e6, max(jm)/1e6, "/".join("%.1f" % (x/1e6) for x in top), extra))
