"""Complete serialisation of a state as JSON: the position text plus what it leaves out.

A position's text (like FEN) has no repetition history and no moves; a JSON document has the game,
its options, the start vector and each move's actions, so the state read back has the same history,
undo, records and repetition counts. The position text is included for people and checked on load.

>>> import boardlab
>>> game = boardlab.load("ndengrod", size=3, length=3)
>>> state = game.new_game().play("b2").play("a1")
>>> again = game.state_from_json(state.to_json())
>>> again == state, [str(m) for m in again.history()]
(True, ['b2', 'a1'])
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from boardlab.errors import PositionError

if TYPE_CHECKING:
    from boardlab.core.game import Game
    from boardlab.core.state import State

FORMAT = "boardlab-state/1"


def state_to_json(state: State) -> str:
    game = state.game
    document = {
        "format": FORMAT,
        "game": game.id,
        "options": dict(game.options),
        "start": state.root.data.tolist(),
        "moves": [{"text": move.text, "path": list(move.path)} for move in state.history()],
        "position": state.to_text(),
    }
    return json.dumps(document, separators=(",", ":"))


def state_from_json(game: Game, document: Mapping[str, Any] | str) -> State:
    from boardlab.core.state import State

    if isinstance(document, str):
        try:
            document = json.loads(document)
        except json.JSONDecodeError as error:
            raise PositionError(f"not a JSON state document ({error.msg} at character {error.pos})") from None
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise PositionError(f"not a boardlab state document: expected an object with format {FORMAT!r}")
    if document.get("game") != game.id or document.get("options") != dict(game.options):
        raise PositionError(
            f"the document is a state of {document.get('game')!r} with options {document.get('options')!r}, "
            f"not of {game!r}"
        )
    try:
        start = np.array(document["start"], dtype=np.int64)
        moves = [(str(m["text"]), tuple(int(a) for a in m["path"])) for m in document["moves"]]
    except (KeyError, TypeError, ValueError) as error:
        raise PositionError(f"malformed state document: {error}") from None
    if start.ndim != 1 or start.shape != game.initial_data().shape:
        raise PositionError("malformed state document: the start vector has the wrong length for this game")
    state = State(game, start)
    for number, (text, path) in enumerate(moves, 1):
        # Checked against the legal moves here: a face explains illegal moves it can parse, not any path.
        legal = next((move for move in state.legal_moves() if move.path == path), None)
        if legal is None:
            raise PositionError(f"move {number} ({text}) of the document is not legal after the moves before it")
        state = state.play(legal)
    if "position" in document and document["position"] != state.to_text():
        raise PositionError("the document's position does not match its moves")
    return state
