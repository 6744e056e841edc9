"""Screenshots of the browser's pages: every game's page mid-game, the lobby, the new-game form, a rules
page and HMDG's hand-over screen, on a desktop (1280×900) and a phone (390×844); and, signed in, a
game between two accounts (a draw offer waiting), a profile with ratings and the archive, at a
laptop's 1280×800 and the phone's size.

    .venv/bin/python scripts/web_screenshots.py --out /tmp/web     # every page, both sizes
    .venv/bin/python scripts/web_screenshots.py --docs             # the game pages for the README

Starts the real server on a free port with a throw-away SQLite file, plays fixed random moves through
the API, then opens the pages in Debian's chromium (Playwright, ``executable_path=/usr/bin/chromium``).
"""

from __future__ import annotations

import argparse
import random
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from boardlab.server.app import create_app
from boardlab.server.config import Settings

GAMES: list[tuple[str, dict[str, Any], int]] = [  # game, options, moves played before the picture
    ("ndengrod", {}, 14),
    ("gtbm", {}, 18),
    ("horsmeier", {}, 16),
    ("mynd", {"players": 3, "size": 9}, 15),
    ("mobiatus", {}, 14),
    ("hmdg", {}, 12),
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
# The first request of each game compiles its kernels (numba): far slower than httpx's 5 s default on a busy machine.
http = httpx.Client(timeout=300)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def play(url: str, game: str, options: dict[str, Any], moves: int, seed: int) -> tuple[int, dict[str, str]]:
    """A game between guest seats, ``moves`` random legal moves in: its id and each seat's token."""
    probe = http.post(f"{url}/api/games", json={"game": game, "options": options,
                                                 "seats": [{"kind": "guest"}, {"kind": "guest"}]})
    seats = 2
    if probe.status_code == 422 and "seat" in probe.text:
        seats = int(options.get("players", 2))
    created = probe if seats == 2 else http.post(
        f"{url}/api/games", json={"game": game, "options": options, "seats": [{"kind": "guest"}] * seats})
    created.raise_for_status()
    game_id, tokens = created.json()["game"]["id"], created.json()["invitations"]
    rng = random.Random(seed)
    for _ in range(moves):
        state = http.get(f"{url}/api/games/{game_id}").json()
        if state["status"] != "active":
            break
        token = tokens[str(state["to_move"])]
        view = http.get(f"{url}/api/games/{game_id}", headers={"X-Seat-Token": token}).json()["view"]
        move = rng.choice([m for m in view["legal_moves"] if m != "pass"] or view["legal_moves"])
        http.post(f"{url}/api/games/{game_id}/moves", json={"ply": state["ply"], "move": move},
                   headers={"X-Seat-Token": token}).raise_for_status()
    return game_id, tokens


def people(url: str) -> tuple[dict[str, str], int]:
    """Two accounts with a few rated games played (ratings, an archive) and one in play, where bob has
    just offered a draw: ann's session token, and that game's id."""
    tokens = {}
    for name in ("ann", "bob"):
        response = http.post(f"{url}/api/register", json={"name": name, "password": "a long password",
                                                          "email": f"{name}@example.org"})
        response.raise_for_status()
        tokens[name] = response.json()["token"]
        # The script signs with the Bearer token; a session cookie kept by the client would make its
        # next requests look like another site's page's (no Origin), which the server refuses.
        http.cookies.clear()
    headers = {name: {"Authorization": f"Bearer {token}"} for name, token in tokens.items()}

    def pair(first: str, second: str) -> int:
        created = http.post(f"{url}/api/games", headers=headers[first], json={
            "game": "ndengrod", "options": {"size": 4}, "rated": True,
            "seats": [{"kind": "me"}, {"kind": "user", "user": second}]}).json()
        http.post(f"{url}/api/games/{created['game']['id']}/accept", headers=headers[second]).raise_for_status()
        return int(created["game"]["id"])

    for number, loser in enumerate(["bob", "ann", "bob", "bob"]):
        game_id = pair("ann", "bob") if number % 2 == 0 else pair("bob", "ann")
        http.post(f"{url}/api/games/{game_id}/resign", headers=headers[loser]).raise_for_status()
    game_id = pair("ann", "bob")
    rng = random.Random(3)
    for ply in range(6):
        mover = "ann" if ply % 2 == 0 else "bob"
        legal = http.get(f"{url}/api/games/{game_id}", headers=headers[mover]).json()["view"]["legal_moves"]
        http.post(f"{url}/api/games/{game_id}/moves", headers=headers[mover],
                  json={"ply": ply, "move": rng.choice(legal)}).raise_for_status()
    http.post(f"{url}/api/games/{game_id}/draw", headers=headers["bob"], json={"action": "offer"}).raise_for_status()
    return {"ann": tokens["ann"]}, game_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "boardlab-web")
    parser.add_argument("--docs", action="store_true", help="write docs/images/web-GAME.png (desktop only)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    folder = Path(tempfile.mkdtemp(prefix="boardlab-shots-"))
    app = create_app(Settings(db_url=f"sqlite:///{folder / 'boardlab.db'}", port=port))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    out = Path("docs/images") if args.docs else args.out
    out.mkdir(parents=True, exist_ok=True)
    try:
        signed_in, people_game = people(url)
        games = {game: play(url, game, options, moves, seed=7) for game, options, moves in GAMES}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            sizes = {"desktop": DESKTOP} if args.docs else {"desktop": DESKTOP, "phone": PHONE}
            for size, viewport in sizes.items():
                for game, (game_id, tokens) in games.items():
                    context = browser.new_context(viewport=viewport, device_scale_factor=1)
                    page = context.new_page()
                    page.goto(f"{url}/games/{game_id}?seat_token={tokens['0']}")
                    page.wait_for_selector("#board svg")
                    page.wait_for_selector("body:not([data-busy])")
                    name = f"web-{game}.png" if args.docs else f"{size}-game-{game}.png"
                    page.screenshot(path=str(out / name), full_page=not args.docs)
                    context.close()
                if args.docs:
                    continue
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                for path, name in (("/", "lobby"), ("/new?game=mynd", "new"), ("/rules/mobiatus", "rules")):
                    page.goto(url + path)
                    page.wait_for_load_state("networkidle")
                    page.screenshot(path=str(out / f"{size}-{name}.png"), full_page=True)
                signed = browser.new_context(viewport=viewport if size == "phone" else LAPTOP, device_scale_factor=1)
                signed.add_cookies([{"name": "boardlab_session", "value": signed_in["ann"], "url": url}])
                page = signed.new_page()
                for path, name in ((f"/games/{people_game}", "signed-in-game"), ("/users/ann", "profile"),
                                   ("/archive?player=ann", "archive")):
                    page.goto(url + path)
                    page.wait_for_load_state("networkidle")
                    page.wait_for_selector("body:not([data-busy])")
                    page.screenshot(path=str(out / f"{size}-{name}.png"))  # the first screen, as seen
                signed.close()
                page = context.new_page()
                hot = http.post(f"{url}/api/games", json={"game": "hmdg", "seats": [{"kind": "guest"}] * 2}).json()
                for token in hot["invitations"].values():
                    page.goto(f"{url}/games/{hot['game']['id']}?seat_token={token}")
                    page.wait_for_selector("body:not([data-busy])")
                page.screenshot(path=str(out / f"{size}-handover.png"), full_page=True)
                context.close()
            browser.close()
    finally:
        server.should_exit = True
        thread.join(timeout=15)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main()
