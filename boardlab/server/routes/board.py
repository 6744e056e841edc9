"""The board as a picture, for the browser: the render layer's SVG of the caller's seat's view, and
click-to-move (the clicks so far, where they may go next, the move they make, why a click is refused).

Everything here is built from ``state.view(seat)`` for the seat the caller holds (a spectator's view
when they hold none), like every other answer of the API: an HMDG seat's picture never shows the
other seat's hidden stones.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from boardlab.errors import BoardlabError
from boardlab.server.routes.deps import Caller, Service
from boardlab.server.strict_json import StrictJsonRoute

if TYPE_CHECKING:  # the render layer (and the kernels under it) is imported with the first board drawn
    from boardlab.core.view import View

router = APIRouter(prefix="/api", tags=["board"], route_class=StrictJsonRoute)
GameId = Annotated[int, Path(ge=1, le=2**31 - 1)]


class BoardOut(BaseModel):
    svg: str = Field(description="the board as the viewing seat sees it (SVG); cells carry data-cell")
    seat: int | None = Field(description="whose view this is; null: a spectator's")
    ply: int = Field(description="the position shown: after this many moves")
    version: int = Field(description="the game's version when drawn (it changes with every change)")
    layout: str
    layouts: list[str] = Field(description="the layouts this game's board can be drawn in")
    clicked: list[str] = Field(description="the clicks accepted so far toward a move")
    targets: list[str] = Field(description="cells that may be clicked next")
    buttons: list[str] = Field(description="steps that are no cells (pass, …) and may come next")
    move: str | None = Field(description="the whole move the clicks make, ready to send")
    why: str = Field(description="why the last click was refused ('' when it was taken)")
    captured: dict[str, str] = Field(description="cells where the shown position's last move captured, with what "
                                                 "it took (marked on the board with a flag)")
    pieces: dict[int, int] = Field(description="seat → its pieces on the board (games without hidden pieces; "
                                               "empty in HMDG)")


def _steps(text: str) -> tuple[str, ...]:
    return tuple(step for step in (s.strip() for s in text.split(",")) if step)


def _accepted(view: View, clicks: tuple[str, ...]) -> tuple[str, ...]:
    """The longest beginning of ``clicks`` that begins a legal move (clicks from an old position drop)."""
    from boardlab import render

    kept: tuple[str, ...] = ()
    for step in clicks:
        if step not in render.next_steps(view, kept).steps:
            break
        kept = (*kept, step)
    return kept


@router.get("/games/{game_id}/board", response_model=BoardOut)
def board(game_id: GameId, caller: Caller, service: Service,
          seat: Annotated[int | None, Query(ge=0, le=3, description="view as this seat (one you hold)")] = None,
          ply: Annotated[int | None, Query(ge=0, le=100_000, description="the position after this many moves")]
          = None,
          layout: Annotated[str | None, Query(max_length=20, description="one of the game's layouts")] = None,
          clicks: Annotated[str, Query(max_length=400, description="the clicks so far, comma-separated")] = "",
          click: Annotated[str | None, Query(max_length=40, description="a new click to add to them")] = None,
          width: Annotated[int | None, Query(ge=100, le=10_000, description="the width in CSS pixels the page "
                                             "shows the board at: captions are set to be read there")] = None,
          ) -> BoardOut:
    """The board drawn for the caller's seat, and click-to-move: send the clicks so far and the new one;
    the answer says which were taken, where the next may go, and the move once they make a whole one."""
    from boardlab import render

    found = service.position(caller, game_id, seat, ply)
    state, viewer, active, ending = found.state, found.viewer, found.active, found.ending
    shown = state
    for _ in range(found.ply - (ply if ply is not None else found.ply)):
        assert shown.previous is not None
        shown = shown.previous
    view = shown.view(viewer)
    layouts = list(render.layouts(view.game.id))
    chosen = layout or layouts[0]
    if chosen not in layouts:
        raise BoardlabError(f"{view.game.id} has no layout {chosen!r}; accepted: {', '.join(layouts)}")
    playing = active and shown is state and viewer is not None and viewer == view.to_move
    kept: tuple[str, ...] = ()
    why = ""
    if playing:
        kept = _accepted(view, _steps(clicks))
        if click:
            reason = render.why_not(view, kept, click)
            if reason:
                why = reason
            else:
                kept = (*kept, click)
    elif click:
        why = "the game is over" if not active else (
            "this is an earlier position; go back to the game to move" if shown is not state else
            "you are watching: you hold no seat in this game" if viewer is None else render.why_not(view, (), click))
    following = render.next_steps(view, kept) if playing else render.NextSteps((), None)
    cells = set(view.game.cell_names())
    captured = render.captured_cells(view)
    marks = render.selection_marks(view, kept) if playing else render.Marks()
    turn = None
    if ending is not None:  # a finished game: its end, or whose turn it was (nobody's to play now)
        turn = ending if shown is state else render.turn_text(shown.view(None))
    # The page lists the moves beside the board itself: HMDG's picture need not repeat them.
    svg = render.board_svg(view, marks=replace(marks, flagged=captured), layout=chosen, turn=turn,
                           shown_at=width, moves_listed=False)
    pieces = render.pieces_on_board(view) if view.game.info.perfect_information else {}
    return BoardOut(svg=svg, seat=viewer, ply=view.ply, version=found.version, layout=chosen, layouts=layouts,
                    clicked=list(kept), targets=[s for s in following.steps if s in cells],
                    buttons=[s for s in following.steps if s not in cells],
                    move=following.move.text if following.move is not None else None, why=why,
                    captured=captured, pieces=pieces)
