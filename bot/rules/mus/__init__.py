"""Mus with 8 kings (spec ``docs/rules/mus.md``): 4 seats in two pairs, Spanish 40-card deck.

Modules: ``tables`` (card tables, hand reading, lance winners, bonuses), ``state`` (the state
machine), ``text`` (labels, narration, summary).

Readings taken where the spec is silent or loose (closest to the seed):

* The reshuffle of earlier rounds' discards continues deal k's RNG stream
  (``cards.deal_rng(seed, k)``), past the deck's own 40-card shuffle when the deck was shuffled.
* Mus corrido: the cutter becomes mano whatever the mus round of the first deal in which it cuts.
* ``lances`` view entries also carry ``"lance"``; paso / no_bet entries have total = held = 0.
* Jetons move only at match end; the ``deal_end`` event's ``deltas`` are those movements
  (payout or abandonment refund) and ``pot_change`` their opposite.
* A seat's own discards are not repeated in its view (section 7 lists no field for them; the
  seat saw them in its hand); events give only discard counts.
* After an accepted órdago, ``lance_winners`` still compares pares/juego by cards (section 7),
  though those lances were never declared.
* ``timeout_action`` of a seat that is not to act raises ``IllegalMove``.
* The dealer rotates after every deal (4.4), also after the session's last deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.base import Game, OptionSpec
from bot.rules.cards import DECK_ES_40
from bot.rules.mus.state import MusState
from bot.rules.mus.text import SUMMARY, VOCABULARY, bet_to_answer, label, label_at, narrate

OPTIONS = (
    OptionSpec("best_of", "int", 1, "Games per match: best of 1, 3 or 5.", choices=(1, 3, 5)),
    OptionSpec("target", "int", 40, "Points to win a game (40 = 8 amarracos, or 30).", choices=(30, 40)),
    OptionSpec("matches", "int", 1, "Matches in the session.", minimum=1, maximum=5),
    OptionSpec("stake", "int", 10, "Jetons each player puts in the pot per match.", minimum=1, maximum=1000),
    OptionSpec(
        "buy_in", "int", lambda o: max(100, o["matches"] * o["stake"]),
        "Jetons each player brings to the table (at least matches × stake).",
        minimum=lambda o: o["matches"] * o["stake"],
    ),
    OptionSpec("mus_corrido", "bool", True, "On each match's first deal, whoever cuts the mus becomes mano."),
    OptionSpec("senas", "bool", False,
               "Señas: partners may make the standard signs (opponents may catch them)."),
    OptionSpec("dealer", "seat", None, "First dealer (tests).", hidden=True),
    OptionSpec("decks", "decks", None, "Stacked decks, one per deal (tests).", hidden=True),
)


def new_state(seats: int, options: dict[str, Any], seed: int) -> MusState:
    """A fresh session: buy-ins and first stakes taken, the first deal dealt."""
    if seats != 4:
        raise ValueError("Mus is played by exactly 4 players.")
    return MusState(options, seed)


def full_length(options: Mapping[str, Any], seats: int, end: Mapping[str, Any],
                view: Mapping[str, Any]) -> bool:
    """A closed session had its length (5.1) if every one of its ``matches`` was played out."""
    return sum(end.get("matches_won") or ()) >= int(options["matches"])

GAME = Game(
    name="mus",
    title="Mus",
    min_seats=4,
    max_seats=4,
    options=OPTIONS,
    deck=DECK_ES_40,
    factory=new_state,
    summary=SUMMARY,
    default_seats=4,
    label=label,
    label_at=label_at,
    seat_note=bet_to_answer,
    narrate=narrate,
    deck_kind="spanish",
    teams=((0, 2), (1, 3)),
    bids=frozenset({"envido", "ordago"}),
    length_options=("matches", "best_of", "target"),
    full_length=full_length,
    vocabulary=VOCABULARY,
    repeated_round=("mus", "discard"),
)

__all__ = ["GAME", "MusState"]
