"""The cross-entropy method tuning Dellacherie's weights over the batched features, then the
tuned weights against the published ones through a tournament on other sequences.

    python python/examples/cross_entropy_dellacherie.py

Each step asks the environment for the feature matrix after every legal placement (one Rust
call) and plays the placement of highest score ``features @ weights`` (Dellacherie's weights
are published as a score, higher is better, and weights files keep that form); a candidate's
fitness is its mean lines over the same games (common random numbers). Games are on 10 x 10 with a piece
cap, where Dellacherie's strategies top out after some hundreds of pieces.
"""

import json
import tempfile
from pathlib import Path

import numpy as np

import tetris_arena as ta

HEIGHT, CAP, GAMES, POPULATION, ELITE, ITERATIONS = 10, 1000, 8, 30, 6, 12
FEATURES = next(e for e in ta.evaluators() if e["name"] == "dellacherie")["feature_names"]


def lines(weights, seeds):
    """Mean lines of the greedy policy of highest score over games with `seeds`."""
    env = ta.TetrisEnv(board_height=HEIGHT, preview=0, searcher="column-drop", max_pieces=CAP)
    total = 0.0
    for seed in seeds:
        env.reset(seed=int(seed))
        while True:
            actions, features = env.action_features("dellacherie")
            _, reward, terminated, truncated, _ = env.step(actions[np.argmax(features @ weights)])
            total += reward
            if terminated or truncated:
                break
    return total / len(seeds)


rng = np.random.default_rng(2026)
mean, spread = np.zeros(len(FEATURES)), np.full(len(FEATURES), 1.0)
for iteration in range(ITERATIONS):
    seeds = rng.integers(10**6, 10**9, GAMES)
    candidates = rng.normal(mean, spread, (POPULATION, len(FEATURES)))
    candidates /= np.linalg.norm(candidates, axis=1, keepdims=True)  # scores are scale-free
    fitness = np.array([lines(weights, seeds) for weights in candidates])
    elite = candidates[np.argsort(fitness)[-ELITE:]]
    mean, spread = elite.mean(axis=0), elite.std(axis=0) + 0.1 / (iteration + 1)
    print(f"iteration {iteration + 1}: best {fitness.max():.0f}, mean {fitness.mean():.0f} lines")

tuned = Path(tempfile.mkdtemp()) / "tuned.json"
tuned.write_text(json.dumps({"evaluator": "dellacherie", "weights": dict(zip(FEATURES, mean))}))
print("tuned weights:", {name: round(float(value), 3) for name, value in zip(FEATURES, mean)})

# The published weights: Dellacherie's own and El-Tetris's, on 300 other sequences.
published = ["column-drop+dellacherie:original", "column-drop+dellacherie:el-tetris"]
names = [*published, f"column-drop+dellacherie:{tuned}"]
report = ta.tournament(names, games=300, seed=1, board_height=HEIGHT, max_pieces=CAP)
for row in report["summary"]:
    low, high = row["lines"]["interval_95"]
    print(f"{row['strategy']}: mean {row['lines']['mean']:.1f} lines (95%: {low:.1f} to {high:.1f})")
for pair in report["pairwise"]:
    if pair["b"] == names[2]:
        print(
            f"tuned vs {pair['a']}: tuned outlasted it on {pair['b_outlasted']} of "
            f"{pair['sequences']} sequences, it outlasted tuned on {pair['a_outlasted']}, "
            f"sign test p = {pair['p_value']:.2g}"
        )
