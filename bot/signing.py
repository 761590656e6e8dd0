"""Signed messages between shard processes (PostgreSQL ``NOTIFY`` payloads).

Any database role that may ``NOTIFY`` could otherwise send a shard process a click that plays
another member's move, and any role that may ``LISTEN`` reads what is sent. Every payload is sealed
with an HMAC-SHA256 under a secret all processes of the bot share (``TAPIS_FORWARD_SECRET`` in the
environment, never in a file), over the NOTIFY channel's name and the message, so a message signed
for one shard cannot be replayed to another. A message carries its time and a random nonce: one
older (or newer) than ``MAX_AGE`` seconds is refused, and within that window a nonce already seen
is refused too, so a notification heard once cannot be sent again. The hosts' clocks must agree
within ``MAX_AGE`` (NTP). Payloads are signed, not encrypted: they must carry nothing secret
(the DM clicks forwarded carry no interaction token, see ``bot.outbox.forward``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

log = logging.getLogger(__name__)

SECRET_ENV = "TAPIS_FORWARD_SECRET"
MIN_SECRET = 16  # characters: a guessable secret is no secret
MAX_AGE = 60.0  # seconds a message stays valid (and its nonce remembered)
MAX_NONCES = 200_000  # nonces remembered at most (a flood cannot grow memory without bound)
WARN_EVERY = 60.0  # seconds between two warnings about refused messages


class SecretMissing(Exception):
    """The shared secret is not set or too short (one line for ``python -m bot``)."""


def secret_from_env(environ: Mapping[str, str] | None = None) -> bytes:
    """The shared secret from ``TAPIS_FORWARD_SECRET``; ``SecretMissing`` if unset or too short."""
    value = (os.environ if environ is None else environ).get(SECRET_ENV, "")
    if len(value) < MIN_SECRET:
        what = "is not set" if not value else f"is shorter than {MIN_SECRET} characters"
        raise SecretMissing(f"{SECRET_ENV} {what}: shard processes sign the DM clicks they forward "
                            f"with it (the same random secret in every process of the bot)")
    return value.encode()


class Sealer:
    """Seals and opens signed messages; remembers the nonces it accepted for ``max_age``."""

    def __init__(self, secret: bytes, max_age: float = MAX_AGE,
                 clock: Callable[[], float] = time.time) -> None:
        if not secret:
            raise ValueError("empty secret")
        self._key = secret
        self.max_age = max_age
        self.clock = clock
        self._seen: OrderedDict[str, float] = OrderedDict()  # nonce -> its message's time
        self.refused: dict[str, int] = {}  # reason -> count (figures, tests)
        self._warned_at = -WARN_EVERY

    def _mac(self, channel: str, text: str) -> str:
        return hmac.new(self._key, f"{channel}\n{text}".encode(), hashlib.sha256).hexdigest()

    def seal(self, channel: str, body: dict[str, Any]) -> str:
        """``body`` as a payload for ``channel``: ``<hex mac>.<json>``, with a time and a nonce."""
        text = json.dumps({"ts": self.clock(), "nonce": secrets.token_hex(16), "body": body},
                          separators=(",", ":"), sort_keys=True)
        return f"{self._mac(channel, text)}.{text}"

    def open(self, channel: str, payload: str) -> dict[str, Any] | None:
        """The body of a payload received on ``channel``, or None (counted, warned) if it is not
        signed with our secret for that channel, is too old or too new, or was already received."""
        mac, dot, text = payload.partition(".")
        if not dot or not hmac.compare_digest(mac, self._mac(channel, text)):
            return self._refuse("bad or missing signature")
        try:
            envelope = json.loads(text)
            ts, nonce, body = float(envelope["ts"]), str(envelope["nonce"]), envelope["body"]
        except (ValueError, KeyError, TypeError):  # signed by us, so never; but never trusted blindly
            return self._refuse("malformed")
        now = self.clock()
        if not abs(now - ts) <= self.max_age:
            return self._refuse("expired")
        self._forget(now)
        if nonce in self._seen:
            return self._refuse("replayed")
        self._seen[nonce] = ts
        while len(self._seen) > MAX_NONCES:
            self._seen.popitem(last=False)
        return body if isinstance(body, dict) else self._refuse("malformed")

    def _forget(self, now: float) -> None:
        """Drop nonces of messages that are too old to be accepted anyway."""
        while self._seen:
            nonce, ts = next(iter(self._seen.items()))
            if now - ts <= self.max_age:
                break
            del self._seen[nonce]

    def _refuse(self, reason: str) -> None:
        self.refused[reason] = self.refused.get(reason, 0) + 1
        now = time.monotonic()
        if now - self._warned_at >= WARN_EVERY:
            self._warned_at = now
            log.warning("refused a shard message (%s): someone else may be sending NOTIFYs, or the "
                        "processes' secrets or clocks differ", reason)
        return None
