#!/usr/bin/env python3
"""A test bot that plays the legal placement with the lowest action index of the Gymnasium
environment (`tetris_arena.envs`: action = (rotation x (H + 1) + bottom row + 1) x 10 +
leftmost column): what a masked agent taking the first legal action plays. Standard library
only; the Python package's tests compare it with such an agent passed as a function."""

import json
import sys

print(json.dumps({"type": "info", "protocol": 1, "name": "lowest-action", "version": "1"}), flush=True)
height = 20
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        height = message["board_height"]
    elif message["type"] == "suggest":
        def action(placement):
            left = min(x for x, _ in placement["cells"])
            bottom = max(y for _, y in placement["cells"])
            return (placement["rotation"] * (height + 1) + bottom + 1) * 10 + left
        best = min(range(len(message["placements"])), key=lambda i: action(message["placements"][i]))
        print(json.dumps({"type": "suggestion", "index": best}), flush=True)
    elif message["type"] == "quit":
        break
