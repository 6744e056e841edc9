"""SVG boards drawn from a view: one renderer per game, shared by the browser, reports and print.

Everything drawn comes from ``state.view(seat)``, so a seat's picture never shows what the seat may
not know. Every cell is an element with ``data-cell`` (its name in the game's notation) and every
piece has ``data-piece`` and ``data-seat``, so a page can map clicks to cells
(:mod:`boardlab.render.click`) and a test can find them.

>>> import boardlab
>>> from boardlab import render
>>> state = boardlab.load("ndengrod", size=3, length=3).new_game().play("b2")
>>> svg = render.board_svg(state.view(1), marks=render.Marks(targets=("a1",)))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox=')
True
>>> 'data-cell="b2"' in svg, 'data-piece="x stone"' in svg, 'class="mark-last"' in svg
(True, True, True)
>>> render.layouts("mobiatus"), render.narrow_layouts("mobiatus")
(('faces', 'strip', 'bands'), ('bands',))
"""

from __future__ import annotations

from dataclasses import replace
from types import ModuleType

from boardlab.core.registry import game_ids, package
from boardlab.core.view import View
from boardlab.render.captures import captured_cells, pieces_on_board
from boardlab.render.click import NextSteps, last_move_cells, move_cells, next_steps, step_map, why_not
from boardlab.render.common import told_turn, turn_text
from boardlab.render.picture import THEMES, Marks, RenderError, Theme, theme_named

__all__ = [
    "THEMES",
    "Marks",
    "NextSteps",
    "RenderError",
    "Theme",
    "board_svg",
    "captured_cells",
    "last_move_cells",
    "layouts",
    "move_cells",
    "narrow_layouts",
    "next_steps",
    "pieces_on_board",
    "selection_marks",
    "step_map",
    "turn_text",
    "why_not",
]

def _renderer(game_id: str) -> ModuleType:
    """The module that draws ``game_id`` (``LAYOUTS`` and ``draw(view, marks, theme, layout, blank)``),
    as the game's package names it (:class:`boardlab.core.package.GamePackage`)."""
    module = package(game_id).renderer_module()
    if module is None:
        raise RenderError(f"no renderer for game {game_id!r}; accepted: "
                          f"{', '.join(g for g in game_ids() if package(g).renderer is not None)}")
    return module


def layouts(game_id: str) -> tuple[str, ...]:
    """The layouts a game's board can be drawn in; the first is the default."""
    return tuple(_renderer(game_id).LAYOUTS)


def narrow_layouts(game_id: str) -> tuple[str, ...]:
    """Those of :func:`layouts` made for narrow screens (what a page shows first on a phone), as the
    game's package declares them; none where its other layouts fit a phone as they are."""
    return package(game_id).narrow_layouts


def board_svg(view: View, *, marks: Marks | None = None, size: float | str | None = None,
              theme: Theme | str = "default", layout: str | None = None, blank: bool = False,
              turn: str | None = None, shown_at: float | None = None, moves_listed: bool = True) -> str:
    """The board as ``view``'s seat sees it, as a standalone SVG document (a string).

    ``marks``: last move (by default the view's own), selection, targets, flagged cells, heat map.
    ``size``: the width in pixels or as a length (``"180mm"``); ``None`` scales to its container.
    ``theme``: ``"default"``, ``"print"`` or a :class:`Theme`. ``layout``: one of :func:`layouts`
    (Möbiatus: ``"faces"``, the two flat boards, ``"strip"``, the Möbius strip in perspective, or
    ``"bands"``, the flat boards cut into short bands for phones; HMDG: the announcements ``"beside"``
    or ``"below"`` the board). ``blank``: every cell empty, no turn or score, only the board, its
    coordinates and a legend (the board to print, :mod:`boardlab.printing`). ``turn``: the words
    for whose turn it is, or how the game ended, where the caller knows more than the position (a
    server's resignations, timeouts and agreements; an earlier position of a finished game).
    ``shown_at``: the width in CSS pixels a page will show the picture at (a phone's column): the
    captions are then set large enough to read there, and broken into more lines to fit. ``moves_listed``:
    ``False`` leaves out a list of the moves drawn beside the board (HMDG's), for a page that lists them.
    Unknown cells in ``marks``, layouts or themes raise :class:`RenderError`.
    """
    module = _renderer(view.game.id)
    chosen = layout if layout is not None else module.LAYOUTS[0]
    if chosen not in module.LAYOUTS:
        raise RenderError(f"{view.game.id} has no layout {chosen!r}; accepted: {', '.join(module.LAYOUTS)}")
    marks = marks if marks is not None else Marks()
    if marks.last is None:
        marks = Marks(last_move_cells(view), marks.selected, marks.targets, marks.flagged, marks.heat,
                      marks.heat_title)
    if shown_at is not None and not shown_at > 0:
        raise RenderError(f"shown_at={shown_at}: the width a picture is shown at must be a positive number of pixels")
    # The layouts for narrow screens (and a game's only layout) set a board's own text large enough
    # to read at shown_at; the wide layouts keep their proportions.
    for_phones = chosen in narrow_layouts(view.game.id) or len(module.LAYOUTS) == 1
    chosen_theme = replace(theme_named(theme), moves_listed=moves_listed, board_text_floor=for_phones)
    if shown_at is not None:
        chosen_theme = replace(chosen_theme, shown_at=shown_at)
    # Every renderer writes the turn with turn_text (caption, title and description).
    with told_turn(None if blank else turn):
        picture, title, description = module.draw(view, marks, chosen_theme, chosen, blank)
    return str(picture.svg(title, description, size))


def selection_marks(view: View, prefix: tuple[str, ...]) -> Marks:
    """Marks for a board where ``prefix`` has been clicked: those cells selected, where they may go next
    as targets (the buttons a page shows are ``next_steps(view, prefix).steps`` that are no cells)."""
    cells = set(view.game.cell_names())
    following = next_steps(view, prefix).steps
    return Marks(selected=tuple(step for step in prefix if step in cells),
                 targets=tuple(step for step in following if step in cells))
