"""A seat's private hand as a PNG: sorted in the game's order, playable cards raised and lit."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.render.canvas import MUTED, Canvas
from bot.render.cards import size_for
from bot.rules import is_spanish
from bot.rules.base import PLAIN, Text

CARD_W = 110
PAD = 18
LIFT = 16  # playable cards sit this much higher
MAX_WIDTH = 960
SUIT_GAP = 10  # extra space between suits when the row is not squeezed
BACKGROUND = (24, 78, 50)


def playable_cards(actions: Iterable[dict[str, Any]]) -> set[str]:
    """The cards named by ``actions`` (their ``"card"`` field): what :func:`hand_image` lights up."""
    return {a["card"] for a in actions if isinstance(a.get("card"), str)}


def sort_hand(game: str, view: dict[str, Any], hand: list[str]) -> list[str]:
    """``hand`` in ``game``'s order (suit, then rank), as the game's layout defines it."""
    from bot.render.games import LAYOUTS

    return sorted(hand, key=LAYOUTS[game].hand_key(view))


def hand_image(game: str, view: dict[str, Any], playable: set[str] | None = None, tr: Text = PLAIN) -> bytes:
    """PNG of ``view["hand"]`` for ``game``; cards in ``playable`` are raised and highlighted."""
    from bot.render.games import LAYOUTS

    layout = LAYOUTS.get(game)
    if layout is None:
        raise ValueError(f"no hand layout for game {game!r}")
    hand = sort_hand(game, view, list(view.get("hand") or []))
    playable = playable or set()
    w, h = size_for(CARD_W)
    if not hand:
        c = Canvas(360, h + 2 * PAD, BACKGROUND)
        c.text((180, (h + 2 * PAD) / 2), tr._("No cards in hand"), 24, MUTED, anchor="mm")
        return c.png()
    key = layout.hand_key(view)
    groups = sum(1 for a, b in zip(hand, hand[1:], strict=False) if key(a)[0] != key(b)[0])
    natural = CARD_W + 8
    step = natural
    gap = SUIT_GAP
    if 2 * PAD + w + (len(hand) - 1) * natural + groups * gap > MAX_WIDTH:
        gap = 0
        step = min(natural, (MAX_WIDTH - 2 * PAD - w) / max(1, len(hand) - 1))
    width = round(2 * PAD + w + (len(hand) - 1) * step + groups * gap)
    c = Canvas(width, h + 2 * PAD + LIFT, BACKGROUND, tr, game=game)
    spanish = is_spanish(game)
    x = PAD
    for i, code in enumerate(hand):
        if i and key(hand[i - 1])[0] != key(code)[0]:
            x += gap
        lit = code in playable
        c.card(code, x, PAD + (0 if lit else LIFT), CARD_W, spanish, highlight=lit)
        x += step
    return c.png()
