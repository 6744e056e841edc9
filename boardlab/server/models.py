"""The tables. The moves table is the source of truth: a game is its options plus its moves.

A challenge is a game that has not started: its seats say who is invited (a user, anyone, a guest
with an invitation link, the computer) and which have accepted. ``games.ply`` is the number of
moves stored, kept beside the moves so that a move is checked and appended in one transaction; the
primary key (game, ply) of ``moves`` keeps exactly one of two moves sent for the same ply.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))  # NFKC-normalised, as shown (accounts.check_name)
    name_key: Mapped[str] = mapped_column(String(128), unique=True)  # case-folded: unique ignoring case
    # Unicode's confusables skeleton (UTS #39) of the name as written and case-folded (names.skeleton):
    # two names that look alike share it.
    name_skeleton: Mapped[str] = mapped_column(String(512), unique=True)
    email: Mapped[str | None] = mapped_column(String(254))
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(DateTime)


class Token(Base):
    """A session (browser cookie) or API token; only its SHA-256 is stored."""

    __tablename__ = "tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime)


class PasswordReset(Base):
    """A one-time token e-mailed to reset a password; only its SHA-256 is stored."""

    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)
    used_at: Mapped[datetime | None] = mapped_column(DateTime)


class Rating(Base):
    """A player's Glicko-2 rating in one game (ratings.py), changed at the end of each rated game."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class RatingChange(Base):
    """One rated game's effect on one player's rating: the history a profile shows."""

    __tablename__ = "rating_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    before: Mapped[float] = mapped_column(Float)
    after: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime)


class LoginFailure(Base):
    """One failed login, by name and by address: the rate limit counts these (shared by all workers)."""

    __tablename__ = "login_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(100), index=True)
    at: Mapped[datetime] = mapped_column(DateTime, index=True)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str | None] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    rules_version: Mapped[str] = mapped_column(String(32))
    start: Mapped[str | None] = mapped_column(Text)  # position text, for an uploaded record's start
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)  # challenge, active, finished, declined
    ply: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer)
    result: Mapped[list[float] | None] = mapped_column(JSON)
    termination: Mapped[str | None] = mapped_column(String(32))
    loser: Mapped[int | None] = mapped_column(Integer)  # the seat that resigned or ran out of time
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    started_at: Mapped[datetime | None] = mapped_column(DateTime)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime)
    version: Mapped[int] = mapped_column(Integer, default=0)  # bumped by every change: events carry it
    undos: Mapped[int] = mapped_column(Integer, default=0)  # takebacks granted: with ply, names the line of moves
    time_control: Mapped[str] = mapped_column(String(16))  # correspondence or live
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    base_seconds: Mapped[float | None] = mapped_column(Float)
    increment_seconds: Mapped[float | None] = mapped_column(Float)
    turn_started_at: Mapped[datetime | None] = mapped_column(DateTime)
    deadline: Mapped[datetime | None] = mapped_column(DateTime, index=True)
    draw_offers: Mapped[list[int]] = mapped_column(JSON, default=list)
    undo_request: Mapped[int | None] = mapped_column(Integer)  # the seat asking to take its last move back
    ai_lease_until: Mapped[datetime | None] = mapped_column(DateTime)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)  # two registered people; Glicko-2 at the end
    private: Mapped[bool] = mapped_column(Boolean, default=False)  # not listed among the games to watch
    rematch: Mapped[int | None] = mapped_column(Integer)  # the game offered as this one's rematch
    end_reason: Mapped[str | None] = mapped_column(String(64))  # the rules' words for why they ended it
    outcome: Mapped[str | None] = mapped_column(Text)  # how it ended, in one sentence (boardlab.outcome)

    seats: Mapped[list[Seat]] = relationship(order_by="Seat.seat", lazy="selectin", cascade="all, delete-orphan")


class Seat(Base):
    """Who plays one seat: a user, the computer (an agent spec), a guest with a token, or open to anyone."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # user, open, ai, guest
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"), index=True)
    agent: Mapped[str | None] = mapped_column(String(200))
    token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    accepted: Mapped[bool] = mapped_column(Boolean, default=False)
    remaining_seconds: Mapped[float | None] = mapped_column(Float)  # live games: the seat's clock
    score: Mapped[float | None] = mapped_column(Float)  # at the end: 1 won, 0.5 drew, 0 lost
    rating: Mapped[float | None] = mapped_column(Float)  # rated games: the player's rating at the start
    rating_change: Mapped[float | None] = mapped_column(Float)  # rated games: what the result changed it by

    user: Mapped[User | None] = relationship(lazy="joined")


class MoveRow(Base):
    __tablename__ = "moves"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0 for the first move
    text: Mapped[str] = mapped_column(Text)
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime)
    seconds: Mapped[float] = mapped_column(Float)  # time the mover took


Index("ix_games_status_deadline", Game.status, Game.deadline)
Index("ix_games_status_finished_at", Game.status, Game.finished_at)
Index("ix_rating_changes_user_game", RatingChange.user_id, RatingChange.game, RatingChange.id)


class SearchJob(Base):
    """A computer turn waiting for, or being searched by, a ``boardlab ai-worker`` (``serve --ai-queue``;
    see :mod:`boardlab.server.jobs`): one a game, for the game's ``version`` it was queued at."""

    __tablename__ = "search_jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    version: Mapped[int] = mapped_column(Integer)
    ply: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    agent: Mapped[str] = mapped_column(String(200))
    seed: Mapped[int] = mapped_column(BigInteger)
    queued_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime)  # held by ``worker`` until then
    worker: Mapped[str | None] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(Integer, default=0)  # claims so far: 2 after a worker died
