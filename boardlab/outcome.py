"""How a game ended, in one sentence for people: the one wording every layer uses (the server's pages
and API, ``boardlab remote``, ``boardlab replay``, records' summaries).

A player is named with the seat's colour or letter, as the rules call it at the end; the winner
first, then why:

>>> outcome_sentence([1.0, 0.0], "resignation", ["ann", "bob"], ["x", "o"], loser=1)
'ann (x) won (bob (o) resigned)'
>>> outcome_sentence([0.5, 0.5], "agreement", ["ann", "bob"], ["x", "o"])
'Draw by agreement'
>>> outcome_sentence([0.0, 1.0], "rules", ["ann", "level3"], ["White", "Black"], reason="far row")
'level3 (Black) won by far row'
>>> outcome_sentence([0.0, 1.0, 1.0], "timeout", ["ann", "bob", "cy"], ["red", "blue", "green"], loser=0)
'bob (blue) and cy (green) won (ann (red) ran out of time)'
>>> outcome_sentence([1.0, 0.0], None, ["x", "o"], ["x", "o"])
'x won'
"""

from __future__ import annotations

from collections.abc import Sequence

RESIGNATION, TIMEOUT, AGREEMENT = "resignation", "timeout", "agreement"


def player_words(name: str | None, label: str) -> str:
    """A player as a sentence names them: ``ann (x)``; the label alone where the name adds nothing."""
    if not name or name == label:
        return label
    return f"{name} ({label})"


def _joined(words: list[str]) -> str:
    if len(words) <= 2:
        return " and ".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def outcome_sentence(result: Sequence[float], termination: str | None, players: Sequence[str | None],
                     labels: Sequence[str], loser: int | None = None, reason: str | None = None) -> str:
    """The end of a game in words (no final full stop).

    ``result``: one score per seat (1 won, ½ drew, 0 lost); ``termination``: ``rules`` (or ``None``),
    ``resignation``, ``timeout`` or ``agreement``; ``players``: their names (``None``: nobody's);
    ``labels``: what the rules call each seat at the end; ``loser``: the seat that resigned or ran
    out of time; ``reason``: why the rules ended the game, in their words.
    """
    who = [player_words(players[seat] if seat < len(players) else None, labels[seat]) for seat in range(len(result))]
    winners = [who[seat] for seat, score in enumerate(result) if score == 1]
    if termination == AGREEMENT:
        return "Draw by agreement"
    if termination in (RESIGNATION, TIMEOUT) and loser is not None and winners:
        how = "resigned" if termination == RESIGNATION else "ran out of time"
        return f"{_joined(winners)} won ({who[loser]} {how})"
    by = f" by {reason}" if reason else ""
    if winners:
        return f"{_joined(winners)} won{by}"
    sharing = [who[seat] for seat, score in enumerate(result) if score == 0.5]
    if len(sharing) == len(result) or not sharing:
        return f"Draw{by}"
    return f"Draw between {_joined(sharing)}{by}"
