"""The lobby of a browser without an account: its guest games listed like an account's, those waiting
for a seat held here first, then games in play, then finished ones."""

from __future__ import annotations

import json
from typing import Any

import httpx

SMALL = {"size": 3, "length": 3}


def _two_guests(url: str) -> tuple[int, str, str]:
    created = httpx.post(f"{url}/api/games", json={"game": "ndengrod", "options": SMALL,
                                                   "seats": [{"kind": "guest"}, {"kind": "guest"}]}).json()
    return created["game"]["id"], created["invitations"]["0"], created["invitations"]["1"]


def test_a_guests_games_are_listed_with_those_waiting_for_this_browser_first(server: Any, context: Any) -> None:
    waiting, w0, w1 = _two_guests(server.url)     # both seats here; seat 0 to move: waiting for us
    theirs, _, t1 = _two_guests(server.url)       # only seat 1 here; seat 0 (someone else) to move
    over, o0, o1 = _two_guests(server.url)        # both seats here; resigned
    assert httpx.post(f"{server.url}/api/games/{over}/resign", headers={"X-Seat-Token": o0}).status_code == 200
    held = {waiting: {0: w0, 1: w1}, theirs: {1: t1}, over: {0: o0, 1: o1}}
    page = context.new_page()
    page.goto(server.url + "/")
    page.evaluate("held => localStorage.setItem('boardlab.seats', held)", json.dumps(held))
    page.reload()
    page.wait_for_selector(f"#my-games li[data-game='{over}']")
    listed = [int(x) for x in page.eval_on_selector_all("#my-games li[data-game]",
                                                        "items => items.map(i => i.dataset.game)")]
    assert listed == [waiting, theirs, over]  # not simply newest first
    first = page.locator(f"#my-games li[data-game='{waiting}']")
    assert "your turn" in first.inner_text() and "Ndengrod" in first.inner_text()
    assert first.get_attribute("class") == "waiting"
    assert "your turn" not in page.locator(f"#my-games li[data-game='{theirs}']").inner_text()
    assert "guest (o) won (guest (x) resigned)" in page.locator(f"#my-games li[data-game='{over}']").inner_text()


def test_play_waits_while_the_server_prepares_the_rules_and_says_so(server: Any, context: Any) -> None:
    """The server's warm-up is tested in tests/server/test_site.py; here the page's side: while
    /api/status says a game's rules are not ready, the button waits and the page says why."""
    answers = {"asked": 0}

    def status(route: Any) -> None:
        answers["asked"] += 1
        if answers["asked"] <= 2:
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps({"rules_ready": {"mobiatus": False}}))
        else:
            route.continue_()

    page = context.new_page()
    page.route("**/api/status", status)
    page.goto(server.url + "/")
    page.select_option("#quick [name=game]", "mobiatus")
    page.select_option("#quick [name=level]", "level1")
    page.click("#quick button[type=submit]")
    page.wait_for_selector("#preparing:has-text('Preparing the rules of Möbiatus')")
    assert page.locator("#play-now").is_disabled() and page.locator("#play-now").inner_text() == "Preparing the rules…"
    page.wait_for_url(f"{server.url}/games/*")
    assert answers["asked"] >= 3
    game = httpx.get(server.url + "/api" + page.url.split(server.url)[1]).json()
    assert game["game"] == "mobiatus" and game["time"]["kind"] == "untimed"
