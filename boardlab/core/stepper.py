"""The fast path: step atomic actions through the rules without building moves.

``state.legal_moves()`` and ``state.play()`` work in whole turns with notation: each ply enumerates
every turn, writes its text and checks the move against the list, which costs hundreds of
microseconds. Callers that step many positions (adapters for OpenSpiel and PettingZoo, playtests,
learning loops) use a :class:`Stepper` instead: it asks the game's ``legal`` kernel for the
decision owed now and hands the chosen action to the ``apply`` kernel, the same rules code that
``play`` runs, checking each action against the legal ones. Actions are the numbers of
:attr:`boardlab.Game.num_distinct_actions`; a turn of several steps is several actions.

>>> import boardlab
>>> stepper = boardlab.load("ndengrod", size=3, length=3).new_game().stepper()
>>> stepper.legal_actions()[:3]
[0, 1, 2]
>>> stepper.apply(4)
>>> stepper.to_move, stepper.ply
(1, 1)
>>> [str(move) for move in stepper.state.history()]
['b2']
>>> stepper.apply(4)
Traceback (most recent call last):
...
boardlab.errors.IllegalMove: action 4 is not legal here; legal: 0 to 18 but not 4

A stepper keeps the line of play as a :class:`~boardlab.State` (with its moves, for views,
records and serialisation) whenever a turn completes; ``keep_history=False`` skips even that, for
playouts that only want the result, and ``exact=False`` lists the legal actions on the vector itself
(not on a copy), as random playouts do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardlab.core import kernel
from boardlab.core.move import Move
from boardlab.errors import BoardlabError, IllegalMove

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.state import State


class Stepper(kernel.HeaderReadout):
    """A position that changes in place, one atomic action at a time, through the kernels."""

    __slots__ = ("_data", "_keep", "_keys", "_legal", "_legal_array", "_out", "_pending", "_scratch", "_state", "game")

    def __init__(self, state: State, *, keep_history: bool = True, exact: bool = True) -> None:
        self.game: Game = state.game
        self._state = state
        self._data = state.data.copy()
        self._keep = keep_history
        self._out = np.empty(kernel.MAX_ACTIONS, np.int64)
        # exact=False lists the legal actions on the vector itself, as random playouts and search
        # do: the position and everything the rules decide stay the same, but the scratch the kernels
        # keep in the vector differs from what ``play`` makes (Möbiatus copies 42 KB a listing less).
        self._scratch = np.empty_like(self._data) if exact else self._data
        self._legal: list[int] | None = None
        self._legal_array: np.ndarray | None = None
        self._pending: tuple[int, ...] = ()
        self._keys: tuple[int, ...] = ()  # the pending actions' text keys (boardlab.core.turns)

    # -- the position ---------------------------------------------------------------------------

    @property
    def data(self) -> np.ndarray:
        """The current state vector (a read-only copy would cost; do not write to it)."""
        return self._data

    # to_move, ply, is_over, result: read from the header (kernel.HeaderReadout)

    @property
    def pending(self) -> tuple[int, ...]:
        """The actions of the turn in progress (empty between turns)."""
        return self._pending

    @property
    def state(self) -> State:
        """The state after the last completed turn, with its history (without, if ``keep_history=False``)."""
        if self._keep:
            return self._state
        if self._pending:
            raise BoardlabError("a stepper without history has no state in the middle of a turn; use position()")
        return self.position()

    def position(self) -> State:
        """The current position as a state even in the middle of a turn (no history before it)."""
        if not self._pending and self._keep:
            return self._state
        from boardlab.core.state import State

        return State(self.game, self._data.copy())

    # -- stepping -------------------------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The actions legal now, ascending (empty once the game is over)."""
        if self._legal is None:
            self._legal = self.legal_array().tolist()
        return self._legal

    def legal_array(self) -> np.ndarray:
        """:meth:`legal_actions` as a read-only ``int64`` array (action masks index with it)."""
        if self._legal_array is None:
            if self.is_over:
                found = np.empty(0, np.int64)
            else:
                # Some kernels keep caches in the vector while listing moves; listing on a scratch
                # copy keeps the vector exactly what ``play`` (which never lists) would make.
                if self._scratch is not self._data:
                    np.copyto(self._scratch, self._data)
                count = self.game.legal_kernel(self._scratch, self.game.spec, self._out)
                found = np.sort(self._out[:count])
            found.setflags(write=False)
            self._legal_array = found
        return self._legal_array

    def apply(self, action: int) -> None:
        """Play ``action`` (one atomic decision); :class:`boardlab.IllegalMove` if it is not legal."""
        legal = self.legal_array()
        at = int(legal.searchsorted(action))
        if at == len(legal) or legal[at] != action:
            if not len(legal):
                raise IllegalMove(f"action {action}: the game is over; no more actions")
            raise IllegalMove(f"action {action} is not legal here; legal: {_ranges(self.legal_actions())}")
        game = self.game
        mover = self._data[kernel.TO_MOVE]
        if self._keep:
            self._keys = (*self._keys, game.describe_kernel(self._data, game.spec, action) >> 2)
        game.apply_kernel(self._data, game.spec, action)
        self._legal = self._legal_array = None
        self._pending = (*self._pending, action)
        if self._data[kernel.MID_TURN] and self._data[kernel.TO_MOVE] == mover:
            return
        if self._keep:
            from boardlab.core.state import State

            keys, path = self._keys, self._pending
            if len(keys) == 1:
                move = game.move_of_key(keys[0])
            else:
                move = Move("".join([game.key_text_of(key) for key in keys]), path)
            self._state = State(game, self._data.copy(), self._state, move)
            self._keys = ()
        self._pending = ()

    def __deepcopy__(self, memo: dict[int, object]) -> Stepper:
        # What OpenSpiel's clone of a Python state calls: the vector is copied, states are shared.
        return self.clone()

    def clone(self) -> Stepper:
        """An independent copy (search expands children from clones)."""
        other = Stepper.__new__(Stepper)
        other.game = self.game
        other._state = self._state
        other._data = self._data.copy()
        other._keep = self._keep
        other._out = np.empty(kernel.MAX_ACTIONS, np.int64)
        other._scratch = np.empty_like(other._data) if self._scratch is not self._data else other._data
        other._legal = self._legal
        other._legal_array = self._legal_array
        other._pending = self._pending
        other._keys = self._keys
        return other


def _ranges(actions: list[int]) -> str:
    """``0 to 20 but not 4`` style summary of a sorted action list, for error messages."""
    low, high = actions[0], actions[-1]
    missing = sorted(set(range(low, high + 1)) - set(actions))
    if len(missing) <= 5:
        gaps = f" but not {', '.join(map(str, missing))}" if missing else ""
        return f"{low} to {high}{gaps}"
    shown = ", ".join(map(str, actions[:10]))
    return f"{shown}{', …' if len(actions) > 10 else ''} ({len(actions)} actions)"
