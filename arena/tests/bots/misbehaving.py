#!/usr/bin/env python3
"""A test bot for the arena's fault table: it plays the first legal placement, except in the
game whose seed is SEED, where after 3 placements it misbehaves as MODE says. It appends its
process id to PIDS (one line per start), so a test can check that none outlives the arena.

    misbehaving.py MODE SEED PIDS

MODE: illegal, unknown-placement, malformed, huge-line, sleep, exit, stderr-flood,
no-handshake (never says hello), well (never misbehaves), far-left (the game's second piece (the first floats long enough to go anywhere),
flat at the bottom of the left wall: legal on the empty board, but out of reach of a slow
player at a fast level).

Input sequences (NES games with gamepad): in every game the bot drops each piece straight
down from its spawn, as it spawns, with the inputs "" (no button on any frame), except in the
game of seed SEED after 3 placements (once the stack reaches the spawn and no piece can
drop straight, it answers the first legal placement without inputs): taps-too-soon (Left on two frames in a row), wrong-lock
(no button, but naming the first legal placement outside the spawn column),
press-after-lock (a Left press 2,000 frames on, after the piece has locked) or
straight-drop (never misbehaves).
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
        if mode in ("taps-too-soon", "wrong-lock", "press-after-lock", "straight-drop"):
            straight = [p for p in message["placements"] if p["x"] == 5 and p["rotation"] == 0]
            if not straight:
                # The stack has reached the spawn: whatever is left, by the searcher's path.
                out.write('{"type":"suggestion","index":0}\n')
                out.flush()
                played += 1
                continue
            lowest = max(p["y"] for p in straight)
            answer = {"type": "suggestion", "x": 5, "y": lowest, "rotation": 0, "inputs": ""}
            if seed == bad_seed and played == 3:
                if mode == "taps-too-soon":
                    answer["inputs"] = "LL"
                elif mode == "wrong-lock":
                    other = next(p for p in message["placements"] if p["x"] != 5)
                    answer.update(x=other["x"], y=other["y"], rotation=other["rotation"])
                elif mode == "press-after-lock":
                    answer["inputs"] = "." * 2000 + "L"
            played += 1
            out.write(json.dumps(answer) + "\n")
            out.flush()
            continue
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
