// The board and click to move: the SVG from /api/games/{id}/board, drawn for this page's seat at the
// column's width, in the layout chosen (a phone's first picture: the game's narrow layout, where it
// has one); the clicks so far, the cells they may go to next, the steps that are no cells, and the move
// they make, sent once whole. Answers to older board requests are dropped.
import { api, byId as $, el } from "../common.js";
import { actions } from "./actions.js";
import { busy } from "./busy.js";
import { focusable, moveFocus, neighbour } from "./keyboard.js";
import { say } from "./message.js";
import { shownQuery, state, token, update } from "./state.js";

const PHONE_WIDTH = 600;  // narrower windows are shown the game's narrow layout first
let drawing = 0;          // the latest board request: answers to older ones are dropped

export function drawBoard(click = null) {
  return busy(() => drawBoardNow(click));
}

async function drawBoardNow(click) {
  const ticket = ++drawing;
  const query = shownQuery();
  if (state.layout) query.set("layout", state.layout);
  if (state.clicks.length) query.set("clicks", state.clicks.join(","));
  if (click) query.set("click", click);
  // The board's column width: on a phone the captions are set larger, to be read at that width.
  const shown = Math.round($("board").clientWidth);
  if (shown >= 100) query.set("width", shown);
  let board;
  try {
    board = await api(`/api/games/${state.gameId}/board?${query}`, { token: token() });
  } catch (error) {
    if (ticket === drawing) say(error.message);
    return;
  }
  if (ticket !== drawing) return;
  if (state.layout === null) {
    update({ layout: board.layout });
    const narrow = state.narrowLayout;
    if (narrow && board.layouts.includes(narrow) && window.innerWidth < PHONE_WIDTH) {
      update({ layout: narrow });
      return drawBoardNow(click);
    }
  }
  const hadFocus = $("board").contains(document.activeElement);
  $("board").innerHTML = board.svg;
  for (const name of board.targets) {
    for (const cell of $("board").querySelectorAll(`[data-cell="${CSS.escape(name)}"]`)) cell.dataset.target = "";
  }
  focusable($("board"), state.focusedCell, hadFocus);
  $("board").dataset.ply = board.ply;
  $("board").dataset.version = board.version;
  update({ clicks: board.clicked, pieces: board.pieces });
  showLayouts(board);
  showSteps(board);
  showCaptures(board);
  if (click) say(board.why);
  if (board.move) await actions.sendMove(board.move);
}

// What the shown position's last move took (flagged on the board too), and each seat's pieces left.
function showCaptures(board) {
  const taken = Object.entries(board.captured);
  $("captures").replaceChildren(...(taken.length
    ? [`Captured by the last move (${taken.length}): `, taken.map(([cell, what]) => `${cell} (${what.replace(/^captured by the last move: /, "")})`).join(", ")]
    : []));
  showPieces();
}

export function showPieces() {
  for (const item of document.querySelectorAll("#seats li[data-seat]")) {
    const count = state.pieces[item.dataset.seat];
    const box = item.querySelector(".pieces");
    if (box) box.textContent = count === undefined ? "" : ` · ${count} on the board`;
  }
}

function showLayouts(board) {
  const select = $("layout");
  if (board.layouts.length < 2) { select.hidden = true; return; }
  if (select.options.length !== board.layouts.length) {
    select.replaceChildren(...board.layouts.map((name) => el("option", { value: name }, name)));
  }
  select.value = board.layout;
  select.hidden = false;
}

function showSteps(board) {
  const steps = $("steps");
  steps.replaceChildren();
  if (board.clicked.length) steps.append(el("span", { class: "muted" }, `clicked: ${board.clicked.join(" ")}`));
  for (const step of board.buttons) {
    steps.append(el("button", { type: "button", "data-step": step, onclick: () => drawBoard(step) }, step));
  }
}

function clickCell(cell) {
  update({ focusedCell: cell.dataset.cell });
  drawBoard(cell.dataset.cell);
}

// The board's clicks and keys (Tab to the board, arrow keys between cells, Enter or Space to click),
// clearing the clicks, and choosing a layout.
export function wireBoard() {
  const board = $("board");
  board.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (!cell || !state.game) return;
    clickCell(cell);
  });
  board.addEventListener("keydown", (event) => {
    const cell = event.target.closest && event.target.closest("[data-cell]");
    if (!cell || !state.game) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      clickCell(cell);
      return;
    }
    if (!event.key.startsWith("Arrow")) return;
    event.preventDefault();
    const next = neighbour(board, cell, event.key);
    if (!next) return;
    update({ focusedCell: next.dataset.cell });
    moveFocus(cell, next);
  });
  $("clear-clicks").addEventListener("click", () => { update({ clicks: [] }); say(""); drawBoard(); });
  $("layout").addEventListener("change", (event) => { update({ layout: event.target.value }); drawBoard(); });
}
