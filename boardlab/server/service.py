"""The server's work, one method per request: a transaction around the rules in :mod:`.play`, then
what follows a change (the live-position cache, live updates, e-mail, the computer's turn).

Routes are thin wrappers over these methods; the background sweep calls :meth:`GameService.sweep`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy import Connection, exists, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased
from starlette.concurrency import run_in_threadpool

from boardlab import records
from boardlab.core.state import State
from boardlab.server import accounts, ai, clocks, hints, play, views
from boardlab.server.config import Settings
from boardlab.server.db import Database
from boardlab.server.errors import Conflict, Forbidden, Unauthorised
from boardlab.server.events import Broker, LocalNotifier, PostgresNotifier
from boardlab.server.mail import Mailer
from boardlab.server.models import Game as GameRow
from boardlab.server.models import Seat, User
from boardlab.server.play import Actor
from boardlab.server.ratelimit import RateLimit
from boardlab.server.schemas import (
    CreatedGameOut,
    CreateGameRequest,
    GameOut,
    GameSummary,
    HintOut,
    LobbyOut,
    LoginRequest,
    RegisterRequest,
    TokenOut,
)

log = logging.getLogger("boardlab.server")
# A computer turn not answered by then is searched again (after a crash; a clean stop hands its turns
# back at once). A search that outlives it is harmless: the version check keeps one answer.
AI_LEASE = timedelta(seconds=30)
# A token checked against the database is trusted this long without checking again (seconds): a
# logout takes effect at once in the process that handles it, and within this time in the others.
# Each token's time is drawn between half and all of it, so that tokens first seen together (a
# crowd arriving at once) do not all fall due, and queue for the database, in the same moment.
TOKEN_MEMORY = 5.0
LIST_LIMIT = 50
PASSWORD_THREADS = max(1, (os.cpu_count() or 2) // 2)
SLOW_WORK_NICENESS = 10  # added to the server's own
_T = TypeVar("_T")


def _yield_the_cpu() -> None:
    """Lower this thread's scheduling priority (Linux: a thread's own nice value), so that the cores go to
    the event loop's requests first and to slow work (hashing, replaying) when they are idle."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), SLOW_WORK_NICENESS)


class SlowPool:
    """Threads of their own for one kind of slow work, started when first needed (and again after a
    shutdown: an app's lifespan may start more than once, as tests' clients start it), at a lower
    priority than the requests' threads."""

    def __init__(self, threads: int, name: str) -> None:
        self.threads, self.name = threads, name
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None

    def submit(self, work: Callable[..., _T], *args: Any) -> Future[_T]:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix=self.name,
                                                    initializer=_yield_the_cpu)
            return self._executor.submit(work, *args)

    def shutdown(self) -> None:
        with self._lock:
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None


class GameService:
    def __init__(self, settings: Settings, db: Database | None = None) -> None:
        self.settings = settings
        self.db = db or Database(settings.db_url)
        self.cache = play.StateCache()
        self.broker = Broker()
        self.notifier: LocalNotifier | PostgresNotifier = (
            LocalNotifier(self.broker) if self.db.is_sqlite else PostgresNotifier(self.broker, settings.db_url))
        self.ai = ai.AIPool(settings.ai_workers)
        self.hint_limit = RateLimit("hint requests", settings.hint_burst, settings.hints_per_minute)
        self.mailer = Mailer(settings.smtp_address, settings.mail_from)
        self._io = ThreadPoolExecutor(2, thread_name_prefix="boardlab-ai-moves")
        # Slow work of its own: argon2 (which leaves the GIL, but takes a core) on half the cores at most;
        # uploaded records' replays (Python, which holds the GIL) one at a time.
        self._passwords = SlowPool(PASSWORD_THREADS, "boardlab-passwords")
        self._uploads = SlowPool(1, "boardlab-uploads")
        self._tokens: dict[str, tuple[float, User]] = {}  # token -> (remember until, user)
        self._searching: set[int] = set()  # games whose computer turn this process is searching
        self._closing = False

    def close(self) -> None:
        self._closing = True
        if self._searching:  # hand the turns back, so that the next server to start takes them at once
            try:
                with self.db.write() as session:
                    session.execute(update(GameRow).where(GameRow.id.in_(list(self._searching)))
                                    .values(ai_lease_until=None).execution_options(synchronize_session=False))
            except Exception:
                log.exception("could not hand back the computer's turns")
        self.notifier.stop()
        self.ai.shutdown()
        self._io.shutdown(wait=False, cancel_futures=True)
        self._passwords.shutdown()
        self._uploads.shutdown()
        self.mailer.shutdown()
        self.db.dispose()

    # -- who is asking --------------------------------------------------------------------------

    def actor(self, token: str | None, seat_tokens: tuple[str, ...] = ()) -> Actor:
        found = self.known_actor(token, seat_tokens)
        if found is not None:
            return found
        assert token is not None
        with self.db.read() as session:
            user = accounts.user_for_token(session, token)
        if user is None:
            raise Unauthorised("the token is not valid (expired, logged out or mistyped); log in again")
        self._tokens[token] = (time.monotonic() + TOKEN_MEMORY * (0.5 + random.random() / 2), user)
        if len(self._tokens) > 10_000:
            self._tokens.clear()
        return Actor(user=user, seat_tokens=seat_tokens)

    def known_actor(self, token: str | None, seat_tokens: tuple[str, ...] = ()) -> Actor | None:
        """The caller, if that needs no database lookup (no token, or one checked a moment ago)."""
        if not token:
            return Actor(user=None, seat_tokens=seat_tokens)
        memory = self._tokens.get(token)
        if memory is None or memory[0] < time.monotonic():
            return None
        return Actor(user=memory[1], seat_tokens=seat_tokens)

    # -- accounts -------------------------------------------------------------------------------

    # Registration and login wait (on the event loop, holding no thread of the request pool) for argon2 in
    # the passwords' own threads, and do their short transactions in the request pool's, so that a crowd
    # registering at once neither holds the database's write lock nor starves other requests of threads.

    async def _slow(self, pool: SlowPool, work: Callable[..., _T], *args: Any) -> _T:
        return await asyncio.wrap_future(pool.submit(work, *args))

    async def register(self, request: RegisterRequest) -> TokenOut:
        accounts.check_name(request.name)
        password_hash = await self._slow(self._passwords, accounts.hash_password, request.password)
        return await run_in_threadpool(self._register, request, password_hash)

    def _register(self, request: RegisterRequest, password_hash: str) -> TokenOut:
        try:
            with self.db.write() as session:
                user = accounts.register(session, request.name, password_hash, request.email)
                token = accounts.issue_token(session, user, "session")
        except IntegrityError:
            raise Conflict(f"the name {request.name!r} is taken") from None
        return TokenOut(user=user.name, token=token, kind="session")

    async def login(self, request: LoginRequest, address: str) -> TokenOut:
        """Count the attempt (429 beyond the limit), check the password, then forgive the attempt and issue
        a token if it was right: of any number of guesses at once, at most the limit are checked."""
        keys = [f"name:{request.name.lower()}", f"address:{address}"]
        user, stored, attempt = await run_in_threadpool(self._claim_login, keys, request.name)
        right = await self._slow(self._passwords, accounts.password_matches, stored, request.password)
        if not right or user is None:
            raise Unauthorised("wrong name or password")
        return await run_in_threadpool(self._finish_login, user, attempt, request.kind)

    def _claim_login(self, keys: list[str], name: str) -> tuple[User | None, str | None, list[int]]:
        with self.db.write() as session:
            attempt = accounts.claim_attempt(session, keys)
            user, stored = accounts.stored_hash(session, name)
        return user, stored, attempt

    def _finish_login(self, user: User, attempt: list[int], kind: str) -> TokenOut:
        with self.db.write() as session:
            accounts.forgive(session, attempt)
            token = accounts.issue_token(session, user, kind)
        return TokenOut(user=user.name, token=token, kind=kind)

    def logout(self, token: str) -> None:
        self._tokens.pop(token, None)
        with self.db.write() as session:
            accounts.revoke(session, token)

    # -- games ----------------------------------------------------------------------------------

    async def read_upload(self, request: CreateGameRequest) -> play.Upload | None:
        """The request's record read and replayed (in the uploads' own thread, one at a time: the replay is
        slow, and must hold neither the write lock, the event loop nor the request pool's threads)."""
        if request.record is None:
            return None
        return await self._slow(self._uploads, play.read_upload, request.record)

    def create(self, actor: Actor, request: CreateGameRequest, upload: play.Upload | None = None) -> CreatedGameOut:
        """A new game (``upload``: its record as :meth:`read_upload` read it; read here, before the
        transaction, if not given)."""
        if request.record is not None and upload is None:
            upload = play.read_upload(request.record)
        with self.db.write() as session:
            created = play.create(session, actor, request, upload)
            self._stage(session, created.row)
        row = created.row
        self.cache.put(row, created.state)
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
            row = play.get_game(session, game_id)
            if at_ply is not None and not 0 <= at_ply <= row.ply:
                raise Conflict(f"ply {at_ply} is not in game {game_id}; accepted: 0 to {row.ply}")
            return self._out(session, row, actor, seat, at_ply)

    def _out(self, session: Session, row: GameRow, actor: Actor, seat: int | None,
             at_ply: int | None = None) -> GameOut:
        state = play.current_state(session, row, self.cache)
        held = play.seats_held(row, actor)
        viewer = play.viewing_seat(row, actor, seat)
        move_rows = play.known_moves(session, row, self.cache)
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
        return self._change(actor, game_id, seat, "resigned", lambda s: play.resign(s, actor, game_id, seat))

    def draw(self, actor: Actor, game_id: int, action: str, seat: int | None) -> GameOut:
        return self._change(actor, game_id, seat, "draw", lambda s: play.draw(s, actor, game_id, action, seat))

    def undo(self, actor: Actor, game_id: int, action: str, seat: int | None) -> GameOut:
        return self._change(actor, game_id, seat, "undo",
                            lambda s: play.undo(s, actor, game_id, action, seat, self.cache))

    def move(self, actor: Actor, game_id: int, ply: int, text: str, seat: int | None, wait: bool = True) -> GameOut:
        """Make a move. ``wait=False`` (SQLite): raise :class:`~.db.WriterBusy`, having done nothing, rather
        than wait for another transaction's write lock."""
        moved = self._move(actor, game_id, ply, text, seat, wait=wait)
        if moved.timed_out:
            raise Conflict(f"too late: seat {moved.row.loser} ran out of time and lost game {game_id}")
        # Answered from what the transaction wrote (the hot path: no second read of the game).
        held = play.seats_held(moved.row, actor)
        viewer = play.viewing_seat(moved.row, actor, seat)
        return views.game_out(moved.row, moved.state, viewer, held, moved.moves,
                              hints.hint_rule(moved.row, moved.state, held, True).seat is not None)

    def _move(self, actor: Actor | None, game_id: int, ply: int, text: str, seat: int | None,
              version: int | None = None, wait: bool = True) -> play.Moved:
        try:
            with self.db.write_core(wait=wait) as connection:
                moved = play.move(connection, actor, game_id, ply, text, seat, self.cache, version)
                self._stage(connection, moved.row)
        except IntegrityError:  # another move for this ply got in first (another worker)
            self.cache.drop(game_id)
            raise Conflict(f"stale move: another move was made at ply {ply}") from None
        if not moved.timed_out:
            self.cache.put(moved.row, moved.state, moved.moves)
        self._after(moved.row, moved.state, "timeout" if moved.timed_out else "moved")
        return moved

    def record(self, actor: Actor, game_id: int, seat: int | None) -> dict[str, Any]:
        """The record the caller may have: before the end, their seat's own; after it, the moves in full as
        far as the caller may know them (every seat's under perfect information; in a game of hidden
        information the secrets of the seats they hold and of those the rules revealed at the end,
        :meth:`~boardlab.core.game.Game.revealed_at_end`: the referee's full record when that is all of them)."""
        with self.db.read() as session:
            row = play.get_game(session, game_id)
            state = play.current_state(session, row, self.cache)
            viewer = play.viewing_seat(row, actor, seat)
            players = [play.seat_name(s) or "open" for s in row.seats]
            started = row.started_at.replace(microsecond=0).isoformat() + "+00:00" if row.started_at else None
            tags = {"server_game": str(row.id), "time_control": play.time_control(row).describe()}
            if row.status == "finished":
                assert row.result is not None
                known = set(play.seats_held(row, actor)) | state.game.revealed_at_end(row.result)
                record = records.GameRecord.known_to(state, viewer, known, players=players, seed=row.seed,
                                                     started=started, tags=tags)
                if record.perspective is not None:
                    record.seed = None  # the random seed of a game of hidden information is no one's to see
                record.result, record.termination = row.result, row.termination
                if row.loser is not None:
                    record.tags["loser"] = f"seat {row.loser}"
            else:
                record = records.GameRecord.from_view(state.view(viewer), players=players, started=started,
                                                      tags=tags)
                record.finished = None
            if row.finished_at is not None:
                record.finished = row.finished_at.replace(microsecond=0).isoformat() + "+00:00"
            return record.to_dict()

    # -- lists ----------------------------------------------------------------------------------

    def lobby(self, actor: Actor) -> LobbyOut:
        with self.db.read() as session:
            open_seat = exists().where(Seat.game_id == GameRow.id, Seat.kind == "open", Seat.accepted.is_(False))
            challenges = session.scalars(select(GameRow).where(GameRow.status == "challenge", open_seat)
                                         .order_by(GameRow.id.desc()).limit(LIST_LIMIT)).all()
            playing = session.scalars(select(GameRow).where(GameRow.status == "active")
                                      .order_by(GameRow.id.desc()).limit(LIST_LIMIT)).all()
            return LobbyOut(open_challenges=[self._summary(r, actor) for r in challenges],
                            my_games=self._my_games(session, actor),
                            watch=[self._summary(r, actor) for r in playing])

    def my_games(self, actor: Actor) -> list[GameSummary]:
        if actor.user is None:
            raise Unauthorised("log in to list your games")
        with self.db.read() as session:
            return self._my_games(session, actor)

    def _my_games(self, session: Session, actor: Actor) -> list[GameSummary]:
        if actor.user is None:
            return []
        seated = exists().where(Seat.game_id == GameRow.id, Seat.user_id == actor.user.id)
        rows = session.scalars(select(GameRow).where(seated).order_by(GameRow.id.desc()).limit(200)).all()
        games = [self._summary(r, actor) for r in rows]
        finished = [g for g in games if g.status not in ("active", "challenge")][:LIST_LIMIT]
        current = [g for g in games if g.status in ("active", "challenge")]
        current.sort(key=lambda g: (not (g.your_turn or g.invited), g.status != "active", -g.id))
        return current + finished

    @staticmethod
    def _summary(row: GameRow, actor: Actor) -> GameSummary:
        held = play.seats_held(row, actor)
        invited = actor.user is not None and row.status == "challenge" and any(
            s.kind == "user" and s.user_id == actor.user.id and not s.accepted for s in row.seats)
        return views.summary(row, held, invited)

    # -- hints ----------------------------------------------------------------------------------

    def hint_job(self, actor: Actor, game_id: int, seat: int | None,
                 ply: int | None = None) -> tuple[int, int, Future[Any]]:
        """Start the search for a hint (see :mod:`.hints` for who may have one) at the position after
        ``ply`` moves (``None``: now); the seat it is for, that ply, and the search's future."""
        with self.db.read() as session:
            row = play.get_game(session, game_id)
            if ply is not None and not 0 <= ply <= row.ply:
                raise Conflict(f"ply {ply} is not in game {game_id}; accepted: 0 to {row.ply}")
            held = play.seats_held(row, actor)
            if seat is not None:
                play.viewing_seat(row, actor, seat)  # 403 unless the caller holds the seat asked for
            state = play.current_state(session, row, self.cache)
            at = row.ply if ply is None else ply
            rule = hints.hint_rule(row, views.position_at(row, state, at), held, at == row.ply)
            if rule.seat is None:
                raise Forbidden(rule.why_not)
            if row.status == "active" and seat is not None and seat != rule.seat:
                raise Forbidden(f"hints are for the seat to move, seat {rule.seat}, not seat {seat}")
            # The worker replays the moves and searches only ``state.view(rule.seat)``.
            job = ai.Job(row.game, dict(row.options), row.start, play.move_texts(session, row.id)[:at], rule.seat,
                         ai.HINT_AGENT, row.seed + at)
            return rule.seat, at, self.ai.submit(ai.analyse, job)

    @staticmethod
    def hint_out(seat: int, ply: int, found: dict[str, Any]) -> HintOut:
        return HintOut(seat=seat, ply=ply, candidates=found["candidates"], line=found["line"])

    # -- what follows a change ------------------------------------------------------------------

    def _channels(self, row: GameRow) -> list[str]:
        users = {s.user_id for s in row.seats if s.user_id is not None}
        return [f"game:{row.id}", *(f"user:{u}" for u in sorted(users)), "lobby"]

    def _stage(self, session: Session | Connection, row: GameRow) -> None:
        self.notifier.stage(session, self._channels(row))

    def _state_after(self, row: GameRow) -> State:
        with self.db.read() as session:
            return play.current_state(session, row, self.cache)

    def _after(self, row: GameRow, state: State, what: str) -> None:
        self.notifier.committed(self._channels(row))
        if self.mailer.enabled:
            try:
                self._mail(row, state, what)
            except Exception:  # a notice must never undo a move
                log.exception("could not write the notice for game %s", row.id)
        if row.status == "active" and any(s.seat == row.to_move and s.kind == "ai" for s in row.seats):
            self.request_ai(row.id)

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
            row = session.get(GameRow, game_id)
            if row is None or row.status != "active":
                return False
            seat = next((s for s in row.seats if s.seat == row.to_move and s.kind == "ai"), None)
            if seat is None or seat.agent is None:
                return False
            taken = session.execute(
                update(GameRow).where(GameRow.id == game_id, GameRow.version == row.version,
                                      GameRow.status == "active",
                                      or_(GameRow.ai_lease_until.is_(None), GameRow.ai_lease_until < at))
                .values(ai_lease_until=at + AI_LEASE).execution_options(synchronize_session=False))
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                return False
            job = ai.Job(row.game, dict(row.options), row.start, play.move_texts(session, game_id), seat.seat,
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
        self._searching.discard(game_id)
        try:
            text = done.result()
        except Exception:
            log.exception("the computer's search failed in game %s", game_id)
            return  # the lease runs out and the sweep tries again
        try:
            self._move(None, game_id, ply, text, None, version)
        except Conflict:
            pass  # the game moved on (a takeback, a resignation, a timeout): the answer is stale
        except Exception:
            log.exception("the computer's move %r failed in game %s", text, game_id)

    # -- the sweep: timeouts and computer turns, with nobody connected ---------------------------

    def sweep(self) -> int:
        """End the games whose mover's time ran out, and start the computer's turns nobody has taken
        (after a restart, or a search that died). Returns how many games it ended."""
        at = clocks.now()
        with self.db.read() as session:
            due = play.due_for_timeout(session, at)
            mover = aliased(Seat)
            waiting = list(session.scalars(
                select(GameRow.id).join(mover, (mover.game_id == GameRow.id) & (mover.seat == GameRow.to_move))
                .where(GameRow.status == "active", mover.kind == "ai",
                       or_(GameRow.ai_lease_until.is_(None), GameRow.ai_lease_until < at)).limit(100)))
        ended = 0
        for game_id, version in due:
            ended += self._time_out(game_id, version, at)
        for game_id in waiting:
            self.request_ai(game_id)
        return ended

    def _time_out(self, game_id: int, version: int, at: Any) -> int:
        with self.db.write() as session:
            row = play.lock_game(session, game_id)
            # The conditional part: finished once, by whichever worker sees this version first.
            if row.status != "active" or row.version != version or row.deadline is None or row.deadline > at:
                return 0
            play.timeout(row, at)
            self._stage(session, row)
        self._after(row, self._state_after(row), "timeout")
        return 1
