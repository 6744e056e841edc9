"""The contract between a game's numba rules and everything that searches or measures them.

A game's position is one flat ``int64`` array, its *state vector*; its options and precomputed
tables (neighbours, lines, hash keys) are another, its *spec*. Every game compiles two functions
with exactly these signatures::

    legal(state, spec, out) -> n      # writes the n legal actions for the decision owed now into out
    apply(state, spec, action)        # plays one action, in place

and may add a third, for search in games whose random playouts say little::

    evaluate(state, spec, values)     # writes each seat's chances, in [0, 1], into values

An *action* is one atomic decision, a non-negative ``int64`` below the game's ``action_limit``
(``MAX_ACTIONS`` unless the game says more); at most ``MAX_ACTIONS`` are legal at once. A turn may
take several (a capture chain), and a decision may be owed by a seat that is not "on turn" (a
responder); the header says who decides next.

The spec is read-only. The first ``HEADER`` fields of every state vector mean the same in every game, so generic search
reads them without knowing the game:

====================  =====================================================================
``TO_MOVE``           seat that owes the next decision; ``-1`` once the game is over
``PLY``               decisions made so far
``MID_TURN``          1 while the current turn still needs decisions (multi-step turns)
``END_REASON``        0 while playing; else a game-specific reason code (1 is a rules win)
``SCORE + seat``      the result in half points once over: 2 win, 1 draw, 0 loss
====================  =====================================================================

The signatures are fixed (``FunctionType``) so that generic kernels taking game functions as
arguments compile once and load from numba's on-disk cache on every later run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

if TYPE_CHECKING:
    from boardlab.core.game import Game

TO_MOVE = 0
PLY = 1
MID_TURN = 2
END_REASON = 3
SCORE = 4
MAX_SEATS = 4
HEADER = SCORE + MAX_SEATS

REASON_PLAYING = 0
REASON_WIN = 1

STATE = types.int64[::1]
SPEC = types.Array(types.int64, 1, "C", readonly=True)
LEGAL_SIG = types.int64(STATE, SPEC, STATE)
APPLY_SIG = types.void(STATE, SPEC, types.int64)
LEGAL_FN = types.FunctionType(LEGAL_SIG)
APPLY_FN = types.FunctionType(APPLY_SIG)
VALUES = types.float64[::1]
EVALUATE_SIG = types.void(STATE, SPEC, VALUES)
EVALUATE_FN = types.FunctionType(EVALUATE_SIG)

# Scratch space every game may use for move lists inside its own kernels.
MAX_ACTIONS = 4096


def seat_to_move(data: np.ndarray) -> int | None:
    """The header's seat to move, ``None`` once the game is over (stored as -1)."""
    seat = int(data[TO_MOVE])
    return None if seat < 0 else seat


def final_result(data: np.ndarray, seats: int) -> tuple[float, ...] | None:
    """``None`` while playing; else one score per seat (stored doubled: 2 win, 1 draw, 0 loss)."""
    if data[TO_MOVE] >= 0:
        return None
    return tuple(float(data[SCORE + seat]) / 2 for seat in range(seats))


class HeaderReadout:
    """What a position's header says, for classes holding their state vector in ``_data`` and their
    game in ``game`` (:class:`~boardlab.core.state.State` and :class:`~boardlab.core.stepper.Stepper`)."""

    __slots__ = ()
    _data: np.ndarray

    if TYPE_CHECKING:
        @property
        def game(self) -> Game: ...

    @property
    def to_move(self) -> int | None:
        """The seat (0-based) that owes the next decision; ``None`` once the game is over."""
        return seat_to_move(self._data)

    @property
    def ply(self) -> int:
        """Decisions (actions) made since the start of the game."""
        return int(self._data[PLY])

    @property
    def is_over(self) -> bool:
        return bool(self._data[TO_MOVE] < 0)

    @property
    def result(self) -> tuple[float, ...] | None:
        """``None`` while playing; else one score per seat: 1 win, 0 loss, 0.5 draw."""
        return final_result(self._data, self.game.num_seats)


@intrinsic
def unowned(typingctx, array):  # type: ignore[no-untyped-def]
    """A view of a C-contiguous ``array`` that holds no reference to its memory (no meminfo).

    Passing such a view down to a game's kernels makes their reference counting of it a test
    for null instead of an atomic add and subtract at each call between numba functions (a
    ``perf`` profile of Möbiatus's random playouts put ``NRT_incref``/``NRT_decref`` at 16% of
    the time). The caller must keep ``array`` itself alive, and in use after the view's last use,
    for as long as the view is used (numba frees an array after its last use).
    """
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        kind = signature.args[0]
        source = make_array(kind)(context, builder, value=args[0])
        view = make_array(kind)(context, builder)
        for field in ("nitems", "itemsize", "data", "shape", "strides"):
            setattr(view, field, getattr(source, field))
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        view.parent = cgutils.get_null_value(view.parent.type)
        return view._getvalue()

    if not isinstance(array, types.Array) or array.layout != "C":
        return None
    return array(array), codegen


@njit(types.void(types.int64), cache=True)
def seed_kernels(seed: int) -> None:
    """Seed numba's random generator (used by playouts and search) for reproducible runs."""
    np.random.seed(seed)


@njit(cache=True)
def finish_two_seats(state, winner, reason):  # type: ignore[no-untyped-def]
    """End a two-seat game: seat ``winner`` wins (``-1``: a draw) for ``reason``."""
    state[TO_MOVE] = -1
    state[MID_TURN] = 0
    state[END_REASON] = reason
    for seat in range(2):
        if winner < 0:
            state[SCORE + seat] = 1
        else:
            state[SCORE + seat] = 2 if seat == winner else 0


@njit(cache=True)
def set_add(state, items, places, count_field, item):  # type: ignore[no-untyped-def]
    """Add ``item`` to an indexed set kept in ``state``: its ``state[count_field]`` members listed from
    ``state[items]``, and each member's place in that list at ``state[places + member]`` (a member is
    dropped in constant time, and the list is what a legal-move kernel copies out)."""
    count = state[count_field]
    state[items + count] = item
    state[places + item] = count
    state[count_field] = count + 1


@njit(cache=True)
def set_discard(state, items, places, count_field, item):  # type: ignore[no-untyped-def]
    """Drop the member ``item`` from the indexed set of :func:`set_add`: the last member takes its place."""
    last = state[count_field] - 1
    place = state[places + item]
    moved = state[items + last]
    state[items + place] = moved
    state[places + moved] = place
    state[count_field] = last


@njit(cache=True)
def occurs_twice(state, value, newest, oldest):  # type: ignore[no-untyped-def]
    """Whether ``value`` stands at least twice in ``state[newest]``, ``state[newest - 2]``, … down to
    ``state[oldest]``: a position's third occurrence in a history of two seats' positions, where only
    every second entry has the same seat to move."""
    seen = 0
    for at in range(newest, oldest - 1, -2):
        if state[at] == value:
            seen += 1
            if seen == 2:
                return True
    return False


@njit(EVALUATE_SIG, cache=True)
def neutral_evaluation(state, spec, values):  # type: ignore[no-untyped-def]
    """The evaluation of a game that has none: every seat's chances are even."""
    values[:] = 0.5


@njit(types.int64(LEGAL_FN, APPLY_FN, STATE, SPEC, STATE, types.int64), cache=True)
def random_playout_limited(legal, apply, state, spec, out, limit):  # type: ignore[no-untyped-def]
    """Play uniformly random actions on ``state`` (in place) for ``limit`` plies (``0``: to the end).

    Returns the plies played.
    """
    plies = 0
    while state[TO_MOVE] >= 0 and (limit == 0 or plies < limit):
        n = legal(state, spec, out)
        apply(state, spec, out[np.random.randint(n)])
        plies += 1
    return plies


@njit(types.int64(LEGAL_FN, APPLY_FN, STATE, SPEC, STATE), cache=True)
def random_playout(legal, apply, state, spec, out):  # type: ignore[no-untyped-def]
    """Play uniformly random actions on ``state`` (in place) until the game ends; return the plies."""
    return random_playout_limited(legal, apply, state, spec, out, 0)


@njit(types.int64(LEGAL_FN, APPLY_FN, STATE, SPEC, types.int64, STATE), cache=True)
def random_playouts(legal, apply, start, spec, count, tally):  # type: ignore[no-untyped-def]
    """Run ``count`` random games from ``start``; add each seat's half points into ``tally``.

    Returns the total number of actions played. ``start`` is not modified.
    """
    # One state buffer for every game (each starts as a copy of ``start``), and views of the
    # buffers that hold no reference (``unowned``), kept alive by their use after the loop.
    out_buffer = np.empty(MAX_ACTIONS, np.int64)
    state_buffer = np.empty_like(start)
    out = unowned(out_buffer)
    state = unowned(state_buffer)
    rules = unowned(spec)
    size = start.shape[0]
    total = 0
    for _ in range(count):
        for i in range(size):  # a loop: numba's slice assignment checks for overlap, and costs
            state[i] = start[i]
        total += random_playout(legal, apply, state, rules, out)
        for seat in range(MAX_SEATS):
            tally[seat] += state[SCORE + seat]
    return total + 0 * (out_buffer[0] + state_buffer[0] + spec[0])
