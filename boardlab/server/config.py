"""Server settings: from ``boardlab serve``'s arguments, or from ``BOARDLAB_*`` environment variables.

Every worker process reads the same environment, so ``boardlab serve --workers N`` writes the
settings there once and each worker's :func:`~boardlab.server.app.app_from_env` reads them back.

>>> settings = Settings.from_env({"BOARDLAB_DB": "sqlite:///games.db", "BOARDLAB_PORT": "8001"})
>>> settings.db_url, settings.port, settings.is_sqlite
('sqlite:///games.db', 8001, True)
>>> Settings(db_url="postgresql://u@localhost/b").db_url
'postgresql+psycopg://u@localhost/b'
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from boardlab.errors import BoardlabError

DEFAULT_DB = "sqlite:///boardlab.db"
_ENV = {
    "db_url": "BOARDLAB_DB", "host": "BOARDLAB_HOST", "port": "BOARDLAB_PORT", "workers": "BOARDLAB_WORKERS",
    "smtp": "BOARDLAB_SMTP", "mail_from": "BOARDLAB_MAIL_FROM",
    "base_url": "BOARDLAB_BASE_URL", "ai_workers": "BOARDLAB_AI_WORKERS", "sweep_seconds": "BOARDLAB_SWEEP_SECONDS",
    "migrate": "BOARDLAB_MIGRATE", "background": "BOARDLAB_BACKGROUND",
    "hint_burst": "BOARDLAB_HINT_BURST", "hints_per_minute": "BOARDLAB_HINTS_PER_MINUTE",
    "warm_up": "BOARDLAB_WARM_UP", "guest_days": "BOARDLAB_GUEST_DAYS",
    "ai_queue": "BOARDLAB_AI_QUEUE", "max_body": "BOARDLAB_MAX_BODY", "max_record": "BOARDLAB_MAX_RECORD",
    "secure_cookies": "BOARDLAB_SECURE_COOKIES", "quick_move_commits": "BOARDLAB_QUICK_MOVE_COMMITS",
}
MAX_BODY = 64 * 1024  # bytes: a request's body (a move, a login, a challenge take a few hundred)
MAX_RECORD = 2 * 1024 * 1024  # bytes: a new game's body, which may carry a record (a 3,000-move one: ~29 KB)


def kib(size: int) -> str:
    """A size in bytes as people read it: ``65536`` is ``64 KiB``, ``2097152`` is ``2 MiB``."""
    if size >= 1 << 20 and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size >= 1 << 10 and size % (1 << 10) == 0:
        return f"{size >> 10} KiB"
    return f"{size} bytes"


class SettingsError(BoardlabError):
    """A server setting that is not accepted (the message says what is)."""


@dataclass(frozen=True)
class Settings:
    """How one server runs. ``smtp`` is ``host:port`` (``None``: no e-mail, the default)."""

    db_url: str = DEFAULT_DB
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    smtp: str | None = None
    mail_from: str = "boardlab@localhost"
    base_url: str | None = None
    ai_workers: int = 1
    sweep_seconds: float = 1.0
    migrate: bool = True
    background: bool = True  # the sweep (timeouts, the computer's turns after a restart); tests turn it off
    # Hints run a search each: one address may ask hint_burst at once, then hints_per_minute (ratelimit.py).
    hint_burst: int = 10
    hints_per_minute: float = 20.0
    # Compile and load every game's rules (and the computer's search) at start, in the background.
    warm_up: bool = True
    # Unfinished games no registered person plays (a guest against the computer) are deleted after
    # this many days untouched.
    guest_days: float = 7.0
    max_body: int = MAX_BODY
    max_record: int = MAX_RECORD
    # The session cookie is marked Secure (sent over HTTPS only) when this is set, and for any request that
    # came over HTTPS (as the proxy told uvicorn, from an address in --forwarded-allow-ips).
    secure_cookies: bool = False
    # The computer's searches are jobs in the database, taken by ``boardlab ai-worker`` processes on any
    # machine (PostgreSQL; see boardlab.server.jobs), instead of this server's own worker processes.
    ai_queue: bool = False
    # PostgreSQL: a move's commit is not waited for on disk (synchronous_commit off for that transaction
    # alone, as SQLite runs with synchronous=NORMAL): a crash of the database's machine, or of PostgreSQL,
    # may then lose the last moves made before it (under a second's), never corrupt a game. Off: every
    # commit waits for the disk, PostgreSQL's default.
    quick_move_commits: bool = False

    def __post_init__(self) -> None:
        url = self.db_url
        if url.startswith(("postgresql://", "postgres://")):
            url = "postgresql+psycopg://" + url.split("://", 1)[1]
        if not url.startswith(("sqlite://", "postgresql+psycopg://")):
            raise SettingsError(f"database URL {self.db_url!r} is not accepted; accepted: sqlite:///FILE or "
                                f"postgresql+psycopg://USER:PASSWORD@HOST:PORT/NAME")
        object.__setattr__(self, "db_url", url)
        if not 1 <= self.port <= 65535:
            raise SettingsError(f"port {self.port} is not accepted; accepted: 1 to 65535")
        if not 1 <= self.workers <= 64:
            raise SettingsError(f"--workers {self.workers} is not accepted; accepted: 1 to 64")
        if self.workers > 1 and self.is_sqlite:
            raise SettingsError(
                f"--workers {self.workers} needs PostgreSQL (--db postgresql+psycopg://…): SQLite lets one "
                f"process write at a time, and live updates between workers use PostgreSQL's LISTEN/NOTIFY")
        if not 1 <= self.ai_workers <= 64:
            raise SettingsError(f"AI workers {self.ai_workers} is not accepted; accepted: 1 to 64")
        if self.ai_queue and self.is_sqlite:
            raise SettingsError("--ai-queue needs PostgreSQL (--db postgresql+psycopg://…): workers claim the "
                                "jobs with SELECT … FOR UPDATE SKIP LOCKED, which SQLite does not have")
        if not 1 <= self.hint_burst <= 10_000 or not 0 < self.hints_per_minute <= 100_000:
            raise SettingsError(f"hint limit {self.hint_burst} at once, {self.hints_per_minute} a minute is not "
                                f"accepted; accepted: 1 to 10000 at once, more than 0 and at most 100000 a minute")
        if not 0 < self.guest_days <= 3650:
            raise SettingsError(f"guest game expiry {self.guest_days} days is not accepted; accepted: more than 0 "
                                f"and at most 3650")
        for name, size in (("--max-body", self.max_body), ("--max-record", self.max_record)):
            if not 1024 <= size <= 1 << 30:
                raise SettingsError(f"{name} {size} is not accepted; accepted: 1024 to {1 << 30} bytes")
        if self.smtp is not None:
            host, _, port = self.smtp.rpartition(":")
            if not host or not port.isdecimal() or not 1 <= int(port) <= 65535:
                raise SettingsError(f"--smtp {self.smtp!r} is not accepted; accepted: HOST:PORT (e.g. localhost:25)")

    @property
    def is_sqlite(self) -> bool:
        return self.db_url.startswith("sqlite")

    @property
    def smtp_address(self) -> tuple[str, int] | None:
        if self.smtp is None:
            return None
        host, _, port = self.smtp.rpartition(":")
        return host, int(port)

    @property
    def public_url(self) -> str:
        """Where people reach this server (links in e-mails and invitations)."""
        return (self.base_url or f"http://{self.host}:{self.port}").rstrip("/")

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for item in fields(cls):
            name = _ENV[item.name]
            if name not in env:
                continue
            text = env[name]
            try:
                if item.name in ("port", "workers", "ai_workers", "hint_burst", "max_body", "max_record"):
                    values[item.name] = int(text)
                elif item.name in ("sweep_seconds", "hints_per_minute", "guest_days"):
                    values[item.name] = float(text)
                elif item.name in ("migrate", "background", "warm_up", "secure_cookies", "ai_queue",
                                   "quick_move_commits"):
                    values[item.name] = text.lower() in ("1", "true", "yes", "on")
                else:
                    values[item.name] = text or None if item.name in ("smtp", "base_url") else text
            except ValueError:
                raise SettingsError(f"{name}={text!r} is not accepted; accepted: a number") from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The environment that makes :meth:`from_env` give these settings back (for worker processes)."""
        out: dict[str, str] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if value is None:
                continue
            out[_ENV[item.name]] = ("1" if value else "0") if isinstance(value, bool) else str(value)
        return out

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)
