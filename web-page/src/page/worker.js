/*
 * Tetris Arena live page: the engine's Web Worker.
 *
 * The page starts this worker from a blob: URL made of wasm-bindgen's glue (which defines the
 * global `wasm_bindgen`) followed by this script, so the engines never block the page. The
 * page sends messages `{id, kind, ...}`; the worker answers each with `{id, ok: VALUE}` or
 * `{id, error: "one-line message"}` (the command line's message for the same mistake).
 *
 * Kinds:
 *   init {module}            the WebAssembly module's bytes; ok: {strategies, shapes} (parsed)
 *   analyze {body}           a /v1/analyze body (number fields may be typed text, which the
 *                            engine reads with the command line's parsers); ok: the answer
 *   new-game {game, body, paths}  a /v1/play body (likewise); ok: the game's facts (strategy, depth,
 *                            settings, start_level); `game` is the page's name for it
 *   step {game, count}       up to `count` more placements; ok: the step's answer, parsed
 *                            (count, next, end, end_text), its `placements` unpacked
 *                            ({piece, x, y, rotation, cleared, lines, score, level, and
 *                            states and inputs when the game has paths}), and `ms`, the
 *                            time the engine took for them
 *   drop {game}              forgets the game
 * Times are measured here, around the engine's call only, so the page can show the engine's own
 * speed (pieces per second of compute), apart from drawing and messaging.
 */
"use strict";
(() => {
  const games = new Map();

  /** The `Error` the glue throws carries the command line's one-line message. */
  const message = (error) => (error && error.message ? error.message : String(error));

  /** The letters of the piece indices (T J Z O S L I = 0 … 6). */
  const LETTERS = "TJZOSLI";

  /**
   * A step's placements from the engine's packed numbers (web/src/jobs.rs, PACKED_FIELDS): for
   * each, piece index, x, y, rotation, cleared, lines, score, level, and how many numbers of its
   * path's states follow (x, y, rotation each; none without a path).
   */
  function unpack(packed) {
    const placements = [];
    let at = 0;
    while (at < packed.length) {
      const [piece, x, y, rotation, cleared, lines, score, level, count] =
        packed.subarray(at, at + 9);
      const placement = { piece: LETTERS[piece], x, y, rotation, cleared, lines, score, level };
      at += 9;
      if (count > 0) {
        placement.states = Array.from(packed.subarray(at, at + count));
        // The path's inputs (or frames): one state for its start, one after each.
        placement.inputs = count / 3 - 1;
      }
      at += count;
      placements.push(placement);
    }
    return placements;
  }

  const jobs = {
    init(request) {
      wasm_bindgen.initSync({ module: request.module });
      return {
        strategies: JSON.parse(wasm_bindgen.strategies()),
        shapes: JSON.parse(wasm_bindgen.shapes()),
      };
    },
    analyze(request) {
      const start = performance.now();
      const answer = JSON.parse(wasm_bindgen.analyze(request.body));
      answer.ms = performance.now() - start;
      return answer;
    },
    "new-game"(request) {
      const old = games.get(request.game);
      if (old) old.free();
      games.delete(request.game);
      const game = new wasm_bindgen.Game(request.body, request.paths);
      games.set(request.game, game);
      return JSON.parse(game.facts());
    },
    step(request) {
      const game = games.get(request.game);
      if (!game) throw new Error(`no game ${request.game}`);
      const start = performance.now();
      const text = game.step(request.count);
      const packed = game.placements();
      const ms = performance.now() - start;
      const answer = JSON.parse(text);
      answer.placements = unpack(packed);
      answer.ms = ms;
      return answer;
    },
    drop(request) {
      const game = games.get(request.game);
      if (game) game.free();
      games.delete(request.game);
      return true;
    },
  };

  self.onmessage = (event) => {
    const request = event.data;
    const job = jobs[request.kind];
    try {
      if (!job) throw new Error(`unknown job ${request.kind}`);
      self.postMessage({ id: request.id, ok: job(request) });
    } catch (error) {
      self.postMessage({ id: request.id, error: message(error) });
    }
  };
})();
