"""Terminal play: people and computer agents take turns at one keyboard.

The session reads lines and writes text through two functions, so tests drive it with a script of
inputs. An illegal or malformed entry is explained and asked again; the game is never lost to a
typo: ``undo`` takes moves back, ``save FILE`` (or ``--save FILE``, after every move) keeps it.
Where a turn takes several steps (a capture chain), typing its beginning lists the possible next
steps and asks for each in turn.

Under hidden information (HMDG) the board is always drawn as the seat at the keyboard may see it.
When two people share the keyboard, the screen is cleared and the next player asked to take it
before their secrets are shown; ``undo`` is off (taking a move back after seeing what it revealed
would be cheating). A saved record is the referee's: it holds every secret, so that it can resume.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from boardlab import records, signing
from boardlab.ai.base import Agent, make_agent
from boardlab.ai.levels import DEFAULT_LEVEL, LEVELS, tuned
from boardlab.ai.mcts import MCTSAgent
from boardlab.cli.main import MAX_SEED
from boardlab.cli.progress import ThinkingLine
from boardlab.core.move import Move
from boardlab.core.options import parse_assignments
from boardlab.core.registry import info, load
from boardlab.core.state import State
from boardlab.errors import BoardlabError, IllegalMove

HELP = """\
Commands:
  <move>      play a move in the game's notation (for example d3)
  <part>      the start of a move of several steps: its next steps are listed
              and asked for (these commands work there too)
  moves       list the legal moves
  hint        the computer's three best moves for you, with its estimates
  board       show the board again
  log         the moves so far, as you know them
  undo        take back your last move (and the computer's reply)
  save FILE   write the game record to FILE (JSON; `boardlab replay FILE` shows)
  help        this list
  quit        leave (the game is kept only if it was saved)"""


# What the step chooser answers as the main prompt does (the move begun is kept, except by undo).
STEP_COMMANDS = ("help", "?", "moves", "hint", "board", "log", "undo", "save")


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
        height: int | None = None,
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
        self.hinter: MCTSAgent | None = None
        self.saved: State | None = None
        # The state that ``save_path`` holds now (``None``: nothing written there by this session).
        self.autosaved: State | None = None
        self.autosave_failed = False
        self.at_keyboard: int | None = None
        on_terminal = write is None and sys.stdout.isatty()
        self.clear_text = "\033[H\033[2J\033[3J" if on_terminal else "\n" * 40
        # Lines the screen holds: a board taller than that, with the last move and the prompt,
        # is drawn compact. Read again at each drawing, as a terminal may be resized.
        self.height = height
        self.on_terminal = on_terminal
        self.introduced = False

    def run(self) -> int:
        greeting = self.greeting()
        self.show(extra_lines=len(greeting))
        self.write("\n".join(greeting))
        while True:
            seat = self.state.to_move
            if seat is not None and seat in self.agents:
                try:
                    move = self.think(self.agents[seat], seat)
                except KeyboardInterrupt:  # Ctrl-C while the computer thinks: offer to keep the game
                    return self.interrupted()
                self.state = self.state.play(move)
                self.autosave()
                self.show()
                continue
            if not self.hand_over(seat):
                return self.leave()
            if not self.introduced and seat is not None:
                self.introduce()
            prompt = "game over> " if seat is None else f"{self.state.seat_label(seat)}> "
            try:
                line = self.read(prompt).strip()
            except EOFError:
                self.write("")
                return self.leave()
            except KeyboardInterrupt:
                return self.interrupted()
            if not line:
                continue
            if not self.handle(line):
                return self.leave()

    def greeting(self) -> list[str]:
        """The first screen's lines under the board: who plays which side, and how moves are written."""
        state = self.state
        sides = [f"{state.seat_label(seat)} (seat {seat})" for seat in range(state.game.num_seats)]
        if len(self.humans) == 1:
            (mine,) = self.humans
            others = [f"{self.players[seat] if seat < len(self.players) else 'the computer'} "
                      f"({state.seat_label(seat)})" for seat in range(state.game.num_seats) if seat != mine]
            first = f"You play {sides[mine]}, against {' and '.join(others)}."
        else:
            first = f"Everyone plays at this keyboard: {', '.join(sides)}."
        notation = state.game.notation
        return textwrap.wrap(first, width=80) + (textwrap.wrap(notation, width=80, break_on_hyphens=False)
                                                 if notation else [])

    def interrupted(self) -> int:
        """Ctrl-C: leave, but first offer to save a game that would otherwise be lost."""
        self.write("")
        kept = (self.save_path and self.autosaved is self.state) or self.saved is self.state
        if self.state.ply and not kept:
            try:
                path = self.read("Interrupted. Save the game first? A file name (Enter: leave without saving): ")
            except (EOFError, KeyboardInterrupt):
                path = ""
            if path.strip():
                self.save(path.strip())
        return self.leave()

    def introduce(self) -> None:
        """One line under the first board for a newcomer: how a move is typed, and where help is."""
        self.introduced = True
        moves = self.state.legal_moves()
        if moves:
            example = moves[len(moves) // 2].text
            self.write(f"Type a move, for example {example}; help lists the commands.")

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
        elif command == "hint":
            self.hint()
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
            return self.play(line)
        return True

    def play(self, text: str) -> bool:
        """Play ``text``, or, if it begins moves of several steps, ask for the rest; ``False``: leave."""
        try:
            self.state = self.state.play(text)
        except IllegalMove as error:
            path, begun = self.moves_beginning(text)
            if begun:
                return self.play_in_steps(path, begun, text.strip())
            self.write(textwrap.fill(f"Not played: {error}. Type 'moves' for the legal moves, 'help' for commands.",
                                     width=80, break_on_hyphens=False))
            return True
        self.autosave()
        self.show()
        return True

    # -- turns of several steps -----------------------------------------------------------------

    def moves_beginning(self, text: str) -> tuple[tuple[int, ...], list[Move]]:
        """The legal moves of several steps that ``text`` begins, and the steps it names.

        ``text`` begins a move if it names the first steps of the move's path (in the game's
        notation), or else if the move's text starts with it followed by a separator (a piece's
        square, then ``-``). Where no move text has separators and every turn is one step (Ndengrod's
        ``a1`` does not begin ``a10``), nothing is ever begun and nothing changes.
        """
        state = self.state
        word = text.strip().lower()
        if not word:
            return (), []
        try:
            path = state.game.parse_path(state.data, text.strip())
        except IllegalMove:
            path = ()
        moves = state.legal_moves()
        begun = [move for move in moves if len(move.path) > len(path) > 0 and move.path[: len(path)] == path]
        if begun:
            return path, begun
        return (), [move for move in moves
                    if move.text.lower().startswith(word) and len(move.text) > len(word)
                    and not move.text[len(word)].isalnum()]

    def play_in_steps(self, path: tuple[int, ...], moves: list[Move], typed: str) -> bool:
        """Ask for the next step of a move until it is whole, then play it; ``False``: leave."""
        state = self.state
        game = state.game
        label = state.seat_label(state.to_move) if state.to_move is not None else ""
        while True:
            done = game.partial_text(state.data, path) if path else ""
            named = []
            for step in {move.path[len(path)] for move in moves}:
                text = game.partial_text(state.data, (*path, step))
                named.append((text[len(done):] if done and text.startswith(done) else text, step))
            names = [name for name, _ in sorted(named)]
            steps = [step for _, step in sorted(named)]
            heading = f"{done}: the move goes on" if done else f"Moves beginning {typed}"
            choices = "   ".join(f"{n}) {name}" for n, name in enumerate(names, start=1))
            self.write(textwrap.fill(f"{heading}; choose the next step by number or as written ('cancel' to "
                                     "start again):", width=80, break_on_hyphens=False))
            self.write(textwrap.fill(choices, width=78, break_on_hyphens=False))
            try:
                line = self.read(f"{label} {done}> " if done else f"{label}> ").strip()
            except EOFError:
                self.write("")
                return False
            word = line.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word == "cancel":
                self.write("Cancelled; type a whole move, or its beginning.")
                return True
            command = word.partition(" ")[0]
            if command in STEP_COMMANDS:
                self.handle(line)
                if command == "undo" or self.state is not state:
                    return True  # the position changed: the move begun no longer applies
                continue
            chosen = self._chosen_steps(path, moves, steps, names, line, done)
            if chosen is None:
                if line:
                    self.write(f"Not a choice: {line!r}.")
                continue
            path = chosen
            whole = [move for move in moves if move.path == path]
            if whole:
                self.state = state.play(whole[0])
                self.autosave()
                self.show()
                return True
            moves = [move for move in moves if len(move.path) > len(path) and move.path[: len(path)] == path]

    def _chosen_steps(self, path: tuple[int, ...], moves: list[Move], steps: list[int], names: list[str],
                      line: str, done: str) -> tuple[int, ...] | None:
        """The path after the steps ``line`` chooses (a number, a listed step, or more notation)."""
        if line.isdecimal() and 1 <= int(line) <= len(steps):
            return (*path, steps[int(line) - 1])
        for step, name in zip(steps, names, strict=True):
            if line.lower() == name.lower():
                return (*path, step)
        game, data = self.state.game, self.state.data
        for text in (line, f"{done} {line}"):
            try:
                longer = game.parse_path(data, text)
            except IllegalMove:
                continue
            if len(longer) > len(path) and longer[: len(path)] == path and any(
                    move.path[: len(longer)] == longer for move in moves):
                return longer
        return None

    def think(self, agent: Agent, seat: int) -> Move:
        """The agent's move; a searching agent shows its progress if it takes over half a second."""
        # Under hidden information the move it is leaning towards is its secret: show only the effort.
        line = ThinkingLine(show_move=self.state.game.info.perfect_information)
        if isinstance(agent, MCTSAgent):
            agent.progress = line
        try:
            return agent.choose(self.state.view(seat))
        finally:
            line.clear()

    def hint(self) -> None:
        seat = self.state.to_move
        if seat is None:
            self.write("The game is over.")
            return
        # A fixed seed: asking for a hint must not change what a seeded opponent plays afterwards.
        helper = self.hinter or MCTSAgent(LEVELS[DEFAULT_LEVEL], seed=0, name="hint", per_game=tuned(DEFAULT_LEVEL))
        self.hinter = helper
        analysis = helper.analyse(self.state.view(seat))
        lines = ["Hint (level 3 search; the expected score, a draw counting half):"]
        for candidate in analysis.candidates[:3]:
            value = "?" if candidate.value is None else f"{candidate.value:.0%}"
            effort = (f"of {candidate.visits:,} playouts" if candidate.visits
                      else f"searched {candidate.depth or helper.depth_reached} plies deep")
            lines.append(f"  {candidate.move.text:<12} scores {value:>4} {effort}")
        shown = analysis.candidates[:3]
        if len(shown) > 1 and len({c.value for c in shown}) == 1 and not any(c.visits for c in shown):
            lines.append(f"  (all tied as far as {helper.depth_reached} plies ahead: the order says nothing)")
        self.write("\n".join(lines))

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
        record = records.GameRecord.from_state(self.state, players=self.players, started=self.started)
        if self.hides_information():
            signing.sign(record)  # so that resuming can tell if a hidden move was edited
        return record

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
                self.autosave_failed = True
                self.write(f"Warning: could not save to {self.save_path}: {error.strerror}")
            else:
                self.autosaved = self.state

    def show(self, extra_lines: int = 0) -> None:
        state = self.state
        view = state.view(self.viewing_seat())
        self.write("")
        drawing = str(view)
        if drawing.count("\n") + 5 + extra_lines > self.screen_lines():
            drawing = state.game.render_compact(view)
        self.write(drawing)
        last = view.last_move
        if last is not None and state.previous is not None:
            mover = state.previous.to_move
            who = state.previous.seat_label(mover) if mover is not None else "?"
            self.write(f"Last move: {state.game.move_words(state.previous.data, who, last.text)}")
        self.write(state.describe())

    def screen_lines(self) -> int:
        """How many lines the screen holds (a pipe or a test: as many as it likes)."""
        if self.height is not None:
            return self.height
        if not self.on_terminal:
            return 10_000
        return shutil.get_terminal_size((80, 24)).lines

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
        if self.save_path and self.autosaved is self.state:
            self.write(f"The game is saved in {self.save_path}.")
        elif self.save_path and self.autosave_failed:
            self.write(f"The game is NOT saved: {self.save_path} could not be written (see the warnings above).")
        elif self.save_path and self.autosaved is None and not self.state.ply:
            self.write(f"No move was played; nothing was written to {self.save_path}.")
        elif self.state.ply and not self.state.is_over and self.saved is not self.state:
            self.write("Left without saving (use save FILE or --save FILE to keep a game).")
        return 0


def check_writable(path: str) -> None:
    """Refuse, before the game starts, a save path that cannot be written (rather than lose the game).

    The probe writes the temporary file a save would write, and removes it: the target itself is
    not touched, so an existing record there survives until the first move replaces it.
    """
    target = Path(path)
    if not path.strip():
        raise BoardlabError("--save '': accepted: the name of a file for the record")
    if target.is_dir():
        raise BoardlabError(f"--save {path}: that is a directory; accepted: a file name")
    probe = target.with_name(target.name + ".tmp")
    try:
        with probe.open("x", encoding="utf-8"):
            pass
        probe.unlink()
    except FileExistsError:
        pass  # a leftover of a crash: the save will replace it
    except OSError as error:
        raise BoardlabError(f"--save {path}: cannot write there ({error.strerror})") from None


def run_play(args: argparse.Namespace) -> int:
    session = prepare_play(args)
    enable_line_editing()
    return session.run()


def enable_line_editing() -> None:
    """Arrow keys, editing and history (up for earlier lines) at the prompts, where readline exists."""
    if not sys.stdin.isatty():
        return
    try:
        import readline  # noqa: F401  (importing it is what makes input() edit lines)
    except ImportError:  # Windows without pyreadline: plain input
        return


def prepare_play(args: argparse.Namespace) -> PlaySession:
    """The game, its computer players and the session, everything compiled before the first board."""
    started = None
    resumed_over = False
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:
        raise BoardlabError(f"--seed {args.seed}: accepted: an integer from 0 to {MAX_SEED}")
    if args.save is not None:
        check_writable(args.save)
    if args.resume and (args.option or args.variant):
        raise BoardlabError("--resume plays on under the rules in the record; leave out -o/--option and --variant")
    if args.resume:
        record = records.load(args.resume)
        if record.game != info(args.game).id:
            raise BoardlabError(f"{args.resume} records a game of {record.game}, not {args.game}")
        state = record.replay()
        players, started = record.players, record.started
        resumed_over = record.result is not None
        if not state.game.info.perfect_information:
            signing.verify(record, args.resume)
    else:
        game = load(args.game, variant=args.variant, **parse_assignments(args.option or []))
        state = game.new_game()
        players = []
    game = state.game
    seats = game.num_seats
    if not 0 <= args.seat < seats:
        raise BoardlabError(f"--seat {args.seat}: accepted: 0 to {seats - 1}")
    opponent = f"level{args.level}" if args.opponent == "computer" else args.opponent
    if opponent == "human":
        humans = set(range(seats))
        agents: dict[int, Agent] = {}
    else:
        humans = {args.seat}
        agents = {
            seat: make_agent(opponent, seed=None if args.seed is None else args.seed + seat)
            for seat in range(seats)
            if seat != args.seat
        }
    for agent in agents.values():
        agent.check(game)  # now, not at its first move, when the game would be lost
    if game.search_algorithm == "alphabeta":
        import boardlab.ai.alphabeta  # noqa: F401  (compiled now, under the notice, not at the first hint)
    if not players:
        players = ["human" if seat in humans else opponent for seat in range(seats)]
    # A finished record is kept as it is: undoing into it must not turn it into an unfinished game.
    save_path = args.save or (None if resumed_over else args.resume)
    session = PlaySession(state, humans, agents, players, save_path=save_path, started=started)
    if args.resume and save_path == args.resume:
        session.autosaved = state  # the file holds this game already
    if resumed_over and not args.save:
        session.write(f"{args.resume} records a finished game; it is kept as it is (use save FILE to keep changes).")
    return session
