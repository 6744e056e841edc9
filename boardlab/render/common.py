"""Words every renderer writes the same way: whose turn it is, what stands where, cell tooltips."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from boardlab.core.cells import CellContent, Piece
from boardlab.core.view import View


def board_contents(view: View, blank: bool) -> list[CellContent]:
    """What stands on each cell, or (``blank``) every cell empty and unmarked: a board to print."""
    contents = view.game.cell_contents(view)
    return [CellContent(content.name) for content in contents] if blank else contents


# What a caller knows of the turn beyond the position (render.board_svg's ``turn``), said instead.
_TOLD: ContextVar[str | None] = ContextVar("boardlab_render_turn", default=None)


@contextmanager
def told_turn(words: str | None) -> Iterator[None]:
    """Within: :func:`turn_text` says ``words`` (``None``: what the view tells), so a renderer lays out
    the words it will show, lines broken to fit, rather than have them swapped in afterwards."""
    token = _TOLD.set(words)
    try:
        yield
    finally:
        _TOLD.reset(token)


def turn_text(view: View) -> str:
    """``x to move (seat 0)``, or how the game ended, from what the view may tell."""
    told = _TOLD.get()
    if told is not None:
        return told
    game, data = view.game, view.data
    if view.is_over:
        result = view.result or ()
        winners = [game.seat_label(data, seat) for seat, score in enumerate(result) if score == 1]
        how = view.end_reason or "the rules"
        return f"Game over: {' and '.join(winners)} won ({how})" if winners else f"Game over: drawn ({how})"
    seat = view.to_move
    assert seat is not None
    yours = ": your turn" if seat == view.seat else ""
    return f"{game.seat_label(data, seat)} to move (seat {seat}){yours}, ply {view.ply}"


def piece_words(piece: Piece, colour_names: Sequence[str]) -> str:
    """``x stone``, ``White piece, strength 5, life 11``."""
    words = f"{colour_names[piece.colour]} {piece.kind}"
    numbers = ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in piece.numbers.items())
    return f"{words}, {numbers}" if numbers else words


def cell_title(content: CellContent, colour_names: Sequence[str]) -> str:
    """The tooltip of a cell: its name, what stands on it, its marks."""
    words = [piece_words(piece, colour_names) for piece in content.pieces]
    words += sorted(mark.replace(":", " ") for mark in content.marks)
    return f"{content.name}: {', '.join(words)}" if words else content.name


def describe(view: View, contents: Sequence[CellContent], colour_names: Sequence[str],
             extra: Sequence[str] = ()) -> str:
    """A description for screen readers: the game, the turn, then each kind of piece and where it stands."""
    groups: dict[str, list[str]] = {}
    for content in contents:
        for piece in content.pieces:
            plural = {"hidden": "hidden stones", "revealed": "revealed stones"}.get(piece.kind, f"{piece.kind}s")
            key = f"{colour_names[piece.colour]} {plural}"
            numbers = "/".join(str(v) for v in piece.numbers.values())
            groups.setdefault(key, []).append(content.name + (f" ({numbers})" if numbers else ""))
    marked: dict[str, list[str]] = {}
    for content in contents:
        for mark in content.marks:
            marked.setdefault(mark.replace(":", " seat "), []).append(content.name)
    parts = [f"{view.game.name}, as seen by "
             f"{'a spectator' if view.seat is None else f'seat {view.seat}'}. {turn_text(view)}."]
    parts += [f"{key}: {', '.join(names)}." for key, names in groups.items()]
    parts += [f"{key}: {', '.join(names)}." for key, names in sorted(marked.items())]
    parts += list(extra)
    return " ".join(parts)
