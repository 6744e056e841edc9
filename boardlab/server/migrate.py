"""Schema migrations (Alembic), shipped inside the package so that an installed boardlab can migrate.

``boardlab serve`` applies them on start; ``boardlab db upgrade [--db URL]`` applies them alone.
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, text

from boardlab.server.db import make_engine

SCRIPTS = "boardlab.server:migrations"
# Two servers starting at once on one PostgreSQL database must not both create the tables.
_LOCK_KEY = 0x626F6172646C6162  # "boardlab"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", SCRIPTS)
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str, engine: Engine | None = None) -> None:
    """Bring the database at ``url`` to the newest schema (creating it if empty)."""
    engine = engine or make_engine(url)
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


def current(url: str) -> str | None:
    """The revision the database at ``url`` is at (``None``: not migrated)."""
    from alembic.runtime.migration import MigrationContext

    with make_engine(url).connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()
