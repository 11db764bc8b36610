"""Shared helpers of the package's tests: the `arena` binary to compare with (its path in the
ARENA environment variable, set by arena/tests/python_package.rs) and the board corpus."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, List, Tuple

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
BOARDS = sorted((REPOSITORY / "tests" / "boards").glob("*.txt"))


def arena_binary() -> str:
    path = os.environ.get("ARENA")
    if not path:
        pytest.skip("ARENA (the arena binary to compare with) is not set")
    return path


def arena(*args: str) -> str:
    """The arena's standard output for `args` (it must succeed)."""
    done = subprocess.run([arena_binary(), *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def arena_json(*args: str) -> Any:
    return json.loads(arena(*args))


def arena_failure(*args: str) -> Tuple[int, str]:
    """The exit code and the message of the arena's `error:` line for `args` (it must fail)."""
    done = subprocess.run([arena_binary(), *args], capture_output=True, text=True)
    assert done.returncode != 0 and not done.stdout, (args, done.stdout, done.stderr)
    lines: List[str] = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return done.returncode, lines[0][len("error: ") :]


# The Python exception of each exit code of the command line (docs/commands.md, "Exit codes"):
# both front ends classify an error by its one kind.
EXCEPTION_OF_EXIT_CODE = {2: ValueError, 3: OSError, 4: RuntimeError, 5: RuntimeError}


def arena_error(*args: str) -> str:
    """The message of the arena's `error:` line for `args` (it must fail with code 2, bad
    input)."""
    code, message = arena_failure(*args)
    assert code == 2, (args, code, message)
    return message
