"""Ratings: Glicko-2 (:mod:`.glicko2`) per game, for rated games between two registered people.

The challenger chooses a rated or a casual game. Games with a computer seat, a guest seat or more
than two seats (Mynd with three or four players) are never rated: a pairwise rating says nothing
sound about one result among three players. Each rated game is its own rating period (as on
lichess): both ratings change at its end, in the same transaction as the move, resignation, draw
or timeout that ended it, from both players' ratings as they stood then. A player's rating in a
game begins at 1500 with a deviation of 350; the deviation does not grow with time away.

Every statement here is SQLAlchemy Core on the transaction's connection (the move path has no ORM
session), so the ORM's paths pass ``session.connection()``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, insert, select, update
from sqlalchemy.dialects.postgresql import insert as postgres_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from boardlab.server import glicko2
from boardlab.server.models import Game as GameRow
from boardlab.server.models import Rating, RatingChange
from boardlab.server.status import GameStatus

_RATINGS = cast(Table, Rating.__table__)
_CHANGES = cast(Table, RatingChange.__table__)
PROVISIONAL_DEVIATION = 110.0  # above it a rating is shown with a "?" (as lichess does)


def why_unrated(kinds: list[str], seats: int) -> str | None:
    """Why a game whose seats are of ``kinds`` cannot be rated (``None``: it can)."""
    if seats != 2:
        return f"ratings are for two players, and this game has {seats} seats"
    if "ai" in kinds:
        return "games against the computer are not rated"
    if "guest" in kinds:
        return "a guest (a seat without an account) is not rated"
    return None


def _users(row: GameRow) -> list[int] | None:
    users = [seat.user_id for seat in row.seats]
    if not row.rated or len(users) != 2 or None in users or users[0] == users[1]:
        return None
    return cast(list[int], users)


def _ensure(connection: Connection, users: list[int], game: str, at: datetime) -> None:
    """Give each of ``users`` a starting rating in ``game`` unless they have one (two games ending at
    once for a new player insert it once: the second insert does nothing)."""
    values = [{"user_id": user, "game": game, "rating": glicko2.START[0], "deviation": glicko2.START[1],
               "volatility": glicko2.START[2], "games": 0, "updated_at": at} for user in users]
    maker: Any = postgres_insert if connection.dialect.name == "postgresql" else sqlite_insert
    connection.execute(maker(_RATINGS).values(values).on_conflict_do_nothing(index_elements=["user_id", "game"]))


def _read(connection: Connection, users: list[int], game: str, lock: bool) -> dict[int, glicko2.Rating]:
    query = select(_RATINGS.c.user_id, _RATINGS.c.rating, _RATINGS.c.deviation, _RATINGS.c.volatility) \
        .where(_RATINGS.c.game == game, _RATINGS.c.user_id.in_(users)).order_by(_RATINGS.c.user_id)
    if lock:
        query = query.with_for_update()  # PostgreSQL: both rows, in user order (no deadlock between games)
    return {user: glicko2.Rating(rating, deviation, volatility)
            for user, rating, deviation, volatility in connection.execute(query)}


def stamp(connection: Connection, row: GameRow) -> None:
    """At the start of a rated game, note each player's rating (the game page shows what was at stake)."""
    users = _users(row)
    if users is None or row.status != GameStatus.ACTIVE:
        return
    found = _read(connection, users, row.game, lock=False)
    for seat in row.seats:
        assert seat.user_id is not None
        seat.rating = found.get(seat.user_id, glicko2.Rating()).rating


def settle(connection: Connection, row: GameRow, at: datetime) -> None:
    """At the end of a rated game: both players' new ratings, their history, and each seat's change."""
    users = _users(row)
    if users is None or row.result is None:
        return
    _ensure(connection, users, row.game, at)
    before = _read(connection, users, row.game, lock=True)
    scores = {seat.user_id: row.result[seat.seat] for seat in row.seats}
    for seat in row.seats:
        me = seat.user_id
        assert me is not None
        other = users[1] if me == users[0] else users[0]
        after = glicko2.update(before[me], [(before[other], scores[me])])
        connection.execute(update(_RATINGS).where(_RATINGS.c.user_id == me, _RATINGS.c.game == row.game)
                           .values(rating=after.rating, deviation=after.deviation, volatility=after.volatility,
                                   games=_RATINGS.c.games + 1, updated_at=at))
        connection.execute(insert(_CHANGES).values(user_id=me, game=row.game, game_id=row.id,
                                                   before=before[me].rating, after=after.rating,
                                                   deviation=after.deviation, at=at))
        seat.rating_change = after.rating - before[me].rating


def of_user(connection: Connection, user_id: int) -> list[tuple[str, float, float, int]]:
    """A player's ratings: (game, rating, deviation, rated games), by game."""
    return [(game, rating, deviation, games) for game, rating, deviation, games in connection.execute(
        select(_RATINGS.c.game, _RATINGS.c.rating, _RATINGS.c.deviation, _RATINGS.c.games)
        .where(_RATINGS.c.user_id == user_id).order_by(_RATINGS.c.game))]


def history(connection: Connection, user_id: int, game: str, limit: int = 200) -> list[tuple[int, float, float,
                                                                                             datetime]]:
    """A player's rating in ``game`` after each rated game: (game id, before, after, when), oldest first."""
    rows = connection.execute(select(_CHANGES.c.game_id, _CHANGES.c.before, _CHANGES.c.after, _CHANGES.c.at)
                              .where(_CHANGES.c.user_id == user_id, _CHANGES.c.game == game)
                              .order_by(_CHANGES.c.id.desc()).limit(limit)).all()
    return [(game_id, b, a, when) for game_id, b, a, when in reversed(rows)]


def leaders(connection: Connection, game: str, limit: int, offset: int = 0) -> list[tuple[int, float, float, int]]:
    """The best-rated players of ``game``: (user id, rating, deviation, rated games), best first."""
    return [(user, rating, deviation, games) for user, rating, deviation, games in connection.execute(
        select(_RATINGS.c.user_id, _RATINGS.c.rating, _RATINGS.c.deviation, _RATINGS.c.games)
        .where(_RATINGS.c.game == game, _RATINGS.c.games > 0)
        .order_by(_RATINGS.c.rating.desc(), _RATINGS.c.user_id).limit(limit).offset(offset))]

