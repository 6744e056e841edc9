"""User names: letters and digits of any script, unique ignoring case, and never a look-alike of another.

A name is stored NFKC-normalised (so ``Zoe`` followed by a combining diaeresis and ``Zoë`` are one
name, and full-width ``ａｎｎ`` is ``ann``). Two names are the same name when their case-folded forms
are equal (``ANN``, ``ann``), and look alike when their confusables skeletons are equal: Unicode's
skeleton (UTS #39, from ICU's data through PyICU), taken of the case-folded name and case-folded
again, so that Cyrillic ``аnn`` is ``ann``, and ``I``, ``l`` and ``1`` are one letter.

>>> check_name(" Zoë ")
'Zoë'
>>> name_key("ZOË") == name_key("Zoë")
True
>>> skeleton("аnn") == skeleton("ann"), skeleton("bob") == skeleton("b0b"), skeleton("山田") == skeleton("田山")
(True, True, False)
>>> check_name("9lives")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardlab.server.names.NameRefused: the name '9lives' is not accepted: it must start with a letter; accepted: ...
"""

from __future__ import annotations

import threading
import unicodedata
from typing import Any

from boardlab.server.errors import ApiError

SHORTEST, LONGEST = 2, 32
NAME_RULE = "2 to 32 letters or digits of any script, '_' or '-', starting with a letter"
PASSWORD_RULE = "at least 8 characters"


class NameRefused(ApiError):
    status = 422


def _allowed(char: str, first: bool) -> bool:
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
        raise refuse(f"{wrong!r} ({unicodedata.name(wrong, 'unnamed').lower()}) is neither a letter nor a digit")
    return normal


def name_key(name: str) -> str:
    """The name as compared for uniqueness: NFKC, case-folded (``ANN`` and ``ann`` are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name.strip()).casefold())


_checker_lock = threading.Lock()
_checker: Any = None


def skeleton(name: str) -> str:
    """What ``name`` looks like: names with equal skeletons are confusable (see the module's notes)."""
    global _checker
    import icu  # PyICU: ICU's UTS #39 confusables data

    with _checker_lock:
        if _checker is None:
            _checker = icu.SpoofChecker()
        found = _checker.getSkeleton(0, name_key(name))
    return unicodedata.normalize("NFKC", str(found).casefold())
