"""Whole turns listed by the kernels, their text from tables (boardlab.core.turns; issue 33).

The reference is the way ``legal_moves`` used to work: a plain-Python walk that plays each action on
a copy to see whether the turn goes on, and the face's own ``action_text`` for every turn.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.core import kernel
from boardlab.core.move import Move
from boardlab.core.turns import TURN_ENDS, TURN_GOES_ON

VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("ndengrod", {}),
    ("ndengrod", {"size": 3, "length": 3, "swap": True}),
    ("gtbm", {}),
    ("gtbm", {"capture_reach": "column"}),
    ("gtbm", {"capture_reach": "diagonal_also"}),
    ("horsmeier", {}),
    ("mynd", {"size": 7}),
    ("mynd", {"size": 5, "players": 3}),
    ("mobiatus", {}),
    ("mobiatus", {"length": 10, "width": 3, "blue_offset": 5}),
    ("mobiatus", {"length": 12, "width": 4, "blue_offset": 6, "movement": "camel"}),
    ("mobiatus", {"length": 12, "width": 4, "blue_offset": 6, "movement": "zebra"}),
    ("mobiatus", {"length": 12, "width": 4, "blue_offset": 6, "movement": "knight_wazir"}),
    ("mobiatus", {"length": 12, "width": 3, "blue_offset": 6, "origin_joins_slide_group": True}),
    ("mobiatus", {"length": 12, "width": 3, "blue_offset": 6, "mandatory_capture": "maximal"}),
    ("mobiatus", {"length": 12, "width": 3, "blue_offset": 6, "chain_capture": "must_continue_capturing",
                  "first_player": "pie"}),
    ("hmdg", {}),
    ("hmdg", {"size": 5, "line_length": 3}),
]
IDS = [f"{game}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}" for game, options in VARIANTS]


def reference_moves(game: boardlab.Game, data: np.ndarray) -> list[Move]:
    """Every whole turn as the face writes it, walked in Python (the old ``legal_moves``)."""
    if data[kernel.TO_MOVE] < 0:
        return []
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    paths: list[tuple[int, ...]] = []

    def extend(position: np.ndarray, prefix: tuple[int, ...]) -> None:
        count = game.legal_kernel(position.copy(), game.spec, out)
        for action in sorted(out[:count].tolist()):
            after = position.copy()
            game.apply_kernel(after, game.spec, action)
            if after[kernel.MID_TURN] and after[kernel.TO_MOVE] == position[kernel.TO_MOVE]:
                extend(after, (*prefix, action))
            else:
                paths.append((*prefix, action))

    extend(data.copy(), ())
    return [Move(game.action_text(data, path), path) for path in paths]


def random_states(game: boardlab.Game, seed: int, count: int) -> list[boardlab.State]:
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_game()
        while not state.is_over and len(states) < count:
            states.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
def test_listed_turns_and_their_text_equal_the_faces(game_id: str, options: dict[str, object]) -> None:
    game = boardlab.load(game_id, **options)
    for state in random_states(game, seed=len(options), count=60):
        moves = state.legal_moves()
        assert moves == reference_moves(game, state.data)
        for move in moves[:: max(1, len(moves) // 12)]:
            assert game.move_text(state.data, move.path) == move.text
            assert state.play(move).last_move == move


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
def test_describe_says_rightly_whether_the_turn_goes_on(game_id: str, options: dict[str, object]) -> None:
    game = boardlab.load(game_id, **options)
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    rng = random.Random(5)
    for state in random_states(game, seed=3, count=40):
        stepper = state.stepper(keep_history=False)
        while not stepper.is_over:  # through every step of the turn, mid-turn positions included
            data = stepper.data.copy()
            count = game.legal_kernel(data.copy(), game.spec, out)
            for action in out[:count].tolist():
                turn = game.describe_kernel(data.copy(), game.spec, action) & 3
                after = data.copy()
                game.apply_kernel(after, game.spec, action)
                goes_on = bool(after[kernel.MID_TURN]) and after[kernel.TO_MOVE] == data[kernel.TO_MOVE]
                if turn == TURN_ENDS:
                    assert not goes_on
                elif turn == TURN_GOES_ON:
                    assert goes_on
            stepper.apply(rng.choice(stepper.legal_actions()))
            if not stepper.pending:
                break


@pytest.mark.parametrize(("game_id", "options"), VARIANTS, ids=IDS)
def test_stepper_history_reads_as_the_face_writes(game_id: str, options: dict[str, object]) -> None:
    game = boardlab.load(game_id, **options)
    rng = random.Random(11)
    stepper = game.new_game().stepper()
    while not stepper.is_over and stepper.ply < 150:
        stepper.apply(rng.choice(stepper.legal_actions()))
    state = stepper.state
    while state.previous is not None:
        assert state.last_move is not None
        assert state.last_move.text == game.action_text(state.previous.data, state.last_move.path)
        state = state.previous


def test_moves_are_shared_and_the_history_keeps_no_move_lists() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    state = game.new_game()
    first = state.legal_moves()
    assert state.legal_moves() == first and state.legal_moves() is not first  # a fresh list each time
    assert boardlab.load("ndengrod", size=3, length=3).new_game().legal_moves() == first
    listed = state.legal_moves()
    after = state.play("b2")
    assert after.last_move is listed[4]  # the listed move itself, not a copy
    assert state._legal is not None and state._legal._moves is None  # dropped once it has a successor
    assert state.legal_moves() == listed


MOBIATUS_SHARING = [{}, {"length": 12, "width": 4, "blue_offset": 6, "movement": "knight_wazir"},
                    {"length": 12, "width": 3, "blue_offset": 6, "mandatory_capture": "maximal"},
                    {"length": 12, "width": 3, "blue_offset": 6, "origin_joins_slide_group": True}]


@pytest.mark.parametrize("options", MOBIATUS_SHARING,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_first_steps_of_one_share_number_lead_on_to_the_same_turns(options: dict[str, object]) -> None:
    """The Möbiatus ``share`` hook's promise, checked on the reference walk: where two first steps
    get the same number, the turns after them (actions and text) are the same."""
    game = boardlab.load("mobiatus", **options)
    share = game.turns_kernel.py_func.__globals__["share"]
    shared = 0
    for state in random_states(game, seed=4, count=80)[::3]:
        after: dict[int, list[tuple[tuple[int, ...], str]]] = {}
        first = {move.path[0]: move for move in reference_moves(game, state.data)}
        for move in reference_moves(game, state.data):
            head = game.action_text(state.data, move.path[:1])
            after.setdefault(move.path[0], []).append((move.path[1:], move.text[len(head):]))
        numbers: dict[int, list[int]] = {}
        for action in first:
            number = share(state.data.copy(), game.spec, action)
            if number:
                numbers.setdefault(number, []).append(action)
        for actions in numbers.values():
            shared += len(actions) - 1
            assert all(after[action] == after[actions[0]] for action in actions), state
    assert shared > 0 or options.get("origin_joins_slide_group")


def test_moves_come_from_the_position_before_the_last_and_equal_fresh_ones() -> None:
    game = boardlab.load("mobiatus")
    rng = random.Random(3)
    state = game.new_game()
    listed: list[list[Move]] = []  # each position's moves as listed (kept, so that ids stay unique)
    reused = 0
    while not state.is_over and state.ply < 120:
        moves = state.legal_moves()
        fresh = boardlab.State(game, state.data.copy()).legal_moves()  # no earlier moves to take from
        assert moves == fresh
        if len(listed) >= 2:  # turns of several steps are shared only from there
            earlier = {id(move) for move in listed[-2] if len(move.path) > 1}
            reused += sum(id(move) in earlier for move in moves)
        listed.append(moves)
        state = state.play(rng.choice(moves))
    assert reused > 20 * len(listed)  # most of some 200 turns a position


PLANE_VARIANTS = [*VARIANTS, ("horsmeier", {"upgrade_rule": "since_last_change"}), ("mynd", {"size": 5, "players": 4}),
                  ("mynd", {"size": 5, "lock_on_enclose": True}), ("ndengrod", {"size": 3, "length": 3, "swap": True}),
                  ("hmdg", {"setup": "fixed", "size": 5, "line_length": 3}), ("mobiatus", {"first_player": "pie"})]
PLANE_IDS = [f"{game}-{'-'.join(f'{k}={v}' for k, v in options.items()) or 'default'}"
             for game, options in PLANE_VARIANTS]


@pytest.mark.parametrize(("game_id", "options"), PLANE_VARIANTS, ids=PLANE_IDS)
def test_kernel_planes_equal_the_planes_of_cell_contents(game_id: str, options: dict[str, object]) -> None:
    from boardlab.core.planes import planes_from_cells

    game = boardlab.load(game_id, **options)
    assert game.planes_kernel is not None
    rng = random.Random(8)
    for state in random_states(game, seed=9, count=50):
        # mid-turn positions too (a Möbiatus chain's touched faces), as the adapters show them
        stepper = state.stepper(keep_history=False)
        positions = [state]
        while not stepper.is_over and len(positions) < 4:
            stepper.apply(rng.choice(stepper.legal_actions()))
            positions.append(stepper.position())
            if not stepper.pending:
                break
        for position in positions if game.info.perfect_information else [state]:
            for seat in [None, *range(game.num_seats)]:
                view = position.view(seat)
                assert np.array_equal(view.planes(), planes_from_cells(view)), (position, seat)
