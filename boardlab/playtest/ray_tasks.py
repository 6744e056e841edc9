"""Reaching Ray: a cluster (``--ray HOST:PORT``) or a Ray started here (``--ray local``).

:class:`boardlab.playtest.players.RayHelpers` sends each game as a task with its
:class:`~boardlab.playtest.trace.GameJob` (plain data) and gets its trace back; a game's moves depend on
its job alone, so the results equal a process pool's for the same seeds. The
machines of a cluster need boardlab installed (the same version) in the Python that Ray runs.

**Authentication.** Ray 2.52 and later can require a token of every client (``RAY_AUTH_MODE=token``);
Ray turns it on by itself for a ``ray start --head`` when a token is already at hand (and, from Ray
2.61, always). A driver that names the cluster's address does not turn it on by itself, so without
help it is refused (``InvalidAuthToken``). As Ray does for a cluster it finds on its own, boardlab
sets ``RAY_AUTH_MODE=token`` for the driver when a token is available where Ray's docs say it looks
(``RAY_AUTH_TOKEN``, the file ``RAY_AUTH_TOKEN_PATH``, or ``~/.ray/auth_token``) and the mode is not
set; ``RAY_AUTH_MODE`` set by the user is respected. A token-mode driver also works with a cluster
that has no authentication. For a trusted test cluster on one's own machine, start the head with
``RAY_AUTH_MODE=disabled``.

**Addresses.** ``127.0.0.1:PORT`` (a head started with ``--node-ip-address 127.0.0.1``) makes the
driver use the same loopback address as its own node address.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from pathlib import Path
from typing import Any

from boardlab.errors import BoardlabError

AUTH_MODE = "RAY_AUTH_MODE"


def token_available() -> bool:
    """Whether a Ray token is at hand where Ray's docs say it looks (environment, file, home)."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return True
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if path:
        return Path(path).is_file()
    return (Path.home() / ".ray" / "auth_token").is_file()


def use_token_if_available() -> bool:
    """Set ``RAY_AUTH_MODE=token`` for this process when unset and a token is at hand; say if token mode is on."""
    mode = os.environ.get(AUTH_MODE)
    if mode is not None:
        return mode.lower() == "token"
    if not token_available():
        return False
    os.environ[AUTH_MODE] = "token"
    try:  # Ray caches its config when imported: refresh it, as Ray's own auto-enabling does
        from ray._private.authentication.authentication_token_setup import _enable_token_auth

        _enable_token_auth()
    except (ImportError, AttributeError):  # another Ray version: the environment variable is what counts
        pass
    return True


def _loopback(address: str) -> str | None:
    host = address.rpartition(":")[0].strip("[]") or address
    if host == "localhost":
        return "127.0.0.1"
    try:
        return host if ipaddress.ip_address(host).is_loopback else None
    except ValueError:
        return None


def connect(address: str, workers: int | None = None) -> bool:
    """``ray.init`` for ``address`` (``local``: a Ray started here); ``True`` if this call started it."""
    try:
        import ray
    except ImportError:
        raise BoardlabError("--ray needs Ray: pip install 'boardlab[playtest]'") from None
    if ray.is_initialized():
        return False
    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address == "local":
        options.update(num_cpus=workers or os.cpu_count() or 1, include_dashboard=False)
        token = False
    else:
        token = use_token_if_available()
        options["address"] = address
        loopback = _loopback(address)
        if loopback:
            options["_node_ip_address"] = loopback
    try:
        ray.init(**options)
    except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError, AuthenticationError…
        hint = "" if token or address == "local" else (
            " If the cluster uses token authentication (Ray's default for a head started where a token exists, "
            "and for every cluster from Ray 2.61), run `ray get-auth-token` on the head and give the token here "
            "as RAY_AUTH_TOKEN=… (or RAY_AUTH_TOKEN_PATH=FILE, or the file ~/.ray/auth_token); for a trusted "
            "test cluster, start the head with RAY_AUTH_MODE=disabled.")
        raise BoardlabError(f"cannot reach a Ray cluster at {address!r}: {error}.{hint}") from None
    return True
