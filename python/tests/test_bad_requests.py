"""One table of bad requests, each run through the `arena` binary and through the Python
package: the same mistake must give the same message, as one `error:` line with exit code 2
on the command line and as a `ValueError` in Python, except that each names the values in its
own words: the command line its options (`--board-height 3 is outside 4..=32`), Python its
keyword arguments (`board_height 3 is outside 4..=32`). Both front ends build the library's
requests (`tetris_arena::request`), so the table checks that neither keeps a check of its own.

Every row also names a fragment of the message that is known independently of the code (the
range, the rule or the file it is about), so a row cannot pass on two equally wrong messages;
a row whose message names a value gives that fragment in both front ends' words, and the
Python message must be the command line's with the one fragment in Python's words. Rows that
write files run in a fresh folder (`tmp_path`), the same for both front ends. A second table
(`CALLERS_WORDS`) writes out whole Python messages, each naming the keyword the caller gave."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any, Callable, List, NamedTuple, Optional

import pytest

import tetris_arena as ta
from conftest import EXCEPTION_OF_EXIT_CODE, REPOSITORY, arena_error, arena_failure

EMPTY = str(REPOSITORY / "tests" / "boards" / "empty.txt")


class Bad(NamedTuple):
    """A mistake: the Python call, the same request on the command line, a fragment of the
    command line's message and, when it names a value, the same fragment in Python's words
    (else both messages are the same)."""

    call: Callable[[], Any]
    command: List[str]
    fragment: str
    python: Optional[str] = None


def play(*extra: str) -> List[str]:
    return ["play", "bfs+elashi", *extra]


def tournament(*extra: str) -> List[str]:
    return ["tournament", "bfs+elashi", "--games", "2", "--seed", "1", *extra]


def nes(*extra: str) -> List[str]:
    return ["nes", "gamepad+nes-plateau", "--games", "2", "--seed", "1", *extra]


def stats(*extra: str) -> List[str]:
    return ["stats", "bfs+elashi", "--pieces", "100", "--seed", "1", *extra]


BAD = [
    # Strategy names (every command builds them the same way).
    Bad(lambda: ta.play("bfs+nope"), ["play", "bfs+nope"], 'unknown evaluator "nope"'),
    Bad(lambda: ta.play("nosuch+elashi"), ["play", "nosuch+elashi"], 'unknown searcher "nosuch"'),
    Bad(lambda: ta.play("bfs+elashi@9"), ["play", "bfs+elashi@9"], "depth 9 is outside 1..=4"),
    Bad(lambda: ta.play("bfs+elashi,nope"), ["play", "bfs+elashi,nope"], "nope"),
    Bad(lambda: ta.play("bfs+dellacherie:nope"), ["play", "bfs+dellacherie:nope"], "nope"),
    # Typed values: the board height, the piece cap, the generator, the game-over rule.
    Bad(lambda: ta.play("bfs+elashi", board_height=3), play("--board-height", "3"), "--board-height 3 is outside 4..=32", "board_height 3 is outside 4..=32"),
    Bad(lambda: ta.play("bfs+elashi", board_height=33), play("--board-height", "33"), "--board-height 33 is outside 4..=32", "board_height 33 is outside 4..=32"),
    Bad(lambda: ta.play("bfs+elashi", max_pieces=0), play("--max-pieces", "0"), "--max-pieces must be at least 1", "max_pieces must be at least 1"),
    Bad(lambda: ta.play("bfs+elashi", generator="bag8"), play("--generator", "bag8"), '--generator: unknown generator "bag8"', 'generator: unknown generator "bag8"'),
    Bad(lambda: ta.play("bfs+elashi", generator="file:/no/such/file"), play("--generator", "file:/no/such/file"), "/no/such/file"),
    Bad(lambda: ta.play("bfs+elashi", game_over="nes"), play("--game-over", "nes"), '--game-over: unknown game-over rule "nes"', 'game_over: unknown game-over rule "nes"'),
    Bad(lambda: ta.play("bfs+elashi", game_over="console"), play("--game-over", "console"), "--game-over: the console rule needs the NES frame model", "game_over: the console rule needs the NES frame model"),
    # Tournaments: strategies that play alike, mixed rules, counts, seeds, threads.
    Bad(lambda: ta.tournament(["bfs+elashi", "bfs+elashi"], games=2, seed=1), ["tournament", "bfs+elashi", "bfs+elashi", "--games", "2", "--seed", "1"], "listed twice"),
    Bad(lambda: ta.tournament(["bfs+elashi", "bfs+elashi:published"], games=2, seed=1), ["tournament", "bfs+elashi", "bfs+elashi:published", "--games", "2", "--seed", "1"], "are the same strategy"),
    Bad(lambda: ta.tournament(["bfs+dellacherie", "bfs+dellacherie:el-tetris"], games=2, seed=1), ["tournament", "bfs+dellacherie", "bfs+dellacherie:el-tetris", "--games", "2", "--seed", "1"], "are the same strategy"),
    Bad(lambda: ta.tournament(["bfs+elashi", "drop+elashi"], games=2, seed=1), ["tournament", "bfs+elashi", "drop+elashi", "--games", "2", "--seed", "1"], "choose one for all with --game-over simulation|literature", 'choose one for all with game_over="simulation"|"literature"'),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=0, seed=1), ["tournament", "bfs+elashi", "--games", "0", "--seed", "1"], "--games 0 is outside 1..=10000000", "games 0 is outside 1..=10000000"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=10_000_001, seed=1), ["tournament", "bfs+elashi", "--games", "10000001", "--seed", "1"], "--games 10000001 is outside", "games 10000001 is outside"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=2**64 - 1), ["tournament", "bfs+elashi", "--games", "2", "--seed", str(2**64 - 1)], "--seed 18446744073709551615 + 2 games overflows a 64-bit seed", "seed 18446744073709551615 + 2 games overflows a 64-bit seed"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, jobs=0), tournament("--jobs", "0"), "--jobs 0 is outside 1..=256", "jobs 0 is outside 1..=256"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, jobs=257), tournament("--jobs", "257"), "--jobs 257 is outside 1..=256", "jobs 257 is outside 1..=256"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, board_height=100), tournament("--board-height", "100"), "--board-height 100 is outside 4..=32", "board_height 100 is outside 4..=32"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, game_over="console"), tournament("--game-over", "console"), "--game-over: the console rule", "game_over: the console rule"),
    # Shards.
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, shard="2/2", out="p.json"), tournament("--shard", "2/2", "--out", "p.json"), '--shard "2/2": K must be below N', 'shard "2/2": K must be below N'),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, shard="x", out="p.json"), tournament("--shard", "x", "--out", "p.json"), '--shard "x": expected K/N', 'shard "x": expected K/N'),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, shard="0/0", out="p.json"), tournament("--shard", "0/0", "--out", "p.json"), '--shard "0/0": N must be at least 1', 'shard "0/0": N must be at least 1'),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, shard="0/3", out="p.json"), tournament("--shard", "0/3", "--out", "p.json"), "--shard 0/3: 3 shards for 2 games", "shard 0/3: 3 shards for 2 games"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, shard="0/2"), tournament("--shard", "0/2"), "--shard writes a part file: give --out PART.json", 'shard writes a part file: give out="PART.json"'),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, shard="0/2", out="p.csv"), tournament("--shard", "0/2", "--out", "p.csv"), "--out p.csv: with --shard the part file's name must end in .json", "out p.csv: with shard the part file's name must end in .json"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, shard="1/1", out="p.json"), nes("--shard", "1/1", "--out", "p.json"), '--shard "1/1": K must be below N', 'shard "1/1": K must be below N'),
    Bad(lambda: ta.stats("bfs+elashi", pieces=100, seed=1, blocks=2, shard="0/3", out="p.json"), stats("--blocks", "2", "--shard", "0/3", "--out", "p.json"), "--blocks 2 and --shard 0/3 disagree", "blocks 2 and shard 0/3 disagree"),
    # Paths.
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, out="results.txt"), tournament("--out", "results.txt"), "--out results.txt: the file name must end in .json, .csv or .jsonl", "out results.txt: the file name must end in .json, .csv or .jsonl"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, out="no-such-folder/r.json"), tournament("--out", "no-such-folder/r.json"), "folder does not exist"),
    Bad(lambda: ta.tournament(["bfs+elashi"], games=2, seed=1, out="a-folder.json"), tournament("--out", "a-folder.json"), "--out a-folder.json: is a folder, not a file", "out a-folder.json: is a folder, not a file"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, out="a-file.txt"), nes("--out", "a-file.txt"), "--out a-file.txt: the file name must end in .json, .csv or .jsonl", "out a-file.txt: the file name must end in .json, .csv or .jsonl"),
    Bad(lambda: ta.stats("bfs+elashi", pieces=100, seed=1, out="a-file.txt"), stats("--out", "a-file.txt"), "--out a-file.txt: is a file, not a folder", "out a-file.txt: is a file, not a folder"),
    # The NES run: its strategies, levels, tap rate, rules and input models.
    Bad(lambda: ta.nes("drop+elashi", games=2, seed=1), ["nes", "drop+elashi", "--games", "2", "--seed", "1"], "plays the literature's game"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, reaction_frames=61), nes("--reaction-frames", "61"), "--reaction-frames 61 is outside 0..=60", "reaction_frames 61 is outside 0..=60"),
    Bad(lambda: ta.nes("column-drop+nes-plateau", games=2, seed=1, reaction_frames=18), ["nes", "column-drop+nes-plateau", "--games", "2", "--seed", "1", "--reaction-frames", "18"], "--reaction-frames: searcher column-drop ignores gravity and plays no frames", "reaction_frames: searcher column-drop ignores gravity and plays no frames"),
    Bad(lambda: ta.nes("gamepad+nes-plateau@3", games=2, seed=1), ["nes", "gamepad+nes-plateau@3", "--games", "2", "--seed", "1"], "depth 3 sees more pieces than the NES shows"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=0, seed=1), ["nes", "gamepad+nes-plateau", "--games", "0", "--seed", "1"], "--games 0 is outside", "games 0 is outside"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, tap_rate=9), nes("--tap-rate", "9"), "--tap-rate 9 is outside 2..=8", "tap_rate 9 is outside 2..=8"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, tap_rate=1), nes("--tap-rate", "1"), "--tap-rate 1 is outside 2..=8", "tap_rate 1 is outside 2..=8"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, timeline="XX"), nes("--timeline", "XX"), "timeline"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, timeline="X.Y"), nes("--timeline", "X.Y"), "timeline"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, start_level=30), nes("--start-level", "30"), "--start-level 30 is outside 0..=29", "start_level 30 is outside 0..=29"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, start_level=29), nes("--start-level", "29"), "--to-level 29 must be above --start-level 29", "to_level 29 must be above start_level 29"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, to_level=19), nes("--to-level", "19"), "--to-level 19 must be above --start-level 19", "to_level 19 must be above start_level 19"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, max_lines=0), nes("--max-lines", "0"), "--max-lines must be at least 1", "max_lines must be at least 1"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, max_lines=230), nes("--max-lines", "230"), "--max-lines 230: the games already end at the transition to level 29 after 230 lines (--to-level): give a cap below 230, or a higher --to-level", "max_lines 230: the games already end at the transition to level 29 after 230 lines (to_level): give a cap below 230, or a higher to_level"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, to_level=300), nes("--to-level", "300"), "--to-level 300 must be above --start-level 19 and at most 255", "to_level 300 must be above start_level 19 and at most 255"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, game_over="literature"), nes("--game-over", "literature"), "--game-over: the literature rule is the one-piece game's", "game_over: the literature rule is the one-piece game's"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=101, seed=1, trace="t.jsonl"), ["nes", "gamepad+nes-plateau", "--games", "101", "--seed", "1", "--trace", "t.jsonl"], "--trace keeps every lock of every game: at most 100 games, not 101 (game k uses seed S + k, so --seed and --games pick the ones to trace)", "trace keeps every lock of every game: at most 100 games, not 101 (game k uses seed S + k, so seed and games pick the ones to trace)"),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, shard="0/2", out="p.json", trace="t.jsonl"), nes("--shard", "0/2", "--out", "p.json", "--trace", "t.jsonl"), "--trace needs the whole run: trace the games you want with --seed and --games instead of a shard", "trace needs the whole run: trace the games you want with seed and games instead of a shard"),
    Bad(lambda: ta.nes("column-drop+nes-plateau", games=2, seed=1, game_over="console"), ["nes", "column-drop+nes-plateau", "--games", "2", "--seed", "1", "--game-over", "console"], "--game-over: searcher column-drop ignores gravity and cannot play the console rule (a piece that spawns overlapping may move out, frame by frame): use a gravity-aware searcher (gamepad) or --game-over simulation", 'game_over: searcher column-drop ignores gravity and cannot play the console rule (a piece that spawns overlapping may move out, frame by frame): use a gravity-aware searcher (gamepad) or game_over="simulation"'),
    Bad(lambda: ta.nes("gamepad+nes-plateau", games=2, seed=1, inputs="thumbs"), nes("--inputs", "thumbs"), '--inputs: unknown input model "thumbs"', 'inputs: unknown input model "thumbs"'),
    # Statistics runs.
    Bad(lambda: ta.stats("bfs+elashi", pieces=0, seed=1), ["stats", "bfs+elashi", "--pieces", "0", "--seed", "1"], "--pieces must be at least 1", "pieces must be at least 1"),
    Bad(lambda: ta.stats("bfs+elashi", pieces=100, seed=1, row="bottom"), stats("--row", "bottom"), '--row: unknown row rule "bottom"', 'row: unknown row rule "bottom"'),
    Bad(lambda: ta.stats("bfs+elashi", pieces=3, seed=1, blocks=5), ["stats", "bfs+elashi", "--pieces", "3", "--seed", "1", "--blocks", "5"], "5 blocks for --pieces 3 would leave a block without pieces", "5 blocks for pieces 3 would leave a block without pieces"),
    Bad(lambda: ta.stats("bfs+elashi", pieces=100, seed=1, game_over="console"), stats("--game-over", "console"), "--game-over: the console rule", "game_over: the console rule"),
    # Analyses, sequences and features.
    Bad(lambda: ta.analyze("bfs+elashi", ta.empty_board(), "T,J"), ["analyze", "bfs+elashi", "--board", EMPTY, "--pieces", "T,J"], "2 pieces given (the current piece and 1 preview piece) but strategy bfs+elashi looks at 1 per decision (the current piece alone)"),
    Bad(lambda: ta.analyze("bfs+elashi", ta.empty_board(), "T,X"), ["analyze", "bfs+elashi", "--board", EMPTY, "--pieces", "T,X"], '--pieces "T,X", column 3: \'X\' is not a piece letter (piece letters T J Z O S L I, upper case, e.g. --pieces T,J or --pieces TJ)', 'pieces "T,X", column 3: \'X\' is not a piece letter (piece letters T J Z O S L I, upper case, e.g. pieces="T,J" or pieces="TJ")'),
    Bad(lambda: ta.analyze("bfs+elashi", ta.empty_board(), ""), ["analyze", "bfs+elashi", "--board", EMPTY, "--pieces", ""], "--pieces is empty: give the current piece first, e.g. --pieces T,J", 'pieces is empty: give the current piece first, e.g. pieces="T,J"'),
    Bad(lambda: ta.analyze("bfs+elashi", ta.empty_board(), "T", game_over="console"), ["analyze", "bfs+elashi", "--board", EMPTY, "--pieces", "T", "--game-over", "console"], "--game-over: the console rule", "game_over: the console rule"),
    Bad(lambda: ta.sequence(0), ["sequence", "--count", "0"], "--count must be at least 1", "count must be at least 1"),
    Bad(lambda: ta.sequence(5, generator="bag8"), ["sequence", "--count", "5", "--generator", "bag8"], '--generator: unknown generator "bag8"', 'generator: unknown generator "bag8"'),
    Bad(lambda: ta.features(ta.empty_board(), "nope"), ["features", "--board", EMPTY, "--eval", "nope"], "nope"),
    Bad(lambda: ta.features(ta.empty_board(), "elashi:nope"), ["features", "--board", EMPTY, "--eval", "elashi:nope"], "nope"),
]


# The commands the Python package has no function for (`tune`, `tune-task`, `merge`,
# `replay`): their options are the same typed values, so the CLI must give the same message
# as the rows above for the same mistake, written out here.
CLI_ONLY = [
    (["tune", "elashi", "--out", "w.json", "--board-height", "3"], "--board-height 3 is outside 4..=32"),
    (["tune", "elashi", "--out", "w.json", "--max-pieces", "0"], "--max-pieces must be at least 1"),
    (["tune", "elashi", "--out", "w.json", "--jobs", "0"], "--jobs 0 is outside 1..=256 (threads playing games at once; more than the cores only slows the run)"),
    (["tune", "elashi", "--out", "w.json", "--depth", "0"], "--depth 0 is outside 1..=4"),
    (["tune", "elashi", "--out", "w.json", "--game-over", "console"], "--game-over: the console rule needs the NES frame model: it is `arena nes`'s (its default with the gamepad searcher); games without frames play simulation or literature"),
    (["tune", "elashi", "--searcher", "nope", "--out", "w.json"], 'unknown searcher "nope" (valid: bfs column-drop gamepad drop)'),
    (["tune-task", ".", "--task", "0", "--jobs", "0"], "--jobs 0 is outside 1..=256 (threads playing games at once; more than the cores only slows the run)"),
    (["merge", "x.json"], "merge: x.json: not JSON: expected value at line 1 column 1"),
    (["replay", "a-file.txt", "--speed", "3"], "--speed needs --watch"),
]


@pytest.mark.parametrize("index", range(len(CLI_ONLY)), ids=lambda index: " ".join(CLI_ONLY[index][0]))
def test_commands_without_a_python_function_give_the_same_messages(index, tmp_path, monkeypatch):
    command, message = CLI_ONLY[index]
    (tmp_path / "a-file.txt").write_text("not an output of the arena\n")
    (tmp_path / "x.json").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    assert arena_error(*command) == message


# Mistakes whose whole Python message is written out: (function, positional arguments,
# keyword arguments, the keyword the message names, the message). Each names a keyword
# argument of the function called (checked against its signature; `empty_board` names its
# own `height`), never a command-line option.
CALLERS_WORDS = [
    (ta.play, ["bfs+elashi"], {"board_height": 3}, "board_height", "board_height 3 is outside 4..=32"),
    (ta.TetrisEnv, [], {"board_height": 33}, "board_height", "board_height 33 is outside 4..=32"),
    (ta.TetrisVectorEnv, [2], {"max_pieces": 0}, "max_pieces", "max_pieces must be at least 1"),
    (ta.empty_board, [3], {}, "height", "height 3 is outside 4..=32"),
    (ta.sequence, [0], {}, "count", "count must be at least 1"),
    (ta.tournament, [["bfs+elashi"]], {"games": 0}, "games", "games 0 is outside 1..=10000000"),
    (
        ta.tournament, [["bfs+elashi"]], {"games": 2, "jobs": 300}, "jobs",
        "jobs 300 is outside 1..=256 (threads playing games at once; more than the cores only "
        "slows the run)",
    ),
    (
        ta.tournament, [["bfs+elashi"]], {"games": 2, "shard": "0/2"}, "shard",
        'shard writes a part file: give out="PART.json" (then `arena merge` the parts)',
    ),
    (
        ta.tournament, [["bfs+elashi", "drop+elashi"]], {"games": 2}, "game_over",
        "bfs+elashi plays under the simulation game-over rule by default and drop+elashi under "
        'the literature rule: choose one for all with game_over="simulation"|"literature"',
    ),
    (
        ta.nes, ["gamepad+nes-plateau"], {"games": 2, "tap_rate": 9}, "tap_rate",
        "tap_rate 9 is outside 2..=8 (frames between two presses of one thumb)",
    ),
    (
        ta.nes, ["gamepad+nes-plateau"], {"games": 2, "tap_rate": 3, "timeline": "X.."}, "timeline",
        "give tap_rate or timeline, not both",
    ),
    (
        ta.nes, ["gamepad+nes-plateau"], {"games": 2, "to_level": 18}, "to_level",
        "to_level 18 must be above start_level 19 and at most 255",
    ),
    (
        ta.nes, ["gamepad+nes-plateau"], {"games": 2, "reaction_frames": 61}, "reaction_frames",
        "reaction_frames 61 is outside 0..=60 (frames from a piece's spawn before the player "
        "sees the preview piece)",
    ),
    (
        ta.stats, ["bfs+elashi"], {"pieces": 10, "row": "middle"}, "row",
        'row: unknown row rule "middle": use pivot or top',
    ),
    (
        ta.analyze, ["bfs+elashi", ta.empty_board(), ""], {}, "pieces",
        'pieces is empty: give the current piece first, e.g. pieces="T,J"',
    ),
    (
        ta.play, ["bfs+elashi"], {"game_over": "sometimes"}, "game_over",
        'game_over: unknown game-over rule "sometimes" (valid: simulation literature console)',
    ),
]


@pytest.mark.parametrize("index", range(len(CALLERS_WORDS)))
def test_mistakes_name_the_keyword_the_caller_gave(index, tmp_path, monkeypatch):
    function, args, kwargs, keyword, message = CALLERS_WORDS[index]
    assert keyword in inspect.signature(function).parameters, keyword
    assert keyword in message
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as raised:
        function(*args, **kwargs)
    assert str(raised.value) == message


def test_the_callers_words_table_has_ten_mistakes_of_ten_keywords():
    keywords = {keyword for *_, keyword, _ in CALLERS_WORDS}
    assert len(CALLERS_WORDS) >= 10 and len(keywords) >= 10, keywords


def test_the_table_covers_at_least_forty_mistakes_of_every_kind():
    assert len(BAD) >= 40
    commands = {bad.command[0] for bad in BAD} | {command[0] for command, _ in CLI_ONLY}
    assert commands == {
        "play", "tournament", "nes", "stats", "analyze", "sequence", "features",
        "tune", "tune-task", "merge", "replay",
    }


@pytest.mark.parametrize("index", range(len(BAD)), ids=lambda index: " ".join(BAD[index].command))
def test_the_same_mistake_gives_the_same_message_in_both_front_ends(index, tmp_path, monkeypatch):
    bad = BAD[index]
    # The folders and files the path rows name, in a fresh folder for both front ends.
    (tmp_path / "a-folder.json").mkdir()
    (tmp_path / "a-file.txt").write_text("not an output of the arena\n")
    monkeypatch.chdir(tmp_path)
    # The same kind in both front ends: bad input (exit 2) is a ValueError, a file the system
    # cannot read or write (exit 3) an OSError.
    code, expected = arena_failure(*bad.command)
    with pytest.raises(EXCEPTION_OF_EXIT_CODE[code]) as raised:
        bad.call()
    assert bad.fragment in expected, expected
    if bad.python is None:
        assert str(raised.value) == expected
    else:
        # The same message, with the one fragment that names values in Python's words.
        assert expected.count(bad.fragment) == 1, expected
        assert str(raised.value) == expected.replace(bad.fragment, bad.python)
    # No Python message names a command-line option.
    assert not re.search(r"--[a-z]", str(raised.value)), str(raised.value)
    # Nothing was written by either front end.
    assert sorted(path.name for path in Path(tmp_path).iterdir()) == ["a-file.txt", "a-folder.json"]
