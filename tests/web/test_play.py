"""Playing in a real browser (chromium driven by Playwright) against the real server.

Each game is played to its end by clicking against a level-1 computer seat (small boards, so that
games end soon); the result the page shows must be the engine's.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.web.play import HELD_SEATS, click_until_over, engine_result, new_game

# Small boards and short caps where a game has them, so that each game ends within a few dozen moves.
WHOLE_GAMES = [
    ("ndengrod", {"size": 3, "length": 3}),
    ("gtbm", {"size": 4}),
    ("horsmeier", {"ply_cap": 24}),
    ("mynd", {"size": 5, "ply_cap": 24}),
    ("mobiatus", {"length": 8, "width": 3, "blue_offset": 4, "move_pair_limit": 8}),
    ("mobiatus", {"length": 8, "width": 4, "blue_offset": 4, "move_pair_limit": 8, "movement": "camel"}),
    ("hmdg", {"size": 5, "line_length": 3}),
]


@pytest.mark.parametrize(("game", "options"), WHOLE_GAMES,
                         ids=[f"{game}-{options['movement']}" if "movement" in options else game
                              for game, options in WHOLE_GAMES])
def test_a_whole_game_by_clicking_against_the_computer(server: Any, context: Any, game: str,
                                                       options: dict[str, Any]) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    game_id = new_game(page, server.url, game, options)
    clicks = click_until_over(page)
    assert clicks > 0
    status = page.locator("#status")
    shown = tuple(float(x) for x in status.get_attribute("data-result").split(","))
    tokens = list(page.evaluate(HELD_SEATS, game_id).values())
    assert shown == engine_result(server, game_id, tokens)
    record = httpx.get(f"{server.url}/api/games/{game_id}/record", headers={"X-Seat-Token": ",".join(tokens)}).json()
    assert all(record["options"][name] == value for name, value in options.items()), "the form sent every option"
    text = status.inner_text()
    assert text.startswith("Game over")
    winners = [i for i, score in enumerate(shown) if score == 1]
    labels = [page.locator(f"#seats li[data-seat='{i}'] strong").inner_text() for i in winners]
    assert all(label in text for label in labels), (text, labels)
    assert "Draw" in text if not winners else "won" in text
    assert errors == []


def test_pages_and_api_docs_load_nothing_from_outside(server: Any) -> None:
    """Every page, /docs included (Swagger UI is vendored), refers only to this server."""
    import re

    import httpx

    created = httpx.post(server.url + "/api/games", json={"game": "ndengrod", "options": {"size": 3, "length": 3},
                                                       "seats": [{"kind": "guest"}, {"kind": "guest"}]}, timeout=300)
    assert created.status_code == 201, created.text
    game_page = f"/games/{created.json()['game']['id']}"  # a game of its own: the test runs alone too
    for path in ("/", "/new", game_page, "/rules", "/rules/mobiatus", "/docs"):
        response = httpx.get(server.url + path)
        assert response.status_code == 200, path
        assert "text/html" in response.headers["content-type"]
        external = re.findall(r"""(?:src|href)=["']?((?:https?:)?//[^"' >]+)""", response.text)
        assert external == [], (path, external)
    docs = httpx.get(server.url + "/docs").text
    assert "/static/swagger/swagger-ui-bundle.js" in docs and "/static/swagger/swagger-ui.css" in docs
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "LICENSE"):
        assert httpx.get(f"{server.url}/static/swagger/{asset}").status_code == 200


def test_a_stale_tab_updates_and_cannot_replay_the_old_move(server: Any, context: Any) -> None:
    """Two tabs of one guest: a move made in one reaches the other at once; a third tab whose live
    updates are cut off (a laptop asleep) still shows the old position, and its old move is refused
    and replaced by the game as it is."""
    first = context.new_page()
    first.goto(server.url + "/")
    first.select_option("#quick [name=game]", "ndengrod")
    first.select_option("#quick [name=level]", "level1")
    first.click("#quick button[type=submit]")  # the lobby's "play the computer now": a guest seat
    first.wait_for_url(f"{server.url}/games/*")
    first.wait_for_selector("#board [data-target]")
    game_url = first.url
    second = context.new_page()
    second.goto(game_url)
    asleep = context.new_page()
    asleep.route("**/events*", lambda route: route.abort())
    asleep.goto(game_url)
    for page in (second, asleep):
        page.wait_for_selector("#board [data-target]")
        page.wait_for_selector("body:not([data-busy])")
    cell = first.locator("#board [data-target]").first.get_attribute("data-cell")
    first.click(f"#board [data-cell='{cell}']")
    first.wait_for_selector("#board[data-ply='2']")  # the move and the computer's answer
    second.wait_for_selector("#board[data-ply='2']")
    assert second.locator("#moves li").count() == 2
    assert second.locator("#moves li").first.inner_text().endswith(cell)
    # The sleeping tab still offers the old position; its old move goes with the old ply.
    assert asleep.locator("#board").get_attribute("data-ply") == "0"
    asleep.fill("#typed [name=move]", cell)
    asleep.click("#typed button[type=submit]")
    asleep.wait_for_selector("#board[data-ply='2']")
    assert "stale" in asleep.locator("#message").inner_text()
    game = httpx.get(server.url + "/api" + game_url.split(server.url)[1]).json()
    assert game["ply"] == 2
    assert game["view"]["moves"][0]["text"] == cell
    # Clicking the old move's cell now is explained, not played.
    asleep.click(f"#board [data-cell='{cell}']")
    asleep.wait_for_selector("body:not([data-busy])")
    assert asleep.locator("#message").inner_text().strip() != ""
    assert httpx.get(server.url + "/api" + game_url.split(server.url)[1]).json()["ply"] == 2
