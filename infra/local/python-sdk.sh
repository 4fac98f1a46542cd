#!/usr/bin/env bash
# Creates (once, cached) a Python venv with the ecosystem's SDK and CLI (acryl-datahub), its Actions
# framework (acryl-datahub-actions, whose events source the compat suite runs), the OpenLineage Python
# client (openlineage-python, which the compat suite emits lineage events with) and the ecosystem's MCP
# server (mcp-server-datahub, which the MCP compat suite runs against the catalog over stdio), and prints
# its path.
#
#   VENV="$(bash infra/local/python-sdk.sh)" && "$VENV/bin/datahub" version
# shellcheck source-path=SCRIPTDIR
set -euo pipefail

# shellcheck source=lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DATAHUB_VERSION=1.7.0.17
OPENLINEAGE_VERSION=1.54.0
MCP_SERVER_VERSION=0.8.0
PYTHON="${PYTHON:-python3}"
VENV="$CACHE_DIR/venv"
MARKER="$VENV/.acryl-datahub-kafka-actions-$DATAHUB_VERSION-openlineage-$OPENLINEAGE_VERSION-mcp-$MCP_SERVER_VERSION"

venv_ok() { [[ -f "$MARKER" ]] && "$VENV/bin/datahub" version >/dev/null 2>&1; }

install_locked() {
  venv_ok && return 0
  command -v "$PYTHON" >/dev/null || die "$PYTHON not found (Python 3.9+ is required)"
  "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 9) else 1)' ||
    die "$PYTHON is older than 3.9"
  if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import sys' 2>/dev/null; then
    log "python-sdk: creating $VENV"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  log "python-sdk: installing acryl-datahub==$DATAHUB_VERSION, acryl-datahub-actions==$DATAHUB_VERSION, openlineage-python==$OPENLINEAGE_VERSION and mcp-server-datahub==$MCP_SERVER_VERSION"
  rm -f "$VENV"/.acryl-datahub-*
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "acryl-datahub[datahub-kafka]==$DATAHUB_VERSION" \
    "acryl-datahub-actions==$DATAHUB_VERSION" "openlineage-python==$OPENLINEAGE_VERSION" \
    "mcp-server-datahub==$MCP_SERVER_VERSION" >&2
  "$VENV/bin/datahub" version >&2 || die "python-sdk: the datahub CLI does not run"
  "$VENV/bin/python" -c 'import datahub_actions' || die "python-sdk: acryl-datahub-actions does not import"
  "$VENV/bin/python" -c 'import openlineage.client' || die "python-sdk: openlineage-python does not import"
  "$VENV/bin/python" -c 'import mcp_server_datahub.mcp_server' || die "python-sdk: mcp-server-datahub does not import"
  touch "$MARKER"
}

mkdir -p "$CACHE_DIR"
venv_ok || with_lock "$CACHE_DIR/.venv.lock" install_locked
echo "$VENV"
