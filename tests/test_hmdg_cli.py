"""Terminal play of HMDG: against the computer, and two people handing over one keyboard."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import boardlab
from boardlab import records
from boardlab.ai import RandomAgent
from boardlab.cli.main import main
from boardlab.cli.play import PlaySession
from tests.test_cli import Script

POINTS = [f"{row}{col}" for row in "abcdefghj" for col in range(1, 10)]


@pytest.fixture(autouse=True)
def own_config_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The key that signs hot-seat saves lives here, not in the real config folder."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def two_people(lines: list[str], **options: object) -> tuple[PlaySession, Script]:
    script = Script(lines)
    state = boardlab.load("hmdg", **options).new_game()
    return PlaySession(state, {0, 1}, {}, ["ann", "bob"], read=script.read, write=script.write), script


def boards_seen_by(script: Script, label: str) -> list[str]:
    """Every board drawn while the player called ``label`` had the keyboard."""
    shown, holder = [], None
    for text in script.output:
        if text.startswith("Pass the keyboard to "):
            holder = text.split()[4]
        elif "  A " in text and holder == label:
            shown.append(text)
    return shown


def test_a_game_against_the_computer_plays_to_the_end() -> None:
    script = Script(["e5"] + [line for point in POINTS for line in (f"{point}/row", "none", "pass")] * 4)
    state = boardlab.load("hmdg").new_game()
    session = PlaySession(state, {0}, {1: RandomAgent(seed=3)}, ["me", "random"], read=script.read,
                          write=script.write)
    assert session.run() == 0
    assert session.state.is_over
    assert "Game over:" in script.text
    assert "Pass the keyboard" not in script.text  # one person: nothing to hide from anybody


def test_two_people_hand_over_the_keyboard_and_never_see_each_others_hidden_stones() -> None:
    session, script = two_people(["", "e5", "", "x", "", "c4/row", "", "none", "c4/col", "", "none", "quit"])
    session.run()
    text = script.text
    assert text.count("Pass the keyboard to") == 5
    assert "Pass the keyboard to B (seat 1) and press Enter" in text
    assert "Pass the keyboard to o (seat 0) and press Enter" in text
    assert "\n" * 40 in text  # the screen is cleared before each hand-over
    # o (seat 0) landed a hidden stone on c4; then x (seat 1), not knowing, stacked its own there.
    rows_c = {label: [line for board in boards_seen_by(script, label) for line in board.splitlines()
                      if line.startswith("  C ")] for label in ("x", "o")}
    assert len(rows_c["x"]) >= 2 and all(set(line[4:].split()) <= {".", "*"} for line in rows_c["x"])
    assert rows_c["o"][-1] == "  C   .  .  .  o  .  .  .  .  ."
    assert "Last move: x announced col 4" in text  # o sees x's commit only as its line
    assert session.state.to_text().split()[0].split("/")[2] == "3(xo)5"


def test_undo_is_off_and_log_shows_the_seats_own_record() -> None:
    session, script = two_people(["", "e5", "", "x", "", "c4/row", "", "none", "log", "undo", "quit"])
    session.run()
    assert "undo is off in games with hidden information" in script.text
    assert "   1. A e5\n   2. B x\n   3. o row c\n   4. x none: placed hidden" in script.text
    assert session.state.ply == 4


def test_play_command_saves_the_referees_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    lines = iter(["e5", "help", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "hmdg", "--seed", "2", "--save", str(path)]) == 0
    record = records.load(path)
    assert record.moves[0] == "e5" and record.perspective is None
    assert record.replay().ply == len(record.moves)


def random_game(finish: bool, seed: int = 3) -> boardlab.State:
    import random

    rng = random.Random(seed)
    state = boardlab.load("hmdg", size=9).new_game()
    while not state.is_over and (finish or state.ply < 30):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def hidden_stones(state: boardlab.State) -> dict[str, str]:
    """The referee's hidden stones: point name to the seat label of its owner."""
    view = boardlab.View.unveiled(state, state) if state.is_over else None
    assert view is not None
    return {cell.name: state.seat_label(piece.seat) for cell in state.game.cell_contents(view)
            for piece in cell.pieces if piece.kind == "hidden" and piece.seat is not None}


def test_replay_of_a_finished_game_shows_every_stone_and_when_each_hidden_one_was_placed() -> None:
    from boardlab.cli.replay import replay_session

    final = random_game(finish=True)
    hidden = hidden_stones(final)
    assert hidden, "the seed's game should end with hidden stones on the board"
    script = Script([])
    replay_session(records.GameRecord.from_state(final), step=False, read=script.read, write=script.write)
    last = script.text.rsplit("Ply ", 1)[1]
    assert "every stone shown: the game is over" in last
    assert str(final.view(None)) not in last  # the spectator's board hid them
    listed = last.split("Hidden stones, with the ply each was placed at: ")[1].replace("\n", " ")
    for name, label in hidden.items():
        assert f"{label} {name} (ply " in listed
    # Each stone's ply is the first position of the game that holds it.
    name, label = next(iter(hidden.items()))
    ply = int(listed.split(f"{label} {name} (ply ")[1].split(")")[0])
    line: list[boardlab.State] = []
    walk: boardlab.State | None = final
    while walk is not None:
        line.append(walk)
        walk = walk.previous
    holders = [s.ply for s in line if name in hidden_stones_at(s, final)]
    assert min(holders) == ply


def hidden_stones_at(state: boardlab.State, final: boardlab.State) -> set[str]:
    view = boardlab.View.unveiled(state, final)
    return {cell.name for cell in state.game.cell_contents(view) for piece in cell.pieces}


def test_a_game_in_progress_is_never_unveiled() -> None:
    state = random_game(finish=False)
    with pytest.raises(boardlab.BoardlabError, match="not over"):
        boardlab.View.unveiled(state, state)

def _saved_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict]:
    path = tmp_path / "game.json"
    lines = iter(["e5", "x", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "hmdg", "--seed", "2", "--save", str(path)]) == 0
    return path, json.loads(path.read_text())


def test_a_hot_seat_save_is_signed_with_a_private_key_and_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, data = _saved_game(tmp_path, monkeypatch)
    assert len(data["tags"]["digest"]) == 64
    key = tmp_path / "config" / "boardlab" / "record-key"
    assert key.stat().st_mode & 0o777 == 0o600
    lines = iter(["log", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "hmdg", "--resume", str(path)]) == 0


@pytest.mark.parametrize("tamper", ["edit", "drop digest", "other key"])
def test_an_edited_hidden_move_is_detected_on_resume(
    tamper: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, data = _saved_game(tmp_path, monkeypatch)
    if tamper == "edit":  # the last move replaced by another legal one: the record itself still replays
        state = records.from_dict(data).replay().previous
        assert state is not None
        data["moves"][-1] = next(m.text for m in state.legal_moves() if m.text != data["moves"][-1])
        data["result"], data["termination"], data["finished"] = None, None, None
        records.from_dict(data)
    elif tamper == "drop digest":
        del data["tags"]["digest"]
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "elsewhere"))
    path.write_text(json.dumps(data))
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("a tampered game resumed"))
    assert main(["play", "hmdg", "--resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert "digest" in err and len(err.strip().splitlines()) == 1


def test_replay_warns_that_an_edited_signed_save_was_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path, data = _saved_game(tmp_path, monkeypatch)
    capsys.readouterr()
    assert main(["replay", "--all", str(path)]) == 0
    assert "Warning" not in capsys.readouterr().out  # an untouched save replays without a word
    state = records.from_dict(data).replay().previous
    assert state is not None
    data["moves"][-1] = next(m.text for m in state.legal_moves() if m.text != data["moves"][-1])
    path.write_text(json.dumps(data))
    assert main(["replay", "--all", str(path)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("Warning:") and "changed after it was saved" in first
