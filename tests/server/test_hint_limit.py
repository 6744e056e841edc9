"""Hints are searches: one client may ask a few at once and then some a minute (boardlab.server.ratelimit);
beyond that the real server answers 429 with a clear message and Retry-After, and other clients are not
held back. Time is the server's clock, frozen and moved by the test (no sleeping, no timing)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import boardlab
from boardlab import records
from boardlab.server.config import Settings, SettingsError
from tests.server.conftest import LiveServer, settings_for


def _finished_game(url: str) -> int:
    """An uploaded finished game: an analysis board, on which anyone (a spectator too) may ask for hints."""
    state = boardlab.load("ndengrod", size=2, length=2).new_game()
    while not state.is_over:
        state = state.play(state.legal_moves()[0].text)
    record = records.GameRecord.from_state(state, players=["x", "y"]).to_dict()
    created = httpx.post(f"{url}/api/games", json={"record": record, "seats": [{"kind": "guest"}] * 2}, timeout=60)
    assert created.status_code == 201, created.text
    return int(created.json()["game"]["id"])


def test_a_client_asking_too_many_hints_is_told_when_to_come_back(sqlite_url: str, frozen_clock: Any) -> None:
    # Two at once, then one every two seconds (30 a minute: halves, exact in binary).
    settings = settings_for(sqlite_url, hint_burst=2, hints_per_minute=30)
    with LiveServer(settings) as live, httpx.Client(base_url=live.url, timeout=120) as spectator:
        game_id = _finished_game(live.url)
        hint = f"/api/games/{game_id}/hint"
        for _ in range(2):
            answer = spectator.post(hint, json={"ply": 1})
            assert answer.status_code == 200, answer.text
            assert answer.json()["candidates"]
        refused = spectator.post(hint, json={"ply": 1})
        assert refused.status_code == 429
        assert refused.headers["Retry-After"] == "2"
        assert refused.json()["detail"] == ("too many hint requests from your address: at most 2 at once, then 30 "
                                            "a minute; try again in 2 seconds")
        # Another client (another address on this machine) is not held back by the first one's hints.
        other = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=live.url, timeout=120, transport=other) as neighbour:
            assert neighbour.post(hint, json={"ply": 1}).status_code == 200
        # A refused request is not work done; half the wait later, the client is still told to wait.
        frozen_clock.advance(1)
        still = spectator.post(hint, json={"ply": 1})
        assert still.status_code == 429 and still.headers["Retry-After"] == "1"
        frozen_clock.advance(1)
        again = spectator.post(hint, json={"ply": 1})
        assert again.status_code == 200, again.text
        assert spectator.post(hint, json={"ply": 1}).status_code == 429


def test_the_hint_limit_is_a_setting_with_a_clear_error() -> None:
    settings = Settings.from_env({"BOARDLAB_HINT_BURST": "3", "BOARDLAB_HINTS_PER_MINUTE": "4.5"})
    assert (settings.hint_burst, settings.hints_per_minute) == (3, 4.5)
    assert Settings.from_env(settings.to_env()) == settings
    for burst, per_minute in ((0, 10.0), (5, 0.0)):
        with pytest.raises(SettingsError, match="accepted: 1 to 10000 at once"):
            Settings(hint_burst=burst, hints_per_minute=per_minute)
