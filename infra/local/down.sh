#!/usr/bin/env bash
# Stops the services started by infra/local/up.sh (SIGTERM, then SIGKILL after a grace period) and removes
# their data, unless KEEP_DATA=1.
#
#   bash infra/local/down.sh [kafka] [opensearch] [mongo]   (default: all three; `pnpm infra:down`)
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

grace_seconds() {
  case "$1" in
    kafka | opensearch) echo 30 ;;
    *) echo 10 ;;
  esac
}

main() {
  parse_services "$@"
  if [[ ! -d "$STATE_DIR" ]]; then
    log "nothing to stop ($STATE_DIR does not exist)"
    return 0
  fi
  exec 8>"$STATE_DIR.lock"
  flock -w 900 8 || die "another up/down holds $STATE_DIR.lock"

  local svc pid pids=()
  for svc in "${SERVICES[@]}"; do
    if pid="$(service_pid "$svc")"; then
      stop_pid "$svc" "$pid" "$(grace_seconds "$svc")" &
      pids+=($!)
    else
      log "$svc: not running"
    fi
  done
  if ((${#pids[@]} > 0)); then wait "${pids[@]}"; fi

  for svc in "${SERVICES[@]}"; do
    rm -f "$(pid_file "$svc")" "$RUN_DIR/$svc.port"
    if [[ "${KEEP_DATA:-0}" != 1 ]]; then rm -rf "${STATE_DIR:?}/$svc"; fi
  done
  write_env_file

  local running=0
  for svc in "${ALL_SERVICES[@]}"; do
    if is_running "$svc"; then running=1; fi
  done
  if [[ "${KEEP_DATA:-0}" == 1 ]]; then
    log "data kept in $STATE_DIR (KEEP_DATA=1)"
  elif ((running == 0)) && [[ -f "$STATE_MARKER" && "$STATE_DIR" != / ]]; then
    rm -rf "$STATE_DIR"
    log "removed $STATE_DIR"
  fi
}

main "$@"
