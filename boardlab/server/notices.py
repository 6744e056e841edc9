"""The e-mail notices: a challenge, your turn (correspondence games), the end of a game. Each is
written from the addressee's own seat's view."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardlab.server.models import Game as GameRow
from boardlab.server.positions import game_of
from boardlab.server.status import GameStatus
from boardlab.server.views import describe

if TYPE_CHECKING:
    from boardlab.core.state import State


def notices(row: GameRow, state: State, what: str, url: str) -> list[tuple[str, str, str]]:
    """(to, subject, body) for each notice that the change ``what`` to ``row`` calls for."""
    link = f"{url}/games/{row.id}"
    name = game_of(row).name
    out = []
    for seat in row.seats:
        user = seat.user
        if user is None or not user.email:
            continue
        view = state.view(seat.seat)
        board = str(view)
        if what == "created" and row.status == GameStatus.CHALLENGE and seat.kind == "user" and not seat.accepted:
            creator = next((s.user.name for s in row.seats if s.user is not None and s.user_id == row.created_by),
                           "someone")
            out.append((user.email, f"{creator} challenges you to {name} (game {row.id})",
                        f"{creator} challenges you to a game of {name}.\n\nAccept: {link}\n"
                        f"or: boardlab remote accept {row.id}\n"))
        elif row.status == GameStatus.FINISHED and what != "created":
            out.append((user.email, f"Game {row.id} ({name}) is over",
                        f"{describe(row, view)}\n\n{board}\n\n{link}\n"))
        elif row.status == GameStatus.ACTIVE and row.time_control == "correspondence" and row.to_move == seat.seat \
                and what in ("moved", "accepted", "undo"):
            last = view.last_move
            played = f"The last move: {last.text}\n\n" if last is not None else ""
            out.append((user.email, f"Your turn in game {row.id} ({name}), move {row.ply + 1}",
                        f"{played}{board}\n\n{describe(row, view)}\n\nPlay: {link}\n"
                        f"or: boardlab remote move {row.id} MOVE\n"))
    return out
