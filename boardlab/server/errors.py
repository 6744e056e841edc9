"""Errors the server answers with a status: each says what was wrong, never with a traceback."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardlab.errors import BoardlabError


class Refused(BoardlabError):
    """A request the server's rules refuse, with a message for people. Which kind of refusal it is says
    what went wrong, in the server's words; the web layer alone turns each kind into an HTTP status
    (:data:`boardlab.server.app.STATUS`)."""


class NotLoggedIn(Refused):
    """Only someone who says who they are (an account's token, a guest seat's token) may do this."""


class NotAllowed(Refused):
    """The caller is known, but this is not theirs to see or do (another seat's view, another's game)."""


class NotFound(Refused):
    """The game, player or thing asked for does not exist."""


class Conflict(Refused):
    """Not now: the game (or account) is not in a state that allows it (over, moved on, taken meanwhile)."""


class TooManyRequests(Refused):
    """Asked too often: try again after ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Unavailable(Refused):
    """The server cannot do it now (a search that took too long, a database lost mid-commit): try again."""


def printable(text: str, limit: int = 2000) -> str:
    """``text`` as an answer may carry it: a character no encoder can write (a lone surrogate) is shown as its
    escape, and a text longer than ``limit`` is cut, saying so."""
    safe = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return safe if len(safe) <= limit else safe[:limit] + "… (cut)"


def _where(location: Sequence[Any]) -> str:
    """A field's place in the request: ``body.time.minutes``, ``query.ply``, ``body.seats.0.kind``."""
    return ".".join(printable(str(part), 40) for part in location) or "request"


def validation_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """One line for the validation errors of a request: each field's place and what it accepts. The input
    itself is never repeated (it may be anything, including text no answer can carry)."""
    parts = []
    for error in errors[:10]:
        location = list(error.get("loc", ()))
        if error.get("type") == "json_invalid":
            at = location[1] if len(location) > 1 and isinstance(location[1], int) else None
            reason = (error.get("ctx") or {}).get("error", "")
            where = f" (at character {at})" if at else ""
            parts.append(f"the body is not valid JSON{where}: {printable(str(reason), 200)}")
            continue
        parts.append(f"{_where(location)}: {printable(str(error.get('msg', 'not accepted')), 300)}")
    if len(errors) > 10:
        parts.append(f"and {len(errors) - 10} more")
    return "; ".join(parts)


def validation_errors(errors: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The errors, for programs: each field's place, the message and the error's type (never the input)."""
    out = []
    for error in errors[:50]:
        message = str(error.get("msg", ""))
        if error.get("type") == "json_invalid":
            message = str((error.get("ctx") or {}).get("error", message))
        out.append({"loc": [printable(str(p), 40) if isinstance(p, str) else p for p in error.get("loc", ())],
                    "msg": printable(message, 300), "type": str(error.get("type", ""))})
    return out
