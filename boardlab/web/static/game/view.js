// The page around the board, drawn from the state: the title, whose turn, the seats (names, ratings,
// pieces, clocks), the move list (a move shows the position after it), the offers, the buttons that
// apply now, the download and rules links.
import { byId as $, el } from "../common.js";
import { actions } from "./actions.js";
import { showPieces } from "./board.js";
import { startClock } from "./clock.js";
import { showComputer } from "./computer.js";
import { showOffers } from "./offers.js";
import { myTurn, state, token, update } from "./state.js";
import { clockText, ratingText } from "./text.js";

export function show() {
  const { game, seat, replayPly, gameId } = state;
  const view = game.view;
  $("title").textContent = `${game.game_name} · game ${game.id}${game.rated ? " · rated" : ""}`;
  const yourMove = myTurn();
  // The tab's title says when it is this page's turn (seen from another tab).
  document.title = `${yourMove ? "▶ Your move · " : ""}${game.game_name} · game ${game.id} · boardlab`;
  let status = view.description;
  if (yourMove && replayPly === null) status += " Your move.";
  if (game.status === "finished") status = view.description;
  $("status").textContent = status;
  $("status").dataset.yourMove = yourMove ? "1" : "";
  const moves = view.moves;
  const last = moves.length ? moves[moves.length - 1] : null;
  $("last-move").textContent = view.last_move ? `Last move: ${view.last_move}` : last ? `Last move: ${last.label} ${last.text}` : "";
  $("status").dataset.status = game.status;
  $("status").dataset.result = game.result ? game.result.join(",") : "";
  showComputer();
  showSeats();
  showPieces();
  showMoves();
  showOffers();
  showInvite();
  $("notation").textContent = game.notation || "";
  const playing = game.status === "active" && game.your_seats.length > 0;
  $("rematch").hidden = !(game.status === "finished" && game.your_seats.length > 0 && game.rematch === null);
  // Hints: the server says where (games with no other person in them, the analysis board of a finished game).
  $("hint").hidden = !game.can_hint;
  $("analyse").hidden = !(game.status === "finished" && game.can_hint);  // a seat is to move here
  const shownNow = `${game.version}:${replayPly}`;
  if ($("hints").dataset.shown !== shownNow) { $("hints").replaceChildren(); $("hints").dataset.shown = shownNow; }
  for (const id of ["undo", "draw", "resign"]) $(id).disabled = !playing;
  $("typed").elements.move.disabled = !playing || replayPly !== null;
  const record = new URLSearchParams();
  if (token()) record.set("seat_token", token());
  if (seat !== null) record.set("seat", seat);
  $("download").href = `/api/games/${gameId}/record${record.toString() ? "?" + record : ""}`;
  $("download").setAttribute("download", `boardlab-${game.game}-${game.id}.json`);
  $("rules").href = `/rules/${game.game}`;
  $("replay-note").hidden = replayPly === null;
  startClock();
}

function showSeats() {
  const { game, seat } = state;
  $("seats").replaceChildren(...game.seats.map((s) => {
    const clock = game.clocks.find((c) => c.seat === s.seat);
    const name = s.kind === "user" && s.name
      ? el("a", { href: `/users/${encodeURIComponent(s.name)}` }, s.name) : (s.name || "open seat");
    return el("li", { "data-seat": s.seat, class: s.seat === game.to_move ? "to-move" : null },
      el("strong", {}, s.label), " ", name,
      s.seat === seat ? el("em", { class: "you" }, " (you)") : "",
      el("span", { class: "rating" }, ratingText(s)),
      el("span", { class: "pieces muted" }),
      el("span", { class: "clock" }, clock ? clockText(clock) : ""));
  }));
  if (game.time.kind === "correspondence" && game.deadline && game.status === "active") {
    $("seats").append(el("li", { class: "muted" }, `${game.time.description}; move by ${new Date(game.deadline).toLocaleString()}`));
  } else if (game.time.kind === "live") {
    $("seats").append(el("li", { class: "muted time" }, `Time: ${game.time.description}`));
  }
}

// Stepping back, the list keeps every move (as this seat knew them at the game's position), so that
// any later position is one click away too.
function showMoves() {
  const list = $("moves");
  if (state.replayPly === null) update({ wholeList: { seat: state.seat, moves: state.game.view.moves } });
  const { game, replayPly, wholeList, seat } = state;
  const moves = replayPly !== null && wholeList && wholeList.seat === seat ? wholeList.moves : game.view.moves;
  const current = replayPly === null ? game.view.ply : replayPly;
  list.replaceChildren(...moves.map((m) => {
    const button = el("button", {
      type: "button", class: m.ply + 1 === current ? "move current" : "move", "data-ply": m.ply + 1,
      title: "show the position after this move",
      onclick: () => { showPosition(m.ply + 1 === state.game.ply ? null : m.ply + 1); },
    }, `${m.label}: ${m.text}`);
    return el("li", {}, button);
  }));
  const shown = list.querySelector(".current");
  if (shown) shown.scrollIntoView({ block: "nearest" });
}

// A position from the move list (null: the game now), read and drawn again.
function showPosition(ply) {
  update({ replayPly: ply, clicks: [] });
  actions.load();
}

function showInvite() {
  const links = JSON.parse(sessionStorage.getItem(`boardlab.links.${state.gameId}`) || "null");
  const box = $("invite");
  if (!links || state.game.status === "finished") { box.hidden = true; return; }
  box.replaceChildren("Send this link to your opponent: ",
    ...Object.entries(links).map(([s, link]) => el("input", { readonly: "", value: link, "aria-label": `invitation for seat ${s}` })));
  box.hidden = false;
}

export function wireView() {
  $("live").addEventListener("click", () => showPosition(null));
}
