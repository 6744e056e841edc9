"""Every registered game's kernels against its plain-Python referee (``GamePackage.reference``).

Random games of each sample option set the package declares: at every position the same legal moves
(as texts), and at the end the same result and end reason. A game that declares no referee fails
here; each game's ``test_<game>_reference.py`` compares more (boards, counts, chosen positions).
"""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import registry
from boardlab.core.package import resolve
from tests.reference import Referee

GAMES_PER_SAMPLE = 8


def referee_of(game_id: str, game: boardlab.Game) -> Referee:
    package = registry.package(game_id)
    assert package.reference, f"{game_id} declares no reference referee (GamePackage.reference)"
    module = resolve(package.reference, f"{game_id}'s reference referee")
    return module.referee(game)  # type: ignore[no-any-return]


@pytest.mark.parametrize("game_id", registry.game_ids())
def test_random_games_agree_with_the_reference_referee(game_id: str) -> None:
    plies = 0
    for options in registry.package(game_id).samples.quick:
        game = registry.load(game_id, **options)
        for seed in range(GAMES_PER_SAMPLE):
            rng, state, referee = random.Random(seed), game.new_game(), referee_of(game_id, game)
            while not state.is_over:
                moves = sorted(move.text for move in state.legal_moves())
                assert moves == referee.legal_moves(), f"{game_id} {options} ply {state.ply}: {state.to_text()}"
                assert referee.result is None, f"{game_id} {options} ply {state.ply}"
                move = rng.choice(moves)
                state = state.play(move)
                referee.play(move)
                plies += 1
            assert referee.legal_moves() == [], f"{game_id} {options}: the referee goes on after {state.ply} plies"
            assert (state.result, state.end_reason) == (referee.result, referee.reason), f"{game_id} {options}"
    assert plies > 0  # whole games were compared
