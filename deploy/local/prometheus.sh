#!/usr/bin/env bash
# A local Prometheus (Debian's package `prometheus`, installed if missing) scraping the three services'
# management ports with the chart's alerting rules loaded, so the alerts can be watched going pending and
# firing on a real run.
#
#   deploy/local/prometheus.sh start|stop|status [--port N]     (default port 9090, on 127.0.0.1)
#
# Scrapes /q/metrics on 127.0.0.1:9080 (gateway-service), 9081 (state-service) and 9082 (recovery-service)
# every 5 s and evaluates deploy/helm/route-gateway/files/prometheus/route-gateway-alerts.yaml every 5 s.
# Config, data (kept one day), log and PID live under .local/prometheus/<port>/; stop kills by that PID.
# Debian's build serves the classic web UI: alerts at /classic/alerts, queries at /classic/graph, the same
# API at /api/v1/ (/api/v1/alerts).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() { echo "usage: $0 start|stop|status [--port N]" >&2; exit 2; }

command=${1:-}
[ $# -gt 0 ] && shift
port=9090
while [ $# -gt 0 ]; do
  case $1 in
    --port) [ $# -ge 2 ] || usage; port=$2; shift 2 ;;
    --port=*) port=${1#*=}; shift ;;
    *) usage ;;
  esac
done
[[ $port =~ ^[0-9]+$ ]] || usage

RULES="$ROOT_DIR/deploy/helm/route-gateway/files/prometheus/route-gateway-alerts.yaml"
STATE_DIR="$LOCAL_DIR/prometheus/$port"
CONFIG="$STATE_DIR/prometheus.yml"
PID_FILE="$STATE_DIR/prometheus.pid"
LOG_FILE="$STATE_DIR/prometheus.log"
# The PID must be a Prometheus running this config, not any prometheus process.
MARKER="--config.file=$CONFIG"
START_TIMEOUT=${PROMETHEUS_START_TIMEOUT:-60}

install_if_missing() {
  command -v prometheus >/dev/null 2>&1 && return 0
  [ "$(id -u)" -eq 0 ] || die "Prometheus is not installed; run this script as root to install it (apt-get install prometheus)"
  log "Installing Prometheus (Debian package prometheus)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  # without the node exporter it recommends; Debian's package does not start a server here (no init system)
  apt-get install -y -q --no-install-recommends prometheus
}

write_config() {
  cat >"$CONFIG" <<YAML
# Written by deploy/local/prometheus.sh for the local run; rewritten at each start.
global:
  scrape_interval: 5s
  scrape_timeout: 4s
  evaluation_interval: 5s
rule_files:
  - $RULES
scrape_configs:
  - job_name: route-gateway
    metrics_path: /q/metrics
    static_configs:
      - targets: ['127.0.0.1:9080']
        labels: {service: gateway-service}
      - targets: ['127.0.0.1:9081']
        labels: {service: state-service}
      - targets: ['127.0.0.1:9082']
        labels: {service: recovery-service}
YAML
}

start() {
  local pid
  if pid=$(live_pid "$PID_FILE" "$MARKER"); then
    log "Prometheus is already running on http://127.0.0.1:$port (PID $pid)"
    return 0
  fi
  port_open "$port" && die "port $port for Prometheus is taken by another process"
  install_if_missing
  mkdir -p "$STATE_DIR/data"
  write_config
  promtool check config "$CONFIG" >/dev/null || die "the generated Prometheus configuration is invalid: $CONFIG"
  local began=$SECONDS
  # stdin from /dev/null and a new session: Prometheus runs on after this script ends.
  setsid prometheus "$MARKER" \
    --storage.tsdb.path="$STATE_DIR/data" \
    --storage.tsdb.retention.time=1d \
    --web.listen-address="127.0.0.1:$port" \
    </dev/null >"$LOG_FILE" 2>&1 &
  pid=$!
  echo "$pid" >"$PID_FILE"
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/-/ready")" = 200 ]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 20 "$LOG_FILE" >&2
      rm -f "$PID_FILE"
      die "Prometheus exited during start (log: $LOG_FILE)"
    fi
    if [ $((SECONDS - began)) -ge "$START_TIMEOUT" ]; then
      stop_pid "$pid" 10 || true
      rm -f "$PID_FILE"
      die "Prometheus not ready after ${START_TIMEOUT}s (log: $LOG_FILE)"
    fi
    sleep 0.2
  done
  log "Prometheus ready on http://127.0.0.1:$port (PID $pid, alerts at /classic/alerts, log $LOG_FILE)"
}

stop() {
  local pid
  if ! pid=$(live_pid "$PID_FILE" "$MARKER"); then
    rm -f "$PID_FILE"
    log "Prometheus on port $port is not running"
    return 0
  fi
  stop_pid "$pid" 30 || die "Prometheus (PID $pid) did not exit"
  rm -f "$PID_FILE"
  log "Prometheus on port $port stopped (PID $pid)"
}

status() {
  local pid
  if pid=$(live_pid "$PID_FILE" "$MARKER"); then
    echo "prometheus: running on http://127.0.0.1:$port (PID $pid)"
  else
    echo "prometheus: stopped (port $port)"
    return 3
  fi
}

case $command in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) usage ;;
esac
