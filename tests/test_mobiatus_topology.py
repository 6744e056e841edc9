"""The Möbius strip board (``boardlab.core.mobius``): faces, opposites, the seam, the two boards.

The formal model is ``rules-notes.md`` §5.3 (B1, B2): a 5 × 30 strip is a loop of 60 × 5 faces in
double-cover coordinates, ``opposite(x, y) = (x + 30 mod 60, 4 − y)``.
"""

from __future__ import annotations

import pytest

from boardlab.core.mobius import KNIGHT_STEPS, ORTHOGONAL_STEPS, MobiusStrip

STRIPS = [MobiusStrip(30, 5), MobiusStrip(31, 5), MobiusStrip(6, 3), MobiusStrip(3, 2), MobiusStrip(8, 4)]


@pytest.mark.parametrize("strip", STRIPS, ids=repr)
def test_the_opposite_of_the_opposite_is_the_face_itself(strip: MobiusStrip) -> None:
    for face in range(strip.faces):
        assert strip.opposite(face) != face
        assert strip.opposite(strip.opposite(face)) == face


def test_the_opposite_is_thirty_along_with_the_width_mirrored() -> None:
    strip = MobiusStrip(30, 5)
    assert strip.faces == 300 and strip.squares == 150 and strip.loop == 60
    for x in range(60):
        for y in range(5):
            assert strip.coords(strip.opposite(strip.face(x, y))) == ((x + 30) % 60, 4 - y)


@pytest.mark.parametrize("strip", STRIPS, ids=repr)
def test_a_face_and_its_opposite_are_the_same_square_of_the_two_boards(strip: MobiusStrip) -> None:
    for face in range(strip.faces):
        board, column, row = strip.picture(face)
        other, column2, row2 = strip.picture(strip.opposite(face))
        assert {board, other} == {"F", "B"} and (column, row) == (column2, row2)
        assert strip.square(face) == strip.square(strip.opposite(face))
        assert strip.from_picture(board, column, row) == face
        assert strip.is_front(face) == (board == "F")
    assert len({strip.square(face) for face in range(strip.faces)}) == strip.squares


@pytest.mark.parametrize("strip", STRIPS, ids=repr)
def test_names_read_back(strip: MobiusStrip) -> None:
    names = [strip.name(face) for face in range(strip.faces)]
    assert len(set(names)) == strip.faces
    for face, name in enumerate(names):
        assert strip.parse_name(name) == face
        assert strip.parse_name(name.lower()) == face


def test_names_follow_the_two_board_picture() -> None:
    strip = MobiusStrip(30, 5)
    assert strip.name(strip.face(0, 0)) == "F1a"
    assert strip.name(strip.face(11, 2)) == "F12c"
    assert strip.name(strip.face(41, 2)) == "B12c"  # the back of F12c
    assert strip.name(strip.face(30, 0)) == "B1e"  # the back board's rows run the other way in x, y
    assert [strip.parse_name(text) for text in ("F31a", "F1f", "G1a", "F0a", "Fa1", "", "F1")] == [None] * 7


def test_stepping_off_either_end_lands_on_the_other_board_with_the_rows_mirrored() -> None:
    strip = MobiusStrip(30, 5)

    def step(name: str, dx: int, dy: int = 0) -> str | None:
        face = strip.step(strip.parse_name(name), dx, dy)  # type: ignore[arg-type]
        return None if face is None else strip.name(face)

    assert step("F29a", 1) == "F30a"
    assert step("F30a", 1) == "B1e"
    assert step("F30b", 1) == "B1d"
    assert step("B30b", 1) == "F1d"
    assert step("F1a", -1) == "B30e"
    assert step("B1c", -1) == "F30c"
    assert step("F5a", 0, -1) is None  # nothing wraps across the width
    assert step("F5e", 0, 1) is None
    assert step("B5a", 0, -1) == "B5b" and step("B5a", 0, 1) is None  # the back's rows run against y


def test_knight_moves_wrap_along_the_loop_but_never_across_the_width() -> None:
    strip = MobiusStrip(30, 5)
    table = strip.table(KNIGHT_STEPS)
    assert table.shape == (300, 8) and not table.flags.writeable
    corner = strip.parse_name("F30a")
    assert sorted(strip.name(int(t)) for t in table[corner] if t >= 0) == ["B1c", "B2d", "F28b", "F29c"]
    middle = strip.parse_name("F1c")
    assert sorted(strip.name(int(t)) for t in table[middle] if t >= 0) == [
        "B29b", "B29d", "B30a", "B30e", "F2a", "F2e", "F3b", "F3d"]
    for face in range(strip.faces):
        x, y = strip.coords(face)
        for (dx, dy), target in zip(KNIGHT_STEPS, table[face], strict=True):
            if not 0 <= y + dy < 5:
                assert target == -1
            else:
                assert strip.coords(int(target)) == ((x + dx) % 60, y + dy)


@pytest.mark.parametrize("strip", STRIPS, ids=repr)
def test_neighbour_tables_are_symmetric(strip: MobiusStrip) -> None:
    for steps in (ORTHOGONAL_STEPS, KNIGHT_STEPS):
        table = strip.table(steps)
        for face in range(strip.faces):
            for k, (dx, dy) in enumerate(steps):
                target = int(table[face, k])
                if target >= 0:
                    back = steps.index((-dx, -dy))
                    assert table[target, back] == face


def test_the_strip_is_a_core_topology() -> None:
    topology = MobiusStrip(6, 3).topology()
    assert topology.size == 36 and topology.cell(7, 2) == 23
    assert [int(n) for n in topology.neighbours[topology.cell(11, 1)]] == [1, 35, 31, 33]


@pytest.mark.parametrize("call, message", [
    (lambda: MobiusStrip(0, 5), "needs length"),
    (lambda: MobiusStrip(30, 27), "needs length"),
    (lambda: MobiusStrip(30, 5).face(0, 5), "off the strip"),
    (lambda: MobiusStrip(30, 5).from_picture("X", 0, 0), "boards are F and B"),
    (lambda: MobiusStrip(30, 5).from_picture("F", 30, 0), "columns 0 to 29"),
])
def test_impossible_faces_are_refused(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
