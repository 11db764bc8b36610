/*
 * Tetris Arena live page: the arena's engines, compiled to WebAssembly, in the browser.
 *
 * The engines run in Web Workers, so the page never freezes: each worker is started from a
 * blob: URL made of wasm-bindgen's glue (the <script id="web-glue"> text) and worker.js (the
 * <script id="web-worker"> text), and is sent the module's bytes (the base64 text of
 * <script id="web-module">). Messages are `{id, kind, ...}`, answered `{id, ok}` or
 * `{id, error}` (worker.js lists the kinds). Each game has its own worker (Watch; Duel's two
 * strategies play at the same time), and the analysis one more.
 *
 * Views:
 *   Watch    a strategy plays live: the board, each piece falling along its path (the states
 *            the engine gives), the next pieces, pieces/lines/score/level, and the engine's
 *            measured speed (pieces per second of its own compute time).
 *   Duel     two strategies on the same pieces (same seed, generator and height), side by side,
 *            with each side's lines, score and level, and who leads in the measure the user
 *            picks (lines or score; the other breaks a tie).
 *   Analyse  a board edited by clicks or pasted as rows, the current and preview pieces: the
 *            strategy's best placements (`/v1/analyze` with `states: true`); clicking one plays
 *            its path on the board.
 *   Share    the page's state is kept in the URL's #fragment; opening a link restores it (and
 *            a Watch or Duel link plays the same game again).
 * Number fields (seed, board height, max pieces, level, top) are sent to the engine as typed:
 * the engine reads them with the command line's parsers and checks them with the request layer,
 * so a bad value, typed or from a link, gets the arena's message on the page instead of being
 * clamped (web/src/jobs.rs, `page_body`). The page only reads the board height to size a
 * board before the engine has answered.
 * No network, no dependencies: it works from file://.
 *
 * Test hook, `window.arenaPage`:
 *   ready                 true once the engine answered and the fragment was applied
 *   lanes[name]           name: "watch", "duel-a", "duel-b"; each {strategy, facts, placements
 *                         (as the engine gave them: piece, x, y, rotation, cleared, lines,
 *                         score, level; with paths, inputs and states, the states dropped
 *                         once shown), shown, end,
 *                         endText, error, computed, computeMs, piecesPerSecond, wallMs (from
 *                         the start to the last placement drawn)}
 *   analysis              {body, answer} or {body, error}: the last analysis asked for
 *   state()               the state the fragment holds, as an object
 * and data attributes: each lane's element has data-state (idle, starting, playing, paused,
 * ended, stopped, error) and data-shown; its board (#NAME-board) has data-board (rows top first,
 * '#' and '.', joined by '/'); #analysis has data-state (idle, pending, done, error) and
 * data-board (the board analysed); #analyse-board has data-board; #status has data-state.
 */
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { WIDTH, LETTERS } = ArenaBoard;
  const SPEEDS = ["1", "2", "5", "10", "20", "50", "100", "500", "max"];
  /** What the page takes from the arena itself (web-page/src/lib.rs): the tap rates the
   * gamepad search takes, the board heights (to size a board) and the documents' example
   * position, so none is written twice. */
  const ARENA = JSON.parse($("arena-constants").textContent);
  const TAP_RATES = ["", ...ARENA.tap_rates.map(String)];
  const [MIN_HEIGHT, MAX_HEIGHT] = ARENA.board_heights;
  const EXAMPLE_BOARD = ARENA.example_board;
  const SUGGESTED = [
    "bfs+elashi@2",
    "column-drop+dellacherie",
    "gamepad+nes-plateau@2",
    "drop+bcts",
  ];
  /** The value an edited cell holds (a filled cell of no piece: drawn grey). */
  const EDITED = 8;

  const hook = { ready: false, lanes: {}, analysis: null, state: () => currentState() };
  window.arenaPage = hook;

  let shapes = null; // the orientation table, from the engine
  let catalogue = null; // `arena list --json`, from the engine

  // ---- The engines: Web Workers running the module ----

  let engineUrl = null;
  let engineBytes = null;
  const engines = new Map();

  /** The module's bytes, decoded from the page's base64. */
  function moduleBytes() {
    const text = $("web-module").textContent.trim();
    if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(text);
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** One worker and its pending requests. */
  class Engine {
    constructor() {
      this.worker = new Worker(engineUrl);
      this.pending = new Map();
      this.nextId = 1;
      this.worker.onmessage = (event) => {
        const { id, ok, error } = event.data;
        const waiting = this.pending.get(id);
        if (!waiting) return;
        this.pending.delete(id);
        if (error !== undefined) waiting.reject(new Error(error));
        else waiting.resolve(ok);
      };
      this.worker.onerror = (event) => {
        event.preventDefault();
        const why = new Error(`the engine stopped: ${event.message || "unknown error"}`);
        for (const waiting of this.pending.values()) waiting.reject(why);
        this.pending.clear();
      };
      this.ready = this.call("init", { module: engineBytes });
    }

    /** Stops the worker at once, a job in progress included; its pending jobs fail with `why`. */
    stop(why) {
      this.worker.terminate();
      for (const waiting of this.pending.values()) waiting.reject(new Error(why));
      this.pending.clear();
    }

    /** Sends job `kind`; a promise of its answer. */
    call(kind, fields) {
      const id = this.nextId++;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage({ id, kind, ...fields });
      });
    }
  }

  /** The worker named `name`, started on first use. */
  function engine(name) {
    if (!engines.has(name)) engines.set(name, new Engine());
    return engines.get(name);
  }

  /**
   * Stops the worker `name` (a search cannot be interrupted inside the module: only ending its
   * worker frees the engine), so that its next job starts on a fresh one.
   */
  function restartEngine(name, why) {
    const running = engines.get(name);
    if (running === undefined) return;
    engines.delete(name);
    running.stop(why);
  }

  /** Sends a job to the worker `name` once it is ready. */
  async function job(name, kind, fields) {
    const worker = engine(name);
    await worker.ready;
    return worker.call(kind, fields);
  }

  // ---- Small helpers ----

  const clamp = (value, low, high) => Math.max(low, Math.min(high, value));
  const formatCount = (value) => Number(value).toLocaleString("en-US");

  /**
   * A value for people to read, as the command line's text prints it (arena-io's
   * `format::readable`): a whole number as it is, any other to four significant digits, with
   * thousands grouped, in scientific notation below 0.001 and from 10,000,000.
   */
  function readable(value) {
    if (value === 0) return "0";
    if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
    if (!Number.isFinite(value)) return String(value);
    const magnitude = Math.abs(value);
    if (magnitude < 1e-3 || magnitude >= 1e7) return value.toExponential(3).replace("e+", "e");
    const decimals = Math.max(0, 3 - Math.floor(Math.log10(magnitude)));
    const [integer, fraction] = magnitude.toFixed(decimals).split(".");
    const grouped = integer.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (value < 0 ? "-" : "") + grouped + (fraction === undefined ? "" : `.${fraction}`);
  }
  const searcherOf = (strategy) => strategy.trim().split("+")[0];
  const gravityAware = (strategy) =>
    catalogue !== null &&
    catalogue.searcher_details.some((s) => s.name === searcherOf(strategy) && s.gravity_aware);

  /** A field's text as typed (trimmed): the engine reads and checks it. */
  const typed = (id) => $(id).value.trim();

  /**
   * The rows to draw a board of before the engine has checked the typed height: the height
   * when it is one the arena takes, else `fallback` (the engine then says what is wrong).
   */
  function drawnHeight(text, fallback) {
    const rows = /^\d+$/.test(text) ? Number(text) : NaN;
    return rows >= MIN_HEIGHT && rows <= MAX_HEIGHT ? rows : fallback;
  }

  /** `fields` without the empty ones (a field left empty takes the arena's default). */
  function withoutEmpty(fields) {
    return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== ""));
  }

  function showError(element, text) {
    element.hidden = !text;
    element.textContent = text || "";
  }

  function fillSelect(select, values, label) {
    select.textContent = "";
    for (const value of values) {
      const option = document.createElement("option");
      option.value = value;
      option.textContent = label ? label(value) : value;
      select.appendChild(option);
    }
  }

  /** The pieces to come, `letters` (the one to place now first); from the `seen`-th on, the
   * ones the strategy does not see yet, dimmed. */
  function drawNext(element, letters, seen) {
    element.textContent = "";
    letters.forEach((letter, i) => {
      const box = document.createElement("div");
      box.className = "next-piece" + (i >= seen ? " unseen" : "");
      box.appendChild(ArenaBoard.mini(shapes, letter));
      box.appendChild(document.createTextNode(i === 0 ? `${letter} (now)` : letter));
      box.title = i >= seen ? "not yet seen by the strategy" : "seen by the strategy";
      element.appendChild(box);
    });
    if (letters.length === 0) element.textContent = "none";
  }

  // ---- A game on a board: Watch's, and each of Duel's ----

  class Lane {
    constructor(name, container) {
      this.name = name;
      this.root = container;
      container.className = "lane";
      container.innerHTML = `
        <h2 id="${name}-title" class="lane-title">&nbsp;</h2>
        <p id="${name}-error" class="error" role="alert" hidden></p>
        <div class="play-area">
          <div class="board-frame"><div id="${name}-board" class="board" role="img"></div></div>
          <aside class="side">
            <div class="panel"><h2>Next</h2><div id="${name}-next" class="next"></div></div>
            <div class="panel stats">
              <div><span class="label">pieces</span> <span id="${name}-pieces" class="value">0</span></div>
              <div><span class="label">lines</span> <span id="${name}-lines" class="value">0</span></div>
              <div><span class="label">score</span> <span id="${name}-score" class="value">0</span></div>
              <div><span class="label">level</span> <span id="${name}-level" class="value">0</span></div>
            </div>
            <div class="panel stats">
              <div><span class="label">engine</span> <span id="${name}-rate" class="value">–</span></div>
              <p class="keys">pieces per second of the engine's own compute time</p>
            </div>
            <p id="${name}-end" class="end" aria-live="polite"></p>
          </aside>
        </div>`;
      this.boardElement = $(`${name}-board`);
      this.boardElement.setAttribute("aria-label", `the board of ${name}`);
      this.generation = 0;
      this.reset(20);
    }

    /** The board redrawn empty at `height` rows (the game's, once the engine checked it). */
    resize(height) {
      if (height === this.height) return;
      this.height = height;
      this.board = new Uint8Array(WIDTH * height);
      this.cells = ArenaBoard.create(this.boardElement, height);
      this.draw();
    }

    /** An empty board of `height` rows and no game. */
    reset(height) {
      this.generation += 1;
      if (this.facts) job(this.name, "drop", { game: this.name }).catch(() => {});
      this.height = height;
      this.board = new Uint8Array(WIDTH * height);
      this.cells = ArenaBoard.create(this.boardElement, height);
      this.facts = null;
      this.placements = [];
      this.next = [];
      this.end = null;
      this.endText = null;
      this.error = null;
      this.shown = 0;
      this.full = [];
      this.falling = null;
      this.pending = false;
      this.eager = false;
      this.batch = 1;
      this.computed = 0;
      this.computeMs = 0;
      this.mismatch = null;
      this.literature = false;
      this.drawnNext = null;
      this.hook = {
        strategy: null,
        facts: null,
        placements: this.placements,
        shown: 0,
        end: null,
        endText: null,
        error: null,
        computed: 0,
        computeMs: 0,
        piecesPerSecond: null,
        wallMs: null,
      };
      hook.lanes[this.name] = this.hook;
      showError($(`${this.name}-error`), "");
      $(`${this.name}-end`).textContent = "";
      $(`${this.name}-rate`).textContent = "–";
      this.setState("idle");
      this.draw();
    }

    setState(state) {
      this.state = state;
      this.root.dataset.state = state;
    }

    /** Starts the game of `body` (a /v1/play body); `paths`: with each piece's path. */
    async begin(body, paths) {
      const generation = this.generation;
      this.startedAt = performance.now();
      this.hook.strategy = body.strategy;
      $(`${this.name}-title`).textContent = body.strategy;
      this.setState("starting");
      let facts;
      try {
        facts = await job(this.name, "new-game", {
          game: this.name,
          body: JSON.stringify(body),
          paths,
        });
      } catch (error) {
        if (generation === this.generation) this.fail(error.message);
        return;
      }
      if (generation !== this.generation) return;
      this.facts = facts;
      this.hook.facts = facts;
      this.resize(facts.settings.board_height);
      this.literature = facts.settings.game_over_rule === "literature";
      $(`${this.name}-title`).textContent = facts.strategy;
      this.setState("playing");
    }

    fail(message) {
      this.error = message;
      this.hook.error = message;
      showError($(`${this.name}-error`), message);
      this.setState("error");
    }

    /** Whether the lane has nothing more to show: failed, or its game ended and is drawn. */
    get done() {
      return this.error !== null || (this.end !== null && this.shown === this.placements.length);
    }

    /** Whether the engine can be asked for more placements now. */
    get canAsk() {
      return this.facts !== null && !this.pending && this.end === null && this.error === null;
    }

    /** Asks the engine for up to `count` more placements. */
    ask(count) {
      if (!this.canAsk) return;
      this.pending = true;
      const generation = this.generation;
      job(this.name, "step", { game: this.name, count }).then(
        (answer) => {
          if (generation !== this.generation) return;
          this.pending = false;
          for (const placement of answer.placements) this.placements.push(placement);
          this.next = answer.next;
          this.computed += answer.placements.length;
          this.computeMs += answer.ms;
          this.hook.computed = this.computed;
          this.hook.computeMs = this.computeMs;
          if (this.computeMs > 0) {
            this.hook.piecesPerSecond = (this.computed * 1000) / this.computeMs;
            $(`${this.name}-rate`).textContent =
              `${formatCount(Math.round(this.hook.piecesPerSecond))}/s`;
          }
          if (answer.placements.length > 0) {
            // About 40 ms of compute per request: steady drawing, few messages.
            const each = Math.max(answer.ms, 0.01) / answer.placements.length;
            this.batch = clamp(Math.round(40 / each), 1, 1000);
          }
          if (answer.end) {
            this.end = answer.end;
            this.endText = answer.end_text;
            this.hook.end = answer.end;
            this.hook.endText = answer.end_text;
          }
          // At the highest speed the engine is kept busy: the next request goes at once,
          // not at the next drawing.
          if (this.eager) this.ask(this.batch);
        },
        (error) => {
          if (generation !== this.generation) return;
          this.pending = false;
          this.fail(error.message);
        },
      );
    }

    /** Shows the board after `count` placements, with `falling` (a state of the next piece's
     * path, or null) over it. */
    show(count, falling) {
      const target = Math.min(count, this.placements.length);
      const moved = target !== this.shown;
      for (; this.shown < target; this.shown++) {
        const placement = this.placements[this.shown];
        this.full = ArenaBoard.lock(shapes, this.board, this.height, placement, this.literature);
        if (this.full.length !== placement.cleared && this.mismatch === null) {
          this.mismatch = this.shown + 1;
          this.fail(`placement ${this.mismatch}: this page clears ${this.full.length} rows, the engine ${placement.cleared}`);
        }
        // The path is only drawn once: keep the memory of long games small.
        if (this.shown + 1 < target) placement.states = null;
      }
      if (this.shown > 0 && (moved || falling)) {
        const previous = this.placements[this.shown - 1];
        if (previous) previous.states = null;
      }
      this.falling = falling;
      this.hook.shown = this.shown;
      this.draw();
    }

    draw() {
      const placed = this.falling === null && this.shown > 0 ? this.placements[this.shown - 1] : null;
      ArenaBoard.paint(
        this.cells,
        ArenaBoard.classes(shapes || [], this.board, this.height, this.falling, placed, this.full),
      );
      this.boardElement.dataset.board = ArenaBoard.rowsText(this.board, this.height);
      this.root.dataset.shown = String(this.shown);
      const last = this.shown > 0 ? this.placements[this.shown - 1] : null;
      $(`${this.name}-pieces`).textContent = formatCount(this.shown);
      $(`${this.name}-lines`).textContent = formatCount(last ? last.lines : 0);
      $(`${this.name}-score`).textContent = formatCount(last ? last.score : 0);
      $(`${this.name}-score`).dataset.value = String(last ? last.score : 0);
      const startLevel = this.facts ? String(this.facts.start_level) : "–";
      $(`${this.name}-level`).textContent = last ? String(last.level) : startLevel;
      if (this.end !== null && this.shown === this.placements.length) {
        $(`${this.name}-end`).textContent = `End: ${this.endText}.`;
      }
      // The pieces to come: the one to place now first, then the preview.
      if (shapes && this.facts && this.drawnNext !== `${this.shown}/${this.placements.length}`) {
        this.drawnNext = `${this.shown}/${this.placements.length}`;
        const depth = Math.max(this.facts.depth, 1);
        const letters = this.placements.slice(this.shown, this.shown + Math.max(depth, 2)).map((p) => p.piece);
        if (this.end === null || this.shown < this.placements.length) {
          for (const letter of this.next) {
            if (letters.length >= Math.max(depth, 2)) break;
            letters.push(letter);
          }
        }
        drawNext($(`${this.name}-next`), letters, depth);
      }
    }
  }

  // ---- Games played together (Watch: one lane; Duel: two on the same pieces) ----

  /** The game settings bar's values, the numbers as typed (a seed is any 64-bit number, more
   * than a JavaScript number holds exactly: the engine reads the digits). */
  function gameSettings() {
    return {
      seed: typed("seed"),
      generator: $("generator").value || "uniform",
      board_height: typed("height"),
      max_pieces: typed("max-pieces"),
      speed: $("speed").value,
      animate: $("animate").checked,
    };
  }

  class Match {
    constructor(prefix, lanes) {
      this.prefix = prefix;
      this.lanes = lanes;
      this.running = false;
      this.paused = false;
      this.timer = null;
      $(`${prefix}-pause`).addEventListener("click", () => this.togglePause());
      $(`${prefix}-stop`).addEventListener("click", () => this.stop());
    }

    /** Plays `strategies` (one per lane) with the settings bar's settings. */
    start(strategies) {
      const settings = gameSettings();
      this.speed = settings.speed === "max" ? Infinity : Number(settings.speed);
      this.animate = settings.animate && Number.isFinite(this.speed);
      this.lanes.forEach((lane, i) => {
        lane.reset(drawnHeight(settings.board_height, 20));
        const body = withoutEmpty({
          strategy: strategies[i].trim(),
          seed: settings.seed,
          generator: settings.generator,
          board_height: settings.board_height,
          max_pieces: settings.max_pieces,
        });
        lane.begin(body, this.animate);
      });
      this.position = 0;
      this.last = performance.now();
      this.running = true;
      this.paused = false;
      this.buttons();
      clearTimeout(this.timer);
      this.tick();
    }

    stop() {
      if (!this.running) return;
      this.running = false;
      clearTimeout(this.timer);
      for (const lane of this.lanes) {
        lane.eager = false;
        lane.generation += 1; // answers still coming are dropped
        if (!lane.done) lane.setState("stopped");
      }
      this.buttons();
    }

    togglePause() {
      if (!this.running) return;
      this.paused = !this.paused;
      for (const lane of this.lanes) {
        if (this.paused) lane.eager = false;
        if (!lane.done && lane.error === null) lane.setState(this.paused ? "paused" : "playing");
      }
      this.last = performance.now();
      this.buttons();
    }

    buttons() {
      $(`${this.prefix}-pause`).disabled = !this.running;
      $(`${this.prefix}-stop`).disabled = !this.running;
      $(`${this.prefix}-pause`).textContent = this.paused ? "Resume" : "Pause";
    }

    tick() {
      if (!this.running) return;
      const now = performance.now();
      const lanes = this.lanes;
      if (!this.paused) {
        if (Number.isFinite(this.speed)) {
          this.position += ((now - this.last) * this.speed) / 1000;
          // Never ahead of a game still playing: wait for its engine.
          const playing = lanes.filter((lane) => lane.error === null && lane.end === null);
          const cap = playing.length > 0
            ? Math.min(...playing.map((lane) => lane.placements.length))
            : Math.max(...lanes.map((lane) => lane.placements.length));
          if (this.position > cap) this.position = cap;
        } else {
          this.position = Infinity;
        }
        for (const lane of lanes) {
          if (!lane.canAsk) continue;
          if (!Number.isFinite(this.speed)) {
            lane.ask(lane.batch);
          } else {
            const ahead = Math.max(2, Math.ceil(this.speed / 2));
            if (lane.placements.length < Math.floor(this.position) + ahead) {
              lane.ask(Math.min(ahead, lane.batch));
            }
          }
        }
      }
      this.last = now;
      for (const lane of lanes) {
        lane.eager = this.running && !this.paused && !Number.isFinite(this.speed);
        const whole = Math.floor(this.position);
        let falling = null;
        if (this.animate && Number.isFinite(whole) && whole < lane.placements.length) {
          const placement = lane.placements[whole];
          if (placement.states) {
            const count = ArenaBoard.stateCount(placement.states);
            const step = Math.floor((this.position - whole) * (count + 1));
            if (step < count) {
              const [x, y, rotation] = ArenaBoard.stateOf(placement.states, step);
              falling = { piece: placement.piece, x, y, rotation };
            }
          }
        }
        lane.show(whole, falling);
        if (lane.done && lane.state !== "error" && lane.state !== "ended") {
          lane.setState("ended");
          lane.hook.wallMs = performance.now() - lane.startedAt;
        }
      }
      this.onDraw();
      if (lanes.every((lane) => lane.done)) {
        this.running = false;
        this.buttons();
        return;
      }
      this.timer = setTimeout(() => this.tick(), 16);
    }

    onDraw() {}
  }

  // ---- Watch and Duel ----

  const watchLane = new Lane("watch", $("watch-lane"));
  const watch = new Match("watch", [watchLane]);
  const duelLanes = [new Lane("duel-a", $("duel-a-lane")), new Lane("duel-b", $("duel-b-lane"))];
  const duel = new Match("duel", duelLanes);

  /**
   * The duel's running score: each side's lines, score and level, and who leads in the measure
   * picked under "lead by" (lines or score; the other breaks a tie).
   */
  duel.onDraw = () => {
    const [a, b] = duelLanes.map((lane) => {
      const last = lane.shown > 0 ? lane.placements[lane.shown - 1] : null;
      const start = lane.facts ? lane.facts.start_level : 0;
      return {
        name: lane.facts ? lane.facts.strategy : lane.hook.strategy || "?",
        pieces: lane.shown,
        lines: last ? last.lines : 0,
        score: last ? last.score : 0,
        level: last ? last.level : start,
        over: lane.end === "game_over" && lane.done,
        refused: lane.error !== null,
      };
    });
    const byScore = $("duel-rank").value === "score";
    const [first, second] = byScore ? ["score", "lines"] : ["lines", "score"];
    const sign = Math.sign(a[first] - b[first]) || Math.sign(a[second] - b[second]);
    const side = (s) => s.refused
      ? `${s.name}: refused (see below)`
      : `${s.name}: ${formatCount(s.lines)} lines, score ${formatCount(s.score)}, level ` +
        `${s.level} after ${formatCount(s.pieces)} pieces${s.over ? " (game over)" : ""}`;
    const plural = (count, word) => `${formatCount(count)} ${word}${count === 1 ? "" : "s"}`;
    const words = { lines: "line", score: "point" };
    let lead = "tied";
    if (sign !== 0) {
      const measure = a[first] !== b[first] ? first : second;
      const by = plural(Math.abs(a[measure] - b[measure]), words[measure]);
      lead = `${sign > 0 ? "A" : "B"} leads by ${by}`;
    }
    if (a.refused || b.refused) lead = "no duel";
    const element = $("duel-score");
    element.textContent = `A ${side(a)} — B ${side(b)} — ${lead}.`;
    element.dataset.leader = a.refused || b.refused ? "none" : sign > 0 ? "a" : sign < 0 ? "b" : "tie";
  };

  // The lead is counted again in the measure picked, at once (a finished duel too).
  $("duel-rank").addEventListener("change", () => duel.onDraw());

  $("watch-form").addEventListener("submit", (event) => {
    event.preventDefault();
    watch.start([$("watch-strategy").value]);
    saveState();
  });
  $("duel-form").addEventListener("submit", (event) => {
    event.preventDefault();
    duel.start([$("duel-a-strategy").value, $("duel-b-strategy").value]);
    saveState();
  });

  // ---- Analyse ----

  const analyse = {
    height: 20,
    board: new Uint8Array(WIDTH * 20),
    cells: [],
    focus: 0,
    shown: null, // {piece, x, y, rotation}: a placement's state drawn over the board
    timer: null,
    running: false, // the latest analysis is still running in its worker
    animation: null,
    asked: 0,
    answer: null,
  };

  /** A fresh editor of `height` rows keeping the bottom rows of the board. */
  function resizeBoard(height) {
    const board = new Uint8Array(WIDTH * height);
    const keep = Math.min(height, analyse.height);
    board.set(
      analyse.board.subarray((analyse.height - keep) * WIDTH),
      (height - keep) * WIDTH,
    );
    analyse.height = height;
    analyse.board = board;
    buildEditor();
  }

  function buildEditor() {
    const element = $("analyse-board");
    analyse.cells = ArenaBoard.create(element, analyse.height, "button");
    analyse.focus = Math.min(analyse.focus, analyse.cells.length - 1);
    analyse.cells.forEach((cell, i) => {
      cell.type = "button";
      cell.dataset.index = String(i);
      cell.tabIndex = i === analyse.focus ? 0 : -1;
      cell.setAttribute(
        "aria-label",
        `row ${Math.floor(i / WIDTH)}, column ${i % WIDTH}`,
      );
    });
    drawEditor();
  }

  function drawEditor() {
    const { board, height, cells } = analyse;
    ArenaBoard.paint(cells, ArenaBoard.classes(shapes || [], board, height, analyse.shown, null, []));
    cells.forEach((cell, i) => cell.setAttribute("aria-pressed", board[i] ? "true" : "false"));
    const text = ArenaBoard.rowsText(board, height);
    $("analyse-board").dataset.board = text;
    if (document.activeElement !== $("board-text")) {
      $("board-text").value = text.split("/").join("\n");
    }
  }

  function toggleCell(index) {
    analyse.board[index] = analyse.board[index] ? 0 : EDITED;
    boardChanged();
  }

  function boardChanged() {
    stopAnimation();
    analyse.shown = null;
    drawEditor();
    scheduleAnalysis();
    saveState();
  }

  $("analyse-board").addEventListener("click", (event) => {
    const cell = event.target.closest("button.cell");
    if (!cell) return;
    analyse.cells[analyse.focus].tabIndex = -1;
    analyse.focus = Number(cell.dataset.index);
    cell.tabIndex = 0;
    toggleCell(analyse.focus);
  });
  $("analyse-board").addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -WIDTH, ArrowDown: WIDTH };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const target = clamp(analyse.focus + moves[event.key], 0, analyse.cells.length - 1);
    analyse.cells[analyse.focus].tabIndex = -1;
    analyse.focus = target;
    analyse.cells[target].tabIndex = 0;
    analyse.cells[target].focus();
  });

  /** Rows of text as a board of the editor's height: rows top first, '#' or '.', 10 each;
   * missing rows at the top are empty. An error message for anything else. */
  function boardFromRows(rows, height) {
    const lines = rows.map((row) => row.trim()).filter((row) => row.length > 0);
    if (lines.length > height) {
      throw new Error(`${lines.length} rows for a board of ${height} rows`);
    }
    const board = new Uint8Array(WIDTH * height);
    lines.forEach((row, i) => {
      if (!/^[#.]{10}$/.test(row)) {
        throw new Error(`row ${i + 1} is not 10 characters of '#' and '.': ${row}`);
      }
      const y = height - lines.length + i;
      for (let x = 0; x < WIDTH; x++) if (row[x] === "#") board[y * WIDTH + x] = EDITED;
    });
    return board;
  }

  $("board-load").addEventListener("click", () => {
    try {
      analyse.board = boardFromRows($("board-text").value.split("\n"), analyse.height);
      showError($("board-text-error"), "");
      $("board-text").blur();
      boardChanged();
    } catch (error) {
      showError($("board-text-error"), error.message);
    }
  });
  $("board-clear").addEventListener("click", () => {
    analyse.board = new Uint8Array(WIDTH * analyse.height);
    boardChanged();
  });
  $("board-example").addEventListener("click", () => {
    analyse.board = boardFromRows(EXAMPLE_BOARD.slice(-analyse.height), analyse.height);
    boardChanged();
  });

  /** The /v1/analyze body of the Analyse view. */
  function analysisBody() {
    const strategy = $("analyse-strategy").value.trim();
    const rows = ArenaBoard.rowsText(analyse.board, analyse.height).split("/");
    // The height as typed: the editor's rows when the engine takes it, else its message.
    const body = withoutEmpty({
      strategy,
      board: rows,
      current: $("current").value,
      preview: $("preview").value.trim().toUpperCase().split("").filter((c) => c !== " "),
      board_height: typed("height") || String(analyse.height),
      top: typed("top"),
      states: true,
    });
    if (gravityAware(strategy)) {
      if (typed("level") !== "") body.level = typed("level");
      if ($("tap-rate").value !== "") body.tap_rate = Number($("tap-rate").value);
      // Sent as typed: the server parses it (and refuses it beside a tap rate) with the one
      // message every front end gives.
      if ($("timeline").value.trim() !== "") body.timeline = $("timeline").value.trim();
    }
    return body;
  }

  function scheduleAnalysis() {
    clearTimeout(analyse.timer);
    $("analysis").dataset.state = "pending";
    analyse.timer = setTimeout(runAnalysis, 60);
  }

  async function runAnalysis() {
    if (shapes === null) return;
    const body = analysisBody();
    // An analysis still running is out of date: its worker is stopped, so that this one does
    // not wait for it (an expectimax@4 takes half a minute).
    if (analyse.running) restartEngine("analyse", "cancelled: a newer analysis replaced it");
    const asked = ++analyse.asked;
    analyse.running = true;
    const boardText = ArenaBoard.rowsText(analyse.board, analyse.height);
    const table = $("analysis");
    table.dataset.state = "pending";
    let answer;
    try {
      answer = await job("analyse", "analyze", { body: JSON.stringify(body) });
    } catch (error) {
      if (asked !== analyse.asked) return;
      analyse.running = false;
      hook.analysis = { body, error: error.message };
      analyse.answer = null;
      showError($("analysis-error"), error.message);
      $("analysis-summary").textContent = "";
      table.tBodies[0].textContent = "";
      table.dataset.board = boardText;
      table.dataset.state = "error";
      return;
    }
    if (asked !== analyse.asked) return;
    analyse.running = false;
    hook.analysis = { body, answer };
    analyse.answer = answer;
    showError($("analysis-error"), "");
    drawAnalysis(answer);
    table.dataset.board = boardText;
    table.dataset.state = "done";
  }

  function drawAnalysis(answer) {
    const tbody = $("analysis").tBodies[0];
    tbody.textContent = "";
    $("analysis-summary").textContent =
      `${answer.strategy}, pieces ${answer.pieces.join(" ")}: ` +
      `${answer.placement_count} placements of ${answer.pieces[0]}, ` +
      `${formatCount(answer.nodes)} searched in ${answer.ms.toFixed(1)} ms` +
      (answer.placement_count === 0 ? " (no placement: the game is over)" : "");
    answer.placements.forEach((placement, i) => {
      const row = document.createElement("tr");
      const rank = document.createElement("td");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "show-path";
      button.textContent = placement.rank === null ? "–" : `#${placement.rank}`;
      button.setAttribute("aria-label", `show the path of placement ${i + 1}`);
      button.addEventListener("click", () => showPlacement(i, row));
      rank.appendChild(button);
      row.appendChild(rank);
      const where = `${placement.piece} x ${placement.x}, y ${placement.y}, rotation ${placement.rotation}`;
      const texts = [
        [placement.value === null ? "none" : readable(placement.value), "number"],
        [where, ""],
        [placement.chain_length === null ? "–" : String(placement.chain_length), "number"],
        [placement.rule || "–", ""],
        [placement.path === null ? "–" : String(placement.path.length), "number"],
      ];
      for (const [text, className] of texts) {
        const cell = document.createElement("td");
        cell.textContent = text;
        if (className) cell.className = className;
        row.appendChild(cell);
      }
      row.addEventListener("click", (event) => {
        if (event.target !== button) showPlacement(i, row);
      });
      tbody.appendChild(row);
    });
  }

  function stopAnimation() {
    clearTimeout(analyse.animation);
    analyse.animation = null;
  }

  /** Plays the path of the answer's placement `index` on the board, then leaves the piece
   * where it locks. */
  function showPlacement(index, row) {
    const answer = analyse.answer;
    if (!answer) return;
    const placement = answer.placements[index];
    for (const other of $("analysis").tBodies[0].rows) other.classList.toggle("selected", other === row);
    stopAnimation();
    const states = placement.states;
    const board = $("analyse-board");
    const last = { piece: placement.piece, x: placement.x, y: placement.y, rotation: placement.rotation };
    if (!states) {
      analyse.shown = last;
      board.dataset.pathStep = "-1";
      drawEditor();
      return;
    }
    const count = ArenaBoard.stateCount(states);
    const delay = clamp(900 / count, 16, 90);
    let step = 0;
    const frame = () => {
      const [x, y, rotation] = ArenaBoard.stateOf(states, step);
      analyse.shown = { piece: placement.piece, x, y, rotation };
      board.dataset.pathStep = String(step);
      drawEditor();
      step += 1;
      if (step < count) {
        analyse.animation = setTimeout(frame, delay);
      } else {
        analyse.animation = null;
        board.dataset.pathStep = "-1";
      }
    };
    frame();
  }

  for (const id of ["analyse-strategy", "current", "preview", "level", "tap-rate", "timeline", "top"]) {
    $(id).addEventListener("input", () => {
      updateGravityFields();
      scheduleAnalysis();
      saveState();
    });
  }

  function updateGravityFields() {
    const gravity = gravityAware($("analyse-strategy").value);
    for (const label of document.querySelectorAll("#analyse-form .gravity")) {
      label.classList.toggle("inactive", !gravity);
      label.querySelector("input, select").disabled = !gravity;
    }
  }

  $("analyse-form").addEventListener("submit", (event) => {
    event.preventDefault();
    scheduleAnalysis();
  });

  // ---- Views ----

  const VIEWS = ["watch", "duel", "analyse"];
  let view = "watch";

  function showView(name) {
    view = name;
    for (const other of VIEWS) {
      const tab = $(`tab-${other}`);
      tab.setAttribute("aria-selected", other === name ? "true" : "false");
      tab.tabIndex = other === name ? 0 : -1;
      $(`view-${other}`).hidden = other !== name;
    }
    document.body.dataset.view = name;
    if (name === "analyse" && analyse.answer === null && $("analysis").dataset.state === "idle") {
      scheduleAnalysis();
    }
  }

  VIEWS.forEach((name, i) => {
    const tab = $(`tab-${name}`);
    tab.addEventListener("click", () => {
      showView(name);
      saveState();
    });
    tab.addEventListener("keydown", (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      const next = VIEWS[(i + step + VIEWS.length) % VIEWS.length];
      showView(next);
      $(`tab-${next}`).focus();
      saveState();
    });
  });

  // A typed height the arena takes resizes the editor; any other is left as typed, and the
  // analysis shows the engine's message for it.
  $("height").addEventListener("change", () => {
    const height = drawnHeight(typed("height"), analyse.height);
    if (height !== analyse.height) resizeBoard(height);
    scheduleAnalysis();
    saveState();
  });
  for (const id of ["seed", "generator", "height", "max-pieces", "speed", "animate",
    "watch-strategy", "duel-a-strategy", "duel-b-strategy", "duel-rank"]) {
    $(id).addEventListener("input", saveState);
    $(id).addEventListener("change", saveState);
  }
  // The speed of a game playing changes at once.
  $("speed").addEventListener("change", () => {
    for (const match of [watch, duel]) {
      if (!match.running) continue;
      const speed = $("speed").value === "max" ? Infinity : Number($("speed").value);
      if (Number.isFinite(match.speed) && !Number.isFinite(speed)) match.animate = false;
      if (!Number.isFinite(match.speed) && Number.isFinite(speed)) {
        match.position = Math.min(...match.lanes.map((lane) => lane.shown));
      }
      match.speed = speed;
    }
  });

  // ---- Share: the state in the URL's fragment ----

  /** The board as hex: from its first filled row down, 3 digits per row (bit x = column x). */
  function encodeBoard(board, height) {
    let text = "";
    let started = false;
    for (let y = 0; y < height; y++) {
      let bits = 0;
      for (let x = 0; x < WIDTH; x++) if (board[y * WIDTH + x]) bits |= 1 << x;
      if (bits !== 0) started = true;
      if (started) text += bits.toString(16).padStart(3, "0");
    }
    return text;
  }

  function decodeBoard(text, height) {
    const board = new Uint8Array(WIDTH * height);
    if (!/^([0-3][0-9a-f]{2})*$/i.test(text)) return board;
    const rows = text.length / 3;
    for (let i = 0; i < rows && i < height; i++) {
      const bits = Number.parseInt(text.slice(3 * i, 3 * i + 3), 16);
      const y = height - Math.min(rows, height) + i;
      for (let x = 0; x < WIDTH; x++) if (bits & (1 << x)) board[y * WIDTH + x] = EDITED;
    }
    return board;
  }

  /** The page's state: what the fragment holds. */
  function currentState() {
    return {
      view,
      strategy: $("watch-strategy").value,
      a: $("duel-a-strategy").value,
      b: $("duel-b-strategy").value,
      rank: $("duel-rank").value,
      seed: $("seed").value,
      generator: $("generator").value,
      height: $("height").value,
      max: $("max-pieces").value,
      speed: $("speed").value,
      animate: $("animate").checked ? "1" : "0",
      analyse: $("analyse-strategy").value,
      board: encodeBoard(analyse.board, analyse.height),
      current: $("current").value,
      preview: $("preview").value,
      level: $("level").value,
      tap: $("tap-rate").value,
      timeline: $("timeline").value,
      top: $("top").value,
    };
  }

  let writtenHash = null;

  function saveState() {
    const hash = `#${new URLSearchParams(currentState()).toString()}`;
    if (hash !== location.hash) {
      writtenHash = hash;
      try {
        history.replaceState(null, "", hash);
      } catch {
        location.hash = hash;
      }
    }
    $("share-link").value = location.href;
  }

  /** Sets the page to the state of `hash`; fields it does not name keep their values. */
  function applyState(hash) {
    const state = new URLSearchParams(hash.replace(/^#/, ""));
    const set = (key, id) => {
      if (state.has(key)) $(id).value = state.get(key);
    };
    set("strategy", "watch-strategy");
    set("a", "duel-a-strategy");
    set("b", "duel-b-strategy");
    set("seed", "seed");
    if (state.has("generator") && [...$("generator").options].some((o) => o.value === state.get("generator"))) {
      $("generator").value = state.get("generator");
    }
    set("height", "height");
    set("max", "max-pieces");
    if (state.has("speed") && SPEEDS.includes(state.get("speed"))) $("speed").value = state.get("speed");
    if (state.has("animate")) $("animate").checked = state.get("animate") !== "0";
    set("analyse", "analyse-strategy");
    if (state.has("current") && LETTERS.includes(state.get("current")) && state.get("current").length === 1) {
      $("current").value = state.get("current");
    }
    set("preview", "preview");
    set("level", "level");
    if (state.has("tap") && TAP_RATES.includes(state.get("tap"))) $("tap-rate").value = state.get("tap");
    set("timeline", "timeline");
    set("top", "top");
    if (state.has("rank") && ["lines", "score"].includes(state.get("rank"))) {
      $("duel-rank").value = state.get("rank");
    }
    const height = drawnHeight(typed("height"), 20);
    analyse.height = height;
    analyse.board = state.has("board")
      ? decodeBoard(state.get("board"), height)
      : new Uint8Array(WIDTH * height);
    analyse.shown = null;
    buildEditor();
    updateGravityFields();
    const name = VIEWS.includes(state.get("view")) ? state.get("view") : "watch";
    showView(name);
    if (name === "watch") watch.start([$("watch-strategy").value]);
    if (name === "duel") duel.start([$("duel-a-strategy").value, $("duel-b-strategy").value]);
    scheduleAnalysis();
    saveState();
  }

  window.addEventListener("hashchange", () => {
    if (location.hash !== writtenHash && location.hash.length > 1) applyState(location.hash);
  });

  $("share-copy").addEventListener("click", async () => {
    saveState();
    const link = $("share-link");
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
      $("share-copy").textContent = "Copied";
    } catch {
      $("share-copy").textContent = "Selected: copy it";
    }
  });

  // ---- Start ----

  function setStatus(state, text) {
    const status = $("status");
    status.dataset.state = state;
    status.textContent = text;
  }

  async function start() {
    fillSelect($("speed"), SPEEDS);
    $("speed").value = "10";
    fillSelect($("tap-rate"), TAP_RATES, (value) => (value === "" ? "default (2)" : value));
    fillSelect($("current"), [...LETTERS]);
    buildEditor();
    try {
      engineBytes = moduleBytes();
      const source = `${$("web-glue").textContent}\n${$("web-worker").textContent}`;
      engineUrl = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      const info = await engine("analyse").ready;
      shapes = info.shapes;
      catalogue = info.strategies;
    } catch (error) {
      setStatus("error", `The engine could not start: ${error.message}`);
      return;
    }
    fillSelect(
      $("generator"),
      catalogue.generators.filter((name) => !name.startsWith("file:")),
    );
    const list = $("strategy-list");
    const names = new Set(SUGGESTED);
    for (const searcher of catalogue.searchers) {
      for (const evaluator of catalogue.evaluators) {
        names.add(`${searcher}+${evaluator.name}`);
        names.add(`${searcher}+${evaluator.name}@2`);
      }
    }
    for (const name of names) {
      const option = document.createElement("option");
      option.value = name;
      list.appendChild(option);
    }
    for (const lane of [watchLane, ...duelLanes]) lane.draw();
    setStatus(
      "ready",
      `Engine ready: ${catalogue.searchers.length} searchers, ${catalogue.evaluators.length} evaluators, ` +
        `${catalogue.generators.length - 1} generators (arena ${catalogue.made_by.version}).`,
    );
    if (location.hash.length > 1) {
      applyState(location.hash);
    } else {
      updateGravityFields();
      showView("watch");
      saveState();
    }
    hook.ready = true;
    document.body.dataset.ready = "yes";
  }

  start();
})();
