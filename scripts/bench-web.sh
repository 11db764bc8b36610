#!/usr/bin/env bash
# Speed of the live page's engine (not part of CI): the WebAssembly module in the page's Web
# Worker against the native arena, on the same games.
#
# Builds the release binary (which builds the page's module: scripts/install-web-deps.sh
# installs its tools), then tests/browser/test_web_page.py --bench writes the page with
# `arena web`, opens it from file:// in headless Chromium (Debian's /usr/bin/chromium;
# scripts/install-browser-test-deps.sh) and plays bfs+elashi@2 and column-drop+dellacherie,
# seed 1, $PIECES pieces each, in Watch at the highest speed without path animation. It prints
# per strategy the page's pieces/s over the engine's own compute time (measured in the worker),
# over the whole game (wall clock, with messaging and drawing), and the native
# `arena play STRATEGY --seed 1 --max-pieces $PIECES` speed of the same binary.
# The Playwright driver goes into target/browser-venv, as for the browser tests.
# Usage: scripts/bench-web.sh [PIECES] (default 2000).
set -euo pipefail
cd "$(dirname "$0")/.."

pieces="${1:-2000}"
target="${CARGO_TARGET_DIR:-target}"
venv="$target/browser-venv"

echo "== cargo build --release -p tetris-arena --bin arena"
cargo build --release --quiet -p tetris-arena --bin arena

if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import playwright' 2>/dev/null; then
    echo "== Playwright into $venv"
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        -r tests/browser/requirements.txt
fi

echo "== $pieces pieces, seed 1, in the page's worker and natively"
"$venv/bin/python" tests/browser/test_web_page.py --arena "$target/release/arena" \
    --out "$target/bench-web" --bench "$pieces"
