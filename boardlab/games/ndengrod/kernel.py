"""Ndengrod's rules as numba kernels over a state vector (the rules are in the package docstring).

Spec vector (options and tables, built by ``face.Ndengrod.build_spec``)::

    S_CELLS S_LENGTH S_SELF_CAPTURE S_SWAP S_REPETITION S_PLY_CAP S_WIN_CHECK
    S_NEIGH   -> cells x 6 neighbour table (-1 off board), directions as topology.HEX_DIRECTIONS
    S_ZOBRIST -> 2 keys per cell (x, o), then the key for "o to move"
    S_OPEN, S_EMPTY_LIST, …, S_SCRATCH: where the state's regions start

State vector, after the common header of ``boardlab.core.kernel``::

    F_COLOUR      colour to move (0 = x, 1 = o); the seat is colour XOR F_SWAPPED
    F_SWAPPED     1 once the second player has swapped (N5)
    F_PASSES      consecutive passes (only possible where no placement is legal)
    F_CAPTURES    moves so far that captured; until the first, no position can repeat
    F_HASH        Zobrist hash of the stones and the colour to move
    F_HIST_START  ply of the oldest hash in the history (a position read from text has none before)
    F_EMPTY       how many cells are empty; F_RISKY how many empty cells have no empty neighbour
    BOARD         one value per cell: 0 empty, 1 x, 2 o
    open          per cell, how many of its neighbours are empty
    empty set     the empty cells, as a list and each one's place in it
    risky set     the empty cells without an empty neighbour (the only candidates for suicide)
    history       the hash after each ply, indexed by ply (ply cap + 1 entries)
    scratch       a queue for flood fills

Everything after BOARD is derived from the board and kept up to date by ``_set_stone``; it lets
``legal`` copy a list instead of scanning the board, and test freedom only where it can fail.

Actions: a cell index places a stone; ``cells`` passes; ``cells + 1`` swaps.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from boardlab.core.kernel import (
    APPLY_SIG,
    LEGAL_SIG,
    PLY,
    REASON_WIN,
    SPEC,
    STATE,
    TO_MOVE,
    set_add,
    set_discard,
)
from boardlab.core.kernel import finish_two_seats as finish
from boardlab.core.layout import StateLayout
from boardlab.core.planes import PLANES_SIG
from boardlab.core.turns import compile_turns

S_CELLS = 0
S_LENGTH = 1
S_SELF_CAPTURE = 2
S_SWAP = 3
S_REPETITION = 4
S_PLY_CAP = 5
S_WIN_CHECK = 6
S_NEIGH = 7
S_ZOBRIST = 8
S_OPEN = 9
S_EMPTY_LIST = 10
S_EMPTY_POS = 11
S_RISKY_LIST = 12
S_RISKY_POS = 13
S_HIST = 14
S_SCRATCH = 15
S_STATE_LEN = 16
SPEC_HEADER = 20

REPETITION_OFF = 0
REPETITION_DRAW = 1
REPETITION_SUPERKO = 2

WIN_AFTER_CAPTURES = 0
WIN_BEFORE_SELF_CAPTURE = 1

LAYOUT = StateLayout("ndengrod", total=S_STATE_LEN,
                    lengths=lambda spec: region_lengths(int(spec[S_CELLS]), int(spec[S_PLY_CAP])))
F_COLOUR, F_SWAPPED, F_PASSES, F_CAPTURES, F_HASH, F_HIST_START, F_EMPTY, F_RISKY = LAYOUT.several(
    "F_COLOUR", "F_SWAPPED", "F_PASSES", "F_CAPTURES", "F_HASH", "F_HIST_START", "F_EMPTY", "F_RISKY")
BOARD = LAYOUT.sized("BOARD")
LAYOUT.regions({"open": S_OPEN, "empty list": S_EMPTY_LIST, "empty places": S_EMPTY_POS,
                "risky list": S_RISKY_LIST, "risky places": S_RISKY_POS, "history": S_HIST,
                "scratch": S_SCRATCH})

EMPTY = 0
MARK = 4  # added to a cell's value while a flood fill has visited it

REASON_LINE = REASON_WIN
REASON_REPETITION = 2
REASON_PLY_CAP = 3
REASON_PASSES = 4


def region_lengths(cells: int, ply_cap: int) -> dict[str, int]:
    """The length of the board and of each region after it."""
    return {"BOARD": cells, "open": cells, "empty list": cells, "empty places": cells, "risky list": cells,
            "risky places": cells, "history": ply_cap + 1, "scratch": cells}


def layout(cells: int, ply_cap: int) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    return LAYOUT.place(region_lengths(cells, ply_cap))


@njit(cache=True)
def _set_stone(state, spec, cell, value):  # type: ignore[no-untyped-def]
    """Put ``value`` (a stone, or EMPTY to remove one) on ``cell``, keeping every derived region."""
    neigh = spec[S_NEIGH]
    open_at = spec[S_OPEN]
    risky, risky_at = spec[S_RISKY_LIST], spec[S_RISKY_POS]
    keys = spec[S_ZOBRIST]
    if value != EMPTY:
        state[F_HASH] ^= spec[keys + 2 * cell + value - 1]
        set_discard(state, spec[S_EMPTY_LIST], spec[S_EMPTY_POS], F_EMPTY, cell)
        if state[open_at + cell] == 0:
            set_discard(state, risky, risky_at, F_RISKY, cell)
        delta = -1
    else:
        state[F_HASH] ^= spec[keys + 2 * cell + state[BOARD + cell] - 1]
        set_add(state, spec[S_EMPTY_LIST], spec[S_EMPTY_POS], F_EMPTY, cell)
        if state[open_at + cell] == 0:
            set_add(state, risky, risky_at, F_RISKY, cell)
        delta = 1
    state[BOARD + cell] = value
    for k in range(6):
        other = spec[neigh + cell * 6 + k]
        if other < 0:
            continue
        before = state[open_at + other]
        state[open_at + other] = before + delta
        if state[BOARD + other] == EMPTY:
            if delta < 0 and before == 1:
                set_add(state, risky, risky_at, F_RISKY, other)
            elif delta > 0 and before == 0:
                set_discard(state, risky, risky_at, F_RISKY, other)


@njit(cache=True)
def rebuild(state, spec):  # type: ignore[no-untyped-def]
    """Derive every region after BOARD (and the hash) from the board and the colour to move."""
    cells = spec[S_CELLS]
    neigh = spec[S_NEIGH]
    stones = np.empty(cells, np.int64)
    for cell in range(cells):
        stones[cell] = state[BOARD + cell]
        state[BOARD + cell] = EMPTY
    state[F_EMPTY] = 0
    state[F_RISKY] = 0
    state[F_HASH] = spec[spec[S_ZOBRIST] + 2 * cells] if state[F_COLOUR] else 0
    for cell in range(cells):
        free = 0
        for k in range(6):
            if spec[neigh + cell * 6 + k] >= 0:
                free += 1
        state[spec[S_OPEN] + cell] = free
        set_add(state, spec[S_EMPTY_LIST], spec[S_EMPTY_POS], F_EMPTY, cell)
    for cell in range(cells):
        if stones[cell] != EMPTY:
            _set_stone(state, spec, cell, stones[cell])


@njit(cache=True)
def _flood(state, spec, start, excluded):  # type: ignore[no-untyped-def]
    """Return -1 if the group at ``start`` has a freedom other than ``excluded``; else its size.

    A group without freedom is left listed in the scratch queue for removal.
    """
    neigh = spec[S_NEIGH]
    queue = spec[S_SCRATCH]
    open_at = spec[S_OPEN]
    # With ``excluded`` empty, a stone with two empty neighbours still has one besides it.
    enough = 1 if excluded < 0 else 2
    colour = state[BOARD + start]
    state[BOARD + start] = colour + MARK
    state[queue] = start
    length = 1
    head = 0
    free = False
    while head < length and not free:
        cell = state[queue + head]
        head += 1
        if state[open_at + cell] >= enough:
            free = True
            break
        for k in range(6):
            other = spec[neigh + cell * 6 + k]
            if other < 0:
                continue
            value = state[BOARD + other]
            if value == EMPTY and other != excluded:
                free = True
                break
            if value == colour:
                state[BOARD + other] = colour + MARK
                state[queue + length] = other
                length += 1
    for i in range(length):
        state[BOARD + state[queue + i]] = colour
    return -1 if free else length


@njit(cache=True)
def _remove_listed(state, spec, count):  # type: ignore[no-untyped-def]
    """Remove the ``count`` stones a failed flood fill left in the scratch queue."""
    queue = spec[S_SCRATCH]
    for i in range(count):
        _set_stone(state, spec, state[queue + i], EMPTY)


@njit(cache=True)
def has_line(state, spec, cell):  # type: ignore[no-untyped-def]
    """Whether the stone on ``cell`` lies on a line of at least ``length`` along any of the 3 axes."""
    neigh = spec[S_NEIGH]
    colour = state[BOARD + cell]
    target = spec[S_LENGTH]
    for axis in range(3):
        count = 1
        for direction in (axis, axis + 3):
            other = spec[neigh + cell * 6 + direction]
            while other >= 0 and state[BOARD + other] == colour:
                count += 1
                other = spec[neigh + other * 6 + direction]
        if count >= target:
            return True
    return False


@njit(cache=True)
def keeps_freedom(state, spec, cell, colour):  # type: ignore[no-untyped-def]
    """Whether a stone of ``colour`` (1 or 2) placed on empty ``cell`` has a freedom after captures."""
    if state[spec[S_OPEN] + cell] > 0:
        return True
    neigh = spec[S_NEIGH]
    enemy = 3 - colour
    open_at = spec[S_OPEN]
    # A neighbour with two empty neighbours gives its group a freedom besides ``cell``: that
    # settles an own neighbour at once, and leaves an enemy one uncaptured.
    for k in range(6):
        other = spec[neigh + cell * 6 + k]
        if other >= 0 and state[BOARD + other] == colour and state[open_at + other] >= 2:
            return True
    for k in range(6):
        other = spec[neigh + cell * 6 + k]
        if other < 0 or state[open_at + other] >= 2:
            continue
        value = state[BOARD + other]
        if value == enemy and _flood(state, spec, other, cell) >= 0:
            return True  # that enemy group is captured, so the new stone gains a freedom
        if value == colour and _flood(state, spec, other, cell) < 0:
            return True
    return False


@njit(cache=True)
def _repeats(state, spec, times):  # type: ignore[no-untyped-def]
    """Whether the current hash occurred at least ``times`` times before in the history."""
    hist = spec[S_HIST]
    current = state[F_HASH]
    seen = 0
    for ply in range(state[F_HIST_START], state[PLY]):
        if state[hist + ply] == current:
            seen += 1
            if seen >= times:
                return True
    return False


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` for the player to move (it must be legal) and resolve it (N1, N2, N6)."""
    cells = spec[S_CELLS]
    neigh = spec[S_NEIGH]
    open_at = spec[S_OPEN]
    mover = state[TO_MOVE]
    colour = state[F_COLOUR]
    own = colour + 1
    enemy = 2 - colour
    won = False
    if action == cells:
        state[F_PASSES] += 1
    elif action == cells + 1:
        state[F_SWAPPED] ^= 1  # the swapper takes over x's stone; o (now the other seat) moves next
    else:
        state[F_PASSES] = 0
        _set_stone(state, spec, action, own)
        captured = False
        for k in range(6):
            other = spec[neigh + action * 6 + k]
            if other >= 0 and state[BOARD + other] == enemy and state[open_at + other] == 0:
                count = _flood(state, spec, other, -1)
                if count > 0:
                    _remove_listed(state, spec, count)
                    captured = True
        if spec[S_WIN_CHECK] == WIN_BEFORE_SELF_CAPTURE:
            won = has_line(state, spec, action)
        if state[open_at + action] == 0:
            count = _flood(state, spec, action, -1)
            if count > 0:
                _remove_listed(state, spec, count)
                captured = True
        if not won and state[BOARD + action] == own:
            won = has_line(state, spec, action)
        if captured:
            state[F_CAPTURES] += 1
    if action != cells + 1:
        state[F_COLOUR] = 1 - colour
        state[F_HASH] ^= spec[spec[S_ZOBRIST] + 2 * cells]
    ply = state[PLY] + 1
    state[PLY] = ply
    state[spec[S_HIST] + ply] = state[F_HASH]
    if won:
        finish(state, mover, REASON_LINE)
    elif state[F_PASSES] >= 2:
        finish(state, -1, REASON_PASSES)
    elif spec[S_REPETITION] == REPETITION_DRAW and state[F_CAPTURES] > 0 and _repeats(state, spec, 2):
        finish(state, -1, REASON_REPETITION)
    elif ply >= spec[S_PLY_CAP]:
        finish(state, -1, REASON_PLY_CAP)
    else:
        state[TO_MOVE] = state[F_COLOUR] ^ state[F_SWAPPED]


@njit(types.int64(STATE, SPEC, STATE, types.int64), cache=True)
def _without_repeats(state, spec, out, count):  # type: ignore[no-untyped-def]
    """Keep the first ``count`` placements in ``out`` that do not recreate an earlier position."""
    trial = np.empty_like(state)
    kept = 0
    for i in range(count):
        trial[:] = state
        apply(trial, spec, out[i])
        if not _repeats(trial, spec, 1):
            out[kept] = out[i]
            kept += 1
    return kept


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the legal actions for the player to move into ``out``; return how many."""
    if state[TO_MOVE] < 0:
        return 0
    cells = spec[S_CELLS]
    count = state[F_EMPTY]
    empties = spec[S_EMPTY_LIST]
    for i in range(count):
        out[i] = state[empties + i]
    if spec[S_SELF_CAPTURE] == 0 and state[F_RISKY] > 0:
        # Only a cell with no empty neighbour can be suicide; strike those that are.
        own = state[F_COLOUR] + 1
        struck = False
        for j in range(state[F_RISKY]):
            cell = state[spec[S_RISKY_LIST] + j]
            if not keeps_freedom(state, spec, cell, own):
                out[state[spec[S_EMPTY_POS] + cell]] = -1
                struck = True
        if struck:
            kept = 0
            for i in range(count):
                if out[i] >= 0:
                    out[kept] = out[i]
                    kept += 1
            count = kept
    if spec[S_REPETITION] == REPETITION_SUPERKO and state[F_CAPTURES] > 0:
        count = _without_repeats(state, spec, out, count)
    if spec[S_SWAP] and state[PLY] == 1 and state[F_SWAPPED] == 0:
        out[count] = cells + 1
        count += 1
    if count == 0:
        out[0] = cells
        count = 1
    return count


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=False)


@njit(PLANES_SIG, cache=True)
def planes(view, spec, seat, out):  # type: ignore[no-untyped-def]
    """Observation planes (``boardlab.core.planes``) from a view's vector: stones by colour, ``mine``."""
    swapped = view[F_SWAPPED]
    for cell in range(out.shape[1]):
        stone = view[BOARD + cell]
        if stone:
            out[stone - 1, cell] = 1
            if (stone - 1) ^ swapped == seat:
                out[2, cell] = 1
