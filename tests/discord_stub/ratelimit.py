"""Discord's rate limits for the stand-in (a mode: ``stub.rate_limits = RateLimits()``).

What is modelled, from Discord's documentation and the measured facts in the shared notes:
- A global budget of 50 requests per second per bot, for every request except interaction
  callbacks (``POST /interactions/{id}/{token}/callback``) and the interaction webhook
  (``/webhooks/{application_id}/{token}...``). A token bucket: 50 at most, refilled at 50/s.
  Exceeding it: 429 with ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``.
- Per-route buckets keyed by route and major parameter (the channel): message create and message
  edit are each 5 per 5 s per channel (fixed windows that open with their first request, as
  Discord's ``X-RateLimit-Reset-After`` describes them). Every answer on such a route carries
  ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``; a 429 adds ``Retry-After`` and
  ``X-RateLimit-Scope: user``. A request refused by a limit does not count against it.
- Every 429 carries ``Via`` (discord.py takes a 429 without it for a Cloudflare ban) and the body
  ``{"message": "You are being rate limited.", "retry_after": s, "global": bool}``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

GLOBAL_RATE = 50.0
EXEMPT = ("/interactions/{iid}/{token}/callback", "/webhooks/{app}/{token}")
RATE_LIMITED = "You are being rate limited."


@dataclass(frozen=True)
class Limit:
    """``limit`` requests per ``per`` seconds, per major parameter of the route."""

    limit: int
    per: float
    name: str  # the bucket hash Discord would send


# (method, stand-in route) -> its per-route limit
ROUTE_LIMITS: dict[tuple[str, str], Limit] = {
    ("POST", "/channels/{cid}/messages"): Limit(5, 5.0, "msg-create"),
    ("PATCH", "/channels/{cid}/messages/{mid}"): Limit(5, 5.0, "msg-edit"),
    ("DELETE", "/channels/{cid}/messages/{mid}"): Limit(5, 5.0, "msg-delete"),
}


@dataclass
class _Window:
    opened: float
    used: int = 0


@dataclass
class Verdict:
    """The outcome for one request: its bucket key (or None), the headers, and a 429 body if refused."""

    bucket: str | None
    headers: dict[str, str]
    refusal: dict[str, object] | None = None
    scope: str = ""
    global_counted: bool = False


@dataclass
class RateLimits:
    """The limiter; ``check`` is called once per request, in arrival order."""

    global_rate: float = GLOBAL_RATE
    routes: dict[tuple[str, str], Limit] = field(default_factory=lambda: dict(ROUTE_LIMITS))
    tokens: float = GLOBAL_RATE
    refilled: float = 0.0
    windows: dict[str, _Window] = field(default_factory=dict)
    refused: int = 0

    def check(self, method: str, route: str, major: str, now: float) -> Verdict:
        """Decide a request at loop time ``now``: counts it if it passes."""
        limit = self.routes.get((method, route))
        key = f"{method} {route} {major}" if limit is not None else None
        headers: dict[str, str] = {}
        window = None
        if limit is not None:
            window = self.windows.get(key)  # type: ignore[arg-type]
            if window is None or now >= window.opened + limit.per:
                window = self.windows[key] = _Window(now)  # type: ignore[index]
            reset_after = window.opened + limit.per - now
            if window.used >= limit.limit:
                self.refused += 1
                return self._refuse(key, limit, reset_after, scope="user")
        counted = not route.startswith(EXEMPT)
        if counted:
            self.tokens = min(self.global_rate, self.tokens + (now - self.refilled) * self.global_rate)
            self.refilled = now
            if self.tokens < 1.0:
                self.refused += 1
                wait = (1.0 - self.tokens) / self.global_rate
                return self._refuse("global", None, wait, scope="global")
            self.tokens -= 1.0
        if limit is not None and window is not None:
            window.used += 1
            reset_after = window.opened + limit.per - now
            headers = _bucket_headers(limit, limit.limit - window.used, reset_after)
        return Verdict(key, headers, global_counted=counted)

    @staticmethod
    def _refuse(key: str | None, limit: Limit | None, retry_after: float, scope: str) -> Verdict:
        retry_after = round(max(retry_after, 0.001), 3)
        headers = {"Via": "1.1 google", "Retry-After": str(math.ceil(retry_after)),
                   "X-RateLimit-Scope": scope}
        if limit is None:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers.update(_bucket_headers(limit, 0, retry_after))
        body = {"message": RATE_LIMITED, "retry_after": retry_after, "global": limit is None}
        return Verdict(key, headers, body, scope)


def _bucket_headers(limit: Limit, remaining: int, reset_after: float) -> dict[str, str]:
    return {"X-RateLimit-Limit": str(limit.limit), "X-RateLimit-Remaining": str(max(remaining, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}", "X-RateLimit-Bucket": limit.name}
