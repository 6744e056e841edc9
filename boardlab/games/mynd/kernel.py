"""Mynd's rules as numba kernels over a state vector (the rules are in the package docstring; the
layout of the spec and state vectors is in ``layout.py``; territory and the end in ``territory.py``).

Pieces never leave the board, so a placement always makes a position never seen before; only
positions since the last placement can repeat, and a move's new position is looked up in a set.
Legal pushes come from bit operations on each row's and column's occupancy; a candidate push's new
position is first looked up by its moment (one multiplication) and only walked and hashed exactly
when the moment filter says it might have occurred.

Actions: a point index places a piece there; ``cells + 4 * rear + direction`` pushes the pieces from
``rear`` forwards (N, E, S, W as directions 0 to 3) one point; ``5 * cells`` passes.
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import APPLY_SIG, LEGAL_SIG, PLY, TO_MOVE
from boardlab.core.planes import PLANES_SIG
from boardlab.core.turns import DESCRIBE_SIG, TURN_ENDS, compile_turns
from boardlab.games.mynd.layout import (
    BOARD,
    F_HASH,
    F_MOMENT,
    F_NEXT,
    F_PASSES,
    F_PEG,
    F_PUSHES,
    F_SINCE,
    F_SUPPLY,
    FILTER_WORDS,
    FRONT,
    KEYS_PER_CELL,
    LINKS_CHRONO,
    MAJORITY_COMBINED,
    PEG,
    PUSH_WHOLE_RUN,
    REASON_PASSES,
    REASON_PLY_CAP,
    REASON_REPETITION,
    S_CANDIDATES,
    S_CELLS,
    S_COL,
    S_COL_OCC,
    S_COL_PEG,
    S_COL_SEAT,
    S_COUNTS,
    S_CUT,
    S_FILTER,
    S_KEYS,
    S_LIBERTY_DIRS,
    S_LINKS,
    S_LOCK,
    S_LOCKS,
    S_MAJORITY,
    S_MOMENT,
    S_NEIGH,
    S_PASS_LIMIT,
    S_PLAYERS,
    S_PLY_CAP,
    S_PUSH_MODE,
    S_PUSH_PEGS,
    S_ROW,
    S_ROW_OCC,
    S_ROW_PEG,
    S_ROW_SEAT,
    S_SINCE,
    S_SIZE,
    S_SLIDE,
    S_SOW_LIBERTY,
    S_SOWING,
    S_SUPERKO,
    S_TABLE,
    S_TABLE_MASK,
    S_USED,
    S_USED_MOMENT,
    SLIDE_ANY_OWN,
    SUPERKO_OFF,
    SUPERKO_POSITIONAL,
    bit_index,
    owner,
    popcount,
)
from boardlab.games.mynd.territory import (
    bank_enclosures,
    finish,
)

# -- the board and its derived regions ----------------------------------------------------------


@njit(cache=True)
def set_cell(state, spec, cell, value):  # type: ignore[no-untyped-def]
    """Put ``value`` (0, a piece or a peg) on ``cell``, keeping the hash, the moment and the bitboards."""
    old = state[BOARD + cell]
    if old == value:
        return
    size = spec[S_SIZE]
    keys = spec[S_KEYS]
    moment = spec[S_MOMENT]
    row = spec[spec[S_ROW] + cell]
    col = spec[spec[S_COL] + cell]
    row_bit = 1 << col
    col_bit = 1 << row
    weight = spec[moment + cell]
    cells = spec[S_CELLS]
    if old != 0:
        seat = owner(old)
        state[F_HASH] ^= spec[keys + cell * KEYS_PER_CELL + old - 1]
        state[F_MOMENT] -= spec[moment + cells + seat] * weight
        state[spec[S_ROW_SEAT] + seat * size + row] ^= row_bit
        state[spec[S_COL_SEAT] + seat * size + col] ^= col_bit
        if old > PEG:
            state[spec[S_ROW_PEG] + row] ^= row_bit
            state[spec[S_COL_PEG] + col] ^= col_bit
    if value != 0:
        seat = owner(value)
        state[F_HASH] ^= spec[keys + cell * KEYS_PER_CELL + value - 1]
        state[F_MOMENT] += spec[moment + cells + seat] * weight
        state[spec[S_ROW_SEAT] + seat * size + row] ^= row_bit
        state[spec[S_COL_SEAT] + seat * size + col] ^= col_bit
        if value > PEG:
            state[spec[S_ROW_PEG] + row] ^= row_bit
            state[spec[S_COL_PEG] + col] ^= col_bit
            state[F_PEG + seat] = cell
    if old == 0 or value == 0:
        state[spec[S_ROW_OCC] + row] ^= row_bit
        state[spec[S_COL_OCC] + col] ^= col_bit
    state[BOARD + cell] = value


@njit(cache=True)
def rebuild(state, spec):  # type: ignore[no-untyped-def]
    """Derive the hash, the moment and the bitboards from the board (the other regions are kept)."""
    size = spec[S_SIZE]
    for start in (spec[S_ROW_OCC], spec[S_COL_OCC], spec[S_ROW_PEG], spec[S_COL_PEG]):
        for i in range(size):
            state[start + i] = 0
    for start in (spec[S_ROW_SEAT], spec[S_COL_SEAT]):
        for i in range(4 * size):
            state[start + i] = 0
    state[F_HASH] = 0
    state[F_MOMENT] = 0
    for cell in range(spec[S_CELLS]):
        value = state[BOARD + cell]
        if value != 0:
            state[BOARD + cell] = 0
            set_cell(state, spec, cell, value)


# -- positions seen since the last placement (superko, repetition) -------------------------------


@njit(cache=True)
def position_key(state, spec, board_hash, seat):  # type: ignore[no-untyped-def]
    """The key a position is remembered by: the board, and with situational rules the seat to move."""
    key = board_hash
    if spec[S_SUPERKO] != SUPERKO_POSITIONAL:
        key ^= spec[spec[S_KEYS] + spec[S_CELLS] * KEYS_PER_CELL + seat]
    return key if key != 0 else 1


@njit(cache=True)
def _filter_bit(moment):  # type: ignore[no-untyped-def]
    """(word, bit) of a moment in the filter."""
    mixed = (moment * -7046029254386353131) >> 20
    return (mixed >> 6) & (FILTER_WORDS - 1), 1 << (mixed & 63)


@njit(cache=True)
def _slot(state, spec, key):  # type: ignore[no-untyped-def]
    """The table slot holding ``key``, or the empty slot where it would go."""
    mask = spec[S_TABLE_MASK]
    table = spec[S_TABLE]
    i = key & mask
    while state[table + i] != 0 and state[table + i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def remember(state, spec, key, moment, index):  # type: ignore[no-untyped-def]
    """Add the position ``key`` (with its ``moment``), the ``index``-th since the last placement, to
    the table; return how often it has now occurred (only counted with superko=off, else 1)."""
    i = _slot(state, spec, key)
    state[spec[S_TABLE] + i] = key
    state[spec[S_USED] + index] = i
    state[spec[S_USED_MOMENT] + index] = moment
    word, bit = _filter_bit(moment)
    state[spec[S_FILTER] + word] |= bit
    if spec[S_SUPERKO] == SUPERKO_OFF:
        state[spec[S_COUNTS] + i] += 1
        return state[spec[S_COUNTS] + i]
    return 1


@njit(cache=True)
def forget_all(state, spec):  # type: ignore[no-untyped-def]
    """Empty the table and the filter: clear what the F_SINCE + 1 positions since the last placement set."""
    with_counts = spec[S_SUPERKO] == SUPERKO_OFF
    for j in range(state[F_SINCE] + 1):
        i = state[spec[S_USED] + j]
        state[spec[S_TABLE] + i] = 0
        if with_counts:
            state[spec[S_COUNTS] + i] = 0
        word, _ = _filter_bit(state[spec[S_USED_MOMENT] + j])
        state[spec[S_FILTER] + word] = 0  # the whole word: every position in it is being forgotten


@njit(cache=True)
def _seen(state, spec, key):  # type: ignore[no-untyped-def]
    return state[spec[S_TABLE] + _slot(state, spec, key)] != 0


@njit(cache=True)
def board_signature(state, spec, board):  # type: ignore[no-untyped-def]
    """The Zobrist hash and the moment of ``board`` (one value per point), as the state keeps them."""
    cells = spec[S_CELLS]
    board_hash = 0
    moment = 0
    for cell in range(cells):
        value = board[cell]
        if value != 0:
            board_hash ^= spec[spec[S_KEYS] + cell * KEYS_PER_CELL + value - 1]
            moment += spec[spec[S_MOMENT] + cells + owner(value)] * spec[spec[S_MOMENT] + cell]
    return board_hash, moment


# -- crossing links (M3 chrono_cut) ----------------------------------------------------------------


@njit(cache=True)
def _pair_links(state, spec, seat_at, line):  # type: ignore[no-untyped-def]
    """For the blocks between line and line + 1 (two rows, or two columns), as bit masks over the
    blocks: the ``\\`` links, the ``/`` links, and the crossed blocks."""
    size = spec[S_SIZE]
    backslash = 0
    slash = 0
    crossed = 0
    for seat in range(4):  # seats not playing have empty masks
        near = state[seat_at + seat * size + line]
        far = state[seat_at + seat * size + line + 1]
        mine_back = near & (far >> 1)
        mine_slash = (near >> 1) & far
        crossed |= (mine_back & slash) | (mine_slash & backslash)
        backslash |= mine_back
        slash |= mine_slash
    return backslash, slash, crossed


@njit(cache=True)
def _update_cuts(state, spec, seat_at, line, by_rows, before_back, before_slash, before_crossed):  # type: ignore[no-untyped-def]
    """After a move on the blocks between line and line + 1: in a newly crossed block the link that
    was there before the move is cut, or both if both are new; an uncrossed block has no cut (M3)."""
    size = spec[S_SIZE]
    _, _, crossed = _pair_links(state, spec, seat_at, line)
    changed = crossed ^ before_crossed
    cut = spec[S_CUT]
    while changed != 0:
        bit = changed & -changed
        changed ^= bit
        index = bit_index(spec, bit)
        block = line * size + index if by_rows else index * size + line
        if crossed & bit:
            old = (1 if before_back & bit else 0) | (2 if before_slash & bit else 0)
            state[cut + block] = old if old == 1 or old == 2 else 3
        else:
            state[cut + block] = 0


# -- pushes (M4, M10) and placements (M1, M2) ----------------------------------------------------


@njit(cache=True)
def opposite(direction):  # type: ignore[no-untyped-def]
    return (direction + 2) & 3


@njit(cache=True)
def push_front(state, spec, rear, direction):  # type: ignore[no-untyped-def]
    """The last occupied point going from ``rear`` in ``direction``."""
    neigh = spec[S_NEIGH]
    front = rear
    nxt = spec[neigh + front * 8 + direction]
    while nxt >= 0 and state[BOARD + nxt] != 0:
        front = nxt
        nxt = spec[neigh + front * 8 + direction]
    return front


@njit(cache=True)
def _seat_counts(state, spec, seat_at, line, bits):  # type: ignore[no-untyped-def]
    """Each seat's pieces among ``bits`` of a row or column, packed 16 bits a seat.

    Always four seats (the masks of seats not playing are empty): loops with constant bounds and
    constant shifts compile to a few instructions, variable ones do not.
    """
    size = spec[S_SIZE]
    at = seat_at + line
    return (popcount(bits & state[at]) | (popcount(bits & state[at + size]) << 16)
            | (popcount(bits & state[at + 2 * size]) << 32) | (popcount(bits & state[at + 3 * size]) << 48))


@njit(cache=True)
def _majority(packed, mover, rule):  # type: ignore[no-untyped-def]
    """Whether the mover's pieces outnumber the others' (``packed``: 16 bits of count per seat)."""
    own = (packed >> (16 * mover)) & 0xFFFF
    if rule == MAJORITY_COMBINED:
        total = ((packed * 0x0001000100010001) >> 48) & 0xFFFF
        return 2 * own > total
    rest = packed & ~(0xFFFF << (16 * mover))
    strongest = max(max(rest & 0xFFFF, (rest >> 16) & 0xFFFF), max((rest >> 32) & 0xFFFF, (rest >> 48) & 0xFFFF))
    return own > strongest


@njit(cache=True)
def _walk_allowed(state, spec, rear, direction, mover):  # type: ignore[no-untyped-def]
    """Locks and exact repetition for a push, walking its pieces (M6, M9)."""
    neigh = spec[S_NEIGH]
    keys = spec[S_KEYS]
    check_locks = spec[S_LOCK] != 0
    locks = spec[S_LOCKS]
    board_hash = state[F_HASH]
    cell = rear
    while True:
        value = state[BOARD + cell]
        if value == 0:
            break
        dest = spec[neigh + cell * 8 + direction]
        if check_locks:
            lock = state[locks + dest]
            if lock != 0 and lock != owner(value) + 1:
                return False
        board_hash ^= spec[keys + cell * KEYS_PER_CELL + value - 1] ^ spec[keys + dest * KEYS_PER_CELL + value - 1]
        cell = dest
    if spec[S_SUPERKO] != SUPERKO_OFF and state[F_PUSHES] > 0:
        seat = (mover + 1) % spec[S_PLAYERS]
        return not _seen(state, spec, position_key(state, spec, board_hash, seat))
    return True


@njit(cache=True)
def _pushes(state, spec, out, n, mover):  # type: ignore[no-untyped-def]
    """Append the legal pushes: for every row and column, its runs by bit operations; for each run
    the pushes the rules allow (M4, M10), then locks and repetition (M6, M9) for those that need it.

    Everything is in one function: a call per line or per candidate costs more than the work.
    """
    size = spec[S_SIZE]
    cells = spec[S_CELLS]
    rule = spec[S_MAJORITY]
    whole_run = spec[S_PUSH_MODE] == PUSH_WHOLE_RUN
    slide_any = spec[S_SLIDE] == SLIDE_ANY_OWN
    peg_check = spec[S_PUSH_PEGS] == 0
    lock = spec[S_LOCK] != 0
    ko = spec[S_SUPERKO] != SUPERKO_OFF and state[F_PUSHES] > 0
    colours = spec[S_MOMENT] + cells
    moments = spec[S_CANDIDATES]
    moment = state[F_MOMENT]
    edge_bit = 1 << (size - 1)
    first = n
    # Two players and the combined majority (the default): the mover's pieces in a segment against
    # all of them, two popcounts instead of four seats' counts.
    two = spec[S_PLAYERS] == 2 and rule == MAJORITY_COMBINED
    for by_rows in (True, False):
        if by_rows:
            occ_at, seat_at, peg_at, step, back, ahead = spec[S_ROW_OCC], spec[S_ROW_SEAT], spec[S_ROW_PEG], 1, 3, 1
        else:
            occ_at, seat_at, peg_at, step, back, ahead = spec[S_COL_OCC], spec[S_COL_SEAT], spec[S_COL_PEG], size, 0, 2
        for line in range(size):
            start = line * size if by_rows else line
            own = state[seat_at + mover * size + line]
            pegs = state[peg_at + line]
            rest = state[occ_at + line]
            while rest != 0:
                low = rest & -rest
                run = rest & ~(rest + low)
                rest ^= run
                top = (run + low) >> 1
                if two:  # the whole run's counts, which most pushes move
                    run_mine = popcount(run & own)
                    run_total = popcount(run)
                    if whole_run and not slide_any and 2 * run_mine <= run_total:
                        continue  # only the whole run moves, and the mover lacks the majority
                for side in range(2):  # 0: towards the line's start, 1: towards its end
                    if run & (1 if side == 0 else edge_bit):
                        continue  # a piece would leave the board
                    direction = back if side == 0 else ahead
                    whole_rear = top if side == 0 else low
                    if whole_run:
                        rears = whole_rear
                        if slide_any and run != low:
                            rears |= (low if side == 0 else top) & own  # an end piece steps out
                    else:
                        rears = run & own
                    while rears != 0:
                        bit = rears & -rears
                        rears ^= bit
                        if whole_run:
                            segment = run if bit == whole_rear else bit
                        else:
                            segment = run & (bit | (bit - 1)) if side == 0 else run & ~(bit - 1)
                        if two:
                            if segment == run:
                                mine, total = run_mine, run_total
                            else:
                                mine, total = popcount(segment & own), popcount(segment)
                            if 2 * mine <= total or (peg_check and (segment & pegs) != 0):
                                continue
                            packed = (mine << (16 * mover)) | ((total - mine) << (16 * (1 - mover)))
                        else:
                            packed = _seat_counts(state, spec, seat_at, line, segment)
                            if not _majority(packed, mover, rule) or (peg_check and (segment & pegs) != 0):
                                continue
                        out[n] = cells + 4 * (start + bit_index(spec, bit) * step) + direction
                        if ko:
                            weight = (spec[colours] * (packed & 0xFFFF)
                                      + spec[colours + 1] * ((packed >> 16) & 0xFFFF)
                                      + spec[colours + 2] * ((packed >> 32) & 0xFFFF)
                                      + spec[colours + 3] * ((packed >> 48) & 0xFFFF))
                            state[moments + n] = moment + spec[colours + 4 + direction] * weight
                        n += 1
    if not (ko or lock):
        return n
    kept = first
    filter_at = spec[S_FILTER]
    for i in range(first, n):
        action = out[i]
        walk = lock
        if not walk:
            word, bit = _filter_bit(state[moments + i])
            walk = (state[filter_at + word] & bit) != 0  # a clear bit: surely a new position
        if walk and not _walk_allowed(state, spec, (action - cells) >> 2, (action - cells) & 3, mover):
            continue
        out[kept] = action
        kept += 1
    return kept


@njit(cache=True)
def _push(state, spec, rear, direction):  # type: ignore[no-untyped-def]
    """Move the pieces from ``rear`` forwards one point; return the front's old point."""
    neigh = spec[S_NEIGH]
    front = push_front(state, spec, rear, direction)
    dest = spec[neigh + front * 8 + direction]
    back = opposite(direction)
    cell = dest
    src = front
    while True:
        set_cell(state, spec, cell, state[BOARD + src])
        if src == rear:
            break
        cell = src
        src = spec[neigh + src * 8 + back]
    set_cell(state, spec, rear, 0)
    return front


@njit(cache=True)
def _placements(state, spec, out, n, mover):  # type: ignore[no-untyped-def]
    """Growth (M2) and, with sowing, any empty point (M1): row by row, by bits."""
    size = spec[S_SIZE]
    full = (1 << size) - 1
    occ_at = spec[S_ROW_OCC]
    own_at = spec[S_ROW_SEAT] + mover * size
    eight = spec[S_LIBERTY_DIRS] == 8
    sowing = spec[S_SOWING] != 0
    sow_liberty = spec[S_SOW_LIBERTY] != 0
    check_locks = spec[S_LOCK] != 0
    locks = spec[S_LOCKS]
    above_empty = 0
    above_own = 0
    empty = full & ~state[occ_at]
    mine = state[own_at]
    for row in range(size):
        below_empty = full & ~state[occ_at + row + 1] if row + 1 < size else 0
        below_own = state[own_at + row + 1] if row + 1 < size else 0
        free = above_empty | below_empty | (empty << 1) | (empty >> 1)
        if eight:
            free |= (above_empty << 1) | (above_empty >> 1) | (below_empty << 1) | (below_empty >> 1)
        near = above_own | mine | below_own
        near |= (near << 1) | (near >> 1)
        targets = empty & free & near
        if sowing:
            targets |= empty & free if sow_liberty else empty
        while targets != 0:
            bit = targets & -targets
            targets ^= bit
            cell = row * size + bit_index(spec, bit)
            if check_locks and state[locks + cell] != 0 and state[locks + cell] != mover + 1:
                continue
            out[n] = cell
            n += 1
        above_empty, empty = empty, below_empty
        above_own, mine = mine, below_own
    return n


# -- the two public kernels ----------------------------------------------------------------------


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` for the seat to move (it must be legal), then check the end (M9)."""
    cells = spec[S_CELLS]
    size = spec[S_SIZE]
    players = spec[S_PLAYERS]
    mover = state[TO_MOVE]
    chrono = spec[S_LINKS] == LINKS_CHRONO
    if action == 5 * cells:
        state[F_PASSES] += 1
        state[spec[S_SINCE] + state[F_SINCE]] = action * FRONT
        state[F_SINCE] += 1
    else:
        if action < cells:
            cell, by_rows = action, True
        else:
            cell, by_rows = (action - cells) >> 2, ((action - cells) & 1) == 1
        line = spec[spec[S_ROW] + cell] if by_rows else spec[spec[S_COL] + cell]
        seat_at = spec[S_ROW_SEAT] if by_rows else spec[S_COL_SEAT]
        # The blocks a move can cross or uncross lie between its line and the lines beside it.
        b0 = s0 = c0 = b1 = s1 = c1 = 0
        if chrono:
            if line > 0:
                b0, s0, c0 = _pair_links(state, spec, seat_at, line - 1)
            if line < size - 1:
                b1, s1, c1 = _pair_links(state, spec, seat_at, line)
        if action < cells:
            set_cell(state, spec, action, mover + 1)
            state[F_SUPPLY + mover] -= 1
            forget_all(state, spec)  # no earlier position can come back: they have fewer pieces
            state[F_SINCE] = 0
            state[F_PUSHES] = 0
        else:
            front = _push(state, spec, cell, (action - cells) & 3)
            state[spec[S_SINCE] + state[F_SINCE]] = action * FRONT + front
            state[F_SINCE] += 1
            state[F_PUSHES] += 1
        state[F_PASSES] = 0
        if chrono:
            if line > 0:
                _update_cuts(state, spec, seat_at, line - 1, by_rows, b0, s0, c0)
            if line < size - 1:
                _update_cuts(state, spec, seat_at, line, by_rows, b1, s1, c1)
        if spec[S_LOCK]:
            bank_enclosures(state, spec)
    ply = state[PLY] + 1
    state[PLY] = ply
    following = (mover + 1) % players
    key = position_key(state, spec, state[F_HASH], following)
    seen = remember(state, spec, key, state[F_MOMENT], state[F_SINCE])
    if state[F_PASSES] >= spec[S_PASS_LIMIT]:
        finish(state, spec, REASON_PASSES)
    elif seen >= 3:
        finish(state, spec, REASON_REPETITION)
    elif ply >= spec[S_PLY_CAP]:
        finish(state, spec, REASON_PLY_CAP)
    else:
        state[TO_MOVE] = following
    state[F_NEXT] = following


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the legal actions for the seat to move into ``out``; return how many."""
    mover = state[TO_MOVE]
    if mover < 0:
        return 0
    n = 0
    if state[F_SUPPLY + mover] > 0:
        n = _placements(state, spec, out, n, mover)
    n = _pushes(state, spec, out, n, mover)
    out[n] = 5 * spec[S_CELLS]
    return n + 1


@njit(DESCRIBE_SIG, cache=True)
def describe(state, spec, action):  # type: ignore[no-untyped-def]
    """The text key of ``action`` (``boardlab.core.turns``): a push's text names its line's front
    point, so a push's key is ``action + actions · (front + 1)``; other keys are the action."""
    cells = spec[S_CELLS]
    if cells <= action < 5 * cells:
        rear = (action - cells) >> 2
        front = push_front(state, spec, rear, (action - cells) & 3)
        return (action + (5 * cells + 1) * (front + 1)) << 2 | TURN_ENDS
    return action << 2 | TURN_ENDS


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=False)


@njit(PLANES_SIG, cache=True)
def planes(view, spec, seat, out):  # type: ignore[no-untyped-def]
    """Observation planes (``boardlab.core.planes``): each seat's pieces and peg, ``mine``, then (with
    lock_on_enclose) each seat's banked points."""
    seats = spec[S_PLAYERS]
    locked = spec[S_LOCK]
    locks = spec[S_LOCKS]
    for cell in range(out.shape[1]):
        value = view[BOARD + cell]
        if value:
            owner = (value - 1) & 3
            out[2 * owner + (1 if value > PEG else 0), cell] = 1
            if owner == seat:
                out[2 * seats, cell] = 1
        if locked and view[locks + cell]:
            out[2 * seats + view[locks + cell], cell] = 1
