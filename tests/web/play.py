"""Driving the pages as a person would: choose a game on the new-game form, click the board's
highlighted cells (and step buttons) until the game is over, read what the page says."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx

from boardlab import records
from boardlab.server import play as server_play

IDLE = "body:not([data-busy])"
# The guest seats a page holds in a game ({seat: token}), as the pages keep them (localStorage); call
# with the game's id.
HELD_SEATS = "id => JSON.parse(localStorage.getItem('boardlab.seats') || '{}')[id] || {}"
CHOICES = "#board [data-target], #steps button[data-step], #status[data-status=finished]"


def new_game(page: Any, url: str, game: str, options: dict[str, Any], opponent: str = "ai",
             level: str = "level1") -> int:
    """Fill in the new-game form (options as a person types them) and start; the game's id."""
    page.goto(f"{url}/new?game={game}")
    page.wait_for_selector("#options [data-option]")
    for name, value in options.items():
        field = page.locator(f"[name=option-{name}]")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.select_option("[name=opponent]", opponent)
    if opponent == "ai":
        page.select_option("[name=level]", level)
    page.click("#new button[type=submit]")
    page.wait_for_url(f"{url}/games/*")
    page.wait_for_selector("#board svg")
    return int(page.url.rsplit("/", 1)[1])


def click_until_over(page: Any, seed: int = 1, limit: int = 3000) -> int:
    """Click a highlighted cell or step button (chosen at random) whenever there is one, until the page
    says the game is over; returns the number of clicks."""
    rng = random.Random(seed)
    for clicks in range(limit):
        page.wait_for_selector(CHOICES)
        page.wait_for_selector(IDLE)
        if page.locator("#status[data-status=finished]").count():
            return clicks
        choices = page.locator("#board [data-target], #steps button[data-step]")
        count = choices.count()
        if not count:
            continue
        choices.nth(rng.randrange(count)).click()
        page.wait_for_selector(IDLE)
    raise AssertionError(f"the game did not end within {limit} clicks")


def engine_result(server: Any, game_id: int, seat_tokens: list[str]) -> tuple[float, ...]:
    """The result of the finished game by the engine: the referee's record replayed. The record is the
    one this browser's seats are given; where the rules hid a stone of the computer's seat to the end
    (HMDG), that is not the referee's, whose moves are then read from the server's own database."""
    data = httpx.get(f"{server.url}/api/games/{game_id}/record",
                     headers={"X-Seat-Token": ",".join(seat_tokens)}).json()
    if data.get("perspective") is not None:
        service = server.app.state.service
        with service.db.read() as session:
            data["moves"] = server_play.move_texts(session, game_id)
        del data["perspective"]
    record = records.from_dict(json.loads(json.dumps(data)))
    state = record.replay()
    assert state.is_over, "the server says finished but the moves do not end the game"
    assert state.result is not None
    return tuple(state.result)


class Received:
    """Every message a page receives from the API: answers to its requests (read through a route that
    passes them on unchanged) and the Server-Sent Events of its streams (read from chromium's DevTools)."""

    def __init__(self, context: Any, page: Any) -> None:
        self.messages: list[str] = []
        page.route("**/api/**", self._answer)
        session = context.new_cdp_session(page)
        session.on("Network.eventSourceMessageReceived", lambda event: self.messages.append(event["data"]))
        session.send("Network.enable")

    def _answer(self, route: Any) -> None:
        if route.request.url.split("?")[0].endswith("/events"):
            route.continue_()  # a stream: its messages come through DevTools
            return
        response = route.fetch()
        body = response.text()
        self.messages.append(body)
        route.fulfill(response=response, body=body)


def click_once(page: Any, rng: random.Random) -> bool:
    """One click on a highlighted cell or step button, if the page offers one now and is idle."""
    if page.locator(IDLE).count() == 0:
        return False
    choices = page.locator("#board [data-target], #steps button[data-step]")
    count = choices.count()
    if not count:
        return False
    choices.nth(rng.randrange(count)).click()
    page.wait_for_selector(IDLE)
    return True
