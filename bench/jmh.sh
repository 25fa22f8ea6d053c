#!/usr/bin/env bash
# JMH: route-core's Router.route over 1,000 credentials x 5 models (SelectionBenchmark).
# Prints JMH's result table; extra arguments go to JMH (default: 3 warmup + 5 measurement
# iterations of 1 s, 1 fork).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../deploy/local/lib.sh"
"$MVN" -B -q -ntp -o -f "$ROOT_DIR/pom.xml" -pl route-core test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=test >&2
cd "$ROOT_DIR"
java -cp "route-core/target/test-classes:route-core/target/classes:$(cat route-core/target/bench-cp.txt)" \
  io.routegateway.core.select.SelectionBenchmark "$@"
