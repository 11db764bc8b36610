"""The library surface against the `arena` binary: the same pieces, features, placements,
analyses, games and tournaments, and the same error messages."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import tetris_arena as ta
from conftest import BOARDS, REPOSITORY, arena, arena_error, arena_json

EVALUATORS = [entry["name"] for entry in ta.evaluators()]
SEARCHERS = [entry["name"] for entry in ta.searchers()]


def test_the_registry_is_the_clis():
    assert ta.PIECES == "TJZOSLI"
    assert SEARCHERS == ["bfs", "column-drop", "gamepad", "drop"]
    assert EVALUATORS == ["elashi", "dellacherie", "nes-plateau", "ga-agent", "bcts"]
    elashi = next(entry for entry in ta.evaluators() if entry["name"] == "elashi")
    assert elashi["feature_names"] == [
        "rows_cleared",
        "lock_height",
        "wells",
        "holes",
        "column_transitions",
        "row_transitions",
    ]
    listed = arena("list")
    for name in SEARCHERS + EVALUATORS:
        assert name in listed


@pytest.mark.parametrize("generator", ["uniform", "nes", "bag7", "sz", "java"])
def test_sequences_are_the_clis(generator):
    for seed in (0, 1, 7):
        expected = arena("sequence", "--generator", generator, "--seed", str(seed), "--count", "200")
        assert ta.sequence(200, generator=generator, seed=seed) == expected.strip()


def test_the_java_sequence_is_the_java_programs():
    # java.util.Random(1).nextInt(7), as docs/commands.md says.
    assert ta.sequence(10, generator="java", seed=1) == "SSJTIITJOI"


def test_boards_round_trip_through_text_and_numpy():
    for path in BOARDS:
        text = path.read_text()
        board = ta.board_from_text(text)
        assert board.dtype == np.uint8 and board.shape[1] == 10
        assert ta.board_to_text(board) == "\n".join(text.strip("\n").splitlines()) + "\n"
        assert ta.board_to_text(board.astype(bool)) == ta.board_to_text(board)
    board = ta.board_from_text("..........\n" * 3 + "#########.\n\n")
    assert board.tolist() == [[0] * 10] * 3 + [[1] * 9 + [0]]
    with pytest.raises(ValueError, match="outside the supported range 4..=32"):
        ta.board_from_text("..........\n" * 3)


@pytest.mark.parametrize("evaluator", EVALUATORS)
def test_features_equal_the_clis_on_the_board_corpus(evaluator):
    for path in BOARDS:
        board = ta.board_from_text(path.read_text())
        expected = arena_json(
            "features", "--board", str(path), "--eval", evaluator, "--json",
            "--board-height", str(board.shape[0]),
        )
        assert expected["evaluator"] == evaluator
        got = ta.features(board, evaluator)
        assert list(got) == list(expected["features"]), path.name
        assert got == expected["features"], path.name


def test_the_empty_boards_features_are_known():
    features = ta.features(ta.empty_board(20), "dellacherie")
    assert features["row_transitions"] == 40 and features["column_transitions"] == 10


def test_placements_and_paths_are_analyzes_for_every_searcher():
    empty = REPOSITORY / "tests" / "boards" / "empty.txt"
    board = ta.board_from_text(empty.read_text())
    found = ta.placements(board, "I", "bfs")
    assert len(found) == 17, "docs/commands.md's 17 I placements"
    for searcher in ["bfs", "column-drop", "drop"]:
        for piece in "TIS":
            expected = arena_json(
                "analyze", f"{searcher}+elashi", "--board", str(empty), "--pieces", piece,
                "--all", "--json",
            )["placements"]
            got = ta.placements(board, piece, searcher)
            assert [(p["x"], p["y"], p["rotation"]) for p in got] == [
                (p["x"], p["y"], p["rotation"]) for p in expected
            ]
            # The same fields in the same shapes: cells as [column, row], paths as lists.
            assert [p["cells"] for p in got] == [p["cells"] for p in expected]
            assert [p["path"] for p in got] == [p["path"] for p in expected]


@pytest.mark.parametrize("evaluator", EVALUATORS)
def test_the_feature_matrix_is_each_placements_features(evaluator):
    # At depth 1 the best chain starting with a placement is that placement: `analyze --all`
    # lists each placement's own features.
    for path in BOARDS[::5]:
        board = ta.board_from_text(path.read_text())
        if board.all(axis=1).any():
            continue
        for piece in "TLI":
            states, matrix = ta.placement_features(board, piece, evaluator, "bfs")
            expected = ta.analyze(f"bfs+{evaluator}", board, piece, all=True)["placements"]
            assert states.tolist() == [[p["x"], p["y"], p["rotation"]] for p in expected]
            assert matrix.shape == (len(expected), len(expected[0]["features"]) if expected else 0)
            for row, placement in zip(matrix, expected):
                assert row.tolist() == list(placement["features"].values()), path.name


def test_analyze_is_the_clis():
    for board_name, strategy, pieces, extra in [
        ("flat-three-rows-gap-right.txt", "bfs+elashi@2", "T,I", []),
        ("empty.txt", "bfs+elashi", "I", ["--all"]),
        ("overhang-tuck-slot.txt", "bfs+dellacherie", "S", ["--all"]),
        ("grown-seed3-10pieces.txt", "column-drop+nes-plateau@2", "LZ", []),
    ]:
        path = REPOSITORY / "tests" / "boards" / board_name
        expected = arena_json(
            "analyze", strategy, "--board", str(path), "--pieces", pieces, "--json", *extra
        )
        board = ta.board_from_text(path.read_text())
        got = ta.analyze(strategy, board, pieces, all="--all" in extra)
        assert _without_made_by(got) == _without_made_by(expected)
        assert got["made_by"]["command"].startswith("tetris_arena.analyze(")


def test_play_is_the_clis():
    for strategy, options in [
        ("bfs+elashi@2", ["--seed", "7", "--max-pieces", "300"]),
        ("column-drop+dellacherie", ["--seed", "3", "--board-height", "10"]),
        ("bfs+elashi@2", ["--generator", "java", "--seed", "1", "--max-pieces", "200"]),
        ("drop+dellacherie:el-tetris,no-suicide", ["--seed", "2", "--board-height", "8"]),
    ]:
        expected = arena_json("play", strategy, *options, "--json")
        args = dict(zip(options[::2], options[1::2]))
        height = int(args.get("--board-height", 20))
        call = lambda: ta.play(  # noqa: E731
            strategy,
            seed=int(args.get("--seed", 0)),
            generator=args.get("--generator", "uniform"),
            max_pieces=int(args["--max-pieces"]) if "--max-pieces" in args else None,
            board_height=height,
        )
        if "--max-pieces" in args:
            got = call()
        else:
            # Without a cap, the command line's note in Python's words, at the caller's line.
            with pytest.warns(RuntimeWarning) as warned:
                got = call()
            assert [str(w.message) for w in warned] == [
                f"no max_pieces: on 10 x {height} strong strategies practically never top "
                "out, so a game may never end; max_pieces=N (or a shorter board_height) "
                "bounds it"
            ]
            assert warned[0].filename == __file__
        assert _without_made_by(got) == _without_made_by(expected)
    assert "placements" not in ta.play("bfs+elashi", max_pieces=5, placements=False)


def _without_made_by(report):
    """A report without what names the command or call that made it (its `made_by`, which
    must be there)."""
    assert "made_by" in report
    return {key: value for key, value in report.items() if key != "made_by"}


def _without_timing(report):
    """A report without what depends on the machine (its `timing` object) or on the command
    that made it (`made_by`)."""
    return {key: value for key, value in _without_made_by(report).items() if key != "timing"}


def test_an_nes_run_is_the_clis():
    options = ["--games", "3", "--seed", "2", "--start-level", "27", "--to-level", "29"]
    expected = arena_json("nes", "gamepad+nes-plateau", *options, "--json", "--jobs", "1")
    got = ta.nes("gamepad+nes-plateau", games=3, seed=2, start_level=27, to_level=29, jobs=1)
    assert len(got["games"]) == 3
    expected.pop("games", None)
    compared = {key: got[key] for key in expected if key not in ("timing", "made_by")}
    assert compared == _without_timing(expected)


def test_a_capped_nes_run_from_18_is_the_clis():
    options = ["--games", "3", "--seed", "1", "--start-level", "18", "--to-level", "31"]
    options += ["--max-lines", "235"]
    expected = arena_json("nes", "column-drop+nes-plateau@2", *options, "--json", "--jobs", "1")
    got = ta.nes(
        "column-drop+nes-plateau@2", games=3, seed=1, start_level=18, to_level=31, jobs=1, max_lines=235
    )
    expected.pop("games", None)
    compared = {key: got[key] for key in expected if key not in ("timing", "made_by")}
    assert compared == _without_timing(expected)
    assert got["settings"]["max_lines"] == 235
    for game in got["games"]:
        assert game["end"] in ("top-out", "line-cap")
        assert game["lines"] < 235 or game["end"] == "line-cap"


def test_a_timeline_nes_run_is_the_clis():
    # A mixed timeline (13.5 Hz) through the same request check as `arena nes --timeline`;
    # `X.` is the tap rate 2 under another name, the same games.
    options = ["--games", "2", "--seed", "5", "--start-level", "28", "--to-level", "29"]
    expected = arena_json(
        "nes", "gamepad+nes-plateau", *options, "--timeline", "X....X...X...", "--json", "--jobs", "1"
    )
    got = ta.nes(
        "gamepad+nes-plateau", games=2, seed=5, start_level=28, to_level=29, jobs=1,
        timeline="X....X...X...",
    )
    expected.pop("games", None)
    compared = {key: got[key] for key in expected if key not in ("timing", "made_by")}
    assert compared == _without_timing(expected)
    assert got["settings"]["timeline"] == "X....X...X..."
    thirty_hz = ta.nes("gamepad+nes-plateau", games=2, seed=5, start_level=28, jobs=1, timeline="X.")
    tap_rate = ta.nes("gamepad+nes-plateau", games=2, seed=5, start_level=28, jobs=1, tap_rate=2)
    assert thirty_hz["games"] == tap_rate["games"]
    with pytest.raises(ValueError, match="give tap_rate or timeline, not both"):
        ta.nes("gamepad+nes-plateau", games=2, seed=5, tap_rate=3, timeline="X...")


def test_a_reaction_time_nes_run_is_the_clis():
    # 18 frames before the preview is seen, from level 18: the same games as `arena nes
    # --reaction-frames 18`, recorded in the settings; without it, other games.
    options = ["--games", "2", "--seed", "3", "--start-level", "18", "--max-lines", "30"]
    expected = arena_json(
        "nes", "gamepad+nes-plateau@2", *options, "--reaction-frames", "18", "--json", "--jobs", "1"
    )
    got = ta.nes(
        "gamepad+nes-plateau@2", games=2, seed=3, start_level=18, max_lines=30, jobs=1,
        reaction_frames=18,
    )
    expected.pop("games", None)
    compared = {key: got[key] for key in expected if key not in ("timing", "made_by")}
    assert compared == _without_timing(expected)
    assert got["settings"]["reaction_frames"] == 18
    at_once = ta.nes("gamepad+nes-plateau@2", games=2, seed=3, start_level=18, max_lines=30, jobs=1)
    assert "reaction_frames" not in at_once["settings"]
    assert at_once["games"] != got["games"]


def test_an_nes_trace_is_the_clis(tmp_path):
    # The trace of the same two games from the CLI and from Python: the same lines but the
    # first one's `made_by` (the command that wrote it), and its end lines are the report's games.
    options = ["--games", "2", "--seed", "3", "--start-level", "18", "--max-lines", "20"]
    cli_trace, python_trace = tmp_path / "cli.jsonl", tmp_path / "python.jsonl"
    arena("nes", "gamepad+nes-plateau@2", *options, "--reaction-frames", "18", "--jobs", "1",
          "--trace", str(cli_trace))
    got = ta.nes(
        "gamepad+nes-plateau@2", games=2, seed=3, start_level=18, max_lines=20, jobs=1,
        reaction_frames=18, trace=str(python_trace),
    )
    cli = [json.loads(line) for line in cli_trace.read_text().splitlines()]
    python = [json.loads(line) for line in python_trace.read_text().splitlines()]
    assert cli[0]["made_by"]["command"].startswith("arena nes")
    assert python[0]["made_by"]["command"].startswith("tetris_arena.nes(")
    assert _without_made_by(cli[0]) == _without_made_by(python[0])
    assert cli[1:] == python[1:]
    ends = [line for line in python if line["event"] == "end"]
    assert [(end["seed"], end["score"], end["pieces"]) for end in ends] == [
        (game["seed"], game["score"], game["pieces"]) for game in got["games"]
    ]
    assert len(python) == 1 + sum(game["pieces"] + 1 for game in got["games"])


def test_a_statistics_run_is_the_clis():
    options = ["--pieces", "3000", "--seed", "4", "--board-height", "10", "--row", "top"]
    expected = arena_json("stats", "column-drop+dellacherie", *options, "--json")
    got = ta.stats("column-drop+dellacherie", pieces=3000, seed=4, board_height=10, row="top")
    assert _without_timing(got) == _without_timing(expected)
    assert got["pieces"] == 3000


def test_a_tournament_is_the_clis():
    strategies = ["bfs+elashi", "column-drop+elashi", "column-drop+dellacherie"]
    options = ["--games", "4", "--seed", "5", "--board-height", "8", "--max-pieces", "300"]
    expected = arena_json("tournament", *strategies, *options, "--json")
    got = ta.tournament(strategies, games=4, seed=5, board_height=8, max_pieces=300, jobs=1)
    for key in ["settings", "games", "summary", "pairwise", "games_finished", "interrupted"]:
        assert got[key] == expected[key], key
    assert len(got["games"]) == 12


def _made_by(command):
    return {"program": "tetris-arena", "version": ta.__version__, "command": command}


def test_every_report_names_the_call_that_made_it(tmp_path):
    # Every argument by name, defaults included, with Python's repr of its value.
    assert ta.play("column-drop+elashi", max_pieces=5, placements=False)["made_by"] == _made_by(
        "tetris_arena.play(strategy='column-drop+elashi', seed=0, generator='uniform', "
        "max_pieces=5, board_height=20, game_over=None, placements=False)"
    )
    out = tmp_path / "it's.json"
    report = ta.tournament(
        ["column-drop+elashi"], games=2, seed=1, board_height=6, max_pieces=20, out=out
    )
    called = (
        "tetris_arena.tournament(strategies=['column-drop+elashi'], games=2, seed=1, "
        "generator='uniform', max_pieces=20, board_height=6, game_over=None, jobs=None, "
        f"shard=None, out={str(out)!r})"
    )
    assert report["made_by"] == _made_by(called)
    assert json.loads(out.read_text())["made_by"] == _made_by(called)
    part = ta.tournament(
        ["column-drop+elashi"], games=2, seed=1, board_height=6, max_pieces=20, shard="0/2", out=out
    )
    assert part["made_by"]["command"] == called.replace("shard=None", "shard='0/2'")
    nes = ta.nes("column-drop+nes-plateau", games=1, seed=1, to_level=20, jobs=1)
    assert nes["made_by"] == _made_by(
        "tetris_arena.nes(strategy='column-drop+nes-plateau', games=1, seed=1, start_level=19, "
        "to_level=20, tap_rate=None, game_over=None, inputs='two-thumb', jobs=1, shard=None, "
        "out=None, max_lines=None, timeline=None, reaction_frames=0, trace=None)"
    )
    stats = ta.stats("column-drop+elashi", pieces=40, seed=3, board_height=8)
    assert stats["made_by"] == _made_by(
        "tetris_arena.stats(strategy='column-drop+elashi', pieces=40, seed=3, generator='uniform', "
        "board_height=8, game_over=None, row='pivot', blocks=None, jobs=None, shard=None, out=None)"
    )
    board = ta.board_from_text("..........\n" * 5 + "#########.\n")
    analysis = ta.analyze("column-drop+elashi", board, "I")
    command = analysis["made_by"]["command"]
    assert command == (
        "tetris_arena.analyze(strategy='column-drop+elashi', board=tetris_arena.board_from_text("
        + repr(ta.board_to_text(board))
        + "), pieces='I', all=False, game_over=None)"
    )
    # The call reads back: the board in it is the board analyzed.
    assert eval(command, {"tetris_arena": ta})["best"] == analysis["best"]
    # The package's version is the CLI's.
    assert arena_json("list", "--json")["made_by"]["version"] == ta.__version__


def test_bad_boards_and_pieces_raise_value_error():
    with pytest.raises(ValueError, match="10 columns|has shape"):
        ta.features(np.zeros((20, 9)), "elashi")
    with pytest.raises(ValueError):
        ta.features(np.zeros((3, 10)), "elashi")
    with pytest.raises(ValueError):
        ta.placements(ta.empty_board(), "X")
    with pytest.raises(ValueError):
        ta.placements(ta.empty_board(), 9)
    with pytest.raises(ValueError, match="unknown searcher"):
        ta.placements(ta.empty_board(), "T", "nope")
    with pytest.raises(ValueError):
        ta.board_from_text("...\n")
    with pytest.raises(ValueError, match="full row"):
        ta.analyze("bfs+elashi", np.ones((20, 10)), "T")
    with pytest.raises(ValueError):
        ta.piece_cells("O", 4)


def test_the_public_names_are_the_packages_own():
    assert dir(ta) == sorted(ta.__all__ + ["envs"])
    names = [name for name in dir(ta) if not name.startswith("_")]
    for imported in ["Any", "Dict", "json", "np", "annotations"]:
        assert imported not in names


def test_run_seeds_default_to_the_clis_0():
    assert _without_made_by(ta.stats("column-drop+dellacherie", pieces=50))["seed"] == 0
    expected = arena_json("tournament", "column-drop+dellacherie", "--games", "2",
                          "--max-pieces", "20", "--json")
    got = ta.tournament(["column-drop+dellacherie"], games=2, max_pieces=20)
    assert _without_timing(got)["games"] == _without_timing(expected)["games"]


def test_a_bad_uncapped_call_raises_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="unknown evaluator"):
            ta.play("bfs+nope")
