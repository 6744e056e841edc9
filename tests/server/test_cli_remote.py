"""``boardlab remote``: the play-by-mail commands against a live server, and the token file's permissions."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.cli.main import main
from tests.server.conftest import LiveServer, settings_for


class Remote:
    def __init__(self, url: str, home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
        self.url, self.home, self.monkeypatch, self.capsys = url, home, monkeypatch, capsys

    def __call__(self, *args: str, stdin: str = "") -> tuple[int, str, str]:
        self.monkeypatch.setenv("XDG_CONFIG_HOME", str(self.home))
        self.monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
        self.capsys.readouterr()
        code = main(["remote", "--server", self.url, *args])
        out = self.capsys.readouterr()
        return code, out.out, out.err


def test_two_people_play_by_mail(sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    with LiveServer(settings_for(sqlite_url)) as server:
        ann = Remote(server.url, tmp_path / "ann", monkeypatch, capsys)
        bob = Remote(server.url, tmp_path / "bob", monkeypatch, capsys)
        # The password is asked twice; two that differ register nobody.
        cat = Remote(server.url, tmp_path / "cat", monkeypatch, capsys)
        code, _, err = cat("register", "cat", stdin="one password\nanother password\n")
        assert code == 2 and "the two passwords differ" in err
        assert cat("login", "cat", stdin="one password\n")[0] == 2  # no such account
        assert ann("register", "ann", stdin="a long password\na long password\n")[0] == 0
        assert bob("register", "bob", stdin="bob's password\nbob's password\n")[0] == 0
        token_file = tmp_path / "ann" / "boardlab" / "remote.json"
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700
        assert json.loads(token_file.read_text())["servers"][server.url]["user"] == "ann"

        code, out, _ = ann("challenge", "ndengrod", "-o", "size=3", "-o", "length=3", "bob")
        assert code == 0 and "Game 1 (Ndengrod): ann (x) vs bob (o)" in out
        assert "challenge for you" in bob("games")[1]
        assert bob("accept", "1")[0] == 0
        code, out, _ = ann("move", "1", "b2")
        assert code == 0 and "o to move" in out

        code, out, err = bob("move", "1", "b2")
        assert code == 2 and "b2 is occupied" in err and "HTTP 422" in err
        code, out, _ = bob("board", "1")
        assert "b- . x . . /" in out and "Your moves: a1" in out
        assert "YOUR TURN" in bob("games")[1]
        watcher = subprocess.Popen([sys.executable, "-m", "boardlab", "remote", "--server", server.url, "watch", "1"],
                                   env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "bob")},
                                   stdout=subprocess.PIPE, text=True)
        assert watcher.stdout is not None
        assert watcher.stdout.readline().startswith("Game 1 (Ndengrod)")  # connected: it prints as moves come
        assert bob("move", "1", "a1")[0] == 0
        assert ann("resign", "1")[0] == 0
        watched, _ = watcher.communicate(timeout=60)
        assert watcher.returncode == 0
        assert "2. o: a1" in watched and "bob (o) won (ann (x) resigned)" in watched
        assert "bob (o) won (ann (x) resigned)" in ann("games")[1]
        record = json.loads(ann("record", "1")[1])
        assert record["moves"] == ["b2", "a1"] and record["termination"] == "resignation"
        assert record["tags"]["outcome"] == "bob (o) won (ann (x) resigned)"  # the record's summary, in words
        code, _, err = Remote(server.url, tmp_path / "nobody", monkeypatch, capsys)("challenge", "ndengrod", "ann")
        assert code == 2 and "log in first" in err


def test_an_unreachable_server_is_one_line_and_status_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    remote = Remote("http://127.0.0.1:9", tmp_path, monkeypatch, capsys)
    code, _, err = remote("board", "1")
    assert code == 2 and err.count("\n") == 1 and "cannot reach the server" in err
