"""Errors the server answers with a status: each says what was wrong, never with a traceback."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardlab.errors import BoardlabError


class ApiError(BoardlabError):
    """A request refused with an HTTP status and a message for people."""

    status = 400

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        if status is not None:
            self.status = status


class Unauthorised(ApiError):
    status = 401


class Forbidden(ApiError):
    status = 403


class NotFound(ApiError):
    status = 404


class Conflict(ApiError):
    status = 409


class TooManyRequests(ApiError):
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


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
