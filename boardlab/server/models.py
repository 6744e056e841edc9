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
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)  # lower case: names are unique ignoring case
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
