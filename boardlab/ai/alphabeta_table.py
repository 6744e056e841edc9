"""Alpha-beta with a transposition table: :func:`alphabeta_kernel.search` that remembers its nodes.

Each interior node searched is stored under a key of its state: the value found, whether it is
exact or a bound (the search's window cut it off), the depth searched below it, and the best move.
A node met again (by another order of the same moves, or in the next, deeper iteration of iterative
deepening) is not searched again when its entry is deep enough and its value decides the window;
otherwise its stored best move is tried first, which is where a deeper iteration gains most: the
previous iteration's principal variation, and each refutation it found, come first at every node,
not only at the root.

The key is the game's own position hash where its state keeps one (``key_field``: an index into the
state vector), mixed with the ply so that only positions at the same distance from the root of one
game meet; elsewhere (``key_field`` -1) a hash of the whole state vector, which is exact (a
repetition history or a move counter in the state tells paths apart) but finds fewer transpositions.
Entries are checked against the full 64-bit key, and a colliding one is replaced.

Values are the root seat's chances, as in :mod:`boardlab.ai.alphabeta_kernel`: a node's result is a
lower bound when it reached the window's top (a cut-off), an upper bound when it stayed at or under
the window's bottom, and exact between, whichever side decides there.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from boardlab.ai.alphabeta_kernel import INFINITY, _killer_first, _order_children, _static_value
from boardlab.core.kernel import (
    APPLY_FN,
    EVALUATE_FN,
    LEGAL_FN,
    MAX_ACTIONS,
    MAX_SEATS,
    PLY,
    SPEC,
    STATE,
    TO_MOVE,
    unowned,
)

EXACT = 0
LOWER = 1  # the value is at least the stored one
UPPER = 2  # at most
# Columns of a table's ``info`` rows.
I_DEPTH = 0
I_FLAG = 1
I_MOVE = 2
INFO_FIELDS = 3
DEFAULT_ENTRIES = 1 << 19
_MULTIPLIER = 0x9E3779B97F4A7C15 - (1 << 64)  # the 64-bit golden ratio, as an int64
_PLY_KEY = 0x5851F42D4C957F2D
# A game's test of whether a legal action is noisy (a capture): ``noisy(state, spec, action)``.
NOISY_FN = types.FunctionType(types.boolean(STATE, SPEC, types.int64))


class Table:
    """A transposition table's arrays (``entries`` a power of two), kept between searches."""

    def __init__(self, entries: int = DEFAULT_ENTRIES) -> None:
        if entries < 1 or entries & (entries - 1):
            raise ValueError(f"a transposition table needs a power of two entries, not {entries}")
        # Zeros, which the system hands out untouched until written: an entry is read only where its
        # key matches, and a key is written (never 0) together with the rest of its entry.
        self.keys = np.zeros(entries, np.int64)
        self.info = np.zeros((entries, INFO_FIELDS), np.int64)
        self.values = np.zeros(entries, np.float64)


@njit(types.int64(STATE, types.int64), cache=True)
def position_key(state, key_field):  # type: ignore[no-untyped-def]
    """The table key of ``state``: its own hash at ``key_field`` and its ply, or (-1) all of it."""
    if key_field >= 0:
        key = state[key_field] ^ (state[PLY] * _PLY_KEY)
    else:
        key = 0x2545F4914F6CDD1D
        for i in range(state.shape[0]):
            key = (key ^ state[i]) * _MULTIPLIER
            key ^= key >> 29
    return key if key != 0 else 1  # 0 marks an empty slot


@njit(cache=True)
def _to_front(moves, count, move):  # type: ignore[no-untyped-def]
    """Put ``move`` first, keeping the others in their order (nothing moves if it is not there)."""
    for i in range(count):
        if moves[i] == move:
            for j in range(i, 0, -1):
                moves[j] = moves[j - 1]
            moves[0] = move
            return


@njit(cache=True)
def _report_move(level, value, action, alpha, beta, best, best_move, maximise, values, index):  # type: ignore[no-untyped-def]
    """``alphabeta_kernel._report``, also remembering which move (``action``) gave the node's best."""
    if level == 0:
        values[index[0] - 1] = value
    if maximise[level]:
        if value > best[level]:
            best[level] = value
            best_move[level] = action
        if value > alpha[level]:
            alpha[level] = value
    else:
        if value < best[level]:
            best[level] = value
            best_move[level] = action
        if value < beta[level]:
            beta[level] = value


@njit(types.boolean(STATE, SPEC, types.int64), cache=True)
def no_noisy_moves(state, spec, action):  # type: ignore[no-untyped-def]
    """The noisy-move test of a game that declares none: the quiescence search has nothing to go on with."""
    return False


@njit(types.float64(EVALUATE_FN, STATE, SPEC, types.int64, types.float64[::1], types.float64), cache=True)
def _leaf_value(evaluate, state, spec, seat, chances, contempt):  # type: ignore[no-untyped-def]
    """``_static_value``, a drawn result counted ``contempt`` below a half for the root seat."""
    value = _static_value(evaluate, state, spec, seat, chances)
    if state[TO_MOVE] < 0 and value == 0.5:
        return value - contempt
    return value


@njit(
    types.int64(LEGAL_FN, APPLY_FN, EVALUATE_FN, STATE, SPEC, types.int64, types.int64[::1], types.float64[::1],
                types.int64, types.int64[::1], types.int64[:, ::1], types.float64[::1], types.int64, NOISY_FN,
                types.int64, types.float64),
    cache=True,
)
def search(legal, apply, evaluate, root, spec, depth, order, values, node_limit,  # type: ignore[no-untyped-def]
           keys, info, stored, key_field, noisy, quiescence, contempt):
    """:func:`alphabeta_kernel.search` (same arguments, same result) with the table ``keys``/``info``/
    ``stored`` (a :class:`Table`'s arrays), read and written as it goes, and ``key_field`` as in
    :func:`position_key`.

    With ``quiescence`` > 0 a position at ``depth`` is not scored at once while the side to move has
    a ``noisy`` move (a capture): up to ``quiescence`` plies more, only noisy moves are searched, and
    the side to move may instead stand on the position's evaluation (it need not capture). With
    ``contempt`` > 0 a drawn game counts that much below a half for the root seat, so that the search
    plays on where it is level. Both 0: the plain search's values."""
    seat = root[TO_MOVE]
    length = root.shape[0]
    mask = keys.shape[0] - 1
    levels = depth + quiescence + 1
    # Every array is used through a view that holds no reference (kernel.unowned), as in
    # alphabeta_kernel.search: the arguments are held by the caller for the whole call, the buffers
    # made here by their use after the loop (``alive``). No view leaves this function.
    states_buffer = np.empty((levels, length), np.int64)
    moves_buffer = np.empty((levels, MAX_ACTIONS), np.int64)
    count_buffer = np.zeros(levels, np.int64)
    index_buffer = np.zeros(levels, np.int64)
    alpha_buffer = np.zeros(levels, np.float64)
    beta_buffer = np.zeros(levels, np.float64)
    first_alpha_buffer = np.zeros(levels, np.float64)
    first_beta_buffer = np.zeros(levels, np.float64)
    best_buffer = np.zeros(levels, np.float64)
    best_move_buffer = np.full(levels, -1, np.int64)
    node_key_buffer = np.zeros(levels, np.int64)
    maximise_buffer = np.zeros(levels, np.bool_)
    chances_buffer = np.zeros(MAX_SEATS, np.float64)
    scratch_buffer = np.empty(length, np.int64)
    sort_keys_buffer = np.empty(MAX_ACTIONS, np.float64)
    killer_buffer = np.full(levels, -1, np.int64)
    states = unowned(states_buffer)
    moves = unowned(moves_buffer)
    count = unowned(count_buffer)
    index = unowned(index_buffer)
    alpha = unowned(alpha_buffer)
    beta = unowned(beta_buffer)
    first_alpha = unowned(first_alpha_buffer)
    first_beta = unowned(first_beta_buffer)
    best = unowned(best_buffer)
    best_move = unowned(best_move_buffer)
    node_key = unowned(node_key_buffer)
    maximise = unowned(maximise_buffer)
    chances = unowned(chances_buffer)
    scratch = unowned(scratch_buffer)
    sort_keys = unowned(sort_keys_buffer)
    killer = unowned(killer_buffer)
    root = unowned(root)
    spec = unowned(spec)
    order = unowned(order)
    values = unowned(values)
    keys = unowned(keys)
    info = unowned(info)
    stored = unowned(stored)
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
            value = 0.0
            settled = False
            hint = -1
            if state[TO_MOVE] < 0 or child >= depth:
                value = _leaf_value(evaluate, state, spec, seat, chances, contempt)
                settled = True
                if state[TO_MOVE] >= 0 and child < depth + quiescence:
                    # Quiescence: the noisy moves, if any, against standing on ``value``.
                    found_noisy = 0
                    total = legal(state, spec, moves[child])
                    for i in range(total):
                        if noisy(state, spec, moves[child, i]):
                            moves[child, found_noisy] = moves[child, i]
                            found_noisy += 1
                    standing_maximises = state[TO_MOVE] == seat
                    if found_noisy > 0 and ((standing_maximises and value < beta[level])
                                            or (not standing_maximises and value > alpha[level])):
                        settled = False
                        level = child
                        count[level] = found_noisy
                        index[level] = 0
                        alpha[level], beta[level] = alpha[level - 1], beta[level - 1]
                        maximise[level] = standing_maximises
                        best[level] = value
                        best_move[level] = -1
                        if standing_maximises and value > alpha[level]:
                            alpha[level] = value
                        elif not standing_maximises and value < beta[level]:
                            beta[level] = value
                        continue
            else:
                key = position_key(state, key_field)
                slot = key & mask
                node_key[child] = key
                if keys[slot] == key:
                    hint = info[slot, I_MOVE]
                    if info[slot, I_DEPTH] >= depth - child:
                        flag = info[slot, I_FLAG]
                        found = stored[slot]
                        if (flag == EXACT or (flag == LOWER and found >= beta[level])
                                or (flag == UPPER and found <= alpha[level])):
                            value = found
                            settled = True
            if settled:
                _report_move(level, value, action, alpha, beta, best, best_move, maximise, values, index)
                continue
            level = child
            count[level] = legal(state, spec, moves[level])
            index[level] = 0
            alpha[level], beta[level] = alpha[level - 1], beta[level - 1]
            first_alpha[level], first_beta[level] = alpha[level], beta[level]
            maximise[level] = state[TO_MOVE] == seat
            if depth - level >= 3:
                _order_children(apply, evaluate, state, spec, seat, maximise[level], moves[level], count[level],
                                scratch, sort_keys, chances)
            else:
                _killer_first(moves[level], count[level], killer[level])
            if hint >= 0:
                _to_front(moves[level], count[level], hint)
            best[level] = -INFINITY if maximise[level] else INFINITY
            best_move[level] = -1
            continue
        if level == 0:
            break
        value = best[level]
        if level < depth:  # quiescence nodes are neither killers' nor the table's
            if alpha[level] >= beta[level]:
                killer[level] = moves[level, index[level] - 1]
            if count[level] > 0:
                slot = node_key[level] & mask
                keys[slot] = node_key[level]
                info[slot, I_DEPTH] = depth - level
                info[slot, I_FLAG] = (LOWER if value >= first_beta[level]
                                      else UPPER if value <= first_alpha[level] else EXACT)
                info[slot, I_MOVE] = best_move[level]
                stored[slot] = value
        level -= 1
        _report_move(level, value, moves[level, index[level] - 1], alpha, beta, best, best_move, maximise, values,
                     index)
    alive = (states_buffer.shape[0] + moves_buffer.shape[0] + count_buffer.shape[0] + index_buffer.shape[0]
             + alpha_buffer.shape[0] + beta_buffer.shape[0] + first_alpha_buffer.shape[0]
             + first_beta_buffer.shape[0] + best_buffer.shape[0] + best_move_buffer.shape[0]
             + node_key_buffer.shape[0] + maximise_buffer.shape[0] + chances_buffer.shape[0]
             + scratch_buffer.shape[0] + sort_keys_buffer.shape[0] + killer_buffer.shape[0])
    return nodes + 0 * alive
