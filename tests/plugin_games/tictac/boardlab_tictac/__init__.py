"""Tic-tac-toe, k in a row on a small square board: a test-only game, registered as a plug-in would be.

This folder is a distribution made by hand (``boardlab_tictac-1.0.dist-info`` registers ``GAME``
under the entry-point group ``boardlab.games``); the tests put the folder on the path, and every
generic suite then finds the game through the registry, as it would find a game installed from
another distribution. Nothing outside this folder names it.

Rules: two players, x and o, place a stone in turn on an empty cell of a ``size``×``size`` board,
x first. A line of ``length`` stones of one colour (row, column or diagonal) wins; ``misere`` makes
it lose instead. A full board without one is a draw.
"""

from __future__ import annotations

from pathlib import Path

from boardlab.core.info import GameInfo, Variant
from boardlab.core.options import Option
from boardlab.core.package import GamePackage, Samples

INFO = GameInfo(
    id="tictac",
    name="Tic-tac-toe",
    designer="traditional",
    year=1884,
    players=(2,),
    rules_version="1",
    summary="Place stones in turn; a line of three wins.",
    source="a test-only game of boardlab's suites",
    options=(
        Option("size", 3, "cells along each side of the square board", minimum=3, maximum=5),
        Option("length", 3, "stones in a line needed to win (at most the size)", minimum=3, maximum=5),
        Option("misere", False, "a line loses instead of winning"),
    ),
    variants=(Variant("four", {"size": 4, "length": 4}, "four in a row on a 4×4 board"),),
    end_reasons={1: "line", 2: "full board"},
    notation="Moves: the cell a stone goes on, such as b2 (files a… from the left, ranks 1… from the bottom).",
)

HERE = Path(__file__).resolve().parent

# The face, renderer and referee where GamePackage.conventional looks: .face, .render, .reference.
GAME = GamePackage.conventional(
    __name__,
    INFO,
    "Tictac",
    counters="boardlab_tictac.render",
    rules=HERE / "rules.md",
    goldens=HERE / "golden",
    samples=Samples(quick=({}, {"size": 4, "length": 3}), drawn=({}, {"size": 5}), largest=({}, {"size": 5})),
)
