#!/usr/bin/env bash
# Start-up of `java -jar gateway/target/trainyard.jar server` with no configuration file, timed from
# the exec until the admin health check answers. Each round times, side by side:
#   cold  — an empty directory (the gateway creates ./data: the H2 file, the schema, the dev key)
#   warm  — a second start in that same directory (schema current, key there)
# each without and with the class-data-sharing archive (gateway/target/trainyard.jsa, built by
# `mvn package`; -XX:SharedArchiveFile). Prints every run, then the median of each of the four
# with the load average (1 min) before the first and after the last run.
# Usage: bench/startup.sh [ROUNDS]   (from the repository root, after `mvn -B -DskipTests package`)
# Env: BASELINE_JAR, another build's jar (e.g. of the commit before a change) timed as a third
#      side, "baseline", without an archive unless BASELINE_ARCHIVE names one (built for that jar at
#      that path: gateway/src/cds/train-archive.sh java JAR ARCHIVE WORKDIR);
#      MODES, the sides to time (default all of baseline, plain, cds that apply; the check in
#      `mvn verify`, StartupBenchIT, times only cds);
#      APP_PORT, ADMIN_PORT (default 8080, 8081; other ports are given to the gateway as
#      -Ddw.server... overrides, which are not a configuration file but do make it bind its
#      defaults through Dropwizard's factory, the slower way); JAVA_OPTS added to every start
#      (e.g. a JFR recording).
set -euo pipefail
rounds=${1:-5}
jar=$(pwd)/gateway/target/trainyard.jar
archive=$(pwd)/gateway/target/trainyard.jsa
app_port=${APP_PORT:-8080}
admin_port=${ADMIN_PORT:-8081}
[ -f "$jar" ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 2; }
modes=(plain)
if [ -n "${BASELINE_JAR:-}" ]; then modes=(baseline plain); fi
if [ -f "$archive" ]; then modes+=(cds); else echo "no $archive: timing without it only" >&2; fi
# shellcheck disable=SC2206
if [ -n "${MODES:-}" ]; then modes=($MODES); fi
for port in "$app_port" "$admin_port"; do
  if curl -s -o /dev/null "127.0.0.1:$port"; then echo "something already listens on $port" >&2; exit 2; fi
done

# start DIR MODE: prints the milliseconds until the health check answers and the CPU milliseconds
# the JVM used by then (user + system, all threads: less sensitive to other load), then stops it.
start() {
  local dir=$1 mode=$2 opts=() begin pid ms cpu run_jar=$jar
  [ "$mode" = cds ] && opts+=("-XX:SharedArchiveFile=$archive")
  [ "$mode" = baseline ] && run_jar=$BASELINE_JAR
  [ "$mode" = baseline ] && [ -n "${BASELINE_ARCHIVE:-}" ] && opts+=("-XX:SharedArchiveFile=$BASELINE_ARCHIVE")
  # shellcheck disable=SC2206
  opts+=(${JAVA_OPTS:-})
  [ "$app_port" = 8080 ] || opts+=("-Ddw.server.applicationConnectors[0].port=$app_port")
  [ "$admin_port" = 8081 ] || opts+=("-Ddw.server.adminConnectors[0].port=$admin_port")
  begin=$(date +%s%N)
  (cd "$dir" && exec java "${opts[@]}" -jar "$run_jar" server >>"$dir/gateway.log" 2>&1) &
  pid=$!
  until curl -sf -o /dev/null "127.0.0.1:$admin_port/healthcheck"; do
    kill -0 "$pid" 2>/dev/null || { echo "gateway died; see $dir/gateway.log" >&2; exit 1; }
    sleep 0.02
  done
  ms=$(( ($(date +%s%N) - begin) / 1000000 ))
  cpu=$(awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$pid/stat")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$ms $cpu"
}

declare -A runs cpus
load_before=$(cut -d' ' -f1 /proc/loadavg)
for i in $(seq "$rounds"); do
  for mode in "${modes[@]}"; do
    dir=$(mktemp -d)
    read -r cold cold_cpu < <(start "$dir" "$mode")
    read -r warm warm_cpu < <(start "$dir" "$mode")
    rm -rf "$dir"
    [ -n "$cold" ] && [ -n "$warm" ] || exit 1
    echo "round $i $mode: cold ${cold} ms (cpu ${cold_cpu} ms), warm ${warm} ms (cpu ${warm_cpu} ms)" \
      "(load $(cut -d' ' -f1 /proc/loadavg))"
    runs[$mode-cold]+="$cold "
    runs[$mode-warm]+="$warm "
    cpus[$mode-cold]+="$cold_cpu "
    cpus[$mode-warm]+="$warm_cpu "
  done
done
load_after=$(cut -d' ' -f1 /proc/loadavg)
median() { printf '%s\n' $1 | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "medians of $rounds rounds (load average $load_before before, $load_after after):"
for mode in "${modes[@]}"; do
  for kind in cold warm; do
    echo "  $mode $kind: $(median "${runs[$mode-$kind]}") ms, cpu $(median "${cpus[$mode-$kind]}") ms" \
      "(runs: ${runs[$mode-$kind]% }; cpu: ${cpus[$mode-$kind]% })"
  done
done
