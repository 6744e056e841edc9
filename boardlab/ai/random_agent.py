"""The simplest agent: a uniformly random legal move.

>>> import boardlab
>>> from boardlab.ai import RandomAgent
>>> state = boardlab.load("ndengrod").new_game()
>>> move = RandomAgent(seed=7).choose(state.view(0))
>>> move in state.legal_moves()
True
"""

from __future__ import annotations

import random

from boardlab.ai.base import Agent, Analysis, Candidate, moves_to_choose_from
from boardlab.core.move import Move
from boardlab.core.view import View


class RandomAgent(Agent):
    """Plays a uniformly random legal move; ``seed`` makes its choices repeatable."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        moves = moves_to_choose_from(view)
        return self._rng.choice(moves)

    def analyse(self, view: View) -> Analysis:
        moves = view.legal_moves()
        return Analysis(tuple(Candidate(move, 0, None) for move in moves))
