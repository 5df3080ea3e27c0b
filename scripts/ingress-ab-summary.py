#!/usr/bin/env python3
"""Summarizes the raw output of scripts/ingress-ab.sh: per case (the `==` title) and row (weft
loop/react, weft become, pekko, the hop percentiles), the median over JVMs of each JVM's median, its
ratio to the first jar's, the median over JVMs of weft/pekko, and two-sided Mann-Whitney p's of the
per-JVM medians and of the per-JVM weft/pekko against the first jar's (normal approximation; with 4-6 JVMs per jar, p above about
0.1 means noise). usage: scripts/ingress-ab-summary.py RAW [RAW...]"""
import sys, re, statistics as st
from mannwhitney import mw
from collections import defaultdict

vals = defaultdict(lambda: defaultdict(list))    # (case,row) -> jar -> [per-JVM median]
ratio = defaultdict(lambda: defaultdict(list))   # (case,row) -> jar -> [per-JVM weft/pekko or floor/pekko]
loads = defaultdict(list)
jars = []
for f in sys.argv[1:]:
    jar = case = None
    for line in open(f):
        m = re.match(r'# jar (\S+) round \d+ load (\S+)', line)
        if m:
            jar = m.group(1); loads[jar].append(float(m.group(2)))
            if jar not in jars: jars.append(jar)
            continue
        m = re.match(r'== (.*)', line)
        if m:
            case = m.group(1).split(',')[0]; continue
        m = re.match(r'\s+(.+?)\s+median\s+(\S+)(?:\s+(?:weft|floor)/pekko\s+(\S+))?', line)
        if m and jar and case:
            vals[(case, m.group(1))][jar].append(float(m.group(2)))
            if m.group(3): ratio[(case, m.group(1))][jar].append(float(m.group(3)))


if not jars:
    sys.exit("ingress-ab-summary.py: no '# jar JAR round R load L' line in %s: nothing to summarize "
             "(give the OUT file of scripts/ingress-ab.sh)" % (" ".join(sys.argv[1:]) or "no file (usage: RAW [RAW...])"))
print("load (1-min) at JVM starts:", {j: "%.1f-%.1f" % (min(l), max(l)) for j, l in loads.items()})
base = jars[0]
for key in vals:
    print("\n== %s: %s" % key)
    b = vals[key].get(base, [])
    for j in jars:
        v = vals[key].get(j, [])
        if not v: continue
        r = ratio[key].get(j, [])
        print("  %-40s n=%d median %8.2f  vs first %.3f  p %.3f  range %.2f-%.2f%s" % (
            j, len(v), st.median(v), st.median(v) / st.median(b) if b else float('nan'), mw(b, v),
            min(v), max(v), "  /pekko median %.3f p %.3f (%s)" % (st.median(r), mw(ratio[key].get(base, []), r),
                " ".join("%.3f" % x for x in r)) if r else ""))
