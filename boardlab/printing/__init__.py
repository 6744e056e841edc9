"""Print and play: a game's board, pieces to cut out, sheets and rules in brief, as a PDF or an SVG.

The pages are drawn by the same SVG renderers as the browser (:mod:`boardlab.render`), placed on
paper by :mod:`boardlab.printing.page`; :mod:`boardlab.printing.games` says what each game's kit
holds, and :mod:`boardlab.printing.pdf` turns the pages into a file.

>>> pages = kit("gtbm", {"size": 10}, paper="letter")
>>> [page.kind for page in pages], pages[0].paper.name
(['board', 'counters', 'rules'], 'letter')
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boardlab.core.registry import load
from boardlab.printing import games
from boardlab.printing.page import PAPERS, Page, Paper, paper_named
from boardlab.printing.pdf import FORMATS, write

__all__ = ["FORMATS", "PAPERS", "Page", "Paper", "kit", "print_kit"]


def kit(game_id: str, options: Mapping[str, Any] | None = None, *, variant: str | None = None,
        paper: str = "a4") -> list[Page]:
    """The pages of ``game_id``'s print-and-play kit with these rules, on ``paper`` (``a4`` or ``letter``)."""
    chosen = paper_named(paper)
    game = load(game_id, variant=variant, **dict(options or {}))
    return games.kit(game, chosen)


def print_kit(game_id: str, out: str | Path, options: Mapping[str, Any] | None = None, *,
              variant: str | None = None, paper: str = "a4") -> list[Page]:
    """Write the kit to ``out`` (``.pdf``: one page per page; ``.svg``: the pages stacked); returns the pages."""
    path = Path(out)
    if path.suffix.lower() not in FORMATS:
        write([], path)  # says what is accepted
    pages = kit(game_id, options, variant=variant, paper=paper)
    write(pages, path)
    return pages
