"""Möbiatus's Python face: options, notation on the two parallel boards, position text, the drawing.

>>> import boardlab
>>> game = boardlab.load("mobiatus", length=8, width=3, blue_offset=4)
>>> state = game.new_game().play("F1a-F3b")
>>> print(state)
Turn 1: Red 6 pieces, Blue 6 pieces
Front  1 2 3 4 5 6 7 8
    a  x R . . B B . .  a -> B1c
    b  R R R . B B . .  b -> B1b
    c  R R . . B B . .  c -> B1a
Back   1 2 3 4 5 6 7 8
    a  x r . . b b . .  a -> F1c
    b  r r r . b b . .  b -> F1b
    c  r r . . b b . .  c -> F1a
R B a piece   r b its circle (the piece is on the other board)   x singularity
>>> state.to_text()
'xR2BB2/RRR1BB2/RR2BB2 b 1 1'

Position text: the front board's rows ``a``, ``b``, … separated by ``/``, each square as drawn
(``R``/``B`` a piece on the front face, ``r``/``b`` a piece on the back face, ``x`` a
singularity, a digit run for free squares, as in FEN); the colour to move (``r`` or ``b``); the
turns played; the ply (decisions: a slide's end and each hop of a chain count one); then
``swapped`` (after a pie swap) and, once the game is over, ``end:no-pieces``, ``end:no-moves`` or
``end:limit``. The back board needs no field of its own: it is the front board with each mark's
case swapped.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

from boardlab.core import facekit as kit
from boardlab.core import kernel
from boardlab.core.cells import CellContent, Piece
from boardlab.core.game import Game
from boardlab.core.mobius import KNIGHT_STEPS, ORTHOGONAL_STEPS, ROW_LETTERS, MobiusStrip, Steps, leaper_steps
from boardlab.core.numbers import MAX_PLY, whole_number
from boardlab.core.options import OptionValue
from boardlab.core.view import View
from boardlab.errors import IllegalMove, InvalidMove, OptionError, PositionError
from boardlab.games.mobiatus import INFO, groups, layout
from boardlab.games.mobiatus import kernel as k
from boardlab.games.mobiatus.evaluation import evaluate

COLOURS = ("Red", "Blue")
LETTERS = "rb"
_CODES = kit.ChoiceCodes(INFO, layout,
                         mandatory_capture={"off": layout.PREF_ANY, "on": layout.PREF_CAPTURE,
                                            "maximal": layout.PREF_MAXIMAL},
                         limit_result={"draw": layout.LIMIT_DRAW, "more_pieces_wins": layout.LIMIT_MORE_PIECES})
_END_TOKENS = kit.EndTokens(INFO, {layout.REASON_LIMIT: "limit"})
# Option movement (added, B5): each leaper's leaps, and how a refusal names one of them. A wazir step
# comes after the knight's eight, so the default knight keeps its action numbers.
MOVEMENTS: dict[str, Steps] = {
    "knight": KNIGHT_STEPS,
    "camel": leaper_steps(1, 3),
    "zebra": leaper_steps(2, 3),
    "knight_wazir": KNIGHT_STEPS + ORTHOGONAL_STEPS,
}
LEAP_NAMES = {"knight": "a knight's move", "camel": "a camel's leap (1 and 3 squares)",
              "zebra": "a zebra's leap (2 and 3 squares)",
              "knight_wazir": "a knight's move or a wazir step (1 square orthogonally)"}
MAX_DRAWN_COLUMNS = 31  # 18 + 2 · 31 = 80 characters a row
_FACE = re.compile(r"[fb]\d{1,3}[a-z]", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,;:>~*\-]+")


def _marks(text: str) -> list[tuple[bool, bool]]:
    """For each square named in ``text``: whether ``~`` comes before it, and ``*`` after it."""
    found = list(_FACE.finditer(text))
    marks = []
    for index, match in enumerate(found):
        before = text[found[index - 1].end() if index else 0:match.start()]
        after = text[match.end():found[index + 1].start() if index + 1 < len(found) else len(text)]
        marks.append(("~" in before, "*" in after))
    return marks


def _ranges(values: list[int]) -> str:
    """``[2, 3, 4, 7]`` as ``'2 to 4, 7'``."""
    parts: list[str] = []
    start = previous = None
    for value in [*values, None]:
        if value is not None and previous is not None and value == previous + 1:
            previous = value
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start} to {previous}")
        start = previous = value
    return ", ".join(parts)


class Mobiatus(Game, kernels=k, evaluate=evaluate):
    """Möbiatus with its options fixed."""

    info = INFO
    state_length_at = layout.S_STATE_LEN
    plane_kinds = ("dot", "circle")
    plane_marks = ("singularity", "touched")

    @property
    def num_distinct_actions(self) -> int:
        """``face * n + k`` leaps (``n`` of them a face: 8, or 12 for the knight-or-wazir), ``n * faces + e``
        slide ends, ``(n + 1) * faces`` the pie swap."""
        return (self.steps + 1) * self.faces + 1

    @property
    def max_decisions(self) -> int:
        """The move-pair limit caps the turns; a turn is a start, a slide end, a pie swap and at most
        one hop per face captured."""
        from boardlab.core.game import NO_BOUND

        pairs = int(self.options["move_pair_limit"])
        return NO_BOUND if pairs == 0 else (2 * pairs + 1) * (self.faces + 3)

    search_cutoff = 12

    def check_options(self, resolved: dict[str, OptionValue], given: Mapping[str, Any]) -> None:
        if resolved["first_player"] == "random":
            resolved["first_player"] = random.SystemRandom().choice(("red", "blue"))
        length, gap = int(resolved["length"]), int(resolved["line_gap"])
        room = [g for g in range(length - 1)
                if any(self._placement_fits(length, g, offset) for offset in range(2 * length))]
        if gap not in room:
            raise OptionError(
                f"mobiatus: option line_gap={gap} leaves no room for four starting lines on a strip of "
                f"length {length}; accepted: an integer from 0 to {max(room)}"
            )
        movement, width = str(resolved["movement"]), int(resolved["width"])
        if not self._movement_fits(movement, width):
            fitting = [name for name in MOVEMENTS if self._movement_fits(name, width)]
            across = min(abs(dy) for _, dy in MOVEMENTS[movement])
            raise OptionError(
                f"mobiatus: option movement={movement} leaps at least {across} rows across, so on a strip of width "
                f"{width} no piece could ever move; accepted with width={width}: {', '.join(fitting)} "
                f"(or width 3 or more)"
            )
        offset = int(resolved["blue_offset"])
        if not self._placement_fits(length, gap, offset):
            accepted = [n for n in range(1, 2 * length) if self._placement_fits(length, gap, n)]
            raise OptionError(
                f"mobiatus: option blue_offset={offset} puts a Blue line on a paper square that Red's "
                f"lines (or circles) use, or off the loop of {2 * length} columns; accepted with "
                f"length={length}, line_gap={gap}: {_ranges(accepted)}"
            )

    @staticmethod
    def _movement_fits(movement: str, width: int) -> bool:
        return any(abs(dy) < width for _, dy in MOVEMENTS[movement])

    @staticmethod
    def _placement_fits(length: int, gap: int, offset: int) -> bool:
        if offset >= 2 * length or 1 + gap >= length:
            return False
        red = {0, 1 + gap}
        blue = {offset % length, (offset + 1 + gap) % (2 * length) % length}
        return len(blue) == 2 and not red & blue

    # -- board and tables -----------------------------------------------------------------------

    def build_spec(self) -> np.ndarray:
        strip = MobiusStrip(int(self.options["length"]), int(self.options["width"]))
        self.strip = strip
        self._face_names = tuple(strip.name(face) for face in range(strip.faces))
        leaps = MOVEMENTS[str(self.options["movement"])]
        self.steps = len(leaps)
        faces = strip.faces
        side_cap = 2 * strip.width
        spec = kit.SpecBuilder(layout.SPEC_HEADER)
        spec[layout.S_FACES] = faces
        spec[layout.S_SIDE_CAP] = side_cap
        mandatory = str(self.options["mandatory_capture"])
        spec[layout.S_PREF_FIRST] = _CODES(self.options, "mandatory_capture")
        if mandatory == "maximal":
            spec[layout.S_PREF_CHAIN] = layout.PREF_MAXIMAL
        elif self.options["chain_capture"] == "must_continue_capturing":
            spec[layout.S_PREF_CHAIN] = layout.PREF_CAPTURE
        spec[layout.S_ORIGIN_JOINS] = self.options["origin_joins_slide_group"]
        spec[layout.S_TURN_LIMIT] = 2 * int(self.options["move_pair_limit"])
        spec[layout.S_LIMIT_RESULT] = _CODES(self.options, "limit_result")
        spec[layout.S_PIE] = self.options["first_player"] == "pie"
        spec[layout.S_STEPS] = self.steps
        targets = strip.table(leaps)
        spec.table(targets, at=layout.S_KNIGHT)
        packed = np.zeros((faces, layout.leap_row(self.steps)), dtype=np.int64)
        for face, row in enumerate(targets):
            on_strip = [int(t) << layout.LEAP_SHIFT | k for k, t in enumerate(row) if t >= 0]
            packed[face, 0] = len(on_strip)
            for j, leap in enumerate(on_strip):
                packed[face, 1 + j // 4] |= leap << (16 * (j % 4))
        spec.table(packed, at=layout.S_LEAPS)
        orthogonal = strip.table(ORTHOGONAL_STEPS)
        spec.table(orthogonal, at=layout.S_ORTH)
        spec.table([sum((int(other) + 1) << (16 * d) for d, other in enumerate(row)) for row in orthogonal],
                   at=layout.S_SIDES)
        spec.table([strip.opposite(face) for face in range(faces)], at=layout.S_OPP)
        spec.fields(layout.layout(faces, side_cap, self.steps))
        return spec.build()

    @property
    def faces(self) -> int:
        return self.strip.faces

    def cell_adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Each face's orthogonal neighbours on the strip (through the twist), by face index."""
        topology = self.strip.topology()
        return tuple(tuple(int(n) for n in row if n >= 0) for row in topology.neighbours)

    def face_name(self, face: int) -> str:
        """A face's name on the two parallel boards (``F12c``: board, column, row)."""
        return self._face_names[face]

    def seat_name(self, seat: int) -> str:
        return COLOURS[seat]

    def seat_label(self, data: np.ndarray, seat: int) -> str:
        return COLOURS[seat ^ int(data[layout.F_SWAPPED])]

    # -- states ---------------------------------------------------------------------------------

    def starting_columns(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The double-cover columns ``x`` of Red's and Blue's starting lines (their dots)."""
        loop = self.strip.loop
        gap, offset = int(self.options["line_gap"]), int(self.options["blue_offset"])
        return (0, 1 + gap), (offset, (offset + 1 + gap) % loop)

    def initial_data(self) -> np.ndarray:
        data = self._blank()
        strip = self.strip
        for colour, columns in enumerate(self.starting_columns()):
            for x in columns:
                for y in range(strip.width):
                    face = strip.face(x, y)
                    data[layout.BOARD + face] = layout.DOT + colour
                    data[layout.BOARD + strip.opposite(face)] = layout.CIRCLE + colour
        data[layout.F_COLOUR] = 1 if self.options["first_player"] == "blue" else 0
        groups.rebuild(data, self.spec)
        k.settle(data, self.spec)
        return data

    # -- moves ----------------------------------------------------------------------------------

    def _is_enemy_circle(self, data: np.ndarray, face: int) -> bool:
        return bool(data[layout.BOARD + face] == layout.CIRCLE + 1 - int(data[layout.F_COLOUR]))

    def action_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        """The move's full path: ``F1a-F3b``, ``F1a-F3b~F4b``, ``F1a-F3b*-F5c`` (a capture on F3b)."""
        faces, steps = self.faces, self.steps
        sim = data.copy()
        text = ""
        for action in path:
            if action == (steps + 1) * faces:
                text = "swap"
            elif action >= steps * faces:
                face = action - steps * faces
                text += f"~{self.face_name(face)}" + ("*" if self._is_enemy_circle(sim, face) else "")
            else:
                target = int(self.spec[int(self.spec[layout.S_KNIGHT]) + action])
                if sim[layout.F_PHASE] == layout.PHASE_START:
                    text += self.face_name(action // steps)
                text += f"-{self.face_name(target)}" + ("*" if self._is_enemy_circle(sim, target) else "")
            k.apply(sim, self.spec, action)
        return text

    def key_text(self, key: int) -> str:
        """One step's text from its ``describe`` key: as :meth:`action_text` writes that step."""
        faces, steps = self.faces, self.steps
        action, extra = divmod(key, self.num_distinct_actions)[::-1]
        star = "*" if extra & 2 else ""
        if action == (steps + 1) * faces:
            return "swap"
        if action >= steps * faces:
            return f"~{self.face_name(action - steps * faces)}{star}"
        target = int(self.spec[int(self.spec[layout.S_KNIGHT]) + action])
        piece = self.face_name(action // steps) if extra & 1 else ""
        return f"{piece}-{self.face_name(target)}{star}"

    def partial_text(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        return self.action_text(data, path)

    def _legal(self, data: np.ndarray, spec: np.ndarray | None = None) -> list[int]:
        out = np.empty(kernel.MAX_ACTIONS, np.int64)
        count = k.legal(data.copy(), self.spec if spec is None else spec, out)
        return out[:count].tolist()

    def _leap(self, source: int, target: int) -> int | None:
        """Which of the piece's leaps goes from ``source`` to ``target`` (at most one does: no leap
        goes 4 or more columns along, and a loop is at least 8)."""
        row = int(self.spec[layout.S_KNIGHT]) + self.steps * source
        for step in range(self.steps):
            if self.spec[row + step] == target:
                return step
        return None

    @property
    def leap_name(self) -> str:
        """How a refusal names one leap of the ``movement`` option: ``a knight's move``, …"""
        return LEAP_NAMES[str(self.options["movement"])]

    def parse_path(self, data: np.ndarray, text: str) -> tuple[int, ...]:
        word = text.strip()
        if word.lower() == "swap":
            return ((self.steps + 1) * self.faces,)
        tokens = [token for token in _SEPARATORS.split(word) if token]
        faces: list[int] = []
        for token in tokens:
            face = self.strip.parse_name(token)
            if face is None:
                if _FACE.fullmatch(token):
                    last = self.face_name(self.strip.from_picture("F", self.strip.length - 1, self.strip.width - 1))
                    raise InvalidMove(f"{text!r}: there is no square {token} (squares run from F1a to {last}, "
                                      f"and B1a to B{last[1:]} on the back board)")
                raise InvalidMove(
                    f"{text!r} is not a move; a move is the piece's square and each square it lands on, as "
                    f"F1a-F3b, F1a-F3b~F4b (a slide) or F1a-F3b*-F5c (a capture chain), or 'swap'"
                )
            faces.append(face)
        if not faces:
            raise InvalidMove(f"{text!r} is not a move; a move is written like F1a-F3b")
        if len(faces) == 1:
            raise IllegalMove(f"{text}: name where the piece on {self.face_name(faces[0])} goes as well, "
                              f"as {self.face_name(faces[0])}-<square>")
        sim = data.copy()
        path: list[int] = []
        source = faces[0]
        for face in faces[1:]:
            if path and (sim[kernel.TO_MOVE] < 0 or not sim[kernel.MID_TURN]):
                raise IllegalMove(f"{text}: the move is over once it comes to rest; "
                                  f"{self.face_name(face)} is one square too many")
            if sim[layout.F_PHASE] == layout.PHASE_SLIDE:
                action = self.steps * self.faces + face
            else:
                if path:
                    source = int(sim[layout.F_CUR])
                step = self._leap(source, face)
                if step is None:
                    raise IllegalMove(f"{text}: {self.face_name(face)} is not {self.leap_name} from "
                                      f"{self.face_name(source)}")
                action = source * self.steps + step
            path.append(action)
            if action not in self._legal(sim):
                return tuple(path)  # the caller says why it is illegal
            k.apply(sim, self.spec, action)
        self._check_marks(data, tuple(path), word, text)
        return tuple(path)

    def _check_marks(self, data: np.ndarray, path: tuple[int, ...], word: str, text: str) -> None:
        """A ``*`` (capture) or ``~`` (slide) typed where the move has none is a wrong move, not a
        decoration: ``F1a-F3b*`` claims a capture that does not happen. Marks may be left out."""
        canonical = _marks(self.action_text(data, path))
        last = list(_FACE.finditer(word))[-1]
        if "~" in word[last.end():]:
            raise InvalidMove(f"{text!r}: ~ must be followed by the square the piece slides to")
        for index, (typed, actual) in enumerate(zip(_marks(word), canonical, strict=False)):
            face = self.face_name(self.strip.parse_name(_FACE.findall(word)[index]) or 0)
            if typed[0] and not actual[0]:
                raise InvalidMove(f"{text!r}: ~ marks a slide, but the move does not slide to {face}")
            if typed[1] and not actual[1]:
                raise InvalidMove(f"{text!r}: * marks a capture, but nothing is captured on {face}")

    def why_illegal(self, data: np.ndarray, path: tuple[int, ...]) -> str:
        sim = data.copy()
        mover = int(sim[layout.F_COLOUR])
        for taken, action in enumerate(path):  # each step checked before it is applied: the kernel trusts them
            if taken and int(sim[layout.F_COLOUR]) != mover:
                return f"the move ends after its first {taken} step{'s' if taken > 1 else ''}; nothing may follow"
            if action not in self._legal(sim):
                return self._explain(sim, action)
            k.apply(sim, self.spec, action)
        return self._unfinished(sim)

    def _unfinished(self, sim: np.ndarray) -> str:
        choices = ", ".join(sorted(self.action_text(sim, (action,)) for action in self._legal(sim)))
        if sim[layout.F_PHASE] == layout.PHASE_SLIDE:
            where = self.face_name(int(sim[layout.F_SLIDE]))
            return (f"the move is not finished: {where} is a singularity, so the piece slides on; add the "
                    f"square where it comes to rest ({choices})")
        where = self.face_name(int(sim[layout.F_CUR]))
        return f"the move is not finished: after capturing on {where} the piece must move on ({choices})"

    def _explain(self, sim: np.ndarray, action: int) -> str:
        faces, steps = self.faces, self.steps
        colour = int(sim[layout.F_COLOUR])
        mine, theirs = COLOURS[colour], COLOURS[1 - colour]
        if action == (steps + 1) * faces:
            if self.options["first_player"] != "pie":
                return "swapping is not part of these rules (only with first_player=pie)"
            return "only the second player may swap, instead of their first move"
        if action >= steps * faces:
            face = action - steps * faces
            group = self._group(sim, int(sim[layout.F_SLIDE]))
            near = {int(self.spec[int(self.spec[layout.S_ORTH]) + 4 * g + d]) for g in group for d in range(4)}
            if face not in near:
                return (f"{self.face_name(face)} is not next to the group of singularities at "
                        f"{self.face_name(int(sim[layout.F_SLIDE]))}, so the slide cannot end there")
            target = face
        else:
            source = action // steps
            if sim[layout.F_PHASE] == layout.PHASE_START and sim[layout.BOARD + source] != layout.DOT + colour:
                return f"{self.face_name(source)} holds no {mine} piece"
            target = int(self.spec[int(self.spec[layout.S_KNIGHT]) + action])
        code = int(sim[layout.BOARD + target])
        name = self.face_name(target)
        if code in (layout.DOT, layout.DOT + 1):
            return f"{name} is occupied by a {COLOURS[code - layout.DOT]} piece"
        if code == layout.CIRCLE + colour:
            return (f"{name} is the opposite face of your own piece on "
                    f"{self.face_name(self.strip.opposite(target))}: a circle of your colour is never landed on")
        if code == layout.WALL:
            return f"{name} was touched earlier in this capture chain"
        raw = self.spec.copy()
        raw[layout.S_PREF_FIRST] = raw[layout.S_PREF_CHAIN] = layout.PREF_ANY
        raw.setflags(write=False)
        if action in self._legal(sim, raw):
            return self._preference(sim)
        if code == layout.SING:
            return (f"{name} is a singularity whose group is walled in: no square next to the group is free, "
                    f"and no capture there could finish its chain")
        return (f"capturing the {theirs} piece on {self.face_name(self.strip.opposite(target))} from {name} is "
                f"not allowed: the capture chain could not end on a free square without touching a square twice")

    def _preference(self, sim: np.ndarray) -> str:
        first_hop = sim[layout.F_CAPTURES] == 0
        mandatory = self.options["mandatory_capture"]
        if mandatory == "maximal":
            return "the move must capture as many pieces as possible (mandatory_capture=maximal)"
        if first_hop:
            return "a capture is available, and captures are mandatory (mandatory_capture=on)"
        return "the chain must capture again where it can (chain_capture=must_continue_capturing)"

    def _group(self, data: np.ndarray, start: int) -> set[int]:
        """The untouched singular faces orthogonally connected to ``start``."""
        orth = int(self.spec[layout.S_ORTH])
        group, todo = {start}, [start]
        while todo:
            face = todo.pop()
            for d in range(4):
                other = int(self.spec[orth + 4 * face + d])
                if other >= 0 and other not in group and data[layout.BOARD + other] == layout.SING:
                    group.add(other)
                    todo.append(other)
        return group

    # -- position text --------------------------------------------------------------------------

    def _mark(self, data: np.ndarray, face: int) -> str:
        code = int(data[layout.BOARD + face])
        if code == layout.FREE:
            return "."
        if code in (layout.SING, layout.WALL):
            return "x"
        if code >= layout.CIRCLE:
            return LETTERS[code - layout.CIRCLE]
        return LETTERS[code - layout.DOT].upper()

    def occupancy(self, data: np.ndarray) -> np.ndarray:
        """Seats per face: a piece stands on its dot (its circle, on the other side, is not counted)."""
        codes = data[layout.BOARD:layout.BOARD + self.faces]
        dots = (codes == layout.DOT) | (codes == layout.DOT + 1)
        return np.where(dots, (codes - layout.DOT) ^ int(data[layout.F_SWAPPED]), -1)

    def position_text(self, data: np.ndarray) -> str:
        strip = self.strip
        rows = []
        for row in range(strip.width):
            marks = "".join(self._mark(data, strip.from_picture("F", column, row)) for column in range(strip.length))
            rows.append(kit.write_row(marks))
        fields = ["/".join(rows), LETTERS[int(data[layout.F_COLOUR])], str(int(data[layout.F_TURNS])),
                  str(int(data[kernel.PLY]))]
        if data[layout.F_SWAPPED]:
            fields.append("swapped")
        return " ".join(fields + _END_TOKENS.ended(data))

    def _check_against_turns(self, colour_text: str, turns: int, text: str) -> None:
        """The colours alternate from the first one, turn by turn (a pie swap changes players, not
        colours). The count of filled squares is not held against the turns (B11: each turn fills one),
        so that study positions with a few pieces on an open strip can be set up."""
        first = 1 if self.options["first_player"] == "blue" else 0
        expected = LETTERS[(first + turns) % 2]
        if colour_text != expected:
            raise PositionError(f"{text!r}: after {turns} turns {COLOURS[LETTERS.index(expected)]} ({expected}) "
                                f"moves, not {COLOURS[LETTERS.index(colour_text)]}; "
                                f"{COLOURS[first]} makes the first move")

    def parse_position(self, text: str) -> np.ndarray:
        form = ("'<the front board's rows a/b/…> <r|b to move> <turns> <ply> [swapped] "
                "[end:no-pieces|end:no-moves|end:limit]'")
        board_text, colour_text, turns_text, ply_text, *flags = kit.position_fields(text, form, 4)
        strip = self.strip
        data = self._blank()
        rows = board_text.split("/")
        if len(rows) != strip.width:
            raise PositionError(f"{text!r}: the board has {strip.width} rows, not {len(rows)}")
        for row, row_text in enumerate(rows):
            letter = ROW_LETTERS[row]
            marks: list[str] = []
            what = f"{text!r}: row {letter}'s run of empty squares"
            for token in kit.read_row(row_text, strip.length * strip.width, what):
                if isinstance(token, int):
                    marks.extend("." * token)
                elif token in "RBrbx.":
                    marks.append(token)
                else:
                    raise PositionError(f"{text!r}: row {letter} has {token!r}; rows use R, B, r, b, x and digits")
            if len(marks) != strip.length:
                raise PositionError(f"{text!r}: row {letter} has {len(marks)} squares, not {strip.length}")
            for column, mark in enumerate(marks):
                front = strip.from_picture("F", column, row)
                back = strip.opposite(front)
                if mark == "x":
                    data[layout.BOARD + front] = data[layout.BOARD + back] = layout.SING
                elif mark != ".":
                    colour = LETTERS.index(mark.lower())
                    dot, circle = (front, back) if mark.isupper() else (back, front)
                    data[layout.BOARD + dot] = layout.DOT + colour
                    data[layout.BOARD + circle] = layout.CIRCLE + colour
        side_cap = int(self.spec[layout.S_SIDE_CAP])
        for colour in (0, 1):
            count = int(np.count_nonzero(data[layout.BOARD:layout.BOARD + self.faces] == layout.DOT + colour))
            if count > side_cap:
                raise PositionError(f"{text!r}: {COLOURS[colour]} has {count} pieces; a side starts with "
                                    f"{side_cap} and never gains one")
        if colour_text not in LETTERS:
            raise PositionError(f"{text!r}: the colour to move is {colour_text!r}; expected r or b")
        if not turns_text.isdecimal() or not ply_text.isdecimal():
            raise PositionError(f"{text!r}: the turns and the ply are {turns_text!r} and {ply_text!r}; "
                                f"expected whole numbers")
        turns = whole_number(turns_text, MAX_PLY, f"{text!r}: the turns")
        ply = whole_number(ply_text, MAX_PLY, f"{text!r}: the ply")
        if ply < turns:
            raise PositionError(f"{text!r}: ply {ply} is less than the {turns} turns played; every turn takes a ply")
        limit = int(self.spec[layout.S_TURN_LIMIT])
        if limit and turns > limit:
            raise PositionError(f"{text!r}: {turns} turns is past the limit of {limit} "
                                f"({self.options['move_pair_limit']} move pairs)")
        self._check_against_turns(colour_text, turns, text)
        data[layout.F_COLOUR] = LETTERS.index(colour_text)
        data[layout.F_TURNS] = turns
        data[kernel.PLY] = ply
        end, flags = _END_TOKENS.split(flags)
        for flag in flags:
            pie = self.options["first_player"] == "pie"
            if flag == "swapped" and pie and turns >= 1 and not data[layout.F_SWAPPED]:
                data[layout.F_SWAPPED] = 1
            else:
                raise PositionError(
                    f"{text!r}: unexpected {flag!r}; after the ply come swapped (with first_player=pie, after "
                    f"the first turn), end:no-pieces, end:no-moves or end:limit"
                )
        groups.rebuild(data, self.spec)
        k.settle(data, self.spec)
        actual = int(data[kernel.END_REASON]) if data[kernel.TO_MOVE] < 0 else None
        if actual != end:
            tokens = _END_TOKENS.by_code
            said = f"end:{tokens[end]}" if end is not None else "no end flag"
            rules = f"end:{tokens[actual]}" if actual is not None else "the game goes on"
            raise PositionError(f"{text!r}: the text says {said}, but by the rules {rules}")
        return data

    # -- drawing --------------------------------------------------------------------------------

    def render(self, view: View) -> str:
        """Both boards, front above back, in the seed's marks; each row says where it continues.

        A piece's dot is its colour's capital (``R``, ``B``), its circle on the other board (the
        opposite face, same column and row) the small letter; ``x`` is a singularity. Stepping
        off a board's right end leads to the other board's first column with the rows mirrored.
        """
        return self._drawing(view, ("F", "B"))

    def render_compact(self, view: View) -> str:
        """The front board alone, for a short terminal: a wide strip's two boards overflow 24 lines.

        Nothing is lost between turns: a face and its opposite are one paper square, which is
        empty, singular (both faces, B8 and B9) or holds a dot with its circle behind it, so the
        back board is the front with capitals and small letters swapped. Where that does not hold
        (a view inside a capture chain), both boards are drawn.
        """
        if not self._back_mirrors_front(view.data):
            return self.render(view)
        return self._drawing(view, ("F",))

    def _back_mirrors_front(self, data: np.ndarray) -> bool:
        strip = self.strip
        for column in range(strip.length):
            for row in range(strip.width):
                front = self._mark(data, strip.from_picture("F", column, row))
                behind = front if front in ".x" else front.swapcase()
                if self._mark(data, strip.from_picture("B", column, row)) != behind:
                    return False
        return True

    def _drawing(self, view: View, boards: tuple[str, ...]) -> str:
        data = view.data
        strip = self.strip
        lines = [f"Turn {int(data[layout.F_TURNS])}: Red {int(data[layout.F_COUNT])} pieces, "
                 f"Blue {int(data[layout.F_COUNT + 1])} pieces"]
        # An 80-column terminal holds 31 columns a row; a longer strip is drawn in parts, each
        # board's part ending where the next begins.
        parts = -(-strip.length // MAX_DRAWN_COLUMNS)
        size = -(-strip.length // parts)
        for board in boards:
            title = "Front" if board == "F" else "Back"
            other = "B" if board == "F" else "F"
            for first in range(0, strip.length, size):
                columns = range(first, min(first + size, strip.length))
                if columns.stop >= 10:
                    lines.append(f"{'':6}" + "".join(f"{(c + 1) // 10 if c >= 9 else ' ':>2}" for c in columns))
                lines.append(f"{title:<6}" + "".join(f"{(c + 1) % 10:>2}" for c in columns))
                for row in range(strip.width):
                    marks = " ".join(self._mark(data, strip.from_picture(board, c, row)) for c in columns)
                    if columns.stop == strip.length:
                        onward = f"{other}1{ROW_LETTERS[strip.width - 1 - row]}"
                    else:
                        onward = f"{board}{columns.stop + 1}{ROW_LETTERS[row]}"
                    lines.append(f"{'':4}{ROW_LETTERS[row]}  {marks}  {ROW_LETTERS[row]} -> {onward}")
        if len(boards) == 2:
            lines.append("R B a piece   r b its circle (the piece is on the other board)   x singularity")
        else:
            lines.append("R B a piece (its circle behind)   r b a circle (its piece behind)   x singular")
            lines.append("The back board (B…) is not drawn: B5c is the face behind F5c, marks swapped.")
        return "\n".join(lines)

    # -- cells and clicks (for drawn boards) ----------------------------------------------------

    def cell_names(self) -> tuple[str, ...]:
        return self._face_names

    def cell_contents(self, view: View) -> list[CellContent]:
        """Every face, in face order: a ``dot`` (the piece) or a ``circle`` (the opposite face of a
        piece), colour 0 Red, 1 Blue; singular faces marked ``singularity`` (and ``touched`` once a
        capture chain has walled them this turn)."""
        data = view.data
        swapped = int(data[layout.F_SWAPPED])
        contents = []
        for face, code in enumerate(data[layout.BOARD: layout.BOARD + self.faces].tolist()):
            name = self.face_name(face)
            if code in (layout.SING, layout.WALL):
                marks = {"singularity", "touched"} if code == layout.WALL else {"singularity"}
                contents.append(CellContent(name, (), frozenset(marks)))
            elif code >= layout.DOT:
                colour = (code - layout.DOT) % 2
                kind = "circle" if code >= layout.CIRCLE else "dot"
                contents.append(CellContent(name, (Piece(colour, colour ^ swapped, kind),)))
            else:
                contents.append(CellContent(name))
        return contents

    def turn_counts(self, data: np.ndarray) -> tuple[int, int, int]:
        """Turns played, then Red's and Blue's pieces left."""
        return int(data[layout.F_TURNS]), int(data[layout.F_COUNT]), int(data[layout.F_COUNT + 1])

    def click_steps(self, data: np.ndarray, path: tuple[int, ...]) -> tuple[str, ...]:
        """The piece's face and its leap's target, then each face the turn goes on to: a slide's
        resting face, each further hop of a capture chain (as the move's text lists them); ``swap``."""
        faces, leaps = self.faces, self.steps
        sim = data.copy()
        steps: list[str] = []
        for index, action in enumerate(path):
            phase = int(sim[layout.F_PHASE])
            if action == (leaps + 1) * faces and phase == layout.PHASE_START:
                steps.append("swap")
            elif leaps * faces <= action < (leaps + 1) * faces and phase == layout.PHASE_SLIDE:
                steps.append(self.face_name(action - leaps * faces))
            elif 0 <= action < leaps * faces and phase != layout.PHASE_SLIDE:
                source = action // leaps
                target = int(self.spec[int(self.spec[layout.S_KNIGHT]) + action])
                if target < 0 or (phase == layout.PHASE_CHAIN and source != int(sim[layout.F_CUR])):
                    return ()
                if phase == layout.PHASE_START:
                    steps.append(self.face_name(source))
                steps.append(self.face_name(target))
            else:
                return ()
            if index < len(path) - 1:  # the steps before the last are a legal beginning of the turn
                k.apply(sim, self.spec, action)
        return tuple(steps)

    def click_text(self, data: np.ndarray, steps: tuple[str, ...]) -> str:
        """The faces clicked, joined as a move's path (``F1a-F3b-F5c``)."""
        return "-".join(steps)
