"""The lists of games and players: games to watch, the archive of finished games (by player, game,
opponent and result, a page at a time), a player's profile, a game's leaderboard, and the guest games
left to expire. Queries only; :mod:`.service` turns their rows into what the API sends.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import delete, exists, func, or_, select
from sqlalchemy.orm import Session, aliased
from sqlalchemy.sql import Select
from sqlalchemy.sql.selectable import ScalarSelect

from boardlab.core.registry import info
from boardlab.server.errors import NotFound
from boardlab.server.models import Game as GameRow
from boardlab.server.models import Seat, User
from boardlab.server.names import name_key
from boardlab.server.status import UNDER_WAY, GameStatus

PER_PAGE = 20
Outcome = Literal["won", "lost", "drawn"]
_SCORE = {"won": 1.0, "lost": 0.0, "drawn": 0.5}


def people_count() -> ScalarSelect[int]:
    """How many seats of a game people play (users, open seats, guests): a correlated subquery."""
    return select(func.count()).where(Seat.game_id == GameRow.id, Seat.kind != "ai").scalar_subquery()


def watch(session: Session, limit: int) -> list[GameRow]:
    """Public games between people being played now, the latest first: never a game against the
    computer alone, an analysis board, or one its creator kept private."""
    return list(session.scalars(select(GameRow).where(GameRow.status == GameStatus.ACTIVE, GameRow.private.is_(False),
                                                      people_count() >= 2)
                                .order_by(GameRow.id.desc()).limit(limit)))


def user_named(session: Session, name: str) -> User:
    user = session.scalar(select(User).where(User.name_key == name_key(name)))
    if user is None:
        raise NotFound(f"no player named {name!r}")
    return user


@dataclass(frozen=True)
class ArchiveQuery:
    """The filters of the archive; each left ``None`` does not filter."""

    player: str | None = None
    game: str | None = None
    opponent: str | None = None
    result: Outcome | None = None
    page: int = 1


def archive(session: Session, query: ArchiveQuery, viewer: User | None,
            per_page: int = PER_PAGE) -> tuple[list[GameRow], int]:
    """One page of finished games, the latest first, and how many there are in all.

    ``result`` is the player's (won, lost, drawn), or without a player only ``drawn``. Private games
    (against the computer, analysis boards) are listed only in their own player's archive, for them.
    """
    selected: Select[Any] = select(GameRow).where(GameRow.status == GameStatus.FINISHED)
    if query.game is not None:
        selected = selected.where(GameRow.game == info(query.game).id)
    player = user_named(session, query.player) if query.player else None
    mine = aliased(Seat)
    if player is not None:
        selected = selected.join(mine, (mine.game_id == GameRow.id) & (mine.user_id == player.id))
        if query.result is not None:
            selected = selected.where(mine.score == _SCORE[query.result])
    elif query.result is not None:
        if query.result != "drawn":
            raise NotFound(f"result {query.result!r} is a player's: name the player too; without one, "
                           f"accepted: drawn")
        selected = selected.where(~exists().where(Seat.game_id == GameRow.id, Seat.score == 1.0))
    if query.opponent:
        opponent = user_named(session, query.opponent)
        theirs = aliased(Seat)
        condition = (theirs.game_id == GameRow.id) & (theirs.user_id == opponent.id)
        if player is not None:
            condition = condition & (theirs.seat != mine.seat)
        selected = selected.where(exists().where(condition))
    own = player is not None and viewer is not None and viewer.id == player.id
    if not own:
        selected = selected.where(GameRow.private.is_(False))
    total = session.scalar(select(func.count()).select_from(selected.subquery())) or 0
    page = max(1, query.page)
    rows = session.scalars(selected.order_by(GameRow.finished_at.desc(), GameRow.id.desc())
                           .limit(per_page).offset((page - 1) * per_page)).unique().all()
    return list(rows), total


def expire_guest_games(session: Session, idle_since: datetime) -> int:
    """Delete unfinished games that no registered person plays (guests against the computer, tables of
    guests) untouched since ``idle_since``: abandoned, they would otherwise wait for ever."""
    registered = exists().where(Seat.game_id == GameRow.id, or_(Seat.kind == "user", Seat.kind == "open"))
    last = func.coalesce(GameRow.turn_started_at, GameRow.started_at, GameRow.created_at)
    ids = list(session.scalars(select(GameRow.id).where(GameRow.status.in_(UNDER_WAY), ~registered,
                                                        last < idle_since).limit(500)))
    if ids:
        session.execute(delete(GameRow).where(GameRow.id.in_(ids)))
    return len(ids)
