"""PostgreSQL: the move route's statements sent through libpq itself (:mod:`boardlab.server.pgwire`) read,
write and fail as they did through psycopg's asyncio cursor, in the round trips counted at the wire,
and a connection whose server process ended while it was kept is not handed out again."""

from __future__ import annotations

import asyncio
import tempfile
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from boardlab.server.pgwire import libpq_query
from tests.server.conftest import Api, settings_for, wait_for


def test_psycopg_placeholders_become_libpqs() -> None:
    assert libpq_query("SELECT %(a)s, %(b_1)s, %(a)s, 7 %% 2", "utf-8") == (b"SELECT $1, $2, $1, 7 % 2", ("a", "b_1"))
    assert libpq_query("SELECT 1", "utf-8") == (b"SELECT 1", ())
    for other in ("SELECT %s", "SELECT %(a)b", "SELECT %(a)t", "SELECT 5 % 2"):  # left to psycopg's cursor
        assert libpq_query(other, "utf-8") is None


def _game_with_moves(pg_url: str) -> int:
    from fastapi.testclient import TestClient

    from boardlab.server.app import create_app

    with TestClient(create_app(settings_for(pg_url))) as client:
        api = Api(client)
        game_id = api.pair("ndengrod", {"size": 5, "length": 4})
        for ply, (name, move) in enumerate(zip(["ann", "bob", "ann"], ["a1", "e5", "c3"], strict=True)):
            assert api.move(name, game_id, move, ply).status_code == 201
        return game_id


def test_statements_through_libpq_read_and_fail_as_through_psycopgs_cursor(pg_url: str) -> None:
    """The game's read (45 columns: timestamps, JSON, booleans, nulls) gives the same values either way,
    a second move for a ply is the same IntegrityError (psycopg's UniqueViolation), a failing statement
    the same psycopg error, and the connection serves the next statement after either; the two ways used
    in turns on one connection do not get in each other's way (psycopg's own wait takes the socket)."""
    import psycopg
    from sqlalchemy.exc import DBAPIError, IntegrityError
    from sqlalchemy.util.concurrency import greenlet_spawn

    from boardlab.server import repository
    from boardlab.server.db import Database

    game_id = _game_with_moves(pg_url)
    database = Database(pg_url)
    on_the_loop = database.on_the_loop
    assert on_the_loop is not None
    second_move = {"game_id": game_id, "ply": 0, "text": "b2", "seat": 0, "at": datetime(2026, 1, 1), "seconds": 1.5}

    async def through(libpq: bool) -> tuple[list[Any], type, type, int]:
        on_the_loop.through_libpq = libpq
        async with on_the_loop.connection() as connection:
            assert connection is not None
            prepared = len(connection.wire.prepared)
            rows = await greenlet_spawn(repository._locked_rows, connection, game_id, False)
            with pytest.raises(IntegrityError) as twice:
                await greenlet_spawn(repository._run_on_driver, connection, repository._INSERT_MOVE, second_move,
                                     repository._MOVE_FIELDS)
            with pytest.raises(DBAPIError) as failed:
                await greenlet_spawn(repository._on_driver, connection, "SELECT 1 / %(zero)s", {"zero": 0},
                                     repository._all_rows)
            assert not failed.value.connection_invalidated and not connection.lost
            assert await greenlet_spawn(repository._locked_rows, connection, game_id, False) == rows
            return rows, type(twice.value.orig), type(failed.value.orig), len(connection.wire.prepared) - prepared

    async def in_turns() -> None:
        for libpq in (True, False, True, False, True):
            await asyncio.wait_for(through(libpq), 30)  # a reader lost to psycopg's wait would hang here

    try:
        by_libpq = asyncio.run(through(True))
        by_cursor = asyncio.run(through(False))
        asyncio.run(in_turns())
    finally:
        database.dispose()
    rows, twice, failed, prepared = by_libpq
    assert len(rows) == 2 and rows[0]["id"] == game_id and rows[0]["ply"] == 3
    assert isinstance(rows[0]["started_at"], datetime) and isinstance(rows[0]["draw_offers"], list)
    assert by_cursor[:3] == (rows, psycopg.errors.UniqueViolation, psycopg.errors.DivisionByZero)
    assert (twice, failed) == (psycopg.errors.UniqueViolation, psycopg.errors.DivisionByZero)
    assert prepared == 3 and by_cursor[3] == 0  # libpq's way was taken (its statements prepared), then not


def test_a_statement_through_libpq_is_prepared_once_then_one_round_trip(pg_url: str) -> None:
    """The first time a statement runs on a connection it is prepared (a round trip of its own, once),
    and from then on each run is one round trip (one ReadyForQuery in libpq's trace) with no Parse."""
    from psycopg import pq
    from sqlalchemy.util.concurrency import greenlet_spawn

    from boardlab.server import repository
    from boardlab.server.db import Database

    game_id = _game_with_moves(pg_url)
    database = Database(pg_url)
    on_the_loop = database.on_the_loop
    assert on_the_loop is not None

    async def read_three_times(trace: Any) -> None:
        async with on_the_loop.connection() as connection:
            assert connection is not None
            connection.driver.pgconn.trace(trace.fileno())
            connection.driver.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
            for _ in range(3):
                row, _ = await greenlet_spawn(repository.lock_game_core, connection, game_id, False)
                assert row.ply == 3
            connection.driver.pgconn.untrace()

    with tempfile.TemporaryFile() as trace:
        try:
            asyncio.run(read_three_times(trace))
        finally:
            database.dispose()
        trace.seek(0)
        wire = trace.read().decode(errors="replace").splitlines()
    sent = [line.split("\t")[2] for line in wire if line.startswith("F\t")]  # a message: F, its length, its type
    assert sum(1 for line in wire if line.startswith("B\t") and "\tReadyForQuery" in line) == 4, wire
    assert sent.count("Parse") == 1 and sent.count("Bind") == 3 and sent.count("Execute") == 3, wire


def test_a_kept_connection_ended_by_the_server_is_not_handed_out_again(pg_url: str) -> None:
    """A connection kept between moves whose server process is ended (``pg_terminate_backend``, an idle
    timeout, a restart) is seen to be by its socket's reader on the event loop (which then stops reading
    it), and the next move gets a new connection."""
    from sqlalchemy.util.concurrency import greenlet_spawn

    from boardlab.server import repository
    from boardlab.server.db import Database

    game_id = _game_with_moves(pg_url)
    database = Database(pg_url)
    on_the_loop = database.on_the_loop
    assert on_the_loop is not None
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")

    async def end_a_kept_one() -> tuple[int, int, bool, bool]:
        connection = await on_the_loop.take()
        assert connection is not None
        await greenlet_spawn(repository.lock_game_core, connection, game_id, False)
        ended = int(connection.driver.info.backend_pid)
        on_the_loop.hand_back(connection)
        with engine.connect() as other:
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": ended})
            wait_for(lambda: other.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                           {"pid": ended}).scalar_one() == 0)
        for _ in range(100):  # the loop's turn to read what the server said
            if connection.wire.broken:
                break
            await asyncio.sleep(0.01)
        broken, still_read = connection.wire.broken, connection.wire._loop is not None
        again = await on_the_loop.take()
        assert again is not None
        row, _ = await greenlet_spawn(repository.lock_game_core, again, game_id, False)
        assert row.ply == 3
        on_the_loop.hand_back(again)
        return ended, int(again.driver.info.backend_pid), broken, still_read

    try:
        ended, next_pid, broken, still_read = asyncio.run(end_a_kept_one())
    finally:
        database.dispose()
        engine.dispose()
    assert broken and not still_read
    assert next_pid != ended


def test_statements_through_libpq_from_a_thread_read_and_fail_as_through_psycopgs_cursor(pg_url: str) -> None:
    """:meth:`~boardlab.server.db.Database.autocommit`'s connections (the moves made in the thread pool):
    the same reads and errors by libpq's blocking calls as by psycopg's cursor, and a connection whose
    server process ended while it was held fails its statement as a lost connection (invalidated: the
    move is then tried again on another, :meth:`~boardlab.server.db.Database.retry`)."""
    import psycopg
    from sqlalchemy.exc import DBAPIError, IntegrityError

    from boardlab.server import repository
    from boardlab.server.db import Database

    game_id = _game_with_moves(pg_url)
    database = Database(pg_url)
    engine = create_engine(pg_url, isolation_level="AUTOCOMMIT")
    second_move = {"game_id": game_id, "ply": 1, "text": "b2", "seat": 1, "at": datetime(2026, 1, 1), "seconds": 0.5}

    def through(libpq: bool) -> tuple[list[Any], type, type, int]:
        database.autocommit_through_libpq = libpq
        with database.autocommit() as connection:
            prepared = len(connection.wire().prepared)
            rows = repository._locked_rows(connection, game_id, False)
            with pytest.raises(IntegrityError) as twice:
                repository._run_on_driver(connection, repository._INSERT_MOVE, second_move, repository._MOVE_FIELDS)
            with pytest.raises(DBAPIError) as failed:
                repository._on_driver(connection, "SELECT 1 / %(zero)s", {"zero": 0}, repository._all_rows)
            assert not failed.value.connection_invalidated
            assert repository._locked_rows(connection, game_id, False) == rows
            return rows, type(twice.value.orig), type(failed.value.orig), len(connection.wire().prepared) - prepared

    try:
        by_libpq, by_cursor = through(True), through(False)
        database.autocommit_through_libpq = True
        with database.autocommit() as connection:
            ended = int(connection.driver.info.backend_pid)
            repository.lock_game_core(connection, game_id, False)
            with engine.connect() as other:
                other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": ended})
                wait_for(lambda: other.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"),
                                               {"pid": ended}).scalar_one() == 0)
            with pytest.raises(DBAPIError) as lost:
                repository.lock_game_core(connection, game_id, False)
            assert lost.value.connection_invalidated
        with database.autocommit() as connection:  # a new one
            assert int(connection.driver.info.backend_pid) != ended
            assert repository.lock_game_core(connection, game_id, False)[0].ply == 3
    finally:
        database.dispose()
        engine.dispose()
    rows, twice, failed, prepared = by_libpq
    assert len(rows) == 2 and rows[0]["id"] == game_id and isinstance(rows[0]["draw_offers"], list)
    assert by_cursor[:3] == (rows, psycopg.errors.UniqueViolation, psycopg.errors.DivisionByZero)
    assert (twice, failed) == (psycopg.errors.UniqueViolation, psycopg.errors.DivisionByZero)
    assert prepared == 3 and by_cursor[3] == 0
