// The game page: the board (SVG from /api/games/{id}/board, drawn for this browser's seat), click to
// move, typed moves, the move list and replay, hints, resign/draw/undo, live updates (Server-Sent
// Events) and hot-seat, with a hand-over screen between seats in games with hidden moves.
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

  function chooseSeat(toMove) {
    const held = heldHere();
    if (!held.length) return null;
    return held.includes(toMove) ? toMove : held[0];
  }

  async function load() {
    const query = new URLSearchParams();
    if (replayPly !== null) query.set("ply", replayPly);
    if (seat !== null) query.set("seat", seat);
    game = await boardlab.api(`/api/games/${gameId}?${query}`, { token: token() });
    if (seat === null && game.your_seats.length) seat = chooseSeat(game.to_move);
    show();
    await drawBoard();
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
      const narrow = board.layouts.find((name) => name === "bands" || name === "below");
      if (narrow && window.innerWidth < 600) { layout = narrow; return drawBoardNow(click); }
    }
    $("board").innerHTML = board.svg;
    for (const name of board.targets) {
      for (const cell of $("board").querySelectorAll(`[data-cell="${CSS.escape(name)}"]`)) cell.dataset.target = "";
    }
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
    drawBoard(cell.dataset.cell);
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

  async function sendMoveNow(text) {
    if (!game) return false;
    try {
      newer(await boardlab.api(`/api/games/${gameId}/moves`, {
        method: "POST", token: token(), body: { ply: game.ply, move: text, seat },
      }));
    } catch (error) {
      clicks = [];
      say(`${text}: ${error.message}`);
      if (error.status === 409) await load();  // an old position: show the game as it is now
      else await drawBoard();
      return false;
    }
    clicks = [];
    say(`played ${text}`, "info");
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

  function clockText(clock) {
    if (clock.remaining_seconds === null) return "";
    const total = Math.max(0, Math.round(clock.remaining_seconds));
    return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
  }

  function show() {
    const view = game.view;
    $("title").textContent = `${game.game_name} · game ${game.id}`;
    document.title = `${game.game_name} · game ${game.id} · boardlab`;
    let status = view.description;
    if (game.status === "active" && seat !== null && game.to_move === seat && replayPly === null) status += " Your move.";
    if (game.status === "finished") status = view.description;
    $("status").textContent = status;
    $("status").dataset.status = game.status;
    $("status").dataset.result = game.result ? game.result.join(",") : "";
    $("seats").replaceChildren(...game.seats.map((s) => {
      const clock = game.clocks.find((c) => c.seat === s.seat);
      const item = boardlab.el("li", { "data-seat": s.seat, class: s.seat === game.to_move ? "to-move" : null },
        boardlab.el("strong", {}, s.label), ` ${s.name || "open seat"}`,
        s.seat === seat ? boardlab.el("em", {}, " (you)") : "",
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
    const playing = game.status === "active" && game.your_seats.length > 0;
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
      }, `${seatLabel(m.seat)}: ${m.text}`);
      return boardlab.el("li", {}, button);
    }));
    const current = list.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  $("live").addEventListener("click", () => { replayPly = null; clicks = []; load(); });

  function showOffers() {
    const box = $("offers");
    box.replaceChildren();
    if (game.status !== "active" || seat === null) return;
    // The seat playing now answers the other seats' offers (at a hot-seat table this browser holds them all).
    const others = game.draw_offers.filter((s) => s !== seat);
    if (others.length) {
      box.append(boardlab.el("p", {}, `${others.map(seatLabel).join(", ")} offer${others.length > 1 ? "" : "s"} a draw. `,
        boardlab.el("button", { onclick: () => act("draw", { action: "accept", seat }) }, "Accept"), " ",
        boardlab.el("button", { onclick: () => act("draw", { action: "decline", seat }) }, "Decline")));
    } else if (game.draw_offers.includes(seat)) {
      box.append(boardlab.el("p", { class: "muted" }, "You offered a draw."));
    }
    if (game.undo_request !== null && game.undo_request !== seat) {
      box.append(boardlab.el("p", {}, `${seatLabel(game.undo_request)} asks to take back their last move. `,
        boardlab.el("button", { onclick: () => act("undo", { action: "grant", seat }) }, "Grant"), " ",
        boardlab.el("button", { onclick: () => act("undo", { action: "decline", seat }) }, "Decline")));
    } else if (game.undo_request !== null) {
      box.append(boardlab.el("p", { class: "muted" }, "You asked to undo your last move."));
    }
  }

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
    events.addEventListener("end", () => { if (events) events.close(); events = null; });
  }

  (async () => {
    document.body.dataset.busy = "1";  // until the first board is drawn
    try {
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
