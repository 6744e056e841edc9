"""The immutable game state: a thin wrapper over a game's state vector.

>>> import boardlab
>>> game = boardlab.load("ndengrod", size=3, length=3)
>>> state = game.new_game()
>>> after = state.play("b2")
>>> state.ply, after.ply
(0, 1)
>>> after.last_move
Move('b2', (4,))
>>> [str(move) for move in after.history()]
['b2']

``play`` never changes the state it is called on; it returns the next one, which remembers its
predecessor (for undo and records). Search code works on ``state.data`` with the kernels instead.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.core import kernel
from boardlab.core.move import Move
from boardlab.core.turns import Known, Turns
from boardlab.errors import IllegalMove

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.stepper import Stepper
    from boardlab.core.view import View


ECHOED = 40  # the longest typed text an error message repeats whole


def quoted(text: str) -> str:
    """``text`` as an error message repeats it: whole if short, else its beginning and its length.

    >>> quoted("d4"), quoted("z" * 5000)
    ("'d4'", "'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…' (5000 characters)")
    """
    if len(text) <= ECHOED:
        return repr(text)
    return f"{text[:ECHOED]!r}"[:-1] + "…'" + f" ({len(text)} characters)"


class State(kernel.HeaderReadout):
    """A position of a game, with the moves that led to it."""

    __slots__ = ("_data", "_game", "_known", "_legal", "_move", "_parent")

    def __init__(
        self, game: Game, data: np.ndarray, parent: State | None = None, move: Move | None = None,
        known: Known | None = None,
    ) -> None:
        data.setflags(write=False)
        self._game = game
        self._data = data
        self._parent = parent
        self._move = move
        # The legal whole turns, once asked for (:class:`~boardlab.core.turns.Turns`: listed by one
        # kernel call, their texts from the game's tables). Once a move is played from here only
        # their plain lists of numbers stay, which the garbage collector does not track: a game's
        # earlier positions stay reachable through ``_parent``, and a server holding long games would
        # otherwise have every full collection walk all their moves.
        self._legal: Turns | None = None
        # The moves of the position before the parent, with their turn codes, handed down by ``play`` for
        # making this position's moves (:class:`~boardlab.core.turns.Turns`); dropped once used.
        self._known = known

    # -- what the position is -------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self._game

    @property
    def data(self) -> np.ndarray:
        """The read-only state vector the kernels work on (copy it before applying actions)."""
        return self._data

    # to_move, ply, is_over, result: read from the header (kernel.HeaderReadout)

    @property
    def scores(self) -> tuple[float, ...] | None:
        """Raw per-seat scores for games that count points (territory); ``None`` for the others."""
        return self._game.scores(self._data)

    @property
    def end_reason(self) -> str | None:
        """Why the game ended ("line", "repetition", …); ``None`` while playing."""
        if not self.is_over:
            return None
        return self._game.end_reason_name(int(self._data[kernel.END_REASON]))

    # -- moves ----------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal move for the seat to move, as whole turns, in canonical order."""
        return list(self._turns().moves())

    def _turns(self) -> Turns:
        if self._legal is None:
            self._legal = Turns(self._game, self._data, self._known)
            self._known = None
        return self._legal

    def _legal_paths(self) -> tuple[tuple[int, ...], ...]:
        return self._turns().paths()

    def parse_move(self, text: str) -> Move:
        """The legal move that ``text`` names; :class:`boardlab.IllegalMove` saying why if none."""
        if self.is_over:
            raise IllegalMove(f"the game is over ({self._describe_result()}); no more moves")
        typed = text.strip()
        try:
            path = self._game.parse_path(self._data, typed)
        except IllegalMove as error:
            if len(typed) <= ECHOED:
                raise
            # The games quote what was typed; a long text is quoted by its beginning, not echoed whole.
            message = str(error).replace(repr(typed), quoted(typed)).replace(typed, quoted(typed))
            raise type(error)(message if len(message) <= 600 else message[:600] + "…") from None
        return self._canonical(Move(typed, path))

    def _canonical(self, move: Move) -> Move:
        if self.is_over:
            raise IllegalMove(f"the game is over ({self._describe_result()}); no more moves")
        path = move.path
        actions = self._game.num_distinct_actions
        if not (isinstance(path, tuple) and path and all(
                isinstance(a, numbers.Integral) and not isinstance(a, bool) and 0 <= a < actions for a in path)):
            raise IllegalMove(f"{move.text}: a move's path is one or more actions, whole numbers from 0 to "
                              f"{actions - 1}, not {path!r}; accepted: a move of legal_moves(), or its text")
        legal = self._turns().find(tuple(int(a) for a in path))
        if legal is not None:
            return legal
        try:
            reason = self._game.why_illegal(self._data, path)
        except (IndexError, KeyError, TypeError, ValueError):  # a path no turn begins with: no finer reason
            reason = "that move is not legal in this position"
        raise IllegalMove(f"{move.text}: {reason}")

    def play(self, move: Move | str) -> State:
        """The state after ``move`` (a :class:`Move` or its text). This state is unchanged."""
        move = self.parse_move(move) if isinstance(move, str) else self._canonical(move)
        data = self._data.copy()
        for action in move.path:
            self._game.apply_kernel(data, self._game.spec, action)
        if self._legal is not None:
            self._legal.forget_moves()
        parent = self._parent
        known = None
        if parent is not None and parent._legal is not None and parent._legal._mine is not None:
            known = parent._legal.take_mine()
        return State(self._game, data, self, move, known)

    def stepper(self, *, keep_history: bool = True, exact: bool = True) -> Stepper:
        """The fast path from here: atomic actions through the kernels (:mod:`boardlab.core.stepper`)."""
        from boardlab.core.stepper import Stepper

        return Stepper(self, keep_history=keep_history, exact=exact)

    # -- history --------------------------------------------------------------------------------

    @property
    def previous(self) -> State | None:
        """The state before the last move (``None`` at the root)."""
        return self._parent

    @property
    def last_move(self) -> Move | None:
        return self._move

    @property
    def root(self) -> State:
        """The state this line of play started from (usually the start position)."""
        state = self
        while state._parent is not None:
            state = state._parent
        return state

    def history(self) -> list[Move]:
        """The moves from :attr:`root` to here."""
        moves: list[Move] = []
        state: State | None = self
        while state is not None and state._move is not None:
            moves.append(state._move)
            state = state._parent
        return moves[::-1]

    # -- views and text -------------------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: a spectator). Everything shown to anyone goes through here."""
        from boardlab.core.view import View

        return View(self, seat)

    def to_text(self) -> str:
        """Position notation (like FEN): ``game.from_text(state.to_text())`` gives this position back."""
        return self._game.position_text(self._data)

    def to_json(self) -> str:
        """Complete serialisation: game, options, start vector and every move's actions.

        Unlike :meth:`to_text` it keeps the history the rules remember (repetition) and the moves
        for undo and records; :meth:`Game.state_from_json` reads it back.
        """
        from boardlab.core.serial import state_to_json

        return state_to_json(self)

    def __reduce__(self) -> tuple[Any, ...]:
        # The start vector and the moves' actions, replayed on load: the line of play survives.
        root = self.root
        paths = [list(move.path) for move in self.history()]
        return (_replay, (self._game, root.data.tolist(), paths))

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        # Immutable, like its predecessors: search code that deep-copies its nodes shares states.
        return self

    def _describe_result(self) -> str:
        """How the rules ended the game, in the words every layer uses (:mod:`boardlab.outcome`)."""
        from boardlab.outcome import outcome_sentence

        result = self.result
        if result is None:
            return "in progress"
        labels = [self.seat_label(seat) for seat in range(len(result))]
        return outcome_sentence(result, "rules", labels, labels, reason=self.end_reason)

    def describe(self) -> str:
        """One line for people: whose turn it is, or how the game ended."""
        if self.is_over:
            return f"Game over: {self._describe_result()}."
        assert self.to_move is not None
        return f"{self.seat_label(self.to_move)} to move (seat {self.to_move}), ply {self.ply}."

    def seat_label(self, seat: int) -> str:
        """What the player in ``seat`` is called here (``"x"``; after a swap it may change)."""
        return self._game.seat_label(self._data, seat)

    def __str__(self) -> str:
        return str(self.view(None))

    def __repr__(self) -> str:
        return f"{self._game!r}.from_text({self.to_text()!r})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State) and self._game == other._game and self.to_text() == other.to_text()
        )

    def __hash__(self) -> int:
        return hash((self._game, self.to_text()))


def _replay(game: Game, start: list[int], paths: list[list[int]]) -> State:
    state = State(game, np.array(start, dtype=np.int64))
    for path in paths:
        state = state.play(Move("", tuple(path)))
    return state
