"""boardlab: a workbench for abstract board games.

>>> import boardlab
>>> game = boardlab.load("ndengrod")
>>> state = game.new_game().play("e5")
>>> state.to_move, state.is_over, state.result
(1, False, None)

See ``README.md`` for a tour and ``docs/architecture.md`` for how the pieces fit.
"""

# Import the games package before binding ``games`` below: the import system sets
# ``boardlab.games`` to the subpackage when it is first loaded, and must not do so afterwards.
import boardlab.games as _games_package  # noqa: F401
from boardlab import records
from boardlab.core.game import Game, GameInfo, Variant
from boardlab.core.move import Move
from boardlab.core.options import Option
from boardlab.core.registry import games, info, load
from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.errors import (
    BoardlabError,
    IllegalMove,
    InvalidMove,
    OptionError,
    PositionError,
    RecordError,
)

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
