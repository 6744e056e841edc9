// The new-game form, built from the games' own declarations (/api/catalog): variants, every option
// with its default and help, the opponent, the time control; and opening an uploaded record.
import { api, el, openCreated, whenReady, whoAmI, byId as $ } from "./common.js";

const form = $("new");
let catalog = [];
let touched = new Set();  // options the player changed: only these are sent (a variant's own stay)

const current = () => catalog.find((g) => g.id === form.elements.game.value);

function field(option, value) {
  const name = `option-${option.name}`;
  if (option.type === "bool") {
    return el("input", { type: "checkbox", name, id: name, checked: value ? "" : null });
  }
  if (option.choices.length) {
    const select = el("select", { name, id: name },
      ...option.choices.map((c) => el("option", { value: c, title: option.choice_help[c] || null }, c)));
    select.value = value;
    return select;
  }
  return el("input", {
    type: option.type === "int" ? "number" : "text", name, id: name, value,
    min: option.minimum, max: option.maximum,
  });
}

function showOptions() {
  const game = current();
  const variant = game.variants.find((v) => v.name === form.elements.variant.value);
  const values = variant ? variant.options : {};
  $("game-summary").textContent = `${game.designer}, ${game.year}. ${game.summary} Players: ${game.players.join(" or ")}.`;
  $("variant-help").textContent = variant ? variant.help : "";
  touched = new Set();
  $("options").replaceChildren(...game.options.map((option) => {
    const value = option.name in values ? values[option.name] : option.default;
    const input = field(option, value);
    for (const kind of ["input", "change"]) input.addEventListener(kind, () => touched.add(option.name));
    const help = `${option.help.replace(/\.?$/, ".")} Accepted: ${option.allowed}. Default: ${option.default}.`
      + (option.ambiguity ? ` (${option.ambiguity})` : "");
    return el("div", { class: "option", "data-option": option.name },
      el("label", { for: input.id }, option.name), el("div", {}, input, el("div", { class: "help" }, help)));
  }));
}

function showGame() {
  const game = current();
  form.elements.variant.replaceChildren(el("option", { value: "" }, "standard"),
    ...game.variants.map((v) => el("option", { value: v.name }, v.name)));
  showOptions();
}

function optionValues() {
  const game = current();
  const out = {};
  for (const option of game.options) {
    if (!touched.has(option.name)) continue;
    const input = form.elements[`option-${option.name}`];
    out[option.name] = option.type === "bool" ? input.checked : option.type === "int" ? Number(input.value) : input.value;
  }
  return out;
}

function seatCount(options) {
  const game = current();
  const players = options.players !== undefined ? options.players
    : (game.options.find((o) => o.name === "players") || {}).default;
  return players || game.players[0];
}

form.elements.game.addEventListener("change", () => { showGame(); showOpponent(); });
form.elements.variant.addEventListener("change", showOptions);
function showOpponent() {
  const kind = form.elements.opponent.value;
  $("level-box").hidden = kind !== "ai";
  $("user-box").hidden = kind !== "user";
  $("rated-box").hidden = !(kind === "user" || kind === "open") || seatCount(optionValues()) !== 2;
}
form.elements.opponent.addEventListener("change", showOpponent);

form.addEventListener("submit", (event) => {
  event.preventDefault();
  whenReady(current().id, form.querySelector("button[type=submit]"), $("new-error"), start);
});

async function start() {
  const me = await whoAmI();
  const options = optionValues();
  const count = seatCount(options);
  const kind = form.elements.opponent.value;
  const order = Math.min(Number(form.elements.order.value), count - 1);
  const mine = me ? { kind: "me" } : { kind: "guest" };
  const names = form.elements.user.value.split(",").map((s) => s.trim()).filter(Boolean);
  const seats = [];
  for (let seat = 0, other = 0; seat < count; seat++) {
    if (kind === "hotseat") seats.push({ kind: "guest" });
    else if (seat === order) seats.push(mine);
    else if (kind === "ai") seats.push({ kind: "ai", agent: form.elements.level.value });
    else if (kind === "link") seats.push({ kind: "guest" });
    else if (kind === "user") seats.push({ kind: "user", user: names[other++] || names[0] || "" });
    else seats.push({ kind: "open" });
  }
  const chosen = form.elements.time.value;
  const time = chosen === "live"
    ? { kind: "live", minutes: Number(form.elements.minutes.value), increment: Number(form.elements.increment.value) }
    : chosen === "correspondence" ? { kind: "correspondence", days: Number(form.elements.days.value) }
      : chosen === "untimed" ? { kind: "untimed" } : null;
  const body = { game: current().id, options, seats };
  if (time) body.time = time;
  if ((kind === "user" || kind === "open") && count === 2 && form.elements.rated.checked) body.rated = true;
  if (kind === "hotseat") body.private = true;  // everyone at one browser: nothing for others to watch
  if (form.elements.variant.value) body.variant = form.elements.variant.value;
  try {
    const created = await api("/api/games", { method: "POST", body });
    openCreated(created, kind === "hotseat" ? null : [order]);
  } catch (error) {
    $("new-error").textContent = error.message;
  }
}

$("upload").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = event.target.elements.record.files[0];
  try {
    const record = JSON.parse(await file.text());
    const count = Array.isArray(record.players) && record.players.length ? record.players.length : 2;
    const created = await api("/api/games", {
      method: "POST", body: { record, seats: Array.from({ length: count }, () => ({ kind: "guest" })) },
    });
    openCreated(created, null);
  } catch (error) {
    $("upload-error").textContent = error instanceof SyntaxError ? `not a JSON file: ${error.message}` : error.message;
  }
});

(async () => {
  catalog = await api("/api/catalog");
  const wanted = new URLSearchParams(location.search).get("game");
  if (wanted && catalog.some((g) => g.id === wanted)) form.elements.game.value = wanted;
  showGame();
  showOpponent();
})();
