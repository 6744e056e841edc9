"""Search across the games: information-set search that cannot cheat, and several players."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import boardlab
from boardlab.ai import make_agent
from boardlab.ai.mcts import MCTSAgent, SearchSettings
from boardlab.match import play_out


def hmdg_positions(count: int) -> list[boardlab.State]:
    """Mid-game HMDG positions, reached by random play, with a commit owed by the seat to move."""
    game = boardlab.load("hmdg")
    found = []
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_game()
        stop = rng.randrange(8, 40)
        while not state.is_over and state.ply < stop:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over and "/" in state.legal_moves()[0].text:
            found.append(state)
        if len(found) == count:
            break
    return found


def resampled(state: boardlab.State, seat: int) -> boardlab.State | None:
    """A different true state that ``seat`` cannot tell from ``state`` (its view is the same)."""
    for draw in range(30):
        other = state.game.determinize(state.view(seat), random.Random(draw))
        if other.to_text() != state.to_text():
            assert other.view(seat).to_text() == state.view(seat).to_text()
            return other
    return None


def summary(analysis: object) -> list[tuple[str, int]]:
    return [(c.move.text, c.visits) for c in analysis.candidates]  # type: ignore[attr-defined]


def test_information_set_search_cannot_read_the_hidden_stones() -> None:
    """The choice depends on the view alone: resampling the opponent's hidden stones changes nothing."""
    compared = 0
    cheater_differs = 0
    for state in hmdg_positions(6):
        seat = state.to_move
        assert seat is not None
        other = resampled(state, seat)
        if other is None:
            continue
        compared += 1
        budget = SearchSettings(iterations=1500)
        honest = [summary(MCTSAgent(budget, seed=11).analyse(s.view(seat))) for s in (state, other)]
        assert honest[0] == honest[1]
        # A search that reads the true state (what the agent must not do) tells them apart.
        cheats = [summary(MCTSAgent(budget, seed=11)._search_state(s, budget)) for s in (state, other)]
        cheater_differs += cheats[0] != cheats[1]
    assert compared >= 4
    assert cheater_differs >= 1  # so the test would catch an agent that looked


def test_information_set_search_plays_a_whole_game_against_random() -> None:
    game = boardlab.load("hmdg")
    agents = {0: make_agent("level2", seed=1), 1: make_agent("random", seed=2)}
    state = play_out(game.new_game(), agents)
    assert state.result is not None


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("paranoid", [False, True])
def test_multi_player_search_plays_every_seat(players: int, paranoid: bool) -> None:
    game = boardlab.load("mynd", players=players, size=7)
    state = game.new_game()
    agent = MCTSAgent(SearchSettings(iterations=400, paranoid=paranoid), seed=players)
    for _ in range(2 * players):
        seat = state.to_move
        assert seat is not None
        analysis = agent.analyse(state.view(seat))
        assert analysis.candidates and all(c.value is None or 0.0 <= c.value <= 1.0 for c in analysis.candidates)
        state = state.play(analysis.best)
    assert state.ply == 2 * players


def test_paranoid_selection_makes_every_other_seat_minimise_the_root_seats_reward() -> None:
    """Max-n: a seat chooses by its own mean reward. Paranoid: by the root seat's loss."""
    from boardlab.ai import mcts_kernel as mk

    stats = np.zeros((1, mk.STAT_FIELDS))
    stats[0, mk.VISITS] = 10.0
    stats[0, mk.VALUE + 0] = 6.0  # the root seat's reward: 0.6
    stats[0, mk.VALUE + 1] = 9.0  # seat 1's own: 0.9
    params = np.zeros(mk.PARAM_FIELDS)
    params[mk.P_ROOT_SEAT] = 0
    assert mk._seat_value(stats, 0, 1, params) == pytest.approx(0.9)
    params[mk.P_PARANOID] = 1.0
    assert mk._seat_value(stats, 0, 1, params) == pytest.approx(0.4)
    assert mk._seat_value(stats, 0, 0, params) == pytest.approx(0.6)  # the root seat still maximises


# -- alpha-beta (GTBM's search at every level: it beat plain UCT where MCTS improvements drew) ----


def minimax(state: boardlab.State, depth: int, seat: int, evaluate: Any = None) -> float:
    """Plain minimax over an evaluation (the game's own unless given), from ``seat``'s side: the
    reference for alpha-beta."""
    if state.is_over:
        assert state.result is not None
        return state.result[seat]
    if depth == 0:
        values = np.zeros(4)
        (evaluate or state.game.evaluate_kernel)(state.data.copy(), state.game.spec, values)
        return float(values[seat])
    children = [minimax(state.play(m), depth - 1, seat, evaluate) for m in state.legal_moves()]
    return max(children) if state.to_move == seat else min(children)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_alpha_beta_finds_the_minimax_value(depth: int) -> None:
    from boardlab.ai import alphabeta_kernel as ab
    from boardlab.games.gtbm.kernel import evaluate_material

    game = boardlab.load("gtbm", size=6)
    # From random play: Black can take a piece, but from depth 2 White takes one back, so a search
    # that forgot the opponent (0.67) or assumed the worst of every move (0.33 or less) would differ.
    # Material alone makes those values exact; the game's own evaluation is checked below.
    state = game.from_text("W1W2W/W2WBW/6/6/B3BB/1B1B2 b 18 18")
    actions = np.array([m.path[0] for m in state.legal_moves()], np.int64)
    values = np.zeros(len(actions))
    nodes = ab.search(game.legal_kernel, game.apply_kernel, evaluate_material, state.data.copy(), game.spec,
                      depth, actions, values, 10**7)
    assert nodes > 0
    assert max(values) == pytest.approx(minimax(state, depth, 0, evaluate_material))
    assert max(values) == pytest.approx(0.668 if depth == 1 else 0.5, abs=0.001)
    # The same search on the game's evaluation, against the same reference.
    values = np.zeros(len(actions))
    ab.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec,
              depth, actions, values, 10**7)
    assert max(values) == pytest.approx(minimax(state, depth, 0))


@pytest.mark.parametrize("maximise", [True, False])
def test_alpha_beta_tries_the_move_that_looks_best_for_the_side_deciding_first(maximise: bool) -> None:
    from boardlab.ai import alphabeta_kernel as ab

    game = boardlab.load("gtbm", size=6)
    state = game.from_text("W1W2W/W2WBW/6/6/B3BB/1B1B2 b 18 18")
    actions = np.array([m.path[0] for m in state.legal_moves()], np.int64)

    def looks(action: int) -> float:
        values = np.zeros(4)
        game.evaluate_kernel(state.play(next(m for m in state.legal_moves() if m.path[0] == action)).data.copy(),
                             game.spec, values)
        return float(values[0])

    ordered = actions.copy()
    ab._order_children(game.apply_kernel, game.evaluate_kernel, state.data.copy(), game.spec, 0, maximise,
                       ordered, len(ordered), np.empty_like(state.data), np.empty(len(ordered)), np.zeros(4))
    assert sorted(ordered.tolist()) == sorted(actions.tolist())  # the same moves, reordered
    seen = [looks(int(a)) for a in ordered]
    assert seen == sorted(seen, reverse=maximise)
    assert len(set(seen)) > 1  # the position has a capture: the order is not the legal order by luck


def test_alpha_beta_tries_the_last_cut_off_move_first() -> None:
    from boardlab.ai import alphabeta_kernel as ab

    moves = np.array([5, 9, 2, 7], np.int64)
    ab._killer_first(moves, 4, 7)
    assert moves.tolist() == [7, 9, 2, 5]
    ab._killer_first(moves, 4, 11)  # not legal here: nothing moves
    assert moves.tolist() == [7, 9, 2, 5]


@pytest.mark.parametrize("depth", [2, 3])
def test_alpha_beta_analysis_gives_each_listed_move_its_own_value(depth: int) -> None:
    # Alpha-beta proves only the best move's value; the runners-up it lists must be searched again,
    # not shown with the bound that was enough to drop them.
    from boardlab.ai.alphabeta import AlphaBetaAgent

    state = boardlab.load("gtbm", size=6).from_text("W1W2W/W2WBW/6/6/B3BB/1B1B2 b 18 18")
    agent = AlphaBetaAgent(seconds=30, max_depth=depth, seed=1)
    analysis = agent.analyse(state.view(0), exact=4)
    listed = [c for c in analysis.candidates if c.value is not None]
    assert len(listed) == 4
    for candidate in listed:
        assert candidate.value == pytest.approx(minimax(state.play(candidate.move), depth - 1, 0))
    values = [c.value for c in listed]
    assert values == sorted(values, reverse=True)
    # And no move left without a value is better than the fourth listed.
    for candidate in analysis.candidates[4:]:
        assert minimax(state.play(candidate.move), depth - 1, 0) <= values[-1] + 1e-9


def test_alpha_beta_takes_a_free_piece() -> None:
    state = boardlab.load("gtbm").from_text("W7/8/8/8/8/2BW4/8/7B b 30 0")
    agent = make_agent("alphabeta:seconds=0.2", seed=1)
    assert agent.choose(state.view(0)).text == "c3-d4xd3"


def test_the_gtbm_levels_search_with_alpha_beta_and_uct_stays_plain() -> None:
    state = boardlab.load("gtbm").new_game()
    level3 = make_agent("level3", seed=1)
    level3.choose(state.view(0))
    assert level3.depth_reached == 4 and level3.iterations_done == 0  # type: ignore[attr-defined]
    uct = make_agent("uct:iterations=300", seed=1)
    uct.choose(state.view(0))
    assert uct.iterations_done == 300 and uct.depth_reached == 0  # type: ignore[attr-defined]


def test_alpha_beta_refuses_games_it_cannot_search() -> None:
    from boardlab.ai.alphabeta import AlphaBetaAgent

    state = boardlab.load("ndengrod").new_game()
    with pytest.raises(boardlab.BoardlabError, match=r"alpha-beta needs a two-seat game .* with an evaluation"):
        AlphaBetaAgent(seconds=0.1).choose(state.view(0))


def late_hmdg_positions(options: dict, count: int) -> list[boardlab.State]:
    """Positions near the end of random HMDG games (fives formed, games about to end)."""
    game = boardlab.load("hmdg", **options)
    found = []
    for seed in range(60):
        rng = random.Random(seed)
        line = [game.new_game()]
        while not line[-1].is_over:
            line.append(line[-1].play(rng.choice(line[-1].legal_moves())))
        found.extend(s for s in line[-8:-1] if s.to_move is not None)
        if len(found) >= count:
            break
    return found[:count]


def test_information_set_search_stays_sound_where_determinisations_disagree_about_the_end() -> None:
    """Late in the game a reply ends it in some samples and not in others: the tree must stay whole."""
    from boardlab.ai import mcts_kernel as mk

    for state in late_hmdg_positions({}, 12):
        seat = state.to_move
        assert seat is not None
        agent = MCTSAgent(SearchSettings(iterations=800), seed=3)
        analysis = agent.analyse(state.view(seat))
        assert analysis.best in state.view(seat).legal_moves()
        tree = agent._tree
        assert tree is not None
        size = tree.size
        assert (tree.nodes[1:size, mk.PARENT] >= 0).all() and (tree.nodes[1:size, mk.ACTION] >= 0).all()


def test_information_set_search_handles_actions_past_the_default_limit() -> None:
    """On a 12x12 board a responder's reveal is numbered up to 3 * 144 + 3 + 4095."""
    game = boardlab.load("hmdg", size=12)
    assert game.action_limit > 4096
    state = next(s for s in late_hmdg_positions({"size": 12}, 40)
                 if not any("/" in m.text for m in s.legal_moves()))  # a responder's decision
    seat = state.to_move
    assert seat is not None
    agent = MCTSAgent(SearchSettings(iterations=500), seed=1)
    assert agent.choose(state.view(seat)) in state.legal_moves()


def mobiatus_estimates(state: boardlab.State) -> list[float]:
    """The evaluation's estimate for the seat to move after each of its legal moves."""
    game = state.game
    seat = state.to_move
    assert seat is not None
    estimates = []
    for move in state.legal_moves():
        values = np.zeros(8, np.float64)
        game.evaluate_kernel(state.play(move).data.copy(), game.spec, values)
        estimates.append(float(values[seat]))
    return estimates


def test_mobiatus_evaluation_tells_moves_apart_before_any_capture() -> None:
    # Pieces and parity alone (the old evaluation) were the same after every opening move (B11).
    state = boardlab.load("mobiatus").new_game()
    estimates = mobiatus_estimates(state)
    assert len(set(estimates)) >= 3
    assert max(estimates) - min(estimates) > 0.05


@pytest.mark.parametrize("plies", [0, 20])
def test_mobiatus_search_values_differ_at_the_root(plies: int) -> None:
    # Level 3 once gave every root move the same value (0.354) and visits: its hints were arbitrary.
    rng = random.Random(5)
    state = boardlab.load("mobiatus").new_game()
    while state.ply < plies:
        state = state.play(rng.choice(state.legal_moves()))
    assert state.to_move is not None
    analysis = make_agent("level3", seed=2).analyse(state.view(state.to_move))
    values = [c.value for c in analysis.candidates if c.value is not None]
    assert len(set(values)) > len(values) // 2
    assert max(values) - min(values) > 0.02
    visits = [c.visits for c in analysis.candidates]
    assert max(visits) > 1.2 * min(visits)
