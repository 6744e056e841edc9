"""search jobs: the computer's turns queued for ``boardlab ai-worker`` processes

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('search_jobs',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('ply', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('agent', sa.String(length=200), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('queued_at', sa.DateTime(), nullable=False),
    sa.Column('lease_until', sa.DateTime(), nullable=True),
    sa.Column('worker', sa.String(length=200), nullable=True),
    sa.Column('attempts', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('game_id')
    )
    with op.batch_alter_table('search_jobs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_search_jobs_queued_at'), ['queued_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('search_jobs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_search_jobs_queued_at'))
    op.drop_table('search_jobs')
