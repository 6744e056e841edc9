"""Tic-tac-toe's rules as numba kernels (the contract of ``boardlab.core.kernel``).

Spec: ``S_SIZE S_CELLS S_LENGTH S_MISERE S_LINES S_STATE_LEN``, then from ``SPEC_LINES`` every line of
``length`` cells, one after another (``S_LINES`` of them). State (``LAYOUT``): the common header, then
``F_FILLED`` (stones on the board) and ``BOARD``, one value per cell: 0 empty, 1 x, 2 o. Actions: a cell
places a stone.
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import APPLY_SIG, LEGAL_SIG, PLY, REASON_WIN, TO_MOVE
from boardlab.core.kernel import finish_two_seats as finish
from boardlab.core.layout import StateLayout
from boardlab.core.turns import compile_turns

S_SIZE = 0
S_CELLS = 1
S_LENGTH = 2
S_MISERE = 3
S_LINES = 4
S_STATE_LEN = 5
SPEC_LINES = 6

LAYOUT = StateLayout("tictac", total=S_STATE_LEN, lengths=lambda spec: {"BOARD": int(spec[S_CELLS])})
F_FILLED = LAYOUT.field("F_FILLED")
BOARD = LAYOUT.sized("BOARD")

REASON_FULL = 2


@njit(cache=True)
def has_line(state, spec, stone):  # type: ignore[no-untyped-def]
    """Whether some line is all ``stone``."""
    length = spec[S_LENGTH]
    for line in range(spec[S_LINES]):
        at = SPEC_LINES + line * length
        whole = True
        for i in range(length):
            if state[BOARD + spec[at + i]] != stone:
                whole = False
                break
        if whole:
            return True
    return False


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    count = 0
    for cell in range(spec[S_CELLS]):
        if state[BOARD + cell] == 0:
            out[count] = cell
            count += 1
    return count


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    seat = state[TO_MOVE]
    state[BOARD + action] = seat + 1
    state[F_FILLED] += 1
    state[PLY] += 1
    if has_line(state, spec, seat + 1):
        finish(state, 1 - seat if spec[S_MISERE] else seat, REASON_WIN)
    elif state[F_FILLED] == spec[S_CELLS]:
        finish(state, -1, REASON_FULL)
    else:
        state[TO_MOVE] = 1 - seat


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=False)
