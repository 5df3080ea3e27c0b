#!/usr/bin/env bash
# A/B of Weft builds on the streaming benchmarks: per round, each bench jar in a fresh JVM runs
# `stream items -r 300`, then `stream pipeline -n 5000000 -r 5`; the order of the jars rotates every
# round (as in scripts/ab.sh). Appends the raw output to OUTFILE, each JVM's under a line
# "# jar NAME round R HH:MM:SS load: 1m 5m 15m"; scripts/stream-ab-summary.py OUTFILE summarizes it
# (per-item ns and tuples/s per jar, ratios to the first jar, Mann-Whitney p of the per-JVM values).
#
# usage: scripts/stream-ab.sh OUTFILE ROUNDS JAR [JAR...]
set -u
if [ $# -lt 3 ]; then
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
out=$1; rounds=$2; shift 2
java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
order=("$@")
for ((r = 1; r <= rounds; r++)); do
  for jar in "${order[@]}"; do
    echo "# jar $(basename "$jar") round $r $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
    "$java" -jar "$jar" stream items -r 300 2>&1 | grep -v WARNING >> "$out"
    echo "# jar $(basename "$jar") round $r $(date -u +%H:%M:%S) load: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out"
    "$java" -jar "$jar" stream pipeline -n 5000000 -r 5 2>&1 | grep -v WARNING >> "$out"
  done
  order=("${order[@]:1}" "${order[0]}")
done
