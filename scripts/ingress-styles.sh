#!/usr/bin/env bash
# One handler style per JVM: runs `ingress --only one --style S` for each style in a fresh JVM,
# the styles (Pekko among them) alternating JVM after JVM, REPS times, so that no JVM's type
# profiles mix handler styles (a service has one actor class on this path). Prints, per style, the
# median of the per-JVM medians of ns/message (wall) and of CPU ns/message (all the JVM's
# threads), their ranges, and their ratios to Pekko's (< 1 = Weft faster).
#
# usage: scripts/ingress-styles.sh REPS [STYLES] [JAR]
#   e.g. scripts/ingress-styles.sh 6 "loop become actor pekko"
# environment: N (messages per round, default 3000000), ROUNDS (default 10), WARMUP (default 4),
#   JVM_OPTS (default "-Xms2g -Xmx2g"), OUT (raw results file, default a temporary file)
set -euo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
reps=$1
styles=${2:-loop loop-one-handler become actor pekko}
jar=${3:-actors-bench/target/actors-bench.jar}
[ -f "$jar" ] || { echo "ingress-styles.sh: no such jar: $jar" >&2; exit 2; }
java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
out=${OUT:-$(mktemp)}
: > "$out"
for ((r = 1; r <= reps; r++)); do
  for s in $styles; do
    # shellcheck disable=SC2086 # JVM_OPTS is a list of options
    "$java" ${JVM_OPTS:--Xms2g -Xmx2g} -jar "$jar" ingress --only one --style "$s" -n "${N:-3000000}" \
        -r "${ROUNDS:-10}" -w "${WARMUP:-4}" 2>/dev/null \
      | awk -v s="$s" '$0 ~ / median / { for (i = 1; i <= NF; i++) { if ($i == "median") m = $(i + 1); if ($i == "cpu") c = $(i + 1) } print s, m, c }' >> "$out"
  done
  echo "round $r of $reps done, $(uptime | sed 's/.*load/load/')" >&2
done
sort -k1,1 -k2,2n "$out" | awk '
  { n[$1]++; w[$1, n[$1]] = $2; c[$1, n[$1]] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
  function med(a, s, m,   i, j, t, x) {
    for (i = 1; i <= m; i++) x[i] = a[s, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    lo = x[1]; hi = x[m]
    return (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
  }
  END {
    if ("pekko" in n) { pw = med(w, "pekko", n["pekko"]); pc = med(c, "pekko", n["pekko"]) }
    printf "%-18s %4s %10s %18s %10s %18s %9s %9s\n", "style", "JVMs", "ns/msg", "range", "cpu ns/msg", "range", "/pekko", "cpu/pekko"
    for (i = 1; i <= k; i++) {
      s = order[i]
      mw = med(w, s, n[s]); wl = lo; wh = hi
      mc = med(c, s, n[s]); cl = lo; ch = hi
      printf "%-18s %4d %10.1f %8.1f-%-9.1f %10.1f %8.1f-%-9.1f %9s %9s\n", s, n[s], mw, wl, wh, mc, cl, ch,
        (pw ? sprintf("%.2f", mw / pw) : "-"), (pc ? sprintf("%.2f", mc / pc) : "-")
    }
  }'
