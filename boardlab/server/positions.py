"""The live positions: each stored game's rules and its position now, replayed from its moves (the
source of truth) and kept for recently used games, so that a move need not replay the whole game.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from boardlab.core.registry import load
from boardlab.server import warmup
from boardlab.server.errors import Conflict
from boardlab.server.models import Game as GameRow
from boardlab.server.repository import MoveInfo, move_infos, move_texts

if TYPE_CHECKING:  # at run time these come with the first game loaded (numba): the server starts without them
    from boardlab.core.game import Game
    from boardlab.core.state import State


@lru_cache(maxsize=256)
def _game(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game:
    warmup.prepare(game_id)  # compiled in a child process if need be, not under this process's GIL
    return load(game_id, **dict(options))


def game_of(row: GameRow) -> Game:
    """The rules of the game in ``row`` (built once per set of options and kept)."""
    return _game(row.game, tuple(sorted(row.options.items())))


def new_rules(game_id: str, variant: str | None, options: dict[str, Any]) -> Game:
    """``load(game_id, variant=variant, **options)``, as a new game asks for it, built once and kept: a
    game's rules build their tables (the board's drawing, its cells' names) once, when first asked, and
    a new game's first answer and its moves would build them again for every game. Each option's type
    is part of the key (``True == 1``, but they are not the same option value)."""
    return _new_rules(game_id, variant, tuple(sorted((name, type(value), value) for name, value in options.items())))


@lru_cache(maxsize=256)
def _new_rules(game_id: str, variant: str | None, options: tuple[tuple[str, type, Any], ...]) -> Game:
    return load(game_id, variant=variant, **{name: value for name, _, value in options})


def replay(game: Game, start: str | None, moves: list[str]) -> State:
    state = game.from_text(start) if start else game.new_game()
    for text in moves:
        state = state.play(text)
    return state


class StateCache:
    """The live position of recently used games, so that a move need not replay the whole game.

    An entry is used only when its (ply, undos) match the database row's: moves are only appended,
    except by a takeback, which bumps ``undos``. Correctness never depends on the cache. With a
    position a move made, the game's row as that move wrote it (:meth:`row_as_written`): PostgreSQL's
    next move is decided on it and stored only if the game's version is still that row's
    (:func:`~.play.move` with ``known``).
    """

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self._states: dict[int, tuple[int, int, State, list[MoveInfo] | None, GameRow | None]] = {}

    def get(self, row: GameRow) -> State | None:
        entry = self._states.get(row.id)
        if entry is None or entry[:2] != (row.ply, row.undos):
            return None
        return entry[2]

    def moves(self, row: GameRow) -> list[MoveInfo] | None:
        """The moves' seats and times, if kept with the position."""
        entry = self._states.get(row.id)
        if entry is None or entry[:2] != (row.ply, row.undos):
            return None
        return entry[3]

    def row_as_written(self, game_id: int) -> GameRow | None:
        """The game's row as the last move this process made in it wrote it, if that is the latest
        position kept (never changed afterwards: a copy is decided on)."""
        entry = self._states.get(game_id)
        return None if entry is None else entry[4]

    def put(self, row: GameRow, state: State, moves: list[MoveInfo] | None = None,
            as_written: bool = False) -> None:
        """Keep ``state`` (and ``moves``) as game ``row``'s position; ``as_written``: ``row`` too, as a
        move just stored it (see :meth:`row_as_written`)."""
        self._states.pop(row.id, None)
        if len(self._states) >= self.size:
            self._states.pop(next(iter(self._states)))
        self._states[row.id] = (row.ply, row.undos, state, moves, row if as_written else None)

    def drop(self, game_id: int) -> None:
        self._states.pop(game_id, None)


def known_moves(session: Session | Connection, row: GameRow, cache: StateCache) -> list[MoveInfo]:
    found = cache.moves(row)
    if found is None:
        found = move_infos(session, row.id)
        state = cache.get(row)
        if state is not None:
            cache.put(row, state, found)
    return found


def current_state(session: Session | Connection, row: GameRow, cache: StateCache) -> State:
    state = cache.get(row)
    if state is None:
        moves = move_texts(session, row.id)
        if len(moves) != row.ply:  # cannot happen: the row and its moves are written in one transaction
            raise Conflict(f"game {row.id} is being changed; try again")
        state = replay(game_of(row), row.start, moves)
        cache.put(row, state)
    return state
