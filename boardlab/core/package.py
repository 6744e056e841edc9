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
import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from boardlab.core.info import GameInfo, game_table
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


def read_samples(package: str) -> Samples:
    """The ``[samples]`` of the game package ``package``'s ``game.toml``: each a list of option tables.

    >>> read_samples("boardlab.games.gtbm").quick
    ({'size': 4, 'no_capture_limit': 3},)
    """
    table = game_table(package).get("samples", {})
    try:
        return Samples(**{suite: tuple(option_sets) for suite, option_sets in table.items()})
    except TypeError as error:
        raise BoardlabError(f"{package} game.toml [samples]: {error} (accepted: {', '.join(Samples.__annotations__)})"
                            ) from None


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
    - ``reference``: the module of a plain-Python referee the kernels are tested against, with
      ``referee(game)`` (the interface is ``tests.reference.Referee``; only the tests import it, so it may
      name a module of the tests); ``goldens``: the folder of its recorded games (``<id>-*.json``),
      both where the tests keep them (``None``: boardlab's ``tests/golden``);
    - ``samples``: the option sets the generic test suites play (:class:`Samples`);
    - ``tuned_search``: the search settings (names and values of
      :class:`~boardlab.ai.mcts.SearchSettings`) that the computer's levels 2 to 5 change in this game,
      chosen by matches (see :mod:`boardlab.ai.levels`); empty: the levels as they are;
      ``tuned_levels``: what one level changes beyond that (``{4: {"exploration": 0.2}}``), where a
      match showed that level needs its own setting.
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
    tuned_search: Options = field(default_factory=dict)
    tuned_levels: Mapping[int, Options] = field(default_factory=dict)

    @classmethod
    def conventional(cls, home: str, info: GameInfo, face: str, **declared: Any) -> GamePackage:
        """The package of the game whose code is the package ``home`` (its ``__name__``), each part
        where the convention puts it unless ``declared`` names it (``None``: the game has none):

        - ``face``: the class ``face`` of ``<home>.face``;
        - ``renderer``: ``<home>.render``, ``counters``: ``<home>.counters``, ``print_kit``:
          ``<home>.printing:pages``, each only where that module is (found, not imported);
        - ``reference``: for boardlab's own games ``tests.reference.<id>_ref`` (the tests'), for
          another ``<home>.reference`` where it is;
        - ``samples``: the ``[samples]`` of ``<home>``'s ``game.toml`` (:func:`read_samples`), where it has one.

        >>> from boardlab.games.hmdg import INFO
        >>> p = GamePackage.conventional("boardlab.games.hmdg", INFO, "HiddenMoveDoubleGomoku")
        >>> p.face, p.reference
        ('boardlab.games.hmdg.face:HiddenMoveDoubleGomoku', 'tests.reference.hmdg_ref')
        >>> p.renderer, p.counters, p.print_kit
        ('boardlab.games.hmdg.render', None, 'boardlab.games.hmdg.printing:pages')
        """
        own = home.startswith("boardlab.games.")
        found: dict[str, Any] = {
            "renderer": _module_if_there(f"{home}.render"),
            "counters": _module_if_there(f"{home}.counters"),
            "print_kit": _module_if_there(f"{home}.printing", ":pages"),
            "reference": f"tests.reference.{info.id}_ref" if own else _module_if_there(f"{home}.reference"),
        }
        if files(home).joinpath("game.toml").is_file():
            found["samples"] = read_samples(home)
        return cls(info, face=f"{home}.face:{face}", **(found | declared))

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


# The search settings that most games' computer levels 2-5 use: GRAVE, Ludii's MC-GRAVE settings without an
# exploration term, which won at equal iterations against the levels of 2026 (docs/findings/search.md).
GRAVE_LEVELS: Options = {"amaf": "grave", "exploration": 0.0}


def _module_if_there(module: str, attribute: str = "") -> str | None:
    """``module`` (with ``attribute``) if the module can be found, ``None`` if not; nothing is imported
    but the packages above it."""
    return module + attribute if importlib.util.find_spec(module) is not None else None


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
