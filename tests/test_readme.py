"""The README's Python tour runs as written (so it cannot drift from the API)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).parent.parent / "README.md"


def test_readme_python_tour_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README has a Python tour"
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(README), "exec"), namespace)
    assert (tmp_path / "game.json").exists()
    assert namespace["state"].to_text() == "5/6/7/8/4x4/8/7/6/5 o 1"


def test_readme_names_the_two_commands() -> None:
    text = README.read_text()
    assert ".venv/bin/boardlab play ndengrod" in text
    assert ".venv/bin/pytest" in text


def test_readme_playtest_commands_parse_as_pasted() -> None:
    """Every ``boardlab playtest``/``tune`` line of the README's lab section is a command the CLI accepts
    (a ``--target`` left unquoted would be cut at ``<`` by a shell and fail here)."""
    import shlex

    from boardlab.cli.main import build_parser

    section = README.read_text().split("## Playtesting", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)  # < > | & ; split words, as a shell does
            lexer.whitespace_split = True
            lexer.commenters = "#"
            words = list(lexer)
            if ".venv/bin/boardlab" in words:
                words = words[words.index(".venv/bin/boardlab"):]
                words[0] = "boardlab"
            if words[:1] == ["boardlab"] and words[1:2] in (["playtest"], ["tune"]):
                commands.append(words)
    assert len(commands) >= 8
    for words in commands:
        args = build_parser().parse_args(words[1:])
        assert args.command in ("playtest", "tune")
        for target in getattr(args, "target", None) or []:
            assert "<" in target or ">" in target or "=" in target
