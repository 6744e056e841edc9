"""Schema migrations (Alembic), shipped inside the package so that an installed boardlab can migrate.

``boardlab serve`` applies them on start; ``boardlab db upgrade [--db URL]`` applies them alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from boardlab.server.db import make_engine

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPTS = "boardlab.server:migrations"
# The newest migration's revision. A database already there is left alone without importing Alembic (half
# a second of a start); tests/server/test_site.py checks that this is Alembic's head.
HEAD = "0003"
# Two servers starting at once on one PostgreSQL database must not both create the tables.
_LOCK_KEY = 0x626F6172646C6162  # "boardlab"


def alembic_config(url: str) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, engine: Engine | None = None) -> None:
    """Bring the database at ``url`` to the newest schema (creating it if empty)."""
    from alembic import command

    engine = engine or make_engine(url)
    if revision(engine) == HEAD:
        return
    config = alembic_config(url)
    sqlite = url.startswith("sqlite")
    with engine.connect() as connection:
        if sqlite:
            # SQLite changes a table by copying it to a new one and dropping the old (Alembic's batch
            # mode): with foreign keys on, dropping the old games or users table would delete (or
            # null) every seat, move and token pointing at it. Off while migrating (outside any
            # transaction, as SQLite requires), and on again after.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
        else:
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _LOCK_KEY})
            connection.commit()
        try:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
            connection.commit()
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            else:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _LOCK_KEY})
                connection.commit()


def revision(engine: Engine) -> str | None:
    """The revision the database is at, read from Alembic's table (``None``: not migrated)."""
    try:
        with engine.connect() as connection:
            found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except DBAPIError:  # no such table: a new database
        return None
    return found[0] if len(found) == 1 else None


def current(url: str) -> str | None:
    """The revision the database at ``url`` is at (``None``: not migrated)."""
    from alembic.runtime.migration import MigrationContext

    with make_engine(url).connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
