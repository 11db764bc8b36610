"""The Gymnasium environments: Gymnasium's checker, games equal to `arena play`, the vector
form equal to the scalar one, masks equal to the searcher's placements, and errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tetris_arena as ta
from conftest import EXCEPTION_OF_EXIT_CODE, arena_error, arena_failure, arena_json


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"board_height": 10, "preview": 2, "searcher": "column-drop", "reward": "score"},
        {"board_height": 12, "preview": 0, "searcher": "drop", "max_pieces": 50},
    ],
)
def test_gymnasiums_checker_passes(options):
    env = gym.make("tetris_arena/Tetris-v0", **options)
    check_env(env.unwrapped, skip_render_check=False)
    env.close()


def play_through_env(env: ta.TetrisEnv, strategy: str, seed: int):
    """Plays a whole game with the strategy's own choices: its placements as arena's JSON
    records, and the totals."""
    observation, info = env.reset(seed=seed)
    placements, lines, score, reward_total = [], 0, 0, 0.0
    while True:
        action = env.strategy_action(strategy)
        if action == -1:
            # The strategy plays none of the placements (no-suicide when every one ends the
            # game): `arena play` ends the game there, as over.
            return placements, env.pieces, env.lines, env.score, True, reward_total
        assert info["action_mask"][action] == 1
        named = {a: (x, y, r) for (a, x, y, r) in env.legal_placements()}
        piece = ta.PIECES[observation["current"]]
        x, y, rotation = named[action]
        observation, reward, terminated, truncated, info = env.step(action)
        reward_total += reward
        placements.append({"piece": piece, "x": x, "y": y, "rotation": rotation})
        if terminated or truncated:
            return placements, env.pieces, env.lines, env.score, terminated, reward_total


@pytest.mark.parametrize(
    "strategy, seed, options, cli",
    [
        ("bfs+elashi@2", 7, {"max_pieces": 300}, ["--max-pieces", "300"]),
        ("column-drop+dellacherie", 3, {"board_height": 10}, ["--board-height", "10"]),
        (
            "bfs+elashi@2",
            1,
            {"generator": "java", "max_pieces": 200},
            ["--generator", "java", "--max-pieces", "200"],
        ),
        (
            "drop+dellacherie:el-tetris,no-suicide",
            2,
            {"board_height": 8, "searcher": "drop"},
            ["--board-height", "8"],
        ),
        (
            "drop+dellacherie,no-suicide",
            1,
            {"board_height": 10, "searcher": "drop", "generator": "mdptetris", "preview": 0},
            ["--board-height", "10", "--generator", "mdptetris"],
        ),
        (
            "gamepad+nes-plateau",
            5,
            {"board_height": 10, "searcher": "gamepad", "reward": "score"},
            ["--board-height", "10"],
        ),
    ],
)
def test_a_game_with_the_strategys_choices_is_arena_plays(strategy, seed, options, cli):
    env = ta.TetrisEnv(**options)
    placements, pieces, lines, score, over, rewards = play_through_env(env, strategy, seed)
    expected = arena_json("play", strategy, "--seed", str(seed), *cli, "--json")
    assert [{k: p[k] for k in ("piece", "x", "y", "rotation")} for p in expected["placements"]] == placements
    assert (pieces, lines, score, over) == (
        expected["pieces"],
        expected["lines"],
        expected["score"],
        expected["game_over"],
    )
    assert rewards == (score if options.get("reward") == "score" else lines)


def test_the_seed_gives_the_clis_pieces_and_repeats():
    env = ta.TetrisEnv(preview=3)
    first, _ = env.reset(seed=11)
    assert [ta.PIECES[p] for p in [first["current"], *first["preview"]]] == list(
        ta.sequence(4, seed=11)
    )
    again, _ = env.reset(seed=11)
    assert all(np.array_equal(first[key], again[key]) for key in first)


def test_the_mask_is_the_searchers_placements_and_features_match():
    env = ta.TetrisEnv(board_height=12, preview=1)
    observation, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(40):
        piece = ta.PIECES[observation["current"]]
        expected = ta.placements(observation["board"], piece, "bfs")
        legal = env.legal_placements()
        assert [(x, y, r) for (_, x, y, r) in legal] == [
            (p["x"], p["y"], p["rotation"]) for p in expected
        ]
        assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == sorted(a for a, *_ in legal)
        for action, x, y, rotation in legal:
            cells = ta.placements(observation["board"], piece, "bfs")
            spot = next(p for p in cells if (p["x"], p["y"], p["rotation"]) == (x, y, rotation))
            left = min(c[0] for c in spot["cells"])
            bottom = max(c[1] for c in spot["cells"])
            assert action == (rotation * 13 + bottom + 1) * 10 + left
        actions, matrix = env.action_features("dellacherie")
        states, expected_matrix = ta.placement_features(observation["board"], piece, "dellacherie")
        assert actions.tolist() == [a for a, *_ in legal]
        assert np.array_equal(matrix, expected_matrix)
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        observation, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            observation, info = env.reset(seed=5)


def test_the_vector_env_plays_a_tournaments_games():
    count, seed = 5, 20
    vector = ta.TetrisVectorEnv(count, board_height=8, max_pieces=400)
    vector.reset(seed=seed)
    lines = np.zeros(count)
    ended = np.zeros(count, dtype=bool)
    pieces = np.zeros(count, dtype=int)
    while not ended.all():
        actions = vector.strategy_actions("column-drop+dellacherie")
        actions[ended] = 0  # ignored: the slot starts its next game
        _, rewards, terminated, truncated, _ = vector.step(actions)
        lines += np.where(ended, 0, rewards)
        pieces += ~ended
        ended |= terminated | truncated
    for index in range(count):
        expected = ta.play(
            "column-drop+dellacherie", seed=seed + index, board_height=8, max_pieces=400
        )
        assert (lines[index], pieces[index]) == (expected["lines"], expected["pieces"])


def test_the_vector_env_resets_ended_games_on_the_next_step():
    vector = gym.make_vec(
        "tetris_arena/Tetris-v0",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        board_height=4,
        searcher="column-drop",
    )
    observation, info = vector.reset(seed=1)
    assert observation["board"].shape == (3, 4, 10)
    assert info["action_mask"].shape == (3, 4 * 5 * 10)
    rng = np.random.default_rng(1)
    saw_reset = False
    for _ in range(200):
        masks = info["action_mask"]
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
        observation, rewards, terminated, truncated, info = vector.step(actions)
        done = terminated | truncated
        if done.any():
            # Every action is accepted by an ended game; the next step starts a new one.
            assert info["action_mask"][done].all()
            observation, rewards, _, _, info = vector.step(actions)
            assert (rewards[done] == 0).all()
            assert (observation["board"][done] == 0).all()
            saw_reset = True
    assert saw_reset, "a 10 x 4 board ends games quickly"


def test_illegal_actions_end_the_episode_or_raise():
    env = ta.TetrisEnv()
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == 0 and info["illegal_action"]
    strict = ta.TetrisEnv(illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not a legal placement"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="reset"):
        ta.TetrisEnv().step(0)


@pytest.mark.parametrize(
    "options, command, option, keyword",
    [
        ({"board_height": 3}, ["--board-height", "3"], "--board-height 3", "board_height 3"),
        ({"board_height": 33}, ["--board-height", "33"], "--board-height 33", "board_height 33"),
        ({"generator": "nope"}, ["--generator", "nope"], "--generator:", "generator:"),
        ({"generator": "file:/no/such/file"}, ["--generator", "file:/no/such/file"], None, None),
        ({"game_over": "console"}, ["--game-over", "console"], "--game-over:", "game_over:"),
        ({"max_pieces": 0}, ["--max-pieces", "0"], "--max-pieces must", "max_pieces must"),
    ],
)
def test_bad_environment_arguments_raise_the_clis_messages(options, command, option, keyword):
    # The same kind in both front ends (a missing piece file: exit 3, an OSError), and the
    # same message but for the value's name: the CLI's option, the environment's keyword.
    code, expected = arena_failure("play", "bfs+elashi", *command)
    if option is not None:
        assert expected.startswith(option), expected
        expected = keyword + expected[len(option):]
    kind = EXCEPTION_OF_EXIT_CODE[code]
    with pytest.raises(kind) as raised:
        ta.TetrisEnv(**options)
    assert str(raised.value) == expected
    with pytest.raises(kind) as raised:
        ta.TetrisVectorEnv(2, **options)
    assert str(raised.value) == expected


def test_the_mdptetris_generator_refuses_a_preview_with_the_clis_message():
    # It deals a piece only after the previous one is placed: no preview can be shown.
    expected = arena_error("play", "drop+dellacherie@2", "--generator", "mdptetris")
    assert "cannot show a preview" in expected
    for preview in [1, 3]:
        with pytest.raises(ValueError) as raised:
            ta.TetrisEnv(generator="mdptetris", preview=preview)
        assert str(raised.value) == expected
    with pytest.raises(ValueError) as raised:
        ta.TetrisVectorEnv(2, generator="mdptetris")
    assert str(raised.value) == expected


def test_bad_strategies_and_other_arguments_raise_value_error():
    env = ta.TetrisEnv(preview=0)
    env.reset(seed=1)
    assert str(pytest.raises(ValueError, env.strategy_action, "bfs+nope").value) == arena_error(
        "play", "bfs+nope"
    )
    with pytest.raises(ValueError, match="raise preview"):
        env.strategy_action("bfs+elashi@2")
    for options in [{"searcher": "nope"}, {"reward": "points"}, {"preview": 7},
                    {"illegal_action": "ignore"}, {"render_mode": "window"}]:
        with pytest.raises(ValueError):
            ta.TetrisEnv(**options)
    with pytest.raises(ValueError):
        ta.TetrisVectorEnv(0)


def test_a_gamepad_game_is_scored_at_its_gravitys_level_in_play_and_the_environment():
    # The gamepad searches at 2 frames per row, level 19's: its game starts at 19 and each
    # clear scores [0, 40, 100, 300, 1200][rows] x (19 + 1) while fewer than 140 lines
    # (docs/spec/rules.md), in `ta.play` and in the environment alike.
    game = ta.play("gamepad+nes-plateau", seed=5, board_height=10, max_pieces=80)
    points = [0, 40, 100, 300, 1200]
    assert 0 < game["lines"] < 140
    assert (game["start_level"], game["level"]) == (19, 19)
    assert game["score"] == 20 * sum(points[p["cleared"]] for p in game["placements"])
    env = ta.TetrisEnv(board_height=10, searcher="gamepad", reward="score")
    _, info = env.reset(seed=5)
    assert info["level"] == 19
    for placement in game["placements"]:
        _, _, terminated, truncated, info = env.step(
            env.unwrapped.strategy_action("gamepad+nes-plateau"))
        assert info["level"] == 19
        if terminated or truncated:
            break
    assert (info["lines"], info["score"]) == (game["lines"], game["score"])
