"""Captions and other lines of text in the boards: broken to fit the picture in its font (SVG cannot
wrap), set large enough to read where a page says how wide it shows the picture, and the turn line a
caller gives laid out like any other (the browser test, tests/web/test_phone.py, measures them in chromium)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import boardlab
from boardlab import render
from boardlab.render.metrics import text_width, wrap_lines
from boardlab.render.picture import CAPTION_PX
from tests.test_render import BOARDS, random_state

NS = "{http://www.w3.org/2000/svg}"
ENDING = ("Game over: a player with a rather long name chosen to test the caption's breaking resigned; "
          "another player with an equally long name won.")
CASES = [pytest.param(game_id, options, layout, id=f"{game_id}-{layout}-{options}")
         for game_id, options in BOARDS for layout in render.layouts(game_id)]


def wrapped_texts(svg: str) -> tuple[float, list[tuple[str, float, float]]]:
    """The picture's width and each left-aligned line of text: its words, x and font size."""
    root = ET.fromstring(svg)
    width = float(root.attrib["viewBox"].split()[2])
    lines = [(text.text or "", float(text.attrib["x"]), float(text.attrib["font-size"]))
             for text in root.iter(f"{NS}text")
             if text.attrib.get("text-anchor", "start") == "start"]
    return width, lines


@pytest.mark.parametrize(("game_id", "options", "layout"), CASES)
@pytest.mark.parametrize("shown_at", [None, 390.0])
def test_every_line_ends_inside_the_picture_and_captions_read_at_the_width_shown(
        game_id: str, options: dict[str, object], layout: str, shown_at: float | None) -> None:
    state = random_state(boardlab.load(game_id, **options), 12, seed=3)
    svg = render.board_svg(state.view(0), layout=layout, turn=ENDING, shown_at=shown_at)
    width, lines = wrapped_texts(svg)
    assert any("resigned" in words for words, _, _ in lines), "the caller's turn line is drawn"
    for words, x, size in lines:
        assert x + text_width(words, size) <= width, f"{words!r} runs past the right edge ({width})"
    root = ET.fromstring(svg)
    captions = [float(t.attrib["font-size"]) for g in root.iter(f"{NS}g") if g.attrib.get("class") == "status"
                or g.attrib.get("class") == "legend" for t in g.iter(f"{NS}text")]
    assert captions
    if shown_at is not None:
        assert min(captions) * shown_at / width >= CAPTION_PX - 0.01


def test_without_a_width_shown_the_caption_keeps_its_proportion_to_the_board() -> None:
    view = boardlab.load("gtbm").new_game().view(0)
    for shown_at, expected in ((None, 1 / 34), (2000.0, 1 / 34), (300.0, CAPTION_PX / 300)):
        width, lines = wrapped_texts(render.board_svg(view, shown_at=shown_at))
        assert lines[-1][2] == pytest.approx(width * expected, abs=0.01), shown_at


def test_a_word_longer_than_a_line_is_cut_to_fit() -> None:
    lines = wrap_lines("short " + "x" * 120 + " end", width=100.0, size=10.0)
    assert lines[0] == "short" and lines[-1].endswith("end") and "".join(lines[1:]).startswith("x" * 120)
    assert all(text_width(line, 10.0) <= 100.0 for line in lines)


def test_a_width_shown_at_must_be_positive() -> None:
    view = boardlab.load("gtbm").new_game().view(0)
    with pytest.raises(render.RenderError, match="positive number of pixels"):
        render.board_svg(view, shown_at=0)
