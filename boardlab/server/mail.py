"""E-mail notices through SMTP (``--smtp HOST:PORT``), off unless configured.

Mail is sent from one background thread, so a slow mail server never holds up a move. Each notice
is written from the addressee's own seat's view of the game.
"""

from __future__ import annotations

import logging
import smtplib
from concurrent.futures import Future, ThreadPoolExecutor
from email.message import EmailMessage

log = logging.getLogger("boardlab.server")


class Mailer:
    def __init__(self, address: tuple[str, int] | None, sender: str) -> None:
        self.address = address
        self.sender = sender
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="boardlab-mail") if address else None

    @property
    def enabled(self) -> bool:
        return self._executor is not None

    def send(self, to: str, subject: str, body: str) -> Future[None] | None:
        if self._executor is None:
            return None
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, subject
        message.set_content(body)
        return self._executor.submit(self._send, message)

    def _send(self, message: EmailMessage) -> None:
        assert self.address is not None
        try:
            with smtplib.SMTP(*self.address, timeout=10) as smtp:
                smtp.send_message(message)
        except (OSError, smtplib.SMTPException) as error:
            log.warning("could not send mail to %s: %s", message["To"], error)

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True)
