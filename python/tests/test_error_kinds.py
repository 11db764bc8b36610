"""Every error of the libraries raises the Python exception of its kind, the one that decides
the command line's exit code too (docs/commands.md, "Exit codes"): bad input is a
`ValueError`, a file the system cannot read an `OSError` (`FileNotFoundError` when it is
missing), with the command line's message."""

from __future__ import annotations

import csv
import signal
import subprocess
import sys
import time

import pytest

import tetris_arena as ta
from conftest import arena_binary


def run_arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([arena_binary(), *args], capture_output=True, text=True)


def test_a_missing_file_raises_file_not_found_with_the_command_lines_message(tmp_path):
    missing = tmp_path / "pieces.txt"
    with pytest.raises(FileNotFoundError) as raised:
        ta.sequence(3, generator=f"file:{missing}")
    cli = run_arena("sequence", "--generator", f"file:{missing}", "--count", "3")
    # The command line says the same, with the exit code of an I/O error.
    assert cli.returncode == 3
    assert cli.stderr.strip() == f"error: {raised.value}"
    assert str(missing) in str(raised.value)
    assert isinstance(raised.value, OSError)
    assert not isinstance(raised.value, ValueError)


def test_a_file_that_is_there_but_wrong_is_bad_input(tmp_path):
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("T X\n")
    with pytest.raises(ValueError):
        ta.sequence(3, generator=f"file:{pieces}")
    cli = run_arena("sequence", "--generator", f"file:{pieces}", "--count", "3")
    assert cli.returncode == 2


def interrupt_call(call: str, after: float) -> tuple[subprocess.Popen, str, float]:
    """Runs ``call`` (a ``tetris_arena`` call as text, ``ta`` imported) in a Python of its own,
    sends it SIGINT ``after`` seconds after the call starts, and gives the process, its stderr
    and the seconds from the signal to its end. Python raises KeyboardInterrupt on SIGINT
    unless it started with SIGINT ignored (as a job started in the background of a
    non-interactive shell, CI's, does): the script installs Python's own handler, as an
    interactive session has it."""
    script = (
        "import signal\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import tetris_arena as ta\n"
        "print('started', flush=True)\n"
        f"{call}\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout.readline().strip() == "started"
        # The call is under way well within a second of the print; the signal then reaches
        # the interpreter while the run plays.
        time.sleep(after)
        process.send_signal(signal.SIGINT)
        signalled = time.monotonic()
        _, stderr = process.communicate(timeout=120)
        stopped = time.monotonic() - signalled
    finally:
        process.kill()
        process.wait()
    return process, stderr, stopped


def test_ctrl_c_stops_a_run_and_raises_keyboard_interrupt():
    # A tournament that would run for hours (strong strategies, no piece cap, a million
    # games): Ctrl-C (SIGINT) stops it and raises KeyboardInterrupt, as the command line stops
    # with exit code 130.
    process, stderr, stopped = interrupt_call(
        "ta.tournament(['bfs+elashi@2'], games=1000000, seed=1, jobs=1)", after=1.0
    )
    assert process.returncode != 0, stderr
    assert stderr.strip().splitlines()[-1] == "KeyboardInterrupt", stderr
    # Within a second: the run stops after each game's current piece, and the call looks for
    # signals every 50 ms.
    assert stopped < 1.0, f"the process ended {stopped:.2f} s after SIGINT"
    # The tournament has no piece cap: the command line's note came first, as a warning.
    assert "RuntimeWarning: no max_pieces" in stderr, stderr


def test_ctrl_c_keeps_the_finished_games_where_the_command_line_keeps_them(tmp_path):
    # As `arena tournament --out` after its first Ctrl-C: the finished games are written to
    # `out` (a CSV holds every game, whatever the run's size), and then the call raises
    # KeyboardInterrupt. Games on a 4-row board end within a few pieces, so thousands finish
    # in the second before the signal.
    out = tmp_path / "run.csv"
    _, stderr, _ = interrupt_call(
        "ta.tournament(['bfs+elashi', 'bfs+dellacherie'], games=10000000, seed=1, jobs=1,"
        f" board_height=4, out={str(out)!r})",
        after=1.5,
    )
    assert stderr.strip().splitlines()[-1] == "KeyboardInterrupt", stderr
    rows = list(csv.DictReader(out.read_text().splitlines()))
    seeds = {"bfs+elashi": [], "bfs+dellacherie": []}
    for row in rows:
        seeds[row["strategy"]].append(int(row["seed"]))
    # Every game kept is one that finished, in order from the first seed (game k is seed
    # 1 + k), and nothing else. With one job the games run one after the other, each game's
    # strategies in turn, so at the signal only the game then running is dropped: the second
    # strategy may have one game fewer than the first.
    finished = len(seeds["bfs+elashi"])
    assert finished > 0
    assert seeds["bfs+elashi"] == list(range(1, finished + 1))
    second = len(seeds["bfs+dellacherie"])
    assert second in (finished - 1, finished)
    assert seeds["bfs+dellacherie"] == list(range(1, second + 1))
