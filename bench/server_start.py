"""Time to first answer of ``boardlab serve`` on an empty numba cache, and how long the first games wait.

    python bench/server_start.py                  # a new SQLite database, NUMBA_CACHE_DIR an empty folder
    python bench/server_start.py --warm           # with numba's cache as it is (a restart)
    python bench/server_start.py --game mobiatus  # the first game asked for, against the computer

Starts ``boardlab serve`` (``sys.executable -m boardlab``, so ``PYTHONPATH`` picks the checkout measured)
and asks ``GET /api/status`` every 20 ms. Prints the seconds from the start until the first answer, then
until a guest's first game against the computer (``--game``, asked for as soon as the server answers) is
answered, then until the background warm-up has prepared every game's rules. With an empty cache numba
compiles everything: the game's rules (in a child process) and the computer's search. A game of a kind
asked for before the warm-up reaches it is compiled at once, beside the warm-up, not after it. The
server's own CPU time and the machine's load average are printed too: on the shared 2-core machine the
wall-clock times grow with the load. Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def ask(url: str, body: Any = None, timeout: float = 600) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of the server process and its children that have exited."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warm", action="store_true", help="keep numba's cache (default: an empty NUMBA_CACHE_DIR)")
    parser.add_argument("--game", default="ndengrod", help="the first game asked for, against the computer "
                        "(ndengrod; 'none': no game)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="boardlab-start-"))
    env = dict(os.environ)
    if not args.warm:
        (folder / "numba").mkdir()
        env["NUMBA_CACHE_DIR"] = str(folder / "numba")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    load_before = os.getloadavg()
    began = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "boardlab", "serve", "--db", f"sqlite:///{folder / 'start.db'}",
                               "--port", str(port), "--log-level", "warning"], cwd=folder, env=env,
                              stdout=subprocess.DEVNULL, stderr=open(folder / "serve.log", "wb"))  # noqa: SIM115
    figures: dict[str, Any] = {"cache": "warm" if args.warm else "empty"}
    try:
        while True:
            try:
                status, found = ask(f"{url}/api/status", timeout=5)
                if status == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None:
                raise SystemExit(f"the server stopped: {(folder / 'serve.log').read_text()[-2000:]}")
            time.sleep(0.02)
        figures["first_answer_s"] = round(time.perf_counter() - began, 2)
        figures["server_cpu_at_first_answer_s"] = round(cpu_seconds(server.pid), 2)
        if args.game != "none":
            asked = time.perf_counter()
            status, created = ask(f"{url}/api/games", {"game": args.game})
            if status != 201:
                raise SystemExit(f"the first game was refused: {status} {created}")
            figures["first_game"] = args.game
            figures["first_game_answered_s"] = round(time.perf_counter() - began, 2)
            figures["first_game_waited_s"] = round(time.perf_counter() - asked, 2)
        while True:
            status, found = ask(f"{url}/api/status", timeout=30)
            if all(found["rules_ready"].values()):
                break
            time.sleep(0.2)
        figures["all_rules_ready_s"] = round(time.perf_counter() - began, 2)
        figures["load_before"] = [round(x, 2) for x in load_before]
        figures["load_after"] = [round(x, 2) for x in os.getloadavg()]
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"boardlab serve, numba's cache {figures['cache']}:")
    print(f"  first answer          {figures['first_answer_s']} s (server CPU by then "
          f"{figures['server_cpu_at_first_answer_s']} s)")
    if "first_game" in figures:
        print(f"  first game answered   {figures['first_game_answered_s']} s ({figures['first_game']} against the "
              f"computer, asked at the first answer: it waited {figures['first_game_waited_s']} s)")
    print(f"  every game ready      {figures['all_rules_ready_s']} s (the background warm-up)")
    print(f"  load average          {figures['load_before']} before, {figures['load_after']} after")


if __name__ == "__main__":
    main()
