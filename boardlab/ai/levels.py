"""Agents by name: ``random``, ``level1`` … ``level5``, ``uct``, ``alphabeta``, with settings after a colon.

>>> agent = make_agent("level3")
>>> agent.settings.iterations
5000
>>> make_agent("uct:seconds=0.5,exploration=1.0").settings.seconds
0.5

``restrict=<name>`` plays with a restriction the game declares (restricted play; see
:mod:`boardlab.ai.restricted`), checked against the game before its first move:

>>> import boardlab
>>> make_agent("level3:restrict=no_sideways").settings.restrict
'no_sideways'
>>> make_agent("level3:restrict=sideways").check(boardlab.load("horsmeier"))
Traceback (most recent call last):
...
boardlab.errors.OptionError: agent setting restrict='sideways': accepted in horsmeier: no_sideways, ignore_lifespan
>>> make_agent("level9")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardlab.errors.OptionError: unknown agent 'level9'; accepted: random, level1, level2, ..., uct, alphabeta
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from boardlab.ai.base import Agent
from boardlab.ai.mcts import MCTSAgent, SearchSettings
from boardlab.ai.random_agent import RandomAgent
from boardlab.core import registry
from boardlab.errors import OptionError

# From a beginner's opponent (little search, its move drawn at random by the search's counts) to the
# strongest search that fits in a few seconds a move. Budgets are iterations where possible, so
# strength does not depend on the machine; level 5 is timed. Every level uses the game's own
# improvements over plain UCT where a match showed they win: playouts cut off and scored by its
# evaluation, or, for GTBM, alpha-beta on the evaluation instead of MCTS (``depth`` bounds it at the
# lower levels). ``uct`` is plain UCT.
# Only level 1 samples its move. Level 2 used to sample too (temperature 0.25), and in Möbiatus and
# GTBM that was as weak as level 1: Möbiatus' 44-odd first moves share 1,000 playouts almost evenly,
# so sampling by visits was nearly a random move; GTBM's alpha-beta values (a piece up, level, a
# piece down) weighed by value^4 left a capture barely likelier than a quiet move. Level 2 now plays
# its best move. In GTBM (the only game ``depth`` bounds) it looks one ply ahead: it takes what it
# can and misses the recapture, a beginner's mistake; at two plies it drew 18 of 20 against level 3.
# Level 4 was "40,000 iterations or 2 s", and level 5, with twice its time, searched only two to
# three times as much in most games and could not be told from it in Horsmeier, HMDG and GTBM. Level 4
# now searches 20,000 iterations (4x level 3) and GTBM's alpha-beta 7 plies (level 3: 4), so level 5's
# 4 s is 2.7x (Mynd) to 18x (Ndengrod) level 4's search on a quiet machine. The 2 s only bounds level
# 4 on a slow machine. GTBM's depths were set for its material evaluation (level 5 reached 10 plies).
# Its evaluation of 25 November prunes less; with moves ordered in the search (later that day) level
# 4's 7 plies take 0.1-0.6 s and level 5's 4 s reach 8-9 plies (docs/findings/ladder.md).
# docs/findings/ladder.md has the matches.
LEVELS: dict[int, SearchSettings] = {
    1: SearchSettings(iterations=100, temperature=1.0, solver=False, reuse_tree=False, depth=1),
    2: SearchSettings(iterations=1_000, depth=1),
    3: SearchSettings(iterations=5_000, depth=4),
    4: SearchSettings(iterations=20_000, seconds=2.0, depth=7),
    5: SearchSettings(seconds=4.0),
}
DEFAULT_LEVEL = 3
# The levels as they were on 26 November 2026, before the search enhancements (issue 29): kept as
# agents ``level1_2026`` … ``level5_2026`` so that the new levels can be measured against them.
LEVELS_2026: dict[int, SearchSettings] = dict(LEVELS)
# The search enhancements levels 2-5 use in each game (issue 29) are the game's own knowledge: its
# package declares them (``GamePackage.tuned_search``), chosen by matches at equal iterations against
# the levels of 2026 (docs/findings/search.md has every match). GRAVE with Ludii's MC-GRAVE
# settings (ref 100, bias 1e-5, no exploration term: unvisited children first, then the blend of mean
# and AMAF mean alone) won in every MCTS game; with UCT's exploration term (0.7) it did not (Horsmeier
# 47.5%, Möbiatus 37.5% at 2,000 iterations; Mynd 44% over the 9 games played), as Gelly and Silver
# found for MC-RAVE against UCT-RAVE. MAST lost in HMDG and Möbiatus and hurt beside GRAVE in
# Horsmeier; implicit minimax backups beside GRAVE lost to GRAVE alone in Horsmeier (35%), so neither
# is used. GTBM's levels search by alpha-beta, which has no iterations and none of these settings
# (MCTS with GRAVE and implicit backups lost every game against it); its levels 2-5 are tuned with
# alpha-beta's own enhancements instead (``table``: a transposition table), measured at equal time.
# Level 1 stays a beginner's opponent: plain UCT, 100 iterations, its move sampled.
TUNED_LEVELS = (2, 3, 4, 5)


def tuned(level: int) -> dict[str, SearchSettings]:
    """The settings of ``level`` in each game it is tuned for (the others use ``LEVELS[level]``).

    >>> tuned(3)["ndengrod"] == replace(LEVELS[3], amaf="grave", exploration=0.0)
    True
    >>> tuned(3)["gtbm"].table, LEVELS[3].table, tuned(1)
    (True, False, {})
    """
    if level not in TUNED_LEVELS:
        return {}
    found = {}
    for game_id, package in registry.packages().items():
        changes = {**package.tuned_search, **package.tuned_levels.get(level, {})}
        if not changes:
            continue
        try:
            found[game_id] = replace(LEVELS[level], **changes)
        except TypeError:
            known = ", ".join(f.name for f in fields(SearchSettings))
            raise OptionError(f"{game_id}'s tuned_search {changes!r} (level {level}): accepted: the "
                              f"search settings {known}") from None
    return found


NAMES = ("random", *(f"level{n}" for n in LEVELS), *(f"level{n}_2026" for n in LEVELS_2026), "uct", "alphabeta")


def _parse_settings(text: str, base: SearchSettings) -> SearchSettings:
    known = {f.name: f.type for f in fields(SearchSettings)}
    changes: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or name not in known:
            raise OptionError(f"agent setting {item!r}: accepted: {', '.join(f'{n}=…' for n in known)}")
        changes[name] = _convert(name, value, known[name])
        _check_range(item, name, changes[name])
    if "seconds" in changes and "iterations" not in changes:
        changes["iterations"] = None  # a time budget given alone replaces the iteration budget
    if "iterations" in changes and "seconds" not in changes:
        changes["seconds"] = None  # and an iteration budget alone the time budget: equal iterations, whatever the load
    return replace(base, **changes)


# What each numeric setting accepts: (lowest, highest, whether the lowest itself is allowed). A value
# outside it (nan and inf included) would crash or hang the search at its first move, not here.
# (The search checks its integer settings itself.)
_RANGES: dict[str, tuple[float, float, bool]] = {
    "seconds": (0.0, 3600.0, False), "exploration": (0.0, 100.0, True), "temperature": (0.0, 100.0, True),
}


def _check_range(item: str, name: str, value: Any) -> None:
    if name not in _RANGES or value is None or isinstance(value, bool):
        return
    low, high, closed = _RANGES[name]
    if not ((low <= value if closed else low < value) and value <= high):  # false for nan
        lowest = f"at least {low:g}" if closed else f"above {low:g}"
        raise OptionError(f"agent setting {item!r}: accepted: a number {lowest}, at most {high:g}")


def _convert(name: str, value: str, kind: Any) -> Any:
    text = str(kind)
    try:
        if "bool" in text:
            if value.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise ValueError(value)
            return value.lower() in ("true", "1", "yes", "on")
        if "float" in text:
            return None if value.lower() == "none" else float(value)
        if "int" in text:
            return None if value.lower() == "none" else int(value)
    except ValueError:
        accepted = ("true or false (also 1/0, yes/no, on/off)" if "bool" in text
                    else "a number, or none" if "None" in text else "a number")
        raise OptionError(f"agent setting {name}={value!r} is not a valid {text}; accepted: {accepted}") from None
    return value


def make_agent(spec: str, seed: int | None = None, seconds: float | None = None) -> Agent:
    """The agent that ``spec`` names (``level3``, ``uct:seconds=1``, ``random``).

    ``seconds`` (a match's ``--seconds-per-move``) gives searching agents that time a move instead
    of their own budget, unless the spec sets ``seconds`` itself.
    """
    if seconds is not None:
        _check_range(f"seconds={seconds}", "seconds", seconds)
    kind, _, rest = spec.strip().partition(":")
    kind = kind.lower()
    if kind == "random":
        if rest:
            raise OptionError("the random agent takes no settings")
        return RandomAgent(seed=seed)
    if kind == "alphabeta":
        return _alphabeta(rest, seed, seconds, spec.strip())
    per_level: dict[str, SearchSettings] = {}
    level = kind[5:].removesuffix("_2026")
    if kind.startswith("level") and level.isdecimal() and int(level) in LEVELS:
        if kind.endswith("_2026"):
            base = LEVELS_2026[int(level)]
        else:
            base, per_level = LEVELS[int(level)], tuned(int(level))
    elif kind == "uct":
        base = SearchSettings(iterations=5_000, cutoff=0, algorithm="mcts")  # plain UCT: random playouts
    else:
        raise OptionError(f"unknown agent {spec!r}; accepted: {', '.join(NAMES)}")
    if seconds is not None and "seconds=" not in rest:
        base = replace(base, seconds=seconds, iterations=None)
        per_level = {game: replace(settings, seconds=seconds, iterations=None) for game, settings in per_level.items()}
    per_game = {game: _parse_settings(rest, settings) for game, settings in per_level.items()}
    return MCTSAgent(_parse_settings(rest, base), seed=seed, name=spec.strip(), per_game=per_game)


def _alphabeta(rest: str, seed: int | None, seconds: float | None, name: str) -> Agent:
    from boardlab.ai.alphabeta import AlphaBetaAgent

    settings: dict[str, Any] = {"seconds": 1.0 if seconds is None else seconds, "max_depth": 32, "table": False,
                                "quiescence": 0, "contempt": 0.0, "evaluation": "default"}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or key not in settings:
            raise OptionError(f"agent setting {item!r}: accepted: seconds=…, max_depth=…, table=…, quiescence=…, "
                              "contempt=…, evaluation=…")
        if key == "evaluation":
            settings[key] = value  # checked against the game's evaluations before the first move
            continue
        if key in ("table", "quiescence", "contempt"):
            settings[key] = _convert(key, value, {"table": "bool", "quiescence": "int", "contempt": "float"}[key])
            if settings[key] is None or settings[key] < 0:
                raise OptionError(f"agent setting {item!r}: accepted: a number, 0 or more")
            continue
        settings[key] = _convert(key, value, "float" if key == "seconds" else "int")
        if settings[key] is None or settings[key] <= 0:
            raise OptionError(f"agent setting {item!r}: accepted: a positive number")
        _check_range(item, key, settings[key])
    return AlphaBetaAgent(seconds=settings["seconds"], max_depth=settings["max_depth"], seed=seed, name=name,
                          table=settings["table"], quiescence=settings["quiescence"], contempt=settings["contempt"],
                          evaluation=settings["evaluation"])
