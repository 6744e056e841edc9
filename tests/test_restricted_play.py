"""Restricted play (issue 32): agents that may not use a rule feature a game declares, ``restrict=…``.

Horsmeier declares ``no_sideways`` (a filter on the moves played) and ``ignore_lifespan`` (the search
runs on a model of the position under the added ``expiry_rule=never``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import boardlab
from boardlab import records
from boardlab.ai.levels import make_agent
from boardlab.ai.mcts import MCTSAgent
from boardlab.games.horsmeier.restrictions import is_sideways
from boardlab.match import run_match
from boardlab.playtest.run import Plan
from tests.test_horsmeier import pieces, setup

TINY = "uct:iterations=60"


def play_game(game: boardlab.Game, agents: dict[int, MCTSAgent]) -> list[tuple[int, boardlab.State, boardlab.Move]]:
    """Each ply of a game between ``agents``: (seat, the position, the move its seat played)."""
    state = game.new_game()
    plies = []
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        move = agents[seat].choose(state.view(seat))
        plies.append((seat, state, move))
        state = state.play(move)
    return plies


def test_a_no_sideways_agent_never_moves_sideways_while_an_unrestricted_one_does() -> None:
    game = boardlab.load("horsmeier", ply_cap=40)
    restricted_moves, free_moves = [], []
    for seed in range(3):
        restricted_seat = seed % 2
        agents = {restricted_seat: make_agent(f"{TINY},restrict=no_sideways", seed=seed),
                  1 - restricted_seat: make_agent(TINY, seed=seed + 100)}
        for seat, state, move in play_game(game, agents):  # type: ignore[arg-type]
            if seat == restricted_seat:
                if all(is_sideways(m) for m in state.legal_moves()):
                    continue  # it must move, and plays a sideways move (tested below)
                restricted_moves.append(move)
            else:
                free_moves.append(move)
    assert len(restricted_moves) > 40
    assert not any(is_sideways(move) for move in restricted_moves)
    assert sum(is_sideways(move) for move in free_moves) >= 5


def test_a_no_sideways_analysis_lists_only_the_moves_it_may_play() -> None:
    view = boardlab.load("horsmeier").new_game().view(0)
    free = make_agent(TINY, seed=3).analyse(view)
    restricted = make_agent(f"{TINY},restrict=no_sideways", seed=3).analyse(view)
    assert any(is_sideways(c.move) for c in free.candidates)
    assert restricted.candidates and not any(is_sideways(c.move) for c in restricted.candidates)
    assert restricted.principal_variation[0] == restricted.best


def test_where_every_move_is_sideways_the_restricted_agent_still_plays_one() -> None:
    # White's 1 on c1 cannot go back (the edge) or forward (Black's piece on c2): b1 or d1.
    state = boardlab.load("horsmeier").from_text(setup({"c1": "1w11", "c2": "1b11", "k11": "1b11"}))
    assert sorted(str(m) for m in state.legal_moves()) == ["c1-b1", "c1-d1"]
    move = make_agent(f"{TINY},restrict=no_sideways", seed=1).choose(state.view(0))
    assert str(move) in ("c1-b1", "c1-d1")


# Black's only piece, a 1 on a3 with one turn to live, is strength blocked every way by White's pairs
# on rows 2, 3 and 4 (a pair: any White move leaves each row at least 1). After any White move Black
# must pass, its piece expires, and Black has no pieces: every White move wins. Four plies before the
# ply cap, no White piece can reach the far row.
DOOMED = {"a3": "1b1", "i2": "1w11", "k2": "1w11", "i3": "1w11", "k3": "1w11", "i4": "1w11", "k4": "1w11"}


def test_the_ignore_lifespan_model_is_the_same_position_where_nothing_expires() -> None:
    game = boardlab.load("horsmeier", ply_cap=20, upgrade_rule="since_last_change")
    # Under since_last_change each piece also carries the row its upgrades count from (^row).
    state = game.from_text(setup({square: f"{piece}^{9 if piece[1] == 'b' else square[1]}"
                                  for square, piece in DOOMED.items()}, ply=16))
    restriction = game.restrictions["ignore_lifespan"]
    model = restriction.model(state.view(0))
    assert dict(model.game.options) == {**game.options, "expiry_rule": "never"}
    assert model.to_text() == state.view(0).to_text()
    assert model.legal_moves() == state.legal_moves()
    real, modelled = state.play("i2-h2"), model.state.play("i2-h2")
    assert real.legal_moves()[0].text == "pass" and real.play("pass").end_reason == "no pieces"
    assert pieces(modelled.play("pass"))["a3"] == "1b1^9"  # nothing ages in the model


def test_an_ignore_lifespan_agent_does_not_see_the_expiry_that_wins() -> None:
    state = boardlab.load("horsmeier", ply_cap=20).from_text(setup(DOOMED, ply=16))
    real = make_agent("uct:iterations=400", seed=5).analyse(state.view(0))
    blind = make_agent("uct:iterations=400,restrict=ignore_lifespan", seed=5).analyse(state.view(0))
    assert len(real.candidates) == len(state.legal_moves()) > 1
    assert all(c.value == 1.0 for c in real.candidates)  # proven: Black's last piece expires
    assert {c.move for c in blind.candidates} == set(state.legal_moves())
    assert all(c.value is not None and c.value < 1.0 for c in blind.candidates)  # no expiry, no win


@pytest.mark.parametrize("spec, game, message", [
    ("level2:restrict=no_backward", "horsmeier",
     "agent setting restrict='no_backward': accepted in horsmeier: no_sideways, ignore_lifespan"),
    ("level3_2026:restrict=no_sideways", "mynd",
     "agent setting restrict='no_sideways': mynd declares no restrictions; accepted there: no restrict setting"),
])
def test_a_restriction_the_game_does_not_declare_is_refused_before_any_game(spec: str, game: str,
                                                                           message: str) -> None:
    with pytest.raises(boardlab.OptionError, match=f"^{message}$"):
        make_agent(spec).check(boardlab.load(game))
    with pytest.raises(boardlab.OptionError, match=message):
        run_match(game, {}, spec, "random", games=1, workers=1)
    with pytest.raises(boardlab.OptionError, match=message):
        Plan(game=game, options={}, sweep={}, agents=(spec,), games=1).check()


def test_the_restriction_is_in_the_match_records_and_resume_holds_to_it(tmp_path: Path) -> None:
    spec = f"{TINY},restrict=no_sideways"
    options = {"ply_cap": 12}
    run_match("horsmeier", options, spec, TINY, games=2, workers=1, save_dir=tmp_path)
    tags = records.load(tmp_path / "game-0001.json").tags
    assert tags["agent_a"].endswith(",restrict=no_sideways") and "restrict" not in tags["agent_b"]
    assert run_match("horsmeier", options, spec, TINY, games=2, workers=1, save_dir=tmp_path,
                     resume=True).resumed == 2
    record = records.load(tmp_path / "game-0002.json")
    record.tags["agent_a"] = record.tags["agent_a"].replace("no_sideways", "ignore_lifespan")
    records.dump(record, tmp_path / "game-0002.json")
    with pytest.raises(boardlab.BoardlabError, match=r"game-0002.json is not game 2 of this match: .*"
                                                     r"restrict=ignore_lifespan; .* now: .*restrict=no_sideways"):
        run_match("horsmeier", options, spec, TINY, games=2, workers=1, save_dir=tmp_path, resume=True)


def test_the_lab_records_the_restriction_in_its_plan() -> None:
    plan = Plan(game="horsmeier", options={}, sweep={}, agents=("level2:restrict=ignore_lifespan",), games=1)
    plan.check()
    assert plan.to_dict()["agent_settings"]["level2:restrict=ignore_lifespan"].endswith(",restrict=ignore_lifespan")
    plain = Plan(game="horsmeier", options={}, sweep={}, agents=("level2",), games=1)
    assert "restrict" not in plain.agent_settings()["level2"]
