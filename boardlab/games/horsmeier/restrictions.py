"""Horsmeier's restrictions for restricted play (issue 32): what sideways moves and life spans contribute.

An agent spec takes one as ``restrict=…`` (``level3:restrict=no_sideways``); see
:mod:`boardlab.core.restriction` for the method (Jaffe et al., AIIDE 2012).

- ``no_sideways``: the agent never plays a sideways move (left or right). It is a filter on the
  moves it plays: its search still looks at sideways moves, at the root and further on, for both
  sides, but it plays its best move that is not sideways. Where every legal move is sideways it
  plays one anyway, its best: the rules give no pass while a move is legal (J9), and a pass, where
  it is the only move, is not sideways.
- ``ignore_lifespan``: the agent plays as if life spans did not exist. It searches a model of the
  position under the added rule ``expiry_rule=never`` (life spans stand still: no piece ages, so none
  degrades or is removed by age; J6, J7), with every other option as in the real game, and plays
  the model's choice in the real game. The model has the same legal moves now: the kernel's
  ``legal`` reads the board, strengths and row sums, never the expiry rule, which changes only what
  follows a move. Its tree is not kept between moves (each move searches a new model).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardlab.core.restriction import Restriction
from boardlab.games.horsmeier import kernel as k

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.move import Move
    from boardlab.core.view import View


def is_sideways(move: Move) -> bool:
    """Whether ``move`` takes a piece left or right (a pass is not sideways)."""
    (action,) = move.path
    return action != k.PASS and action % 4 not in (k.NORTH, k.SOUTH)


class NoSideways(Restriction):
    name = "no_sideways"
    summary = "never plays a sideways move (unless every legal move is sideways)"

    def allows(self, view: View, move: Move) -> bool:
        return not is_sideways(move)


class IgnoreLifespan(Restriction):
    name = "ignore_lifespan"
    summary = "searches the position as if life spans stood still (expiry_rule=never), plays its choice"

    def model(self, view: View) -> View:
        from boardlab.core.state import State

        game = view.game
        if game.options["expiry_rule"] == "never":
            return view
        model = State(never_expiring(game), view.state.data.copy())
        return model.view(view.seat)


def never_expiring(game: Game) -> Game:
    """``game`` with the added rule ``expiry_rule=never`` and its other options unchanged (same state layout)."""
    return _never_expiring(game.id, tuple(sorted({**game.options, "expiry_rule": "never"}.items())))


@functools.lru_cache(maxsize=16)
def _never_expiring(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game:
    from boardlab.core.registry import load

    return load(game_id, **dict(options))


RESTRICTIONS: Mapping[str, Restriction] = {r.name: r for r in (NoSideways(), IgnoreLifespan())}
