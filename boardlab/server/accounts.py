"""Accounts: registration, argon2 password hashes, session and API tokens, the login rate limit.

Tokens are ``secrets.token_urlsafe`` strings; only their SHA-256 is stored, so a copy of the database
does not let anybody log in. Failed logins are rows in the database, so the limit holds across
every worker process.

Hashing and checking a password is slow on purpose (argon2: some 100 ms of CPU and 64 MiB), so it is
done outside any transaction (:func:`hash_password`, :func:`password_matches`; the service runs them
in a small pool of threads of their own). The limit is kept in spite of that: an attempt is counted
(:func:`claim_attempt`, in a transaction that serialises the attempts of one name or address) before
its password is checked, and forgiven (:func:`forgive`) if it was right, so that of any number of
guesses sent at once no more than the limit are ever checked. Changing the password or the e-mail
address asks for the password: that check is such an attempt too, and the change is written only if
the password is still the one checked (:func:`set_password`, :func:`set_email`). A reset's new
password is hashed after its token is found valid, and the token used in the transaction that sets it.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, text
from sqlalchemy.orm import Session

from boardlab.server import clocks
from boardlab.server.errors import Conflict, NotLoggedIn, TooManyRequests
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


def register(session: Session, name: str, password_hash: str, email: str | None) -> User:
    """A new user with the password whose hash is given (:func:`hash_password`, made before the
    transaction); refused if the name is taken (ignoring case) or looks like a taken one."""
    name = check_name(name)
    key, looks = name_key(name), skeleton(name)
    taken = session.scalar(select(User).where(User.name_key == key))
    if taken is not None:
        raise Conflict(f"the name {name!r} is taken" + (f" (as {taken.name!r})" if taken.name != name else ""))
    alike = session.scalar(select(User).where(User.name_skeleton == looks))
    if alike is not None:
        raise Conflict(f"the name {name!r} looks like the name {alike.name!r}, which is taken; choose another")
    user = User(name=name, name_key=key, name_skeleton=looks, email=email or None, password_hash=password_hash,
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
    """The user called ``name`` (ignoring case and width) and their password's hash, or ``(None, None)``."""
    user = session.scalar(select(User).where(User.name_key == name_key(name)))
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
        raise NotLoggedIn("log in first (a session cookie, or 'Authorization: Bearer TOKEN')")
    return user


def password_of(session: Session, user: User) -> str | None:
    """``user``'s password hash as stored now (``None``: the account is gone), to be checked outside the
    transaction (:func:`password_matches`) before :func:`set_password` or :func:`set_email`."""
    found = session.get(User, user.id)
    return found.password_hash if found is not None else None


def _still_checked(session: Session, user: User, checked_hash: str) -> User:
    """``user``, locked, if their password is still the one whose hash was checked; else 409 (it was changed
    meanwhile, by another session or a reset), so a change made on an old password never lands."""
    found = session.get(User, user.id, with_for_update=True)
    if found is None:
        raise NotLoggedIn("this account no longer exists")
    if not secrets.compare_digest(found.password_hash, checked_hash):
        raise Conflict("the password was changed meanwhile (another session or a reset); give the new one")
    return found


def set_password(session: Session, user: User, checked_hash: str, new_hash: str, keep: str | None) -> None:
    """Set ``user``'s password hash to ``new_hash`` (made outside the transaction), the current password
    having been checked against ``checked_hash``; every token but ``keep`` (the one asking) stops
    working, so a session left open elsewhere must log in again."""
    found = _still_checked(session, user, checked_hash)
    found.password_hash = new_hash
    _revoke_all(session, found, keep)


def set_email(session: Session, user: User, checked_hash: str, email: str | None) -> User:
    """Set (``None``: remove) ``user``'s e-mail address, the password having been checked against ``checked_hash``."""
    found = _still_checked(session, user, checked_hash)
    found.email = email or None
    return found


def _revoke_all(session: Session, user: User, keep: str | None = None) -> None:
    query = delete(Token).where(Token.user_id == user.id)
    if keep is not None:
        query = query.where(Token.token_hash != token_hash(keep))
    session.execute(query)


def user_for_reset(session: Session, name_or_email: str) -> User | None:
    """The account a reset is asked for, by its name or its e-mail address (only one with an address)."""
    given = name_or_email.strip()
    if "@" in given:
        found = session.scalars(select(User).where(func.lower(User.email) == given.lower()).limit(2)).all()
        return found[0] if len(found) == 1 else None
    user = session.scalar(select(User).where(User.name_key == name_key(given)))
    return user if user is not None and user.email else None


def issue_reset(session: Session, user: User) -> str:
    """A new one-time reset token for ``user`` (valid for RESET_MINUTES); only its hash is kept."""
    token = new_token()
    at = clocks.now()
    session.execute(delete(PasswordReset).where(PasswordReset.expires_at < at))
    session.add(PasswordReset(user_id=user.id, token_hash=token_hash(token), created_at=at,
                              expires_at=at + timedelta(minutes=RESET_MINUTES)))
    return token


def valid_reset(session: Session, token: str, lock: bool = False) -> PasswordReset:
    """The reset a token stands for, if it is unused and unexpired; else 401 (checked before the new
    password is hashed, and again, locked, by :func:`reset_password`)."""
    query = select(PasswordReset).where(PasswordReset.token_hash == token_hash(token))
    reset = session.scalar(query.with_for_update() if lock else query)
    if reset is None or reset.used_at is not None or reset.expires_at < clocks.now():
        raise NotLoggedIn("this reset link is not valid (used already, expired or mistyped); ask for a new one")
    return reset


def reset_password(session: Session, token: str, password_hash: str) -> User:
    """Use a reset token (once): the new password (its hash, made outside the transaction) is set and
    every session and API token ends."""
    reset = valid_reset(session, token, lock=True)
    user = session.get(User, reset.user_id)
    if user is None:
        raise NotLoggedIn("this reset link is not valid; ask for a new one")
    reset.used_at = clocks.now()
    user.password_hash = password_hash
    _revoke_all(session, user)
    return user
