"""Marias (Czech *volený mariáš*) for three: the rules engine of spec ``docs/rules/marias.md``.

``GAME`` is the registry entry; the state machine lives in :mod:`bot.rules.marias.state`, the card
tables in ``tables`` and the texts in ``text``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.rules.base import Game, OptionSpec
from bot.rules.cards import DECK_32
from bot.rules.marias.state import MariasState
from bot.rules.marias.text import SUMMARY, VOCABULARY, contract, label, label_at, narrate

__all__ = ["GAME", "MariasState", "label", "narrate"]

OPTIONS = (
    OptionSpec("stake", "int", 1, "Jetons per unit of settlement.", minimum=1, maximum=100),
    OptionSpec("buy_in", "int", lambda o: 200 * o["stake"],
               "Jetons each player brings (at least 20 × stake).", minimum=lambda o: 20 * o["stake"]),
    OptionSpec("rounds", "int", 3, "Rounds: the session lasts 3 × rounds deals.", minimum=1, maximum=10),
    OptionSpec("max_flek", "int", 3, "Highest doubling level: 1 flek, 2 re, 3 tutti, 4 boty.",
               minimum=1, maximum=4),
    OptionSpec("concede_plain", "bool", True, "A plain hra nobody fleks is conceded unplayed."),
    OptionSpec("pack", "choice", "czech",
               "Pack of the table image and text: czech (the single-headed German-suited pack: "
               "hearts, bells, leaves, acorns) or french.", choices=("czech", "french")),
    OptionSpec("dealer", "seat", None, "First dealer (tests); random if unset.", hidden=True),
    OptionSpec("decks", "decks", None, "Stacked decks, one per deal (tests).", hidden=True),
)

def _factory(seats: int, options: dict[str, Any], seed: int) -> MariasState:
    return MariasState(seats, options, seed)


def full_length(options: Mapping[str, Any], seats: int, end: Mapping[str, Any],
                view: Mapping[str, Any]) -> bool:
    """A closed session had its length (section 5) if ``deals_played ≥ 3 × rounds`` or a stack is
    below ``stake``: the rules would have ended it there too."""
    if end.get("reason") != "closed":
        return True
    stake = int(options["stake"])
    return int(end["deals_played"]) >= 3 * int(options["rounds"]) or min(end["stacks"]) < stake

GAME = Game(
    name="marias",
    title="Marias",
    min_seats=3,
    max_seats=3,
    options=OPTIONS,
    deck=DECK_32,
    packs=("czech", "french"),
    factory=_factory,
    summary=SUMMARY,
    default_seats=3,
    label=label,
    label_at=label_at,
    narrate=narrate,
    declarer="soloist",
    contract_name=contract,
    length_options=("rounds",),
    full_length=full_length,
    vocabulary=VOCABULARY,
)
