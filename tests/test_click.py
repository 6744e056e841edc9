"""Click to move: the steps of every legal move, entered one click at a time, and why a click is refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

import boardlab
from boardlab import render
from boardlab.core import registry

BUTTONS = {"pass", "swap", "x", "o", "row", "col", "none", "reveal"}  # the choices that are no cell
# Every registered game, on the boards its package has clicked through (its samples).
GAMES: list[tuple[str, dict[str, Any]]] = [
    (game_id, dict(options)) for game_id in registry.game_ids()
    for options in registry.package(game_id).samples.clicked or registry.package(game_id).samples.quick]


def walk(view: boardlab.View, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], boardlab.Move]:
    """Every move reachable by clicking, found with next_steps alone, by its steps."""
    following = render.next_steps(view, prefix)
    if following.move is not None:
        assert following.steps == (), f"{prefix} is a whole move and yet goes on: a board could not tell"
        return {prefix: following.move}
    assert following.steps, f"{prefix} leads nowhere"
    found: dict[tuple[str, ...], boardlab.Move] = {}
    for step in following.steps:
        if len(prefix) < 2:
            assert render.why_not(view, prefix, step) == ""
        found.update(walk(view, (*prefix, step)))
    return found


def positions(game: boardlab.Game, seeds: range, plies: int) -> list[boardlab.State]:
    """Some positions of random games (odd and even plies), and those where a turn takes several steps."""
    states = []
    for seed in seeds:
        state, rng = game.new_game(), random.Random(seed)
        chosen: list[boardlab.State] = []
        for ply in range(plies):
            if state.is_over or len(chosen) == 5:
                break
            if ply % 7 in (0, 3) or any(len(move.path) > 1 for move in state.legal_moves()):
                chosen.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        states += chosen
    return states


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[f"{g}-{o}" for g, o in GAMES])
def test_clicking_enters_exactly_the_legal_moves(game_id: str, options: dict[str, Any]) -> None:
    game = boardlab.load(game_id, **options)
    cells = set(game.cell_names())
    multi_step, reveals = 0, 0
    for state in positions(game, range(3), 40):
        view = state.view(state.to_move)
        found = walk(view)
        assert sorted(found.values()) == sorted(view.legal_moves())
        for steps, move in found.items():
            assert game.click_steps(view.data, move.path) == steps
            multi_step += len(move.path) > 1
            reveals += steps[-1] == "reveal"
            assert all(step in cells or step in BUTTONS for step in steps), steps
        assert render.move_cells(view, view.legal_moves()[0]) == tuple(
            step for step in game.click_steps(view.data, view.legal_moves()[0].path) if step in cells)
    if game_id == "mobiatus":
        assert multi_step, "some turn of several steps was entered click by click"
    if game_id == "hmdg":
        assert reveals, "some response revealed stones by clicking them"


def test_refused_clicks_are_explained_in_words() -> None:
    gtbm = boardlab.load("gtbm", size=4).new_game().play("b1-c2").play("c4-b3")
    view = gtbm.view(0)
    assert render.why_not(view, (), "b2") == "no move from b2: there is no piece on b2"
    assert render.why_not(view, (), "b3") == "no move from b3: the piece on b3 is White's; Black is to move"
    assert render.why_not(view, (), "d1") == "no move from d1: c2 is occupied"
    assert "diagonally forward or straight back" in render.why_not(view, ("c2",), "c4")
    assert render.why_not(gtbm.view(1), (), "b3") == "it is not your turn: Black is to move"
    assert render.why_not(view, ("c2", "d3"), "d4") == "c2 d3 is already a whole move (c2-d3)"

    ndengrod = boardlab.load("ndengrod", size=3, length=3).new_game().play("b2")
    assert render.why_not(ndengrod.view(1), (), "b2") == "b2 is occupied"
    assert "swapping is not part of these rules" in render.why_not(ndengrod.view(1), (), "swap")

    mobiatus = boardlab.load("mobiatus", length=8, width=3, blue_offset=4).from_text("Rx2BB2/RR2BB1r/RR2BB2 b 1 1")
    view = mobiatus.view(1)
    assert render.why_not(view, (), "F2b") == "no move from F2b: F2b holds no Blue piece"
    assert render.why_not(view, ("F6a",), "F7a") == "F6a-F7a: F7a is not a knight's move from F6a"
    assert render.next_steps(view, ("F6a", "F8b")).steps == ("B2a", "B2c"), "the chain goes on after a capture"
    camel = boardlab.load("mobiatus", length=8, width=3, blue_offset=4, movement="camel").from_text(
        "Rx2BB2/RR2BB1r/RR2BB2 b 1 1").view(1)
    assert render.why_not(camel, ("F6a",), "F8b") == "F6a-F8b: F8b is not a camel's leap (1 and 3 squares) from F6a"
    assert render.next_steps(camel, ("F6a",)).steps == ("B1b", "F3b"), "only (±3, ±1) fits a width of 3"

    hmdg = boardlab.load("hmdg", size=5, line_length=3, setup="fixed").new_game()
    state = hmdg.play("c1/row").play("none").play("a1/row").play("none")
    assert render.why_not(state.view(0), (), "c3") == "no move from c3: c3 is closed: a revealed stone stands there"
    assert render.why_not(state.view(0), ("c1",), "row") == \
        "no move from c1: c1 already holds your stone (option allow_own_stack=false)"
    responding = state.play("a2/row").view(1)
    assert render.next_steps(responding, ()).steps == ("none", "a1")
    assert render.next_steps(responding, ("a1",)).steps == ("reveal",)
    assert render.why_not(responding, (), "a3") == "no move from a3: you have no hidden stone on a3"


def test_a_selection_marks_the_clicked_cells_and_where_they_may_go() -> None:
    view = boardlab.load("gtbm", size=4).new_game().view(0)
    marks = render.selection_marks(view, ("c1",))
    assert marks.selected == ("c1",) and marks.targets == ("b2", "d2")
    svg = render.board_svg(view, marks=marks)
    assert svg.count('class="mark-target"') == 2 and svg.count('class="mark-selected"') == 1


def test_last_move_cells_follow_what_the_seat_knows() -> None:
    state = boardlab.load("hmdg", size=5, line_length=3, setup="fixed").new_game().play("b1/row")
    assert render.last_move_cells(state.view(0)) == ("b1",)
    assert render.last_move_cells(state.view(1)) == (), "the other seat only knows 'row b'"
    answered = state.play("none")
    assert render.last_move_cells(answered.view(0)) == ()
