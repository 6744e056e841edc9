"""The server's SQL, in one place: how games, seats, moves and users are read and written. The rules
(:mod:`.play`) and the service (:mod:`.service`) call these; nothing here decides anything about a game
or commits.

Two ways in. The ORM (``Session``) for the rarer changes (challenges, resignations, takebacks) and the
lists. SQLAlchemy Core for the move path, most of the server's traffic: a move's game is read with one
query into plain rows and written back with one conditional UPDATE (and on PostgreSQL one statement
that also inserts the move and sends the live update's NOTIFY), see :func:`lock_game_core` and
:func:`write_back`; on PostgreSQL a move is first tried outside a transaction, as that read unlocked and
one statement that is its own transaction (:func:`write_move_alone`). Where this process's last move in
the game left its row in the cache, that row is decided on instead of read (:func:`known_game`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple, TypeVar, cast

from sqlalchemy import (
    Connection,
    Dialect,
    Table,
    bindparam,
    delete,
    exists,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, aliased, joinedload
from sqlalchemy.util.concurrency import await_only as await_

from boardlab.server.db import AsyncAutocommitConnection, AutocommitConnection, CommitLost
from boardlab.server.errors import Conflict, NotFound
from boardlab.server.events import CHANNEL
from boardlab.server.models import Game as GameRow
from boardlab.server.models import MoveRow, Seat, User
from boardlab.server.status import GameStatus

# A connection the move path's statements run on through the driver (see :func:`_on_driver`).
OnDriver = Connection | AutocommitConnection | AsyncAutocommitConnection

# -- the moves: the source of truth -----------------------------------------------------------------


class MoveInfo(NamedTuple):
    """When and by whom a move was made (its text comes from the viewer's view)."""

    ply: int
    seat: int
    at: datetime
    seconds: float


def move_infos(session: Session | Connection, game_id: int) -> list[MoveInfo]:
    return [MoveInfo(*r) for r in session.execute(
        select(MoveRow.ply, MoveRow.seat, MoveRow.at, MoveRow.seconds)
        .where(MoveRow.game_id == game_id).order_by(MoveRow.ply))]


def move_texts(session: Session | Connection, game_id: int) -> list[str]:
    return list(session.scalars(select(MoveRow.text).where(MoveRow.game_id == game_id).order_by(MoveRow.ply)))


def last_move_of(session: Session, game_id: int, seat: int) -> int | None:
    return session.scalar(select(MoveRow.ply).where(MoveRow.game_id == game_id, MoveRow.seat == seat)
                          .order_by(MoveRow.ply.desc()).limit(1))


def delete_moves_from(session: Session, game_id: int, ply: int) -> None:
    """Delete the moves of game ``game_id`` from ``ply`` on (a takeback)."""
    session.execute(delete(MoveRow).where(MoveRow.game_id == game_id, MoveRow.ply >= ply)
                    .execution_options(synchronize_session=False))


def add_moves(session: Session, moves: list[dict[str, Any]]) -> None:
    """Insert many moves' rows at once (an uploaded record's: one executemany, not one object a move)."""
    if moves:
        session.execute(insert(MoveRow), moves)


# -- games ------------------------------------------------------------------------------------------


def get_game(session: Session, game_id: int) -> GameRow:
    row = session.scalars(select(GameRow).where(GameRow.id == game_id)
                          .options(joinedload(GameRow.seats).joinedload(Seat.user))).unique().first()
    if row is None:
        raise NotFound(f"no game {game_id}")
    return row


def find_game(session: Session, game_id: int) -> GameRow | None:
    """The game ``game_id`` (its seats loaded as they are used), or ``None``."""
    return session.get(GameRow, game_id)


def lock_game(session: Session, game_id: int) -> GameRow:
    """The game's row, locked until the commit, with its seats and their users (one query)."""
    row = session.scalars(select(GameRow).where(GameRow.id == game_id)
                          .options(joinedload(GameRow.seats).joinedload(Seat.user))
                          .with_for_update(of=GameRow)).unique().first()
    if row is None:
        raise NotFound(f"no game {game_id}")
    return row


def add_game(session: Session, row: GameRow) -> None:
    """Store the new game ``row`` with its seats (it gets its id), their users loaded for what follows."""
    session.add(row)
    session.flush()
    for seat in row.seats:  # loaded now, for the notices written after the commit
        seat.user = session.get(User, seat.user_id) if seat.user_id is not None else None


def user_by_id(session: Session, user_id: int) -> User | None:
    return session.get(User, user_id)


def user_by_name(session: Session, name: str) -> User | None:
    """The user whose name, as compared (:func:`boardlab.server.names.name_key`), is ``name``'s lowered."""
    return session.scalar(select(User).where(User.name_key == name.lower()))


# The move path in SQLAlchemy Core. A move is most of the server's traffic: its game is read with one
# query into transient rows (never added to the session) and written back with one INSERT and one
# conditional UPDATE, instead of the ORM's identity map and unit of work, which cost most of a move's
# CPU time. The rarer changes (challenges, resignations, takebacks) keep the ORM.
_GAMES, _SEATS, _USERS, _MOVES = (cast(Table, model.__table__) for model in (GameRow, Seat, User, MoveRow))
_GAME_KEYS = tuple(column.key for column in _GAMES.c)
_SEAT_KEYS = tuple(column.key for column in _SEATS.c if column.key != "game_id")
# Everything a move may change in the game's row.
_CHANGING = ("status", "ply", "to_move", "result", "termination", "loser", "finished_at", "version",
             "turn_started_at", "deadline", "draw_offers", "undo_request", "ai_lease_until", "end_reason", "outcome")
# What a move may change in a seat: its clock, and at the end its score and rating change.
_SEAT_CHANGING = ("remaining_seconds", "score", "rating_change")
_LOAD = (select(*_GAMES.c, *(_SEATS.c[key].label(f"seat_{key}") for key in _SEAT_KEYS),
                _USERS.c.name.label("user_name"), _USERS.c.email.label("user_email"))
         .select_from(_GAMES.join(_SEATS, _SEATS.c.game_id == _GAMES.c.id)
                      .outerjoin(_USERS, _USERS.c.id == _SEATS.c.user_id))
         .where(_GAMES.c.id == bindparam("game_id")).order_by(_SEATS.c.seat))
_LOCK = _LOAD.with_for_update(of=_GAMES)
_INSERT_MOVE = insert(_MOVES)
_UPDATE_SEAT = (update(_SEATS).where(_SEATS.c.game_id == bindparam("in_game"), _SEATS.c.seat == bindparam("number"))
                .values({key: bindparam(f"new_{key}") for key in _SEAT_CHANGING}))


_MOVE_FIELDS = ("game_id", "ply", "text", "seat", "at", "seconds")


@lru_cache(maxsize=64)
def _update_game(changed: tuple[str, ...]) -> Any:
    """The UPDATE of a game's fields ``changed``, conditional on the version read: built once for each set
    (SQLAlchemy then reuses its compiled form). Only what changed is written: SQLite updates an index of
    the games table whenever its columns are set, whether their values change or not (a move leaves the
    status and the end's fields alone)."""
    return (update(_GAMES).where(_GAMES.c.id == bindparam("game_id"), _GAMES.c.version == bindparam("read_version"))
            .values({key: bindparam(f"new_{key}") for key in changed}))


@lru_cache(maxsize=64)
def _write_and_notify(changed: tuple[str, ...], with_move: bool) -> Any:
    """PostgreSQL: the move's INSERT (``with_move``), the game's UPDATE and the live update's NOTIFY, in
    one statement, so that a move costs as few round trips as on SQLite (BEGIN, the locking SELECT, this,
    COMMIT); it answers how many games it changed (1, or 0 if the version read is no longer there)."""
    changed_game = _update_game(changed).returning(_GAMES.c.id).cte("changed_game")
    statement = select(select(func.count()).select_from(changed_game).scalar_subquery(),
                       func.pg_notify(bindparam("channel"), bindparam("payload")))
    if with_move:  # a data-changing WITH runs whether or not the query reads it
        statement = statement.add_cte(insert(_MOVES).values({key: bindparam(f"move_{key}") for key in _MOVE_FIELDS})
                                      .cte("new_move"))
    return statement


@lru_cache(maxsize=128)
def _move_as_one_statement(changed: tuple[str, ...], seats: int, quick: bool) -> Any:
    """PostgreSQL, outside any transaction (see :func:`write_move_alone`): a move's whole write as one
    statement, its own transaction. The game's UPDATE, conditional on the version read; then, only if it
    changed the game, the move's INSERT, the UPDATE of ``seats`` seats (their clocks) and the live update's
    NOTIFY; with ``quick``, the commit not waited for on disk (``synchronous_commit`` off for this transaction
    only: see :attr:`~.config.Settings.quick_move_commits`). It answers the game's id, or no row if the
    version read is no longer there."""
    changed_game = _update_game(changed).returning(_GAMES.c.id).cte("changed_game")
    new_move = insert(_MOVES).from_select(
        list(_MOVE_FIELDS), select(*(bindparam(f"move_{key}", type_=_MOVES.c[key].type) for key in _MOVE_FIELDS))
        .select_from(changed_game)).cte("new_move")
    statement = (select(changed_game.c.id, func.pg_notify(bindparam("channel"), bindparam("payload")),
                        *([literal_column("set_config('synchronous_commit', 'off', true)")] if quick else []))
                 .select_from(changed_game).add_cte(new_move))
    for number in range(seats):
        statement = statement.add_cte(
            update(_SEATS).where(_SEATS.c.game_id == changed_game.c.id,
                                 _SEATS.c.seat == bindparam(f"seat{number}_number"))
            .values({key: bindparam(f"seat{number}_{key}") for key in _SEAT_CHANGING}).cte(f"changed_seat{number}"))
    return statement


class Snapshot(NamedTuple):
    """What a move may change in a game, as read: written back are only the fields that changed."""

    game: dict[str, Any]
    seats: dict[int, tuple[Any, ...]]


def lock_game_core(connection: OnDriver, game_id: int, lock: bool = True
                   ) -> tuple[GameRow, Snapshot]:
    """The game's row locked until the commit (``FOR UPDATE`` on PostgreSQL; SQLite's writer holds the
    database), as a transient :class:`GameRow` with its seats and their users, and what it was.
    ``lock=False``: read as it is now, unlocked (PostgreSQL, outside a transaction: see
    :func:`write_move_alone`)."""
    rows = _locked_rows(connection, game_id, lock)
    if not rows:
        raise NotFound(f"no game {game_id}")
    first = rows[0]
    seats = [_seat_of(found) for found in rows]
    row = _loaded(GameRow, {**{key: first[key] for key in _GAME_KEYS}, "seats": seats})
    return row, Snapshot({key: first[key] for key in _CHANGING}, {seat.seat: _seat_values(seat) for seat in seats})


# A field that a known row (:func:`known_game`) cannot vouch for: compared unequal to anything, so that the
# move's UPDATE always writes it. The computer's lease is taken and given back without a new version.
_UNVOUCHED = type("Unvouched", (), {"__eq__": lambda self, other: False, "__ne__": lambda self, other: True,
                                    "__hash__": object.__hash__})()


def known_game(row: GameRow) -> tuple[GameRow, Snapshot]:
    """A copy of ``row``, a game's row as a move of this process wrote it (the cache's), to be decided on
    instead of reading it, and what it was: as :func:`lock_game_core` answers. Whatever is decided on it
    is stored only if the game's version is still ``row``'s (:func:`write_move_alone`); every change of a
    game or its seats makes a new version, except the computer's lease (``ai_lease_until``), which the
    move writes whether or not it seems changed."""
    seats = [_loaded(Seat, dict(vars(seat))) for seat in row.seats]
    copy = _loaded(GameRow, {**vars(row), "seats": seats})
    game = {key: getattr(row, key) for key in _CHANGING}
    game["ai_lease_until"] = _UNVOUCHED
    return copy, Snapshot(game, {seat.seat: _seat_values(seat) for seat in seats})


_LOCK_KEYS = tuple(str(column.key) for column in _LOCK.selected_columns)


@lru_cache(maxsize=8)
def _lock_sql(dialect: Dialect, lock: bool = True) -> str:
    return str((_LOCK if lock else _LOAD).compile(dialect=dialect))


@lru_cache(maxsize=4)
def _lock_processors(dialect: Dialect) -> tuple[tuple[int, Callable[[Any], Any]], ...]:
    """The columns of :data:`_LOCK` whose values the dialect converts as it reads them (SQLite: JSON,
    timestamps and booleans, stored as text and integers), with the conversion SQLAlchemy would apply.
    None on PostgreSQL: psycopg decodes these columns itself, and SQLAlchemy's psycopg dialect converts
    none of their values (its processors there need the column's type as the server describes it)."""
    if dialect.name == "postgresql":
        return ()
    found = ((number, column.type.dialect_impl(dialect).result_processor(dialect, None))
             for number, column in enumerate(_LOCK.selected_columns))
    return tuple((number, process) for number, process in found if process is not None)


def _locked_rows(connection: OnDriver, game_id: int, lock: bool = True
                 ) -> list[dict[str, Any]]:
    """:data:`_LOCK`'s rows as dicts, read on the driver's own cursor, the values converted as
    SQLAlchemy's result would (:func:`_lock_processors`). Through SQLAlchemy's result, each move paid for
    its rows' machinery (on PostgreSQL psycopg also builds a description of each of the 45 columns: a
    fifth of a move's CPU time in the server's process), more than the query itself. On SQLite the
    statement is compiled with ``?`` placeholders, the only parameter being the game's id."""
    dialect = connection.dialect
    sql = _lock_sql(dialect, lock)
    found = _on_driver(connection, sql, {"game_id": game_id} if dialect.name == "postgresql" else (game_id,),
                       _all_rows)
    processors = _lock_processors(dialect)
    if processors:
        found = [list(values) for values in found]
        for values in found:
            for number, process in processors:
                values[number] = process(values[number])
    return [dict(zip(_LOCK_KEYS, values, strict=True)) for values in found]


def _all_rows(cursor: Any) -> list[Any]:
    return cast(list[Any], cursor.fetchall())


@lru_cache(maxsize=128)
def _driver_statement(statement: Any, dialect: Dialect, keys: tuple[str, ...] | None = None
                      ) -> tuple[str, tuple[tuple[str, Callable[[Any], Any] | None], ...], bool]:
    """``statement`` compiled for the driver's own cursor (``keys``: an INSERT's columns), once: its SQL,
    each parameter with the conversion SQLAlchemy would apply to it (SQLite: timestamps and JSON to
    text; psycopg: JSON wrapped), in the placeholders' order, and whether they are positional (SQLite's
    ``?``) rather than named (psycopg's ``%(name)s``)."""
    compiled = statement.compile(dialect=dialect, column_keys=list(keys) if keys is not None else None)
    processors = compiled._bind_processors  # what SQLAlchemy's own execution applies
    names = compiled.positiontup if compiled.positional else list(compiled.bind_names.values())
    assert names is not None
    return compiled.string, tuple((name, processors.get(name)) for name in names), bool(compiled.positional)


def _run_on_driver(connection: OnDriver, statement: Any, parameters: Mapping[str, Any],
                   keys: tuple[str, ...] | None = None, fetch: bool = False) -> tuple[int, Any]:
    """Run ``statement`` on the driver's own cursor: the rows it changed (or, a query, returned), and with
    ``fetch`` its first row (else ``None``: psycopg describes every column of a result asked whether it
    has any, a cost on every move). SQLAlchemy's execution cost more in the server's process than the database's
    own work for a move's short writes."""
    sql, binds, positional = _driver_statement(statement, connection.dialect, keys)
    converted = ((name, parameters[name] if process is None else process(parameters[name])) for name, process in binds)
    values: Any = [value for _, value in converted] if positional else dict(converted)
    return _on_driver(connection, sql, values, _changed_and_first if fetch else _changed)


def _changed(cursor: Any) -> tuple[int, Any]:
    return int(cursor.rowcount), None


def _changed_and_first(cursor: Any) -> tuple[int, Any]:
    return int(cursor.rowcount), cursor.fetchone()


_R = TypeVar("_R")


def _on_driver(connection: OnDriver, sql: str, values: Any,
               then: Callable[[Any], _R]) -> _R:
    """Run ``sql`` with ``values`` on a cursor of the driver's own, and ``then(cursor)``. In a
    SQLAlchemy connection, a cursor of its own, in the connection's transaction (begun here if need be,
    so that SQLAlchemy commits or rolls back what the driver begins); on an
    :class:`~.db.AutocommitConnection`, the cursor kept with it. The driver's errors are raised as
    SQLAlchemy raises them (a second move for a ply is an ``IntegrityError`` either way; a lost
    connection is invalidated: not handed back to the pool)."""
    if isinstance(connection, AsyncAutocommitConnection):  # in greenlet_spawn: the wait is the event loop's
        try:
            return await_(connection.run(sql, values, then))
        except connection.dialect.loaded_dbapi.Error as error:
            raise _wrapped(connection, sql, values, error, connection.driver, None) from error
    if isinstance(connection, AutocommitConnection):
        if connection.through_libpq and isinstance(values, dict):
            wire = connection.wire()
            query = wire.query(sql)
            if query is not None:
                try:
                    return then(wire.execute_now(query[0], query[1], values))
                except connection.dialect.loaded_dbapi.Error as error:
                    raise _wrapped(connection, sql, values, error, connection.driver, None) from error
        driver, cursor = connection.driver, connection.cursor()
    else:
        if not connection.in_transaction():
            connection.begin()
        driver = connection.connection.driver_connection
        assert driver is not None
        cursor = driver.cursor()
    try:
        cursor.execute(sql, values)
        return then(cursor)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, sql, values, error, driver, cursor) from error
    finally:
        if not isinstance(connection, AutocommitConnection):
            cursor.close()


def _wrapped(connection: OnDriver, sql: str, values: Any, error: Any, driver: Any, cursor: Any) -> DBAPIError:
    """The driver's ``error`` as SQLAlchemy raises it; a lost connection is invalidated (not pooled again)."""
    wrapped = cast(DBAPIError, DBAPIError.instance(sql, values, error, connection.dialect.loaded_dbapi.Error,
                                  dialect=connection.dialect,
                                  connection_invalidated=connection.dialect.is_disconnect(error, driver, cursor)))
    if wrapped.connection_invalidated:
        connection.invalidate(error)
    return wrapped


def _seat_values(seat: Seat) -> tuple[Any, ...]:
    return tuple(getattr(seat, key) for key in _SEAT_CHANGING)


_T = TypeVar("_T", GameRow, Seat, User)


class _Fields:
    """A row as the move path reads it: its fields as plain attributes. An ORM instance's fields are
    descriptors, which cost more to read and write (some 250 times a move, in the rules of the server
    and the answer) than the query that fills them, and it would be made without the change events its
    constructor fires for each field anyway; this is never added to a session."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


def _loaded(cls: type[_T], values: dict[str, Any]) -> _T:
    """``values`` as loaded into a row of ``cls``, read as one (see :class:`_Fields`)."""
    return cast(_T, _Fields(values))


def _seat_of(values: Mapping[str, Any]) -> Seat:
    user_id = values["seat_user_id"]
    user = None if user_id is None else \
        _loaded(User, {"id": user_id, "name": values["user_name"], "email": values["user_email"]})
    return _loaded(Seat, {"game_id": values["id"], **{key: values[f"seat_{key}"] for key in _SEAT_KEYS},
                          "user": user})


def write_back(connection: Connection, row: GameRow, as_read: Snapshot, new_move: dict[str, Any] | None = None,
               notify: str | None = None) -> None:
    """Store ``row``'s changed fields: one UPDATE of the game, conditional on the version it was read at
    (a second guard beside the lock), and one per seat whose clock (or, at the end, score) changed; and
    ``new_move``, the move's row, if any. ``notify`` (PostgreSQL): the live update's payload, sent with
    the UPDATE (see :func:`_write_and_notify`)."""
    fields = {key: getattr(row, key) for key in _CHANGING}
    changed = tuple(key for key in _CHANGING if fields[key] != as_read.game[key] or key == "version")
    parameters = {"game_id": row.id, "read_version": as_read.game["version"],
                  **{f"new_{key}": fields[key] for key in changed}}
    if notify is not None:
        parameters.update(channel=CHANNEL, payload=notify)
        if new_move is not None:
            parameters.update({f"move_{key}": new_move[key] for key in _MOVE_FIELDS})
        done = _run_on_driver(connection, _write_and_notify(changed, new_move is not None), parameters,
                              fetch=True)[1][0]
    else:
        if new_move is not None:
            _run_on_driver(connection, _INSERT_MOVE, new_move, _MOVE_FIELDS)
        done = _run_on_driver(connection, _update_game(changed), parameters)[0]
    if done != 1:
        raise Conflict(f"game {row.id} was changed meanwhile; try again")
    for seat in row.seats:
        values = _seat_values(seat)
        if values != as_read.seats[seat.seat]:
            connection.execute(_UPDATE_SEAT, {"in_game": row.id, "number": seat.seat,
                                              **{f"new_{key}": value for key, value in zip(_SEAT_CHANGING, values,
                                                                                           strict=True)}})


def write_move_alone(connection: AutocommitConnection | AsyncAutocommitConnection, row: GameRow, as_read: Snapshot,
                     new_move: dict[str, Any], notify: str, quick: bool = False) -> bool:
    """PostgreSQL, on a connection in autocommit mode: store a move (``row`` as it changed, ``new_move`` its
    row) in one statement that is its own transaction (:func:`_move_as_one_statement`), with the live
    update's payload ``notify`` (``quick``: its commit not waited for on disk); whether it was stored
    (not if the game changed since ``as_read``: the caller then makes the move again in a transaction
    that locks the game). Two round trips a move, the
    read and this, instead of four (BEGIN, the locking read, the write, COMMIT). A connection lost while
    it runs is :class:`~.db.CommitLost`: the move may have been stored."""
    statement, parameters = _move_alone(row, as_read, new_move, notify, quick)
    try:
        return _run_on_driver(connection, statement, parameters)[0] == 1
    except DBAPIError as error:
        raise _commit_lost(error) from error


def _move_alone(row: GameRow, as_read: Snapshot, new_move: dict[str, Any], notify: str,
                quick: bool) -> tuple[Any, dict[str, Any]]:
    """:func:`write_move_alone`'s statement and its parameters."""
    fields = {key: getattr(row, key) for key in _CHANGING}
    changed = tuple(key for key in _CHANGING if fields[key] != as_read.game[key] or key == "version")
    parameters = {"game_id": row.id, "read_version": as_read.game["version"], "channel": CHANNEL, "payload": notify,
                  **{f"new_{key}": fields[key] for key in changed},
                  **{f"move_{key}": new_move[key] for key in _MOVE_FIELDS}}
    seats = [seat for seat in row.seats if _seat_values(seat) != as_read.seats[seat.seat]]
    for number, seat in enumerate(seats):
        parameters[f"seat{number}_number"] = seat.seat
        parameters.update({f"seat{number}_{key}": getattr(seat, key) for key in _SEAT_CHANGING})
    return _move_as_one_statement(changed, len(seats), quick), parameters


def _commit_lost(error: DBAPIError) -> DBAPIError | CommitLost:
    """A move's statement's ``error``, as :func:`write_move_alone` raises it."""
    if error.connection_invalidated:
        return CommitLost("the connection to the database was lost while saving the move; reload to see "
                          "whether it was made")
    return error


class SentMove:
    """:func:`write_move_alone`'s statement sent on the event loop's connection and not yet waited for
    (:func:`send_move_alone`): :meth:`stored` says what that function would have."""

    __slots__ = ("_connection", "_sql", "_values")

    def __init__(self, connection: AsyncAutocommitConnection, sql: str, values: dict[str, Any]) -> None:
        self._connection, self._sql, self._values = connection, sql, values

    async def stored(self) -> bool:
        """Whether the move was stored (``False``: the game changed since it was read); its errors as
        :func:`write_move_alone` raises them (a second move for the ply: ``IntegrityError``; the
        connection lost: :class:`~.db.CommitLost`)."""
        connection = self._connection
        try:
            outcome = await connection.outcome()
        except connection.dialect.loaded_dbapi.Error as error:
            wrapped = _wrapped(connection, self._sql, self._values, error, connection.driver, None)
            raise _commit_lost(wrapped) from error
        return int(outcome.rowcount) == 1


def send_move_alone(connection: AsyncAutocommitConnection, row: GameRow, as_read: Snapshot, new_move: dict[str, Any],
                    notify: str, quick: bool = False) -> SentMove | None:
    """:func:`write_move_alone`'s statement sent and not waited for (:meth:`~.db.AsyncAutocommitConnection.send`),
    so that the caller can build its answer while the database stores the move; ``None`` (nothing sent)
    where it cannot go so (the statement's first time on this connection: :func:`write_move_alone` then)."""
    statement, parameters = _move_alone(row, as_read, new_move, notify, quick)
    sql, binds, positional = _driver_statement(statement, connection.dialect)
    assert not positional
    values = {name: parameters[name] if process is None else process(parameters[name]) for name, process in binds}
    try:
        sent = connection.send(sql, values)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _commit_lost(_wrapped(connection, sql, values, error, connection.driver, None)) from error
    return SentMove(connection, sql, values) if sent else None


def due_for_timeout(session: Session, at: datetime) -> list[tuple[int, int]]:
    return [(i, v) for i, v in session.execute(
        select(GameRow.id, GameRow.version).where(GameRow.status == GameStatus.ACTIVE, GameRow.deadline <= at))]


def computer_turns_waiting(session: Session, at: datetime, limit: int = 100) -> list[int]:
    """Games where it is the computer's turn and no search holds a lease on it (after a restart, or a
    search that died)."""
    mover = aliased(Seat)
    return list(session.scalars(
        select(GameRow.id).join(mover, (mover.game_id == GameRow.id) & (mover.seat == GameRow.to_move))
        .where(GameRow.status == GameStatus.ACTIVE, mover.kind == "ai",
               or_(GameRow.ai_lease_until.is_(None), GameRow.ai_lease_until < at)).limit(limit)))


def take_computer_turn(session: Session, row: GameRow, at: datetime, until: datetime) -> bool:
    """Lease the computer's turn in ``row`` (read at its version) until ``until``, unless another worker
    holds it or the game changed meanwhile: whether this one took it."""
    taken = session.execute(
        update(GameRow).where(GameRow.id == row.id, GameRow.version == row.version,
                              GameRow.status == GameStatus.ACTIVE,
                              or_(GameRow.ai_lease_until.is_(None), GameRow.ai_lease_until < at))
        .values(ai_lease_until=until).execution_options(synchronize_session=False))
    return bool(taken.rowcount == 1)  # type: ignore[attr-defined]


def hand_back_computer_turns(session: Session, game_ids: list[int]) -> None:
    """Give up the leases on these games' computer turns (a clean stop), so that another server takes them."""
    session.execute(update(GameRow).where(GameRow.id.in_(game_ids))
                    .values(ai_lease_until=None).execution_options(synchronize_session=False))


# -- lists ------------------------------------------------------------------------------------------


def open_challenges(session: Session, limit: int) -> Sequence[GameRow]:
    """Challenges with a seat open to anyone, the latest first."""
    open_seat = exists().where(Seat.game_id == GameRow.id, Seat.kind == "open", Seat.accepted.is_(False))
    return session.scalars(select(GameRow).where(GameRow.status == GameStatus.CHALLENGE, open_seat)
                           .order_by(GameRow.id.desc()).limit(limit)).all()


def games_of_user(session: Session, user_id: int, limit: int) -> Sequence[GameRow]:
    """The games where ``user_id`` holds (or is invited to) a seat, the latest first."""
    seated = exists().where(Seat.game_id == GameRow.id, Seat.user_id == user_id)
    return session.scalars(select(GameRow).where(seated).order_by(GameRow.id.desc()).limit(limit)).all()


def user_names(session: Session, user_ids: list[int]) -> dict[int, str]:
    return {user_id: name for user_id, name in session.execute(select(User.id, User.name).where(User.id.in_(user_ids)))}
