"""Declared game options: name, type, default, what is accepted, and which seed ambiguity it settles.

Every game declares its options once, as a tuple of :class:`Option` (boardlab's games as data, in the
``game.toml`` beside the game's ``__init__.py``: :func:`options_from_tables`); the CLI, the records,
the docs and the conformance tests all read them from there.

>>> size = Option("size", 5, "cells along each side of the board", minimum=2, maximum=12)
>>> size.parse("6")
6
>>> size.allowed
'an integer from 2 to 12'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boardlab.errors import BoardlabError, OptionError

OptionValue = int | bool | str

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a game.

    ``default`` fixes the type: an ``int``, a ``bool`` or a ``str``. A ``str`` option takes one of
    ``choices``; an ``int`` option may be bounded by ``minimum``/``maximum``. ``ambiguity`` names the
    seed ambiguity (``"N1"``) that the option settles, and ``added`` marks a rule the seed does not
    have at all (a draw rule, a move cap).
    """

    name: str
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    ambiguity: str | None = None
    added: bool = False
    choice_help: Mapping[str, str] = field(default_factory=dict)

    @property
    def kind(self) -> type:
        return type(self.default)

    @property
    def allowed(self) -> str:
        """What the option accepts, in words (used in error messages and listings)."""
        if self.kind is bool:
            return "true or false"
        if self.kind is str:
            return "one of " + ", ".join(self.choices)
        if self.minimum is not None and self.maximum is not None:
            return f"an integer from {self.minimum} to {self.maximum}"
        if self.minimum is not None:
            return f"an integer of at least {self.minimum}"
        return "an integer"

    def parse(self, value: Any, game: str = "") -> OptionValue:
        """Check ``value`` (a Python value or command-line text) and return it in the option's type."""
        where = f"{game}: " if game else ""
        bad = OptionError(f"{where}option {self.name}={value!r} is not accepted; accepted: {self.allowed}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
                return value.strip().lower() in _TRUE
            raise bad
        if self.kind is int:
            if isinstance(value, bool):
                raise bad
            if isinstance(value, str):
                if not value.strip().isascii():  # int() would take full-width and other scripts' digits
                    raise bad
                try:
                    value = int(value.strip())
                except ValueError:
                    raise bad from None
            if not isinstance(value, int):
                raise bad
            if (self.minimum is not None and value < self.minimum) or (
                self.maximum is not None and value > self.maximum
            ):
                raise OptionError(
                    f"{where}option {self.name}={value} is out of range; accepted: {self.allowed}"
                )
            return value
        if isinstance(value, str) and value.strip().lower() in self.choices:
            return value.strip().lower()
        raise bad


_TABLE_KEYS = ("default", "help", "minimum", "maximum", "ambiguity", "added", "choices")


def options_from_tables(where: str, tables: Mapping[str, Any]) -> tuple[Option, ...]:
    """Options declared as data (a game's ``game.toml``, its ``[options]``), in the tables' order.

    Each table is one option, named by its key: ``default`` (its type fixes the option's) and
    ``help``; as needed ``minimum``, ``maximum``, ``ambiguity`` and ``added``; for a text option
    ``choices``: a list of the accepted values, or a table of each value and what it means (its help).

    >>> options_from_tables("g", {"reach": {"default": "near", "help": "how far",
    ...                                     "choices": {"near": "one step", "far": "any distance"}}})
    (Option(name='reach', default='near', help='how far', choices=('near', 'far'), minimum=None, maximum=None, \
ambiguity=None, added=False, choice_help={'near': 'one step', 'far': 'any distance'}),)
    """
    return tuple(_option_from_table(f"{where} [options.{name}]", name, table) for name, table in tables.items())


def _option_from_table(where: str, name: str, table: Any) -> Option:
    if not isinstance(table, dict) or "default" not in table or "help" not in table:
        raise BoardlabError(f"{where}: an option is a table with at least default and help")
    unknown = [key for key in table if key not in _TABLE_KEYS]
    if unknown:
        raise BoardlabError(f"{where}: unknown key {unknown[0]!r}; accepted: {', '.join(_TABLE_KEYS)}")
    choices = table.get("choices", ())
    choice_help = dict(choices) if isinstance(choices, dict) else {}
    return Option(name, table["default"], table["help"], choices=tuple(choices), minimum=table.get("minimum"),
                  maximum=table.get("maximum"), ambiguity=table.get("ambiguity"), added=table.get("added", False),
                  choice_help=choice_help)


def resolve_options(
    game: str, declared: tuple[Option, ...], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Return every declared option's value: ``given`` checked and parsed, the rest defaulted.

    >>> opts = (Option("size", 5, "side"), Option("swap", False, "pie rule"))
    >>> resolve_options("g", opts, {"swap": "on"})
    {'size': 5, 'swap': True}
    >>> resolve_options("g", opts, {"colour": "red"})
    Traceback (most recent call last):
    ...
    boardlab.errors.OptionError: g: unknown option 'colour'; accepted: size, swap
    """
    by_name = {option.name: option for option in declared}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        raise OptionError(f"{game}: unknown option {unknown[0]!r}; accepted: {', '.join(by_name)}")
    return {
        name: option.parse(given[name], game) if name in given else option.default
        for name, option in by_name.items()
    }


def parse_assignments(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """Turn command-line ``k=v`` pairs into a dict (values stay text; options parse them).

    >>> parse_assignments(["size=4", "swap=true"])
    {'size': '4', 'swap': 'true'}
    """
    result: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"option {pair!r} is not of the form name=value (for example size=5)")
        result[name.strip()] = value.strip()
    return result
