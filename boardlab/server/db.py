"""The database: an SQLAlchemy 2 engine and sessions, SQLite or PostgreSQL.

SQLite runs in WAL mode (readers never wait for the writer) with foreign keys on, a busy timeout
and ``synchronous=NORMAL`` (in WAL mode a commit survives the server being killed; a power cut may
lose the last few commits, never corrupt the file). SQLite lets one connection write at a time: a write
transaction starts with ``BEGIN IMMEDIATE`` under a process-wide lock, so threads queue for the
write lock here instead of failing with "database is locked" half-way through a transaction.

PostgreSQL serialises moves of one game with ``SELECT … FOR UPDATE`` on the game's row.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import QueuePool


class WriterBusy(Exception):
    """SQLite's write lock is held by another transaction, and the caller would not wait for it."""


class Database:
    """An engine, a session factory and, for SQLite, the lock that orders writers."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        self.engine: Engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._write_lock = threading.Lock()
        self._writer: Connection | None = None  # SQLite: the one connection that writes, kept open

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
            with self._sessions() as session, session.begin():
                yield session
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
            with self.engine.begin() as connection:
                yield connection
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

    def dispose(self) -> None:
        with self._write_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.engine.dispose()


def make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30},
                           poolclass=QueuePool, pool_size=8, max_overflow=16)

    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        for pragma in ("journal_mode=WAL", "foreign_keys=ON", "busy_timeout=30000", "synchronous=NORMAL"):
            cursor.execute(f"PRAGMA {pragma}")
        cursor.close()

    return engine
