"""Python functions as strategies (``tetris_arena.bot``): they play beside the built-ins and
play exactly the games the same bot plays as a program through the protocol (``exec:``)."""

import importlib.util
import json
import pathlib
import sys

import numpy as np
import pytest

import tetris_arena as ta
from conftest import arena, arena_failure

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
DELLACHERIE = WORKSPACE / "examples" / "bots" / "dellacherie.py"
LOWEST_ACTION = WORKSPACE / "arena" / "tests" / "bots" / "lowest_action.py"
FIRST_LEGAL = WORKSPACE / "examples" / "bots" / "first_legal.py"


def _example(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _games(report, name):
    return [
        {key: game[key] for key in ("game", "pieces", "lines", "score", "end")}
        for game in report["games"]
        if game["strategy"] == name
    ]


def test_a_function_plays_the_games_of_the_same_bot_through_the_protocol():
    dellacherie = _example(DELLACHERIE)
    program = f"column-drop+exec:{sys.executable} {DELLACHERIE}"
    report = ta.tournament(
        [dellacherie.choose, program, "column-drop+dellacherie"],
        games=30,
        seed=4,
        board_height=8,
        max_pieces=200,
    )
    names = [strategy["name"] for strategy in report["settings"]["strategies"]]
    assert names[0].startswith("column-drop+python:choose#")
    function, through_pipe, built_in = (_games(report, name) for name in names)
    assert function == through_pipe == built_in
    assert sum(game["pieces"] for game in function) > 1000


def test_an_agent_returning_action_indices_plugs_in_unchanged():
    def first_legal_action(observation, info):
        assert observation["board"].shape == (8, 10)
        assert observation["board"].dtype == np.uint8
        return int(np.flatnonzero(info["action_mask"])[0])

    agent = ta.bot(first_legal_action, action_index=True, name="agent")
    program = f"column-drop+exec:{sys.executable} {LOWEST_ACTION}"
    report = ta.tournament([agent, program], games=20, seed=1, board_height=8, max_pieces=100)
    assert _games(report, agent) == _games(report, program)
    played = ta.play(agent, seed=3, board_height=8, max_pieces=50)
    assert played["pieces"] > 0


def test_an_answer_that_is_no_legal_placement_ends_only_that_game_as_a_fault():
    def sometimes_wrong(position):
        # With one job the bot's games are numbered in the run's order: its game 1 is game 0.
        return 999 if position["pieces"] == 2 and position["game"] == 1 else 0

    report = ta.tournament(
        [sometimes_wrong], games=3, seed=1, board_height=8, max_pieces=20, jobs=1
    )
    games = report["games"]
    assert [game["end"] for game in games][0] == "fault"
    assert games[0]["pieces"] == 2
    assert "index 999 is not a legal placement" in games[0]["fault"]
    assert games[1]["end"] != "fault" and games[2]["end"] != "fault"


def test_an_exception_in_the_function_is_raised_with_the_game_and_piece_named():
    def breaks(position):
        if position["pieces"] == 4:
            raise ZeroDivisionError("the bot's own bug")
        return 0

    with pytest.raises(ZeroDivisionError, match="the bot's own bug") as raised:
        ta.play(breaks, seed=1, max_pieces=20)
    if sys.version_info >= (3, 11):
        assert any("the game of seed 1, piece 5" in note for note in raised.value.__notes__)
    with pytest.raises(ZeroDivisionError):
        ta.tournament([breaks, "column-drop+dellacherie"], games=4, max_pieces=20)
    with pytest.raises(TypeError):
        ta.bot(42)


def _nes_games(report):
    return [
        {key: game[key] for key in ("seed", "score", "lines", "pieces", "frames", "end")}
        for game in report["games"]
    ]


# Dellacherie's choice among the placements offered, as a program that takes any searcher's
# (the example names column-drop in its handshake, so the arena would refuse it with gamepad).
DELLACHERIE_ANY_SEARCHER = """\
import json, sys
sys.path.insert(0, {folder!r})
from dellacherie import choose
print(json.dumps({{"type": "info", "protocol": 1, "name": "dellacherie", "version": "1"}}), flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "suggest":
        print(json.dumps({{"type": "suggestion", "index": choose(message)}}), flush=True)
    elif message["type"] == "quit":
        break
"""


def test_a_function_plays_the_nes_games_of_the_same_bot_through_the_protocol(tmp_path):
    # Frame-accurate games from level 19 (to 29 or a top-out): the function chooses among the
    # placements the player reaches, as the program does through `gamepad+exec:`.
    dellacherie = _example(DELLACHERIE)
    script = tmp_path / "dellacherie_any_searcher.py"
    script.write_text(DELLACHERIE_ANY_SEARCHER.format(folder=str(DELLACHERIE.parent)))
    function = ta.bot(dellacherie.choose, searcher="gamepad", name="dellacherie")
    assert function.startswith("gamepad+python:dellacherie#")
    trace = tmp_path / "function.jsonl"
    got = ta.nes(function, games=3, seed=1, trace=str(trace))
    expected = ta.nes(f"gamepad+exec:{sys.executable} {script}", games=3, seed=1)
    assert got["strategy"] == function
    assert _nes_games(got) == _nes_games(expected)
    assert sum(game["lines"] for game in _nes_games(got)) > 100
    # The function's trace checks from its frames alone; only this process can ask the
    # function again.
    assert "verified   every lock" in arena("replay", str(trace))
    code, message = arena_failure("replay", str(trace), "--redecide")
    assert code == 4 and "was registered in this process" in message, message
    # The function itself is registered with `bot`'s defaults: column-drop, which ignores
    # gravity (the simulation rule), as the same program plays it.
    def first_legal(position):
        return 0

    plain = ta.nes(first_legal, games=2, seed=1)
    assert plain["strategy"].startswith("column-drop+python:first_legal#")
    assert plain["ignores_gravity"]
    program = ta.nes(f"column-drop+exec:{sys.executable} {FIRST_LEGAL}", games=2, seed=1)
    assert _nes_games(plain) == _nes_games(program)


def test_an_exception_in_an_nes_game_is_raised_with_the_game_and_piece_named():
    def breaks(position):
        if position["pieces"] == 6:
            raise ZeroDivisionError("the bot's own bug")
        return 0

    with pytest.raises(ZeroDivisionError, match="the bot's own bug") as raised:
        ta.nes(ta.bot(breaks, searcher="gamepad"), games=2, seed=7, jobs=1)
    if sys.version_info >= (3, 11):
        # Game 0 uses seed 7; its 7th piece is the one the function was asked about.
        assert any("the game of seed 7, piece 7" in note for note in raised.value.__notes__)


def test_an_nes_function_may_answer_the_inputs_it_presses(tmp_path):
    def straight_down(position):
        # Each piece as it spawns, straight down, no button pressed: "" (when it still can).
        straight = [p for p in position["placements"] if p["x"] == 5 and p["rotation"] == 0]
        if not straight:
            return 0
        lowest = max(p["y"] for p in straight)
        return {"x": 5, "y": lowest, "rotation": 0, "inputs": ""}

    trace = tmp_path / "trace.jsonl"
    name = ta.bot(straight_down, searcher="gamepad")
    report = ta.nes(name, games=1, seed=1, trace=trace)
    assert report["games"][0]["end"] == "top-out"
    locks = [
        json.loads(line)
        for line in trace.read_text().splitlines()
        if json.loads(line)["event"] == "lock"
    ]
    pressed_nothing = [
        lock for lock in locks if set(lock["placement"]["path"].split()) == {"F0"}
    ]
    # The game pressed what the function answered (the searcher's own paths soft-drop).
    assert len(pressed_nothing) >= len(locks) - 3 and len(pressed_nothing) > 5
    assert all(lock["placement"]["x"] == 5 for lock in pressed_nothing)
