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

import importlib
import inspect
import ipaddress
import logging
import os
from collections.abc import Callable
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


# A Ray started here keeps its object store small: a game's trace (some kilobytes) comes back inline with
# its task's reply, not through the store, so Ray's default (30% of memory, in /dev/shm) sits unused.
LOCAL_OBJECT_STORE_BYTES = 100 * 1024 * 1024


def connect(address: str, workers: int | None = None) -> Callable[[], None] | None:
    """``ray.init`` for ``address`` (``local``: a Ray started here with ``workers`` CPUs); the stop of the
    Ray this call started, or ``None`` (a cluster, or a Ray the caller started: left running)."""
    try:
        import ray
    except ImportError:
        raise BoardlabError("--ray needs Ray: pip install 'boardlab[playtest]'") from None
    if ray.is_initialized():
        return None
    options: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address == "local":
        return start_here(workers or os.cpu_count() or 1, options)
    token = use_token_if_available()
    options["address"] = address
    loopback = _loopback(address)
    if loopback:
        options["_node_ip_address"] = loopback
    try:
        ray.init(**options)
    except Exception as error:  # Ray raises ConnectionError, RuntimeError, ValueError, AuthenticationError…
        hint = "" if token else (
            " If the cluster uses token authentication (Ray's default for a head started where a token exists, "
            "and for every cluster from Ray 2.61), run `ray get-auth-token` on the head and give the token here "
            "as RAY_AUTH_TOKEN=… (or RAY_AUTH_TOKEN_PATH=FILE, or the file ~/.ray/auth_token); for a trusted "
            "test cluster, start the head with RAY_AUTH_MODE=disabled.")
        raise BoardlabError(f"cannot reach a Ray cluster at {address!r}: {error}.{hint}") from None
    return ray.shutdown


def start_here(cpus: int, options: dict[str, Any]) -> Callable[[], None]:
    """Start a Ray on this machine with ``cpus`` CPUs and connect to it; return its stop.

    ``ray.init`` starts, besides the GCS and the raylet (with its dashboard and runtime-env agents and the
    workers), the autoscaler's monitor, a log monitor and an API server: three more Python processes that
    import Ray (some 1.8 s of CPU on the project's two-core machine, taken from the games played
    meanwhile; ``ray.init`` also waits some 2 s for the API server) that a run on one machine with
    ``log_to_driver`` off has no use for (nothing to scale; no worker output to forward; without the
    dashboard the API server serves Ray's usage statistics alone, which are off). This starts the node as
    ``ray.init`` does (Ray's ``Node``, with its reaper, which stops the node should this process die),
    without those three, then connects as to any cluster. Ray calls ``Node`` private: where it differs
    (another Ray version), this falls back to ``ray.init``.
    """
    import ray

    try:
        from ray._private.node import Node
        from ray._private.parameter import RayParams

        # include_log_monitor=False, not None: Ray's Node turns None into True (and annotates it ``str``).
        lean: dict[str, Any] = {"no_monitor": True, "include_log_monitor": False}
        params = RayParams(num_cpus=cpus, include_dashboard=False, object_store_memory=LOCAL_OBJECT_STORE_BYTES,
                           **lean)
        known = inspect.signature(Node).parameters
    except (ImportError, AttributeError, TypeError, ValueError):
        return _init_here(cpus, options)
    if (not {"head", "shutdown_at_exit", "spawn_reaper", "ray_init_cluster"} <= known.keys()
            or not callable(getattr(Node, "start_api_server", None))):
        return _init_here(cpus, options)

    class RunNode(Node):
        def start_api_server(self, *args: Any, **kwargs: Any) -> None:
            """Not started: without the dashboard it serves Ray's usage statistics alone, and they are off."""

    _prepare_a_new_cluster(options["logging_level"])
    try:
        node = RunNode(params, head=True, shutdown_at_exit=False, spawn_reaper=True, ray_init_cluster=True)
    except Exception as error:
        raise BoardlabError(f"cannot start Ray here: {error}") from None
    try:
        ray.init(address=node.address, **options)
    except BaseException as error:
        node.kill_all_processes(check_alive=False, allow_graceful=False)
        if isinstance(error, Exception):
            raise BoardlabError(f"cannot start Ray here: {error}") from None
        raise

    def stop() -> None:
        ray.shutdown()
        node.kill_all_processes(check_alive=False, allow_graceful=True)

    return stop


def _init_here(cpus: int, options: dict[str, Any]) -> Callable[[], None]:
    import ray

    try:
        ray.init(num_cpus=cpus, include_dashboard=False, object_store_memory=LOCAL_OBJECT_STORE_BYTES, **options)
    except Exception as error:
        raise BoardlabError(f"cannot start Ray here: {error}") from None
    return ray.shutdown


def _prepare_a_new_cluster(logging_level: int) -> None:
    """What ``ray.init`` does before it starts a cluster here: Ray's logger at ``logging_level``, token
    authentication on (Ray 2.59+; a ``RAY_AUTH_MODE`` of the user's respected), a token at hand (written to
    ``~/.ray/auth_token`` if there is none, as Ray does), no usage statistics sent. And one thing more: Ray
    reads the token once a process, so a second Ray started here after ``RAY_AUTH_TOKEN`` changed got the
    new token while this process spoke with the old one, and failed "to start GCS" (InvalidAuthToken);
    the token is read again."""
    logging.getLogger("ray").setLevel(logging_level)
    try:
        from ray._private.authentication.authentication_token_setup import (
            enable_token_auth_by_default,
            ensure_token_if_auth_enabled,
        )
    except ImportError:  # a Ray without token authentication
        pass
    else:
        loader = getattr(importlib.import_module("ray._raylet"), "AuthenticationTokenLoader", None)
        if loader is not None and hasattr(loader, "instance"):
            loader.instance().reset_cache()
        enable_token_auth_by_default()
        ensure_token_if_auth_enabled({}, create_token_if_missing=True)
    try:
        from ray._common.usage import usage_lib
    except ImportError:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    else:
        usage_lib.set_usage_stats_enabled_via_env_var(False)
