"""Game records: the source of truth for replay, undo, spectating, analytics and regression tests.

A :class:`GameRecord` holds the game id, its rules version, every option, the players, the moves in
canonical notation, the result, and dates, like a PGN header and move list. It is stored as JSON.
Loading a record replays every move, so a record that loads is a game that happened:

>>> import boardlab
>>> from boardlab.records import GameRecord
>>> state = boardlab.load("ndengrod", size=3, length=3).new_game().play("b2").play("a1")
>>> record = GameRecord.from_state(state, players=["ann", "bob"])
>>> record.moves
['b2', 'a1']
>>> again = boardlab.records.loads(boardlab.records.dumps(record))
>>> again.replay() == state
True
>>> bad = boardlab.records.dumps(record).replace('"a1"', '"b2"')
>>> boardlab.records.loads(bad)
Traceback (most recent call last):
...
boardlab.errors.RecordError: move 2 ('b2'): b2: b2 is occupied

Under hidden information the referee's record above holds every secret. A record given to a player
is made from that player's view instead (:meth:`GameRecord.from_view`): the moves as that seat knows
them, marked with its ``perspective``. It does not replay (the secrets needed are not in it):

>>> view_record = GameRecord.from_view(state.view(1), players=["ann", "bob"])
>>> view_record.perspective, view_record.moves
('seat 1', ['b2', 'a1'])
"""

from __future__ import annotations

import contextlib
import errno
import json
import re
from collections.abc import Collection
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from boardlab.core.game import Game
from boardlab.core.options import OptionValue
from boardlab.core.registry import load as load_game
from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.errors import BoardlabError, RecordError
from boardlab.outcome import outcome_sentence

FORMAT = "boardlab-record/1"
RULES_TERMINATION = "rules"
# How a game can end, as the server writes it: by the rules, a seat resigning or running out of
# time (the record names it in the tag ``loser``: ``"seat 1"``), or all agreeing to a draw.
TERMINATIONS = (RULES_TERMINATION, "resignation", "timeout", "agreement")
LOSER_TAG = "loser"


def now() -> str:
    """The current time as an ISO 8601 UTC string, as records store dates."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass
class GameRecord:
    """One game: enough to replay it exactly.

    ``start`` is the position text the game began from, if not the standard start. ``termination``
    is ``"rules"`` when the rules ended the game (the result must then match the replay), or how it
    ended otherwise: ``"resignation"`` or ``"timeout"`` (the losing seat scores 0, every other 1; the
    tag ``loser`` may name it, ``"seat 1"``) or ``"agreement"`` (a draw, ½ each). A record whose
    moves end the game carries exactly the rules' result, whatever its termination says.

    ``perspective`` is ``None`` for the referee's full record, which replays. A record made from a
    view says whose: ``"seat 0"``, ``"seat 1"``… or ``"spectator"``; its moves are as that seat knew
    them (another player's secret shown only in its public form), and ``start`` is that seat's view
    of the first position. It is a player's private record, and cannot be replayed.
    """

    game: str
    rules_version: str
    options: dict[str, OptionValue]
    players: list[str]
    moves: list[str]
    result: list[float] | None = None
    termination: str | None = None
    start: str | None = None
    seed: int | None = None
    started: str | None = None
    finished: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    perspective: str | None = None

    @classmethod
    def from_state(
        cls,
        state: State,
        players: list[str] | None = None,
        seed: int | None = None,
        started: str | None = None,
        tags: dict[str, str] | None = None,
    ) -> GameRecord:
        """The record of the moves that led to ``state`` (from its root position)."""
        root = state.root
        return cls._made(state.game, players, seed, started, tags, moves=[m.text for m in state.history()],
                         result=state.result, start=None if root == state.game.new_game() else root.to_text())

    @classmethod
    def from_view(
        cls,
        view: View,
        players: list[str] | None = None,
        seed: int | None = None,
        started: str | None = None,
        tags: dict[str, str] | None = None,
    ) -> GameRecord:
        """The record that ``view``'s seat may keep: its view of the moves, from its first position."""
        game = view.game
        root = view
        while root.previous is not None:
            root = root.previous
        standard = root.to_text() == game.new_game().view(view.seat).to_text()
        record = cls._made(game, players, seed, started, tags, moves=[m.text for m in view.history()],
                           result=view.result, start=None if standard else root.to_text())
        record.perspective = perspective_name(view.seat)
        return record

    @classmethod
    def known_to(
        cls,
        state: State,
        seat: int | None,
        known: Collection[int],
        players: list[str] | None = None,
        seed: int | None = None,
        started: str | None = None,
        tags: dict[str, str] | None = None,
    ) -> GameRecord:
        """The record of the moves that led to ``state`` for someone who sees the game as ``seat`` does
        (``None``: a spectator) and may also know the secrets of the seats in ``known`` (seats they hold,
        seats whose secrets the rules revealed): the referee's full record (:meth:`from_state`) when that
        covers every secret the moves hold, else ``seat``'s record (:meth:`from_view`) in which the secret
        moves of the seats in ``known`` are written in full."""
        view = state.view(seat)
        # A move whose public form has lost its path holds a secret (Game.public_move): written in full
        # where its mover's secrets are known, in its public form elsewhere.
        moves = [(shown.text, move.text, shown.path != move.path, mover in known)
                 for shown, move, mover in zip(view.history(), state.history(), movers(state), strict=True)]
        if not any(secret and not knows for _, _, secret, knows in moves):
            return cls.from_state(state, players, seed, started, tags)
        record = cls.from_view(view, players, seed, started, tags)
        record.moves = [full if secret and knows else shown for shown, full, secret, knows in moves]
        return record

    @classmethod
    def _made(cls, game: Game, players: list[str] | None, seed: int | None, started: str | None,
              tags: dict[str, str] | None, moves: list[str], result: tuple[float, ...] | None,
              start: str | None) -> GameRecord:
        if players is not None and len(players) != game.num_seats:
            raise RecordError(f"{len(players)} players named; {game.id} with these options has {game.num_seats} seats")
        over = result is not None
        return cls(
            game=game.id,
            rules_version=game.rules_version,
            options=dict(game.options),
            players=list(players) if players else [game.seat_name(s) for s in range(game.num_seats)],
            moves=moves,
            result=list(result) if result is not None else None,
            termination=RULES_TERMINATION if over else None,
            start=start,
            seed=seed,
            started=started,
            finished=now() if over else None,
            tags=dict(tags or {}),
        )

    def replay(self) -> State:
        """Play the record's moves and return the final state; :class:`RecordError` if they fail."""
        if self.perspective is not None:
            raise RecordError(
                f"this is {self.perspective}'s record of the game, holding only what that seat knew; "
                f"it cannot be replayed (replay the referee's full record)"
            )
        try:
            game = load_game(self.game, **cast(dict[str, Any], self.options))
        except BoardlabError as error:
            raise RecordError(f"record options: {error}") from None
        if self.rules_version != game.rules_version:
            raise RecordError(
                f"the record was made under {self.game} rules version {self.rules_version!r}; "
                f"this boardlab implements version {game.rules_version!r}"
            )
        if len(self.players) != game.num_seats:
            raise RecordError(f"the record names {len(self.players)} players; {self.game} has {game.num_seats}")
        try:
            state = game.from_text(self.start) if self.start else game.new_game()
        except BoardlabError as error:
            raise RecordError(f"start position: {error}") from None
        for number, text in enumerate(self.moves, start=1):
            try:
                state = state.play(text)
            except BoardlabError as error:
                raise RecordError(f"move {number} ({text!r}): {error}") from None
        self._check_result(state)
        return state

    def _check_result(self, state: State) -> None:
        check_outcome(self, state.game.num_seats)
        by_rules = self.termination in (None, RULES_TERMINATION)
        if not by_rules and state.is_over:
            raise RecordError(f"the moves end the game by the rules ({state.describe()}); the record says it "
                              f"ended by {self.termination}")
        if not by_rules:
            return
        actual = list(state.result) if state.result is not None else None
        if self.result is not None and actual != [float(x) for x in self.result]:
            replayed = actual if actual is not None else "no result (the game is not over)"
            raise RecordError(f"the record's result {self.result} does not match the replay: {replayed}")
        if self.result is None and actual is not None:
            raise RecordError(f"the moves end the game ({state.describe()}) but the record has no result")
        if self.result is None and self.termination == RULES_TERMINATION:
            raise RecordError("the record says the rules ended the game but gives no result (they did not)")

    def outcome(self, final: State | None = None) -> str | None:
        """How the game ended, in one sentence (:func:`boardlab.outcome.outcome_sentence`); ``None``
        while it is unfinished. ``final``: the replayed last position, if at hand (the seats' labels
        and the rules' reason come from it; a seat's record, which does not replay, uses the seats'
        names at the start)."""
        if self.result is None:
            return None
        if final is None and self.perspective is None:
            final = self.replay()
        if final is not None:
            labels = [final.seat_label(seat) for seat in range(len(self.result))]
            reason = final.end_reason if self.termination in (None, RULES_TERMINATION) else None
        else:
            game = load_game(self.game, **cast(dict[str, Any], self.options))
            labels = [game.seat_name(seat) for seat in range(len(self.result))]
            reason = None
        loser_text = self.tags.get(LOSER_TAG, "")
        loser = int(loser_text.split()[-1]) if re.fullmatch(r"seat \d+", loser_text) else (
            self.result.index(0) if self.termination in ("resignation", "timeout") and 0 in self.result else None)
        return outcome_sentence(self.result, self.termination, self.players, labels, loser, reason)

    def to_dict(self) -> dict[str, Any]:
        data = {"format": FORMAT, **asdict(self)}
        if self.perspective is None:
            del data["perspective"]  # the referee's record: the same fields as before views existed
        return data


def check_outcome(record: GameRecord, seats: int | None) -> None:
    """The termination, result and loser agree with each other (and with ``seats`` scores, if known)."""
    result, termination = record.result, record.termination
    if termination is not None and termination not in TERMINATIONS:
        raise RecordError(f"the record's termination {termination!r} is not accepted; accepted: "
                          f"{', '.join(TERMINATIONS)} (or null while the game is unfinished)")
    if result is not None:
        if not isinstance(result, list) or not all(type(x) in (int, float) and x in (0, 0.5, 1) for x in result):
            raise RecordError(f"the record's result {result!r} is not accepted; accepted: a list of 0, 0.5 or 1 "
                              f"per seat, or null while the game is unfinished")
        if seats is not None and len(result) != seats:
            raise RecordError(f"the result {result} does not give one score per seat ({seats})")
    loser_text = record.tags.get(LOSER_TAG)
    if termination in ("resignation", "timeout"):
        if result is None or sorted(result)[1:] != [1] * (len(result) - 1) or 0 not in result:
            raise RecordError(f"a game lost by {termination} scores 0 for the seat that lost and 1 for every other; "
                              f"the record's result is {result}")
        loser = result.index(0)
        if loser_text is not None and loser_text != perspective_name(loser):
            raise RecordError(f"the record says {loser_text} lost by {termination}, but its result {result} "
                              f"has seat {loser} lose")
    elif loser_text is not None:
        raise RecordError(f"the record names a loser ({loser_text}) but the game did not end by resignation "
                          f"or timeout")
    if termination == "agreement" and (result is None or any(x != 0.5 for x in result)):
        raise RecordError(f"a game ended by agreement is a draw, ½ to each seat; the record's result is {result}")


def movers(state: State) -> list[int]:
    """The seat that made each move of ``state``'s history, in one walk back through its positions."""
    seats: list[int] = []
    walk = state.previous
    while walk is not None:
        assert walk.to_move is not None
        seats.append(walk.to_move)
        walk = walk.previous
    return seats[::-1]


def perspective_name(seat: int | None) -> str:
    """How a record names the seat it was made for: ``"seat 0"``…, or ``"spectator"`` for ``None``."""
    return "spectator" if seat is None else f"seat {seat}"


_FIELDS = {
    "game": str, "rules_version": str, "options": dict, "players": list, "moves": list,
}


def from_dict(data: Any) -> GameRecord:
    """A record from its JSON object, replayed to check it (:class:`RecordError` if it fails)."""
    return read(data)[0]


def read(data: Any) -> tuple[GameRecord, State | None]:
    """A record from its JSON object, and the final position its replay reached (``None`` for a record
    made from a view, which does not replay): :func:`from_dict` for a caller that needs the position
    too, so that the record is replayed once."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"unknown record format {data.get('format')!r}; accepted: {FORMAT}")
    for name, kind in _FIELDS.items():
        if not isinstance(data.get(name), kind):
            raise RecordError(f"the record's {name!r} is missing or not a {kind.__name__}")
    if not all(isinstance(move, str) for move in data["moves"]):
        raise RecordError("the record's moves must all be strings in the game's notation")
    if not all(isinstance(player, str) for player in data["players"]):
        raise RecordError("the record's players must all be names (strings)")
    for name in ("termination", "start", "started", "finished", "perspective"):
        if data.get(name) is not None and not isinstance(data[name], str):
            raise RecordError(f"the record's {name!r} must be a string or null")
    if data.get("seed") is not None and (not isinstance(data["seed"], int) or isinstance(data["seed"], bool)):
        raise RecordError("the record's 'seed' must be an integer or null")
    tags = data.get("tags", {})
    if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
        raise RecordError("the record's 'tags' must map names to strings")
    result = data.get("result")
    if result is not None and not (
        isinstance(result, list) and all(type(x) in (int, float) and x in (0, 0.5, 1) for x in result)
    ):
        raise RecordError(f"the record's result {result!r} is not accepted; accepted: a list of 0, 0.5 or 1 "
                          f"per seat, or null while the game is unfinished")
    known = {name for name in GameRecord.__dataclass_fields__}
    extra = sorted(set(data) - known - {"format"})
    if extra:
        raise RecordError(f"unknown record field {extra[0]!r}; accepted: {', '.join(sorted(known))}")
    record = GameRecord(**{name: value for name, value in data.items() if name != "format"})
    if record.perspective is None:
        return record, record.replay()
    if not isinstance(record.perspective, str) or not re.fullmatch(r"seat \d+|spectator", record.perspective):
        raise RecordError(f"the record's perspective {record.perspective!r} is not accepted; accepted: "
                          f"'seat 0', 'seat 1', … or 'spectator' (or none, for the referee's full record)")
    check_outcome(record, len(record.players))
    return record, None


def loads(text: str) -> GameRecord:
    """Read a record from JSON text and replay it."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error}") from None
    except RecursionError:
        raise RecordError("not a record: its JSON is nested too deeply") from None
    except ValueError:  # a number of over 4300 digits, which int() refuses
        raise RecordError("not a record: it holds a number too long to read") from None
    return from_dict(data)


def dumps(record: GameRecord) -> str:
    """The record as JSON text."""
    return json.dumps(record.to_dict(), indent=2, ensure_ascii=False) + "\n"


def load(path: str | Path) -> GameRecord:
    """Read and replay the record stored at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file (a record is UTF-8 JSON)") from None
    return loads(text)


def dump(record: GameRecord, path: str | Path) -> None:
    """Write ``record`` to ``path`` through a temporary file renamed over it, so that a crash while
    writing leaves the previous version whole rather than half a record."""
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "Is a directory", str(target))
    temporary = target.with_name(target.name + ".tmp")
    text = dumps(record)
    try:
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)  # never leave PATH.tmp behind a failed save
        raise
