#!/usr/bin/env bash
# Time from `java -jar gateway/target/trainyard.jar server` (no config file, empty ./data) until
# the admin health check answers, N times; prints each run and the median in milliseconds.
# Usage: bench/startup.sh [N]   (from the repository root, after `mvn -B -DskipTests package`)
set -euo pipefail
n=${1:-5}
jar=$(pwd)/gateway/target/trainyard.jar
[ -f "$jar" ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 2; }
if curl -s -o /dev/null 127.0.0.1:8080; then echo "something already listens on 8080" >&2; exit 2; fi
times=()
for i in $(seq "$n"); do
  dir=$(mktemp -d)
  start=$(date +%s%N)
  (cd "$dir" && exec java -jar "$jar" server >"$dir/gateway.log" 2>&1) &
  pid=$!
  until curl -sf -o /dev/null 127.0.0.1:8081/healthcheck; do
    kill -0 "$pid" 2>/dev/null || { echo "gateway died; see $dir/gateway.log" >&2; exit 1; }
    sleep 0.02
  done
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  kill "$pid"; wait "$pid" 2>/dev/null || true
  rm -rf "$dir"
  echo "run $i: ${ms} ms"
  times+=("$ms")
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " ms"}'
