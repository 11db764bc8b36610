#!/usr/bin/env python3
"""A test bot for the arena's fault table: it plays the first legal placement, except in the
game whose seed is SEED, where after 3 placements it misbehaves as MODE says. It appends its
process id to PIDS (one line per start), so a test can check that none outlives the arena.

    misbehaving.py MODE SEED PIDS

MODE: illegal, unknown-placement, malformed, huge-line, sleep, exit, stderr-flood,
no-handshake (never says hello), well (never misbehaves), far-left (the game's second piece (the first floats long enough to go anywhere),
flat at the bottom of the left wall: legal on the empty board, but out of reach of a slow
player at a fast level).
"""

import json
import os
import sys
import time

mode, bad_seed, pids = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(pids, "a") as file:
    file.write(f"{os.getpid()}\n")
out = sys.stdout
if mode == "no-handshake":
    time.sleep(60)
out.write(json.dumps({"type": "info", "protocol": 1, "name": "misbehaving", "version": mode}) + "\n")
out.flush()
seed, played = None, 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        seed, played = message["seed"], 0
    elif message["type"] == "quit":
        break
    elif message["type"] == "suggest":
        if seed == bad_seed and played == 1 and mode == "far-left":
            x, y = (2, 19) if message["current"] == "I" else (1, 18)
            out.write(json.dumps({"type": "suggestion", "x": x, "y": y, "rotation": 0}) + "\n")
            out.flush()
            played += 1
            continue
        if seed == bad_seed and played == 3:
            if mode == "illegal":
                out.write('{"type":"suggestion","index":999}\n')
            elif mode == "unknown-placement":
                out.write('{"type":"suggestion","x":-7,"y":0,"rotation":0}\n')
            elif mode == "malformed":
                out.write("this is not JSON\n")
            elif mode == "huge-line":
                out.write("x" * 10_000_000 + "\n")
            elif mode == "sleep":
                out.flush()
                time.sleep(60)
            elif mode == "exit":
                sys.exit(3)
            elif mode == "stderr-flood":
                while True:
                    sys.stderr.write("flooding stderr " * 64 + "\n")
            out.flush()
        played += 1
        out.write('{"type":"suggestion","index":0}\n')
        out.flush()
