#!/usr/bin/env bash
# A local Keycloak (dev mode, in-memory database) holding the project's realm, built from the
# Maven Central distribution (org.keycloak:keycloak-quarkus-dist), no Docker.
#
#   deploy/local/keycloak.sh start|stop|status|users [--port N]     (default port 8180; management on N+1)
#
# The distribution is fetched through Maven (./mvnw dependency:copy) and unpacked once into a cache
# outside the clone, like ~/.m2: ${KEYCLOAK_CACHE_DIR:-${XDG_CACHE_HOME:-~/.cache}/route-gateway}/
# keycloak-<version>, so a machine unpacks it and runs Keycloak's build (its first start's slow part,
# about 100 s on 2 cores) once for every clone; later starts reuse the build. Each start imports deploy/local/keycloak/realm.json into a fresh in-memory
# database, so the users and passwords are always the ones `users` prints. Keycloak needs Java 21+:
# KEYCLOAK_JAVA_HOME, or the newest JDK 21+ under /usr/lib/jvm. PID and log live under
# .local/keycloak/<port>/; stop kills by that PID and waits for the exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { echo "usage: $0 start|stop|status|users [--port N]" >&2; exit 2; }

command=${1:-}
[ $# -gt 0 ] && shift
port=${KEYCLOAK_PORT:-8180}
while [ $# -gt 0 ]; do
  case $1 in
    --port) [ $# -ge 2 ] || usage; port=$2; shift 2 ;;
    --port=*) port=${1#*=}; shift ;;
    *) usage ;;
  esac
done
[[ $port =~ ^[0-9]+$ ]] || usage

KEYCLOAK_VERSION=${KEYCLOAK_VERSION:-26.7.3}
REALM_FILE="$ROOT_DIR/deploy/local/keycloak/realm.json"
REALM=route-gateway
DIST_PARENT=${KEYCLOAK_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/route-gateway}
DIST_DIR="$DIST_PARENT/keycloak-$KEYCLOAK_VERSION"
STATE_DIR="$LOCAL_DIR/keycloak/$port"
PID_FILE="$STATE_DIR/keycloak.pid"
LOG_FILE="$STATE_DIR/keycloak.log"
# The PID must belong to a Keycloak on this port, not just to any java process.
MARKER="--http-port=$port"
START_TIMEOUT=${KEYCLOAK_START_TIMEOUT:-600}

java_home() {
  if [ -n "${KEYCLOAK_JAVA_HOME:-}" ]; then
    echo "$KEYCLOAK_JAVA_HOME"
    return 0
  fi
  local candidate version best="" best_version=0
  for candidate in /usr/lib/jvm/*/; do
    candidate=${candidate%/}
    [ -x "$candidate/bin/java" ] || continue
    version=$("$candidate/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
    [[ $version =~ ^[0-9]+$ ]] || continue
    if [ "$version" -ge 21 ] && [ "$version" -gt "$best_version" ]; then
      best=$candidate
      best_version=$version
    fi
  done
  [ -n "$best" ] || die "Keycloak needs a JDK 21+ (none under /usr/lib/jvm): install one or set KEYCLOAK_JAVA_HOME"
  echo "$best"
}

# The distribution, through Maven (offline first: a cached zip is enough), unpacked once.
fetch_dist() {
  [ -x "$DIST_DIR/bin/kc.sh" ] && return 0
  mkdir -p "$DIST_PARENT"
  local artifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip"
  log "Fetching $artifact through Maven"
  if ! "$MVN" -q -B -ntp -o -f "$ROOT_DIR/pom.xml" -N dependency:copy -Dartifact="$artifact" \
      -DoutputDirectory="$DIST_PARENT" >/dev/null 2>&1; then
    "$MVN" -q -B -ntp -f "$ROOT_DIR/pom.xml" -N dependency:copy -Dartifact="$artifact" \
      -DoutputDirectory="$DIST_PARENT"
  fi
  local zip="$DIST_PARENT/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
  [ -f "$zip" ] || die "Maven did not deliver $zip"
  rm -rf "$DIST_DIR.tmp.$$"
  mkdir -p "$DIST_DIR.tmp.$$"
  (cd "$DIST_DIR.tmp.$$" && jar xf "$zip")
  mv "$DIST_DIR.tmp.$$/keycloak-$KEYCLOAK_VERSION" "$DIST_DIR"
  rm -rf "$DIST_DIR.tmp.$$" "$zip"
  chmod +x "$DIST_DIR"/bin/*.sh
}

start() {
  local pid
  if pid=$(live_pid "$PID_FILE" "$MARKER"); then
    log "Keycloak is already running on http://127.0.0.1:$port (PID $pid)"
    return 0
  fi
  if port_open "$port" || port_open "$((port + 1))"; then
    die "port $port or $((port + 1)) is taken by another process"
  fi
  local jdk
  jdk=$(java_home)
  fetch_dist
  rm -rf "$STATE_DIR"
  mkdir -p "$STATE_DIR" "$DIST_DIR/data/import"
  # --import-realm reads the distribution's data/import/ (the same file for every port)
  cp "$REALM_FILE" "$DIST_DIR/data/import/route-gateway-realm.json"
  local began=$SECONDS
  # stdin from /dev/null and a new session: Keycloak runs on after this script ends.
  JAVA_HOME="$jdk" JAVA_OPTS_KC_HEAP="-Xms64m -Xmx512m" \
    setsid "$DIST_DIR/bin/kc.sh" start-dev \
    --http-host=127.0.0.1 --http-port="$port" --http-management-port="$((port + 1))" \
    --db=dev-mem --import-realm \
    --cache=local --health-enabled=false --metrics-enabled=false \
    </dev/null >"$LOG_FILE" 2>&1 &
  pid=$!
  echo "$pid" >"$PID_FILE"
  local ready="http://127.0.0.1:$port/realms/$REALM/.well-known/openid-configuration"
  while ! curl -fs -o /dev/null "$ready"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$LOG_FILE" >&2
      rm -f "$PID_FILE"
      die "Keycloak exited during start (log: $LOG_FILE)"
    fi
    if [ $((SECONDS - began)) -ge "$START_TIMEOUT" ]; then
      tail -n 40 "$LOG_FILE" >&2
      stop_pid "$pid" 10 || true
      rm -f "$PID_FILE"
      die "Keycloak not ready after ${START_TIMEOUT}s (log: $LOG_FILE)"
    fi
    sleep 0.5
  done
  log "Keycloak ready on http://127.0.0.1:$port (realm $REALM, PID $pid, $((SECONDS - began))s, log $LOG_FILE)"
}

stop() {
  local pid
  if ! pid=$(live_pid "$PID_FILE" "$MARKER"); then
    rm -f "$PID_FILE"
    log "Keycloak on port $port is not running"
    return 0
  fi
  stop_pid "$pid" 60 || die "Keycloak (PID $pid) did not exit"
  rm -f "$PID_FILE"
  log "Keycloak on port $port stopped (PID $pid)"
}

status() {
  local pid
  if pid=$(live_pid "$PID_FILE" "$MARKER"); then
    echo "keycloak: running on http://127.0.0.1:$port (PID $pid)"
  else
    echo "keycloak: stopped (port $port)"
    return 3
  fi
}

# The realm's users, from the shipped realm file (username, password, groups).
users() {
  echo "Keycloak realm $REALM at http://127.0.0.1:$port/realms/$REALM — users (password):"
  python3 - "$REALM_FILE" <<'PY'
import json, sys
realm = json.load(open(sys.argv[1]))
for user in realm["users"]:
    password = next(c["value"] for c in user["credentials"] if c["type"] == "password")
    groups = ", ".join(g.strip("/") for g in user.get("groups", []))
    print(f"  {user['username']:<12} {password:<18} groups: {groups}")
PY
}

case $command in
  start) start ;;
  stop) stop ;;
  status) status ;;
  users) users ;;
  *) usage ;;
esac
