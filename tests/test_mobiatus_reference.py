"""The numba kernel against the plain reference referee, over many random games and rule sets.

Every legal-move list (whole turns, as text), every position and every result must agree. The
kernel keeps incremental state (piece lists, the free set, union-find groups with contact counts)
and searches capture chains with an explicit stack; the reference lists every complete path.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from tests.reference.mobiatus_ref import reference_for

SMALL = {"length": 6, "width": 3, "blue_offset": 3}
RULE_SETS = [
    {},
    {"mandatory_capture": "on"},
    {"mandatory_capture": "maximal"},
    {"chain_capture": "must_continue_capturing"},
    {"origin_joins_slide_group": True},
    {"first_player": "pie"},
    {"blue_offset": 27, "first_player": "blue"},
    SMALL,
    {**SMALL, "mandatory_capture": "maximal", "chain_capture": "must_continue_capturing"},
    {**SMALL, "origin_joins_slide_group": True, "mandatory_capture": "on"},
    {"length": 8, "width": 4, "blue_offset": 12, "line_gap": 1},
    {"length": 10, "width": 2, "blue_offset": 13, "mandatory_capture": "maximal"},
    {"length": 40, "width": 6, "blue_offset": 20, "move_pair_limit": 40, "limit_result": "more_pieces_wins"},
    {"length": 5, "width": 3, "blue_offset": 2, "move_pair_limit": 3},
]
# The added leapers (option movement), each on the seed's strip, a short one where chains come early,
# and with the rule options that change how chains and slides are chosen.
MOVEMENT_SETS = [
    {"movement": movement, **rules}
    for movement in ("camel", "zebra", "knight_wazir")
    for rules in ({}, SMALL, {"length": 8, "width": 4, "blue_offset": 12, "line_gap": 1},
                  {**SMALL, "mandatory_capture": "maximal", "chain_capture": "must_continue_capturing"},
                  {**SMALL, "origin_joins_slide_group": True, "mandatory_capture": "on"},
                  {"length": 10, "width": 3, "blue_offset": 13, "first_player": "pie"})
] + [{"movement": "camel", "length": 10, "width": 2, "blue_offset": 13}]


def kernel_board(state: boardlab.State) -> str:
    """The position text's board with digit runs spelled out as dots."""
    return re.sub(r"\d+", lambda run: "." * int(run.group()), state.to_text().split()[0])


def play_both(options: dict, seed: int) -> None:
    game = boardlab.load("mobiatus", **options)
    ref = reference_for(game)
    state = game.new_game()
    rng = random.Random(seed)
    while True:
        moves = sorted(ref.moves())
        assert sorted(m.text for m in state.legal_moves()) == moves, f"turn {ref.turns}: {state.to_text()}"
        assert kernel_board(state) == ref.front_board(), f"turn {ref.turns}"
        if state.is_over:
            assert (state.result, state.end_reason) == (ref.result, ref.reason)
            return
        assert ref.result is None and state.to_move == ref.seat(ref.colour)
        choice = rng.choice(moves)
        state = state.play(choice)
        ref.play(choice)


@pytest.mark.parametrize("options", RULE_SETS + MOVEMENT_SETS,
                         ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_kernel_matches_reference(options: dict) -> None:
    for seed in range(3):
        play_both(options, seed)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS + MOVEMENT_SETS))
def test_kernel_matches_reference_on_arbitrary_games(seed: int, rules: dict) -> None:
    play_both(rules, seed)
