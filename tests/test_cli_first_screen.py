"""The terminal for a newcomer: the first screen says which side you play and how moves are written
(Mynd's notation before any mistake), Ctrl-C while the computer thinks offers to save the game, a
very long typed move is repeated by its beginning only, and ``boardlab replay`` says who won in words."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import boardlab
from boardlab import records
from boardlab.ai import RandomAgent
from boardlab.cli.play import PlaySession
from boardlab.core.registry import game_ids
from boardlab.errors import IllegalMove
from tests.test_cli import Script


def first_screen(game_id: str, seat: int = 0, **options: object) -> str:
    game = boardlab.load(game_id, **options)
    script = Script([])
    agents = {other: RandomAgent(seed=other) for other in range(game.num_seats) if other != seat}
    players = ["me" if s == seat else "random" for s in range(game.num_seats)]
    PlaySession(game.new_game(), {seat}, agents, players, read=script.read, write=script.write).run()
    return re.split(r"\n\w+> ", script.text)[0]  # up to the first prompt


def test_the_first_screen_says_which_side_you_play_and_how_moves_are_written() -> None:
    screen = first_screen("ndengrod", seat=1)
    assert "You play o (seat 1), against random (x)." in screen
    mynd = first_screen("mynd", players=3)
    assert "You play black (seat 0), against random (white) and random (red)." in mynd
    joined = " ".join(mynd.split())  # the notation is wrapped at 80 columns
    for words in ("d4-d6^", "^ up", "B W R G", "* marks a starting peg"):
        assert words in joined, words
    assert "Not played" not in mynd  # explained before any mistake


@pytest.mark.parametrize("game_id", game_ids())
def test_a_long_typed_move_is_repeated_by_its_beginning(game_id: str) -> None:
    typed = "z" * 5000
    with pytest.raises(IllegalMove) as refused:
        boardlab.load(game_id).new_game().play(typed)
    message = str(refused.value)
    assert "(5000 characters)" in message and "z" * 41 not in message and len(message) < 700


def test_ctrl_c_while_the_computer_thinks_offers_to_save(tmp_path: Path) -> None:
    saved = tmp_path / "kept.json"
    process = subprocess.Popen([sys.executable, "-m", "boardlab", "play", "ndengrod", "--level", "5", "--seed", "3"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "1"},
                               # A job started in the background by a shell (as CI may be) inherits SIGINT
                               # ignored, and Python then never raises KeyboardInterrupt: give the child
                               # the default, as a terminal would.
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdin is not None and process.stdout is not None
    try:
        seen = ""
        while "Type a move" not in seen:
            line = process.stdout.readline()
            assert line, seen
            seen += line
        process.stdin.write("e5\n")
        process.stdin.flush()
        while "Last move: x e5" not in seen:
            seen += process.stdout.readline()
        time.sleep(1.0)  # level 5 searches four seconds: it is thinking now
        process.send_signal(signal.SIGINT)
        process.stdin.write(f"{saved}\n")
        process.stdin.flush()
        out, _ = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert "Save the game first?" in out and f"Saved to {saved}." in out, out[-800:]
    assert process.returncode == 0
    record = records.load(saved)
    assert record.moves == ["e5"] and record.result is None


def test_replay_says_how_the_game_ended_in_words(tmp_path: Path) -> None:
    state = boardlab.load("ndengrod", size=3, length=3).new_game().play("b2").play("a1")
    record = records.GameRecord.from_state(state, players=["ann", "bob"])
    record.result, record.termination, record.tags["loser"] = [1.0, 0.0], "resignation", "seat 1"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record.to_dict()), encoding="utf-8")
    shown = subprocess.run([sys.executable, "-m", "boardlab", "replay", "--all", str(path)], capture_output=True,
                           text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert "Result: ann (x) won (bob (o) resigned)." in shown.stdout, shown.stdout[:500]
