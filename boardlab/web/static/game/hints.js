// Hints (the computer's top moves for the seat to move; in play a hinted move is a button that plays
// it) and "Analyse from here": a finished game's position opened as a new board (the record up to
// here, unfinished) where this browser holds every seat, so variations can be played and hinted.
import { api, byId as $, el, openCreated } from "../common.js";
import { actions } from "./actions.js";
import { say } from "./message.js";
import { state, token } from "./state.js";
import { seatLabel } from "./text.js";

async function hint() {
  const { game, seat, replayPly, gameId } = state;
  const box = $("hints");
  box.replaceChildren(el("p", { class: "muted" }, "The computer is thinking…"));
  const live = game.status === "active";
  const body = live ? { seat } : { ply: replayPly === null ? game.ply : replayPly };
  try {
    const found = await api(`/api/games/${gameId}/hint`, { method: "POST", token: live ? token() : null, body });
    // In play, a hinted move is a button that plays it; on the analysis board it is only shown.
    const shown = (c) => (live
      ? el("button", { type: "button", class: "hint-move", onclick: () => actions.sendMove(c.move) }, c.move)
      : el("strong", { class: "hint-move" }, c.move));
    box.replaceChildren(el("p", {}, `The computer's top moves for ${seatLabel(game, found.seat)}${found.ply ? `, after move ${found.ply}` : ", at the start"}:`),
      el("ol", {}, ...found.candidates.map((c) => el("li", {}, shown(c),
        c.value === null ? "" : ` (value ${c.value.toFixed(2)}, ${c.depth ? `${c.depth} plies deep` : `${c.visits} visits`})`))));
  } catch (error) {
    box.replaceChildren(el("p", { class: "error" }, error.message));
  }
}

async function analyse() {
  const { game, replayPly, gameId } = state;
  const ply = replayPly === null ? game.ply : replayPly;
  try {
    const record = await api(`/api/games/${gameId}/record`);
    const tags = { ...(record.tags || {}) };
    delete tags.loser;  // the new board is unfinished: nobody has lost it
    Object.assign(record, { moves: record.moves.slice(0, ply), result: null, termination: null, finished: null, tags });
    const created = await api("/api/games", {
      method: "POST", body: { record, seats: record.players.map(() => ({ kind: "guest" })) },
    });
    openCreated(created, null);
  } catch (error) {
    say(error.message);
  }
}

export function wireHints() {
  $("hint").addEventListener("click", hint);
  $("analyse").addEventListener("click", analyse);
}
