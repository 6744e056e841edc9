"""Alpha-beta's transposition table (``boardlab.ai.alphabeta_table``): same values, fewer nodes."""

from __future__ import annotations

import numpy as np
import pytest

import boardlab
from boardlab.ai import alphabeta_kernel as ab
from boardlab.ai import alphabeta_table as tt
from boardlab.ai.levels import make_agent
from boardlab.core import kernel
from boardlab.games.gtbm import kernel as gtbm_kernel

PLIES = (10, 40, 80)


@pytest.fixture(scope="module")
def positions() -> list[boardlab.State]:
    """GTBM positions after 10, 40 and 80 plies of a game between two one-ply searchers."""
    agents = {0: make_agent("level2", seed=1), 1: make_agent("level2", seed=2)}
    state = boardlab.load("gtbm").new_game()
    found = []
    while state.result is None and state.ply <= max(PLIES):
        if state.ply in PLIES:
            found.append(state)
        seat = state.to_move
        assert seat is not None
        state = state.play(agents[seat].choose(state.view(seat)))
    assert len(found) == len(PLIES)
    return found


def root_actions(state: boardlab.State) -> np.ndarray:
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    count = state.game.legal_kernel(state.data.copy(), state.game.spec, out)
    return out[:count].copy()


def plain(state: boardlab.State, depth: int) -> tuple[np.ndarray, int]:
    game = state.game
    order = root_actions(state)
    values = np.zeros(len(order))
    nodes = ab.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec,
                      depth, order, values, 10**9)
    return values, int(nodes)


def with_table(state: boardlab.State, depth: int, table: tt.Table, key_field: int) -> tuple[np.ndarray, int]:
    game = state.game
    order = root_actions(state)
    values = np.zeros(len(order))
    nodes = tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec,
                      depth, order, values, 10**9, table.keys, table.info, table.values, key_field,
                      tt.no_noisy_moves, 0, 0.0)
    return values, int(nodes)


@pytest.mark.parametrize("key_field", [-1, gtbm_kernel.F_HASH])
def test_the_table_finds_the_plain_search_value_and_move(positions: list[boardlab.State], key_field: int) -> None:
    fewer = 0
    for state in positions:
        for depth in (3, 5):
            expected, plain_nodes = plain(state, depth)
            values, nodes = with_table(state, depth, tt.Table(1 << 16), key_field)
            assert values.max() == pytest.approx(expected.max())
            assert int(np.argmax(values)) == int(np.argmax(expected))  # the same move, tried in the same order
            assert 0 < nodes <= plain_nodes
            fewer += nodes < plain_nodes
    if key_field >= 0:  # positions met again by other move orders are not searched again
        assert fewer >= 3


def test_a_deeper_iteration_searches_less_with_the_table_of_the_last(positions: list[boardlab.State]) -> None:
    # As iterative deepening runs it: depths 1 to 6, then 7 with what they stored.
    for state in positions:
        expected, fresh = with_table(state, 7, tt.Table(1 << 18), gtbm_kernel.F_HASH)
        table = tt.Table(1 << 18)
        for depth in range(1, 7):
            with_table(state, depth, table, gtbm_kernel.F_HASH)
        values, warm = with_table(state, 7, table, gtbm_kernel.F_HASH)
        assert values.max() == pytest.approx(expected.max())  # shallower entries order moves, decide nothing
        assert warm < fresh  # the last iteration's best moves come first at every node


def test_the_search_believes_a_deep_enough_entry(positions: list[boardlab.State]) -> None:
    # An exact entry for the position after the first root move, deeper than needed, stands for its
    # whole subtree: a search that ignored the table would not report the planted value.
    state = positions[1]
    game = state.game
    order = root_actions(state)
    child = state.data.copy()
    game.apply_kernel(child, game.spec, int(order[0]))
    table = tt.Table(1 << 16)
    key = tt.position_key(child, gtbm_kernel.F_HASH)
    slot = key & (len(table.keys) - 1)
    table.keys[slot] = key
    table.info[slot] = (10, tt.EXACT, -1)
    table.values[slot] = 0.987
    values = np.zeros(len(order))
    tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec, 4,
              order, values, 10**9, table.keys, table.info, table.values, gtbm_kernel.F_HASH,
              tt.no_noisy_moves, 0, 0.0)
    assert values[0] == pytest.approx(0.987)
    # A shallower entry only orders the moves: the value is searched again.
    table.info[slot] = (2, tt.EXACT, -1)
    expected, _ = plain(state, 4)
    values = np.zeros(len(order))
    tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec, 4,
              order, values, 10**9, table.keys, table.info, table.values, gtbm_kernel.F_HASH,
              tt.no_noisy_moves, 0, 0.0)
    assert values.max() == pytest.approx(expected.max())


def test_the_table_stores_each_searched_node_with_its_best_move(positions: list[boardlab.State]) -> None:
    state = positions[0]
    game = state.game
    table = tt.Table(1 << 16)
    with_table(state, 3, table, gtbm_kernel.F_HASH)
    order = root_actions(state)
    child = state.data.copy()
    game.apply_kernel(child, game.spec, int(order[0]))
    key = tt.position_key(child, gtbm_kernel.F_HASH)
    slot = key & (len(table.keys) - 1)
    assert table.keys[slot] == key
    depth, flag, move = table.info[slot]
    assert depth == 2 and flag == tt.EXACT  # the first root move is searched with the full window
    out = np.empty(kernel.MAX_ACTIONS, np.int64)
    assert move in out[:game.legal_kernel(child.copy(), game.spec, out)]


def test_the_table_move_is_tried_first_and_the_rest_keep_their_order() -> None:
    moves = np.array([5, 9, 2, 7], np.int64)
    tt._to_front(moves, 4, 2)
    assert moves.tolist() == [2, 5, 9, 7]
    tt._to_front(moves, 4, 11)  # not legal here: nothing moves
    assert moves.tolist() == [2, 5, 9, 7]


def test_the_key_tells_plies_and_positions_apart(positions: list[boardlab.State]) -> None:
    data = positions[0].data.copy()
    later = data.copy()
    later[kernel.PLY] += 2
    keys = {tt.position_key(d, f) for d in (data, later) for f in (-1, gtbm_kernel.F_HASH)}
    assert len(keys) == 4 and 0 not in keys


def test_the_new_gtbm_levels_keep_a_table_and_those_of_2026_do_not() -> None:
    game = boardlab.load("gtbm")
    assert "table=True" in make_agent("level5").describe(game)
    assert "table" not in make_agent("level5_2026").describe(game)
    assert "table" not in make_agent("level5").describe(boardlab.load("horsmeier"))
    assert make_agent("alphabeta:seconds=0.5,table=yes").describe() == "seconds=0.5,max_depth=32,table=True"
    with pytest.raises(boardlab.BoardlabError, match=r"table=.maybe.*accepted: true or false"):
        make_agent("alphabeta:table=maybe")
    assert make_agent("alphabeta:table=1,quiescence=6,contempt=0.02").describe() == (
        "seconds=1.0,max_depth=32,table=True,quiescence=6,contempt=0.02")
    assert make_agent("level5:quiescence=6").describe(game).endswith("table=True,quiescence=6")
    with pytest.raises(boardlab.BoardlabError, match="need its table: accepted with table=True"):
        make_agent("alphabeta:quiescence=6")
    with pytest.raises(boardlab.BoardlabError, match=r"contempt=0\.9: accepted: a number from 0 to 0\.5"):
        make_agent("level5:contempt=0.9")


def test_a_level_with_the_table_keeps_it_from_move_to_move_and_plays_legal_moves() -> None:
    state = boardlab.load("gtbm").new_game()
    agent = make_agent("level3", seed=1)
    tables = set()
    for _ in range(4):
        seat = state.to_move
        assert seat is not None
        move = agent.choose(state.view(seat))
        assert move in state.legal_moves()
        tables.add(id(agent._searcher.table))  # type: ignore[attr-defined]
        state = state.play(move)
    assert len(tables) == 1
    assert agent.depth_reached == 4  # type: ignore[attr-defined]


def quiescence_minimax(state: boardlab.State, depth: int, quiet: int, seat: int) -> float:
    """Plain minimax to ``depth``, then up to ``quiet`` plies of captures only, the side to move free
    to stand on the evaluation instead: the reference for the quiescence search."""
    if state.is_over:
        assert state.result is not None
        return state.result[seat]
    values = np.zeros(4)
    state.game.evaluate_kernel(state.data.copy(), state.game.spec, values)
    moves = state.legal_moves()
    if depth == 0:
        moves = [m for m in moves if gtbm_kernel.is_capture(state.data.copy(), state.game.spec, m.path[0])]
        if quiet == 0 or not moves:
            return float(values[seat])
    below = [quiescence_minimax(state.play(m), max(depth - 1, 0), quiet - (depth == 0), seat) for m in moves]
    if depth == 0:
        below.append(float(values[seat]))  # standing pat
    return max(below) if state.to_move == seat else min(below)


@pytest.mark.parametrize(("depth", "quiet"), [(1, 1), (1, 3), (2, 2), (3, 4)])
def test_the_quiescence_search_finds_the_reference_value(depth: int, quiet: int) -> None:
    # Black can take a piece and White take one back: one ply sees the gain, a quiescence of one ply
    # more the recapture.
    game = boardlab.load("gtbm", size=6)
    state = game.from_text("W1W2W/W2WBW/6/6/B3BB/1B1B2 b 18 18")
    order = root_actions(state)
    values = np.zeros(len(order))
    table = tt.Table(1 << 16)
    tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec, depth,
              order, values, 10**9, table.keys, table.info, table.values, gtbm_kernel.F_HASH, game.noisy_kernel,
              quiet, 0.0)
    expected = quiescence_minimax(state, depth, quiet, 0)
    assert values.max() == pytest.approx(expected)
    if depth == 1:  # the capture's gain is taken back: one ply alone would see a piece up
        assert values.max() < plain(state, 1)[0].max() - 0.05


def test_the_capture_test_names_the_captures() -> None:
    game = boardlab.load("gtbm", size=6)
    state = game.from_text("W1W2W/W2WBW/6/6/B3BB/1B1B2 b 18 18")
    taking = {m.text for m in state.legal_moves()
              if gtbm_kernel.is_capture(state.data.copy(), game.spec, m.path[0])}
    assert taking == {m.text for m in state.legal_moves() if "x" in m.text} and taking


def test_contempt_counts_a_draw_below_a_half() -> None:
    # The next quiet ply reaches the no-capture limit (100): every move draws, and nothing can be taken.
    game = boardlab.load("gtbm", size=6)
    state = game.from_text("W5/6/6/6/6/5B b 198 99")
    order = root_actions(state)
    for contempt in (0.0, 0.1):
        values = np.zeros(len(order))
        table = tt.Table(1 << 10)
        tt.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec, 3,
                  order, values, 10**9, table.keys, table.info, table.values, gtbm_kernel.F_HASH,
                  tt.no_noisy_moves, 0, contempt)
        assert values.tolist() == pytest.approx([0.5 - contempt] * len(order))


def test_the_evaluation_setting_picks_the_evaluation_the_search_scores_leaves_with(
        positions: list[boardlab.State]) -> None:
    from boardlab.ai.alphabeta import AlphaBetaAgent

    state = positions[1]
    game = state.game
    best = {}
    for name, evaluate in (("default", game.evaluate_kernel), ("fitted", gtbm_kernel.evaluate_fitted),
                           ("material", gtbm_kernel.evaluate_material),
                           ("fitted_shallow", gtbm_kernel.evaluate_fitted_shallow)):
        order = root_actions(state)
        values = np.zeros(len(order))
        ab.search(game.legal_kernel, game.apply_kernel, evaluate, state.data.copy(), game.spec, 3, order, values,
                  10**9)
        for table in (False, True):
            agent = AlphaBetaAgent(seconds=60, max_depth=3, seed=1, table=table, evaluation=name)
            analysis = agent.analyse(state.view(state.to_move), exact=1)
            assert agent.depth_reached == 3
            assert analysis.candidates[0].value == pytest.approx(values.max())
        best[name] = values.max()
    assert len({round(v, 9) for v in best.values()}) == 4  # four evaluations, four values


def test_the_evaluation_setting_is_described_and_checked() -> None:
    game = boardlab.load("gtbm")
    assert make_agent("level5:evaluation=fitted,quiescence=4").describe(game).endswith(
        "table=True,quiescence=4,evaluation=fitted")
    assert "evaluation" not in make_agent("level5").describe(game)
    assert "evaluation" not in make_agent("level5_2026").describe(game)
    assert make_agent("alphabeta:seconds=0.5,evaluation=material").describe() == (
        "seconds=0.5,max_depth=32,evaluation=material")
    for spec in ("level5:evaluation=best", "alphabeta:evaluation=best"):
        with pytest.raises(boardlab.BoardlabError, match=r"^search setting evaluation='best': accepted in gtbm: "
                                                         r"default, material, fitted, fitted_shallow$"):
            make_agent(spec).check(game)
    with pytest.raises(boardlab.BoardlabError, match=r"evaluation='fitted': accepted in mynd: default$"):
        make_agent("level5:evaluation=fitted").check(boardlab.load("mynd"))
    with pytest.raises(boardlab.BoardlabError, match="searched by MCTS here: accepted: evaluation=default"):
        make_agent("level5:evaluation=material,algorithm=mcts").check(game)
