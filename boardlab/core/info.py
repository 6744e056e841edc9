"""What a game is, declared once: its description and named variants (no numpy, no numba).

Kept apart from :mod:`boardlab.core.game` so that listing games, parsing a command line or saying
what is about to be compiled costs no import of the compiled rules.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import Any

from boardlab.core.options import Option, OptionValue, options_from_tables
from boardlab.errors import BoardlabError, OptionError


@dataclass(frozen=True)
class Variant:
    """A named set of options, for a rule set published elsewhere (Pentalath, Ludii's board…)."""

    name: str
    options: Mapping[str, OptionValue]
    help: str


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once: every tool reads these fields instead of assuming."""

    id: str
    name: str
    designer: str
    year: int
    players: tuple[int, ...]
    options: tuple[Option, ...]
    rules_version: str
    summary: str
    source: str
    perfect_information: bool = True
    variants: tuple[Variant, ...] = ()
    end_reasons: Mapping[int, str] = field(default_factory=dict)
    # End reasons that come from a rule boardlab added to the seed's (a ply cap, a repetition draw), each
    # with the rule that adds it (option and ambiguity ID): a playtest tells the seed's own draws from
    # draws at an added rule.
    added_endings: Mapping[int, str] = field(default_factory=dict)
    # How moves are written, in a sentence or two for a newcomer (the terminal's first screen, the game
    # page): shown before any mistake, not only in the error a mistake gets.
    notation: str = ""

    def option(self, name: str) -> Option:
        """The declared option called ``name``."""
        for option in self.options:
            if option.name == name:
                return option
        raise OptionError(
            f"{self.id}: unknown option {name!r}; accepted: {', '.join(o.name for o in self.options)}"
        )

    def variant(self, name: str) -> Variant:
        """The declared variant called ``name``."""
        for variant in self.variants:
            if variant.name == name:
                return variant
        accepted = ", ".join(v.name for v in self.variants) or "none"
        raise OptionError(f"{self.id}: unknown variant {name!r}; accepted: {accepted}")

    @property
    def defaults(self) -> dict[str, OptionValue]:
        return {option.name: option.default for option in self.options}

    def __repr__(self) -> str:
        return f"<GameInfo {self.id}: {self.name} by {self.designer}, {self.year}>"


_INFO_KEYS = ("id", "name", "designer", "year", "players", "rules_version", "summary", "source",
              "perfect_information", "end_reasons", "added_endings", "variants", "options", "notation")


@cache
def game_table(package: str) -> Mapping[str, Any]:
    """The game package ``package``'s ``game.toml``: what the game is, declared as data."""
    try:
        return tomllib.loads(files(package).joinpath("game.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise BoardlabError(f"{package}: cannot read game.toml: {error}") from None


def read_info(package: str) -> GameInfo:
    """The description that the game package ``package`` declares in its ``game.toml``.

    Its keys are :class:`GameInfo`'s fields (``end_reasons`` and ``added_endings`` keyed by the
    number as text), ``[variants.NAME]`` tables of ``help`` and ``options``, and ``[options.NAME]``
    tables (:func:`~boardlab.core.options.options_from_tables`); ``[samples]`` is the package's
    (:func:`~boardlab.core.package.read_samples`).

    >>> read_info("boardlab.games.gtbm").variants
    (Variant(name='sixteen', options={'size': 16}, help="the seed's optional 16×16 board with 16 pieces each"),)
    """
    where = f"{package} game.toml"
    table = {key: value for key, value in game_table(package).items() if key != "samples"}
    unknown = [key for key in table if key not in _INFO_KEYS]
    if unknown:
        raise BoardlabError(f"{where}: unknown key {unknown[0]!r}; accepted: {', '.join(_INFO_KEYS)}, samples")
    built = ("players", "options", "variants", "end_reasons", "added_endings")
    try:
        return GameInfo(
            **{key: value for key, value in table.items() if key not in built},
            players=tuple(table["players"]),
            options=options_from_tables(where, table.get("options", {})),
            variants=tuple(Variant(name, v["options"], v["help"]) for name, v in table.get("variants", {}).items()),
            end_reasons={int(n): text for n, text in table.get("end_reasons", {}).items()},
            added_endings={int(n): text for n, text in table.get("added_endings", {}).items()},
        )
    except (KeyError, TypeError, ValueError) as error:
        raise BoardlabError(f"{where}: not a game description ({error!r})") from None


def info_document(info: GameInfo) -> dict[str, Any]:
    """``info`` as JSON data: the one form that ``boardlab games --json`` prints and the server's
    catalog serves (its ``GameInfoOut`` model reads exactly these fields)."""
    return {
        "id": info.id, "name": info.name, "designer": info.designer, "year": info.year,
        "players": list(info.players), "summary": info.summary, "rules_version": info.rules_version,
        "perfect_information": info.perfect_information,
        "options": [
            {"name": o.name, "type": o.kind.__name__, "default": o.default, "allowed": o.allowed, "help": o.help,
             "choices": list(o.choices), "choice_help": dict(o.choice_help), "minimum": o.minimum,
             "maximum": o.maximum, "ambiguity": o.ambiguity, "added": o.added}
            for o in info.options
        ],
        "variants": [{"name": v.name, "options": dict(v.options), "help": v.help} for v in info.variants],
    }
