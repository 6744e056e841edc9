"""Restrictions: ways a game lets an agent play with less than its rules allow, for restricted play.

Restricted play (Jaffe, Miller, Andersen, Liu, Karlin and Popović, "Evaluating Competitive Game
Balance with Restricted Play", AIIDE 2012) measures what a feature of the rules contributes: an
agent that may not use the feature plays an unrestricted agent of the same strength, and the more
it loses, the more the feature matters. A game declares its restrictions (:attr:`Game.restrictions`,
each knowing the game's internals); an agent applies one by name (``level3:restrict=no_sideways``)
through this interface alone.

A restriction acts at two points, either or both:

- :meth:`Restriction.model`: the position the agent searches instead of the real one (a model in
  which the feature does not exist). Its legal moves must be the real position's, as :class:`Move`
  values (same text, same actions), since the agent plays the model's choice in the real game.
- :meth:`Restriction.allows`: which of the real position's legal moves the agent may play. Where
  it allows none of them, the agent plays as if unrestricted (a player must move).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.core.move import Move
    from boardlab.core.view import View


class Restriction:
    """One restriction of a game: its ``name`` (what a spec's ``restrict=`` takes) and what it does."""

    name: str = ""
    summary: str = ""

    def model(self, view: View) -> View:
        """The view the restricted agent searches in place of ``view`` (by default ``view`` itself)."""
        return view

    def allows(self, view: View, move: Move) -> bool:
        """Whether the restricted agent may play ``move`` (legal in ``view``); by default every move."""
        return True

    def __repr__(self) -> str:
        return f"<Restriction {self.name}>"
