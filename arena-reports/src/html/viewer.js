/*
 * Tetris Arena replay viewer.
 *
 * Reads the replay embedded in the page (the <script id="replay-data"> JSON that
 * `arena replay --html` and `arena play --html` write), rebuilds the board after every placement
 * by locking the recorded pieces and clearing full rows, and lets the reader step through the
 * game placement by placement or input by input along each piece's recorded path. The arena
 * verified the replay before writing the page and gives each piece's path as the states it
 * passes through (after each move, or after each gamepad frame through the NES frame model),
 * with the lines, score and level after each placement; this script only draws them. No
 * network, no dependencies: it must work from file://.
 *
 * Test hooks: #board has data-board (the settled board, rows top first, '#' filled and '.'
 * empty, joined by '/'), data-position (placements done) and data-input (the path state shown,
 * -1 when settled); body gets data-ready="yes" once the first frame is drawn.
 *
 * The board itself (cells, locking, drawing) is board.js's `ArenaBoard`, shared with the live
 * page; it is included before this script.
 */
"use strict";
(() => {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const { WIDTH } = ArenaBoard;
  const HEIGHT = data.rules.board_height;
  const placements = data.placements;
  const count = placements.length;
  const literature = data.rules.game_over_rule === "literature";
  const SPEEDS = [0.25, 0.5, 1, 2, 3, 5, 10, 20, 50, 100, 500];
  const SNAPSHOT_EVERY = 32;
  const $ = (id) => document.getElementById(id);

  // ---- The game: boards rebuilt from the placements ----

  const cellsOf = (letter, x, y, rotation) => ArenaBoard.cellsOf(data.shapes, letter, x, y, rotation);
  const stateCount = (index) => ArenaBoard.stateCount(placements[index].states);
  const stateOf = (index, step) => ArenaBoard.stateOf(placements[index].states, step);

  /** Locks placement `p` on `board`; the full rows it clears (board.js). */
  const lock = (board, p) => ArenaBoard.lock(data.shapes, board, HEIGHT, p, literature);

  // One board every SNAPSHOT_EVERY placements, so any placement is at most that many locks
  // away; the recorded clears are checked on the way.
  const snapshots = [];
  const mismatches = [];
  {
    const board = new Uint8Array(WIDTH * HEIGHT);
    for (let i = 0; i < count; i++) {
      if (i % SNAPSHOT_EVERY === 0) snapshots.push(board.slice());
      const cleared = lock(board, placements[i]).length;
      if (cleared !== placements[i].cleared) mismatches.push(i + 1);
    }
    if (count % SNAPSHOT_EVERY === 0) snapshots.push(board.slice());
  }

  /** The board after `done` placements and the rows the last of them cleared. */
  function boardAfter(done) {
    const start = Math.floor(done / SNAPSHOT_EVERY) * SNAPSHOT_EVERY;
    const board = snapshots[start / SNAPSHOT_EVERY].slice();
    let full = [];
    for (let i = start; i < done; i++) full = lock(board, placements[i]);
    return { board, full };
  }

  // ---- What is shown ----

  let position = 0; // placements done
  let input = -1; // the path state of placement `position` + 1 shown, -1: settled
  let playing = null; // null, "game" or "path"
  let timer = null;
  let speedIndex = SPEEDS.indexOf(5);

  const boardElement = $("board");
  const cells = ArenaBoard.create(boardElement, HEIGHT);

  function render() {
    const { board, full } = boardAfter(position);
    const shownIndex = input >= 0 ? position : position - 1; // the placement described
    let falling = null;
    if (input >= 0) {
      const [x, y, rotation] = stateOf(position, input);
      falling = { piece: placements[position].piece, x, y, rotation };
    }
    const placed = input < 0 && position > 0 ? placements[position - 1] : null;
    ArenaBoard.paint(cells, ArenaBoard.classes(data.shapes, board, HEIGHT, falling, placed, full));
    boardElement.dataset.board = ArenaBoard.rowsText(board, HEIGHT);
    boardElement.dataset.position = String(position);
    boardElement.dataset.input = String(input);

    const totals = position > 0
      ? placements[position - 1]
      : { lines: 0, score: 0, level: data.rules.start_level };
    $("stat-pieces").textContent = String(position);
    $("stat-lines").textContent = String(totals.lines);
    $("stat-score").textContent = totals.score.toLocaleString("en-US");
    $("stat-score").dataset.value = String(totals.score);
    $("stat-level").textContent = String(totals.level);

    renderNext();
    renderPlacement(shownIndex);
    $("jump").value = String(position);
    $("slider").value = String(position);
    $("play").innerHTML = playing ? "&#x2016;" : "&#x25B6;";
  }

  /** The pieces still to come: the one to place now first, then the ones the strategy saw. */
  function renderNext() {
    const next = $("next");
    next.textContent = "";
    const first = position;
    const seen = Math.max(data.depth, 1);
    const shown = Math.max(seen, 2);
    for (let i = first; i < Math.min(first + shown, data.pieces.length); i++) {
      const letter = data.pieces[i];
      const box = document.createElement("div");
      box.className = "next-piece" + (i >= position + seen ? " unseen" : "");
      box.appendChild(ArenaBoard.mini(data.shapes, letter));
      const label = i === position ? (input >= 0 ? "falling" : "now") : i >= position + seen ? "not seen" : "";
      box.appendChild(document.createTextNode(label ? `${letter} (${label})` : letter));
      box.title = i >= position + seen ? "not yet seen by the strategy" : "seen by the strategy";
      next.appendChild(box);
    }
    if (first >= data.pieces.length) next.textContent = "none";
  }

  const BUTTONS = [
    [1, "Left", "\u2190"],
    [2, "Right", "\u2192"],
    [4, "Down", "\u2193"],
    [8, "A", "A"],
    [16, "B", "B"],
  ];
  /** How an input of a path reads: moves as written, frames as the buttons held. */
  function inputLabel(token) {
    if (token[0] !== "F") return [token, token];
    const bits = Number(token.slice(1));
    const held = BUTTONS.filter(([bit]) => bits & bit);
    if (held.length === 0) return ["\u00B7", `${token}: no button`];
    return [held.map((b) => b[2]).join(""), `${token}: ${held.map((b) => b[1]).join(" + ")}`];
  }

  /** Whether `letter` fits at (x, y, rotation) on `board` (cells above row 0 are free). */
  function fits(board, letter, x, y, rotation) {
    return cellsOf(letter, x, y, rotation).every(
      ([cx, cy]) => cx >= 0 && cx < WIDTH && cy < HEIGHT && (cy < 0 || !board[cy * WIDTH + cx]),
    );
  }

  /** Tags for the path of placement `index`: a tuck (a sideways move) or a spin (a turn) into
   * a column and orientation the piece could not have fallen straight into from where its
   * path starts, because something above blocks it. */
  function pathTags(index) {
    const board = boardAfter(index).board;
    const letter = placements[index].piece;
    const tags = [];
    const startY = stateOf(index, 0)[1];
    for (let step = 1; step < stateCount(index); step++) {
      const [x, y, rotation] = stateOf(index, step);
      const [px, , pr] = stateOf(index, step - 1);
      const tag = x !== px ? "tuck" : rotation !== pr ? "spin" : null;
      if (tag === null || tags.includes(tag)) continue;
      for (let above = startY; above < y; above++) {
        if (!fits(board, letter, x, above, rotation)) {
          tags.push(tag);
          break;
        }
      }
    }
    return tags;
  }

  function renderPlacement(index) {
    const title = $("placement-title");
    const info = $("placement");
    const path = $("path");
    const evaluation = $("evaluation");
    path.textContent = "";
    evaluation.textContent = "";
    if (index < 0) {
      title.textContent = "Before the first placement";
      info.textContent = count > 0 ? `${count} placements to come.` : "The game has no placement.";
      return;
    }
    const p = placements[index];
    title.textContent = `Placement ${index + 1} of ${count}`;
    info.innerHTML = "";
    const line = document.createElement("div");
    line.innerHTML =
      `<b>${p.piece}</b> at x ${p.x}, y ${p.y}, rotation ${p.rotation}; ` +
      `cleared ${p.cleared} row${p.cleared === 1 ? "" : "s"}`;
    for (const tag of pathTags(index)) {
      const span = document.createElement("span");
      span.className = "tag";
      span.textContent = tag;
      line.appendChild(span);
    }
    info.appendChild(line);

    const tokens = p.path.length > 0 ? p.path.split(" ") : [];
    const kind = tokens.length > 0 && tokens[0][0] === "F" ? "gamepad frames" : "moves";
    const head = document.createElement("div");
    head.textContent = `Path: ${tokens.length} ${kind}`;
    path.appendChild(head);
    const done = input >= 0 && index === position ? input : tokens.length;
    tokens.forEach((token, i) => {
      const span = document.createElement("span");
      const [label, hint] = inputLabel(token);
      span.className = "input" + (i < done - 1 ? " done" : i === done - 1 ? " current" : "");
      if (input < 0 || index !== position) span.className = "input done";
      span.textContent = label;
      span.title = `input ${i + 1}: ${hint}`;
      path.appendChild(span);
    });

    if (p.evaluation) {
      const table = document.createElement("table");
      table.className = "data";
      table.innerHTML =
        "<tr><th>feature</th><th class=number>value</th>" +
        "<th class=number>weight</th><th class=number>weight \u00D7 value</th></tr>";
      for (const [name, value] of Object.entries(p.evaluation.features)) {
        const weight = data.weights ? data.weights[name] : undefined;
        const row = document.createElement("tr");
        for (const text of [
          name,
          formatNumber(value),
          weight === undefined ? "-" : formatNumber(weight),
          weight === undefined ? "-" : formatNumber(weight * value),
        ]) {
          const cell = document.createElement("td");
          cell.textContent = text;
          if (text !== name) cell.className = "number";
          row.appendChild(cell);
        }
        table.appendChild(row);
      }
      const cost = document.createElement("p");
      cost.innerHTML =
        `Cost of the best chain (lower is better): <span class=cost>` +
        `${p.evaluation.cost === null ? "infinite" : formatNumber(p.evaluation.cost)}</span>` +
        (data.depth > 1 ? ` (features of the whole ${data.depth}-piece chain)` : "");
      evaluation.appendChild(cost);
      evaluation.appendChild(table);
    } else if (index === 0) {
      const note = document.createElement("p");
      note.className = "keys";
      note.textContent =
        "No features recorded: record the game with `arena play … --features` to see them.";
      evaluation.appendChild(note);
    }
  }

  function formatNumber(value) {
    if (Number.isInteger(value)) return String(value);
    return Math.abs(value) >= 1000 || Math.abs(value) < 0.001
      ? value.toPrecision(6)
      : String(Math.round(value * 1e6) / 1e6);
  }

  function renderRules() {
    const rules = data.rules;
    const result = data.result;
    const timing = rules.frame_timing
      ? `${rules.frame_timing.frames_per_row} frames per row, a press every ` +
        `${rules.frame_timing.tap_rate} frames (paths are gamepad frames through the NES frame model)`
      : "none: the searcher ignores gravity (paths are moves L R D CW CCW)";
    const facts = [
      ["strategy", data.strategy],
      ["pieces", `generator ${data.generator}, seed ${data.seed}; the strategy sees ${data.depth} piece${data.depth === 1 ? "" : "s"} per decision`],
      ["board", `10 \u00D7 ${rules.board_height}, empty at the start`],
      ["piece cap", rules.max_pieces === null ? "none" : String(rules.max_pieces)],
      ["game over", rules.game_over],
      ["frame timing", timing],
      ["level", rules.last_level !== null
        ? `from ${rules.start_level}, the lowest level of this gravity, rising with the lines ` +
          `up to ${rules.last_level}, its last (the timing stays the same all game); the score ` +
          "counts from this level"
        : `from ${rules.start_level}, rising every 10 lines (the level the score counts from)`],
      ["score", rules.score],
      ["result", `${result.pieces} pieces, ${result.lines} lines, score ${result.score.toLocaleString("en-US")}`],
      ["end", result.end_text],
    ];
    const table = $("rules");
    for (const [name, value] of facts) {
      const row = document.createElement("tr");
      const th = document.createElement("th");
      th.textContent = name;
      const td = document.createElement("td");
      td.textContent = value;
      row.append(th, td);
      table.appendChild(row);
    }
  }

  // ---- Moving through the game ----

  function go(target) {
    position = Math.max(0, Math.min(count, target));
    input = -1;
    render();
  }

  /** One input further along the current piece's path (its lock after its last state). */
  function nextInput() {
    if (input < 0) {
      if (position >= count) return;
      input = 0;
    } else if (input + 1 < stateCount(position)) {
      input += 1;
    } else {
      position += 1;
      input = -1;
    }
    render();
  }

  function previousInput() {
    if (input > 0) {
      input -= 1;
    } else if (input === 0) {
      input = -1;
    } else if (position > 0) {
      position -= 1;
      input = stateCount(position) - 1;
    }
    render();
  }

  function stop() {
    playing = null;
    clearTimeout(timer);
    timer = null;
    render();
  }

  function start(mode) {
    clearTimeout(timer);
    playing = mode;
    tick();
  }

  /** One step of playing: an input of the path when the animation is on and slow enough to
   * see, else whole placements. */
  function tick() {
    if (!playing) return;
    const perPiece = 1000 / SPEEDS[speedIndex];
    const animate = $("animate").checked;
    const steps = position < count ? stateCount(position) + 1 : 1;
    let delay;
    // Browsers run timers at most every 4 ms or so: faster paths jump whole placements.
    if (playing === "path" || (animate && perPiece / steps >= 4)) {
      nextInput();
      delay = Math.max(4, perPiece / steps);
    } else {
      const pieces = Math.max(1, Math.floor(SPEEDS[speedIndex] / 60));
      go(position + pieces);
      delay = (pieces * 1000) / SPEEDS[speedIndex];
    }
    const pathDone = playing === "path" && input < 0;
    if ((position >= count && input < 0) || pathDone) {
      stop();
      return;
    }
    timer = setTimeout(tick, delay);
  }

  function togglePlay() {
    if (playing) {
      stop();
      return;
    }
    if (position >= count) go(0);
    start("game");
  }

  /** Plays the path of the placement described (the last one placed, or the one in flight). */
  function playPath() {
    if (input < 0) {
      if (position === 0) return;
      position -= 1;
    }
    input = 0;
    render();
    start("path");
  }

  function setSpeed(index) {
    speedIndex = Math.max(0, Math.min(SPEEDS.length - 1, index));
    $("speed").value = String(speedIndex);
  }

  // ---- Controls ----

  const speed = $("speed");
  SPEEDS.forEach((value, index) => {
    const option = document.createElement("option");
    option.value = String(index);
    option.textContent = String(value);
    speed.appendChild(option);
  });
  setSpeed(speedIndex);
  speed.addEventListener("change", () => setSpeed(Number(speed.value)));
  $("of").textContent = `of ${count}`;
  $("jump").max = String(count);
  $("slider").max = String(count);
  // The value is read before stopping: stopping redraws, which sets both to the position.
  const jumpTo = (value) => {
    const target = Number(value) || 0;
    stop();
    go(target);
  };
  $("jump").addEventListener("change", () => jumpTo($("jump").value));
  $("jump").addEventListener("keydown", (event) => {
    if (event.key === "Enter") jumpTo($("jump").value);
  });
  $("slider").addEventListener("input", () => jumpTo($("slider").value));
  const actions = {
    first: () => go(0),
    back10: () => go(position - 10),
    prev: () => go(input >= 0 ? position : position - 1),
    "prev-input": previousInput,
    play: togglePlay,
    "next-input": nextInput,
    "next-placement": () => go(position + 1),
    forward10: () => go(position + 10),
    last: () => go(count),
  };
  for (const [id, action] of Object.entries(actions)) {
    $(id).addEventListener("click", () => {
      if (id !== "play") stop();
      action();
    });
  }
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLInputElement && target.type === "number") return;
    if (target instanceof HTMLSelectElement) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const step = event.shiftKey ? 10 : 1;
    const keys = {
      ArrowRight: () => go(position + step),
      ArrowLeft: () => go((input >= 0 ? position + 1 : position) - step),
      Home: () => go(0),
      End: () => go(count),
      ".": nextInput,
      ",": previousInput,
      p: playPath,
      a: () => {
        $("animate").checked = !$("animate").checked;
      },
      "+": () => setSpeed(speedIndex + 1),
      "=": () => setSpeed(speedIndex + 1),
      "-": () => setSpeed(speedIndex - 1),
      g: () => {
        $("jump").focus();
        $("jump").select();
      },
    };
    if (event.key === " ") {
      event.preventDefault();
      togglePlay();
      return;
    }
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    if (!["+", "=", "-", "a"].includes(event.key)) stop();
    action();
  });

  if (mismatches.length > 0) {
    const warning = $("warning");
    warning.hidden = false;
    warning.textContent =
      `The rows cleared by placement ${mismatches[0]} differ from the recorded ones ` +
      `(${mismatches.length} placements): this page's board may not be the game's.`;
  }
  renderRules();
  render();
  document.body.dataset.ready = "yes";
})();
