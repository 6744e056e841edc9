"""The browser's pages: Jinja2 templates and small plain scripts of our own, served by the game server.

The pages hold no game logic and see nothing the API would not tell them: every script talks to the
JSON API under ``/api`` (the board's picture and click-to-move come from ``/api/games/{id}/board``),
with live updates from the game's Server-Sent Events. Nothing is loaded from outside the server:
Swagger UI for ``/docs`` is vendored from the npm registry under ``static/swagger`` with its licence.
"""

from __future__ import annotations

from boardlab.web.pages import install

__all__ = ["install"]
