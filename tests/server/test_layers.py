"""The server's vocabulary and layers: the game statuses are the strings stored and answered."""

from __future__ import annotations

import typing

from boardlab.server.schemas import GameOut
from boardlab.server.status import UNDER_WAY, GameStatus


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
