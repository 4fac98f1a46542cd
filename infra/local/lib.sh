# shellcheck shell=bash disable=SC2034 # the settings are used by the scripts that source this file
# Shared settings and helpers for infra/local/*.sh. Sourced, never executed.

# ---- versions ---------------------------------------------------------------------------------------------
KAFKA_VERSION=3.9.2
KAFKA_SCALA=2.13
SLF4J_VERSION=1.7.36
RELOAD4J_VERSION=1.2.25
OPENSEARCH_VERSION=2.19.6
FERRETDB_VERSION=v1.24.2
MAVEN_DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.8.1

# ---- locations ---------------------------------------------------------------------------------------------
INFRA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE_DIR="${CATALOG_INFRA_CACHE:-$HOME/.cache/catalog-infra}"
STATE_DIR="${CATALOG_INFRA_STATE:-/tmp/catalog-infra}"
RUN_DIR="$STATE_DIR/run"
ENV_FILE="$STATE_DIR/env"
STATE_MARKER="$STATE_DIR/.catalog-infra-state"

# ---- ports and knobs -----------------------------------------------------------------------------------------
KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
OPENSEARCH_PORT="${OPENSEARCH_PORT:-9200}"
MONGO_PORT="${MONGO_PORT:-27017}"
MONGO_DATABASE="${MONGO_DATABASE:-catalog}"
READY_TIMEOUT="${CATALOG_INFRA_TIMEOUT:-180}"
SEARCH_USER="${CATALOG_INFRA_SEARCH_USER:-catalog-search}"
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms256m -Xmx512m}"
# Every test catalog creates an index per registry entity and time-series aspect (over 100): 512 MB of
# heap runs out of cluster state after a few catalogs.
OPENSEARCH_HEAP_OPTS="${OPENSEARCH_HEAP_OPTS:--Xms1536m -Xmx1536m}"
# FerretDB's garbage collector target (Go's GOGC). Decoding documents allocates heavily, and at Go's default
# of 100 its collector took about a third of FerretDB's CPU under the write path's load: 400 cut FerretDB's
# CPU per persistence-and-indexer batch by about 30% (16 against 22-26 ms for 20 entities), for a heap of
# tens of MB more.
MONGO_GOGC="${MONGO_GOGC:-400}"

ALL_SERVICES=(kafka opensearch mongo)

# ---- output ------------------------------------------------------------------------------------------------
log() { printf '[infra %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() {
  log "ERROR: $*"
  exit 1
}

# Normalises a service name given on the command line; prints nothing for an unknown one.
service_name() {
  case "$1" in
    kafka) echo kafka ;;
    opensearch | search) echo opensearch ;;
    mongo | mongodb | ferretdb) echo mongo ;;
    *) return 1 ;;
  esac
}

# Fills the global SERVICES array from the arguments (default: all services).
parse_services() {
  SERVICES=()
  if (($# == 0)); then
    SERVICES=("${ALL_SERVICES[@]}")
    return
  fi
  local arg name
  for arg in "$@"; do
    name="$(service_name "$arg")" || die "unknown service '$arg' (expected: ${ALL_SERVICES[*]})"
    [[ " ${SERVICES[*]} " == *" $name "* ]] || SERVICES+=("$name")
  done
}

# ---- processes -----------------------------------------------------------------------------------------------
# Where each service's PID lives. OpenSearch writes its own PID file, so it lives in a directory its user owns.
pid_file() {
  case "$1" in
    opensearch) echo "$STATE_DIR/opensearch/run/opensearch.pid" ;;
    *) echo "$RUN_DIR/$1.pid" ;;
  esac
}

# A string that must appear in the process command line, to guard against a recycled PID.
cmdline_marker() {
  case "$1" in
    kafka) echo "kafka.Kafka" ;;
    opensearch) echo "opensearch" ;; # the launcher script first, then org.opensearch.bootstrap.OpenSearch
    mongo) echo "ferretdb" ;;
  esac
}

# Prints the PID of a running service started by these scripts, or fails.
service_pid() {
  local svc="$1" file pid
  file="$(pid_file "$svc")"
  [[ -s "$file" ]] || return 1
  pid="$(tr -dc '0-9' <"$file")"
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$(cmdline_marker "$svc")" || return 1
  echo "$pid"
}

is_running() { service_pid "$1" >/dev/null; }

# is_running, confirmed: while the launcher execs the service, /proc/<pid>/cmdline can be unreadable
# for an instant, so a single failed look is checked again before the service is taken for dead.
is_alive() {
  is_running "$1" && return 0
  sleep 0.3
  is_running "$1"
}

# Records the port a service was started on, so later runs report the real one.
save_port() { printf '%s\n' "$2" >"$RUN_DIR/$1.port"; }
saved_port() {
  local file="$RUN_DIR/$1.port"
  if [[ -s "$file" ]]; then cat "$file"; else return 1; fi
}

# Sends SIGTERM, waits up to $3 seconds, then SIGKILL.
stop_pid() {
  local svc="$1" pid="$2" grace="$3" waited=0
  log "$svc: stopping (pid $pid, SIGTERM)"
  kill -TERM "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do
    if ((waited >= grace * 10)); then
      log "$svc: still running after ${grace}s, sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
      break
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  log "$svc: stopped"
}

# Starts a command detached in its own session, logging to $2, and writes its PID to $1.
# The PID is the command's own (bash execs it), whatever setsid does.
start_detached() {
  local pidfile="$1" logfile="$2"
  shift 2
  rm -f "$pidfile"
  # shellcheck disable=SC2016 # expanded by the inner shell
  # fd 8 and 9 carry the up/down and install locks: the service must not keep them.
  setsid bash -c 'echo $$ >"$0"; exec "$@"' "$pidfile" "$@" >>"$logfile" 2>&1 </dev/null 8>&- 9>&- &
  local _
  for _ in $(seq 1 50); do
    [[ -s "$pidfile" ]] && return 0
    sleep 0.1
  done
  return 1
}

# ---- network -----------------------------------------------------------------------------------------------
port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

require_free_port() {
  local svc="$1" port="$2"
  if port_open "$port"; then
    die "$svc: port $port on 127.0.0.1 is already in use by a process these scripts did not start (set the port through the environment, see infra/local/README.md)"
  fi
}

# Waits for a TCP port while the service's process is alive.
wait_port() {
  local svc="$1" port="$2" deadline="$3"
  until port_open "$port"; do
    is_alive "$svc" || return 1
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
}

# ---- locks and caches ------------------------------------------------------------------------------------------
# Runs "$@" holding an exclusive lock on file $1.
with_lock() {
  local lockfile="$1"
  shift
  mkdir -p "$(dirname "$lockfile")"
  (
    flock -w 1800 9 || die "could not lock $lockfile"
    "$@"
  ) 9>"$lockfile"
}

# Maven invocations share ~/.m2, so they take turns.
mvn_quiet() {
  local logfile="$1"
  shift
  command -v mvn >/dev/null || die "mvn not found (install Maven 3.8+)"
  if ! with_lock "$CACHE_DIR/.maven.lock" mvn -B -q -Dstyle.color=never "$@" >>"$logfile" 2>&1; then
    tail -n 30 "$logfile" >&2 || true
    die "maven failed (log: $logfile)"
  fi
}

java_home() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then
    echo "$JAVA_HOME"
    return
  fi
  local java
  java="$(command -v java)" || die "java not found (Java 17 is required)"
  java="$(readlink -f "$java")"
  dirname "$(dirname "$java")"
}

# ---- state -------------------------------------------------------------------------------------------------
ensure_state_dir() {
  mkdir -p "$STATE_DIR" "$RUN_DIR"
  chmod 755 "$STATE_DIR"
  touch "$STATE_MARKER"
}

# The URL line each running service contributes to the env file.
env_line() {
  local port
  case "$1" in
    kafka)
      port="$(saved_port kafka || echo "$KAFKA_PORT")"
      echo "KAFKA_BOOTSTRAP_SERVER=127.0.0.1:$port"
      ;;
    opensearch)
      port="$(saved_port opensearch || echo "$OPENSEARCH_PORT")"
      echo "OPENSEARCH_URL=http://127.0.0.1:$port"
      ;;
    mongo)
      port="$(saved_port mongo || echo "$MONGO_PORT")"
      echo "MONGODB_URI=mongodb://127.0.0.1:$port/$MONGO_DATABASE"
      ;;
  esac
}

# Rewrites the env file from the services that are running now; removes it when none is.
write_env_file() {
  local svc lines=()
  for svc in "${ALL_SERVICES[@]}"; do
    if is_running "$svc"; then lines+=("$(env_line "$svc")"); fi
  done
  if ((${#lines[@]} == 0)); then
    rm -f "$ENV_FILE"
    return
  fi
  [[ -d "$STATE_DIR" ]] || return 0
  printf '%s\n' "${lines[@]}" >"$ENV_FILE.tmp"
  mv "$ENV_FILE.tmp" "$ENV_FILE"
}

# Log files worth reading when a service fails, most telling first (the node's stdout.log has everything
# OpenSearch logs, start-up errors included; Kafka's stdout.log only has what happens before logging starts).
service_logs() {
  case "$1" in
    kafka) printf '%s\n' "$STATE_DIR/kafka/logs/server.log" "$STATE_DIR/kafka/logs/stdout.log" ;;
    opensearch) printf '%s\n' "$STATE_DIR/opensearch/logs/stdout.log" "$STATE_DIR/opensearch/logs/catalog-local.log" ;;
    mongo) printf '%s\n' "$STATE_DIR/mongo/logs/ferretdb.log" ;;
  esac
  printf '%s\n' "$STATE_DIR/$1/logs/install.log"
}

# Runs the node probe (infra/local/probe.mjs); exit status 3 means node or the client library is missing.
node_probe() {
  command -v node >/dev/null || return 3
  node "$INFRA_DIR/probe.mjs" "$@" >&2
}
