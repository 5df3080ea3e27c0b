#!/usr/bin/env bash
# One handler style per JVM: runs `ingress --only one --style S` for each style in a fresh JVM,
# the styles (Pekko among them) alternating JVM after JVM, REPS times, so that no JVM's type
# profiles mix handler styles (a service has one actor class on this path). Prints, per style, the
# median of the per-JVM medians of ns/message (wall) and of CPU ns/message (all the JVM's
# threads), their ranges, and their ratios to Pekko's (< 1 = Weft faster). With several jars,
# each style runs in each jar in turn (the order of the jars rotating every repetition), rows
# are "style jar" and the ratios are to Pekko's in the same jar.
#
# usage: scripts/ingress-styles.sh REPS [STYLES] [JAR...]
#   e.g. scripts/ingress-styles.sh 6 "loop become actor pekko"
#        scripts/ingress-styles.sh 4 "loop become pekko" /tmp/base.jar actors-bench/target/actors-bench.jar
#   a JAR argument may carry JVM options of its own after the path, in one quoted word (added after
#   JVM_OPTS; the row's jar label joins the words with +), to compare settings of one jar:
#        scripts/ingress-styles.sh 6 "loop become pekko" "$JAR -Dweft.mailbox=linked" "$JAR -Dweft.mailbox=adaptive"
#   REPS 0 runs nothing and summarizes the raw results already in OUT again
# environment: N (messages per round, default 3000000), ROUNDS (default 10), WARMUP (default 4),
#   JVM_OPTS (default "-Xms2g -Xmx2g"), OUT (raw results file, default a temporary file)
set -euo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
reps=$1
styles=${2:-loop loop-one-handler become actor pekko}
shift $(($# < 2 ? $# : 2))
jars=("$@")
[ ${#jars[@]} -gt 0 ] || jars=(actors-bench/target/actors-bench.jar)
for arg in "${jars[@]}"; do
  jar=${arg%% *}
  [ "$reps" -eq 0 ] || [ -f "$jar" ] || { echo "ingress-styles.sh: no such jar: $jar" >&2; exit 2; }
done
java="$("$(dirname "$0")/find-jdk.sh")/bin/java"
out=${OUT:-$(mktemp)}
if [ "$reps" -gt 0 ]; then
  : > "$out"
elif [ ! -s "$out" ]; then
  echo "ingress-styles.sh: REPS 0 summarizes OUT, which is not set or empty" >&2
  exit 2
fi
nj=${#jars[@]}
for ((r = 1; r <= reps; r++)); do
  for s in $styles; do
    for ((j = 0; j < nj; j++)); do
      read -r -a words <<< "${jars[$(((j + r - 1) % nj))]}"
      key=$s
      if [ "$nj" -gt 1 ]; then
        label="$(basename "${words[0]}" .jar) ${words[*]:1}"
        key="$s@$(echo "$label" | sed 's/ *$//; s/ /+/g')"
      fi
      # shellcheck disable=SC2086 # JVM_OPTS is a list of options
      "$java" ${JVM_OPTS:--Xms2g -Xmx2g} "${words[@]:1}" -jar "${words[0]}" ingress --only one --style "$s" -n "${N:-3000000}" \
          -r "${ROUNDS:-10}" -w "${WARMUP:-4}" 2>/dev/null \
        | awk -v s="$key" '$0 ~ / median / { for (i = 1; i <= NF; i++) { if ($i == "median") m = $(i + 1); if ($i == "cpu") c = $(i + 1) } print s, m, c }' >> "$out"
    done
  done
  echo "round $r of $reps done, $(uptime | sed 's/.*load/load/')" >&2
done
sort -k1,1 -k2,2n "$out" | awk '
  function jarof(key,   i) { i = index(key, "@"); return i ? substr(key, i) : "" }
  { n[$1]++; w[$1, n[$1]] = $2; c[$1, n[$1]] = $3; if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
  function med(a, s, m,   i, j, t, x) {
    for (i = 1; i <= m; i++) x[i] = a[s, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
    lo = x[1]; hi = x[m]
    return (m % 2) ? x[(m + 1) / 2] : (x[m / 2] + x[m / 2 + 1]) / 2
  }
  END {
    wd = 18
    for (i = 1; i <= k; i++) {
      s = order[i]
      if (length(s) > wd) wd = length(s)
      if (s ~ /^pekko(@|$)/) { pw[jarof(s)] = med(w, s, n[s]); pc[jarof(s)] = med(c, s, n[s]) }
    }
    printf "%-" wd "s %4s %10s %18s %10s %18s %9s %9s\n", "style", "JVMs", "ns/msg", "range", "cpu ns/msg", "range", "/pekko", "cpu/pekko"
    for (i = 1; i <= k; i++) {
      s = order[i]
      mw = med(w, s, n[s]); wl = lo; wh = hi
      mc = med(c, s, n[s]); cl = lo; ch = hi
      printf "%-" wd "s %4d %10.1f %8.1f-%-9.1f %10.1f %8.1f-%-9.1f %9s %9s\n", s, n[s], mw, wl, wh, mc, cl, ch,
        (pw[jarof(s)] ? sprintf("%.2f", mw / pw[jarof(s)]) : "-"), (pc[jarof(s)] ? sprintf("%.2f", mc / pc[jarof(s)]) : "-")
    }
  }'
