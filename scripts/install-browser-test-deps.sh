#!/usr/bin/env bash
# Installs what the browser test of the HTML pages needs from the system
# (arena/tests/html_pages.rs runs tests/browser/test_pages.py): Debian's Chromium
# (/usr/bin/chromium). The Python Playwright driver, pinned in tests/browser/requirements.txt,
# is not installed here: the test puts it in its own virtual environment, target/browser-venv,
# and nothing goes into the system's Python. Playwright's own browser download is never used:
# the test launches Debian's Chromium by its path.
#
# Idempotent and quick when Chromium is there (no apt-get update then). Needs root for
# apt-get; without root it only says what is missing (the browser test then skips with a
# message; under CI=true the test fails instead).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "== installing Debian's chromium"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
    else
        echo "note: /usr/bin/chromium is missing and this is not root: run" \
             "'sudo apt-get install chromium' for the browser test" >&2
    fi
fi

