#!/usr/bin/env bash
# A local single-node Kafka broker (KRaft) built from Maven Central artifacts, no Docker.
#
#   deploy/local/kafka.sh start|stop|status [--port N]     (default port 9092; controller on N+1)
#
# Data, log and PID live under .local/kafka/<port>/. stop kills by that PID and waits for the exit.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { echo "usage: $0 start|stop|status [--port N]" >&2; exit 2; }

command=${1:-}
[ $# -gt 0 ] && shift
port=9092
while [ $# -gt 0 ]; do
  case $1 in
    --port) [ $# -ge 2 ] || usage; port=$2; shift 2 ;;
    --port=*) port=${1#*=}; shift ;;
    *) usage ;;
  esac
done
[[ $port =~ ^[0-9]+$ ]] || usage

MAIN_CLASS=io.routegateway.broker.BrokerMain
CLASSES_DIR="$ROOT_DIR/kafka-broker/target/classes"
CLASSPATH_FILE="$CLASSES_DIR/io/routegateway/broker/broker-classpath.txt"
STATE_DIR="$LOCAL_DIR/kafka/$port"
PID_FILE="$STATE_DIR/broker.pid"
LOG_FILE="$STATE_DIR/broker.log"
# The PID must belong to a broker on this port, not just to any java process.
MARKER="$MAIN_CLASS $STATE_DIR/data $port"
START_TIMEOUT=${KAFKA_START_TIMEOUT:-120}

build_if_needed() {
  if [ ! -f "$CLASSPATH_FILE" ] || [ ! -f "$CLASSES_DIR/io/routegateway/broker/BrokerMain.class" ]; then
    log "Building the kafka-broker module"
    "$MVN" -q -B -ntp -f "$ROOT_DIR/pom.xml" -pl kafka-broker -am install -DskipTests
  fi
}

start() {
  local pid
  if pid=$(live_pid "$PID_FILE" "$MARKER"); then
    log "Kafka is already running on 127.0.0.1:$port (PID $pid)"
    return 0
  fi
  if port_open "$port" || port_open "$((port + 1))"; then
    die "port $port or $((port + 1)) is taken by another process"
  fi
  build_if_needed
  mkdir -p "$STATE_DIR"
  local began=$SECONDS
  # stdin from /dev/null and a new session: the broker runs on after this script ends.
  setsid java -Xmx512m -XX:+UseSerialGC \
    -cp "$(cat "$CLASSPATH_FILE"):$CLASSES_DIR" \
    "$MAIN_CLASS" "$STATE_DIR/data" "$port" "$((port + 1))" \
    </dev/null >"$LOG_FILE" 2>&1 &
  pid=$!
  echo "$pid" >"$PID_FILE"
  while ! { grep -qs "Kafka Server started" "$LOG_FILE" && port_open "$port"; }; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 40 "$LOG_FILE" >&2
      rm -f "$PID_FILE"
      die "Kafka exited during start (log: $LOG_FILE)"
    fi
    if [ $((SECONDS - began)) -ge "$START_TIMEOUT" ]; then
      tail -n 40 "$LOG_FILE" >&2
      stop_pid "$pid" 10 || true
      rm -f "$PID_FILE"
      die "Kafka not ready after ${START_TIMEOUT}s (log: $LOG_FILE)"
    fi
    sleep 0.2
  done
  log "Kafka ready on 127.0.0.1:$port (PID $pid, $((SECONDS - began))s, log $LOG_FILE)"
}

stop() {
  local pid
  if ! pid=$(live_pid "$PID_FILE" "$MARKER"); then
    rm -f "$PID_FILE"
    log "Kafka on port $port is not running"
    return 0
  fi
  stop_pid "$pid" 60 || die "Kafka (PID $pid) did not exit"
  rm -f "$PID_FILE"
  log "Kafka on port $port stopped (PID $pid)"
}

status() {
  local pid
  if pid=$(live_pid "$PID_FILE" "$MARKER"); then
    echo "kafka: running on 127.0.0.1:$port (PID $pid)"
  else
    echo "kafka: stopped (port $port)"
    return 3
  fi
}

case $command in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
