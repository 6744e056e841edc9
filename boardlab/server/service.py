"""The server's work on games, one method per request: a transaction around the rules in :mod:`.play`,
then what follows a change (the live-position cache, live updates, e-mail, the computer's turn).

Routes are thin wrappers over these methods; the background sweep calls :meth:`GameService.sweep`.
Accounts (:attr:`GameService.accounts`, :mod:`.account_service`) and the lists (:attr:`GameService.lists`,
:mod:`.list_service`) are services of their own, built and closed with this one.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.util.concurrency import greenlet_spawn
from starlette.concurrency import run_in_threadpool

from boardlab.server import ai, clocks, hints, jobs, lists, play, positions, ratings, repository, views
from boardlab.server.account_service import AccountService
from boardlab.server.config import Settings
from boardlab.server.db import AsyncAutocommitConnection, AutocommitConnection, Database, WriterBusy
from boardlab.server.errors import Conflict, NotAllowed
from boardlab.server.events import Broker, LocalNotifier, PostgresNotifier
from boardlab.server.list_service import ListService
from boardlab.server.mail import Mailer
from boardlab.server.models import Game as GameRow
from boardlab.server.play import Actor
from boardlab.server.pools import SlowPool
from boardlab.server.ratelimit import RateLimit
from boardlab.server.schemas import (
    ComputerTurnOut,
    CreatedGameOut,
    CreateGameRequest,
    GameOut,
    HintOut,
    ServerStatusOut,
)
from boardlab.server.status import GameStatus
from boardlab.server.warmup import Warmup

if TYPE_CHECKING:
    from boardlab.core.state import State

log = logging.getLogger("boardlab.server")
_T = TypeVar("_T")
# A computer turn not answered by then is searched again (after a crash; a clean stop hands its turns
# back at once). A search that outlives it is harmless: the version check keeps one answer.
AI_LEASE = timedelta(seconds=30)


class _DecideAgain(Exception):
    """A move decided on the game's row as this process last wrote it did not hold (the game has changed
    since): its transaction is rolled back, and the move decided again on the game as read."""


@dataclass(frozen=True)
class Position:
    """A game's position now, for one viewer, with what only its row knows."""

    state: State
    viewer: int | None  # whose view (None: a spectator's)
    version: int
    ply: int
    active: bool  # in play
    ending: str | None  # a finished game's end, in words (a resignation, a timeout: the position cannot tell)


class GameService:
    def __init__(self, settings: Settings, db: Database | None = None) -> None:
        self.settings = settings
        self.db = db or Database(settings.db_url)
        self.cache = positions.StateCache()
        self.broker = Broker()
        self.notifier: LocalNotifier | PostgresNotifier = (
            LocalNotifier(self.broker) if self.db.is_sqlite else PostgresNotifier(self.broker, settings.db_url))
        self.ai = ai.AIPool(settings.ai_workers)
        self.hint_limit = RateLimit("hint requests", settings.hint_burst, settings.hints_per_minute)
        self.mailer = Mailer(settings.smtp_address, settings.mail_from)
        self._io = ThreadPoolExecutor(2, thread_name_prefix="boardlab-ai-moves")
        # Uploaded records' replays (Python, which holds the GIL) one at a time, in a thread of their own.
        self._uploads = SlowPool(1, "boardlab-uploads")
        self.accounts = AccountService(settings, self.db, self.mailer)
        self.lists = ListService(self.db)
        self._searching: set[int] = set()  # games whose computer turn this process is searching
        self._closing = False
        self.warmup = Warmup(search=self._warm_search)
        self._next_expiry = clocks.now()  # the sweep deletes abandoned guest games at most every 10 minutes

    def close(self) -> None:
        self._closing = True
        self.warmup.stop()
        if self._searching:  # hand the turns back, so that the next server to start takes them at once
            try:
                with self.db.write() as session:
                    repository.hand_back_computer_turns(session, list(self._searching))
            except Exception:
                log.exception("could not hand back the computer's turns")
        self.notifier.stop()
        self.ai.shutdown()
        self._io.shutdown(wait=False, cancel_futures=True)
        self.accounts.close()
        self._uploads.shutdown()
        self.mailer.shutdown()
        self.db.dispose()

    # -- games ----------------------------------------------------------------------------------

    async def read_upload(self, request: CreateGameRequest) -> play.Upload | None:
        """The request's record read and replayed (in the uploads' own thread, one at a time: the replay is
        slow, and must hold neither the write lock, the event loop nor the request pool's threads)."""
        if request.record is None:
            return None
        return await self._uploads.run(play.read_upload, request.record)

    def create(self, actor: Actor, request: CreateGameRequest, upload: play.Upload | None = None) -> CreatedGameOut:
        """A new game (``upload``: its record as :meth:`read_upload` read it; read here, before the
        transaction, if not given)."""
        if request.record is not None and upload is None:
            upload = play.read_upload(request.record)
        # The rules (and the search, against the computer) prepared before the transaction: a first game of
        # its kind after a start may wait for them to compile, but no other request waits with it.
        game_id = upload.record.game if upload is not None else request.game
        if game_id is not None:
            if request.seats is None or any(seat.kind == "ai" for seat in request.seats):
                self.warmup.ensure_with_search(game_id)
            else:
                self.warmup.ensure(game_id)
        with self.db.write() as session:
            created = play.create(session, actor, request, upload)
            self._stage(session, created.row)
        row = created.row
        # A new game's moves are none: kept with its position, so that its first move is made as any other.
        self.cache.put(row, created.state, [] if upload is None else None)
        self._after(row, created.state, "created")
        links = {seat: f"{self.settings.public_url}/games/{row.id}?seat_token={token}"
                 for seat, token in created.invitations.items()}
        held = sorted(created.invitations) if actor.user is None else None
        actor_for_view = Actor(actor.user, tuple(created.invitations.values())[:1]) if held else actor
        if request.record is not None:  # a continued game: its moves are read back with the game
            return CreatedGameOut(game=self.show(actor_for_view, row.id), invitations=created.invitations,
                                  links=links)
        # A new game has no moves, and its row and seats are as the transaction wrote them: answered
        # from those, as a move is, without reading the game back.
        held_seats = play.seats_held(row, actor_for_view)
        game = views.game_out(row, created.state, play.viewing_seat(row, actor_for_view, None), held_seats, [],
                              hints.hint_rule(row, created.state, held_seats, True).seat is not None)
        return CreatedGameOut(game=game, invitations=created.invitations, links=links)

    def show(self, actor: Actor, game_id: int, seat: int | None = None, at_ply: int | None = None) -> GameOut:
        with self.db.read() as session:
            row = repository.get_game(session, game_id)
            if at_ply is not None and not 0 <= at_ply <= row.ply:
                raise Conflict(f"ply {at_ply} is not in game {game_id}; accepted: 0 to {row.ply}")
            return self._out(session, row, actor, seat, at_ply)

    def position(self, actor: Actor, game_id: int, seat: int | None, at_ply: int | None = None) -> Position:
        """The game's position now as the caller's seat sees it (see :class:`Position`): what the board
        picture is drawn from. ``at_ply``: checked to be a position of the game (the caller goes back to it)."""
        with self.db.read() as session:
            row = repository.get_game(session, game_id)
            state = positions.current_state(session, row, self.cache)
            viewer = play.viewing_seat(row, actor, seat)
            if at_ply is not None and not 0 <= at_ply <= row.ply:
                raise Conflict(f"ply {at_ply} is not in game {game_id}; accepted: 0 to {row.ply}")
            # The game's end as the server knows it (a resignation, a timeout: the position cannot tell).
            ending = views.describe(row, state.view(viewer)) if row.status == GameStatus.FINISHED else None
            return Position(state, viewer, row.version, row.ply, row.status == GameStatus.ACTIVE, ending)

    def _out(self, session: Session, row: GameRow, actor: Actor, seat: int | None,
             at_ply: int | None = None) -> GameOut:
        state = positions.current_state(session, row, self.cache)
        held = play.seats_held(row, actor)
        viewer = play.viewing_seat(row, actor, seat)
        move_rows = positions.known_moves(session, row, self.cache)
        rule = hints.hint_rule(row, views.position_at(row, state, at_ply), held, at_ply in (None, row.ply))
        return views.game_out(row, state, viewer, held, move_rows, rule.seat is not None, at_ply)

    def _change(self, actor: Actor, game_id: int, seat: int | None, what: str, action: Any) -> GameOut:
        """Run ``action(session)`` on the game in one transaction, then tell everyone concerned."""
        with self.db.write() as session:
            row = action(session)
            self._stage(session, row)
        state = self._state_after(row)
        self._after(row, state, what)
        return self.show(actor, game_id, seat)

    def accept(self, actor: Actor, game_id: int, seat: int | None) -> GameOut:
        return self._change(actor, game_id, None, "accepted",
                            lambda s: play.accept(s, actor, game_id, seat, self.cache))

    def decline(self, actor: Actor, game_id: int) -> GameOut:
        return self._change(actor, game_id, None, "declined", lambda s: play.decline(s, actor, game_id))

    def resign(self, actor: Actor, game_id: int, seat: int | None) -> GameOut:
        return self._change(actor, game_id, seat, "resigned",
                            lambda s: play.resign(s, actor, game_id, seat, self.cache))

    def draw(self, actor: Actor, game_id: int, action: str, seat: int | None) -> GameOut:
        return self._change(actor, game_id, seat, "draw",
                            lambda s: play.draw(s, actor, game_id, action, seat, self.cache))

    def rematch(self, actor: Actor, game_id: int) -> CreatedGameOut:
        """The rematch of a finished game (offered now, or the one offered already, accepted)."""
        with self.db.write() as session:
            created = play.rematch(session, actor, game_id)
            old = repository.get_game(session, game_id)
            self._stage(session, created.row, old)
        row = created.row
        self.cache.put(row, created.state)
        self._after(old, self._state_after(old), "rematch")
        self._after(row, created.state,
                    "created" if created.invitations or row.status == GameStatus.CHALLENGE else "accepted")
        links = {seat: f"{self.settings.public_url}/games/{row.id}?seat_token={token}"
                 for seat, token in created.invitations.items()}
        viewer = Actor(actor.user, actor.seat_tokens + tuple(created.invitations.values()))
        return CreatedGameOut(game=self.show(viewer, row.id), invitations=created.invitations, links=links)

    def undo(self, actor: Actor, game_id: int, action: str, seat: int | None) -> GameOut:
        return self._change(actor, game_id, seat, "undo",
                            lambda s: play.undo(s, actor, game_id, action, seat, self.cache))

    def move(self, actor: Actor, game_id: int, ply: int, text: str, seat: int | None, wait: bool = True) -> GameOut:
        """Make a move. ``wait=False`` (SQLite): raise :class:`~.db.WriterBusy`, having done nothing, rather
        than wait for another transaction's write lock."""
        return self._answer(self._move(actor, game_id, ply, text, seat, wait=wait), actor, game_id, seat)

    def _answer(self, moved: play.Moved, actor: Actor, game_id: int, seat: int | None) -> GameOut:
        if moved.timed_out:
            raise Conflict(f"too late: seat {moved.row.loser} ran out of time and lost game {game_id}")
        # Answered from what the transaction wrote (the hot path: no second read of the game).
        held = play.seats_held(moved.row, actor)
        viewer = play.viewing_seat(moved.row, actor, seat)
        return views.game_out(moved.row, moved.state, viewer, held, moved.moves,
                              hints.hint_rule(moved.row, moved.state, held, True).seat is not None)

    async def move_soon(self, actor: Actor, game_id: int, ply: int, text: str, seat: int | None,
                        shaped: Callable[[GameOut], _T]) -> _T:
        """:meth:`move`, for a request, its answer ``shaped`` (a request's: as its response): on the event
        loop where the database is best written from there and its write lock is free (the loop never waits
        for it: :class:`~.db.WriterBusy`, before anything is done), or (PostgreSQL) where the move is one
        statement (after its game's read, if need be), awaited on the loop (:meth:`_move_on_the_loop`, which
        shapes the answer while the database stores the move); else in the thread pool."""
        if self.db.short_writes_on_the_loop:
            try:
                return shaped(self.move(actor, game_id, ply, text, seat, wait=False))
            except WriterBusy:
                pass
        elif self.db.on_the_loop is not None:
            answer = await self._move_on_the_loop(actor, game_id, ply, text, seat, shaped)
            if answer is not None:
                return answer[0]
        return shaped(await run_in_threadpool(self.move, actor, game_id, ply, text, seat))

    async def _move_on_the_loop(self, actor: Actor, game_id: int, ply: int, text: str, seat: int | None,
                                shaped: Callable[[GameOut], _T]) -> tuple[_T] | None:
        """PostgreSQL: the move outside a transaction (see :func:`~.play.move` with ``lock=False``) on a
        connection of :class:`~.db.LoopConnections`, its statement (and the game's read, where this process
        has not the row its last move wrote) awaited on the event loop (the rules run in SQLAlchemy's
        ``greenlet_spawn``, which hands each statement's wait to the loop), as SQLite's moves run on the
        loop: the thread pool's crossing cost more CPU than the move's statements; the answer, ``shaped``.
        Where the move is decided on the row this process last wrote, its statement is sent and the answer
        built (and shaped) while the database runs it (``defer``): the statement's outcome may be in by
        then, and the loop need not sleep and wake for it (a wake-up, on a busy machine, costs a share of
        the move's CPU time in caches filled again); the answer is used only if the move was stored.
        ``None`` where the move needs more than that (the game changed since it was read, a timeout, the
        end of the game, a position not cached; or no connection free, or one found lost): nothing was
        stored, and :meth:`move` makes it in the thread pool (and tries a lost connection again)."""
        assert self.db.on_the_loop is not None
        answer = None
        try:
            async with self.db.on_the_loop.connection() as connection:
                if connection is None:
                    return None
                moved = await greenlet_spawn(self._move_outside, connection, actor, game_id, ply, text, seat, None,
                                             True)
                if moved is not None and moved.sent is not None:
                    with contextlib.suppress(Exception):  # else built again once stored, raising it then
                        answer = (shaped(self._answer(moved, actor, game_id, seat)),)
                    if not await moved.sent.stored():  # the game changed since this process wrote it
                        answer = None
                        moved = await greenlet_spawn(self._move_outside, connection, actor, game_id, ply, text, seat,
                                                     None, False, False)
        except IntegrityError:  # another move for this ply got in first (another worker)
            self.cache.drop(game_id)
            raise Conflict(f"stale move: another move was made at ply {ply}") from None
        except DBAPIError as error:
            if not error.connection_invalidated:
                raise
            log.warning("a database connection was found closed (%s); trying again in the thread pool",
                        str(error.orig).strip().splitlines()[0] if error.orig else error)
            return None
        if moved is None:
            return None
        self.cache.put(moved.row, moved.state, moved.moves, as_written=True)
        if self._computer_to_move(moved.row) or self.mailer.enabled:  # these write to the database: not here
            await run_in_threadpool(self._after, moved.row, moved.state, "moved")
        else:
            self._after(moved.row, moved.state, "moved")
        return (shaped(self._answer(moved, actor, game_id, seat)),) if answer is None else answer

    def _move(self, actor: Actor | None, game_id: int, ply: int, text: str, seat: int | None,
              version: int | None = None, wait: bool = True) -> play.Moved:
        def attempt() -> play.Moved:
            if self.db.moves_outside_transactions:  # PostgreSQL: one statement (after the read, if need be)
                with self.db.autocommit() as connection:
                    moved = self._move_outside(connection, actor, game_id, ply, text, seat, version)
                if moved is not None:
                    return moved
            elif (known := self._known_row(game_id)) is not None:  # SQLite: no read, where the row is known
                try:
                    with self.db.write_core(wait=wait) as connection:
                        moved = play.move(connection, actor, game_id, ply, text, seat, self.cache, version,
                                          known=known)
                        if moved is None:
                            raise _DecideAgain  # rolled back: nothing of it is stored
                        return moved
                except (_DecideAgain, IntegrityError):  # the game changed since: decided on it as stored
                    pass
            with self.db.write_core(wait=wait) as connection:
                # The live update goes with the game's UPDATE (PostgreSQL), not as a statement of its own.
                locked = play.move(connection, actor, game_id, ply, text, seat, self.cache, version,
                                   announce=self._announce)
                assert locked is not None
                return locked

        try:
            moved = self.db.retry(attempt)
        except IntegrityError:  # another move for this ply got in first (another worker)
            self.cache.drop(game_id)
            raise Conflict(f"stale move: another move was made at ply {ply}") from None
        if not moved.timed_out:
            self.cache.put(moved.row, moved.state, moved.moves, as_written=True)
        self._after(moved.row, moved.state, "timeout" if moved.timed_out else "moved")
        return moved

    def _move_outside(self, connection: AutocommitConnection | AsyncAutocommitConnection, actor: Actor | None,
                      game_id: int, ply: int, text: str, seat: int | None, version: int | None,
                      defer: bool = False, use_known: bool = True) -> play.Moved | None:
        """PostgreSQL: the move outside a transaction (:func:`~.play.move` with ``lock=False``), decided on
        the game's row as this process last wrote it where it has that (one round trip), else as read now
        (two); ``None`` where neither will do (the caller makes it in a transaction that locks the game).
        ``defer``: the statement of a move decided on that row sent and not waited for (:attr:`~.play.Moved.sent`:
        if it says not stored, the caller tries again with ``use_known`` off)."""
        known = self._known_row(game_id) if use_known else None
        moved = None if known is None else \
            play.move(connection, actor, game_id, ply, text, seat, self.cache, version, announce=self._announce,
                      lock=False, quick=self.settings.quick_move_commits, known=known, defer=defer)
        if moved is None:
            moved = play.move(connection, actor, game_id, ply, text, seat, self.cache, version,
                              announce=self._announce, lock=False, quick=self.settings.quick_move_commits)
        return moved

    def _known_row(self, game_id: int) -> GameRow | None:
        """The game's row as this process's last move in it wrote it, for the next move to be decided on
        without reading it (:func:`~.play.move`'s ``known``: on PostgreSQL one round trip, on SQLite no
        SELECT and none of its columns converted); not while e-mail is sent (a notice's address is
        read with the game: a changed address makes no new version of the game)."""
        return None if self.mailer.enabled else self.cache.row_as_written(game_id)

    def record(self, actor: Actor, game_id: int, seat: int | None) -> dict[str, Any]:
        """The record the caller may have: before the end, their seat's own; after it, the moves in full as
        far as the caller may know them (every seat's under perfect information; in a game of hidden
        information the secrets of the seats they hold and of those the rules revealed at the end,
        :meth:`~boardlab.core.game.Game.revealed_at_end`: the referee's full record when that is all of them)."""
        from boardlab import records

        with self.db.read() as session:
            row = repository.get_game(session, game_id)
            state = positions.current_state(session, row, self.cache)
            viewer = play.viewing_seat(row, actor, seat)
            players = [play.seat_name(s) or "open" for s in row.seats]
            started = row.started_at.replace(microsecond=0).isoformat() + "+00:00" if row.started_at else None
            tags = {"server_game": str(row.id), "time_control": play.time_control(row).describe()}
            if row.status == GameStatus.FINISHED:
                assert row.result is not None
                known = set(play.seats_held(row, actor)) | state.game.revealed_at_end(row.result)
                record = records.GameRecord.known_to(state, viewer, known, players=players, seed=row.seed,
                                                     started=started, tags=tags)
                if record.perspective is not None:
                    record.seed = None  # the random seed of a game of hidden information is no one's to see
                record.result, record.termination = row.result, row.termination
                if row.loser is not None:
                    record.tags["loser"] = f"seat {row.loser}"
                record.tags["outcome"] = views.ending(row, [state.seat_label(s.seat) for s in row.seats])
            else:
                record = records.GameRecord.from_view(state.view(viewer), players=players, started=started,
                                                      tags=tags)
                record.finished = None
            if row.finished_at is not None:
                record.finished = row.finished_at.replace(microsecond=0).isoformat() + "+00:00"
            return record.to_dict()

    def status(self) -> ServerStatusOut:
        return ServerStatusOut(rules_ready=dict(self.warmup.ready))

    def _warm_search(self, game_id: str) -> Future[Any] | None:
        if self._closing or self.settings.ai_queue:  # with a queue, ai-workers search the computer's moves
            return None
        return self.ai.submit(ai.choose, ai.Job(game_id, {}, None, [], 0, "level1", 0))

    # -- hints ----------------------------------------------------------------------------------

    def hint_job(self, actor: Actor, game_id: int, seat: int | None,
                 ply: int | None = None) -> tuple[int, int, Future[Any]]:
        """Start the search for a hint (see :mod:`.hints` for who may have one) at the position after
        ``ply`` moves (``None``: now); the seat it is for, that ply, and the search's future."""
        with self.db.read() as session:
            row = repository.get_game(session, game_id)
            if ply is not None and not 0 <= ply <= row.ply:
                raise Conflict(f"ply {ply} is not in game {game_id}; accepted: 0 to {row.ply}")
            held = play.seats_held(row, actor)
            if seat is not None:
                play.viewing_seat(row, actor, seat)  # 403 unless the caller holds the seat asked for
            state = positions.current_state(session, row, self.cache)
            at = row.ply if ply is None else ply
            rule = hints.hint_rule(row, views.position_at(row, state, at), held, at == row.ply)
            if rule.seat is None:
                raise NotAllowed(rule.why_not)
            if row.status == GameStatus.ACTIVE and seat is not None and seat != rule.seat:
                raise NotAllowed(f"hints are for the seat to move, seat {rule.seat}, not seat {seat}")
            # The worker replays the moves and searches only ``state.view(rule.seat)``.
            job = ai.Job(row.game, dict(row.options), row.start, repository.move_texts(session, row.id)[:at], rule.seat,
                         ai.HINT_AGENT, row.seed + at)
            return rule.seat, at, self.ai.submit(ai.analyse, job)

    @staticmethod
    def hint_out(seat: int, ply: int, found: dict[str, Any]) -> HintOut:
        return HintOut(seat=seat, ply=ply, candidates=found["candidates"], line=found["line"])

    # -- what follows a change ------------------------------------------------------------------

    def _channels(self, row: GameRow) -> list[str]:
        users = {s.user_id for s in row.seats if s.user_id is not None}
        return [f"game:{row.id}", *(f"user:{u}" for u in sorted(users)), "lobby"]

    def _stage(self, session: Session | Connection, *rows: GameRow) -> None:
        """Announce the change of ``rows`` with the transaction (one NOTIFY on PostgreSQL, whatever changed)."""
        channels = list(dict.fromkeys(channel for row in rows for channel in self._channels(row)))
        self.notifier.stage(session, channels)

    def _announce(self, row: GameRow) -> str | None:
        return self.notifier.payload(self._channels(row))

    def _state_after(self, row: GameRow) -> State:
        with self.db.read() as session:
            return positions.current_state(session, row, self.cache)

    def _after(self, row: GameRow, state: State, what: str) -> None:
        self.notifier.committed(self._channels(row))
        if self.mailer.enabled:
            try:
                self._mail(row, state, what)
            except Exception:  # a notice must never undo a move
                log.exception("could not write the notice for game %s", row.id)
        if self._computer_to_move(row):
            self.request_ai(row.id)

    @staticmethod
    def _computer_to_move(row: GameRow) -> bool:
        return row.status == GameStatus.ACTIVE and any(s.seat == row.to_move and s.kind == "ai" for s in row.seats)

    def _mail(self, row: GameRow, state: State, what: str) -> None:
        from boardlab.server.notices import notices

        for to, subject, body in notices(row, state, what, self.settings.public_url):
            self.mailer.send(to, subject, body)

    # -- the computer's turns -------------------------------------------------------------------

    def request_ai(self, game_id: int) -> bool:
        """Search the computer's move in game ``game_id`` if it is the computer's turn and no worker has
        taken the turn (a lease row, so that one worker plays it even with several)."""
        at = clocks.now()
        with self.db.write() as session:
            row = repository.find_game(session, game_id)
            if row is None or row.status != GameStatus.ACTIVE:
                return False
            seat = next((s for s in row.seats if s.seat == row.to_move and s.kind == "ai"), None)
            if seat is None or seat.agent is None:
                return False
            if not repository.take_computer_turn(session, row, at, at + AI_LEASE):
                return False
            if self.settings.ai_queue:  # for a `boardlab ai-worker` to take (see boardlab.server.jobs)
                jobs.queue(session.connection(), game_id, row.version, row.ply, seat.seat, seat.agent,
                           row.seed + row.ply, at)
                return True
            job = ai.Job(row.game, dict(row.options), row.start, repository.move_texts(session, game_id), seat.seat,
                         seat.agent, row.seed + row.ply)
            version, ply = row.version, row.ply
        self._searching.add(game_id)
        future = self.ai.submit(ai.choose, job)
        future.add_done_callback(lambda done: self._ai_done(game_id, version, ply, done))
        return True

    def _ai_done(self, game_id: int, version: int, ply: int, done: Future[str]) -> None:
        if self._closing:
            return
        with contextlib.suppress(RuntimeError):  # the server is stopping
            self._io.submit(self._ai_answer, game_id, version, ply, done)

    def _ai_answer(self, game_id: int, version: int, ply: int, done: Future[str]) -> None:
        try:
            text = done.result()
        except Exception as error:
            if isinstance(error, (BrokenProcessPool, CancelledError)) and self.ai.stopped:
                # Lost with its pool, stopped by this server: the turn is handed back at once (here, or by
                # close() meanwhile), so that the next server takes it without waiting out the lease. A
                # worker killed while the pool runs falls to the lease, as a retry's pause.
                self._hand_back(game_id)
                return
            self._searching.discard(game_id)
            log.exception("the computer's search failed in game %s", game_id)
            return  # the lease runs out and the sweep tries again
        self._searching.discard(game_id)
        try:
            self._move(None, game_id, ply, text, None, version)
        except Conflict:
            pass  # the game moved on (a takeback, a resignation, a timeout): the answer is stale
        except Exception:
            log.exception("the computer's move %r failed in game %s", text, game_id)

    def _hand_back(self, game_id: int) -> None:
        try:
            with self.db.write() as session:
                repository.hand_back_computer_turns(session, [game_id])
        except Exception:
            log.exception("could not hand back the computer's turn in game %s", game_id)
            return  # close() tries again, or the lease runs out
        self._searching.discard(game_id)

    def move_for_computer(self, game_id: int, ply: int, text: str, version: int) -> None:
        """The computer's move ``text`` at ``ply``, searched at the game's ``version`` (by a ``boardlab
        ai-worker``): :class:`~.errors.Conflict` if the game has changed since (the answer is stale)."""
        self._move(None, game_id, ply, text, None, version)

    def computer_turn(self, game_id: int) -> ComputerTurnOut:
        """Whether the computer is to move in the game, and where its search stands among the queued ones
        (``--ai-queue``): 0 while a worker searches it, n when n-1 wait ahead of it."""
        with self.db.read() as session:
            row = repository.get_game(session, game_id)
            thinking = row.status == GameStatus.ACTIVE and any(s.seat == row.to_move and s.kind == "ai"
                                                               for s in row.seats)
            place = jobs.queue_place(session.connection(), game_id, clocks.now()) \
                if thinking and self.settings.ai_queue else None
        return ComputerTurnOut(thinking=thinking, queue_place=place)

    # -- the sweep: timeouts and computer turns, with nobody connected ---------------------------

    def sweep(self) -> int:
        """End the games whose mover's time ran out, and start the computer's turns nobody has taken
        (after a restart, or a search that died). Returns how many games it ended."""
        at = clocks.now()
        with self.db.read() as session:
            due = repository.due_for_timeout(session, at)
            waiting = repository.computer_turns_waiting(session, at)
        ended = 0
        for game_id, version in due:
            ended += self._time_out(game_id, version, at)
        for game_id in waiting:
            self.request_ai(game_id)
        if self.settings.guest_days and at >= self._next_expiry:
            self._next_expiry = at + timedelta(minutes=10)
            with self.db.write() as session:
                gone = lists.expire_guest_games(session, at - timedelta(days=self.settings.guest_days))
            if gone:
                log.info("deleted %d abandoned guest game(s)", gone)
        return ended

    def _time_out(self, game_id: int, version: int, at: Any) -> int:
        with self.db.write() as session:
            row = repository.lock_game(session, game_id)
            # The conditional part: finished once, by whichever worker sees this version first.
            if row.status != GameStatus.ACTIVE or row.version != version or row.deadline is None or row.deadline > at:
                return 0
            play.timeout(row, at, positions.current_state(session, row, self.cache))
            ratings.settle(session.connection(), row, at)
            self._stage(session, row)
        self._after(row, self._state_after(row), "timeout")
        return 1
