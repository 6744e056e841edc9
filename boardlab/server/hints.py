"""Who may ask the computer for a hint, and for which seat.

A hint is the computer's top moves for the seat to move, searched on that seat's view (its
information set), never on the state: in HMDG it knows the asking seat's own stones and nothing of
the other's. The rule:

- in a game in play, only where no other person takes part: every seat played by a person is held
  by the caller (a game against the computer; a hot-seat table, whose browser holds every guest
  seat's token; an analysis board opened from an unfinished record), for the seat to move, at the
  position now; never in a game against another person, whatever they hold;
- in a finished game (the analysis board of a game played here or of an uploaded record), anyone to
  whom its full record is given, at any position of the move list where a seat is to move: a hint
  then tells nothing that the record does not. Under perfect information that is everyone; under
  hidden information (HMDG) it is whoever holds every seat whose secrets the rules did not reveal at
  the end (``Game.revealed_at_end``): a hint searched on a seat's view would give its hidden stones away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from boardlab.server.models import Game as GameRow
from boardlab.server.status import GameStatus

if TYPE_CHECKING:
    from boardlab.core.state import State

AGAINST_A_PERSON = ("no hints in a game against another person: hints are given in games against the computer, "
                    "where you hold every seat (hot-seat), and on the analysis board of a finished game")

HIDDEN_AFTER_THE_END = ("no hints here: the rules did not reveal every hidden stone at the end, and a hint searched "
                        "on a seat's view would give them away (hints are for whoever held every such seat)")


@dataclass(frozen=True)
class HintRule:
    """The answer for one position: the seat a hint would be for, or why there is none."""

    seat: int | None
    why_not: str = ""


def hint_rule(row: GameRow, shown: State, held: Sequence[int], live_position: bool) -> HintRule:
    """May the caller, holding ``held``, have a hint at ``shown`` (the game's position after some
    moves; ``live_position``: it is the position now)? ``row`` is the game's row."""
    if row.status == GameStatus.FINISHED:
        if shown.to_move is None:
            return HintRule(None, "no seat is to move in this position: the game is over here")
        game = shown.game
        if row.result is not None and not game.info.perfect_information:
            secret = set(range(game.num_seats)) - game.revealed_at_end(row.result) - set(held)
            if secret:
                return HintRule(None, HIDDEN_AFTER_THE_END)
        return HintRule(shown.to_move)
    if row.status != GameStatus.ACTIVE:
        return HintRule(None, f"game {row.id} is not in play (it is {row.status})")
    if any(s.kind != "ai" and s.seat not in held for s in row.seats):
        return HintRule(None, AGAINST_A_PERSON)
    if not live_position:
        return HintRule(None, "in a game in play, hints are for the position now; go back to the game")
    if row.to_move is None or row.to_move not in held:
        return HintRule(None, "it is the computer's turn; hints are for your own moves")
    return HintRule(row.to_move)
