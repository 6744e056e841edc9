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
