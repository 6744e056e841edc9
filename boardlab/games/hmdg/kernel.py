"""Hidden Move Double Gomoku's rules as numba kernels over a state vector (rules: the package docstring).

Spec vector (options and tables, built by ``face.HiddenMoveDoubleGomoku.build_spec``)::

    S_SIZE S_CELLS S_LENGTH S_LINES_NEEDED S_MAX_SHARED S_OVERLINE S_ANNOUNCE S_OWN_STACK
    S_PARTNER S_END_REVEAL S_NO_TARGET S_SEGMENTS
    S_SEG_CELLS  -> per segment (a run of ``length`` points), its points in line order
    S_SEG_ENDS   -> per segment, the point just before and just after it (-1 off the board)
    S_SEG_GEOM   -> per segment: direction, line id, position of its first point
    S_CELL_SEGS  -> per point: how many segments hold it, then their ids (stride 1 + 4 * length)
    S_CELL_GEOM  -> per point and direction: line id and position along that line
    S_SEGCOUNT   -> where the state's per-colour segment counts start; S_STATE_LEN its length

Directions: 0 along a row, 1 along a column, 2 the ``\\`` diagonal, 3 the ``/`` diagonal.

State vector, after the common header of ``boardlab.core.kernel``::

    F_PHASE        SETUP (A places x), CHOOSE (B picks a side), COMMIT (the mover), RESPOND (the responder)
    F_X_SEAT       the seat playing x (-1 until B has chosen)
    F_COLOUR       the mover's colour (0 = x, 1 = o)
    F_TARGET       the mover's secret target while the responder decides (-1 otherwise)   PRIVATE
    F_AXIS F_LINE  the announced line while the responder decides (axis 0 = row, 1 = column)
    F_PASSES       consecutive passes (a mover without a legal target passes; H8)
    F_FIVE_FLAG+c  1 once colour c has announced a five (H6)
    F_LAST_*       the last resolution, public: outcome, target (-1 unless revealed), fives announced
    F_HIDDEN+c     hidden placements of colour c not yet revealed, as the public log counts them: +1 per
                   hidden landing, -1 per hidden stone revealed (by its owner, as a stack partner, at the end)
    STONES+c*cells one value per point and colour: EMPTY, HIDDEN or REVEALED
    segment counts how many of each segment's points hold a stone of colour c (derived)

A point holding a revealed stone is *closed* (H2). Everything but F_TARGET, the other colour's
hidden stones and what is derived from them is public; ``face.observe`` erases the rest.

Actions: ``2 * target + axis`` commits a target and announces its row (0) or column (1); ``PASS``;
``SETUP_BASE + point`` places the first x; ``CHOOSE_X``/``CHOOSE_O`` pick a side; ``REVEAL_BASE +
mask`` reveals the responder's hidden stones at the line positions set in ``mask`` (bit j = the
j-th point of the announced line, left to right or top to bottom).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from boardlab.core.kernel import (
    APPLY_SIG,
    LEGAL_SIG,
    MID_TURN,
    PLY,
    REASON_WIN,
    TO_MOVE,
    finish_two_seats,
)
from boardlab.core.layout import StateLayout
from boardlab.core.planes import PLANES_SIG
from boardlab.core.turns import DESCRIBE_SIG, TURN_ENDS, compile_turns

S_SIZE = 0
S_CELLS = 1
S_LENGTH = 2
S_LINES_NEEDED = 3
S_MAX_SHARED = 4
S_OVERLINE = 5
S_ANNOUNCE = 6
S_OWN_STACK = 7
S_PARTNER = 8
S_END_REVEAL = 9
S_NO_TARGET = 10
S_SEGMENTS = 11
S_SEG_CELLS = 12
S_SEG_ENDS = 13
S_SEG_GEOM = 14
S_CELL_SEGS = 15
S_CELL_GEOM = 16
S_SEGCOUNT = 17
S_STATE_LEN = 18
SPEC_HEADER = 20

ANNOUNCE_EVERY = 0
ANNOUNCE_FIRST = 1
ANNOUNCE_NONE = 2

END_REVEAL_WINNER = 0
END_REVEAL_ALL = 1

NO_TARGET_PASS = 0
NO_TARGET_DRAW = 1

LAYOUT = StateLayout("hmdg", total=S_STATE_LEN,
                    lengths=lambda spec: region_lengths(int(spec[S_CELLS]), int(spec[S_SEGMENTS])))
F_PHASE, F_X_SEAT, F_COLOUR, F_TARGET, F_AXIS, F_LINE, F_PASSES = LAYOUT.several(
    "F_PHASE", "F_X_SEAT", "F_COLOUR", "F_TARGET", "F_AXIS", "F_LINE", "F_PASSES")
F_FIVE_FLAG = LAYOUT.field("F_FIVE_FLAG", 2)  # + colour
F_LAST_OUTCOME, F_LAST_TARGET, F_LAST_FIVES = LAYOUT.several("F_LAST_OUTCOME", "F_LAST_TARGET", "F_LAST_FIVES")
F_HIDDEN = LAYOUT.field("F_HIDDEN", 2)  # + colour
LAYOUT.spare(2)
STONES = LAYOUT.sized("STONES")
LAYOUT.region("segment counts", S_SEGCOUNT)

PH_SETUP = 0
PH_CHOOSE = 1
PH_COMMIT = 2
PH_RESPOND = 3

EMPTY = 0
HIDDEN = 1
REVEALED = 2

OUT_NONE = 0
OUT_HIDDEN = 1
OUT_PLACED = 2
OUT_FAILED = 3
OUT_PASS = 4

REASON_LINES = REASON_WIN
REASON_PASSES = 2
REASON_NO_TARGET = 3

COLOUR_X = 0
COLOUR_O = 1


def pass_action(cells: int) -> int:
    return 2 * cells


def setup_base(cells: int) -> int:
    return 2 * cells + 1


def choose_x(cells: int) -> int:
    return 3 * cells + 1


def choose_o(cells: int) -> int:
    return 3 * cells + 2


def reveal_base(cells: int) -> int:
    return 3 * cells + 3


def region_lengths(cells: int, segments: int) -> dict[str, int]:
    """The length of the stones and of the segment counts: one per point (segment) and colour."""
    return {"STONES": 2 * cells, "segment counts": 2 * segments}


def layout(cells: int, segments: int) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    return LAYOUT.place(region_lengths(cells, segments))


@njit(cache=True)
def seat_of(state, colour):  # type: ignore[no-untyped-def]
    """The seat playing ``colour`` (x is F_X_SEAT; o the other)."""
    return state[F_X_SEAT] if colour == COLOUR_X else 1 - state[F_X_SEAT]


@njit(cache=True)
def line_point(size, axis, line, j):  # type: ignore[no-untyped-def]
    """The j-th point of row ``line`` (axis 0) or column ``line`` (axis 1)."""
    return line * size + j if axis == 0 else j * size + line


@njit(cache=True)
def is_counting(state, spec, colour, seg):  # type: ignore[no-untyped-def]
    """Whether segment ``seg`` is a five of ``colour`` that counts (H5: an overline's part counts unless
    ``overline_counts`` is off, when a five counts only if neither neighbour on its line is ``colour``'s)."""
    length = spec[S_LENGTH]
    if state[spec[S_SEGCOUNT] + colour * spec[S_SEGMENTS] + seg] != length:
        return False
    if spec[S_OVERLINE]:
        return True
    stones = STONES + colour * spec[S_CELLS]
    for end in range(2):
        cell = spec[spec[S_SEG_ENDS] + 2 * seg + end]
        if cell >= 0 and state[stones + cell] != EMPTY:
            return False
    return True


@njit(cache=True)
def add_stone(state, spec, colour, cell, value):  # type: ignore[no-untyped-def]
    """Put a stone of ``colour`` on ``cell`` (which holds none of its stones); return the new fives."""
    cells = spec[S_CELLS]
    state[STONES + colour * cells + cell] = value
    counts = spec[S_SEGCOUNT] + colour * spec[S_SEGMENTS]
    table = spec[S_CELL_SEGS] + cell * (1 + 4 * spec[S_LENGTH])
    length = spec[S_LENGTH]
    completed = 0
    for i in range(spec[table]):
        seg = spec[table + 1 + i]
        state[counts + seg] += 1
        if state[counts + seg] == length:
            completed += 1
    if completed == 0 or spec[S_OVERLINE]:
        return completed
    fives = 0
    for i in range(spec[table]):
        seg = spec[table + 1 + i]
        if is_counting(state, spec, colour, seg):
            fives += 1
    return fives


@njit(cache=True)
def rebuild(state, spec):  # type: ignore[no-untyped-def]
    """Derive the segment counts from the stones."""
    cells = spec[S_CELLS]
    segments = spec[S_SEGMENTS]
    counts = spec[S_SEGCOUNT]
    stride = 1 + 4 * spec[S_LENGTH]
    for i in range(2 * segments):
        state[counts + i] = 0
    for colour in range(2):
        for cell in range(cells):
            if state[STONES + colour * cells + cell] != EMPTY:
                table = spec[S_CELL_SEGS] + cell * stride
                for i in range(spec[table]):
                    state[counts + colour * segments + spec[table + 1 + i]] += 1


@njit(cache=True)
def overlap(spec, a, b):  # type: ignore[no-untyped-def]
    """How many points segments ``a`` and ``b`` share."""
    geom = spec[S_SEG_GEOM]
    length = spec[S_LENGTH]
    direction, line, low = spec[geom + 3 * b], spec[geom + 3 * b + 1], spec[geom + 3 * b + 2]
    if spec[geom + 3 * a] == direction:
        if spec[geom + 3 * a + 1] != line:
            return 0
        return max(0, length - abs(spec[geom + 3 * a + 2] - low))
    shared = 0
    cell_geom = spec[S_CELL_GEOM]
    for i in range(length):
        cell = spec[spec[S_SEG_CELLS] + a * length + i]
        at = cell_geom + cell * 8 + 2 * direction
        if spec[at] == line and low <= spec[at + 1] < low + length:
            shared += 1
    return shared


@njit(cache=True)
def has_winning_lines(state, spec, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour`` holds ``lines_needed`` counting fives, each pair sharing ≤ ``max_shared`` points."""
    segments = spec[S_SEGMENTS]
    found = np.empty(segments, np.int64)  # only reached when a five has just formed: rare
    n = 0
    for seg in range(segments):
        if is_counting(state, spec, colour, seg):
            found[n] = seg
            n += 1
    needed = spec[S_LINES_NEEDED]
    if n < needed:
        return False
    if needed == 1:
        return True
    limit = spec[S_MAX_SHARED]
    for i in range(n):
        for j in range(i + 1, n):
            if overlap(spec, found[i], found[j]) > limit:
                continue
            if needed == 2:
                return True
            for k in range(j + 1, n):
                if overlap(spec, found[i], found[k]) <= limit and overlap(spec, found[j], found[k]) <= limit:
                    return True
    return False


@njit(cache=True)
def _reveal_all(state, spec, colour):  # type: ignore[no-untyped-def]
    stones = STONES + colour * spec[S_CELLS]
    for cell in range(spec[S_CELLS]):
        if state[stones + cell] == HIDDEN:
            state[stones + cell] = REVEALED
    state[F_HIDDEN + colour] = 0


@njit(cache=True)
def finish(state, spec, winner_colour, reason):  # type: ignore[no-untyped-def]
    """End the game: ``winner_colour`` wins (``-1``: a draw); reveal what the rules reveal (H6)."""
    for colour in range(2):
        if spec[S_END_REVEAL] == END_REVEAL_ALL or colour == winner_colour:
            _reveal_all(state, spec, colour)
    finish_two_seats(state, -1 if winner_colour < 0 else seat_of(state, winner_colour), reason)


@njit(cache=True)
def _next_turn(state):  # type: ignore[no-untyped-def]
    colour = 1 - state[F_COLOUR]
    state[F_COLOUR] = colour
    state[F_PHASE] = PH_COMMIT
    state[MID_TURN] = 0
    state[TO_MOVE] = seat_of(state, colour)


@njit(cache=True)
def _pass(state, spec):  # type: ignore[no-untyped-def]
    state[F_PASSES] += 1
    state[F_LAST_OUTCOME] = OUT_PASS
    state[F_LAST_TARGET] = -1
    state[F_LAST_FIVES] = 0
    if spec[S_NO_TARGET] == NO_TARGET_DRAW:
        finish(state, spec, -1, REASON_NO_TARGET)
    elif state[F_PASSES] >= 2:
        finish(state, spec, -1, REASON_PASSES)
    else:
        _next_turn(state)


@njit(cache=True)
def _resolve(state, spec, mask):  # type: ignore[no-untyped-def]
    """The responder reveals the stones in ``mask``; then the mover's stone lands or fails (H1–H6)."""
    size = spec[S_SIZE]
    cells = spec[S_CELLS]
    mover = state[F_COLOUR]
    responder = 1 - mover
    own = STONES + mover * cells
    theirs = STONES + responder * cells
    target = state[F_TARGET]
    partner = spec[S_PARTNER]
    failed = False
    for j in range(size):
        if (mask >> j) & 1:
            point = line_point(size, state[F_AXIS], state[F_LINE], j)
            state[theirs + point] = REVEALED
            state[F_HIDDEN + responder] -= 1
            if point == target:
                failed = True
            if partner and state[own + point] == HIDDEN:
                state[own + point] = REVEALED
                state[F_HIDDEN + mover] -= 1
    fives = 0
    if mask == 0:
        state[F_LAST_OUTCOME] = OUT_HIDDEN
        state[F_LAST_TARGET] = -1
        state[F_HIDDEN + mover] += 1
        if state[own + target] == EMPTY:
            fives = add_stone(state, spec, mover, target, HIDDEN)
        # else: a stone on the mover's own hidden stone (allow_own_stack) adds nothing to the board
    else:
        state[F_LAST_TARGET] = target
        if failed:
            state[F_LAST_OUTCOME] = OUT_FAILED
        else:
            state[F_LAST_OUTCOME] = OUT_PLACED
            if state[own + target] == EMPTY:
                fives = add_stone(state, spec, mover, target, REVEALED)
            else:  # on the mover's own hidden stone (allow_own_stack): only the new stone is announced
                state[own + target] = REVEALED
            if partner and state[theirs + target] == HIDDEN:
                state[theirs + target] = REVEALED
                state[F_HIDDEN + responder] -= 1
    announced = fives
    if spec[S_ANNOUNCE] == ANNOUNCE_NONE or (spec[S_ANNOUNCE] == ANNOUNCE_FIRST and state[F_FIVE_FLAG + mover]):
        announced = 0
    if announced:
        state[F_FIVE_FLAG + mover] = 1
    state[F_LAST_FIVES] = announced
    state[F_PASSES] = 0
    state[F_TARGET] = -1
    state[F_AXIS] = -1
    state[F_LINE] = -1
    if fives and has_winning_lines(state, spec, mover):
        finish(state, spec, mover, REASON_LINES)
    else:
        _next_turn(state)


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` for the seat that owes the decision (it must be legal)."""
    cells = spec[S_CELLS]
    phase = state[F_PHASE]
    state[PLY] += 1
    if phase == PH_COMMIT:
        if action == 2 * cells:
            _pass(state, spec)
            return
        target = action >> 1
        axis = action & 1
        size = spec[S_SIZE]
        state[F_TARGET] = target
        state[F_AXIS] = axis
        state[F_LINE] = target // size if axis == 0 else target % size
        state[F_PHASE] = PH_RESPOND
        state[MID_TURN] = 1
        state[TO_MOVE] = seat_of(state, 1 - state[F_COLOUR])
    elif phase == PH_RESPOND:
        _resolve(state, spec, action - (3 * cells + 3))
    elif phase == PH_SETUP:
        add_stone(state, spec, COLOUR_X, action - (2 * cells + 1), REVEALED)
        state[F_PHASE] = PH_CHOOSE
        state[TO_MOVE] = 1
    else:
        state[F_X_SEAT] = 1 if action == 3 * cells + 1 else 0
        state[F_COLOUR] = COLOUR_X  # _next_turn flips it: o moves first
        _next_turn(state)


@njit(cache=True)
def _commit_stacks(state, spec):  # type: ignore[no-untyped-def]
    """For a commit: where the mover's stones start, where the other's start, and the most the mover's own
    stone on a point may be for the mover to target it (EMPTY; HIDDEN under allow_own_stack)."""
    cells = spec[S_CELLS]
    own = STONES + state[F_COLOUR] * cells
    theirs = STONES + (1 - state[F_COLOUR]) * cells
    return own, theirs, HIDDEN if spec[S_OWN_STACK] else EMPTY


@njit(cache=True)
def _targetable(state, own, theirs, own_limit, cell):  # type: ignore[no-untyped-def]
    """Whether the mover may commit to ``cell`` (the rest as :func:`_commit_stacks` gives it): no revealed
    stone of the other's there, and its own no more than ``own_limit``."""
    return state[own + cell] <= own_limit and state[theirs + cell] != REVEALED


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the legal actions for the decision owed now into ``out``; return how many."""
    if state[TO_MOVE] < 0:
        return 0
    cells = spec[S_CELLS]
    phase = state[F_PHASE]
    if phase == PH_COMMIT:
        own, theirs, own_limit = _commit_stacks(state, spec)
        n = 0
        for cell in range(cells):
            if _targetable(state, own, theirs, own_limit, cell):
                out[n] = 2 * cell
                out[n + 1] = 2 * cell + 1
                n += 2
        if n == 0:
            out[0] = 2 * cells
            n = 1
        return n
    if phase == PH_RESPOND:
        size = spec[S_SIZE]
        theirs = STONES + (1 - state[F_COLOUR]) * cells
        hidden = 0
        for j in range(size):
            if state[theirs + line_point(size, state[F_AXIS], state[F_LINE], j)] == HIDDEN:
                hidden |= 1 << j
        base = 3 * cells + 3
        n = 0
        sub = hidden
        while True:  # every subset of the hidden stones on the line, by the submask walk
            out[n] = base + sub
            n += 1
            if sub == 0:
                break
            sub = (sub - 1) & hidden
        return n
    if phase == PH_SETUP:
        for cell in range(cells):
            out[cell] = 2 * cells + 1 + cell
        return cells
    out[0] = 3 * cells + 1
    out[1] = 3 * cells + 2
    return 2


@njit(cache=True)
def is_legal(state, spec, action):  # type: ignore[no-untyped-def]
    """Whether ``action`` is legal now, without listing every legal action (for replays in search)."""
    if state[TO_MOVE] < 0:
        return False
    cells = spec[S_CELLS]
    phase = state[F_PHASE]
    if phase == PH_COMMIT:
        own, theirs, own_limit = _commit_stacks(state, spec)
        if action == 2 * cells:  # a pass: legal only where no point can be targeted
            for cell in range(cells):  # noqa: SIM110 - a loop numba compiles, not all() over a generator
                if _targetable(state, own, theirs, own_limit, cell):
                    return False
            return True
        if action < 0 or action > 2 * cells:
            return False
        return _targetable(state, own, theirs, own_limit, action >> 1)
    if phase == PH_RESPOND:
        size = spec[S_SIZE]
        mask = action - (3 * cells + 3)
        if mask < 0 or mask >= (1 << size):
            return False
        theirs = STONES + (1 - state[F_COLOUR]) * cells
        for j in range(size):
            if (mask >> j) & 1 and state[theirs + line_point(size, state[F_AXIS], state[F_LINE], j)] != HIDDEN:
                return False
        return True
    if phase == PH_SETUP:
        return 2 * cells + 1 <= action < 3 * cells + 1
    return action == 3 * cells + 1 or action == 3 * cells + 2


@njit(DESCRIBE_SIG, cache=True)
def describe(state, spec, action):  # type: ignore[no-untyped-def]
    """The text key of ``action`` (``boardlab.core.turns``): a reveal's text names the announced
    line's points, so its key is ``action + actions · (1 + axis · size + line)``; other keys are the
    action. Every decision ends its seat's turn (a commit hands the next one to the responder)."""
    cells = spec[S_CELLS]
    if action >= 3 * cells + 3 and state[F_AXIS] >= 0:
        actions = 3 * cells + 3 + (1 << spec[S_SIZE])  # the game's action_limit
        return (action + actions * (1 + state[F_AXIS] * spec[S_SIZE] + state[F_LINE])) << 2 | TURN_ENDS
    return action << 2 | TURN_ENDS


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=True)


@njit(PLANES_SIG, cache=True)
def planes(view, spec, seat, out):  # type: ignore[no-untyped-def]
    """Observation planes (``boardlab.core.planes``) from a seat's observed vector (``observe`` has
    erased what it may not know): hidden and revealed stones by colour, ``mine``, closed points,
    and the mover's own target while the responder decides."""
    cells = spec[S_CELLS]
    chosen = view[F_X_SEAT] >= 0
    target = view[F_TARGET]
    for cell in range(out.shape[1]):
        for colour in range(2):
            value = view[STONES + colour * cells + cell]
            if value:
                out[2 * colour + (1 if value == REVEALED else 0), cell] = 1
                if value == REVEALED:
                    out[5, cell] = 1
                if chosen and seat_of(view, colour) == seat:
                    out[4, cell] = 1
        if cell == target:
            out[6, cell] = 1


@njit(cache=True)
def observed(state, spec, own, mover):  # type: ignore[no-untyped-def]
    """What a seat playing colour ``own`` (-1: none yet, or a spectator) may know, as a new vector:
    the other colours' hidden stones erased and, unless it is the ``mover`` while the responder
    decides, the target too; the derived fields are rebuilt (``face.observe``)."""
    seen = state.copy()
    cells = spec[S_CELLS]
    for colour in range(2):
        if colour != own:
            base = STONES + colour * cells
            for cell in range(cells):
                if seen[base + cell] == HIDDEN:
                    seen[base + cell] = EMPTY
    if not (seen[F_PHASE] == PH_RESPOND and mover):
        seen[F_TARGET] = -1
    rebuild(seen, spec)
    return seen
