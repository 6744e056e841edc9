"""Per-seat views: the one place where what a player may know is decided.

Everything that leaves the engine for a player, a spectator, an agent or a log is made from a
:class:`View` of ``(state, seat)``: its text diagram, its position text, its legal moves, the moves
so far as that seat knows them, a per-seat record. The observation vector comes from the game's
:meth:`~boardlab.Game.observe`; the moves come through :meth:`~boardlab.Game.public_move`. For a game
of perfect information the observation is the whole position, every move is public, and the view
also hands out the full :attr:`View.state`.

>>> import boardlab
>>> state = boardlab.load("ndengrod", size=3, length=3).new_game().play("b2")
>>> view = state.view(1)
>>> view.seat, view.to_move, [str(m) for m in view.legal_moves()][:3]
(1, 1, ['a1', 'a2', 'a3'])
>>> view.to_text() == state.to_text()
True
>>> [str(m) for m in view.history()], view.last_move
(['b2'], Move('b2', (4,)))

Under hidden information (HMDG) a view never hands out the state, and other seats' secret moves
appear only in their public form.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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

    @classmethod
    def unveiled(cls, state: State, final: State) -> View:
        """Everything of ``state``, a position of the finished game ending at ``final``.

        Once a game is over nothing is secret any more: a replay shows every hidden stone. Refused
        while the game goes on, so that no seat can be shown another's secrets through it.
        """
        if not final.is_over:
            raise BoardlabError("the game is not over: its hidden moves are still secret")
        walk: State | None = final
        while walk is not None and walk is not state:
            walk = walk.previous
        if walk is None:
            raise BoardlabError("that position is not one of the finished game's")
        view = cls(state, None)
        data = state.data.copy()
        data.setflags(write=False)
        view.data = data
        return view

    @property
    def to_move(self) -> int | None:
        return self._state.to_move

    @property
    def ply(self) -> int:
        return self._state.ply

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def result(self) -> tuple[float, ...] | None:
        return self._state.result

    @property
    def end_reason(self) -> str | None:
        return self._state.end_reason

    @property
    def state(self) -> State:
        """The full state; only a game of perfect information hands it out."""
        if not self.game.info.perfect_information:
            raise BoardlabError(f"{self.game.id} has hidden information: a view does not show the state")
        return self._state

    # -- the moves as this seat knows them ------------------------------------------------------

    @property
    def previous(self) -> View | None:
        """This seat's view of the position before the last move (``None`` at the first position)."""
        before = self._state.previous
        return None if before is None else View(before, self.seat)

    @property
    def last_move(self) -> Move | None:
        """The last move as this seat knows it (under perfect information: the move itself)."""
        before, move = self._state.previous, self._state.last_move
        if before is None or move is None:
            return move
        return self.game.public_move(before.data, move.path, self.seat)

    def history(self) -> list[Move]:
        """Every move from the first position to here, as this seat knows them: its private record."""
        moves: list[Move] = []
        state = self._state
        while state.previous is not None and state.last_move is not None:
            moves.append(self.game.public_move(state.previous.data, state.last_move.path, self.seat))
            state = state.previous
        return moves[::-1]

    def legal_moves(self) -> list[Move]:
        """This seat's legal moves if it owes the next decision, else none."""
        if self.seat is None or self.seat != self.to_move:
            return []
        return self._state.legal_moves()

    def planes(self) -> np.ndarray:
        """This view as ``float32`` planes of shape ``game.planes_shape`` (:mod:`boardlab.core.planes`)."""
        from boardlab.core.planes import planes

        return planes(self)

    # -- text -----------------------------------------------------------------------------------

    def to_text(self) -> str:
        """The observation in position notation (the full position under perfect information)."""
        return self.game.position_text(self.data)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data: what a client (a web page, a remote agent) is sent."""
        return {
            "game": self.game.id,
            "options": dict(self.game.options),
            "seat": self.seat,
            "to_move": self.to_move,
            "ply": self.ply,
            "position": self.to_text(),
            "history": [move.text for move in self.history()],
            "legal_moves": [move.text for move in self.legal_moves()],
            "result": list(self.result) if self.result is not None else None,
            "end_reason": self.end_reason,
        }

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickling a view would carry the whole state with it: only where nothing is hidden.
        if not self.game.info.perfect_information:
            raise TypeError(f"a view of {self.game.id} (hidden information) cannot be pickled: it holds the full state")
        return (View, (self._state, self.seat))

    def __str__(self) -> str:
        return self.game.render(self)

    def __repr__(self) -> str:
        if not self.game.info.perfect_information:
            return f"<View of {self.game!r} for seat {self.seat!r} at ply {self.ply}>"
        return f"{self._state!r}.view({self.seat!r})"
