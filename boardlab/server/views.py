"""What a game looks like to one caller: every field a seat or spectator receives is made here, from
``state.view(seat)`` (``None``: a spectator) and the game's public row, never from the state itself.

Routes and pushed events both use :func:`game_out`, so an event tells a watcher no more than a
request would.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.server import clocks
from boardlab.server.models import Game as GameRow
from boardlab.server.play import game_of, outcome_of, seat_name, time_control
from boardlab.server.schemas import (
    ClockOut,
    GameOut,
    GameSummary,
    MoveOut,
    SeatOut,
    TimeOut,
    ViewOut,
)


def utc(moment: datetime | None) -> datetime | None:
    return None if moment is None else moment.replace(tzinfo=UTC)


def time_out(row: GameRow) -> TimeOut:
    control = time_control(row)
    return TimeOut(kind=control.kind, description=control.describe(), days_per_move=control.days_per_move,
                   minutes=None if control.base_seconds is None else control.base_seconds / 60,
                   increment=control.increment_seconds)


def seats_out(row: GameRow, view: View | None) -> list[SeatOut]:
    game = game_of(row)
    return [SeatOut(seat=s.seat, kind=s.kind, name=seat_name(s), accepted=s.accepted,
                    label=game.seat_label(view.data, s.seat) if view is not None else game.seat_name(s.seat),
                    rating=s.rating, rating_change=s.rating_change)
            for s in row.seats]


def clocks_out(row: GameRow, at: datetime) -> list[ClockOut]:
    out = []
    for s in row.seats:
        running = row.status == "active" and s.seat == row.to_move
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

    if row.status == "challenge":
        return "A challenge: waiting for " + ", ".join(f"seat {s.seat}" for s in row.seats if not s.accepted) + "."
    if row.status == "declined":
        return "The challenge was declined."
    if row.status == "finished" and row.result is not None:
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
    game = state.game
    while position.previous is not None:
        before = position.previous
        mover = before.to_move
        labels.append(game.seat_label(before.data, mover) if mover is not None else "")
        position = before
    labels.reverse()
    return labels[:count]


def view_out(row: GameRow, state: State, seat: int | None, move_rows: Sequence[Any],
             end_reason: str | None = None) -> ViewOut:
    """``state``: the position shown; ``end_reason``: why the game ended, if the rules ended it."""
    view = state.view(seat)
    game = state.game
    legal: list[str] = []
    steps: dict[str, list[str]] = {}
    if row.status == "active":
        for legal_move in view.legal_moves():
            legal.append(legal_move.text)
            path = legal_move.path
            if len(path) > 1:
                steps[legal_move.text] = [game.partial_text(state.data, path[:i]) for i in range(1, len(path))] \
                    + [legal_move.text]
    # Under perfect information the view is the state, whose moves already carry their text.
    history = view.state.history() if game.info.perfect_information else view.history()
    labels = mover_labels(state, len(history))
    moves = [move_out(m.ply, m.seat, labels[m.ply], history[m.ply].text, m.at, m.seconds)
             for m in move_rows if m.ply < len(history)]
    result = list(view.result) if view.result is not None else None
    last = view.last_move
    before = state.previous
    said = None
    if last is not None and before is not None and before.to_move is not None:
        said = game.move_words(before.data, game.seat_label(before.data, before.to_move), last.text)
    return ViewOut(seat=seat, ply=len(history), to_move=view.to_move if row.status == "active" else None,
                   position=view.to_text(), board=str(view), description=describe(row, view, end_reason),
                   legal_moves=legal, move_steps=steps, moves=moves, last_move=said, result=result,
                   end_reason=view.end_reason)


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
    return GameOut(
        id=row.id, game=row.game, game_name=game_of(row).name, variant=row.variant, options=row.options,
        rules_version=row.rules_version, perfect_information=game_of(row).info.perfect_information,
        notation=game_of(row).notation,
        status=row.status,  # type: ignore[arg-type]
        ply=row.ply, to_move=row.to_move, result=row.result, termination=row.termination, loser=row.loser,
        outcome=_outcome(row, state.view(seat)), rated=row.rated, private=row.private, rematch=row.rematch,
        seats=seats_out(row, state.view(seat)), time=time_out(row), clocks=clocks_out(row, at),
        deadline=utc(row.deadline), draw_offers=list(row.draw_offers or []), undo_request=row.undo_request,
        created_at=utc(row.created_at) or row.created_at, started_at=utc(row.started_at),
        finished_at=utc(row.finished_at), version=row.version, your_seats=held, can_hint=can_hint,
        view=view_out(row, shown, seat, move_rows, state.view(seat).end_reason),
    )


def _outcome(row: GameRow, view: View | None) -> str | None:
    if row.status != "finished" or row.result is None:
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
        your_turn=row.status == "active" and row.to_move in held, invited=invited)
