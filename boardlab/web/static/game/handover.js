// Hot-seat with hidden moves: between two seats' turns the page shows a hand-over screen, and nothing
// of the last seat's view stays on the page while the next player takes the device.
import { byId as $ } from "../common.js";
import { actions } from "./actions.js";
import { say } from "./message.js";
import { state, update } from "./state.js";
import { stop } from "./stream.js";
import { seatLabel } from "./text.js";

const CLEARED = ["board", "moves", "seats", "hints", "steps", "status", "offers", "captures"];

export function handOver(next) {
  stop();
  const { game, seat } = state;
  const label = seatLabel(game, next);
  const last = seat === null ? null : seatLabel(game, seat);
  update({ game: null, clicks: [] });
  for (const id of CLEARED) $(id).replaceChildren();
  say("");
  $("play").hidden = true;
  $("handover-title").textContent = `Hand over to ${label}`;
  $("handover-text").textContent = (last ? `${last}: your move is made; pass the device and look away. ` : "")
    + `${label}: press the button when only you can see the screen.`;
  $("handover").hidden = false;
  $("handover-ready").dataset.seat = next;
}

export function wireHandover() {
  $("handover-ready").addEventListener("click", async (event) => {
    $("handover").hidden = true;
    $("play").hidden = false;
    await actions.resume(Number(event.target.dataset.seat));
  });
}
