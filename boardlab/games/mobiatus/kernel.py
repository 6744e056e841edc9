"""Möbiatus's rules as numba kernels over a state vector (the rules are in the package docstring).

``legal`` and ``apply`` follow a turn through its steps; where everything lives in the spec and
state vectors is in ``layout``, the board bookkeeping (touched faces, singular groups, the free
set) in ``groups``, and the capture-chain search in ``search``.

Actions, with ``n`` the leaps a piece has (``S_STEPS``: 8, or 12 for ``movement=knight_wazir``):
``face · n + k`` moves from ``face`` (the piece at the start, the capturer in a chain) along leap
``k``; ``n · faces + e`` ends a slide on ``e``; ``(n + 1) · faces`` is the pie swap. For the
default knight (``n = 8``) these are the numbers they always were. A turn owes its steps in phases:
START (a piece and its leap's target), SLIDE (where a slide comes to rest) and CHAIN (the next hop
after a capture); MID_TURN is 1 while the mover owes more.

Each step offers only choices from which the turn can be completed, by the values of ``search``:
a capture whose chain cannot finish is never offered. Capture preferences (``mandatory_capture``
on the first hop, ``must_continue_capturing`` later, ``maximal`` throughout) keep only the
capturing choices, or those with the most captures, where there are any.
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import (
    APPLY_SIG,
    LEGAL_SIG,
    MID_TURN,
    PLY,
    TO_MOVE,
)
from boardlab.core.kernel import finish_two_seats as finish
from boardlab.core.planes import PLANES_SIG
from boardlab.core.turns import CARRY_SIG, DESCRIBE_SIG, SHARE_SIG, TURN_ENDS, TURN_GOES_ON, compile_turns
from boardlab.games.mobiatus.groups import (
    fill,
    find,
    group_exits,
    has_free_target,
    join,
    leap_at,
    leaps_of,
    occupy,
    unwall,
    wall,
    wall_group,
    wall_queue,
)
from boardlab.games.mobiatus.layout import (
    BOARD,
    CIRCLE,
    DOT,
    F_CACHE_STAMP,
    F_CAPTURES,
    F_COLOUR,
    F_COUNT,
    F_CUR,
    F_EXIT_TOP,
    F_FREE_COUNT,
    F_ORIGIN,
    F_PHASE,
    F_SLIDE,
    F_STAMP,
    F_SWAPPED,
    F_TOUCH_TOP,
    F_TURNS,
    FREE,
    LEAP_K,
    LEAP_SHIFT,
    LIMIT_MORE_PIECES,
    PHASE_CHAIN,
    PHASE_SLIDE,
    PHASE_START,
    PREF_ANY,
    PREF_MAXIMAL,
    REASON_LIMIT,
    REASON_NO_MOVES,
    REASON_NO_PIECES,
    S_CIRCLE_CONTACTS,
    S_EXITS,
    S_FACES,
    S_FREE_CONTACTS,
    S_KNIGHT,
    S_LIMIT_RESULT,
    S_LIST,
    S_OPP,
    S_ORIGIN_JOINS,
    S_PARENT,
    S_PIE,
    S_PREF_CHAIN,
    S_PREF_FIRST,
    S_SIDE_CAP,
    S_SIZE,
    S_STEPS,
    S_TOUCHED,
    S_TURN_LIMIT,
    S_VALS,
    SING,
    WALL,
)
from boardlab.games.mobiatus.search import (
    capture_value,
    keep_preferred,
    target_value,
)


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


# inline="always" here and on _exit_options, settle and _rest: numba writes them into their callers
# (legal, apply), saving a call that passes each array as seven words (with kernel.unowned's views
# their reference counts are a test for null, so inlining no longer adds atomic ones)
@njit(cache=True, inline="always")
def _start_options(state, spec, dest, at, colour, pref, first_only):  # type: ignore[no-untyped-def]
    """Write every legal first step (piece and leap target) to ``dest[at:]``; return how many.

    With ``first_only`` return 1 at the first legal one found (has the player a move?).
    """
    vals = spec[S_VALS]
    steps = spec[S_STEPS]
    joins = spec[S_ORIGIN_JOINS]
    keep_values = pref != PREF_ANY
    exhaustive = pref == PREF_MAXIMAL
    capacity = dest.shape[0]
    pieces = spec[S_LIST] + colour * spec[S_SIDE_CAP]
    free_contacts = spec[S_FREE_CONTACTS]
    enemy_contacts = spec[S_CIRCLE_CONTACTS] + (1 - colour) * spec[S_FACES]
    parent = spec[S_PARENT]
    enemy_circle = CIRCLE + 1 - colour
    count = 0
    stamp = _new_cache_stamp(state)
    if first_only and not joins:  # the cheap case first: a leap to a free face
        for i in range(state[F_COUNT + colour]):
            piece = state[pieces + i]
            if has_free_target(state, spec, piece):
                return 1
    for i in range(state[F_COUNT + colour]):
        piece = state[pieces + i]
        origin = -1
        if joins:  # the groups change with each piece lifted: no union-find, a fresh cache
            origin = piece
            _lift(state, spec, piece, colour)
            stamp = _new_cache_stamp(state)
        at_piece = leaps_of(spec, piece)
        first_action = piece * steps
        for j in range(spec[at_piece]):  # the leaps that stay on the strip, k ascending
            leap = leap_at(spec, at_piece, j)
            target = leap >> LEAP_SHIFT
            # the common cases decided here, without a call: a free face, a dot or a friendly
            # circle, a singularity whose group's contacts decide (as target_value would). They mix
            # unpredictably, so the answer is computed without a branch on which, reading the
            # contacts of the target's parent even where it is not singular (every face's parent is
            # a face: the state starts zeroed; the answer is then not used)
            code = state[BOARD + target]
            root = state[parent + target]
            singular = code == SING
            value = int((code == FREE) | (singular & (state[free_contacts + root] > 0)))
            # rare: a capture (next to the target) may matter; with a piece lifted (joins) the groups
            # differ from the union-find's, and every singularity is valued by a search
            if (singular & (joins | ((state[enemy_contacts + root] > 0) & ((value == 0) | keep_values)))) | (
                    code == enemy_circle):
                if code == enemy_circle and not exhaustive and has_free_target(state, spec, target):
                    value = 2  # a capture that can end at once (as chain_value finds first), without a call
                else:
                    value = target_value(state, spec, colour, target, pref, origin, stamp, not joins)
            # written whether legal or not, and kept by counting it: no branch on the value either
            if at + count < capacity:
                dest[at + count] = first_action + (leap & LEAP_K)
                if keep_values:
                    state[vals + count] = value
            count += 1 if value > 0 else 0
            if first_only and count > 0:
                break
        if joins:
            state[BOARD + piece] = DOT + colour
            state[BOARD + spec[spec[S_OPP] + piece]] = CIRCLE + colour
        if first_only and count > 0:
            return 1
    if first_only:
        return 0
    if not keep_values:
        return count
    return keep_preferred(dest, at, state[vals:], count, pref)


@njit(cache=True)
def _hop_options(state, spec, out, colour, pref):  # type: ignore[no-untyped-def]
    """The legal next hops of a capture chain, from the capturer's face."""
    vals = spec[S_VALS]
    cur = state[F_CUR]
    steps = spec[S_STEPS]
    at_cur = leaps_of(spec, cur)
    stamp = _new_cache_stamp(state)
    count = 0
    # the groups the chain has not walled are the union-find's whole, unless an origin was lifted
    use_groups = not spec[S_ORIGIN_JOINS]
    for j in range(spec[at_cur]):
        leap = leap_at(spec, at_cur, j)
        value = target_value(state, spec, colour, leap >> LEAP_SHIFT, pref, state[F_ORIGIN], stamp, use_groups)
        if value > 0:
            out[count] = cur * steps + (leap & LEAP_K)
            state[vals + count] = value
            count += 1
    if pref == PREF_ANY:  # nothing to filter (and no slice of the state to make)
        return count
    return keep_preferred(out, 0, state[vals:], count, pref)


@njit(cache=True, inline="always")
def _exit_options(state, spec, out, colour, pref):  # type: ignore[no-untyped-def]
    """The faces where a slide through the group at F_SLIDE may come to rest (or capture).

    Between turns the exits of a big group are found from the free set and the enemy circles; else
    a flood fill finds them (their order is the fill's). Unless the origin is lifted, the group is
    the union-find's even in a chain (its walls are captured faces, never singular, and whole
    groups slid through), so a capture's search refuses it by its root instead of walling it;
    with the origin lifted the groups differ, and the search needs the group walled.
    """
    faces = spec[S_FACES]
    vals = spec[S_VALS]
    exits = spec[S_EXITS]
    exhaustive = pref == PREF_MAXIMAL
    slide = state[F_SLIDE]
    base = state[F_EXIT_TOP]
    root = -1
    size = 0
    if not spec[S_ORIGIN_JOINS]:
        root = find(state, spec, slide)
    if root >= 0 and state[F_TOUCH_TOP] == 0 and state[spec[S_SIZE] + root] > state[F_FREE_COUNT]:
        recorded = group_exits(state, spec, colour, root)
    else:
        size, _, recorded = fill(state, spec, slide, CIRCLE + 1 - colour, False, True)
    state[F_EXIT_TOP] = base + recorded
    searching = False
    for i in range(recorded):
        face = state[exits + base + i]
        if state[BOARD + face] == FREE:
            state[vals + i] = 1
        elif not exhaustive and has_free_target(state, spec, face):
            state[vals + i] = 2
        else:
            state[vals + i] = -1
            searching = True
    if searching:
        group_top = state[F_TOUCH_TOP]
        if root < 0:  # the search must not slide back through this group: wall it
            wall_queue(state, spec, size)
        for i in range(recorded):
            if state[vals + i] < 0:
                face = state[exits + base + i]
                state[vals + i] = 2 * capture_value(state, spec, colour, face, exhaustive, state[F_ORIGIN], root)
        unwall(state, spec, group_top)
    state[F_EXIT_TOP] = base
    count = 0
    for i in range(recorded):
        value = state[vals + i]
        if value > 0:
            out[count] = spec[S_STEPS] * faces + state[exits + base + i]
            state[vals + count] = value
            count += 1
    if pref == PREF_ANY:  # nothing to filter (and no slice of the state to make)
        return count
    return keep_preferred(out, 0, state[vals:], count, pref)


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
            out[count] = (spec[S_STEPS] + 1) * spec[S_FACES]
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
def _has_free_leap(state, spec, colour):  # type: ignore[no-untyped-def]
    """Whether one of ``colour``'s pieces can leap onto a free face (then it has a move, B7).

    Nearly always true, and answered without a call (a call costs the arrays' reference counts);
    not with origin_joins_slide_group, where a piece lifted changes the groups.
    """
    if spec[S_ORIGIN_JOINS]:
        return False
    pieces = spec[S_LIST] + colour * spec[S_SIDE_CAP]
    for i in range(state[F_COUNT + colour]):
        at = leaps_of(spec, state[pieces + i])
        for j in range(spec[at]):
            if state[BOARD + (leap_at(spec, at, j) >> LEAP_SHIFT)] == FREE:
                return True
    return False


@njit(cache=True, inline="always")
def settle(state, spec):  # type: ignore[no-untyped-def]
    """At the start of a turn: end the game if the player to move has lost or the limit is reached."""
    colour = state[F_COLOUR]
    swapped = state[F_SWAPPED]
    mover_seat = (1 - colour) ^ swapped
    pie_pending = spec[S_PIE] and state[F_TURNS] == 1 and swapped == 0
    if state[F_COUNT + colour] == 0:
        finish(state, mover_seat, REASON_NO_PIECES)
    elif not pie_pending and not _has_free_leap(state, spec, colour) and not has_move(state, spec, colour):
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


@njit(cache=True, inline="always")
def _rest(state, spec, colour, face):  # type: ignore[no-untyped-def]
    """The piece comes to rest on the free ``face``: the turn ends (B8) and the next one is settled.

    The board is first put back as it stood before the turn (touched faces, a lifted origin), then
    the turn's changes are made one face at a time, so that the groups follow them.
    """
    opp = spec[S_OPP]
    origin = state[F_ORIGIN]
    touched = spec[S_TOUCHED]
    top = state[F_TOUCH_TOP]
    unwall(state, spec, 0)
    state[BOARD + origin] = DOT + colour
    state[BOARD + spec[opp + origin]] = CIRCLE + colour
    for i in range(top):
        if state[touched + 2 * i + 1] >= DOT:  # a captured piece's dot or circle
            join(state, spec, state[touched + 2 * i])
    join(state, spec, origin)
    join(state, spec, spec[opp + origin])
    occupy(state, spec, face, DOT + colour)
    occupy(state, spec, spec[opp + face], CIRCLE + colour)
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
        wall(state, spec, state[F_ORIGIN])
    victim = spec[spec[S_OPP] + face]
    _replace_piece(state, spec, 1 - colour, victim, -1)
    wall(state, spec, face)
    wall(state, spec, victim)
    state[F_CAPTURES] += 1
    state[F_CUR] = face
    state[F_PHASE] = PHASE_CHAIN
    state[MID_TURN] = 1


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` (it must be legal) for the seat to move."""
    faces = spec[S_FACES]
    steps = spec[S_STEPS]
    colour = state[F_COLOUR]
    state[PLY] += 1
    if action == (steps + 1) * faces:  # pie: the second player takes over Red; the other seat plays Blue
        state[F_SWAPPED] = 1
        state[TO_MOVE] = colour ^ 1
        return
    if action >= steps * faces:
        face = action - steps * faces
        if state[BOARD + face] == FREE:
            _rest(state, spec, colour, face)
            return
        if spec[S_ORIGIN_JOINS]:  # the lifted origin joins groups: flood the one slid through
            size, _, _ = fill(state, spec, state[F_SLIDE], CIRCLE + 1 - colour, False, False)
            wall_queue(state, spec, size)
        else:  # the union-find's group, whole: walk its ring
            wall_group(state, spec, find(state, spec, state[F_SLIDE]))
        _capture(state, spec, colour, face)
        return
    source = action >> 3 if steps == 8 else action // steps  # a shift for the 8 leaps of most leapers
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


@njit(DESCRIBE_SIG, cache=True)
def describe(state, spec, action):  # type: ignore[no-untyped-def]
    """The text key of ``action`` and whether the turn ends with it (``boardlab.core.turns``).

    The key is ``action + actions · (start + 2 · capture)``: ``start`` where the action names the
    piece too (the turn's first step, ``F1a-F3b``), ``capture`` where it lands on an enemy circle
    (``*``). A step onto a free face ends the turn; onto a singularity (a slide) or a circle (a
    capture) the turn goes on.
    """
    faces = spec[S_FACES]
    steps = spec[S_STEPS]
    actions = (steps + 1) * faces + 1
    if action == (steps + 1) * faces:
        return action << 2 | TURN_ENDS
    start = 0
    if action >= steps * faces:
        target = action - steps * faces
    else:
        target = spec[spec[S_KNIGHT] + action]
        start = 1 if state[F_PHASE] == PHASE_START else 0
    code = state[BOARD + target]
    capture = 1 if code == CIRCLE + 1 - state[F_COLOUR] else 0
    turn = TURN_ENDS if code == FREE else TURN_GOES_ON
    return (action + actions * (start + 2 * capture)) << 2 | turn


@njit(CARRY_SIG, cache=True)
def carry(dest, source, spec):  # type: ignore[no-untyped-def]
    """What the steps inside a turn change, for the walk over whole turns (``boardlab.core.turns``).

    A step that does not end the turn changes only the header, the board, the piece lists and the
    touched stack; the groups and the free set change when a piece comes to rest. The flood-fill
    and cache stamps stay with each copy's own marks.
    """
    stamp, cache_stamp = dest[F_STAMP], dest[F_CACHE_STAMP]
    for i in range(BOARD + spec[S_FACES]):  # loops: numba's slice assignment checks for overlap, and costs
        dest[i] = source[i]
    dest[F_STAMP], dest[F_CACHE_STAMP] = stamp, cache_stamp
    lists = spec[S_LIST]
    for i in range(lists, lists + 2 * spec[S_SIDE_CAP]):
        dest[i] = source[i]
    touched = spec[S_TOUCHED]
    for i in range(touched, touched + 2 * source[F_TOUCH_TOP]):
        dest[i] = source[i]


@njit(SHARE_SIG, cache=True)
def share(state, spec, action):  # type: ignore[no-untyped-def]
    """First steps that lead on to the same turns, for the walk over whole turns: a leap into a
    singularity is followed by a slide out of its group whichever piece leapt (the board stands as
    it did, the leaping piece's dot still on its origin), so such steps share the group's root
    plus one. Not with origin_joins_slide_group, where the lifted origin joins the groups."""
    if spec[S_ORIGIN_JOINS] or state[F_PHASE] != PHASE_START or state[F_TOUCH_TOP] != 0:
        return 0
    if action >= spec[S_STEPS] * spec[S_FACES]:
        return 0
    target = spec[spec[S_KNIGHT] + action]
    if state[BOARD + target] != SING:
        return 0
    return find(state, spec, target) + 1


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=True)


@njit(PLANES_SIG, cache=True)
def planes(view, spec, seat, out):  # type: ignore[no-untyped-def]
    """Observation planes (``boardlab.core.planes``): each colour's dots and circles, ``mine`` (where
    the viewer's dots and circles stand), singular faces and the ones a chain has touched."""
    swapped = view[F_SWAPPED]
    for face in range(out.shape[1]):
        code = view[BOARD + face]
        if code in (SING, WALL):
            out[5, face] = 1
            if code == WALL:
                out[6, face] = 1
        elif code >= DOT:
            colour = (code - DOT) % 2
            out[2 * colour + (1 if code >= CIRCLE else 0), face] = 1
            if colour ^ swapped == seat:
                out[4, face] = 1
