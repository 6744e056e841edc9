"""Preparing every game's rules when the server starts, so that the first person to press Play does not
wait for numba to compile them (19.7 s for Möbiatus on a cold cache, on the 2-core machine).

One background thread goes through the games in the catalogue's order. A game whose kernels are
not in numba's disk cache is first compiled in a child process (``python -m boardlab.server.warmup
GAME``), so that the compiler does not hold this process's interpreter lock while requests wait;
then the game is loaded here (from the cache, in a second or so) and a tiny search is run in the
computer's worker process, which compiles or loads the search too. Until a game is ready its pages
say that its rules are being prepared (``GET /api/status``); a request for it meanwhile still works,
and waits for the compiling itself.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future

from boardlab.core.registry import game_ids, kernels_cached, load

log = logging.getLogger("boardlab.server")


def exercise(game_id: str) -> None:
    """Compile (or load) everything a game's first moves need: its rules kernels, move texts, views."""
    state = load(game_id).new_game()
    moves = state.legal_moves()
    after = state.play(moves[0])
    after.view(after.to_move).legal_moves()


class Warmup:
    """The games' readiness, and the thread that makes them ready."""

    def __init__(self, search: Callable[[str], Future[object] | None] | None = None) -> None:
        self.ready: dict[str, bool] = dict.fromkeys(game_ids(), False)
        self._search = search  # starts a tiny search of a game in the computer's worker process
        self._stop = threading.Event()
        self._child: subprocess.Popen[bytes] | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="boardlab-warmup", daemon=True)
        self._thread.start()

    def mark_all_ready(self) -> None:
        """Without a warm-up (turned off), nothing is said to be preparing: requests compile as they come."""
        self.ready = dict.fromkeys(self.ready, True)

    def stop(self) -> None:
        self._stop.set()
        child = self._child
        if child is not None and child.poll() is None:
            child.terminate()

    def _run(self) -> None:
        for game_id in list(self.ready):
            if self._stop.is_set():
                return
            try:
                self._prepare(game_id)
            except Exception:  # a game that fails here fails for its players too, with the error: go on
                log.exception("could not prepare the rules of %s", game_id)
            self.ready[game_id] = True

    def _prepare(self, game_id: str) -> None:
        if not kernels_cached(game_id):
            self._child = subprocess.Popen([sys.executable, "-m", "boardlab.server.warmup", game_id],
                                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, errors = self._child.communicate()
            if self._child.returncode not in (0, -15):
                log.warning("compiling %s in a child process failed: %s", game_id, errors.decode()[-500:])
            self._child = None
            if self._stop.is_set():
                return
        exercise(game_id)
        if self._search is not None:
            found = self._search(game_id)
            if found is not None:
                found.result(timeout=600)


def main(argv: list[str]) -> int:
    for game_id in argv:
        exercise(game_id)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
