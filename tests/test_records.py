"""Game records: JSON round trips, replay on load, and clear rejections of bad records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardlab
from boardlab import records
from tests.golden.make_golden import golden_records

GOLDEN = Path(__file__).parent / "golden"


def finished_game() -> boardlab.State:
    state = boardlab.load("ndengrod").new_game()
    for move in "d3 c5 g5 e3 c4 e5 d5 f4 e6 f5 f7 g7 g8".split():
        state = state.play(move)
    return state


def record_dict(**changes: object) -> dict:
    data = records.GameRecord.from_state(finished_game(), players=["ann", "bob"]).to_dict()
    data.update(changes)
    return data


def test_a_record_holds_everything_needed_to_replay() -> None:
    record = records.GameRecord.from_state(finished_game(), players=["ann", "bob"], seed=7)
    assert record.game == "ndengrod"
    assert record.rules_version == boardlab.info("ndengrod").rules_version
    assert record.options["size"] == 5 and len(record.options) == len(boardlab.info("ndengrod").options)
    assert record.moves[-1] == "g8" and len(record.moves) == 13
    assert record.result == [1.0, 0.0] and record.termination == "rules"
    assert record.start is None and record.seed == 7 and record.finished is not None


def test_dump_and_load_through_a_file(tmp_path: Path) -> None:
    record = records.GameRecord.from_state(finished_game(), players=["ann", "bob"])
    path = tmp_path / "game.json"
    records.dump(record, path)
    loaded = records.load(path)
    assert loaded == record
    assert loaded.replay() == finished_game()
    assert not list(tmp_path.glob("*.tmp"))


def test_a_game_from_a_set_up_position_keeps_its_start() -> None:
    game = boardlab.load("ndengrod", size=3)
    state = game.from_text("1x1/xx2/5/2oo/1o1 x 10").play("c3")
    record = records.GameRecord.from_state(state)
    assert record.start == "1x1/xx2/5/2oo/1o1 x 10"
    assert records.loads(records.dumps(record)).replay() == state


@pytest.mark.parametrize("changes, message", [
    ({"moves": ["d3", "d3"]}, r"move 2 \('d3'\): d3: d3 is occupied"),
    ({"moves": ["d3", "zz"]}, r"move 2 \('zz'\): 'zz' is not a move"),
    ({"result": [0.0, 1.0]}, r"result \[0.0, 1.0\] does not match the replay: \[1.0, 0.0\]"),
    ({"result": None}, "the moves end the game .* but the record has no result"),
    ({"rules_version": "0"}, "made under ndengrod rules version '0'; this boardlab implements version '1'"),
    ({"options": {"size": 99}}, "record options: ndengrod: option size=99 is out of range"),
    ({"game": "chess"}, "record options: unknown game 'chess'"),
    ({"players": ["solo"]}, "names 1 players; ndengrod has 2"),
    ({"format": "pgn"}, "unknown record format 'pgn'"),
    ({"moves": "d3 c5"}, "'moves' is missing or not a list"),
    ({"colour": "red"}, "unknown record field 'colour'"),
    ({"start": "nonsense"}, "start position: 'nonsense': expected"),
])
def test_bad_records_are_rejected_with_the_reason(changes: dict, message: str) -> None:
    with pytest.raises(boardlab.RecordError, match=message):
        records.from_dict(record_dict(**changes))


def test_a_result_by_resignation_stands_without_the_rules_ending_the_game() -> None:
    data = record_dict(moves=["d3", "c5"], result=[0.0, 1.0], termination="resignation")
    assert records.from_dict(data).result == [0.0, 1.0]


def test_malformed_json_and_missing_files_are_record_errors(tmp_path: Path) -> None:
    with pytest.raises(boardlab.RecordError, match="not JSON"):
        records.loads("{moves: [")
    with pytest.raises(boardlab.RecordError, match="a record is a JSON object"):
        records.loads("[1, 2]")
    with pytest.raises(boardlab.RecordError, match="cannot read"):
        records.load(tmp_path / "missing.json")


@pytest.mark.parametrize("path", golden_records(), ids=lambda p: p.stem)
def test_golden_records_replay_to_their_recorded_end(path: Path) -> None:
    """Complete games stored in tests/golden: any change to the rules that alters them fails here."""
    record = records.load(path)
    final = record.replay()
    assert final.is_over
    assert list(final.result or ()) == record.result
    assert final.to_text() == record.tags["final_position"]
    assert final.end_reason == record.tags["end_reason"]


def test_there_are_golden_records_for_every_game() -> None:
    stored = {json.loads(p.read_text())["game"] for p in golden_records()}
    assert stored >= {info.id for info in boardlab.games()}


@pytest.mark.parametrize("changes, message", [
    ({"result": [1, "x"]}, "result \\[1, 'x'\\] is not accepted; accepted: a list of 0, 0.5 or 1"),
    ({"result": 1}, "result 1 is not accepted"),
    ({"start": 5}, "'start' must be a string or null"),
    ({"players": [1, 2]}, "players must all be names"),
    ({"seed": "seven"}, "'seed' must be an integer or null"),
    ({"tags": {"a": 1}}, "'tags' must map names to strings"),
])
def test_mistyped_record_fields_are_refused(changes: dict, message: str) -> None:
    with pytest.raises(boardlab.RecordError, match=message):
        records.from_dict(record_dict(**changes))


def test_a_record_cannot_be_made_with_the_wrong_number_of_players() -> None:
    with pytest.raises(boardlab.RecordError, match="1 players named; ndengrod with these options has 2 seats"):
        records.GameRecord.from_state(finished_game(), players=["solo"])


def test_a_binary_file_is_not_a_record(tmp_path: Path) -> None:
    path = tmp_path / "image.json"
    path.write_bytes(b"\x89PNG\xff\xfe")
    with pytest.raises(boardlab.RecordError, match="not a text file"):
        records.load(path)


# -- records that cannot lie (issue 11) ------------------------------------------------------------

UNFINISHED = {"moves": ["d3", "c5"], "result": None, "termination": None, "finished": None}


@pytest.mark.parametrize("changes, message", [
    ({**UNFINISHED, "termination": "abandoned", "result": [1, 0]}, "termination 'abandoned' is not accepted"),
    ({**UNFINISHED, "termination": "\x1b[2J", "result": [1, 0]}, "is not accepted; accepted: rules, resignation"),
    ({**UNFINISHED, "termination": "resignation", "result": None}, "scores 0 for the seat that lost"),
    ({**UNFINISHED, "termination": "resignation", "result": [1, 1]}, "scores 0 for the seat that lost"),
    ({**UNFINISHED, "termination": "resignation", "result": [0, 0]}, "scores 0 for the seat that lost"),
    ({**UNFINISHED, "termination": "timeout", "result": [1.0, 0.5]}, "scores 0 for the seat that lost"),
    ({**UNFINISHED, "termination": "resignation", "result": [0, 1, 1]}, "one score per seat"),
    ({**UNFINISHED, "termination": "resignation", "result": [0, 1], "tags": {"loser": "seat 1"}},
     "says seat 1 lost by resignation, but its result \\[0, 1\\] has seat 0 lose"),
    ({**UNFINISHED, "termination": "agreement", "result": [1, 0]}, "ended by agreement is a draw"),
    ({**UNFINISHED, "termination": "rules"}, "the rules ended the game but gives no result"),
    ({**UNFINISHED, "tags": {"loser": "seat 0"}}, "names a loser"),
    ({"termination": "resignation", "result": [0, 1]}, "the moves end the game by the rules .* says it ended by"),
    ({"termination": "agreement", "result": [0.5, 0.5]}, "the moves end the game by the rules"),
])
def test_a_record_whose_outcome_lies_is_refused(changes: dict, message: str) -> None:
    with pytest.raises(boardlab.RecordError, match=message):
        records.from_dict(record_dict(**changes))


@pytest.mark.parametrize("changes", [
    {**UNFINISHED, "termination": "resignation", "result": [1, 0], "tags": {"loser": "seat 1"}},
    {**UNFINISHED, "termination": "timeout", "result": [0.0, 1.0]},
    {**UNFINISHED, "termination": "agreement", "result": [0.5, 0.5]},
    {**UNFINISHED},
])
def test_every_honest_ending_loads(changes: dict) -> None:
    assert records.from_dict(record_dict(**changes)).termination == changes["termination"]


def test_a_players_view_record_is_checked_too() -> None:
    view = records.GameRecord.from_view(boardlab.load("hmdg").new_game().play("e5").view(1))
    data = {**view.to_dict(), "termination": "walkover", "result": [1, 0]}
    with pytest.raises(boardlab.RecordError, match="termination 'walkover' is not accepted"):
        records.from_dict(data)


def test_a_failed_save_leaves_no_tmp_and_the_old_record_whole(tmp_path: Path) -> None:
    record = records.GameRecord.from_state(finished_game())
    path = tmp_path / "game.json"
    records.dump(record, path)
    before = path.read_text()
    (tmp_path / "game.json.tmp").mkdir()  # the temporary file cannot be written
    with pytest.raises(OSError):
        records.dump(records.GameRecord.from_state(boardlab.load("ndengrod").new_game()), path)
    assert path.read_text() == before
