"""User names' look-alike check: UTS #39 skeletons computed over confusable_homoglyphs' table.

The library keeps each line of Unicode's confusables.txt ("source → prototype") in both directions;
names.py recovers the groups of look-alikes from that. These tests hold the table to what that
needs, so that an update of the library's data that broke it would fail here, and check the
skeletons on names people would try."""

from __future__ import annotations

import unicodedata

import pytest
from confusable_homoglyphs import confusables

from boardlab.server.names import NameRefused, _prototypes, check_name, name_key, skeleton


def _groups() -> list[set[str]]:
    marks = str.maketrans("", "", "\u200e\u200f")
    neighbours: dict[str, set[str]] = {}
    for source, found in confusables.confusables_data.items():
        for glyph in found:
            a, b = source.translate(marks), glyph["c"].translate(marks)
            if a != b:
                neighbours.setdefault(a, set()).add(b)
                neighbours.setdefault(b, set()).add(a)
    groups, seen = [], set()
    for start in neighbours:
        if start in seen:
            continue
        group, stack = {start}, [start]
        while stack:
            for other in neighbours[stack.pop()] - group:
                group.add(other)
                stack.append(other)
        seen |= group
        groups.append(group)
    return groups


def test_the_tables_groups_are_what_the_skeleton_assumes() -> None:
    groups = _groups()
    assert len(groups) > 3000  # Unicode's table: some 3,300 groups of look-alikes
    table = _prototypes()
    for group in groups:
        longer = [member for member in group if len(member) > 1]
        # One prototype a group; only a prototype may be longer than one code point.
        assert len(longer) <= 1, group
        # Each member is mapped to the same thing, and only single code points are mapped.
        assert len({table[m] for m in group if len(m) == 1}) == 1, group
        # A prototype of several code points is made of code points that are not mapped to several.
        for part in "".join(longer):
            assert len(table.get(part, part)) == 1, (group, part)
    # A kept member is kept: mapping twice changes nothing.
    assert all("".join(table.get(c, c) for c in kept) == kept for kept in table.values())


@pytest.mark.parametrize(("name", "alike"), [
    ("ann", "\u0430nn"),  # Cyrillic а
    ("ann", "ANN"),
    ("ann", "\u0410NN"),  # Cyrillic А, capital
    ("ann", "\uff41nn"),  # full-width a
    ("bob", "b0b"),
    ("lan", "Ian"),  # capital I, small l
    ("lan", "1an"),
    ("mary", "rnary"),
    ("paypal", "p\u0430yp\u0430l"),
    ("Ελένη", "Eλένη"),  # Greek capital Epsilon, then Latin E
])
def test_look_alikes_share_a_skeleton(name: str, alike: str) -> None:
    assert skeleton(name) == skeleton(alike)


@pytest.mark.parametrize(("name", "other"), [
    ("Zoë", "Zoe"), ("山田", "田山"), ("ann", "anna"), ("ian", "lan"), ("José", "Jose"), ("Ελένη", "Ελενη"),
])
def test_names_that_differ_to_the_eye_do_not(name: str, other: str) -> None:
    assert skeleton(name) != skeleton(other)


def test_the_skeleton_is_the_same_for_every_form_of_a_name() -> None:
    for written in ("Zoë", "Zoe\u0308", "ZOË", "zoë"):
        assert skeleton(written) == skeleton("zoë"), written
        assert name_key(written) == name_key("zoë")
    assert unicodedata.is_normalized("NFKC", skeleton("Zoe\u0308"))


@pytest.mark.parametrize("hidden", ["\u3164", "\u1160", "\ufe0f", "\u034f", "\U000e0100"])
def test_a_letter_or_mark_that_shows_nothing_is_refused(hidden: str) -> None:
    with pytest.raises(NameRefused, match="shows nothing"):
        check_name("ann" + hidden)
