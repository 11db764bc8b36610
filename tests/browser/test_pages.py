#!/usr/bin/env python3
"""End-to-end test of the arena's HTML pages in headless Chromium (Debian's /usr/bin/chromium,
driven by Playwright; scripts/install-browser-test-deps.sh installs both).

It makes a BFS replay and a gamepad replay with `arena play --record --features`, writes their
viewer pages with `arena replay --html`, and checks, in the browser, that:
  - the board the page shows (its #board data-board attribute) at several placements -- the
    first line clear, the first tuck, and others reached by keys, buttons and the jump box --
    is the arena's own board there (from `arena replay FILE --watch --speed inf`);
  - stepping input by input along a path ends on the recorded placement;
  - playing to the end shows the replay's final lines and score (`arena replay --json`);
  - the page loads nothing but itself (no request other than its file:// URL) and logs no
    error;
and that a tournament report (`arena tournament --html`) shows its coloured pairwise matrix
and every plot inline. It writes screenshots of each page to the output folder.

Usage: test_pages.py --arena PATH/TO/arena --out DIR
Prints one line per check and ends with 'N passed, N failed'; exits 1 if any failed.
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium tries to reach the network, which is
# refused here, and misbehaves.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

RESULTS = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        RESULTS["passed"] += 1
        print(f"ok      {name}")
    else:
        RESULTS["failed"] += 1
        print(f"FAILED  {name}" + (f": {detail}" if detail else ""))


def arena(binary, *args):
    """Runs the arena; its stdout. A failure is a failed test, not a crash."""
    done = subprocess.run([binary, *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"arena {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def watched_boards(binary, replay):
    """The arena's board after each placement (index 0: empty), from `replay --watch` frames
    printed one after another (stdout is not a terminal): rows '|...|' with '#' for filled
    cells and '@' for the placed piece's."""
    text = arena(binary, "replay", str(replay), "--watch", "--speed", "inf")
    boards = []
    for frame in text.split("\n\n"):
        rows = [line[1:-1] for line in frame.splitlines() if line.startswith("|")]
        if rows:
            boards.append("/".join(row.replace("@", "#") for row in rows))
    return boards


def has_tuck_path(path):
    """A path of moves that goes sideways after it went down."""
    inputs = path.split()
    return "D" in inputs and any(i in ("L", "R") for i in inputs[inputs.index("D") :])


def recorded(page):
    """The lists that `page`'s requests (their URLs) and errors (uncaught exceptions and console
    errors) are appended to as they happen."""
    requests, errors = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return requests, errors


class Page:
    """One page open in the browser, with its requests and errors recorded."""

    def __init__(self, context, path):
        self.page = context.new_page()
        self.requests, self.errors = recorded(self.page)
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)

    def board(self):
        return self.page.get_attribute("#board", "data-board")

    def position(self):
        return int(self.page.get_attribute("#board", "data-position"))

    def input_step(self):
        return int(self.page.get_attribute("#board", "data-input"))

    def jump(self, placement):
        self.page.fill("#jump", str(placement))
        self.page.press("#jump", "Enter")
        self.page.locator("body").click(position={"x": 5, "y": 5})  # focus back to the page

    def self_contained(self, name):
        others = [url for url in self.requests if url != self.url]
        check(f"{name}: loads nothing but itself", others == [], str(others[:5]))
        check(f"{name}: no script error", self.errors == [], str(self.errors[:5]))


def test_viewer(context, binary, folder, name, strategy_args, expect_tuck):
    replay_file = folder / f"{name}.json"
    page_file = folder / f"{name}.html"
    arena(binary, "play", *strategy_args, "--features", "--record", str(replay_file))
    arena(binary, "replay", str(replay_file), "--html", str(page_file))
    replay = json.loads(replay_file.read_text())
    verified = json.loads(arena(binary, "replay", str(replay_file), "--json"))
    placements = replay["placements"]
    count = len(placements)
    boards = watched_boards(binary, replay_file)
    check(f"{name}: the arena shows a board per placement", len(boards) == count + 1)

    page = Page(context, page_file)
    page.page.wait_for_selector("body[data-ready=yes]", timeout=10_000)
    check(f"{name}: starts on the empty board", page.board() == boards[0], page.board())

    clear = next(i + 1 for i, p in enumerate(placements) if p["cleared"] > 0)
    targets = {"first line clear": clear, "middle": count // 2, "last": count}
    if expect_tuck:
        targets["first tuck"] = next(
            i + 1 for i, p in enumerate(placements) if has_tuck_path(p["path"])
        )
    for label, placement in sorted(targets.items(), key=lambda item: item[1]):
        page.jump(placement)
        check(
            f"{name}: board after placement {placement} ({label}) is the arena's",
            page.position() == placement and page.board() == boards[placement],
            f"page {page.board()} arena {boards[placement]}",
        )
    # Keys and buttons: from the line clear, two placements on and one back.
    page.jump(clear)
    page.page.keyboard.press("ArrowRight")
    page.page.click("#next-placement")
    page.page.keyboard.press("ArrowLeft")
    check(
        f"{name}: arrows and buttons step to placement {clear + 1}",
        page.position() == clear + 1 and page.board() == boards[clear + 1],
    )
    text = page.page.inner_text("#placement")
    check(
        f"{name}: the placement's details and features are shown",
        f"{placements[clear]['piece']} at x {placements[clear]['x']}" in text
        and page.page.locator("#evaluation table tr").count()
        == len(placements[clear]["evaluation"]["features"]) + 1,
        text,
    )

    # Input by input along the path of the next placement, to its lock.
    start = clear + 1
    inputs = len(placements[start]["path"].split())
    steps = []
    for _ in range(inputs + 2):
        page.page.keyboard.press(".")
        steps.append(page.input_step())
    check(
        f"{name}: '.' walks the {inputs} inputs of placement {start + 1}, then locks it",
        steps == list(range(inputs + 1)) + [-1]
        and page.position() == start + 1
        and page.board() == boards[start + 1],
        str(steps),
    )
    if expect_tuck:
        tuck = targets["first tuck"]
        page.jump(tuck)
        check(
            f"{name}: placement {tuck} is tagged as a tuck",
            "tuck" in page.page.inner_text("#placement"),
        )
        # Half-way along the tuck's path, for the screenshot.
        page.jump(tuck - 1)
        for _ in range(len(placements[tuck - 1]["path"].split()) - 1):
            page.page.keyboard.press(".")
    else:
        page.jump(clear - 1)
        for _ in range(len(placements[clear - 1]["path"].split()) * 2 // 3):
            page.page.keyboard.press(".")
    page.page.screenshot(path=str(folder / f"{name}.png"), full_page=True)

    # Play to the end at the highest speed.
    page.jump(0)
    page.page.select_option("#speed", index=page.page.locator("#speed option").count() - 1)
    page.page.click("#play")
    # Polled from here: the page's Content-Security-Policy forbids the evaluated strings of
    # Playwright's wait_for_function.
    deadline = time.monotonic() + 60
    while page.position() != count and time.monotonic() < deadline:
        time.sleep(0.1)
    lines = int(page.page.inner_text("#stat-lines"))
    score = int(page.page.get_attribute("#stat-score", "data-value"))
    check(
        f"{name}: played to the end it shows {verified['lines']} lines and score "
        f"{verified['score']}",
        (lines, score) == (verified["lines"], verified["score"])
        and page.board() == boards[count],
        f"page {lines} lines, score {score}",
    )
    page.self_contained(name)


def test_tournament(context, binary, folder):
    page_file = folder / "tournament.html"
    strategies = ["bfs+elashi@2", "bfs+elashi", "column-drop+elashi"]
    arena(
        binary, "tournament", *strategies, "--games", "12", "--seed", "1",
        "--board-height", "8", "--max-pieces", "400", "--html", str(page_file),
    )
    page = Page(context, page_file)
    rows = page.page.locator("#pairwise tr").count()
    check("tournament: the pairwise matrix has a row per strategy", rows == len(strategies) + 1)
    coloured = page.page.locator("#pairwise td.win").count()
    check("tournament: depth 2's wins are coloured", coloured >= 1, str(coloured))
    figures = page.page.locator("figure svg")
    svgs = figures.count()
    check(
        "tournament: the lines chart and 4 plots per strategy are inline",
        svgs == 1 + 4 * len(strategies),
        str(svgs),
    )
    # Every plot is drawn at 70% of its size or more: its 16 px axis text at 11 px or more.
    scales = []
    for index in range(svgs):
        figure = figures.nth(index)
        scales.append(figure.bounding_box()["width"] / float(figure.get_attribute("width")))
    check(
        "tournament: every plot's axis text is at least 11 px on the screen",
        min(scales) * 16 >= 11,
        f"smallest scale {min(scales):.2f}",
    )
    made_by = page.page.locator("footer .made-by").inner_text()
    check(
        "tournament: the foot of the page says what made it",
        made_by.startswith("made by tetris-arena ") and ": arena tournament " in made_by,
        made_by,
    )
    page.page.screenshot(path=str(folder / "tournament.png"), full_page=True)
    page.self_contained("tournament")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arena", required=True)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            args=CHROMIUM_FLAGS,
            headless=True,
            viewport={"width": 1100, "height": 900},
        )
        tests = [
            (
                "bfs",
                lambda: test_viewer(
                    context, args.arena, args.out, "bfs",
                    ["bfs+elashi", "--seed", "3", "--max-pieces", "120", "--board-height", "12"],
                    expect_tuck=True,
                ),
            ),
            (
                "gamepad",
                lambda: test_viewer(
                    context, args.arena, args.out, "gamepad",
                    ["gamepad+nes-plateau", "--seed", "5", "--max-pieces", "100"],
                    expect_tuck=False,
                ),
            ),
            ("tournament", lambda: test_tournament(context, args.arena, args.out)),
        ]
        for name, test in tests:
            try:
                test()
            except Exception:  # a crash of one test is one failure; go on with the others
                check(f"{name}: runs to its end", False, traceback.format_exc())
        context.close()
    print(f"screenshots in {args.out}")
    print(f"{RESULTS['passed']} passed, {RESULTS['failed']} failed")
    sys.exit(1 if RESULTS["failed"] else 0)


if __name__ == "__main__":
    main()
