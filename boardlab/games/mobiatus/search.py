"""Möbiatus's capture-chain search and the values of leaps (knight moves by default), for the kernels.

A capture is legal only if its chain can be finished (B9); ``chain_value`` searches the chain's
continuations depth first, with an explicit stack (numba cannot cache recursive functions). The
faces a chain has touched are WALLs while the search stands below them. An option's *value* is
``captures · 2 + rest``: ``rest`` is 1 if the turn can end without a capture this way, ``captures``
how many captures a completion makes (at least 1 if one exists; the most, when searched
exhaustively for ``mandatory_capture=maximal``); 0 means illegal.
"""

from __future__ import annotations

from numba import njit

from boardlab.games.mobiatus.groups import (
    fill,
    find,
    group_circles,
    has_free_target,
    next_to_group,
    unwall,
    wall,
    wall_group,
    wall_queue,
)
from boardlab.games.mobiatus.layout import (
    BOARD,
    CIRCLE,
    F_COUNT,
    F_EXIT_TOP,
    F_TOUCH_TOP,
    FR_BEST,
    FR_CUR,
    FR_ENTRY_TOP,
    FR_EXIT_BASE,
    FR_EXIT_END,
    FR_EXIT_POS,
    FR_GROUP_TOP,
    FR_K,
    FRAME,
    FREE,
    PREF_ANY,
    PREF_CAPTURE,
    PREF_MAXIMAL,
    S_CACHE_MARK,
    S_CACHE_VAL,
    S_CIRCLE_CONTACTS,
    S_EXITS,
    S_FACES,
    S_FRAMES,
    S_FREE_CONTACTS,
    S_KNIGHT,
    S_LIST,
    S_OPP,
    S_ORIGIN_JOINS,
    S_QUEUE,
    S_SIDE_CAP,
    S_STEPS,
    S_TOUCHED,
    SING,
)


@njit(cache=True)
def open_frame(state, spec, depth, face):  # type: ignore[no-untyped-def]
    """Start a search frame: the capture on ``face`` (an enemy circle) takes the piece opposite."""
    frame = spec[S_FRAMES] + depth * FRAME
    state[frame + FR_CUR] = face
    state[frame + FR_K] = 0
    state[frame + FR_EXIT_POS] = -1
    state[frame + FR_BEST] = -1
    state[frame + FR_ENTRY_TOP] = state[F_TOUCH_TOP]
    wall(state, spec, face)
    wall(state, spec, spec[spec[S_OPP] + face])

@njit(cache=True)
def chain_value(state, spec, colour, face, exhaustive, skip_root):  # type: ignore[no-untyped-def]
    """After capturing on ``face``: the most further captures of a completion, or -1 if none.

    Without ``exhaustive`` it answers only whether a completion exists (0 or -1). Every face
    touched by the chain is a WALL while the search stands below it: no later hop may land on or
    slide through it. A depth-first search with an explicit stack; the board is left as found.

    ``skip_root`` (or -1), between turns: the group just slid through, touched without being
    walled. No flood fill from elsewhere can reach it (groups only ever meet through singular
    faces, and the chain's new ones are walls), so a knight move into it is all there is to refuse.

    A singular face landed on is in a group the union-find still holds whole (a chain walls only
    captured faces and whole groups), unless a lifted origin joins groups: its free contacts say
    whether the chain can end there, and a walk of its ring finds its enemy circles (its circle
    contacts, which a capture leaves as they were, can only overcount them: none means none).
    With ``origin_joins_slide_group`` the group is flooded instead.
    """
    if not exhaustive and has_free_target(state, spec, face):
        return 0
    enemy_circle = CIRCLE + 1 - colour
    knight = spec[S_KNIGHT]
    steps = spec[S_STEPS]
    frames = spec[S_FRAMES]
    exits = spec[S_EXITS]
    touch_entry = state[F_TOUCH_TOP]
    exit_entry = state[F_EXIT_TOP]
    groups_kept = not spec[S_ORIGIN_JOINS]
    free_contacts = spec[S_FREE_CONTACTS]
    enemy_contacts = spec[S_CIRCLE_CONTACTS] + (1 - colour) * spec[S_FACES]
    open_frame(state, spec, 0, face)
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
                unwall(state, spec, state[frame + FR_GROUP_TOP])
                state[F_EXIT_TOP] = state[frame + FR_EXIT_BASE]
                state[frame + FR_EXIT_POS] = -1
                continue
        else:
            k = state[frame + FR_K]
            if k == steps:
                done = True
            else:
                state[frame + FR_K] = k + 1
                target = spec[knight + state[frame + FR_CUR] * steps + k]
                if target < 0:
                    continue
                code = state[BOARD + target]
                if code == FREE:
                    if state[frame + FR_BEST] < 0:
                        state[frame + FR_BEST] = 0
                    found = True
                elif code == enemy_circle:
                    child = target
                elif code == SING:
                    root = -1
                    size = 0
                    if groups_kept:  # the union-find's group: its contacts say what a flood would find
                        root = find(state, spec, target)
                        if root == skip_root:
                            continue
                        free = state[free_contacts + root]
                        recorded = 0
                        if (exhaustive or free == 0) and state[enemy_contacts + root] > 0:
                            recorded = group_circles(state, spec, root, enemy_circle)
                    else:
                        size, free, recorded = fill(state, spec, target, enemy_circle, not exhaustive, False)
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
                        if root >= 0:
                            wall_group(state, spec, root)
                        else:
                            wall_queue(state, spec, size)
        if child >= 0:
            if not exhaustive and has_free_target(state, spec, child):
                found = True  # that capture completes at once
            else:
                open_frame(state, spec, depth, child)
                depth += 1
                continue
        if found and not exhaustive:  # a completion exists: that answers the whole search
            unwall(state, spec, touch_entry)
            state[F_EXIT_TOP] = exit_entry
            return 0
        if not done:
            continue
        value = state[frame + FR_BEST]
        if state[frame + FR_EXIT_POS] >= 0:
            state[F_EXIT_TOP] = state[frame + FR_EXIT_BASE]
        unwall(state, spec, state[frame + FR_ENTRY_TOP])
        depth -= 1
        if depth == 0:
            return value
        if value >= 0:
            parent = frames + (depth - 1) * FRAME
            if value + 1 > state[parent + FR_BEST]:
                state[parent + FR_BEST] = value + 1


@njit(cache=True)
def capture_value(state, spec, colour, face, exhaustive, origin, skip_root):  # type: ignore[no-untyped-def]
    """Captures a completed chain makes that starts by capturing on ``face``; 0 if none can finish.

    ``origin`` (or -1) is the turn's origin, touched for the rest of the chain: it only matters
    where it is singular at lift-off (``origin_joins_slide_group``).
    """
    top = state[F_TOUCH_TOP]
    if origin >= 0 and state[BOARD + origin] == SING:
        wall(state, spec, origin)
    value = chain_value(state, spec, colour, face, exhaustive, skip_root)
    unwall(state, spec, top)
    return value + 1 if value >= 0 else 0


@njit(cache=True)
def slide_value(state, spec, colour, target, pref, origin, cache_stamp):  # type: ignore[no-untyped-def]
    """The value of landing on the singular face ``target``: the best way out of its group.

    The value is written to the cache for every face of the group seen, so that other knight
    moves into the same group (in this legal call) do not search it again.
    """
    enemy_circle = CIRCLE + 1 - colour
    exhaustive = pref == PREF_MAXIMAL
    exits = spec[S_EXITS]
    size, free, recorded = fill(state, spec, target, enemy_circle, pref == PREF_ANY, False)
    value = 1 if free > 0 else 0
    walled = False
    group_top = state[F_TOUCH_TOP]
    if recorded > 0 and (value == 0 or pref != PREF_ANY):
        base = state[F_EXIT_TOP]
        state[F_EXIT_TOP] = base + recorded
        best = 0
        if not exhaustive:  # a capture that can stop at once needs no walls to know it
            for i in range(recorded):
                if has_free_target(state, spec, state[exits + base + i]):
                    best = 1
                    break
        if best == 0:
            wall_queue(state, spec, size)
            walled = True
            for i in range(recorded):
                captures = capture_value(state, spec, colour, state[exits + base + i], exhaustive, origin, -1)
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
        unwall(state, spec, group_top)
    else:
        queue = spec[S_QUEUE]
        for i in range(size):
            face = state[queue + i]
            state[mark + face] = cache_stamp
            state[cached + face] = value
    return value

@njit(cache=True)
def group_captures(state, spec, colour, root, exhaustive):  # type: ignore[no-untyped-def]
    """Captures of the best completed chain that starts by sliding out of the group ``root`` onto
    an enemy circle (between turns); 0 if none can finish."""
    pieces = spec[S_LIST] + (1 - colour) * spec[S_SIDE_CAP]
    best = 0
    for i in range(state[F_COUNT + 1 - colour]):
        face = spec[spec[S_OPP] + state[pieces + i]]
        if not next_to_group(state, spec, face, root):
            continue
        if not exhaustive and has_free_target(state, spec, face):
            return 1
        captures = capture_value(state, spec, colour, face, exhaustive, -1, root)
        if captures > best:
            best = captures
            if not exhaustive:
                return best
    return best


@njit(cache=True)
def target_value(state, spec, colour, target, pref, origin, cache_stamp, use_groups):  # type: ignore[no-untyped-def]
    """The value of a leap landing on ``target`` (see the module docstring).

    With ``use_groups`` (no face lifted: between turns, or in a chain, whose walls are captured faces
    and whole groups) a singularity's group is read from the union-find: it needs a search only
    when a capture next to it matters (in a chain its circle contacts can only overcount).
    """
    code = state[BOARD + target]
    if code == FREE:
        return 1
    mark = spec[S_CACHE_MARK]
    cached = spec[S_CACHE_VAL]
    if code == SING:
        if use_groups:
            root = find(state, spec, target)
            rest = 1 if state[spec[S_FREE_CONTACTS] + root] > 0 else 0
            enemy = state[spec[S_CIRCLE_CONTACTS] + (1 - colour) * spec[S_FACES] + root]
            if enemy == 0 or (rest and pref == PREF_ANY):
                return rest
            if state[mark + root] != cache_stamp:
                state[mark + root] = cache_stamp
                state[cached + root] = rest + 2 * group_captures(state, spec, colour, root, pref == PREF_MAXIMAL)
            return state[cached + root]
        if state[mark + target] == cache_stamp:
            return state[cached + target]
        return slide_value(state, spec, colour, target, pref, origin, cache_stamp)
    if code == CIRCLE + 1 - colour:
        if state[mark + target] == cache_stamp:
            return state[cached + target]
        value = 2 * capture_value(state, spec, colour, target, pref == PREF_MAXIMAL, origin, -1)
        state[mark + target] = cache_stamp
        state[cached + target] = value
        return value
    return 0


@njit(cache=True)
def keep_preferred(dest, at, vals, count, pref):  # type: ignore[no-untyped-def]
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
