"""The MCTS kernel passes views that hold no reference (``kernel.unowned``) down to the game's kernels and
its own helpers; it must search exactly as the same code does with the arrays themselves.

The reference is ``mcts_kernel.search``'s own Python code compiled again with ``unowned`` replaced by a
function that returns its argument, so that the two differ in nothing else. A buffer freed too early,
a view with the wrong shape or strides, or a view written where its owner is not would show as a
different tree (or a crash)."""

from __future__ import annotations

import types as pytypes
from typing import Any

import numpy as np
import pytest
from numba import njit

import boardlab
from boardlab.ai import make_agent
from boardlab.ai import mcts_kernel as mk
from boardlab.ai.mcts import MCTSAgent
from boardlab.core.registry import game_ids


@njit(cache=True)
def _owned(array):  # type: ignore[no-untyped-def]
    return array


@pytest.fixture(scope="module")
def owned_search() -> Any:
    """``mk.search`` compiled from the same code with the arrays passed as they are (not cached: the
    compiled copy would share the real kernel's cache entry)."""
    original = mk.search.py_func
    namespace = dict(vars(mk), unowned=_owned)
    function = pytypes.FunctionType(original.__code__, namespace, original.__name__, original.__defaults__,
                                    original.__closure__)
    return njit(mk.search.nopython_signatures[0])(function)


SPECS = ("uct:iterations=400", "uct:iterations=400,amaf=grave,ref=20,playout=mast",
         "uct:iterations=400,playout=nst,policy=gibbs,amaf=rave,paranoid=true")


def _play(game_id: str, spec: str) -> list[tuple[Any, ...]]:
    """Three searches (the tree reused between them), each's candidates and every tree array."""
    game = boardlab.load(game_id)
    agent = make_agent(spec, seed=11)
    assert isinstance(agent, MCTSAgent)
    agent.check(game)
    state = game.new_game()
    found: list[tuple[Any, ...]] = []
    for _ in range(3):
        if state.is_over:
            break
        analysis = agent.analyse(state.view(state.to_move))
        tree = agent._tree
        assert tree is not None
        arrays = tuple(array.copy() for array in (tree.nodes, tree.stats, tree.meta, tree.amaf, tree.history,
                                                  tree.gram_keys, tree.gram_stats))
        candidates = [(str(c.move), c.visits, c.value) for c in analysis.candidates]
        found.append((agent.iterations_done, candidates, arrays))
        state = state.play(analysis.best)
    return found


def _specs(game_id: str) -> list[str]:
    specs = list(SPECS)
    if game_id == "hmdg":
        specs.append("uct:iterations=400,merge_hidden=true,amaf=grave,ref=20")  # information-set search
    if boardlab.load(game_id).has_evaluation:  # implicit minimax backups need one
        specs.append("uct:iterations=400,implicit=0.4,cutoff=8")
    return specs


@pytest.mark.parametrize("game_id", game_ids())
def test_the_search_with_views_builds_the_tree_the_arrays_build(game_id: str, owned_search: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(*arguments: Any) -> int:
        calls.append(1)
        return int(owned_search(*arguments))

    for spec in _specs(game_id):
        with_views = _play(game_id, spec)
        before = len(calls)
        with monkeypatch.context() as patch:
            patch.setattr(mk, "search", counted)
            with_arrays = _play(game_id, spec)
        assert len(calls) > before  # the reference did the searching
        assert len(with_views) == len(with_arrays) > 0
        for (done, candidates, arrays), (done_b, candidates_b, arrays_b) in zip(with_views, with_arrays, strict=True):
            assert done == done_b > 0
            assert candidates == candidates_b
            assert sum(visits for _, visits, _ in candidates) > 0
            for mine, theirs in zip(arrays, arrays_b, strict=True):
                np.testing.assert_array_equal(mine, theirs)
