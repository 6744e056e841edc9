"""The database: an SQLAlchemy 2 engine and sessions, SQLite or PostgreSQL.

SQLite runs in WAL mode (readers never wait for the writer) with foreign keys on, a busy timeout
and ``synchronous=NORMAL`` (in WAL mode a commit survives the server being killed; a power cut may
lose the last few commits, never corrupt the file). SQLite lets one connection write at a time: a write
transaction starts with ``BEGIN IMMEDIATE`` under a process-wide lock, so threads queue for the
write lock here instead of failing with "database is locked" half-way through a transaction.

PostgreSQL serialises changes of one game with ``SELECT … FOR UPDATE`` on the game's row; a move is
first tried outside a transaction, as one statement conditional on the game's version as this process's
last move wrote it, or as an unlocked read (:meth:`Database.autocommit`, :class:`LoopConnections` for
the move route, :func:`~.repository.write_move_alone`). A pooled
connection is not pinged before use (``pool_pre_ping`` would cost a round trip, ``SELECT 1``, every
time one is taken): one whose server process went away (restarted, ``pg_terminate_backend``, an idle
timeout) has said so on its socket, which is looked at when it is taken from the pool (a system call,
no round trip) and then replaced; and a transaction whose connection turns out dead on its first
statement is run again once (:meth:`Database.retry`).
"""

from __future__ import annotations

import logging
import select
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sqlalchemy import Connection, Dialect, Engine, create_engine, event
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import PoolProxiedConnection, QueuePool

from boardlab.server.errors import Unavailable

if TYPE_CHECKING:
    from boardlab.server.pgwire import Wire

log = logging.getLogger("boardlab.server")
_T = TypeVar("_T")


class WriterBusy(Exception):
    """SQLite's write lock is held by another transaction, and the caller would not wait for it."""


class CommitLost(Unavailable):
    """The database connection was lost while a transaction was being committed: whether it was stored
    cannot be known here (so it is not run again)."""


def _committing(connection: Connection | Session) -> None:
    """Commit, saying so if the connection is lost meanwhile (see :class:`CommitLost`)."""
    try:
        connection.commit()
    except DBAPIError as error:
        if error.connection_invalidated:
            raise CommitLost("the connection to the database was lost while saving; reload to see whether "
                             "the change was made") from error
        raise


class Database:
    """An engine, a session factory and, for SQLite, the lock that orders writers."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.engine: Engine = make_engine(url)
        # PostgreSQL: the move's connections, in autocommit mode from their start (see :meth:`autocommit`).
        self._autocommit_engine: Engine | None = None if self.is_sqlite else make_engine(url, autocommit=True)
        # PostgreSQL: the move route's connections, used on the event loop (see :class:`LoopConnections`).
        self.on_the_loop: LoopConnections | None = None if self.is_sqlite else LoopConnections(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = threading.Lock()
        self._writer: Connection | None = None  # SQLite: the one connection that writes, kept open
        # PostgreSQL: :meth:`autocommit`'s statements through libpq itself (:mod:`.pgwire`); ``False``, through
        # psycopg's cursor, as before (the same statements, the same errors; more CPU a statement).
        self.autocommit_through_libpq = True

    @property
    def short_writes_on_the_loop(self) -> bool:
        """Whether a short write (a move) is best tried on the event loop itself, when the write lock is
        free (``write_core(wait=False)``), before a trip through the thread pool. SQLite: it writes one
        transaction at a time anyway, and under load that trip (its threads' contention for the GIL and
        the write lock) cost more than the move itself. PostgreSQL: never (a transaction waits on the
        network)."""
        return self.is_sqlite

    @property
    def moves_outside_transactions(self) -> bool:
        """Whether a move is first tried as one statement on a connection in autocommit mode (see
        :meth:`autocommit`, :func:`~.repository.write_move_alone`): PostgreSQL, where each statement of a
        transaction (BEGIN and COMMIT too) is a round trip. SQLite: never (a statement is a call, and its
        writer must hold the write lock from the read on)."""
        return not self.is_sqlite

    def retry(self, attempt: Callable[[], _T]) -> _T:
        """``attempt()``, run again once if it failed because its connection to the database was found
        dead (a server process ended between the connection's last use and this one). Nothing was
        stored: a failure while committing is :class:`CommitLost`, which is not retried."""
        try:
            return attempt()
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            log.warning("a database connection was found closed (%s); trying again on a new one",
                        str(error.orig).strip().splitlines()[0] if error.orig else error)
            return attempt()

    @contextmanager
    def read(self) -> Iterator[Session]:
        """A session for reading (commits nothing) that sees one snapshot: a game's row and its moves
        agree even while moves are being appended."""
        with self._sessions() as session:
            if self.is_sqlite:
                session.connection().exec_driver_sql("BEGIN")
            else:
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            yield session  # closing hands the connection back, and the pool rolls the snapshot back

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A session whose changes are committed together at the end, or not at all."""
        if not self.is_sqlite:
            with self._sessions() as session:
                try:
                    yield session
                except BaseException:
                    session.rollback()
                    raise
                _committing(session)
            return
        with self._write_lock, self._sessions() as session:
            session.connection().exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield session
            except BaseException:
                session.rollback()
                raise
            session.commit()

    @contextmanager
    def write_core(self, wait: bool = True) -> Iterator[Connection]:
        """Like :meth:`write`, as a bare connection: the move path's Core statements need no ORM
        session, whose set-up and commit cost more than the transaction's own work. ``wait=False``
        (SQLite): raise :class:`WriterBusy` at once if another transaction holds the write lock (the
        event loop must not wait for it)."""
        if not self.is_sqlite:
            with self.engine.connect() as connection:
                try:
                    yield connection
                except BaseException:
                    connection.rollback()
                    raise
                _committing(connection)
            return
        if not self._write_lock.acquire(blocking=wait):
            raise WriterBusy("another transaction is writing")
        try:
            if self._writer is None or self._writer.invalidated or self._writer.closed:
                self._writer = self.engine.connect()
            connection = self._writer
            connection.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield connection
            except BaseException:
                connection.rollback()
                raise
            connection.commit()
        finally:
            self._write_lock.release()

    @property
    def engines(self) -> tuple[Engine, ...]:
        """Every engine of this database: the main one, and PostgreSQL's for moves in autocommit mode."""
        return (self.engine,) if self._autocommit_engine is None else (self.engine, self._autocommit_engine)

    @contextmanager
    def autocommit(self) -> Iterator[AutocommitConnection]:
        """A pooled connection in autocommit mode (PostgreSQL): each statement is a transaction of its own,
        committed as it ends (no BEGIN, no COMMIT), run on the driver's own cursor. From a pool of its
        own, whose connections are put in that mode once, when opened, and handed back as they are
        (nothing to roll back). Taking one from the main pool, setting the mode there and back, and
        SQLAlchemy's connection and transaction around it cost more of the server's CPU than the move's
        own statements."""
        assert self._autocommit_engine is not None, "SQLite has no moves outside transactions"
        pooled = self._autocommit_engine.raw_connection()  # the checkout event checks it is still connected
        try:
            yield AutocommitConnection(pooled, self._autocommit_engine.dialect, self.autocommit_through_libpq)
        finally:
            pooled.close()  # back to the pool (or, invalidated, closed)

    def dispose(self) -> None:
        with self._write_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        if self.on_the_loop is not None:
            self.on_the_loop.close()
        for engine in self.engines:
            engine.dispose()


class AutocommitConnection:
    """A pooled PostgreSQL connection in autocommit mode (:meth:`Database.autocommit`), used through the
    driver alone: its statements go through libpq itself (``through_libpq``: :meth:`.pgwire.Wire.execute_now`,
    what it prepared kept with the connection), else (or a statement that psycopg's placeholders alone can
    say) on one psycopg cursor, kept with the connection and used again by each move (making and closing
    one a statement was a tenth of the statement's CPU time)."""

    __slots__ = ("dialect", "driver", "pooled", "through_libpq")

    def __init__(self, pooled: PoolProxiedConnection, dialect: Dialect, through_libpq: bool = True) -> None:
        self.pooled = pooled
        self.dialect = dialect
        self.driver: Any = pooled.driver_connection
        self.through_libpq = through_libpq

    def wire(self) -> Wire:
        """The connection's :class:`~.pgwire.Wire` (made on first use), for statements sent from a thread."""
        kept = self.pooled.info.get("wire")
        if kept is None or kept.pgconn is not self.driver.pgconn:  # a new connection, after one lost
            from boardlab.server.pgwire import Wire

            kept = self.pooled.info["wire"] = Wire(self.driver)
        return cast("Wire", kept)

    def cursor(self) -> Any:
        """The driver's cursor kept for this connection (made on first use)."""
        kept = self.pooled.info.get("cursor")
        if kept is None or kept.connection is not self.driver or kept.closed:  # a new connection, after one lost
            kept = self.pooled.info["cursor"] = self.driver.cursor()
        return kept

    def invalidate(self, error: BaseException) -> None:
        """The connection is lost: closed, and not handed back to the pool."""
        self.pooled.invalidate(error)


class LoopConnections:
    """PostgreSQL: the move route's connections, psycopg's asyncio connections in autocommit mode, used on
    the event loop (:class:`AsyncAutocommitConnection`): a move through the route waits for its two
    statements there instead of in a thread of the pool, whose crossing (there and back, and the thread
    waking) cost the server's process more CPU than the move's statements. At most ``most`` in use at
    once (past that :meth:`take` says ``None``, and the move goes to the thread pool), ``keep`` kept
    between moves. A kept connection is looked at when taken, as the pools' are (its socket: has the server
    ended it?). ``taken`` and ``handed_back``: callbacks with each driver connection (tests trace them).
    ``through_libpq``: the statements sent through libpq itself (:mod:`.pgwire`); ``False``, through
    psycopg's asyncio cursor, as before (the same statements, the same errors; more CPU a statement)."""

    def __init__(self, engine: Engine, keep: int = 5, most: int = 10, through_libpq: bool = True) -> None:
        self.keep, self.most = keep, most
        self.through_libpq = through_libpq
        self.dialect = engine.dialect
        _, self._connect_args = engine.dialect.create_connect_args(engine.url)
        self._idle: list[AsyncAutocommitConnection] = []
        self.in_use = 0
        self.taken: list[Callable[[Any], None]] = []
        self.handed_back: list[Callable[[Any], None]] = []

    async def take(self) -> AsyncAutocommitConnection | None:
        """A live connection (kept, or opened now), or ``None`` if ``most`` are in use."""
        if self.in_use >= self.most:
            return None
        while self._idle:
            connection = self._idle.pop()
            try:
                if connection.wire.broken:
                    raise DisconnectionError("the database server ended the connection")
                _still_connected(connection.driver, None, None)
            except DisconnectionError:
                connection.close_now()
                continue
            break
        else:
            import psycopg

            driver = await psycopg.AsyncConnection.connect(**self._connect_args, autocommit=True)
            connection = AsyncAutocommitConnection(driver, self.dialect)
        connection.through_libpq = self.through_libpq
        self.in_use += 1
        for callback in self.taken:
            callback(connection.driver)
        return connection

    def hand_back(self, connection: AsyncAutocommitConnection) -> None:
        self.in_use -= 1
        for callback in self.handed_back:
            callback(connection.driver)
        # Not kept unless idle: a move cancelled while it waited (its request gone) leaves its statement
        # running on the connection, and the next move on it would fail.
        if connection.lost or connection.wire.broken or connection.driver.closed or len(self._idle) >= self.keep \
                or connection.driver.pgconn.transaction_status != _IDLE:
            connection.close_now()
        else:
            self._idle.append(connection)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncAutocommitConnection | None]:
        """:meth:`take`, handed back at the end."""
        taken = await self.take()
        try:
            yield taken
        finally:
            if taken is not None:
                self.hand_back(taken)

    def close(self) -> None:
        while self._idle:
            self._idle.pop().close_now()


_IDLE = 0  # libpq's PQTRANS_IDLE: no statement running, no transaction open


def _close_now(driver: Any) -> None:
    """Close a psycopg connection (asyncio's too) at once, without waiting on the loop: libpq's own close."""
    try:
        driver.pgconn.finish()
    except Exception:  # already closed
        log.debug("closing a database connection failed", exc_info=True)


class AsyncAutocommitConnection:
    """A connection of :class:`LoopConnections`, used through the driver alone as
    :class:`AutocommitConnection` is, from code that runs in SQLAlchemy's ``greenlet_spawn``: each
    statement's wait is a wait of the event loop (:func:`~.repository._on_driver`). Its statements go
    through libpq itself (:class:`~.pgwire.Wire`, kept with the connection with what it prepared), or
    with ``through_libpq`` off (or a statement that psycopg's placeholders alone can say), on one psycopg
    cursor kept with the connection."""

    __slots__ = ("_cursor", "dialect", "driver", "lost", "through_libpq", "wire")

    def __init__(self, driver: Any, dialect: Dialect) -> None:
        from boardlab.server.pgwire import Wire

        self.driver = driver
        self.dialect = dialect
        self.lost = False
        self.through_libpq = True
        self.wire = Wire(driver)
        self._cursor: Any = None

    async def run(self, sql: str, values: Any, then: Callable[[Any], _T]) -> _T:
        """Run ``sql`` with ``values``, and ``then`` on the outcome (a cursor's, its rows fetched)."""
        if self.through_libpq and isinstance(values, dict) and (query := self.wire.query(sql)) is not None:
            return then(await self.wire.execute(query[0], query[1], values))
        self.wire.detach()  # psycopg's own wait adds a reader of its own
        if self._cursor is None:
            self._cursor = self.driver.cursor()
        cursor = self._cursor
        await cursor.execute(sql, values)
        rows = await cursor.fetchall() if cursor.pgresult is not None and cursor.pgresult.ntuples else []
        return then(_Fetched(cursor.rowcount, rows))

    def send(self, sql: str, values: Any) -> bool:
        """Send ``sql`` with ``values`` and return at once (:meth:`.pgwire.Wire.send`), its outcome then
        awaited with :meth:`outcome`; ``False`` (nothing sent) where it goes only by :meth:`run`: its
        first time on this connection (to be prepared), or not through libpq."""
        return self.through_libpq and isinstance(values, dict) and (query := self.wire.query(sql)) is not None \
            and self.wire.send(query[0], query[1], values)

    async def outcome(self) -> Any:
        """The outcome (as a cursor tells it) of what :meth:`send` sent."""
        return await self.wire.outcome()

    def invalidate(self, _error: BaseException) -> None:
        """The connection is lost: closed when handed back, not kept."""
        self.lost = True

    def close_now(self) -> None:
        self.wire.detach()
        _close_now(self.driver)


class _Fetched:
    """A statement's outcome as a cursor tells it, its rows read already."""

    __slots__ = ("rowcount", "rows")

    def __init__(self, rowcount: int, rows: list[Any]) -> None:
        self.rowcount, self.rows = rowcount, rows

    def fetchall(self) -> list[Any]:
        return self.rows

    def fetchone(self) -> Any:
        return self.rows[0] if self.rows else None


def make_engine(url: str, autocommit: bool = False) -> Engine:
    """The engine for ``url``; ``autocommit`` (PostgreSQL): every connection in autocommit mode from the
    start, and handed back to the pool without a rollback (in that mode there is no transaction left
    open to end)."""
    if not url.startswith("sqlite"):
        # The moves' pools are the smaller: a move holds its connection for two statements, and most moves
        # (the route's) use :class:`LoopConnections` (10 at most): two worker processes with every pool at
        # its peak stay under PostgreSQL's default 100 connections.
        more: dict[str, Any] = {"pool_size": 10, "max_overflow": 20}
        if autocommit:
            more = {"isolation_level": "AUTOCOMMIT", "pool_reset_on_return": None, "pool_size": 2, "max_overflow": 3}
        engine = create_engine(url, pool_pre_ping=False, **more)
        event.listen(engine, "checkout", _still_connected)
        return engine
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                           poolclass=QueuePool, pool_size=8, max_overflow=16)

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=30000", "synchronous=NORMAL"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return engine


def _still_connected(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Refuse a pooled PostgreSQL connection whose server process has gone (the pool then takes, or
    opens, another). An idle pooled connection is sent nothing (it LISTENs to nothing), so anything to
    read on its socket is the server's farewell (a FATAL error, then the end of the stream): libpq
    would only notice when the next query fails. A system call, not a round trip (``pool_pre_ping``
    sends ``SELECT 1`` and waits for the answer)."""
    pgconn = getattr(dbapi_connection, "pgconn", None)
    if pgconn is None:
        return
    if pgconn.status != 0:  # libpq's CONNECTION_OK
        raise DisconnectionError("the database connection was closed")
    try:
        readable, _, _ = select.select([pgconn.socket], [], [], 0)
    except Exception as error:  # a closed socket
        raise DisconnectionError(f"the database connection was closed: {error}") from error
    if readable:  # "terminating connection due to administrator command", then the end of the stream
        raise DisconnectionError("the database server ended the connection")
