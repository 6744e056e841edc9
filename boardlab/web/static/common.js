// boardlab's pages: what every page shares, as an ES module (no build step); only the server's JSON API.
// Each page's own module imports what it needs from here; the page header's "who" is header.js.

// A JSON request to the API; a 4xx answer throws an Error carrying the server's one-line detail.
export async function api(path, { method = "GET", body = undefined, token = null } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const response = await fetch(path, {
    method, headers, credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = text; }
  if (!response.ok) {
    let detail = data && data.detail !== undefined ? data.detail : text || response.statusText;
    if (Array.isArray(detail)) detail = detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    const error = new Error(String(detail));
    error.status = response.status;
    throw error;
  }
  return data;
}

// Guest seats this browser holds: {gameId: {seat: token}}, kept in localStorage (the invitation
// link's token is moved here and taken out of the address bar).
const SEATS_KEY = "boardlab.seats";
const allSeats = () => JSON.parse(localStorage.getItem(SEATS_KEY) || "{}");

export function seats(gameId) {
  return allSeats()[gameId] || {};
}

export function keepSeat(gameId, seat, token) {
  const all = allSeats();
  all[gameId] = all[gameId] || {};
  all[gameId][seat] = token;
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

export function guestGames() {
  return Object.keys(allSeats()).map(Number);
}

// A new game from the API's answer: keep its guest seats' tokens (those in `mySeats`, or all when it is
// null), keep the other seats' invitation links for the game page to show, then open its page.
export function openCreated(created, mySeats) {
  const id = created.game.id;
  for (const [seat, token] of Object.entries(created.invitations)) {
    if (mySeats === null || mySeats.includes(Number(seat))) keepSeat(id, seat, token);
  }
  const links = Object.entries(created.links).filter(([seat]) => mySeats !== null && !mySeats.includes(Number(seat)));
  if (links.length) sessionStorage.setItem(`boardlab.links.${id}`, JSON.stringify(Object.fromEntries(links)));
  location.href = `/games/${id}`;
}

// An element: attributes (null, undefined and false are left out; onclick becomes a listener, never an
// inline handler, which the Content-Security-Policy forbids) and children (nodes or text).
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "onclick") node.addEventListener("click", value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(name, value);
  }
  for (const child of children) node.append(child);
  return node;
}

export const byId = (id) => document.getElementById(id);

// A page's message line: an error (what was refused, and why), or what was done (kind "info").
export function tell(node, text, kind = "error") {
  node.textContent = text || "";
  node.className = `message ${kind}`;
}

// Who is signed in: asked once per page (every module that wants it shares the one request).
let signedIn = null;
export function whoAmI() {
  if (!signedIn) signedIn = api("/api/me").then((me) => me.name, () => null);
  return signedIn;
}

// Before a new game of `gameId`: while the server is still preparing its rules (compiling them at
// start), the button waits and `note` says so; then `work` runs.
export async function whenReady(gameId, button, note, work) {
  const name = (button.form && button.form.querySelector("select[name=game] option:checked") || {}).textContent || gameId;
  const label = button.textContent;
  button.disabled = true;
  try {
    for (let waited = 0; ; waited += 1) {
      let ready = true;
      try { ready = (await api("/api/status")).rules_ready[gameId] !== false; } catch (_) { ready = true; }
      if (ready) break;
      note.textContent = `Preparing the rules of ${name} (the server compiles them once, after it starts)… ${waited}s`;
      button.textContent = "Preparing the rules…";
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    note.textContent = "";
    button.textContent = label;
    await work();
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

// A player in a list: their name (a link to their profile), the seat's colour, their rating in a rated game.
export function playerNode(seat) {
  const rating = seat.rating === null || seat.rating === undefined ? "" : `, ${Math.round(seat.rating)}`;
  const name = seat.kind === "user" && seat.name
    ? el("a", { href: `/users/${encodeURIComponent(seat.name)}` }, seat.name)
    : (seat.name || "open seat");
  return el("span", { class: "player" }, name, ` (${seat.label}${rating})`);
}
