"""Authorisation, hidden information and concurrent moves: each a test of the server's promises."""

from __future__ import annotations

import secrets
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import Api, LiveServer, settings_for, wait_for

SMALL = {"size": 3, "length": 3}


# -- authorisation ----------------------------------------------------------------------------------


def test_nobody_acts_for_a_seat_they_do_not_hold(sqlite_api: Api) -> None:
    api = sqlite_api
    game_id = api.pair("ndengrod", SMALL)
    post, get = api.client.post, api.client.get
    bob, cat = api.user("bob"), api.user("cat")
    # Moving for another seat, or naming it.
    assert post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"}, headers=bob).status_code == 403
    assert post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2", "seat": 0},
                headers=bob).status_code == 403
    # Reading another seat's view or record.
    assert get(f"/api/games/{game_id}", params={"seat": 0}, headers=bob).status_code == 403
    assert get(f"/api/games/{game_id}/record", params={"seat": 0}, headers=cat).status_code == 403
    assert get(f"/api/games/{game_id}/events", params={"seat": 0}, headers=bob).status_code == 403
    # Resigning, offering draws, asking takebacks for another seat.
    assert post(f"/api/games/{game_id}/resign", json={"seat": 0}, headers=bob).status_code == 403
    assert post(f"/api/games/{game_id}/resign", headers=cat).status_code == 403
    assert post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=cat).status_code == 403
    assert post(f"/api/games/{game_id}/undo", json={"action": "request", "seat": 0}, headers=bob).status_code == 403
    # A challenge meant for someone else.
    challenge = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "user", "user": "bob"}], SMALL)["game"]
    assert post(f"/api/games/{challenge['id']}/accept", headers=cat).status_code == 403
    assert post(f"/api/games/{challenge['id']}/decline", headers=cat).status_code == 403
    # Tokens: a made-up one, a logged-out one.
    forged = {"Authorization": f"Bearer {secrets.token_urlsafe(32)}"}
    assert post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"}, headers=forged).status_code == 401
    token = api.client.post("/api/login", json={"name": "ann", "password": "correct horse", "kind": "api"}).json()
    ann = {"Authorization": f"Bearer {token['token']}"}
    assert post("/api/logout", headers=ann).status_code == 204
    assert post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": "b2"}, headers=ann).status_code == 401
    assert api.show(game_id)["ply"] == 0


def test_seat_tokens_are_secret_random_and_bound_to_their_game(sqlite_api: Api) -> None:
    api = sqlite_api
    made = [api.client.post("/api/games", json={"game": "ndengrod", "options": SMALL,
                                                "seats": [{"kind": "guest"}, {"kind": "guest"}]}).json()
            for _ in range(3)]
    tokens = [t for m in made for t in m["invitations"].values()]
    assert len(set(tokens)) == len(tokens) and all(len(t) >= 43 for t in tokens)  # 32 bytes from secrets
    first, second = made[0]["game"]["id"], made[1]["game"]["id"]
    seat0 = {"X-Seat-Token": made[0]["invitations"]["0"]}
    assert api.client.get(f"/api/games/{first}", headers=seat0).json()["your_seats"] == [0]
    assert api.client.get(f"/api/games/{second}", headers=seat0).json()["your_seats"] == []  # another game's
    for _ in range(50):  # guesses: well-formed tokens that were never issued
        guess = {"X-Seat-Token": secrets.token_urlsafe(32)}
        assert api.client.post(f"/api/games/{first}/moves", json={"ply": 0, "move": "b2"},
                               headers=guess).status_code == 403
        assert api.client.get(f"/api/games/{first}", params={"seat": 0}, headers=guess).status_code == 403
    ok = api.client.post(f"/api/games/{first}/moves", params={"seat_token": made[0]["invitations"]["0"]},
                         json={"ply": 0, "move": "b2"})
    assert ok.status_code == 201
    # The database keeps only hashes of seat tokens.
    service = api.client.app.state.service  # type: ignore[union-attr]
    from sqlalchemy import select

    from boardlab.server.models import Seat

    with service.db.read() as session:
        stored = set(session.scalars(select(Seat.token_hash)))
    assert not set(tokens) & stored


# -- hidden information -----------------------------------------------------------------------------

HMDG = {"setup": "fixed", "size": 5, "line_length": 3}
# Two games that differ only in where seat 0 (o) hides its stones: a1/b1 against a2/b2, on the same
# announced rows; everything seat 1 (x) and spectators may know is the same.
MOVES_A = ["a1/row", "none", "e5/row", "none", "b1/row", "none", "d5/col", "none"]
MOVES_B = ["a2/row", "none", "e5/row", "none", "b2/row", "none", "d5/col", "none"]


def _collect(db_url: str, moves: list[str]) -> tuple[list[tuple[str, bytes]], list[bytes]]:
    """Play ``moves`` on a fresh server; return everything seat 1 and spectators received, and seat 0's."""
    seen: list[tuple[str, bytes]] = []
    own: list[bytes] = []
    with LiveServer(settings_for(db_url)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        api = Api(client)
        bob, nobody = api.user("bob"), {}
        game_id = api.pair("hmdg", HMDG)
        streams: dict[str, list[bytes]] = {"bob": [], "spectator": []}
        versions: dict[str, list[int]] = {"bob": [], "spectator": []}

        def listen(name: str, headers: dict[str, str]) -> None:
            with httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=60)) as own_client, \
                    own_client.stream("GET", f"/api/games/{game_id}/events", headers=headers) as response:
                event = ""
                for line in response.iter_lines():
                    if line.startswith(": boardlab worker"):
                        continue  # names the process (which differs between the two servers), nothing else
                    streams[name].append(line.encode())
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    if line.startswith("data:") and event == "game":
                        import json

                        versions[name].append(json.loads(line[5:])["version"])
                    if event == "end" or len(versions[name]) >= len(moves) + 3:
                        return

        threads = [threading.Thread(target=listen, args=("bob", bob)),
                   threading.Thread(target=listen, args=("spectator", nobody))]
        for thread in threads:
            thread.start()

        def reads() -> None:
            game = client.get(f"/api/games/{game_id}").json()
            for who, headers in (("bob", bob), ("spectator", nobody)):
                wait_for(lambda headers=headers, who=who: game["version"] in versions[who], timeout=30)
                seen.append((f"{who} game", client.get(f"/api/games/{game_id}", headers=headers).content))
                for ply in range(game["ply"] + 1):
                    seen.append((f"{who} ply {ply}", client.get(f"/api/games/{game_id}", params={"ply": ply},
                                                                headers=headers).content))
                seen.append((f"{who} record", client.get(f"/api/games/{game_id}/record", headers=headers).content))
                seen.append((f"{who} lobby", client.get("/api/lobby", headers=headers).content))
            seen.append(("bob games", client.get("/api/my/games", headers=bob).content))
            own.append(client.get(f"/api/games/{game_id}", headers=api.user("ann")).content)

        reads()
        for ply, move in enumerate(moves):
            mover = client.get(f"/api/games/{game_id}").json()["to_move"]
            response = api.move("ann" if mover == 0 else "bob", game_id, move, ply=ply)
            assert response.status_code == 201, response.text
            if mover == 1:
                seen.append((f"bob move {ply}", response.content))
            reads()
        for action, who in (("offer", "bob"), ("decline", "ann")):
            response = client.post(f"/api/games/{game_id}/draw", json={"action": action}, headers=api.user(who))
            seen.append((f"draw {action}", response.content if who == "bob" else b""))
            reads()
        for path, body in (("undo", {"action": "request"}), ("hint", None)):
            seen.append((path, client.post(f"/api/games/{game_id}/{path}", json=body, headers=bob).content))
        for thread in threads:
            thread.join(timeout=30)
        seen.extend((f"{name} events", b"\n".join(lines)) for name, lines in streams.items())
    return seen, own


def test_seat_1_and_spectators_learn_nothing_of_seat_0s_hidden_stones(tmp_path: Path, frozen_clock: Any) -> None:
    start = frozen_clock.at
    seen_a, own_a = _collect(f"sqlite:///{tmp_path / 'a.db'}", MOVES_A)
    frozen_clock.at = start  # the second game happens at the same (frozen) times as the first
    seen_b, own_b = _collect(f"sqlite:///{tmp_path / 'b.db'}", MOVES_B)
    assert [label for label, _ in seen_a] == [label for label, _ in seen_b]
    for (label, a), (_, b) in zip(seen_a, seen_b, strict=True):
        assert a == b, f"{label} differs between the games:\n{a.decode()[:2000]}\n---\n{b.decode()[:2000]}"
    events = dict(seen_a)
    assert events["bob events"].count(b"event: game") >= len(MOVES_A)  # every change was pushed
    assert own_a != own_b  # seat 0 itself sees where its stones are: the games really differ


# -- concurrent moves -------------------------------------------------------------------------------


def test_of_moves_sent_at_once_for_one_ply_exactly_one_is_kept(db_url: str) -> None:
    with LiveServer(settings_for(db_url)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", SMALL)
        ann = api.user("ann")
        moves = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2"]
        barrier = threading.Barrier(len(moves))
        statuses: dict[str, int] = {}

        def send(move: str) -> None:
            with httpx.Client(base_url=server.url, timeout=30) as own:
                barrier.wait()
                statuses[move] = own.post(f"/api/games/{game_id}/moves", json={"ply": 0, "move": move},
                                          headers=ann).status_code

        threads = [threading.Thread(target=send, args=(m,)) for m in moves]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses.values()) == [201] + [409] * (len(moves) - 1)
        kept = next(m for m, status in statuses.items() if status == 201)
        game = api.show(game_id)
        assert game["ply"] == 1 and [m["text"] for m in game["view"]["moves"]] == [kept]


@pytest.mark.parametrize("quick", [False, True])
def test_of_moves_sent_at_once_later_in_a_game_exactly_one_is_kept(db_url: str, quick: bool) -> None:
    """As above, at a ply where the server holds the game's position and moves (on PostgreSQL each move is
    tried as one statement outside a transaction first; ``quick``: its commit not waited for on disk): one
    move kept, every other refused as stale."""
    with LiveServer(settings_for(db_url, quick_move_commits=quick)) as server, \
            httpx.Client(base_url=server.url, timeout=30) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", SMALL)
        assert api.move("ann", game_id, "b2", ply=0).status_code == 201
        assert api.move("bob", game_id, "a1", ply=1).status_code == 201
        ann = api.user("ann")
        moves = ["a2", "a3", "b1", "b3", "c1", "c2"]
        barrier = threading.Barrier(len(moves))
        answers: dict[str, httpx.Response] = {}

        def send(move: str) -> None:
            with httpx.Client(base_url=server.url, timeout=30) as own:
                barrier.wait()
                answers[move] = own.post(f"/api/games/{game_id}/moves", json={"ply": 2, "move": move}, headers=ann)

        threads = [threading.Thread(target=send, args=(m,)) for m in moves]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(a.status_code for a in answers.values()) == [201] + [409] * (len(moves) - 1)
        assert all("stale move" in a.json()["detail"] for a in answers.values() if a.status_code == 409)
        kept = next(m for m, a in answers.items() if a.status_code == 201)
        game = api.show(game_id)
        assert game["ply"] == 3 and [m["text"] for m in game["view"]["moves"]] == ["b2", "a1", kept]


@pytest.mark.parametrize("quick", [False, True])
def test_a_move_written_alone_from_a_stale_read_changes_nothing(pg_url: str, quick: bool) -> None:
    """PostgreSQL's move as one statement outside a transaction is conditional on the game's version as
    read: read before another move was stored, it stores no move, changes no field, sends no live update,
    and says so (the service then makes the move again in a transaction that locks the game)."""
    import psycopg
    from fastapi.testclient import TestClient

    from boardlab.server import clocks, repository
    from boardlab.server.app import create_app
    from boardlab.server.events import CHANNEL

    app = create_app(settings_for(pg_url))
    with TestClient(app) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", SMALL)
        database = app.state.service.db
        with database.autocommit() as connection:
            row, as_read = repository.lock_game_core(connection, game_id, lock=False)
        assert api.move("ann", game_id, "a1", ply=0).status_code == 201
        row.ply, row.version, row.to_move = row.ply + 1, row.version + 1, 1
        stale = {"game_id": game_id, "ply": 0, "text": "b2", "seat": 0, "at": clocks.now(), "seconds": 1.0}
        with psycopg.connect(pg_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANNEL}")
            with database.autocommit() as connection:
                assert repository.write_move_alone(connection, row, as_read, stale, f"game:{game_id}", quick) is False
            assert list(listener.notifies(timeout=0.5)) == []
        game = api.show(game_id)
        assert game["ply"] == 1 and game["version"] == as_read.game["version"] + 1
        assert [m["text"] for m in game["view"]["moves"]] == ["a1"]


def test_quick_move_commits_is_a_setting_of_its_own() -> None:
    from boardlab.server.config import Settings

    assert Settings().quick_move_commits is False  # PostgreSQL's default: every commit waits for the disk
    settings = Settings.from_env({"BOARDLAB_QUICK_MOVE_COMMITS": "1"})
    assert settings.quick_move_commits is True and Settings.from_env(settings.to_env()) == settings


@pytest.mark.parametrize("seat", [0, 1])
def test_events_are_built_for_each_watchers_own_seat(sqlite_url: str, seat: int) -> None:
    with LiveServer(settings_for(sqlite_url)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", SMALL)
        name = ["ann", "bob"][seat]
        got: list[dict[str, Any]] = []

        def listen() -> None:
            import json

            with httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=30)) as own, \
                    own.stream("GET", f"/api/games/{game_id}/events", headers=api.user(name)) as response:
                for line in response.iter_lines():
                    if line.startswith("data:") and '"view"' in line:
                        got.append(json.loads(line[5:]))
                        if len(got) == 3:
                            return

        thread = threading.Thread(target=listen)
        thread.start()
        wait_for(lambda: got)
        api.move("ann", game_id, "b2", ply=0)
        wait_for(lambda: len(got) >= 2)
        api.move("bob", game_id, "a1", ply=1)
        thread.join(timeout=30)
        assert [g["ply"] for g in got] == [0, 1, 2]
        assert all(g["view"]["seat"] == seat and g["your_seats"] == [seat] for g in got)
        to_move = [bool(g["view"]["legal_moves"]) for g in got]
        assert to_move == ([True, False, True] if seat == 0 else [False, True, False])


def test_the_lobby_stream_tells_a_user_of_a_challenge(sqlite_url: str) -> None:
    with LiveServer(settings_for(sqlite_url)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        api = Api(client)
        bob = api.user("bob")
        events: list[str] = []

        def listen() -> None:
            with httpx.Client(base_url=server.url, timeout=httpx.Timeout(30, read=30)) as own, \
                    own.stream("GET", "/api/my/events", headers=bob) as response:
                for line in response.iter_lines():
                    if line.startswith("event:"):
                        events.append(line)
                        if len(events) == 2:
                            return

        thread = threading.Thread(target=listen)
        thread.start()
        wait_for(lambda: events)
        api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "user", "user": "bob"}], SMALL)
        thread.join(timeout=30)
        assert events == ["event: lobby", "event: lobby"]
