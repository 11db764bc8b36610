"""Tetris Arena's engines, games and tournaments from Python, and a fast Gymnasium environment.

The engines are the arena's (a Rust workspace): strategies are named as on the command line,
``SEARCHER+EVALUATOR[:PRESET|:weights.json][,OPTION...][@DEPTH]`` (e.g. ``"bfs+elashi@2"``,
``"drop+dellacherie:el-tetris,no-suicide"``); ``searchers()`` and ``evaluators()`` list what
is registered. Every function gives what the matching ``arena`` command gives, and bad
arguments raise ``ValueError`` with the message the CLI prints after ``error:``, naming each
value by its keyword argument (``board_height 3 is outside 4..=32``).

Boards are NumPy ``uint8`` arrays of shape ``(height, 10)``, row 0 at the top, 1 = occupied
(any array-like of 0/1 or booleans is accepted; any other value is a ``ValueError`` naming
it). Pieces are letters of ``PIECES`` (``"T"``) or
their indices (``0`` = T ... ``6`` = I).

The Gymnasium environments are ``tetris_arena/Tetris-v0`` (registered on import; see
``tetris_arena.envs``).

No argument makes the package abort: counts that size memory are bounded
(``MAX_VECTOR_GAMES`` games in one vector environment, ``MAX_SEQUENCE_LETTERS`` letters from
``sequence``), integers must be integers (``TypeError`` otherwise) and out-of-range values
raise ``ValueError``.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from tetris_arena import _native
from tetris_arena.envs import RENDER_CELL_PIXELS, _in_range, _integer, _seed

__all__ = [
    "__version__",
    "MAX_VECTOR_GAMES",
    "MAX_SEQUENCE_LETTERS",
    "RENDER_CELL_PIXELS",
    "PIECES",
    "BOARD_WIDTH",
    "searchers",
    "evaluators",
    "empty_board",
    "as_board",
    "board_from_text",
    "board_to_text",
    "piece_cells",
    "sequence",
    "features",
    "placements",
    "placement_features",
    "analyze",
    "play",
    "tournament",
    "nes",
    "stats",
    "bot",
    "TetrisEnv",
    "TetrisVectorEnv",
]

#: The package's version: the workspace's (Cargo's) version, as in the package metadata.
__version__: str = _native.__version__
#: The most games one ``TetrisVectorEnv`` holds: 16,384.
MAX_VECTOR_GAMES: int = _native.MAX_VECTOR_GAMES
#: The most letters ``sequence`` returns: 100,000,000 (one string).
MAX_SEQUENCE_LETTERS: int = _native.MAX_SEQUENCE_LETTERS
#: The seven pieces in index order: ``"TJZOSLI"``.
PIECES: str = _native.PIECES
#: Columns of every board.
BOARD_WIDTH: int = _native.BOARD_WIDTH

Piece = Union[str, int]


def _letter(piece: Piece) -> str:
    """The letter of a piece given as a letter or an index."""
    if isinstance(piece, (int, np.integer)) and not isinstance(piece, bool):
        if 0 <= int(piece) < len(PIECES):
            return PIECES[int(piece)]
        raise ValueError(f"unknown piece {piece!r}")
    return str(piece)


def searchers() -> List[Dict[str, Any]]:
    """Every registered searcher: ``name``, ``description``, ``gravity_aware`` and the
    ``game_over_rule`` its games use by default (``arena list``)."""
    return _native.searcher_list()


def evaluators() -> List[Dict[str, Any]]:
    """Every registered evaluator: ``name``, ``feature_names`` (weight order),
    ``placement_feature_names``, ``presets`` (the first is the default) and
    ``default_weights``."""
    return _native.evaluator_list()


def empty_board(height: int = 20) -> np.ndarray:
    """An empty ``(height, 10)`` board; ``height`` from 4 to 32, as ``--board-height``."""
    return _native.empty_board(str(_integer(height, "height")))


def as_board(board: Any) -> np.ndarray:
    """``board`` as a C-contiguous ``uint8`` array of 0 and 1 (shape ``(height, 10)``).

    Accepts booleans and numbers that are exactly 0 or 1; any other value (2, -1, 0.5, NaN)
    is a ``ValueError`` naming it and its cell, any other kind of element (text, objects) a
    ``TypeError``."""
    array = np.asarray(board)
    if array.ndim != 2:
        raise ValueError(f"a board array has shape (height, 10); this one has shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"a board holds 0/1 or booleans; this one holds {array.dtype}")
    if array.dtype.kind != "b":
        bad = np.argwhere((array != 0) & (array != 1))
        if len(bad):
            row, column = (int(i) for i in bad[0])
            value = array[row, column].item()
            raise ValueError(
                f"a board holds 0 and 1 only; this one has {value!r} at row {row}, column {column}"
            )
    return np.ascontiguousarray(array, dtype=np.uint8)


@_in_range
def board_from_text(text: str, height: Optional[int] = None) -> np.ndarray:
    """A board from its text form: one line per row, top first, ``#`` occupied, ``.`` empty
    (the board files of ``arena features --board``). ``height``, when given, must be the
    number of rows."""
    return _native.board_from_text(text, height)


def board_to_text(board: Any) -> str:
    """The text form of a board (one line per row, top first, each ending in a newline)."""
    return _native.board_to_text(as_board(board))


@_in_range
def piece_cells(piece: Piece, rotation: int = 0) -> List[Tuple[int, int]]:
    """The four cells ``(column, row)`` of ``piece`` in ``rotation``, relative to its pivot."""
    return _native.piece_cells(_letter(piece), rotation)


def sequence(count: int, generator: str = "uniform", seed: int = 0) -> str:
    """The first ``count`` pieces of a generator as letters: ``arena sequence --generator G
    --seed S --count N`` (generators: uniform, nes, bag7, sz, java, mdptetris, file:PATH).
    ``count`` is at most 100,000,000 (``MAX_SEQUENCE_LETTERS``: the letters are one string)."""
    count = _integer(count, "count")
    if count > MAX_SEQUENCE_LETTERS:
        raise ValueError(
            f"count {count} is outside 1..={MAX_SEQUENCE_LETTERS} (letters in one string)"
        )
    return _native.sequence(generator, _seed(seed), max(count, 0))


def features(board: Any, evaluator: str) -> Dict[str, float]:
    """An evaluator's board-only features of the board as given, in its feature order:
    ``arena features --eval EVALUATOR`` (the features that belong to placements are left
    out)."""
    return dict(_native.features(as_board(board), evaluator))


def placements(board: Any, piece: Piece, searcher: str = "bfs") -> List[Dict[str, Any]]:
    """Every placement of ``piece`` on ``board`` under a registered searcher, in its order:
    ``{"piece", "x", "y", "rotation", "cells", "path"}`` (pivot ``x``, ``y``; ``cells`` the
    four ``[column, row]``; ``path`` the list of inputs from the spawn, ``None`` when the
    searcher gives none): the fields of ``analyze``'s placements, in the same shapes."""
    letter = _letter(piece)
    return [
        {
            "piece": letter.upper(),
            "x": x,
            "y": y,
            "rotation": r,
            "cells": [list(cell) for cell in cells],
            "path": None if path is None else path.split(),
        }
        for (x, y, r, cells, path) in _native.placements(as_board(board), letter, searcher)
    ]


def placement_features(
    board: Any, piece: Piece, evaluator: str, searcher: str = "bfs"
) -> Tuple[np.ndarray, np.ndarray]:
    """In one call, every placement of ``piece`` and the evaluator's features after each.

    Returns ``(states, matrix)``: ``states`` is ``(n, 3)`` ``int64`` rows ``(x, y,
    rotation)`` in the searcher's order, ``matrix`` is ``(n, features)`` ``float64``, row i
    the features of placement i (the board after it locks and clears, with the placement's own
    features such as ``rows_cleared``), in the evaluator's feature order. The evaluator ranks
    the placements by the weighted sum ``matrix[i] @ weights``, in the direction its weights
    are written in (docs/spec/evaluators.md): El-Ashi's are a cost (lower is better), Dellacherie's a
    published score (higher is better; its cost is the negated sum)."""
    return _native.placement_features(as_board(board), _letter(piece), evaluator, searcher)


def analyze(
    strategy: str,
    board: Any,
    pieces: Union[str, Sequence[Piece]],
    all: bool = False,
    game_over: Optional[str] = None,
) -> Dict[str, Any]:
    """How a strategy judges a position: ``arena analyze STRATEGY --pieces PIECES [--all]
    --json`` on ``board`` (``{"strategy", "pieces", "best", "placements"}``; values are costs,
    lower is better). ``pieces`` is the current piece first, then the preview."""
    if not isinstance(pieces, str):
        pieces = "".join(_letter(piece) for piece in pieces)
    return json.loads(_native.analyze_json(strategy, as_board(board), pieces, all, game_over))


#: How many functions ``bot`` has registered (a number in each one's name).
_bots_registered = 0


def bot(
    function: Any,
    searcher: str = "column-drop",
    preview: int = 0,
    action_index: bool = False,
    name: Optional[str] = None,
) -> str:
    """A Python function as a strategy: registers it and returns the strategy name that plays
    it, ``SEARCHER+python:NAME#K``, for ``play``, ``tournament``, ``nes`` and ``stats``
    (which also take the function itself, with these defaults; ``nes`` needs a searcher that
    starts at the spawn, ``column-drop`` or ``gamepad``). ``function`` may be an object with a
    ``choose`` method.

    By default it is called with the bot protocol's ``suggest`` message as a dict (``board``
    rows of ``#``/``.``, ``current``, ``preview``, ``pieces``, ``lines``, ``score``,
    ``level``, ``placements``: every legal placement of the current piece under
    ``searcher``, docs/writing-a-bot.md) and returns an index into ``placements`` or a dict
    with ``x``, ``y`` and ``rotation``. With ``action_index=True`` it is called as an agent of
    ``tetris_arena.envs``: ``function(observation, info)`` with the environment's observation
    (``board``, ``current``, ``preview``) and ``info["action_mask"]``, returning an action
    index. It sees ``preview`` preview pieces (0 to 3). An answer that is no legal placement
    ends that game as a fault; an exception it raises stops the run and is raised again, with
    a note naming the game and piece."""
    global _bots_registered
    method = getattr(function, "choose", None)
    target = method if method is not None and not callable(function) else function
    if not callable(target):
        raise TypeError(f"a bot is a function or an object with a choose method, not {function!r}")
    _bots_registered += 1
    label = name or getattr(function, "__name__", None) or type(function).__name__
    return _native.register_bot(
        target, searcher, preview, action_index, f"{label}#{_bots_registered}"
    )


def _strategy(strategy: Any) -> str:
    """A strategy argument as a name: a name as given, a function registered by ``bot``."""
    if isinstance(strategy, str):
        return strategy
    return bot(strategy)


@_in_range
def play(
    strategy: Any,
    seed: int = 0,
    generator: str = "uniform",
    max_pieces: Optional[int] = None,
    board_height: int = 20,
    game_over: Optional[str] = None,
    placements: bool = True,
) -> Dict[str, Any]:
    """One game: ``arena play STRATEGY --seed S ... --json`` as a dict (strategy, generator,
    seed, board_height, game_over_rule, pieces, lines, score, start_level and level (the level
    the score counts from: 0 and up, or for a ``gamepad`` strategy 19, its gravity's, up to
    28), game_over and, unless
    ``placements`` is false, the placements ``{"piece", "x", "y", "rotation",
    "cleared"}``). Without ``max_pieces`` a ``RuntimeWarning`` says that the game may never
    end (as the command line's note); Ctrl-C stops it with ``KeyboardInterrupt``."""
    return json.loads(
        _native.play_json(
            _strategy(strategy), seed, generator, max_pieces, board_height, game_over, placements
        )
    )


@_in_range
def tournament(
    strategies: Sequence[Any],
    games: int,
    seed: int = 0,
    generator: str = "uniform",
    max_pieces: Optional[int] = None,
    board_height: int = 20,
    game_over: Optional[str] = None,
    jobs: Optional[int] = None,
    shard: Optional[str] = None,
    out: Optional[str] = None,
) -> Dict[str, Any]:
    """Every strategy plays the same ``games`` piece sequences (game k uses seed ``seed +
    k``): ``arena tournament ... --json`` as a dict with the settings, every game (for runs
    of at most 100,000 games; larger runs give ``games_left_out`` instead), each strategy's
    summary and the pairwise sign tests. ``jobs`` threads (default: every core); the results
    do not depend on it. ``out`` also writes the results file (``.json``, or ``.csv`` or
    ``.jsonl`` with every game, written as the games finish, as ``--out``); ``shard="K/N"`` plays one shard and writes its part to ``out``
    (returned as a dict), for ``arena merge``. Without ``max_pieces``, the ``RuntimeWarning``
    of ``play``."""
    return json.loads(
        _native.tournament_json(
            [_strategy(strategy) for strategy in strategies],
            games,
            seed,
            generator,
            max_pieces,
            board_height,
            game_over,
            jobs,
            shard,
            _path(out),
        )
    )


@_in_range
def nes(
    strategy: Any,
    games: int,
    seed: int = 0,
    start_level: int = 19,
    to_level: int = 29,
    tap_rate: Optional[int] = None,
    game_over: Optional[str] = None,
    inputs: str = "two-thumb",
    jobs: Optional[int] = None,
    shard: Optional[str] = None,
    out: Optional[str] = None,
    max_lines: Optional[int] = None,
    timeline: Optional[str] = None,
    reaction_frames: int = 0,
    trace: Optional[str] = None,
) -> Dict[str, Any]:
    """The NES plateau benchmark: ``arena nes STRATEGY --games N --seed S ...`` as a dict
    (the report with every game, for runs of at most 100,000 games). ``out`` and ``shard`` as for ``tournament``; ``max_lines``
    is ``--max-lines`` (a game also ends when a line clear takes its lines to it). The
    player's speed is ``tap_rate`` (``--tap-rate``; 2 when neither is given) or ``timeline``
    (``--timeline``, StackRabbit's notation, e.g. ``"X....X...X..."``), not both;
    ``reaction_frames`` is ``--reaction-frames`` (frames before the player sees the preview
    piece, 0 to 60); ``trace`` is ``--trace``: every lock of every game written to that file
    as JSON Lines (at most 100 games).

    ``strategy`` may be a Python function, as for ``play``: passed itself it is registered
    with ``bot``'s defaults (``column-drop``, which ignores gravity and plays under the
    simulation rule); ``bot(function, searcher="gamepad")`` plays the frame-accurate game,
    choosing among the placements the player reaches at the game's level and speed."""
    return json.loads(
        _native.nes_json(
            _strategy(strategy),
            games,
            seed,
            start_level,
            to_level,
            tap_rate,
            game_over,
            inputs,
            jobs,
            shard,
            _path(out),
            max_lines,
            timeline,
            reaction_frames,
            _path(trace),
        )
    )


@_in_range
def stats(
    strategy: Any,
    pieces: int,
    seed: int = 0,
    generator: str = "uniform",
    board_height: int = 20,
    game_over: Optional[str] = None,
    row: str = "pivot",
    blocks: Optional[int] = None,
    jobs: Optional[int] = None,
    shard: Optional[str] = None,
    out: Optional[str] = None,
) -> Dict[str, Any]:
    """Where a strategy's pieces lock: ``arena stats STRATEGY --pieces N --seed S --json`` as
    a dict. ``out`` also writes the folder of stats.json and plots; ``shard="K/N"`` plays
    block K of N and writes its part to ``out`` (returned as a dict)."""
    return json.loads(
        _native.stats_json(
            _strategy(strategy),
            pieces,
            seed,
            generator,
            board_height,
            game_over,
            row,
            blocks,
            jobs,
            shard,
            _path(out),
        )
    )


def __dir__() -> List[str]:
    """The public names (``__all__``) and the ``envs`` module: not the names the package
    imports for itself (``json``, ``np``, ``typing``'s)."""
    return sorted(__all__ + ["envs"])


def _path(path: Any) -> Optional[str]:
    """A path argument as text (``str`` or ``os.PathLike``), or ``None``."""
    return None if path is None else str(path)


from tetris_arena.envs import TetrisEnv, TetrisVectorEnv, register_environments  # noqa: E402

register_environments()
