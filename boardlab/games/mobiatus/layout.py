"""Where everything lives in Möbiatus's spec and state vectors, and what the codes mean.

Faces are numbered as in :mod:`boardlab.core.mobius` (``x · width + y`` in double-cover
coordinates); both faces of a paper square always share one state, except that a capture chain
marks single faces as *touched*.

Spec vector (options and tables, built by ``face.Mobiatus.build_spec``)::

    S_FACES S_SIDE_CAP (room for each colour's pieces: 2 · width)
    S_PREF_FIRST  capture preference on the first hop (mandatory_capture: 0 off, 1 on, 2 maximal)
    S_PREF_CHAIN  capture preference on later hops (2 with maximal, else 1 with must_continue_capturing)
    S_ORIGIN_JOINS S_TURN_LIMIT (0: none) S_LIMIT_RESULT S_PIE
    S_STEPS     the leaps a piece has (option movement): 8 for a knight, camel or zebra, 12 for the
                knight-or-wazir (the knight's 8, then the wazir's 4 orthogonal steps)
    S_KNIGHT -> faces × S_STEPS leap targets (the knight's by default; the name is the seed's),
    S_LEAPS  -> for each face, how many of its leaps stay on the strip, then those leaps as 16-bit
                ``target << LEAP_SHIFT | k`` (k ascending), four to a word: ``leap_row(S_STEPS)``
                words a face. The loops over a piece's leaps skip the ones off the width without
                a test, and the table takes a third of the room of S_KNIGHT's (the caches are small)
    S_ORTH -> faces × 4 orthogonal neighbours (-1: off the width)
    S_SIDES -> the same in one word a face, for the kernels: neighbour + 1 (0: off the width) in
               16 bits for each direction, in S_ORTH's order
    S_OPP    -> the opposite of each face
    S_LIST, S_NEXT, …, S_FRAMES: where the state's regions start; S_STATE_LEN its length

State vector, after the common header of ``boardlab.core.kernel``::

    F_COLOUR    colour to move (0 Red, 1 Blue); the seat is colour XOR F_SWAPPED
    F_SWAPPED   1 once the second player has taken over Red (first_player=pie)
    F_TURNS     whole turns played (the move-pair limit counts these)
    F_PHASE     what the mover owes: START (a piece and its knight target), SLIDE (where a slide
                comes to rest), CHAIN (the next hop after a capture)
    F_ORIGIN F_CUR F_SLIDE   the turn's origin, the capturer's face, the singular face landed on
    F_CAPTURES  captures so far this turn
    F_COUNT+c   pieces of colour c
    F_STAMP F_CACHE_STAMP F_TOUCH_TOP F_EXIT_TOP   counters and stack tops of the scratch regions
    F_FREE_COUNT  free faces
    BOARD       one code per face: FREE, SING (singular), WALL (singular and touched by this
                chain), DOT + colour (a piece), CIRCLE + colour (the opposite of a piece)
    list        each colour's pieces (dot faces)
    free set    the free faces, as a list and each one's place in it (F_FREE_COUNT of them)
    groups      union-find over the singular faces between turns: parent (always the root: a
                merge relabels the smaller group), and at each root the group's size, its
                free-face contacts and its circle contacts per colour (a contact is an
                orthogonally adjacent pair of faces, so merging groups adds them up)
    members     each singular face's next in its group, a ring (two rings merge by swapping one
                successor each), so a group's faces are walked without a flood fill
    cache       cache stamps and values (option values within one legal call)
    queue       flood-fill queue; vals: option values for filtering
    touched     (face, old code) pairs made WALL, a stack: a real chain's and the search's own
    exits       capture exits (and, for a slide step, free exits) of groups being searched
    frames      the capture-chain search's stack (no recursion: numba cannot cache it)

The groups and the free set are kept up to date at the end of each turn (and built by
``groups.rebuild``); they answer "may a knight move into this singularity come to rest?" without a flood
fill, list a big group's exits from the few free faces, and let a capture's search refuse the group
slid through by its root instead of walling it. A capture chain walls only captured faces and whole
groups, so the untouched groups are still the union-find's inside a turn (walled and searched by
walking their rings; a slide's exits are still listed in a flood's order). Only with
``origin_joins_slide_group``, whose singular faces at lift-off join groups, are flood fills used
instead.

Everything after BOARD but the piece lists is scratch space or bookkeeping derived from the
board; position text never includes it.
"""

from __future__ import annotations

from boardlab.core.kernel import REASON_WIN
from boardlab.core.layout import StateLayout

S_FACES = 0
S_SIDE_CAP = 1
S_PREF_FIRST = 2
S_PREF_CHAIN = 3
S_ORIGIN_JOINS = 4
S_TURN_LIMIT = 5
S_LIMIT_RESULT = 6
S_PIE = 7
S_KNIGHT = 8
S_ORTH = 9
S_OPP = 10
S_LIST = 11
S_NEXT = 12
S_CACHE_MARK = 13
S_CACHE_VAL = 14
S_QUEUE = 15
S_VALS = 16
S_TOUCHED = 17
S_EXITS = 18
S_FRAMES = 19
S_FREE_LIST = 20
S_FREE_POS = 21
S_PARENT = 22
S_SIZE = 23
S_FREE_CONTACTS = 24
S_CIRCLE_CONTACTS = 25  # + colour · faces
S_STATE_LEN = 26
S_STEPS = 27
S_LEAPS = 28
S_SIDES = 29
SPEC_HEADER = 30

LEAP_SHIFT = 4  # a packed leap: target << LEAP_SHIFT | k (k < 16), in 16 bits (faces < 4096)
LEAP_K = (1 << LEAP_SHIFT) - 1
LEAP_MASK = 0xFFFF


def leap_row(steps: int) -> int:
    """Words a face takes in the S_LEAPS table: the count, then four leaps to a word."""
    return 1 + (steps + 3) // 4

PREF_ANY = 0
PREF_CAPTURE = 1
PREF_MAXIMAL = 2

LIMIT_DRAW = 0
LIMIT_MORE_PIECES = 1

LAYOUT = StateLayout("mobiatus", total=S_STATE_LEN, lengths=lambda spec: region_lengths(
    int(spec[S_FACES]), int(spec[S_SIDE_CAP]), int(spec[S_STEPS])))
F_COLOUR, F_SWAPPED, F_TURNS, F_PHASE, F_ORIGIN, F_CUR, F_SLIDE, F_CAPTURES = LAYOUT.several(
    "F_COLOUR", "F_SWAPPED", "F_TURNS", "F_PHASE", "F_ORIGIN", "F_CUR", "F_SLIDE", "F_CAPTURES")
F_COUNT = LAYOUT.field("F_COUNT", 2)  # + colour
F_STAMP, F_CACHE_STAMP, F_TOUCH_TOP, F_EXIT_TOP, F_FREE_COUNT = LAYOUT.several(
    "F_STAMP", "F_CACHE_STAMP", "F_TOUCH_TOP", "F_EXIT_TOP", "F_FREE_COUNT")
LAYOUT.spare(1)
BOARD = LAYOUT.sized("BOARD")
LAYOUT.regions({"list": S_LIST, "free list": S_FREE_LIST, "free places": S_FREE_POS, "parent": S_PARENT,
                "size": S_SIZE, "free contacts": S_FREE_CONTACTS, "circle contacts": S_CIRCLE_CONTACTS,
                "members": S_NEXT, "cache mark": S_CACHE_MARK, "cache values": S_CACHE_VAL, "queue": S_QUEUE,
                "values": S_VALS, "touched": S_TOUCHED, "exits": S_EXITS, "frames": S_FRAMES})

PHASE_START = 0
PHASE_SLIDE = 1
PHASE_CHAIN = 2

PENDING = -1  # a singular face not yet joined to the groups (while rebuilding them)
FREE = 0
SING = 1
WALL = 2
DOT = 3  # + colour
CIRCLE = 5  # + colour
SEEN = 16  # added to a code while groups.fill has seen the face (no code reaches it)

REASON_NO_PIECES = REASON_WIN
REASON_NO_MOVES = 2
REASON_LIMIT = 3

# A frame of the capture-chain search: the capturer's face, the next knight step to try, the
# group exits being tried (position, end, where the exit stack stood), the best completion so far,
# and the touched-stack top before the capture (and before the group's walls).
FR_CUR = 0
FR_K = 1
FR_EXIT_POS = 2
FR_EXIT_END = 3
FR_EXIT_BASE = 4
FR_BEST = 5
FR_ENTRY_TOP = 6
FR_GROUP_TOP = 7
FRAME = 8


def region_lengths(faces: int, side_cap: int, steps: int) -> dict[str, int]:
    """The length of the board and of each region after it.

    ``steps``: the leaps a piece has (a turn's first step offers at most ``steps`` per piece)."""
    options = max(faces, steps * side_cap) + 1
    depth = 2 * side_cap + 2
    return {"BOARD": faces, "list": 2 * side_cap, "free list": faces, "free places": faces, "parent": faces,
            "size": faces, "free contacts": faces, "circle contacts": 2 * faces, "members": faces,
            "cache mark": faces, "cache values": faces, "queue": faces, "values": options,
            "touched": 2 * faces + 4, "exits": faces + depth * side_cap, "frames": FRAME * depth}


def layout(faces: int, side_cap: int, steps: int = 8) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    return LAYOUT.place(region_lengths(faces, side_cap, steps))
