"""Accounts: registration, argon2 password hashes, session and API tokens, the login rate limit.

Tokens are ``secrets.token_urlsafe`` strings; only their SHA-256 is stored, so a copy of the database
does not let anybody log in. Failed logins are rows in the database, so the limit holds across
every worker process.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from boardlab.server import clocks
from boardlab.server.errors import Conflict, TooManyRequests, Unauthorised
from boardlab.server.models import LoginFailure, Token, User

NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{1,31}")
NAME_RULE = "2 to 32 letters, digits, '_' or '-', starting with a letter"
SESSION_DAYS = 30
FAILURES_ALLOWED = 10  # per name and per address, in the window below
FAILURE_WINDOW = timedelta(minutes=15)

_hasher = PasswordHasher()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def register(session: Session, name: str, password: str, email: str | None) -> User:
    if not NAME.fullmatch(name):
        raise Conflict(f"user name {name!r} is not accepted; accepted: {NAME_RULE}", status=422)
    if session.scalar(select(User).where(User.name_key == name.lower())) is not None:
        raise Conflict(f"the name {name!r} is taken")
    user = User(name=name, name_key=name.lower(), email=email, password_hash=_hasher.hash(password),
                created_at=clocks.now())
    session.add(user)
    session.flush()
    return user


def issue_token(session: Session, user: User, kind: str) -> str:
    """A new token for ``user``: ``session`` (a browser's cookie; expires) or ``api`` (for scripts)."""
    token = new_token()
    expires = clocks.now() + timedelta(days=SESSION_DAYS) if kind == "session" else None
    session.add(Token(user_id=user.id, token_hash=token_hash(token), kind=kind, created_at=clocks.now(),
                      expires_at=expires))
    return token


def check_rate(session: Session, keys: list[str]) -> None:
    """Refuse a login attempt (429) once a name or an address has failed too often lately."""
    since = clocks.now() - FAILURE_WINDOW
    for key in keys:
        failures = session.scalar(select(func.count()).select_from(LoginFailure)
                                  .where(LoginFailure.key == key, LoginFailure.at > since)) or 0
        if failures >= FAILURES_ALLOWED:
            raise TooManyRequests(f"too many failed logins; try again in {int(FAILURE_WINDOW.total_seconds() // 60)} "
                                  f"minutes", retry_after=int(FAILURE_WINDOW.total_seconds()))


def record_failure(session: Session, keys: list[str]) -> None:
    at = clocks.now()
    session.add_all(LoginFailure(key=key, at=at) for key in keys)
    session.execute(delete(LoginFailure).where(LoginFailure.at < at - FAILURE_WINDOW))


def authenticate(session: Session, name: str, password: str) -> User | None:
    """The user whose name and password these are, or ``None``."""
    user = session.scalar(select(User).where(User.name_key == name.lower()))
    if user is None:
        _hasher.hash(password)  # take as long as a real check, so timing does not tell names apart
        return None
    try:
        _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return None
    return user


def user_for_token(session: Session, token: str) -> User | None:
    row = session.execute(select(Token, User).join(User, Token.user_id == User.id)
                          .where(Token.token_hash == token_hash(token))).first()
    if row is None:
        return None
    found, user = row
    if found.expires_at is not None and found.expires_at < clocks.now():
        return None
    return user


def revoke(session: Session, token: str) -> None:
    session.execute(delete(Token).where(Token.token_hash == token_hash(token)))


def require_user(user: User | None) -> User:
    if user is None:
        raise Unauthorised("log in first (a session cookie, or 'Authorization: Bearer TOKEN')")
    return user
