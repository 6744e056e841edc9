"""A route answered without FastAPI's per-request resolution of its parameters, where they are all valid.

FastAPI's handler walks the route's dependant on every request: it makes a sub-response, parses the
``Content-Type`` with the ``email`` package, resolves each dependency (and looks it up in a cache),
reads the query, headers and cookies for parameters the route does not declare, and traces each step
for its telemetry. On the move route, the request made most often, answering without it took an eighth
off a move's CPU in the app (``bench/server_move_ab.py``: 0.87 of the CPU before, on a busy machine).

:class:`DirectRoute` reads, once, when the route is built, what FastAPI's own dependant says the route
takes; where every parameter is of a plain kind (path parameters, one JSON body that must be given,
dependencies that take the request alone and are coroutines, the request itself), a request is answered
by validating each value with FastAPI's own field (the same validator, so the same values) and calling
the route function. Whatever is not that plain case goes to FastAPI's handler, with the same request
(its body already read): a value that FastAPI's field refuses, a body that is not exactly
``application/json`` or not JSON, dependency overrides, FastAPI's telemetry switched on. So each refusal
is FastAPI's own, and a dependency runs once, after the values are found valid, as FastAPI runs it
before validating them (a dependency's own refusal wins either way). The route function returns its own
:class:`~starlette.responses.Response` (checked when the route is built), as FastAPI would send it.
"""

from __future__ import annotations

import inspect
import typing
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request, Response
from fastapi.dependencies.models import Dependant
from fastapi.params import Body, Path
from fastapi.telemetry import get_telemetry_data

from boardlab.server.strict_json import StrictJsonRoute

Handler = Callable[[Request], Awaitable[Response]]
JSON = "application/json"


class Plain(typing.NamedTuple):
    """What a route takes, where it is plain enough for :class:`DirectRoute`."""

    path: list[Any]  # FastAPI's fields (ModelField) of the path parameters
    body: Any  # the JSON body's field, or None
    dependencies: list[tuple[str, Callable[[Request], Awaitable[Any]]]]  # (argument, coroutine function)
    request: str | None  # the request's argument


def plain(dependant: Dependant, body_field: Any, embed_body_fields: bool) -> Plain | None:
    """What the route of ``dependant`` takes, or ``None`` where it takes anything else."""
    call = dependant.call
    if call is None or not inspect.iscoroutinefunction(call) or not _answers_response(call):
        return None
    if dependant.query_params or dependant.header_params or dependant.cookie_params or \
            dependant.websocket_param_name or dependant.http_connection_param_name or \
            dependant.response_param_name or dependant.background_tasks_param_name or \
            dependant.security_scopes_param_name or dependant.own_oauth_scopes or dependant.parent_oauth_scopes:
        return None
    if any(not isinstance(f.field_info, Path) or f.alias != f.name for f in dependant.path_params):
        return None
    if len(dependant.body_params) > 1 or embed_body_fields or (dependant.body_params and (
            body_field is None or type(body_field.field_info) is not Body
            or body_field.field_info.media_type != JSON or not body_field.field_info.is_required())):
        return None
    dependencies = []
    for sub in dependant.dependencies:
        takes_request_alone = sub.request_param_name is not None and not (
            sub.path_params or sub.query_params or sub.header_params or sub.cookie_params or sub.body_params
            or sub.dependencies or sub.websocket_param_name or sub.http_connection_param_name
            or sub.response_param_name or sub.background_tasks_param_name or sub.security_scopes_param_name
            or sub.own_oauth_scopes or sub.parent_oauth_scopes)
        if sub.name is None or sub.call is None or not takes_request_alone or sub.concurrency is not None \
                or not inspect.iscoroutinefunction(sub.call):
            return None
        request_name = sub.request_param_name
        assert request_name is not None
        dependencies.append((sub.name, _with_request(sub.call, request_name)))
    return Plain(list(dependant.path_params), body_field if dependant.body_params else None, dependencies,
                 dependant.request_param_name)


def _with_request(call: Callable[..., Awaitable[Any]], name: str) -> Callable[[Request], Awaitable[Any]]:
    return lambda request: call(**{name: request})


def _answers_response(call: Callable[..., Any]) -> bool:
    """Whether ``call`` says it returns a Response (so FastAPI would send what it returns as it is)."""
    try:
        returned = typing.get_type_hints(call).get("return")
    except (NameError, TypeError):
        return False
    return isinstance(returned, type) and issubclass(returned, Response)


class DirectRoute(StrictJsonRoute):
    """A route (JSON bodies read strictly) answered as the module's docstring says, where its parameters
    are plain; else as any route. ``direct``: whether they were."""

    direct = False

    def strict_handler(self) -> Handler:
        general = super().strict_handler()
        found = plain(self.dependant, self.body_field, self._embed_body_fields)
        self.direct = found is not None
        if found is None:
            return general
        endpoint = self.dependant.call
        assert endpoint is not None
        overrides = self.dependency_overrides_provider
        path_fields = [(field, ("path", field.alias)) for field in found.path]
        body_field = found.body
        dependencies = found.dependencies
        request_name = found.request

        async def direct(request: Request) -> Response:
            if (overrides is not None and getattr(overrides, "dependency_overrides", None)) \
                    or get_telemetry_data() is not None:
                return await general(request)
            values: dict[str, Any] = {}
            given = request.scope["path_params"]
            for field, loc in path_fields:
                value, errors = field.validate(given.get(field.alias), values, loc=loc)
                if errors:
                    return await general(request)
                values[field.name] = value
            if body_field is not None:
                if request.headers.get("content-type") != JSON:
                    return await general(request)
                try:
                    data = await request.json() if await request.body() else None
                except Exception:  # not JSON (or not read): FastAPI's handler says so, as it would
                    return await general(request)
                value, errors = body_field.validate(data, values, loc=("body",)) if data is not None \
                    else (None, True)
                if errors:
                    return await general(request)
                values[body_field.name] = value
            for name, call in dependencies:
                values[name] = await call(request)
            if request_name is not None:
                values[request_name] = request
            answer: Response = await endpoint(**values)
            return answer

        return direct
