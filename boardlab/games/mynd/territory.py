"""Mynd's diagonal links and territory (M3, M5, M6), and the end of the game: numba helpers.

For each player P, P's *regions* are the orthogonally connected groups of points not holding P's
pieces, where a diagonal P link that walls keeps the two points it crosses apart (and a cut one lets
them join); P's *trunk* is the group of P's pieces holding P's peg. Which regions are P's territory
is the ``territory_rule``; only empty points score. All of it is computed from the board when asked:
at the end of the game, for the territory overlay, and after each move with ``lock_on_enclose``.
"""

from __future__ import annotations

from numba import njit

from boardlab.core.kernel import END_REASON, SCORE, TO_MOVE
from boardlab.games.mynd.layout import (
    BOARD,
    F_PEG,
    LINKS_ALWAYS,
    LINKS_CHRONO,
    LINKS_NONE,
    NESTED_INNER,
    NO_CLAIM,
    PEG,
    REASON_REPETITION,
    S_BEST,
    S_CELLS,
    S_CLAIM,
    S_COMP,
    S_CUT,
    S_EDGE,
    S_LABEL,
    S_LINKS,
    S_LOCK,
    S_LOCKS,
    S_NEIGH,
    S_NESTED,
    S_PLAYERS,
    S_QUEUE,
    S_SIZE,
    S_TERRITORY,
    S_TRUNK,
    TERRITORY_GO,
    TERRITORY_SMALLER,
    TERRITORY_TRUNK,
    VOID,
    owner,
)


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
def bank_enclosures(state, spec):  # type: ignore[no-untyped-def]
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
