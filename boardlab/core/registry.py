"""The list of games: descriptions without compiling anything, and games loaded by id.

>>> import boardlab
>>> [info.id for info in boardlab.games()]
['ndengrod', 'gtbm', 'horsmeier', 'mynd', 'mobiatus', 'hmdg']
>>> boardlab.load("chess")
Traceback (most recent call last):
...
boardlab.errors.OptionError: unknown game 'chess'; accepted: ndengrod, gtbm, horsmeier, mynd, mobiatus, hmdg
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.core.info import GameInfo
from boardlab.errors import OptionError

if TYPE_CHECKING:
    from boardlab.core.game import Game

# id -> package. A game package exposes INFO (cheap) and game_class() (imports the kernels).
_PACKAGES = {
    "ndengrod": "boardlab.games.ndengrod",
    "gtbm": "boardlab.games.gtbm",
    "horsmeier": "boardlab.games.horsmeier",
    "mynd": "boardlab.games.mynd",
    "mobiatus": "boardlab.games.mobiatus",
    "hmdg": "boardlab.games.hmdg",
}


def game_ids() -> list[str]:
    return list(_PACKAGES)


def _package(game_id: str) -> Any:
    key = game_id.strip().lower() if isinstance(game_id, str) else game_id
    if key not in _PACKAGES:
        raise OptionError(f"unknown game {game_id!r}; accepted: {', '.join(_PACKAGES)}")
    return importlib.import_module(_PACKAGES[key])


def games() -> list[GameInfo]:
    """Every game's description, in a fixed order."""
    return [_package(game_id).INFO for game_id in _PACKAGES]


def info(game_id: str) -> GameInfo:
    """The description of one game."""
    return _package(game_id).INFO


def load(game_id: str, variant: str | None = None, **options: Any) -> Game:
    """The game ``game_id`` with ``options`` (each checked; see ``boardlab.games()`` for what exists).

    ``variant`` names a declared rule set (for Ndengrod: ``pentalath``); options given beside it win.
    """
    package = _package(game_id)
    if variant is not None:
        options = {**package.INFO.variant(variant).options, **options}
    return package.game_class()(**options)


def kernels_cached(game_id: str) -> bool:
    """Whether numba's on-disk cache seems to hold this game's compiled kernels (no import, no compiling).

    False on a first run, when loading the game compiles its rules for some seconds. Looks where
    numba would write this package's cache: in ``NUMBA_CACHE_DIR`` when it is set (then only
    there), else beside the sources, or in the user's cache folder where those cannot be written.
    """
    spec = importlib.util.find_spec(_PACKAGES[game_id.strip().lower()])
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
