// While the computer is to move: say so, and (when the server queues its searches) where this one stands.
import { api, byId as $ } from "../common.js";
import { state, update } from "./state.js";
import { ordinal } from "./text.js";

const POLL_MS = 1500;

function computerTurn() {
  const { game } = state;
  return game !== null && game.status === "active"
    && game.seats.some((s) => s.seat === game.to_move && s.kind === "ai");
}

export async function showComputer() {
  const box = $("computer");
  if (!computerTurn() || state.replayPly !== null) { box.hidden = true; box.textContent = ""; return; }
  const version = state.game.version;
  box.hidden = false;
  if (!box.textContent) box.textContent = "The computer is thinking…";
  if (state.computerAsked === version) return;  // one poller a position
  update({ computerAsked: version });
  const current = () => state.game !== null && state.game.version === version;
  while (current() && computerTurn()) {
    try {
      const turn = await api(`/api/games/${state.gameId}/computer`);
      if (!current()) break;
      if (!turn.thinking) break;
      box.textContent = turn.queue_place === null || turn.queue_place === 0 ? "The computer is thinking…"
        : `The computer's move is queued: ${ordinal(turn.queue_place)} in line for a searching machine.`;
      box.dataset.queuePlace = turn.queue_place === null ? "" : String(turn.queue_place);
    } catch (_) { /* the next live update redraws this */ }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
