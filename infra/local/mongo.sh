# shellcheck shell=bash
# FerretDB (MongoDB wire protocol over SQLite), built from its Go module. Sourced by up.sh.
#
# Why not `go install github.com/FerretDB/FerretDB/cmd/ferretdb@<version>`: a binary built that way panics at
# start-up ("Invalid build/version/version.txt file content"), because the module zip lacks the generated
# build/version/version.txt; and `go install pkg@version` also asks the proxy for the module's version list,
# which some module proxies refuse. So the module is fetched with `go mod download` at the pinned version,
# copied, given its version.txt, patched, and built as its own main module (its go.sum pins every dependency).
#
# The patch (ferretdb-sqlite-id-index.patch, which says why) makes the SQLite backend's `_id` lookups use the
# `_id` index it creates; unpatched, every `_id` lookup, update and delete scans the whole collection. The
# cache directory is named after the patch's hash, so a changed patch builds a new binary.

FERRETDB_PATCH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/ferretdb-sqlite-id-index.patch"
FERRETDB_CACHE="$CACHE_DIR/ferretdb-$FERRETDB_VERSION-$(sha256sum "$FERRETDB_PATCH" | cut -c1-12)"
FERRETDB_BIN="$FERRETDB_CACHE/bin/ferretdb"
MONGO_STATE="$STATE_DIR/mongo"

ferretdb_install_locked() {
  [[ -f "$FERRETDB_CACHE/.complete" && -x "$FERRETDB_BIN" ]] && return 0
  command -v go >/dev/null || die "mongo: go not found (Go 1.24+ is required to build FerretDB)"
  local logfile="$MONGO_STATE/logs/install.log" dir src
  log "mongo: fetching github.com/FerretDB/FerretDB@$FERRETDB_VERSION through the Go module proxy"
  rm -rf "$FERRETDB_CACHE"
  mkdir -p "$FERRETDB_CACHE/bin"
  # Outside any module, so the download does not touch a go.mod.
  if ! dir="$(cd "$FERRETDB_CACHE" && GO111MODULE=on GOFLAGS=-mod=mod go mod download -json \
    "github.com/FerretDB/FerretDB@$FERRETDB_VERSION" 2>>"$logfile" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')" ||
    [[ -z "$dir" || ! -f "$dir/go.mod" ]]; then
    tail -n 20 "$logfile" >&2 || true
    die "mongo: go mod download failed (log: $logfile)"
  fi
  src="$FERRETDB_CACHE/src"
  cp -r "$dir" "$src"
  chmod -R u+w "$src"
  echo "$FERRETDB_VERSION" >"$src/build/version/version.txt"
  echo "go-module" >"$src/build/version/package.txt"
  # The ceiling keeps git from finding a repository around the cache directory: inside one, `git apply`
  # would take the patch's paths from that repository's top and skip them without an error.
  if ! (cd "$src" && GIT_CEILING_DIRECTORIES="$FERRETDB_CACHE" git apply -p1 "$FERRETDB_PATCH") >>"$logfile" 2>&1 ||
    ! grep -q idWhereClause "$src/internal/backends/sqlite/collection.go"; then
    tail -n 20 "$logfile" >&2 || true
    die "mongo: $FERRETDB_PATCH does not apply to FerretDB $FERRETDB_VERSION (log: $logfile)"
  fi
  log "mongo: building ferretdb $FERRETDB_VERSION (pure Go, takes a few minutes the first time)"
  if ! (cd "$src" && CGO_ENABLED=0 GOTOOLCHAIN="${GOTOOLCHAIN:-local}" GOFLAGS=-buildvcs=false \
    go build -trimpath -ldflags='-s -w' -o "$FERRETDB_BIN.tmp" ./cmd/ferretdb) >>"$logfile" 2>&1; then
    tail -n 20 "$logfile" >&2 || true
    die "mongo: go build failed (log: $logfile)"
  fi
  mv "$FERRETDB_BIN.tmp" "$FERRETDB_BIN"
  rm -rf "$src"
  "$FERRETDB_BIN" --version >>"$logfile" 2>&1 || die "mongo: the built ferretdb does not run (log: $logfile)"
  touch "$FERRETDB_CACHE/.complete"
  log "mongo: cached $FERRETDB_BIN"
}

mongo_install() {
  mkdir -p "$MONGO_STATE/logs"
  [[ -f "$FERRETDB_CACHE/.complete" && -x "$FERRETDB_BIN" ]] && return 0
  with_lock "$CACHE_DIR/.ferretdb.lock" ferretdb_install_locked
}

mongo_start() {
  require_free_port mongo "$MONGO_PORT"
  mkdir -p "$MONGO_STATE/data" "$MONGO_STATE/logs" "$MONGO_STATE/state"
  log "mongo: starting FerretDB $FERRETDB_VERSION (SQLite, patched: see $(basename "$FERRETDB_PATCH")) on 127.0.0.1:$MONGO_PORT"
  start_detached "$(pid_file mongo)" "$MONGO_STATE/logs/ferretdb.log" \
    env "GOGC=$MONGO_GOGC" "$FERRETDB_BIN" \
    --handler=sqlite \
    "--sqlite-url=file:$MONGO_STATE/data/" \
    "--listen-addr=127.0.0.1:$MONGO_PORT" \
    --telemetry=disable \
    --debug-addr=- \
    "--state-dir=$MONGO_STATE/state" \
    --log-level=info ||
    die "mongo: the process did not start"
  save_port mongo "$MONGO_PORT"
}

# Ready means a ping answers: through the MongoDB driver, else a raw OP_MSG hello (both in probe.mjs).
mongo_wait() {
  local deadline=$((SECONDS + READY_TIMEOUT)) port rc=0
  port="$(saved_port mongo || echo "$MONGO_PORT")"
  wait_port mongo "$port" "$deadline" || return 1
  node_probe mongo "mongodb://127.0.0.1:$port/$MONGO_DATABASE" "$(((deadline - SECONDS) * 1000))" || rc=$?
  if ((rc == 3)); then
    log "mongo: node not found, only the TCP port was checked"
    rc=0
  fi
  ((rc == 0)) && is_alive mongo
}
