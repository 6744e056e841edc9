// The game page's state, in one place: everything the page knows and draws from. Modules read `state`
// and change it only through update(), so that every change is an explicit, named assignment; the
// views draw from it (view.js, board.js, offers.js). What is per game comes from the server: the
// game's answers, and the page's data attributes (its id, the layout it has for narrow screens).
import { byId, seats } from "../common.js";

const page = byId("game");
const gameId = Number(page.dataset.gameId);

export const state = {
  gameId,
  narrowLayout: page.dataset.narrowLayout || null,  // the layout made for phones, where the game has one
  tokens: seats(gameId),  // guest seats held here: {seat: token}
  seat: null,             // the seat this page plays and views now (null: watching)
  game: null,             // the game as the API last told it (this seat's view)
  clicks: [],             // the clicks toward a move so far (accepted by the server)
  replayPly: null,        // a position from the move list, or null for the game now
  layout: null,           // the board's layout; null until the first board is drawn
  focusedCell: null,      // the cell the keyboard is on, kept across redraws of the board
  pieces: {},             // seat → its pieces on the board, as the last board drawn told
  wholeList: null,        // {seat, moves}: the move list from the last look at the game now
  me: null,               // the signed-in account's name (null: a guest)
  rematchSeen: null,      // the rematch game as last read
  computerAsked: null,    // the version whose computer move is being asked after (one poller a position)
};

export function update(changes) {
  for (const name of Object.keys(changes)) {
    if (!(name in state)) throw new Error(`the game page has no state ${name}`);
  }
  Object.assign(state, changes);
}

// An answer may arrive after a live update that already told of a later change (the computer's
// reply, the game's end): the later version wins.
export function newer(answer) {
  if (!state.game || answer.version >= state.game.version) update({ game: answer });
}

// -- the seats this page plays ------------------------------------------------------------------

export const heldHere = () => Object.keys(state.tokens).map(Number).sort();

// Every request carries all the seat tokens this browser holds in this game (a hot-seat table holds
// them all, so the server knows no other person plays here) and says which seat it speaks for.
// Without a seat chosen the page asks as a spectator (the hand-over screen shows no one's stones).
export const token = () => (state.seat === null ? null : heldHere().map((held) => state.tokens[held]).join(",") || null);

export const hotSeat = () => heldHere().length > 1;

// The seats this page plays: the guest seats held here, else the account's (as the game tells it).
export function mine() {
  const held = heldHere();
  if (held.length) return held;
  return state.game ? state.game.your_seats : [];
}

export function chooseSeat(toMove) {
  const held = mine();
  if (!held.length) return null;
  return held.includes(toMove) ? toMove : held[0];
}

export function myTurn() {
  const { game, seat } = state;
  return game.status === "active" && seat !== null && game.to_move === seat && game.your_seats.includes(seat);
}

// The query that says which position and seat the page shows.
export function shownQuery() {
  const query = new URLSearchParams();
  if (state.replayPly !== null) query.set("ply", state.replayPly);
  if (state.seat !== null) query.set("seat", state.seat);
  return query;
}
