#!/usr/bin/env bash
# Authenticated reads against the admin /ping, side by side on one zero-config gateway (H2, dev
# issuer's ES256 tokens): `ab -c C -n N` (a connection per request, as issue 19's baseline) on GET /ping (admin port), then GET /v1/jobs/{id} with the
# same bearer token on every request (what a dashboard or CLI does), then /ping again; prints each
# rate and the ratio of the job read to the mean /ping. Issue 19's goal: ≥ 0.6.
# Usage: bench/auth-rate.sh [N] [C]   (from the repository root, after `mvn -B -DskipTests package`;
# needs `ab`, Debian's apache2-utils)
set -euo pipefail
n=${1:-20000}
c=${2:-8}
jar=$(pwd)/gateway/target/trainyard.jar
[ -f "$jar" ] || { echo "build first: mvn -B -DskipTests package" >&2; exit 2; }
command -v ab >/dev/null || { echo "needs ab (apt-get install apache2-utils)" >&2; exit 2; }
if curl -s -o /dev/null 127.0.0.1:8080; then echo "something already listens on 8080" >&2; exit 2; fi
dir=$(mktemp -d)
(cd "$dir" && exec java -jar "$jar" server >"$dir/gateway.log" 2>&1) &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
until curl -sf -o /dev/null 127.0.0.1:8081/healthcheck; do
  kill -0 "$pid" 2>/dev/null || { echo "gateway died; see $dir/gateway.log" >&2; exit 1; }
  sleep 0.1
done
token=$(cd "$dir" && java -jar "$jar" dev-token --user bench --team demo --role trainer 2>/dev/null | tail -1)
id=$(curl -sf -H "Authorization: Bearer $token" -H 'Content-Type: application/yaml' \
  --data-binary $'apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: bench}\nspec:\n  framework: pytorch\n  image: python:3.11\n  command: [python, -c, "print(1)"]\n  replicas: {master: 1}\n  resources: {cpus: 1, memory: 1Gi}\n' \
  127.0.0.1:8080/v1/jobs | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
rate() { ab -q -c "$c" -n "$n" "$@" 2>/dev/null | awk '/Requests per second/ {print $4}'; }
# Warm up both paths (JIT) before measuring.
ab -q -c "$c" -n 2000 127.0.0.1:8081/ping >/dev/null 2>&1
ab -q -c "$c" -n 2000 -H "Authorization: Bearer $token" "127.0.0.1:8080/v1/jobs/$id" >/dev/null 2>&1
ping1=$(rate 127.0.0.1:8081/ping)
job=$(rate -H "Authorization: Bearer $token" "127.0.0.1:8080/v1/jobs/$id")
ping2=$(rate 127.0.0.1:8081/ping)
echo "GET /ping:            $ping1 req/s, then $ping2 req/s"
echo "GET /v1/jobs/{id}:    $job req/s"
awk -v j="$job" -v a="$ping1" -v b="$ping2" 'BEGIN {printf "ratio job/ping:       %.2f\n", j / ((a + b) / 2)}'
