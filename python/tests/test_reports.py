"""What the package's reports say about their numbers: the same statistics as the `arena`
binary's, by the same rules (docs/statistics.md, docs/tournaments.md)."""

from __future__ import annotations

import math

import tetris_arena as ta
from conftest import arena_json


def test_the_interval_of_mean_lines_stays_between_zero_and_the_caps_most_lines():
    # Two games of 11 and 5 lines: mean 8, standard deviation sqrt(18), standard error 3;
    # t(0.975, 1) = tan(0.475 pi), so Student's interval is 8 +- 38.1, whose low end (-30.1)
    # no mean of line counts can be: the reported interval starts at 0.
    report = ta.tournament(
        ["column-drop+elashi"], games=2, seed=0, board_height=8, max_pieces=100, jobs=1
    )
    assert [game["lines"] for game in report["games"]] == [11, 5]
    lines = report["summary"][0]["lines"]
    assert math.isclose(lines["standard_error"], 3.0, rel_tol=1e-12)
    low, high = lines["interval_95"]
    assert low == 0.0
    # Student's high end, 8 + 38.1, is past the 40 lines 100 pieces can clear at most (400
    # cells): the interval stops there.
    assert 8.0 + math.tan(0.475 * math.pi) * 3.0 > 40.0
    assert high == 40.0
    assert "cut at 0 below" in report["settings"]["interval_rule"]
    expected = arena_json(
        "tournament", "column-drop+elashi", "--games", "2", "--seed", "0",
        "--board-height", "8", "--max-pieces", "100", "--json",
    )
    assert report["summary"] == expected["summary"]
