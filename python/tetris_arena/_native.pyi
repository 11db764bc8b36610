"""Type stubs of the Rust half of tetris_arena (python/src/). Use the documented wrappers in
``tetris_arena`` and ``tetris_arena.envs``; these are their building blocks."""

from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import numpy.typing as npt

PIECES: str
BOARD_WIDTH: int
MAX_VECTOR_GAMES: int
MAX_SEQUENCE_LETTERS: int
__version__: str

def searcher_list() -> List[Dict[str, Any]]: ...
def evaluator_list() -> List[Dict[str, Any]]: ...
def piece_cells(piece: str, rotation: int) -> List[Tuple[int, int]]: ...
def sequence(generator: str, seed: int, count: int) -> str: ...
def empty_board(height: str) -> npt.NDArray[np.uint8]: ...
def board_from_text(text: str, height: Optional[int] = None) -> npt.NDArray[np.uint8]: ...
def board_to_text(board: npt.NDArray[np.uint8]) -> str: ...
def features(board: npt.NDArray[np.uint8], evaluator: str) -> List[Tuple[str, float]]: ...
def placements(
    board: npt.NDArray[np.uint8], piece: str, searcher: str
) -> List[Tuple[int, int, int, List[Tuple[int, int]], Optional[str]]]: ...
def placement_features(
    board: npt.NDArray[np.uint8], piece: str, evaluator: str, searcher: str
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...
def analyze_json(
    strategy: str,
    board: npt.NDArray[np.uint8],
    pieces: str,
    all: bool,
    game_over: Optional[str],
) -> str: ...
def register_bot(
    function: Any, searcher: str, preview: int, action_index: bool, name: str
) -> str: ...
def play_json(
    strategy: str,
    seed: int,
    generator: str,
    max_pieces: Optional[int],
    board_height: int,
    game_over: Optional[str],
    placements: bool,
) -> str: ...
def tournament_json(
    strategies: List[str],
    games: int,
    seed: int,
    generator: str,
    max_pieces: Optional[int],
    board_height: int,
    game_over: Optional[str],
    jobs: Optional[int],
    shard: Optional[str] = None,
    out: Optional[str] = None,
) -> str: ...
def nes_json(
    strategy: str,
    games: int,
    seed: int,
    start_level: int,
    to_level: int,
    tap_rate: Optional[int],
    game_over: Optional[str],
    inputs: str,
    jobs: Optional[int],
    shard: Optional[str] = None,
    out: Optional[str] = None,
    max_lines: Optional[int] = None,
    timeline: Optional[str] = None,
    reaction_frames: int = 0,
    trace: Optional[str] = None,
) -> str: ...
def stats_json(
    strategy: str,
    pieces: int,
    seed: int,
    generator: str,
    board_height: int,
    game_over: Optional[str],
    row: str,
    blocks: Optional[int],
    jobs: Optional[int],
    shard: Optional[str] = None,
    out: Optional[str] = None,
) -> str: ...

class Games:
    """N games of the same rules stepped together (python/src/games.rs)."""

    action_count: int
    def __init__(
        self,
        count: int,
        generator: str,
        board_height: int,
        preview: int,
        game_over: str,
        searcher: str,
        reward: str,
        max_pieces: Optional[int],
        illegal_action: str,
    ) -> None: ...
    def reset(self, seed: int) -> None: ...
    def reset_game(self, index: int, seed: int) -> None: ...
    def step(
        self,
        actions: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        autoreset: bool,
    ) -> None: ...
    def observe(
        self,
        boards: npt.NDArray[np.uint8],
        current: npt.NDArray[np.int64],
        preview: npt.NDArray[np.int64],
        masks: npt.NDArray[np.uint8],
    ) -> None: ...
    def step_one(self, action: int) -> Tuple[float, bool, bool]: ...
    def observe_one(
        self,
    ) -> Tuple[npt.NDArray[np.uint8], int, npt.NDArray[np.int64], npt.NDArray[np.int8]]: ...
    def legal_actions(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]: ...
    def progress(self) -> List[Tuple[int, int, int, int]]: ...
    def legal_placements(self, index: int) -> List[Tuple[int, int, int, int]]: ...
    def strategy_actions(self, name: str) -> npt.NDArray[np.int64]: ...
    def action_features(
        self, index: int, evaluator: str
    ) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]: ...
