"""Environment steps per second with a random legal policy, side by side in one run:
tetris-gymnasium's grouped wrapper (placement actions with a legality mask, what Tetris-AI
papers use), tetris_arena's scalar environment and its vector environment.

    taskset -c 0 python python/benchmarks/env_speed.py [--seconds 5] [--vector-envs 256]

Run it on one core (``taskset``); tetris-gymnasium is measured only when it is installed (it
is no dependency of this project: install it in a scratch environment with ``pip install
tetris-gymnasium``). Each environment plays 10 x 20 games back to back, resetting when a game
ends; the policy picks uniformly among the legal actions: from ``info["action_mask"]`` for the
single environments, from the vector environment's ``info["legal_actions"]`` (the same
actions as a list) for N games at once. The policy's own time is part of every figure.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable, List, Tuple

import gymnasium as gym
import numpy as np

import tetris_arena


def scalar_steps(env: gym.Env, seconds: float) -> Tuple[int, float]:
    """Steps a single environment with a random legal policy for about `seconds`."""
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            legal = np.flatnonzero(info["action_mask"])
            action = legal[rng.integers(len(legal))]
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
        steps += 100
        now = time.perf_counter()
        if now >= deadline:
            return steps, now - start


def vector_steps(env: tetris_arena.TetrisVectorEnv, seconds: float) -> Tuple[int, float]:
    """Steps the vector environment with a random legal policy per game for about `seconds`."""
    rng = np.random.default_rng(0)
    games = np.arange(env.num_envs)
    _, info = env.reset(seed=0)
    steps, start = 0, time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(10):
            picks = (rng.random(env.num_envs) * info["legal_count"]).astype(np.int64)
            _, _, _, _, info = env.step(info["legal_actions"][games, picks])
        steps += 10 * env.num_envs
        now = time.perf_counter()
        if now >= deadline:
            return steps, now - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per environment")
    parser.add_argument("--vector-envs", type=int, default=256, help="games of the vector env")
    args = parser.parse_args()

    rows: List[Tuple[str, int, float]] = []
    runs: List[Tuple[str, Callable[[], Tuple[int, float]]]] = []
    try:
        from tetris_gymnasium.envs import Tetris  # noqa: F401  (registers the environment)
        from tetris_gymnasium.wrappers.grouped import GroupedActionsObservations

        grouped = GroupedActionsObservations(gym.make("tetris_gymnasium/Tetris"))
        runs.append(
            ("tetris-gymnasium, grouped wrapper", lambda: scalar_steps(grouped, args.seconds))
        )
    except ImportError:
        print("tetris-gymnasium is not installed: measuring tetris_arena only")
    for searcher in ["bfs", "column-drop"]:
        env = gym.make("tetris_arena/Tetris-v0", searcher=searcher)
        runs.append(
            (f"tetris_arena Tetris-v0 ({searcher})", lambda env=env: scalar_steps(env, args.seconds))
        )
        vector = tetris_arena.TetrisVectorEnv(args.vector_envs, searcher=searcher)
        runs.append(
            (
                f"tetris_arena vector, {args.vector_envs} games ({searcher})",
                lambda vector=vector: vector_steps(vector, args.seconds),
            )
        )
    for name, measure in runs:
        steps, elapsed = measure()
        rows.append((name, steps, elapsed))
        print(f"  {name}: {steps / elapsed:,.0f} steps/s", flush=True)

    base = rows[0][1] / rows[0][2] if rows and rows[0][0].startswith("tetris-gymnasium") else None
    print()
    print("| environment (random legal policy, one core) | steps/s | vs tetris-gymnasium grouped |")
    print("|---|---:|---:|")
    for name, steps, elapsed in rows:
        speed = steps / elapsed
        ratio = f"{speed / base:,.0f}x" if base else "-"
        print(f"| {name} | {speed:,.0f} | {ratio} |")


if __name__ == "__main__":
    main()
