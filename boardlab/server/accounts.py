"""Accounts: registration, argon2 password hashes, session and API tokens, the login rate limit.

Tokens are ``secrets.token_urlsafe`` strings; only their SHA-256 is stored, so a copy of the database
does not let anybody log in. Failed logins are rows in the database, so the limit holds across
every worker process.

Hashing and checking a password is slow on purpose (argon2: some 100 ms of CPU and 64 MiB), so it is
done outside any transaction (:func:`hash_password`, :func:`password_matches`; the service runs them
in a small pool of threads of their own). The limit is kept in spite of that: an attempt is counted
(:func:`claim_attempt`, in a transaction that serialises the attempts of one name or address) before
its password is checked, and forgiven (:func:`forgive`) if it was right, so that of any number of
guesses sent at once no more than the limit are ever checked.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, text
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


def hash_password(password: str) -> str:
    """The password's argon2 hash (slow: call it outside any transaction)."""
    return _hasher.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored_hash`` was made from (``None``: no such user, which takes as
    long as a real check, so that timing does not tell names apart). Slow: outside any transaction."""
    if stored_hash is None:
        _hasher.hash(password)
        return False
    try:
        return _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def check_name(name: str) -> None:
    if not NAME.fullmatch(name):
        raise Conflict(f"user name {name!r} is not accepted; accepted: {NAME_RULE}", status=422)


def register(session: Session, name: str, password_hash: str, email: str | None) -> User:
    """A new user with the password whose hash is given (:func:`hash_password`, made before the transaction)."""
    check_name(name)
    if session.scalar(select(User).where(User.name_key == name.lower())) is not None:
        raise Conflict(f"the name {name!r} is taken")
    user = User(name=name, name_key=name.lower(), email=email, password_hash=password_hash,
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


def claim_attempt(session: Session, keys: list[str]) -> list[int]:
    """Count a login attempt against each of ``keys`` (a name, an address) before its password is checked:
    refused (429) once any of them has failed :data:`FAILURES_ALLOWED` times lately; else the attempt is
    written as a failure (it is one until :func:`forgive` says otherwise) and the ids of its rows returned.

    Run in a write transaction, which serialises the attempts on each key: SQLite's one writer; on
    PostgreSQL a transaction lock per key, taken in one order, so that two attempts never both count
    the same failures and both pass."""
    if session.get_bind().dialect.name == "postgresql":
        for key in sorted(keys):
            session.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": f"login {key}"})
    at = clocks.now()
    since = at - FAILURE_WINDOW
    for key in keys:
        failures = session.scalar(select(func.count()).select_from(LoginFailure)
                                  .where(LoginFailure.key == key, LoginFailure.at > since)) or 0
        if failures >= FAILURES_ALLOWED:
            raise TooManyRequests(f"too many failed logins; try again in {int(FAILURE_WINDOW.total_seconds() // 60)} "
                                  f"minutes", retry_after=int(FAILURE_WINDOW.total_seconds()))
    session.execute(delete(LoginFailure).where(LoginFailure.at < since))
    rows = [LoginFailure(key=key, at=at) for key in keys]
    session.add_all(rows)
    session.flush()
    return [row.id for row in rows]


def forgive(session: Session, attempt: list[int]) -> None:
    """The attempt ``claim_attempt`` counted had the right password: it was no failure."""
    session.execute(delete(LoginFailure).where(LoginFailure.id.in_(attempt)))


def stored_hash(session: Session, name: str) -> tuple[User | None, str | None]:
    user = session.scalar(select(User).where(User.name_key == name.lower()))
    return user, user.password_hash if user is not None else None


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
