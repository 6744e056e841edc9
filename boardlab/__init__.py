"""boardlab: a workbench for abstract board games.

>>> import boardlab
>>> game = boardlab.load("ndengrod")
>>> state = game.new_game().play("e5")
>>> state.to_move, state.is_over, state.result
(1, False, None)

See ``README.md`` for a tour and ``docs/architecture.md`` for how the pieces fit.
"""

from typing import TYPE_CHECKING, Any

# Import the games package before binding ``games`` below: the import system sets
# ``boardlab.games`` to the subpackage when it is first loaded, and must not do so afterwards.
import boardlab.games as _games_package  # noqa: F401
from boardlab.core.info import GameInfo, Variant
from boardlab.core.move import Move
from boardlab.core.options import Option
from boardlab.core.registry import games, info, load
from boardlab.errors import (
    BoardlabError,
    IllegalMove,
    InvalidMove,
    OptionError,
    PositionError,
    RecordError,
)

if TYPE_CHECKING:
    from boardlab import records
    from boardlab.core.game import Game
    from boardlab.core.state import State
    from boardlab.core.view import View

# Imported when first used: they bring numpy and numba, and numba compiles the shared kernels on a
# first run. ``boardlab play`` says so before that begins, rather than after seconds of silence.
_LAZY = {
    "records": ("boardlab.records", None),
    "Game": ("boardlab.core.game", "Game"),
    "State": ("boardlab.core.state", "State"),
    "View": ("boardlab.core.view", "View"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'boardlab' has no attribute {name!r}")
    import importlib

    module_name, attribute = _LAZY[name]
    module = importlib.import_module(module_name)
    value = module if attribute is None else getattr(module, attribute)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "BoardlabError",
    "Game",
    "GameInfo",
    "IllegalMove",
    "InvalidMove",
    "Move",
    "Option",
    "OptionError",
    "PositionError",
    "RecordError",
    "State",
    "Variant",
    "View",
    "games",
    "info",
    "load",
    "records",
]
