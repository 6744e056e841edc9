"""The lists, for the routes and pages: the lobby, a player's games, the archive, profiles, leaderboards.
Read only; the queries are in :mod:`.repository`, :mod:`.lists` and :mod:`.ratings`.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from boardlab.core.registry import info
from boardlab.server import lists, play, ratings, repository, views
from boardlab.server.db import Database
from boardlab.server.errors import NotLoggedIn
from boardlab.server.models import Game as GameRow
from boardlab.server.play import Actor
from boardlab.server.schemas import (
    ArchiveOut,
    GameSummary,
    LeaderboardOut,
    LeaderOut,
    LobbyOut,
    ProfileOut,
    RatingOut,
    RatingPointOut,
)
from boardlab.server.status import UNDER_WAY, GameStatus

LIST_LIMIT = 50


class ListService:
    def __init__(self, db: Database) -> None:
        self.db = db

    def lobby(self, actor: Actor) -> LobbyOut:
        with self.db.read() as session:
            challenges = repository.open_challenges(session, LIST_LIMIT)
            playing = lists.watch(session, LIST_LIMIT)
            return LobbyOut(open_challenges=[self._summary(r, actor) for r in challenges],
                            my_games=self._my_games(session, actor),
                            watch=[self._summary(r, actor) for r in playing])

    def my_games(self, actor: Actor) -> list[GameSummary]:
        if actor.user is None:
            raise NotLoggedIn("log in to list your games")
        with self.db.read() as session:
            return self._my_games(session, actor)

    def _my_games(self, session: Session, actor: Actor) -> list[GameSummary]:
        if actor.user is None:
            return []
        rows = repository.games_of_user(session, actor.user.id, 200)
        games = [self._summary(r, actor) for r in rows]
        finished = [g for g in games if g.status not in UNDER_WAY][:LIST_LIMIT]
        current = [g for g in games if g.status in UNDER_WAY]
        current.sort(key=lambda g: (not (g.your_turn or g.invited), g.status != GameStatus.ACTIVE, -g.id))
        return current + finished

    @staticmethod
    def _summary(row: GameRow, actor: Actor) -> GameSummary:
        held = play.seats_held(row, actor)
        invited = actor.user is not None and row.status == GameStatus.CHALLENGE and any(
            s.kind == "user" and s.user_id == actor.user.id and not s.accepted for s in row.seats)
        return views.summary(row, held, invited)

    def archive(self, actor: Actor, query: lists.ArchiveQuery) -> ArchiveOut:
        with self.db.read() as session:
            rows, total = lists.archive(session, query, actor.user)
            pages = max(1, -(-total // lists.PER_PAGE))
            return ArchiveOut(games=[self._summary(r, actor) for r in rows], page=max(1, query.page), pages=pages,
                              total=total)

    def profile(self, actor: Actor, name: str) -> ProfileOut:
        with self.db.read() as session:
            user = lists.user_named(session, name)
            connection = session.connection()
            found = []
            for game, rating, deviation, games in ratings.of_user(connection, user.id):
                points = [RatingPointOut(game_id=game_id, at=views.utc(at) or at, before=before, after=after)
                          for game_id, before, after, at in ratings.history(connection, user.id, game)]
                found.append(RatingOut(game=game, game_name=info(game).name, rating=rating, deviation=deviation,
                                       provisional=deviation > ratings.PROVISIONAL_DEVIATION, games=games,
                                       history=points))
            rows, total = lists.archive(session, lists.ArchiveQuery(player=user.name), actor.user, per_page=10)
            return ProfileOut(name=user.name, joined=views.utc(user.created_at) or user.created_at, ratings=found,
                              recent=[self._summary(r, actor) for r in rows], finished=total)

    def leaderboard(self, game: str, limit: int = 100) -> LeaderboardOut:
        game_id = info(game).id
        with self.db.read() as session:
            leaders = ratings.leaders(session.connection(), game_id, limit)
            names = repository.user_names(session, [user for user, *_ in leaders])
            return LeaderboardOut(game=game_id, game_name=info(game_id).name, players=[
                LeaderOut(rank=rank, name=names[user], rating=rating, deviation=deviation,
                          provisional=deviation > ratings.PROVISIONAL_DEVIATION, games=games)
                for rank, (user, rating, deviation, games) in enumerate(leaders, start=1)])
