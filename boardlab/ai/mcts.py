"""MCTS agents: UCT with random playouts, MCTS-Solver, max-n or paranoid values, tree reuse.

>>> import boardlab
>>> from boardlab.ai.mcts import MCTSAgent, SearchSettings
>>> state = boardlab.load("ndengrod", size=3, length=3).new_game()
>>> agent = MCTSAgent(SearchSettings(iterations=500), seed=1)
>>> agent.choose(state.view(0)) in state.legal_moves()
True
>>> analysis = agent.analyse(state.view(0))
>>> sum(c.visits for c in analysis.candidates) >= 500
True

The search runs in numba (:mod:`boardlab.ai.mcts_kernel`); this module keeps the tree between
calls, meets time budgets by running batches, turns a chain of actions into a whole :class:`Move`,
and, for games of hidden information, searches over determinisations drawn from the seat's view.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

import numpy as np

from boardlab.ai import mcts_kernel as mk
from boardlab.ai.base import Agent, Analysis, Candidate, moves_to_choose_from, require_decision
from boardlab.ai.restricted import restricted_analysis, restriction_for
from boardlab.core import kernel
from boardlab.core.game import Game
from boardlab.core.move import Move
from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.ai.alphabeta import AlphaBetaAgent

Progress = Callable[[int, float, Analysis], None]


@dataclass(frozen=True)
class SearchSettings:
    """How an MCTS agent searches. Give ``iterations``, ``seconds``, or both (whichever ends first)."""

    iterations: int | None = None
    seconds: float | None = None
    exploration: float = 0.7
    solver: bool = True
    paranoid: bool = False
    reuse_tree: bool = True
    temperature: float = 0.0  # 0: play the most visited move; >0: sample by visits^(1/temperature)
    capacity: int = 0  # nodes; 0 sizes the tree from the budget
    batch: int = 256  # iterations between clock reads and progress reports
    determinizations_per_batch: int = 1
    # Playout plies before the game's evaluation scores the position: 0 plays every playout out,
    # -1 takes the game's own default (its measured improvement over plain UCT, where it has one).
    cutoff: int = -1
    # "auto": the game's own choice of search (alpha-beta for GTBM, where it measurably wins);
    # "mcts": always MCTS. ``depth`` bounds alpha-beta (0: as deep as the time allows).
    algorithm: str = "auto"
    depth: int = 0
    # Alpha-beta's enhancements (boardlab.ai.alphabeta_table; measured in docs/findings/search.md, GTBM):
    # ``table`` keeps a transposition table across the iterations and moves of a game; with it (and
    # only with it), ``quiescence`` searches up to that many plies of captures beyond the depth, and
    # ``contempt`` counts a drawn game that much below a half for the side searching.
    table: bool = False
    quiescence: int = 0
    contempt: float = 0.0
    # Which of the game's evaluations alpha-beta scores its leaves with (``Game.evaluations``; GTBM:
    # ``material``, ``fitted``); "default" is the game's own ``evaluate_kernel``.
    evaluation: str = "default"
    # Enhancements of the search, all off in plain UCT (sources in mcts_kernel's docstring; measured in
    # docs/findings/search.md). ``amaf``: "rave" or "grave" blends AMAF statistics into selection;
    # ``ref`` is GRAVE's threshold of playouts and ``bias`` its beta schedule's bias (Ludii's McGRAVE:
    # ref 100, bias 10.0e-6). ``playout``: "mast" or "nst" draws playout moves by their mean reward
    # over the search so far, ``policy`` "epsilon" (the best, else at random with chance ``epsilon``) or
    # "gibbs" (by exp(mean / ``tau``)). ``implicit``: the weight alpha of implicit minimax backups of
    # the game's evaluation (0: off; games with an evaluation only).
    amaf: str = "off"
    ref: int = 100
    bias: float = 1e-5
    playout: str = "random"
    policy: str = "epsilon"
    epsilon: float = 0.1
    tau: float = 0.1
    implicit: float = 0.0
    # Information-set search (hidden information): ``merge_hidden`` keeps what follows the moves the
    # other seats cannot tell apart (HMDG's secret targets on one announced line) in one place, so that
    # they do not decide below a hidden part as if they saw it (mcts_kernel: merged hidden moves).
    merge_hidden: bool = False
    # Restricted play (boardlab.ai.restricted): the name of a restriction the game declares
    # (Horsmeier: "no_sideways", "ignore_lifespan"); "" plays unrestricted.
    restrict: str = ""


# The enhancements' settings and their "off" values. A description leaves them out while they are off,
# so that agents that play as before these settings existed are described as before (match records).
ENHANCEMENTS = ("amaf", "ref", "bias", "playout", "policy", "epsilon", "tau", "implicit", "merge_hidden", "table",
                "quiescence", "contempt", "evaluation")
# Settings a description leaves out at their default, for the same reason.
OMITTED_AT_DEFAULT = (*ENHANCEMENTS, "restrict")
AMAF_KINDS = ("off", "rave", "grave")
PLAYOUTS = ("random", "mast", "nst")
POLICIES = ("epsilon", "gibbs")
# At most this many bytes of AMAF rows a tree (a row is seats x actions x 2 float32: 1 KB for Ndengrod,
# 43 KB for Möbiatus); nodes beyond the pool use the nearest reference above them.
AMAF_MEMORY = 128 * 2**20
NST_SLOTS = 1 << 16
NOTHING_MERGED = np.zeros(0, np.int64)


class Tree:
    """The search tree's arrays, rooted at a state; kept between moves for reuse."""

    def __init__(self, capacity: int, amaf_rows: int = 0, seats: int = 2, actions: int = 1, grams: int = 0) -> None:
        self.nodes = np.zeros((capacity, mk.NODE_FIELDS), np.int64)
        self.stats = np.zeros((capacity, mk.STAT_FIELDS), np.float64)
        self.meta = np.zeros(mk.META_FIELDS, np.int64)
        self.amaf, self.history, self.gram_keys, self.gram_stats = mk.tables(amaf_rows, seats, actions, grams)
        self.shape = (amaf_rows, seats, actions, grams)
        self.root_state: State | None = None

    @property
    def capacity(self) -> int:
        return int(self.nodes.shape[0])

    @property
    def size(self) -> int:
        return int(self.meta[mk.M_SIZE])

    @property
    def root(self) -> int:
        return int(self.meta[mk.M_ROOT])

    @property
    def amaf_rows_used(self) -> int:
        return int(self.meta[mk.M_AMAF_USED])

    def forget_playout_policy(self) -> None:
        """Empty the MAST and NST tables (learned afresh for every move)."""
        self.history[:] = 0.0
        self.gram_keys[:] = mk.EMPTY_KEY
        self.gram_stats[:] = 0.0

    def reset(self, state: State) -> None:
        self.meta[:] = 0
        mk.new_node(self.nodes, self.stats, self.meta, -1, -1)
        self.root_state = state

    def advance(self, state: State) -> bool:
        """Re-root at ``state`` if it follows the current root by moves the tree knows; else False."""
        old = self.root_state
        if old is None or old.game != state.game:
            return False
        before, now = old.history(), state.history()
        if now[: len(before)] != before or old.root.to_text() != state.root.to_text():
            return False
        node = self.root
        for move in now[len(before) :]:
            for action in move.path:
                node = self.child(node, action)
                if node < 0:
                    return False
        self.meta[mk.M_ROOT] = node
        self.root_state = state
        return True

    def child(self, node: int, action: int) -> int:
        child = int(self.nodes[self.nodes[node, mk.HOLDER], mk.FIRST_CHILD])
        while child >= 0:
            if self.nodes[child, mk.ACTION] == action:
                return child
            child = int(self.nodes[child, mk.NEXT_SIBLING])
        return -1

    def children(self, node: int) -> list[int]:
        """The choices at ``node``: its holder's children (its own, unless merged hidden moves share them)."""
        found = []
        child = int(self.nodes[self.nodes[node, mk.HOLDER], mk.FIRST_CHILD])
        while child >= 0:
            found.append(child)
            child = int(self.nodes[child, mk.NEXT_SIBLING])
        return found


class MCTSAgent(Agent):
    """UCT with random playouts, generic over every game's kernels."""

    def __init__(self, settings: SearchSettings | None = None, seed: int | None = None, name: str = "mcts",
                 per_game: Mapping[str, SearchSettings] | None = None) -> None:
        """``per_game``: settings that replace ``settings`` in the games named (a level tuned per game)."""
        self.settings = settings or SearchSettings(iterations=10_000)
        self.per_game = dict(per_game or {})
        for checked in (self.settings, *self.per_game.values()):
            _check(checked)
        self.name = name
        self._seed = seed if seed is not None else random.randrange(2**31)
        self._rng = random.Random(self._seed)
        self._seeded = False
        self._tree: Tree | None = None
        self.progress: Progress | None = None
        self.iterations_done = 0
        self.seconds_used = 0.0
        self.depth_reached = 0
        self._searcher: AlphaBetaAgent | None = None  # alpha-beta's, kept for its table (``table``)

    # -- the Agent interface ------------------------------------------------------------------

    def settings_for(self, game: Game | None) -> SearchSettings:
        """The settings this agent searches ``game`` with (its own, or those tuned for the game)."""
        return self.per_game.get(game.id, self.settings) if game is not None else self.settings

    def describe(self, game: Game | None = None) -> str:
        """Every search setting as ``name=value,…``: what a spec accepts after its colon (``uct:…``).

        The settings for ``game`` where given; the enhancements and a restriction only where they are on."""
        settings = self.settings_for(game)
        plain = SearchSettings()
        return ",".join(f"{f.name}={getattr(settings, f.name)}" for f in fields(settings)
                        if f.name not in OMITTED_AT_DEFAULT or getattr(settings, f.name) != getattr(plain, f.name))

    def check(self, game: Game) -> None:
        settings = self.settings_for(game)
        restriction_for(game, settings.restrict)  # one the game declares, or none
        if settings.evaluation != "default":
            game.evaluation_named(settings.evaluation)  # one the game has, or a one-line error
            if settings.algorithm != "auto" or game.search_algorithm != "alphabeta":
                raise BoardlabError(f"search setting evaluation={settings.evaluation!r} chooses alpha-beta's "
                                    f"evaluation; {game.id} is searched by MCTS here: accepted: evaluation=default")
        if settings.implicit > 0 and not game.has_evaluation:
            raise BoardlabError(f"search setting implicit={settings.implicit}: {game.id} has no evaluation to "
                                "back up; accepted there: implicit=0")

    def choose(self, view: View) -> Move:
        moves = moves_to_choose_from(view)
        if len(moves) == 1:
            return self._remember(None, moves[0])
        analysis = self.analyse(view, exact=1)
        return self._remember(analysis, self._pick(analysis, self.settings_for(view.game)))

    def analyse(self, view: View, settings: SearchSettings | None = None, exact: int = 3) -> Analysis:
        """Search from ``view`` and rank its moves (whole turns) by visits, best first.

        Where the game is searched by alpha-beta, ``exact`` is how many of the best moves get exact
        values (:meth:`AlphaBetaAgent.analyse`); a move is chosen on the best one's alone.

        With ``restrict`` set, the search runs on the restriction's model of ``view`` and the
        analysis keeps only the moves the restriction allows (:mod:`boardlab.ai.restricted`)."""
        settings = settings or self.settings_for(view.game)
        require_decision(view)
        self.check(view.game)
        self._seed_kernels()
        restriction = restriction_for(view.game, settings.restrict)
        if restriction is None:
            return self._search(view, settings, exact)
        analysis = self._search(restriction.model(view), settings, exact)
        return restricted_analysis(analysis, view, restriction, self._rng)

    def _search(self, view: View, settings: SearchSettings, exact: int) -> Analysis:
        if settings.algorithm == "auto" and view.game.search_algorithm == "alphabeta":
            return self._alphabeta(view, settings, exact)
        if view.game.info.perfect_information:
            return self._search_state(view.state, settings)
        return self._search_information_set(view, settings)

    def _alphabeta(self, view: View, settings: SearchSettings, exact: int) -> Analysis:
        """The same budget spent on alpha-beta: ``depth`` plies at most, ``seconds`` (or 10 s) at most."""
        from boardlab.ai.alphabeta import AlphaBetaAgent

        seconds, max_depth = settings.seconds or 10.0, settings.depth or 32
        if settings.table:  # one searcher for the whole game, so that its table carries over
            searcher = self._searcher
            if searcher is None or (searcher.seconds, searcher.max_depth, searcher.quiescence, searcher.contempt,
                                    searcher.evaluation) != (seconds, max_depth, settings.quiescence,
                                                             settings.contempt, settings.evaluation):
                searcher = AlphaBetaAgent(seconds=seconds, max_depth=max_depth, seed=self._rng.randrange(2**31),
                                          table=True, quiescence=settings.quiescence, contempt=settings.contempt,
                                          evaluation=settings.evaluation)
                self._searcher = searcher
        else:
            searcher = AlphaBetaAgent(seconds=seconds, max_depth=max_depth, seed=self._rng.randrange(2**31),
                                      evaluation=settings.evaluation)
        began = time.perf_counter()
        analysis = searcher.analyse(view, exact)
        self.iterations_done = 0
        self.seconds_used = time.perf_counter() - began
        self.depth_reached = searcher.depth_reached
        return analysis

    # -- searching ----------------------------------------------------------------------------

    def _seed_kernels(self) -> None:
        if not self._seeded:
            kernel.seed_kernels(self._seed % 2**32)  # any int seed; numba's takes 32 bits
            self._seeded = True

    def _params(self, game: Game, seat: int, settings: SearchSettings, infoset: bool) -> np.ndarray:
        params = np.zeros(mk.PARAM_FIELDS, np.float64)
        params[mk.P_EXPLORATION] = settings.exploration
        params[mk.P_SOLVER] = float(settings.solver and game.num_seats == 2 and not infoset)
        params[mk.P_PARANOID] = float(settings.paranoid)
        params[mk.P_ROOT_SEAT] = seat
        params[mk.P_INFOSET] = float(infoset)
        params[mk.P_SEATS] = game.num_seats
        params[mk.P_ACTION_LIMIT] = game.action_limit
        cutoff = settings.cutoff if settings.cutoff >= 0 else game.search_cutoff
        params[mk.P_CUTOFF] = cutoff if game.has_evaluation else 0
        params[mk.P_AMAF] = float(settings.amaf != "off")
        params[mk.P_REF] = settings.ref if settings.amaf == "grave" else 0
        params[mk.P_BIAS] = settings.bias
        params[mk.P_AMAF_FROM] = max(1, settings.ref // 4) if settings.amaf == "grave" else 1
        params[mk.P_PLAYOUT] = PLAYOUTS.index(settings.playout)
        params[mk.P_POLICY] = POLICIES.index(settings.policy)
        params[mk.P_EPSILON] = settings.epsilon
        params[mk.P_TAU] = settings.tau
        params[mk.P_IMPLICIT] = settings.implicit if game.has_evaluation and not infoset else 0.0
        params[mk.P_ACTIONS] = game.num_distinct_actions
        return params

    def _tree_for(self, state: State, settings: SearchSettings) -> Tree:
        game = state.game
        capacity = settings.capacity or _capacity_for(settings)
        seats, actions = game.num_seats, game.num_distinct_actions
        rows = 0
        if settings.amaf != "off":
            rows = int(min(capacity, max(64, AMAF_MEMORY // (8 * seats * actions))))
        shape = (rows, seats, actions, NST_SLOTS if settings.playout == "nst" else 0)
        tree = self._tree
        if tree is None or tree.capacity < capacity or tree.shape != shape:
            tree = self._tree = Tree(capacity, *shape)
            tree.reset(state)
        elif (not (settings.reuse_tree and tree.advance(state)) or tree.size > 0.5 * tree.capacity
              or tree.amaf_rows_used > 0.5 * tree.amaf.shape[0]):
            tree.reset(state)
        tree.forget_playout_policy()
        return tree

    def _search_state(self, state: State, settings: SearchSettings) -> Analysis:
        game = state.game
        assert state.to_move is not None
        tree = self._tree_for(state, settings)
        params = self._params(game, state.to_move, settings, infoset=False)
        data = state.data.copy()

        def run(count: int) -> int:
            return int(mk.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, game.spec,
                                 tree.nodes, tree.stats, tree.meta, params, count,
                                 tree.amaf, tree.history, tree.gram_keys, tree.gram_stats, NOTHING_MERGED))

        self._run_budget(run, settings, lambda: self._analysis(tree, state))
        return self._analysis(tree, state)

    def _search_information_set(self, view: View, settings: SearchSettings) -> Analysis:
        """Information-set MCTS: one tree over many determinisations, each drawn from the view alone."""
        game = view.game
        assert view.seat is not None
        rng = random.Random(self._rng.randrange(2**63))
        sample = game.determinize(view, rng)  # the tree's root is the information set, not this sample
        tree = self._tree_for(sample, replace(settings, reuse_tree=False))
        params = self._params(game, view.seat, settings, infoset=True)
        observed = game.observed_actions if settings.merge_hidden else NOTHING_MERGED

        def run(count: int) -> int:
            nonlocal sample
            parts = max(1, min(settings.determinizations_per_batch, count))
            done = 0
            for part in range(parts):
                sample = game.determinize(view, rng)
                share = count // parts + (1 if part < count % parts else 0)
                ran = int(mk.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, sample.data.copy(),
                                    game.spec, tree.nodes, tree.stats, tree.meta, params, share,
                                    tree.amaf, tree.history, tree.gram_keys, tree.gram_stats, observed))
                done += ran
                if ran < share:
                    break  # the tree is full
            return done

        self._run_budget(run, settings, lambda: self._analysis(tree, sample, view=view))
        return self._analysis(tree, sample, view=view)

    def _run_budget(self, run: Callable[[int], int], settings: SearchSettings,
                    snapshot: Callable[[], Analysis]) -> int:
        began = time.perf_counter()
        total = 0
        while True:
            step = settings.batch
            if settings.iterations:
                step = min(step, settings.iterations - total)
            done = run(step) if step > 0 else 0
            total += done
            elapsed = time.perf_counter() - began
            if self.progress is not None:
                self.progress(total, elapsed, snapshot())
            if done < step or step <= 0:
                break  # the tree is full, the root is proven, or the iterations are spent
            if settings.seconds and elapsed >= settings.seconds:
                break
        self.iterations_done = total
        self.seconds_used = time.perf_counter() - began
        return total

    @property
    def tree_size(self) -> int:
        """Nodes in the current tree (0 before the first search)."""
        return self._tree.size if self._tree is not None else 0

    # -- reading the tree ---------------------------------------------------------------------

    def _analysis(self, tree: Tree, state: State, view: View | None = None) -> Analysis:
        """Whole-turn candidates from the root: each first action, completed by its most visited line."""
        nodes, stats = tree.nodes, tree.stats
        seat = int(nodes[tree.root, mk.NODE_TO_MOVE])
        legal = {move.path: move for move in (view.legal_moves() if view is not None else state.legal_moves())}
        candidates = []
        for child in tree.children(tree.root):
            path, line, end = self._turn_from(tree, state, child)
            move = legal.get(path)
            if move is None:
                continue
            visits = int(stats[child, mk.VISITS])
            value = _value(nodes, stats, end, seat)
            candidates.append((self._rank(nodes, stats, child, seat), Candidate(move, visits, value), line))
        candidates.sort(key=lambda item: item[0], reverse=True)
        if not candidates:
            return Analysis(())
        best = candidates[0]
        return Analysis(tuple(c for _, c, _ in candidates), (best[1].move, *best[2]))

    @staticmethod
    def _rank(nodes: np.ndarray, stats: np.ndarray, child: int, seat: int) -> tuple[int, float]:
        """How good ``child`` is for ``seat``: proven wins first, proven losses last, else by visits."""
        proven = int(nodes[child, mk.PROVEN])
        verdict = 1 if proven == seat else (-1 if proven >= 0 else 0)
        return (verdict, float(stats[child, mk.VISITS]))

    def _best_child(self, tree: Tree, node: int, seat: int) -> int:
        """The child of ``node`` that ``seat`` would pick (-1 if none): the same rule as at the root."""
        children = tree.children(node)
        if not children:
            return -1
        return max(children, key=lambda c: self._rank(tree.nodes, tree.stats, c, seat))

    def _finish_turn(self, tree: Tree, game: Game, data: np.ndarray, node: int, path: list[int],
                     mover: int) -> tuple[int, bool]:
        """Extend ``path`` (already applied to ``data``) through the rest of ``mover``'s turn, best step first.

        Returns the node reached and whether the tree covered the whole turn.
        """
        while data[kernel.MID_TURN] and data[kernel.TO_MOVE] == mover:
            child = self._best_child(tree, node, mover)
            if child < 0:
                path.extend(_complete_turn(game, data, mover))
                return node, False
            node = child
            path.append(int(tree.nodes[node, mk.ACTION]))
            game.apply_kernel(data, game.spec, path[-1])
        return node, True

    def _turn_from(self, tree: Tree, state: State, first: int) -> tuple[tuple[int, ...], list[Move], int]:
        """The whole turn starting with ``first`` (its best steps after it), and the line that follows."""
        game = state.game
        data = state.data.copy()
        mover = int(data[kernel.TO_MOVE])
        path = [int(tree.nodes[first, mk.ACTION])]
        game.apply_kernel(data, game.spec, path[-1])
        node, complete = self._finish_turn(tree, game, data, first, path, mover)
        line: list[Move] = []
        if complete and game.info.perfect_information:
            line = self._principal_line(tree, node, State(game, data.copy()))
        return tuple(path), line, node

    def _principal_line(self, tree: Tree, node: int, state: State, limit: int = 12) -> list[Move]:
        """The expected continuation: whole turns along the best children, while they are searched."""
        line: list[Move] = []
        game = state.game
        while len(line) < limit and not state.is_over:
            assert state.to_move is not None
            best = self._best_child(tree, node, state.to_move)
            if best < 0 or tree.stats[best, mk.VISITS] < 2:
                break
            data = state.data.copy()
            path = [int(tree.nodes[best, mk.ACTION])]
            game.apply_kernel(data, game.spec, path[-1])
            node, complete = self._finish_turn(tree, game, data, best, path, state.to_move)
            move = next((m for m in state.legal_moves() if m.path == tuple(path)), None)
            if not complete or move is None:
                break
            line.append(move)
            state = state.play(move)
        return line

    def _pick(self, analysis: Analysis, settings: SearchSettings) -> Move:
        candidates = analysis.candidates
        if settings.temperature <= 0 or len(candidates) == 1 or candidates[0].value == 1.0:
            return candidates[0].move  # a proven win is played, whatever the temperature
        candidates = tuple(c for c in candidates if c.value != 0.0 or c.visits == 0) or candidates
        if not any(c.visits for c in candidates):  # alpha-beta: weigh by value instead of visits
            weights = [max(c.value or 0.0, 1e-3) ** (1.0 / settings.temperature) for c in candidates]
            return self._rng.choices([c.move for c in candidates], weights=weights)[0]
        weights = [max(c.visits, 1) ** (1.0 / settings.temperature) for c in candidates]
        return self._rng.choices([c.move for c in candidates], weights=weights)[0]


def _check(settings: SearchSettings) -> None:
    """Refuse settings that cannot search, saying what is accepted."""
    if not settings.iterations and not settings.seconds:
        raise BoardlabError("an MCTS agent needs a budget: iterations, seconds, or both")
    positive = {"iterations": settings.iterations, "seconds": settings.seconds, "batch": settings.batch,
                "determinizations_per_batch": settings.determinizations_per_batch}
    for name, value in positive.items():
        if value is not None and value <= 0:
            raise BoardlabError(f"search setting {name}={value}: accepted: a positive number")
    if settings.capacity and settings.capacity < 2:
        raise BoardlabError(f"search setting capacity={settings.capacity}: accepted: 0 (automatic) or at least 2")
    if settings.algorithm not in ("auto", "mcts"):
        raise BoardlabError(f"search setting algorithm={settings.algorithm!r}: accepted: auto, mcts")
    if settings.cutoff < -1 or settings.depth < 0 or settings.temperature < 0 or settings.exploration < 0:
        raise BoardlabError("search settings cutoff (-1 or more), depth, temperature and exploration "
                            "(0 or more) cannot be negative")
    for name, accepted in (("amaf", AMAF_KINDS), ("playout", PLAYOUTS), ("policy", POLICIES)):
        if getattr(settings, name) not in accepted:
            raise BoardlabError(f"search setting {name}={getattr(settings, name)!r}: accepted: {', '.join(accepted)}")
    numbers = {"ref": (settings.ref, 0, 10**9), "bias": (settings.bias, 0.0, 100.0),
               "epsilon": (settings.epsilon, 0.0, 1.0), "tau": (settings.tau, 1e-6, 100.0),
               "implicit": (settings.implicit, 0.0, 1.0), "quiescence": (settings.quiescence, 0, 64),
               "contempt": (settings.contempt, 0.0, 0.5)}
    for name, (value, low, high) in numbers.items():
        if not low <= value <= high:  # false for nan
            raise BoardlabError(f"search setting {name}={value}: accepted: a number from {low:g} to {high:g}")


def _value(nodes: np.ndarray, stats: np.ndarray, node: int, seat: int) -> float | None:
    proven = int(nodes[node, mk.PROVEN])
    if proven == seat:
        return 1.0
    if proven == mk.DRAWN:
        return 0.5
    if proven >= 0:
        return 0.0
    visits = stats[node, mk.VISITS]
    return float(stats[node, mk.VALUE + seat] / visits) if visits else None


def _complete_turn(game: Game, data: np.ndarray, seat: int) -> list[int]:
    """Finish a turn the tree never explored with the first legal steps (rare: tiny budgets)."""
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    path = []
    while data[kernel.MID_TURN] and data[kernel.TO_MOVE] == seat:
        game.legal_kernel(data, game.spec, out)
        path.append(int(out[0]))
        game.apply_kernel(data, game.spec, int(out[0]))
    return path


def _capacity_for(settings: SearchSettings) -> int:
    """Enough nodes for the budget (one node per iteration, plus reuse), within memory reason."""
    wanted = 0
    if settings.iterations:
        wanted = settings.iterations
    if settings.seconds:
        wanted = max(wanted, int(settings.seconds * 150_000)) if not settings.iterations else min(
            wanted, int(settings.seconds * 150_000))
    return int(min(max(2 * wanted, 4096), 4_000_000))
