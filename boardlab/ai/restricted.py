"""Restricted play for searching agents: the ``restrict=…`` setting (issue 32).

The game declares its restrictions (:attr:`boardlab.Game.restrictions`, each a
:class:`~boardlab.core.restriction.Restriction`); an agent with ``restrict=<name>`` searches the
restriction's model of the position and plays the best of the moves the restriction allows. This
module knows no game: only the generic interface.

>>> import boardlab
>>> from boardlab.ai.restricted import restriction_for
>>> restriction_for(boardlab.load("horsmeier"), "no_sideways")
<Restriction no_sideways>
>>> restriction_for(boardlab.load("horsmeier"), "no_backward")
Traceback (most recent call last):
...
boardlab.errors.OptionError: agent setting restrict='no_backward': accepted in horsmeier: no_sideways, ignore_lifespan
"""

from __future__ import annotations

import random

from boardlab.ai.base import Analysis, Candidate
from boardlab.core.game import Game
from boardlab.core.restriction import Restriction
from boardlab.core.view import View
from boardlab.errors import OptionError


def restriction_for(game: Game, name: str) -> Restriction | None:
    """The restriction ``name`` of ``game`` (``None`` for ``""``: unrestricted); :class:`OptionError`
    naming what ``game`` accepts if it declares no such restriction."""
    if not name:
        return None
    declared = game.restrictions
    if name in declared:
        return declared[name]
    if declared:
        raise OptionError(f"agent setting restrict={name!r}: accepted in {game.id}: {', '.join(declared)}")
    raise OptionError(f"agent setting restrict={name!r}: {game.id} declares no restrictions; accepted there: "
                      "no restrict setting")


def restricted_analysis(analysis: Analysis, view: View, restriction: Restriction, rng: random.Random) -> Analysis:
    """``analysis`` (of the restriction's model of ``view``) as moves of ``view``, those the restriction
    disallows left out, best first as searched.

    Where the search ranked none of the allowed moves (a budget too small to try them all), the
    allowed moves follow unsearched, in an order drawn with ``rng``. Where the restriction allows
    no legal move at all, ``analysis`` is kept whole: the agent must play, and plays its best."""
    legal = {move.path: move for move in view.legal_moves()}
    allowed = {path: move for path, move in legal.items() if restriction.allows(view, move)}
    if not allowed:
        candidates = [c for c in analysis.candidates if c.move.path in legal]
        return Analysis(tuple(Candidate(legal[c.move.path], c.visits, c.value, c.depth) for c in candidates),
                        analysis.principal_variation)
    kept = [Candidate(allowed[c.move.path], c.visits, c.value, c.depth)
            for c in analysis.candidates if c.move.path in allowed]
    if not kept:
        unsearched = sorted(allowed.values())
        rng.shuffle(unsearched)
        kept = [Candidate(move, 0, None) for move in unsearched]
    line = analysis.principal_variation
    if not line or line[0].path != kept[0].move.path:
        line = (kept[0].move,)
    return Analysis(tuple(kept), line)
