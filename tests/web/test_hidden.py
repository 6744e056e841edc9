"""Hidden Move Double Gomoku in the browser: two people in two browsers (contexts), and two people at
one browser (hot-seat, with the hand-over screen). Neither page ever holds the other seat's hidden
stones: not in its DOM, not in any message it receives, until the rules reveal them."""

from __future__ import annotations

import json
import random
import time
from typing import Any
from xml.etree import ElementTree

import httpx

from boardlab import records
from boardlab.core.state import State
from tests.web.conftest import watch_policy
from tests.web.play import HELD_SEATS, Received, click_once, new_game

OPTIONS = {"size": 5, "line_length": 3}
SVG = "{http://www.w3.org/2000/svg}"


def known_stones(state: State, seat: int) -> set[str]:
    """The cells of the other seat's stones that ``seat`` knows of in ``state`` (revealed ones)."""
    contents = state.game.cell_contents(state.view(seat))
    return {c.name for c in contents if any(p.seat == 1 - seat for p in c.pieces)}


def secret_texts(state: State, seat: int) -> set[str]:
    """The other seat's placements as the referee wrote them (with their point), where ``seat``'s own
    record of the game shows them otherwise."""
    referee = [m.text for m in state.history()]
    own = [m.text for m in state.view(seat).history()]
    return {r for r, o in zip(referee, own, strict=True) if r != o and r not in own and any(ch.isdigit() for ch in r)}


def svg_pieces(svg: str, seat: int) -> set[str]:
    """The cells where an SVG board shows a piece of ``seat``."""
    root = ElementTree.fromstring(svg)
    return {cell.get("data-cell", "") for cell in root.iter(f"{SVG}g") if cell.get("data-cell")
            and any(piece.get("data-seat") == str(seat) for piece in cell.iter())}


def check_message(message: str, seat: int, states: list[State], end_version: int) -> int:
    """Check one message ``seat``'s page received while the game was played: a game (its view's
    position and move list) or a board (its pieces) tells no more than ``seat``'s view of that position.
    Returns how many things were checked."""
    try:
        data = json.loads(message)
    except ValueError:
        return 0
    if not isinstance(data, dict) or data.get("version", 0) >= end_version:
        return 0  # not a game or board, or the end (where the rules reveal the winner's stones)
    if "view" in data:
        view = data["view"]
        state = states[view["ply"]]
        assert view["position"] == state.view(seat).to_text(), (seat, view["ply"])
        referee = state.history()
        secrets = secret_texts(state, seat)
        assert not secrets & {m["text"] for m in view["moves"]}, (seat, view["moves"], [m.text for m in referee])
        return 1
    if "svg" in data:
        shown = svg_pieces(data["svg"], 1 - seat)
        assert shown <= known_stones(states[data["ply"]], seat), (seat, data["ply"], shown)
        return 1
    return 0


def board_pieces(page: Any, seat: int) -> tuple[int, set[str]]:
    """The position the page's board shows (its ply) and the cells where it shows a piece of ``seat``."""
    ply, cells = page.evaluate("""seat => [Number(document.querySelector('#board').dataset.ply),
        [...document.querySelectorAll(`#board [data-cell]:has([data-seat='${seat}'])`)].map(c => c.dataset.cell)]""",
                               seat)
    return ply, set(cells)


def test_two_browsers_play_hmdg_and_neither_sees_the_others_hidden_stones(server: Any, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    violations = [watch_policy(c) for c in contexts]
    try:
        for c in contexts:
            c.set_default_timeout(60_000)
        pages = [c.new_page() for c in contexts]
        received = [Received(c, p) for c, p in zip(contexts, pages, strict=True)]
        game_id = new_game(pages[0], server.url, "hmdg", OPTIONS, opponent="link")
        link = pages[0].locator("#invite input").input_value()
        assert f"/games/{game_id}?seat_token=" in link
        pages[1].goto(link)
        pages[1].wait_for_selector("#board svg")
        assert "seat_token" not in pages[1].url  # the token leaves the address bar for this browser's storage
        rng = random.Random(7)
        seen_dom: list[tuple[int, int, set[str]]] = []  # (page, ply shown, cells with the other's pieces)
        deadline = time.monotonic() + 600
        while not all(p.locator("#status[data-status=finished]").count() for p in pages):
            assert time.monotonic() < deadline, "the game did not end"
            moved = False
            for index, page in enumerate(pages):
                if click_once(page, rng):
                    moved = True
                    seen_dom.append((index, *board_pieces(page, 1 - index)))
            if not moved:
                pages[0].wait_for_timeout(100)
        final = httpx.get(f"{server.url}/api/games/{game_id}").json()
        # The players together hold every seat: they are given the referee's record (each alone, their
        # own, unless the rules revealed the other's stones at the end: tests/server/test_hidden_record.py).
        tokens = [next(iter(p.evaluate(HELD_SEATS, game_id).values())) for p in pages]
        record = records.from_dict(json.loads(json.dumps(httpx.get(f"{server.url}/api/games/{game_id}/record",
                                                                   headers={"X-Seat-Token": ",".join(tokens)})
                                                         .json())))
        end = record.replay()
        assert end.is_over
        states: list[State] = []
        walk: State | None = end
        while walk is not None:
            states.append(walk)
            walk = walk.previous
        states.reverse()  # states[p]: after p moves
        last_playing = states[-2]
        checked = 0
        for index in (0, 1):
            assert secret_texts(last_playing, index), "the game hid no move from this seat: nothing to check"
            for message in received[index].messages:
                checked += check_message(message, index, states, final["version"])
        # The DOM, at every position each page showed while playing: the other seat's pieces only where
        # this seat knows of them.
        for index, ply, cells in seen_dom:
            if ply < len(states) - 1:
                assert cells <= known_stones(states[ply], index), (index, ply, cells)
                checked += 1
        assert checked > 0
    finally:
        for c in contexts:
            c.close()
    assert violations == [[], []], violations


def test_hot_seat_hmdg_hands_over_without_showing_the_other_seats_stones(server: Any, context: Any) -> None:
    page = context.new_page()
    page.goto(f"{server.url}/new?game=hmdg")
    page.wait_for_selector("#options [data-option]")
    for name, value in OPTIONS.items():
        page.locator(f"[name=option-{name}]").fill(str(value))
    page.select_option("[name=opponent]", "hotseat")
    page.click("#new button[type=submit]")
    page.wait_for_url(f"{server.url}/games/*")
    game_id = int(page.url.rsplit("/", 1)[1])
    rng = random.Random(3)
    seen: list[tuple[int, int, set[str]]] = []  # (seat shown, ply, cells with the other seat's pieces)
    handovers = 0
    deadline = time.monotonic() + 600
    while not page.locator("#status[data-status=finished]").count():
        assert time.monotonic() < deadline, "the game did not end"
        page.wait_for_selector("#handover:not([hidden]), #board [data-target], #steps button[data-step], "
                               "#status[data-status=finished]")
        page.wait_for_selector("body:not([data-busy])")
        if page.locator("#handover:not([hidden])").count():
            # While the device changes hands, the page holds no board, no move list, no view at all.
            assert page.locator("#play").is_hidden()
            assert page.eval_on_selector("#board", "b => b.children.length") == 0
            assert page.eval_on_selector("#moves", "m => m.children.length") == 0
            assert page.locator("svg").count() == 0
            handovers += 1
            page.click("#handover-ready")
            page.wait_for_selector("#board svg")
            page.wait_for_selector("body:not([data-busy])")
            continue
        seat = int(page.locator("#seats li:has(em)").get_attribute("data-seat"))
        seen.append((seat, *board_pieces(page, 1 - seat)))
        click_once(page, rng)
    assert handovers >= 4
    tokens = ",".join(page.evaluate(HELD_SEATS, game_id).values())
    record = records.from_dict(httpx.get(f"{server.url}/api/games/{game_id}/record",
                                         headers={"X-Seat-Token": tokens}).json())
    states: list[State] = []
    walk: State | None = record.replay()
    while walk is not None:
        states.append(walk)
        walk = walk.previous
    states.reverse()
    assert {seat for seat, _, _ in seen} == {0, 1}
    for seat, ply, cells in seen:
        if ply < len(states) - 1:
            assert cells <= known_stones(states[ply], seat), (seat, ply, cells)
