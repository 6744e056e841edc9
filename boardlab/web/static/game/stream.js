// Live updates: the game's Server-Sent Events, for the seat this page plays (or as a spectator).
import { state, token } from "./state.js";

let events = null;  // the open EventSource, or null

// Listen again (for the seat played now): `on.game(fresh)` for each change, `on.end()` at the game's
// end, `on.error()` when the stream breaks.
export function listen(on) {
  if (events) events.close();
  const query = new URLSearchParams();
  if (token()) query.set("seat_token", token());
  if (state.seat !== null) query.set("seat", state.seat);
  query.set("after_end", "true");  // after the end, a rematch offered still reaches this page
  events = new EventSource(`/api/games/${state.gameId}/events?${query}`);
  events.addEventListener("game", (event) => on.game(JSON.parse(event.data)));
  events.addEventListener("end", () => on.end());
  events.onerror = () => on.error();
}

export function listening() {
  return events !== null;
}

export function stop() {
  if (events) { events.close(); events = null; }
}
