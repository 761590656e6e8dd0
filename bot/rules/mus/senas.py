"""Mus señas (issue 30 item 4; spec ``docs/rules/mus.md`` section "Señas"): the standard signs
between partners, a table option outside the rules core (``MusState`` knows nothing of them).

Pure helpers: which señas a hand holds (a seña must be truthful: cards are indices 0…39 as in
``bot.rules.mus.tables``, with 8 kings: the 3s are kings and the 2s are aces), when señas may be
made, and whether an opponent catches one (a fixed chance, drawn deterministically from the table's
seed and the seña's place in the deal, so a replay or a restart draws the same).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

from bot.i18n import N_
from bot.rules.mus.tables import STRENGTH, read_hand

KING, ACE = 8, 1


def _count(hand: Sequence[int], strength: int) -> int:
    return sum(1 for c in hand if STRENGTH[c] == strength)


#: The standard señas, in the order they are offered: (id, name, gesture, holds(hand)). Every
#: player knows them (the seed allows no others), so an opponent who sees one reads it.
SENAS: tuple[tuple[str, str, str, Callable[[Sequence[int]], bool]], ...] = (
    ("2k", N_("two kings"), N_("bites the lower lip"), lambda h: _count(h, KING) == 2),
    ("3k", N_("three kings"), N_("bites the lower lip to one side"), lambda h: _count(h, KING) >= 3),
    ("2a", N_("two aces"), N_("shows the tip of the tongue"), lambda h: _count(h, ACE) == 2),
    ("3a", N_("three aces"), N_("shows the tongue to one side"), lambda h: _count(h, ACE) >= 3),
    ("duples", N_("duples"), N_("raises the eyebrows"), lambda h: read_hand(list(h)).pares[0] == 3),
    ("medias", N_("medias"), N_("twists the mouth to one side"), lambda h: read_hand(list(h)).pares[0] == 2),
    ("31", N_("31 (la una)"), N_("winks"), lambda h: read_hand(list(h)).total == 31),
    ("ciego", N_("nothing: no pares, no juego (ciego)"), N_("closes the eyes"),
     lambda h: read_hand(list(h)).pares[0] == 0 and read_hand(list(h)).total < 31),
)
IDS: tuple[str, ...] = tuple(s[0] for s in SENAS)
_BY_ID = {s[0]: s for s in SENAS}
#: Phases of ``MusState`` in which señas may be made: the mus, the discard and the lances.
PHASES = frozenset({"mus", "discard", "grande", "chica", "pares", "juego", "punto"})
#: The chance that one opponent sees a seña (each opponent drawn on its own).
CATCH_CHANCE = 0.25
#: Señas one player may make per hand (the same seña is never repeated).
PER_HAND = 3


def name(sena: str) -> str:
    """The seña's name (an ``N_`` message id, translate it)."""
    return _BY_ID[sena][1]


def gesture(sena: str) -> str:
    """The seña's gesture (an ``N_`` message id, translate it)."""
    return _BY_ID[sena][2]


def holds(sena: str, hand: Sequence[int]) -> bool:
    """Whether a 4-card ``hand`` holds what ``sena`` says (False for an unknown seña or a hand
    that is not 4 cards, e.g. mid-discard)."""
    entry = _BY_ID.get(sena)
    return entry is not None and len(hand) == 4 and entry[3](hand)


def held(hand: Sequence[int]) -> list[str]:
    """Every seña ``hand`` may truthfully make, in ``SENAS`` order."""
    return [s for s in IDS if holds(s, hand)]


def open_now(phase: str) -> bool:
    """Whether señas may be made in ``phase``."""
    return phase in PHASES


def caught(seed: int, deal: int, mus_round: int, seat: int, sena: str, opponent: int) -> bool:
    """Whether ``opponent`` sees ``seat``'s ``sena`` of that hand: ``CATCH_CHANCE``, drawn from the
    table's seed and the seña's place (a hash: the same on every replay, no state consumed)."""
    key = f"{seed}:{deal}:{mus_round}:{seat}:{sena}:{opponent}".encode()
    draw = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") / 2.0**64
    return draw < CATCH_CHANCE


def partner(seat: int) -> int:
    """The seat's partner (seats 0 & 2, 1 & 3)."""
    return (seat + 2) % 4


def opponents(seat: int) -> tuple[int, int]:
    """The seat's two opponents."""
    return (seat + 1) % 4, (seat + 3) % 4
