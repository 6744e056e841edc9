"""The numba kernel against the plain reference referee, over many random games and rule sets.

Every legal-move list, every position and every result must agree; the kernel keeps incremental
state (freedom counts, empty and risky sets, hashes) that the reference recomputes from scratch.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from tests.reference.ndengrod_ref import RefGame, name, reference_for

RULE_SETS = [
    {},
    {"self_capture": False},
    {"win_check": "before_self_capture"},
    {"swap": True},
    {"size": 3, "length": 4},
    {"size": 3, "length": 4, "self_capture": False},
    {"size": 2, "length": 3, "ply_cap": 60},
    {"size": 2, "length": 3, "self_capture": False, "ply_cap": 60},
    {"board": "trapezoid"},
    {"board": "trapezoid", "size": 4, "length": 4, "self_capture": False},
    {"size": 4, "length": 7, "ply_cap": 120},
    {"size": 4, "length": 7, "ply_cap": 120, "repetition": "off"},
]


def board_of(ref: RefGame, game: boardlab.Game) -> str:
    """The reference board in the kernel's position-text form (first field)."""
    rows: dict[int, str] = {}
    for row, diag in game.topology.coords:  # type: ignore[attr-defined]
        rows[row] = rows.get(row, "") + ".xo"[ref.board[(row, diag)]]
    return "/".join(rows[r] for r in sorted(rows))


def kernel_board(state: boardlab.State) -> str:
    """The first field of the position text with digit runs spelled out as dots."""
    rows = state.to_text().split()[0].split("/")
    return "/".join("".join("." * int(t) if t.isdigit() else t for t in re.findall(r"\d+|\D", r)) for r in rows)


def play_both(options: dict, seed: int) -> None:
    game = boardlab.load("ndengrod", **options)
    ref = reference_for(game)
    state = game.new_game()
    rng = random.Random(seed)
    while True:
        kernel_moves = sorted(str(m) for m in state.legal_moves())
        reference_moves = sorted(name(m) for m in ref.legal())
        assert kernel_moves == reference_moves, f"ply {state.ply}: {state.to_text()}"
        assert kernel_board(state) == board_of(ref, game), f"ply {state.ply}"
        if state.is_over:
            assert state.result == ref.result
            assert state.end_reason == ref.reason
            return
        assert ref.result is None
        assert state.to_move == ref.seat(ref.colour)
        choice = rng.choice(ref.legal())
        state = state.play(name(choice))
        ref.play(choice)


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_kernel_matches_reference(options: dict) -> None:
    for seed in range(6):
        play_both(options, seed)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(RULE_SETS))
def test_kernel_matches_reference_on_arbitrary_games(seed: int, rules: dict) -> None:
    play_both(rules, seed)
