"""people: Unicode names and their confusables skeletons, password resets, ratings, rated and private
games, rematches, results in words

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    from boardlab.server.names import name_key, skeleton

    # Names: the key becomes NFKC case-folded, and each name gets its confusables skeleton (filled
    # in for the accounts already there, before the column is made unique).
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('name_key', existing_type=sa.String(length=32), type_=sa.String(length=128),
                              existing_nullable=False)
        batch_op.add_column(sa.Column('name_skeleton', sa.String(length=512), nullable=True))
    connection = op.get_bind()
    users = sa.table('users', sa.column('id', sa.Integer), sa.column('name', sa.String),
                     sa.column('name_key', sa.String), sa.column('name_skeleton', sa.String))
    seen: set[str] = set()
    for user_id, name in connection.execute(sa.select(users.c.id, users.c.name).order_by(users.c.id)).all():
        looks = skeleton(name)
        if looks in seen:  # two old names that look alike: both stay, the later one marked apart
            looks = f"{looks}#{user_id}"
        seen.add(looks)
        connection.execute(users.update().where(users.c.id == user_id)
                           .values(name_key=name_key(name), name_skeleton=looks))
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.alter_column('name_skeleton', existing_type=sa.String(length=512), nullable=False)
        batch_op.create_unique_constraint('uq_users_name_skeleton', ['name_skeleton'])

    op.create_table('password_resets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('expires_at', sa.DateTime(), nullable=False),
    sa.Column('used_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    with op.batch_alter_table('password_resets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_password_resets_user_id'), ['user_id'], unique=False)

    op.create_table('ratings',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('rating', sa.Float(), nullable=False),
    sa.Column('deviation', sa.Float(), nullable=False),
    sa.Column('volatility', sa.Float(), nullable=False),
    sa.Column('games', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'game')
    )
    op.create_table('rating_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('before', sa.Float(), nullable=False),
    sa.Column('after', sa.Float(), nullable=False),
    sa.Column('deviation', sa.Float(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.create_index('ix_rating_changes_user_game', ['user_id', 'game', 'id'], unique=False)

    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rated', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('private', sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column('rematch', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('end_reason', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('outcome', sa.Text(), nullable=True))
        batch_op.create_index('ix_games_status_finished_at', ['status', 'finished_at'], unique=False)
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('score', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('rating', sa.Float(), nullable=True))
        batch_op.add_column(sa.Column('rating_change', sa.Float(), nullable=True))

    # The games played before: each seat's score from the game's result (the archive filters on it),
    # and games with no two people (against the computer, a record opened to analyse) kept private.
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('result', sa.JSON),
                     sa.column('private', sa.Boolean), sa.column('start', sa.Text))
    seats = sa.table('seats', sa.column('game_id', sa.Integer), sa.column('seat', sa.Integer),
                     sa.column('kind', sa.String), sa.column('score', sa.Float))
    people: dict[int, int] = {}
    for game_id, kind in connection.execute(sa.select(seats.c.game_id, seats.c.kind)).all():
        people[game_id] = people.get(game_id, 0) + (kind != 'ai')
    for game_id, result, start in connection.execute(sa.select(games.c.id, games.c.result, games.c.start)).all():
        if people.get(game_id, 0) < 2 or start is not None:
            connection.execute(games.update().where(games.c.id == game_id).values(private=True))
        for seat, score in enumerate(result or []):
            connection.execute(seats.update().where(seats.c.game_id == game_id, seats.c.seat == seat)
                               .values(score=score))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('rating_change')
        batch_op.drop_column('rating')
        batch_op.drop_column('score')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_index('ix_games_status_finished_at')
        batch_op.drop_column('outcome')
        batch_op.drop_column('end_reason')
        batch_op.drop_column('rematch')
        batch_op.drop_column('private')
        batch_op.drop_column('rated')
    with op.batch_alter_table('rating_changes', schema=None) as batch_op:
        batch_op.drop_index('ix_rating_changes_user_game')
    op.drop_table('rating_changes')
    op.drop_table('ratings')
    with op.batch_alter_table('password_resets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_password_resets_user_id'))
    op.drop_table('password_resets')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_constraint('uq_users_name_skeleton', type_='unique')
        batch_op.drop_column('name_skeleton')
        batch_op.alter_column('name_key', existing_type=sa.String(length=128), type_=sa.String(length=32),
                              existing_nullable=False)
