"""Hostile arguments (issue 32): the package never aborts or panics, whatever it is handed; a
bad argument raises `ValueError`, `TypeError` or `MemoryError`. Counts that size memory are
bounded up front, seeds may not wrap, actions and boards accept only what they mean, and an
environment steps only after `reset`. Also the rough edges a new user hits: `__version__`
and the `rgb_array` render mode.

The reproductions that used to abort the interpreter run in a child process under a 4 GiB
address-space limit, so a regression fails its test instead of killing pytest."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
import textwrap
from importlib import metadata

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tetris_arena as ta
from conftest import REPOSITORY, arena_error

FOUR_GIB = 4 * 2**30


def run_limited(code: str, tmp_path) -> subprocess.CompletedProcess:
    """Runs `code` in a child Python under a 4 GiB address-space limit; it must exit
    normally (code 0, no signal)."""
    program = "import resource\n" + (
        f"resource.setrlimit(resource.RLIMIT_AS, ({FOUR_GIB}, {FOUR_GIB}))\n"
    ) + textwrap.dedent(code)
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment,
        timeout=300,
    )
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr)
    return done


RAISES = """
import tetris_arena as ta

def attempt(call):
    try:
        call()
    except (ValueError, TypeError, MemoryError) as error:
        print(type(error).__name__ + ": " + str(error))
    else:
        print("accepted")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_huge_vector_envs_and_sequences_raise_instead_of_aborting(tmp_path):
    done = run_limited(
        RAISES
        + """
attempt(lambda: ta.TetrisVectorEnv(2**40))
attempt(lambda: ta.TetrisVectorEnv(10**6))
attempt(lambda: ta.TetrisVectorEnv(ta.MAX_VECTOR_GAMES + 1))
attempt(lambda: ta.TetrisVectorEnv(2**70))
attempt(lambda: ta.TetrisVectorEnv(-1))
attempt(lambda: ta.TetrisVectorEnv(2.0))
attempt(lambda: ta.sequence(10**12))
attempt(lambda: ta.sequence(ta.MAX_SEQUENCE_LETTERS + 1))
attempt(lambda: ta.sequence(2**70))
attempt(lambda: ta.sequence(-1))
attempt(lambda: ta.sequence(5, seed=-1))
attempt(lambda: ta.sequence(5, seed=2**64))
""",
        tmp_path,
    )
    lines = done.stdout.splitlines()
    assert len(lines) == 12, done.stdout
    vector = f"outside 1..={ta.MAX_VECTOR_GAMES}"
    for line in lines[:5]:
        assert line.startswith("ValueError: ") and vector in line, line
    assert lines[0] == f"ValueError: num_envs 1099511627776 is outside 1..={ta.MAX_VECTOR_GAMES}" + (
        " (games in one vector environment)"
    )
    assert lines[5].startswith("TypeError: "), lines[5]
    for line in lines[6:9]:
        assert line.startswith("ValueError: ") and "100000000" in line, line
    assert lines[6] == (
        "ValueError: count 1000000000000 is outside 1..=100000000 (letters in one string)"
    )
    for line in lines[9:]:
        assert line.startswith("ValueError: "), line


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is Linux's")
def test_the_largest_vector_env_fits_under_4_gib(tmp_path):
    done = run_limited(
        """
import tetris_arena as ta
env = ta.TetrisVectorEnv(ta.MAX_VECTOR_GAMES, board_height=32, searcher="bfs")
_, info = env.reset(seed=1)
observation, *_ = env.step(info["legal_actions"][:, 0])
print(observation["board"].shape, int(observation["board"].sum()))
""",
        tmp_path,
    )
    assert done.stdout.split(")")[0] == "(16384, 32, 10"
    assert done.stdout.split()[-1] == str(4 * 16384)


def test_the_bounds_are_documented():
    assert ta.MAX_VECTOR_GAMES == 16_384
    assert ta.MAX_SEQUENCE_LETTERS == 100_000_000
    assert str(ta.MAX_VECTOR_GAMES) in ta.TetrisVectorEnv.__doc__.replace(",", "")
    assert "100,000,000" in ta.sequence.__doc__
    assert len(ta.sequence(10_000)) == 10_000


def test_read_only_or_shared_output_arrays_raise_value_error():
    env = ta.TetrisVectorEnv(2, board_height=6, searcher="column-drop")
    env.reset(seed=1)
    games = env.games
    actions = np.zeros(2, dtype=np.int64)

    def outputs():
        return np.zeros(2), np.zeros(2, dtype=bool), np.zeros(2, dtype=bool)

    for slot in range(3):
        arrays = list(outputs())
        arrays[slot].flags.writeable = False
        with pytest.raises(ValueError, match="read-only"):
            games.step(actions, *arrays, True)
    rewards, terminated, _ = outputs()
    with pytest.raises(ValueError, match="same array"):
        games.step(actions, rewards, terminated, terminated, True)
    b = env._buffers
    boards = b.boards.copy()
    boards.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        games.observe(boards, b.current, b.preview, b.masks)


def test_vector_seeds_may_not_wrap_past_64_bits():
    env = ta.TetrisVectorEnv(2, board_height=6, searcher="column-drop")
    expected = arena_error(
        "tournament", "bfs+elashi", "--games", "2", "--seed", str(2**64 - 1)
    )
    with pytest.raises(ValueError) as raised:
        env.reset(seed=2**64 - 1)
    assert expected == "--seed 18446744073709551615 + 2 games overflows a 64-bit seed"
    assert str(raised.value) == "seed 18446744073709551615 + 2 games overflows a 64-bit seed"
    for seed in [2**64, -1]:
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=seed)
    with pytest.raises(TypeError):
        env.reset(seed=1.5)
    # The last seeds that fit: games 2**64 - 2 and 2**64 - 1; their slots' next games
    # would need seeds past 64 bits, so starting them raises rather than wrapping to 0 and 1.
    env.reset(seed=2**64 - 2)
    assert [game[3] for game in env.games.progress()] == [2**64 - 2, 2**64 - 1]
    env.step(np.array([-1, -1]))  # illegal actions end both episodes
    with pytest.raises(ValueError, match="overflows a 64-bit seed"):
        env.step(np.array([0, 0]))
    scalar = ta.TetrisEnv()
    scalar.reset(seed=2**64 - 1)
    for seed in [2**64, -1]:
        with pytest.raises(ValueError, match="seed"):
            scalar.reset(seed=seed)


def test_actions_must_be_integers():
    env = ta.TetrisEnv(board_height=6, searcher="column-drop", illegal_action="raise")
    _, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[1])
    for action in [legal + 0.5, float(legal), str(legal), math.nan, np.float64(legal), True, None]:
        with pytest.raises(TypeError, match="action"):
            env.step(action)
    assert env.pieces == 0
    for action in [legal, np.int64(legal), np.uint8(legal), np.array(legal)]:
        env.reset(seed=1)
        env.step(action)
        assert env.pieces == 1
    env.reset(seed=1)
    with pytest.raises(ValueError, match="not a legal placement"):
        env.step(2**80)

    vector = ta.TetrisVectorEnv(2, board_height=6, searcher="column-drop")
    _, info = vector.reset(seed=1)
    legal = info["legal_actions"][:, 0]
    for actions in [legal + 0.5, legal.astype(float), [str(a) for a in legal], [math.nan] * 2,
                    legal.astype(bool), [None, None]]:
        with pytest.raises(TypeError, match="action"):
            vector.step(actions)
    assert [game[0] for game in vector.games.progress()] == [0, 0]
    vector.step(legal.astype(np.int32))
    vector.step(list(map(int, vector.games.legal_actions()[0][:, 0])))
    assert [game[0] for game in vector.games.progress()] == [2, 2]
    with pytest.raises(ValueError, match="2 entries"):
        vector.step([0, 0, 0])


def test_boards_hold_only_zeros_and_ones():
    board = ta.empty_board()
    for bad, shown in [(2, "2"), (math.nan, "nan"), (-1, "-1"), (0.5, "0.5")]:
        array = board.astype(float)
        array[19, 3] = bad
        with pytest.raises(ValueError, match=re.escape(shown)):
            ta.features(array, "elashi")
    array = board.copy()
    array[19, 3] = 2
    with pytest.raises(ValueError, match="row 19, column 3"):
        ta.as_board(array)
    with pytest.raises(TypeError):
        ta.board_to_text([["#"] * 10] * 20)
    with pytest.raises(TypeError):
        ta.as_board([[None] * 10] * 20)
    ones = board.astype(bool)
    ones[19, :9] = True
    assert ta.board_to_text(ones).splitlines()[-1] == "#########."
    assert ta.board_to_text(ones.astype(np.float32)) == ta.board_to_text(ones)


def test_stepping_before_reset_raises():
    vector = ta.TetrisVectorEnv(2)
    with pytest.raises(ValueError, match=r"reset\(\)"):
        vector.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(ValueError, match=r"reset\(\)"):
        ta.TetrisEnv().step(0)


@pytest.mark.parametrize("height", [3, 33, 1000])
def test_empty_boards_follow_the_board_height_rule(height):
    expected = arena_error("play", "bfs+elashi", "--board-height", str(height))
    with pytest.raises(ValueError) as raised:
        ta.empty_board(height)
    # The CLI's rule and message, naming the function's own keyword.
    assert f"--board-height {height} is outside 4..=32" == expected
    assert str(raised.value) == f"height {height} is outside 4..=32"


def test_empty_board_arguments():
    assert ta.empty_board(4).shape == (4, 10)
    assert ta.empty_board(32).shape == (32, 10)
    assert ta.empty_board(np.int64(8)).shape == (8, 10)
    with pytest.raises(ValueError, match="-1"):
        ta.empty_board(-1)
    with pytest.raises(TypeError):
        ta.empty_board(20.0)
    with pytest.raises(ValueError, match="board height 33|33 is outside"):
        ta.features(np.zeros((33, 10)), "elashi")


def test_the_version_is_the_packages_and_cargos():
    cargo = (REPOSITORY / "Cargo.toml").read_text()
    version = re.search(r'^version = "([^"]+)"', cargo, re.MULTILINE).group(1)
    assert ta.__version__ == version
    assert metadata.version("tetris-arena") == version


def test_rgb_array_renders_the_board_the_current_piece_and_the_preview():
    env = ta.TetrisEnv(board_height=8, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"]
    observation, info = env.reset(seed=1)
    frame = env.render()
    cell = ta.RENDER_CELL_PIXELS
    assert frame.dtype == np.uint8 and frame.shape == (8 * cell, 16 * cell, 3)
    observation, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    frame = env.render()
    occupied = observation["board"].astype(bool)
    assert occupied.sum() == 4
    centres = frame[cell // 2 :: cell, cell // 2 :: cell]
    assert centres.shape == (8, 16, 3)
    board = centres[:, :10]
    # The current piece's cells at its spawn (its first orientation, pivot column 5): in its
    # own colour, over whatever is locked; the locked cells in one grey, the rest empty.
    spawn = np.zeros((8, 10), dtype=bool)
    for column, row in ta.piece_cells(int(observation["current"])):
        spawn[row, 5 + column] = True
    grey, empty = board[occupied & ~spawn][0], board[~occupied & ~spawn][0]
    assert (board[occupied & ~spawn] == grey).all() and (board[~occupied & ~spawn] == empty).all()
    assert (grey != empty).any()
    piece_colour = board[spawn][0]
    assert (board[spawn] == piece_colour).all()
    assert (piece_colour != grey).any() and (piece_colour != empty).any()
    env = gym.make("tetris_arena/Tetris-v0", render_mode="rgb_array")
    check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=2)
    assert env.render().shape == (20 * cell, 16 * cell, 3)


def test_rgb_array_frames_differ_when_only_the_current_piece_does():
    # Two games on the empty board, no preview, no lines: only their first pieces differ.
    frames = {}
    for seed in range(50):
        env = ta.TetrisEnv(preview=0, render_mode="rgb_array")
        observation, _ = env.reset(seed=seed)
        frames.setdefault(int(observation["current"]), env.render())
        if len(frames) == 7:
            break
    assert len(frames) == 7
    shown = list(frames.values())
    for index, frame in enumerate(shown):
        for other in shown[index + 1 :]:
            assert (frame != other).any()


def test_the_environments_info_has_the_games_numbers():
    env = ta.TetrisEnv(board_height=4, preview=0, searcher="column-drop")
    _, info = env.reset(seed=3)
    assert {key: info[key] for key in ("pieces", "lines", "score", "level", "last_clear")} == {
        "pieces": 0, "lines": 0, "score": 0, "level": 0, "last_clear": 0}
    # The game played by a strategy as `arena play` plays it: the same lines and score after
    # every piece, and the level of its score (from level 0, one more every 10 lines).
    cli = ta.play("column-drop+dellacherie", seed=3, board_height=4, max_pieces=60)
    lines = 0
    for placement in cli["placements"]:
        action = env.unwrapped.strategy_action("column-drop+dellacherie")
        _, _, terminated, truncated, info = env.step(action)
        lines += placement["cleared"]
        assert info["last_clear"] == placement["cleared"]
        assert info["lines"] == lines and info["level"] == lines // 10
        if terminated or truncated:
            break
    assert info["pieces"] == cli["pieces"] and info["score"] == cli["score"]
    assert info["lines"] == cli["lines"]


def test_human_rendering_needs_pygame_and_says_so():
    try:
        import pygame  # noqa: F401
    except ImportError:
        with pytest.raises(ModuleNotFoundError, match=r"pip install 'tetris-arena\[human\]'"):
            ta.TetrisEnv(render_mode="human")
    else:  # pragma: no cover (the test environment has no pygame)
        pytest.skip("pygame is installed: its window is not tested here")


OUT_OF_RANGE = {
    "piece_cells rotation": lambda v: ta.piece_cells("T", v),
    "board_from_text height": lambda v: ta.board_from_text(".........\n" * 20, v),
    "play seed": lambda v: ta.play("bfs+elashi", seed=v, max_pieces=5),
    "play max_pieces": lambda v: ta.play("bfs+elashi", max_pieces=v),
    "play board_height": lambda v: ta.play("bfs+elashi", board_height=v, max_pieces=5),
    "tournament games": lambda v: ta.tournament(["bfs+elashi"], games=v, seed=1),
    "tournament seed": lambda v: ta.tournament(["bfs+elashi"], games=1, seed=v),
    "tournament jobs": lambda v: ta.tournament(["bfs+elashi"], games=1, seed=1, jobs=v),
    "nes games": lambda v: ta.nes("gamepad+nes-plateau", games=v, seed=1),
    "nes start_level": lambda v: ta.nes("gamepad+nes-plateau", games=1, seed=1, start_level=v),
    "nes tap_rate": lambda v: ta.nes("gamepad+nes-plateau", games=1, seed=1, tap_rate=v),
    "stats pieces": lambda v: ta.stats("bfs+elashi", pieces=v, seed=1),
    "stats blocks": lambda v: ta.stats("bfs+elashi", pieces=10, seed=1, blocks=v),
    "TetrisEnv board_height": lambda v: ta.TetrisEnv(board_height=v),
    "TetrisEnv preview": lambda v: ta.TetrisEnv(preview=v),
    "TetrisEnv max_pieces": lambda v: ta.TetrisEnv(max_pieces=v),
    "TetrisVectorEnv board_height": lambda v: ta.TetrisVectorEnv(2, board_height=v),
    "TetrisVectorEnv max_pieces": lambda v: ta.TetrisVectorEnv(2, max_pieces=v),
    "TetrisVectorEnv action_features index": lambda v: ta.TetrisVectorEnv(2).action_features(
        v, "elashi"
    ),
}


@pytest.mark.parametrize("case", sorted(OUT_OF_RANGE))
@pytest.mark.parametrize("value", [-1, 2**64, 2**70])
def test_integers_that_fit_no_native_type_raise_value_error_naming_them(case, value):
    name = case.split()[-1]
    with pytest.raises(ValueError) as raised:
        OUT_OF_RANGE[case](value)
    shown = "negative" if value < 0 else "past 64 bits"
    assert str(raised.value) == f"{name} {value} is {shown}"
