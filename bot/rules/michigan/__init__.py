"""Michigan (Boodle / Stops): the rules engine, after ``docs/rules/michigan.md``.

Cards are held as integers ``suit * 13 + rank`` (suits S H D C, ranks 2 … A), so sorting the
integers gives the spec's canonical order. Who holds each card is one 52-entry list
``owner`` (a seat, ``DEAD`` for the dead hand, ``PLAYED`` once played); hand sizes and per-seat
suit counts are kept alongside, so a lead, a forced continuation and a stop test are O(1).

Readings of the spec (listed in the report to the lead):

* The state rests only where a seat decides (a lead, the dealer's choice, an auction bid);
  forced continuations, settlement, the next hand's ante and deal run inside ``apply``.
  The first hand's ante/deal events, produced by ``new_table``, are kept in ``start_events``.
* ``request_close(now=False)`` before any action of the current hand (the dealer's
  swap/keep counts as an action) or ``now=True`` voids the hand by restoring the accounts
  saved just before its antes; this also reverses boodle hits and an auction payment of that
  hand (spec 5.2: "all of its jeton movements are reversed"). Then 5.3 runs.
* A pool can never be empty when its card is played in ordinary play (every hand antes at
  least ``u`` on each pool); the empty-pool rule (pays 0, still listed) is implemented anyway.
* Hand numbers ``k`` are used only when antes are taken (a failed ante check uses none).
* The timeout lead is chosen among the legal leads (so it respects the block).
* The auction lists every bid from ``high + 1`` to the bidder's stack, as the spec says;
  ``buy_in`` has no maximum, so a huge buy-in gives long lists.
* Once the session is over no hand is in progress: views show empty hands and no played
  cards; ``last_result`` keeps the last settled hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules import cards
from bot.rules.base import Game, OptionSpec
from bot.rules.michigan.state import MichiganState
from bot.rules.michigan.tables import CODES, DEAD, INDEX, PLAYED, SUITS, _Config, _deck_ints
from bot.rules.michigan.text import SUMMARY, VOCABULARY, label, narrate

__all__ = [
    "CODES", "DEAD", "GAME", "INDEX", "PLAYED", "SUITS", "MichiganState", "_Config", "_deck_ints", "label",
    "narrate",
]

OPTIONS = (
    OptionSpec("players", "int", 4, "Number of players (3–8).", minimum=3, maximum=8),
    OptionSpec("ante_unit", "int", 1, "Ante unit u: the dealer puts 2u, the others u, on each pay card.",
               minimum=1, maximum=100),
    OptionSpec("card_price", "int", 1, "Jetons paid to the winner per card left in hand.",
               minimum=1, maximum=100),
    OptionSpec("buy_in", "int", lambda o: 100 * o["ante_unit"],
               "Jetons each player brings (at least 40 × u).", minimum=lambda o: 40 * o["ante_unit"]),
    OptionSpec("rotations", "int", 2, "Deals per player (0 = play until someone cannot ante).",
               minimum=0, maximum=10),
    OptionSpec("spare_hand", "choice", "dead",
               "dead: the spare hand is never used; dealer_option: the dealer may swap it or auction it.",
               choices=("dead", "dealer_option")),
    OptionSpec("reveal_dead_hand", "bool", True, "Show the dead hand after each hand."),
    OptionSpec("dealer", "seat", None, "First dealer (tests).", hidden=True),
    OptionSpec("decks", "decks", None, "Stacked decks, one per hand (tests).", hidden=True),
)


def open_ended(options: Mapping[str, Any]) -> bool:
    """``rotations = 0`` plays until someone cannot ante: the session has no natural end."""
    return options.get("rotations") == 0


def full_length(options: Mapping[str, Any], seats: int, end: Mapping[str, Any],
                view: Mapping[str, Any]) -> bool:
    """A closed session had its length (5.1, 5.2) if ``rotations > 0`` and ``deals_played ≥
    rotations × n``, or a seat could not have anted the next hand (the dealer ``8u``, the others
    ``4u``). (The deal cap of an open-ended session is its length: ``bot.tables.length``.)"""
    if end.get("reason") != "closed":
        return True
    rotations = int(options["rotations"])
    if rotations and int(view.get("deals_played", 0)) >= rotations * seats:
        return True
    unit = int(options["ante_unit"])
    returned = end.get("returned") or [[0] * seats for _ in range(4)]
    # the stacks before the pools came back: what the next hand's ante check would have seen
    before = [end["stacks"][s] - sum(pool[s] for pool in returned) for s in range(seats)]
    dealer = view.get("dealer")
    return any(before[s] < (8 * unit if s == dealer else 4 * unit) for s in range(seats))

GAME = Game(
    name="michigan",
    title="Michigan",
    min_seats=3,
    max_seats=8,
    options=OPTIONS,
    deck=cards.DECK_52,
    factory=MichiganState,
    summary=SUMMARY,
    default_seats=4,
    label=label,
    narrate=narrate,
    length_options=("rotations",),
    open_ended=open_ended,
    full_length=full_length,
    vocabulary=VOCABULARY,
)

