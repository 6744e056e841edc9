"""Agents: the MCTS kernel and agent, levels, matches, and their command-line faces."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import boardlab
from boardlab import records
from boardlab.ai import RandomAgent, make_agent
from boardlab.ai import mcts_kernel as mk
from boardlab.ai.levels import LEVELS
from boardlab.ai.mcts import MCTSAgent, SearchSettings
from boardlab.cli.main import main
from boardlab.errors import BoardlabError
from boardlab.match import GameOutcome, MatchResult, elo, run_match, wilson

# x to move with four in a row (c4 d5 e6 f7): b3 or g8 wins at once.
X_WINS_IN_ONE = "5/6/3x3/4x3/5x3/5x2/7/6/5 x 8"
# o has e1–e4 and threatens e5; x has nothing: only e5 saves x.
X_MUST_BLOCK = "x1x2/6/7/8/oooo5/8/7/6/x4 x 8"


def ndengrod(**options: object) -> boardlab.Game:
    return boardlab.load("ndengrod", **options)


def test_mcts_plays_a_win_in_one_and_proves_it() -> None:
    state = ndengrod().from_text(X_WINS_IN_ONE)
    agent = MCTSAgent(SearchSettings(iterations=3000), seed=3)
    analysis = agent.analyse(state.view(0))
    assert analysis.best.text in ("b3", "g8")
    assert analysis.candidates[0].value == 1.0  # proven by the solver
    assert agent.iterations_done < 3000  # a proven root ends the search early
    assert agent.choose(state.view(0)).text in ("b3", "g8")


def test_mcts_blocks_the_only_defence() -> None:
    state = ndengrod().from_text(X_MUST_BLOCK)
    agent = MCTSAgent(SearchSettings(iterations=20_000), seed=5)
    assert agent.choose(state.view(0)).text == "e5"


def test_without_the_solver_mcts_still_finds_the_win_but_proves_nothing() -> None:
    state = ndengrod().from_text(X_WINS_IN_ONE)
    agent = MCTSAgent(SearchSettings(iterations=3000, solver=False), seed=3)
    analysis = agent.analyse(state.view(0))
    assert analysis.best.text in ("b3", "g8")
    assert agent.iterations_done == 3000  # nothing proven, so the whole budget is spent


def test_analysis_ranks_every_legal_move_with_visits_and_a_line() -> None:
    state = ndengrod(size=3, length=4).new_game()
    agent = MCTSAgent(SearchSettings(iterations=4000, solver=False), seed=1)
    analysis = agent.analyse(state.view(0))
    assert {c.move for c in analysis.candidates} == set(state.legal_moves())
    visits = [c.visits for c in analysis.candidates]
    assert visits == sorted(visits, reverse=True) and sum(visits) == 4000
    assert analysis.principal_variation[0] == analysis.best
    line = state
    for move in analysis.principal_variation:  # the line is playable
        line = line.play(move)


def test_the_tree_is_reused_after_the_opponents_reply() -> None:
    game = ndengrod()
    agent = MCTSAgent(SearchSettings(iterations=5000), seed=2)
    state = game.new_game()
    mine = agent.choose(state.view(0))
    tree = agent._tree
    assert tree is not None
    child = tree.child(tree.root, mine.path[0])
    replies = sorted(tree.children(child), key=lambda c: -tree.stats[c, mk.VISITS])
    reply_action = int(tree.nodes[replies[0], mk.ACTION])
    known_visits = tree.stats[replies[0], mk.VISITS]
    after = state.play(mine)
    after = after.play(next(m for m in after.legal_moves() if m.path == (reply_action,)))
    assert tree.advance(after)
    assert tree.stats[tree.root, mk.VISITS] == known_visits > 0


def test_a_tree_cannot_be_reused_for_an_unrelated_position() -> None:
    game = ndengrod()
    agent = MCTSAgent(SearchSettings(iterations=500), seed=2)
    agent.choose(game.new_game().view(0))
    assert agent._tree is not None
    assert not agent._tree.advance(game.from_text(X_WINS_IN_ONE))


def test_kernel_counts_visits_consistently() -> None:
    game = ndengrod(size=3, length=4)
    data = game.new_game().data.copy()
    nodes = np.zeros((5000, mk.NODE_FIELDS), np.int64)
    stats = np.zeros((5000, mk.STAT_FIELDS), np.float64)
    meta = np.zeros(mk.META_FIELDS, np.int64)
    mk.new_node(nodes, stats, meta, -1, -1)
    params = np.zeros(mk.PARAM_FIELDS, np.float64)
    params[mk.P_EXPLORATION], params[mk.P_SEATS] = 0.7, 2
    done = mk.search(game.legal_kernel, game.apply_kernel, game.evaluate_kernel, data, game.spec,
                     nodes, stats, meta, params, 3000, *mk.tables(0, 2, game.num_distinct_actions, 0),
                     np.zeros(0, np.int64))
    assert done == 3000 and meta[mk.M_SIZE] == 3001  # one new node per iteration
    size = meta[mk.M_SIZE]
    for node in range(size):  # a node's visits are its children's plus the one that stopped there
        children = [c for c in range(size) if nodes[c, mk.PARENT] == node]
        assert stats[node, mk.VISITS] - sum(stats[c, mk.VISITS] for c in children) in (0.0, 1.0)
        # Two seats share each playout's point: values add up to the visits.
        assert stats[node, mk.VALUE] + stats[node, mk.VALUE + 1] == pytest.approx(stats[node, mk.VISITS])
    assert np.array_equal(data, game.new_game().data)  # the root state is not touched


def test_a_full_tree_stops_the_search_without_error() -> None:
    state = ndengrod().new_game()
    agent = MCTSAgent(SearchSettings(iterations=10_000, capacity=300), seed=1)
    assert agent.choose(state.view(0)) in state.legal_moves()
    assert agent.iterations_done < 300


def test_an_agent_only_moves_for_the_seat_on_turn() -> None:
    state = ndengrod().new_game()
    with pytest.raises(boardlab.IllegalMove, match="no decision to make"):
        MCTSAgent(SearchSettings(iterations=10)).choose(state.view(1))
    with pytest.raises(boardlab.IllegalMove, match="no decision to make"):
        RandomAgent().choose(state.view(None))


def test_levels_grow_from_a_little_random_search_to_a_timed_one() -> None:
    budgets = [make_agent(f"level{n}").settings for n in range(1, 6)]  # type: ignore[attr-defined]
    assert budgets[0].temperature > 0 and budgets[0].iterations == 100
    assert [b.iterations for b in budgets[:3]] == [100, 1000, 5000]
    assert budgets[4].seconds and not budgets[4].iterations


@pytest.mark.parametrize("spec, message", [
    ("level0", "unknown agent 'level0'"),
    ("alphazero", "unknown agent 'alphazero'; accepted: random, level1"),
    ("uct:width=3", "agent setting 'width=3': accepted: iterations=…"),
    ("uct:seconds=fast", "seconds='fast' is not a valid"),
    ("random:seconds=1", "takes no settings"),
])
def test_bad_agent_names_say_what_is_accepted(spec: str, message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=message):
        make_agent(spec)


def test_a_match_time_budget_replaces_an_iteration_budget() -> None:
    settings = make_agent("level3", seconds=0.5).settings  # type: ignore[attr-defined]
    assert settings.seconds == 0.5 and settings.iterations is None
    own = make_agent("level3:seconds=2", seconds=0.5).settings  # type: ignore[attr-defined]
    assert own.seconds == 2.0 and own.iterations is None


def test_match_tallies_alternate_seats_and_keep_records(tmp_path: Path) -> None:
    result = run_match("ndengrod", {"size": 3, "length": 4}, "level2", "random", games=6, workers=2,
                       save_dir=tmp_path)
    assert result.games == 6 and result.wins + result.draws + result.losses == 6
    saved = sorted(tmp_path.glob("game-*.json"))
    assert len(saved) == 6
    seats = [records.load(p).players.index("level2") for p in saved]
    assert seats == [0, 1, 0, 1, 0, 1]
    assert result.score >= 0.5  # a search of 1,000 playouts a move does not lose to random play


def test_wilson_interval_and_elo() -> None:
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.404, abs=0.001) and hi == pytest.approx(0.596, abs=0.001)
    assert elo(0.5, 10) == 0.0
    assert elo(0.76, 100) == pytest.approx(200, abs=1)
    assert elo(1.0, 10) == pytest.approx(-elo(0.0, 10))  # clamped, finite, symmetric


def test_match_command_prints_a_summary_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["match", "ndengrod", "-o", "size=3", "-o", "length=4", "random", "random", "--games", "4",
                 "--workers", "1", "--json", "--save", str(tmp_path)])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert "random vs random at ndengrod: 4 games" in lines[0]
    data = json.loads(lines[-1])
    assert data["games"] == 4 and set(data) >= {"wins", "draws", "losses", "score_interval", "elo"}
    assert len(list(tmp_path.glob("*.json"))) == 4
    assert "Elo: too few games (4; 10 or more give one)" in lines[0]


def test_the_records_folder_is_printed_once_slashed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = f"{tmp_path}/games/"
    assert main(["match", "ndengrod", "-o", "size=3", "-o", "length=4", "random", "random", "--games", "2",
                 "--workers", "1", "--save", folder]) == 0
    out = capsys.readouterr().out
    assert f"are in {tmp_path}/games/\n" in out and "//" not in out


def test_a_resumed_match_says_how_many_games_it_counted(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    match = ["match", "ndengrod", "-o", "size=3", "-o", "length=4", "random", "random", "--workers", "1",
             "--save", str(tmp_path)]
    assert main([*match, "--games", "1"]) == 0
    assert main([*match, "--games", "2", "--resume"]) == 0
    assert "1 of the 2 games was counted from the records an earlier run left" in capsys.readouterr().out
    assert main([*match, "--games", "3", "--resume"]) == 0
    assert "2 of the 3 games were counted" in capsys.readouterr().out


def outcomes(*scores: float) -> MatchResult:
    result = MatchResult("ndengrod", {}, "a", "b")
    for index, score in enumerate(scores):
        result.add(GameOutcome(index, index % 2, score, 10, {}))
    return result


def test_elo_is_left_out_for_few_games_bounded_for_a_sweep_and_never_minus_zero() -> None:
    assert "too few games (1;" in outcomes(0.5).summary()
    assert "-0" not in outcomes(*[1.0, 0.0] * 5).summary()
    assert "Elo +0 (95% CI -" in outcomes(*[1.0, 0.0] * 5).summary()
    sweep = outcomes(*[1.0] * 20).summary()
    lower = elo(wilson(1.0, 20)[0], 20)
    assert f"Elo at least +{round(lower)} (95% lower bound)" in sweep
    assert "Elo at most -" in outcomes(*[0.0] * 12).summary()
    assert "Elo +70 (95% CI" in outcomes(*[1.0] * 12 + [0.0] * 8).summary()


def test_the_likelihood_of_superiority_rests_on_the_decisive_games_alone() -> None:
    # 6 wins and 14 draws: Wilson's interval on the score (65%) still reaches below 50%, but no
    # game was lost, and the decisive games make A the stronger at 99.3%.
    drawn = outcomes(*[1.0] * 6 + [0.5] * 14)
    assert drawn.score_interval[0] < 0.5
    assert drawn.los == pytest.approx(0.9928, abs=1e-4)
    assert "LOS 99.3% (6 decisive games)" in drawn.summary()
    # Draws do not move it: the same decisive games among more draws give the same figure.
    assert outcomes(*[1.0] * 6 + [0.5] * 40).los == drawn.los
    assert outcomes(*[1.0, 0.0] * 4).los == 0.5
    assert outcomes(*[0.0] * 3 + [1.0]).los == pytest.approx(1 - outcomes(*[1.0] * 3 + [0.0]).los)  # type: ignore[operator]
    assert "LOS: no decisive game" in outcomes(0.5, 0.5).summary()
    assert "1 decisive game)" in outcomes(1.0).summary()


def test_bench_ai_reports_iterations_per_second(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ndengrod", "--ai", "--seconds", "0.3", "--json", "-o", "size=3"]) == 0
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["iterations_per_s"] > 0 and data["iterations"] > 0 and data["game"] == "ndengrod"


@pytest.mark.parametrize("argv, message", [
    (["match", "ndengrod", "level3", "chess"], "unknown agent 'chess'"),
    (["match", "ndengrod", "random", "random", "--games", "0"], "--games 0: accepted: a positive number"),
    (["play", "ndengrod", "--opponent", "grandmaster"], "unknown agent 'grandmaster'"),
])
def test_match_and_play_reject_bad_agents(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


class FakeTerminal:
    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_thinking_is_shown_only_after_half_a_second() -> None:
    from boardlab.cli.progress import ThinkingLine

    terminal = FakeTerminal()
    line = ThinkingLine(terminal)  # type: ignore[arg-type]
    state = ndengrod().new_game()
    analysis = MCTSAgent(SearchSettings(iterations=300), seed=1).analyse(state.view(0))
    line(300, 0.2, analysis)
    assert terminal.text == ""
    line(9000, 0.8, analysis)
    assert "thinking…  0.8 s, 9,000 iterations, best" in terminal.text
    line.clear()
    assert terminal.text.endswith("\r")


def test_hint_shows_three_moves_with_estimates(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = iter(["hint", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "ndengrod", "--level", "1", "--seed", "2", "-o", "size=3"]) == 0
    out = capsys.readouterr().out
    hint = out[out.index("Hint (level 3 search"):].splitlines()[1:4]
    assert len(hint) == 3 and all(" scores " in line and " playouts" in line for line in hint)


def test_the_default_opponent_is_level_3(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lines = iter(["b2", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    path = tmp_path / "g.json"
    assert main(["play", "ndengrod", "-o", "size=3", "--save", str(path)]) == 0
    assert records.load(path).players == ["human", "level3"]


def evaluation(game: boardlab.Game, text: str | None = None) -> list[float]:
    state = game.from_text(text) if text else game.new_game()
    values = np.zeros(4)
    game.evaluate_kernel(state.data.copy(), game.spec, values)
    return [float(v) for v in values[: game.num_seats]]


def test_gtbm_evaluation_favours_the_side_with_more_pieces() -> None:
    game = boardlab.load("gtbm")
    assert evaluation(game) == [0.5, 0.5]
    black_ahead = evaluation(game, "WWWWWW2/8/8/8/8/8/8/BBBBBBBB w 11 0")
    assert black_ahead[0] > 0.8 and sum(black_ahead) == pytest.approx(1.0)


def test_gtbm_evaluation_counts_the_steps_and_captures_the_rules_allow() -> None:
    """The evaluation's positional terms, checked against the rules' own move lists in random games."""
    from boardlab.games.gtbm import kernel as gtbm_kernel

    game = boardlab.load("gtbm")
    rng = random.Random(3)
    checked = 0
    for _ in range(5):
        state = game.new_game()
        while not state.is_over:
            moves = state.legal_moves()
            steps, threats = gtbm_kernel.steps_and_threats(state.data, game.spec, state.to_move)
            assert (steps, threats) == (len(moves), sum("x" in str(move) for move in moves))
            checked += threats
            state = state.play(rng.choice(moves))
    assert checked > 0


def test_gtbm_evaluation_weighs_a_ready_capture_and_room_to_move_between_equal_armies() -> None:
    game = boardlab.load("gtbm")
    # Eight pieces each. Black's d4 can take White's e4 (stepping to e5); nothing of Black's can be taken.
    capture_ready = evaluation(game, "WWWWWWW1/8/8/8/3BW3/3B4/8/BBBBBB2 b 20 20")
    assert capture_ready[0] > 0.5
    # No contact: Black's home row has 14 steps, White's army in the open 22.
    white_has_room = evaluation(game, "8/8/8/WWWWWWWW/8/8/8/BBBBBBBB b 60 60")
    assert white_has_room[0] < 0.5
    black_ahead = evaluation(game, "WWWWWWW1/8/8/8/8/8/8/BBBBBBBB w 11 0")
    assert black_ahead[0] > capture_ready[0]


def test_horsmeier_evaluation_favours_the_colour_further_ahead() -> None:
    game = boardlab.load("horsmeier")
    assert evaluation(game) == pytest.approx([0.5, 0.5])
    start = game.new_game()
    ahead = start.play("f5-f6").play("f7-f8").play("f6-f7")  # White's 5 leads the race
    values = np.zeros(4)
    game.evaluate_kernel(ahead.data.copy(), game.spec, values)
    assert values[0] > 0.5 > values[1]
    # With Black moving first, seat 0 is Black: the same position reads the other way round.
    black_first = boardlab.load("horsmeier", first_player="black")
    assert evaluation(black_first) == pytest.approx([0.5, 0.5])


def test_a_cutoff_applies_only_to_games_with_an_evaluation() -> None:
    agent = MCTSAgent(SearchSettings(iterations=10, cutoff=8))
    default = SearchSettings(iterations=10)  # cutoff -1: the game's own
    assert MCTSAgent(default)._params(boardlab.load("horsmeier"), 0, default, infoset=False)[mk.P_CUTOFF] == 20
    plain = make_agent("uct").settings  # type: ignore[attr-defined]
    assert MCTSAgent(plain)._params(boardlab.load("horsmeier"), 0, plain, infoset=False)[mk.P_CUTOFF] == 0
    assert agent._params(boardlab.load("gtbm"), 0, agent.settings, infoset=False)[mk.P_CUTOFF] == 8
    assert agent._params(ndengrod(), 0, agent.settings, infoset=False)[mk.P_CUTOFF] == 0


def test_mynd_evaluation_counts_reach_and_sums_to_one() -> None:
    game = boardlab.load("mynd")
    assert evaluation(game) == pytest.approx([0.5, 0.5])
    state = game.new_game()
    for move in ["b2", "k10", "c3", "pass", "d4", "pass"]:  # black grows toward the centre
        state = state.play(move)
    values = evaluation(game, state.to_text())
    assert values[0] > 0.5 and sum(values) == pytest.approx(1.0)
    four = evaluation(boardlab.load("mynd", players=4))
    assert four == pytest.approx([0.25] * 4)  # four corners: even chances


def test_the_thinking_line_keeps_a_hidden_move_secret() -> None:
    from boardlab.cli.progress import ThinkingLine

    terminal = FakeTerminal()
    state = ndengrod().new_game()
    analysis = MCTSAgent(SearchSettings(iterations=300), seed=1).analyse(state.view(0))
    ThinkingLine(terminal, show_move=False)(9000, 0.8, analysis)  # type: ignore[arg-type]
    assert "9,000 iterations" in terminal.text and "best" not in terminal.text
    assert analysis.best.text not in terminal.text


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_sampling_level_still_plays_a_proven_win(seed: int) -> None:
    state = ndengrod().from_text(X_WINS_IN_ONE)
    agent = make_agent("level2:temperature=0.25", seed=seed)  # samples moves by visits
    assert agent.choose(state.view(0)).text in ("b3", "g8")


@pytest.mark.parametrize("spec, message", [
    ("uct:batch=0", "batch=0: accepted: a positive number"),
    ("uct:iterations=-5", "iterations=-5: accepted: a positive number"),
    ("uct:capacity=1", "capacity=1: accepted: 0 (automatic) or at least 2"),
    ("uct:algorithm=minimax", "algorithm='minimax': accepted: auto, mcts"),
    ("alphabeta:seconds=none", "'seconds=none': accepted: a positive number"),
    ("alphabeta:max_depth=0", "'max_depth=0': accepted: a positive number"),
])
def test_bad_search_settings_are_refused_before_searching(spec: str, message: str) -> None:
    with pytest.raises(boardlab.BoardlabError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_agent(spec)


def test_an_agent_that_cannot_play_the_game_is_refused_before_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "ndengrod", "--opponent", "alphabeta"]) == 2
    assert "alpha-beta needs a two-seat game" in capsys.readouterr().err
    assert main(["match", "ndengrod", "alphabeta", "random", "--games", "1"]) == 2


def test_match_save_into_a_file_is_an_error_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("not a folder")
    assert main(["match", "ndengrod", "random", "random", "--games", "1", "--save", str(blocker)]) == 2
    assert "cannot keep the records in" in capsys.readouterr().err


def test_a_stopped_match_resumes_from_its_records(tmp_path: Path) -> None:
    whole = run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=6, workers=1,
                      save_dir=tmp_path / "whole")
    folder = tmp_path / "stopped"
    folder.mkdir()
    # As if stopped after four games: their records are there, with a mark that a replay would not write.
    for index in range(4):
        name = f"game-{index + 1:04d}.json"
        record = records.load(tmp_path / "whole" / name)
        record.tags["kept"] = "yes"
        records.dump(record, folder / name)
    resumed = run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=6, workers=1,
                        save_dir=folder, resume=True)
    assert resumed.resumed == 4
    assert (resumed.wins, resumed.draws, resumed.losses) == (whole.wins, whole.draws, whole.losses)
    assert resumed.mean_plies == pytest.approx(whole.mean_plies)
    kept = [records.load(folder / f"game-{i:04d}.json").tags.get("kept") for i in range(1, 7)]
    assert kept == ["yes"] * 4 + [None] * 2  # the four were read, not played again; the last two were played
    assert [records.load(folder / f"game-{i:04d}.json").moves for i in (5, 6)] == \
        [records.load(tmp_path / "whole" / f"game-{i:04d}.json").moves for i in (5, 6)]


def test_a_resumed_match_measures_length_in_plies_as_a_played_one(tmp_path: Path) -> None:
    # A Möbiatus record keeps one move a turn, and a slide or a chain of hops takes several plies.
    played = run_match("mobiatus", {}, "random", "random", games=2, workers=1, save_dir=tmp_path)
    kept = [records.load(tmp_path / f"game-{i:04d}.json") for i in (1, 2)]
    assert sum(len(record.moves) for record in kept) < 2 * played.mean_plies  # else this test shows nothing
    resumed = run_match("mobiatus", {}, "random", "random", games=2, workers=1, save_dir=tmp_path, resume=True)
    assert resumed.resumed == 2
    assert resumed.mean_plies == pytest.approx(played.mean_plies)


def test_resume_refuses_games_played_by_a_level_whose_budget_has_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=2, workers=1, save_dir=tmp_path)
    assert records.load(tmp_path / "game-0001.json").tags["agent_a"] == make_agent("level1").describe()
    monkeypatch.setitem(LEVELS, 1, replace(LEVELS[1], iterations=50))
    with pytest.raises(BoardlabError, match=r"game-0001.json is not game 1 of this match: level1 played as "
                                            r"iterations=100,.*; level1 now: iterations=50,"):
        run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True)
    monkeypatch.undo()
    record = records.load(tmp_path / "game-0002.json")
    del record.tags["agent_a"]  # as written before records kept the agents' settings
    records.dump(record, tmp_path / "game-0002.json")
    with pytest.raises(BoardlabError, match=r"game-0002.json .*it does not say how level1 played"):
        run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True)


def test_resume_counts_a_record_written_before_an_option_existed_as_played_under_its_default(
        tmp_path: Path) -> None:
    # Möbiatus' `movement` option came after a match's first records: they name no movement, and
    # were played with knights, its default. Such a record is that match's game; one whose missing
    # option would now read otherwise is not.
    run_match("mobiatus", {}, "random", "random", games=2, workers=1, save_dir=tmp_path)
    record = records.load(tmp_path / "game-0001.json")
    assert record.options["movement"] == "knight"
    del record.options["movement"]
    records.dump(record, tmp_path / "game-0001.json")
    resumed = run_match("mobiatus", {}, "random", "random", games=2, workers=1, save_dir=tmp_path, resume=True)
    assert resumed.resumed == 2
    with pytest.raises(BoardlabError, match=r"game-0001.json is not game 1 of this match: options .*'knight'"):
        run_match("mobiatus", {"movement": "camel"}, "random", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True)


def test_an_agent_describes_its_settings_in_the_syntax_a_spec_accepts() -> None:
    for level in ("level1", "level4", "level5"):
        described = make_agent(level).describe()
        assert make_agent(f"uct:{described}").settings == LEVELS[int(level[5:])]
    assert "seconds=0.5" in make_agent("level4", seconds=0.5).describe()
    assert make_agent("alphabeta:seconds=2,max_depth=7").describe() == "seconds=2.0,max_depth=7"
    assert make_agent("random").describe() == ""


def test_resume_refuses_records_of_another_match(tmp_path: Path) -> None:
    run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=2, workers=1, save_dir=tmp_path)
    with pytest.raises(BoardlabError, match=r"game-0001.json is not game 1 of this match: players"):
        run_match("ndengrod", {"size": 3, "length": 4}, "level2", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True)
    with pytest.raises(BoardlabError, match=r"options"):
        run_match("ndengrod", {"size": 3, "length": 3}, "level1", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True)
    with pytest.raises(BoardlabError, match=r"seed 1 \(this match's: 5\)"):
        run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True, seed=5)
    (tmp_path / "game-0002.json").write_text('{"game": "ndengrod", "moves": [')  # cut off mid-write
    with pytest.raises(BoardlabError, match=r"--resume: .*game-0002.json: not JSON"):
        run_match("ndengrod", {"size": 3, "length": 4}, "level1", "random", games=2, workers=1,
                  save_dir=tmp_path, resume=True)
