#!/usr/bin/env bash
# Creates (once, cached) a Python venv with schemathesis, which the OpenAPI fuzz test
# (services/catalog/test/schemathesis.e2e.test.ts) runs against the catalog's served document, and
# prints its path.
#
#   VENV="$(bash infra/local/schemathesis.sh)" && "$VENV/bin/schemathesis" --version
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

SCHEMATHESIS_VERSION=4.32.5
PYTHON="${PYTHON:-python3}"
VENV="$CACHE_DIR/schemathesis-venv"
MARKER="$VENV/.schemathesis-$SCHEMATHESIS_VERSION"

venv_ok() { [[ -f "$MARKER" ]] && "$VENV/bin/schemathesis" --version >/dev/null 2>&1; }

install_locked() {
  venv_ok && return 0
  command -v "$PYTHON" >/dev/null || die "$PYTHON not found (Python 3.9+ is required)"
  "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' ||
    die "$PYTHON is older than 3.9"
  if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
    log "schemathesis: creating $VENV"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  log "schemathesis: installing schemathesis==$SCHEMATHESIS_VERSION"
  rm -f "$VENV"/.schemathesis-*
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION" >&2
  "$VENV/bin/schemathesis" --version >&2 || die "schemathesis: the CLI does not run"
  touch "$MARKER"
}

mkdir -p "$CACHE_DIR"
venv_ok || with_lock "$CACHE_DIR/.schemathesis-venv.lock" install_locked
echo "$VENV"
