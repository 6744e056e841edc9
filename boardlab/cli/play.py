"""Terminal play: people and computer agents take turns at one keyboard.

The session reads lines and writes text through two functions, so tests drive it with a script of
inputs. An illegal or malformed entry is explained and asked again; the game is never lost to a
typo: ``undo`` takes moves back, ``save FILE`` (or ``--save FILE``, after every move) keeps it.

Under hidden information (HMDG) the board is always drawn as the seat at the keyboard may see it.
When two people share the keyboard, the screen is cleared and the next player asked to take it
before their secrets are shown; ``undo`` is off (taking a move back after seeing what it revealed
would be cheating). A saved record is the referee's: it holds every secret, so that it can resume.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable

from boardlab import records
from boardlab.ai.base import Agent, make_agent
from boardlab.core.options import parse_assignments
from boardlab.core.registry import info, load
from boardlab.core.state import State
from boardlab.errors import BoardlabError, IllegalMove

HELP = """\
Commands:
  <move>      play a move in the game's notation (for example d3)
  moves       list the legal moves
  board       show the board again
  log         the moves so far, as you know them
  undo        take back your last move (and the computer's reply)
  save FILE   write the game record to FILE (JSON; `boardlab replay FILE` shows it)
  help        this list
  quit        leave (the game is kept only if it was saved)"""


class PlaySession:
    """One game at the terminal between ``humans`` (seats typed at the keyboard) and ``agents``."""

    def __init__(
        self,
        state: State,
        humans: set[int],
        agents: dict[int, Agent],
        players: list[str],
        save_path: str | None = None,
        started: str | None = None,
        read: Callable[[str], str] | None = None,
        write: Callable[[str], None] | None = None,
    ) -> None:
        self.state = state
        self.humans = humans
        self.agents = agents
        self.players = players
        self.save_path = save_path
        self.read = read or input
        self.write = write or print
        self.viewer = next(iter(humans)) if len(humans) == 1 else None
        self.started = started or records.now()
        self.saved: State | None = None
        self.at_keyboard: int | None = None
        on_terminal = write is None and sys.stdout.isatty()
        self.clear_text = "\033[H\033[2J\033[3J" if on_terminal else "\n" * 40

    def run(self) -> int:
        self.show()
        while True:
            seat = self.state.to_move
            if seat is not None and seat in self.agents:
                move = self.agents[seat].choose(self.state.view(seat))
                self.state = self.state.play(move)
                self.autosave()
                self.show()
                continue
            if not self.hand_over(seat):
                return self.leave()
            prompt = "game over> " if seat is None else f"{self.state.seat_label(seat)}> "
            try:
                line = self.read(prompt).strip()
            except EOFError:
                self.write("")
                return self.leave()
            if not line:
                continue
            if not self.handle(line):
                return self.leave()

    def handle(self, line: str) -> bool:
        """Act on one line of input; ``False`` means leave."""
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            self.write(HELP)
        elif command == "moves":
            self.list_moves()
        elif command == "board":
            self.show()
        elif command == "log":
            self.show_log()
        elif command == "undo":
            self.undo()
        elif command == "save":
            self.save(rest.strip())
        elif self.state.is_over:
            self.write("The game is over: undo, save FILE or quit.")
        else:
            self.play(line)
        return True

    def play(self, text: str) -> None:
        try:
            self.state = self.state.play(text)
        except IllegalMove as error:
            self.write(f"Not played: {error}. Type 'moves' for the legal moves, 'help' for commands.")
            return
        self.autosave()
        self.show()

    def list_moves(self) -> None:
        moves = " ".join(str(move) for move in self.state.legal_moves())
        self.write(textwrap.fill(moves, width=78) if moves else "No legal moves: the game is over.")

    def undo(self) -> None:
        if self.hides_information():
            self.write("undo is off in games with hidden information: a move taken back after seeing what it "
                       "revealed would be cheating.")
            return
        state = self.state
        undone = False
        while state.previous is not None:
            state = state.previous
            if state.to_move in self.humans:
                undone = True
                break
        if not undone:
            self.write("Nothing to undo.")
            return
        self.state = state
        self.write(f"Took back to ply {state.ply}.")
        self.autosave()
        self.show()

    def record(self) -> records.GameRecord:
        return records.GameRecord.from_state(self.state, players=self.players, started=self.started)

    def save(self, path: str) -> None:
        if not path:
            self.write("Usage: save FILE")
            return
        try:
            records.dump(self.record(), path)
        except OSError as error:
            self.write(f"Could not save to {path}: {error.strerror}")
            return
        self.saved = self.state
        self.write(f"Saved to {path}.")

    def autosave(self) -> None:
        if self.save_path:
            try:
                records.dump(self.record(), self.save_path)
            except OSError as error:
                self.write(f"Warning: could not save to {self.save_path}: {error.strerror}")

    def show(self) -> None:
        state = self.state
        view = state.view(self.viewing_seat())
        self.write("")
        self.write(str(view))
        last = view.last_move
        if last is not None and state.previous is not None:
            mover = state.previous.to_move
            who = state.previous.seat_label(mover) if mover is not None else "?"
            self.write(f"Last move: {who} {last}")
        self.write(state.describe())

    def show_log(self) -> None:
        view = self.state.view(self.viewing_seat())
        entries = []
        state: State | None = self.state
        while state is not None and state.previous is not None:
            entries.append(state.previous.seat_label(state.previous.to_move or 0))
            state = state.previous
        labels = entries[::-1]
        lines = [f"{ply:>4}. {label} {move}" for ply, (label, move) in enumerate(zip(labels, view.history(),
                                                                                      strict=True), start=1)]
        self.write("\n".join(lines) if lines else "No moves yet.")

    # -- hidden information: whose eyes the screen is for ---------------------------------------

    def hides_information(self) -> bool:
        return not self.state.game.info.perfect_information

    def viewing_seat(self) -> int | None:
        """The seat the board is drawn for: the one person playing, else (hidden information) the
        seat at the keyboard, else a spectator's view of everything public."""
        if self.viewer is not None:
            return self.viewer
        return self.at_keyboard if self.hides_information() else None

    def hand_over(self, seat: int | None) -> bool:
        """When another person is to take the keyboard in a hidden-information game, clear the screen
        and wait until they have it, then show the board as they may see it. ``False``: input ended."""
        if seat is None or self.viewer is not None or not self.hides_information() or seat == self.at_keyboard:
            return True
        self.write(self.clear_text)
        try:
            self.read(f"Pass the keyboard to {self.state.seat_label(seat)} (seat {seat}) and press Enter ")
        except EOFError:
            self.write("")
            return False
        self.at_keyboard = seat
        self.show()
        return True

    def leave(self) -> int:
        if self.save_path:
            self.write(f"The game is saved in {self.save_path}.")
        elif self.state.ply and not self.state.is_over and self.saved is not self.state:
            self.write("Left without saving (use save FILE or --save FILE to keep a game).")
        return 0


def run_play(args: argparse.Namespace) -> int:
    started = None
    if args.resume:
        record = records.load(args.resume)
        if record.game != info(args.game).id:
            raise BoardlabError(f"{args.resume} records a game of {record.game}, not {args.game}")
        state = record.replay()
        players, started = record.players, record.started
    else:
        game = load(args.game, variant=args.variant, **parse_assignments(args.option or []))
        state = game.new_game()
        players = []
    game = state.game
    seats = game.num_seats
    if not 0 <= args.seat < seats:
        raise BoardlabError(f"--seat {args.seat}: accepted: 0 to {seats - 1}")
    if args.opponent == "human":
        humans = set(range(seats))
        agents: dict[int, Agent] = {}
    else:
        humans = {args.seat}
        agents = {
            seat: make_agent(args.opponent, seed=None if args.seed is None else args.seed + seat)
            for seat in range(seats)
            if seat != args.seat
        }
    if not players:
        players = ["human" if seat in humans else args.opponent for seat in range(seats)]
    session = PlaySession(state, humans, agents, players, save_path=args.save or args.resume, started=started)
    return session.run()
