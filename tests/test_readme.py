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


def _shell_lines() -> list[str]:
    """Every command line of the README's ``sh`` blocks, without its comment (a backslash joins lines)."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            command = line.split(" #")[0].strip()
            if command:
                lines.append(command)
    return lines


def test_the_set_up_activates_the_environment_before_any_command() -> None:
    """One activation step comes first, so that every later ``boardlab`` and ``pip`` runs in .venv."""
    lines = _shell_lines()
    assert lines[:4] == ["python3 -m venv .venv", ". .venv/bin/activate", "pip install -e .", "boardlab play ndengrod"]
    assert "`.venv/bin/`" in README.read_text() and "pytest" in README.read_text()


def test_every_boardlab_command_in_the_readme_is_one_the_command_line_accepts() -> None:
    """Each ``boardlab …`` example parses: no option renamed or removed since the README was written."""
    import shlex

    from boardlab.cli.main import build_parser

    commands = [line for line in _shell_lines() if re.match(r"(XDG_CONFIG_HOME=\S+ )?boardlab ", line)]
    assert len(commands) > 30
    for line in commands:
        words = shlex.split(line.split(" > ")[0])
        words = words[1:] if words[0].startswith("XDG_CONFIG_HOME=") else words
        try:
            build_parser().parse_args(words[1:])
        except SystemExit:
            pytest.fail(f"the README's command does not parse: {line}")


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
