"""Mynd's spec and state layouts: where each option, table and region sits in the two int64 vectors.

Spec vector (options and tables, built by ``face.Mynd.build_spec``)::

    S_SIZE S_CELLS S_PLAYERS … S_TABLE_MASK     options, as small integers
    S_NEIGH      -> cells x 8 neighbour table (-1 off board), directions as topology.SQUARE_DIRECTIONS
    S_EDGE       -> per cell, 1 on the board's edge
    S_ROW, S_COL -> per cell, its row (from the top) and column
    S_KEYS       -> Zobrist keys: 8 per cell (a piece or a peg of each seat), then one per seat to move
    S_MOMENT     -> per cell its moment weight; then per seat its colour weight; then per direction
                    the change of a cell's weight one step that way
    S_DEBRUIJN   -> 32 entries: the index of a power of two (bit scans)
    S_ROW_OCC, …, S_CANDIDATES: where the state's regions start

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
"""

from __future__ import annotations

from numba import njit

from boardlab.core.layout import StateLayout

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

LAYOUT = StateLayout("mynd", total=S_STATE_LEN, lengths=lambda spec: region_lengths(
    int(spec[S_SIZE]), int(spec[S_TABLE_MASK]) + 1, spec[S_SUPERKO] == SUPERKO_OFF, int(spec[S_PLY_CAP])))
F_PASSES, F_HASH, F_MOMENT, F_SINCE, F_PUSHES = LAYOUT.several("F_PASSES", "F_HASH", "F_MOMENT", "F_SINCE", "F_PUSHES")
F_PEG = LAYOUT.field("F_PEG", 4)  # + seat
F_SUPPLY = LAYOUT.field("F_SUPPLY", 4)  # + seat
F_NEXT = LAYOUT.field("F_NEXT")
BOARD = LAYOUT.sized("BOARD")
LAYOUT.regions({"row occupied": S_ROW_OCC, "column occupied": S_COL_OCC, "row seats": S_ROW_SEAT,
                "column seats": S_COL_SEAT, "row pegs": S_ROW_PEG, "column pegs": S_COL_PEG, "cut": S_CUT,
                "locks": S_LOCKS, "table": S_TABLE, "counts": S_COUNTS, "filter": S_FILTER, "since": S_SINCE,
                "used": S_USED, "used moment": S_USED_MOMENT, "label": S_LABEL, "queue": S_QUEUE,
                "component": S_COMP, "claim": S_CLAIM, "best": S_BEST, "trunk": S_TRUNK,
                "candidates": S_CANDIDATES})

PEG = 4  # a peg of seat s is 1 + PEG + s on the board
KEYS_PER_CELL = 8
FRONT = 1024  # since entries: action * FRONT + front cell
FILTER_WORDS = 256  # 16384 bits
NO_CLAIM = -1
VOID = -2

REASON_PASSES = 1
REASON_PLY_CAP = 2
REASON_REPETITION = 3


def region_lengths(size: int, table: int, counts: bool, ply_cap: int) -> dict[str, int]:
    """The length of the board and of each region after it (``counts``: with the repetition draw)."""
    cells = size * size
    return {"BOARD": cells, "row occupied": size, "column occupied": size, "row seats": 4 * size,
            "column seats": 4 * size, "row pegs": size, "column pegs": size, "cut": cells, "locks": cells,
            "table": table, "counts": table if counts else 0, "filter": FILTER_WORDS, "since": ply_cap + 1,
            "used": ply_cap + 2, "used moment": ply_cap + 2, "label": cells, "queue": cells, "component": cells,
            "claim": cells, "best": cells, "trunk": cells, "candidates": 5 * cells + 1}


def layout(size: int, players: int, table: int, counts: bool, ply_cap: int) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    return LAYOUT.place(region_lengths(size, table, counts, ply_cap))


# -- small helpers every kernel module uses -------------------------------------------------------


@njit(cache=True)
def owner(value):  # type: ignore[no-untyped-def]
    """The seat owning a board value (a piece or a peg); only for occupied points."""
    return (value - 1) & 3


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
