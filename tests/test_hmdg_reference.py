"""The HMDG kernel against the plain reference referee, over many random games and rule sets.

Every legal-move list, every stone (hidden or revealed, of either player), every five-announcement,
hidden-stone count and result must agree; the kernel keeps per-segment counters and enumerates the
responder's choices as bit masks, the reference recomputes everything from the board.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.games.hmdg import kernel as k
from tests.reference.hmdg_ref import reference_for

RULE_SETS = [
    {},
    {"setup": "fixed"},
    {"lines_needed": 1},
    {"max_shared": 0},
    {"max_shared": 3},
    {"overline_counts": False},
    {"announce": "first_five_only"},
    {"announce": "none", "reveal_at_end": "all"},
    {"allow_own_stack": True},
    {"reveal_stack_partner": True},
    {"no_target": "draw", "size": 4, "line_length": 4},
    {"size": 5, "line_length": 3},
    {"size": 5, "line_length": 3, "lines_needed": 3, "max_shared": 2},
    {"size": 4, "line_length": 3, "allow_own_stack": True, "reveal_stack_partner": True},
    {"size": 6, "line_length": 4, "overline_counts": False, "max_shared": 0},
]

END_REASONS = {"lines": "lines", "passes": "passes", "no target": "no target"}


def kernel_stones(state: boardlab.State, colour: int) -> dict[tuple[int, int], str]:
    size = int(state.game.options["size"])
    cells = size * size
    values = state.data[k.STONES + colour * cells: k.STONES + (colour + 1) * cells]
    return {(cell // size, cell % size): ("hidden", "revealed")[int(v) - 1] for cell, v in enumerate(values) if v}


def play_both(options: dict, seed: int) -> int:
    game = boardlab.load("hmdg", **options)
    ref = reference_for(game)
    state = game.new_game()
    rng = random.Random(seed)
    while True:
        kernel_moves = sorted(str(m) for m in state.legal_moves())
        assert kernel_moves == sorted(ref.legal()), f"ply {state.ply}: {state.to_text()}"
        assert kernel_stones(state, 0) == ref.stones["x"], f"ply {state.ply}"
        assert kernel_stones(state, 1) == ref.stones["o"], f"ply {state.ply}"
        assert state.to_move == ref.to_move
        assert [int(state.data[k.F_HIDDEN + c]) for c in (0, 1)] == [ref.hidden_count[c] for c in "xo"]
        if state.ply and state.previous is not None and state.previous.data[k.F_PHASE] == k.PH_RESPOND:
            assert int(state.data[k.F_LAST_FIVES]) == ref.last_fives, f"ply {state.ply}"
        if state.is_over:
            assert state.result == ref.result
            assert state.end_reason == END_REASONS[str(ref.reason)]
            return state.ply
        assert ref.result is None
        choice = rng.choice(kernel_moves)
        state = state.play(choice)
        ref.play(choice)


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_kernel_matches_reference(options: dict) -> None:
    lengths = [play_both(options, seed) for seed in range(4)]
    assert min(lengths) > 4  # whole games were compared, not just the setup


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS))
def test_kernel_matches_reference_on_arbitrary_games(seed: int, rules: dict) -> None:
    play_both(rules, seed)
