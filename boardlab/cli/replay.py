"""``boardlab replay FILE``: step through a saved game, forwards and backwards."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable

from boardlab import records, signing
from boardlab.core.cells import Piece
from boardlab.core.state import State
from boardlab.core.view import View
from boardlab.errors import BoardlabError


def printable(text: str) -> str:
    """``text`` without control characters: a shared record's names must not drive the terminal
    (clear the screen, retitle the window) when shown."""
    return "".join(ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}" for ch in text)


KEYS = "Enter: next   b: back   <number>: go to that ply   q: quit"


def _positions(record: records.GameRecord) -> list[State]:
    """Every position of the game, from the start to the end."""
    line: list[State] = []
    state: State | None = record.replay()
    while state is not None:
        line.append(state)
        state = state.previous
    return line[::-1]


def _show(positions: list[State], index: int, write: Callable[[str], None],
          hidden: list[str] | None = None) -> None:
    state = positions[index]
    write("")
    final = positions[-1]
    if _unveils(final):
        # The game is over: nothing is secret any more. Every stone is shown, and when each hidden
        # one was placed, so that the game can be taken apart afterwards.
        last = state.last_move
        write(f"Ply {state.ply}" + (f" after {last}" if index and last else " (start)")
              + " — every stone shown: the game is over")
        view = View.unveiled(state, final)
        write(str(view))
        if hidden is not None:
            write(hidden[index])
    else:
        last = state.view(None).last_move  # as a spectator saw it: the board below is the spectator's
        write(f"Ply {state.ply}" + (f" after {last}" if index and last else " (start)"))
        write(str(state))
    write(state.describe())


def _unveils(final: State) -> bool:
    return final.is_over and not final.game.info.perfect_information


def _pieces(view: View) -> dict[tuple[str, int], Piece]:
    return {(cell.name, piece.colour): piece for cell in view.game.cell_contents(view) for piece in cell.pieces}


def _hidden_stones(positions: list[State]) -> list[str]:
    """For each position: its hidden pieces, each with the ply it was placed at (one pass)."""
    final = positions[-1]
    placed: dict[tuple[str, int], int] = {}
    lines = []
    for state in positions:
        pieces = _pieces(View.unveiled(state, final))
        placed = {key: placed.get(key, state.ply) for key in pieces}
        hidden = sorted((placed[key], key[0], piece) for key, piece in pieces.items() if piece.kind == "hidden")
        words = [f"{state.seat_label(piece.seat) if piece.seat is not None else piece.colour} {name} (ply {ply})"
                 for ply, name, piece in hidden]
        lines.append(textwrap.fill("Hidden stones, with the ply each was placed at: " + ", ".join(words), width=80)
                     if words else "No hidden stones.")
    return lines


def replay_session(
    record: records.GameRecord,
    step: bool,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    positions = _positions(record)
    hidden = _hidden_stones(positions) if _unveils(positions[-1]) else None
    header = ", ".join(f"{k}={v}" for k, v in record.options.items())
    write(f"{record.game} (rules {record.rules_version}; {header})")
    write("Players: " + " vs ".join(printable(name) for name in record.players) + f"; {len(record.moves)} moves")
    outcome = record.outcome(positions[-1])
    if outcome is not None:
        write(f"Result: {printable(outcome)}.")
    if not step:
        for index in range(len(positions)):
            _show(positions, index, write, hidden)
        return 0
    index = 0
    _show(positions, index, write, hidden)
    write(KEYS)
    while True:
        try:
            answer = read("replay> ").strip().lower()
        except EOFError:
            return 0
        if answer in ("q", "quit"):
            return 0
        if answer == "b":
            index = max(0, index - 1)
        elif answer.isdecimal():  # a ply, as shown: a turn of several steps spans several plies
            index = next((i for i, p in enumerate(positions) if p.ply >= int(answer)), len(positions) - 1)
        elif answer == "":
            if index == len(positions) - 1:
                write("That was the last move.")
                continue
            index += 1
        else:
            write(KEYS)
            continue
        _show(positions, index, write, hidden)


def run_replay(args: argparse.Namespace) -> int:
    record = records.load(args.file)
    if signing.TAG in record.tags:  # a signed hot-seat save: say if it was edited since (replay still shows it)
        try:
            signing.verify(record, args.file)
        except BoardlabError as error:
            print(f"Warning: {str(error).replace('it is not resumed', 'what follows may not be the game played')}")
    return replay_session(record, step=not args.all and sys.stdin.isatty())
