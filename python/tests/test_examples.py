"""The examples in python/examples that read what the package writes: the trace analysis."""

from __future__ import annotations

import importlib.util
import json

import tetris_arena as ta
from conftest import REPOSITORY


def _example(name: str):
    spec = importlib.util.spec_from_file_location(name, REPOSITORY / "python" / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _board(bottom: list[str]) -> list[str]:
    return ["." * 10] * (20 - len(bottom)) + bottom


def test_the_burn_classes_read_boards_as_defined():
    burns = _example("nes_trace_burns")
    # A well in column 9 beside 5 rows full but for it, under a row with a second gap (in
    # column 4, open to the sky): 5 ready rows, no covered cell.
    ready = _board(["####.####.", *(["#########."] * 5)])
    assert burns.ready_rows(ready) == 5
    assert burns.column_heights(ready)[9] == 0 and burns.column_heights(ready)[0] == 6
    assert burns.column_heights(ready)[4] == 5
    assert not burns.has_covered_cell(ready)
    # The gap in column 4 covered by the row above it.
    assert burns.has_covered_cell(_board(["#########.", "####.####.", "#########."]))
    # A J that fills 3 of the 5 ready rows: from a ready well; one that clears elsewhere: not.
    after = _board(["####.####.", *(["#########."] * 2)])
    assert burns.burn_class("J", ready, after) == "other, clean, from a ready well"
    assert burns.burn_class("I", ready, ready) == "I, clean"
    assert burns.burn_class("T", ready, None) == "other, clean"


def test_the_burn_classes_partition_a_traced_runs_rows(tmp_path):
    burns = _example("nes_trace_burns")
    trace = tmp_path / "trace.jsonl"
    report = ta.nes(
        "gamepad+nes-plateau@2", games=3, seed=4, start_level=18, max_lines=40, jobs=1,
        reaction_frames=18, trace=str(trace),
    )
    games, rows, tetris_rows, classes = burns.classify(
        json.loads(line) for line in trace.read_text().splitlines()
    )
    assert games == 3
    assert rows == sum(game["lines"] for game in report["games"])
    assert tetris_rows == 4 * sum(game["clears"][4] for game in report["games"])
    assert tetris_rows + sum(burned for _, burned in classes.values()) == rows
    burn_clears = sum(sum(game["clears"][1:4]) for game in report["games"])
    assert sum(clears for clears, _ in classes.values()) == burn_clears
