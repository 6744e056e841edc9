// Offers and their answers: a draw offered, an undo asked for, a challenge to this signed-in player,
// and after the end a rematch (offered by the other player, or by this page).
import { api, byId as $, el, openCreated } from "../common.js";
import { actions } from "./actions.js";
import { say } from "./message.js";
import { heldHere, state, token, update } from "./state.js";
import { player } from "./text.js";

export function showOffers() {
  const { game, seat } = state;
  const box = $("offers");
  box.replaceChildren();
  showChallenge(box);
  showRematch(box);
  if (game.status !== "active" || seat === null) return;
  // The seat playing now answers the other seats' offers (at a hot-seat table this browser holds them all).
  const others = game.draw_offers.filter((s) => s !== seat);
  const named = (s) => player(game, s);
  if (others.length) {
    box.append(el("p", { class: "offer", id: "draw-offer" }, `${others.map(named).join(", ")} offer${others.length > 1 ? "" : "s"} a draw. `,
      el("button", { onclick: () => actions.act("draw", { action: "accept", seat }) }, "Accept"), " ",
      el("button", { onclick: () => actions.act("draw", { action: "decline", seat }) }, "Decline")));
  } else if (game.draw_offers.includes(seat)) {
    box.append(el("p", { class: "muted" }, "You offered a draw."));
  }
  if (game.undo_request !== null && game.undo_request !== seat) {
    box.append(el("p", { class: "offer", id: "undo-request" }, `${named(game.undo_request)} asks to take back their last move. `,
      el("button", { onclick: () => actions.act("undo", { action: "grant", seat }) }, "Grant"), " ",
      el("button", { onclick: () => actions.act("undo", { action: "decline", seat }) }, "Decline")));
  } else if (game.undo_request !== null) {
    box.append(el("p", { class: "muted" }, "You asked to undo your last move."));
  }
}

// A challenge on its own page: the invited player (signed in) accepts or declines it here.
function showChallenge(box) {
  const { game, me, gameId } = state;
  if (game.status !== "challenge" || me === null) return;
  const waiting = game.seats.some((s) => !s.accepted && (s.kind === "open" ? !game.seats.some((t) => t.name === me) : s.name === me));
  if (!waiting) return;
  box.append(el("p", { class: "offer", id: "challenge" }, "A challenge for you. ",
    el("button", { class: "primary", onclick: () => actions.answerChallenge(gameId, "accept") }, "Accept"), " ",
    el("button", { onclick: () => actions.answerChallenge(gameId, "decline") }, "Decline")));
}

// After the end: a rematch offered (by the other player, or by this page).
function showRematch(box) {
  const { game, me } = state;
  if (game.status !== "finished" || game.rematch === null) return;
  const id = game.rematch;
  if (!state.rematchSeen || state.rematchSeen.id !== id) {
    update({ rematchSeen: { id } });
    api(`/api/games/${id}`).then((found) => { update({ rematchSeen: found }); showOffers(); }, () => {});
    return;
  }
  const seen = state.rematchSeen;
  const waiting = seen.status === "challenge" && me !== null && seen.seats.some((s) => !s.accepted && s.name === me);
  const asker = seen.seats.find((s) => s.accepted && s.kind === "user");
  if (waiting) {
    box.append(el("p", { class: "offer", id: "rematch-offer" },
      `${asker ? asker.name : "Your opponent"} offers a rematch (seats swapped). `,
      el("button", { class: "primary", onclick: () => actions.answerChallenge(id, "accept") }, "Accept"), " ",
      el("button", { onclick: () => actions.answerChallenge(id, "decline") }, "Decline")));
  } else {
    const answered = seen.status === "declined" ? " (declined)" : seen.status === "challenge" ? " (waiting for an answer)" : "";
    box.append(el("p", { class: "offer" }, "Rematch: ", el("a", { href: `/games/${id}`, id: "rematch-link" }, `game ${id}`), answered));
  }
}

export function wireOffers() {
  $("rematch").addEventListener("click", async () => {
    try {
      const created = await api(`/api/games/${state.gameId}/rematch`, { method: "POST", token: token() });
      openCreated(created, heldHere().length ? null : []);
    } catch (error) {
      say(error.message);
    }
  });
}
