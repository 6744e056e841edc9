"""Accounts: registration, argon2 password hashes, session and API tokens, the login rate limit.

Tokens are ``secrets.token_urlsafe`` strings; only their SHA-256 is stored, so a copy of the database
does not let anybody log in. Failed logins are rows in the database, so the limit holds across
every worker process.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from boardlab.server import clocks
from boardlab.server.errors import Conflict, TooManyRequests, Unauthorised
from boardlab.server.models import LoginFailure, PasswordReset, Token, User
from boardlab.server.names import NAME_RULE, check_name, name_key, skeleton

__all__ = ["NAME_RULE"]
SESSION_DAYS = 30
RESET_MINUTES = 60  # how long an e-mailed password reset link works (once)
FAILURES_ALLOWED = 10  # per name and per address, in the window below
FAILURE_WINDOW = timedelta(minutes=15)

_hasher = PasswordHasher()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def register(session: Session, name: str, password: str, email: str | None) -> User:
    name = check_name(name)
    key, looks = name_key(name), skeleton(name)
    taken = session.scalar(select(User).where(User.name_key == key))
    if taken is not None:
        raise Conflict(f"the name {name!r} is taken" + (f" (as {taken.name!r})" if taken.name != name else ""))
    alike = session.scalar(select(User).where(User.name_skeleton == looks))
    if alike is not None:
        raise Conflict(f"the name {name!r} looks like the name {alike.name!r}, which is taken; choose another")
    user = User(name=name, name_key=key, name_skeleton=looks, email=email or None,
                password_hash=_hasher.hash(password), created_at=clocks.now())
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
    user = session.scalar(select(User).where(User.name_key == name_key(name)))
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


def change_password(session: Session, user: User, current: str, new: str, keep: str | None) -> None:
    """Set ``user``'s password to ``new`` once ``current`` is checked; every token but ``keep`` (the
    one asking) stops working, so a session left open elsewhere must log in again."""
    found = session.get(User, user.id)
    if found is None or authenticate(session, found.name, current) is None:
        raise Unauthorised("the current password is wrong")
    found.password_hash = _hasher.hash(new)
    _revoke_all(session, found, keep)


def change_email(session: Session, user: User, password: str, email: str | None) -> User:
    found = session.get(User, user.id)
    if found is None or authenticate(session, found.name, password) is None:
        raise Unauthorised("the password is wrong")
    found.email = email or None
    return found


def _revoke_all(session: Session, user: User, keep: str | None = None) -> None:
    query = delete(Token).where(Token.user_id == user.id)
    if keep is not None:
        query = query.where(Token.token_hash != token_hash(keep))
    session.execute(query)


def user_for_reset(session: Session, name_or_email: str) -> User | None:
    """The account a reset is asked for, by its name or its e-mail address (only one with an address)."""
    text = name_or_email.strip()
    if "@" in text:
        found = session.scalars(select(User).where(func.lower(User.email) == text.lower()).limit(2)).all()
        return found[0] if len(found) == 1 else None
    user = session.scalar(select(User).where(User.name_key == name_key(text)))
    return user if user is not None and user.email else None


def issue_reset(session: Session, user: User) -> str:
    """A new one-time reset token for ``user`` (valid for RESET_MINUTES); only its hash is kept."""
    token = new_token()
    at = clocks.now()
    session.execute(delete(PasswordReset).where(PasswordReset.expires_at < at))
    session.add(PasswordReset(user_id=user.id, token_hash=token_hash(token), created_at=at,
                              expires_at=at + timedelta(minutes=RESET_MINUTES)))
    return token


def reset_password(session: Session, token: str, password: str) -> User:
    """Use a reset token (once): the new password is set and every session and API token ends."""
    at = clocks.now()
    reset = session.scalar(select(PasswordReset).where(PasswordReset.token_hash == token_hash(token))
                           .with_for_update())
    if reset is None or reset.used_at is not None or reset.expires_at < at:
        raise Unauthorised("this reset link is not valid (used already, expired or mistyped); ask for a new one")
    user = session.get(User, reset.user_id)
    if user is None:
        raise Unauthorised("this reset link is not valid; ask for a new one")
    reset.used_at = at
    user.password_hash = _hasher.hash(password)
    _revoke_all(session, user)
    return user
