"""The numba kernel against the plain reference referee, over many random games and rule sets.

Every legal-move list, every board, every territory score and every result must agree; the kernel
keeps bitboards, incremental hashes, a moment filter, cut bits and a table of the positions since
the last placement, all of which the reference recomputes from scratch (or does without).
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from tests.reference.mynd_ref import reference_for

RULE_SETS = [
    {"size": 5, "ply_cap": 120},
    {"size": 6, "ply_cap": 150},
    {"size": 7, "ply_cap": 100, "players": 3},
    {"size": 6, "ply_cap": 100, "players": 3, "edge_midpoint": "right"},
    {"size": 7, "ply_cap": 100, "players": 4},
    {"size": 5, "ply_cap": 120, "supply": "unlimited"},
    {"size": 6, "ply_cap": 100, "sowing": True},
    {"size": 6, "ply_cap": 100, "sowing": True, "sowing_needs_liberty": True, "liberty_neighbourhood": "4"},
    {"size": 5, "ply_cap": 100, "liberty_neighbourhood": "4"},
    {"size": 6, "ply_cap": 100, "diagonal_links": "mutual_cut"},
    {"size": 6, "ply_cap": 100, "diagonal_links": "always"},
    {"size": 6, "ply_cap": 100, "diagonal_links": "none"},
    {"size": 6, "ply_cap": 100, "push_mode": "from_pusher"},
    {"size": 6, "ply_cap": 100, "players": 3, "push_mode": "from_pusher", "push_majority": "each_opponent"},
    {"size": 6, "ply_cap": 100, "players": 4, "push_majority": "each_opponent"},
    {"size": 6, "ply_cap": 100, "slide": "any_own_piece"},
    {"size": 6, "ply_cap": 100, "push_pegs": False},
    {"size": 6, "ply_cap": 100, "territory_rule": "peg_adjacent"},
    {"size": 6, "ply_cap": 100, "territory_rule": "go_area", "diagonal_links": "none"},
    {"size": 6, "ply_cap": 100, "territory_rule": "smaller_side", "players": 3},
    {"size": 6, "ply_cap": 100, "nested": "inner_owner", "players": 3},
    {"size": 6, "ply_cap": 100, "lock_on_enclose": True},
    {"size": 6, "ply_cap": 100, "lock_on_enclose": True, "players": 3, "sowing": True},
    {"size": 5, "ply_cap": 100, "start_layout_2p": "adjacent", "first_player": 1},
    {"size": 5, "ply_cap": 150, "superko": "situational"},
    {"size": 5, "ply_cap": 150, "superko": "off", "supply": "fixed_table"},
    {"size": 5, "ply_cap": 150, "end_on": "all_pass_twice", "players": 3},
]


def kernel_board(state: boardlab.State) -> str:
    """The first field of the position text with digit runs spelled out as dots."""
    rows = state.to_text().split()[0].split("/")
    return "/".join("".join("." * int(t) if t.isdigit() else t for t in re.findall(r"\d+|\D", r)) for r in rows)


def play_both(options: dict, seed: int, pass_weight: float = 1.0) -> None:
    game = boardlab.load("mynd", **options)
    ref = reference_for(game)
    state = game.new_game()
    rng = random.Random(seed)
    while True:
        kernel_moves = sorted(str(m) for m in state.legal_moves())
        reference_moves = sorted(ref.legal())
        assert kernel_moves == reference_moves, f"ply {state.ply}: {state.to_text()}"
        assert kernel_board(state) == ref.board_text(), f"ply {state.ply}"
        assert state.scores == ref.scores(), f"ply {state.ply}: {state.to_text()}"
        if state.is_over:
            assert state.result == ref.result
            assert state.end_reason == ref.reason
            return
        assert ref.result is None
        assert state.to_move == ref.seat
        choices = [m for m in reference_moves if m != "pass" or rng.random() < pass_weight]
        choice = rng.choice(choices or ["pass"])
        state = state.play(choice)
        ref.play(choice)


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_kernel_matches_reference(options: dict) -> None:
    for seed in range(3):
        play_both(options, seed, pass_weight=0.3)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS))
def test_kernel_matches_reference_on_arbitrary_games(seed: int, rules: dict) -> None:
    play_both(rules, seed)
