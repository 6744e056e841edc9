"""What a game package declares about its game, in one object: :class:`GamePackage`.

A game is a package (``boardlab/games/<id>/`` or any installed distribution) whose ``__init__`` binds
``GAME = GamePackage(...)`` and which registers that object under the entry-point group
``boardlab.games`` (:mod:`boardlab.core.registry` finds it). Everything but the description names
its code by a ``"module:attribute"`` (or module) string, imported only when asked for, so that
listing the games compiles nothing:

>>> from boardlab.games.hmdg import GAME
>>> GAME.id, GAME.face, GAME.narrow_layouts
('hmdg', 'boardlab.games.hmdg.face:HiddenMoveDoubleGomoku', ('below',))
>>> resolve("boardlab.nowhere:Thing", "a face")
Traceback (most recent call last):
...
boardlab.errors.BoardlabError: a face: cannot import 'boardlab.nowhere:Thing': No module named 'boardlab.nowhere'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from boardlab.core.info import GameInfo
from boardlab.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.core.game import Game

ENTRY_POINT_GROUP = "boardlab.games"


Options = Mapping[str, Any]


@dataclass(frozen=True)
class Samples:
    """Option sets the generic test suites play, chosen by the game that knows its sizes.

    ``quick``: small boards with tight caps, so that random games end within a few dozen decisions;
    the first reaches the caps the game's length bounds are made of (the planes suite, the web page
    suite). ``clicked``: boards whose every legal move is entered click by click (the click suite;
    none given: ``quick``). ``drawn``: boards drawn in every layout (the render suite).
    ``largest``: the defaults and the largest boards people play (the terminal-fit suite).
    """

    quick: tuple[Options, ...] = ({},)
    clicked: tuple[Options, ...] = ()
    drawn: tuple[Options, ...] = ({},)
    largest: tuple[Options, ...] = ({},)


@dataclass(frozen=True)
class GamePackage:
    """Everything a game brings, each part named where it lives.

    - ``info``: the description (options, variants, end reasons), cheap to import;
    - ``face``: ``"module:Class"`` of the :class:`~boardlab.Game` subclass (its import compiles the kernels);
    - ``renderer``: the module that draws the board as SVG (``LAYOUTS`` and ``draw``; see
      :mod:`boardlab.render`); ``narrow_layouts``: those of its layouts made for narrow screens (phones);
    - ``counters``: the module with ``pitch(game)`` and ``counters(view)``: the pieces a print-and-play
      kit cuts out (``None``: a game played with pencil marks);
    - ``print_kit``: ``"module:function"`` of ``kit(game, paper)``, the kit's pages before the rules page
      (``None``: the blank board, then the counters);
    - ``rules``: the rules document (Markdown); ``None``: ``docs/rules/<id>.md`` of boardlab's own;
    - ``reference``: the module of a plain-Python referee the kernels are tested against; ``goldens``:
      the folder of its recorded games (``<id>-*.json``), both where the tests keep them;
    - ``samples``: the option sets the generic test suites play (:class:`Samples`).
    """

    info: GameInfo
    face: str
    renderer: str | None = None
    narrow_layouts: tuple[str, ...] = ()
    counters: str | None = None
    print_kit: str | None = None
    rules: Path | None = None
    reference: str | None = None
    goldens: Path | None = None
    samples: Samples = field(default_factory=lambda: Samples())

    @property
    def id(self) -> str:
        return self.info.id

    def game_class(self) -> type[Game]:
        """The game's face class (importing it compiles or loads the kernels)."""
        return resolve(self.face, f"{self.id}'s face")

    def renderer_module(self) -> ModuleType | None:
        return None if self.renderer is None else resolve(self.renderer, f"{self.id}'s renderer")

    def counters_module(self) -> ModuleType | None:
        return None if self.counters is None else resolve(self.counters, f"{self.id}'s counters")


def resolve(target: str, what: str) -> Any:
    """The object ``"module:attribute"`` names (or the module ``"module"``), imported now."""
    module_name, _, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise BoardlabError(f"{what}: cannot import {target!r}: {error}") from error
    if not attribute:
        return module
    try:
        return getattr(module, attribute)
    except AttributeError as error:
        raise BoardlabError(f"{what}: {module_name} has no {attribute!r}") from error
