"""The rules of the server, as plain functions on a database session: challenges, moves, resignation,
draws, takebacks, timeouts. Routes call these through :mod:`boardlab.server.service`, which owns
the transactions; nothing here commits, and what is read and written goes through
:mod:`.repository` (the SQL) and :mod:`.positions` (the replayed, cached positions). A refusal is one
of :mod:`.errors`' domain errors, never an HTTP status.

Every decision about a game is made with its row locked (``FOR UPDATE`` on PostgreSQL; SQLite's
single writer) and checked against what the database holds, never against a cache.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from boardlab.errors import BoardlabError, RecordError
from boardlab.outcome import outcome_sentence
from boardlab.server import clocks, ratings, repository, warmup
from boardlab.server.accounts import token_hash
from boardlab.server.clocks import TimeControl
from boardlab.server.db import AsyncAutocommitConnection, AutocommitConnection, CommitLost
from boardlab.server.errors import Conflict, NotAllowed, NotFound, NotLoggedIn
from boardlab.server.models import Game as GameRow
from boardlab.server.models import Seat, User
from boardlab.server.positions import StateCache, current_state, game_of, known_moves, new_rules, replay
from boardlab.server.repository import (
    MoveInfo,
    known_game,
    lock_game,
    lock_game_core,
    send_move_alone,
    write_back,
    write_move_alone,
)
from boardlab.server.schemas import CreateGameRequest, SeatRequest, TimeRequest
from boardlab.server.status import GameStatus

if TYPE_CHECKING:  # at run time these come with the first game loaded (numba): the server starts without them
    from boardlab import records
    from boardlab.core.game import Game
    from boardlab.core.state import State

# records.RULES_TERMINATION (records imports the kernels' module: not at the server's start)
RESIGNATION, TIMEOUT, AGREEMENT, RULES = "resignation", "timeout", "agreement", "rules"


@dataclass(frozen=True)
class Actor:
    """Who is asking: a logged-in user, a guest holding seat tokens, both, or nobody.

    Several seat tokens: one browser holding several guest seats of a game (a hot-seat table, an
    analysis board) asks for all of them at once; it then holds every seat whose token it gives.
    """

    user: User | None = None
    seat_tokens: tuple[str, ...] = ()


def time_control(row: GameRow) -> TimeControl:
    return TimeControl(row.time_control, row.days_per_move, row.base_seconds, row.increment_seconds)


# -- who holds which seat ---------------------------------------------------------------------------


def seats_held(row: GameRow, actor: Actor) -> list[int]:
    held = []
    hashed = [token_hash(token) for token in actor.seat_tokens]
    for seat in row.seats:
        by_user = actor.user is not None and seat.kind in ("user", "open") and seat.accepted \
            and seat.user_id == actor.user.id
        by_token = seat.kind == "guest" and seat.token_hash is not None \
            and any(secrets.compare_digest(seat.token_hash, h) for h in hashed)
        if by_user or by_token:
            held.append(seat.seat)
    return held


def viewing_seat(row: GameRow, actor: Actor, requested: int | None) -> int | None:
    """The seat whose view the caller gets: the one asked for (if held), else theirs, else a spectator's."""
    held = seats_held(row, actor)
    if requested is not None:
        if requested not in held:
            raise NotAllowed(f"you do not hold seat {requested} of game {row.id}"
                            + (f"; you hold {', '.join(map(str, held))}" if held else ""))
        return requested
    if not held:
        return None
    return row.to_move if row.to_move in held else held[0]


def acting_seat(row: GameRow, actor: Actor, requested: int | None, what: str) -> int:
    """The seat that does ``what`` for the caller (one they hold)."""
    held = seats_held(row, actor)
    if not held:
        if actor.user is None and not actor.seat_tokens:
            raise NotLoggedIn(f"log in or give a seat token to {what}")
        raise NotAllowed(f"you hold no seat in game {row.id}, so you cannot {what}")
    if requested is not None:
        if requested not in held:
            raise NotAllowed(f"you do not hold seat {requested} of game {row.id}")
        return requested
    if len(held) > 1:
        return row.to_move if row.to_move in held else held[0]
    return held[0]


def seat_name(seat: Seat) -> str | None:
    if seat.kind == "ai":
        return seat.agent
    if seat.kind == "guest":
        return "guest"
    return seat.user.name if seat.user is not None else None


# -- challenges -------------------------------------------------------------------------------------


@dataclass
class Created:
    row: GameRow
    invitations: dict[int, str]
    state: State


@dataclass(frozen=True)
class Upload:
    """An uploaded record, read and replayed before the transaction that stores it (the replay is the
    slow part: it must not hold the database's write lock), and who made each of its moves."""

    record: records.GameRecord
    state: State
    movers: list[int]


def read_upload(data: dict[str, Any]) -> Upload:
    """Check and replay an uploaded record, once; :class:`RecordError` if it fails."""
    from boardlab import records

    if isinstance(data, dict) and isinstance(data.get("game"), str):
        warmup.prepare(data["game"])
    record, state = records.read(data)
    if state is None:
        raise RecordError(f"this is {record.perspective}'s record, which cannot be replayed; upload the "
                          f"referee's full record (downloaded after the game's end)")
    return Upload(record, state, records.movers(state))


def create(session: Session, actor: Actor, request: CreateGameRequest, upload: Upload | None = None) -> Created:
    """A new challenge (or game, when every seat is already taken), or a game continued from a record
    (``upload``: the request's record, read by :func:`read_upload` before the transaction)."""
    if request.record is not None and upload is None:
        upload = read_upload(request.record)
    record = upload.record if upload is not None else None
    if record is not None:
        game_id, variant, options = record.game, None, dict(record.options)
    else:
        if request.game is None:
            raise BoardlabError("say which game: 'game' (see /api/catalog), or a 'record' to continue")
        game_id, variant, options = request.game, request.variant, dict(request.options)
    warmup.prepare(game_id)
    game = new_rules(game_id, variant, options)
    state = upload.state if upload is not None else game.new_game()
    specs = request.seats or [SeatRequest(kind="me"), SeatRequest(kind="ai")]
    if actor.user is None and not request.seats:
        specs = [SeatRequest(kind="guest"), SeatRequest(kind="ai")]
    if len(specs) != game.num_seats:
        raise BoardlabError(f"{len(specs)} seat(s) given; {game.id} with these options has {game.num_seats} seats")
    people = sum(spec.kind != "ai" for spec in specs)
    control = time_control_for(request, people)
    if request.rated:
        why_not = ratings.why_unrated([spec.kind for spec in specs], game.num_seats)
        if why_not:
            raise BoardlabError(f"this game cannot be rated: {why_not}; leave out 'rated' for a casual game")
    at = clocks.now()
    row = GameRow(game=game.id, variant=variant, options=dict(game.options), rules_version=game.rules_version,
                  start=record.start if record is not None else None,
                  seed=secrets.randbits(31), status=GameStatus.CHALLENGE, ply=0, to_move=None, created_at=at,
                  created_by=actor.user.id if actor.user else None, version=1, undos=0,
                  time_control=control.kind, days_per_move=control.days_per_move,
                  base_seconds=control.base_seconds, increment_seconds=control.increment_seconds,
                  draw_offers=[], rated=request.rated,
                  # Listed among the games to watch only where two people play (not against the computer,
                  # not a record opened to analyse), unless the creator asked for it to stay private.
                  private=request.private or record is not None or people < 2)
    invitations = {}
    for number, spec in enumerate(specs):
        seat, token = _seat(session, actor, game, number, spec)
        row.seats.append(seat)
        if token:
            invitations[number] = token
    if not any(seat.kind != "ai" for seat in row.seats):
        raise BoardlabError("at least one seat must be for a person (me, user, open or guest)")
    if row.rated and len({seat.user_id for seat in row.seats if seat.user_id is not None}) < \
            sum(seat.kind == "user" for seat in row.seats):
        raise BoardlabError("this game cannot be rated: one person holds two seats; leave out 'rated'")
    repository.add_game(session, row)
    if upload is not None:
        repository.add_moves(session, [{"game_id": row.id, "ply": ply, "text": move.text, "seat": seat, "at": at,
                                        "seconds": 0} for ply, (move, seat) in
                                       enumerate(zip(state.history(), upload.movers, strict=True))])
    if record is not None:
        row.ply = len(record.moves)
    if all(seat.accepted for seat in row.seats):
        start(row, state, at)
        ratings.stamp(session.connection(), row)
        if record is not None and record.result is not None and not state.is_over:
            lost = record.result.index(0) if record.termination in (RESIGNATION, TIMEOUT) else None
            finish(row, record.result, record.termination or RULES, lost, at, state)
    return Created(row, invitations, state)


def time_control_for(request: CreateGameRequest, people: int) -> TimeControl:
    """The time control asked for; by default none for a game with one person in it (against the
    computer: nobody waits for them), three days a move for games between people."""
    time = request.time
    if time is None:
        return TimeControl.untimed() if people < 2 else TimeControl.correspondence(3)
    if time.kind == "untimed":
        return TimeControl.untimed()
    if time.kind == "correspondence":
        return TimeControl.correspondence(time.days)
    return TimeControl.live(time.minutes, time.increment)


def _seat(session: Session, actor: Actor, game: Game, number: int, spec: SeatRequest) -> tuple[Seat, str | None]:
    if spec.kind == "me":
        if actor.user is None:
            raise NotLoggedIn("log in to take a seat as yourself (or ask for a guest seat)")
        return Seat(seat=number, kind="user", user_id=actor.user.id, accepted=True), None
    if spec.kind == "user":
        if actor.user is None:
            raise NotLoggedIn("log in to challenge a user")
        if not spec.user:
            raise BoardlabError(f"seat {number}: kind 'user' needs the user's name in 'user'")
        user = repository.user_by_name(session, spec.user)
        if user is None:
            raise NotFound(f"seat {number}: no user named {spec.user!r}")
        return Seat(seat=number, kind="user", user_id=user.id, accepted=user.id == actor.user.id), None
    if spec.kind == "open":
        return Seat(seat=number, kind="open", accepted=False), None
    if spec.kind == "ai":
        from boardlab.ai.levels import make_agent  # the search: imported once the warm-up compiled it

        agent_spec = (spec.agent or "level3").strip()
        agent = make_agent(agent_spec)
        agent.check(game)
        return Seat(seat=number, kind="ai", agent=agent_spec, accepted=True), None
    token = secrets.token_urlsafe(32)
    return Seat(seat=number, kind="guest", token_hash=token_hash(token), accepted=True), token


def start(row: GameRow, state: State, at: datetime) -> None:
    control = time_control(row)
    row.status = GameStatus.ACTIVE
    row.started_at = at
    row.to_move = state.to_move
    for seat in row.seats:
        seat.remaining_seconds = control.base_seconds
    if state.is_over:
        assert state.result is not None
        finish(row, list(state.result), RULES, None, at, state)
        return
    _start_turn(row, at)


def _start_turn(row: GameRow, at: datetime) -> None:
    row.turn_started_at = at
    mover = next((s for s in row.seats if s.seat == row.to_move), None)
    row.deadline = time_control(row).deadline(at, mover.remaining_seconds if mover else None)


def accept(session: Session, actor: Actor, game_id: int, requested: int | None, cache: StateCache) -> GameRow:
    if actor.user is None:
        raise NotLoggedIn("log in to accept a challenge")
    row = lock_game(session, game_id)
    if row.status != GameStatus.CHALLENGE:
        raise Conflict(f"game {game_id} is not a challenge waiting for answers (it is {row.status})")
    mine = [s for s in row.seats if s.kind == "user" and s.user_id == actor.user.id and not s.accepted]
    holds = any(s.user_id == actor.user.id for s in row.seats)
    open_seats = [s for s in row.seats if s.kind == "open" and not s.accepted and not holds]
    choices = mine + open_seats
    if requested is not None:
        choices = [s for s in choices if s.seat == requested]
    if not choices:
        raise NotAllowed(f"game {game_id} has no seat waiting for you" +
                        (f" (seat {requested})" if requested is not None else ""))
    seat = choices[0]
    seat.user_id, seat.accepted = actor.user.id, True
    seat.user = repository.user_by_id(session, actor.user.id)
    row.version += 1
    if all(s.accepted for s in row.seats):
        start(row, current_state(session, row, cache), clocks.now())
        ratings.stamp(session.connection(), row)
    return row


def decline(session: Session, actor: Actor, game_id: int) -> GameRow:
    if actor.user is None:
        raise NotLoggedIn("log in to decline a challenge")
    row = lock_game(session, game_id)
    if row.status != GameStatus.CHALLENGE:
        raise Conflict(f"game {game_id} is not a challenge waiting for answers (it is {row.status})")
    invited = any(s.kind == "user" and s.user_id == actor.user.id for s in row.seats)
    if not invited and row.created_by != actor.user.id:
        raise NotAllowed(f"challenge {game_id} is not addressed to you")
    row.status, row.finished_at, row.version = GameStatus.DECLINED, clocks.now(), row.version + 1
    return row


def rematch(session: Session, actor: Actor, game_id: int) -> Created:
    """A new game like the finished game ``game_id``, seats swapped (with three or four, each moves on one),
    offered by a player of it: its other people are invited (the challenge waits for them), computer
    seats play again. Asked when a rematch is already offered, it is that one (accepted, if it waits
    for the caller). Guest seats can be carried over only by the browser holding them all (hot-seat)."""
    old = lock_game(session, game_id)
    held = seats_held(old, actor)
    if not held:
        raise NotAllowed(f"you hold no seat in game {game_id}; only its players can ask for a rematch")
    if old.status != GameStatus.FINISHED:
        raise Conflict(f"game {game_id} is {old.status}; a rematch follows a finished game")
    if old.rematch is not None:
        offered = lock_game(session, old.rematch)
        waiting = actor.user is not None and offered.status == GameStatus.CHALLENGE and any(
            s.kind == "user" and s.user_id == actor.user.id and not s.accepted for s in offered.seats)
        if waiting:
            assert actor.user is not None
            for seat in offered.seats:
                if seat.kind == "user" and seat.user_id == actor.user.id:
                    seat.accepted = True
            offered.version += 1
            if all(s.accepted for s in offered.seats):
                state = replay(game_of(offered), offered.start, [])
                start(offered, state, clocks.now())
                ratings.stamp(session.connection(), offered)
        return Created(offered, {}, replay(game_of(offered), offered.start, []))
    count = len(old.seats)
    order = [old.seats[(number + 1) % count] for number in range(count)]  # two seats: swapped
    specs: list[SeatRequest] = []
    for seat in order:
        if seat.seat in held and seat.kind != "guest":
            specs.append(SeatRequest(kind="me"))
        elif seat.kind == "ai":
            specs.append(SeatRequest(kind="ai", agent=seat.agent))
        elif seat.kind == "guest":
            if seat.seat not in held:
                raise NotAllowed("the other player is a guest (no account): send them a new invitation from "
                                "the new-game page instead")
            specs.append(SeatRequest(kind="guest"))
        else:
            assert seat.user is not None
            specs.append(SeatRequest(kind="user", user=seat.user.name))
    control = time_control(old)
    time = TimeRequest(kind=control.kind, days=control.days_per_move or 3,  # type: ignore[arg-type]
                       minutes=(control.base_seconds or 600) / 60, increment=control.increment_seconds or 0)
    request = CreateGameRequest(game=old.game, variant=old.variant, options=old.options, seats=specs, time=time,
                                rated=old.rated, private=old.private)
    created = create(session, actor, request)
    old.rematch, old.version = created.row.id, old.version + 1
    return created


# -- moves ------------------------------------------------------------------------------------------


@dataclass
class Moved:
    row: GameRow
    state: State
    timed_out: bool = False
    moves: list[MoveInfo] = field(default_factory=list)
    # ``defer``: the move's statement sent, not yet known to be stored (:meth:`~.repository.SentMove.stored`).
    sent: repository.SentMove | None = None


def move(connection: Connection | AutocommitConnection | AsyncAutocommitConnection, actor: Actor | None, game_id: int,
         ply: int, text: str, requested: int | None, cache: StateCache, version: int | None = None,
         announce: Callable[[GameRow], str | None] | None = None, lock: bool = True,
         quick: bool = False, known: GameRow | None = None, defer: bool = False) -> Moved | None:
    """Append one move. ``actor`` ``None`` is the server playing an AI seat at game ``version``.
    ``announce``: the live update's payload for the changed row, to send with its UPDATE (PostgreSQL).

    ``lock=False`` (PostgreSQL, on a connection in autocommit mode): the game read unlocked and the move
    stored in one statement of its own (:func:`~.repository.write_move_alone`), where that is all a move
    needs: ``None`` (nothing done) where it is not, and the caller makes the move again with ``lock=True``
    (which never answers ``None``): the game changed since it was read, its clock ran out, the move ends
    it (its ratings are settled with it), or its position is not in ``cache`` (read in one snapshot).
    ``quick``: that statement's commit not waited for on disk (:attr:`~.config.Settings.quick_move_commits`).
    ``defer`` (with ``lock=False``, on the event loop's connection): that statement sent and not waited
    for where it can be (:func:`~.repository.send_move_alone`): the answer's :attr:`Moved.sent` then
    says whether it was stored, and the caller must ask it before anything else uses the connection.

    ``known``: the game's row as this process's last move in it wrote it
    (:meth:`~.positions.StateCache.row_as_written`), decided on instead of read (on PostgreSQL, with
    ``lock=False``, the move is then one round trip): stored only if the game's version is still that
    row's. Whatever it refuses (a stale ply, an illegal move, a seat not held; in a transaction, a version
    changed since, found by the UPDATE after the move's INSERT) is ``None`` too: the game as stored may
    have moved on, and is decided on again (in a transaction, the caller must roll it back first)."""
    if known is not None:
        try:
            return _move(connection, actor, game_id, ply, text, requested, cache, version, announce, lock, quick,
                         known, defer)
        except CommitLost:
            raise
        except BoardlabError:
            return None
    return _move(connection, actor, game_id, ply, text, requested, cache, version, announce, lock, quick,
                 defer=defer)


def _move(connection: Connection | AutocommitConnection | AsyncAutocommitConnection, actor: Actor | None,
          game_id: int, ply: int, text: str, requested: int | None, cache: StateCache, version: int | None,
          announce: Callable[[GameRow], str | None] | None, lock: bool, quick: bool,
          known: GameRow | None = None, defer: bool = False) -> Moved | None:
    row, as_read = lock_game_core(connection, game_id, lock) if known is None else known_game(known)
    held = seats_held(row, actor) if actor is not None else []
    if actor is not None:
        acting_seat(row, actor, requested, "move")  # 401/403 unless the caller holds a seat (the one asked for)
    if row.status != GameStatus.ACTIVE:
        raise Conflict(f"game {game_id} is {'over' if row.status == GameStatus.FINISHED else row.status}; no moves")
    if ply != row.ply or (version is not None and version != row.version):
        raise Conflict(f"stale move: the game is at ply {row.ply}, the move was made at ply {ply}")
    assert row.to_move is not None
    seat = row.to_move
    if actor is None:
        if not any(s.seat == seat and s.kind == "ai" for s in row.seats):
            raise Conflict(f"seat {seat} of game {game_id} is not the computer's")
    elif (requested is not None and requested != seat) or seat not in held:
        raise NotAllowed(f"it is seat {seat}'s turn, and you do not hold that seat")
    at = clocks.now()
    timed_out = row.deadline is not None and row.deadline <= at
    if isinstance(connection, AutocommitConnection | AsyncAutocommitConnection):  # outside a transaction: one statement
        assert not lock
        cached, cached_moves = cache.get(row), cache.moves(row)
        if timed_out or cached is None or cached_moves is None:
            return None
        state, before = cached, cached_moves
    elif timed_out:
        before_timeout = current_state(connection, row, cache)
        timeout(row, at, before_timeout)
        ratings.settle(connection, row, at)
        write_back(connection, row, as_read, notify=announce(row) if announce else None)
        return Moved(row, before_timeout, timed_out=True)
    else:
        state = current_state(connection, row, cache)
        before = known_moves(connection, row, cache)
    after = state.play(text)
    assert after.last_move is not None
    spent = clocks.seconds_between(row.turn_started_at, at)
    new_move = {"game_id": row.id, "ply": row.ply, "text": after.last_move.text, "seat": seat, "at": at,
                "seconds": spent}
    moves = [*before, MoveInfo(row.ply, seat, at, spent)]
    mover = next(s for s in row.seats if s.seat == seat)
    mover.remaining_seconds = time_control(row).after_move(mover.remaining_seconds, spent)
    row.ply += 1
    row.version += 1
    row.to_move = after.to_move
    row.draw_offers, row.undo_request, row.ai_lease_until = [], None, None
    if isinstance(connection, AutocommitConnection | AsyncAutocommitConnection):
        if after.is_over:
            return None
        _start_turn(row, at)
        payload = announce(row) if announce else None
        assert payload is not None, "a move outside a transaction sends its live update with its statement"
        if defer and isinstance(connection, AsyncAutocommitConnection):
            sent = send_move_alone(connection, row, as_read, new_move, payload, quick)
            if sent is not None:
                return Moved(row, after, moves=moves, sent=sent)
        stored = write_move_alone(connection, row, as_read, new_move, payload, quick)
        return Moved(row, after, moves=moves) if stored else None
    if after.is_over:
        assert after.result is not None
        finish(row, list(after.result), RULES, None, at, after)
        ratings.settle(connection, row, at)
    else:
        _start_turn(row, at)
    write_back(connection, row, as_read, new_move, announce(row) if announce else None)
    return Moved(row, after, moves=moves)


def finish(row: GameRow, result: list[float], termination: str, loser: int | None, at: datetime,
           state: State) -> None:
    """End the game in ``row`` (``state``: its last position) with ``result``, and say how in words."""
    row.status, row.result, row.termination, row.loser = GameStatus.FINISHED, result, termination, loser
    row.to_move, row.deadline, row.finished_at, row.ai_lease_until = None, None, at, None
    row.draw_offers, row.undo_request = [], None
    row.end_reason = state.end_reason if termination == RULES and state.is_over else None
    row.outcome = outcome_of(row, [state.game.seat_label(state.data, s.seat) for s in row.seats])
    for seat in row.seats:
        seat.score = result[seat.seat]


def outcome_of(row: GameRow, labels: list[str], reason: str | None = None) -> str:
    """How the finished game in ``row`` ended, in one sentence (the seats as ``labels`` call them)."""
    assert row.result is not None
    why = row.end_reason or (reason if row.termination in (None, RULES) else None)
    return outcome_sentence(row.result, row.termination, [seat_name(s) for s in row.seats], labels, row.loser, why)


def lost_by(row: GameRow, seat: int) -> list[float]:
    """The result when ``seat`` resigns or runs out of time: it scores 0, every other seat 1."""
    return [0.0 if s.seat == seat else 1.0 for s in row.seats]


def timeout(row: GameRow, at: datetime, state: State) -> None:
    """End ``row`` because the seat to move ran out of time (the caller checked the deadline)."""
    assert row.to_move is not None
    loser = row.to_move
    for seat in row.seats:
        if seat.seat == loser and seat.remaining_seconds is not None:
            seat.remaining_seconds = 0.0
    finish(row, lost_by(row, loser), TIMEOUT, loser, at, state)
    row.version += 1


def resign(session: Session, actor: Actor, game_id: int, requested: int | None, cache: StateCache) -> GameRow:
    row = lock_game(session, game_id)
    seat = acting_seat(row, actor, requested, "resign")
    if row.status != GameStatus.ACTIVE:
        raise Conflict(f"game {game_id} is {row.status}; only a game in play can be resigned")
    at = clocks.now()
    finish(row, lost_by(row, seat), RESIGNATION, seat, at, current_state(session, row, cache))
    ratings.settle(session.connection(), row, at)
    row.version += 1
    return row


def draw(session: Session, actor: Actor, game_id: int, action: str, requested: int | None,
         cache: StateCache) -> GameRow:
    """Offer, accept or decline a draw. The game is drawn once every seat played by a person agrees
    (the computer never agrees). A caller holding every seat (a hot-seat table) is every person at
    the table: their offer is the agreement, as their takeback request is granted at once."""
    row = lock_game(session, game_id)
    seat = acting_seat(row, actor, requested, "offer a draw")
    held = seats_held(row, actor)
    if row.status != GameStatus.ACTIVE:
        raise Conflict(f"game {game_id} is {row.status}; draws are offered during play")
    offers = set(row.draw_offers or [])
    if action == "decline":
        if not offers:
            raise Conflict("there is no draw offer to decline")
        offers = set()
    elif action == "accept" and not offers - {seat}:
        raise Conflict("there is no draw offer from another seat to accept")
    else:
        offers.add(seat)
        if any(s.kind == "ai" for s in row.seats):
            raise Conflict("the computer does not agree to draws; play on or resign")
        if all(s.seat in held for s in row.seats):
            offers = {s.seat for s in row.seats}
    row.draw_offers = sorted(offers)
    row.version += 1
    if offers == {s.seat for s in row.seats}:
        at = clocks.now()
        finish(row, [0.5] * len(row.seats), AGREEMENT, None, at, current_state(session, row, cache))
        ratings.settle(session.connection(), row, at)
    return row


def undo(session: Session, actor: Actor, game_id: int, action: str, requested: int | None,
         cache: StateCache) -> GameRow:
    """Ask to take back your last move (and the replies since); another player grants or declines.

    Against the computer alone, or on a board where you hold every seat, it is granted at once. Not in
    games of hidden information: the moves since revealed things that cannot be forgotten.
    """
    row = lock_game(session, game_id)
    held = seats_held(row, actor)
    seat = acting_seat(row, actor, requested, "ask for a takeback")
    if row.status != GameStatus.ACTIVE:
        raise Conflict(f"game {game_id} is {row.status}; takebacks are asked during play")
    if not game_of(row).info.perfect_information:
        raise Conflict(f"{row.game} has hidden information: a move cannot be taken back once its "
                       f"consequences were revealed")
    if action == "request":
        asker = seat
        if repository.last_move_of(session, row.id, asker) is None:
            raise Conflict(f"seat {asker} has no move to take back")
        people = {s.seat for s in row.seats if s.kind != "ai"}
        if not people - set(held):
            return _take_back(session, row, asker, cache)
        row.undo_request = asker
    else:
        if row.undo_request is None:
            raise Conflict("nobody asked for a takeback")
        if row.undo_request in held and not set(held) - {row.undo_request}:
            raise NotAllowed("the other player answers your takeback request")
        if action == "grant":
            return _take_back(session, row, row.undo_request, cache)
        row.undo_request = None
    row.version += 1
    return row


def _take_back(session: Session, row: GameRow, seat: int, cache: StateCache) -> GameRow:
    ply = repository.last_move_of(session, row.id, seat)
    assert ply is not None
    repository.delete_moves_from(session, row.id, ply)
    row.ply, row.undos, row.version = ply, row.undos + 1, row.version + 1
    row.undo_request, row.draw_offers, row.ai_lease_until = None, [], None
    cache.drop(row.id)
    state = current_state(session, row, cache)
    row.to_move = state.to_move
    _start_turn(row, clocks.now())
    return row
