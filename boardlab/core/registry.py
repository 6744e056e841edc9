"""The list of games: every game package registered under the entry-point group ``boardlab.games``.

boardlab's six games come first, in a fixed order; games from other installed distributions follow,
by id. Listing reads each package's :class:`~boardlab.core.package.GamePackage` (its description):
nothing is compiled until a game is loaded.

>>> import boardlab
>>> [info.id for info in boardlab.games()][:6]
['ndengrod', 'gtbm', 'horsmeier', 'mynd', 'mobiatus', 'hmdg']
>>> boardlab.load("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardlab.errors.OptionError: unknown game 'chess'; accepted: ndengrod, gtbm, horsmeier, mynd, mobiatus, hmdg...
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.core.info import GameInfo
from boardlab.core.package import ENTRY_POINT_GROUP, GamePackage
from boardlab.errors import BoardlabError, OptionError

if TYPE_CHECKING:
    from boardlab.core.game import Game

# boardlab's own games, in the order they are listed, each registered in pyproject.toml under the
# group boardlab.games with exactly this value. They are read from here too, so that an install whose
# metadata predates the entry points (an editable install not made again) still has them.
BUILT_IN = {
    "ndengrod": "boardlab.games.ndengrod:GAME",
    "gtbm": "boardlab.games.gtbm:GAME",
    "horsmeier": "boardlab.games.horsmeier:GAME",
    "mynd": "boardlab.games.mynd:GAME",
    "mobiatus": "boardlab.games.mobiatus:GAME",
    "hmdg": "boardlab.games.hmdg:GAME",
}


class PluginError(BoardlabError):
    """A game registered under ``boardlab.games`` that cannot be used (fails to import, is no package)."""


_found: dict[str, GamePackage] | None = None
_seen: tuple[str, ...] = ()


def packages() -> dict[str, GamePackage]:
    """Every registered game package by id: the built-in games first, then the others by id.

    Found again when ``sys.path`` changes (a distribution added to it); a registration that
    cannot be loaded raises :class:`PluginError`, naming it and its distribution.
    """
    global _found, _seen
    # Reading the entry points scans every installed distribution: done again only when the path changes.
    key = tuple(sys.path)
    if _found is not None and key == _seen:
        return _found
    points = sorted({(point.name, point.value, _distribution(point)) for point in
                     importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)})
    found = {game_id: _load_point(game_id, value, "boardlab") for game_id, value in BUILT_IN.items()}
    for name, value, distribution in points:
        if name in BUILT_IN:
            if value != BUILT_IN[name]:
                raise PluginError(f"game plug-in {name!r} ({value}, from {distribution}) takes the id of one of "
                                  f"boardlab's own games; a plug-in needs an id of its own")
            continue
        if name in found:
            raise PluginError(f"two game plug-ins are registered as {name!r}; the second is {value} from "
                              f"{distribution}")
        found[name] = _load_point(name, value, distribution)
    _found, _seen = found, key
    return found


def _distribution(point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    return f"distribution {dist.name}" if dist is not None else "an unnamed distribution"


def _load_point(name: str, value: str, distribution: str) -> GamePackage:
    where = f"game plug-in {name!r} ({value}, from {distribution})"
    try:
        loaded = importlib.metadata.EntryPoint(name, value, ENTRY_POINT_GROUP).load()
    except Exception as error:
        raise PluginError(f"{where} cannot be loaded: {type(error).__name__}: {error}; fix or uninstall "
                          f"that distribution") from error
    if not isinstance(loaded, GamePackage):
        raise PluginError(f"{where} is a {type(loaded).__name__}, not a boardlab.core.package.GamePackage")
    if loaded.id != name:
        raise PluginError(f"{where} describes the game {loaded.id!r}; the entry point's name must be its id")
    return loaded


def game_ids() -> list[str]:
    return list(packages())


def package(game_id: str) -> GamePackage:
    """The package of ``game_id`` (case and spaces around it ignored); unknown ids raise :class:`OptionError`."""
    found = packages()
    key = game_id.strip().lower() if isinstance(game_id, str) else game_id
    if key not in found:
        raise OptionError(f"unknown game {game_id!r}; accepted: {', '.join(found)}")
    return found[key]


def games() -> list[GameInfo]:
    """Every game's description, in a fixed order."""
    return [found.info for found in packages().values()]


def info(game_id: str) -> GameInfo:
    """The description of one game."""
    return package(game_id).info


def load(game_id: str, variant: str | None = None, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` (each checked; see ``boardlab.games()`` for what exists).

    ``variant`` names a declared rule set (for Ndengrod: ``pentalath``); options given beside it win.
    """
    found = package(game_id)
    if variant is not None:
        options = {**found.info.variant(variant).options, **options}
    return found.game_class()(**options)


def kernels_cached(game_id: str) -> bool:
    """Whether numba's on-disk cache seems to hold this game's compiled kernels (no import, no compiling).

    False on a first run, when loading the game compiles its rules for some seconds. Looks where
    numba would write this package's cache: in ``NUMBA_CACHE_DIR`` when it is set (then only
    there), else beside the sources, or in the user's cache folder where those cannot be written.
    """
    module = package(game_id).face.partition(":")[0].rpartition(".")[0]
    spec = importlib.util.find_spec(module) if module else None
    folders = [os.path.abspath(folder) for folder in (spec.submodule_search_locations or [])] if spec else []
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        places = [Path(chosen) / _cache_subpath(folder) for folder in folders]
    else:
        user_wide = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"
        places = [place for folder in folders
                  for place in (Path(folder) / "__pycache__", user_wide / _cache_subpath(folder))]
    return any(next(place.glob("*.nbi"), None) is not None for place in places if place.is_dir())


def _cache_subpath(folder: str) -> str:
    """The folder numba caches a source folder's kernels in, under a cache root (as numba names it)."""
    return f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"
