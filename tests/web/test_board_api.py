"""The board route the pages draw from (``GET /api/games/{id}/board``), without a browser: click to move
on the server, the seat's own picture, and clear refusals."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from boardlab.server.app import create_app
from tests.server.conftest import Api, settings_for
from tests.web.test_hidden import svg_pieces


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    with TestClient(create_app(settings_for(f"sqlite:///{tmp_path / 'boardlab.db'}"))) as client:
        yield Api(client)


def board(api: Api, game_id: int, who: str | None = None, **params: Any) -> Any:
    response = api.client.get(f"/api/games/{game_id}/board", params=params, headers=api.user(who) if who else {})
    assert response.status_code == 200, response.text
    return response.json()


def test_clicks_build_a_move_step_by_step_and_a_wrong_click_says_why(api: Api) -> None:
    game_id = api.pair("gtbm", {"size": 4})
    first = board(api, game_id, "ann")
    assert first["targets"] == ["a1", "b1", "c1", "d1"] and first["move"] is None and first["clicked"] == []
    assert 'data-cell="c1"' in first["svg"]
    picked = board(api, game_id, "ann", click="c1")
    assert picked["clicked"] == ["c1"] and picked["targets"] == ["b2", "d2"]
    wrong = board(api, game_id, "ann", clicks="c1", click="c3")
    assert wrong["clicked"] == ["c1"] and "diagonally forward" in wrong["why"]
    whole = board(api, game_id, "ann", clicks="c1", click="d2")
    assert whole["move"] == "c1-d2" and whole["targets"] == []
    # Clicks from an old position are dropped, not trusted.
    api.move("ann", game_id, "c1-d2", ply=0)
    stale = board(api, game_id, "ann", clicks="c1,d2")
    assert stale["clicked"] == [] and stale["move"] is None


def test_who_may_click_and_which_positions(api: Api) -> None:
    game_id = api.pair("ndengrod", {"size": 3, "length": 3})
    api.move("ann", game_id, "b2", ply=0)
    waiting = board(api, game_id, "ann", click="a1")
    assert waiting["targets"] == [] and "not your turn" in waiting["why"]
    watcher = board(api, game_id, None, click="a1")
    assert watcher["seat"] is None and watcher["targets"] == [] and "watching" in watcher["why"]
    earlier = board(api, game_id, "bob", ply=0, click="a1")
    assert earlier["ply"] == 0 and earlier["targets"] == [] and "earlier position" in earlier["why"]
    assert 'data-piece="x stone"' not in earlier["svg"] and 'data-piece="x stone"' in board(api, game_id, "bob")["svg"]
    too_far = api.client.get(f"/api/games/{game_id}/board", params={"ply": 5}, headers=api.user("bob"))
    assert too_far.status_code == 409 and "0 to 1" in too_far.json()["detail"]
    layout = api.client.get(f"/api/games/{game_id}/board", params={"layout": "strip"}, headers=api.user("bob"))
    assert layout.status_code == 422 and "accepted: board" in layout.json()["detail"]


def test_an_hmdg_seat_is_drawn_only_what_it_may_know(api: Api) -> None:
    game_id = api.pair("hmdg", {"size": 5, "line_length": 3, "setup": "fixed"})
    seat0 = api.show(game_id, "ann")["to_move"]
    mover, other = ("ann", "bob") if seat0 == 0 else ("bob", "ann")
    move = next(m for m in api.show(game_id, mover)["view"]["legal_moves"] if "/" in m)
    assert api.move(mover, game_id, move).status_code == 201
    answer = api.show(game_id, other)["view"]["legal_moves"]
    assert "none" in answer, answer
    assert api.move(other, game_id, "none").status_code == 201  # no reveal: the stone is placed, hidden
    placed = move.split("/")[0]
    mover_seat = api.show(game_id, mover)["your_seats"][0]
    assert placed in svg_pieces(board(api, game_id, mover)["svg"], mover_seat)  # the mover sees it (hidden)
    assert placed not in svg_pieces(board(api, game_id, other)["svg"], mover_seat)
    assert svg_pieces(board(api, game_id, None)["svg"], mover_seat) == set()  # nor any watcher
