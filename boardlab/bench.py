"""Benchmarks of the rules kernels: random playouts per second, single-threaded.

A benchmark, not a test: it measures, it asserts nothing. ``boardlab bench GAME`` runs it.

>>> import boardlab
>>> from boardlab.bench import random_playout_bench
>>> result = random_playout_bench("ndengrod", {"size": 3, "length": 3}, seconds=0.05)
>>> result.playouts > 0 and result.mean_length > 0
True
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from boardlab.core import kernel
from boardlab.core.options import OptionValue
from boardlab.core.registry import load
from boardlab.errors import BoardlabError


@dataclass(frozen=True)
class BenchResult:
    """What one benchmark run measured."""

    game: str
    options: dict[str, OptionValue]
    seconds: float
    playouts: int
    moves: int
    playouts_per_s: float
    moves_per_s: float
    mean_length: float
    mean_score: list[float]
    load_s: float

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def random_playout_bench(
    game_id: str, options: dict[str, Any] | None = None, seconds: float = 3.0, seed: int = 1,
    variant: str | None = None,
) -> BenchResult:
    """Run random playouts from the start position for about ``seconds`` after a warm-up.

    ``load_s`` is the time to load the game and play the first playout: it includes loading the
    compiled kernels from numba's cache, or compiling them if the cache is cold.
    """
    began = time.perf_counter()
    game = load(game_id, variant=variant, **(options or {}))
    start = game.new_game().data.copy()
    tally = np.zeros(kernel.MAX_SEATS, np.int64)
    kernel.seed_kernels(seed)
    kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, 1, tally)
    load_s = time.perf_counter() - began

    probe_began = time.perf_counter()
    kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, 20, tally)
    per_playout = max((time.perf_counter() - probe_began) / 20, 1e-7)
    batch = max(1, int(0.2 / per_playout))  # read the clock a few times a second at most

    tally[:] = 0
    playouts = moves = 0
    began = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds or playouts == 0:
        moves += kernel.random_playouts(game.legal_kernel, game.apply_kernel, start, game.spec, batch, tally)
        playouts += batch
        elapsed = time.perf_counter() - began
    seats = game.num_seats
    return BenchResult(
        game=game.id,
        options=dict(game.options),
        seconds=round(elapsed, 3),
        playouts=playouts,
        moves=moves,
        playouts_per_s=round(playouts / elapsed, 1),
        moves_per_s=round(moves / elapsed, 1),
        mean_length=round(moves / playouts, 2),
        mean_score=[round(float(tally[s]) / 2 / playouts, 4) for s in range(seats)],
        load_s=round(load_s, 3),
    )


def mcts_bench(
    game_id: str, options: dict[str, Any] | None = None, seconds: float = 3.0, seed: int = 1,
    variant: str | None = None, agent_spec: str | None = None,
) -> dict[str, Any]:
    """MCTS iterations per second from the start position, single-threaded, after a warm-up.

    Plain UCT with random playouts, the solver off so that a small game cannot end the search early;
    or, with ``agent_spec`` (``level5``, ``uct:amaf=grave``), that agent's search in this game, for
    ``seconds`` instead of its own budget (its solver too, and MCTS even where it would play alpha-beta).
    """
    from boardlab.ai.levels import make_agent
    from boardlab.ai.mcts import MCTSAgent, SearchSettings

    game = load(game_id, variant=variant, **(options or {}))
    view = game.new_game().view(0)
    if agent_spec is None:
        settings = SearchSettings(solver=False, cutoff=0, algorithm="mcts")  # UCT, random playouts to the end
    else:
        named = make_agent(agent_spec)
        if not isinstance(named, MCTSAgent):
            raise BoardlabError(f"bench --agent {agent_spec}: accepted: an MCTS agent (level1…level5, uct:…)")
        named.check(game)
        settings = replace(named.settings_for(game), algorithm="mcts")
    MCTSAgent(replace(settings, iterations=200, seconds=None), seed=seed).analyse(view)
    agent = MCTSAgent(replace(settings, seconds=seconds, iterations=None, reuse_tree=False), seed=seed)
    analysis = agent.analyse(view)
    best = analysis.candidates[0]
    return {
        "game": game.id,
        "options": dict(game.options),
        "agent": agent_spec or "uct (random playouts, no solver)",
        "seconds": round(agent.seconds_used, 3),
        "iterations": agent.iterations_done,
        "iterations_per_s": round(agent.iterations_done / agent.seconds_used, 1),
        "nodes": agent.tree_size,
        "best_move": best.move.text,
        "best_visits": best.visits,
    }
