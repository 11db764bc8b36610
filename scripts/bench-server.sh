#!/usr/bin/env bash
# Load benchmark of `arena serve` (not part of CI; docs/server-performance.md has its results).
#
# Builds the release binary, starts the server on a free loopback port with two workers, and
# drives it with wrk (Debian's package; installed with apt-get when missing, as root) for
# POST /v1/analyze on a mid-game board:
#   - bfs+elashi@2, and gamepad+nes-plateau@2 at level 19, tap rate 2, each at 1, 8 and 64
#     connections for $DURATION seconds (requests/s, p50/p99 latency, non-2xx answers);
#   - then a soak of $SOAK seconds at 64 connections (gamepad), with the server's resident
#     memory (VmRSS) before and after and its peak (VmHWM).
# Only 127.0.0.1 is sent traffic; every run is bounded in time, and the server is stopped at
# the end. Usage: scripts/bench-server.sh [DURATION [SOAK]] (defaults 10 and 60).
set -euo pipefail
cd "$(dirname "$0")/.."

duration="${1:-10}"
soak="${2:-60}"
target="${CARGO_TARGET_DIR:-target}"
work="$target/bench-server"
rm -rf "$work"
mkdir -p "$work"

if ! command -v wrk >/dev/null; then
    echo "== installing Debian's wrk"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
fi

echo "== cargo build --release -p tetris-arena --bin arena"
cargo build --release --quiet -p tetris-arena --bin arena
arena="$target/release/arena"

# A mid-game board: a stack 7 rows high with a well on the right and three holes (the native
# API's example position).
board='[
  "..........", "..........", "..........", "..........", "..........",
  "..........", "..........", "..........", "..........", "..........",
  "..........", "..........", "..........", "....#.....", "#..###....",
  "##.####.#.", "###.#####.", "#####.###.", "##.######.", "#########."
]'
printf '{"strategy": "bfs+elashi@2", "board": %s, "current": "T", "preview": ["L"]}' \
    "$board" >"$work/bfs.json"
printf '{"strategy": "gamepad+nes-plateau@2", "board": %s, "current": "T", "preview": ["L"], "level": 19, "tap_rate": 2}' \
    "$board" >"$work/gamepad.json"

# wrk sends the body named by $BODY_FILE as a JSON POST.
cat >"$work/post.lua" <<'EOF'
local file = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.body = file:read("*a")
wrk.headers["Content-Type"] = "application/json"
file:close()
EOF

"$arena" serve --bind 127.0.0.1:0 --workers 2 >"$work/server.out" 2>/dev/null &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    [ -s "$work/server.out" ] && break
    sleep 0.1
done
address=$(sed -n 's|^listening on http://||p' "$work/server.out")
[ -n "$address" ] || { echo "the server did not start" >&2; exit 1; }
url="http://$address/v1/analyze"

# The body must be answered before it is measured.
for body in bfs gamepad; do
    status=$(curl -s -o "$work/$body.answer" -w '%{http_code}' -H 'Content-Type: application/json' \
        --data-binary "@$work/$body.json" "$url")
    [ "$status" = 200 ] || { echo "$body: status $status: $(cat "$work/$body.answer")" >&2; exit 1; }
done

memory() { # VmRSS or VmHWM of the server, in MiB
    awk -v key="$1:" '$1 == key { printf "%.1f", $2 / 1024 }' "/proc/$server/status"
}

# One wrk run: body, connections, seconds, name of its output; prints a table row.
run() {
    local body=$1 connections=$2 seconds=$3 out="$work/wrk-$4.txt" threads=2
    [ "$connections" -lt 2 ] && threads=1
    BODY_FILE="$work/$body.json" wrk --latency -t "$threads" -c "$connections" -d "${seconds}s" \
        -s "$work/post.lua" "$url" >"$out"
    local rps p50 p99 errors requests
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
    p50=$(awk '$1 == "50%" { print $2 }' "$out")
    p99=$(awk '$1 == "99%" { print $2 }' "$out")
    requests=$(awk '/requests in/ { print $1 }' "$out")
    errors=$(awk '/Non-2xx or 3xx responses:/ { n = $NF } /Socket errors:/ { s = $0 } END { printf "%d", n; if (s != "") printf " (%s)", s }' "$out")
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' \
        "$(sed -n 's/^{"strategy": "\([^"]*\)".*/\1/p' "$work/$body.json")" \
        "$connections" "$requests" "$rps" "$p50" "$p99" "$errors"
}

echo
echo "machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); $("$arena" --version 2>/dev/null || echo arena); wrk $(wrk --version 2>&1 | awk 'NR == 1 { print $2 }')"
echo "load average before the runs (other work on the machine): $(cut -d' ' -f1-3 /proc/loadavg)"
echo "server: $arena serve --bind 127.0.0.1:0 --workers 2; POST /v1/analyze, ${duration} s per row"
echo
echo "| strategy | connections | requests | requests/s | p50 | p99 | non-2xx |"
echo "|---|---|---|---|---|---|---|"
for body in bfs gamepad; do
    for connections in 1 8 64; do
        run "$body" "$connections" "$duration" "$body-$connections"
    done
done

before=$(memory VmRSS)
echo
echo "soak: gamepad+nes-plateau@2, 64 connections, ${soak} s"
echo
echo "| strategy | connections | requests | requests/s | p50 | p99 | non-2xx |"
echo "|---|---|---|---|---|---|---|"
run gamepad 64 "$soak" soak
after=$(memory VmRSS)
echo
echo "server memory: VmRSS before the soak ${before} MiB, after ${after} MiB; peak (VmHWM) $(memory VmHWM) MiB"
echo "wrk's full outputs: $work/wrk-*.txt"
