# Shared helpers for the deploy/local scripts. Sourced, never run.
# Everything a script starts keeps its PID, log and data under .local/ at the repository root
# (git-ignored) and is stopped by that PID, never by process name.

ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LOCAL_DIR="$ROOT_DIR/.local"
# The project's Maven wrapper: Maven 3.9 (Quarkus dev mode refuses older Maven), fetched from Maven
# Central on first use into ~/.m2/wrapper.
MVN="$ROOT_DIR/mvnw"

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf '[%s] ERROR: %s\n' "$(date +%H:%M:%S)" "$*" >&2; exit 1; }

# True when something accepts TCP connections on 127.0.0.1:<port>.
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Prints the first port >= <start> such that it and the next one are both unused.
free_port_pair() {
  local port=$1
  while port_open "$port" || port_open "$((port + 1))"; do
    port=$((port + 2))
    [ "$port" -lt 65000 ] || die "no free port pair found"
  done
  echo "$port"
}

# True when <pid> is alive and its command line contains <marker>, so a recycled PID of some
# other program is never taken for ours.
pid_is() {
  local pid=$1 marker=$2
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$marker"
}

# Reads a PID file and prints the PID if that process is alive and is ours (see pid_is).
live_pid() {
  local file=$1 marker=$2 pid
  [ -f "$file" ] || return 1
  pid=$(cat "$file")
  if pid_is "$pid" "$marker"; then
    echo "$pid"
  else
    return 1
  fi
}

# Sends TERM to <pid>, waits up to <seconds> for it to exit, then KILL. Returns 0 once it is gone.
stop_pid() {
  local pid=$1 seconds=${2:-30} i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < seconds * 10; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  log "PID $pid did not stop within ${seconds}s; killing it"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  return 1
}
