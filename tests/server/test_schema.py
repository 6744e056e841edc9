"""Every endpoint driven with requests generated from the OpenAPI schema (schemathesis): whatever
comes in, no answer is a 500 and no body carries a traceback. Besides what the schema allows, bodies
carry what Python's JSON parser would let in and no answer could hold: lone surrogates (in values and
keys) and NaN or infinite numbers, which must be refused with a 422."""

from __future__ import annotations

import copy
import json
import math
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from boardlab.server.app import create_app
from tests.server.conftest import Api, settings_for

EXAMPLES = 25  # per endpoint and method


# The schema is read when this module is collected, from an app on a database of its own; the fixture
# below fills that database before the first request.
APP = create_app(settings_for(f"sqlite:///{Path(tempfile.mkdtemp(prefix='boardlab-schema-')) / 'boardlab.db'}"))
# The lobby's event stream never ends by itself; test_security.py reads it over a real connection.
schema = schemathesis.openapi.from_asgi("/openapi.json", APP).exclude(path="/api/my/events")

# Hostile values: lone surrogates (text no UTF-8 encoder can write) and numbers JSON does not have.
HOSTILE = st.one_of(st.sampled_from(["\ud800", "ab\udfff", "\udbff\udbff", "x\ud83d"]),
                    st.text(st.characters(categories=["Cs"]), min_size=1, max_size=3),
                    st.sampled_from([math.nan, math.inf, -math.inf]))


def hostile(value: Any) -> bool:
    """Whether ``value`` holds a lone surrogate or a non-finite number, anywhere."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, str):  # a high surrogate then a low one is a pair: one character on the wire
        try:
            value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
        except UnicodeDecodeError:
            return True
        return False
    if isinstance(value, dict):
        return any(hostile(k) or hostile(v) for k, v in value.items())
    if isinstance(value, list):
        return any(hostile(v) for v in value)
    return False


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Where a hostile value may go in a body: each string or number, and each object's keys."""
    if isinstance(value, dict):
        yield (*path, None)  # a new key
        for key, item in value.items():
            yield from places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from places(item, (*path, index))
    elif isinstance(value, str | int | float) and not isinstance(value, bool):
        yield path


def put(body: Any, path: tuple[Any, ...], bad: Any) -> Any:
    body = copy.deepcopy(body)
    if not path:
        return bad
    holder = body
    for step in path[:-1]:
        holder = holder[step]
    if path[-1] is None:
        holder[bad if isinstance(bad, str) else "n"] = bad  # as a key (text), or a new field (a number)
    else:
        holder[path[-1]] = bad
    return body


@schema.hook
def flatmap_body(_context: Any, body: Any) -> st.SearchStrategy[Any]:
    """The generated body as it is, or with one string, number or key made hostile."""
    where = list(places(body))
    if not where:
        return st.just(body)
    return st.one_of(st.just(body), st.builds(put, st.just(body), st.sampled_from(where), HOSTILE))


@schemathesis.serializer("application/json")
def json_as_python_writes_it(_context: Any, value: Any) -> bytes:
    """JSON as Python's json.dumps writes it: NaN and Infinity as such, lone surrogates as \\u escapes
    (the clients' own serialisers refuse both, so the server would never see them)."""
    if isinstance(value, bytes):  # an explicit example's raw bytes, as schemathesis sends them
        return value
    return json.dumps(value, allow_nan=True, default=str).encode()


def test_the_callers_headers_and_query_are_in_the_schema_of_every_route_that_reads_them() -> None:
    """The caller is read from the request itself (routes/deps.py), not from declared parameters: the
    schema still lists what is read, where it is read (and so schemathesis still sends them)."""
    paths = APP.openapi()["paths"]
    expected = {("seat_token", "query"), ("authorization", "header"), ("x-seat-token", "header")}
    for path, method in [("/api/games/{game_id}/moves", "post"), ("/api/me", "get"), ("/api/lobby", "get"),
                         ("/api/games/{game_id}", "get"), ("/api/games/{game_id}/board", "get")]:
        operation = paths[path][method]
        listed = [(p["name"], p["in"]) for p in operation["parameters"]]
        assert expected <= set(listed) and len(listed) == len(set(listed)), (path, listed)
        assert "422" in operation["responses"], path
    seat_token = next(p for p in paths["/api/me"]["get"]["parameters"] if p["name"] == "seat_token")
    assert seat_token["schema"]["anyOf"][0] == {"type": "string", "maxLength": 404}
    # A route that does not ask who is calling lists none of them.
    catalog = paths["/api/catalog"]["get"].get("parameters", [])
    assert not expected & {(p["name"], p["in"]) for p in catalog}
    # The move route keeps its own description of a 422.
    assert paths["/api/games/{game_id}/moves"]["post"]["responses"]["422"]["description"].startswith("illegal move")


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
    if hostile(case.body):
        assert response.status_code == 422, (case.body, response.status_code, response.text)
        assert "not valid JSON" in response.json()["detail"]
