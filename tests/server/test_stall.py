"""Slow work stalls nobody: while a password is hashed or checked, or an uploaded record replayed, no
database write lock is held and the event loop is free, so other players' moves go on. And the login
limit holds when the guesses come all at once.

Each stall test holds the slow work at a gate (the real work, paused until the test opens the gate) and
makes another player's move meanwhile: were the work done under the write lock, or the event loop
waiting for that lock, the move could not be answered until the gate opened, and the test would fail.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from boardlab import records
from boardlab.core.state import State
from boardlab.server import accounts
from boardlab.server.accounts import FAILURES_ALLOWED
from boardlab.server.models import User
from boardlab.server.pools import SlowPool
from tests.server.conftest import PASSWORD, Api, LiveServer, settings_for
from tests.server.test_hostile import long_game

SMALL = {"size": 3, "length": 3}
LIVELY = 30.0  # seconds: a bound for an answer that nothing should hold up (it takes milliseconds)


class Gate:
    """``work``, paused on entry until :meth:`open`; :attr:`entered` is set when a call is waiting."""

    def __init__(self, work: Callable[..., Any]) -> None:
        self.work = work
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.calls = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        self.entered.set()
        assert self.opened.wait(120), "the gate was never opened"
        return self.work(*args, **kwargs)

    def open(self) -> None:
        self.opened.set()


@contextmanager
def served(db_url: str) -> Iterator[tuple[LiveServer, httpx.Client, Api, int]]:
    """A live server, a client, and a game between ann and bob in which it is ann's move."""
    with LiveServer(settings_for(db_url)) as server, httpx.Client(base_url=server.url, timeout=LIVELY) as client:
        api = Api(client)
        yield server, client, api, api.pair("ndengrod", SMALL)


def move_meanwhile(client: httpx.Client, api: Api, game_id: int, gate: Gate, started: Any) -> None:
    """With ``gate``'s work waiting (``started``: the request that does it), ann moves and the lobby
    answers; then the gate opens and that request finishes."""
    assert gate.entered.wait(LIVELY), "the slow work never started"
    try:
        moved = client.post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"}, headers=api.user("ann"))
        assert moved.status_code == 201, moved.text
        assert client.get("/api/lobby").status_code == 200
        assert not started.done(), "the slow work did not wait at its gate"
    finally:
        gate.open()


def test_hashing_a_new_password_holds_up_no_move(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with served(db_url) as (_, client, api, game_id), ThreadPoolExecutor(1) as pool:
        gate = Gate(accounts.hash_password)
        monkeypatch.setattr(accounts, "hash_password", gate)
        started = pool.submit(client.post, "/api/register", json={"name": "cat", "password": PASSWORD})
        move_meanwhile(client, api, game_id, gate, started)
        assert started.result().status_code == 201


def test_checking_a_password_holds_up_no_move(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with served(db_url) as (_, client, api, game_id), ThreadPoolExecutor(1) as pool:
        gate = Gate(accounts.password_matches)
        monkeypatch.setattr(accounts, "password_matches", gate)
        started = pool.submit(client.post, "/api/login", json={"name": "bob", "password": PASSWORD, "kind": "api"})
        move_meanwhile(client, api, game_id, gate, started)
        assert started.result().status_code == 200


def test_an_uploaded_record_is_replayed_once_holding_up_no_move(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state = long_game("horsmeier", 300, ply_cap=300)
    record = records.GameRecord.from_state(state, players=["a", "b"]).to_dict()
    replays = Gate(records.GameRecord.replay)
    monkeypatch.setattr(records.GameRecord, "replay", lambda self: replays(self))
    with served(db_url) as (_, client, api, game_id), ThreadPoolExecutor(1) as pool:
        started = pool.submit(client.post, "/api/games", json={"record": record, "seats": [{"kind": "guest"}] * 2})
        move_meanwhile(client, api, game_id, replays, started)
        created = started.result()
        assert created.status_code == 201, created.text
        game = created.json()["game"]
        assert replays.calls == 1  # checked and stored from one replay
        # Every move stored, with the seat that made it.
        shown = client.get(f"/api/games/{game['id']}").json()["view"]["moves"]
        assert [m["text"] for m in shown] == record["moves"]
        assert [m["seat"] for m in shown] == records.movers(state)


def test_who_made_each_uploaded_move_is_found_in_one_walk(sqlite_api: Api, monkeypatch: pytest.MonkeyPatch) -> None:
    state = long_game("horsmeier", 600, ply_cap=600)
    plies = len(state.history())
    record = records.GameRecord.from_state(state, players=["a", "b"]).to_dict()
    steps = 0
    parent = State.previous

    def counted(self: State) -> State | None:
        nonlocal steps
        steps += 1
        return parent.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(State, "previous", property(counted))
    created = sqlite_api.client.post("/api/games", json={"record": record, "seats": [{"kind": "guest"}] * 2})
    assert created.status_code == 201, created.text
    # A walk back for each move's mover would take plies²/2 = 180,000 steps; one walk (and the answer's
    # own walks through the moves) take a few for each move.
    assert plies >= 600 and steps < 6 * plies, (plies, steps)


def test_a_move_does_not_wait_on_the_event_loop_for_a_transaction_in_progress(db_url: str) -> None:
    with served(db_url) as (server, client, api, game_id), ThreadPoolExecutor(1) as pool:
        service = server.app.state.service
        holding, release = threading.Event(), threading.Event()

        def slow_transaction() -> None:
            with service.db.write():  # SQLite: the write lock, as slow work would hold it
                holding.set()
                assert release.wait(120)

        writer = threading.Thread(target=slow_transaction)
        writer.start()
        try:
            assert holding.wait(LIVELY)
            move = pool.submit(client.post, f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"},
                               headers=api.user("ann"))
            # While the move waits for the lock (SQLite) or runs (PostgreSQL), the server answers others.
            for _ in range(3):
                assert client.get(f"/api/games/{game_id}").status_code == 200
                assert client.get("/api/agents").status_code == 200
        finally:
            release.set()
            writer.join()
        assert move.result().status_code == 201
        assert api.show(game_id)["ply"] == 1


def test_guesses_sent_at_once_are_checked_no_more_than_the_limit(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = Gate(accounts.password_matches)
    checked.open()
    monkeypatch.setattr(accounts, "password_matches", checked)
    with LiveServer(settings_for(db_url)) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            Api(client).user("ann")
        barrier = threading.Barrier(30)

        def guess(number: int) -> int:
            with httpx.Client(base_url=server.url, timeout=120) as own:
                barrier.wait()
                return own.post("/api/login", json={"name": "ann", "password": f"wrong {number}"}).status_code

        with ThreadPoolExecutor(30) as pool:
            statuses = list(pool.map(guess, range(30)))
        assert sorted(statuses) == [401] * FAILURES_ALLOWED + [429] * (30 - FAILURES_ALLOWED)
        assert checked.calls == FAILURES_ALLOWED
        # The right password now is refused too, unchecked: the name is at its limit.
        right = httpx.post(f"{server.url}/api/login", json={"name": "ann", "password": PASSWORD}, timeout=60)
        assert right.status_code == 429 and int(right.headers["retry-after"]) > 0
        assert checked.calls == FAILURES_ALLOWED


def test_a_right_password_is_not_counted_as_a_failure(sqlite_api: Api) -> None:
    api = sqlite_api
    api.user("ann")

    def login(name: str, password: str) -> int:
        return api.client.post("/api/login", json={"name": name, "password": password, "kind": "api"}).status_code

    assert [login("ann", f"wrong {n}") for n in range(FAILURES_ALLOWED - 1)] == [401] * (FAILURES_ALLOWED - 1)
    assert [login("ann", PASSWORD) for _ in range(3)] == [200] * 3
    assert login("ann", "wrong") == 401
    assert login("ann", PASSWORD) == 429
    assert login("nobody", "wrong") == 429  # the address's limit, too


# -- the account's other password checks: a new password, a new e-mail address, a reset ------------


def reset_token(server: LiveServer, name: str) -> str:
    """A password reset link's token for ``name``, as the e-mail would carry it."""
    with server.app.state.service.db.write() as session:
        user = session.scalar(select(User).where(User.name == name))
        assert user is not None
        return accounts.issue_reset(session, user)


@pytest.mark.parametrize(("path", "slow"), [("/api/password", "password_matches"), ("/api/password", "hash_password"),
                                            ("/api/email", "password_matches"),
                                            ("/api/password-reset/confirm", "hash_password")])
def test_a_password_change_checks_and_hashes_holding_up_no_move(db_url: str, monkeypatch: pytest.MonkeyPatch,
                                                                 path: str, slow: str) -> None:
    with served(db_url) as (server, client, api, game_id), ThreadPoolExecutor(1) as pool:
        body: dict[str, Any] = {"/api/password": {"current": PASSWORD, "new": "a new password"},
                                "/api/email": {"password": PASSWORD, "email": "bob@example.org"},
                                "/api/password-reset/confirm": {"password": "a new password"}}[path]
        if path.endswith("confirm"):
            body["token"] = reset_token(server, "bob")
        gate = Gate(getattr(accounts, slow))
        monkeypatch.setattr(accounts, slow, gate)
        started = pool.submit(client.post, path, json=body, headers=api.user("bob"))
        move_meanwhile(client, api, game_id, gate, started)
        assert started.result().status_code in (200, 204), started.result().text
        assert gate.calls == 1
        if path != "/api/email":  # the new password is the one that works now
            client.cookies.clear()  # the reset signed this client in as a browser: it signs with tokens
            login = client.post("/api/login", json={"name": "bob", "password": "a new password", "kind": "api"})
            assert login.status_code == 200, login.text


def test_wrong_current_passwords_sent_at_once_are_checked_no_more_than_the_limit(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Changing the password (or the address) asks for the current one: a guess at it is a login attempt,
    counted before it is checked, on the same limit, so a stolen session cannot try more."""
    checked = Gate(accounts.password_matches)
    checked.open()
    monkeypatch.setattr(accounts, "password_matches", checked)
    with LiveServer(settings_for(db_url)) as server:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            ann = Api(client).user("ann")
        barrier = threading.Barrier(30)

        def guess(number: int) -> int:
            with httpx.Client(base_url=server.url, timeout=120) as own:
                barrier.wait()
                path, body = (("/api/password", {"current": f"wrong {number}", "new": "a new password"})
                              if number % 2 else ("/api/email", {"password": f"wrong {number}", "email": None}))
                return own.post(path, json=body, headers=ann).status_code

        with ThreadPoolExecutor(30) as pool:
            statuses = list(pool.map(guess, range(30)))
        assert sorted(statuses) == [401] * FAILURES_ALLOWED + [429] * (30 - FAILURES_ALLOWED)
        assert checked.calls == FAILURES_ALLOWED
        # Logging in is refused too, unchecked: it is the same limit.
        right = httpx.post(f"{server.url}/api/login", json={"name": "ann", "password": PASSWORD}, timeout=60)
        assert right.status_code == 429
        right = httpx.post(f"{server.url}/api/password", json={"current": PASSWORD, "new": "a new password"},
                           headers=ann, timeout=60)
        assert right.status_code == 429
        assert checked.calls == FAILURES_ALLOWED


def test_a_password_changed_meanwhile_is_not_overwritten(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two changes checked against the same current password: the one written second finds the password
    changed since its check, and is refused (409) rather than setting a password from a stale check."""
    hashed = accounts.hash_password
    first = Gate(hashed)
    monkeypatch.setattr(accounts, "hash_password",
                        lambda password: first(password) if password == "first new password" else hashed(password))
    with LiveServer(settings_for(sqlite_url)) as server, ThreadPoolExecutor(1) as pool, \
            httpx.Client(base_url=server.url, timeout=LIVELY) as client:
        ann = Api(client).user("ann")
        server.app.state.service.accounts._passwords = SlowPool(2, "two-at-once")  # the machine may allow one
        slow = pool.submit(client.post, "/api/password", json={"current": PASSWORD, "new": "first new password"},
                           headers=ann)
        assert first.entered.wait(LIVELY)
        fast = client.post("/api/password", json={"current": PASSWORD, "new": "second new password"}, headers=ann)
        assert fast.status_code == 204, fast.text
        first.open()
        late = slow.result()
        assert late.status_code == 409 and "changed meanwhile" in late.json()["detail"]

        def login(password: str) -> int:
            return client.post("/api/login", json={"name": "ann", "password": password, "kind": "api"}).status_code

        assert (login("second new password"), login("first new password")) == (200, 401)
