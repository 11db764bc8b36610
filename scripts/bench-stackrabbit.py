"""Per-request latency of `arena serve`'s StackRabbit endpoints (not part of CI; docs/stackrabbit.md
has its results).

Starts ARENA serve on a free loopback port with one worker and the given StackRabbit strategy,
then sends COUNT positions one after the other (random mid-game boards from a fixed seed, a
current and a next piece, level 18): get-move, engine-movelist, and rate-move of get-move's own
move; prints each request type's mean, median and p99 latency as the client sees it. The server
is stopped at the end.

Usage: scripts/bench-stackrabbit.py ARENA STRATEGY COUNT [TIMELINE [REACTION_FRAMES]]
"""
import random
import statistics
import subprocess
import sys
import time
import urllib.request

arena, strategy, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
timeline = sys.argv[4] if len(sys.argv) > 4 else "X."
reaction = sys.argv[5] if len(sys.argv) > 5 else "0"
server = subprocess.Popen([arena, "serve", "--bind", "127.0.0.1:0", "--workers", "1",
                           "--stackrabbit-strategy", strategy],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
address = server.stdout.readline().split()[-1]
rng = random.Random(7)
pieces = "TJZOSLI"

def board():
    heights = []
    h = rng.randint(2, 9)
    for column in range(9):
        h = max(0, min(14, h + rng.randint(-2, 2)))
        heights.append(h)
    heights.append(rng.choice([0, 0, 1, 2]))
    rows = []
    for row in range(20):
        line = ""
        for column in range(10):
            filled = (19 - row) < heights[column]
            if filled and rng.random() < 0.06:
                filled = False
            line += "1" if filled else "0"
        if line == "1" * 10:
            line = "1111111110"
        rows.append(line)
    return "".join(rows)

times = {"get-move": [], "engine-movelist": [], "rate-move": []}
try:
    for _ in range(count):
        b = board()
        cur, nxt = rng.choice(pieces), rng.choice(pieces)
        q = f"board={b}&currentPiece={cur}&nextPiece={nxt}&level=18&lines=0&inputFrameTimeline={timeline}&reactionTime={reaction}"
        start = time.perf_counter()
        answer = urllib.request.urlopen(f"{address}/get-move?{q}").read().decode()
        times["get-move"].append(time.perf_counter() - start)
        start = time.perf_counter()
        urllib.request.urlopen(f"{address}/engine-movelist?{q}").read()
        times["engine-movelist"].append(time.perf_counter() - start)
        if "|" in answer:
            second = answer.split("|")[2]
            start = time.perf_counter()
            urllib.request.urlopen(f"{address}/rate-move?{q}&secondBoard={second}").read()
            times["rate-move"].append(time.perf_counter() - start)
finally:
    server.terminate()
for name, values in times.items():
    values.sort()
    p99 = values[min(len(values) - 1, int(len(values) * 0.99))]
    print(f"{strategy} {timeline} R={reaction} {name}: n={len(values)} mean {statistics.mean(values)*1000:.1f} ms, p50 {values[len(values)//2]*1000:.1f} ms, p99 {p99*1000:.1f} ms")
