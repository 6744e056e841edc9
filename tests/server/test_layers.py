"""The server's vocabulary and layers: the game statuses are the strings stored and answered, each refusal
has its HTTP status in one place, and the live updates keep their wire format."""

from __future__ import annotations

import json
import re
import typing

import httpx
import pytest

from boardlab.server.schemas import GameOut
from boardlab.server.status import UNDER_WAY, GameStatus
from tests.server.conftest import Api, LiveServer, settings_for

SMALL = {"size": 3, "length": 3}


def test_every_status_is_the_text_stored_and_answered() -> None:
    assert [status.value for status in GameStatus] == ["challenge", "active", "finished", "declined"]
    assert all(isinstance(status, str) and status == status.value for status in GameStatus)
    answered = typing.get_args(GameOut.model_fields["status"].annotation)
    assert set(answered) == set(GameStatus)
    assert GameOut.model_json_schema()["properties"]["status"]["enum"] == ["challenge", "active", "finished",
                                                                           "declined"]


def test_a_game_is_over_once_finished_or_declined() -> None:
    assert {status for status in GameStatus if status.is_over} == {GameStatus.FINISHED, GameStatus.DECLINED}
    assert set(UNDER_WAY) == set(GameStatus) - {GameStatus.FINISHED, GameStatus.DECLINED}


def test_each_refusal_is_answered_with_its_status_in_one_place() -> None:
    from boardlab.server.app import status_of
    from boardlab.server.db import CommitLost
    from boardlab.server.errors import (
        Conflict,
        NotAllowed,
        NotFound,
        NotLoggedIn,
        Refused,
        TooManyRequests,
        Unavailable,
    )
    from boardlab.server.names import NameRefused

    refusals = [(Refused("?"), 400), (NotLoggedIn("?"), 401), (NotAllowed("?"), 403), (NotFound("?"), 404),
                (Conflict("?"), 409), (NameRefused("?"), 422), (TooManyRequests("?", 3), 429),
                (Unavailable("?"), 503), (CommitLost("?"), 503)]
    assert [(type(error).__name__, status_of(error)) for error, _ in refusals] == \
        [(type(error).__name__, status) for error, status in refusals]
    # The domain's errors carry no HTTP status of their own.
    assert not any(hasattr(error, "status") for error, _ in refusals)


# -- the live updates' wire format (what the browser's EventSource and tests/server read) ---------------


def test_a_game_stream_is_a_worker_comment_the_game_with_its_version_as_id_then_the_end(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "user", "user": "bob"}], SMALL)["game"]["id"]
    assert api.client.post(f"/api/games/{game_id}/decline", headers=api.user("bob")).status_code == 200
    game = api.show(game_id)
    with api.client.stream("GET", f"/api/games/{game_id}/events") as response:  # a declined game's ends
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert response.headers["cache-control"] == "no-cache" and response.headers["x-accel-buffering"] == "no"
        body = b"".join(response.iter_bytes()).decode()
    frames = body.split("\n\n")
    assert re.fullmatch(r": boardlab worker \d+", frames[0])
    head, data = frames[1].rsplit("\n", 1)
    assert head == f"id: {game['version']}\nevent: game"
    assert json.loads(data.removeprefix("data: ")) == game
    assert frames[2:] == ['event: end\ndata: {"status": "declined"}', ""]


def test_a_quiet_stream_sends_keep_alive_comments(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from boardlab.server.routes import games

    monkeypatch.setattr(games, "KEEPALIVE_SECONDS", 0.2)
    with LiveServer(settings_for(sqlite_url)) as server, \
            httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=30)) as client, \
            client.stream("GET", "/api/my/events") as response:
        lines: list[str] = []
        for line in response.iter_lines():
            lines.append(line)
            if lines.count(": keep-alive") == 2:
                break
    assert lines[:3] == ["event: lobby", "data: {}", ""]
    assert set(lines[3:]) == {": keep-alive", ""}
