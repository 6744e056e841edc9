"""The alpha-beta kernels pass views that hold no reference (``kernel.unowned``) down to the game's kernels
and their own helpers; they must search exactly the tree the same code searches with the arrays themselves.

Two references. First, ``alphabeta_kernel.search`` and ``alphabeta_table.search``'s own Python code compiled
again with ``unowned`` replaced by a function that returns its argument, so that the two differ in nothing
else: a buffer freed too early, a view with the wrong shape or strides, or a view written where its owner is
not would show as other nodes, values or table entries (or a crash). Second, figures recorded from the code
as it was before the views (commit 65974bf): nodes, values and principal variations of fixed positions, which
would also catch a change to the code the two builds share. Third, since nothing in a search takes memory
after its buffers are made, a buffer freed too early would go unseen by both: the searches again with an
evaluation that takes memory of the buffers' sizes at every leaf (a buffer left out of ``alive`` in either
kernel failed it, or crashed, when tried)."""

from __future__ import annotations

import random
import types as pytypes
from typing import Any

import numpy as np
import pytest
from numba import njit

import boardlab
from boardlab.ai import alphabeta_kernel as ab
from boardlab.ai import alphabeta_table as tt
from boardlab.ai.alphabeta import AlphaBetaAgent
from boardlab.core import kernel
from boardlab.core.registry import game_ids

# The games alpha-beta can search (two seats, perfect information, an evaluation), with a depth each
# that searches some thousands of nodes from a position some plies into a game.
DEPTHS = {"gtbm": 6, "horsmeier": 4, "mynd": 4, "mobiatus": 4}
PLIES = (6, 20)
QUIESCENCE = 2
CONTEMPT = 0.05


@njit(cache=True)
def _owned(array):  # type: ignore[no-untyped-def]
    return array


def _compiled_with_arrays(function: Any, module: pytypes.ModuleType) -> Any:
    """``function`` compiled from the same code with the arrays passed as they are (not cached: the
    compiled copy would share the real kernel's cache entry)."""
    original = function.py_func
    namespace = dict(vars(module), unowned=_owned)
    copy = pytypes.FunctionType(original.__code__, namespace, original.__name__, original.__defaults__,
                                original.__closure__)
    return njit(function.nopython_signatures[0])(copy)


@pytest.fixture(scope="module")
def owned() -> dict[str, Any]:
    return {"plain": _compiled_with_arrays(ab.search, ab), "table": _compiled_with_arrays(tt.search, tt)}


def position(game_id: str, plies: int, seed: int) -> boardlab.State:
    """The position after ``plies`` turns of moves drawn at random (``seed``) from the legal ones."""
    rng = random.Random(seed)
    state = boardlab.load(game_id).new_game()
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    assert not state.is_over
    return state


def root_actions(state: boardlab.State) -> np.ndarray:
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    count = state.game.legal_kernel(state.data.copy(), state.game.spec, out)
    return out[:count].copy()


def principal_variation(state: boardlab.State, values: np.ndarray, order: np.ndarray, table: tt.Table,
                        depth: int) -> list[int]:
    """The best root action, then each position's best move as the table stored it, ``depth`` plies at most."""
    game = state.game
    line = [int(order[int(np.argmax(values))])]
    data = state.data.copy()
    game.apply_kernel(data, game.spec, line[0])
    mask = len(table.keys) - 1
    while len(line) < depth and data[kernel.TO_MOVE] >= 0:
        key = tt.position_key(data, game.search_key_field)
        slot = key & mask
        if table.keys[slot] != key or table.info[slot, tt.I_MOVE] < 0:
            break
        line.append(int(table.info[slot, tt.I_MOVE]))
        game.apply_kernel(data, game.spec, line[-1])
    return line


def searches(state: boardlab.State, depth: int, plain: Any = None, table_search: Any = None,
             evaluate: Any = None) -> dict[str, Any]:
    """What the kernels find at ``state`` (``plain``/``table_search`` in place of ``ab.search``/``tt.search``,
    ``evaluate`` of the game's evaluation): the plain search to ``depth``; the same stopped by a node limit
    half way; and iterative deepening from 1 to ``depth`` with one table, quiescence and contempt, each
    iteration's nodes and values, then the principal variation and every table array."""
    plain = plain or ab.search
    table_search = table_search or tt.search
    game = state.game
    evaluate = evaluate or game.evaluate_kernel
    order = root_actions(state)
    found: dict[str, Any] = {}
    values = np.zeros(len(order))
    nodes = int(plain(game.legal_kernel, game.apply_kernel, evaluate, state.data.copy(), game.spec,
                      depth, order, values, 10**9))
    found["plain"] = (nodes, values.tolist())
    values = np.zeros(len(order))
    stopped = int(plain(game.legal_kernel, game.apply_kernel, evaluate, state.data.copy(), game.spec,
                        depth, order, values, nodes // 2))
    found["stopped"] = (stopped, values.tolist())
    table = tt.Table(1 << 18)
    noisy = game.noisy_kernel or tt.no_noisy_moves
    deepening = []
    for iteration in range(1, depth + 1):
        values = np.zeros(len(order))
        nodes = int(table_search(game.legal_kernel, game.apply_kernel, evaluate, state.data.copy(),
                                 game.spec, iteration, order, values, 10**9, table.keys, table.info, table.values,
                                 game.search_key_field, noisy, QUIESCENCE, CONTEMPT))
        deepening.append((nodes, values.tolist()))
    found["deepening"] = deepening
    found["line"] = principal_variation(state, values, order, table, depth)
    found["arrays"] = (table.keys.copy(), table.info.copy(), table.values.copy())
    return found


def test_the_games_searched_are_those_alpha_beta_can_search() -> None:
    searchable = [g for g in game_ids() if boardlab.load(g).num_seats == 2 and boardlab.load(g).has_evaluation
                  and boardlab.load(g).info.perfect_information]
    assert sorted(searchable) == sorted(DEPTHS)


@pytest.mark.parametrize("game_id", sorted(DEPTHS))
def test_the_searches_with_views_search_the_tree_the_arrays_search(game_id: str, owned: dict[str, Any]) -> None:
    for plies, seed in zip(PLIES, (3, 4), strict=True):
        state = position(game_id, plies, seed)
        mine = searches(state, DEPTHS[game_id])
        theirs = searches(state, DEPTHS[game_id], owned["plain"], owned["table"])
        assert mine["plain"] == theirs["plain"]
        assert mine["plain"][0] > len(root_actions(state))  # it searched below the root
        assert mine["stopped"] == theirs["stopped"]
        assert mine["stopped"][0] == -1  # the node limit stopped it
        assert mine["deepening"] == theirs["deepening"]
        assert mine["line"] == theirs["line"]
        for array, other in zip(mine["arrays"], theirs["arrays"], strict=True):
            np.testing.assert_array_equal(array, other)
        assert np.count_nonzero(mine["arrays"][0]) > 0  # the table was written


def scribbling(evaluate: Any, sizes: tuple[int, ...]) -> Any:
    """``evaluate``, after taking memory of each of ``sizes`` (int64 items) and filling it with junk.

    The searches make their buffers before they take views of them; a buffer freed after its last use
    by name (not kept ``alive``) would then be freed memory nothing else takes, and searched as if it
    were not. Taking memory of the buffers' sizes at every leaf hands such a block over, and the junk
    written into it shows as another tree (or a crash)."""
    @njit(kernel.EVALUATE_SIG)
    def scribbled(state, spec, values):  # type: ignore[no-untyped-def]
        for size in sizes:
            junk = np.full(size, -7, np.int64)
            junk[size // 2] = state[0]
        evaluate(state, spec, values)
    return scribbled


@pytest.mark.parametrize("game_id", sorted(DEPTHS))
def test_memory_taken_during_the_search_does_not_change_it(game_id: str) -> None:
    depth = DEPTHS[game_id]
    state = position(game_id, PLIES[0], 3)
    length = len(state.data)
    # Each buffer's size in either search, with every depth of the deepening (all but the moves', which
    # are large enough to be mapped afresh and given back when freed: a crash at their first use).
    sizes = {kernel.MAX_SEATS, length, kernel.MAX_ACTIONS}
    for levels in range(2, depth + QUIESCENCE + 2):
        sizes |= {levels, levels * length}
    scribbled = scribbling(state.game.evaluate_kernel, tuple(sorted(sizes)))
    expected = searches(state, depth)
    found = searches(state, depth, evaluate=scribbled)
    assert found["plain"] == expected["plain"]
    assert found["stopped"] == expected["stopped"]
    assert found["deepening"] == expected["deepening"]
    assert found["line"] == expected["line"]


@pytest.mark.parametrize("game_id", sorted(DEPTHS))
@pytest.mark.parametrize("table", [False, True])
def test_the_agent_with_views_chooses_what_it_chooses_with_arrays(game_id: str, table: bool, owned: dict[str, Any],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # A budget no depth here exhausts and a depth limit: iterative deepening then ends at the same depth
    # whatever the speed, and the analyses must match move for move and value for value.
    calls: list[str] = []

    def counted(name: str) -> Any:
        def search(*arguments: Any) -> int:
            calls.append(name)
            return int(owned[name](*arguments))
        return search

    def analyse() -> list[tuple[str, float | None, int]]:
        agent = AlphaBetaAgent(seconds=1000.0, max_depth=DEPTHS[game_id] - 1, seed=7, table=table,
                               quiescence=QUIESCENCE if table else 0)
        state = position(game_id, PLIES[1], 5)
        analysis = agent.analyse(state.view(state.to_move), exact=3)
        return [(str(c.move), c.value, c.depth) for c in analysis.candidates]

    with_views = analyse()
    with monkeypatch.context() as patch:
        patch.setattr(ab, "search", counted("plain"))
        patch.setattr(tt, "search", counted("table"))
        with_arrays = analyse()
    assert calls and set(calls) == {"table" if table else "plain"}  # the reference did the searching
    assert with_views == with_arrays
    assert with_views[0][2] == DEPTHS[game_id] - 1


# Recorded from the code before the views (65974bf) by running ``searches`` on it (see the commit message):
# the plain search's nodes and best value, the nodes of each deepening iteration, the last iteration's
# best value, and the principal variation.
RECORDED: dict[tuple[str, int], tuple[int, float, list[int], float, list[int]]] = {
    ("gtbm", 6):
        (7876, 0.4912508931197597, [14, 72, 247, 817, 1940, 5480], 0.4912508931197597, [150, 37, 148, 1, 156, 28]),
    ("gtbm", 20):
        (19377, 0.4563613127629212, [14, 76, 342, 1752, 3130, 16017], 0.4563613127629212, [150, 52, 148, 49, 107, 12]),
    ("horsmeier", 6):
        (6447, 0.6318124177361018, [32, 185, 1283, 6507], 0.6318124177361018, [284, 6, 452, 30]),
    ("horsmeier", 20):
        (23400, 0.4925005624493796, [30, 97, 844, 23258], 0.4925005624493796, [444, 150, 243, 202]),
    ("mobiatus", 6):
        (5585, 0.39174096925348567, [39, 125, 1973, 6143], 0.39174096925348567, [97, 649]),
    # Re-recorded after Möbiatus kept each group's faces in a ring in its state (44234d7): the table hashes
    # the whole state vector, the ring's order depends on the merges that made it, so the last iteration
    # meets fewer transpositions (6113 nodes before, 6201 with the ring and arrays instead of views); the
    # plain search, the values and the line are as before.
    ("mobiatus", 20):
        (5590, 0.5890404340586651, [47, 175, 1790, 6201], 0.5890404340586651, [89, 626]),
    ("mynd", 6):
        (2310, 0.28905049737499605, [13, 109, 360, 2294], 0.28905049737499605, [102, 28, 92, 38]),
    ("mynd", 20):
        (5455, 0.6626218371700825, [30, 114, 1310, 5224], 0.6626218371700825, [103, 40, 115, 39]),
}


@pytest.mark.parametrize(("game_id", "plies"), sorted(RECORDED))
def test_the_searches_find_what_they_found_before_the_views(game_id: str, plies: int) -> None:
    found = searches(position(game_id, plies, 3 if plies == PLIES[0] else 4), DEPTHS[game_id])
    nodes, best, deepening_nodes, deepening_best, line = RECORDED[game_id, plies]
    assert found["plain"][0] == nodes
    assert max(found["plain"][1]) == best
    assert [n for n, _ in found["deepening"]] == deepening_nodes
    assert max(found["deepening"][-1][1]) == deepening_best
    assert found["line"] == line
