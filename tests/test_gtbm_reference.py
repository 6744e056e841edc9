"""GTBM's numba kernel against the plain reference referee, over many random games and rule sets.

Every legal-move list (with the captures each move makes), every position and every result must
agree; the kernel keeps piece lists, counts, hashes and advancement bounds that the reference lacks.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from tests.reference.gtbm_ref import RefGtbm, reference_for

RULE_SETS = [
    {},
    {"capture_reach": "column"},
    {"capture_reach": "diagonal_also"},
    {"mandatory_capture": True},
    {"mandatory_capture": True, "capture_reach": "column"},
    {"stuck_check": "both_after_each_move"},
    {"size": 4, "no_capture_limit": 40},
    {"size": 4, "no_capture_limit": 40, "stuck_check": "both_after_each_move", "mandatory_capture": True},
    {"size": 4, "repetition": "off", "no_capture_limit": 30, "cap_adjudication": "most_pieces"},
    {"size": 6, "no_capture_limit": 60, "capture_reach": "diagonal_also", "cap_adjudication": "most_pieces"},
    {"size": 10, "no_capture_limit": 50},
]


def kernel_board(state: boardlab.State) -> dict[tuple[int, int], str]:
    """The pieces of the position text, keyed by (file, rank)."""
    ranks = state.to_text().split()[0].split("/")
    board = {}
    for row, text in enumerate(ranks):
        file = 0
        for token in re.findall(r"\d+|\D", text):
            if token.isdigit():
                file += int(token)
            else:
                board[(file, len(ranks) - row)] = token
                file += 1
    return board


def cycle_move(ref: RefGtbm, rng: random.Random, plans: dict[str, list]) -> object:
    """The next move of a four-move cycle that brings one piece back where it started, or None.

    Forward one way, forward the other, back, back: played by both sides, positions repeat.
    """
    side = ref.side
    forward = 1 if side == "B" else -1
    plan = plans.get(side) or []
    if not plan:
        pieces = sorted(square for square, owner in ref.board.items() if owner == side)
        if not pieces:
            return None
        file, rank = rng.choice(pieces)
        towards = rng.choice((-1, 1))
        path = [(file, rank), (file + towards, rank + forward), (file, rank + 2 * forward),
                (file, rank + forward), (file, rank)]
        plan = list(itertools.pairwise(path))
    start, to = plan[0]
    for move in ref.legal():
        if move[:2] == (start, to):
            plans[side] = plan[1:]
            return move
    plans[side] = []
    return None


def play_both(options: dict, seed: int, cycling: float = 0.0) -> int:
    game = boardlab.load("gtbm", **options)
    ref = reference_for(game)
    state = game.new_game()
    rng = random.Random(seed)
    plans: dict[str, list] = {}
    while True:
        kernel_moves = sorted(str(m) for m in state.legal_moves())
        reference_moves = sorted(ref.text(m) for m in ref.legal())
        assert kernel_moves == reference_moves, f"ply {state.ply}: {state.to_text()}"
        assert kernel_board(state) == ref.board, f"ply {state.ply}"
        assert state.to_text().split()[3] == str(ref.quiet)
        if state.is_over:
            assert state.result == ref.result
            assert state.end_reason == ref.reason
            return state.ply
        assert ref.result is None
        assert state.to_move == (0 if ref.side == "B" else 1)
        choice = cycle_move(ref, rng, plans) if rng.random() < cycling else None
        choice = choice or rng.choice(ref.legal())
        state = state.play(ref.text(choice))
        ref.play(choice)


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_kernel_matches_reference(options: dict) -> None:
    for seed, cycling in enumerate((0.0, 0.0, 0.8, 0.95)):
        play_both(options, seed, cycling)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS), cycling=st.sampled_from((0.0, 0.9)))
def test_kernel_matches_reference_on_arbitrary_games(seed: int, rules: dict, cycling: float) -> None:
    play_both(rules, seed, cycling)
