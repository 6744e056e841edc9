// The game page: the board (SVG from /api/games/{id}/board, drawn for this browser's seat), click to
// move (or the keyboard: Tab to the board, arrow keys between cells, Enter to click), typed moves, the
// move list and replay, hints, resign/draw/undo and their answers, rematch, live updates (Server-Sent
// Events) and hot-seat, with a hand-over screen between seats in games with hidden moves. The seats
// this page plays are the guest seats whose tokens this browser holds, or else the signed-in
// account's seats, as the game says (your_seats).
//
// This module is the controller: it reads the game, sends moves and answers, follows the live
// updates, and asks the views to draw again. The page's state is game/state.js; the views draw from it
// (game/view.js, game/board.js, game/offers.js); nothing here or there is particular to one game.
import { api, byId as $, keepSeat, seats, whoAmI } from "./common.js";
import { provide } from "./game/actions.js";
import { drawBoard, wireBoard } from "./game/board.js";
import { busy, busyUntil } from "./game/busy.js";
import { handOver, wireHandover } from "./game/handover.js";
import { wireHints } from "./game/hints.js";
import { say } from "./game/message.js";
import { wireOffers } from "./game/offers.js";
import { chooseSeat, heldHere, hotSeat, mine, newer, shownQuery, state, token, update } from "./game/state.js";
import * as stream from "./game/stream.js";
import { shortened } from "./game/text.js";
import { show, wireView } from "./game/view.js";

const gameUrl = (path = "") => `/api/games/${state.gameId}${path}`;

async function adoptLinkToken() {
  // An invitation link carries its seat's token: keep it here and take it out of the address bar.
  const linked = new URLSearchParams(location.search).get("seat_token");
  if (!linked) return;
  const seen = await api(gameUrl(), { token: linked });
  for (const held of seen.your_seats) keepSeat(state.gameId, held, linked);
  update({ tokens: seats(state.gameId) });
  history.replaceState(null, "", `/games/${state.gameId}`);
}

async function load() {
  update({ game: await api(gameUrl(`?${shownQuery()}`), { token: token() }) });
  await adoptSeat();
  show();
  await drawBoard();
}

// A signed-in player's seat is known once the game is read (or once they accept the challenge):
// from then on the page asks for that seat's view, and its live updates.
async function adoptSeat() {
  if (state.seat !== null || !state.game.your_seats.length) return false;
  update({ seat: chooseSeat(state.game.to_move) });
  const query = new URLSearchParams({ seat: state.seat });
  update({ game: await api(gameUrl(`?${query}`), { token: token() }) });
  if (stream.listening()) listen();
  return true;
}

// Play `seat` now: read the game as it sees it, and listen for its updates.
async function resume(seat) {
  update({ seat });
  await load();
  listen();
}

// -- moves and actions --------------------------------------------------------------------------

function sendMove(text) {
  return busy(() => sendMoveNow(text));
}

async function sendMoveNow(text) {
  if (!state.game) return false;
  try {
    newer(await api(gameUrl("/moves"), {
      method: "POST", token: token(), body: { ply: state.game.ply, move: text, seat: state.seat },
    }));
  } catch (error) {
    update({ clicks: [] });
    say(`${shortened(text)}: ${error.message}`);
    if (error.status === 409) await load();  // an old position: show the game as it is now
    else await drawBoard();
    return false;
  }
  update({ clicks: [] });
  say(`played ${shortened(text)}`, "info");
  await changed();
  return true;
}

async function act(what, body) {
  try {
    newer(await api(gameUrl(`/${what}`), { method: "POST", token: token(), body }));
    say("");
    await changed();
  } catch (error) {
    say(error.message);
  }
}

async function answerChallenge(id, what) {
  try {
    await api(`/api/games/${id}/${what}`, { method: "POST" });
    if (id !== state.gameId) { if (what === "accept") location.href = `/games/${id}`; else await load(); return; }
    await load();
    listen();
  } catch (error) {
    say(error.message);
  }
}

// After every change: hot-seat hand-over (or the next seat's view), or just the new position.
async function changed() {
  if (await adoptSeat()) { show(); await drawBoard(); return; }
  const { game, seat, tokens } = state;
  const next = game.to_move;
  if (hotSeat() && game.status === "active" && next !== seat && tokens[next] !== undefined) {
    if (!game.perfect_information) { handOver(next); return; }
    await resume(next);
    return;
  }
  show();
  await drawBoard();
}

// -- live updates ------------------------------------------------------------------------------

function listen() {
  stream.listen({
    game: (fresh) => busy(async () => {
      const { game } = state;
      if (!game || fresh.version <= game.version) return;
      // Looking back: the list catches up on return.
      if (state.replayPly !== null) { update({ game: { ...game, ply: fresh.ply } }); return; }
      update(fresh.ply !== game.ply ? { game: fresh, clicks: [] } : { game: fresh });
      await changed();
    }),
    // Kept open after the end (for a rematch) while a seat is held here; a spectator's closes.
    end: () => { if (!mine().length) stream.stop(); },
    // The server closed a finished game's stream (a rematch was offered, or nobody plays here): do not reconnect.
    error: () => {
      const { game } = state;
      if (game && game.status !== "active" && game.status !== "challenge") stream.stop();
    },
  });
}

// -- the controls ------------------------------------------------------------------------------

function wireControls() {
  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = event.target.elements.move;
    const text = field.value.trim();
    if (!text) return;
    sendMove(text).then((ok) => { if (ok) field.value = ""; });
  });
  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("resign", { seat: state.seat }); });
  $("draw").addEventListener("click", () => {
    // At one browser holding every seat an offer is the table's agreement: the server ends the game drawn.
    const { game } = state;
    if (game && game.your_seats.length > 1 && !confirm("Do all players here agree to a draw?")) return;
    act("draw", { action: "offer", seat: state.seat });
  });
  $("undo").addEventListener("click", () => {
    // Holding every seat (hot-seat), "undo" takes back the last move made, whoever's seat made it.
    const { game } = state;
    const moves = game ? game.view.moves : [];
    const asker = game && game.your_seats.length > 1 && moves.length ? moves[moves.length - 1].seat : state.seat;
    act("undo", { action: "request", seat: asker });
  });
}

provide({ load, sendMove, act, answerChallenge, resume });
wireBoard();
wireView();
wireOffers();
wireHints();
wireHandover();
wireControls();

busyUntil(async () => {
  try {
    update({ me: await whoAmI() });
    await adoptLinkToken();
    if (hotSeat()) {
      // Hidden moves at one table: first the hand-over screen (asked as a spectator, who sees no stone).
      update({ game: await api(gameUrl()) });
      if (!state.game.perfect_information && state.game.status === "active") {
        update({ seat: null });
        handOver(chooseSeat(state.game.to_move));
        return;
      }
      update({ seat: chooseSeat(state.game.to_move) });
    }
    if (state.seat === null && heldHere().length) update({ seat: heldHere()[0] });
    await load();
    listen();
  } catch (error) {
    say(error.message);
  }
});
