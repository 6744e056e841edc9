"""Preparing the games' rules and the computer's search, so that the server answers at once after a start
and the first person to press Play waits for numba no longer than one compilation.

Nothing compiles when the server's modules are imported: the game kernels and the search are imported
when first needed, and compiled, where numba's disk cache lacks them, in a child process (``python -m
boardlab.server.warmup GAME`` or ``--search``), so that the compiler never holds this process's
interpreter lock while requests wait (19.7 s for Möbiatus on a cold cache, 5.3 s for the search, on
the 2-core machine); this process then loads them from the cache, in a second or so.

:func:`prepare` and :func:`prepare_search` do that for one game, or for the search, once per process:
a request that needs a game nobody has prepared yet starts its compilation at once (beside the
warm-up's, not after it), and a second request for it waits for the first one's. :class:`Warmup` is
the thread that prepares the search and then every game in the catalogue's order after the server
starts answering, and runs a tiny search of each in the computer's worker process; until a game is
ready its pages say that its rules are being prepared (``GET /api/status``).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path

from boardlab.core.registry import _cache_subpath, game_ids, kernels_cached

log = logging.getLogger("boardlab.server")
SEARCH_MODULE = "boardlab.ai.mcts_kernel"  # its entry point has an explicit signature: compiled when imported
_lock = threading.Lock()
_loaded: set[str] = set()  # games whose kernels this process has loaded
_loading: dict[str, threading.Event] = {}  # games being prepared, and what their waiters wait on
_search_lock = threading.Lock()
_children: set[subprocess.Popen[bytes]] = set()


def exercise(game_id: str) -> None:
    """Compile (or load) everything a game's first moves need: its rules kernels, move texts, views."""
    from boardlab.core.registry import load

    state = load(game_id).new_game()
    moves = state.legal_moves()
    after = state.play(moves[0])
    after.view(after.to_move).legal_moves()


def prepare(game_id: str) -> None:
    """Make ``game_id``'s rules ready in this process: compiled in a child process if numba's cache lacks
    them, then loaded here. At once if they are; waits for another thread already preparing them."""
    key = game_id.strip().lower() if isinstance(game_id, str) else game_id
    if key in _loaded or key not in game_ids():
        return  # ready; or no such game, which loading it will say
    with _lock:
        if key in _loaded:
            return
        event = _loading.get(key)
        owner = event is None
        if event is None:
            event = _loading[key] = threading.Event()
    if not owner:
        event.wait(timeout=900)
        return
    try:
        if not kernels_cached(key):
            _compile_in_child(key)
        exercise(key)
        _loaded.add(key)
    finally:
        with _lock:
            _loading.pop(key, None)
        event.set()


def search_imported() -> bool:
    return "boardlab.ai.levels" in sys.modules


def prepare_search() -> None:
    """Import the computer's agents in this process (to check an agent's name, list the levels), after
    compiling the search in a child process if numba's cache lacks it."""
    if search_imported():
        return
    with _search_lock:
        if search_imported():
            return
        if not module_cached(SEARCH_MODULE):
            _compile_in_child("--search")
        import boardlab.ai.levels  # noqa: F401  (from the cache now)


def module_cached(module: str) -> bool:
    """Whether numba's disk cache seems to hold something compiled from ``module`` (as
    :func:`~boardlab.core.registry.kernels_cached` looks for a game's)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return False
    folder = os.path.dirname(os.path.abspath(spec.origin))
    stem = module.rsplit(".", 1)[-1]
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        places = [Path(chosen) / _cache_subpath(folder)]
    else:
        user_wide = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "numba"
        places = [Path(folder) / "__pycache__", user_wide / _cache_subpath(folder)]
    return any(next(place.glob(f"{stem}.*.nbi"), None) is not None for place in places if place.is_dir())


def _compile_in_child(what: str) -> None:
    child = subprocess.Popen([sys.executable, "-m", "boardlab.server.warmup", what],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _children.add(child)
    try:
        _, errors = child.communicate()
    finally:
        _children.discard(child)
    if child.returncode not in (0, -15):
        log.warning("compiling %s in a child process failed: %s", what, errors.decode()[-500:])


def stop_children() -> None:
    for child in list(_children):
        if child.poll() is None:
            child.terminate()


class Warmup:
    """The games' readiness as this server tells its pages, and the thread that makes them ready."""

    def __init__(self, search: Callable[[str], Future[object] | None] | None = None) -> None:
        self.ready: dict[str, bool] = dict.fromkeys(game_ids(), False)
        self.search_ready = threading.Event()
        self._search = search  # starts a tiny search of a game in the computer's worker process
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="boardlab-warmup", daemon=True)
        self._thread.start()

    def mark_all_ready(self) -> None:
        """Without a warm-up (turned off), nothing is said to be preparing: requests prepare as they come."""
        self.ready = dict.fromkeys(self.ready, True)

    def ensure(self, game_id: str) -> None:
        """``game_id``'s rules ready for a request (see :func:`prepare`)."""
        prepare(game_id)
        if game_id in self.ready:
            self.ready[game_id] = True

    def ensure_with_search(self, game_id: str) -> None:
        """The game's rules and the computer's search, prepared side by side (a game against the computer)."""
        if search_imported():
            self.ensure(game_id)
            return
        rules = threading.Thread(target=self.ensure, args=(game_id,), name="boardlab-prepare", daemon=True)
        rules.start()
        prepare_search()
        rules.join()

    def stop(self) -> None:
        self._stop.set()
        stop_children()

    def _run(self) -> None:
        try:
            prepare_search()
        except Exception:  # the computer's games fail with the error; the rules can still be prepared
            log.exception("could not prepare the computer's search")
        self.search_ready.set()
        for game_id in list(self.ready):
            if self._stop.is_set():
                return
            try:
                self.ensure(game_id)
                if self._stop.is_set():
                    return
                if self._search is not None:
                    found = self._search(game_id)
                    if found is not None:
                        found.result(timeout=600)
            except Exception:  # a game that fails here fails for its players too, with the error: go on
                log.exception("could not prepare the rules of %s", game_id)
            self.ready[game_id] = True


def main(argv: list[str]) -> int:
    for what in argv:
        if what == "--search":
            importlib.import_module(SEARCH_MODULE)
        else:
            exercise(what)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
