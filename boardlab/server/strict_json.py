"""Request bodies read as strict JSON, once, for every route: what Python's own parser lets through
and nothing else could hold is refused where it enters, with a 422 that says what was wrong.

Python's ``json`` module accepts ``NaN``, ``Infinity`` and ``-Infinity``, reads ``1e999`` as infinity,
and turns a ``\\ud800`` escape (or CESU-8 bytes) into a lone surrogate, a string no UTF-8 encoder,
database or JSON answer can hold. JSON (RFC 8259) has no such numbers, and a text holding a lone
surrogate is not Unicode. Here each is refused as invalid JSON:

>>> strict_loads(b'{"minutes": 5.5, "name": "\\\\ud83d\\\\ude00"}')
{'minutes': 5.5, 'name': '😀'}
>>> strict_loads(b'{"minutes": NaN}')
Traceback (most recent call last):
...
json.decoder.JSONDecodeError: NaN is not a JSON number (JSON has no NaN or Infinity): line 1 column 1 (char 0)
>>> strict_loads(b'{"name": "\\\\ud800"}')
Traceback (most recent call last):
...
json.decoder.JSONDecodeError: a string holds a lone surrogate (\\ud800): not Unicode text: line 1 column 1 (char 0)

:class:`StrictJsonRoute` is the route class of the API's routers: FastAPI reads a JSON body through
the request's ``json()``, which it replaces with :func:`strict_loads`; FastAPI turns the
``JSONDecodeError`` into a validation error (``app._handlers`` answers it, 422).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

# A \u escape of a UTF-16 surrogate: the only way, with valid UTF-8, that one gets into a string.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _refuse_constant(name: str) -> float:
    raise json.JSONDecodeError(f"{name} is not a JSON number (JSON has no NaN or Infinity)", name, 0)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 40 else text[:37] + "..."
        raise json.JSONDecodeError(f"the number {shown} is too large (at most about 1.8e308)", text, 0)
    return value


def _lone_surrogate(text: str) -> str | None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return f"{ord(text[error.start]):04x}"
    return None


def _check_strings(data: Any) -> None:
    """Refuse a lone surrogate in any string or key (an explicit stack: nesting depth costs no recursion)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _lone_surrogate(item)
            if found is not None:
                raise json.JSONDecodeError(f"a string holds a lone surrogate (\\u{found}): not Unicode text",
                                           "", 0)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


# Made once (as json.loads's own default decoder is), not on every request as json.loads(text, **options) would.
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite)


def strict_loads(body: bytes | str) -> Any:
    """``body`` as JSON, refusing what RFC 8259 does not allow (see the module's docstring)."""
    if isinstance(body, bytes):
        try:
            text = body.decode("utf-8")  # strict: surrogates encoded as bytes (CESU-8) are refused here
        except UnicodeDecodeError as error:
            raise json.JSONDecodeError("the body is not UTF-8 text", "", error.start) from None
    else:
        text = body
    data = _DECODER.decode(text)
    if _SURROGATE_ESCAPE.search(text):  # pairs become one character; what is left alone is refused
        _check_strings(data)
    return data


class StrictJsonRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_loads(await self.body())
        return self._json


class StrictJsonRoute(APIRoute):
    """A route whose JSON body is read by :func:`strict_loads`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = self.strict_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJsonRequest(request.scope, request.receive))

        return strict

    def strict_handler(self) -> Callable[[Request], Awaitable[Response]]:
        """What answers the request once it reads its JSON strictly: FastAPI's handler (a subclass's may
        differ: :class:`boardlab.server.direct.DirectRoute`)."""
        return super().get_route_handler()
