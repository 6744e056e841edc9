"""The kernels against the plain-Python referee: the same legal moves and results in random games."""

from __future__ import annotations

import random

import pytest
from boardlab_tictac.reference import Referee

import boardlab


@pytest.mark.parametrize("options", [{}, {"size": 4, "length": 3}, {"size": 5, "length": 4, "misere": True}])
def test_kernels_agree_with_the_referee(options: dict[str, object]) -> None:
    game = boardlab.load("tictac", **options)
    for seed in range(30):
        rng, state, referee = random.Random(seed), game.new_game(), Referee(**options)  # type: ignore[arg-type]
        while not state.is_over:
            assert sorted(move.text for move in state.legal_moves()) == referee.legal_moves()
            move = rng.choice(state.legal_moves()).text
            state = state.play(move)
            referee.play(move)
        assert referee.legal_moves() == [] and state.result == referee.result
