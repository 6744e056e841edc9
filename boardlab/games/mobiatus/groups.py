"""Möbiatus's board bookkeeping, for the kernels: touched faces, singular groups, the free set.

Between turns the singular faces form groups kept in a union-find with contact counts (see
``layout``), so the kernels can ask of a singularity "can a slide out of it come to rest, or
capture?" without a flood fill; each group's faces are also kept in a ring, so that a group is
walled, or its enemy circles found, by walking it. A capture chain walls only captured faces and
whole groups, so an untouched singular face's group is still the union-find's inside a turn;
only with ``origin_joins_slide_group`` (a lifted origin joins groups) does ``fill`` flood a
group instead. Every function here is a numba helper over (state, spec).
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import set_add, set_discard
from boardlab.games.mobiatus.layout import (
    BOARD,
    CIRCLE,
    DOT,
    F_COUNT,
    F_EXIT_TOP,
    F_FREE_COUNT,
    F_TOUCH_TOP,
    FREE,
    LEAP_MASK,
    LEAP_SHIFT,
    PENDING,
    S_CIRCLE_CONTACTS,
    S_EXITS,
    S_FACES,
    S_FREE_CONTACTS,
    S_FREE_LIST,
    S_FREE_POS,
    S_LEAPS,
    S_LIST,
    S_NEXT,
    S_OPP,
    S_PARENT,
    S_QUEUE,
    S_SIDE_CAP,
    S_SIDES,
    S_SIZE,
    S_STEPS,
    S_TOUCHED,
    SEEN,
    SING,
    WALL,
)


@njit(cache=True)
def wall(state, spec, face):  # type: ignore[no-untyped-def]
    """Mark ``face`` touched (WALL), remembering its code on the touched stack."""
    top = state[F_TOUCH_TOP]
    at = spec[S_TOUCHED] + 2 * top
    state[at] = face
    state[at + 1] = state[BOARD + face]
    state[BOARD + face] = WALL
    state[F_TOUCH_TOP] = top + 1


@njit(cache=True)
def unwall(state, spec, top):  # type: ignore[no-untyped-def]
    """Undo every WALL pushed since the touched stack stood at ``top``."""
    at = spec[S_TOUCHED]
    current = state[F_TOUCH_TOP]
    while current > top:
        current -= 1
        state[BOARD + state[at + 2 * current]] = state[at + 2 * current + 1]
    state[F_TOUCH_TOP] = top


@njit(cache=True)
def side(sides, d):  # type: ignore[no-untyped-def]
    """The neighbour in direction ``d`` (S_ORTH's order) from a face's S_SIDES word; -1 off the width."""
    return ((sides >> (d << 4)) & LEAP_MASK) - 1


@njit(cache=True)
def leaps_of(spec, face):  # type: ignore[no-untyped-def]
    """Where ``face``'s row of the S_LEAPS table starts (its count of leaps on the strip)."""
    return spec[S_LEAPS] + face * ((spec[S_STEPS] + 7) >> 2)


@njit(cache=True)
def leap_at(spec, at, j):  # type: ignore[no-untyped-def]
    """The ``j``-th leap of the S_LEAPS row at ``at``: ``target << LEAP_SHIFT | k``."""
    return (spec[at + 1 + (j >> 2)] >> ((j & 3) << 4)) & LEAP_MASK


@njit(cache=True)
def has_free_target(state, spec, face):  # type: ignore[no-untyped-def]
    """Whether a leap from ``face`` reaches a free face (where a chain can end at once)."""
    at = leaps_of(spec, face)
    for j in range(spec[at]):  # noqa: SIM110 - a loop numba compiles, not any() over a generator
        if state[BOARD + (leap_at(spec, at, j) >> LEAP_SHIFT)] == FREE:
            return True
    return False


# -- the singular groups between turns (union-find) -----------------------------------------------


@njit(cache=True)
def find(state, spec, face):  # type: ignore[no-untyped-def]
    """The root of the group of the singular ``face``: its parent (a merge relabels every face of
    the group it absorbs, so no face is further from its root than that)."""
    return state[spec[S_PARENT] + face]


@njit(cache=True)
def free_remove(state, spec, face):  # type: ignore[no-untyped-def]
    set_discard(state, spec[S_FREE_LIST], spec[S_FREE_POS], F_FREE_COUNT, face)


@njit(cache=True)
def occupy(state, spec, face, code):  # type: ignore[no-untyped-def]
    """The free ``face`` takes a dot or a circle (``code``), between turns: each group next to it
    loses a free contact for each of its faces next to it, and gains a contact with the circle.

    No helper is called for the groups next to it: a call costs the arrays' reference counts.
    """
    sides = spec[spec[S_SIDES] + face]
    free = spec[S_FREE_CONTACTS]
    circles = spec[S_CIRCLE_CONTACTS] + (code - CIRCLE) * spec[S_FACES]
    for d in range(4):
        other = side(sides, d)
        if other >= 0 and state[BOARD + other] == SING:
            root = find(state, spec, other)
            state[free + root] -= 1
            if code >= CIRCLE:
                state[circles + root] += 1
    free_remove(state, spec, face)
    state[BOARD + face] = code


@njit(cache=True)
def join(state, spec, face):  # type: ignore[no-untyped-def]
    """``face`` turns singular, between turns, and joins the groups next to it.

    One pass over the neighbours: each group next to ``face`` loses the contact it had with the
    face (a free face's, or a circle's) and is merged into the face's group; contacts add up on
    a merge, so taking the contact off before or after it comes to the same counts.
    """
    code = state[BOARD + face]
    free_delta = 0
    circle_delta = -1  # the circle colour whose contacts the face's neighbours lose, or -1
    if code == FREE:
        free_delta = -1
        free_remove(state, spec, face)
    elif code >= CIRCLE:
        circle_delta = code - CIRCLE
    state[BOARD + face] = SING
    faces = spec[S_FACES]
    sides = spec[spec[S_SIDES] + face]
    parent = spec[S_PARENT]
    size = spec[S_SIZE]
    free = spec[S_FREE_CONTACTS]
    circles = spec[S_CIRCLE_CONTACTS]
    own_free = 0
    own_red = 0
    own_blue = 0
    for d in range(4):
        other = side(sides, d)
        if other < 0:
            continue
        near = state[BOARD + other]
        if near == FREE:
            own_free += 1
        elif near == CIRCLE:
            own_red += 1
        elif near == CIRCLE + 1:
            own_blue += 1
    members = spec[S_NEXT]
    state[parent + face] = face
    state[members + face] = face
    state[size + face] = 1
    state[free + face] = own_free
    state[circles + face] = own_red
    state[circles + faces + face] = own_blue
    root = face
    for d in range(4):
        other = side(sides, d)
        if other < 0 or state[BOARD + other] != SING:
            continue
        near = find(state, spec, other)
        state[free + near] += free_delta
        if circle_delta >= 0:
            state[circles + circle_delta * faces + near] -= 1
        if near == root:
            continue
        if state[size + root] < state[size + near]:
            root, near = near, root
        # the smaller group's faces take the new root (walked in its ring), then the rings are
        # spliced into one by swapping the two roots' successors
        member = near
        while True:
            state[parent + member] = root
            member = state[members + member]
            if member == near:
                break
        after = state[members + root]
        state[members + root] = state[members + near]
        state[members + near] = after
        state[size + root] += state[size + near]
        state[free + root] += state[free + near]
        state[circles + root] += state[circles + near]
        state[circles + faces + root] += state[circles + faces + near]


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
            set_add(state, spec[S_FREE_LIST], spec[S_FREE_POS], F_FREE_COUNT, face)
        elif code == SING:
            state[BOARD + face] = PENDING  # joined one at a time below
    for face in range(faces):
        if state[BOARD + face] == PENDING:
            join(state, spec, face)


@njit(cache=True)
def fill(state, spec, start, enemy_circle, stop_at_free, record_free):  # type: ignore[no-untyped-def]
    """Flood the group of (untouched) singular faces holding ``start``, orthogonally.

    The group is left in the queue; its exits (free faces, and enemy circles: captures) are
    found once each, and the enemy circles (with ``record_free`` the free ones too) are written
    from the exit stack's top, which is not moved. Returns (group size, free exits, recorded);
    without ``record_free`` a free face next to several of the group's faces counts once for
    each (only whether there is one matters then). With ``stop_at_free`` it stops at the first
    free exit, leaving the group partly filled.

    A face seen is marked on the board itself (its code raised by ``SEEN``, put back before
    returning), so that each neighbour costs one read of the board and no stamp array.
    """
    queue = spec[S_QUEUE]
    side_table = spec[S_SIDES]
    exits = spec[S_EXITS] + state[F_EXIT_TOP]
    state[BOARD + start] += SEEN
    state[queue] = start
    size = 1
    head = 0
    free = 0
    recorded = 0
    while head < size:
        sides = spec[side_table + state[queue + head]]
        head += 1
        for d in range(4):
            other = side(sides, d)
            if other < 0:
                continue
            code = state[BOARD + other]
            if code == SING:
                state[BOARD + other] = SING + SEEN
                state[queue + size] = other
                size += 1
            elif code == FREE:
                free += 1
                if record_free:
                    state[BOARD + other] = FREE + SEEN
                    state[exits + recorded] = other
                    recorded += 1
                if stop_at_free:
                    head = size  # stop here (a return would need the board put back too)
                    break
            elif code == enemy_circle:
                state[BOARD + other] = code + SEEN
                state[exits + recorded] = other
                recorded += 1
    # put the board back; written out here, not called: a call costs the arrays' reference counts
    for i in range(size):
        state[BOARD + state[queue + i]] -= SEEN
    for i in range(recorded):
        state[BOARD + state[exits + i]] -= SEEN
    return size, free, recorded


@njit(cache=True)
def wall_group(state, spec, root):  # type: ignore[no-untyped-def]
    """Wall every face of the group ``root`` (walked in its ring; the order is the ring's)."""
    members = spec[S_NEXT]
    face = root
    while True:
        wall(state, spec, face)
        face = state[members + face]
        if face == root:
            break


@njit(cache=True)
def group_circles(state, spec, root, enemy_circle):  # type: ignore[no-untyped-def]
    """The ``enemy_circle`` faces next to the group ``root`` (its faces all singular), each once.

    Written from the exit stack's top, which is not moved; returns how many. The group is walked
    in its ring; a circle found is marked on the board (raised by ``SEEN``) until the end, as in
    ``fill``.
    """
    members = spec[S_NEXT]
    side_table = spec[S_SIDES]
    exits = spec[S_EXITS] + state[F_EXIT_TOP]
    recorded = 0
    face = root
    while True:
        sides = spec[side_table + face]
        for d in range(4):
            other = side(sides, d)
            if other >= 0 and state[BOARD + other] == enemy_circle:
                state[BOARD + other] = enemy_circle + SEEN
                state[exits + recorded] = other
                recorded += 1
        face = state[members + face]
        if face == root:
            break
    for i in range(recorded):
        state[BOARD + state[exits + i]] = enemy_circle
    return recorded


@njit(cache=True)
def wall_queue(state, spec, size):  # type: ignore[no-untyped-def]
    queue = spec[S_QUEUE]
    for i in range(size):
        wall(state, spec, state[queue + i])


@njit(cache=True)
def next_to_group(state, spec, face, root):  # type: ignore[no-untyped-def]
    """Whether ``face`` touches the group ``root`` (between turns)."""
    sides = spec[spec[S_SIDES] + face]
    for d in range(4):
        other = side(sides, d)
        if other >= 0 and state[BOARD + other] == SING and find(state, spec, other) == root:
            return True
    return False


@njit(cache=True)
def group_exits(state, spec, colour, root):  # type: ignore[no-untyped-def]
    """The exits of the group ``root`` (between turns) from the free set and the enemy circles.

    Written from the exit stack's top, which is not moved; returns how many.
    """
    exits = spec[S_EXITS] + state[F_EXIT_TOP]
    items = spec[S_FREE_LIST]
    side_table = spec[S_SIDES]
    count = 0
    # next_to_group written out in both loops: a call costs the arrays' reference counts
    for i in range(state[F_FREE_COUNT]):
        face = state[items + i]
        sides = spec[side_table + face]
        for d in range(4):
            other = side(sides, d)
            if other >= 0 and state[BOARD + other] == SING and find(state, spec, other) == root:
                state[exits + count] = face
                count += 1
                break
    if state[spec[S_CIRCLE_CONTACTS] + (1 - colour) * spec[S_FACES] + root] > 0:
        pieces = spec[S_LIST] + (1 - colour) * spec[S_SIDE_CAP]
        for i in range(state[F_COUNT + 1 - colour]):
            face = spec[spec[S_OPP] + state[pieces + i]]
            sides = spec[side_table + face]
            for d in range(4):
                other = side(sides, d)
                if other >= 0 and state[BOARD + other] == SING and find(state, spec, other) == root:
                    state[exits + count] = face
                    count += 1
                    break
    return count
