// The board from the keyboard: one cell in the tab order (a roving tabindex); the arrow keys move to
// the nearest cell in their direction, whatever the board's shape (the cells' places on the screen).

export const cells = (board) => [...board.querySelectorAll("[data-cell]")];

// Every cell a button out of the tab order, but one: the cell the keyboard was on, else the first
// target, else the first cell. `refocus`: the board had the focus before it was drawn again.
export function focusable(board, focusedCell, refocus) {
  const all = cells(board);
  if (!all.length) return;
  for (const cell of all) {
    cell.setAttribute("role", "button");  // its <title> (the cell, what stands on it, its marks) names it
    cell.setAttribute("tabindex", "-1");
  }
  const current = all.find((c) => c.dataset.cell === focusedCell)
    || all.find((c) => c.dataset.target !== undefined) || all[0];
  current.setAttribute("tabindex", "0");
  if (refocus) current.focus();
}

function centre(cell) {
  const box = cell.getBoundingClientRect();
  return [box.left + box.width / 2, box.top + box.height / 2];
}

const DIRECTIONS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };

// The nearest cell in the arrow's direction: mostly along it, a little across it.
export function neighbour(board, from, key) {
  const [x0, y0] = centre(from);
  const [dx, dy] = DIRECTIONS[key];
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells(board)) {
    if (cell === from) continue;
    const [x, y] = centre(cell);
    const along = (x - x0) * dx + (y - y0) * dy;
    const across = Math.abs((x - x0) * dy - (y - y0) * dx);
    if (along <= 1 || across > along * 1.5) continue;
    const score = along + across * 2;
    if (score < bestScore) { best = cell; bestScore = score; }
  }
  return best;
}

// Moves the tab stop (and the focus) from `cell` to `next`.
export function moveFocus(cell, next) {
  cell.setAttribute("tabindex", "-1");
  next.setAttribute("tabindex", "0");
  next.focus();
}
