"""Alembic's environment: run by :func:`boardlab.server.migrate.upgrade` with a connection attached."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from boardlab.server.models import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
        with engine.connect() as connection, connection.begin():
            context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
            context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=context.config.get_main_option("sqlalchemy.url"), target_metadata=target_metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


offline: bool | None
try:
    offline = context.is_offline_mode()
except (AttributeError, NameError):  # imported outside a migration (pytest collecting doctests): nothing to run
    offline = None
if offline is True:
    run_migrations_offline()
elif offline is False:
    run_migrations_online()
