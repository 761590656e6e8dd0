"""Jeu du Maître (Lyon "Master"): rules engine, spec ``docs/rules/maitre.md``.

Package layout: ``tables`` (card tables, shared action dicts, cached legal-play tables),
``scoring`` (pure manche scoring and settlement), ``state`` (the state machine), ``text``
(labels, narration, summary).

Readings of the spec chosen here (see the lead's report as well):
- Action dicts returned by ``legal_actions`` are shared, precomputed objects: read-only. The
  list itself is a fresh copy (the cached list is shared with clones).
- Order of a follower's legal actions: plays (card by canonical order, then joker identity,
  then mode couleur/valeur/tete, then take true/false) before discards, as on the return
  (take, plays, discards; spec 3.3 and Example A). The spec's follow table lists discard first
  but gives no order; no timeout depends on it.
- View ``manche`` at a natural session end is ``tours × n`` (the spec's counter after NEXT).
- The chute event lists the remaining cards seat by seat from seat 0.
- A host close requested with ``now=False`` during the last manche of the session does not
  turn the natural end into an early end: the session completes and the pot goes to the
  winner(s); an early end (pot refunded) happens only when manches remain.
- ``request_close(now=False)`` before anyone acted in the current manche voids it at once
  (contract rule); a manche moves no jetons, so voiding only discards its cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.base import Game, OptionSpec
from bot.rules.cards import DECK_54
from bot.rules.maitre.state import MaitreState, make_state
from bot.rules.maitre.text import SUMMARY, VOCABULARY, contract_name, label, narrate

__all__ = ["GAME", "MaitreState", "label", "narrate"]

OPTIONS = (
    OptionSpec("players", "int", 3, "Number of seats (3 to 6).", minimum=3, maximum=6),
    OptionSpec("tours", "int", 2, "Tours: every seat is Maître once per tour. Elimination needs 2 or more.",
               minimum=1, maximum=4),
    OptionSpec("stake", "int", 10, "Jetons each seat puts in the pot; the winner takes the pot.",
               minimum=1, maximum=1000),
    OptionSpec("buy_in", "int", lambda o: max(100, o["stake"]), "Jetons each seat brings to the table.",
               minimum=lambda o: o["stake"]),
    OptionSpec("dealer", "seat", None, "First Maître (random if unset).", hidden=True),
    OptionSpec("decks", "decks", None, "Stacked decks, one per deal (tests).", hidden=True),
)

def _factory(seats: int, options: dict[str, Any], seed: int) -> MaitreState:
    return make_state(seats, options, seed)


def full_length(options: Mapping[str, Any], seats: int, end: Mapping[str, Any],
                view: Mapping[str, Any]) -> bool:
    """A close gives way to the last manche's natural end (reason ``complete`` or
    ``all_eliminated``); a session it ended (reason ``closed``) stopped early."""
    return end.get("reason") != "closed"

GAME = Game(
    name="maitre",
    title="Jeu du Maître",
    min_seats=3,
    max_seats=6,
    options=OPTIONS,
    deck=DECK_54,
    factory=_factory,
    summary=SUMMARY,
    default_seats=3,
    label=label,
    narrate=narrate,
    declarer="maitre",
    contract_name=contract_name,
    length_options=("tours",),
    full_length=full_length,
    vocabulary=VOCABULARY,
)
