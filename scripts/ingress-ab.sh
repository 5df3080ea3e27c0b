#!/usr/bin/env bash
# A/B of Weft builds on `ingress`: runs `ingress --only CASES -r 7 -w 2` on each jar in a fresh JVM,
# rotating the order of the jars every round, and writes each JVM's output to OUT under a line
# "# jar JAR round R load L" (L the 1-minute load average at the JVM's start). A JVM that fails is
# reported on stderr (its exit status and last lines) and the rounds go on. Summarize with
# scripts/ingress-ab-summary.py OUT: per case and jar, the median over JVMs of the per-JVM median
# ns/message and of weft/pekko, and a two-sided Mann-Whitney p against the first jar.
#
# usage: scripts/ingress-ab.sh ROUNDS CASES JAR [JAR...]
#   e.g. OUT=/tmp/fanout.txt scripts/ingress-ab.sh 6 fanout /tmp/base.jar actors-bench/target/actors-bench.jar
#   ROUNDS 0 runs nothing and summarizes the raw results already in OUT again
# environment: ARGS (the ingress options after --only CASES; replaces the default "-r 7 -w 2", so
#   give -r and -w too), JVM_OPTS (default "-Xms2g -Xmx2g"),
#   OUT (raw results file, default a temporary file; emptied at the start unless ROUNDS is 0)
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
rounds=$1
cases=$2
shift 2
out=${OUT:-$(mktemp)}
echo "ingress-ab.sh: raw results in $out" >&2
if [ "$rounds" -gt 0 ]; then
  for jar in "$@"; do
    [ -f "$jar" ] || { echo "ingress-ab.sh: no such jar: $jar" >&2; exit 2; }
  done
  java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
  : > "$out"
else
  [ -s "$out" ] || { echo "ingress-ab.sh: ROUNDS 0 summarizes OUT, which is not set or empty" >&2; exit 2; }
  exec python3 "$(dirname "$0")/ingress-ab-summary.py" "$out"
fi
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
order=("$@")
for ((r = 1; r <= rounds; r++)); do
  for jar in "${order[@]}"; do
    echo "# jar $jar round $r load $(cut -d' ' -f1 /proc/loadavg)" >> "$out"
    status=0
    # shellcheck disable=SC2086 # JVM_OPTS and ARGS are lists of options
    "$java" ${JVM_OPTS:--Xms2g -Xmx2g} -jar "$jar" ingress --only "$cases" ${ARGS:--r 7 -w 2} 2> "$errors" \
      | { grep -v '^WARNING' || true; } >> "$out" || status=$?
    if [ "$status" -ne 0 ]; then
      echo "# failed: exit status $status" >> "$out"
      echo "ingress-ab.sh: $jar in round $r failed (exit status $status); the rounds go on. Its last stderr lines:" >&2
      grep -v '^WARNING' "$errors" | tail -n 5 >&2 || true
    fi
  done
  order=("${order[@]:1}" "${order[0]}")
  echo "round $r of $rounds done" >&2
done
echo "raw results: $out" >&2
