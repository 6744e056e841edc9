// The game page: the board (SVG from /api/games/{id}/board, drawn for this browser's seat), click to
// move (or the keyboard: Tab to the board, arrow keys between cells, Enter to click), typed moves, the
// move list and replay, hints, resign/draw/undo and their answers, rematch, live updates (Server-Sent
// Events) and hot-seat, with a hand-over screen between seats in games with hidden moves. The seats
// this page plays are the guest seats whose tokens this browser holds, or else the signed-in
// account's seats, as the game says (your_seats).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const gameId = Number($("game").dataset.gameId);
  let tokens = boardlab.seats(gameId);   // guest seats held here: {seat: token}
  let seat = null;                        // the seat this page plays and views now (null: watching)
  let game = null;                        // the game as the API last told it (this seat's view)
  let clicks = [];                        // the clicks toward a move so far (accepted by the server)
  let replayPly = null;                   // a position from the move list, or null for the game now
  let layout = null;
  let events = null;
  let drawing = 0;                        // answers to older board requests are dropped
  let clockTimer = null;

  const heldHere = () => Object.keys(tokens).map(Number).sort();
  // Every request carries all the seat tokens this browser holds in this game (a hot-seat table holds
  // them all, so the server knows no other person plays here) and says which seat it speaks for.
  // Without a seat chosen the page asks as a spectator (the hand-over screen shows no one's stones).
  const token = () => (seat === null ? null : heldHere().map((held) => tokens[held]).join(",") || null);
  const hotSeat = () => heldHere().length > 1;

  function say(text, kind = "error") {
    const message = $("message");
    message.textContent = text || "";
    message.className = `message ${kind}`;
  }

  async function adoptLinkToken() {
    // An invitation link carries its seat's token: keep it here and take it out of the address bar.
    const params = new URLSearchParams(location.search);
    const linked = params.get("seat_token");
    if (!linked) return;
    const seen = await boardlab.api(`/api/games/${gameId}`, { token: linked });
    for (const held of seen.your_seats) boardlab.keepSeat(gameId, held, linked);
    tokens = boardlab.seats(gameId);
    history.replaceState(null, "", `/games/${gameId}`);
  }

  // The seats this page plays: the guest seats held here, else the account's (as the game tells it).
  function mine() {
    const held = heldHere();
    if (held.length) return held;
    return game ? game.your_seats : [];
  }

  function chooseSeat(toMove) {
    const held = mine();
    if (!held.length) return null;
    return held.includes(toMove) ? toMove : held[0];
  }

  async function load() {
    const query = new URLSearchParams();
    if (replayPly !== null) query.set("ply", replayPly);
    if (seat !== null) query.set("seat", seat);
    game = await boardlab.api(`/api/games/${gameId}?${query}`, { token: token() });
    await adoptSeat();
    show();
    await drawBoard();
  }

  // A signed-in player's seat is known once the game is read (or once they accept the challenge):
  // from then on the page asks for that seat's view, and its live updates.
  async function adoptSeat() {
    if (seat !== null || !game.your_seats.length) return false;
    seat = chooseSeat(game.to_move);
    const query = new URLSearchParams({ seat });
    game = await boardlab.api(`/api/games/${gameId}?${query}`, { token: token() });
    if (events) listen();
    return true;
  }

  // -- the board and click to move -------------------------------------------------------------

  // While the page waits for the server, <body data-busy> says so (tests wait on it, too).
  let waits = 0;
  async function busy(work) {
    waits += 1;
    document.body.dataset.busy = "1";
    try { return await work(); } finally {
      waits -= 1;
      if (!waits) delete document.body.dataset.busy;
    }
  }

  function drawBoard(click = null) {
    return busy(() => drawBoardNow(click));
  }

  async function drawBoardNow(click) {
    const ticket = ++drawing;
    const query = new URLSearchParams();
    if (replayPly !== null) query.set("ply", replayPly);
    if (layout) query.set("layout", layout);
    if (clicks.length) query.set("clicks", clicks.join(","));
    if (click) query.set("click", click);
    if (seat !== null) query.set("seat", seat);
    // The board's column width: on a phone the captions are set larger, to be read at that width.
    const shown = Math.round($("board").clientWidth);
    if (shown >= 100) query.set("width", shown);
    let board;
    try {
      board = await boardlab.api(`/api/games/${gameId}/board?${query}`, { token: token() });
    } catch (error) {
      if (ticket === drawing) say(error.message);
      return;
    }
    if (ticket !== drawing) return;
    if (layout === null) {
      // A phone's first picture: the layout made for narrow screens, where the game has one.
      layout = board.layout;
      const narrow = $("game").dataset.narrowLayout;  // the page says which, where the game has one
      if (narrow && board.layouts.includes(narrow) && window.innerWidth < 600) { layout = narrow; return drawBoardNow(click); }
    }
    const hadFocus = $("board").contains(document.activeElement);
    $("board").innerHTML = board.svg;
    for (const name of board.targets) {
      for (const cell of $("board").querySelectorAll(`[data-cell="${CSS.escape(name)}"]`)) cell.dataset.target = "";
    }
    focusable(hadFocus);
    $("board").dataset.ply = board.ply;
    $("board").dataset.version = board.version;
    clicks = board.clicked;
    showLayouts(board);
    showSteps(board);
    showCaptures(board);
    if (click) say(board.why);
    if (board.move) await sendMove(board.move);
  }

  // What the shown position's last move took (flagged on the board too), and each seat's pieces left.
  let pieces = {};
  function showCaptures(board) {
    const taken = Object.entries(board.captured);
    $("captures").replaceChildren(...(taken.length
      ? [`Captured by the last move (${taken.length}): `, taken.map(([cell, what]) => `${cell} (${what.replace(/^captured by the last move: /, "")})`).join(", ")]
      : []));
    pieces = board.pieces;
    showPieces();
  }

  function showPieces() {
    for (const item of document.querySelectorAll("#seats li[data-seat]")) {
      const count = pieces[item.dataset.seat];
      const box = item.querySelector(".pieces");
      if (box) box.textContent = count === undefined ? "" : ` · ${count} on the board`;
    }
  }

  function showLayouts(board) {
    const select = $("layout");
    if (board.layouts.length < 2) { select.hidden = true; return; }
    if (select.options.length !== board.layouts.length) {
      select.replaceChildren(...board.layouts.map((name) => boardlab.el("option", { value: name }, name)));
    }
    select.value = board.layout;
    select.hidden = false;
  }

  function showSteps(board) {
    const steps = $("steps");
    steps.replaceChildren();
    if (board.clicked.length) steps.append(boardlab.el("span", { class: "muted" }, `clicked: ${board.clicked.join(" ")}`));
    for (const step of board.buttons) {
      steps.append(boardlab.el("button", { type: "button", "data-step": step, onclick: () => drawBoard(step) }, step));
    }
  }

  $("board").addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (!cell || !game) return;
    focusedCell = cell.dataset.cell;
    drawBoard(cell.dataset.cell);
  });

  // -- the keyboard: one cell in the tab order (a roving tabindex); arrows move, Enter or Space clicks --

  let focusedCell = null;  // the cell the keyboard is on, kept across redraws of the board

  function cells() { return [...$("board").querySelectorAll("[data-cell]")]; }

  function focusable(refocus) {
    const all = cells();
    if (!all.length) return;
    for (const cell of all) {
      cell.setAttribute("role", "button");  // its <title> (the cell, what stands on it, its marks) names it
      cell.setAttribute("tabindex", "-1");
    }
    const current = all.find((c) => c.dataset.cell === focusedCell)
      || all.find((c) => c.dataset.target !== undefined) || all[0];
    current.setAttribute("tabindex", "0");
    if (refocus) current.focus();
  }

  function centre(cell) {
    const box = cell.getBoundingClientRect();
    return [box.left + box.width / 2, box.top + box.height / 2];
  }

  // The nearest cell in the arrow's direction: mostly along it, a little across it.
  function neighbour(from, key) {
    const [x0, y0] = centre(from);
    const [dx, dy] = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    let best = null;
    let bestScore = Infinity;
    for (const cell of cells()) {
      if (cell === from) continue;
      const [x, y] = centre(cell);
      const along = (x - x0) * dx + (y - y0) * dy;
      const across = Math.abs((x - x0) * dy - (y - y0) * dx);
      if (along <= 1 || across > along * 1.5) continue;
      const score = along + across * 2;
      if (score < bestScore) { best = cell; bestScore = score; }
    }
    return best;
  }

  $("board").addEventListener("keydown", (event) => {
    const cell = event.target.closest && event.target.closest("[data-cell]");
    if (!cell || !game) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      focusedCell = cell.dataset.cell;
      drawBoard(cell.dataset.cell);
      return;
    }
    if (!event.key.startsWith("Arrow")) return;
    event.preventDefault();
    const next = neighbour(cell, event.key);
    if (!next) return;
    cell.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    focusedCell = next.dataset.cell;
    next.focus();
  });

  $("clear-clicks").addEventListener("click", () => { clicks = []; say(""); drawBoard(); });

  $("layout").addEventListener("change", (event) => { layout = event.target.value; drawBoard(); });

  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const field = event.target.elements.move;
    const text = field.value.trim();
    if (!text) return;
    sendMove(text).then((ok) => { if (ok) field.value = ""; });
  });

  function sendMove(text) {
    return busy(() => sendMoveNow(text));
  }

  // What was typed, as the page repeats it: the beginning of a long text, and how long it was.
  function shortened(text) {
    return text.length <= 40 ? text : `${text.slice(0, 40)}… (${text.length} characters)`;
  }

  async function sendMoveNow(text) {
    if (!game) return false;
    try {
      newer(await boardlab.api(`/api/games/${gameId}/moves`, {
        method: "POST", token: token(), body: { ply: game.ply, move: text, seat },
      }));
    } catch (error) {
      clicks = [];
      say(`${shortened(text)}: ${error.message}`);
      if (error.status === 409) await load();  // an old position: show the game as it is now
      else await drawBoard();
      return false;
    }
    clicks = [];
    say(`played ${shortened(text)}`, "info");
    await changed();
    return true;
  }

  // -- after every change: hot-seat hand-over, or just the new position --------------------------

  // An answer may arrive after a live update that already told of a later change (the computer's
  // reply, the game's end): the later version wins.
  function newer(answer) {
    if (!game || answer.version >= game.version) game = answer;
  }

  async function changed() {
    if (await adoptSeat()) { show(); await drawBoard(); return; }
    const next = game.to_move;
    if (hotSeat() && game.status === "active" && next !== seat && tokens[next] !== undefined) {
      if (!game.perfect_information) { handOver(next); return; }
      seat = next;
      await load();
      listen();
      return;
    }
    show();
    await drawBoard();
  }

  function handOver(next) {
    // Nothing of the last seat's view stays on the page while the next player takes the device.
    if (events) { events.close(); events = null; }
    const label = (game.seats.find((s) => s.seat === next) || {}).label || `seat ${next}`;
    const last = seat === null ? null : (game.seats.find((s) => s.seat === seat) || {}).label || `seat ${seat}`;
    game = null;
    clicks = [];
    for (const id of ["board", "moves", "seats", "hints", "steps", "status", "offers", "captures"]) $(id).replaceChildren();
    say("");
    $("play").hidden = true;
    $("handover-title").textContent = `Hand over to ${label}`;
    $("handover-text").textContent = (last ? `${last}: your move is made; pass the device and look away. ` : "")
      + `${label}: press the button when only you can see the screen.`;
    $("handover").hidden = false;
    $("handover-ready").dataset.seat = next;
  }

  $("handover-ready").addEventListener("click", async (event) => {
    seat = Number(event.target.dataset.seat);
    $("handover").hidden = true;
    $("play").hidden = false;
    await load();
    listen();
  });

  // -- the rest of the page ---------------------------------------------------------------------

  function seatLabel(number) {
    const found = game.seats.find((s) => s.seat === number);
    return found ? found.label : `seat ${number}`;
  }

  // A seat's player as sentences name them: "bob (o)".
  function player(number) {
    const found = game.seats.find((s) => s.seat === number);
    if (!found) return `seat ${number}`;
    return found.name && found.name !== found.label ? `${found.name} (${found.label})` : found.label;
  }

  function ratingText(s) {
    if (s.rating === null || s.rating === undefined) return "";
    const now = Math.round(s.rating);
    if (s.rating_change === null || s.rating_change === undefined) return ` ${now}`;
    const change = Math.round(s.rating_change);
    return ` ${now} → ${Math.round(s.rating + s.rating_change)} (${change >= 0 ? "+" : ""}${change})`;
  }

  function clockText(clock) {
    if (clock.remaining_seconds === null) return "";
    const total = Math.max(0, Math.round(clock.remaining_seconds));
    return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
  }

  // While the computer is to move: say so, and (when the server queues its searches) where this one stands.
  let computerAsked = null;
  function computerTurn() {
    return game.status === "active" && game.seats.some((s) => s.seat === game.to_move && s.kind === "ai");
  }
  function ordinal(n) {
    const tens = n % 100, ones = n % 10;
    const suffix = tens >= 11 && tens <= 13 ? "th" : ones === 1 ? "st" : ones === 2 ? "nd" : ones === 3 ? "rd" : "th";
    return `${n}${suffix}`;
  }
  async function showComputer() {
    const box = $("computer");
    if (!computerTurn() || replayPly !== null) { box.hidden = true; box.textContent = ""; return; }
    const version = game.version;
    box.hidden = false;
    if (!box.textContent) box.textContent = "The computer is thinking…";
    if (computerAsked === version) return;  // one poller a position
    computerAsked = version;
    while (game.version === version && computerTurn()) {
      try {
        const turn = await boardlab.api(`/api/games/${gameId}/computer`);
        if (game.version !== version) break;
        if (!turn.thinking) break;
        box.textContent = turn.queue_place === null || turn.queue_place === 0 ? "The computer is thinking…"
          : `The computer's move is queued: ${ordinal(turn.queue_place)} in line for a searching machine.`;
        box.dataset.queuePlace = turn.queue_place === null ? "" : String(turn.queue_place);
      } catch (_) { /* the next live update redraws this */ }
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }

  function show() {
    const view = game.view;
    $("title").textContent = `${game.game_name} · game ${game.id}${game.rated ? " · rated" : ""}`;
    const myTurn = game.status === "active" && seat !== null && game.to_move === seat && game.your_seats.includes(seat);
    // The tab's title says when it is this page's turn (seen from another tab).
    document.title = `${myTurn ? "▶ Your move · " : ""}${game.game_name} · game ${game.id} · boardlab`;
    let status = view.description;
    if (myTurn && replayPly === null) status += " Your move.";
    if (game.status === "finished") status = view.description;
    $("status").textContent = status;
    $("status").dataset.yourMove = myTurn ? "1" : "";
    const moves = game.view.moves;
    const last = moves.length ? moves[moves.length - 1] : null;
    $("last-move").textContent = view.last_move ? `Last move: ${view.last_move}` : last ? `Last move: ${last.label} ${last.text}` : "";
    $("status").dataset.status = game.status;
    $("status").dataset.result = game.result ? game.result.join(",") : "";
    showComputer();
    $("seats").replaceChildren(...game.seats.map((s) => {
      const clock = game.clocks.find((c) => c.seat === s.seat);
      const name = s.kind === "user" && s.name
        ? boardlab.el("a", { href: `/users/${encodeURIComponent(s.name)}` }, s.name) : (s.name || "open seat");
      const item = boardlab.el("li", { "data-seat": s.seat, class: s.seat === game.to_move ? "to-move" : null },
        boardlab.el("strong", {}, s.label), " ", name,
        s.seat === seat ? boardlab.el("em", { class: "you" }, " (you)") : "",
        boardlab.el("span", { class: "rating" }, ratingText(s)),
        boardlab.el("span", { class: "pieces muted" }),
        boardlab.el("span", { class: "clock" }, clock ? clockText(clock) : ""));
      return item;
    }));
    if (game.time.kind === "correspondence" && game.deadline && game.status === "active") {
      $("seats").append(boardlab.el("li", { class: "muted" }, `${game.time.description}; move by ${new Date(game.deadline).toLocaleString()}`));
    } else if (game.time.kind === "live") {
      $("seats").append(boardlab.el("li", { class: "muted time" }, `Time: ${game.time.description}`));
    }
    showPieces();
    showMoves();
    showOffers();
    showInvite();
    $("notation").textContent = game.notation || "";
    const playing = game.status === "active" && game.your_seats.length > 0;
    $("rematch").hidden = !(game.status === "finished" && game.your_seats.length > 0 && game.rematch === null);
    // Hints: the server says where (games with no other person in them, the analysis board of a finished game).
    $("hint").hidden = !game.can_hint;
    $("analyse").hidden = !(game.status === "finished" && game.can_hint);  // a seat is to move here
    const shownNow = `${game.version}:${replayPly}`;
    if ($("hints").dataset.shown !== shownNow) { $("hints").replaceChildren(); $("hints").dataset.shown = shownNow; }
    for (const id of ["undo", "draw", "resign"]) $(id).disabled = !playing;
    $("typed").elements.move.disabled = !playing || replayPly !== null;
    const record = new URLSearchParams();
    if (token()) record.set("seat_token", token());
    if (seat !== null) record.set("seat", seat);
    $("download").href = `/api/games/${gameId}/record${record.toString() ? "?" + record : ""}`;
    $("download").setAttribute("download", `boardlab-${game.game}-${game.id}.json`);
    $("rules").href = `/rules/${game.game}`;
    $("replay-note").hidden = replayPly === null;
    startClock();
  }

  // Stepping back, the list keeps every move (as this seat knew them at the game's position), so that
  // any later position is one click away too.
  let wholeList = null;  // {seat, moves} from the last look at the game now
  function showMoves() {
    const list = $("moves");
    if (replayPly === null) wholeList = { seat, moves: game.view.moves };
    const moves = replayPly !== null && wholeList && wholeList.seat === seat ? wholeList.moves : game.view.moves;
    list.replaceChildren(...moves.map((m) => {
      const current = replayPly === null ? game.view.ply : replayPly;
      const button = boardlab.el("button", {
        type: "button", class: m.ply + 1 === current ? "move current" : "move", "data-ply": m.ply + 1,
        title: "show the position after this move",
        onclick: () => { replayPly = m.ply + 1 === game.ply ? null : m.ply + 1; clicks = []; load(); },
      }, `${m.label}: ${m.text}`);
      return boardlab.el("li", {}, button);
    }));
    const current = list.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  $("live").addEventListener("click", () => { replayPly = null; clicks = []; load(); });

  function showOffers() {
    const box = $("offers");
    box.replaceChildren();
    showChallenge(box);
    showRematch(box);
    if (game.status !== "active" || seat === null) return;
    // The seat playing now answers the other seats' offers (at a hot-seat table this browser holds them all).
    const others = game.draw_offers.filter((s) => s !== seat);
    if (others.length) {
      box.append(boardlab.el("p", { class: "offer", id: "draw-offer" }, `${others.map(player).join(", ")} offer${others.length > 1 ? "" : "s"} a draw. `,
        boardlab.el("button", { onclick: () => act("draw", { action: "accept", seat }) }, "Accept"), " ",
        boardlab.el("button", { onclick: () => act("draw", { action: "decline", seat }) }, "Decline")));
    } else if (game.draw_offers.includes(seat)) {
      box.append(boardlab.el("p", { class: "muted" }, "You offered a draw."));
    }
    if (game.undo_request !== null && game.undo_request !== seat) {
      box.append(boardlab.el("p", { class: "offer", id: "undo-request" }, `${player(game.undo_request)} asks to take back their last move. `,
        boardlab.el("button", { onclick: () => act("undo", { action: "grant", seat }) }, "Grant"), " ",
        boardlab.el("button", { onclick: () => act("undo", { action: "decline", seat }) }, "Decline")));
    } else if (game.undo_request !== null) {
      box.append(boardlab.el("p", { class: "muted" }, "You asked to undo your last move."));
    }
  }

  // A challenge on its own page: the invited player (signed in) accepts or declines it here.
  let me = null;
  function showChallenge(box) {
    if (game.status !== "challenge" || me === null) return;
    const waiting = game.seats.some((s) => !s.accepted && (s.kind === "open" ? !game.seats.some((t) => t.name === me) : s.name === me));
    if (!waiting) return;
    box.append(boardlab.el("p", { class: "offer", id: "challenge" }, "A challenge for you. ",
      boardlab.el("button", { class: "primary", onclick: () => answerChallenge(gameId, "accept") }, "Accept"), " ",
      boardlab.el("button", { onclick: () => answerChallenge(gameId, "decline") }, "Decline")));
  }

  async function answerChallenge(id, what) {
    try {
      await boardlab.api(`/api/games/${id}/${what}`, { method: "POST" });
      if (id !== gameId) { if (what === "accept") location.href = `/games/${id}`; else await load(); return; }
      await load();
      listen();
    } catch (error) {
      say(error.message);
    }
  }

  // After the end: a rematch offered (by the other player, or by this page).
  let rematchSeen = null;  // the rematch game as last read
  function showRematch(box) {
    if (game.status !== "finished" || game.rematch === null) return;
    const id = game.rematch;
    if (!rematchSeen || rematchSeen.id !== id) {
      rematchSeen = { id };
      boardlab.api(`/api/games/${id}`).then((found) => { rematchSeen = found; showOffers(); }, () => {});
      return;
    }
    const waiting = rematchSeen.status === "challenge" && me !== null
      && rematchSeen.seats.some((s) => !s.accepted && s.name === me);
    const asker = rematchSeen.seats.find((s) => s.accepted && s.kind === "user");
    if (waiting) {
      box.append(boardlab.el("p", { class: "offer", id: "rematch-offer" },
        `${asker ? asker.name : "Your opponent"} offers a rematch (seats swapped). `,
        boardlab.el("button", { class: "primary", onclick: () => answerChallenge(id, "accept") }, "Accept"), " ",
        boardlab.el("button", { onclick: () => answerChallenge(id, "decline") }, "Decline")));
    } else {
      const state = rematchSeen.status === "declined" ? " (declined)" : rematchSeen.status === "challenge" ? " (waiting for an answer)" : "";
      box.append(boardlab.el("p", { class: "offer" }, "Rematch: ", boardlab.el("a", { href: `/games/${id}`, id: "rematch-link" }, `game ${id}`), state));
    }
  }

  $("rematch").addEventListener("click", async () => {
    try {
      const created = await boardlab.api(`/api/games/${gameId}/rematch`, { method: "POST", token: token() });
      boardlab.openCreated(created, heldHere().length ? null : []);
    } catch (error) {
      say(error.message);
    }
  });

  function showInvite() {
    const links = JSON.parse(sessionStorage.getItem(`boardlab.links.${gameId}`) || "null");
    const box = $("invite");
    if (!links || game.status === "finished") { box.hidden = true; return; }
    box.replaceChildren("Send this link to your opponent: ",
      ...Object.entries(links).map(([s, link]) => boardlab.el("input", { readonly: "", value: link, "aria-label": `invitation for seat ${s}` })));
    box.hidden = false;
  }

  async function act(what, body) {
    try {
      newer(await boardlab.api(`/api/games/${gameId}/${what}`, { method: "POST", token: token(), body }));
      say("");
      await changed();
    } catch (error) {
      say(error.message);
    }
  }

  $("resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("resign", { seat }); });
  $("draw").addEventListener("click", () => {
    // At one browser holding every seat an offer is the table's agreement: the server ends the game drawn.
    if (game && game.your_seats.length > 1 && !confirm("Do all players here agree to a draw?")) return;
    act("draw", { action: "offer", seat });
  });
  $("undo").addEventListener("click", () => {
    // Holding every seat (hot-seat), "undo" takes back the last move made, whoever's seat made it.
    const moves = game ? game.view.moves : [];
    const asker = game && game.your_seats.length > 1 && moves.length ? moves[moves.length - 1].seat : seat;
    act("undo", { action: "request", seat: asker });
  });

  $("hint").addEventListener("click", async () => {
    const box = $("hints");
    box.replaceChildren(boardlab.el("p", { class: "muted" }, "The computer is thinking…"));
    const live = game.status === "active";
    const body = live ? { seat } : { ply: replayPly === null ? game.ply : replayPly };
    try {
      const hint = await boardlab.api(`/api/games/${gameId}/hint`, { method: "POST", token: live ? token() : null, body });
      // In play, a hinted move is a button that plays it; on the analysis board it is only shown.
      const shown = (c) => (live
        ? boardlab.el("button", { type: "button", class: "hint-move", onclick: () => sendMove(c.move) }, c.move)
        : boardlab.el("strong", { class: "hint-move" }, c.move));
      box.replaceChildren(boardlab.el("p", {}, `The computer's top moves for ${seatLabel(hint.seat)}${hint.ply ? `, after move ${hint.ply}` : ", at the start"}:`),
        boardlab.el("ol", {}, ...hint.candidates.map((c) => boardlab.el("li", {}, shown(c),
          c.value === null ? "" : ` (value ${c.value.toFixed(2)}, ${c.depth ? `${c.depth} plies deep` : `${c.visits} visits`})`))));
    } catch (error) {
      box.replaceChildren(boardlab.el("p", { class: "error" }, error.message));
    }
  });

  // A finished game's position opened as a new board (the record up to here, unfinished), where this
  // browser holds every seat: variations can be played, and hinted.
  $("analyse").addEventListener("click", async () => {
    const ply = replayPly === null ? game.ply : replayPly;
    try {
      const record = await boardlab.api(`/api/games/${gameId}/record`);
      const tags = { ...(record.tags || {}) };
      delete tags.loser;  // the new board is unfinished: nobody has lost it
      Object.assign(record, { moves: record.moves.slice(0, ply), result: null, termination: null, finished: null, tags });
      const created = await boardlab.api("/api/games", {
        method: "POST", body: { record, seats: record.players.map(() => ({ kind: "guest" })) },
      });
      boardlab.openCreated(created, null);
    } catch (error) {
      say(error.message);
    }
  });

  function startClock() {
    if (clockTimer) clearInterval(clockTimer);
    if (!game || game.status !== "active" || game.time.kind !== "live") return;
    const since = Date.now();
    const running = game.clocks.find((c) => c.running);
    if (!running || running.remaining_seconds === null) return;
    const item = document.querySelector(`#seats li[data-seat="${running.seat}"] .clock`);
    clockTimer = setInterval(() => {
      const left = running.remaining_seconds - (Date.now() - since) / 1000;
      if (item) item.textContent = clockText({ remaining_seconds: left });
    }, 1000);
  }

  // -- live updates ------------------------------------------------------------------------------

  function listen() {
    if (events) events.close();
    const query = new URLSearchParams();
    if (token()) query.set("seat_token", token());
    if (seat !== null) query.set("seat", seat);
    query.set("after_end", "true");  // after the end, a rematch offered still reaches this page
    events = new EventSource(`/api/games/${gameId}/events?${query}`);
    events.addEventListener("game", (event) => busy(async () => {
      const fresh = JSON.parse(event.data);
      if (!game || fresh.version <= game.version) return;
      if (replayPly !== null) { game.ply = fresh.ply; return; }  // looking back: the list catches up on return
      const moved = fresh.ply !== game.ply;
      game = fresh;
      if (moved) clicks = [];
      await changed();
    }));
    events.addEventListener("end", () => {
      // Kept open after the end (for a rematch) while a seat is held here; a spectator's closes.
      if (!mine().length && events) { events.close(); events = null; }
    });
    events.onerror = () => {
      // The server closed a finished game's stream (a rematch was offered, or nobody plays here): do not reconnect.
      if (game && game.status !== "active" && game.status !== "challenge" && events) { events.close(); events = null; }
    };
  }

  (async () => {
    document.body.dataset.busy = "1";  // until the first board is drawn
    try {
      me = await boardlab.whoAmI();
      await adoptLinkToken();
      if (hotSeat()) {
        // Hidden moves at one table: first the hand-over screen (asked as a spectator, who sees no stone).
        game = await boardlab.api(`/api/games/${gameId}`);
        if (!game.perfect_information && game.status === "active") {
          seat = null;
          handOver(chooseSeat(game.to_move));
          return;
        }
        seat = chooseSeat(game.to_move);
      }
      if (seat === null && heldHere().length) seat = heldHere()[0];
      await load();
      listen();
    } catch (error) {
      say(error.message);
    } finally {
      if (!waits) delete document.body.dataset.busy;
    }
  })();
})();
