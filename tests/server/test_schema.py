"""Every endpoint driven with requests generated from the OpenAPI schema (schemathesis): whatever
comes in, no answer is a 500 and no body carries a traceback."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from boardlab.server.app import create_app
from tests.server.conftest import Api, settings_for

EXAMPLES = 25  # per endpoint and method


# The schema is read when this module is collected, from an app on a database of its own; the fixture
# below fills that database before the first request.
APP = create_app(settings_for(f"sqlite:///{Path(tempfile.mkdtemp(prefix='boardlab-schema-')) / 'boardlab.db'}"))
# The lobby's event stream never ends by itself; test_security.py reads it over a real connection.
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path="/api/my/events")


@pytest.fixture(scope="module")
def app() -> Iterator[FastAPI]:
    """The app with users and games in every state, so generated requests reach real games."""
    with TestClient(APP) as client:
        api = Api(client)
        active = api.pair("ndengrod", {"size": 3, "length": 3})  # game 1
        api.game("ann", "hmdg", [{"kind": "me"}, {"kind": "user", "user": "bob"}], {"setup": "fixed"})  # game 2
        over = api.pair("ndengrod", {"size": 3, "length": 3})  # game 3
        client.post(f"/api/games/{over}/resign", headers=api.user("bob"))
        api.move("ann", active, "b2", ply=0)
        APP.state.headers = api.user("ann")
        yield APP


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_request_gets_a_500_or_a_traceback(case: schemathesis.Case, app: FastAPI) -> None:
    if "game_id" in (case.path_parameters or {}):
        game_id = case.path_parameters["game_id"]
        # Mostly real games (active, a challenge, finished); sometimes the generated id, which may not exist.
        if isinstance(game_id, int) and game_id % 4:
            case.path_parameters["game_id"] = game_id % 4 - 1 or 3
        if case.path.endswith("/events"):
            case.path_parameters["game_id"] = 3  # a finished game's stream ends after its last event
    generated = {k.lower(): v for k, v in (case.headers or {}).items()}
    headers = {k: v for k, v in generated.items() if k != "authorization"}
    # Mostly as a real user, so that requests get past the login (but never logging that user out);
    # sometimes with the generated credentials.
    token = generated.get("authorization")
    if case.path == "/api/logout" or (token is not None and len(token) % 3 == 0):
        headers["authorization"] = token or ""
    else:
        headers.update({k.lower(): v for k, v in app.state.headers.items()})
    response = case.call(headers=headers)
    assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.status_code} {response.text}"
    assert "Traceback" not in response.text and 'File "' not in response.text
