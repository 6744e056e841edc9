"""GTBM's rules as numba kernels over a state vector (the rules are in the package docstring).

Cells are numbered as ``topology.square(N)`` numbers them: row 0 at the top (White's home rank N),
so ``cell = (N - rank) * N + file``. Black (side 0) moves up the board, White (side 1) down.

Spec vector (options and tables, built by ``face.Gtbm.build_spec``)::

    S_SIZE S_CELLS S_REACH S_MANDATORY S_STUCK S_REPETITION S_LIMIT S_ADJUDICATION
    S_NEIGH   -> cells x 8 neighbour table (-1 off board), directions as topology.SQUARE_DIRECTIONS
    S_ZOBRIST -> 2 keys per cell (Black, White), then the key for "White to move"
    S_PIECES, S_PLACE, S_HIST, S_STATE_LEN: where the state's regions start (and its length)
    S_STEPS + 3 * side + k: the direction of step k for that side (k: 0 diagonal toward file a,
              1 diagonal toward the last file, 2 straight back)

State vector, after the common header of ``boardlab.core.kernel``::

    F_SIDE        side to move (0 Black, 1 White); kept when the game ends
    F_HASH        Zobrist hash of the pieces and the side to move
    F_QUIET       plies since the last capture (G6's no-capture limit)
    F_HIST_LEN    hashes in the history: the positions since the last capture (or the set-up)
    F_COUNT + s   pieces of side s
    F_ADV + s     side s's advancement: the sum of its pieces' ranks counted from its own home row
    F_LOW/F_HIGH + s   the least and greatest F_ADV + s over the history: a position whose
                  advancement is new cannot repeat, so only then is the history scanned
    BOARD         one value per cell: 0 empty, 1 Black, 2 White
    pieces        side s's cells in ``pieces + s * N``, in any order; ``place`` gives each one's index
    history       the hash after each ply since the last capture (captures cannot be undone)

Actions: ``cell * 3 + k`` moves the piece on ``cell`` by step ``k``.
"""

from __future__ import annotations

import math

from numba import njit, types

from boardlab.core.kernel import (
    APPLY_SIG,
    EVALUATE_SIG,
    LEGAL_SIG,
    PLY,
    SPEC,
    STATE,
    TO_MOVE,
    occurs_twice,
    set_add,
    set_discard,
)
from boardlab.core.kernel import finish_two_seats as finish
from boardlab.core.layout import StateLayout
from boardlab.core.planes import PLANES_SIG
from boardlab.core.turns import DESCRIBE_SIG, TURN_ENDS, compile_turns

S_SIZE = 0
S_CELLS = 1
S_REACH = 2
S_MANDATORY = 3
S_STUCK = 4
S_REPETITION = 5
S_LIMIT = 6
S_ADJUDICATION = 7
S_NEIGH = 8
S_ZOBRIST = 9
S_PIECES = 10
S_PLACE = 11
S_HIST = 12
S_STATE_LEN = 13
S_STEPS = 16
SPEC_HEADER = 24

REACH_ADJACENT = 0
REACH_COLUMN = 1
REACH_DIAGONAL_ALSO = 2
STUCK_START_OF_TURN = 0
STUCK_BOTH_AFTER_EACH_MOVE = 1
ADJUDICATE_DRAW = 0
ADJUDICATE_MOST_PIECES = 1

# topology.SQUARE_DIRECTIONS: N, E, S, W, NE, SE, SW, NW
EAST = 1
WEST = 3
STEP_DIRECTIONS = ((7, 4, 2), (6, 5, 0))  # Black: NW NE S; White: SW SE N
BACK = 2

LAYOUT = StateLayout("gtbm", total=S_STATE_LEN,
                    lengths=lambda spec: region_lengths(int(spec[S_SIZE]), int(spec[S_LIMIT])))
F_SIDE, F_HASH, F_QUIET, F_HIST_LEN = LAYOUT.several("F_SIDE", "F_HASH", "F_QUIET", "F_HIST_LEN")
F_COUNT = LAYOUT.field("F_COUNT", 2)  # + side
F_ADV, F_LOW, F_HIGH = LAYOUT.several("F_ADV", "F_LOW", "F_HIGH", length=2)
BOARD = LAYOUT.sized("BOARD")
LAYOUT.regions({"pieces": S_PIECES, "place": S_PLACE, "history": S_HIST})

EMPTY = 0

REASON_NO_MOVE = 1
REASON_ALL_CAPTURED = 2
REASON_NEITHER_CAN_MOVE = 3
REASON_REPETITION = 4
REASON_LIMIT = 5


def region_lengths(size: int, limit: int) -> dict[str, int]:
    """The length of the board and of each region after it (``limit``: the no-capture limit)."""
    cells = size * size
    return {"BOARD": cells, "pieces": 2 * size, "place": cells, "history": limit + 1}


def layout(size: int, limit: int) -> dict[int, int]:
    """Where each state region starts, keyed by its spec field; ``S_STATE_LEN`` is the length."""
    return LAYOUT.place(region_lengths(size, limit))


@njit(cache=True)
def advancement(spec, side, cell):  # type: ignore[no-untyped-def]
    """How many ranks ``cell`` lies in front of ``side``'s home row."""
    size = spec[S_SIZE]
    row = cell // size
    return size - 1 - row if side == 0 else row


@njit(cache=True)
def place_piece(state, spec, cell, side):  # type: ignore[no-untyped-def]
    """Put a piece of ``side`` on the empty ``cell``, keeping the lists, counts and hash."""
    set_add(state, spec[S_PIECES] + side * spec[S_SIZE], spec[S_PLACE], F_COUNT + side, cell)
    state[BOARD + cell] = side + 1
    state[F_HASH] ^= spec[spec[S_ZOBRIST] + 2 * cell + side]
    state[F_ADV + side] += advancement(spec, side, cell)


@njit(cache=True)
def _remove_piece(state, spec, cell):  # type: ignore[no-untyped-def]
    side = state[BOARD + cell] - 1
    set_discard(state, spec[S_PIECES] + side * spec[S_SIZE], spec[S_PLACE], F_COUNT + side, cell)
    state[BOARD + cell] = EMPTY
    state[F_HASH] ^= spec[spec[S_ZOBRIST] + 2 * cell + side]
    state[F_ADV + side] -= advancement(spec, side, cell)


@njit(cache=True)
def has_move(state, spec, side):  # type: ignore[no-untyped-def]
    """Whether ``side`` has a legal move (whoever is to move): a step onto an empty square."""
    neigh = spec[S_NEIGH]
    pieces = spec[S_PIECES] + side * spec[S_SIZE]
    steps = S_STEPS + 3 * side
    for i in range(state[F_COUNT + side]):
        base = neigh + 8 * state[pieces + i]
        for k in range(3):
            to = spec[base + spec[steps + k]]
            if to >= 0 and state[BOARD + to] == EMPTY:
                return True
    return False


@njit(cache=True)
def first_capture(state, spec, side, cell, k):  # type: ignore[no-untyped-def]
    """The cell of the enemy piece that diagonal step ``k`` of ``side`` from ``cell`` takes, else -1 (G1)."""
    neigh = spec[S_NEIGH]
    beside = spec[neigh + 8 * cell + (WEST if k == 0 else EAST)]
    enemy = 2 - side
    if spec[S_REACH] != REACH_COLUMN:
        return beside if state[BOARD + beside] == enemy else -1
    back = spec[S_STEPS + 3 * side + BACK]
    at = beside
    while at >= 0 and state[BOARD + at] == EMPTY:
        at = spec[neigh + 8 * at + back]
    if at >= 0 and state[BOARD + at] == enemy:
        return at
    return -1


@njit(cache=True)
def second_capture(state, spec, side, cell, k):  # type: ignore[no-untyped-def]
    """With ``capture_reach=diagonal_also``: the enemy two files beside ``cell`` that step ``k`` takes, else -1."""
    if spec[S_REACH] != REACH_DIAGONAL_ALSO:
        return -1
    neigh = spec[S_NEIGH]
    direction = WEST if k == 0 else EAST
    beside = spec[neigh + 8 * cell + direction]
    further = spec[neigh + 8 * beside + direction]
    if further >= 0 and state[BOARD + further] == 2 - side:
        return further
    return -1


@njit(cache=True)
def captures(state, spec, side, cell, k):  # type: ignore[no-untyped-def]
    """Whether step ``k`` of ``side``'s piece on ``cell`` (onto an empty square) takes anything."""
    if k == BACK:
        return False
    return first_capture(state, spec, side, cell, k) >= 0 or second_capture(state, spec, side, cell, k) >= 0


@njit(types.boolean(STATE, SPEC, types.int64), cache=True)
def is_capture(state, spec, action):  # type: ignore[no-untyped-def]
    """Whether legal ``action`` takes a piece: the moves alpha-beta's quiescence search goes on with."""
    cell = action // 3
    return captures(state, spec, state[F_SIDE], cell, action - 3 * cell)


@njit(cache=True)
def stuck_outcome(state, spec):  # type: ignore[no-untyped-def]
    """G5 on the position as it stands: ``(winner, reason)``; reason 0 while both may play on.

    ``winner`` is a side (the seat), or -1 for a draw.
    """
    to_move = state[F_SIDE]
    other = 1 - to_move
    mover_can = has_move(state, spec, to_move)
    if spec[S_STUCK] == STUCK_START_OF_TURN and mover_can:
        return -1, 0
    other_can = has_move(state, spec, other)
    if mover_can and other_can:
        return -1, 0
    if not mover_can and not other_can:
        return -1, REASON_NEITHER_CAN_MOVE
    loser = to_move if not mover_can else other
    reason = REASON_ALL_CAPTURED if state[F_COUNT + loser] == 0 else REASON_NO_MOVE
    return 1 - loser, reason


@njit(cache=True)
def limit_winner(state, spec):  # type: ignore[no-untyped-def]
    """Who wins when the no-capture limit ends the game (-1: a draw)."""
    if spec[S_ADJUDICATION] == ADJUDICATE_MOST_PIECES:
        black, white = state[F_COUNT], state[F_COUNT + 1]
        if black != white:
            return 0 if black > white else 1
    return -1


@njit(cache=True)
def _repeats_twice(state, spec):  # type: ignore[no-untyped-def]
    """Whether the newest hash in the history occurs twice before it (threefold repetition)."""
    hist = spec[S_HIST]
    newest = state[F_HIST_LEN] - 1
    return occurs_twice(state, state[hist + newest], hist + newest - 2, hist)


@njit(cache=True)
def start_history(state, spec):  # type: ignore[no-untyped-def]
    """Forget earlier positions: the history holds only the current one."""
    state[spec[S_HIST]] = state[F_HASH]
    state[F_HIST_LEN] = 1
    for side in range(2):
        state[F_LOW + side] = state[F_ADV + side]
        state[F_HIGH + side] = state[F_ADV + side]


@njit(APPLY_SIG, cache=True)
def apply(state, spec, action):  # type: ignore[no-untyped-def]
    """Play ``action`` for the side to move (it must be legal) and settle the result (G1, G5, G6)."""
    side = state[F_SIDE]
    cell = action // 3
    k = action - 3 * cell
    to = spec[spec[S_NEIGH] + 8 * cell + spec[S_STEPS + 3 * side + k]]
    taken = -1
    taken_too = -1
    if k != BACK:
        taken = first_capture(state, spec, side, cell, k)
        taken_too = second_capture(state, spec, side, cell, k)
    keys = spec[S_ZOBRIST]
    at = state[spec[S_PLACE] + cell]
    state[spec[S_PIECES] + side * spec[S_SIZE] + at] = to
    state[spec[S_PLACE] + to] = at
    state[BOARD + cell] = EMPTY
    state[BOARD + to] = side + 1
    state[F_HASH] ^= spec[keys + 2 * cell + side] ^ spec[keys + 2 * to + side] ^ spec[keys + 2 * spec[S_CELLS]]
    adv = state[F_ADV + side] + (1 if k != BACK else -1)
    state[F_ADV + side] = adv
    captured = taken >= 0 or taken_too >= 0
    if taken >= 0:
        _remove_piece(state, spec, taken)
    if taken_too >= 0:
        _remove_piece(state, spec, taken_too)
    state[F_SIDE] = 1 - side
    state[PLY] += 1
    fresh = True
    if captured:
        state[F_QUIET] = 0
        start_history(state, spec)
    else:
        state[F_QUIET] += 1
        length = state[F_HIST_LEN]
        state[spec[S_HIST] + length] = state[F_HASH]
        state[F_HIST_LEN] = length + 1
        if adv > state[F_HIGH + side]:
            state[F_HIGH + side] = adv
        elif adv < state[F_LOW + side]:
            state[F_LOW + side] = adv
        else:
            fresh = False
    winner, reason = stuck_outcome(state, spec)
    if reason != 0:
        finish(state, winner, reason)
    elif not fresh and spec[S_REPETITION] != 0 and _repeats_twice(state, spec):
        finish(state, -1, REASON_REPETITION)
    elif state[F_QUIET] >= spec[S_LIMIT]:
        finish(state, limit_winner(state, spec), REASON_LIMIT)
    else:
        state[TO_MOVE] = 1 - side


@njit(LEGAL_SIG, cache=True)
def legal(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the legal actions for the side to move into ``out``; return how many."""
    if state[TO_MOVE] < 0:
        return 0
    side = state[F_SIDE]
    neigh = spec[S_NEIGH]
    pieces = spec[S_PIECES] + side * spec[S_SIZE]
    west, east, back = spec[S_STEPS + 3 * side], spec[S_STEPS + 3 * side + 1], spec[S_STEPS + 3 * side + 2]
    count = 0
    for i in range(state[F_COUNT + side]):
        cell = state[pieces + i]
        base = neigh + 8 * cell
        to = spec[base + west]
        if to >= 0 and state[BOARD + to] == EMPTY:
            out[count] = 3 * cell
            count += 1
        to = spec[base + east]
        if to >= 0 and state[BOARD + to] == EMPTY:
            out[count] = 3 * cell + 1
            count += 1
        to = spec[base + back]
        if to >= 0 and state[BOARD + to] == EMPTY:
            out[count] = 3 * cell + 2
            count += 1
    if spec[S_MANDATORY] != 0:
        kept = 0
        for i in range(count):
            action = out[i]
            if captures(state, spec, side, action // 3, action % 3):
                out[kept] = action
                kept += 1
        if kept > 0:  # with no capture, nothing was overwritten and every move stands
            count = kept
    return count


@njit(cache=True)
def steps_and_threats(state, spec, side):  # type: ignore[no-untyped-def]
    """How many steps ``side`` could make, and how many of them would take a piece."""
    neigh = spec[S_NEIGH]
    pieces = spec[S_PIECES] + side * spec[S_SIZE]
    steps = 0
    threats = 0
    for i in range(state[F_COUNT + side]):
        cell = state[pieces + i]
        base = neigh + 8 * cell
        for k in range(3):
            to = spec[base + spec[S_STEPS + 3 * side + k]]
            if to >= 0 and state[BOARD + to] == EMPTY:
                steps += 1
                if captures(state, spec, side, cell, k):
                    threats += 1
    return steps, threats


@njit(EVALUATE_SIG, cache=True)
def evaluate_material(state, spec, values):  # type: ignore[no-untyped-def]
    """The evaluation before 25 November 2026, material alone: a logistic of the difference in pieces.

    Kept as the baseline that ``bench/gtbm_evaluation.py`` measures ``evaluate`` against, and for
    tests of the search whose expected values are worked out by hand from piece counts.
    """
    lead = state[F_COUNT] - state[F_COUNT + 1]
    black = 1.0 / (1.0 + math.exp(-0.7 * lead))
    values[0] = black
    values[1] = 1.0 - black


MOBILITY_WEIGHT = 0.05
THREAT_WEIGHT = 0.25


@njit(EVALUATE_SIG, cache=True)
def evaluate(state, spec, values):  # type: ignore[no-untyped-def]
    """Search's estimate of each seat's chances (seat 0 is Black, side 0): a logistic of a score.

    The score is the difference in pieces, plus a fraction of a piece for each step a side could
    make more than the other (a side without one loses, G5) and for each capture it has ready.
    With material alone every quiet move looks alike, and between searching players games drift
    to the no-capture limit whatever their depth (docs/rules/gtbm.md, *The computer's evaluation*).
    """
    lead = float(state[F_COUNT] - state[F_COUNT + 1])
    black_steps, black_threats = steps_and_threats(state, spec, 0)
    white_steps, white_threats = steps_and_threats(state, spec, 1)
    score = lead + MOBILITY_WEIGHT * (black_steps - white_steps) + THREAT_WEIGHT * (black_threats - white_threats)
    black = 1.0 / (1.0 + math.exp(-0.7 * score))
    values[0] = black
    values[1] = 1.0 - black


@njit(DESCRIBE_SIG, cache=True)
def describe(state, spec, action):  # type: ignore[no-untyped-def]
    """The text key of ``action`` (``boardlab.core.turns``): the step, the side that makes it and the
    pieces it takes, ``action + 3·cells · (side + 2·((first + 1) + (cells + 1)·(second + 1)))``."""
    cells = spec[S_CELLS]
    cell = action // 3
    step = action - 3 * cell
    side = state[F_SIDE]
    first = -1
    second = -1
    if step != BACK:
        first = first_capture(state, spec, side, cell, step)
        second = second_capture(state, spec, side, cell, step)
    extra = side + 2 * ((first + 1) + (cells + 1) * (second + 1))
    return (action + 3 * cells * extra) << 2 | TURN_ENDS


# Every legal whole turn, for State.legal_moves (boardlab.core.turns).
turns = compile_turns(globals(), several=False)


@njit(PLANES_SIG, cache=True)
def planes(view, spec, seat, out):  # type: ignore[no-untyped-def]
    """Observation planes (``boardlab.core.planes``): pieces by colour (1 Black, 2 White), ``mine``."""
    for cell in range(out.shape[1]):
        value = view[BOARD + cell]
        if value:
            out[value - 1, cell] = 1
            if value - 1 == seat:
                out[2, cell] = 1


# The features of a position that the fitted evaluation weighs (``evaluation=fitted``), each Black's
# minus White's, in ``features``' order. ``bench/gtbm_texel.py`` fits their weights to game results.
FEATURES = ("pieces", "steps", "threats_to_move", "threats_waiting", "loose", "home_row", "far_row",
            "advancement", "lead_fresh", "stuck", "pieces_traded", "steps_traded")
# ``bench/gtbm_texel.py --bounded`` fits the weights of these at 0 or more, so that a piece more is never
# worse: the no-capture limit (G6) may make a lead worth less, never less than nothing.
LEAD_FEATURES = ("pieces", "lead_fresh", "pieces_traded")
N_FEATURES = len(FEATURES)


@njit(cache=True)
def feature_values(state, spec):  # type: ignore[no-untyped-def]
    """The position's features (``FEATURES``), each Black's minus White's, as a tuple.

    - ``pieces``: the difference in pieces;
    - ``steps``: in steps each side could make (a side without one loses, G5);
    - ``threats_to_move`` / ``threats_waiting``: in captures ready, for the side to move (it can take
      now) and for the other (the side to move may still parry);
    - ``loose``: pieces that could be taken, off their home row with the square behind them empty;
    - ``home_row``: pieces on their own home row (never taken, but they can only step forward);
    - ``far_row``: pieces on the opponent's home row (they can only step back);
    - ``advancement``: in ranks advanced, summed over the pieces, divided by the board's size;
    - ``lead_fresh``: the difference in pieces times the share of the no-capture limit left (G6): a
      lead that has not been turned into a capture is worth less as the limit comes near;
    - ``stuck``: pieces that have no step at all;
    - ``pieces_traded`` / ``steps_traded``: the differences in pieces and in steps times the share of
      all pieces already taken: in an ending a piece and a step count for more (most decided games are
      decided there, by the last pieces taken or shut in, G5).
    """
    size = spec[S_SIZE]
    neigh = spec[S_NEIGH]
    to_move = state[F_SIDE]
    steps_lead = 0.0
    to_move_lead = 0.0
    waiting_lead = 0.0
    loose_lead = 0.0
    home_lead = 0.0
    far_lead = 0.0
    advancement_lead = 0.0
    stuck_lead = 0.0
    for side in range(2):
        sign = 1.0 if side == 0 else -1.0
        steps, threats = steps_and_threats(state, spec, side)
        steps_lead += sign * steps
        if side == to_move:
            to_move_lead += sign * threats
        else:
            waiting_lead += sign * threats
        pieces = spec[S_PIECES] + side * size
        back = spec[S_STEPS + 3 * side + BACK]
        for i in range(state[F_COUNT + side]):
            cell = state[pieces + i]
            base = neigh + 8 * cell
            free = False
            for k in range(3):
                to = spec[base + spec[S_STEPS + 3 * side + k]]
                if to >= 0 and state[BOARD + to] == EMPTY:
                    free = True
            if not free:
                stuck_lead += sign
            rank = advancement(spec, side, cell)
            if rank == 0:
                home_lead += sign
            else:
                if rank == size - 1:
                    far_lead += sign
                behind = spec[neigh + 8 * cell + back]
                if behind >= 0 and state[BOARD + behind] == EMPTY:
                    loose_lead += sign
        advancement_lead += sign * state[F_ADV + side] / size
    lead = float(state[F_COUNT] - state[F_COUNT + 1])
    traded = 1.0 - (state[F_COUNT] + state[F_COUNT + 1]) / (2.0 * size)
    return (lead, steps_lead, to_move_lead, waiting_lead, loose_lead, home_lead, far_lead, advancement_lead,
            lead * (1.0 - state[F_QUIET] / spec[S_LIMIT]), stuck_lead, lead * traded, steps_lead * traded)


@njit(cache=True)
def features(state, spec, out):  # type: ignore[no-untyped-def]
    """Write the position's features (:func:`feature_values`) into ``out``."""
    values = feature_values(state, spec)
    for i in range(N_FEATURES):
        out[i] = values[i]


# Fitted by ``bench/gtbm_texel.py --games 0 --records docs/findings/search-records docs/findings/ladder-records``
# (the quiet positions of the 179 recorded games with the default rules between searching players, 29,319
# positions, 29% of them from decided games; docs/findings/search.md, GTBM), in ``FEATURES``' order.
# ``threats_to_move`` is 0 in every quiet position, so it has no weight: pair this evaluation with
# ``quiescence``, which searches the captures ready at a leaf. Unbounded, the fit values a lead below
# nothing late in the no-capture limit (pieces -0.659 + lead_fresh 1.016 at the limit's start).
FITTED_WEIGHTS = (-0.659, 0.214, 0.0, 0.112, -0.132, -0.148, -0.130, 0.046, 1.016, 0.134, 0.680, -0.212)


# The first fit, to 400 games between shallow searches (``bench/gtbm_texel.py --games 400 --depths 1 2 3 4
# --random-plies 10 --seed 1``, before the last three features were added): ``evaluation=fitted_shallow``.
# It put no weight on the steps a side has, and lost games by being shut in (docs/findings/search.md, GTBM).
FITTED_SHALLOW_WEIGHTS = (-0.066, -0.008, 0.0, 0.014, -0.049, -0.098, -0.041, -0.115, 0.886, 0.0, 0.0, 0.0)


@njit(cache=True)
def _weighed(state, spec, weights, values):  # type: ignore[no-untyped-def]
    """Each seat's chances: a logistic of the features weighed by ``weights``."""
    found = feature_values(state, spec)
    score = 0.0
    for i in range(N_FEATURES):
        score += weights[i] * found[i]
    black = 1.0 / (1.0 + math.exp(-score))
    values[0] = black
    values[1] = 1.0 - black


@njit(EVALUATE_SIG, cache=True)
def evaluate_fitted(state, spec, values):  # type: ignore[no-untyped-def]
    """``evaluation=fitted``: a logistic of the features weighed by ``FITTED_WEIGHTS``."""
    _weighed(state, spec, FITTED_WEIGHTS, values)


@njit(EVALUATE_SIG, cache=True)
def evaluate_fitted_shallow(state, spec, values):  # type: ignore[no-untyped-def]
    """``evaluation=fitted_shallow``: the same with ``FITTED_SHALLOW_WEIGHTS``."""
    _weighed(state, spec, FITTED_SHALLOW_WEIGHTS, values)
