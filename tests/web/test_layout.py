"""What a player needs each turn is on the first screen, at a laptop's size (1280×800) and a phone's
(390×844), for every game: whose turn it is, the last move, what a refused move was refused for, and
the box to type a move in. A very long typed move is repeated by its beginning only."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.conftest import watch_policy
from tests.web.play import IDLE
from tests.web.test_phone import GAMES, guest_game

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

IN_VIEW = """(ids) => ids.map((id) => {
  const box = document.getElementById(id).getBoundingClientRect();
  return [id, box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0, Math.round(box.bottom)];
})"""


@pytest.mark.parametrize("size", list(SIZES))
def test_status_last_move_message_and_typed_box_are_on_the_first_screen(server: Any, browser: Any, size: str) -> None:
    context = browser.new_context(viewport=SIZES[size], device_scale_factor=1)
    context.set_default_timeout(120_000)
    violations = watch_policy(context)
    try:
        page = context.new_page()
        for game, options in GAMES:
            game_id, token = guest_game(server.url, game, options, moves=3)
            page.goto(f"{server.url}/games/{game_id}?seat_token={token}")
            page.wait_for_selector("#board svg")
            page.wait_for_selector(IDLE)
            assert page.evaluate("window.scrollY") == 0
            long_move = "z" * 5000
            page.fill("#typed [name=move]", long_move)
            page.click("#typed button[type=submit]")
            page.wait_for_selector("#message:not(:empty)")
            page.wait_for_selector(IDLE)
            page.evaluate("window.scrollTo(0, 0)")
            said = page.locator("#message").inner_text()
            # The box takes what the API does (200 characters); the message repeats their beginning only.
            assert page.locator("#typed [name=move]").input_value() == "z" * 200
            assert "zzzz… (200 characters)" in said and "z" * 41 not in said, said[:200]
            placed = page.evaluate(IN_VIEW, ["status", "last-move", "message", "typed"])
            assert all(seen for _, seen, _ in placed), f"{game} at {size}: {placed}"
            assert page.locator("#last-move").inner_text().startswith("Last move: ")
    finally:
        context.close()
    assert violations == [], violations


def test_the_new_game_pages_file_picker_stays_in_its_card_on_a_phone(server: Any, browser: Any) -> None:
    context = browser.new_context(viewport=SIZES["phone"], device_scale_factor=1)
    violations = watch_policy(context)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/new")
        page.wait_for_selector("#options [data-option]")
        card = page.locator("#upload").evaluate("form => form.closest('.card').getBoundingClientRect().right")
        picker = page.locator("#upload input[type=file]").evaluate("input => input.getBoundingClientRect().right")
        assert picker <= card, (picker, card)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
    assert violations == [], violations


def test_a_page_for_no_game_is_a_404_page_without_game_buttons(server: Any) -> None:
    for path in ("/games/99999", "/games/abc", "/rules/foo", "/nope"):
        response = httpx.get(server.url + path)
        assert response.status_code == 404 and "text/html" in response.headers["content-type"], path
        assert 'id="resign"' not in response.text and "Not found" in response.text
