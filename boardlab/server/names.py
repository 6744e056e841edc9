"""User names: letters and digits of any script, unique ignoring case, and never a look-alike of another.

A name is stored NFKC-normalised (so ``Zoe`` followed by a combining diaeresis and ``Zoë`` are one
name, and full-width ``ａｎｎ`` is ``ann``). Two names are the same name when their case-folded forms
are equal (``ANN``, ``ann``), and look alike when their skeletons are equal (:func:`skeleton`):
Unicode's confusables skeleton (UTS #39, section 4), taken of the name as written and again of its
case-folded form, so that Cyrillic ``аnn`` is ``ann``, ``0`` is ``o``, and ``I``, ``l`` and ``1``
are one letter.

The confusables table is Unicode's ``confusables.txt`` as the ``confusable_homoglyphs`` library
keeps it (pure Python; ``confusable_homoglyphs update`` with ``CONFUSABLE_DATA`` set refreshes it from
Unicode). That library answers whether a string mixes scripts, not whether two strings look alike,
and keeps each of the table's lines in both directions: the skeleton is computed here from it (see
:func:`_prototypes`).

>>> check_name(" Zoë ")
'Zoë'
>>> name_key("ZOË") == name_key("Zoë")
True
>>> skeleton("аnn") == skeleton("ann"), skeleton("bob") == skeleton("b0b"), skeleton("Ian") == skeleton("lan")
(True, True, True)
>>> skeleton("rnary") == skeleton("mary"), skeleton("山田") == skeleton("田山"), skeleton("Zoë") == skeleton("Zoe")
(True, False, False)
>>> check_name("9lives")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardlab.server.names.NameRefused: the name '9lives' is not accepted: it must start with a letter; accepted: ...
"""

from __future__ import annotations

import functools
import unicodedata

from boardlab.server.errors import Refused

SHORTEST, LONGEST = 2, 32
NAME_RULE = "2 to 32 letters or digits of any script, '_' or '-', starting with a letter"
PASSWORD_RULE = "at least 8 characters"


class NameRefused(Refused):
    """A name that is not accepted (the message says what is)."""


# Letters and marks that show nothing (Unicode's default-ignorable ones): "ann" with one of them after it
# would look like "ann" and have a skeleton of its own. Hangul fillers, the combining grapheme joiner,
# variation selectors.
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u034f\u180b\u180c\u180d\u180f"
                       + "".join(map(chr, range(0xFE00, 0xFE10))) + "".join(map(chr, range(0xE0100, 0xE01F0))))


def _allowed(char: str, first: bool) -> bool:
    if char in _INVISIBLE:
        return False
    category = unicodedata.category(char)
    if first:
        return category.startswith("L")
    # Marks follow letters in many scripts (Devanagari's vowel signs, a decomposed accent).
    return category.startswith(("L", "M")) or category == "Nd" or char in "_-"


def check_name(name: str) -> str:
    """``name`` as stored (NFKC, no spaces around), or :class:`NameRefused` saying what is accepted."""
    normal = unicodedata.normalize("NFKC", name.strip())
    shown = normal if len(normal) <= 40 else normal[:40] + "…"

    def refuse(why: str) -> NameRefused:
        return NameRefused(f"the name {shown!r} is not accepted: {why}; accepted: {NAME_RULE}")

    if not SHORTEST <= len(normal) <= LONGEST:
        raise refuse(f"it has {len(normal)} characters")
    if not _allowed(normal[0], first=True):
        raise refuse("it must start with a letter")
    wrong = next((char for char in normal[1:] if not _allowed(char, first=False)), None)
    if wrong is not None:
        what = f"{wrong!r} ({unicodedata.name(wrong, 'unnamed').lower()})"
        raise refuse(f"{what} shows nothing" if wrong in _INVISIBLE else f"{what} is neither a letter nor a digit")
    return normal


def name_key(name: str) -> str:
    """The name as compared for uniqueness: NFKC, case-folded (``ANN`` and ``ann`` are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name.strip()).casefold())


# The table's lines are "source → prototype": one code point that looks like the prototype, a string of
# code points no line maps further. The library keeps each line in both directions, and each of
# these lines (except four about spaces) exactly once.
_BIDI_MARKS = str.maketrans("", "", "\u200e\u200f")  # around right-to-left text in the table's comments


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable code point and what it is mapped to: every group of look-alikes (a prototype and
    the code points mapped to it: a star, in the library's table) becomes one of its members.

    Which end of a line is the prototype the table does not say once both directions are kept, but
    UTS #39 needs no more than the groups: a prototype of several code points is the only member
    longer than one, the one that the group keeps (its code points mapped in turn); else the member
    with the most look-alikes (the prototype, in a group of three or more), the smallest on a tie. Two
    strings then get equal skeletons here exactly when their UTS #39 skeletons are equal: each of those
    is mapped, code point by code point, to one member of the code point's group."""
    from confusable_homoglyphs import confusables

    neighbours: dict[str, set[str]] = {}
    for source, found in confusables.confusables_data.items():
        for glyph in found:
            a, b = source.translate(_BIDI_MARKS), glyph["c"].translate(_BIDI_MARKS)
            if a and b and a != b:
                neighbours.setdefault(a, set()).add(b)
                neighbours.setdefault(b, set()).add(a)
    chosen: dict[str, str] = {}
    for start in neighbours:
        if start in chosen:
            continue
        group, stack = {start}, [start]
        while stack:
            for other in neighbours[stack.pop()] - group:
                group.add(other)
                stack.append(other)
        longer = [member for member in group if len(member) > 1]
        keep = longer[0] if len(longer) == 1 else min(group, key=lambda m: (-len(neighbours[m]), m))
        for member in group:
            if len(member) == 1:
                chosen[member] = keep
    # A kept prototype of several code points is written with members of other groups: mapped in turn.
    return {char: "".join(chosen.get(part, part) for part in keep) if len(keep) > 1 else keep
            for char, keep in chosen.items()}


def _mapped(text: str) -> str:
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text)))


def skeleton(name: str) -> str:
    """What ``name`` looks like: names with equal skeletons are confusable (see the module's notes).

    UTS #39's skeleton of the NFKC name (``I`` looks like ``l``), case-folded, and the skeleton of that
    (Cyrillic ``А``, folded to ``а``, looks like ``a``), NFKC-normalised to be stored."""
    written = _mapped(unicodedata.normalize("NFKC", name.strip()))
    return unicodedata.normalize("NFKC", _mapped(written.casefold()))
