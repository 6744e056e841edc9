// A live game's running clock, counted down on the page between the server's answers.
import { state } from "./state.js";
import { clockText } from "./text.js";

let ticking = null;  // the interval counting the running clock down

export function startClock() {
  if (ticking) clearInterval(ticking);
  const { game } = state;
  if (!game || game.status !== "active" || game.time.kind !== "live") return;
  const since = Date.now();
  const running = game.clocks.find((c) => c.running);
  if (!running || running.remaining_seconds === null) return;
  const item = document.querySelector(`#seats li[data-seat="${running.seat}"] .clock`);
  ticking = setInterval(() => {
    const left = running.remaining_seconds - (Date.now() - since) / 1000;
    if (item) item.textContent = clockText({ remaining_seconds: left });
  }, 1000);
}
