"""Progress displays: a match's running score, and the computer thinking during play."""

from __future__ import annotations

import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

if TYPE_CHECKING:
    from boardlab.ai.base import Analysis
    from boardlab.match import GameOutcome, MatchResult


@contextmanager
def match_progress(games: int, agent_a: str, agent_b: str) -> Iterator[Callable[[MatchResult, GameOutcome], None]]:
    """A progress bar on stderr with the running score; yields the per-game callback."""
    console = Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(f"{agent_a} vs {agent_b}", total=games)

        def on_game(result: MatchResult, outcome: GameOutcome) -> None:
            progress.update(
                task, advance=1,
                description=f"{agent_a} {result.wins + result.draws / 2:g} – {agent_b} "
                            f"{result.losses + result.draws / 2:g}",
            )

        yield on_game


class ThinkingLine:
    """Shows the computer's search while it takes more than ``delay`` seconds (a terminal only)."""

    def __init__(self, stream: TextIO | None = None, delay: float = 0.5, show_move: bool = True) -> None:
        self.stream = stream or sys.stderr
        self.delay = delay
        self.show_move = show_move
        self.shown = False

    def __call__(self, iterations: int, seconds: float, analysis: Analysis) -> None:
        if seconds < self.delay or not analysis.candidates or not self.stream.isatty():
            return
        best = analysis.candidates[0]
        value = f" ({best.value:.0%})" if best.value is not None else ""
        leaning = f", best {best.move}{value}" if self.show_move else ""
        self.stream.write(f"\rthinking… {seconds:4.1f} s, {iterations:,} iterations{leaning}   ")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 72 + "\r")
            self.stream.flush()
            self.shown = False


SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class CompileNotice:
    """Says what is happening while the rules kernels compile (numba, on a first run) or load.

    Nothing is shown if it is over within ``delay`` seconds or stderr is not a terminal. A thread
    redraws the elapsed time: numba's compiler is Python, so the thread gets its turns.
    """

    def __init__(self, name: str, first_run: bool, stream: TextIO | None = None, delay: float = 0.7) -> None:
        self.name = name
        self.first_run = first_run
        self.stream = stream or sys.stderr
        self.delay = delay
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self.shown = False

    def __enter__(self) -> CompileNotice:
        if self.stream.isatty():
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()

    def _run(self) -> None:
        began = time.monotonic()
        if self._done.wait(self.delay):
            return
        if self.first_run:
            heading = f"First run: compiling the rules of {self.name} and the computer player."
            self.stream.write(textwrap.fill(heading, width=79) + "\n")
            # Short enough that the spinner and the seconds stay on one 80-column line: a wrapped
            # line cannot be redrawn with a carriage return, and would scroll the screen instead.
            line = "Done once (numba, up to a minute), then cached; compiling"
        else:
            line = f"Loading {self.name}…"
        self.shown = True
        tick = 0
        while not self._done.is_set():
            self.stream.write(f"\r{line} {SPINNER[tick % len(SPINNER)]} {time.monotonic() - began:3.0f} s")
            self.stream.flush()
            tick += 1
            self._done.wait(0.1)
