"""The command line: play (scripted input), replay, games, rules, bench, and its error handling."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import boardlab
from boardlab import records
from boardlab.ai import RandomAgent
from boardlab.cli.main import main
from boardlab.cli.play import PlaySession
from boardlab.cli.replay import replay_session


class Script:
    """Feeds lines to a session as if typed; EOF when they run out. Collects what it writes."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.output: list[str] = []

    def read(self, prompt: str) -> str:
        self.output.append(prompt)
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None

    def write(self, text: str) -> None:
        self.output.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.output)


def session(lines: list[str], opponent: bool = True, **options: object) -> tuple[PlaySession, Script]:
    script = Script(lines)
    state = boardlab.load("ndengrod", **options).new_game()
    agents = {1: RandomAgent(seed=1)} if opponent else {}
    humans = {0} if opponent else {0, 1}
    play = PlaySession(state, humans, agents, ["me", "random"], read=script.read, write=script.write)
    return play, script


def test_a_move_shows_the_board_the_last_move_and_whose_turn() -> None:
    play, script = session(["d3", "quit"])
    assert play.run() == 0
    assert "Last move: x d3" in script.text
    assert "x to move (seat 0), ply 2." in script.text
    assert play.state.ply == 2 and play.state.history()[0].text == "d3"


def test_illegal_and_malformed_entries_are_explained_and_asked_again() -> None:
    play, script = session(["zz", "e5", "e5", "quit"], opponent=False)
    play.run()
    assert "Not played: 'zz' is not a move" in script.text
    assert "Not played: e5: e5 is occupied" in script.text
    assert play.state.ply == 1


def test_moves_lists_the_legal_moves() -> None:
    play, script = session(["moves", "quit"], size=2, length=3)
    play.run()
    assert "a1 a2 b1 b2 b3 c2 c3" in script.text


def test_undo_takes_back_my_move_and_the_reply() -> None:
    play, script = session(["d3", "undo", "undo", "quit"])
    play.run()
    assert play.state.ply == 0
    assert "Took back to ply 0." in script.text
    assert "Nothing to undo." in script.text


def test_save_writes_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    play, script = session(["d3", f"save {path}", "quit"])
    play.run()
    record = records.load(path)
    assert record.moves[0] == "d3" and len(record.moves) == 2
    assert record.players == ["me", "random"]
    assert "Left without saving" not in script.text


def test_leaving_an_unsaved_game_says_so() -> None:
    play, script = session(["d3"])  # then end of input
    assert play.run() == 0
    assert "Left without saving" in script.text


def test_a_game_against_the_computer_plays_to_the_end() -> None:
    moves = [f"{row}{n}" for row in "abcdefghi" for n in range(1, 10)]
    play, script = session(moves * 3)
    play.run()
    assert play.state.is_over
    assert "Game over:" in script.text


def test_play_command_with_save_file_keeps_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "kept.json"
    lines = iter(["e5", "help", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "ndengrod", "--seed", "4", "--save", str(path)]) == 0
    record = records.load(path)
    assert record.moves[0] == "e5" and len(record.moves) == 2
    lines = iter(["moves", "quit"])
    assert main(["play", "ndengrod", "--resume", str(path)]) == 0


def test_replay_prints_every_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = boardlab.load("ndengrod", size=3).new_game().play("b2").play("c3")
    path = tmp_path / "g.json"
    records.dump(records.GameRecord.from_state(state), path)
    assert main(["replay", str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert "Ply 0 (start)" in out and "Ply 2 after c3" in out
    assert out.count("a- .") == 3  # three boards


def test_replay_steps_forwards_and_back() -> None:
    state = boardlab.load("ndengrod", size=3).new_game().play("b2").play("c3")
    script = Script(["", "", "", "b", "0", "x", "q"])
    replay_session(records.GameRecord.from_state(state), step=True, read=script.read, write=script.write)
    text = script.text
    assert text.index("Ply 1 after b2") < text.index("Ply 2 after c3") < text.index("That was the last move.")
    assert "Enter: next" in text


def test_games_lists_options_with_defaults_and_ids(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "ndengrod: Ndengrod" in out
    assert "--option self_capture=…  default True; true or false  [N1]" in out
    assert "--variant pentalath" in out
    assert main(["games", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing[0]["id"] == "ndengrod"
    assert {o["name"] for o in listing[0]["options"]} >= {"size", "length", "self_capture", "swap", "board"}
    # The same document as the server's catalog (boardlab.core.info.info_document), every field included.
    assert listing[0]["summary"] == boardlab.info("ndengrod").summary
    size = listing[0]["options"][0]
    assert (size["type"], size["minimum"], size["maximum"]) == ("int", 2, 12)
    board = next(o for o in listing[0]["options"] if o["name"] == "board")
    assert set(board["choice_help"]) == {"hexhex", "trapezoid"}


def test_rules_prints_the_rules_document(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "ndengrod"]) == 0
    assert "N1" in capsys.readouterr().out


def test_bench_json_ends_with_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "ndengrod", "--seconds", "0.2", "--json", "-o", "size=3", "-o", "length=4"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"game", "options", "playouts_per_s", "moves_per_s", "mean_length"} <= set(figures)
    assert figures["game"] == "ndengrod" and figures["options"]["size"] == 3
    assert figures["playouts_per_s"] > 0 and figures["mean_length"] > 0


@pytest.mark.parametrize("argv, message", [
    (["play", "chess"], "unknown game 'chess'; accepted: ndengrod"),
    (["bench", "ndengrod", "-o", "size=0"], "size=0 is out of range"),
    (["bench", "ndengrod", "-o", "size"], "not of the form name=value"),
    (["rules", "go"], "unknown game 'go'"),
    (["replay", "/nonexistent/game.json"], "cannot read"),
])
def test_bad_input_is_one_line_on_stderr_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_corrupt_record_is_refused_and_left_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"game": "ndengrod", "moves": ["d3", "d3"]}')
    before = path.read_text()
    assert main(["replay", str(path)]) == 2
    assert "missing or not a str" in capsys.readouterr().err
    assert path.read_text() == before


def test_python_dash_m_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "boardlab", "games"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and "ndengrod" in done.stdout


# -- hardening (issue 11): every bad number is refused where it enters, saves never lie -------------


@pytest.mark.parametrize("argv, message", [
    (["play", "ndengrod", "--seed", str(2**63)], "--seed"),
    (["play", "ndengrod", "--seed", "-1"], "--seed"),
    (["play", "ndengrod", "--opponent", "uct:seconds=nan"], "seconds=nan"),
    (["play", "ndengrod", "--opponent", "uct:seconds=inf"], "seconds=inf"),
    (["play", "ndengrod", "--opponent", "uct:temperature=nan"], "temperature=nan"),
    (["play", "ndengrod", "--opponent", "alphabeta:seconds=inf"], "seconds=inf"),
    (["match", "ndengrod", "random", "level1", "--seconds-per-move", "nan"], "--seconds-per-move"),
    (["match", "ndengrod", "random", "level1", "--seconds-per-move", "inf"], "--seconds-per-move"),
    (["match", "ndengrod", "random", "random", "--workers", "0"], "--workers 0"),
    (["match", "ndengrod", "random", "random", "--workers", "-2"], "--workers -2"),
    (["match", "ndengrod", "random", "random", "--save", ""], "--save ''"),
    (["match", "ndengrod", "random", "random", "--resume"], "--resume needs --save DIR"),
    (["match", "ndengrod", "random", "random", "--seed", str(2**40)], "--seed"),
    (["bench", "ndengrod", "--seconds", "inf"], "--seconds inf"),
    (["bench", "ndengrod", "--seconds", "nan"], "--seconds nan"),
    (["bench", "ndengrod", "--seed", str(2**63)], "--seed"),
    (["bench", "ndengrod", "-o", "size=\uff15"], "size="),
    (["bench", "ndengrod", "-o", "size=\u0665"], "size="),
    (["play", "ndengrod", "--save", "/nonexistent-dir/x.json"], "cannot write there"),
    (["play", "ndengrod", "--save", ""], "--save ''"),
])
def test_bad_numbers_and_paths_are_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt="": pytest.fail("the game started"))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_save_to_a_directory_is_refused_and_leaves_no_tmp(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    assert main(["play", "ndengrod", "--save", str(folder)]) == 2
    assert "directory" in capsys.readouterr().err
    state = boardlab.load("ndengrod", size=3).new_game().play("b2")
    with pytest.raises(OSError):
        records.dump(records.GameRecord.from_state(state), folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


def test_a_failing_autosave_is_never_reported_as_saved(tmp_path: Path) -> None:
    script = Script(["d3", "quit"])
    state = boardlab.load("ndengrod").new_game()
    gone = tmp_path / "gone" / "g.json"  # its folder does not exist: every save fails
    play = PlaySession(state, {0}, {1: RandomAgent(seed=1)}, ["me", "random"], save_path=str(gone),
                       read=script.read, write=script.write)
    play.run()
    assert "The game is saved" not in script.text
    assert "NOT saved" in script.text


def test_quitting_before_the_first_move_does_not_claim_a_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.json"
    monkeypatch.setattr("builtins.input", lambda prompt="": "quit")
    assert main(["play", "ndengrod", "--opponent", "human", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    assert "The game is saved" not in out and "nothing was written" in out
    assert not path.exists() and not (tmp_path / "g.json.tmp").exists()


def test_resuming_a_finished_record_never_rewrites_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = boardlab.load("ndengrod", size=2, length=3).new_game()
    while not state.is_over:
        state = state.play(state.legal_moves()[0])
    path = tmp_path / "done.json"
    records.dump(records.GameRecord.from_state(state, players=["a", "b"]), path)
    before = path.read_text()
    lines = iter(["undo", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    assert main(["play", "ndengrod", "--opponent", "human", "--resume", str(path)]) == 0
    assert path.read_text() == before


def test_resume_refuses_rules_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.json"
    records.dump(records.GameRecord.from_state(boardlab.load("ndengrod").new_game().play("d3")), path)
    assert main(["play", "ndengrod", "--resume", str(path), "-o", "size=3"]) == 2
    assert "--resume" in capsys.readouterr().err


def test_a_deeply_nested_record_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["replay", str(path)]) == 2
    assert "nested too deeply" in capsys.readouterr().err


def test_replay_strips_control_characters_from_names() -> None:
    state = boardlab.load("ndengrod", size=3).new_game().play("b2")
    record = records.GameRecord.from_state(state, players=["\x1b[2J\x1b]0;owned\x07ann", "bob"])
    script = Script([])
    replay_session(record, step=False, read=script.read, write=script.write)
    assert "\x1b" not in script.text and "\x07" not in script.text
    assert "ann vs bob" in script.text


class Terminal:
    """A stream that says it is a terminal and keeps what is written."""

    def __init__(self) -> None:
        self.written: list[str] = []

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.written.append(text)
        return len(text)

    def flush(self) -> None:
        pass


def test_a_first_run_says_the_rules_are_being_compiled_and_clears_its_line() -> None:
    import time

    from boardlab.cli.progress import CompileNotice

    screen = Terminal()
    with CompileNotice("Ndengrod", first_run=True, stream=screen, delay=0.0):  # type: ignore[arg-type]
        time.sleep(0.3)
    text = "".join(screen.written)
    assert "First run: compiling the rules of Ndengrod and the computer player." in text
    assert "Done once (numba, up to a minute)" in text and " s" in text
    assert text.endswith("\r")  # the spinner's line is wiped before the board is drawn
    quiet = Terminal()
    with CompileNotice("Ndengrod", first_run=True, stream=quiet, delay=60.0):  # type: ignore[arg-type]
        pass
    assert quiet.written == []


def test_the_first_run_notice_fits_80_columns_so_its_spinner_redraws_in_place() -> None:
    # A line of 80 columns or more wraps; a carriage return then goes back only to its second half,
    # and every redraw of the seconds scrolls a new line up the screen.
    import time

    from boardlab.cli.progress import CompileNotice

    for game_info in boardlab.games():
        screen = Terminal()
        with CompileNotice(game_info.name, first_run=True, stream=screen, delay=0.0):  # type: ignore[arg-type]
            time.sleep(0.15)
        text = "".join(screen.written)
        assert game_info.name in text and "compiling" in text
        for line in text.replace("\r", "\n").split("\n"):
            assert len(line) < 80, f"{len(line)} columns: {line!r}"


def test_play_imports_nothing_heavy_before_its_first_run_notice() -> None:
    # Everything `boardlab play GAME` does before the notice: a fresh interpreter, so that the
    # modules other tests loaded do not hide an eager import of numba (which compiles on import).
    code = (
        "import sys\n"
        "from boardlab.cli.main import build_parser\n"
        "from boardlab.core.registry import info, kernels_cached\n"
        "from boardlab.cli.progress import CompileNotice\n"
        "args = build_parser().parse_args(['play', 'mobiatus', '-o', 'width=12'])\n"
        "info(args.game).name, kernels_cached(args.game)\n"
        "import boardlab\n"
        "boardlab.games(), boardlab.info('gtbm').defaults\n"
        "print(' '.join(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(done.stdout.split())
    assert "boardlab" in loaded
    assert not loaded & {"numpy", "numba", "llvmlite", "httpx", "fastapi", "sqlalchemy", "scipy"}, loaded

