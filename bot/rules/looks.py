"""How a game's cards may be shown: its packs and the card faces (issue 30).

A **pack** is the set of pictures a deck's codes are drawn and named with: ``"french"`` (♠ ♥ ♦ ♣,
every French-deck game), ``"czech"`` (the single-headed German-suited pack Czech players use for
Marias: srdce, kule, zelené, žaludy mapped to H, D, S, C; spodek = J, svršek = Q) and
``"spanish"`` (Mus). A game declares the packs it may be shown with (``Game.packs``, its own
first); a player may prefer the French suits wherever a game allows them.

The **faces** are a style over any pack: ``"classic"``, ``"four_colour"`` (one colour per suit:
black spades, red hearts, blue diamonds, green clubs; the Czech and Spanish packs already have
one colour per suit) and ``"large"`` (large corner indices).

A ``Look`` (pack, faces) is what one reader sees at one table; it rides on the reader's
translator (``Translator.look``), so the images and the card text of a message agree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

FRENCH, CZECH, SPANISH = "french", "czech", "spanish"
PACKS = (FRENCH, CZECH, SPANISH)
CLASSIC, FOUR_COLOUR, LARGE = "classic", "four_colour", "large"
FACES = (CLASSIC, FOUR_COLOUR, LARGE)
#: A player's pack preference: the game's own pack, or the French suits wherever a game allows them.
NATIVE = "native"
PACK_PREFERENCES = (NATIVE, FRENCH)


@dataclass(frozen=True)
class Look:
    """The pack and faces one reader sees (the default: French pack, classic faces)."""

    pack: str = FRENCH
    faces: str = CLASSIC


DEFAULT = Look()


def resolve(packs: Sequence[str], pack: str | None = None, faces: str | None = None) -> Look:
    """The look at a table of a game shown with ``packs`` (its own first) for a ``pack`` wish
    (a pack's name, ``"native"`` or None: the game's own) and a ``faces`` wish (None: classic).

    A wish the game cannot honour (the French suits at Mus) falls back to the game's own pack.
    """
    own = packs[0] if packs else FRENCH
    chosen = pack if pack in packs else own
    return Look(chosen, faces if faces in FACES else CLASSIC)


def table_look(packs: Sequence[str], options: Mapping[str, Any]) -> Look:
    """The look of a table's public message and image, from its options (``pack``, ``faces``)."""
    return resolve(packs, options.get("pack"), options.get("faces"))


def look_of(tr: object) -> Look | None:
    """The look a translator carries (None for one without: ``PLAIN``, a bare ``Translator``)."""
    look = getattr(tr, "look", None)
    return look if isinstance(look, Look) else None
