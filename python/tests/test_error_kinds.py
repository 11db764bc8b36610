"""Every error of the libraries raises the Python exception of its kind, the one that decides
the command line's exit code too (docs/commands.md, "Exit codes"): bad input is a
`ValueError`, a file the system cannot read an `OSError` (`FileNotFoundError` when it is
missing), with the command line's message."""

from __future__ import annotations

import subprocess

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
