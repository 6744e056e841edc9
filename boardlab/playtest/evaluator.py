"""The fixed evaluator: one judge of positions that does not play, the same for every agent of a run.

The estimate-based metrics (LeadChange, Stability, Drama, Decisiveness, StateEvaluationDifference,
Clarity) and the report's win-chance trajectories need every seat's chances in every recorded
position. The playing agents' own estimates will not do: a mover's best-move value is the maximum of
noisy values, biased upward (with level 1 the mover's estimate was above ½ on 98.7% of turns, which
made every game look like a see-saw), and it changes with the agent. So, as Ludii's Evaluation module
does (``metrics.Utils.evaluateState`` / ``allPlayerStateEvaluations``: one heuristic evaluation per
player, not the playing AI), every position of every game of a run is scored afterwards by one fixed
evaluator, named in the plan and the report:

``evaluation``
    the game's own heuristic evaluation (``Game.evaluate_kernel``; Horsmeier, Mynd, Möbiatus, GTBM),
    deterministic, as Ludii uses its games' heuristics.
``playouts:n=N,move_n=M,seed=S``
    a fixed-budget Monte Carlo search for games without an evaluation (Ndengrod, HMDG): a position's
    value for each seat is its mean result (win 1, draw ½) over ``N`` uniformly random playouts;
    each legal move is scored by ``M`` playouts from the position after it (for Clarity). The random
    numbers are seeded by the position itself, so a position gets the same value in every game,
    variant and run. Random play is not good play, but it is the same for everyone and has no
    mover's optimism: its value of a position is an unbiased estimate of a fixed quantity.
``auto``
    ``evaluation`` where the game has one, else ``playouts`` with the defaults below.

A finished game's position is worth its result to each seat (Ludii: the rank utilities), whatever the
evaluator. Values are chances in [0, 1]; Ludii's are in [−1, 1] (``tanh`` of a heuristic score), so
its numbers are ``2v − 1`` of ours. Hidden information (HMDG) does not matter here: the evaluator is an
analyst after the game, seeing the whole position, as Ludii's does.

>>> import boardlab
>>> game = boardlab.load("ndengrod", size=3, length=3)
>>> judge = make_evaluator("auto", game)
>>> judge.spec
'playouts:n=400,move_n=40,seed=0'
>>> values = judge.state_values(game, game.new_game().data)
>>> len(values), 0.0 <= values[0] <= 1.0, values == judge.state_values(game, game.new_game().data)
(2, True, True)
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Sequence

import numpy as np

from boardlab.core import kernel
from boardlab.core.game import Game
from boardlab.errors import BoardlabError

PLAYOUTS = 400
MOVE_PLAYOUTS = 40
KINDS = ("auto", "evaluation", "playouts")


class Evaluator(ABC):
    """Scores positions for every seat; never plays."""

    spec: str

    @abstractmethod
    def describe(self) -> str:
        """In words, for the report."""

    @abstractmethod
    def _values(self, game: Game, data: np.ndarray) -> list[float]:
        """Each seat's chances in an unfinished position."""

    def state_values(self, game: Game, data: np.ndarray) -> list[float]:
        """Each seat's chances in [0, 1] in the position ``data`` (its result once the game is over)."""
        result = kernel.final_result(data, game.num_seats)
        if result is not None:
            return [float(r) for r in result]
        return self._values(game, np.array(data, np.int64))

    def move_values(self, game: Game, data: np.ndarray, paths: Sequence[Sequence[int]]) -> list[float]:
        """The mover's chances after each move (a path of actions) of the position ``data``."""
        mover = int(data[kernel.TO_MOVE])
        out = []
        for path in paths:
            after = np.array(data, np.int64)
            for action in path:
                game.apply_kernel(after, game.spec, action)
            out.append(self._after_move(game, after, mover))
        return out

    def _after_move(self, game: Game, data: np.ndarray, mover: int) -> float:
        return self.state_values(game, data)[mover]

    def move_noise(self, value: float) -> float:
        """The sampling variance of one move's value (0 for a deterministic evaluator)."""
        return 0.0


class GameEvaluation(Evaluator):
    """The game's own heuristic evaluation."""

    spec = "evaluation"

    def describe(self) -> str:
        return "the game's own evaluation (deterministic; a finished game scores its result)"

    def _values(self, game: Game, data: np.ndarray) -> list[float]:
        values = np.zeros(kernel.MAX_SEATS, np.float64)
        game.evaluate_kernel(data, game.spec, values)
        return [float(v) for v in values[: game.num_seats]]


class PlayoutEvaluation(Evaluator):
    """The mean result of a fixed number of uniformly random playouts, seeded by the position."""

    def __init__(self, playouts: int = PLAYOUTS, move_playouts: int = MOVE_PLAYOUTS, seed: int = 0) -> None:
        if playouts < 1 or move_playouts < 1:
            raise BoardlabError(f"evaluator playouts:n={playouts},move_n={move_playouts}: accepted: positive numbers")
        self.playouts = playouts
        self.move_playouts = move_playouts
        self.seed = seed
        self.spec = f"playouts:n={playouts},move_n={move_playouts},seed={seed}"

    def describe(self) -> str:
        return (f"Monte Carlo: the mean result of {self.playouts} uniformly random playouts from each position "
                f"({self.move_playouts} after each legal move, for Clarity), seeded by the position "
                f"(seed {self.seed})")

    def _mean(self, game: Game, data: np.ndarray, count: int) -> list[float]:
        digest = hashlib.blake2b(data.tobytes(), digest_size=4, key=str(self.seed).encode())
        kernel.seed_kernels(int.from_bytes(digest.digest(), "little"))
        tally = np.zeros(kernel.MAX_SEATS, np.int64)
        kernel.random_playouts(game.legal_kernel, game.apply_kernel, data, game.spec, count, tally)
        return [float(t) / (2 * count) for t in tally[: game.num_seats]]

    def _values(self, game: Game, data: np.ndarray) -> list[float]:
        return self._mean(game, data, self.playouts)

    def _after_move(self, game: Game, data: np.ndarray, mover: int) -> float:
        result = kernel.final_result(data, game.num_seats)
        if result is not None:
            return float(result[mover])
        return self._mean(game, data, self.move_playouts)[mover]

    def move_noise(self, value: float) -> float:
        """``p (1 − p) / move_n``: the sampling variance of a mean of ``move_n`` results in [0, 1] with mean
        ``p`` is at most this (draws make it smaller), so subtracting it never over-states Clarity."""
        return value * (1.0 - value) / self.move_playouts


def resolve(spec: str, game: Game) -> str:
    """``auto`` made concrete for ``game`` (what the plan records), other specs checked and normalised."""
    return make_evaluator(spec, game).spec


def make_evaluator(spec: str, game: Game) -> Evaluator:
    """The evaluator that ``spec`` names for ``game``; :class:`BoardlabError` says what is accepted."""
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind not in KINDS:
        raise BoardlabError(f"--evaluator {spec!r}: accepted: auto, evaluation, playouts:n=N,move_n=M,seed=S")
    if kind == "auto":
        if rest:
            raise BoardlabError(f"--evaluator {spec!r}: auto takes no settings")
        return GameEvaluation() if game.has_evaluation else PlayoutEvaluation()
    if kind == "evaluation":
        if rest:
            raise BoardlabError(f"--evaluator {spec!r}: evaluation takes no settings")
        if not game.has_evaluation:
            raise BoardlabError(f"--evaluator evaluation: {game.id} has no evaluation of its own; "
                                "accepted: auto or playouts:n=N,move_n=M,seed=S")
        return GameEvaluation()
    settings = {"n": PLAYOUTS, "move_n": MOVE_PLAYOUTS, "seed": 0}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, sep, value = item.partition("=")
        if not sep or name not in settings or not value.strip().lstrip("-").isdecimal():
            raise BoardlabError(f"--evaluator {spec!r}: accepted settings: n=N, move_n=M, seed=S (whole numbers)")
        settings[name] = int(value)
    if not (1 <= settings["n"] <= 1_000_000 and 1 <= settings["move_n"] <= 1_000_000):
        raise BoardlabError(f"--evaluator {spec!r}: n and move_n: accepted: 1 to 1000000")
    return PlayoutEvaluation(settings["n"], settings["move_n"], settings["seed"])
