"""PostgreSQL: a statement of the move path sent through libpq itself (``psycopg.pq``): waited for on the
event loop for the move route (:class:`~.db.AsyncAutocommitConnection`), or in libpq for a move made in
a thread (:class:`~.db.AutocommitConnection`, :meth:`Wire.execute_now`).

psycopg's asyncio cursor costs more of the server's CPU than the statement: it converts the query's
placeholders, counts its uses to prepare it, takes the connection's lock, and waits through a generator
with a timer for each wait. Here the statements are the move path's own, few and known: each one's
SQL is converted once (``%(name)s`` to ``$1``), its values adapted by psycopg's own :class:`Transformer`
(the cursor's adaptation, so they reach the server as they did), the statement prepared once on each
connection (a round trip of its own, its first time there: psycopg prepared it too, on its sixth use)
and then sent with ``send_query_prepared``; its answer is waited for as a future set by a reader
of the connection's socket on the event loop. The rows are decoded (by the same Transformer) only where
the caller reads them: a move's write needs its row count alone. A server's error is raised as psycopg
raises it (:func:`psycopg.errors.error_from_result`: a second move for a ply is a ``UniqueViolation``), a
connection lost as libpq says it (``OperationalError``, the connection then ``closed``), so that the
caller (:func:`~.repository._on_driver`) wraps them as SQLAlchemy would.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from psycopg import DatabaseError, InternalError, OperationalError, abc, errors, pq
from psycopg.adapt import PyFormat, Transformer

_PLACEHOLDER = re.compile(r"%\((?P<name>[^)]+)\)s|%%|%")
_TUPLES_OK, _COMMAND_OK, _EMPTY_QUERY = pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK, pq.ExecStatus.EMPTY_QUERY
_FATAL_ERROR, _BAD = pq.ExecStatus.FATAL_ERROR, pq.ConnStatus.BAD
MOST_PREPARED = 64  # statements prepared on one connection; past that, sent unprepared (never deallocated)


@lru_cache(maxsize=256)
def libpq_query(sql: str, encoding: str) -> tuple[bytes, tuple[str, ...]] | None:
    """``sql`` with psycopg's named placeholders (``%(name)s``, as SQLAlchemy's psycopg dialect writes them)
    as libpq's (``$1``, …; a name used twice is one parameter), ``%%`` as ``%``, and the names in their
    numbers' order; ``None`` for any other use of ``%`` (the caller then runs it on psycopg's cursor)."""
    names: list[str] = []
    numbers: dict[str, int] = {}
    other = False

    def replaced(match: re.Match[str]) -> str:
        nonlocal other
        name = match.group("name")
        if name is None:
            other = other or match.group(0) != "%%"
            return "%"
        if name not in numbers:
            names.append(name)
            numbers[name] = len(names)
        return f"${numbers[name]}"

    converted = _PLACEHOLDER.sub(replaced, sql)
    return None if other else (converted.encode(encoding), tuple(names))


class Outcome:
    """A statement's outcome as a cursor tells it: its row count, and its rows, decoded when read."""

    __slots__ = ("_result", "_transformer", "rowcount")

    def __init__(self, result: pq.abc.PGresult, transformer: abc.Transformer) -> None:
        self._result, self._transformer = result, transformer
        count = result.ntuples if result.status == _TUPLES_OK else result.command_tuples
        self.rowcount = -1 if count is None else count

    def fetchall(self) -> list[Any]:
        result = self._result
        if result.status != _TUPLES_OK or not result.ntuples:
            return []
        self._transformer.set_pgresult(result)
        return self._transformer.load_rows(0, result.ntuples, tuple)

    def fetchone(self) -> Any:
        rows = self.fetchall()
        return rows[0] if rows else None


class Wire:
    """One psycopg connection (in autocommit mode, no statement running) used through libpq, on the running
    event loop (an asyncio one) or from a thread: the statements prepared on it, the Transformer adapting
    their values, and (on the loop) a reader of its socket kept on the loop while the connection is kept
    (adding and removing a reader for each statement, asyncio's selector in Python, cost a third of the
    wait's CPU). Data that comes while no statement waits can only be the server ending the connection:
    it is then ``broken``."""

    __slots__ = ("_loop", "_named", "_results", "_transformer", "_waiting", "broken", "encoding", "pgconn",
                 "prepared", "socket")

    def __init__(self, driver: Any) -> None:
        self.pgconn: pq.abc.PGconn = driver.pgconn
        self.socket: int = self.pgconn.socket
        self.encoding: str = driver.info.encoding
        self._transformer: abc.Transformer = Transformer(driver)
        self.prepared: dict[tuple[bytes, tuple[int, ...]], bytes] = {}
        self._named = 0
        self.broken = False
        self._loop: asyncio.AbstractEventLoop | None = None  # the loop its socket's reader is on
        self._waiting: asyncio.Future[list[pq.abc.PGresult]] | None = None
        self._results: list[pq.abc.PGresult] = []

    def _new_name(self) -> bytes:
        """A name never used on this connection: one whose PREPARE was sent but not seen through (its
        move cancelled meanwhile) may exist on the server without being in :attr:`prepared`."""
        self._named += 1
        return b"_boardlab_%d" % self._named

    def query(self, sql: str) -> tuple[bytes, tuple[str, ...]] | None:
        """:func:`libpq_query` for this connection's encoding."""
        return libpq_query(sql, self.encoding)

    def _dumped(self, names: tuple[str, ...], values: Mapping[str, Any]) -> tuple[Any, tuple[int, ...], Any]:
        """``values`` as psycopg's cursor sends them: the parameters, their types and formats."""
        transformer = self._transformer
        params = transformer.dump_sequence([values[name] for name in names], [PyFormat.AUTO] * len(names))
        return params, tuple(transformer.types or ()), transformer.formats

    def _planned(self, query: bytes, names: tuple[str, ...],
                 values: Mapping[str, Any]) -> tuple[Any, tuple[int, ...], Any, bytes | None, bytes | None]:
        """The parameters, their types and formats, the prepared statement's name (``None``: sent
        unprepared, past :data:`MOST_PREPARED`), and that name again where it is still to be prepared."""
        params, types, formats = self._dumped(names, values)
        name = self.prepared.get((query, types))
        if name is None and len(self.prepared) < MOST_PREPARED:
            fresh = self._new_name()
            return params, types, formats, fresh, fresh
        return params, types, formats, name, None

    def execute_now(self, query: bytes, names: tuple[str, ...], values: Mapping[str, Any]) -> Outcome:
        """:meth:`execute`, waiting in libpq (a thread's way: libpq lets the GIL go while it waits)."""
        pgconn = self.pgconn
        params, types, formats, name, fresh = self._planned(query, names, values)
        if fresh is not None:
            self._raise_for([pgconn.prepare(fresh, query, param_types=types)])
            self.prepared[(query, types)] = fresh
        if name is None:
            result = pgconn.exec_params(query, params, param_types=types, param_formats=formats)
        else:
            result = pgconn.exec_prepared(name, params, param_formats=formats)
        self._raise_for([result])
        return Outcome(result, self._transformer)

    async def execute(self, query: bytes, names: tuple[str, ...], values: Mapping[str, Any]) -> Outcome:
        """Run ``query`` (see :func:`libpq_query`) with ``values`` by name; its outcome, or psycopg's error."""
        pgconn = self.pgconn
        params, types, formats, name, fresh = self._planned(query, names, values)
        if fresh is not None:
            pgconn.send_prepare(fresh, query, param_types=types)
            self._raise_for(await self._answer())
            self.prepared[(query, types)] = fresh
        if name is None:
            pgconn.send_query_params(query, params, param_types=types, param_formats=formats)
        else:
            pgconn.send_query_prepared(name, params, param_formats=formats)
        results = await self._answer()
        self._raise_for(results)
        return Outcome(results[-1], self._transformer)

    def send(self, query: bytes, names: tuple[str, ...], values: Mapping[str, Any]) -> bool:
        """Send ``query`` (as :meth:`execute` would) and return at once, its outcome read later by
        :meth:`outcome` (nothing else may be sent on the connection meanwhile): the caller's own work
        then runs while the server runs the statement, and where that work took longer the answer is
        in by the time it is asked for (no wait on the event loop, no wake-up). ``False`` (nothing sent)
        where the statement is still to be prepared on this connection: :meth:`execute` then."""
        params, types, formats, name, fresh = self._planned(query, names, values)
        if fresh is not None:
            return False
        pgconn = self.pgconn
        if name is None:
            pgconn.send_query_params(query, params, param_types=types, param_formats=formats)
        else:
            pgconn.send_query_prepared(name, params, param_formats=formats)
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._attach(loop)
        self._waiting, self._results = loop.create_future(), []
        pgconn.flush()  # what the socket's buffer took; any rest, in :meth:`outcome`
        return True

    async def outcome(self) -> Outcome:
        """The outcome of what :meth:`send` sent (or psycopg's error): read at once where it is in, else
        waited for on the event loop."""
        done = self._waiting
        assert done is not None, "nothing was sent"
        try:
            pgconn = self.pgconn
            while pgconn.flush():  # rarely: the socket's buffer was full
                await _writable(asyncio.get_running_loop(), self.socket)
            if not done.done():
                self._readable()  # what has come: the loop's reader would have been called for it
            results = done.result() if done.done() else await done
        except OSError as error:  # as psycopg says it: the socket was closed
            raise OperationalError("connection socket closed") from error
        finally:
            self._waiting = None
        self._raise_for(results)
        return Outcome(results[-1], self._transformer)

    def _raise_for(self, results: list[pq.abc.PGresult]) -> None:
        """Raise what psycopg's cursor would for these results (see its ``_check_results``)."""
        if not results:
            raise InternalError("got no result from the query")
        for result in results:
            status = result.status
            if status == _FATAL_ERROR:
                if self.pgconn.status == _BAD and not result.error_field(pq.DiagnosticField.SQLSTATE):
                    # the connection lost, as psycopg's cursor says it (the result has no SQLSTATE)
                    raise OperationalError(f"consuming input failed: {result.get_error_message(self.encoding)}")
                raise errors.error_from_result(result, encoding=self.encoding)
            if status != _TUPLES_OK and status != _COMMAND_OK and status != _EMPTY_QUERY:
                raise InternalError(f"unexpected result status from query: {pq.ExecStatus(status).name}")

    async def _answer(self) -> list[pq.abc.PGresult]:
        """The results of what was sent, once all are in (as psycopg's ``fetch_many``): the statement is
        flushed, then the socket read by its reader on the event loop, until libpq has them all."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._attach(loop)
        done: asyncio.Future[list[pq.abc.PGresult]] = loop.create_future()
        self._waiting, self._results = done, []
        try:
            pgconn = self.pgconn
            while pgconn.flush():  # rarely: the socket's buffer was full
                await _writable(loop, self.socket)
            return await done
        except OSError as error:  # as psycopg says it: the socket was closed
            raise OperationalError("connection socket closed") from error
        finally:
            self._waiting = None

    def _readable(self) -> None:
        """The socket's reader: the statement's results as they come, and nothing else."""
        pgconn, waiting = self.pgconn, self._waiting
        if waiting is None or waiting.done():  # nothing expected: the server ending the connection
            self.broken = True
            self.detach()
            return
        results = self._results
        try:
            pgconn.consume_input()
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    waiting.set_result(results)
                    return
                results.append(result)
        except DatabaseError as error:  # the connection failed: after an error from the server, that
            if any(result.status == _FATAL_ERROR for result in results):  # error is the one to raise
                waiting.set_result(results)
            else:
                waiting.set_exception(error)

    def _attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.detach()
        loop.add_reader(self.socket, self._readable)
        self._loop = loop

    def detach(self) -> None:
        """Stop reading the socket on the event loop: before the connection is closed (its socket number
        may be another's next), or waited for by psycopg itself (whose own reader would replace this one)."""
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self.socket)


async def _writable(loop: asyncio.AbstractEventLoop, socket: int) -> None:
    ready: asyncio.Future[None] = loop.create_future()

    def writable() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_writer(socket, writable)
    try:
        await ready
    finally:
        loop.remove_writer(socket)
