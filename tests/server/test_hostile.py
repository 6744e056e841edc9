"""Hostile requests: text no encoder can write, numbers JSON does not have, bodies too large (declared or
chunked), requests forged by another site's page. Each is refused with a 4xx that says what was wrong,
never a 500, and changes nothing."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

import boardlab
from boardlab import records
from boardlab.core.state import State
from boardlab.server.app import create_app
from boardlab.server.config import Settings, SettingsError
from boardlab.server.routes.deps import COOKIE
from tests.server.conftest import PASSWORD, Api, LiveServer, settings_for

SMALL = {"size": 3, "length": 3}
MARK = "zzmarkzz"  # a value that must never come back in an answer

# Every string and number a request body carries, as a body with one hole (@) for a hostile JSON value.
STRING_FIELDS = [
    ("/api/register", '{"name": @, "password": "correct horse"}'),
    ("/api/register", '{"name": "eve", "password": @}'),
    ("/api/register", '{"name": "eve", "password": "correct horse", "email": @}'),
    ("/api/login", '{"name": @, "password": "correct horse"}'),
    ("/api/login", '{"name": "ann", "password": @}'),
    ("/api/login", '{"name": "ann", "password": "correct horse", "kind": @}'),
    ("/api/games", '{"game": @}'),
    ("/api/games", '{"game": "ndengrod", "variant": @}'),
    ("/api/games", '{"game": "ndengrod", "options": {"size": @}}'),
    ("/api/games", '{"game": "ndengrod", "options": {@: 3}}'),
    ("/api/games", '{"game": "ndengrod", "seats": [{"kind": "me"}, {"kind": "user", "user": @}]}'),
    ("/api/games", '{"game": "ndengrod", "seats": [{"kind": "me"}, {"kind": "ai", "agent": @}]}'),
    ("/api/games", '{"game": "ndengrod", "time": {"kind": @}}'),
    ("/api/games", '{"record": {"game": "ndengrod", "rules_version": "1", "options": {}, "players": [@, "b"], '
                   '"moves": []}}'),
    ("/api/games", '{"record": {"game": "ndengrod", "rules_version": "1", "options": {}, "players": ["a", "b"], '
                   '"moves": [@]}}'),
    ("/api/games/{game}/moves", '{"ply": 0, "move": @}'),
    ("/api/games/{game}/draw", '{"action": @}'),
    ("/api/games/{game}/undo", '{"action": @}'),
    ("/api/password", '{"current": @, "new": "a new password"}'),
    ("/api/password", '{"current": "correct horse", "new": @}'),
    ("/api/email", '{"password": @, "email": null}'),
    ("/api/email", '{"password": "correct horse", "email": @}'),
    ("/api/password-reset", '{"name_or_email": @}'),
    ("/api/password-reset/confirm", '{"token": @, "password": "a new password"}'),
    ("/api/password-reset/confirm", '{"token": "abcdefghijklmnopqrstuvwxyz", "password": @}'),
]
NUMBER_FIELDS = [
    ("/api/games", '{"game": "ndengrod", "time": {"kind": "live", "minutes": @}}'),
    ("/api/games", '{"game": "ndengrod", "time": {"kind": "live", "increment": @}}'),
    ("/api/games", '{"game": "ndengrod", "time": {"days": @}}'),
    ("/api/games", '{"game": "ndengrod", "options": {"size": @}}'),
    ("/api/games", '{"record": {"game": "ndengrod", "rules_version": "1", "options": {}, "players": ["a", "b"], '
                   '"moves": [], "result": [@, 0]}}'),
    ("/api/games", '{"record": {"game": "ndengrod", "rules_version": "1", "options": {}, "players": ["a", "b"], '
                   '"moves": [], "seed": @}}'),
    ("/api/games/{game}/moves", '{"ply": @, "move": "b2"}'),
    ("/api/games/{game}/moves", '{"ply": 0, "move": "b2", "seat": @}'),
    ("/api/games/{game}/hint", '{"ply": @}'),
    ("/api/games/{game}/resign", '{"seat": @}'),
    ("/api/games/{game}/accept", '{"seat": @}'),
    ("/api/games/{game}/draw", '{"action": "offer", "seat": @}'),
]
SURROGATES = ['"\\ud800"', '"abc\\udfff"', '"\\uDBFF x"']
NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e999", "-1e400"]


def refused(response: httpx.Response, *words: str) -> str:
    """``response`` is a 422 whose one-line detail names ``words``; the detail."""
    assert response.status_code == 422, (response.status_code, response.text[:500])
    detail = response.json()["detail"]
    assert isinstance(detail, str) and all(w in detail for w in words), (detail, words)
    assert "Traceback" not in response.text and MARK not in response.text
    return detail


def send(api: Api, path: str, body: str | bytes, game_id: int) -> httpx.Response:
    return api.client.post(path.replace("{game}", str(game_id)), headers={**api.user("ann"),
                           "Content-Type": "application/json"},
                           content=body.encode() if isinstance(body, str) else body)


def test_lone_surrogates_anywhere_are_refused_with_a_422(api: Api) -> None:
    game_id = api.pair("ndengrod", SMALL)
    for path, template in STRING_FIELDS:
        for value in SURROGATES:
            refused(send(api, path, template.replace("@", value), game_id), "lone surrogate", "not Unicode")
    # The same as bytes (CESU-8): not UTF-8 at all.
    refused(send(api, "/api/register", b'{"name": "\xed\xa0\x80x", "password": "correct horse"}', game_id),
            "not UTF-8")
    # A surrogate pair is one character (U+1F600), and is text like any other.
    paired = send(api, "/api/games/{game}/moves", '{"ply": 0, "move": "\\ud83d\\ude00"}', game_id)
    assert paired.status_code == 422 and "\U0001f600" in paired.json()["detail"]  # the rules' complaint
    assert api.show(game_id)["ply"] == 0


def test_nan_and_infinity_anywhere_are_refused_with_a_422(api: Api) -> None:
    game_id = api.pair("ndengrod", SMALL)
    for path, template in NUMBER_FIELDS:
        for value in NON_FINITE:
            words = ("not a JSON number",) if value[-1].isalpha() else ("too large",)
            refused(send(api, path, template.replace("@", value), game_id), *words)
    assert api.show(game_id)["ply"] == 0 and api.show(game_id)["status"] == "active"


def test_a_refused_field_is_named_with_what_it_accepts_and_the_input_is_not_repeated(api: Api) -> None:
    game_id = api.pair("ndengrod", SMALL)
    detail = refused(send(api, "/api/games", f'{{"game": "ndengrod", "time": {{"kind": "{MARK}"}}}}', game_id),
                     "body.time.kind", "'correspondence', 'live' or 'untimed'")
    assert detail.count(";") == 0
    answer = send(api, "/api/games", '{"game": "ndengrod", "time": {"kind": "live", "minutes": 9999}}', game_id)
    refused(answer, "body.time.minutes", "less than or equal to 600")
    assert answer.json()["errors"] == [{"loc": ["body", "time", "minutes"], "type": "less_than_equal",
                                        "msg": "Input should be less than or equal to 600"}]
    # An unknown field is named (its name is the place), with what is wrong.
    refused(send(api, "/api/games/{game}/moves", '{"ply": 0, "move": "b2", "x\\u00e9": 1}', game_id),
            "body.x\u00e9", "Extra inputs are not permitted")
    refused(send(api, "/api/games/{game}/moves", '{"ply": 0, "move": ', game_id), "not valid JSON")
    refused(api.client.get(f"/api/games/{game_id}", params={"ply": MARK}), "query.ply", "valid integer")


def test_seat_tokens_too_long_or_too_many_are_refused_as_such(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id = api.pair("ndengrod", SMALL)
    # The query's tokens are refused as a declared parameter's would be: named, with what is accepted.
    answer = api.client.get(f"/api/games/{game_id}", params={"seat_token": MARK + "x" * 400})
    refused(answer, "query.seat_token", "at most 404 characters")
    assert answer.json()["errors"] == [{"loc": ["query", "seat_token"], "type": "string_too_long",
                                        "msg": "String should have at most 404 characters"}]
    # Even beside a seat token in the header (which is used first), and on a move, which is not made.
    move = api.client.post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"},
                           params={"seat_token": "x" * 405}, headers={**api.user("ann"), "X-Seat-Token": "y"})
    refused(move, "query.seat_token")
    refused(api.client.get(f"/api/games/{game_id}", params={"seat_token": "a,b,c,d,e"}), "at most 4")
    refused(api.client.get(f"/api/games/{game_id}", headers={"X-Seat-Token": "a,b,c,d,e"}), "at most 4")
    assert api.show(game_id)["ply"] == 0


@pytest.fixture
def limited(db_url: str) -> Iterator[LiveServer]:
    with LiveServer(settings_for(db_url, max_body=4096, max_record=64 * 1024)) as server:
        yield server


def chunks(data: bytes, size: int = 1000) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start:start + size]


def test_a_body_over_the_limit_is_refused_with_413_declared_or_chunked(limited: LiveServer) -> None:
    with httpx.Client(base_url=limited.url, timeout=30) as client:
        api = Api(client)
        ann = api.user("ann")
        game_id = api.pair("ndengrod", SMALL)
        big = json.dumps({"ply": 0, "move": "b2", "seat": None, "pad": "x" * 5000}).encode()
        move = f"/api/games/{game_id}/moves"
        declared = client.post(move, content=big, headers={**ann, "Content-Type": "application/json"})
        assert declared.status_code == 413
        assert declared.json()["detail"] == ("the request body is too large: a request's body may be at most "
                                             "4 KiB (--max-body)")
        chunked = client.post(move, content=chunks(big), headers={**ann, "Content-Type": "application/json"})
        assert chunked.status_code == 413 and "4 KiB" in chunked.json()["detail"]
        # A body in chunks within the limit is read whole, and the move is made.
        fine = json.dumps({"ply": 0, "move": "b2"}).encode()
        made = client.post(move, content=chunks(fine, 7), headers={**ann, "Content-Type": "application/json"})
        assert made.status_code == 201, made.text
        assert api.show(game_id)["ply"] == 1


def long_game(game_id: str, plies: int, seed: int = 1, **options: Any) -> State:
    """A game of ``plies`` moves at least (or to its end), each move drawn at random among those that do
    not end it (a random game ends soon; a record to test limits and stalls is long)."""
    rng = random.Random(seed)
    state = boardlab.load(game_id, **options).new_game()
    while not state.is_over and len(state.history()) < plies:
        moves = state.legal_moves()
        rng.shuffle(moves)
        after = state.play(moves[0])
        for move in moves[1:30]:
            if not after.is_over:
                break
            after = state.play(move)
        state = after
    return state


def test_a_record_has_its_own_limit(limited: LiveServer) -> None:
    state = long_game("horsmeier", 1000, ply_cap=1000)
    record = records.GameRecord.from_state(state, players=["a", "b"]).to_dict()
    body = json.dumps({"record": record, "seats": [{"kind": "guest"}, {"kind": "guest"}]}).encode()
    assert 4096 < len(body) < 64 * 1024
    with httpx.Client(base_url=limited.url, timeout=60) as client:
        for content in (body, chunks(body)):
            created = client.post("/api/games", content=content, headers={"Content-Type": "application/json"})
            assert created.status_code == 201, created.text
            assert created.json()["game"]["ply"] == len(record["moves"])
        padded = json.dumps({"record": {**record, "tags": {"pad": "x" * 70_000}}}).encode()
        for content in (padded, chunks(padded)):
            refused_ = client.post("/api/games", content=content, headers={"Content-Type": "application/json"})
            assert refused_.status_code == 413
            assert refused_.json()["detail"] == ("the request body is too large: a new game's request (which may "
                                                 "carry a record) may be at most 64 KiB (--max-record)")


def test_the_limits_are_settings() -> None:
    settings = Settings.from_env({"BOARDLAB_MAX_BODY": "2048", "BOARDLAB_MAX_RECORD": "1048576",
                                  "BOARDLAB_SECURE_COOKIES": "1"})
    assert (settings.max_body, settings.max_record, settings.secure_cookies) == (2048, 1 << 20, True)
    assert Settings.from_env(settings.to_env()) == settings
    assert (Settings().max_body, Settings().max_record, Settings().secure_cookies) == (65536, 2 << 20, False)
    with pytest.raises(SettingsError, match="--max-body 10 is not accepted; accepted: 1024 to"):
        Settings(max_body=10)


# -- requests from another site's page ---------------------------------------------------------------


@pytest.fixture
def browser_like(db_url: str) -> Iterator[tuple[Api, str]]:
    """A client that signs in as a browser does (the session cookie), and a game it plays in."""
    with TestClient(create_app(settings_for(db_url, base_url="https://games.example.org"))) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", SMALL)
        login = client.post("/api/login", json={"name": "bob", "password": PASSWORD})
        assert login.status_code == 200 and COOKIE in client.cookies
        yield api, f"/api/games/{game_id}"


def test_a_cookie_signed_request_from_another_sites_page_is_refused(browser_like: tuple[Api, str]) -> None:
    api, game = browser_like
    post = api.client.post
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"}, {"Referer": "https://evil.example/x"},
                    {"Origin": "http://testserver.evil.example"}, {}):
        answer = post(f"{game}/resign", headers=headers)
        assert answer.status_code == 403, headers
        assert "another site's page" in answer.json()["detail"]
        assert post(f"{game}/draw", json={"action": "offer"}, headers=headers).status_code == 403
        assert post("/api/logout", headers=headers).status_code == 403
    shown = api.show(int(game.rsplit("/", 1)[1]))
    assert shown["status"] == "active" and shown["draw_offers"] == []  # nothing was done
    # Nor the account's own changes, nor a rematch.
    for path, body in (("/api/password", {"current": PASSWORD, "new": "evil's password"}),
                       ("/api/email", {"password": PASSWORD, "email": "eve@evil.example"}),
                       ("/api/password-reset", {"name_or_email": "bob"}),
                       ("/api/password-reset/confirm", {"token": "a" * 43, "password": "evil's password"}),
                       (f"{game}/rematch", None)):
        for headers in ({"Origin": "https://evil.example"}, {}):
            assert post(path, json=body, headers=headers).status_code == 403, (path, headers)
    assert api.client.get("/api/me").json() == {"name": "bob", "email": None}
    # Logging in from another site's page (to sign the victim's browser into the attacker's account) neither.
    assert post("/api/login", json={"name": "ann", "password": PASSWORD},
                headers={"Origin": "https://evil.example"}).status_code == 403


def test_a_cookie_signed_request_from_this_servers_pages_is_accepted(browser_like: tuple[Api, str]) -> None:
    api, game = browser_like
    post = api.client.post
    assert post(f"{game}/draw", json={"action": "offer"}, headers={"Origin": "http://testserver"}).status_code == 200
    withdrawn = post(f"{game}/draw", json={"action": "decline"}, headers={"Referer": "http://testserver/games/1"})
    assert withdrawn.status_code == 200 and withdrawn.json()["draw_offers"] == []
    # The address people reach the server at (--base-url), as a proxy in front of it serves it.
    assert post(f"{game}/draw", json={"action": "offer"},
                headers={"Origin": "https://games.example.org"}).status_code == 200
    # A script signing with its token is no browser: its Origin, if any, does not matter.
    token = post("/api/login", json={"name": "ann", "password": PASSWORD, "kind": "api"},
                 headers={"Origin": "http://testserver"}).json()["token"]
    api.client.cookies.clear()
    assert post(f"{game}/resign", headers={"Authorization": f"Bearer {token}",
                                           "Origin": "https://evil.example"}).status_code == 200


def test_the_session_cookie_is_secure_when_asked_or_behind_an_https_proxy(sqlite_url: str) -> None:
    def cookie(settings: Settings, headers: dict[str, str]) -> str:
        with LiveServer(settings) as server:
            answer = httpx.post(f"{server.url}/api/register", json={"name": "ann", "password": PASSWORD},
                                headers=headers, timeout=30)
            assert answer.status_code == 201, answer.text
            return answer.headers["set-cookie"]

    plain = cookie(settings_for(sqlite_url), {})
    assert "httponly" in plain.lower() and "samesite=lax" in plain.lower() and "secure" not in plain.lower()
    # uvicorn believes X-Forwarded-Proto from 127.0.0.1 (its --forwarded-allow-ips default), as from a proxy there.
    proxied = cookie(settings_for(sqlite_url.replace(".db", "2.db")), {"X-Forwarded-Proto": "https"})
    assert "; secure" in proxied.lower()
    asked = cookie(settings_for(sqlite_url.replace(".db", "3.db"), secure_cookies=True), {})
    assert "; secure" in asked.lower()
