"""Mynd's rules as numba kernels over a state vector (the rules are in the package docstring).

Spec vector (options and tables, built by ``face.Mynd.build_spec``)::

    S_SIZE S_CELLS S_PLAYERS … S_TABLE_MASK     options, as small integers
    S_NEIGH      -> cells x 8 neighbour table (-1 off board), directions as topology.SQUARE_DIRECTIONS
    S_EDGE       -> per cell, 1 on the board's edge
    S_ROW, S_COL -> per cell, its row (from the top) and column
    S_KEYS       -> Zobrist keys: 8 per cell (a piece or a peg of each seat), then one per seat to move
    S_MOMENT     -> per cell its moment weight; then per seat its colour weight; then per direction
                    the change of a cell's weight one step that way
    S_DEBRUIJN   -> 32 entries: the index of a power of two (bit scans)
    S_ROW_OCC, …, S_SCRATCH: where the state's regions start

State vector, after the common header of ``boardlab.core.kernel``::

    F_PASSES     consecutive passes (the game ends when every player has passed once, or twice)
    F_HASH       Zobrist hash of the board (pieces and pegs; not the seat to move)
    F_MOMENT     sum over pieces of colour weight x point weight: a cheap prefilter for superko
    F_SINCE      moves (pushes and passes) since the last placement, listed in the since region
    F_PUSHES     pushes among them: with none, no push can repeat a position
    F_PEG+s      where seat s's starting peg is now (pushes move it)
    F_SUPPLY+s   pieces seat s still has in hand
    F_NEXT       the seat to move next (kept when the game is over, unlike TO_MOVE)
    BOARD        one value per point: 0 empty, 1+s a piece of seat s, 5+s seat s's peg
    bitboards    per row and per column: occupied points, each seat's, the pegs (bit i = column or
                 row i): runs, counts and crossings come from bit operations
    cut          per 2x2 block (indexed by its top-left point) which crossed link is cut (M3 chrono_cut)
    locks        per point, 1+s once it is banked for seat s (M6 lock_on_enclose)
    table        open-addressing hash set of the positions since the last placement (superko, M9)
    counts       how often each of them occurred (only with superko=off: the repetition draw)
    filter       a bit per moment value of those positions (a clear bit: the position is new)
    since        the moves since the last placement: action*1024 + the cell of the push's front
    used         per position since the last placement, its table slot and its moment (to clear them)
    scratch      flood-fill labels, queue, component sizes, claims, trunk marks; candidate moments

Pieces never leave the board, so a placement always makes a position never seen before; only
positions since the last placement can repeat, and a move's new position is looked up in a set.

Actions: a point index places a piece there; ``cells + 4 * rear + direction`` pushes the pieces from
``rear`` forwards (N, E, S, W as directions 0 to 3) one point; ``5 * cells`` passes.
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import (
    APPLY_SIG,
    END_REASON,
    LEGAL_SIG,
    PLY,
    SCORE,
    TO_MOVE,
)

S_SIZE = 0
S_CELLS = 1
S_PLAYERS = 2
S_SOWING = 3
S_SOW_LIBERTY = 4
S_LIBERTY_DIRS = 5
S_LINKS = 6
S_PUSH_MODE = 7
S_MAJORITY = 8
S_SLIDE = 9
S_TERRITORY = 10
S_NESTED = 11
S_LOCK = 12
S_PUSH_PEGS = 13
S_SUPERKO = 14
S_PASS_LIMIT = 15
S_PLY_CAP = 16
S_TABLE_MASK = 17
S_NEIGH = 18
S_EDGE = 19
S_ROW = 20
S_COL = 21
S_KEYS = 22
S_MOMENT = 23
S_DEBRUIJN = 24
S_ROW_OCC = 25
S_COL_OCC = 26
S_ROW_SEAT = 27
S_COL_SEAT = 28
S_ROW_PEG = 29
S_COL_PEG = 30
S_CUT = 31
S_LOCKS = 32
S_TABLE = 33
S_COUNTS = 34
S_FILTER = 35
S_SINCE = 36
S_USED = 37
S_USED_MOMENT = 38
S_LABEL = 39
S_QUEUE = 40
S_COMP = 41
S_CLAIM = 42
S_BEST = 43
S_TRUNK = 44
S_CANDIDATES = 45
S_STATE_LEN = 46
SPEC_HEADER = 48

LINKS_CHRONO = 0
LINKS_MUTUAL = 1
LINKS_ALWAYS = 2
LINKS_NONE = 3

PUSH_WHOLE_RUN = 0
PUSH_FROM_PUSHER = 1

MAJORITY_COMBINED = 0
MAJORITY_EACH = 1

SLIDE_RUN_OF_ONE = 0
SLIDE_ANY_OWN = 1

TERRITORY_TRUNK = 0
TERRITORY_PEG = 1
TERRITORY_GO = 2
TERRITORY_SMALLER = 3

NESTED_VOID = 0
NESTED_INNER = 1

SUPERKO_POSITIONAL = 0
SUPERKO_SITUATIONAL = 1
SUPERKO_OFF = 2

F_PASSES = 8
F_HASH = 9
F_MOMENT = 10
F_SINCE = 11
F_PUSHES = 12
F_PEG = 13
F_SUPPLY = 17
F_NEXT = 21
BOARD = 22

PEG = 4  # a peg of seat s is 1 + PEG + s on the board
KEYS_PER_CELL = 8
FRONT = 1024  # since entries: action * FRONT + front cell
FILTER_WORDS = 256  # 16384 bits
NO_CLAIM = -1
VOID = -2

REASON_PASSES = 1
REASON_PLY_CAP = 2
REASON_REPETITION = 3


def layout(size: int, players: int, table: int, counts: bool, ply_cap: int) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    cells = size * size
    regions = {S_ROW_OCC: size, S_COL_OCC: size, S_ROW_SEAT: 4 * size, S_COL_SEAT: 4 * size, S_ROW_PEG: size,
               S_COL_PEG: size, S_CUT: cells, S_LOCKS: cells, S_TABLE: table, S_COUNTS: table if counts else 0,
               S_FILTER: FILTER_WORDS, S_SINCE: ply_cap + 1, S_USED: ply_cap + 2, S_USED_MOMENT: ply_cap + 2,
               S_LABEL: cells, S_QUEUE: cells, S_COMP: cells, S_CLAIM: cells, S_BEST: cells, S_TRUNK: cells,
               S_CANDIDATES: 5 * cells + 1}
    at = BOARD + cells
    starts = {}
    for field, length in regions.items():
        starts[field] = at
        at += length
    starts[S_STATE_LEN] = at
    return starts


# -- bits ----------------------------------------------------------------------------------------


@njit(cache=True)
def popcount(x):  # type: ignore[no-untyped-def]
    """Set bits in ``x`` (< 2**32)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def bit_index(spec, bit):  # type: ignore[no-untyped-def]
    """The index of the single set bit ``bit`` (< 2**32), by a de Bruijn multiplication."""
    return spec[spec[S_DEBRUIJN] + (((bit * 0x077CB531) & 0xFFFFFFFF) >> 27)]


# -- the board and its derived regions ----------------------------------------------------------


@njit(cache=True)
def owner(value):  # type: ignore[no-untyped-def]
    """The seat owning a board value (a piece or a peg); only for occupied points."""
    return (value - 1) & 3


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


# -- diagonal links (M3) -------------------------------------------------------------------------


@njit(cache=True)
def block_links(state, spec, top_left):  # type: ignore[no-untyped-def]
    """The links in the 2x2 block at ``top_left``: bit 0 the ``\\`` diagonal, bit 1 the ``/`` one,
    bit 2 set when both are linked by different seats (the block is crossed)."""
    size = spec[S_SIZE]
    a = state[BOARD + top_left]
    b = state[BOARD + top_left + 1]
    c = state[BOARD + top_left + size]
    d = state[BOARD + top_left + size + 1]
    mask = 0
    if a != 0 and d != 0 and owner(a) == owner(d):
        mask |= 1
    if b != 0 and c != 0 and owner(b) == owner(c):
        mask |= 2
    if mask == 3 and owner(a) != owner(b):
        mask |= 4
    return mask


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


@njit(cache=True)
def link_intact(state, spec, block, bit):  # type: ignore[no-untyped-def]
    """Whether the link on diagonal ``bit`` (1 ``\\``, 2 ``/``) of ``block`` walls, given that it exists."""
    mode = spec[S_LINKS]
    if mode == LINKS_ALWAYS:
        return True
    if mode == LINKS_NONE:
        return False
    if mode == LINKS_CHRONO:
        return (state[spec[S_CUT] + block] & bit) == 0
    return block_links(state, spec, block) < 4


# -- territory (M5, M6) --------------------------------------------------------------------------


@njit(cache=True)
def _diagonal_block(spec, cell, k):  # type: ignore[no-untyped-def]
    """For a diagonal step from ``cell`` in direction k (4 NE, 5 SE, 6 SW, 7 NW): the block's
    top-left point and the bit of the diagonal the step runs along."""
    size = spec[S_SIZE]
    if k == 4:
        return cell - size, 2
    if k == 5:
        return cell, 1
    if k == 6:
        return cell - 1, 2
    return cell - size - 1, 1


@njit(cache=True)
def _mark_trunk(state, spec, seat):  # type: ignore[no-untyped-def]
    """Mark the trunk of ``seat`` (its pieces joined to its peg, diagonally where the link walls)."""
    neigh = spec[S_NEIGH]
    trunk = spec[S_TRUNK]
    queue = spec[S_QUEUE]
    stamp = seat + 1
    start = state[F_PEG + seat]
    state[trunk + start] = stamp
    state[queue] = start
    length = 1
    head = 0
    while head < length:
        cell = state[queue + head]
        head += 1
        for k in range(8):
            other = spec[neigh + cell * 8 + k]
            if other < 0 or state[trunk + other] == stamp:
                continue
            value = state[BOARD + other]
            if value == 0 or owner(value) != seat:
                continue
            if k >= 4:
                u = state[BOARD + spec[neigh + cell * 8 + (k - 4)]]
                v = state[BOARD + spec[neigh + cell * 8 + ((k - 3) & 3)]]
                side_open = (u == 0 or owner(u) != seat) and (v == 0 or owner(v) != seat)
                if side_open:
                    block, bit = _diagonal_block(spec, cell, k)
                    if not link_intact(state, spec, block, bit):
                        continue
            state[trunk + other] = stamp
            state[queue + length] = other
            length += 1


@njit(cache=True)
def _component(state, spec, seat, start, label):  # type: ignore[no-untyped-def]
    """Label the region of non-``seat`` points holding ``start``; return its size and whether it
    counts for ``seat`` under the anchoring rules (smaller_side is decided later, from sizes)."""
    neigh = spec[S_NEIGH]
    labels = spec[S_LABEL]
    queue = spec[S_QUEUE]
    trunk = spec[S_TRUNK]
    edge = spec[S_EDGE]
    diagonal_passage = spec[S_LINKS] != LINKS_ALWAYS
    state[labels + start] = label
    state[queue] = start
    length = 1
    head = 0
    on_edge = False
    by_trunk = False
    by_peg = False
    other_peg = False
    other_piece = False
    while head < length:
        cell = state[queue + head]
        head += 1
        value = state[BOARD + cell]
        if value != 0:
            other_piece = True
            if value > PEG:
                other_peg = True
        if spec[edge + cell]:
            on_edge = True
        for k in range(4):
            other = spec[neigh + cell * 8 + k]
            if other < 0:
                continue
            v = state[BOARD + other]
            if v != 0 and owner(v) == seat:
                if state[trunk + other] == seat + 1:
                    by_trunk = True
                if v == seat + 1 + PEG:
                    by_peg = True
            elif state[labels + other] < 0:
                state[labels + other] = label
                state[queue + length] = other
                length += 1
        if not diagonal_passage:
            continue
        for k in range(4, 8):
            other = spec[neigh + cell * 8 + k]
            if other < 0 or state[labels + other] >= 0:
                continue
            v = state[BOARD + other]
            if v != 0 and owner(v) == seat:
                continue
            u = state[BOARD + spec[neigh + cell * 8 + (k - 4)]]
            w = state[BOARD + spec[neigh + cell * 8 + ((k - 3) & 3)]]
            if u == 0 or w == 0 or owner(u) != seat or owner(w) != seat:
                continue  # reachable through the open side cell anyway
            block, bit = _diagonal_block(spec, cell, k)
            if link_intact(state, spec, block, 3 - bit):
                continue
            state[labels + other] = label
            state[queue + length] = other
            length += 1
    rule = spec[S_TERRITORY]
    if rule == TERRITORY_GO:
        counts = not other_piece
    elif rule == TERRITORY_SMALLER:
        counts = True
    else:
        anchored = by_trunk if rule == TERRITORY_TRUNK else by_peg
        counts = not on_edge or (anchored and not other_peg)
    return length, counts


@njit(cache=True)
def claim_territory(state, spec):  # type: ignore[no-untyped-def]
    """Write in the claim region, for every empty point, the seat it scores for now: a seat,
    ``NO_CLAIM``, or ``VOID`` (claimed by several; with nested=inner_owner the smallest area wins)."""
    cells = spec[S_CELLS]
    claim = spec[S_CLAIM]
    best = spec[S_BEST]
    labels = spec[S_LABEL]
    comp = spec[S_COMP]
    trunk = spec[S_TRUNK]
    inner = spec[S_NESTED] == NESTED_INNER
    for cell in range(cells):
        state[claim + cell] = NO_CLAIM
        state[best + cell] = cells + 1
        state[trunk + cell] = 0
    for seat in range(spec[S_PLAYERS]):
        _mark_trunk(state, spec, seat)
        for cell in range(cells):
            state[labels + cell] = -1
        count = 0
        largest = 0
        for cell in range(cells):
            value = state[BOARD + cell]
            if state[labels + cell] >= 0 or (value != 0 and owner(value) == seat):
                continue
            size, counts = _component(state, spec, seat, cell, count)
            state[comp + count] = size if counts else -1
            largest = max(largest, size)
            count += 1
        if spec[S_TERRITORY] == TERRITORY_SMALLER:
            for i in range(count):
                if state[comp + i] >= largest:
                    state[comp + i] = -1
        for cell in range(cells):
            if state[BOARD + cell] != 0:
                continue
            size = state[comp + state[labels + cell]]
            if size < 0:
                continue
            if not inner:
                state[claim + cell] = seat if state[claim + cell] == NO_CLAIM else VOID
            elif size < state[best + cell]:
                state[claim + cell] = seat
                state[best + cell] = size
            elif size == state[best + cell]:
                state[claim + cell] = VOID


@njit(cache=True)
def territory_scores(state, spec):  # type: ignore[no-untyped-def]
    """Write each seat's territory now into its SCORE field (raw points, not the result)."""
    cells = spec[S_CELLS]
    players = spec[S_PLAYERS]
    for seat in range(players):
        state[SCORE + seat] = 0
    if spec[S_LOCK]:
        locks = spec[S_LOCKS]
        for cell in range(cells):
            if state[locks + cell] > 0:
                state[SCORE + state[locks + cell] - 1] += 1
        return
    claim_territory(state, spec)
    for cell in range(cells):
        seat = state[spec[S_CLAIM] + cell]
        if seat >= 0:
            state[SCORE + seat] += 1


@njit(cache=True)
def _bank_enclosures(state, spec):  # type: ignore[no-untyped-def]
    """M6 lock_on_enclose: every empty point that scores for one seat now is banked for it."""
    claim_territory(state, spec)
    locks = spec[S_LOCKS]
    for cell in range(spec[S_CELLS]):
        seat = state[spec[S_CLAIM] + cell]
        if seat >= 0 and state[locks + cell] == 0:
            state[locks + cell] = seat + 1


@njit(cache=True)
def finish(state, spec, reason):  # type: ignore[no-untyped-def]
    """End the game: score the territory; the top score wins, seats tied on top each get a draw."""
    state[TO_MOVE] = -1
    state[END_REASON] = reason
    players = spec[S_PLAYERS]
    if reason == REASON_REPETITION:
        for seat in range(players):
            state[SCORE + seat] = 1
        return
    territory_scores(state, spec)
    top = -1
    tied = 0
    for seat in range(players):
        if state[SCORE + seat] > top:
            top = state[SCORE + seat]
            tied = 1
        elif state[SCORE + seat] == top:
            tied += 1
    for seat in range(players):
        if state[SCORE + seat] == top:
            state[SCORE + seat] = 2 if tied == 1 else 1
        else:
            state[SCORE + seat] = 0


# -- pushes (M4, M10) ----------------------------------------------------------------------------


@njit(cache=True)
def _opposite(direction):  # type: ignore[no-untyped-def]
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
    back = _opposite(direction)
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
            _bank_enclosures(state, spec)
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
