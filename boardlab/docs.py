"""The rules documents (``docs/rules/<game>.md``), for ``boardlab rules`` and the help screens.

Installed from a wheel, they are packaged as ``boardlab/_rules``; in a source checkout they are
read from ``docs/rules`` beside the package. A game from another distribution names its own
document (:attr:`boardlab.core.package.GamePackage.rules`).
"""

from __future__ import annotations

from pathlib import Path

from boardlab.errors import BoardlabError

_PACKAGED = Path(__file__).parent / "_rules"
_SOURCE = Path(__file__).parent.parent / "docs" / "rules"


def rules_path(game_id: str) -> Path:
    from boardlab.core.registry import packages

    declared = packages().get(game_id)
    if declared is not None and declared.rules is not None:
        if declared.rules.is_file():
            return declared.rules
        raise BoardlabError(f"no rules document for {game_id!r} (its package names {declared.rules})")
    for folder in (_PACKAGED, _SOURCE):
        path = folder / f"{game_id}.md"
        if path.is_file():
            return path
    raise BoardlabError(f"no rules document for {game_id!r} (looked in {_PACKAGED} and {_SOURCE})")


def rules_text(game_id: str) -> str:
    """The rules of ``game_id`` as implemented, in Markdown."""
    return rules_path(game_id).read_text(encoding="utf-8")
