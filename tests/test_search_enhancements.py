"""The search's enhancements (issue 29): AMAF statistics, GRAVE's reference node, MAST and NST tables,
implicit minimax backups, and the settings that turn them on.

The kernel is run on a toy game written here, whose every game lasts exactly four plies, so that what
the statistics must hold can be counted exactly: seats 0 and 1 alternate, each ply chooses action 0, 1
or 2, and seat 0 wins if it ever plays 2, else seat 1 wins.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numba import njit

import boardlab
from boardlab.ai import make_agent
from boardlab.ai import mcts_kernel as mk
from boardlab.ai.levels import LEVELS, LEVELS_2026
from boardlab.ai.mcts import MCTSAgent, SearchSettings
from boardlab.core import kernel, registry
from boardlab.core.kernel import APPLY_SIG, EVALUATE_SIG, HEADER, LEGAL_SIG, MID_TURN, PLY, SCORE, TO_MOVE
from boardlab.errors import BoardlabError
from boardlab.match import run_match

PLIES = 4
ACTIONS = 3
FLAG = HEADER  # 1 once seat 0 has played action 2


@njit(LEGAL_SIG)
def toy_legal(state, spec, out):  # type: ignore[no-untyped-def]
    for action in range(ACTIONS):
        out[action] = action
    return ACTIONS


@njit(APPLY_SIG)
def toy_apply(state, spec, action):  # type: ignore[no-untyped-def]
    if state[TO_MOVE] == 0 and action == 2:
        state[FLAG] = 1
    state[PLY] += 1
    state[TO_MOVE] = 1 - state[TO_MOVE]
    if state[PLY] == PLIES:
        state[TO_MOVE] = -1
        state[MID_TURN] = 0
        state[SCORE] = 2 * state[FLAG]
        state[SCORE + 1] = 2 - 2 * state[FLAG]


@njit(EVALUATE_SIG)
def toy_evaluate(state, spec, values):  # type: ignore[no-untyped-def]
    values[0] = 0.9 if state[FLAG] else 0.2
    values[1] = 1.0 - values[0]


def toy_start() -> np.ndarray:
    state = np.zeros(HEADER + 1, np.int64)
    state[TO_MOVE] = 0
    return state


def toy_search(iterations: int, *, amaf: bool = False, ref: int = 0, playout: int = mk.PLAYOUT_RANDOM,
               implicit: float = 0.0, capacity: int = 2000, seed: int = 7,
               infoset: bool = False, observed: tuple[int, ...] = ()) -> dict[str, np.ndarray]:
    nodes = np.zeros((capacity, mk.NODE_FIELDS), np.int64)
    stats = np.zeros((capacity, mk.STAT_FIELDS), np.float64)
    meta = np.zeros(mk.META_FIELDS, np.int64)
    mk.new_node(nodes, stats, meta, -1, -1)
    params = np.zeros(mk.PARAM_FIELDS, np.float64)
    params[mk.P_EXPLORATION], params[mk.P_SEATS] = 0.7, 2
    params[mk.P_AMAF], params[mk.P_REF], params[mk.P_BIAS] = float(amaf), ref, 1e-5
    params[mk.P_AMAF_FROM] = 1
    params[mk.P_PLAYOUT], params[mk.P_EPSILON] = playout, 0.1
    params[mk.P_IMPLICIT], params[mk.P_ACTIONS] = implicit, ACTIONS
    params[mk.P_INFOSET], params[mk.P_ACTION_LIMIT] = float(infoset), ACTIONS
    amaf_rows, history, gram_keys, gram_stats = mk.tables(capacity if amaf else 0, 2, ACTIONS, 1024)
    spec = np.zeros(1, np.int64)
    spec.setflags(write=False)
    kernel.seed_kernels(seed)
    done = mk.search(toy_legal, toy_apply, toy_evaluate, toy_start(), spec, nodes, stats, meta, params, iterations,
                     amaf_rows, history, gram_keys, gram_stats, np.array(observed, np.int64))
    assert done == iterations
    return {"nodes": nodes, "stats": stats, "meta": meta, "amaf": amaf_rows, "history": history,
            "gram_keys": gram_keys, "gram_stats": gram_stats}


def depth_of(nodes: np.ndarray, node: int) -> int:
    depth = 0
    while nodes[node, mk.PARENT] >= 0:
        node, depth = int(nodes[node, mk.PARENT]), depth + 1
    return depth


def amaf_entry(table: dict[str, np.ndarray], node: int, seat: int, action: int) -> tuple[float, float]:
    row = int(table["nodes"][node, mk.AMAF_ROW])
    at = 2 * (seat * ACTIONS + action)
    return float(table["amaf"][row, at]), float(table["amaf"][row, at + 1])


def test_amaf_counts_every_later_move_of_every_playout_through_a_node() -> None:
    table = toy_search(600, amaf=True)
    nodes, stats = table["nodes"], table["stats"]
    size = int(table["meta"][mk.M_SIZE])
    assert size > 40  # the tree is several plies deep, so the tree part of the moves is tested too
    for node in range(size):
        visits = stats[node, mk.VISITS]
        row = int(nodes[node, mk.AMAF_ROW])
        assert row >= 0  # with rows from the first playout (RAVE), every visited node has one
        later = PLIES - depth_of(nodes, node)  # each playout through the node plays this many moves after it
        counts = table["amaf"][row, 0::2]
        assert counts.sum() == pytest.approx(visits * later)
        # Each seat plays half the moves after the root; its rewards are its own (seat 0 wins when
        # it played 2, else seat 1), so a seat's AMAF rewards add up to its moves times its wins.
        if node == 0:
            for seat in (0, 1):
                seat_sums = table["amaf"][row, 2 * seat * ACTIONS + 1:2 * (seat + 1) * ACTIONS:2]
                assert seat_sums.sum() == pytest.approx(2 * stats[0, mk.VALUE + seat])
    # Seat 0 wins every playout in which it played 2: that action's AMAF mean is exactly 1, and a
    # child's own action is counted at its parent at least once per visit of the child.
    count, total = amaf_entry(table, 0, 0, 2)
    assert count > 0 and total == count
    for child in range(1, size):
        parent = int(nodes[child, mk.PARENT])
        seat = int(nodes[parent, mk.NODE_TO_MOVE])
        assert amaf_entry(table, parent, seat, int(nodes[child, mk.ACTION]))[0] >= stats[child, mk.VISITS]


def test_without_amaf_no_rows_are_given_out() -> None:
    table = toy_search(300)
    assert table["meta"][mk.M_AMAF_USED] == 0
    assert (table["nodes"][: table["meta"][mk.M_SIZE], mk.AMAF_ROW] == -1).all()


def test_grave_reads_the_closest_node_above_with_more_than_ref_playouts() -> None:
    nodes = np.zeros((4, mk.NODE_FIELDS), np.int64)
    stats = np.zeros((4, mk.STAT_FIELDS), np.float64)
    for node, (visits, row) in enumerate([(500, 0), (150, 1), (60, 2), (101, -1)]):
        stats[node, mk.VISITS], nodes[node, mk.AMAF_ROW] = visits, row
    # The path root (500) -> 1 (150) -> 2 (60) -> 3 (101 playouts but no row yet), ref 100.
    row = nodes[0, mk.AMAF_ROW]
    seen = []
    for node in range(4):
        row = mk.next_reference(nodes, stats, node, 100.0, row)
        seen.append(int(row))
    assert seen == [0, 1, 1, 1]  # node 2 has too few playouts; node 3 has no statistics to lend
    assert mk.next_reference(nodes, stats, 2, 50.0, 1) == 2  # with ref 50, node 2 is its own reference
    assert mk.grave_beta(0.0, 10.0, 1e-5) == 0.0
    assert mk.grave_beta(30.0, 10.0, 1e-5) == pytest.approx(30 / (30 + 10 + 1e-5 * 300))


def test_grave_selection_follows_the_reference_rows_amaf_mean() -> None:
    # A node whose two children have the same playouts and mean; the reference row rates them apart.
    nodes = np.zeros((3, mk.NODE_FIELDS), np.int64)
    stats = np.zeros((3, mk.STAT_FIELDS), np.float64)
    meta = np.zeros(mk.META_FIELDS, np.int64)
    mk.new_node(nodes, stats, meta, -1, -1)
    for action in (0, 1):
        child = mk.new_node(nodes, stats, meta, 0, action)
        stats[child, mk.VISITS], stats[child, mk.VALUE + 1] = 10.0, 5.0
    nodes[0, mk.NODE_TO_MOVE], stats[0, mk.VISITS] = 1, 20.0
    params = np.zeros(mk.PARAM_FIELDS)
    params[mk.P_SEATS], params[mk.P_AMAF], params[mk.P_BIAS], params[mk.P_ACTIONS] = 2, 1.0, 1e-5, 2
    amaf = np.zeros((2, 2 * 2 * 2), np.float32)
    amaf[1, 2 * (1 * 2 + 0):][:2] = (100.0, 10.0)  # row 1: seat 1's action 0 is poor (0.1) ...
    amaf[1, 2 * (1 * 2 + 1):][:2] = (100.0, 90.0)  # ... and its action 1 good (0.9)
    amaf[0, 2 * (1 * 2 + 0):][:2] = (100.0, 90.0)  # row 0 says the opposite
    amaf[0, 2 * (1 * 2 + 1):][:2] = (100.0, 10.0)
    mark = np.zeros(1, np.int64)
    pick = {row: int(nodes[mk.select(nodes, stats, 0, params, mark, 0, amaf, row), mk.ACTION]) for row in (0, 1)}
    assert pick == {0: 0, 1: 1}
    params[mk.P_AMAF] = 0.0  # without AMAF the tie is broken by the order of the children only
    assert mk.select(nodes, stats, 0, params, mark, 0, amaf, 1) == mk.select(nodes, stats, 0, params, mark, 0, amaf, 0)


def test_mast_counts_every_move_of_every_iteration_for_its_seat() -> None:
    table = toy_search(500, playout=mk.PLAYOUT_MAST)
    history, stats = table["history"], table["stats"]
    for seat in (0, 1):
        rows = history[seat * ACTIONS:(seat + 1) * ACTIONS]
        assert rows[:, 0].sum() == pytest.approx(2 * 500)  # two moves a seat in every game
        assert rows[:, 1].sum() == pytest.approx(2 * stats[0, mk.VALUE + seat])
    assert history[2, 1] == history[2, 0] > 0  # seat 0's action 2 always wins
    assert history[0, 1] < history[0, 0]


def test_nst_counts_each_pair_of_moves_once_and_mast_beside_it() -> None:
    table = toy_search(400, playout=mk.PLAYOUT_NST)
    assert table["gram_stats"][:, 0].sum() == pytest.approx(3 * 400)  # moves 2-4 of each game follow one
    assert table["history"][:, 0].sum() == pytest.approx(4 * 400)
    slot = mk._gram_slot(table["gram_keys"], (0 * ACTIONS + 2) * ACTIONS + 1, False)  # seat 0 plays 2 after 1
    assert slot >= 0 and table["gram_stats"][slot, 1] == table["gram_stats"][slot, 0]
    score = mk.move_score(table["history"], table["gram_keys"], table["gram_stats"], 0, 2, 1, ACTIONS, True)
    assert score == pytest.approx(1.0)
    assert mk.move_score(np.zeros((6, 2)), table["gram_keys"], table["gram_stats"], 1, 0, -1, ACTIONS, False) == 1.0


def test_mast_playouts_prefer_the_winning_action() -> None:
    random_table = toy_search(3000, seed=3)
    mast_table = toy_search(3000, playout=mk.PLAYOUT_MAST, seed=3)
    # Seat 0's share of action 2 among its moves: a third were they random; most of them under MAST.
    seat_0 = mast_table["history"][0:ACTIONS, 0]
    assert seat_0[2] / seat_0.sum() > 0.6
    assert random_table["history"].sum() == 0  # random playouts learn nothing


def test_implicit_minimax_values_back_up_the_best_child_for_its_chooser() -> None:
    table = toy_search(400, implicit=0.5)
    nodes, stats = table["nodes"], table["stats"]
    size = int(table["meta"][mk.M_SIZE])
    for node in range(size):
        assert nodes[node, mk.HAS_IMPLICIT] == 1
        children = [c for c in range(size) if nodes[c, mk.PARENT] == node]
        seat = int(nodes[node, mk.NODE_TO_MOVE])
        if children and seat >= 0:
            best = max(stats[c, mk.IMPLICIT + seat] for c in children)
            assert stats[node, mk.IMPLICIT + seat] == pytest.approx(best)
    # Seat 0 can always play 2 at once: the root's minimax value for it is a win's evaluation or better.
    assert stats[0, mk.IMPLICIT + 0] >= 0.9


def children_of(nodes: np.ndarray, node: int) -> list[int]:
    found, child = [], int(nodes[node, mk.FIRST_CHILD])
    while child >= 0:
        found.append(child)
        child = int(nodes[child, mk.NEXT_SIBLING])
    return found


@pytest.mark.parametrize("merged", [False, True])
def test_merged_hidden_moves_share_what_follows_the_moves_that_look_the_same(merged: bool) -> None:
    # Seat 0's actions 0 and 1 look the same to seat 1 (observed 0, 0, 2): merged, seat 1's choices
    # after either are one set of nodes, which every iteration through either reaches.
    table = toy_search(600, infoset=True, observed=(0, 0, 2) if merged else ())
    nodes, stats = table["nodes"], table["stats"]
    by_action = {int(nodes[c, mk.ACTION]): c for c in children_of(nodes, 0)}
    assert sorted(by_action) == [0, 1, 2]
    first, second = sorted((by_action[0], by_action[1]))  # the older one holds what follows both
    below = {c: sum(stats[g, mk.VISITS] for g in children_of(nodes, c)) for c in by_action.values()}
    # A child's first visit ends at it (a new node); every later visit goes on to one of the choices after it.
    if merged:
        assert nodes[second, mk.HOLDER] == first and nodes[first, mk.HOLDER] == first
        assert children_of(nodes, second) == []
        assert below[first] == stats[first, mk.VISITS] + stats[second, mk.VISITS] - 2
    else:
        assert nodes[second, mk.HOLDER] == second
        assert below[first] == stats[first, mk.VISITS] - 1 and below[second] == stats[second, mk.VISITS] - 1
    third = by_action[2]  # seen whole: never merged
    assert nodes[third, mk.HOLDER] == third and below[third] == stats[third, mk.VISITS] - 1


def test_hmdg_commits_look_the_same_to_the_responder_exactly_when_their_observed_values_agree() -> None:
    game = boardlab.load("hmdg", size=5, line_length=4)
    state, rng = game.new_game(), np.random.default_rng(3)
    cells = 25
    while not any(move.path[0] < 2 * cells for move in state.legal_moves()):  # to a commit
        moves = state.legal_moves()
        state = state.play(moves[int(rng.integers(len(moves)))])
    mover = state.to_move
    seen = {}
    for move in state.legal_moves():
        (action,) = move.path
        if action < 2 * cells:
            after = state.play(move)
            seen[action] = after.view(1 - mover).to_text() + repr(after.view(1 - mover).planes().tolist())
    assert len(seen) > 10
    observed = game.observed_actions
    assert len(observed) == game.action_limit
    for a in seen:
        for b in seen:
            assert (seen[a] == seen[b]) == (observed[a] == observed[b]), (a, b)
    assert all(observed[a] == a for a in range(2 * cells, game.action_limit))  # every other action is public
    assert len(boardlab.load("ndengrod").observed_actions) == 0  # perfect information: nothing to merge


def test_merged_hidden_moves_play_legal_games_and_are_named_in_the_description() -> None:
    agent = make_agent("level2:merge_hidden=true,iterations=300", seed=4)
    assert "merge_hidden=True" in agent.describe()
    assert "merge_hidden" not in make_agent("level2").describe()
    result = run_match("hmdg", {"size": 5, "line_length": 4}, "level2:merge_hidden=true,iterations=300", "random",
                       games=2, workers=1)
    assert result.games == 2


@pytest.mark.parametrize("spec, message", [
    ("uct:amaf=yes", "amaf='yes': accepted: off, rave, grave"),
    ("uct:playout=smart", "playout='smart': accepted: random, mast, nst"),
    ("uct:policy=best", "policy='best': accepted: epsilon, gibbs"),
    ("uct:ref=-1", "ref=-1: accepted: a number from 0 to 1e+09"),
    ("uct:bias=nan", "bias=nan: accepted: a number from 0 to 100"),
    ("uct:epsilon=1.5", "epsilon=1.5: accepted: a number from 0 to 1"),
    ("uct:tau=0", "tau=0.0: accepted: a number from 1e-06 to 100"),
    ("uct:implicit=2", "implicit=2.0: accepted: a number from 0 to 1"),
    ("uct:ref=many", "ref='many' is not a valid"),
    ("uct:merge_hidden=maybe", "merge_hidden='maybe' is not a valid bool; accepted: true or false"),
    ("level5_2027", "unknown agent 'level5_2027'"),
])
def test_bad_enhancement_settings_get_one_line_errors(spec: str, message: str) -> None:
    with pytest.raises(BoardlabError, match=message.replace("(", r"\(").replace("+", r"\+")) as error:
        make_agent(spec)
    assert "\n" not in str(error.value)


def test_implicit_backups_are_refused_in_a_game_without_an_evaluation(capsys: pytest.CaptureFixture[str]) -> None:
    from boardlab.cli.main import main

    assert main(["match", "ndengrod", "uct:implicit=0.3", "random", "--games", "1"]) == 2
    assert "ndengrod has no evaluation to back up" in capsys.readouterr().err


def test_the_levels_of_2026_are_kept_and_take_equal_iteration_budgets() -> None:
    old = make_agent("level5_2026:iterations=2000")
    assert isinstance(old, MCTSAgent)
    assert old.settings == SearchSettings(iterations=2000, seconds=None)  # today's level 5, 2,000 iterations
    assert make_agent("level4_2026").settings == LEVELS_2026[4]  # type: ignore[attr-defined]
    # An iteration budget alone replaces a time budget, so equal iterations do not depend on the load.
    assert make_agent("level4:iterations=500").settings.seconds is None  # type: ignore[attr-defined]
    # The enhancements are off in plain UCT and left out of the descriptions of agents that do not use them.
    assert "amaf" not in make_agent("uct").describe() and "amaf" not in old.describe()
    assert make_agent("uct:amaf=grave,ref=50").describe().endswith("amaf=grave,ref=50")


def test_a_level_tuned_for_a_game_searches_that_game_with_its_tuning(monkeypatch: pytest.MonkeyPatch) -> None:
    # The tuning is the game package's: ndengrod's says what level 3's TUNED once did, hmdg has none.
    found = registry.packages()
    monkeypatch.setitem(found, "ndengrod", replace(found["ndengrod"], tuned_search={
        "iterations": 700, "amaf": "grave", "depth": SearchSettings().depth}))
    monkeypatch.setitem(found, "hmdg", replace(found["hmdg"], tuned_search={}))
    agent = make_agent("level3:exploration=0.2")
    assert isinstance(agent, MCTSAgent)
    game, other = boardlab.load("ndengrod"), boardlab.load("hmdg")
    assert agent.settings_for(game) == SearchSettings(iterations=700, amaf="grave", exploration=0.2)
    assert agent.settings_for(other).amaf == "off" and agent.settings_for(other).iterations == 5000
    assert "amaf=grave" in agent.describe(game) and "amaf" not in agent.describe(other)
    state = game.new_game()
    agent.choose(state.view(0))
    assert agent.iterations_done == 700


def test_a_package_may_tune_one_level_beyond_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    # HMDG's level 4 searches with an exploration term that its other levels do not (docs/findings/ladder.md).
    found = registry.packages()
    monkeypatch.setitem(found, "hmdg", replace(found["hmdg"], tuned_search={"amaf": "grave", "exploration": 0.0},
                                               tuned_levels={4: {"exploration": 0.3}}))
    game = boardlab.load("hmdg")
    level3, level4 = make_agent("level3"), make_agent("level4")
    assert isinstance(level3, MCTSAgent) and isinstance(level4, MCTSAgent)
    assert level3.settings_for(game).exploration == 0.0
    assert level4.settings_for(game) == replace(LEVELS[4], amaf="grave", exploration=0.3)
    assert make_agent("level4:exploration=0.1").settings_for(game).exploration == 0.1  # the spec has the last word
    monkeypatch.setitem(found, "hmdg", replace(found["hmdg"], tuned_levels={4: {"warp": 9}}))
    with pytest.raises(boardlab.BoardlabError, match=r"hmdg's tuned_search .*'warp'.*\(level 4\): accepted"):
        make_agent("level4")
    make_agent("level3")  # the other levels are not touched by level 4's tuning


def test_a_package_tuning_an_unknown_setting_is_named_when_a_level_is_made(monkeypatch: pytest.MonkeyPatch) -> None:
    found = registry.packages()
    monkeypatch.setitem(found, "hmdg", replace(found["hmdg"], tuned_search={"amaf": "grave", "warp": 9}))
    with pytest.raises(boardlab.BoardlabError, match=r"hmdg's tuned_search .*'warp'.*accepted: the search settings"):
        make_agent("level2")
    assert make_agent("level1").describe() == make_agent("level1_2026").describe()  # level 1 is never tuned


@pytest.mark.parametrize("spec", ["uct:amaf=grave,ref=20", "uct:amaf=rave,playout=mast",
                                  "uct:playout=nst,policy=gibbs", "uct:amaf=grave,paranoid=true"])
def test_enhanced_searches_play_legal_games_in_every_mode(spec: str) -> None:
    # Two seats with the solver, hidden information (HMDG) and Mynd's three players (max-n / paranoid).
    for game, options in (("ndengrod", {"size": 3, "length": 4}), ("hmdg", {"size": 5, "line_length": 4}),
                          ("mynd", {"players": 3, "size": 5, "ply_cap": 40})):
        result = run_match(game, options, f"{spec},iterations=300", "random", games=1, workers=1)
        assert result.games == 1


def test_implicit_backups_play_in_games_with_an_evaluation() -> None:
    state = boardlab.load("horsmeier").new_game()
    agent = make_agent("level2:implicit=0.4,iterations=400", seed=2)
    assert agent.choose(state.view(0)) in state.legal_moves()


def test_an_alpha_beta_analysis_gives_its_depth_not_visits() -> None:
    from boardlab.ai.alphabeta import AlphaBetaAgent

    state = boardlab.load("gtbm", size=4).new_game()
    analysis = AlphaBetaAgent(seconds=5, max_depth=3, seed=1).analyse(state.view(0))
    assert all(c.depth == 3 and c.visits == 0 for c in analysis.candidates)
    mcts = make_agent("uct:iterations=200", seed=1).analyse(state.view(0))
    assert all(c.depth is None and c.visits > 0 for c in mcts.candidates)
