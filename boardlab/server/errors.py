"""Errors the server answers with a status: each says what was wrong, never with a traceback."""

from __future__ import annotations

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
