#!/usr/bin/env python3
"""A bot for Tetris Arena: Pierre Dellacherie's one-piece evaluation with El-Tetris's weights.

Written from the definitions in the arena's specification (docs/spec/evaluators.md, section 2),
not from the arena's code, with the standard library only. Each decision scores every offered
placement of the current piece, on the board it leaves once locked and its full rows cleared,
and plays the first one with the highest score (the offered order breaks ties). On the same
pieces it should play exactly the games of the arena's own `column-drop+dellacherie`: the
arena's tests check that it does.

    arena tournament "column-drop+exec:python3 examples/bots/dellacherie.py" column-drop+dellacherie
"""

import json
import sys

# El-Tetris's tuned weights, in the published (higher is better) form, in feature order:
# landing_height, rows_removed, eroded_piece_cells, row_transitions, column_transitions,
# holes, well_sums.
WEIGHTS = (
    -4.500158825082766,
    3.4181268101392694,
    0.0,
    -3.2178882868487753,
    -9.348695305445199,
    -7.899265427351652,
    -3.3855972247263626,
)


def features(board, cells):
    """The seven features of the placement covering `cells` ([x, y], y = 0 at the top) on
    `board` (a list of rows, top first, each a list of booleans, True = filled)."""
    height = len(board)
    width = len(board[0])
    grid = [row[:] for row in board]
    for x, y in cells:
        if y >= 0:  # cells above the field are not kept when a piece locks
            grid[y][x] = True
    rows_y = [y for _, y in cells]
    lowest, highest = max(rows_y), min(rows_y)
    landing_height = (height - 1 - lowest) + (lowest - highest) / 2.0
    full = [y for y in range(height) if all(grid[y])]
    rows_removed = len(full)
    piece_cells_removed = sum(1 for _, y in cells if y in full)
    eroded_piece_cells = rows_removed * piece_cells_removed
    if full:
        kept = [row for y, row in enumerate(grid) if y not in full]
        grid = [[False] * width for _ in full] + kept

    # Every row, from the left wall (filled) to the right wall (filled).
    row_transitions = 0
    for row in grid:
        previous = True
        for cell in row:
            if cell != previous:
                row_transitions += 1
            previous = cell
        if not previous:
            row_transitions += 1

    # Every column, from the floor (filled) up to the top row; nothing above it counts.
    column_transitions = 0
    holes = 0
    for x in range(width):
        previous = True
        for y in range(height - 1, -1, -1):
            cell = grid[y][x]
            if cell != previous:
                column_transitions += 1
            previous = cell
        covered = False
        for y in range(height):
            if grid[y][x]:
                covered = True
            elif covered:
                holes += 1

    # Every empty cell with both side neighbours filled (walls count): 1 + the empty cells
    # right beneath it.
    well_sums = 0
    for y in range(height):
        for x in range(width):
            if grid[y][x]:
                continue
            left = x == 0 or grid[y][x - 1]
            right = x == width - 1 or grid[y][x + 1]
            if left and right:
                well_sums += 1
                below = y + 1
                while below < height and not grid[below][x]:
                    well_sums += 1
                    below += 1

    return (
        landing_height,
        rows_removed,
        eroded_piece_cells,
        row_transitions,
        column_transitions,
        holes,
        well_sums,
    )


def score(values):
    """The weighted sum, added up in feature order as the published form does."""
    total = 0.0
    for weight, value in zip(WEIGHTS, values):
        total += weight * value
    return total


def choose(message):
    board = [[cell == "#" for cell in row] for row in message["board"]]
    best_index, best_score = 0, None
    for index, placement in enumerate(message["placements"]):
        value = score(features(board, placement["cells"]))
        if best_score is None or value > best_score:
            best_index, best_score = index, value
    return best_index


def main():
    out = sys.stdout
    hello = {"type": "info", "protocol": 1, "name": "dellacherie.py", "version": "1", "searcher": "column-drop"}
    out.write(json.dumps(hello) + "\n")
    out.flush()
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "suggest":
            out.write(json.dumps({"type": "suggestion", "index": choose(message)}) + "\n")
            out.flush()
        elif message["type"] == "quit":
            return


if __name__ == "__main__":
    main()
