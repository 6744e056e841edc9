"""``boardlab replay FILE``: step through a saved game, forwards and backwards."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from boardlab import records
from boardlab.core.state import State


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


def _show(positions: list[State], index: int, write: Callable[[str], None]) -> None:
    state = positions[index]
    write("")
    last = state.view(None).last_move  # as a spectator saw it: the board below is the spectator's
    write(f"Ply {state.ply}" + (f" after {last}" if index and last else " (start)"))
    write(str(state))
    write(state.describe())


def replay_session(
    record: records.GameRecord,
    step: bool,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> int:
    positions = _positions(record)
    header = ", ".join(f"{k}={v}" for k, v in record.options.items())
    write(f"{record.game} (rules {record.rules_version}; {header})")
    write("Players: " + " vs ".join(printable(name) for name in record.players) + f"; {len(record.moves)} moves")
    if record.result is not None:
        write(f"Result: {record.result}" + (f" ({printable(record.termination)})" if record.termination else ""))
    if not step:
        for index in range(len(positions)):
            _show(positions, index, write)
        return 0
    index = 0
    _show(positions, index, write)
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
        _show(positions, index, write)


def run_replay(args: argparse.Namespace) -> int:
    record = records.load(args.file)
    return replay_session(record, step=not args.all and sys.stdin.isatty())
