#!/usr/bin/env bash
# Installs what the server's schema test needs (arena/tests/server_schema.rs runs schemathesis
# against a live `arena serve` and its /openapi.json): schemathesis, pinned in
# tests/server/requirements.txt, in its own virtual environment target/server-venv. Nothing
# goes into the system's Python.
#
# Idempotent and quick when the environment already has the pinned list (a stamp file holds
# the list last installed). Needs Python 3 with venv and pip and access to PyPI; without them
# it says what failed and exits 1 (the schema test then skips with a message; under CI=true it
# fails instead).
set -euo pipefail
cd "$(dirname "$0")/.."

target="${CARGO_TARGET_DIR:-target}"
venv="$target/server-venv"
requirements=tests/server/requirements.txt
stamp="$venv/installed-requirements.txt"

if [ -x "$venv/bin/st" ] && cmp -s "$requirements" "$stamp"; then
    exit 0
fi
echo "== installing $(grep -v '^#' "$requirements" | tr '\n' ' ')into $venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
cp "$requirements" "$stamp"
