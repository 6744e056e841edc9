"""Monte Carlo tree search in numba, generic over every game's ``legal``/``apply`` kernels.

One tree in preallocated arrays, kept between calls: time budgets are met by running batches of
iterations from Python, and the tree is reused between moves.

``nodes[n, …]`` (int64)
    ``PARENT``; ``ACTION`` (the action leading here); ``FIRST_CHILD``/``NEXT_SIBLING`` (children as a
    linked list, so children are added one per visit and information-set search can add more later);
    ``NODE_TO_MOVE`` (the seat choosing here; ``UNSEEN`` until first reached; ``-1`` once the game is
    over); ``PROVEN`` (MCTS-Solver, two seats: ``UNPROVEN``, ``DRAWN`` or the winning seat);
    ``NUM_LEGAL`` and ``CREATED`` (how many children exist of how many legal actions); ``OFFSET`` and
    ``STRIDE``, which walk the legal actions in a random order without storing it.
``stats[n, …]`` (float64)
    ``VISITS``; ``AVAIL`` (times the node was selectable: information-set search's parent count);
    ``VALUE + seat`` (summed rewards in [0, 1] for every seat: a max-n backup).

Selection is UCT on the chooser's own mean reward (max-n; for two seats, plain UCT); untried
actions come first, one new child per iteration. In paranoid mode every seat but the root's chooses
to minimise the root seat's reward. In information-set mode the root state is a determinisation
that changes between batches: only children legal in it compete, missing ones are added, and
availability counts replace the parent's visits.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, types

from boardlab.core.kernel import (
    APPLY_FN,
    EVALUATE_FN,
    LEGAL_FN,
    MAX_ACTIONS,
    MAX_SEATS,
    SCORE,
    SPEC,
    STATE,
    TO_MOVE,
    random_playout_limited,
)

PARENT = 0
ACTION = 1
FIRST_CHILD = 2
NEXT_SIBLING = 3
NODE_TO_MOVE = 4
PROVEN = 5
NUM_LEGAL = 6
CREATED = 7
OFFSET = 8
STRIDE = 9
NODE_FIELDS = 10

VISITS = 0
AVAIL = 1
VALUE = 2
STAT_FIELDS = VALUE + MAX_SEATS

M_SIZE = 0
M_ROOT = 1
META_FIELDS = 2

P_EXPLORATION = 0
P_SOLVER = 1
P_PARANOID = 2
P_ROOT_SEAT = 3
P_INFOSET = 4
P_SEATS = 5
P_CUTOFF = 6
P_ACTION_LIMIT = 7
PARAM_FIELDS = 8

NONE = -1
UNSEEN = -2
UNPROVEN = -2
DRAWN = -1
MAX_DEPTH = 4096

NODES = types.int64[:, ::1]
STATS = types.float64[:, ::1]
VECTOR = types.int64[::1]
PARAMS = types.float64[::1]


@njit(cache=True)
def new_node(nodes, stats, meta, parent, action):  # type: ignore[no-untyped-def]
    """Append a node (a child of ``parent``, reached by ``action``); -1 when the tree is full."""
    node = meta[M_SIZE]
    if node >= nodes.shape[0]:
        return -1
    meta[M_SIZE] = node + 1
    nodes[node, PARENT] = parent
    nodes[node, ACTION] = action
    nodes[node, FIRST_CHILD] = NONE
    nodes[node, NEXT_SIBLING] = NONE
    nodes[node, NODE_TO_MOVE] = UNSEEN
    nodes[node, PROVEN] = UNPROVEN
    nodes[node, NUM_LEGAL] = -1
    nodes[node, CREATED] = 0
    nodes[node, OFFSET] = 0
    nodes[node, STRIDE] = 1
    stats[node, :] = 0.0
    if parent >= 0:
        nodes[node, NEXT_SIBLING] = nodes[parent, FIRST_CHILD]
        nodes[parent, FIRST_CHILD] = node
        nodes[parent, CREATED] += 1
    return node


@njit(cache=True)
def _gcd(a, b):  # type: ignore[no-untyped-def]
    while b:
        a, b = b, a % b
    return a


@njit(cache=True)
def _first_visit(nodes, node, count):  # type: ignore[no-untyped-def]
    """Fix the node's number of legal actions and a random order to try them in."""
    nodes[node, NUM_LEGAL] = count
    nodes[node, OFFSET] = np.random.randint(count)
    stride = 1
    if count > 2:
        stride = 1 + np.random.randint(count - 1)
        while _gcd(stride, count) != 1:
            stride = 1 + np.random.randint(count - 1)
    nodes[node, STRIDE] = stride


@njit(cache=True)
def _seat_value(stats, node, seat, params):  # type: ignore[no-untyped-def]
    """Mean reward of ``node`` for ``seat``, the seat choosing it (paranoid: the root's loss)."""
    visits = stats[node, VISITS]
    root = np.int64(params[P_ROOT_SEAT])
    if params[P_PARANOID] > 0 and seat != root:
        return 1.0 - stats[node, VALUE + root] / visits
    return stats[node, VALUE + seat] / visits


@njit(cache=True)
def _select(nodes, stats, node, params, mark, stamp):  # type: ignore[no-untyped-def]
    """The child to descend into, by UCT; in information-set mode only children marked legal."""
    seat = nodes[node, NODE_TO_MOVE]
    infoset = params[P_INFOSET] > 0
    solver = params[P_SOLVER] > 0
    log_parent = math.log(max(stats[node, VISITS], 1.0))
    best = -1
    best_score = -1e300
    child = nodes[node, FIRST_CHILD]
    while child >= 0:
        if infoset and mark[nodes[child, ACTION]] != stamp:
            child = nodes[child, NEXT_SIBLING]
            continue
        proven = nodes[child, PROVEN]
        if solver and proven == seat:
            return child  # a proven win: nothing else matters
        visits = stats[child, VISITS]
        if visits == 0:
            score = 1e200 + np.random.random()
        elif solver and proven >= 0:
            score = -1e100 + visits  # a proven loss for the chooser: only when nothing else is left
        else:
            log_count = math.log(max(stats[child, AVAIL], 1.0)) if infoset else log_parent
            score = _seat_value(stats, child, seat, params) + params[P_EXPLORATION] * math.sqrt(log_count / visits)
        if score > best_score:
            best_score = score
            best = child
        child = nodes[child, NEXT_SIBLING]
    return best


@njit(cache=True)
def prove(nodes, node):  # type: ignore[no-untyped-def]
    """MCTS-Solver: settle ``node`` if a child wins for its chooser or every child is settled."""
    seat = nodes[node, NODE_TO_MOVE]
    if seat < 0:
        return
    best = -3  # the chooser's best settled outcome: 1 win, 0 draw, -1 loss
    child = nodes[node, FIRST_CHILD]
    while child >= 0:
        proven = nodes[child, PROVEN]
        if proven == seat:
            nodes[node, PROVEN] = seat
            return
        if proven == UNPROVEN:
            return
        best = max(best, 0 if proven == DRAWN else -1)
        child = nodes[child, NEXT_SIBLING]
    if nodes[node, CREATED] < nodes[node, NUM_LEGAL] or best == -3:
        return
    nodes[node, PROVEN] = DRAWN if best == 0 else 1 - seat


@njit(cache=True)
def _settle_terminal(nodes, state, node, seats):  # type: ignore[no-untyped-def]
    if seats != 2:
        return
    if state[SCORE] == state[SCORE + 1]:
        nodes[node, PROVEN] = DRAWN
    else:
        nodes[node, PROVEN] = 0 if state[SCORE] > state[SCORE + 1] else 1


@njit(cache=True)
def _untried_infoset(nodes, node, mark, stamp, out, count):  # type: ignore[no-untyped-def]
    """A random legal action (marked ``stamp``) without a child yet, or -1; marks stay as they were."""
    child = nodes[node, FIRST_CHILD]
    while child >= 0:
        action = nodes[child, ACTION]
        if mark[action] == stamp:
            mark[action] = -stamp
        child = nodes[child, NEXT_SIBLING]
    missing = 0
    chosen = -1
    for i in range(count):
        if mark[out[i]] == stamp:
            missing += 1
            if np.random.randint(missing) == 0:
                chosen = out[i]
    child = nodes[node, FIRST_CHILD]
    while child >= 0:
        action = nodes[child, ACTION]
        if mark[action] == -stamp:
            mark[action] = stamp
        child = nodes[child, NEXT_SIBLING]
    return chosen


@njit(
    types.int64(LEGAL_FN, APPLY_FN, EVALUATE_FN, STATE, SPEC, NODES, STATS, VECTOR, PARAMS, types.int64),
    cache=True,
)
def search(legal, apply, evaluate, root_state, spec, nodes, stats, meta, params, iterations):  # type: ignore[no-untyped-def]
    """Run up to ``iterations`` iterations from ``meta[M_ROOT]``, whose state is ``root_state``.

    Playouts are random; with ``params[P_CUTOFF] > 0`` they stop after that many plies and the
    game's ``evaluate`` scores the position instead. Returns how many iterations ran: fewer once
    the tree is full or the root is proven.
    """
    seats = np.int64(params[P_SEATS])
    cutoff = np.int64(params[P_CUTOFF])
    solver = params[P_SOLVER] > 0
    infoset = params[P_INFOSET] > 0
    state = np.empty_like(root_state)
    out = np.empty(MAX_ACTIONS, np.int64)
    mark = np.zeros(np.int64(params[P_ACTION_LIMIT]) if infoset else 1, np.int64)
    path = np.empty(MAX_DEPTH + 1, np.int64)
    reward = np.zeros(MAX_SEATS, np.float64)
    root = meta[M_ROOT]
    if nodes[root, NODE_TO_MOVE] == UNSEEN:
        nodes[root, NODE_TO_MOVE] = root_state[TO_MOVE]
    stamp = 0
    done = 0
    while done < iterations:
        if nodes[root, PROVEN] != UNPROVEN or nodes[root, NODE_TO_MOVE] < 0:
            break
        state[:] = root_state
        node = root
        depth = 0
        path[0] = root
        full = False
        # The live state, not the node, says whether the game goes on: under information-set search
        # one node can be a finished game in one determinisation and not in another.
        while state[TO_MOVE] >= 0 and depth < MAX_DEPTH:
            child = -1
            if infoset:
                count = legal(state, spec, out)
                stamp += 1
                for i in range(count):
                    mark[out[i]] = stamp
                action = _untried_infoset(nodes, node, mark, stamp, out, count)
                if action >= 0:
                    child = new_node(nodes, stats, meta, node, action)
                    full = child < 0
                else:
                    walk = nodes[node, FIRST_CHILD]
                    while walk >= 0:
                        if mark[nodes[walk, ACTION]] == stamp:
                            stats[walk, AVAIL] += 1.0
                        walk = nodes[walk, NEXT_SIBLING]
                    child = _select(nodes, stats, node, params, mark, stamp)
            elif nodes[node, CREATED] != nodes[node, NUM_LEGAL]:
                count = legal(state, spec, out)
                if nodes[node, NUM_LEGAL] < 0:
                    _first_visit(nodes, node, count)
                k = nodes[node, CREATED]
                index = (nodes[node, OFFSET] + k * nodes[node, STRIDE]) % count
                child = new_node(nodes, stats, meta, node, out[index])
                full = child < 0
            else:
                child = _select(nodes, stats, node, params, mark, stamp)
            if full or child < 0:
                break
            apply(state, spec, nodes[child, ACTION])
            node = child
            depth += 1
            path[depth] = node
            unseen = nodes[node, NODE_TO_MOVE] == UNSEEN
            if unseen or infoset:
                nodes[node, NODE_TO_MOVE] = state[TO_MOVE]  # the chooser here, in this determinisation
            if unseen:
                if state[TO_MOVE] < 0 and solver:
                    _settle_terminal(nodes, state, node, seats)
                break
        if full:
            break
        if state[TO_MOVE] >= 0:
            random_playout_limited(legal, apply, state, spec, out, cutoff)
        if state[TO_MOVE] >= 0:
            evaluate(state, spec, reward)
        else:
            for seat in range(seats):
                reward[seat] = state[SCORE + seat] / 2.0
        for level in range(depth, -1, -1):
            n = path[level]
            stats[n, VISITS] += 1.0
            for seat in range(seats):
                stats[n, VALUE + seat] += reward[seat]
            if solver and level < depth:
                prove(nodes, n)
        done += 1
    return done
