/*
 * Tetris Arena boards: what the replay viewer and the live page share to show a game.
 *
 * Defines the global `ArenaBoard`: the pieces' cells from the arena's orientation table
 * (`shapes[piece index][rotation] = [[dx, dy] x 4]`, pieces in the order T J Z O S L I), a
 * board as a Uint8Array of 10 x height cells (0 empty, piece index + 1 filled, rows top first),
 * locking a placement and clearing its full rows as the arena does, drawing a board into a grid
 * of cell elements with a falling or placed piece over it, the board as text rows, the small
 * drawings of the next pieces, and the states of a path (flattened x, y, rotation). No network,
 * no dependencies: it must work from file://.
 */
"use strict";
const ArenaBoard = (() => {
  const LETTERS = "TJZOSLI";
  const WIDTH = 10;

  const pieceIndex = (letter) => LETTERS.indexOf(letter);

  /** The cells of `letter` with its pivot at (x, y) in `rotation`. */
  const cellsOf = (shapes, letter, x, y, rotation) =>
    shapes[pieceIndex(letter)][rotation].map(([dx, dy]) => [x + dx, y + dy]);

  /** The number of states in a flattened path, and the state `step` of it. */
  const stateCount = (states) => states.length / 3;
  const stateOf = (states, step) => [states[3 * step], states[3 * step + 1], states[3 * step + 2]];

  /** Locks placement `p` ({piece, x, y, rotation}) on `board` of `height` rows; the full rows
   * it clears (their indices before the clear). Cells above row 0 are lost; under the
   * literature rule a piece that lands above the field ends the game and clears nothing. */
  function lock(shapes, board, height, p, literature) {
    const colour = pieceIndex(p.piece) + 1;
    let above = false;
    for (const [x, y] of cellsOf(shapes, p.piece, p.x, p.y, p.rotation)) {
      if (y < 0) {
        above = true;
      } else if (y < height && x >= 0 && x < WIDTH) {
        board[y * WIDTH + x] = colour;
      }
    }
    if (above && literature) return [];
    const full = [];
    for (let y = 0; y < height; y++) {
      let filled = 0;
      for (let x = 0; x < WIDTH; x++) if (board[y * WIDTH + x]) filled++;
      if (filled === WIDTH) full.push(y);
    }
    if (full.length > 0) {
      const kept = [];
      for (let y = 0; y < height; y++) {
        if (!full.includes(y)) kept.push(board.slice(y * WIDTH, (y + 1) * WIDTH));
      }
      board.fill(0);
      kept.forEach((row, i) => board.set(row, (height - kept.length + i) * WIDTH));
    }
    return full;
  }

  /** Fills `element` with the cells of a board of `height` rows (elements of `tag`, "div"
   * unless given); the cells, top row first. */
  function create(element, height, tag) {
    element.textContent = "";
    element.classList.add("board");
    element.classList.toggle("tall", height > 22);
    const cells = [];
    for (let i = 0; i < WIDTH * height; i++) {
      const cell = document.createElement(tag || "div");
      cell.className = "cell";
      element.appendChild(cell);
      cells.push(cell);
    }
    return cells;
  }

  /** The class names that draw `board` (`height` rows), with `falling`, a piece in flight
   * ({piece, x, y, rotation}), drawn over it, or else `placed`, the last placement, outlined
   * where it is after the rows `full` it cleared. */
  function classes(shapes, board, height, falling, placed, full) {
    const names = Array.from(board, (c) => (c ? `cell filled p${c - 1}` : "cell"));
    if (falling) {
      const piece = pieceIndex(falling.piece);
      for (const [cx, cy] of cellsOf(shapes, falling.piece, falling.x, falling.y, falling.rotation)) {
        if (cy >= 0 && cy < height && cx >= 0 && cx < WIDTH) {
          names[cy * WIDTH + cx] = `cell falling p${piece}`;
        }
      }
    } else if (placed) {
      const cleared = full || [];
      for (const [cx, cy] of cellsOf(shapes, placed.piece, placed.x, placed.y, placed.rotation)) {
        if (cy < 0 || cy >= height || cx < 0 || cx >= WIDTH || cleared.includes(cy)) continue;
        const y = cy + cleared.filter((row) => row > cy).length;
        names[y * WIDTH + cx] += " placed";
      }
    }
    return names;
  }

  /** Sets the cells' class names, touching only the ones that change. */
  function paint(cells, names) {
    names.forEach((name, i) => {
      if (cells[i].className !== name) cells[i].className = name;
    });
  }

  /** The board as text: rows top first, '#' filled and '.' empty, joined by '/'. */
  function rowsText(board, height) {
    const rows = [];
    for (let y = 0; y < height; y++) {
      let row = "";
      for (let x = 0; x < WIDTH; x++) row += board[y * WIDTH + x] ? "#" : ".";
      rows.push(row);
    }
    return rows.join("/");
  }

  /** A small drawing of `letter` in its spawn rotation (4 x 2 cells). */
  function mini(shapes, letter) {
    const grid = document.createElement("div");
    grid.className = "mini";
    const index = pieceIndex(letter);
    const filled = new Set(shapes[index][0].map(([dx, dy]) => `${dx + 2},${dy}`));
    for (let y = 0; y < 2; y++) {
      for (let x = 0; x < 4; x++) {
        const cell = document.createElement("div");
        cell.className = filled.has(`${x},${y}`) ? `cell p${index}` : "cell";
        grid.appendChild(cell);
      }
    }
    return grid;
  }

  return {
    LETTERS,
    WIDTH,
    pieceIndex,
    cellsOf,
    stateCount,
    stateOf,
    lock,
    create,
    classes,
    paint,
    rowsText,
    mini,
  };
})();
