#!/usr/bin/env python3
"""End-to-end test of the live arena page (`arena web PAGE.html`) in headless Chromium (Debian's
/usr/bin/chromium, driven by Playwright; scripts/install-browser-test-deps.sh installs both).

It writes the page with `arena web`, opens it from file://, and checks that:
  - Watch plays bfs+elashi@2, column-drop+dellacherie and gamepad+nes-plateau@2 (the last at a
    finite speed with its paths animated) for 200 pieces from fixed seeds, and every placement
    (piece, x, y, rotation, rows cleared), the lines and the score are those of
    `arena play STRATEGY --seed S --max-pieces 200 --json`; a strategy the arena refuses shows
    the command line's one-line message;
  - Duel plays bfs+elashi@2 against gamepad+nes-plateau@2 on the same pieces, each game the
    command line's; the gamepad side shows one level, 19 (its gravity's), and a score counted
    from it (worked out here from the rules), and the lead follows the measure picked (lines or
    score) with the command line's numbers;
  - a link with values the arena refuses (`#seed=abc&height=99&max=-5`, each alone, and an
    Analyse level of 300) shows the command line's message for them and plays nothing;
  - Analyse ranks four named boards (the documents' example board with T then L, an empty
    board with a gamepad strategy at level 18 and tap rate 3, a deep well with I then T, and
    the same well with a gamepad strategy at level 19 and the mixed input-frame timeline
    X....X...X...) as
    `arena analyze STRATEGY --board FILE --pieces P --json --all` does: the same placements,
    each with the same value, chain length, rule, features and path (JSON numbers equal), and
    ranks that follow from those values;
  - a board edited by clicks and keys is the board shown and the board analysed, and clicking a
    placement plays its path to where it locks;
  - a shared link (the URL with its #fragment) opened in a fresh page restores the same fields,
    board and analysis, and a Watch link plays the same game again;
  - a newer analysis does not wait for one still running: the busy worker is stopped;
  - the page loads nothing but itself (its file:// URL; the workers' blob: URLs) and logs no
    error.
Screenshots of each view go to the output folder.

With --bench N it measures instead: bfs+elashi@2 and column-drop+dellacherie, seed 1, N pieces
in Watch at the highest speed without path animation, the engine's pieces/s in the page's
worker (its own compute time) and over the whole game (wall clock), beside the native
`arena play ... --max-pieces N` speed of the same --arena binary (scripts/bench-web.sh runs it
with the release build). Nothing is asserted about speed.

Usage: test_web_page.py --arena PATH/TO/arena --out DIR [--bench N]
Prints one line per check and ends with 'N passed, N failed'; exits 1 if any failed.
"""

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from playwright.sync_api import sync_playwright

from test_pages import CHROMIUM, CHROMIUM_FLAGS, RESULTS, arena, check, recorded

PLACEMENT_FIELDS = ("piece", "x", "y", "rotation", "cleared")
# The fields of one placement in `arena analyze --json --all`, which the page's analysis
# (the server's /v1/analyze answer) must give alike.
ANALYSIS_FIELDS = ("piece", "x", "y", "rotation", "cells", "value", "chain_length", "rule",
                   "features", "path")
RULES = {"prefer": 0, "neutral": 1, "reject": 2}

EXAMPLE_BOARD = ["." * 10] * 13 + [
    "....#.....",
    "#..###....",
    "##.####.#.",
    "###.#####.",
    "#####.###.",
    "##.######.",
    "#########.",
]
EMPTY_BOARD = ["." * 10] * 20
WELL_BOARD = ["." * 10] * 10 + [
    "#.........",
    "##......#.",
    "###..####.",
    "####.####.",
    "######.##.",
    "#########.",
    "#########.",
    "#.#######.",
    "#########.",
    "#########.",
]


def wait_until(condition, what, timeout=120):
    """Polls `condition` until it is true (the page's Content-Security-Policy forbids the
    evaluated strings of Playwright's wait_for_function)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise TimeoutError(f"waited {timeout} s for {what}")


class LivePage:
    """The live page open in the browser, with its requests and errors recorded."""

    def __init__(self, context, url):
        self.page = context.new_page()
        self.requests, self.errors = recorded(self.page)
        self.file_url = url.split("#")[0]
        self.page.goto(url)
        wait_until(lambda: self.page.get_attribute("body", "data-ready") == "yes", "the engine")

    def hook(self, expression):
        """A value of the page's test hook, `window.arenaPage`."""
        return self.page.evaluate(f"() => window.arenaPage.{expression}")

    def lane(self, name):
        return self.hook(f"lanes[{json.dumps(name)}]")

    def wait_lane(self, name):
        wait_until(
            lambda: self.page.get_attribute(f"#{name}-lane", "data-state") in ("ended", "error"),
            f"the game of {name}",
            timeout=300,
        )
        return self.lane(name)

    def set_game_settings(self, seed, pieces, speed="max", animate=False, height=20):
        self.page.fill("#seed", str(seed))
        self.page.fill("#max-pieces", str(pieces))
        self.page.fill("#height", str(height))
        self.page.select_option("#speed", speed)
        self.page.set_checked("#animate", animate)

    def watch(self, strategy, seed, pieces, speed="max", animate=False):
        self.page.click("#tab-watch")
        self.page.fill("#watch-strategy", strategy)
        self.set_game_settings(seed, pieces, speed, animate)
        self.page.click("#watch-play")
        return self.wait_lane("watch")

    def analyse(self, strategy, rows, current, preview, level=None, tap_rate=None, top=200):
        """Sets the Analyse view's fields and board (pasted as rows); the analysis."""
        page = self.page
        page.click("#tab-analyse")
        page.fill("#analyse-strategy", strategy)
        page.select_option("#current", current)
        page.fill("#preview", preview)
        page.fill("#top", str(top))
        if level is not None:
            page.fill("#level", str(level))
        # A tap rate goes in its menu, a timeline (`X` and dots) in its field; the other is
        # emptied (the server refuses both at once).
        if isinstance(tap_rate, str):
            page.select_option("#tap-rate", "")
            page.fill("#timeline", tap_rate)
        elif tap_rate is not None:
            page.fill("#timeline", "")
            page.select_option("#tap-rate", str(tap_rate))
        page.fill("#board-text", "\n".join(rows))
        page.click("#board-load")
        return self.wait_analysis(rows, strategy, current + preview)

    def wait_analysis(self, rows, strategy, pieces, timeout=120):
        board = "/".join(rows)

        def analysed():
            table = self.page.locator("#analysis")
            if table.get_attribute("data-state") not in ("done", "error"):
                return False
            if table.get_attribute("data-board") != board:
                return False
            body = self.hook("analysis.body")
            return body["strategy"] == strategy and body["current"] + "".join(body["preview"]) == pieces

        wait_until(analysed, f"the analysis of {strategy} {pieces}", timeout)
        return self.hook("analysis")

    def self_contained(self, name):
        others = [
            url for url in self.requests
            if url.split("#")[0] != self.file_url and not url.startswith(("blob:", "data:"))
        ]
        check(f"{name}: loads nothing but itself", others == [], str(others[:5]))
        check(f"{name}: no script error", self.errors == [], str(self.errors[:5]))


def cli_game(binary, strategy, seed, pieces):
    return json.loads(arena(binary, "play", strategy, "--seed", str(seed), "--max-pieces",
                            str(pieces), "--json"))


def first_difference(shown, expected):
    for index, (a, b) in enumerate(zip(shown, expected)):
        if a != b:
            return f"placement {index + 1}: page {a}, arena {b}"
    return f"page {len(shown)} placements, arena {len(expected)}"


def check_game(name, lane, cli):
    """The lane's game is the command line's: every placement, the lines, the score, the end."""
    shown = [{key: p[key] for key in PLACEMENT_FIELDS} for p in lane["placements"]]
    expected = [{key: p[key] for key in PLACEMENT_FIELDS} for p in cli["placements"]]
    check(
        f"{name}: all {len(expected)} placements are `arena play --json`'s",
        shown == expected and lane["error"] is None,
        lane["error"] or first_difference(shown, expected),
    )
    last = lane["placements"][-1] if lane["placements"] else {"lines": 0, "score": 0}
    check(
        f"{name}: {cli['lines']} lines, score {cli['score']}, "
        f"{'game over' if cli['game_over'] else 'piece cap'}",
        (last["lines"], last["score"], lane["end"] == "game_over", lane["shown"])
        == (cli["lines"], cli["score"], cli["game_over"], len(expected)),
        f"page {last['lines']} lines, score {last['score']}, end {lane['end']}, "
        f"{lane['shown']} shown",
    )


def expected_ranks(placements):
    """Each placement's rank from the command line's values: 1 + the placements with a strictly
    better chain (longer, then a better rule, then a lower cost); None without a chain."""
    def key(p):
        return (-p["chain_length"], RULES[p["rule"]], p["value"])
    ranked = [p for p in placements if p["value"] is not None]
    return {
        (p["x"], p["y"], p["rotation"]):
            None if p["value"] is None else 1 + sum(1 for q in ranked if key(q) < key(p))
        for p in placements
    }


def check_analysis(name, analysis, cli, top=200):
    """The page's analysis is `arena analyze --json --all`'s: the same placements with the same
    values, features and paths; ranks that follow from the values, best first."""
    if "error" in analysis:
        check(f"{name}: analysed", False, analysis["error"])
        return
    answer = analysis["answer"]
    everything = cli["placements"]
    shown = answer["placements"]
    check(
        f"{name}: {len(everything)} placements of {cli['pieces'][0]}, as the command line",
        answer["placement_count"] == len(everything)
        and len(shown) == min(top, len(everything))
        and answer["pieces"] == cli["pieces"],
        f"page {answer['placement_count']} ({len(shown)} listed), arena {len(everything)}",
    )
    by_key = {(p["x"], p["y"], p["rotation"]): p for p in everything}
    differences = []
    for placement in shown:
        expected = by_key.get((placement["x"], placement["y"], placement["rotation"]))
        if expected is None:
            differences.append(f"no such placement in the arena's: {placement}")
            continue
        for field in ANALYSIS_FIELDS:
            if placement[field] != expected[field]:
                differences.append(f"{field} of {placement['x'], placement['y'], placement['rotation']}: "
                                   f"page {placement[field]}, arena {expected[field]}")
    check(f"{name}: every placement's value, chain, rule, features and path are the arena's",
          differences == [], "; ".join(differences[:3]))
    ranks = expected_ranks(everything)
    wrong = [
        (p["x"], p["y"], p["rotation"], p["rank"]) for p in shown
        if p["rank"] != ranks[(p["x"], p["y"], p["rotation"])]
    ]
    in_order = all(
        (a["rank"] or 10**9) <= (b["rank"] or 10**9) for a, b in zip(shown, shown[1:])
    )
    check(f"{name}: ranks follow from the arena's values, best first", wrong == [] and in_order,
          str(wrong[:3]))
    if cli["best"] is not None and shown:
        check(f"{name}: the best value is the arena's best", shown[0]["value"] == cli["best"]["value"],
              f"page {shown[0]['value']}, arena {cli['best']['value']}")


def analyze_args(folder, name, strategy, rows, pieces, level=None, tap_rate=None):
    """`arena analyze`'s arguments for a position (its board written to `folder`)."""
    board = folder / f"{name}.board"
    board.write_text("\n".join(rows) + "\n")
    args = ["analyze", strategy, "--board", str(board), "--pieces", pieces,
            "--board-height", str(len(rows))]
    if level is not None:
        args += ["--level", str(level)]
    if isinstance(tap_rate, str):
        args += ["--timeline", tap_rate]
    elif tap_rate is not None:
        args += ["--tap-rate", str(tap_rate)]
    return args


def cli_analysis(binary, folder, name, strategy, rows, pieces, level=None, tap_rate=None):
    args = analyze_args(folder, name, strategy, rows, pieces, level, tap_rate)
    return json.loads(arena(binary, *args, "--json", "--all"))


def cli_value_text(binary, folder, name, strategy, rows, pieces, level=None, tap_rate=None):
    """The best chain's value as `arena analyze`'s text prints it (`value: X (…)`)."""
    args = analyze_args(folder, name, strategy, rows, pieces, level, tap_rate)
    text = arena(binary, *args)
    line = next(line for line in text.splitlines() if line.startswith("value: "))
    return line.removeprefix("value: ").split(" (")[0]


def error_line(binary, *args):
    """The arena's one-line error message (without `error: `) for a command that fails."""
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    line = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    return done.returncode, line.removeprefix("error: ")


# ---- The checks ----


def test_watch(live, binary, folder):
    games = [
        ("bfs+elashi@2", 1, "max", False),
        ("column-drop+dellacherie", 2, "max", False),
        # At 500 pieces/s with the paths animated: the page asks for each path, the same game.
        ("gamepad+nes-plateau@2", 3, "500", True),
    ]
    for strategy, seed, speed, animate in games:
        lane = live.watch(strategy, seed, 200, speed, animate)
        name = f"watch {strategy} seed {seed}" + (" (paths animated)" if animate else "")
        check_game(name, lane, cli_game(binary, strategy, seed, 200))
        lines = int(live.page.inner_text("#watch-lines").replace(",", ""))
        score = int(live.page.get_attribute("#watch-score", "data-value"))
        check(f"{name}: the counts shown are the game's",
              (lines, score) == (lane["placements"][-1]["lines"], lane["placements"][-1]["score"]))
        if animate:
            check(f"{name}: each placement came with its path",
                  all(p.get("inputs", 0) > 0 for p in lane["placements"]))
        live.page.screenshot(path=str(folder / f"watch-{strategy.split('+')[0]}.png"), full_page=True)
    # A strategy the arena refuses: the command line's message.
    code, message = error_line(binary, "play", "nope+elashi@2", "--max-pieces", "200")
    lane = live.watch("nope+elashi@2", 1, 200)
    shown = live.page.inner_text("#watch-error")
    check("watch: a refused strategy shows the command line's message",
          code != 0 and lane["error"] == message and shown == message,
          f"page {shown!r}, arena {message!r}")
    # The largest seed: 64 bits, more than a JavaScript number holds exactly.
    big = 18446744073709551615
    lane = live.watch("column-drop+dellacherie", big, 50)
    check_game(f"watch column-drop+dellacherie seed {big}", lane,
               cli_game(binary, "column-drop+dellacherie", big, 50))


def score_from_level_19(placements):
    """The NES score and level of a game that falls 2 frames per row all through, worked out
    from docs/spec/rules.md apart from the arena: it starts at level 19 (the first level of that
    gravity), levels up at 140 lines and then every 10, up to 28 (the last of that gravity); a
    clear of n rows scores [0, 40, 100, 300, 1200][n] x (level + 1) after its own level-up."""
    lines, level, score = 0, 19, 0
    for placement in placements:
        for _ in range(placement["cleared"]):
            lines += 1
            if lines >= 140 and lines % 10 == 0 and level < 28:
                level += 1
        score += [0, 40, 100, 300, 1200][placement["cleared"]] * (level + 1)
    return min(score, 999_999), level


def duel_leader(a, b, first, second):
    """'a', 'b' or 'tie' by `first`, then `second`."""
    key_a, key_b = (a[first], a[second]), (b[first], b[second])
    return "a" if key_a > key_b else "b" if key_a < key_b else "tie"


def test_duel(live, binary, folder):
    # The case: a searcher without gravity against the gravity-aware gamepad.
    page = live.page
    page.click("#tab-duel")
    strategies = ("bfs+elashi@2", "gamepad+nes-plateau@2")
    page.fill("#duel-a-strategy", strategies[0])
    page.fill("#duel-b-strategy", strategies[1])
    page.select_option("#duel-rank", "lines")
    live.set_game_settings(4, 200)
    page.click("#duel-play")
    games = []
    for side, strategy in zip("ab", strategies):
        lane = live.wait_lane(f"duel-{side}")
        cli = cli_game(binary, strategy, 4, 200)
        check_game(f"duel {side.upper()} {strategy} seed 4", lane, cli)
        games.append(cli)
    a, b = games
    # B's one level: the level of its gravity, and the level its score counts from.
    score, level = score_from_level_19(b["placements"])
    shown_level = int(page.inner_text("#duel-b-level"))
    shown_score = int(page.get_attribute("#duel-b-score", "data-value"))
    check(
        f"duel: the gamepad side shows level {level} and the score from it ({score:,})",
        b["lines"] > 0 and (shown_level, shown_score) == (level, score)
        and (b["start_level"], b["level"], b["score"]) == (19, level, score),
        f"page level {shown_level}, score {shown_score}; arena {b['level']}, {b['score']}",
    )
    check("duel: the side without gravity counts from level 0",
          int(page.inner_text("#duel-a-level")) == a["lines"] // 10 == a["level"])
    text = page.inner_text("#duel-score")
    leader = duel_leader(a, b, "lines", "score")
    check(
        "duel: ranked by lines, the lead is the arena's lines (then score), said in lines",
        page.get_attribute("#duel-score", "data-leader") == leader
        and f"{a['lines']:,} lines" in text and f"{b['lines']:,} lines" in text
        and f"score {a['score']:,}" in text and f"score {b['score']:,}" in text
        and (leader == "tie" or (" line" in text.split("leads by")[1])),
        text,
    )
    page.select_option("#duel-rank", "score")
    text = page.inner_text("#duel-score")
    leader = duel_leader(a, b, "score", "lines")
    points = abs(a["score"] - b["score"])
    check(
        "duel: ranked by score, the lead is the arena's score, said in points",
        page.get_attribute("#duel-score", "data-leader") == leader
        and (leader == "tie" or f"{leader.upper()} leads by {points:,} point" in text),
        text,
    )
    check("duel: the measure is in the link", "rank=score" in page.url, page.url)
    page.select_option("#duel-rank", "lines")
    page.screenshot(path=str(folder / "duel.png"), full_page=True)


# The page's bodies are the move server's JSON: its messages name each value by the body's
# field (docs/server.md), where the command line names its option.
JSON_FIELDS = {"--seed": "seed", "--board-height": "board_height", "--max-pieces": "max_pieces",
               "--level": "level"}


def in_json_words(message, option):
    """The command line's `message` about `option`, naming it as a JSON body does."""
    assert message.startswith(option + " "), message
    return JSON_FIELDS[option] + message[len(option):]


def test_bad_link(context, binary, page_url):
    """A link's values go through the request layer: a value it refuses shows its message
    (the command line's for the same value, naming the value as the JSON bodies do) and plays
    nothing; none is clamped."""
    cases = [
        ("seed=abc&height=99&max=-5", "--seed", ["--seed", "abc", "--board-height", "99",
                                                 "--max-pieces=-5"]),
        ("seed=1&height=99&max=5", "--board-height",
         ["--seed", "1", "--board-height", "99", "--max-pieces", "5"]),
        ("seed=1&height=12&max=-5", "--max-pieces",
         ["--seed", "1", "--board-height", "12", "--max-pieces=-5"]),
    ]
    for fragment, option, cli_args in cases:
        code, message = error_line(binary, "play", "bfs+elashi", *cli_args)
        message = in_json_words(message, option)
        fresh = LivePage(context, f"{page_url}#view=watch&strategy=bfs%2Belashi&{fragment}")
        lane = fresh.wait_lane("watch")
        shown = fresh.page.inner_text("#watch-error")
        check(
            f"bad link #{fragment}: the page says the arena's message and plays nothing",
            code == 2 and lane["error"] == message and shown == message and lane["shown"] == 0,
            f"page {shown!r} ({lane['shown']} shown), arena {message!r}",
        )
        check(f"bad link #{fragment}: the fields keep the values as given",
              (fresh.page.input_value("#seed"), fresh.page.input_value("#height"),
               fresh.page.input_value("#max-pieces"))
              == tuple(part.split("=")[1] for part in fragment.split("&")))
        fresh.self_contained(f"bad link #{fragment}")
        fresh.page.close()
    # Analyse's level, as typed in a link.
    board = Path(tempfile.mkdtemp()) / "empty.board"
    board.write_text("\n".join(EMPTY_BOARD) + "\n")
    code, message = error_line(binary, "analyze", "gamepad+nes-plateau", "--board", str(board),
                               "--pieces", "T", "--level", "300")
    message = in_json_words(message, "--level")
    fresh = LivePage(context, f"{page_url}#view=analyse&analyse=gamepad%2Bnes-plateau&current=T"
                              "&preview=&level=300")
    wait_until(lambda: fresh.page.get_attribute("#analysis", "data-state") == "error",
               "the refused analysis")
    shown = fresh.page.inner_text("#analysis-error")
    check("bad link level=300: the analysis shows the arena's message",
          code == 2 and shown == message, f"page {shown!r}, arena {message!r}")
    fresh.page.close()


BOARDS = [
    # name, strategy, rows, current, preview, level, tap rate (or a timeline, as text)
    ("example board", "bfs+elashi@2", EXAMPLE_BOARD, "T", "L", None, None),
    ("empty board", "gamepad+nes-plateau@2", EMPTY_BOARD, "S", "Z", 18, 3),
    ("deep well", "column-drop+dellacherie@2", WELL_BOARD, "I", "T", None, None),
    ("deep well, mixed timeline", "gamepad+nes-plateau@2", WELL_BOARD, "I", "T", 19, "X....X...X..."),
]


def test_analyse(live, binary, folder):
    for name, strategy, rows, current, preview, level, tap_rate in BOARDS:
        analysis = live.analyse(strategy, rows, current, preview, level, tap_rate)
        cli = cli_analysis(binary, folder, name.replace(" ", "-"), strategy, rows,
                           current + preview, level, tap_rate)
        label = f"analyse {name} ({strategy}, {current} then {preview})"
        check_analysis(label, analysis, cli)
        check(f"{label}: the board shown is the board given",
              live.page.get_attribute("#analyse-board", "data-board") == "/".join(rows))
        first = live.page.inner_text("#analysis tbody tr:first-child td:nth-child(2)")
        printed = cli_value_text(binary, folder, name.replace(" ", "-"), strategy, rows,
                                 current + preview, level, tap_rate)
        check(f"{label}: the table shows the best value as the arena's text prints it",
              first == printed, f"{first} vs {printed}")
    live.page.screenshot(path=str(folder / "analyse.png"), full_page=True)


def test_cancel(live, binary, folder):
    """A newer analysis does not wait for one still running (an expectimax@4 of the NES bot
    on an empty board takes half a minute): the page stops the busy worker and asks a new one."""
    page = live.page
    page.click("#tab-analyse")
    # The board's height as the 20 rows given (an earlier test left 16).
    page.fill("#height", "20")
    page.dispatch_event("#height", "change")
    page.fill("#board-text", "\n".join(EMPTY_BOARD))
    page.click("#board-load")
    page.fill("#top", "200")
    page.select_option("#current", "T")
    page.fill("#preview", "IOS")
    page.fill("#level", "0")
    page.fill("#analyse-strategy", "gamepad+nes-plateau,expectimax@4")
    time.sleep(1.5)
    check("cancel: the deep analysis is still running",
          page.get_attribute("#analysis", "data-state") == "pending")
    started = time.monotonic()
    page.fill("#preview", "I")
    page.fill("#level", "")
    page.fill("#analyse-strategy", "bfs+elashi@2")
    analysis = live.wait_analysis(EMPTY_BOARD, "bfs+elashi@2", "TI", timeout=15)
    took = time.monotonic() - started
    cli = cli_analysis(binary, folder, "after-cancel", "bfs+elashi@2", EMPTY_BOARD, "TI")
    check_analysis("cancel: the next analysis", analysis, cli)
    check(f"cancel: the next analysis came in {took:.1f} s, without waiting", took < 10)


def cell_index(row, column):
    return row * 10 + column


def test_editing(live, binary, folder):
    page = live.page
    page.click("#tab-analyse")
    # What the page takes from the arena: the tap rates (`--tap-rate`: 2 to 8) and the
    # documents' example position (docs/server-performance.md), 20 rows of a 20-row field.
    options = page.eval_on_selector_all("#tap-rate option", "os => os.map(o => o.value)")
    check("edit: the tap-rate menu lists 2 to 8", options == ["", "2", "3", "4", "5", "6", "7", "8"], str(options))
    page.fill("#height", "20")
    page.click("#board-example")
    example = ["." * 10] * 13 + [
        "....#.....", "#..###....", "##.####.#.", "###.#####.", "#####.###.", "##.######.",
        "#########.",
    ]
    shown = page.get_attribute("#analyse-board", "data-board")
    check("edit: the example board is the documents' position", shown == "/".join(example), shown)
    page.fill("#analyse-strategy", "bfs+elashi@2")
    page.select_option("#current", "T")
    page.fill("#preview", "L")
    page.click("#board-clear")
    cells = page.locator("#analyse-board .cell")
    for column in range(9):
        cells.nth(cell_index(19, column)).click()
    cells.nth(cell_index(18, 0)).click()
    cells.nth(cell_index(18, 0)).click()  # and back
    cells.nth(cell_index(18, 1)).click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")  # the focused cell: row 18, column 2
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")  # row 17, column 2
    rows = ["." * 10] * 17 + ["..#.......", ".##.......", "#########."]
    shown = page.get_attribute("#analyse-board", "data-board")
    check("edit: clicks and keys toggle the cells", shown == "/".join(rows), shown)
    pressed = page.locator("#analyse-board .cell[aria-pressed=true]").count()
    check("edit: the filled cells are pressed buttons", pressed == 12, str(pressed))
    analysis = live.wait_analysis(rows, "bfs+elashi@2", "TL")
    cli = cli_analysis(binary, folder, "edited", "bfs+elashi@2", rows, "TL")
    check_analysis("edit: the analysis follows the edited board", analysis, cli, top=200)

    # Clicking a placement plays its path and leaves the piece where it locks.
    placement = analysis["answer"]["placements"][1]
    page.locator("#analysis tbody tr").nth(1).locator("button").click()
    wait_until(lambda: page.get_attribute("#analyse-board", "data-path-step") == "-1",
               "the path's animation")
    falling = sorted(
        int(index) for index in page.eval_on_selector_all(
            "#analyse-board .cell.falling", "cells => cells.map(c => c.dataset.index)")
    )
    expected = sorted(cell_index(y, x) for x, y in placement["cells"] if y >= 0)
    states = placement["states"]
    check(
        "edit: a clicked placement's path ends where it locks",
        falling == expected
        and states[-3:] == [placement["x"], placement["y"], placement["rotation"]]
        and page.get_attribute("#analyse-board", "data-board") == "/".join(rows),
        f"page cells {falling}, placement {expected}",
    )


def fields(page):
    ids = ["analyse-strategy", "current", "preview", "level", "tap-rate", "top", "height",
           "watch-strategy", "duel-a-strategy", "duel-b-strategy", "seed", "generator",
           "max-pieces", "speed", "duel-rank"]
    return {i: page.input_value(f"#{i}") for i in ids}


def without_timing(analysis):
    answer = dict(analysis["answer"])
    answer.pop("ms", None)
    answer.pop("microseconds", None)
    return {"body": analysis["body"], "answer": answer}


def test_share(context, live, binary):
    # Analyse: the gamepad strategy on the example board, with level and tap rate.
    analysis = live.analyse("gamepad+nes-plateau@2", EXAMPLE_BOARD, "J", "I", 19, 4, top=7)
    url = live.page.url
    check("share: the URL holds the state in its #fragment",
          "#" in url and "view=analyse" in url and "tap=4" in url, url)
    before = fields(live.page)
    fresh = LivePage(context, url)
    restored = fresh.wait_analysis(EXAMPLE_BOARD, "gamepad+nes-plateau@2", "JI")
    check("share: an Analyse link restores the same fields", fields(fresh.page) == before,
          f"{fields(fresh.page)} vs {before}")
    check("share: ... the same board",
          fresh.page.get_attribute("#analyse-board", "data-board") == "/".join(EXAMPLE_BOARD))
    check("share: ... the same analysis", without_timing(restored) == without_timing(analysis))
    check("share: ... shown in the same view",
          fresh.page.get_attribute("body", "data-view") == "analyse")
    fresh.self_contained("shared analysis")
    fresh.page.close()

    # Watch: a link plays the same game again.
    page = live.page
    page.click("#tab-watch")
    page.fill("#watch-strategy", "drop+bcts")
    live.set_game_settings(7, 150, speed="max", height=16)
    page.select_option("#generator", "bag7")
    page.dispatch_event("#generator", "change")
    page.dispatch_event("#height", "change")
    url = page.url
    check("share: a Watch link names its game",
          "view=watch" in url and "generator=bag7" in url and "height=16" in url, url)
    fresh = LivePage(context, url)
    lane = fresh.wait_lane("watch")
    cli = json.loads(arena(binary, "play", "drop+bcts", "--seed", "7", "--max-pieces", "150",
                           "--generator", "bag7", "--board-height", "16", "--json"))
    check_game("share: a Watch link (drop+bcts, bag7, seed 7, height 16)", lane, cli)
    check("share: ... with the same fields", fields(fresh.page) == fields(page))
    fresh.self_contained("shared watch")
    fresh.page.close()


def bench(context, binary, page_url, pieces):
    live = LivePage(context, page_url)
    print(f"{'strategy':<26} {'page engine':>14} {'page overall':>14} {'native':>14}")
    for strategy in ("bfs+elashi@2", "column-drop+dellacherie"):
        lane = live.watch(strategy, 1, pieces, "max", False)
        wall = lane["wallMs"] / 1000
        native = arena(binary, "play", strategy, "--seed", "1", "--max-pieces", str(pieces))
        speed = re.search(r"^speed\s+(\d+) pieces/s", native, re.MULTILINE)
        shown = lane["shown"]
        check(f"bench {strategy}: the page played its {pieces} pieces", shown == pieces, str(shown))
        print(f"{strategy:<26} {lane['piecesPerSecond']:>10.0f} p/s {shown / wall:>10.0f} p/s "
              f"{int(speed.group(1)):>10} p/s")
    live.self_contained("bench")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", required=True)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--bench", type=int, help="measure N-piece games instead of testing")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    page_file = args.out / "web.html"
    arena(args.arena, "web", str(page_file))
    size = page_file.stat().st_size
    page_url = page_file.resolve().as_uri()
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1200, "height": 1000},
        )
        if args.bench:
            bench(context, args.arena, page_url, args.bench)
            context.close()
            print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
            sys.exit(1 if RESULTS["failed"] else 0)
        check(f"the page is one file of at most 2 MB ({size:,} bytes)", size <= 2_000_000)
        live = LivePage(context, page_url)
        status = live.page.inner_text("#status")
        check("the engine starts in its worker", live.page.get_attribute("#status", "data-state")
              == "ready", status)
        tests = [
            ("watch", lambda: test_watch(live, args.arena, args.out)),
            ("duel", lambda: test_duel(live, args.arena, args.out)),
            ("analyse", lambda: test_analyse(live, args.arena, args.out)),
            ("edit", lambda: test_editing(live, args.arena, args.out)),
            ("share", lambda: test_share(context, live, args.arena)),
            ("bad link", lambda: test_bad_link(context, args.arena, page_url)),
            ("cancel", lambda: test_cancel(live, args.arena, args.out)),
        ]
        for name, test in tests:
            try:
                test()
            except Exception:  # a crash of one test is one failure; go on with the others
                check(f"{name}: runs to its end", False, traceback.format_exc())
        live.self_contained("live page")
        context.close()
    print(f"screenshots in {args.out}")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()
