"""E-mail notices through a real SMTP server (aiosmtpd on loopback): a challenge, your turn, the end."""

from __future__ import annotations

from email import message_from_bytes
from email.message import Message
from typing import Any

from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from boardlab.server.app import create_app
from tests.server.conftest import Api, free_port, settings_for, wait_for


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[str]:
        return [f"{m['Subject']}\n{m.get_payload()}" for m in self.messages if m["To"] == address]


def test_notices_are_mailed_when_smtp_is_configured(sqlite_url: str) -> None:
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        settings = settings_for(sqlite_url, smtp=f"127.0.0.1:{port}", mail_from="games@example.org")
        with TestClient(create_app(settings)) as client:
            api = Api(client)
            api.user("ann", email="ann@example.org")
            api.user("bob", email="bob@example.org")
            game = api.game("ann", "ndengrod", [{"kind": "me"}, {"kind": "user", "user": "bob"}],
                            {"size": 3, "length": 3})["game"]
            wait_for(lambda: inbox.to("bob@example.org"))
            assert "ann challenges you to Ndengrod" in inbox.to("bob@example.org")[0]
            api.accept("bob", game["id"])
            wait_for(lambda: inbox.to("ann@example.org"))  # the game started: ann (x) moves first
            assert api.move("ann", game["id"], "b2", ply=0).status_code == 201
            wait_for(lambda: len(inbox.to("bob@example.org")) == 2)
            turn = inbox.to("bob@example.org")[1]
            assert "Your turn in game 1" in turn and "The last move: b2" in turn and "b- . x . . /" in turn
            client.post(f"/api/games/{game['id']}/resign", headers=api.user("bob"))
            wait_for(lambda: len(inbox.to("ann@example.org")) == 2 and len(inbox.to("bob@example.org")) == 3)
            assert "ann (x) won (bob (o) resigned)" in inbox.to("ann@example.org")[1]
            assert all(m["From"] == "games@example.org" for m in inbox.messages)
    finally:
        controller.stop()


def test_no_mail_without_smtp(sqlite_api: Api) -> None:
    service = sqlite_api.client.app.state.service  # type: ignore[union-attr]
    assert not service.mailer.enabled
    assert service.mailer.send("ann@example.org", "subject", "body") is None
