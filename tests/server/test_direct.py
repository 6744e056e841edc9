"""The move route answered directly (boardlab.server.direct): the same answers as FastAPI's own handler,
valid or not, and FastAPI's handler used only for what is not plainly valid."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi.routing
import pytest
from fastapi import APIRouter, Query, Request, Response
from fastapi.testclient import TestClient

from boardlab.server.app import create_app
from boardlab.server.direct import DirectRoute, plain
from boardlab.server.routes.deps import Caller
from boardlab.server.schemas import MoveRequest
from tests.server.conftest import Api, settings_for

SMALL = {"size": 3, "length": 3}


def _nothing() -> None:
    """Overridden in the app that answers with FastAPI's handler: any override makes DirectRoute hand over."""


@pytest.fixture
def handed_over(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths of the requests that FastAPI's handler answered, in order (of the apps made after this)."""
    seen: list[str] = []
    make = fastapi.routing.get_request_handler

    def counting(*arguments: Any, **named: Any) -> Any:
        handler = make(*arguments, **named)

        async def counted(request: Request) -> Response:
            seen.append(request.url.path)
            answer: Response = await handler(request)
            return answer

        return counted

    monkeypatch.setattr(fastapi.routing, "get_request_handler", counting)
    return seen


@pytest.fixture
def two_apis(tmp_path: Path, frozen_clock: Any, handed_over: list[str]) -> Iterator[tuple[Api, Api]]:
    """The app as it is, and the same app on a database of its own answering every move with FastAPI's
    handler (a dependency override, of a function no route uses, makes DirectRoute hand every request over)."""
    direct = create_app(settings_for(f"sqlite:///{tmp_path / 'direct.db'}"))
    general = create_app(settings_for(f"sqlite:///{tmp_path / 'general.db'}"))
    general.dependency_overrides[_nothing] = _nothing
    with TestClient(direct) as one, TestClient(general) as other:
        yield Api(one), Api(other)


def test_the_move_route_is_answered_directly() -> None:
    app = create_app(settings_for("sqlite:///:memory:"))
    routes = [route for route in app.router.routes if getattr(route, "path", None) == "/api/games/{game_id}/moves"]
    assert len(routes) == 1 and isinstance(routes[0], DirectRoute) and routes[0].direct


def test_moves_valid_or_not_are_answered_as_fastapis_handler_answers_them(
        two_apis: tuple[Api, Api], handed_over: list[str]) -> None:
    direct, general = two_apis
    ids = {direct.pair("ndengrod", SMALL), general.pair("ndengrod", SMALL)}
    assert len(ids) == 1  # the same game on both databases
    game_id = ids.pop()
    rng = random.Random(3)
    json_type = {"Content-Type": "application/json"}

    def send(api: Api, who: str | None, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
        answer = api.client.post(path, content=body, headers={**(api.user(who) if who else {}), **headers})
        return answer.status_code, answer.json()

    def both(who: str | None, path: str, body: bytes, headers: dict[str, str] = json_type,
             handled_directly: bool = False) -> tuple[int, Any]:
        before = len(handed_over)
        found = send(direct, who, path, body, headers)
        assert (len(handed_over) == before) == handled_directly, (path, body, headers, found)
        assert send(general, who, path, body, headers) == found, (path, body, headers)
        assert len(handed_over) > before
        return found

    moves = f"/api/games/{game_id}/moves"
    for turn in range(6):
        to_move = direct.show(game_id)["to_move"]
        who, other = ("ann", "bob")[to_move], ("bob", "ann")[to_move]
        game = direct.show(game_id, who)
        assert game == general.show(game_id, who)
        ply = game["ply"]
        move = rng.choice(game["view"]["legal_moves"])
        # Refused by FastAPI's validation (the route's parameters): handed over, answered alike.
        for path in ("/api/games/0/moves", f"/api/games/{2**31}/moves", "/api/games/x1/moves",
                     f"/api/games/{game_id}.5/moves", f"/api/games/-{game_id}/moves"):
            assert both(who, path, json.dumps({"ply": ply, "move": move}).encode())[0] == 422
        for body in (b"", b"null", b"[]", b"{}", b'{"ply": 0, "move": ', b'{"ply": NaN, "move": "a1"}',
                     json.dumps({"ply": -1, "move": move}).encode(), json.dumps({"ply": ply, "move": ""}).encode(),
                     json.dumps({"ply": ply, "move": move, "seat": 4}).encode(),
                     json.dumps({"ply": ply, "move": move, "extra": 1}).encode(),
                     json.dumps({"ply": str(ply) + ".5", "move": move}).encode(),
                     json.dumps({"ply": ply, "move": 5}).encode(), json.dumps({"ply": ply}).encode()):
            assert both(who, moves, body)[0] == 422, body
        body = json.dumps({"ply": ply, "move": move}).encode()
        for headers in ({}, {"Content-Type": "text/plain"}):  # not JSON: FastAPI's handler says what it lacks
            assert both(who, moves, body, headers)[0] == 422
        # Refused by the game (answered directly): another's turn, a stale ply, an illegal move, no caller.
        assert both(other, moves, body, handled_directly=True)[0] == 403
        assert both(who, moves, json.dumps({"ply": ply + 1, "move": move}).encode(), handled_directly=True)[0] == 409
        assert both(who, moves, json.dumps({"ply": ply, "move": "zz99"}).encode(), handled_directly=True)[0] == 422
        assert both(None, moves, body, handled_directly=True)[0] in (401, 403)
        # Made: the same answer from both, whether the values come plainly or as FastAPI also accepts them.
        if turn % 3 == 0:
            status, game = both(who, moves, body, handled_directly=True)
        elif turn % 3 == 1:  # a seat named, a ply as a JSON float (lax validation), a game id with a zero
            status, game = both(who, f"/api/games/0{game_id}/moves",
                                json.dumps({"ply": float(ply), "move": move, "seat": game["to_move"]}).encode(),
                                handled_directly=True)
        else:  # a Content-Type with a charset: FastAPI's handler reads it as JSON too
            status, game = both(who, moves, body, {"Content-Type": "application/json; charset=utf-8"})
        assert status == 201 and game["ply"] == ply + 1
        assert game == direct.show(game_id, who) == general.show(game_id, who)
        if game["status"] != "active":
            break
    assert turn == 5  # six moves made


def test_a_route_is_answered_directly_only_where_its_parameters_are_plain() -> None:
    """Query parameters, a second body, an optional body, a synchronous route, a dependency taking more than
    the request, a route not returning a Response: FastAPI's handler, always."""
    router = APIRouter(route_class=DirectRoute)

    async def plain_route(game_id: int, body: MoveRequest, caller: Caller, request: Request) -> Response:
        return Response()

    async def with_query(game_id: int, request: Request, seat: int | None = Query(None)) -> Response:
        return Response()

    async def optional_body(request: Request, body: MoveRequest | None = None) -> Response:
        return Response()

    async def two_bodies(one: MoveRequest, other: MoveRequest) -> Response:
        return Response()

    def synchronous(game_id: int) -> Response:
        return Response()

    async def answers_a_model(game_id: int) -> MoveRequest:
        return MoveRequest(ply=0, move="a1")

    for endpoint, expected in ((plain_route, True), (with_query, False), (optional_body, False),
                               (two_bodies, False), (synchronous, False), (answers_a_model, False)):
        router.add_api_route("/x/{game_id}", endpoint, methods=["POST"])
        route = router.routes[-1]
        assert isinstance(route, DirectRoute)
        assert route.direct is expected, endpoint.__name__
        assert (plain(route.dependant, route.body_field, route._embed_body_fields) is not None) is expected


def test_the_move_route_is_documented_as_a_route_of_the_games_router() -> None:
    schema = create_app(settings_for("sqlite:///:memory:")).openapi()
    assert next(iter(schema["paths"])) == "/api/games/{game_id}/moves"
    operation = schema["paths"]["/api/games/{game_id}/moves"]["post"]
    assert operation["tags"] == ["games"] and operation["operationId"] == "make_move_api_games__game_id__moves_post"
    assert [(p["name"], p["in"]) for p in operation["parameters"]] == [
        ("game_id", "path"), ("seat_token", "query"), ("authorization", "header"), ("x-seat-token", "header")]
    assert operation["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/MoveRequest"}
    assert operation["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/GameOut"}
    assert set(operation["responses"]) == {"201", "403", "409", "422"}
