"""What a game looks like to one caller: every field a seat or spectator receives is made here, from
``state.view(seat)`` (``None``: a spectator) and the game's public row, never from the state itself.

Routes and pushed events both use :func:`game_out`, so an event tells a watcher no more than a
request would.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import TypeAdapter

from boardlab.server import clocks
from boardlab.server.clocks import TimeControl
from boardlab.server.models import Game as GameRow
from boardlab.server.play import outcome_of, seat_name, time_control
from boardlab.server.positions import game_of
from boardlab.server.schemas import (
    ClockOut,
    GameOut,
    GameSummary,
    MoveOut,
    SeatOut,
    TimeOut,
    ViewOut,
)
from boardlab.server.status import GameStatus

if TYPE_CHECKING:
    from boardlab.core.state import State
    from boardlab.core.view import View


def utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.replace(tzinfo=UTC)


# An answer's time control and seats change seldom from one answer to the next: each is made once for its
# values and shared, as move_out's entries are (a model depends only on these values, and none is changed
# once made). Values equal as keys (1 and 1.0) make equal models: the fields' types convert them alike.
@lru_cache(maxsize=1 << 10)
def _time_out(control: TimeControl) -> TimeOut:
    return TimeOut(kind=control.kind, description=control.describe(), days_per_move=control.days_per_move,
                   minutes=None if control.base_seconds is None else control.base_seconds / 60,
                   increment=control.increment_seconds)


def time_out(row: GameRow) -> TimeOut:
    return _time_out(time_control(row))


@lru_cache(maxsize=1 << 14)
def _seat_out(seat: int, kind: str, name: str | None, accepted: bool, label: str, rating: float | None,
              rating_change: float | None) -> SeatOut:
    return SeatOut(seat=seat, kind=kind, name=name, accepted=accepted, label=label, rating=rating,
                   rating_change=rating_change)


def seats_out(row: GameRow, view: View | None) -> list[SeatOut]:
    game = game_of(row)
    return [_seat_out(s.seat, s.kind, seat_name(s), s.accepted,
                      game.seat_label(view.data, s.seat) if view is not None else game.seat_name(s.seat),
                      s.rating, s.rating_change)
            for s in row.seats]


def clocks_out(row: GameRow, at: datetime) -> list[ClockOut]:
    out = []
    for s in row.seats:
        running = row.status == GameStatus.ACTIVE and s.seat == row.to_move
        remaining = s.remaining_seconds
        if remaining is not None and running:
            remaining = max(0.0, remaining - clocks.seconds_between(row.turn_started_at, at))
        out.append(ClockOut(seat=s.seat, remaining_seconds=remaining, running=running))
    return out


def describe(row: GameRow, view: View, end_reason: str | None = None) -> str:
    """One sentence on the game for ``view``'s seat. ``end_reason``: why the rules ended a finished game
    (its last position's); ``view`` may show an earlier position, which the sentence then names."""
    game = game_of(row)

    def label(seat: int) -> str:
        return game.seat_label(view.data, seat)

    if row.status == GameStatus.CHALLENGE:
        return "A challenge: waiting for " + ", ".join(f"seat {s.seat}" for s in row.seats if not s.accepted) + "."
    if row.status == GameStatus.DECLINED:
        return "The challenge was declined."
    if row.status == GameStatus.FINISHED and row.result is not None:
        reason = end_reason if end_reason is not None else view.end_reason
        ended = f"Game over: {ending(row, [label(s.seat) for s in row.seats], reason)}."
        if view.ply < row.ply and view.to_move is not None:  # a step back through a finished game
            return f"After move {view.ply} of {row.ply}: {label(view.to_move)} to move. {ended}"
        return ended
    if view.to_move is None:
        return "Game over."
    return f"{label(view.to_move)} to move (seat {view.to_move})."


@lru_cache(maxsize=1 << 16)
def move_out(ply: int, seat: int, label: str, text: str, at: datetime, seconds: float) -> MoveOut:
    """One entry of a move list. Every answer lists every move so far, and a game's moves do not change:
    each entry is made once and shared (a model depends only on these values, and none is changed once
    made), so that a move does not cost more as the game gets longer."""
    return MoveOut(ply=ply, seat=seat, label=label, text=text, at=utc(at) or at, seconds=seconds)


def ending(row: GameRow, labels: list[str], reason: str | None = None) -> str:
    """How the finished game in ``row`` ended, in one sentence (:func:`boardlab.outcome.outcome_sentence`):
    as written when it ended, or, for a game finished before the server wrote it, made now."""
    return row.outcome or outcome_of(row, labels, reason)


def mover_labels(state: State, count: int) -> list[str]:
    """What the rules called the mover of each of the first ``count`` moves, when it was made (HMDG's
    seats are A and B until the side choice, x and o after it; an earlier move keeps its name). A
    label is public (whoever plays x is known to all), so the positions' own data may tell it."""
    labels: list[str] = []
    position = state
    while position.previous is not None:
        before = position.previous
        labels.append(_mover_label(before))
        position = before
    labels.reverse()
    return labels[:count]


def _mover_label(before: State) -> str:
    mover = before.to_move
    return before.game.seat_label(before.data, mover) if mover is not None else ""


class _Memo:
    """What answers said about a position, kept so that the next answer need not say it again from the
    start: the move list of a position is its predecessor's and one more move; a position's legal moves,
    text and board are the same for every caller from the same seat. Entries are keyed by the position's
    identity and hold the position itself (so the key cannot be reused while the entry lives); the oldest
    go first. A position is immutable, and the moves before it (times included) never change once
    stored (a takeback replays new positions), so an entry is never out of date."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: dict[tuple[int, int | None], tuple[State, Any]] = {}
        self._lock = threading.Lock()

    def get(self, state: State, seat: int | None) -> Any:
        found = self._entries.get((id(state), seat))
        return found[1] if found is not None and found[0] is state else None

    def put(self, state: State, seat: int | None, value: Any, drop: State | None = None) -> None:
        with self._lock:
            if drop is not None:
                self._entries.pop((id(drop), seat), None)
            self._entries[(id(state), seat)] = (state, value)
            while len(self._entries) > self.size:
                self._entries.pop(next(iter(self._entries)))


_move_lists = _Memo(4096)  # (position, seat or None under perfect information) -> its move list
_positions = _Memo(4096)  # (position, seat) -> _Shown


class _Shown(NamedTuple):
    """What a seat is told about one position, whatever the game's row says."""

    legal: list[str]
    steps: dict[str, list[str]]
    position: str
    board: str
    said: str | None


def _shown(state: State, view: View, seat: int | None) -> _Shown:
    found: _Shown | None = _positions.get(state, seat)
    if found is not None:
        return found
    game = state.game
    moves = view.legal_moves()
    legal = [legal_move.text for legal_move in moves]
    steps: dict[str, list[str]] = {}
    if game.turns_of_several_actions:  # else every move is one action: no steps (looked at once a move)
        for legal_move in moves:
            path = legal_move.path
            if len(path) > 1:
                steps[legal_move.text] = [game.partial_text(state.data, path[:i]) for i in range(1, len(path))] \
                    + [legal_move.text]
    last = view.last_move
    before = state.previous
    said = None
    if last is not None and before is not None and before.to_move is not None:
        said = game.move_words(before.data, game.seat_label(before.data, before.to_move), last.text)
    found = _Shown(legal, steps, view.to_text(), str(view), said)
    _positions.put(state, seat, found)
    return found


class Listed:
    """A position's move list as one seat knows it, and the list's JSON once an answer has written it (the
    next position's is then this one and one more entry: see :func:`game_json`)."""

    __slots__ = ("json", "moves")

    def __init__(self, moves: list[MoveOut], json: bytes | None = None) -> None:
        self.moves = moves
        self.json = json


def move_list(state: State, view: View, seat: int | None, move_rows: Sequence[Any]) -> Listed:
    """The moves that led to ``state`` as ``view``'s seat knows them, with when and by whom (``move_rows``,
    the game's stored moves: those after ``state`` are left out)."""
    perfect = state.game.info.perfect_information
    key = None if perfect else seat
    found: Listed | None = _move_lists.get(state, key)
    if found is not None:
        return found
    before = state.previous
    earlier: Listed | None = _move_lists.get(before, key) if before is not None else None
    last = state.last_move if perfect else view.last_move
    count = len(earlier.moves) + 1 if earlier is not None else -1
    if earlier is not None and before is not None and last is not None and len(move_rows) >= count \
            and move_rows[count - 1].ply == count - 1:
        row = move_rows[count - 1]
        entry = move_out(row.ply, row.seat, _mover_label(before), last.text, row.at, row.seconds)
        written = earlier.json
        listed = Listed([*earlier.moves, entry], None if written is None else
                        written[:-1] + (b"," if earlier.moves else b"") + _move_json(entry) + b"]")
        _move_lists.put(state, key, listed, drop=before)  # the game moved on: the old list is seldom asked for
        return listed
    # Under perfect information the view is the state, whose moves already carry their text.
    history = view.state.history() if perfect else view.history()
    labels = mover_labels(state, len(history))
    listed = Listed([move_out(m.ply, m.seat, labels[m.ply], history[m.ply].text, m.at, m.seconds)
                     for m in move_rows if m.ply < len(history)])
    if len(listed.moves) == len(history):
        _move_lists.put(state, key, listed)
    return listed


def _move_json(entry: MoveOut) -> bytes:
    return MoveOut.__pydantic_serializer__.to_json(entry)


_MOVE_LIST = TypeAdapter(list[MoveOut])


def view_out(row: GameRow, state: State, seat: int | None, move_rows: Sequence[Any],
             end_reason: str | None = None) -> ViewOut:
    """``state``: the position shown; ``end_reason``: why the game ended, if the rules ended it."""
    view = state.view(seat)
    shown = _shown(state, view, seat)
    active = row.status == GameStatus.ACTIVE
    listed = move_list(state, view, seat, move_rows)
    moves = listed.moves
    result = list(view.result) if view.result is not None else None
    out = ViewOut(
        seat=seat, ply=len(moves), to_move=view.to_move if active else None, position=shown.position,
        board=shown.board, description=describe(row, view, end_reason), legal_moves=shown.legal if active else [],
        move_steps=shown.steps if active else {}, moves=moves, last_move=shown.said, result=result,
        end_reason=view.end_reason)
    out._moves_json = (out.moves, listed)
    return out


# game_json writes a game's JSON but its move list, then the list: the last field of the last field.
assert list(GameOut.model_fields)[-1] == "view" and list(ViewOut.model_fields)[-1] == "moves"
_ALL_BUT_MOVES = {"view": {"moves"}}


def game_json(out: GameOut) -> bytes:
    """``out`` as JSON, as ``out.model_dump_json()`` writes it; its move list, the part that grows with the
    game, written from the list before's JSON and the one entry more, when an answer wrote that (:class:`Listed`)."""
    kept = out.view._moves_json
    if kept is None or kept[0] is not out.view.moves:
        return GameOut.__pydantic_serializer__.to_json(out)
    listed: Listed = kept[1]
    if listed.json is None:  # written once, here, where the answer needs it; the next positions' extend it
        listed.json = _MOVE_LIST.dump_json(listed.moves)
    head = GameOut.__pydantic_serializer__.to_json(out, exclude=_ALL_BUT_MOVES)
    return b"".join((head[:-2], b',"moves":', listed.json, b"}}"))


def position_at(row: GameRow, state: State, at_ply: int | None) -> State:
    """The game's position after ``at_ply`` moves (``None``: now); ``state`` is the position now."""
    shown = state
    if at_ply is not None:
        for _ in range(max(0, row.ply - at_ply)):
            assert shown.previous is not None
            shown = shown.previous
    return shown


def game_out(row: GameRow, state: State, seat: int | None, held: list[int], move_rows: Sequence[Any],
             can_hint: bool, at_ply: int | None = None) -> GameOut:
    """The game as the caller holding ``held`` sees it from ``seat``; ``at_ply``: the position after that
    many moves (a step back through the move list) instead of the current one."""
    shown = position_at(row, state, at_ply)
    at = clocks.now()
    game = game_of(row)
    view = state.view(seat)
    return GameOut(
        id=row.id, game=row.game, game_name=game.name, variant=row.variant, options=row.options,
        rules_version=row.rules_version, perfect_information=game.info.perfect_information,
        notation=game.notation, status=row.status,  # type: ignore[arg-type]
        ply=row.ply, to_move=row.to_move,
        result=row.result, termination=row.termination, loser=row.loser, outcome=_outcome(row, view),
        rated=row.rated, private=row.private,
        rematch=row.rematch, seats=seats_out(row, view), time=time_out(row), clocks=clocks_out(row, at),
        deadline=utc(row.deadline), draw_offers=list(row.draw_offers or []), undo_request=row.undo_request,
        created_at=utc(row.created_at) or row.created_at, started_at=utc(row.started_at),
        finished_at=utc(row.finished_at), version=row.version, your_seats=held, can_hint=can_hint,
        view=view_out(row, shown, seat, move_rows, view.end_reason),
    )


def _outcome(row: GameRow, view: View | None) -> str | None:
    if row.status != GameStatus.FINISHED or row.result is None:
        return None
    game = game_of(row)
    return ending(row, [game.seat_label(view.data, s.seat) if view is not None else game.seat_name(s.seat)
                        for s in row.seats])


def summary(row: GameRow, held: list[int], invited: bool) -> GameSummary:
    return GameSummary(
        id=row.id, game=row.game, game_name=game_of(row).name, status=row.status, ply=row.ply, to_move=row.to_move,
        seats=seats_out(row, None), time=time_out(row), deadline=utc(row.deadline), result=row.result,
        termination=row.termination, outcome=_outcome(row, None), rated=row.rated,
        created_at=utc(row.created_at) or row.created_at, finished_at=utc(row.finished_at), your_seats=held,
        your_turn=row.status == GameStatus.ACTIVE and row.to_move in held, invited=invited)
