"""Gymnasium environments: ``tetris_arena/Tetris-v0`` and its vector form.

One step is one placement. The game is ``arena play``'s (docs/spec/rules.md): an empty 10 x H board,
pieces from a seeded generator, NES line-clear points from level 0 (with the gravity-aware
``gamepad`` searcher from level 19, the level of the gravity it searches at, as ``arena play``
counts them), and a game-over rule.

Actions: ``Discrete(4 * (H + 1) * 10)``; an action names a lock position,
``(rotation * (H + 1) + bottom_row + 1) * 10 + left_column`` (the piece's rotation index, the
row of its lowest cell counted from the top, -1 just above the field, and the column of its
leftmost cell): the same action is the same cells in every state. The legal ones are the
searcher's placements of the current piece (``searcher="bfs"`` reaches tucks and spins,
``"column-drop"`` only straight drops): ``info["action_mask"]`` (``int8``, 1 = legal, ready for
``action_space.sample(mask=...)``). An illegal action ends the episode (``illegal_action="end"``,
with ``info["illegal_action"]``) or raises ``ValueError`` (``"raise"``).

Observation: ``{"board": (H, 10) uint8, "current": piece index, "preview": (preview,) piece
indices}`` (indices of ``tetris_arena.PIECES``; 7 where a ``file:`` sequence has run out).

Reward: rows cleared (``reward="lines"``) or NES points (``"score"``). The episode terminates
when the game is over by its rule and is truncated at ``max_pieces`` or when a ``file:``
sequence ends. ``reset(seed=s)`` plays the pieces ``arena play --seed s`` plays.

``env.unwrapped`` also gives ``strategy_action(name)`` (the action a named strategy would
play: its own game), ``action_features(evaluator)`` (the legal actions and the feature matrix
after each), ``legal_placements()``, ``pieces``, ``lines`` and ``score``.

``TetrisVectorEnv(num_envs, ...)`` steps N games in one call in Rust (Gymnasium's vector API,
next-step autoreset: the step after an episode ends starts the next game, ignores its action
and reports reward 0; that game's mask allows every action). Its ``info`` also has
``legal_actions`` (``(N, longest)``, each game's legal actions padded with -1) and
``legal_count`` (``(N,)``): a random legal policy is ``legal_actions[i, int(u *
legal_count[i])]``, no scan of the masks. ``reset(seed=s)`` seeds game i
with ``s + i``, as a tournament seeds its games; each later game of slot i adds N. No seed
wraps past 2**64 - 1: a reset whose last game would need one, or a later game whose seed
would, raises ``ValueError``. One vector holds at most ``MAX_VECTOR_GAMES`` (16,384) games.

Actions are integers only (Python or NumPy integers, integer arrays): a float, a string or a
bool is a ``TypeError``, never rounded. Stepping before ``reset`` is a ``ValueError``.

``info`` (scalar environment) holds, after ``reset`` and every ``step``: ``action_mask``,
``pieces`` (placed), ``lines``, ``score`` (NES points), ``level`` (the score's: 0, then one
more every 10 lines; with ``searcher="gamepad"`` 19, the level of its gravity, rising by the NES
rule up to 28) and ``last_clear`` (rows the last placement cleared).

``render_mode="ansi"`` renders the board as text; ``"rgb_array"`` as an ``(H * c, 16 * c,
3)`` ``uint8`` image, ``c = RENDER_CELL_PIXELS`` pixels per cell (what Gymnasium's video
recorder takes): the board's 10 columns (locked cells grey, the current piece in its colour at
its spawn position), then a panel with the preview pieces in their colours, and the lines and
the score in digits; ``"human"`` shows those frames in a window, with pygame (``pip install
'tetris-arena[human]'``; without it the environment refuses the mode and says so).
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tetris_arena import _native

ENV_ID = "tetris_arena/Tetris-v0"

#: Pixels per cell side in ``render_mode="rgb_array"`` frames.
RENDER_CELL_PIXELS = 16
#: Colours of ``rgb_array`` frames: an empty cell, an occupied cell, the grid between cells.
_EMPTY_RGB = (16, 16, 24)
_OCCUPIED_RGB = (200, 200, 210)
_GRID_RGB = (48, 48, 60)
#: The pieces' colours, in ``PIECES`` order (T J Z O S L I): the guideline's.
_PIECE_RGB = (
    (170, 60, 200),
    (50, 80, 220),
    (220, 50, 50),
    (230, 210, 40),
    (60, 200, 70),
    (240, 140, 30),
    (40, 200, 220),
)
#: The digits' and labels' colour.
_TEXT_RGB = (230, 230, 230)
#: Columns of cells right of the board in a frame: the preview and the numbers.
_PANEL_CELLS = 6
#: 3 x 5 pixel glyphs of the digits, a row per string, for the panel's numbers.
_DIGITS = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
}


def _integer(value: Any, name: str) -> int:
    """``value`` as a Python ``int``: a Python or NumPy integer or a 0-d integer array (not
    a bool, a float or a string: ``TypeError``)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    raise TypeError(f"{name} must be an integer, not {type(value).__name__} {value!r}")


_Function = TypeVar("_Function", bound=Callable[..., Any])


def _in_range(function: _Function) -> _Function:
    """``function`` with the native layer's ``OverflowError`` (an integer argument that does
    not fit its Rust type: negative, or past 64 bits) raised as a ``ValueError`` naming the
    argument and its value."""
    signature = inspect.signature(function)

    @functools.wraps(function)
    def checked(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except OverflowError as error:
            arguments = signature.bind(*args, **kwargs).arguments
            for name, value in arguments.items():
                if isinstance(value, (int, np.integer)) and not 0 <= int(value) < 2**64:
                    shown = "negative" if value < 0 else "past 64 bits"
                    raise ValueError(f"{name} {value} is {shown}") from None
            raise ValueError(f"{function.__name__}: an integer is out of range ({error})") from None

    return checked  # type: ignore[return-value]


def _seed(seed: Any, name: str = "seed") -> int:
    """A seed: an integer in ``0..=2**64 - 1`` (``ValueError`` outside)."""
    value = _integer(seed, name)
    if not 0 <= value <= 2**64 - 1:
        raise ValueError(f"{name} {value} is outside 0..={2**64 - 1}")
    return value


def _actions(actions: Any) -> np.ndarray:
    """The actions of a vector step as ``int64``: an integer array or a sequence of Python
    or NumPy integers (anything else: ``TypeError``); values past 64 bits are no action (-1,
    illegal)."""
    array = np.asarray(actions)
    if array.dtype.kind == "O":
        array = np.array([_action(value) for value in array.ravel()], dtype=np.int64).reshape(
            array.shape
        )
    if array.dtype.kind not in "iu":
        raise TypeError(f"actions must be integers, not an array of {array.dtype}")
    if array.dtype == np.uint64:
        array = np.where(array > np.iinfo(np.int64).max, np.uint64(2**64 - 1), array)
    return np.ascontiguousarray(array, dtype=np.int64)


def _action(action: Any) -> int:
    """One action as an ``int64`` value (past 64 bits: -1, an illegal action)."""
    value = _integer(action, "an action")
    return value if -(2**63) <= value < 2**63 else -1


def _rgb_frame(
    board: np.ndarray,
    current: int,
    preview: np.ndarray,
    lines: int,
    score: int,
) -> np.ndarray:
    """A frame (see the module documentation): the board with the current piece at its spawn
    position, then the preview and the numbers; ``RENDER_CELL_PIXELS`` pixels per cell, a
    one-pixel grid over the board."""
    cell = RENDER_CELL_PIXELS
    height = board.shape[0]
    colours = np.zeros((height, 10 + _PANEL_CELLS), dtype=np.int64)  # 0 empty, 1 locked
    colours[:, :10] = board.astype(bool)
    # Piece index k is colour k + 2; the current piece at its spawn (the cells it would take
    # in its first orientation, over what is locked), each preview piece below the last.
    if 0 <= int(current) < 7:
        for column, row in _native.piece_cells(_native.PIECES[int(current)], 0):
            x, y = 5 + column, row
            if 0 <= y < height and 0 <= x < 10:
                colours[y, x] = int(current) + 2
    for position, piece in enumerate(int(piece) for piece in preview):
        if not 0 <= piece < 7:
            continue
        for column, row in _native.piece_cells(_native.PIECES[piece], 0):
            x, y = 10 + 2 + column, 1 + 3 * position + row
            if 0 <= y < height:
                colours[y, x] = piece + 2
    palette = np.array((_EMPTY_RGB, _OCCUPIED_RGB) + _PIECE_RGB, dtype=np.uint8)
    frame = np.kron(palette[colours], np.ones((cell, cell, 1), dtype=np.uint8))
    board_width = 10 * cell
    frame[cell - 1 :: cell, :board_width] = _GRID_RGB
    frame[:, cell - 1 : board_width : cell] = _GRID_RGB
    # The numbers, lines above score, at the panel's foot.
    scale = max(1, cell // 8)
    for index, number in enumerate((lines, score)):
        top = frame.shape[0] - (2 - index) * 7 * scale - scale
        _draw_number(frame, str(number), top, board_width + scale, scale)
    return frame


def _draw_number(frame: np.ndarray, text: str, top: int, left: int, scale: int) -> None:
    """Draws ``text`` (digits) into ``frame`` with its top-left corner at ``(top, left)``, each
    glyph pixel ``scale`` pixels wide, as far as the frame reaches."""
    for position, digit in enumerate(text):
        glyph = _DIGITS[digit]
        for row, pixels in enumerate(glyph):
            for column, pixel in enumerate(pixels):
                if pixel != "#":
                    continue
                y = top + row * scale
                x = left + (position * 4 + column) * scale
                if 0 <= y and y + scale <= frame.shape[0] and x + scale <= frame.shape[1]:
                    frame[y : y + scale, x : x + scale] = _TEXT_RGB


#: Whether pygame, which ``render_mode="human"`` needs, is installed.
_HAS_PYGAME = importlib.util.find_spec("pygame") is not None


class _Window:
    """A pygame window showing frames (``render_mode="human"``)."""

    def __init__(self, fps: int) -> None:
        try:
            import pygame
        except ImportError:
            raise ModuleNotFoundError(
                "render_mode='human' needs pygame, an optional dependency: "
                "pip install 'tetris-arena[human]' (or pip install pygame)"
            ) from None
        self.pygame = pygame
        self.fps = fps
        self.screen = None
        self.clock = None

    def show(self, frame: np.ndarray) -> None:
        pygame = self.pygame
        if self.screen is None:
            pygame.init()
            pygame.display.set_caption("Tetris Arena")
            self.screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            self.clock = pygame.time.Clock()
        pygame.event.pump()
        surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
        self.screen.blit(surface, (0, 0))
        pygame.display.flip()
        self.clock.tick(self.fps)

    def close(self) -> None:
        if self.screen is not None:
            self.pygame.display.quit()
            self.screen = None


def register_environments() -> None:
    """Registers ``tetris_arena/Tetris-v0`` (scalar and vector entry points) with Gymnasium;
    importing ``tetris_arena`` does it."""
    if ENV_ID not in gym.registry:
        gym.register(
            id=ENV_ID,
            entry_point="tetris_arena.envs:TetrisEnv",
            vector_entry_point="tetris_arena.envs:TetrisVectorEnv",
        )


def _default_game_over(searcher: str) -> str:
    """The game-over rule a searcher's games use by default (``arena list``)."""
    for entry in _native.searcher_list():
        if entry["name"] == searcher:
            return entry["game_over_rule"]
    return "simulation"  # an unknown searcher is refused by the games with the CLI's message


def _new_games(
    count: int,
    board_height: int,
    preview: int,
    generator: str,
    game_over: Optional[str],
    searcher: str,
    reward: str,
    max_pieces: Optional[int],
    illegal_action: str,
) -> _native.Games:
    """The native games of an environment's arguments (checked there, with the CLI's
    messages)."""
    return _native.Games(
        count,
        generator,
        board_height,
        preview,
        game_over or _default_game_over(searcher),
        searcher,
        reward,
        max_pieces,
        illegal_action,
    )


class _Buffers:
    """The arrays the native games write their observations and results into."""

    def __init__(self, games: _native.Games, count: int, height: int, preview: int) -> None:
        self.boards = np.zeros((count, height, 10), dtype=np.uint8)
        self.current = np.zeros(count, dtype=np.int64)
        self.preview = np.zeros((count, preview), dtype=np.int64)
        self.masks = np.zeros((count, games.action_count), dtype=np.uint8)
        self.rewards = np.zeros(count, dtype=np.float64)
        self.terminated = np.zeros(count, dtype=bool)
        self.truncated = np.zeros(count, dtype=bool)


def _spaces(height: int, preview: int) -> Tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict(
        {
            "board": spaces.Box(0, 1, shape=(height, 10), dtype=np.uint8),
            "current": spaces.Discrete(7),
            "preview": spaces.Box(0, 7, shape=(preview,), dtype=np.int64),
        }
    )
    return observation, spaces.Discrete(4 * (height + 1) * 10)


class TetrisEnv(gym.Env):
    """One game of Tetris, one placement per step (see the module documentation).

    Args:
        board_height: rows of the board (4 to 32; always 10 columns).
        preview: pieces shown after the current one (0 to 6).
        generator: uniform, nes, bag7, sz, java, mdptetris (preview 0 only) or file:PATH.
        game_over: ``"simulation"`` or ``"literature"``; default: the searcher's.
        searcher: the registered searcher whose placements are the legal actions.
        reward: ``"lines"`` or ``"score"`` (NES points).
        max_pieces: truncate the episode after this many pieces.
        illegal_action: ``"end"`` (the episode terminates) or ``"raise"``.
        render_mode: ``None``, ``"ansi"`` (text), ``"rgb_array"`` (an RGB image) or
            ``"human"`` (a window; needs pygame).
    """

    # "human" only where pygame is installed: the modes listed are the ones this
    # installation renders (Gymnasium's checker tries each).
    metadata = {
        "render_modes": ["ansi", "rgb_array"] + (["human"] if _HAS_PYGAME else []),
        "render_fps": 10,
    }

    @_in_range
    def __init__(
        self,
        board_height: int = 20,
        preview: int = 1,
        generator: str = "uniform",
        game_over: Optional[str] = None,
        searcher: str = "bfs",
        reward: str = "lines",
        max_pieces: Optional[int] = None,
        illegal_action: str = "end",
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode not in (None, "ansi", "rgb_array", "human"):
            raise ValueError(
                f"unknown render_mode {render_mode!r} (valid: ansi rgb_array human)"
            )
        self._window = _Window(self.metadata["render_fps"]) if render_mode == "human" else None
        self.games = _new_games(
            1, board_height, preview, generator, game_over, searcher, reward, max_pieces,
            illegal_action,
        )
        self.board_height = board_height
        self.preview = preview
        self.render_mode = render_mode
        self.observation_space, self.action_space = _spaces(board_height, preview)
        self._buffers = _Buffers(self.games, 1, board_height, preview)
        self._mask = np.zeros(self.games.action_count, dtype=np.int8)
        self._started = False

    def _observation(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        board, current, preview, mask = self.games.observe_one()
        self._mask = mask
        observation = {"board": board, "current": np.int64(current), "preview": preview}
        pieces, lines, score, _, level, last_clear = self.games.progress()[0]
        info = {
            "action_mask": mask,
            "pieces": pieces,
            "lines": lines,
            "score": score,
            "level": level,
            "last_clear": last_clear,
        }
        if self.render_mode == "human":
            self._window.show(self._frame())
        return observation, info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Starts a game; with ``seed``, the pieces of ``arena play --seed seed``."""
        if seed is not None:
            seed = _seed(seed)
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**63))
        self.games.reset(seed)
        self._started = True
        return self._observation()

    def step(self, action: Any) -> Tuple[Dict[str, Any], float, bool, bool, Dict[str, Any]]:
        """Plays the placement ``action`` names."""
        if not self._started:
            raise ValueError("call reset() before step()")
        action = _action(action)
        legal = 0 <= action < len(self._mask) and self._mask[action] == 1
        reward, terminated, truncated = self.games.step_one(action)
        observation, info = self._observation()
        if not legal:
            info["illegal_action"] = True
        if terminated or truncated:
            self._started = False
        return observation, reward, terminated, truncated, info

    def _frame(self) -> np.ndarray:
        """The ``rgb_array`` frame of the game as it stands."""
        b = self._buffers
        self.games.observe(b.boards, b.current, b.preview, b.masks)
        return _rgb_frame(b.boards[0], b.current[0], b.preview[0], self.lines, self.score)

    def render(self) -> Any:
        """The board as text with the pieces, pieces placed, lines and score (``"ansi"``), or
        as an ``(H * c, 16 * c, 3)`` ``uint8`` image (``"rgb_array"``, ``c =
        RENDER_CELL_PIXELS``); ``"human"`` shows that image in its window (and returns
        ``None``, as without a render mode)."""
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            self._window.show(self._frame())
            return None
        b = self._buffers
        if self.render_mode == "rgb_array":
            return self._frame()
        self.games.observe(b.boards, b.current, b.preview, b.masks)
        rows = ["|" + "".join("#" if c else "." for c in row) + "|" for row in b.boards[0]]
        letters = _native.PIECES + "-"  # index 7: the sequence has ended
        preview = "".join(letters[int(piece)] for piece in b.preview[0])
        rows.append(
            f"current {letters[int(b.current[0])]} preview {preview or '-'}  "
            f"pieces {self.pieces} lines {self.lines} score {self.score}"
        )
        return "\n".join(rows) + "\n"

    @property
    def pieces(self) -> int:
        """Pieces placed in this game."""
        return self.games.progress()[0][0]

    @property
    def lines(self) -> int:
        """Rows cleared in this game."""
        return self.games.progress()[0][1]

    @property
    def score(self) -> int:
        """NES score of this game."""
        return self.games.progress()[0][2]

    def close(self) -> None:
        """Closes the ``"human"`` window, if any."""
        if self._window is not None:
            self._window.close()
        super().close()

    def legal_placements(self) -> List[Tuple[int, int, int, int]]:
        """The legal actions with the placements they name: ``(action, x, y, rotation)``."""
        return self.games.legal_placements(0)

    def strategy_action(self, strategy: str) -> int:
        """The action strategy ``strategy`` (a CLI name) plays here, as in ``arena play``; -1
        when the game is over or the strategy plays none of the placements (``no-suicide``
        when every one ends the game: ``arena play`` ends the game there)."""
        return int(self.games.strategy_actions(strategy)[0])

    def action_features(self, evaluator: str) -> Tuple[np.ndarray, np.ndarray]:
        """The legal actions ``(n,)`` and the evaluator's features after each ``(n,
        features)``, in its feature order."""
        return self.games.action_features(0, evaluator)


class TetrisVectorEnv(VectorEnv):
    """``num_envs`` games stepped together in Rust, one placement each per ``step`` call
    (Gymnasium's vector API, next-step autoreset). ``num_envs`` is 1 to 16,384
    (``MAX_VECTOR_GAMES``); the other arguments are ``TetrisEnv``'s."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    @_in_range
    def __init__(
        self,
        num_envs: int,
        board_height: int = 20,
        preview: int = 1,
        generator: str = "uniform",
        game_over: Optional[str] = None,
        searcher: str = "bfs",
        reward: str = "lines",
        max_pieces: Optional[int] = None,
        illegal_action: str = "end",
        copy: bool = True,
    ) -> None:
        num_envs = _integer(num_envs, "num_envs")
        if not 1 <= num_envs <= _native.MAX_VECTOR_GAMES:
            raise ValueError(
                f"num_envs {num_envs} is outside 1..={_native.MAX_VECTOR_GAMES} "
                "(games in one vector environment)"
            )
        self.games = _new_games(
            num_envs, board_height, preview, generator, game_over, searcher, reward,
            max_pieces, illegal_action,
        )
        self.num_envs = num_envs
        self.copy = copy
        self.single_observation_space, self.single_action_space = _spaces(board_height, preview)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._buffers = _Buffers(self.games, num_envs, board_height, preview)
        self._rng = np.random.default_rng()

    def _observation(self) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        b = self._buffers
        self.games.observe(b.boards, b.current, b.preview, b.masks)
        observation = {"board": b.boards, "current": b.current, "preview": b.preview}
        masks = b.masks.view(np.int8)
        if self.copy:
            observation = {key: value.copy() for key, value in observation.items()}
            masks = masks.copy()
        legal, counts = self.games.legal_actions()
        return observation, {"action_mask": masks, "legal_actions": legal, "legal_count": counts}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Starts every game: game i with seed ``seed + i`` (``seed`` random when omitted)."""
        if seed is not None:
            seed = _seed(seed)
            self._rng = np.random.default_rng(seed)
        else:
            seed = int(self._rng.integers(0, 2**62))
        self.games.reset(seed)
        return self._observation()

    def step(
        self, actions: Any
    ) -> Tuple[Dict[str, Any], np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Plays one placement in every game (next-step autoreset)."""
        b = self._buffers
        actions = _actions(actions)
        self.games.step(actions, b.rewards, b.terminated, b.truncated, True)
        observation, info = self._observation()
        return observation, b.rewards.copy(), b.terminated.copy(), b.truncated.copy(), info

    def strategy_actions(self, strategy: str) -> np.ndarray:
        """The action strategy ``strategy`` plays in each game (-1 where a game has ended)."""
        return self.games.strategy_actions(strategy)

    @_in_range
    def action_features(self, index: int, evaluator: str) -> Tuple[np.ndarray, np.ndarray]:
        """Game ``index``'s legal actions and the evaluator's features after each."""
        return self.games.action_features(index, evaluator)
