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
 *   analyze {body}           a /v1/analyze body; ok: the answer, parsed
 *   new-game {game, body, paths}  a /v1/play body; ok: the game's facts (strategy, depth,
 *                            settings, start_level); `game` is the page's name for it
 *   step {game, count}       up to `count` more placements; ok: the step's answer, parsed, plus
 *                            `ms`, the time the engine took for them
 *   drop {game}              forgets the game
 * Times are measured here, around the engine's call only, so the page can show the engine's own
 * speed (pieces per second of compute), apart from drawing and messaging.
 */
"use strict";
(() => {
  const games = new Map();

  /** The `Error` the glue throws carries the command line's one-line message. */
  const message = (error) => (error && error.message ? error.message : String(error));

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
      const ms = performance.now() - start;
      const answer = JSON.parse(text);
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
