"""Motz: three cards each, a turned trump, a blind extra hand (the muet) and a growing pot.

Authoritative rules: ``docs/rules/motz.md`` (seed ``000_a09ccb0d0057e5a9.txt``). Section numbers
below refer to that spec.

Readings of points the spec leaves open (each taken as close to the seed as possible):

* ``max_extra_deals`` defaults to the number of seats and ``fine_cap`` to "no cap"; both accept
  ``None`` for that default. The base validator has no "optional int" kind, so :class:`MotzGame`
  validates these two itself; ``max_extra_deals > 2n`` is refused when the table is created
  (the seat count is unknown before).
* A deal-end event's ``deltas`` cover the whole deal, antes included (``payout - fine - ante``),
  so they sum to zero with ``pot_change`` (pot after settlement minus pot before the antes).
  A cancelled deal reports ``deltas = [-ante] * n``: its antes stay in the pot.
* The end split's leftover jetons start at the view's ``dealer`` (section 5.4: NEXT has already
  moved the deal to ``left(d_last)``). A deal voided by ``request_close`` counts as never
  dealt, so its dealer, which is ``left`` of the previous dealer, is also the starting seat.
* A voided deal keeps its deal number used (the next shuffle index is not reused; no deal
  follows a void anyway) and does not count in ``deals_played``.
* Outside a deal (``session_end``) the deal fields of the view are empty: ``turn_up``, ``trump``
  and ``fine`` are null, ``declarations`` all null, no hand, no trick.
* ``timeout_action`` for a seat that is not to act raises ``IllegalMove`` (it has no legal action).
* The end split is not a settlement: it leaves ``k`` as it was (a voided deal's ante is taken off
  ``k`` first). Equal results share a rank, competition style (1, 2, 2, 4).
* The first deal is dealt inside ``new_table``, which returns no events: its ``deal_start`` facts
  (turn-up, pot, fine) are in the first view.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from bot.rules import cards
from bot.rules.base import Game, OptionSpec, validate_options
from bot.rules.motz.state import MotzState
from bot.rules.motz.tables import HAND_ORDER, LOW_KEY, SAME_COLOUR, SUITS, allowed_cards, trick_winner
from bot.rules.motz.text import SUMMARY, VOCABULARY, fine_note, label, narrate

__all__ = [
    "GAME", "HAND_ORDER", "LOW_KEY", "SAME_COLOUR", "SUITS", "MotzState", "allowed_cards", "label", "narrate",
    "trick_winner",
]

_NULLABLE = ("max_extra_deals", "fine_cap")

OPTIONS = (
    OptionSpec("players", "int", 4, "Number of players (3 to 6).", minimum=3, maximum=6),
    OptionSpec("ante", "int", 1, "Ante (the agreed stake) each player puts in the pot before every deal.",
               minimum=1, maximum=100),
    OptionSpec("buy_in", "int", lambda o: 100 * o["ante"], "Jetons each player brings to the table "
               "(at least 20 antes; default 100 antes).", minimum=lambda o: 20 * o["ante"]),
    OptionSpec("rotations", "int", 2, "Nominal length: this many deals per player.", minimum=1, maximum=10),
    OptionSpec("max_extra_deals", "int", None, "Extra deals played after the nominal length while the pot "
               "is not won (0 to twice the players; empty = the number of players).", minimum=0, maximum=12),
    OptionSpec("fine_cap", "int", None, "Limited Motz: cap on the fine (at least the ante); empty = the "
               "fine is the whole pot.", minimum=lambda o: o["ante"]),
    OptionSpec("dealer", "seat", None, "First dealer (tests).", hidden=True),
    OptionSpec("decks", "decks", None, "Stacked decks, one per deal (tests).", hidden=True),
)


class MotzGame(Game):
    """Motz's registry entry: options ``max_extra_deals`` and ``fine_cap`` may be ``None``."""

    def validate_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        raw = dict(raw or {})
        held = {name: raw.pop(name) for name in _NULLABLE if name in raw}
        unknown = sorted(set(raw) - {s.name for s in self.options})
        if unknown:
            validate_options(self.options, raw, self.deck)  # raises the standard message
        core = tuple(s for s in self.options if s.name not in _NULLABLE)
        out = validate_options(core, raw, self.deck)
        for spec in self.options:
            if spec.name in _NULLABLE:
                value = held.get(spec.name)
                if value is not None:
                    fixed = dataclasses.replace(spec, minimum=spec.resolve_minimum(out), default=0)
                    value = validate_options((fixed,), {spec.name: value})[spec.name]
                out[spec.name] = value
        return {s.name: out[s.name] for s in self.options}


def full_length(options: Mapping[str, Any], seats: int, end: Mapping[str, Any],
                view: Mapping[str, Any]) -> bool:
    """A closed session had its length (5.1-5.3) if, after its last deal, ``deals_played ≥
    rotations × n`` with nothing left in the bête to split, or the clearing deals were used up, or
    a seat could not have anted the next deal: the rules would have ended it there too."""
    if end.get("reason") != "closed":
        return True
    nominal = int(options["rotations"]) * seats
    extra = options.get("max_extra_deals")
    extra = seats if extra is None else int(extra)
    played = int(end["deals_played"])
    split = list(end.get("split") or [0] * seats)
    before = [st - sp for st, sp in zip(end["stacks"], split, strict=True)]  # the stacks before the split
    return (played >= nominal + extra or (played >= nominal and not any(split))
            or min(before) < int(options["ante"]))

def _factory(seats: int, options: dict[str, Any], seed: int) -> MotzState:
    return MotzState(seats, options, seed)


GAME = MotzGame(
    name="motz",
    title="Motz",
    min_seats=3,
    max_seats=6,
    options=OPTIONS,
    deck=cards.DECK_32,
    factory=_factory,  # type: ignore[arg-type]
    summary=SUMMARY,
    default_seats=4,
    label=label,
    narrate=narrate,
    seat_note=fine_note,
    bids=frozenset({"stand", "take_muet"}),
    length_options=("rotations", "max_extra_deals"),
    full_length=full_length,
    vocabulary=VOCABULARY,
)
