"""The server as people run it: ``boardlab serve`` processes killed with SIGKILL, several workers on
PostgreSQL sharing live updates through LISTEN/NOTIFY, time running out with nobody connected."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from tests.server.conftest import Api, LiveServer, free_port, settings_for, stop, wait_for


@contextmanager
def serve(db_url: str, folder: Path, port: int, workers: int = 1) -> Iterator[subprocess.Popen[bytes]]:
    """``boardlab serve`` in a subprocess, ready to answer."""
    log = open(folder / f"serve-{port}-{time.monotonic_ns()}.log", "wb")  # noqa: SIM115
    process = subprocess.Popen([sys.executable, "-m", "boardlab", "serve", "--db", db_url, "--port", str(port),
                                "--workers", str(workers), "--log-level", "warning", "--no-warm-up"],
                               cwd=folder, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/agents", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"boardlab serve did not start: {Path(log.name).read_text()[-2000:]}")
            time.sleep(0.1)
        yield process
    finally:
        stop(process)
        log.close()


def test_kill_9_in_a_stream_of_moves_loses_no_acknowledged_move(db_url: str, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    acknowledged: list[tuple[int, int, str]] = []
    games: set[int] = set()
    playing: set[str] = set()
    stop = threading.Event()

    def player(name: str, seed: int) -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=url, timeout=10) as client:
            headers = Api(client).user(name)
            while not stop.is_set():
                try:
                    body = {"game": "ndengrod", "seats": [{"kind": "me"}, {"kind": "me"}]}
                    game = client.post("/api/games", json=body, headers=headers).json()["game"]
                    games.add(game["id"])
                    playing.add(name)
                    while game["status"] == "active" and not stop.is_set():
                        move = rng.choice(game["view"]["legal_moves"])
                        response = client.post(f"/api/games/{game['id']}/moves",
                                               json={"ply": game["ply"], "move": move}, headers=headers)
                        assert response.status_code == 201, response.text
                        acknowledged.append((game["id"], game["ply"], move))
                        game = response.json()
                except httpx.HTTPError:
                    return  # the server is gone

    with serve(db_url, tmp_path, port) as process:
        threads = [threading.Thread(target=player, args=(f"p{i}", i)) for i in range(4)]
        for thread in threads:
            thread.start()
        # Passwords are hashed one or two at a time: every player has a game (p0 plays on after the restart)
        # before the kill.
        wait_for(lambda: len(playing) == len(threads) and len(acknowledged) >= 60, timeout=120)
        os.kill(process.pid, signal.SIGKILL)  # in the middle of the stream
        process.wait()
        for thread in threads:
            thread.join(timeout=30)
    stop.set()
    before_restart = len(acknowledged)
    with serve(db_url, tmp_path, port), httpx.Client(base_url=url, timeout=10) as client:
        stored: dict[int, list[str]] = {}
        for game_id in games:
            game = client.get(f"/api/games/{game_id}").json()
            stored[game_id] = [m["text"] for m in game["view"]["moves"]]
            assert game["ply"] == len(stored[game_id])
        for game_id, ply, move in acknowledged:
            assert stored[game_id][ply] == move, (game_id, ply)
        # No game half-written: every row's ply is its number of moves, and they replay (the GET above did).
        engine = create_engine(db_url)
        with engine.connect() as connection:
            mismatched = connection.execute(text(
                "SELECT g.id FROM games g WHERE g.ply != (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)"
            )).all()
        engine.dispose()
        assert mismatched == []
        # The games go on.
        api = Api(client)
        api.tokens = {}
        # A player whose game had just ended when the kill came has none in play: look at every player's.
        for name in (f"p{i}" for i in range(len(threads))):
            login = client.post("/api/login", json={"name": name, "password": "correct horse", "kind": "api"}).json()
            headers = {"Authorization": f"Bearer {login['token']}"}
            mine = [g for g in client.get("/api/my/games", headers=headers).json() if g["status"] == "active"]
            if mine:
                break
        assert mine, "a game still in play"
        game = client.get(f"/api/games/{mine[0]['id']}", headers=headers).json()
        response = client.post(f"/api/games/{game['id']}/moves", headers=headers,
                               json={"ply": game["ply"], "move": game["view"]["legal_moves"][0]})
        assert response.status_code == 201
    print(f"kill -9: {before_restart} moves acknowledged before the kill, all {before_restart} found after the "
          f"restart, in {len(games)} games")


def test_several_workers_share_live_updates_through_postgresql(pg_url: str, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with serve(pg_url, tmp_path, port, workers=2), httpx.Client(base_url=url, timeout=10) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3})
        watchers: list[dict[str, Any]] = []

        def watch(record: dict[str, Any]) -> None:
            with httpx.Client(base_url=url, timeout=httpx.Timeout(10, read=60)) as own, \
                    own.stream("GET", f"/api/games/{game_id}/events") as response:
                for line in response.iter_lines():
                    if line.startswith(": boardlab worker"):
                        record["worker"] = line.split()[-1]
                    elif line.startswith("data:") and '"view"' in line:
                        record["plies"].append(json.loads(line[5:])["ply"])
                        if record["plies"][-1] == 4:
                            return

        threads = []
        for _ in range(16):  # until the watchers are spread over both workers
            record: dict[str, Any] = {"plies": []}
            watchers.append(record)
            threads.append(threading.Thread(target=watch, args=(record,), daemon=True))
            threads[-1].start()
            wait_for(lambda record=record: "worker" in record and record["plies"])
            if len({w["worker"] for w in watchers}) == 2 and len(watchers) >= 4:
                break
        assert len({w["worker"] for w in watchers}) == 2, "the watchers all landed on one worker"
        for ply, (name, move) in enumerate([("ann", "b2"), ("bob", "a1"), ("ann", "c3"), ("bob", "a2")]):
            with httpx.Client(base_url=url, timeout=10) as fresh:  # a new connection: either worker
                assert fresh.post(f"/api/games/{game_id}/moves", json={"ply": ply, "move": move},
                                  headers=api.user(name)).status_code == 201
        for thread in threads:
            thread.join(timeout=30)
        for watcher in watchers:
            assert watcher["plies"][-1] == 4, watcher


def test_a_move_through_one_server_reaches_a_watcher_on_another(pg_url: str, tmp_path: Path) -> None:
    """Two ``boardlab serve`` processes on one PostgreSQL (as N servers behind a proxy would be): a watcher
    of server B sees each move made through server A, and B's answers know the moves A stored."""
    port_a, port_b = free_port(), free_port()
    a_url, b_url = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    with serve(pg_url, tmp_path, port_a), serve(pg_url, tmp_path, port_b), \
            httpx.Client(base_url=a_url, timeout=10) as through_a:
        api = Api(through_a)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3})
        seen, watcher = watch_plies(b_url, game_id, until=4)
        for ply, (name, move) in enumerate([("ann", "b2"), ("bob", "a1"), ("ann", "c3"), ("bob", "a2")]):
            assert api.move(name, game_id, move, ply).status_code == 201
            wait_for(lambda ply=ply: seen and seen[-1] == ply + 1, timeout=30)
        watcher.join(timeout=30)
        assert seen[0] == 0 and seen[-1] == 4, seen
        with httpx.Client(base_url=b_url, timeout=10) as through_b:
            shown = through_b.get(f"/api/games/{game_id}").json()
        assert [m["text"] for m in shown["view"]["moves"]] == ["b2", "a1", "c3", "a2"]


def test_each_change_reaches_the_watchers_of_its_own_server_and_of_another_once(pg_url: str) -> None:
    """Two servers on one PostgreSQL: a change made through one (moves on the event loop and in the thread
    pool, a draw offered, a new game) is told once to the broker of the server that made it (at its commit,
    its listener passing over its own NOTIFY) and once to the other's (by its listener). The listeners
    are read until a NOTIFY sent after the changes has reached both (notifications come in order)."""
    import psycopg
    from fastapi.testclient import TestClient

    from boardlab.server.app import create_app
    from boardlab.server.events import CHANNEL

    told: dict[str, list[str]] = {"one": [], "other": []}
    with TestClient(create_app(settings_for(pg_url))) as first, \
            TestClient(create_app(settings_for(pg_url))) as second:
        one, other = Api(first), Api(second)
        def spy(told_here: list[str], passed: Any) -> Any:
            def spied(channels: Any) -> None:
                channels = list(channels)
                told_here.extend(channels)
                passed(channels)

            return spied

        for name, client in (("one", first), ("other", second)):
            broker = client.app.state.service.broker  # type: ignore[attr-defined]
            for way in ("deliver", "deliver_here"):
                setattr(broker, way, spy(told[name], getattr(broker, way)))
        game_id = one.pair("ndengrod", {"size": 5, "length": 4})
        other.tokens = one.tokens
        for ply, (name, move) in enumerate([("ann", "a1"), ("bob", "e5"), ("ann", "c3"), ("bob", "a5")]):
            assert one.move(name, game_id, move, ply).status_code == 201
        service = first.app.state.service  # type: ignore[attr-defined]
        actor = service.accounts.actor(one.tokens["ann"])
        service.move(actor, game_id, 4, "e1", None)  # in a thread's way (as the thread pool makes moves)
        offered = one.client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=one.user("bob"))
        assert offered.status_code == 200, offered.text
        with psycopg.connect(pg_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
            connection.execute("SELECT pg_notify(%s, 'sentinel:1')", (CHANNEL,))
        wait_for(lambda: all("sentinel:1" in channels for channels in told.values()), timeout=30)
        changes = 2 + 5 + 1  # the challenge made and accepted, five moves, the offer
        game = f"game:{game_id}"
        assert told["one"].count(game) == changes, told["one"]
        assert told["other"].count(game) == changes, told["other"]
        assert not any(channel.startswith("@") for channels in told.values() for channel in channels)


def test_time_runs_out_with_nobody_connected(sqlite_url: str) -> None:
    with LiveServer(settings_for(sqlite_url, sweep_seconds=0.2).with_(background=True)) as server, \
            httpx.Client(base_url=server.url, timeout=10) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3}, time={"kind": "live", "minutes": 0.05})
        game = api.show(game_id)
        assert game["status"] == "active"
        time.sleep(4)  # three seconds on the clock; no request meanwhile
        over = api.show(game_id)
        assert over["status"] == "finished" and over["termination"] == "timeout" and over["loser"] == 0
        assert over["finished_at"] < over["deadline"] if over["deadline"] else True


def test_moves_go_on_after_postgresql_drops_the_servers_connections(pg_url: str) -> None:
    """Pooled connections are not pinged before use: one whose server process was ended (a restart of
    PostgreSQL, an idle timeout) must be noticed and replaced, not fail the request."""
    from fastapi.testclient import TestClient

    from boardlab.server.app import create_app

    with TestClient(create_app(settings_for(pg_url))) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3})
        plies = [("ann", "b2"), ("bob", "a1"), ("ann", "c3"), ("bob", "a2")]
        engine = create_engine(pg_url)

        def end_the_apps_connections() -> None:
            with engine.connect() as connection:  # every other connection to this database: the app's pool's
                ended = connection.execute(text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar_one()
            assert ended >= 1
            time.sleep(0.1)  # the server processes' farewells reach the pooled connections' sockets

        for ply, (name, move) in enumerate(plies):
            end_the_apps_connections()
            assert api.show(game_id)["ply"] == ply  # a read: a connection taken from the pool
            end_the_apps_connections()
            response = api.move(name, game_id, move, ply)  # a move: its transaction's first statement
            assert response.status_code == 201, response.text
        engine.dispose()
        assert [m["text"] for m in api.show(game_id)["view"]["moves"]] == [m for _, m in plies]


def test_a_move_connection_lost_while_in_use_is_replaced_not_pooled(pg_url: str) -> None:
    """A move's connection in autocommit mode whose server process ends after it was taken from the pool
    (past the check made then) fails its statement as a lost connection (which the service tries again
    once, :meth:`~boardlab.server.db.Database.retry`), and is not handed back to the pool."""
    import pytest
    from fastapi.testclient import TestClient
    from sqlalchemy.exc import DBAPIError

    from boardlab.server import repository
    from boardlab.server.app import create_app

    app = create_app(settings_for(pg_url))
    with TestClient(app) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3})
        database = app.state.service.db
        engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")  # pg_stat_activity read afresh each time
        with database.autocommit() as connection:
            ended = connection.driver.info.backend_pid
            repository.lock_game_core(connection, game_id, lock=False)  # the kept cursor, used once
            with engine.connect() as other:
                other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": ended})
                wait_for(lambda: other.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                               {"pid": ended}).scalar_one() == 0)
            with pytest.raises(DBAPIError) as raised:
                repository.lock_game_core(connection, game_id, lock=False)
            assert raised.value.connection_invalidated
        engine.dispose()
        for _ in range(3):  # every connection the pool hands out now is a live one
            with database.autocommit() as connection:
                assert connection.driver.info.backend_pid != ended
                row, _ = repository.lock_game_core(connection, game_id, lock=False)
                assert row.id == game_id and row.ply == 0
        response = api.move("ann", game_id, "b2", 0)
        assert response.status_code == 201, response.text


def test_an_event_loop_connection_lost_while_in_use_is_not_kept(pg_url: str) -> None:
    """A connection of the move route's own (on the event loop) whose server process ends while it is held
    fails its statement as a lost connection (the route then makes the move in the thread pool, which
    tries again on a new connection), and is closed, not kept, when handed back."""
    import asyncio

    import pytest
    from fastapi.testclient import TestClient
    from sqlalchemy.exc import DBAPIError
    from sqlalchemy.util.concurrency import greenlet_spawn

    from boardlab.server import repository
    from boardlab.server.app import create_app

    app = create_app(settings_for(pg_url))
    with TestClient(app) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3})
        on_the_loop = app.state.service.db.on_the_loop
        assert on_the_loop is not None
        engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")

        async def lose_one() -> int:
            async with on_the_loop.connection() as connection:
                assert connection is not None
                ended = int(connection.driver.info.backend_pid)
                await greenlet_spawn(repository.lock_game_core, connection, game_id, False)
                with engine.connect() as other:
                    other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": ended})
                    wait_for(lambda: other.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                                   {"pid": ended}).scalar_one() == 0)
                with pytest.raises(DBAPIError) as raised:
                    await greenlet_spawn(repository.lock_game_core, connection, game_id, False)
                assert raised.value.connection_invalidated and connection.lost
            return ended

        async def pids_handed_out() -> set[int]:
            held = [await on_the_loop.take() for _ in range(3)]
            pids = {int(connection.driver.info.backend_pid) for connection in held if connection is not None}
            for connection in held:
                if connection is not None:
                    on_the_loop.hand_back(connection)
            return pids

        ended = asyncio.run(lose_one())
        assert on_the_loop.in_use == 0
        assert ended not in asyncio.run(pids_handed_out())
        engine.dispose()
        response = api.move("ann", game_id, "b2", 0)
        assert response.status_code == 201, response.text


def test_an_event_loop_connection_handed_back_busy_is_not_kept(pg_url: str) -> None:
    """A connection of the move route's own handed back with a statement still running on it (its move
    cancelled while it waited: the request gone) is closed, not kept for the next move, which would fail
    on it; one handed back idle is kept."""
    import asyncio

    from boardlab.server.db import Database

    database = Database(pg_url)
    on_the_loop = database.on_the_loop
    assert on_the_loop is not None

    async def hand_back_busy_then_idle() -> tuple[int, int, int]:
        busy = await on_the_loop.take()
        assert busy is not None
        busy_pid = int(busy.driver.info.backend_pid)
        busy.driver.pgconn.send_query(b"SELECT pg_sleep(0.2)")  # sent, its answer never waited for
        on_the_loop.hand_back(busy)
        idle = await on_the_loop.take()
        assert idle is not None
        idle_pid = int(idle.driver.info.backend_pid)
        on_the_loop.hand_back(idle)
        again = await on_the_loop.take()
        assert again is not None
        again_pid = int(again.driver.info.backend_pid)
        on_the_loop.hand_back(again)
        return busy_pid, idle_pid, again_pid

    try:
        busy_pid, idle_pid, again_pid = asyncio.run(hand_back_busy_then_idle())
    finally:
        database.dispose()
    assert idle_pid != busy_pid  # the busy one was not handed out again
    assert again_pid == idle_pid  # the idle one was kept


def test_a_postgresql_move_takes_one_round_trip_on_the_event_loop(pg_url: str) -> None:
    """A move whose position and row this server's last move in the game left in its cache is one
    statement, decided on that row and stored only if the game's version is still that row's: one round
    trip (ended by PostgreSQL's ReadyForQuery, counted in libpq's trace of the wire), on a connection of
    the event loop's own (no thread of the pool)."""
    import tempfile

    from fastapi.testclient import TestClient
    from psycopg import pq
    from sqlalchemy import event

    from boardlab.server.app import create_app

    app = create_app(settings_for(pg_url))
    with TestClient(app) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 5, "length": 4})
        plies = list(zip(["ann", "bob"] * 5, ["a1", "e5", "c3", "a5", "e1", "b4", "d2", "b2", "d4", "a3"],
                         strict=True))
        # First the position and the row cached (the first move reads the game), and the move's statement
        # prepared (psycopg prepares a statement on its sixth use on a connection, in a round trip of its
        # own, once: here the sixth move decided on a cached row, the seventh move).
        for ply, (name, move) in enumerate(plies[:7]):
            assert api.move(name, game_id, move, ply).status_code == 201
        database = app.state.service.db
        on_the_loop = database.on_the_loop
        assert on_the_loop is not None
        taken: list[int] = []
        with tempfile.TemporaryFile() as trace:
            def traced(dbapi_connection: Any, *_: Any) -> None:
                dbapi_connection.pgconn.trace(trace.fileno())
                dbapi_connection.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)

            def untraced(dbapi_connection: Any, *_: Any) -> None:
                dbapi_connection.pgconn.untrace()

            def traced_on_the_loop(dbapi_connection: Any) -> None:
                taken.append(dbapi_connection.info.backend_pid)
                traced(dbapi_connection)

            for engine in database.engines:
                event.listen(engine.pool, "checkout", traced)
                event.listen(engine.pool, "checkin", untraced)
            on_the_loop.taken.append(traced_on_the_loop)
            on_the_loop.handed_back.append(untraced)
            try:
                for ply, (name, move) in enumerate(plies[7:], start=7):
                    response = api.client.post(f"/api/games/{game_id}/moves", json={"ply": ply, "move": move},
                                               headers=api.user(name))
                    assert response.status_code == 201, response.text
            finally:
                for engine in database.engines:
                    event.remove(engine.pool, "checkout", traced)
                    event.remove(engine.pool, "checkin", untraced)
                on_the_loop.taken.clear()
                on_the_loop.handed_back.clear()
            trace.seek(0)
            wire = trace.read().decode(errors="replace").splitlines()
        assert sum(1 for line in wire if line.startswith("B") and "\tReadyForQuery" in line) == 3, wire
        assert len(taken) == 3  # each move on a connection of the event loop's
        assert [m["text"] for m in api.show(game_id)["view"]["moves"]] == [m for _, m in plies]


def test_a_move_decided_on_a_stale_row_is_decided_again(db_url: str) -> None:
    """Two servers on one database, a player's moves going through either: a server's row of the game as
    its last move wrote it (on which its next move is decided, unread) is stale once the other has moved
    (or the computer's lease was taken, which makes no new version). The move decided on it is not stored
    (the version differs; on SQLite its transaction rolled back) and is decided again on the game as
    stored: accepted where it is right there (even though the stale row says it is not this seat's turn),
    refused where it is not, and a lease on the game is cleared by the move whatever the row said."""
    from datetime import datetime, timedelta

    from fastapi.testclient import TestClient
    from sqlalchemy import update

    from boardlab.server.app import create_app
    from boardlab.server.models import Game

    with TestClient(create_app(settings_for(db_url))) as first, \
            TestClient(create_app(settings_for(db_url))) as second:
        one, other = Api(first), Api(second)
        game_id = one.pair("ndengrod", {"size": 5, "length": 4})
        other.tokens = one.tokens  # the same people, signed in on both servers
        assert one.move("ann", game_id, "a1", 0).status_code == 201
        assert one.move("bob", game_id, "e5", 1).status_code == 201  # the first server's row: ply 2, ann's turn
        assert other.move("ann", game_id, "c3", 2).status_code == 201  # through the other: now bob's turn
        # On the first server's row it is ann's turn at ply 2: bob's move at ply 3 is right as stored.
        assert one.move("bob", game_id, "a5", 3).status_code == 201, "decided again on the game as stored"
        refused = one.move("bob", game_id, "e1", 4)  # and ann's turn now, as stored: refused
        assert refused.status_code == 403, refused.text
        engine = create_engine(db_url)
        with engine.begin() as connection:  # a lease taken as the computer's turns are: the version unchanged
            connection.execute(update(Game).where(Game.id == game_id)
                               .values(ai_lease_until=datetime.now() + timedelta(hours=1)))
        assert one.move("ann", game_id, "e1", 4).status_code == 201
        with engine.connect() as connection:
            lease = connection.execute(text("SELECT ai_lease_until FROM games WHERE id = :id"),
                                       {"id": game_id}).scalar_one()
        assert lease is None
        # A new version at the same ply (a draw offered through the other server): the first server's row
        # has the right ply, so the move is written, and then found stale by its UPDATE: none of it stays.
        offered = other.client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=other.user("bob"))
        assert offered.status_code == 200 and offered.json()["draw_offers"] == [1], offered.text
        assert one.move("bob", game_id, "b4", 5).status_code == 201
        with engine.connect() as connection:
            stored = connection.execute(text("SELECT ply, text FROM moves WHERE game_id = :id ORDER BY ply"),
                                        {"id": game_id}).all()
        engine.dispose()
        assert [tuple(row) for row in stored] == list(enumerate(["a1", "e5", "c3", "a5", "e1", "b4"]))
        game = other.show(game_id)
        assert [m["text"] for m in game["view"]["moves"]] == ["a1", "e5", "c3", "a5", "e1", "b4"]
        assert game["draw_offers"] == [] and game["ply"] == 6  # the move, decided again, cleared the offer


def test_a_move_sent_before_its_answer_is_built_counts_only_once_stored(pg_url: str, monkeypatch: Any) -> None:
    """The move route on PostgreSQL sends a move decided on this server's own row of the game and builds
    the answer while the database runs it (``play.Moved.sent``). Its answers say the game as stored (as a
    read of it says it, to the same player); and where that statement finds the game changed meanwhile (a
    draw offered through another server: a new version at the same ply) none of it is stored, and the
    move is decided again on the game as stored: stored once, and answered as stored (the offer cleared)."""
    from fastapi.testclient import TestClient

    from boardlab.server import repository
    from boardlab.server.app import create_app

    outcomes: list[bool] = []
    stored = repository.SentMove.stored

    async def recorded(self: repository.SentMove) -> bool:
        outcomes.append(await stored(self))
        return outcomes[-1]

    monkeypatch.setattr(repository.SentMove, "stored", recorded)

    def same_as_read(api: Api, name: str, answer: dict[str, Any]) -> None:
        read = api.show(game_id, name)
        for key in ("ply", "status", "to_move", "draw_offers", "view", "seats"):
            assert answer[key] == read[key], key

    with TestClient(create_app(settings_for(pg_url))) as first, \
            TestClient(create_app(settings_for(pg_url))) as second:
        one, other = Api(first), Api(second)
        game_id = one.pair("ndengrod", {"size": 5, "length": 4})
        other.tokens = one.tokens
        texts = ["a1", "e5", "c3", "a5", "e1", "b4", "d2", "b2"]
        for ply, text_ in enumerate(texts[:6]):
            name = ["ann", "bob"][ply % 2]
            answer = one.move(name, game_id, text_, ply)
            assert answer.status_code == 201, answer.text
            same_as_read(one, name, answer.json())
        assert outcomes and all(outcomes), "moves decided on the server's own row were sent before their answers"
        sent_before = len(outcomes)
        offered = other.client.post(f"/api/games/{game_id}/draw", json={"action": "offer"}, headers=other.user("bob"))
        assert offered.status_code == 200 and offered.json()["draw_offers"] == [1], offered.text
        answer = one.move("ann", game_id, texts[6], 6)
        assert answer.status_code == 201, answer.text
        assert outcomes[sent_before:] == [False], "sent on the stale row, found not stored"
        same_as_read(one, "ann", answer.json())
        assert answer.json()["draw_offers"] == [] and answer.json()["ply"] == 7
        answer = one.move("bob", game_id, texts[7], 7)  # and on from the row the move decided again wrote
        assert answer.status_code == 201, answer.text
        assert outcomes[-1] is True and len(outcomes) == sent_before + 2
        same_as_read(other, "bob", answer.json())
        engine = create_engine(pg_url)
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT ply, text FROM moves WHERE game_id = :id ORDER BY ply"),
                                      {"id": game_id}).all()
        engine.dispose()
        assert [tuple(row) for row in rows] == list(enumerate(texts))


def test_a_server_listens_before_it_answers(pg_url: str) -> None:
    """A watcher that connects the moment a server answers must hear the next move made through another
    server: the server's LISTEN is in place before its first answer."""
    from fastapi.testclient import TestClient

    from boardlab.server.app import create_app

    app = create_app(settings_for(pg_url))
    with TestClient(app):  # the lifespan has run: the server answers from now on
        assert app.state.service.notifier.listening.is_set()


def test_live_updates_go_on_after_postgresql_drops_the_listening_connection(pg_url: str) -> None:
    """The server's LISTEN connection (read on its event loop) ended by PostgreSQL (a restart, an idle
    timeout, an administrator): the server listens again, and a watcher goes on seeing every move."""
    with LiveServer(settings_for(pg_url)) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 3, "length": 3})
        notifier = server.app.state.service.notifier
        seen, watcher = watch_plies(server.url, game_id, until=2)
        assert api.move("ann", game_id, "b2", 0).status_code == 201
        wait_for(lambda: seen[-1] == 1)
        engine = create_engine(pg_url)
        with engine.connect() as connection:  # every other connection to this database: the listener's too
            connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
        engine.dispose()
        wait_for(lambda: not notifier.listening.is_set())  # the listener saw its connection end
        wait_for(notifier.listening.is_set)  # and listens again
        assert api.move("bob", game_id, "a1", 1).status_code == 201
        wait_for(lambda: seen[-1] == 2)
        watcher.join(timeout=30)
        assert seen == [0, 1, 2], seen


def watch_plies(url: str, game_id: int, until: int) -> tuple[list[int], threading.Thread]:
    """A watcher of the game's live updates on the server at ``url``, in a thread: the ply of each view it
    gets, until it has seen ply ``until``. Returned once it has its first view."""
    seen: list[int] = []
    connected = threading.Event()

    def watch() -> None:
        with httpx.Client(base_url=url, timeout=httpx.Timeout(10, read=60)) as client, \
                client.stream("GET", f"/api/games/{game_id}/events") as response:
            for line in response.iter_lines():
                if line.startswith("data:") and '"view"' in line:
                    seen.append(json.loads(line[5:])["ply"])
                    connected.set()
                    if seen[-1] == until:
                        return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    assert connected.wait(30), f"the watcher on {url} got no first view"
    return seen, watcher
