"""Möbiatus's rules as numba kernels over a state vector (the rules are in the package docstring).

Faces are numbered as in :mod:`boardlab.core.mobius` (``x · width + y`` in double-cover
coordinates); both faces of a paper square always share one state, except that a capture chain
marks single faces as *touched*.

Spec vector (options and tables, built by ``face.Mobiatus.build_spec``)::

    S_FACES S_HALF (faces per side of the paper: the opposite is S_HALF faces on) S_SIDE_CAP
    S_PREF_FIRST  capture preference on the first hop (mandatory_capture: 0 off, 1 on, 2 maximal)
    S_PREF_CHAIN  capture preference on later hops (2 with maximal, else 1 with must_continue_capturing)
    S_ORIGIN_JOINS S_TURN_LIMIT (0: none) S_LIMIT_RESULT S_PIE
    S_KNIGHT -> faces × 8 knight targets, S_ORTH -> faces × 4 orthogonal neighbours (-1: off the width)
    S_OPP    -> the opposite of each face
    S_LIST, S_MARK, …, S_FRAMES: where the state's regions start; S_STATE_LEN its length

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
    groups      union-find over the singular faces between turns: parent, and at each root the
                group's size, its free-face contacts and its circle contacts per colour (a contact
                is an orthogonally adjacent pair of faces, so merging groups adds them up)
    mark        flood-fill stamps; cache stamps and values (option values within one legal call)
    queue       flood-fill queue; vals: option values for filtering
    touched     (face, old code) pairs made WALL, a stack: a real chain's and the search's own
    exits       capture exits (and, for a slide step, free exits) of groups being searched
    frames      the capture-chain search's stack (no recursion: numba cannot cache it)

The groups and the free set are kept up to date by ``_rest`` at the end of each turn (and built by
``rebuild``); they answer "may a knight move into this singularity come to rest?" without a flood
fill. Inside a turn (a capture chain's touched faces, or singular faces at lift-off with
``origin_joins_slide_group``) the groups differ, and flood fills are used instead.

Actions: ``face · 8 + k`` moves from ``face`` (the piece at the start, the capturer in a chain)
along knight step ``k``; ``8 · faces + e`` ends a slide on ``e``; ``9 · faces`` is the pie swap.

An option's *value* is ``captures · 2 + rest``: ``rest`` is 1 if the turn can end without a
capture this way, ``captures`` how many captures a completion makes (at least 1 if one exists; the
most, when searched exhaustively for ``maximal``); 0 means illegal.
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import (
    APPLY_SIG,
    END_REASON,
    LEGAL_SIG,
    MID_TURN,
    PLY,
    REASON_WIN,
    SCORE,
    TO_MOVE,
)

S_FACES = 0
S_HALF = 1
S_SIDE_CAP = 2
S_PREF_FIRST = 3
S_PREF_CHAIN = 4
S_ORIGIN_JOINS = 5
S_TURN_LIMIT = 6
S_LIMIT_RESULT = 7
S_PIE = 8
S_KNIGHT = 9
S_ORTH = 10
S_OPP = 11
S_LIST = 12
S_MARK = 13
S_CACHE_MARK = 14
S_CACHE_VAL = 15
S_QUEUE = 16
S_VALS = 17
S_TOUCHED = 18
S_EXITS = 19
S_FRAMES = 20
S_FREE_LIST = 21
S_FREE_POS = 22
S_PARENT = 23
S_SIZE = 24
S_FREE_CONTACTS = 25
S_CIRCLE_CONTACTS = 26  # + colour · faces
S_STATE_LEN = 27
SPEC_HEADER = 28

PREF_ANY = 0
PREF_CAPTURE = 1
PREF_MAXIMAL = 2

LIMIT_DRAW = 0
LIMIT_MORE_PIECES = 1

F_COLOUR = 8
F_SWAPPED = 9
F_TURNS = 10
F_PHASE = 11
F_ORIGIN = 12
F_CUR = 13
F_SLIDE = 14
F_CAPTURES = 15
F_COUNT = 16  # + colour
F_STAMP = 18
F_CACHE_STAMP = 19
F_TOUCH_TOP = 20
F_EXIT_TOP = 21
F_FREE_COUNT = 22
BOARD = 24

PHASE_START = 0
PHASE_SLIDE = 1
PHASE_CHAIN = 2

PENDING = -1  # a singular face not yet joined to the groups (while rebuilding them)
FREE = 0
SING = 1
WALL = 2
DOT = 3  # + colour
CIRCLE = 5  # + colour

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


def layout(faces: int, side_cap: int) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    options = max(faces, 8 * side_cap) + 1
    depth = 2 * side_cap + 2
    regions = {S_LIST: 2 * side_cap, S_FREE_LIST: faces, S_FREE_POS: faces, S_PARENT: faces, S_SIZE: faces,
               S_FREE_CONTACTS: faces, S_CIRCLE_CONTACTS: 2 * faces, S_MARK: faces, S_CACHE_MARK: faces,
               S_CACHE_VAL: faces, S_QUEUE: faces, S_VALS: options, S_TOUCHED: 2 * faces + 4,
               S_EXITS: faces + depth * side_cap, S_FRAMES: FRAME * depth}
    at = BOARD + faces
    starts = {}
    for field, length in regions.items():
        starts[field] = at
        at += length
    starts[S_STATE_LEN] = at
    return starts


# -- small pieces ----------------------------------------------------------------------------------


@njit(cache=True)
def _wall(state, spec, face):  # type: ignore[no-untyped-def]
    """Mark ``face`` touched (WALL), remembering its code on the touched stack."""
    top = state[F_TOUCH_TOP]
    at = spec[S_TOUCHED] + 2 * top
    state[at] = face
    state[at + 1] = state[BOARD + face]
    state[BOARD + face] = WALL
    state[F_TOUCH_TOP] = top + 1


@njit(cache=True)
def _unwall(state, spec, top):  # type: ignore[no-untyped-def]
    """Undo every WALL pushed since the touched stack stood at ``top``."""
    at = spec[S_TOUCHED]
    current = state[F_TOUCH_TOP]
    while current > top:
        current -= 1
        state[BOARD + state[at + 2 * current]] = state[at + 2 * current + 1]
    state[F_TOUCH_TOP] = top


@njit(cache=True)
def _has_free_target(state, spec, face):  # type: ignore[no-untyped-def]
    """Whether a knight move from ``face`` reaches a free face (where a chain can end at once)."""
    knight = spec[S_KNIGHT] + face * 8
    for k in range(8):
        target = spec[knight + k]
        if target >= 0 and state[BOARD + target] == FREE:
            return True
    return False


# -- the singular groups between turns (union-find) -----------------------------------------------


@njit(cache=True)
def _find(state, spec, face):  # type: ignore[no-untyped-def]
    """The root of the group of the singular ``face`` (path halving)."""
    parent = spec[S_PARENT]
    while state[parent + face] != face:
        grand = state[parent + state[parent + face]]
        state[parent + face] = grand
        face = grand
    return face


@njit(cache=True)
def _union(state, spec, a, b):  # type: ignore[no-untyped-def]
    a = _find(state, spec, a)
    b = _find(state, spec, b)
    if a == b:
        return
    size = spec[S_SIZE]
    if state[size + a] < state[size + b]:
        a, b = b, a
    faces = spec[S_FACES]
    free = spec[S_FREE_CONTACTS]
    circles = spec[S_CIRCLE_CONTACTS]
    state[spec[S_PARENT] + b] = a
    state[size + a] += state[size + b]
    state[free + a] += state[free + b]
    state[circles + a] += state[circles + b]
    state[circles + faces + a] += state[circles + faces + b]


@njit(cache=True)
def _touch_groups(state, spec, face, free_delta, circle_colour, circle_delta):  # type: ignore[no-untyped-def]
    """Add the deltas to the contacts of each group next to ``face``, once per adjacent singular face."""
    orth = spec[S_ORTH] + face * 4
    circles = spec[S_CIRCLE_CONTACTS] + circle_colour * spec[S_FACES]
    for d in range(4):
        other = spec[orth + d]
        if other >= 0 and state[BOARD + other] == SING:
            root = _find(state, spec, other)
            state[spec[S_FREE_CONTACTS] + root] += free_delta
            if circle_colour >= 0:
                state[circles + root] += circle_delta


@njit(cache=True)
def _free_remove(state, spec, face):  # type: ignore[no-untyped-def]
    items = spec[S_FREE_LIST]
    places = spec[S_FREE_POS]
    last = state[F_FREE_COUNT] - 1
    place = state[places + face]
    moved = state[items + last]
    state[items + place] = moved
    state[places + moved] = place
    state[F_FREE_COUNT] = last


@njit(cache=True)
def _occupy(state, spec, face, code):  # type: ignore[no-untyped-def]
    """The free ``face`` takes a dot or a circle (``code``), between turns."""
    _touch_groups(state, spec, face, -1, code - CIRCLE if code >= CIRCLE else -1, 1)
    _free_remove(state, spec, face)
    state[BOARD + face] = code


@njit(cache=True)
def _join(state, spec, face):  # type: ignore[no-untyped-def]
    """``face`` turns singular, between turns, and joins the groups next to it."""
    code = state[BOARD + face]
    if code == FREE:
        _touch_groups(state, spec, face, -1, -1, 0)
        _free_remove(state, spec, face)
    elif code >= CIRCLE:
        _touch_groups(state, spec, face, 0, code - CIRCLE, -1)
    state[BOARD + face] = SING
    faces = spec[S_FACES]
    orth = spec[S_ORTH] + face * 4
    circles = spec[S_CIRCLE_CONTACTS]
    state[spec[S_PARENT] + face] = face
    state[spec[S_SIZE] + face] = 1
    state[spec[S_FREE_CONTACTS] + face] = 0
    state[circles + face] = 0
    state[circles + faces + face] = 0
    for d in range(4):
        other = spec[orth + d]
        if other < 0:
            continue
        near = state[BOARD + other]
        if near == FREE:
            state[spec[S_FREE_CONTACTS] + face] += 1
        elif near >= CIRCLE:
            state[circles + (near - CIRCLE) * faces + face] += 1
    for d in range(4):
        other = spec[orth + d]
        if other >= 0 and state[BOARD + other] == SING:
            _union(state, spec, face, other)


@njit(cache=True)
def rebuild(state, spec):  # type: ignore[no-untyped-def]
    """Derive the piece lists, the free set and the groups from the board (a new or a read position)."""
    faces = spec[S_FACES]
    side_cap = spec[S_SIDE_CAP]
    state[F_COUNT] = 0
    state[F_COUNT + 1] = 0
    state[F_FREE_COUNT] = 0
    for face in range(faces):
        code = state[BOARD + face]
        if code == DOT or code == DOT + 1:
            colour = code - DOT
            state[spec[S_LIST] + colour * side_cap + state[F_COUNT + colour]] = face
            state[F_COUNT + colour] += 1
        elif code == FREE:
            state[spec[S_FREE_LIST] + state[F_FREE_COUNT]] = face
            state[spec[S_FREE_POS] + face] = state[F_FREE_COUNT]
            state[F_FREE_COUNT] += 1
        elif code == SING:
            state[BOARD + face] = PENDING  # joined one at a time below
    for face in range(faces):
        if state[BOARD + face] == PENDING:
            _join(state, spec, face)


@njit(cache=True)
def _fill(state, spec, start, enemy_circle, stop_at_free, record_free):  # type: ignore[no-untyped-def]
    """Flood the group of (untouched) singular faces holding ``start``, orthogonally.

    The group is left in the queue; its exits (free faces, and enemy circles: captures) are
    stamped once each, and the enemy circles (with ``record_free`` the free ones too) are written
    from the exit stack's top, which is not moved. Returns (group size, free exits, recorded).
    With ``stop_at_free`` it stops at the first free exit, leaving the group partly filled.
    """
    stamp = state[F_STAMP] + 1
    state[F_STAMP] = stamp
    mark = spec[S_MARK]
    queue = spec[S_QUEUE]
    orth = spec[S_ORTH]
    exits = spec[S_EXITS] + state[F_EXIT_TOP]
    state[mark + start] = stamp
    state[queue] = start
    size = 1
    head = 0
    free = 0
    recorded = 0
    while head < size:
        face = state[queue + head]
        head += 1
        for d in range(4):
            other = spec[orth + face * 4 + d]
            if other < 0 or state[mark + other] == stamp:
                continue
            code = state[BOARD + other]
            if code == SING:
                state[mark + other] = stamp
                state[queue + size] = other
                size += 1
            elif code == FREE:
                state[mark + other] = stamp
                free += 1
                if record_free:
                    state[exits + recorded] = other
                    recorded += 1
                if stop_at_free:
                    return size, free, recorded
            elif code == enemy_circle:
                state[mark + other] = stamp
                state[exits + recorded] = other
                recorded += 1
    return size, free, recorded


@njit(cache=True)
def _wall_queue(state, spec, size):  # type: ignore[no-untyped-def]
    queue = spec[S_QUEUE]
    for i in range(size):
        _wall(state, spec, state[queue + i])


@njit(cache=True)
def _open_frame(state, spec, depth, face):  # type: ignore[no-untyped-def]
    """Start a search frame: the capture on ``face`` (an enemy circle) takes the piece opposite."""
    frame = spec[S_FRAMES] + depth * FRAME
    state[frame + FR_CUR] = face
    state[frame + FR_K] = 0
    state[frame + FR_EXIT_POS] = -1
    state[frame + FR_BEST] = -1
    state[frame + FR_ENTRY_TOP] = state[F_TOUCH_TOP]
    _wall(state, spec, face)
    _wall(state, spec, spec[spec[S_OPP] + face])


# -- the capture-chain search ----------------------------------------------------------------------


@njit(cache=True)
def _chain_value(state, spec, colour, face, exhaustive, skip_root):  # type: ignore[no-untyped-def]
    """After capturing on ``face``: the most further captures of a completion, or -1 if none.

    Without ``exhaustive`` it answers only whether a completion exists (0 or -1). Every face
    touched by the chain is a WALL while the search stands below it: no later hop may land on or
    slide through it. A depth-first search with an explicit stack; the board is left as found.

    ``skip_root`` (or -1), between turns: the group just slid through, touched without being
    walled. No flood fill from elsewhere can reach it (groups only ever meet through singular
    faces, and the chain's new ones are walls), so a knight move into it is all there is to refuse.
    """
    if not exhaustive and _has_free_target(state, spec, face):
        return 0
    enemy_circle = CIRCLE + 1 - colour
    knight = spec[S_KNIGHT]
    frames = spec[S_FRAMES]
    exits = spec[S_EXITS]
    touch_entry = state[F_TOUCH_TOP]
    exit_entry = state[F_EXIT_TOP]
    _open_frame(state, spec, 0, face)
    depth = 1
    while True:
        frame = frames + (depth - 1) * FRAME
        done = False  # every option of this frame tried
        found = False  # a completion found (all that matters without exhaustive)
        child = -1  # a capture to search below this frame
        pos = state[frame + FR_EXIT_POS]
        if pos >= 0:
            if pos < state[frame + FR_EXIT_END]:
                state[frame + FR_EXIT_POS] = pos + 1
                child = state[exits + pos]
            else:  # every exit of the group tried: lift its walls
                _unwall(state, spec, state[frame + FR_GROUP_TOP])
                state[F_EXIT_TOP] = state[frame + FR_EXIT_BASE]
                state[frame + FR_EXIT_POS] = -1
                continue
        else:
            k = state[frame + FR_K]
            if k == 8:
                done = True
            else:
                state[frame + FR_K] = k + 1
                target = spec[knight + state[frame + FR_CUR] * 8 + k]
                if target < 0:
                    continue
                code = state[BOARD + target]
                if code == FREE:
                    if state[frame + FR_BEST] < 0:
                        state[frame + FR_BEST] = 0
                    found = True
                elif code == enemy_circle:
                    child = target
                elif code == SING and (skip_root < 0 or _find(state, spec, target) != skip_root):
                    size, free, recorded = _fill(state, spec, target, enemy_circle, not exhaustive, False)
                    if free > 0:
                        if state[frame + FR_BEST] < 0:
                            state[frame + FR_BEST] = 0
                        found = True
                    if (exhaustive or not found) and recorded > 0:
                        base = state[F_EXIT_TOP]
                        state[frame + FR_EXIT_BASE] = base
                        state[frame + FR_EXIT_POS] = base
                        state[frame + FR_EXIT_END] = base + recorded
                        state[F_EXIT_TOP] = base + recorded
                        state[frame + FR_GROUP_TOP] = state[F_TOUCH_TOP]
                        _wall_queue(state, spec, size)
        if child >= 0:
            if not exhaustive and _has_free_target(state, spec, child):
                found = True  # that capture completes at once
            else:
                _open_frame(state, spec, depth, child)
                depth += 1
                continue
        if found and not exhaustive:  # a completion exists: that answers the whole search
            _unwall(state, spec, touch_entry)
            state[F_EXIT_TOP] = exit_entry
            return 0
        if not done:
            continue
        value = state[frame + FR_BEST]
        if state[frame + FR_EXIT_POS] >= 0:
            state[F_EXIT_TOP] = state[frame + FR_EXIT_BASE]
        _unwall(state, spec, state[frame + FR_ENTRY_TOP])
        depth -= 1
        if depth == 0:
            return value
        if value >= 0:
            parent = frames + (depth - 1) * FRAME
            if value + 1 > state[parent + FR_BEST]:
                state[parent + FR_BEST] = value + 1


@njit(cache=True)
def _capture_value(state, spec, colour, face, exhaustive, origin, skip_root):  # type: ignore[no-untyped-def]
    """Captures a completed chain makes that starts by capturing on ``face``; 0 if none can finish.

    ``origin`` (or -1) is the turn's origin, touched for the rest of the chain: it only matters
    where it is singular at lift-off (``origin_joins_slide_group``).
    """
    top = state[F_TOUCH_TOP]
    if origin >= 0 and state[BOARD + origin] == SING:
        _wall(state, spec, origin)
    value = _chain_value(state, spec, colour, face, exhaustive, skip_root)
    _unwall(state, spec, top)
    return value + 1 if value >= 0 else 0


@njit(cache=True)
def _slide_value(state, spec, colour, target, pref, origin, cache_stamp):  # type: ignore[no-untyped-def]
    """The value of landing on the singular face ``target``: the best way out of its group.

    The value is written to the cache for every face of the group seen, so that other knight
    moves into the same group (in this legal call) do not search it again.
    """
    enemy_circle = CIRCLE + 1 - colour
    exhaustive = pref == PREF_MAXIMAL
    exits = spec[S_EXITS]
    size, free, recorded = _fill(state, spec, target, enemy_circle, pref == PREF_ANY, False)
    value = 1 if free > 0 else 0
    walled = False
    group_top = state[F_TOUCH_TOP]
    if recorded > 0 and (value == 0 or pref != PREF_ANY):
        base = state[F_EXIT_TOP]
        state[F_EXIT_TOP] = base + recorded
        best = 0
        if not exhaustive:  # a capture that can stop at once needs no walls to know it
            for i in range(recorded):
                if _has_free_target(state, spec, state[exits + base + i]):
                    best = 1
                    break
        if best == 0:
            _wall_queue(state, spec, size)
            walled = True
            for i in range(recorded):
                captures = _capture_value(state, spec, colour, state[exits + base + i], exhaustive, origin, -1)
                if captures > best:
                    best = captures
                    if not exhaustive:
                        break
        value += 2 * best
        state[F_EXIT_TOP] = base
    mark = spec[S_CACHE_MARK]
    cached = spec[S_CACHE_VAL]
    if walled:  # the queue was reused by the search; the group is on the touched stack
        at = spec[S_TOUCHED] + 2 * group_top
        for i in range(size):
            face = state[at + 2 * i]
            state[mark + face] = cache_stamp
            state[cached + face] = value
        _unwall(state, spec, group_top)
    else:
        queue = spec[S_QUEUE]
        for i in range(size):
            face = state[queue + i]
            state[mark + face] = cache_stamp
            state[cached + face] = value
    return value


@njit(cache=True)
def _next_to_group(state, spec, face, root):  # type: ignore[no-untyped-def]
    """Whether ``face`` touches the group ``root`` (between turns)."""
    orth = spec[S_ORTH] + face * 4
    for d in range(4):
        other = spec[orth + d]
        if other >= 0 and state[BOARD + other] == SING and _find(state, spec, other) == root:
            return True
    return False


@njit(cache=True)
def _group_exits(state, spec, colour, root):  # type: ignore[no-untyped-def]
    """The exits of the group ``root`` (between turns) from the free set and the enemy circles.

    Written from the exit stack's top, which is not moved; returns how many.
    """
    exits = spec[S_EXITS] + state[F_EXIT_TOP]
    items = spec[S_FREE_LIST]
    count = 0
    for i in range(state[F_FREE_COUNT]):
        face = state[items + i]
        if _next_to_group(state, spec, face, root):
            state[exits + count] = face
            count += 1
    if state[spec[S_CIRCLE_CONTACTS] + (1 - colour) * spec[S_FACES] + root] > 0:
        pieces = spec[S_LIST] + (1 - colour) * spec[S_SIDE_CAP]
        for i in range(state[F_COUNT + 1 - colour]):
            face = spec[spec[S_OPP] + state[pieces + i]]
            if _next_to_group(state, spec, face, root):
                state[exits + count] = face
                count += 1
    return count


@njit(cache=True)
def _group_captures(state, spec, colour, root, exhaustive):  # type: ignore[no-untyped-def]
    """Captures of the best completed chain that starts by sliding out of the group ``root`` onto
    an enemy circle (between turns); 0 if none can finish."""
    pieces = spec[S_LIST] + (1 - colour) * spec[S_SIDE_CAP]
    best = 0
    for i in range(state[F_COUNT + 1 - colour]):
        face = spec[spec[S_OPP] + state[pieces + i]]
        if not _next_to_group(state, spec, face, root):
            continue
        if not exhaustive and _has_free_target(state, spec, face):
            return 1
        captures = _capture_value(state, spec, colour, face, exhaustive, -1, root)
        if captures > best:
            best = captures
            if not exhaustive:
                return best
    return best


@njit(cache=True)
def _target_value(state, spec, colour, target, pref, origin, cache_stamp, use_groups):  # type: ignore[no-untyped-def]
    """The value of a knight move landing on ``target`` (see the module docstring).

    With ``use_groups`` (between turns, no face lifted) a singularity's group is read from the
    union-find: it needs a search only when a capture next to it matters.
    """
    code = state[BOARD + target]
    if code == FREE:
        return 1
    mark = spec[S_CACHE_MARK]
    cached = spec[S_CACHE_VAL]
    if code == SING:
        if use_groups:
            root = _find(state, spec, target)
            rest = 1 if state[spec[S_FREE_CONTACTS] + root] > 0 else 0
            enemy = state[spec[S_CIRCLE_CONTACTS] + (1 - colour) * spec[S_FACES] + root]
            if enemy == 0 or (rest and pref == PREF_ANY):
                return rest
            if state[mark + root] != cache_stamp:
                state[mark + root] = cache_stamp
                state[cached + root] = rest + 2 * _group_captures(state, spec, colour, root, pref == PREF_MAXIMAL)
            return state[cached + root]
        if state[mark + target] == cache_stamp:
            return state[cached + target]
        return _slide_value(state, spec, colour, target, pref, origin, cache_stamp)
    if code == CIRCLE + 1 - colour:
        if state[mark + target] == cache_stamp:
            return state[cached + target]
        value = 2 * _capture_value(state, spec, colour, target, pref == PREF_MAXIMAL, origin, -1)
        state[mark + target] = cache_stamp
        state[cached + target] = value
        return value
    return 0


@njit(cache=True)
def _keep_preferred(dest, at, vals, count, pref):  # type: ignore[no-untyped-def]
    """Keep the options (values in ``vals``) that the capture preference allows; return how many."""
    if pref == PREF_ANY:
        return count
    most = 0
    for i in range(count):
        captures = vals[i] >> 1
        if captures > most:
            most = captures
    if most == 0:
        return count
    if pref == PREF_CAPTURE:
        most = 1
    kept = 0
    for i in range(count):
        captures = vals[i] >> 1
        if captures == most or (pref == PREF_CAPTURE and captures > 0):
            dest[at + kept] = dest[at + i]
            kept += 1
    return kept


@njit(cache=True)
def _new_cache_stamp(state):  # type: ignore[no-untyped-def]
    stamp = state[F_CACHE_STAMP] + 1
    state[F_CACHE_STAMP] = stamp
    return stamp


@njit(cache=True)
def _lift(state, spec, face, colour):  # type: ignore[no-untyped-def]
    """origin_joins_slide_group: the origin and its opposite turn singular at lift-off."""
    state[BOARD + face] = SING
    state[BOARD + spec[spec[S_OPP] + face]] = SING


@njit(cache=True)
def _start_options(state, spec, dest, at, colour, pref, first_only):  # type: ignore[no-untyped-def]
    """Write every legal first step (piece and knight target) to ``dest[at:]``; return how many.

    With ``first_only`` return 1 at the first legal one found (has the player a move?).
    """
    vals = spec[S_VALS]
    knight = spec[S_KNIGHT]
    joins = spec[S_ORIGIN_JOINS]
    pieces = spec[S_LIST] + colour * spec[S_SIDE_CAP]
    count = 0
    stamp = _new_cache_stamp(state)
    if first_only and not joins:  # the cheap case first: a knight move to a free face
        for i in range(state[F_COUNT + colour]):
            piece = state[pieces + i]
            if _has_free_target(state, spec, piece):
                return 1
    for i in range(state[F_COUNT + colour]):
        piece = state[pieces + i]
        origin = -1
        if joins:  # the groups change with each piece lifted: no union-find, a fresh cache
            origin = piece
            _lift(state, spec, piece, colour)
            stamp = _new_cache_stamp(state)
        for k in range(8):
            target = spec[knight + piece * 8 + k]
            if target < 0:
                continue
            value = _target_value(state, spec, colour, target, pref, origin, stamp, not joins)
            if value > 0:
                if first_only:
                    count = 1
                    break
                dest[at + count] = piece * 8 + k
                state[vals + count] = value
                count += 1
        if joins:
            state[BOARD + piece] = DOT + colour
            state[BOARD + spec[spec[S_OPP] + piece]] = CIRCLE + colour
        if first_only and count > 0:
            return 1
    if first_only:
        return 0
    return _keep_preferred(dest, at, state[vals:], count, pref)


@njit(cache=True)
def _hop_options(state, spec, out, colour, pref):  # type: ignore[no-untyped-def]
    """The legal next hops of a capture chain, from the capturer's face."""
    vals = spec[S_VALS]
    cur = state[F_CUR]
    knight = spec[S_KNIGHT] + cur * 8
    stamp = _new_cache_stamp(state)
    count = 0
    for k in range(8):
        target = spec[knight + k]
        if target < 0:
            continue
        value = _target_value(state, spec, colour, target, pref, state[F_ORIGIN], stamp, False)
        if value > 0:
            out[count] = cur * 8 + k
            state[vals + count] = value
            count += 1
    return _keep_preferred(out, 0, state[vals:], count, pref)


@njit(cache=True)
def _exit_options(state, spec, out, colour, pref):  # type: ignore[no-untyped-def]
    """The faces where a slide through the group at F_SLIDE may come to rest (or capture).

    Between turns the exits of a big group are found from the free set and the enemy circles, and
    a capture's search refuses the group by its root instead of walling it; else (in a chain, or
    with the origin lifted) a flood fill finds the group, which a capture's search needs walled.
    """
    faces = spec[S_FACES]
    vals = spec[S_VALS]
    exits = spec[S_EXITS]
    exhaustive = pref == PREF_MAXIMAL
    slide = state[F_SLIDE]
    base = state[F_EXIT_TOP]
    root = -1
    size = 0
    if state[F_TOUCH_TOP] == 0 and not spec[S_ORIGIN_JOINS]:
        root = _find(state, spec, slide)
    if root >= 0 and state[spec[S_SIZE] + root] > state[F_FREE_COUNT]:
        recorded = _group_exits(state, spec, colour, root)
    else:
        size, _, recorded = _fill(state, spec, slide, CIRCLE + 1 - colour, False, True)
    state[F_EXIT_TOP] = base + recorded
    searching = False
    for i in range(recorded):
        face = state[exits + base + i]
        if state[BOARD + face] == FREE:
            state[vals + i] = 1
        elif not exhaustive and _has_free_target(state, spec, face):
            state[vals + i] = 2
        else:
            state[vals + i] = -1
            searching = True
    if searching:
        group_top = state[F_TOUCH_TOP]
        if root < 0:  # the search must not slide back through this group: wall it
            _wall_queue(state, spec, size)
        for i in range(recorded):
            if state[vals + i] < 0:
                face = state[exits + base + i]
                state[vals + i] = 2 * _capture_value(state, spec, colour, face, exhaustive, state[F_ORIGIN], root)
        _unwall(state, spec, group_top)
    state[F_EXIT_TOP] = base
    count = 0
    for i in range(recorded):
        value = state[vals + i]
        if value > 0:
            out[count] = 8 * faces + state[exits + base + i]
            state[vals + count] = value
            count += 1
    return _keep_preferred(out, 0, state[vals:], count, pref)


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the legal actions for the decision owed now into ``out``; return how many."""
    if state[TO_MOVE] < 0:
        return 0
    colour = state[F_COLOUR]
    phase = state[F_PHASE]
    if phase == PHASE_START:
        count = _start_options(state, spec, out, 0, colour, spec[S_PREF_FIRST], False)
        if spec[S_PIE] and state[F_TURNS] == 1 and state[F_SWAPPED] == 0:
            out[count] = 9 * spec[S_FACES]
            count += 1
        return count
    pref = spec[S_PREF_FIRST] if state[F_CAPTURES] == 0 else spec[S_PREF_CHAIN]
    if phase == PHASE_SLIDE:
        return _exit_options(state, spec, out, colour, pref)
    return _hop_options(state, spec, out, colour, pref)


# -- playing a step --------------------------------------------------------------------------------


@njit(cache=True)
def _replace_piece(state, spec, colour, old, new):  # type: ignore[no-untyped-def]
    """Move colour's listed piece from face ``old`` to ``new`` (-1: remove it)."""
    pieces = spec[S_LIST] + colour * spec[S_SIDE_CAP]
    count = state[F_COUNT + colour]
    for i in range(count):
        if state[pieces + i] == old:
            if new >= 0:
                state[pieces + i] = new
            else:
                state[pieces + i] = state[pieces + count - 1]
                state[F_COUNT + colour] = count - 1
            return


@njit(cache=True)
def has_move(state, spec, colour):  # type: ignore[no-untyped-def]
    """Whether ``colour`` has a legal turn (its first step) in this position, between turns."""
    return _start_options(state, spec, state, spec[S_VALS], colour, PREF_ANY, True) > 0


@njit(cache=True)
def finish(state, winner_seat, reason):  # type: ignore[no-untyped-def]
    """End the game: ``winner_seat`` wins (``-1``: a draw) for ``reason``."""
    state[TO_MOVE] = -1
    state[MID_TURN] = 0
    state[END_REASON] = reason
    for seat in range(2):
        if winner_seat < 0:
            state[SCORE + seat] = 1
        else:
            state[SCORE + seat] = 2 if seat == winner_seat else 0


@njit(cache=True)
def settle(state, spec):  # type: ignore[no-untyped-def]
    """At the start of a turn: end the game if the player to move has lost or the limit is reached."""
    colour = state[F_COLOUR]
    swapped = state[F_SWAPPED]
    mover_seat = (1 - colour) ^ swapped
    pie_pending = spec[S_PIE] and state[F_TURNS] == 1 and swapped == 0
    if state[F_COUNT + colour] == 0:
        finish(state, mover_seat, REASON_NO_PIECES)
    elif not pie_pending and not has_move(state, spec, colour):
        finish(state, mover_seat, REASON_NO_MOVES)
    elif spec[S_TURN_LIMIT] > 0 and state[F_TURNS] >= spec[S_TURN_LIMIT]:
        winner = -1
        if spec[S_LIMIT_RESULT] == LIMIT_MORE_PIECES:
            red, blue = state[F_COUNT], state[F_COUNT + 1]
            if red != blue:
                winner = swapped if red > blue else 1 - swapped
        finish(state, winner, REASON_LIMIT)
    else:
        state[TO_MOVE] = colour ^ swapped


@njit(cache=True)
def _rest(state, spec, colour, face):  # type: ignore[no-untyped-def]
    """The piece comes to rest on the free ``face``: the turn ends (B8) and the next one is settled.

    The board is first put back as it stood before the turn (touched faces, a lifted origin), then
    the turn's changes are made one face at a time, so that the groups follow them.
    """
    opp = spec[S_OPP]
    origin = state[F_ORIGIN]
    touched = spec[S_TOUCHED]
    top = state[F_TOUCH_TOP]
    _unwall(state, spec, 0)
    state[BOARD + origin] = DOT + colour
    state[BOARD + spec[opp + origin]] = CIRCLE + colour
    for i in range(top):
        if state[touched + 2 * i + 1] >= DOT:  # a captured piece's dot or circle
            _join(state, spec, state[touched + 2 * i])
    _join(state, spec, origin)
    _join(state, spec, spec[opp + origin])
    _occupy(state, spec, face, DOT + colour)
    _occupy(state, spec, spec[opp + face], CIRCLE + colour)
    _replace_piece(state, spec, colour, origin, face)
    state[F_PHASE] = PHASE_START
    state[MID_TURN] = 0
    state[F_CAPTURES] = 0
    state[F_TURNS] += 1
    state[F_COLOUR] = 1 - colour
    settle(state, spec)


@njit(cache=True)
def _capture(state, spec, colour, face):  # type: ignore[no-untyped-def]
    """Land on the enemy circle ``face``: the piece opposite is captured; the chain goes on."""
    if state[F_CAPTURES] == 0 and state[BOARD + state[F_ORIGIN]] == SING:
        _wall(state, spec, state[F_ORIGIN])
    victim = spec[spec[S_OPP] + face]
    _replace_piece(state, spec, 1 - colour, victim, -1)
    _wall(state, spec, face)
    _wall(state, spec, victim)
    state[F_CAPTURES] += 1
    state[F_CUR] = face
    state[F_PHASE] = PHASE_CHAIN
    state[MID_TURN] = 1


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` (it must be legal) for the seat to move."""
    faces = spec[S_FACES]
    colour = state[F_COLOUR]
    state[PLY] += 1
    if action == 9 * faces:  # pie: the second player takes over Red; the other seat plays Blue
        state[F_SWAPPED] = 1
        state[TO_MOVE] = colour ^ 1
        return
    if action >= 8 * faces:
        face = action - 8 * faces
        if state[BOARD + face] == FREE:
            _rest(state, spec, colour, face)
            return
        size, _, _ = _fill(state, spec, state[F_SLIDE], CIRCLE + 1 - colour, False, False)
        _wall_queue(state, spec, size)
        _capture(state, spec, colour, face)
        return
    source = action >> 3
    if state[F_PHASE] == PHASE_START:
        state[F_ORIGIN] = source
        state[F_CAPTURES] = 0
        if spec[S_ORIGIN_JOINS]:
            _lift(state, spec, source, colour)
    target = spec[spec[S_KNIGHT] + action]
    code = state[BOARD + target]
    if code == FREE:
        _rest(state, spec, colour, target)
    elif code == SING:
        state[F_SLIDE] = target
        state[F_PHASE] = PHASE_SLIDE
        state[MID_TURN] = 1
    else:
        _capture(state, spec, colour, target)
