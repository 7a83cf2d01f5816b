#!/usr/bin/env bash
# Builds the gateway's class-data-sharing archive (AppCDS, JDK 17's -XX:ArchiveClassesAtExit) from
# one training start: `java -jar trainyard.jar server` with no configuration file in an empty
# directory (so it also loads what a first start needs: Liquibase, the dev issuer's key), stopped
# with SIGTERM once it has served a few requests (so the classes of Jetty's, Jersey's and the auth
# filter's request path are in the archive too, not only the start's); the JVM writes the archive
# as it exits. Run by Maven in the package phase (gateway/pom.xml, skip with -Dcds.skip) and by the
# image's build (gateway.Dockerfile), each for its own JDK and jar path. On failure the training
# start's last log lines go to stderr (in an image build its directory is gone afterwards).
# A JVM given an archive it cannot map (another JDK build, a rebuilt jar) warns and starts without.
# Usage: train-archive.sh JAVA JAR ARCHIVE WORKDIR
set -euo pipefail
java=$1 jar=$2 archive=$3 work=$4
rm -rf "$work" "$archive"
mkdir -p "$work"
log="$work/gateway.log"
started=$(date +%s)
# Ports 0: the build must not need 8080/8081 free. The archive holds classes, not configuration.
(cd "$work" && exec "$java" -XX:ArchiveClassesAtExit="$archive" -Xlog:cds=off -Xlog:cds+dynamic=off \
  '-Ddw.server.applicationConnectors[0].port=0' '-Ddw.server.adminConnectors[0].port=0' \
  -jar "$jar" server >"$log" 2>&1) &
pid=$!
deadline=$((started + 300))
until grep -q 'Started oejs.Server' "$log" 2>/dev/null; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "cds: the training start failed; see $log" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  if (( $(date +%s) > deadline )); then
    kill "$pid" 2>/dev/null || true
    echo "cds: the training start did not serve within 300 s; see $log" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
  sleep 0.2
done
# get PORT PATH: one request over bash's /dev/tcp (no curl needed, as in the image), answer read
# and dropped; a failed request only leaves its classes out of the archive.
get() {
  { exec 3<>"/dev/tcp/127.0.0.1/$1" \
      && printf 'GET %s HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\nConnection: close\r\n\r\n' "$2" >&3 \
      && cat <&3 >/dev/null; exec 3<&-; } 2>/dev/null || true
}
port() { sed -n "s/.*Started $1@.*{127\.0\.0\.1:\([0-9]*\)}.*/\1/p" "$log" | head -1; }
app=$(port application) admin=$(port admin)
if [[ -n "$app" && -n "$admin" ]]; then
  for _ in 1 2 3; do
    get "$admin" /healthcheck
    get "$admin" /ping
    get "$app" /v1/jobs            # refused: no token (the auth filter, the error mapper)
    get "$app" /v1/backends
    get "$app" /dev-idp/jwks.json
    get "$app" /openapi.json
    get "$app" /
  done
fi
kill -TERM "$pid"
wait "$pid" || true
if [[ ! -s "$archive" ]]; then
  echo "cds: no archive written; see $log" >&2
  tail -n 40 "$log" >&2
  exit 1
fi
echo "cds: wrote $archive ($(( $(stat -c %s "$archive") / 1048576 )) MiB) in $(( $(date +%s) - started )) s"
