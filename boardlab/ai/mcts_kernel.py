"""Monte Carlo tree search in numba, generic over every game's ``legal``/``apply`` kernels.

One tree in preallocated arrays, kept between calls: time budgets are met by running batches of
iterations from Python, and the tree is reused between moves.

``nodes[n, …]`` (int64)
    ``PARENT``; ``ACTION`` (the action leading here); ``FIRST_CHILD``/``NEXT_SIBLING`` (children as a
    linked list, so children are added one per visit and information-set search can add more later);
    ``NODE_TO_MOVE`` (the seat choosing here; ``UNSEEN`` until first reached; ``-1`` once the game is
    over); ``PROVEN`` (MCTS-Solver, two seats: ``UNPROVEN``, ``DRAWN`` or the winning seat);
    ``NUM_LEGAL`` and ``CREATED`` (how many children exist of how many legal actions); ``OFFSET`` and
    ``STRIDE``, which walk the legal actions in a random order without storing it; ``AMAF_ROW`` (the
    node's row of AMAF statistics, or -1); ``HAS_IMPLICIT`` (1 once the node has a minimax value);
    ``HOLDER`` (the node whose children are the choices here: the node itself, except under merged
    hidden moves, below).
``stats[n, …]`` (float64)
    ``VISITS``; ``AVAIL`` (times the node was selectable: information-set search's parent count);
    ``VALUE + seat`` (summed rewards in [0, 1] for every seat: a max-n backup); ``IMPLICIT + seat``
    (the implicit minimax value of the evaluation, every seat's chances).

Selection is UCT on the chooser's own mean reward (max-n; for two seats, plain UCT); untried
actions come first, one new child per iteration. In paranoid mode every seat but the root's chooses
to minimise the root seat's reward. In information-set mode the root state is a determinisation
that changes between batches: only children legal in it compete, missing ones are added, and
availability counts replace the parent's visits.

Enhancements, each off unless its parameter turns it on (plain UCT is the baseline):

Merged hidden moves (information-set search; ``observed``)
    Single-observer information-set MCTS (Cowling, Powley and Whitehouse, "Information Set Monte
    Carlo Tree Search", IEEE TCIAIG 4(2), 2012) keys every node by the action that leads to it, so
    below a move with a hidden part (HMDG's secret target) the next chooser's statistics are kept
    apart for each hidden value: it decides as if it knew it. Their multiple-observer search gives
    each seat a tree of its own observations. This takes the smallest part of that remedy within one
    tree: ``observed[a]`` says what the other seats see of action ``a`` (actions with equal values
    look the same to them), and the children of every node reached by such an action are kept in one
    place, the first sibling's that looks the same (``HOLDER``). Each action keeps its own statistics
    (the mover still picks its whole move); what follows it is shared.

AMAF: RAVE and GRAVE (``P_AMAF``)
    Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015; Gelly and Silver, "Monte-Carlo
    tree search and rapid action value estimation in computer Go", Artificial Intelligence 175 (2011).
    A node's AMAF statistics count, for every (seat, action), the playouts through the node in which
    that seat played that action at any later point (tree or playout part), and their reward for
    it. As in Ludii's ``BackpropagationStrategy`` (GRAVE_STATS), every occurrence counts, and moves of
    both seats are kept, since GRAVE reads a higher node's statistics for either seat's moves. A
    child's value blends its mean with the AMAF mean of its action at the *reference node*: the
    closest node on the path (the node itself included) with more than ``ref`` playouts, the root
    if none has (Ludii's ``McGRAVE``: ``current.numVisits() > ref || current.parent() == null``);
    with ``ref = 0`` that is the node itself, Gelly and Silver's RAVE. The weight is Cazenave's
    ``beta = n_amaf / (n_amaf + n + bias * n_amaf * n)`` (n: the child's playouts). Ludii's MC-GRAVE
    uses ``ref = 100`` and ``bias = 10.0e-6`` (i.e. 1e-5, though its comment says 10^-6), no
    exploration term, and tries every unvisited child first (``QInit.INF``), as this search does.
    Memory: an AMAF row holds ``seats * actions`` pairs of float32, so rows are given out from a
    fixed pool, to a node once it has ``P_AMAF_FROM`` playouts (a quarter of ``ref``; 1 for RAVE):
    a node read as a reference has more than ``ref``, so its row misses at most the first quarter of
    them. When the pool is spent, nodes without a row fall back to the nearest reference above.
MAST and NST playouts (``P_PLAYOUT``)
    Finnsson and Björnsson, "Simulation-Based Approach to General Game Playing", AAAI 2008 (MAST:
    the mean reward of every (seat, action) over all simulations, moves drawn by a Gibbs
    distribution ``exp(Q/tau)``; their ``tau = 10`` on rewards of 0-100 is 0.1 on ours); Tak,
    Winands and Björnsson, "N-Grams and the Last-Good-Reply Policy Applied in General Game
    Playing", IEEE TCIAIG 2012 (NST: the mean of the move's 1-gram and of the 2-gram of the move
    before and it). Ludii's ``MAST``/``NST`` play epsilon-greedy with ``epsilon = 0.1`` and score an
    unseen move 1 (optimistic); both policies are here. NST keeps 2-grams in a hashed table
    (``gram_keys``), the last move of the tree or playout as context.
Implicit minimax backups (``P_IMPLICIT``)
    Lanctot, Winands, Pepels and Sturtevant, "Monte Carlo Tree Search with Heuristic Evaluations
    using Implicit Minimax Backups", IEEE CIG 2014 (arXiv:1406.0486). Every new node stores the
    game's evaluation of its position; on the way back each node on the path takes the value of
    its best child for its chooser (a max-n backup of the evaluation vectors; paranoid: the root
    seat's complement); selection uses ``(1 - alpha) * mean + alpha * v`` in place of the mean.
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
    unowned,
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
AMAF_ROW = 10
HAS_IMPLICIT = 11
HOLDER = 12
NODE_FIELDS = 13

VISITS = 0
AVAIL = 1
VALUE = 2
IMPLICIT = VALUE + MAX_SEATS
STAT_FIELDS = IMPLICIT + MAX_SEATS

M_SIZE = 0
M_ROOT = 1
M_AMAF_USED = 2
META_FIELDS = 3

P_EXPLORATION = 0
P_SOLVER = 1
P_PARANOID = 2
P_ROOT_SEAT = 3
P_INFOSET = 4
P_SEATS = 5
P_CUTOFF = 6
P_ACTION_LIMIT = 7
P_AMAF = 8  # 1: RAVE/GRAVE selection
P_REF = 9  # GRAVE's ref (0: RAVE)
P_BIAS = 10  # GRAVE's bias
P_AMAF_FROM = 11  # playouts a node needs before it gets an AMAF row
P_PLAYOUT = 12  # PLAYOUT_RANDOM, PLAYOUT_MAST or PLAYOUT_NST
P_POLICY = 13  # POLICY_EPSILON or POLICY_GIBBS
P_EPSILON = 14
P_TAU = 15
P_IMPLICIT = 16  # implicit minimax weight alpha (0: off)
P_ACTIONS = 17  # distinct action numbers: the width of the AMAF and MAST tables per seat
PARAM_FIELDS = 18

PLAYOUT_RANDOM = 0
PLAYOUT_MAST = 1
PLAYOUT_NST = 2
POLICY_EPSILON = 0
POLICY_GIBBS = 1

NONE = -1
UNSEEN = -2
UNPROVEN = -2
DRAWN = -1
MAX_DEPTH = 4096
MAX_SEQUENCE = 1 << 16  # moves of one iteration recorded for AMAF, MAST and NST (longer ones: the first)
EMPTY_KEY = -1

NODES = types.int64[:, ::1]
STATS = types.float64[:, ::1]
VECTOR = types.int64[::1]
PARAMS = types.float64[::1]
AMAF_TABLE = types.float32[:, ::1]
HISTORY = types.float64[:, ::1]


def tables(rows: int, seats: int, actions: int, grams: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed AMAF rows, a MAST table and an NST table, as :func:`search` takes them.

    ``rows`` AMAF rows (0 where AMAF is off: one dummy row is made), each ``seats * actions`` pairs
    (count, reward sum); MAST: one (count, sum) per seat and action; NST: ``grams`` hashed slots
    (0: one dummy slot)."""
    amaf = np.zeros((max(rows, 1), 2 * seats * actions if rows else 2), np.float32)
    history = np.zeros((seats * actions, 2), np.float64)
    gram_keys = np.full(max(grams, 1), EMPTY_KEY, np.int64)
    gram_stats = np.zeros((max(grams, 1), 2), np.float64)
    return amaf, history, gram_keys, gram_stats


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
    nodes[node, AMAF_ROW] = NONE
    nodes[node, HAS_IMPLICIT] = 0
    nodes[node, HOLDER] = node
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
def _implicit_value(stats, node, seat, params):  # type: ignore[no-untyped-def]
    """The node's implicit minimax value for ``seat`` choosing it (paranoid: the root's loss)."""
    root = np.int64(params[P_ROOT_SEAT])
    if params[P_PARANOID] > 0 and seat != root:
        return 1.0 - stats[node, IMPLICIT + root]
    return stats[node, IMPLICIT + seat]


@njit(cache=True)
def _criteria(reward, seats, params, out):  # type: ignore[no-untyped-def]
    """What each seat's choices aim at for this reward: its own (max-n), or the root's loss (paranoid)."""
    root = np.int64(params[P_ROOT_SEAT])
    for seat in range(seats):
        if params[P_PARANOID] > 0 and seat != root:
            out[seat] = 1.0 - reward[root]
        else:
            out[seat] = reward[seat]


@njit(cache=True)
def grave_beta(amaf_visits, visits, bias):  # type: ignore[no-untyped-def]
    """Cazenave's weight of the AMAF mean: ``n_amaf / (n_amaf + n + bias * n_amaf * n)`` (0 without AMAF data)."""
    if amaf_visits <= 0.0:
        return 0.0
    return amaf_visits / (amaf_visits + visits + bias * amaf_visits * visits)


@njit(cache=True)
def next_reference(nodes, stats, node, ref, row):  # type: ignore[no-untyped-def]
    """GRAVE's reference on the way down: ``node``'s AMAF row if it has more than ``ref`` playouts (and a
    row), else ``row``, the reference so far (the root's to begin with)."""
    if nodes[node, AMAF_ROW] >= 0 and stats[node, VISITS] > ref:
        return nodes[node, AMAF_ROW]
    return row


@njit(cache=True)
def select(nodes, stats, node, params, mark, stamp, amaf, ref_row):  # type: ignore[no-untyped-def]
    """The child to descend into, by UCT; in information-set mode only children marked legal.

    With AMAF on, a child's mean is blended with its action's AMAF mean in ``amaf[ref_row]``; with
    implicit minimax backups, with its minimax value."""
    seat = nodes[node, NODE_TO_MOVE]
    infoset = params[P_INFOSET] > 0
    solver = params[P_SOLVER] > 0
    alpha = params[P_IMPLICIT]
    bias = params[P_BIAS]
    actions = np.int64(params[P_ACTIONS])
    use_amaf = params[P_AMAF] > 0 and ref_row >= 0
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
            mean = _seat_value(stats, child, seat, params)
            if alpha > 0 and nodes[child, HAS_IMPLICIT] > 0:
                mean = (1.0 - alpha) * mean + alpha * _implicit_value(stats, child, seat, params)
            if use_amaf:
                at = 2 * (seat * actions + nodes[child, ACTION])
                amaf_visits = np.float64(amaf[ref_row, at])
                if amaf_visits > 0:
                    beta = grave_beta(amaf_visits, visits, bias)
                    mean = (1.0 - beta) * mean + beta * np.float64(amaf[ref_row, at + 1]) / amaf_visits
            log_count = math.log(max(stats[child, AVAIL], 1.0)) if infoset else log_parent
            score = mean + params[P_EXPLORATION] * math.sqrt(log_count / visits)
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


@njit(cache=True)
def _gram_slot(gram_keys, key, insert):  # type: ignore[no-untyped-def]
    """The slot of ``key`` in the NST table (open addressing, a few probes), or -1.

    With ``insert`` an empty slot on the way is taken for it; a full neighbourhood drops the key."""
    size = gram_keys.shape[0]
    slot = ((key * 0x5851F42D4C957F2D) >> 17) & 0x3FFFFFFFFFFF  # a multiplicative hash (wraps)
    slot = slot % size
    for _ in range(8):
        found = gram_keys[slot]
        if found == key:
            return slot
        if found == EMPTY_KEY:
            if insert:
                gram_keys[slot] = key
                return slot
            return -1
        slot = slot + 1 if slot + 1 < size else 0
    return -1


@njit(cache=True)
def move_score(history, gram_keys, gram_stats, seat, action, previous, actions, ngrams):  # type: ignore[no-untyped-def]
    """A playout move's score: its MAST mean (unseen: 1, optimistic, as Ludii's MAST and NST), and
    with ``ngrams`` (NST) the mean of that and the 2-gram's mean after ``previous`` where known."""
    at = seat * actions + action
    count = history[at, 0]
    score = history[at, 1] / count if count > 0 else 1.0
    if ngrams and previous >= 0:
        slot = _gram_slot(gram_keys, (at * actions + previous), False)
        if slot >= 0 and gram_stats[slot, 0] > 0:
            score = 0.5 * (score + gram_stats[slot, 1] / gram_stats[slot, 0])
    return score


@njit(cache=True)
def _playout_move(params, history, gram_keys, gram_stats, seat, out, count, previous, weights):  # type: ignore[no-untyped-def]
    """The playout's next action among ``out[:count]``: MAST or NST, epsilon-greedy or Gibbs."""
    actions = np.int64(params[P_ACTIONS])
    ngrams = np.int64(params[P_PLAYOUT]) == PLAYOUT_NST
    if np.int64(params[P_POLICY]) == POLICY_GIBBS:
        tau = params[P_TAU]
        top = -1e300
        for i in range(count):
            weights[i] = move_score(history, gram_keys, gram_stats, seat, out[i], previous, actions, ngrams) / tau
            top = max(top, weights[i])
        total = 0.0
        for i in range(count):
            weights[i] = math.exp(weights[i] - top)
            total += weights[i]
        pick = np.random.random() * total
        for i in range(count):
            pick -= weights[i]
            if pick <= 0.0:
                return out[i]
        return out[count - 1]
    if np.random.random() < params[P_EPSILON]:
        return out[np.random.randint(count)]
    best = out[0]
    best_score = -1e300
    ties = 0
    for i in range(count):
        score = move_score(history, gram_keys, gram_stats, seat, out[i], previous, actions, ngrams)
        if score > best_score:
            best_score = score
            best = out[i]
            ties = 1
        elif score == best_score:
            ties += 1
            if np.random.randint(ties) == 0:
                best = out[i]
    return best


@njit(cache=True)
def backup_implicit(nodes, stats, path, depth, params, seats):  # type: ignore[no-untyped-def]
    """Each node above the leaf takes its best child's minimax value for its chooser (max-n)."""
    for level in range(depth - 1, -1, -1):
        node = path[level]
        seat = nodes[node, NODE_TO_MOVE]
        if seat < 0:
            continue
        best = -1
        best_value = -1e300
        child = nodes[node, FIRST_CHILD]
        while child >= 0:
            if nodes[child, HAS_IMPLICIT] > 0:
                value = _implicit_value(stats, child, seat, params)
                if value > best_value:
                    best_value = value
                    best = child
            child = nodes[child, NEXT_SIBLING]
        if best < 0:
            return
        for s in range(seats):
            stats[node, IMPLICIT + s] = stats[best, IMPLICIT + s]
        nodes[node, HAS_IMPLICIT] = 1


@njit(cache=True)
def _take_amaf_row(nodes, meta, amaf, node):  # type: ignore[no-untyped-def]
    """Give ``node`` a zeroed AMAF row from the pool; -1 when the pool is spent."""
    row = meta[M_AMAF_USED]
    if row >= amaf.shape[0]:
        return -1
    meta[M_AMAF_USED] = row + 1
    amaf[row, :] = 0.0
    nodes[node, AMAF_ROW] = row
    return row


@njit(cache=True)
def share_hidden(nodes, node, observed):  # type: ignore[no-untyped-def]
    """Give the new ``node`` the holder of an older sibling whose action looks the same to the other seats."""
    action = nodes[node, ACTION]
    if action >= observed.shape[0] or observed[action] == action:
        return
    sibling = nodes[node, NEXT_SIBLING]  # older siblings: a new node is put first
    while sibling >= 0:
        if observed[nodes[sibling, ACTION]] == observed[action]:
            nodes[node, HOLDER] = nodes[sibling, HOLDER]
            return
        sibling = nodes[sibling, NEXT_SIBLING]


@njit(
    types.int64(LEGAL_FN, APPLY_FN, EVALUATE_FN, STATE, SPEC, NODES, STATS, VECTOR, PARAMS, types.int64,
                AMAF_TABLE, HISTORY, VECTOR, HISTORY, VECTOR),
    cache=True,
)
def search(legal, apply, evaluate, root_state, spec, nodes, stats, meta, params, iterations,  # type: ignore[no-untyped-def]
           amaf, history, gram_keys, gram_stats, observed):
    """Run up to ``iterations`` iterations from ``meta[M_ROOT]``, whose state is ``root_state``.

    Playouts are random (or MAST/NST); with ``params[P_CUTOFF] > 0`` they stop after that many plies
    and the game's ``evaluate`` scores the position instead. ``amaf``, ``history`` and
    ``gram_keys``/``gram_stats`` are the AMAF row pool and the MAST and NST tables (:func:`tables`).
    ``observed`` (information-set search): what the other seats see of each action, to merge what
    follows the actions they cannot tell apart (empty: nothing merged).
    Returns how many iterations ran: fewer once the tree is full or the root is proven.
    """
    seats = np.int64(params[P_SEATS])
    cutoff = np.int64(params[P_CUTOFF])
    solver = params[P_SOLVER] > 0
    infoset = params[P_INFOSET] > 0
    merging = infoset and observed.shape[0] > 0
    use_amaf = params[P_AMAF] > 0
    ref = params[P_REF]
    amaf_from = params[P_AMAF_FROM]
    playout_kind = np.int64(params[P_PLAYOUT])
    implicit = params[P_IMPLICIT] > 0 and not infoset
    actions = np.int64(params[P_ACTIONS])
    recording = use_amaf or playout_kind != PLAYOUT_RANDOM
    # From here on every array is used through a view that holds no reference (kernel.unowned):
    # each call to a numba function not inlined (the game's kernels, the helpers here) would
    # otherwise increment and decrement each array argument atomically. The arguments are held by
    # the caller for the whole call; the buffers made here are kept alive by their use after the
    # loop (``alive``). No view leaves this function.
    state_buffer = np.empty_like(root_state)
    out_buffer = np.empty(MAX_ACTIONS, np.int64)
    weights_buffer = np.empty(MAX_ACTIONS, np.float64)
    mark_buffer = np.zeros(np.int64(params[P_ACTION_LIMIT]) if infoset else 1, np.int64)
    path_buffer = np.empty(MAX_DEPTH + 1, np.int64)
    reward_buffer = np.zeros(MAX_SEATS, np.float64)
    criteria_buffer = np.zeros(MAX_SEATS, np.float64)
    chances_buffer = np.zeros(MAX_SEATS, np.float64)
    sequence_seat_buffer = np.empty(MAX_SEQUENCE if recording else 1, np.int64)
    sequence_action_buffer = np.empty(MAX_SEQUENCE if recording else 1, np.int64)
    state = unowned(state_buffer)
    out = unowned(out_buffer)
    weights = unowned(weights_buffer)
    mark = unowned(mark_buffer)
    path = unowned(path_buffer)
    reward = unowned(reward_buffer)
    criteria = unowned(criteria_buffer)
    chances = unowned(chances_buffer)
    sequence_seat = unowned(sequence_seat_buffer)
    sequence_action = unowned(sequence_action_buffer)
    root_state = unowned(root_state)
    spec = unowned(spec)
    nodes = unowned(nodes)
    stats = unowned(stats)
    meta = unowned(meta)
    params = unowned(params)
    amaf = unowned(amaf)
    history = unowned(history)
    gram_keys = unowned(gram_keys)
    gram_stats = unowned(gram_stats)
    observed = unowned(observed)
    size = root_state.shape[0]
    root = meta[M_ROOT]
    if nodes[root, NODE_TO_MOVE] == UNSEEN:
        nodes[root, NODE_TO_MOVE] = root_state[TO_MOVE]
    if use_amaf and nodes[root, AMAF_ROW] < 0:
        _take_amaf_row(nodes, meta, amaf, root)  # the reference of last resort
    if implicit and nodes[root, HAS_IMPLICIT] == 0 and root_state[TO_MOVE] >= 0:
        evaluate(root_state, spec, chances)
        for seat in range(seats):
            stats[root, IMPLICIT + seat] = chances[seat]
        nodes[root, HAS_IMPLICIT] = 1
    stamp = 0
    done = 0
    while done < iterations:
        if nodes[root, PROVEN] != UNPROVEN or nodes[root, NODE_TO_MOVE] < 0:
            break
        for i in range(size):  # a loop: numba's slice assignment checks for overlap, and costs
            state[i] = root_state[i]
        node = root
        depth = 0
        path[0] = root
        length = 0
        ref_row = nodes[root, AMAF_ROW]
        full = False
        created = False
        # The live state, not the node, says whether the game goes on: under information-set search
        # one node can be a finished game in one determinisation and not in another.
        while state[TO_MOVE] >= 0 and depth < MAX_DEPTH:
            if use_amaf:
                ref_row = next_reference(nodes, stats, node, ref, ref_row)
            child = -1
            if infoset:
                here = nodes[node, HOLDER]
                count = legal(state, spec, out)
                stamp += 1
                for i in range(count):
                    mark[out[i]] = stamp
                action = _untried_infoset(nodes, here, mark, stamp, out, count)
                if action >= 0:
                    child = new_node(nodes, stats, meta, here, action)
                    full = child < 0
                    if merging and not full:
                        share_hidden(nodes, child, observed)
                else:
                    walk = nodes[here, FIRST_CHILD]
                    while walk >= 0:
                        if mark[nodes[walk, ACTION]] == stamp:
                            stats[walk, AVAIL] += 1.0
                        walk = nodes[walk, NEXT_SIBLING]
                    child = select(nodes, stats, here, params, mark, stamp, amaf, ref_row)
            elif nodes[node, CREATED] != nodes[node, NUM_LEGAL]:
                count = legal(state, spec, out)
                if nodes[node, NUM_LEGAL] < 0:
                    _first_visit(nodes, node, count)
                k = nodes[node, CREATED]
                index = (nodes[node, OFFSET] + k * nodes[node, STRIDE]) % count
                child = new_node(nodes, stats, meta, node, out[index])
                full = child < 0
            else:
                child = select(nodes, stats, node, params, mark, stamp, amaf, ref_row)
            if full or child < 0:
                break
            if recording and length < MAX_SEQUENCE:
                sequence_seat[length] = state[TO_MOVE]
                sequence_action[length] = nodes[child, ACTION]
                length += 1
            apply(state, spec, nodes[child, ACTION])
            node = child
            depth += 1
            path[depth] = node
            unseen = nodes[node, NODE_TO_MOVE] == UNSEEN
            if unseen or infoset:
                nodes[node, NODE_TO_MOVE] = state[TO_MOVE]  # the chooser here, in this determinisation
                nodes[nodes[node, HOLDER], NODE_TO_MOVE] = state[TO_MOVE]
            if unseen:
                created = True
                if state[TO_MOVE] < 0 and solver:
                    _settle_terminal(nodes, state, node, seats)
                break
        if full:
            break
        if implicit and created:
            if state[TO_MOVE] >= 0:
                evaluate(state, spec, chances)
            else:
                for seat in range(seats):
                    chances[seat] = state[SCORE + seat] / 2.0
            for seat in range(seats):
                stats[node, IMPLICIT + seat] = chances[seat]
            nodes[node, HAS_IMPLICIT] = 1
            backup_implicit(nodes, stats, path, depth, params, seats)
        if state[TO_MOVE] >= 0:
            if recording:
                plies = 0
                while state[TO_MOVE] >= 0 and (cutoff == 0 or plies < cutoff):
                    count = legal(state, spec, out)
                    mover = state[TO_MOVE]
                    if playout_kind == PLAYOUT_RANDOM:
                        action = out[np.random.randint(count)]
                    else:
                        previous = sequence_action[length - 1] if length > 0 else -1
                        action = _playout_move(params, history, gram_keys, gram_stats, mover, out, count,
                                               previous, weights)
                    apply(state, spec, action)
                    if length < MAX_SEQUENCE:
                        sequence_seat[length] = mover
                        sequence_action[length] = action
                        length += 1
                    plies += 1
            else:
                random_playout_limited(legal, apply, state, spec, out, cutoff)
        if state[TO_MOVE] >= 0:
            evaluate(state, spec, reward)
        else:
            for seat in range(seats):
                reward[seat] = state[SCORE + seat] / 2.0
        if recording:
            _criteria(reward, seats, params, criteria)
        for level in range(depth, -1, -1):
            n = path[level]
            stats[n, VISITS] += 1.0
            for seat in range(seats):
                stats[n, VALUE + seat] += reward[seat]
            if use_amaf:
                row = nodes[n, AMAF_ROW]
                if row < 0 and stats[n, VISITS] >= amaf_from:
                    row = _take_amaf_row(nodes, meta, amaf, n)
                if row >= 0:
                    # The moves from this node on: the tree's from its depth, then the playout's.
                    for i in range(level, length):
                        at = 2 * (sequence_seat[i] * actions + sequence_action[i])
                        amaf[row, at] += 1.0
                        amaf[row, at + 1] += criteria[sequence_seat[i]]
            if solver and level < depth:
                prove(nodes, n)
        if playout_kind != PLAYOUT_RANDOM:
            for i in range(length):
                at = sequence_seat[i] * actions + sequence_action[i]
                history[at, 0] += 1.0
                history[at, 1] += criteria[sequence_seat[i]]
                if playout_kind == PLAYOUT_NST and i > 0:
                    slot = _gram_slot(gram_keys, at * actions + sequence_action[i - 1], True)
                    if slot >= 0:
                        gram_stats[slot, 0] += 1.0
                        gram_stats[slot, 1] += criteria[sequence_seat[i]]
        done += 1
    alive = (state_buffer.shape[0] + out_buffer.shape[0] + weights_buffer.shape[0] + mark_buffer.shape[0]
             + path_buffer.shape[0] + reward_buffer.shape[0] + criteria_buffer.shape[0] + chances_buffer.shape[0]
             + sequence_seat_buffer.shape[0] + sequence_action_buffer.shape[0])
    return done + 0 * alive
