"""Möbiatus, by Kistaro Windrider (kistaro), 2004: checkers-like knights on a Möbius strip.

Source: seed ``003`` (the LiveJournal post "Inventing a game: Möbiatus", 14 November 2004); every
ambiguity is discussed under its ID in ``rules-notes.md`` §5, and ``docs/rules/mobiatus.md`` states
the rules as implemented.

Rules (defaults are the seed's reading in the rules notes):

- The board is a strip of ``length`` (30) × ``width`` (5) paper squares twisted into a Möbius
  strip (B1). Each paper square has two faces, front and back; a face's *opposite* is the other
  side of the same paper, 30 faces along the loop with the width mirrored (B2). Faces are the
  cells: 300 of them. Knight moves and adjacency wrap along the loop, never across the width.
- Red and Blue each fill two lines across the width with dots (their pieces); the face opposite each
  dot holds that piece's *circle*. Red's lines are the first two columns, Blue's 15 columns on (B3).
  Red moves first (B4).
- A turn moves one piece like a chess knight (B5; option ``movement``, added: a camel, a zebra, or a
  knight that may also step one square orthogonally). It may not land on a dot or on its own colour's
  circle (B6). Landing on a *singularity* slides the piece out of that orthogonally connected group
  of singularities onto any face next to the group; a group walled in forbids the move (B7). The
  moved piece's old face and its opposite become singularities (B8).
- Landing (directly or by a slide) on an enemy circle captures the enemy piece opposite; both its
  faces become singularities. The capturer must then make another full move that touches no face
  touched earlier in the chain; it may capture again. A capture is allowed only if the chain can
  end on a non-capturing landing (B9). Option ``mandatory_capture`` (the author's proposal) forces
  captures (B10).
- A player with no pieces, or no legal move, at the start of their turn loses. After
  ``move_pair_limit`` (70) move pairs the game ends: a draw by default (B11). Under the default
  rules every turn fills one free paper square, so a game lasts at most 130 turns.

Notation: a face is its board (``F`` front, ``B`` back), column from 1, row letter, as ``F12c``;
the opposite of ``F12c`` is ``B12c``. A move is the piece's face and each face it lands on, as
``F1a-F3b`` (a knight move), ``F1a-F3b~F4b`` (slid out of a singularity onto F4b) and
``F1a-F3b*-F5c`` (captured on F3b, then moved on): ``-`` before a knight target, ``~`` before a
slide's resting face, ``*`` after a capture. Also ``swap`` (``first_player=pie``).
"""

from __future__ import annotations

from boardlab.core.info import read_info
from boardlab.core.package import GRAVE_LEVELS, GamePackage

INFO = read_info(__name__)  # game.toml: the description, options, variants and samples
GAME = GamePackage.conventional(__name__, INFO, "Mobiatus", narrow_layouts=("bands",), tuned_search=GRAVE_LEVELS)
