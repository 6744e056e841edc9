"""Accounts, for the routes: who is asking (tokens, remembered a moment), registration, login, password and
e-mail changes, password resets. The rules of accounts (names, hashes, tokens, attempts) are in
:mod:`.accounts`; this wraps them in transactions and keeps argon2's slow work off the request pool.
"""

from __future__ import annotations

import random
import time

from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from boardlab.server import accounts
from boardlab.server.config import Settings
from boardlab.server.db import Database
from boardlab.server.errors import Conflict, NotLoggedIn
from boardlab.server.mail import Mailer
from boardlab.server.models import User
from boardlab.server.names import name_key
from boardlab.server.play import Actor
from boardlab.server.pools import PASSWORD_THREADS, SlowPool
from boardlab.server.schemas import (
    EmailChange,
    LoginRequest,
    PasswordChange,
    RegisterRequest,
    ResetConfirm,
    ResetRequest,
    TokenOut,
    UserOut,
)

# A token checked against the database is trusted this long without checking again (seconds): a
# logout takes effect at once in the process that handles it, and within this time in the others.
# Each token's time is drawn between half and all of it, so that tokens first seen together (a
# crowd arriving at once) do not all fall due, and queue for the database, in the same moment.
TOKEN_MEMORY = 5.0


def login_keys(name: str, address: str) -> list[str]:
    """What a password check is counted against: the name (as compared: ignoring case and width; cut to
    fit the column, which a name's NFKC form could overflow) and the caller's address."""
    return [f"name:{name_key(name)[:80]}", f"address:{address[:80]}"]


class AccountService:
    def __init__(self, settings: Settings, db: Database, mailer: Mailer) -> None:
        self.settings, self.db, self.mailer = settings, db, mailer
        # argon2 (which leaves the GIL, but takes a core) on half the cores at most
        self._passwords = SlowPool(PASSWORD_THREADS, "boardlab-passwords")
        self._tokens: dict[str, tuple[float, User]] = {}  # token -> (remember until, user)

    def close(self) -> None:
        self._passwords.shutdown()

    # -- who is asking --------------------------------------------------------------------------

    def actor(self, token: str | None, seat_tokens: tuple[str, ...] = ()) -> Actor:
        found = self.known_actor(token, seat_tokens)
        if found is not None:
            return found
        assert token is not None
        with self.db.read() as session:
            user = accounts.user_for_token(session, token)
        if user is None:
            raise NotLoggedIn("the token is not valid (expired, logged out or mistyped); log in again")
        self._tokens[token] = (time.monotonic() + TOKEN_MEMORY * (0.5 + random.random() / 2), user)
        if len(self._tokens) > 10_000:
            self._tokens.clear()
        return Actor(user=user, seat_tokens=seat_tokens)

    def known_actor(self, token: str | None, seat_tokens: tuple[str, ...] = ()) -> Actor | None:
        """The caller, if that needs no database lookup (no token, or one checked a moment ago)."""
        if not token:
            return Actor(user=None, seat_tokens=seat_tokens)
        memory = self._tokens.get(token)
        if memory is None or memory[0] < time.monotonic():
            return None
        return Actor(user=memory[1], seat_tokens=seat_tokens)

    # -- accounts -------------------------------------------------------------------------------

    # Registration and login wait (on the event loop, holding no thread of the request pool) for argon2 in
    # the passwords' own threads, and do their short transactions in the request pool's, so that a crowd
    # registering at once neither holds the database's write lock nor starves other requests of threads.

    async def register(self, request: RegisterRequest) -> TokenOut:
        accounts.check_name(request.name)
        password_hash = await self._passwords.run(accounts.hash_password, request.password)
        return await run_in_threadpool(self._register, request, password_hash)

    def _register(self, request: RegisterRequest, password_hash: str) -> TokenOut:
        try:
            with self.db.write() as session:
                user = accounts.register(session, request.name, password_hash, request.email)
                token = accounts.issue_token(session, user, "session")
        except IntegrityError:  # registered meanwhile, by another request (the same name or a look-alike)
            raise Conflict(f"the name {request.name!r}, or one that looks like it, is taken") from None
        return TokenOut(user=user.name, token=token, kind="session")

    async def login(self, request: LoginRequest, address: str) -> TokenOut:
        """Count the attempt (429 beyond the limit), check the password, then forgive the attempt and issue
        a token if it was right: of any number of guesses at once, at most the limit are checked."""
        keys = login_keys(request.name, address)
        user, stored, attempt = await run_in_threadpool(self._claim_login, keys, request.name)
        right = await self._passwords.run(accounts.password_matches, stored, request.password)
        if not right or user is None:
            raise NotLoggedIn("wrong name or password")
        return await run_in_threadpool(self._finish_login, user, attempt, request.kind)

    def _claim_login(self, keys: list[str], name: str) -> tuple[User | None, str | None, list[int]]:
        with self.db.write() as session:
            attempt = accounts.claim_attempt(session, keys)
            user, stored = accounts.stored_hash(session, name)
        return user, stored, attempt

    def _finish_login(self, user: User, attempt: list[int], kind: str) -> TokenOut:
        with self.db.write() as session:
            accounts.forgive(session, attempt)
            token = accounts.issue_token(session, user, kind)
        return TokenOut(user=user.name, token=token, kind=kind)

    def logout(self, token: str) -> None:
        self._tokens.pop(token, None)
        with self.db.write() as session:
            accounts.revoke(session, token)

    # Changing the password or the e-mail address asks for the password: that check is a login attempt,
    # counted (against the account's name and the caller's address) before argon2 runs, as a login's is.

    async def _check_password(self, user: User, password: str, address: str, wrong: str) -> tuple[str, list[int]]:
        """Check ``user``'s ``password`` as a login attempt: 429 beyond the limit, 401 (``wrong``) if it is
        wrong (the attempt stays counted). Returns the hash it was checked against and the attempt's rows."""
        keys = login_keys(user.name, address)
        stored, attempt = await run_in_threadpool(self._claim_check, keys, user)
        if not await self._passwords.run(accounts.password_matches, stored, password) or stored is None:
            raise NotLoggedIn(wrong)
        return stored, attempt

    def _claim_check(self, keys: list[str], user: User) -> tuple[str | None, list[int]]:
        with self.db.write() as session:
            attempt = accounts.claim_attempt(session, keys)
            stored = accounts.password_of(session, user)
        return stored, attempt

    async def change_password(self, actor: Actor, token: str | None, request: PasswordChange, address: str) -> None:
        user = accounts.require_user(actor.user)
        checked, attempt = await self._check_password(user, request.current, address,
                                                      "the current password is wrong")
        new_hash = await self._passwords.run(accounts.hash_password, request.new)
        await run_in_threadpool(self._set_password, user, attempt, checked, new_hash, token)
        self._tokens = {kept: memory for kept, memory in self._tokens.items() if kept == token}

    def _set_password(self, user: User, attempt: list[int], checked: str, new_hash: str, token: str | None) -> None:
        with self.db.write() as session:
            accounts.forgive(session, attempt)
            accounts.set_password(session, user, checked, new_hash, keep=token)

    async def change_email(self, actor: Actor, request: EmailChange, address: str) -> UserOut:
        user = accounts.require_user(actor.user)
        checked, attempt = await self._check_password(user, request.password, address, "the password is wrong")
        changed = await run_in_threadpool(self._set_email, user, attempt, checked, request.email)
        self._tokens.clear()  # the remembered user carries the old address
        return changed

    def _set_email(self, user: User, attempt: list[int], checked: str, email: str | None) -> UserOut:
        with self.db.write() as session:
            accounts.forgive(session, attempt)
            changed = accounts.set_email(session, user, checked, email)
            return UserOut(name=changed.name, email=changed.email)

    def request_reset(self, request: ResetRequest) -> None:
        """E-mail a one-time link that sets a new password, if an account with that name or address has
        an e-mail address. The answer is the same either way: it must not tell who has an account."""
        if not self.mailer.enabled:
            raise Conflict("this server sends no e-mail, so it cannot reset a password; ask the people who run it")
        with self.db.write() as session:
            user = accounts.user_for_reset(session, request.name_or_email)
            if user is None or not user.email:
                return
            token = accounts.issue_reset(session, user)
            address, name = user.email, user.name
        link = f"{self.settings.public_url}/reset#{token}"
        self.mailer.send(address, "Your boardlab password",
                         f"Someone (you, we hope) asked to set a new password for {name} on "
                         f"{self.settings.public_url}.\n\nSet a new password: {link}\n\nThe link works once, "
                         f"within {accounts.RESET_MINUTES} minutes. If you did not ask, ignore this message: "
                         f"your password stays as it is.\n")

    async def confirm_reset(self, request: ResetConfirm) -> TokenOut:
        """Set a new password with an e-mailed token: the token is checked first (so a mistyped one costs no
        hashing), the new password hashed outside any transaction, then the token used, once."""
        await run_in_threadpool(self._valid_reset, request.token)
        new_hash = await self._passwords.run(accounts.hash_password, request.password)
        out = await run_in_threadpool(self._reset, request.token, new_hash)
        self._tokens.clear()
        return out

    def _valid_reset(self, token: str) -> None:
        with self.db.read() as session:
            accounts.valid_reset(session, token)

    def _reset(self, token: str, new_hash: str) -> TokenOut:
        with self.db.write() as session:
            user = accounts.reset_password(session, token, new_hash)
            token = accounts.issue_token(session, user, "session")
            return TokenOut(user=user.name, token=token, kind="session")
