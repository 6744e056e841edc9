"""Terminal play fits an 80×24 terminal: every line at most 80 columns, and each board with the last
move and the prompt in 24 lines (compact drawings where a game's full one is taller)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.ai import RandomAgent
from boardlab.cli.play import PlaySession
from boardlab.core import registry
from tests.test_cli import Script

WIDTH, HEIGHT = 80, 24

# Every registered game: the defaults, the README's examples and the largest boards people play (its
# package's samples).
CASES = [(game_id, dict(options)) for game_id in registry.game_ids()
         for options in registry.package(game_id).samples.largest]
# Only the width is promised for these: a 100-column strip is drawn in parts, one under another.
WIDE_ONLY = [("mobiatus", {"length": 100}), ("mobiatus", {"length": 64, "width": 7})]


def positions(game: boardlab.Game, seed: int = 1) -> list[boardlab.State]:
    """The start, positions after 10 and 40 random plies, and every tenth ply after to the end."""
    rng = random.Random(seed)
    state = game.new_game()
    found = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        if state.ply in (10, 40) or state.ply % 10 == 0 or state.is_over:
            found.append(state)
    return found


@pytest.mark.parametrize(("game_id", "options"), CASES + WIDE_ONLY, ids=lambda x: str(x))
def test_every_drawing_is_at_most_80_columns(game_id: str, options: dict[str, object]) -> None:
    game = boardlab.load(game_id, **options)
    for state in positions(game):
        for seat in range(game.num_seats):
            view = state.view(seat)
            for drawing in (str(view), game.render_compact(view)):
                widest = max(drawing.split("\n"), key=len)
                assert len(widest) <= WIDTH, f"{game_id} {options} ply {state.ply}: {widest!r}"


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=lambda x: str(x))
def test_a_session_at_80_by_24_keeps_the_board_last_move_and_prompt_in_view(
        game_id: str, options: dict[str, object]) -> None:
    game = boardlab.load(game_id, **options)
    state = game.new_game()
    first = state.legal_moves()[0].text
    begun = next((m.text.split("-")[0] for m in state.legal_moves() if "-" in m.text), "zz")
    script = Script(["no-such-move", begun, "cancel", first, "moves", "hint", "help", "log", "quit"])
    others = {seat: RandomAgent(seed=seat) for seat in range(1, game.num_seats)}
    session = PlaySession(state, {0}, others, ["me"], read=script.read, write=script.write, height=HEIGHT)
    session.run()
    lines = script.text.split("\n")
    assert max(len(line) for line in lines) <= WIDTH, max(lines, key=len)
    # The screen after the computer's reply: from the blank line before the board to the prompt.
    last_board = max(i for i, line in enumerate(lines[: lines.index("Commands:") if "Commands:" in lines else None])
                     if line == "")
    screen = lines[last_board:]
    end = next(i for i, line in enumerate(screen) if line.endswith("> "))
    assert any(line.startswith("Last move:") for line in screen[:end]), screen[:end]
    assert end + 1 <= HEIGHT, f"{game_id} {options}: {end + 1} lines to the prompt"


def test_the_first_board_says_how_to_enter_a_move_and_where_help_is() -> None:
    script = Script(["quit"])
    state = boardlab.load("ndengrod").new_game()
    PlaySession(state, {0}, {1: RandomAgent(seed=1)}, ["me", "random"], read=script.read, write=script.write).run()
    hint = next(line for line in script.output if line.startswith("Type a move"))
    example = hint.split("for example ")[1].split(";")[0]
    assert example in {move.text for move in state.legal_moves()}
    assert "help lists the commands" in hint
    assert script.text.count("Type a move") == 1


def test_horsmeier_is_drawn_compact_only_where_the_screen_is_short() -> None:
    state = boardlab.load("horsmeier").new_game()
    tall, short = Script(["quit"]), Script(["quit"])
    PlaySession(state, {0, 1}, {}, ["a", "b"], read=tall.read, write=tall.write, height=50).run()
    PlaySession(state, {0, 1}, {}, ["a", "b"], read=short.read, write=short.write, height=HEIGHT).run()
    assert "+----+" in tall.text.split("11 |")[1].split("10 |")[0]  # a rule between rows 11 and 10
    assert "+----+" not in short.text.split("11 |")[1].split("10 |")[0]
    assert short.text.count("\n") < tall.text.count("\n") - 10


def test_mobiatus_compact_drawing_is_the_front_board_and_the_back_follows_from_it() -> None:
    game = boardlab.load("mobiatus", width=12)
    for state in positions(game, seed=2):
        full = str(state.view(0)).split("\n")
        compact = game.render_compact(state.view(0)).split("\n")
        front, back = full[1:15], full[15:29]  # the column numbers and 12 rows of each board
        assert back[1].startswith("Back")
        assert compact[:15] == full[:15] and len(compact) == 17, compact
        assert "not drawn" in compact[-1]
        # What the compact drawing leaves out is what its legend says: the front's marks, swapped.
        for front_row, back_row in zip(front[2:], back[2:], strict=True):
            marks = front_row[7:66].replace("R", "1").replace("r", "R").replace("1", "r")
            assert back_row[7:66] == marks.replace("B", "2").replace("b", "B").replace("2", "b"), state.ply

