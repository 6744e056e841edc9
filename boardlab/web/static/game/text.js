// Words and numbers as the game page writes them (pure functions of what the API answered).

export function seatLabel(game, number) {
  const found = game.seats.find((s) => s.seat === number);
  return found ? found.label : `seat ${number}`;
}

// A seat's player as sentences name them: "bob (o)".
export function player(game, number) {
  const found = game.seats.find((s) => s.seat === number);
  if (!found) return `seat ${number}`;
  return found.name && found.name !== found.label ? `${found.name} (${found.label})` : found.label;
}

export function ratingText(s) {
  if (s.rating === null || s.rating === undefined) return "";
  const now = Math.round(s.rating);
  if (s.rating_change === null || s.rating_change === undefined) return ` ${now}`;
  const change = Math.round(s.rating_change);
  return ` ${now} → ${Math.round(s.rating + s.rating_change)} (${change >= 0 ? "+" : ""}${change})`;
}

export function clockText(clock) {
  if (clock.remaining_seconds === null) return "";
  const total = Math.max(0, Math.round(clock.remaining_seconds));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

export function ordinal(n) {
  const tens = n % 100, ones = n % 10;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
  return `${n}${suffix}`;
}

// What was typed, as the page repeats it: the beginning of a long text, and how long it was.
export function shortened(text) {
  return text.length <= 40 ? text : `${text.slice(0, 40)}… (${text.length} characters)`;
}
