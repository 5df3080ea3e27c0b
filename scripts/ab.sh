#!/usr/bin/env bash
# A/B (or A/B/C...) of Weft builds: runs `compare --impl weft` on each bench jar in a fresh JVM,
# round after round, rotating the order of the jars every round (a fixed order showed 10-15 %
# differences that were not there; docs/benchmarks.md, "The A/B method"). Prints, per workload and
# jar, the median of the per-JVM medians, its ratio to the first jar's (< 1 = faster), the range
# of the per-JVM medians, and p: a two-sided Mann-Whitney test of the per-JVM medians against the
# first jar's (normal approximation; with 6-8 JVMs per jar, p above about 0.1 means noise).
#
# usage: scripts/ab.sh ROUNDS WORKLOADS JAR [JAR...]
#   e.g. scripts/ab.sh 6 big,chameneos /tmp/base.jar actors-bench/target/actors-bench.jar
#   a JAR argument may carry JVM options of its own after the path, in one quoted word (added
#   after JVM_OPTS; the label printed joins the words with +), to compare settings of one jar:
#   scripts/ab.sh 6 count "$JAR -Dweft.mailbox=linked" "$JAR -Dweft.mailbox=adaptive"
#   ROUNDS 0 runs nothing and summarizes the raw results already in OUT again
# environment: IMPL (the implementation measured, default weft; e.g. weft-thread),
#   RUNS (measured rounds per JVM, default 15), WARMUP (default 10),
#   JVM_OPTS (default "-Xms2g -Xmx2g"), OUT (raw results file, default a temporary file)
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
rounds=$1
workloads=$2
shift 2
out=${OUT:-$(mktemp)}
if [ "$rounds" -gt 0 ]; then
  for arg in "$@"; do
    jar=${arg%% *}
    [ -f "$jar" ] || { echo "ab.sh: no such jar: $jar" >&2; exit 2; }
  done
  java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
  : > "$out"
elif [ ! -s "$out" ]; then
  echo "ab.sh: ROUNDS 0 summarizes OUT, which is not set or empty" >&2
  exit 2
fi
order=("$@")
for ((r = 1; r <= rounds; r++)); do
  for arg in "${order[@]}"; do
    read -r -a words <<< "$arg"
    label=${arg// /+}
    # shellcheck disable=SC2086 # JVM_OPTS is a list of options
    "$java" ${JVM_OPTS:--Xms2g -Xmx2g} "${words[@]:1}" -jar "${words[0]}" compare --only "$workloads" --impl "${IMPL:-weft}" \
        --runs "${RUNS:-15}" --warmup "${WARMUP:-10}" 2>/dev/null \
      | awk -v jar="$label" -v impl="${IMPL:-weft}" '$2 == impl && $3 ~ /^[0-9.]+$/ { print jar, $1, $3 }' >> "$out"
  done
  order=("${order[@]:1}" "${order[0]}")
  echo "round $r of $rounds done" >&2
done
first=${1// /+}
sort -k2,2 -k1,1 -k3,3n "$out" | awk -v first="$first" '
  { key = $2 SUBSEP $1; n[key]++; v[key, n[key]] = $3; jars[$1] = 1; works[$2] = 1 }
  function median(key,   m) {
    m = n[key]
    return (m % 2) ? v[key, (m + 1) / 2] : (v[key, m / 2] + v[key, m / 2 + 1]) / 2
  }
  # erfc(x) for x >= 0 (Abramowitz and Stegun 7.1.26, error below 1.5e-7)
  function erfc(x,   t) {
    t = 1 / (1 + 0.3275911 * x)
    return t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * exp(-x * x)
  }
  # two-sided Mann-Whitney p of the per-JVM medians of keys a and b (normal approximation)
  function mannwhitney(a, b,   i, k, u, mu, sd, z) {
    u = 0
    for (i = 1; i <= n[a]; i++) {
      for (k = 1; k <= n[b]; k++) {
        u += (v[a, i] > v[b, k]) ? 1 : (v[a, i] == v[b, k]) ? 0.5 : 0
      }
    }
    mu = n[a] * n[b] / 2
    sd = sqrt(n[a] * n[b] * (n[a] + n[b] + 1) / 12)
    if (sd == 0) {
      return 1
    }
    z = (u - mu) / sd
    return erfc((z < 0 ? -z : z) / sqrt(2))
  }
  END {
    for (w in works) {
      basekey = w SUBSEP first
      base = median(basekey)
      for (j in jars) {
        key = w SUBSEP j
        if (n[key] > 0) {
          p = (j == first) ? "   base" : sprintf("p=%.3f", mannwhitney(key, basekey))
          printf "%-12s %-40s median %9.1f ms  ratio %.3f  per-JVM %s-%s  %s  (%d JVMs)\n", w, j, median(key),
              median(key) / base, v[key, 1], v[key, n[key]], p, n[key]
        }
      }
    }
  }' | sort
echo "raw results: $out" >&2
