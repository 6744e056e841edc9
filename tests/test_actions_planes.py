"""Action numbering, game-length bounds and observation planes (issue 15)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import boardlab
from boardlab.core import kernel, registry

# Every registered game on small boards with tight caps (the first of its package's quick samples), so
# that random games reach the caps the bounds are made of.
CAPPED = {game_id: dict(registry.package(game_id).samples.quick[0]) for game_id in registry.game_ids()}


def kernel_game(game: boardlab.Game, rng: random.Random) -> tuple[int, set[int]]:
    data = game.new_game().data.copy()
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    seen: set[int] = set()
    decisions = 0
    while data[kernel.TO_MOVE] >= 0:
        count = game.legal_kernel(data, game.spec, out)
        actions = out[:count].tolist()
        seen.update(actions)
        game.apply_kernel(data, game.spec, rng.choice(actions))
        decisions += 1
    return decisions, seen


@pytest.mark.parametrize("game_id", list(CAPPED))
def test_actions_in_range_and_games_within_bound(game_id: str) -> None:
    game = boardlab.load(game_id, **CAPPED[game_id])
    assert 0 < game.num_distinct_actions <= game.action_limit
    rng = random.Random(7)
    longest = 0
    for _ in range(40):
        decisions, seen = kernel_game(game, rng)
        assert all(0 <= action < game.num_distinct_actions for action in seen)
        longest = max(longest, decisions)
    assert longest <= game.max_decisions


def test_ply_capped_bounds_are_reached() -> None:
    # The bound is the cap itself for ply-capped games: a game that ends earlier than its cap
    # only by chance would not show an off-by-one, so play passes-free random games to the cap.
    game = boardlab.load("horsmeier", ply_cap=30)
    lengths = {kernel_game(game, random.Random(seed))[0] for seed in range(10)}
    assert max(lengths) == game.max_decisions == 30


def test_numbering_is_stable_per_move() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    state = game.new_game()
    assert [m.path for m in state.legal_moves()][:3] == [(0,), (1,), (2,)]
    assert len(game.cell_names()) == 19  # a hexhex board of side 3
    assert game.num_distinct_actions == 19 + 2  # cells, pass, swap


@pytest.mark.parametrize("game_id", list(CAPPED))
def test_planes_fixed_shape(game_id: str) -> None:
    game = boardlab.load(game_id, **CAPPED[game_id])
    rng = random.Random(2)
    state = game.new_game()
    assert len(game.plane_names) == game.planes_shape[0]
    for _ in range(12):
        for seat in [None, *range(game.num_seats)]:
            planes = state.view(seat).planes()
            assert planes.shape == game.planes_shape and planes.dtype == np.float32
            mover = state.to_move
            assert (planes[-1] == (1 if seat is not None and seat == mover else 0)).all()
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    # pieces appear on their cells: the planes count what the renderer draws
    contents = game.cell_contents(state.view(None))
    drawn = sum(len(cell.pieces) for cell in contents)
    per_piece = state.view(None).planes()[: game.num_seats * len(game.plane_kinds)]
    assert per_piece.sum() == drawn


def test_hmdg_planes_hide_what_the_seat_may_not_know() -> None:
    game = boardlab.load("hmdg", size=5, line_length=3)
    rng = random.Random(4)
    state = game.new_game()
    hidden_seen = False
    for _ in range(30):
        if state.is_over:
            break
        for seat in (0, 1):
            view = state.view(seat)
            planes = view.planes()
            # any full state the seat cannot tell from this one gives the same planes
            for draw in range(3):
                sample = game.determinize(view, random.Random(draw))
                assert np.array_equal(sample.view(seat).planes(), planes)
        referee = state.view(None).planes()
        seat_planes = [state.view(seat).planes() for seat in (0, 1)]
        if not all(np.array_equal(referee[:4], planes[:4]) for planes in seat_planes):
            hidden_seen = True
        state = state.play(rng.choice(state.legal_moves()))
    assert hidden_seen  # the seats' planes did leave something out


def test_horsmeier_numbers_plane() -> None:
    game = boardlab.load("horsmeier")
    planes = game.new_game().view(0).planes()
    strength = planes[game.plane_names.index("strength")]
    assert strength.max() > 0 and set(strength.tolist()) <= {0.0, *range(1, 20)}
