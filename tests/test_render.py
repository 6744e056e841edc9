"""The SVG boards: every game and layout parses, names its cells as the notation does, hides what it must.

Structural assertions on the parsed XML, not golden files: which cells exist, what each carries.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

import boardlab
from boardlab import render
from boardlab.core import registry
from boardlab.core.mobius import MobiusStrip

# Every registered game, on the boards its package chooses to draw (small ones keep the suite quick).
BOARDS: list[tuple[str, dict[str, Any]]] = [(game_id, dict(options)) for game_id in registry.game_ids()
                                            for options in registry.package(game_id).samples.drawn]
CASES = [pytest.param(game_id, options, layout, id=f"{game_id}-{layout}-{options}")
         for game_id, options in BOARDS for layout in render.layouts(game_id)]


def random_state(game: boardlab.Game, plies: int, seed: int) -> boardlab.State:
    state, rng = game.new_game(), random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def cells_of(root: ET.Element) -> dict[str, ET.Element]:
    names = [element.get("data-cell") for element in root.iter() if element.get("data-cell") is not None]
    assert len(names) == len(set(names)), "every cell is drawn once"
    return {element.get("data-cell"): element for element in root.iter()  # type: ignore[misc]
            if element.get("data-cell") is not None}


def notation_accepts(game: boardlab.Game) -> Callable[[str], bool]:
    """The game's own parser for cell names (not the renderer's list), to check the names drawn."""
    if game.id == "mobiatus":
        strip = MobiusStrip(int(game.options["length"]), int(game.options["width"]))
        return lambda name: strip.parse_name(name) is not None and strip.name(strip.parse_name(name)) == name
    index = game.point_index if game.id == "hmdg" else game.cell_index  # type: ignore[attr-defined]
    return lambda name: index(name) is not None and name == name.lower()


@pytest.mark.parametrize(("game_id", "options", "layout"), CASES)
def test_every_board_parses_and_names_its_cells_as_the_notation(game_id: str, options: dict[str, Any],
                                                              layout: str) -> None:
    game = boardlab.load(game_id, **options)
    for state in (game.new_game(), random_state(game, 25, seed=1)):
        view = state.view(state.to_move if state.to_move is not None else 0)
        root = parse(render.board_svg(view, layout=layout))
        assert root.get("viewBox") and root.get("role") == "img"
        assert root.find("{http://www.w3.org/2000/svg}title") is not None
        description = root.find("{http://www.w3.org/2000/svg}desc")
        assert description is not None and game.name in (description.text or "")
        cells = cells_of(root)
        accepts = notation_accepts(game)
        assert all(accepts(name) for name in cells), [name for name in cells if not accepts(name)][:5]
        assert set(cells) == set(game.cell_names()), "every cell of the board, and only those"
        for move in view.legal_moves():
            steps = game.click_steps(view.data, move.path)
            labels = [step for step in steps if step not in cells]
            assert all(not accepts(step) for step in labels), f"{move}: {steps} names a cell that is not drawn"
        pieces = sorted((content.name, piece.kind, "" if piece.seat is None else str(piece.seat))
                        for content in game.cell_contents(view) for piece in content.pieces)
        drawn = sorted((cell, element.get("data-piece", "").split()[-1], element.get("data-seat", ""))
                       for cell, group in cells.items() for element in group.iter() if element.get("data-piece"))
        assert drawn == pieces, "each piece in its cell, with its kind and seat"


def test_the_last_move_is_marked_by_default_and_marks_can_be_given() -> None:
    state = boardlab.load("gtbm", size=4).new_game().play("b1-c2")
    root = parse(render.board_svg(state.view(1)))
    last = sorted(cell for cell, group in cells_of(root).items() if group.find(".//*[@class='mark-last']") is not None)
    assert last == ["b1", "c2"]
    marks = render.Marks(last=(), selected=("c4",), targets=("b3", "d3"), flagged={"a4": "under <attack> & alone"})
    root = parse(render.board_svg(state.view(1), marks=marks))
    cells = cells_of(root)
    assert all(group.find(".//*[@class='mark-last']") is None for group in cells.values())
    assert cells["c4"].find(".//*[@class='mark-selected']") is not None
    assert {c for c, g in cells.items() if g.find(".//*[@class='mark-target']") is not None} == {"b3", "d3"}
    flag = cells["a4"].find(".//*[@class='mark-flag']")
    assert flag is not None and "under <attack> & alone" in ET.tostring(flag, encoding="unicode").replace(
        "&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def test_a_heat_map_shades_cells_by_value_with_a_legend() -> None:
    game = boardlab.load("ndengrod", size=3, length=3)
    heat = {"a1": 4.0, "c3": 2.0, "e3": 0.0}
    root = parse(render.board_svg(game.new_game().view(0), marks=render.Marks(heat=heat, heat_title="moves")))
    cells = cells_of(root)
    fills = {name: cells[name].find(".//*[@class='heat']").get("fill") for name in heat}  # type: ignore[union-attr]
    assert fills["a1"] == "#8c2d04" and fills["e3"] == "#ffffe5" and fills["c3"] not in (fills["a1"], fills["e3"])
    assert all(cells[name].find(".//*[@class='heat']") is None for name in cells if name not in heat)
    legend = root.find(".//*[@class='heat-legend']")
    assert legend is not None and "moves" in "".join(legend.itertext())


def test_bad_requests_are_explained() -> None:
    view = boardlab.load("gtbm", size=4).new_game().view(0)
    with pytest.raises(render.RenderError, match=r"z9.*such as a1"):
        render.board_svg(view, marks=render.Marks(targets=("z9",)))
    with pytest.raises(render.RenderError, match="no layout 'strip'; accepted: board"):
        render.board_svg(view, layout="strip")
    with pytest.raises(render.RenderError, match="unknown theme 'neon'; accepted: default, print"):
        render.board_svg(view, theme="neon")
    with pytest.raises(render.RenderError, match="size='big'"):
        render.board_svg(view, size="big")
    assert 'width="180mm"' in render.board_svg(view, size="180mm", theme="print")


def test_horsmeier_shows_every_pieces_strength_and_life_span() -> None:
    game = boardlab.load("horsmeier")
    state = random_state(game, 30, seed=3)
    view = state.view(0)
    cells = cells_of(parse(render.board_svg(view)))
    contents = [content for content in game.cell_contents(view) if content.pieces]
    assert len(contents) >= 15
    lives = set()
    for content in contents:
        (piece,) = content.pieces
        group = cells[content.name]
        texts = {element.get("class"): element.text for element in group.iter() if element.get("class") in
                 ("strength", "life")}
        assert texts == {"strength": str(piece.numbers["strength"]), "life": str(piece.numbers["life"])}
        lit = [e for e in group.iter() if e.get("class") == "life-pip"]
        assert len(lit) == piece.numbers["life"], "the ring shows the life span too"
        lives.add(piece.numbers["life"])
    assert len(lives) > 2, "the position tells life spans apart"
    # the numbers are the position's own: its text lists each piece as strength, colour, life span
    tokens = [t for row in state.to_text().split()[0].split("/") for t in row.split(",") if not t.isdecimal()]
    drawn = sorted(f"{c.pieces[0].numbers['strength']}{'wb'[c.pieces[0].colour]}{c.pieces[0].numbers['life']}"
                   for c in contents)
    assert drawn == sorted(tokens)


def hmdg_after(moves: list[str]) -> boardlab.State:
    state = boardlab.load("hmdg", size=5, line_length=3, setup="fixed").new_game()
    for move in moves:
        state = state.play(move)
    return state


def test_hmdg_a_seat_cannot_tell_positions_that_differ_only_in_the_other_seats_hidden_stones() -> None:
    # seat 0 plays o and moves first; its two commits on row b land hidden on different points
    first = hmdg_after(["b1/row", "none", "d4/col", "none"])
    second = hmdg_after(["b3/row", "none", "d4/col", "none"])
    assert first.to_text() != second.to_text()
    assert render.board_svg(first.view(1)) == render.board_svg(second.view(1))
    assert render.board_svg(first.view(None)) == render.board_svg(second.view(None))
    assert render.board_svg(first.view(0)) != render.board_svg(second.view(0))


def test_hmdg_marks_the_seats_own_hidden_stones_and_its_secret_target_only_for_it() -> None:
    state = hmdg_after(["b1/row", "none", "d4/col", "none", "e5/row"])
    mine = cells_of(parse(render.board_svg(state.view(0))))
    hidden = {name for name, group in mine.items()
              if any(e.get("data-piece") == "o hidden" for e in group.iter())}
    assert hidden == {"b1"}
    outline = mine["b1"].find(".//*[@class='hidden-outline']")
    assert outline is not None and outline.get("stroke-dasharray")
    assert mine["c3"].find(".//*[@data-piece='x revealed']") is not None
    assert mine["e5"].find(".//*[@class='secret-target']") is not None
    theirs = parse(render.board_svg(state.view(1)))
    assert not any(e.get("class") == "secret-target" for e in theirs.iter())
    assert not any((e.get("data-piece") or "").startswith("o hidden") for e in theirs.iter())
    assert [e for e in theirs.iter() if e.get("data-piece") == "x hidden"], "seat 1 sees its own hidden x"
    announced = "".join(theirs.find(".//*[@class='announcements']").itertext())  # type: ignore[union-attr]
    assert "row b" in announced and "b1" not in announced and "row e" in announced
    assert theirs.find(".//*[@class='announced-line']") is not None


def test_mobiatus_faces_and_strip_show_the_seam_and_the_singularities() -> None:
    game = boardlab.load("mobiatus", length=8, width=3, blue_offset=4)
    state = random_state(game, 6, seed=2)
    singular = {c.name for c in game.cell_contents(state.view(0)) if "singularity" in c.marks}
    assert singular
    for layout in ("faces", "strip"):
        root = parse(render.board_svg(state.view(0), layout=layout))
        assert [e for e in root.iter() if e.get("class") == "seam"]
        cells = cells_of(root)
        dark = {name for name, group in cells.items() if group.find("{*}polygon").get("fill") in  # type: ignore[union-attr]
                ("#4D4D4D", "#262626")}
        assert dark == singular


@pytest.mark.parametrize("movement, targets", [
    ("knight", {"F6a", "F6c", "F7d", "B1b", "B2c", "B2e"}),
    ("camel", {"F5a", "F5c", "F7e", "B1a", "B3c", "B3e"}),
    ("knight_wazir", {"F6a", "F6c", "F7d", "B1b", "B2c", "B2e", "F7b", "F8a", "F8c", "B1d"}),
])
def test_mobiatus_marks_the_movement_options_targets_on_both_layouts(movement: str, targets: set[str]) -> None:
    # A piece on F8b selected (tests/test_mobiatus.py counts these squares by hand): its targets are
    # its leaper's, across the twist, on the faces and the strip drawings alike.
    game = boardlab.load("mobiatus", length=8, width=5, blue_offset=4, movement=movement)
    view = game.from_text("2B5/7R/8/8/8 r 10 10").view(0)
    marks = render.selection_marks(view, ("F8b",))
    assert set(marks.targets) == targets
    for layout in ("faces", "strip"):
        cells = cells_of(parse(render.board_svg(view, marks=marks, layout=layout)))
        assert {c for c, g in cells.items() if g.find(".//*[@class='mark-target']") is not None} == targets


def test_every_game_has_a_renderer_and_is_drawn_above() -> None:
    ids = {info.id for info in boardlab.games()}
    assert {game_id for game_id, _ in BOARDS} == ids
    assert all(render.layouts(game_id) for game_id in ids)


def test_a_finished_game_and_a_spectator_are_drawn_too() -> None:
    state = random_state(boardlab.load("ndengrod", size=3, length=3), 200, seed=4)
    assert state.is_over
    root = parse(render.board_svg(state.view(None)))
    title = root.find("{http://www.w3.org/2000/svg}title")
    assert title is not None and "Game over" in (title.text or "")
    hmdg = hmdg_after(["b1/row", "none"])
    spectator = parse(render.board_svg(hmdg.view(None)))
    assert not any("hidden" in (e.get("data-piece") or "") for e in spectator.iter())


def test_mynd_joins_each_trunk_and_shades_territory() -> None:
    game = boardlab.load("mynd", size=5)
    state = game.new_game().play("b2").play("d4").play("b2^")  # black's b3 was pushed off its trunk
    assert game.trunks(state.view(0)) == [("a1",), ("e5", "d4")]
    root = parse(render.board_svg(state.view(1)))
    lines = {e.get("class"): e.get("d") for e in root.iter() if (e.get("class") or "").startswith("trunk")}
    assert list(lines) == ["trunk seat-1"] and lines["trunk seat-1"].count("M") == 1
    game = boardlab.load("mynd", size=7, players=3)
    state = random_state(game, 60, seed=3)
    claimed = {name for name, claim in zip(game.cell_names(), game.claims(state.data), strict=True) if claim >= 0}
    assert claimed, "the position has territory"
    cells = cells_of(parse(render.board_svg(state.view(0))))
    assert {name for name, group in cells.items() if group.find(".//*[@class='territory']") is not None} == claimed
