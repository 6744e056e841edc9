"""An alpha-beta agent: iterative deepening on a game's evaluation, for two-seat games that have one.

>>> import boardlab
>>> from boardlab.ai.alphabeta import AlphaBetaAgent
>>> state = boardlab.load("gtbm", size=4).new_game()
>>> AlphaBetaAgent(seconds=0.05).choose(state.view(0)) in state.legal_moves()
True

The search itself is :mod:`boardlab.ai.alphabeta_kernel`; this module deepens it one ply at a time
until the budget is spent, trying the previous depth's best moves first, and turns a chain of
actions into a whole :class:`Move`. With ``table`` the search keeps a transposition table
(:mod:`boardlab.ai.alphabeta_table`) across its iterations and moves, keyed by the game's own
position hash where its face names one (``search_key_field``).
"""

from __future__ import annotations

import random
import time

import numpy as np

from boardlab.ai import alphabeta_kernel as ab
from boardlab.ai import alphabeta_table as tt
from boardlab.ai.base import Agent, Analysis, Candidate, moves_to_choose_from, require_decision
from boardlab.core import kernel
from boardlab.core.game import Game
from boardlab.core.move import Move
from boardlab.core.view import View
from boardlab.errors import BoardlabError


class AlphaBetaAgent(Agent):
    """Minimax with alpha-beta pruning, deepening until ``seconds`` are spent (or ``max_depth``)."""

    def __init__(self, seconds: float = 1.0, max_depth: int = 32, seed: int | None = None,
                 name: str = "alphabeta", table: bool = False, quiescence: int = 0, contempt: float = 0.0,
                 evaluation: str = "default") -> None:
        if seconds <= 0:
            raise BoardlabError("an alpha-beta agent needs a positive time budget")
        self.seconds = seconds
        self.max_depth = min(max_depth, ab.MAX_DEPTH)
        self.name = name
        self._rng = random.Random(seed)
        self.depth_reached = 0
        self._root_depth = 0
        self._rate = 200_000.0  # nodes a second, as last measured
        if (quiescence or contempt) and not table:
            raise BoardlabError("alpha-beta's quiescence and contempt need its table: accepted with table=True")
        if not 0 <= quiescence <= ab.MAX_DEPTH or not 0.0 <= contempt <= 0.5:
            raise BoardlabError(f"alpha-beta: quiescence={quiescence}, contempt={contempt}: accepted: quiescence "
                                f"from 0 to {ab.MAX_DEPTH} plies, contempt from 0 to 0.5")
        self.table = tt.Table() if table else None
        self.quiescence = quiescence
        self.contempt = contempt
        self.evaluation = evaluation  # which of the game's evaluations scores the leaves (Game.evaluation_named)

    def describe(self, game: Game | None = None) -> str:
        on = (("table", self.table is not None), ("quiescence", self.quiescence), ("contempt", self.contempt),
              ("evaluation", "" if self.evaluation == "default" else self.evaluation))
        extra = [f"{name}={value}" for name, value in on if value]
        return ",".join([f"seconds={self.seconds},max_depth={self.max_depth}", *extra])

    def choose(self, view: View) -> Move:
        moves = moves_to_choose_from(view)
        if len(moves) == 1:
            return self._remember(None, moves[0])
        analysis = self.analyse(view, exact=1)
        return self._remember(analysis, analysis.best)

    def check(self, game: Game) -> None:
        if not game.has_evaluation or game.num_seats != 2 or not game.info.perfect_information:
            raise BoardlabError(f"alpha-beta needs a two-seat game of perfect information with an evaluation; "
                                f"{game.id} is not one")
        game.evaluation_named(self.evaluation)  # one the game has, or a one-line error

    def analyse(self, view: View, exact: int = 3) -> Analysis:
        """Root moves best first. Alpha-beta proves only the best one's value and bounds for the rest
        (a move is dropped once it is shown no better); the next ``exact - 1`` are searched again to
        the same depth for their own values. Moves left with a bound get the value ``None``."""
        game = view.game
        self.check(game)
        require_decision(view)
        state = view.state
        data = state.data.copy()
        path: list[int] = []
        first: list[tuple[int, float | None]] = []
        while True:
            # The first step gets the budget; each further step of the same turn (a capture chain)
            # a quarter of it, so that it is searched too rather than picked blind.
            share = self.seconds if not path else self.seconds / 4
            ranked = self._deepen(game, data, time.perf_counter() + share)
            if not path:
                first = self._settle(game, data, ranked, exact)
                self._root_depth = self.depth_reached  # the first step's depth, not a later step's
            action = ranked[0][0]
            path.append(action)
            game.apply_kernel(data, game.spec, action)
            if not (data[kernel.MID_TURN] and data[kernel.TO_MOVE] == state.to_move):
                break
        by_path = {move.path: move for move in state.legal_moves()}
        best = by_path[tuple(path)]
        depth = self._root_depth
        candidates = [Candidate(best, 0, first[0][1], depth)]
        for action, value in first[1:]:  # each first step once, with its best continuation
            move = next((m for p, m in by_path.items() if p[0] == action and m != best), None)
            if move is not None and all(c.move != move for c in candidates):
                candidates.append(Candidate(move, 0, value, depth))
        return Analysis(tuple(candidates), (best,))

    def _settle(self, game: Game, data: np.ndarray, ranked: list[tuple[int, float]],
                wanted: int) -> list[tuple[int, float | None]]:
        """``ranked`` with exact values for its best ``wanted`` moves and ``None`` for the rest.

        A runner-up's bound is an upper bound, so runners-up are searched again, highest bound first,
        until ``wanted`` exact values are at least every bound left (or the node budget is spent)."""
        depth = self.depth_reached
        if depth <= 1 or all(v <= 0.0 for _, v in ranked):
            return list(ranked)  # one ply deep every value is exact, and no bound lies below a loss
        exact = ranked[:1]
        budget = int(self._rate * self.seconds)
        for action, bound in ranked[1:]:
            if len(exact) >= wanted and exact[wanted - 1][1] >= bound:
                break
            values = np.zeros(1, np.float64)
            nodes = self._search(game, data, depth, np.array([action], np.int64), values, max(1000, budget))
            if nodes < 0:
                break
            budget -= nodes
            exact = sorted([*exact, (action, float(values[0]))], key=lambda item: -item[1])
        known = {a for a, _ in exact[:wanted]}
        return [*exact[:wanted], *((a, None) for a, _ in ranked if a not in known)]

    def _deepen(self, game: Game, data: np.ndarray, deadline: float) -> list[tuple[int, float]]:
        """Root actions with values from the deepest search that finished in time, best first."""
        out = np.empty(kernel.MAX_ACTIONS, np.int64)
        count = game.legal_kernel(data.copy(), game.spec, out)
        actions = [int(a) for a in out[:count]]
        self._rng.shuffle(actions)  # equal moves are chosen at random, not by board order
        ranked = [(a, 0.5) for a in actions]
        rate = 200_000.0  # nodes a second, until measured
        for depth in range(1, self.max_depth + 1):
            left = deadline - time.perf_counter()
            if left <= 0:
                break
            order = np.array([a for a, _ in ranked], np.int64)
            values = np.zeros(len(order), np.float64)
            began = time.perf_counter()
            nodes = self._search(game, data, depth, order, values, max(1000, int(rate * left)))
            spent = max(time.perf_counter() - began, 1e-6)
            if nodes < 0:
                break
            rate = max(rate, nodes / spent)
            self._rate = rate
            ranked = sorted(zip(order.tolist(), values.tolist(), strict=True), key=lambda item: -item[1])
            self.depth_reached = depth
            if ranked[0][1] >= 1.0 or all(v <= 0.0 for _, v in ranked):
                break  # the result is decided: deeper search cannot change the choice
        return ranked

    def _search(self, game: Game, data: np.ndarray, depth: int, order: np.ndarray, values: np.ndarray,
                node_limit: int) -> int:
        """One search to ``depth`` (the kernels' :func:`search`), with the table if this agent keeps one."""
        evaluate = game.evaluation_named(self.evaluation)
        if self.table is None:
            return int(ab.search(game.legal_kernel, game.apply_kernel, evaluate, data, game.spec,
                                 depth, order, values, node_limit))
        noisy = game.noisy_kernel or tt.no_noisy_moves
        return int(tt.search(game.legal_kernel, game.apply_kernel, evaluate, data, game.spec, depth,
                             order, values, node_limit, self.table.keys, self.table.info, self.table.values,
                             game.search_key_field, noisy, self.quiescence, self.contempt))
