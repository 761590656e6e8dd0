"""Nothing private leaks (a security audit): each test reproduces one path by which a hidden card
reached someone the rules keep it from, through the Discord stand-in."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from tests.bot.test_session import open_table
from tests.discord_stub import DiscordStub, User
from tests.discord_stub.tapis import TapisRun


def card_codes(text: str, codes: list[str]) -> list[str]:
    """The card codes of ``codes`` written in ``text`` as codes (``QH``, ``10S``)."""
    words = set(text.replace("'", " ").replace('"', " ").replace(",", " ").replace(":", " ").split())
    return [c for c in codes if c in words]


async def test_a_refused_ai_move_is_not_logged_with_its_card(
        stub: DiscordStub, tapis: TapisRun, players: list[User], caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An AI seat's move the rules refuse is logged at WARNING (the timeout move is played instead):
    the log line named the move, so a card of the AI's hidden hand reached whoever reads the logs."""
    from bot.tables import autoplay

    hidden: list[str] = []

    async def bad_choice(s: Any, seat: int, job: Any) -> dict[str, Any]:
        hand = list(s.table.state.view(seat)["hand"])
        hidden.extend(hand)
        return {"type": "play", "card": hand[0]}  # a card it holds, but not a move in DECLARE

    monkeypatch.setattr(autoplay, "ai_choice", bad_choice)
    alice = players[0]
    caplog.set_level(logging.INFO)
    table_id, _ = await open_table(stub, alice, [], ai=2, game="motz")
    for _ in range(3):  # the player's move first if the deal starts with them
        await tapis.settle()
        table = await tapis.tables.get(table_id)
        if hidden or table.status != "playing":
            break
        seat = table.seat_of(alice.id)
        await tapis.tables.act(table_id, alice.id, table.version, table.state.legal_actions(seat)[0])
    assert table.status == "playing" and hidden, "an AI seat was to act and was refused"
    refused = [r for r in caplog.records if r.levelno >= logging.INFO and "refused" in r.getMessage()]
    assert refused, [r.getMessage() for r in caplog.records]
    for record in caplog.records:
        if record.levelno >= logging.INFO:
            assert not card_codes(record.getMessage(), hidden), record.getMessage()
