#!/usr/bin/env bash
# A/B (or A/B/C...) of Weft builds: runs `compare --impl weft` on each bench jar in a fresh JVM,
# round after round, rotating the order of the jars every round (a fixed order showed 10-15 %
# differences that were not there; docs/benchmarks.md, fifth session). Prints, per workload and
# jar, the median of the per-JVM medians and its ratio to the first jar's (< 1 = faster).
#
# usage: scripts/ab.sh ROUNDS WORKLOADS JAR [JAR...]
#   e.g. scripts/ab.sh 6 big,chameneos /tmp/base.jar actors-bench/target/actors-bench.jar
# environment: RUNS (measured rounds per JVM, default 15), WARMUP (default 10),
#   JVM_OPTS (default "-Xms2g -Xmx2g"), OUT (raw results file, default a temporary file)
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
rounds=$1
workloads=$2
shift 2
for jar in "$@"; do
  [ -f "$jar" ] || { echo "ab.sh: no such jar: $jar" >&2; exit 2; }
done
java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
out=${OUT:-$(mktemp)}
: > "$out"
order=("$@")
for ((r = 1; r <= rounds; r++)); do
  for jar in "${order[@]}"; do
    # shellcheck disable=SC2086 # JVM_OPTS is a list of options
    "$java" ${JVM_OPTS:--Xms2g -Xmx2g} -jar "$jar" compare --only "$workloads" --impl weft \
        --runs "${RUNS:-15}" --warmup "${WARMUP:-10}" 2>/dev/null \
      | awk -v jar="$jar" '$2 == "weft" && $3 ~ /^[0-9.]+$/ { print jar, $1, $3 }' >> "$out"
  done
  order=("${order[@]:1}" "${order[0]}")
  echo "round $r of $rounds done" >&2
done
first=$1
sort -k2,2 -k1,1 -k3,3n "$out" | awk -v first="$first" '
  { key = $2 SUBSEP $1; n[key]++; v[key, n[key]] = $3; jars[$1] = 1; works[$2] = 1 }
  function median(key,   m) {
    m = n[key]
    return (m % 2) ? v[key, (m + 1) / 2] : (v[key, m / 2] + v[key, m / 2 + 1]) / 2
  }
  END {
    for (w in works) {
      base = median(w SUBSEP first)
      for (j in jars) {
        key = w SUBSEP j
        if (n[key] > 0) {
          printf "%-12s %-50s median %9.1f ms  ratio %.3f  (%d JVMs)\n", w, j, median(key), median(key) / base, n[key]
        }
      }
    }
  }' | sort
echo "raw results: $out" >&2
