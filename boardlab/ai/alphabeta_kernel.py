"""Depth-limited alpha-beta in numba, generic over a game's ``legal``/``apply``/``evaluate`` kernels.

Minimax from the root seat's point of view: a node where the root seat decides maximises, any other
minimises, so turns of several steps need no special case. Leaves are scored by the game's
``evaluate`` (the root seat's chances, in [0, 1]); finished games by their result. The search runs
without recursion (numba cannot cache recursive functions), on an explicit stack of frames.

Moves are tried best guess first, which changes how much is pruned, never a value: at nodes three
or more plies above the leaves, by each child's evaluation; nearer the leaves, where that would cost
more than it saves, the move that last cut off a search at the same depth (a killer move) first.
``bench/alphabeta_depth.py`` measures the nodes and seconds each depth takes.
"""

from __future__ import annotations

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
    unowned,
)

MAX_DEPTH = 64
INFINITY = 1e9


@njit(cache=True)
def _report(level, value, alpha, beta, best, maximise, values, index):  # type: ignore[no-untyped-def]
    """A child of the node at ``level`` is worth ``value``: update the node's best and window."""
    if level == 0:
        values[index[0] - 1] = value
    if maximise[level]:
        if value > best[level]:
            best[level] = value
        if value > alpha[level]:
            alpha[level] = value
    else:
        if value < best[level]:
            best[level] = value
        if value < beta[level]:
            beta[level] = value


@njit(types.float64(EVALUATE_FN, STATE, SPEC, types.int64, types.float64[::1]), cache=True)
def _static_value(evaluate, state, spec, seat, chances):  # type: ignore[no-untyped-def]
    """``seat``'s chances at ``state`` without searching: its result if the game is over, else the
    evaluation's (``chances`` is scratch space for it)."""
    if state[TO_MOVE] < 0:
        return state[SCORE + seat] / 2.0
    evaluate(state, spec, chances)
    return chances[seat]


@njit(
    types.void(APPLY_FN, EVALUATE_FN, STATE, SPEC, types.int64, types.boolean, types.int64[::1], types.int64, STATE,
               types.float64[::1], types.float64[::1]),
    cache=True,
)
def _order_children(apply, evaluate, state, spec, seat, maximise, moves, count, scratch, keys, chances):  # type: ignore[no-untyped-def]
    """Sort ``moves[:count]`` best first for the side deciding at ``state``, by each child's evaluation.

    Alpha-beta cuts off most when the best move comes first; ordering by a one-ply look costs one
    evaluation per child, against the many leaves below each child that a cut-off saves.
    """
    for i in range(count):
        scratch[:] = state
        apply(scratch, spec, moves[i])
        value = _static_value(evaluate, scratch, spec, seat, chances)
        keys[i] = value if maximise else -value
    for i in range(1, count):  # insertion sort, descending by key: move lists are short
        key = keys[i]
        move = moves[i]
        j = i - 1
        while j >= 0 and keys[j] < key:
            keys[j + 1] = keys[j]
            moves[j + 1] = moves[j]
            j -= 1
        keys[j + 1] = key
        moves[j + 1] = move


@njit(cache=True)
def _killer_first(moves, count, killer):  # type: ignore[no-untyped-def]
    """Move ``killer`` (the last move that cut off a sibling's search at this depth) to the front."""
    for i in range(count):
        if moves[i] == killer:
            moves[i] = moves[0]
            moves[0] = killer
            return


@njit(
    types.int64(LEGAL_FN, APPLY_FN, EVALUATE_FN, STATE, SPEC, types.int64, types.int64[::1], types.float64[::1],
                types.int64),
    cache=True,
)
def search(legal, apply, evaluate, root, spec, depth, order, values, node_limit):  # type: ignore[no-untyped-def]
    """Search ``depth`` plies below ``root``; write each root action's value into ``values``.

    ``order`` lists the root actions to try, best guess first (its length is the number of root
    actions). Returns the nodes visited, or -1 if ``node_limit`` was reached first (the values are
    then incomplete). A root action cut off by pruning gets a bound, not its exact value; the best
    one's value is exact.
    """
    seat = root[TO_MOVE]
    length = root.shape[0]
    # Every array is used through a view that holds no reference (kernel.unowned): each call to a
    # numba function not inlined (the game's kernels, the helpers here) would otherwise increment
    # and decrement each array argument atomically. The arguments are held by the caller for the
    # whole call; the buffers made here are kept alive by their use after the loop (``alive``).
    # No view leaves this function.
    states_buffer = np.empty((depth + 1, length), np.int64)
    moves_buffer = np.empty((depth + 1, MAX_ACTIONS), np.int64)
    count_buffer = np.zeros(depth + 1, np.int64)
    index_buffer = np.zeros(depth + 1, np.int64)
    alpha_buffer = np.zeros(depth + 1, np.float64)
    beta_buffer = np.zeros(depth + 1, np.float64)
    best_buffer = np.zeros(depth + 1, np.float64)
    maximise_buffer = np.zeros(depth + 1, np.bool_)
    chances_buffer = np.zeros(MAX_SEATS, np.float64)
    scratch_buffer = np.empty(length, np.int64)
    keys_buffer = np.empty(MAX_ACTIONS, np.float64)
    killer_buffer = np.full(depth + 1, -1, np.int64)
    states = unowned(states_buffer)
    moves = unowned(moves_buffer)
    count = unowned(count_buffer)
    index = unowned(index_buffer)
    alpha = unowned(alpha_buffer)
    beta = unowned(beta_buffer)
    best = unowned(best_buffer)
    maximise = unowned(maximise_buffer)
    chances = unowned(chances_buffer)
    scratch = unowned(scratch_buffer)
    keys = unowned(keys_buffer)
    killer = unowned(killer_buffer)
    root = unowned(root)
    spec = unowned(spec)
    order = unowned(order)
    values = unowned(values)
    states[0, :] = root
    count[0] = order.shape[0]
    for i in range(count[0]):
        moves[0, i] = order[i]
    alpha[0], beta[0] = -INFINITY, INFINITY
    maximise[0] = True
    best[0] = -INFINITY
    nodes = 1
    level = 0
    while True:
        if index[level] < count[level] and alpha[level] < beta[level]:
            action = moves[level, index[level]]
            index[level] += 1
            child = level + 1
            states[child, :] = states[level, :]
            apply(states[child], spec, action)
            nodes += 1
            if nodes > node_limit:
                nodes = -1
                break
            state = states[child]
            if state[TO_MOVE] < 0 or child == depth:
                value = _static_value(evaluate, state, spec, seat, chances)
                _report(level, value, alpha, beta, best, maximise, values, index)
                continue
            level = child
            count[level] = legal(state, spec, moves[level])
            index[level] = 0
            alpha[level], beta[level] = alpha[level - 1], beta[level - 1]
            maximise[level] = state[TO_MOVE] == seat
            if depth - level >= 3:
                _order_children(apply, evaluate, state, spec, seat, maximise[level], moves[level], count[level],
                                scratch, keys, chances)
            else:
                _killer_first(moves[level], count[level], killer[level])
            best[level] = -INFINITY if maximise[level] else INFINITY
            continue
        if level == 0:
            break
        if alpha[level] >= beta[level]:
            killer[level] = moves[level, index[level] - 1]
        value = best[level]
        level -= 1
        _report(level, value, alpha, beta, best, maximise, values, index)
    alive = (states_buffer.shape[0] + moves_buffer.shape[0] + count_buffer.shape[0] + index_buffer.shape[0]
             + alpha_buffer.shape[0] + beta_buffer.shape[0] + best_buffer.shape[0] + maximise_buffer.shape[0]
             + chances_buffer.shape[0] + scratch_buffer.shape[0] + keys_buffer.shape[0] + killer_buffer.shape[0])
    return nodes + 0 * alive
