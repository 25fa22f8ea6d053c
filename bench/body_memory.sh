#!/usr/bin/env bash
# The heap one request body holds once parsed, per shape, at the shipped bounds (bench/BodyMemory.java;
# docs/gateway-service.md "Memory per request"). Needs the packaged gateway (its jars on the class path).
#
#   bench/body_memory.sh
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec java -Xmx2g -XX:+UseSerialGC -cp "$ROOT_DIR/gateway-service/target/quarkus-app/lib/main/*" \
  "$ROOT_DIR/bench/BodyMemory.java"
