#!/usr/bin/env bash
# Prints the home of a JDK 21 or newer: JAVA_HOME if it is new enough, else the newest under
# /usr/lib/jvm (or /Library/Java/JavaVirtualMachines/*/Contents/Home on macOS). Exits 1 if none.
set -u

major_of() { # $1 = a java executable; prints its feature version
  "$1" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2; exit}' | cut -d. -f1
}

ok_home() { # $1 = a JDK home
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  local v; v=$(major_of "$1/bin/java")
  [ -n "$v" ] && [ "$v" -ge 21 ] 2>/dev/null
}

if [ -n "${JAVA_HOME:-}" ] && ok_home "$JAVA_HOME"; then
  echo "$JAVA_HOME"; exit 0
fi
best=""; best_v=0
for home in /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
  [ -d "$home" ] || continue
  if ok_home "$home"; then
    v=$(major_of "$home/bin/java")
    if [ "$v" -gt "$best_v" ]; then best="$home"; best_v="$v"; fi
  fi
done
if [ -n "$best" ]; then echo "$best"; exit 0; fi
echo "no JDK 21+ found: set JAVA_HOME to one, or install one under /usr/lib/jvm" >&2
exit 1
