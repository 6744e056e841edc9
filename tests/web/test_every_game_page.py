"""Every registered game in its page, in a real browser: the new-game form starts it, the board shows
every cell, the page says which layouts suit a phone, and clicks play it to its end."""

from __future__ import annotations

from typing import Any

import pytest

import boardlab
from boardlab.core import registry
from tests.web.play import click_until_over, new_game


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_every_game_is_started_drawn_and_played_by_clicks_in_its_page(server: Any, context: Any,
                                                                      game_id: str) -> None:
    options = dict(registry.package(game_id).samples.quick[0])  # short games: small boards, tight caps
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    new_game(page, server.url, game_id, options)
    game = boardlab.load(game_id, **options)
    drawn = page.locator("#board svg [data-cell]").evaluate_all("cells => cells.map(c => c.dataset.cell)")
    assert sorted(drawn) == sorted(game.cell_names())
    narrow = page.locator("#game").get_attribute("data-narrow-layout") or ""
    assert narrow == next(iter(registry.package(game_id).narrow_layouts), "")
    assert click_until_over(page) > 0
    assert page.locator("#moves li").count() > 0
    assert errors == []
