// The lobby: play the computer at once as a guest, log in or register, my games (those waiting for
// me first), open challenges, games to watch; kept fresh by the lobby's Server-Sent Events.
import { api, el, guestGames, openCreated, playerNode, seats, whenReady, whoAmI, byId as $ } from "./common.js";

let me = null;

// Play the computer now: untimed (the server's default where one person plays), as a guest or as me.
$("quick").addEventListener("submit", (event) => {
  event.preventDefault();
  const form = event.target.elements;
  const mine = me ? { kind: "me" } : { kind: "guest" };
  whenReady(form.game.value, $("play-now"), $("preparing"), async () => {
    try {
      const created = await api("/api/games", {
        method: "POST", body: { game: form.game.value, seats: [mine, { kind: "ai", agent: form.level.value }] },
      });
      openCreated(created, [0]);
    } catch (error) {
      $("account-error").textContent = error.message;
    }
  });
});

$("login").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target.elements;
  try {
    await api("/api/login", { method: "POST", body: { name: form.name.value, password: form.password.value } });
    location.reload();
  } catch (error) {
    $("account-error").textContent = error.message;
  }
});

$("register").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.target.elements;
  if (form.password.value !== form.again.value) {
    $("account-error").textContent = "the two passwords differ; type the same password twice";
    return;
  }
  const body = { name: form.name.value, password: form.password.value };
  if (form.email.value.trim()) body.email = form.email.value.trim();
  try {
    await api("/api/register", { method: "POST", body });
    location.reload();
  } catch (error) {
    $("account-error").textContent = error.message;
  }
});

$("logout").addEventListener("click", async () => {
  await api("/api/logout", { method: "POST" });
  location.reload();
});

function who(summary) {
  const parts = [];
  summary.seats.forEach((seat, index) => { if (index) parts.push(" vs "); parts.push(playerNode(seat)); });
  return parts;
}

function item(summary, extra = null) {
  const state = summary.status === "finished" ? (summary.outcome || "finished")
    : summary.status === "declined" ? "declined"
      : summary.status === "challenge" ? "challenge" : `move ${summary.ply + 1}`;
  const link = el("a", { href: `/games/${summary.id}` }, `${summary.game_name} #${summary.id}`);
  const li = el("li", { class: summary.your_turn || summary.invited ? "waiting" : null, "data-game": summary.id },
    link, summary.rated ? el("span", { class: "tag" }, " rated") : "", " — ", ...who(summary), " — ",
    el("span", { class: "outcome" }, state));
  if (summary.your_turn) li.append(el("strong", {}, " · your turn"));
  if (extra) li.append(" ", extra);
  return li;
}

async function answer(gameId, what) {
  try {
    await api(`/api/games/${gameId}/${what}`, { method: "POST" });
    if (what === "accept") location.href = `/games/${gameId}`;
    else refresh();
  } catch (error) {
    $("account-error").textContent = error.message;
  }
}

async function refresh() {
  const lobby = await api("/api/lobby");
  const mine = lobby.my_games.map((g) => item(g, g.invited ? el("span", {},
    el("button", { onclick: () => answer(g.id, "accept") }, "Accept"), " ",
    el("button", { onclick: () => answer(g.id, "decline") }, "Decline")) : null));
  // Guest games this browser holds seats in (no account), those waiting for a seat held here first.
  // Each is asked as a spectator: the list needs no seat's view, and shows none.
  const known = new Set(lobby.my_games.map((g) => g.id));
  const guests = guestGames().filter((id) => !known.has(id)).sort((a, b) => b - a).slice(0, 20);
  const found = (await Promise.all(guests.map(async (id) => {
    try { return await api(`/api/games/${id}`); } catch (_) { return null; }  // gone: not listed
  }))).filter(Boolean).map((g) => {
    const held = Object.keys(seats(g.id)).map(Number);
    return { ...g, your_seats: held, your_turn: g.status === "active" && held.includes(g.to_move), invited: false };
  });
  const rank = (g) => (g.your_turn ? 0 : g.status === "active" || g.status === "challenge" ? 1 : 2);
  found.sort((a, b) => rank(a) - rank(b) || b.id - a.id);
  for (const g of found) mine.push(item(g, el("span", { class: "muted" }, "(a guest seat in this browser)")));
  $("my-games").replaceChildren(...mine);
  $("my-empty").hidden = mine.length > 0;
  $("open").replaceChildren(...(lobby.open_challenges.length ? lobby.open_challenges.map((g) => item(g,
    me ? el("button", { onclick: () => answer(g.id, "accept") }, "Accept") : el("span", { class: "muted" }, "(log in to accept)")))
    : [el("li", { class: "muted" }, "none")]));
  $("watch").replaceChildren(...(lobby.watch.length ? lobby.watch.map((g) => item(g)) : [el("li", { class: "muted" }, "none")]));
}

(async () => {
  me = await whoAmI();
  $("logged-out").hidden = !!me;
  $("logged-in").hidden = !me;
  $("me").textContent = me ? `Signed in as ${me}.` : "";
  if (me) $("my-profile").href = `/users/${encodeURIComponent(me)}`;
  await refresh();
  const events = new EventSource("/api/my/events");
  let pending = null;
  events.addEventListener("lobby", () => {
    clearTimeout(pending);
    pending = setTimeout(refresh, 300);  // a burst of changes: one refresh
  });
})();
