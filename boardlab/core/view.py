"""Per-seat views: the one place where what a player may know is decided.

Everything that leaves the engine for a player, a spectator, an agent or a log is made from a
:class:`View` of ``(state, seat)``: its text diagram, its position text, its legal moves. The
observation vector comes from the game's :meth:`~boardlab.Game.observe`; for a game of perfect
information that is the whole position, and the view also hands out the full :attr:`View.state`.

>>> import boardlab
>>> state = boardlab.load("ndengrod", size=3, length=3).new_game().play("b2")
>>> view = state.view(1)
>>> view.seat, view.to_move, [str(m) for m in view.legal_moves()][:3]
(1, 1, ['a1', 'a2', 'a3'])
>>> view.to_text() == state.to_text()
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardlab.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.move import Move
    from boardlab.core.state import State


class View:
    """What one seat (or a spectator, ``seat=None``) may know of a state."""

    __slots__ = ("_state", "data", "game", "seat")

    def __init__(self, state: State, seat: int | None) -> None:
        game = state.game
        if seat is not None and not 0 <= seat < game.num_seats:
            raise BoardlabError(f"seat {seat} does not exist; seats are 0 to {game.num_seats - 1}")
        self._state = state
        self.game: Game = game
        self.seat = seat
        data = game.observe(state.data, seat)
        if data is not state.data:
            data.setflags(write=False)
        self.data: np.ndarray = data

    @property
    def to_move(self) -> int | None:
        return self._state.to_move

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def result(self) -> tuple[float, ...] | None:
        return self._state.result

    @property
    def last_move(self) -> Move | None:
        return self._state.last_move

    @property
    def state(self) -> State:
        """The full state; only a game of perfect information hands it out."""
        if not self.game.info.perfect_information:
            raise BoardlabError(f"{self.game.id} has hidden information: a view does not show the state")
        return self._state

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves if it owes the next decision, else none."""
        if self.seat is None or self.seat != self.to_move:
            return []
        return self._state.legal_moves()

    def to_text(self) -> str:
        """The observation in position notation (the full position under perfect information)."""
        return self.game.position_text(self.data)

    def __str__(self) -> str:
        return self.game.render(self)

    def __repr__(self) -> str:
        return f"{self._state!r}.view({self.seat!r})"
