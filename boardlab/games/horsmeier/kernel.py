"""Horsmeier's strength race as numba kernels over a state vector (rules in the package docstring).

Cells are numbered as ``topology.square(11)`` numbers them: row 0 at the top, which is Black's home
(row 11 in the notation). Colour 0 is White, moving up; colour 1 is Black, moving down. A seat is
``colour XOR spec[S_FIRST]``, so seat 0 always moves first.

Spec vector (options and tables, built by ``face.Horsmeier.build_spec``)::

    S_FIRST S_UPGRADE S_SIDEWAYS S_BACKWARD S_OWN_SUM S_EXPIRY S_NO_MOVE S_REPETITION S_PLY_CAP
    S_NEIGH        -> cells x 4 neighbours (N, E, S, W; -1 off board)
    S_ROW          -> per cell, its row counted from White's home row, 0 to 10
    S_KEYS_*       -> Zobrist keys: (cell, colour, strength level), (cell, colour, life span),
                      (cell, colour, upgrade reference row); then S_KEY_SIDE for "Black to move"
    S_STATE_LEN    the state's length
    S_STRENGTHS + level: the strength of each level, 1 2 3 5 8

State vector, after the common header of ``boardlab.core.kernel``::

    F_COLOUR      colour to move (kept when the game ends)
    F_HASH        Zobrist hash of every piece (cell, colour, level, life span, reference row) and
                  the colour to move
    F_HIST_START  ply of the oldest hash in the history: the last removal (or the set-up)
    F_COUNT + c   pieces of colour c on the board
    BOARD         per cell: 0 empty, else piece id + 1
    ROWSUM        per colour and row (counted from White's side): the sum of that colour's strengths
    pieces        per piece id (colour * 11 + i): its cell (-1 once removed), strength level,
                  life span, reference row for upgrades (J3; 0 under the band rule), and the ply
                  of its last move
    history       the hash after each ply, indexed by ply

A position can recur only once every piece has moved since: a piece left still ages, and its
(strength, life span) only goes down until it moves. So the repetition scan starts before the
oldest "last move" of all pieces, and mostly there is nothing to scan. (Not under the added
``expiry_rule=never``, where life spans stand still: there the whole history is scanned.)

Actions: ``cell * 4 + direction`` (N, E, S, W as drawn: N is toward row 11); ``PASS``.
"""

from __future__ import annotations

import math

from numba import njit

from boardlab.core.kernel import APPLY_SIG, EVALUATE_SIG, LEGAL_SIG, PLY, TO_MOVE, finish_two_seats, occurs_twice
from boardlab.core.layout import StateLayout
from boardlab.core.planes import PLANES_SIG
from boardlab.core.turns import compile_turns

SIZE = 11
CELLS = SIZE * SIZE
SLOTS = 11  # pieces per colour
LIFE = 11
LEVELS = 5
PASS = 4 * CELLS

S_FIRST = 0
S_UPGRADE = 1
S_SIDEWAYS = 2
S_BACKWARD = 3
S_OWN_SUM = 4
S_EXPIRY = 5
S_NO_MOVE = 6
S_REPETITION = 7
S_PLY_CAP = 8
S_NEIGH = 9
S_ROW = 10
S_KEYS_LEVEL = 11
S_KEYS_LIFE = 12
S_KEYS_REF = 13
S_KEY_SIDE = 14
S_STATE_LEN = 15
S_STRENGTHS = 16
SPEC_HEADER = 24

UPGRADE_BAND = 0
UPGRADE_SINCE_LAST_CHANGE = 1
UPGRADE_FROM_OWN_START = 2
EXPIRY_DEGRADE_AND_RESET = 0
EXPIRY_DEGRADE_EACH_TURN = 1
EXPIRY_REMOVE_ANY = 2
EXPIRY_NEVER = 3  # added, for playtests: life spans stand still (the ignore_lifespan restriction's model)
NO_MOVE_PASS_DECAY = 0
NO_MOVE_LOSE = 1
NO_MOVE_DRAW = 2

NORTH = 0
SOUTH = 2

LAYOUT = StateLayout("horsmeier", total=S_STATE_LEN, lengths=lambda spec: {"HIST": int(spec[S_PLY_CAP]) + 1})
F_COLOUR, F_HASH, F_HIST_START = LAYOUT.several("F_COLOUR", "F_HASH", "F_HIST_START")
F_COUNT = LAYOUT.field("F_COUNT", 2)  # + colour
LAYOUT.spare(3)
BOARD = LAYOUT.field("BOARD", CELLS)
ROWSUM = LAYOUT.field("ROWSUM", 2 * SIZE)
P_CELL = LAYOUT.field("P_CELL", 2 * SLOTS)  # + piece id, as are the four below
P_LEVEL = LAYOUT.field("P_LEVEL", 2 * SLOTS)
P_LIFE = LAYOUT.field("P_LIFE", 2 * SLOTS)
P_REF = LAYOUT.field("P_REF", 2 * SLOTS)
P_LAST = LAYOUT.field("P_LAST", 2 * SLOTS)
HIST = LAYOUT.sized("HIST")  # the hash after each ply: ply cap + 1 entries

REASON_FAR_ROW = 1
REASON_NO_PIECES = 2
REASON_NO_MOVE = 3
REASON_REPETITION = 4
REASON_PLY_CAP = 5


def state_length(ply_cap: int) -> int:
    return LAYOUT.place({"HIST": ply_cap + 1})[S_STATE_LEN]


@njit(cache=True)
def own_row(spec, colour, cell):  # type: ignore[no-untyped-def]
    """The row of ``cell`` counted from ``colour``'s home row, 1 to 11 (J1)."""
    row = spec[spec[S_ROW] + cell]
    return row + 1 if colour == 0 else SIZE - row


@njit(cache=True)
def piece_key(state, spec, piece):  # type: ignore[no-untyped-def]
    """The Zobrist key of ``piece`` as it stands (cell, colour, level, life span, reference row)."""
    cell = state[P_CELL + piece]
    colour = piece // SLOTS
    slot = 2 * cell + colour
    return (spec[spec[S_KEYS_LEVEL] + LEVELS * slot + state[P_LEVEL + piece]]
            ^ spec[spec[S_KEYS_LIFE] + (LIFE + 1) * slot + state[P_LIFE + piece]]
            ^ spec[spec[S_KEYS_REF] + (SIZE + 1) * slot + state[P_REF + piece]])


@njit(cache=True)
def place_piece(state, spec, piece, cell, level, life, ref):  # type: ignore[no-untyped-def]
    """Put ``piece`` (id ``colour * 11 + i``) on the empty ``cell``, keeping the row sums and hash."""
    colour = piece // SLOTS
    state[BOARD + cell] = piece + 1
    state[P_CELL + piece] = cell
    state[P_LEVEL + piece] = level
    state[P_LIFE + piece] = life
    state[P_REF + piece] = ref
    state[ROWSUM + SIZE * colour + spec[spec[S_ROW] + cell]] += spec[S_STRENGTHS + level]
    state[F_COUNT + colour] += 1
    state[F_HASH] ^= piece_key(state, spec, piece)


@njit(cache=True)
def _remove_piece(state, spec, piece):  # type: ignore[no-untyped-def]
    cell = state[P_CELL + piece]
    colour = piece // SLOTS
    state[F_HASH] ^= piece_key(state, spec, piece)
    state[BOARD + cell] = 0
    state[ROWSUM + SIZE * colour + spec[spec[S_ROW] + cell]] -= spec[S_STRENGTHS + state[P_LEVEL + piece]]
    state[P_CELL + piece] = -1
    state[F_COUNT + colour] -= 1


@njit(cache=True)
def _set_level(state, spec, piece, level):  # type: ignore[no-untyped-def]
    """Change a piece's strength level, keeping the row sums (the caller keeps the hash)."""
    colour = piece // SLOTS
    at = ROWSUM + SIZE * colour + spec[spec[S_ROW] + state[P_CELL + piece]]
    state[at] += spec[S_STRENGTHS + level] - spec[S_STRENGTHS + state[P_LEVEL + piece]]
    state[P_LEVEL + piece] = level


@njit(cache=True)
def strength_blocked(state, spec, piece, direction, to):  # type: ignore[no-untyped-def]
    """Whether moving ``piece`` in ``direction`` onto the empty ``to`` is strength blocked (J2)."""
    colour = piece // SLOTS
    rows = spec[S_ROW]
    here = spec[rows + state[P_CELL + piece]]
    there = spec[rows + to]
    against = state[ROWSUM + SIZE * (1 - colour) + there]
    if against == 0:
        return False
    own_sum = state[ROWSUM + SIZE * colour + here]
    own = own_sum if spec[S_OWN_SUM] == 0 else spec[S_STRENGTHS + state[P_LEVEL + piece]]
    if against < own:
        return False
    if here == there:
        return spec[S_SIDEWAYS] == 0
    backward = direction == (SOUTH if colour == 0 else NORTH)
    return not (backward and spec[S_BACKWARD] != 0)


@njit(cache=True)
def _steps(state, spec, colour, out):  # type: ignore[no-untyped-def]
    """Write ``colour``'s legal steps, each ``4 * cell + direction``, into ``out`` and return how many;
    with ``out`` None, stop at the first (numba compiles that branch away for an array)."""
    neigh = spec[S_NEIGH]
    count = 0
    for piece in range(colour * SLOTS, colour * SLOTS + SLOTS):
        cell = state[P_CELL + piece]
        if cell < 0:
            continue
        for direction in range(4):
            to = spec[neigh + 4 * cell + direction]
            if to >= 0 and state[BOARD + to] == 0 and not strength_blocked(state, spec, piece, direction, to):
                if out is None:
                    return 1
                out[count] = 4 * cell + direction
                count += 1
    return count


@njit(cache=True)
def has_move(state, spec, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour`` has a legal step (whoever is to move)."""
    return _steps(state, spec, colour, None) > 0


@njit(cache=True)
def _age(state, spec, piece):  # type: ignore[no-untyped-def]
    """One own turn passes without ``piece`` moving: its life span drops, with expiry (J6, J7).

    Returns whether the piece was removed. Under ``EXPIRY_NEVER`` nothing ages.
    """
    if spec[S_EXPIRY] == EXPIRY_NEVER:
        return False
    life = state[P_LIFE + piece]
    if life > 1:  # the common case: only the life-span key changes
        keys = spec[S_KEYS_LIFE] + (LIFE + 1) * (2 * state[P_CELL + piece] + piece // SLOTS)
        state[F_HASH] ^= spec[keys + life] ^ spec[keys + life - 1]
        state[P_LIFE + piece] = life - 1
        return False
    if life > 0:
        life -= 1
    level = state[P_LEVEL + piece]
    if life == 0 and (level == 0 or spec[S_EXPIRY] == EXPIRY_REMOVE_ANY):
        _remove_piece(state, spec, piece)
        return True
    state[F_HASH] ^= piece_key(state, spec, piece)
    if life == 0:
        _set_level(state, spec, piece, level - 1)
        if spec[S_EXPIRY] == EXPIRY_DEGRADE_AND_RESET:
            life = LIFE
        if spec[S_UPGRADE] == UPGRADE_SINCE_LAST_CHANGE:
            state[P_REF + piece] = own_row(spec, piece // SLOTS, state[P_CELL + piece])
    state[P_LIFE + piece] = life
    state[F_HASH] ^= piece_key(state, spec, piece)
    return False


@njit(cache=True)
def _step(state, spec, piece, direction):  # type: ignore[no-untyped-def]
    """Move ``piece`` one square and change its strength (J3, J4); return whether it reached the far row."""
    colour = piece // SLOTS
    cell = state[P_CELL + piece]
    to = spec[spec[S_NEIGH] + 4 * cell + direction]
    level = state[P_LEVEL + piece]
    strength = spec[S_STRENGTHS + level]
    rows = spec[S_ROW]
    state[F_HASH] ^= piece_key(state, spec, piece)
    state[BOARD + cell] = 0
    state[BOARD + to] = piece + 1
    state[P_CELL + piece] = to
    sums = ROWSUM + SIZE * colour
    state[sums + spec[rows + cell]] -= strength
    state[sums + spec[rows + to]] += strength
    row = own_row(spec, colour, to)
    if row == SIZE:
        state[F_HASH] ^= piece_key(state, spec, piece)
        return True
    forward = direction == (NORTH if colour == 0 else SOUTH)
    backward = direction == (SOUTH if colour == 0 else NORTH)
    rule = spec[S_UPGRADE]
    if forward and level < LEVELS - 1:
        threshold = 2 * strength if rule == UPGRADE_BAND else state[P_REF + piece] + strength
        if row >= threshold:
            _set_level(state, spec, piece, level + 1)
            if rule == UPGRADE_SINCE_LAST_CHANGE:
                state[P_REF + piece] = row
    elif backward and level > 0 and row < strength:
        _set_level(state, spec, piece, level - 1)
        if rule == UPGRADE_SINCE_LAST_CHANGE:
            state[P_REF + piece] = row
    state[P_LIFE + piece] = LIFE
    state[F_HASH] ^= piece_key(state, spec, piece)
    return False


@njit(cache=True)
def far_row_winner(state, spec):  # type: ignore[no-untyped-def]
    """The colour with a piece on its far row, -1 if none, -2 if both (J8)."""
    found = -1
    for colour in range(2):
        for piece in range(colour * SLOTS, colour * SLOTS + SLOTS):
            cell = state[P_CELL + piece]
            if cell >= 0 and own_row(spec, colour, cell) == SIZE:
                found = colour if found == -1 else -2
                break
    return found


@njit(cache=True)
def _repeats_twice(state, spec):  # type: ignore[no-untyped-def]
    """Whether the current hash occurred twice before in the history (threefold repetition)."""
    ply = state[PLY]
    oldest_move = ply
    # Where life spans stand still (EXPIRY_NEVER) a piece left still no longer changes the state, and
    # the whole history since the last removal is scanned.
    if spec[S_EXPIRY] != EXPIRY_NEVER:
        for piece in range(2 * SLOTS):
            if state[P_CELL + piece] >= 0 and state[P_LAST + piece] < oldest_move:
                oldest_move = state[P_LAST + piece]
    # An earlier occurrence came before every piece's last move, with the same colour to move.
    top = min(oldest_move - 1, ply - 2)
    if (ply - top) % 2:
        top -= 1
    return occurs_twice(state, state[F_HASH], HIST + top, HIST + state[F_HIST_START])


@njit(cache=True)
def finish(state, spec, winner_colour, reason):  # type: ignore[no-untyped-def]
    """End the game: ``winner_colour`` wins (``-1``: a draw) for ``reason``."""
    finish_two_seats(state, -1 if winner_colour < 0 else winner_colour ^ spec[S_FIRST], reason)


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` for the colour to move (it must be legal), update as J5 orders, settle the result."""
    colour = state[F_COLOUR]
    other = 1 - colour
    ply = state[PLY] + 1
    state[PLY] = ply
    moved = -1
    if action != PASS:
        moved = state[BOARD + action // 4] - 1
        if _step(state, spec, moved, action % 4):
            state[F_COLOUR] = other
            state[F_HASH] ^= spec[S_KEY_SIDE]
            finish(state, spec, colour, REASON_FAR_ROW)
            return
        state[P_LAST + moved] = ply
    removed = False
    for piece in range(colour * SLOTS, colour * SLOTS + SLOTS):
        if piece != moved and state[P_CELL + piece] >= 0 and _age(state, spec, piece):
            removed = True
    state[F_COLOUR] = other
    state[F_HASH] ^= spec[S_KEY_SIDE]
    state[HIST + ply] = state[F_HASH]
    if removed:
        state[F_HIST_START] = ply
    if state[F_COUNT + colour] == 0:
        finish(state, spec, other, REASON_NO_PIECES)
    elif spec[S_NO_MOVE] != NO_MOVE_PASS_DECAY and not has_move(state, spec, other):
        finish(state, spec, colour if spec[S_NO_MOVE] == NO_MOVE_LOSE else -1, REASON_NO_MOVE)
    elif spec[S_REPETITION] != 0 and not removed and _repeats_twice(state, spec):
        finish(state, spec, -1, REASON_REPETITION)
    elif ply >= spec[S_PLY_CAP]:
        finish(state, spec, -1, REASON_PLY_CAP)
    else:
        state[TO_MOVE] = other ^ spec[S_FIRST]


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the legal actions for the colour to move into ``out``; return how many."""
    if state[TO_MOVE] < 0:
        return 0
    count = _steps(state, spec, state[F_COLOUR], out)
    if count == 0 and spec[S_NO_MOVE] == NO_MOVE_PASS_DECAY:
        out[0] = PASS
        count = 1
    return count


@njit(EVALUATE_SIG, cache=True)
def evaluate(state, spec, values):  # type: ignore[no-untyped-def]
    """Search's estimate of each seat's chances: a race, so mostly how far each colour's leading
    piece has come (its own-side row), plus a little for total strength."""
    lead = 0.0
    for colour in range(2):
        best = 0
        strength = 0
        for slot in range(SLOTS):
            piece = colour * SLOTS + slot
            cell = state[P_CELL + piece]
            if cell < 0:
                continue
            best = max(best, own_row(spec, colour, cell))
            strength += spec[S_STRENGTHS + state[P_LEVEL + piece]]
        score = best + 0.05 * strength
        lead += score if colour == 0 else -score
    white = 1.0 / (1.0 + math.exp(-0.6 * lead))
    first = spec[S_FIRST]  # seat = colour XOR first
    values[0] = white if first == 0 else 1.0 - white
    values[1] = 1.0 - values[0]


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=False)


@njit(PLANES_SIG, cache=True)
def planes(view, spec, seat, out):  # type: ignore[no-untyped-def]
    """Observation planes (``boardlab.core.planes``): pieces by colour, ``mine``, then each piece's
    strength, life and (where upgrades count from a remembered row) that row."""
    first = spec[S_FIRST]
    rows = spec[S_UPGRADE] != UPGRADE_BAND
    for cell in range(out.shape[1]):
        piece = view[BOARD + cell] - 1
        if piece < 0:
            continue
        colour = piece // SLOTS
        out[colour, cell] = 1
        if colour ^ first == seat:
            out[2, cell] = 1
        out[3, cell] = spec[S_STRENGTHS + view[P_LEVEL + piece]]
        out[4, cell] = view[P_LIFE + piece]
        if rows:
            out[5, cell] = view[P_REF + piece]
