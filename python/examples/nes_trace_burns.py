"""Where an NES bot's burned rows come from, read from a trace (``arena nes --trace FILE`` or
``tetris_arena.nes(..., trace=FILE)``; the format is in docs/nes-benchmark.md, "Following a game
lock by lock").

    python python/examples/nes_trace_burns.py TRACE.jsonl

A burn is a clear of 1 to 3 rows. Each burn is put in one class by the board the piece fell
onto (``board`` of its lock line) and the board the next piece fell onto:

- ``I`` or ``other``: the piece that cleared;
- ``covered`` or ``clean``: whether the board before had a covered empty cell (an empty cell
  below its column's top);
- ``from a ready well``: the board before had a Tetris-ready well (4 or more rows, counted from
  the floor up, each full but for one same column) and the next board has fewer such rows: the
  burn used rows a Tetris could have taken. Boards after a game's last lock are not known, so
  its last burn, if any, is never in this class.

The script prints the mean per game of each class's clears and rows, and the Tetris share.
Only the standard library is needed.
"""

from __future__ import annotations

import argparse
import collections
import json
from typing import Dict, Iterable, List, Tuple

Board = List[str]


def column_heights(board: Board) -> List[int]:
    """Each column's height: rows from the floor to its top cell, 0 when empty."""
    rows = len(board)
    heights = []
    for x in range(10):
        top = next((y for y in range(rows) if board[y][x] == "#"), rows)
        heights.append(rows - top)
    return heights


def has_covered_cell(board: Board) -> bool:
    """Whether an empty cell lies below its column's top."""
    rows = len(board)
    for x, height in enumerate(column_heights(board)):
        if any(board[y][x] == "." for y in range(rows - height, rows)):
            return True
    return False


def ready_rows(board: Board) -> int:
    """The most rows, counted from the floor up, that are full but for one same column."""
    best = 0
    for well in range(10):
        count = 0
        for row in reversed(board):
            if row[well] == "." and all(row[x] == "#" for x in range(10) if x != well):
                count += 1
            else:
                break
        best = max(best, count)
    return best


def burn_class(piece: str, before: Board, after: Board | None) -> str:
    """The class of a burn by `piece` on `before` (module documentation)."""
    name = ("I" if piece == "I" else "other") + (", covered" if has_covered_cell(before) else ", clean")
    ready = ready_rows(before)
    if after is not None and ready >= 4 and ready_rows(after) < ready:
        name += ", from a ready well"
    return name


def classify(lines: Iterable[dict]) -> Tuple[int, int, int, Dict[str, Tuple[int, int]]]:
    """Games, all rows cleared, Tetris rows, and per burn class its (clears, rows)."""
    locks = [line for line in lines if line["event"] in ("lock", "end")]
    games = sum(1 for line in locks if line["event"] == "end")
    classes: Dict[str, List[int]] = collections.defaultdict(lambda: [0, 0])
    rows = tetris_rows = 0
    for index, line in enumerate(locks):
        if line["event"] != "lock":
            continue
        cleared = line["placement"]["cleared"]
        rows += cleared
        if cleared == 4:
            tetris_rows += 4
        elif cleared > 0:
            following = locks[index + 1]
            after = following["board"] if following["event"] == "lock" else None
            counts = classes[burn_class(line["placement"]["piece"], line["board"], after)]
            counts[0] += 1
            counts[1] += cleared
    return games, rows, tetris_rows, {name: (c[0], c[1]) for name, c in classes.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", help="a trace file (JSON Lines)")
    arguments = parser.parse_args()
    with open(arguments.trace, encoding="utf-8") as file:
        games, rows, tetris_rows, classes = classify(json.loads(line) for line in file)
    if games == 0:
        raise SystemExit("error: the trace holds no finished game")
    print(f"{games} games, {rows / games:.1f} rows a game, Tetris share {tetris_rows / max(rows, 1):.1%}")
    print(f"{'burns':32} {'clears a game':>14} {'rows a game':>12}")
    for name in sorted(classes):
        clears, burned = classes[name]
        print(f"{name:32} {clears / games:14.2f} {burned / games:12.2f}")


if __name__ == "__main__":
    main()
