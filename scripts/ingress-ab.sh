#!/usr/bin/env bash
# A/B of Weft builds on `ingress`: runs `ingress --only CASES -r 7 -w 2` on each jar in a fresh JVM,
# rotating the order of the jars every round, and appends each JVM's output to OUT under a line
# "# jar JAR round R load L" (L the 1-minute load average at the JVM's start). Summarize with
# scripts/ingress-ab-summary.py OUT: per case and jar, the median over JVMs of the per-JVM median
# ns/message and of weft/pekko, and a two-sided Mann-Whitney p against the first jar.
#
# usage: scripts/ingress-ab.sh ROUNDS CASES JAR [JAR...]
#   e.g. OUT=/tmp/fanout.txt scripts/ingress-ab.sh 6 fanout /tmp/base.jar actors-bench/target/actors-bench.jar
# environment: ARGS (extra ingress options, default "-r 7 -w 2"), JVM_OPTS (default "-Xms2g -Xmx2g"),
#   OUT (raw results file, default a temporary file, printed at the end)
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
rounds=$1
cases=$2
shift 2
for jar in "$@"; do
  [ -f "$jar" ] || { echo "ingress-ab.sh: no such jar: $jar" >&2; exit 2; }
done
java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
out=${OUT:-$(mktemp)}
order=("$@")
for ((r = 1; r <= rounds; r++)); do
  for jar in "${order[@]}"; do
    echo "# jar $jar round $r load $(cut -d' ' -f1 /proc/loadavg)" >> "$out"
    # shellcheck disable=SC2086 # JVM_OPTS and ARGS are lists of options
    "$java" ${JVM_OPTS:--Xms2g -Xmx2g} -jar "$jar" ingress --only "$cases" ${ARGS:--r 7 -w 2} 2>/dev/null \
      | grep -v '^WARNING' >> "$out"
  done
  order=("${order[@]:1}" "${order[0]}")
  echo "round $r of $rounds done" >&2
done
echo "raw results: $out" >&2
