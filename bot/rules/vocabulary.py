"""The words of a game's identifiers: phases, view fields, kinds of move and view values.

The engines name things by identifiers (``view["phase"] == "spare_auction"``, an action of type
``"take_muet"``, a view field ``"turn_up"``). Each game declares, in its own ``text`` module,
a :class:`Vocabulary` naming its identifiers as ``(msgctxt, msgid)`` pairs marked with
:func:`NP_`; the words two or more games share are in :data:`COMMON` once. A reader's ``Text``
(``bot.i18n.Translator``) writes them in its language; without a word, an identifier is shown
humanised ("spare auction"), as it always was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.rules.base import Text

#: A word as ``(msgctxt, msgid)``: ``tr.p_(*word)`` writes it in the reader's language.
Word = tuple[str, str]

#: A view field's value as a reader reads it: ``(value, name, tr)``, ``name(seat)`` naming a seat;
#: None when the value is not of the expected shape (then it is shown as any other value).
FieldText = Callable[[Any, Callable[[int], str], "Text"], "str | None"]


class _Words(Protocol):
    def p_(self, context: str, msgid: str, /) -> str: ...


def NP_(context: str, msgid: str) -> Word:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` in ``context`` for the catalogue extractor; returns the pair."""
    return context, msgid


@dataclass(frozen=True)
class Vocabulary:
    """A game's words for its identifiers (see the module docstring).

    ``seat_fields`` lists the view fields whose value is a seat (shown as a player's name),
    ``seat_list_fields`` those whose value is a list of seats (each shown as a player's name),
    ``team_fields`` those whose value is a list with one figure per team of ``Game.teams`` (each
    shown after its team's players: Mus's points, "Ann & Cat 12 · Bob & Dan 7"), ``seat_figure_fields``
    those whose value is a list with one figure per seat (each shown after its player's name: the
    Maître's strikes, "Ann 1 · Bob 0 · Cat 2"; a list of yes/no as the seats it holds true for).
    ``pot_cards`` names the pools of a pot that is a list, one card each, in order (Michigan's
    boodle cards: "A♥ 4 / K♣ 0 / …").
    ``field_texts`` writes the fields whose value is neither a word, a card nor a plain figure (a
    level named by its word, a 0-based count, a seat with an amount). ``deal_fields`` are the fields
    that tell the deal in play, not shown once the session is over (Motz's antes in the bête, which
    the end's split emptied).
    """

    phases: Mapping[str, Word] = field(default_factory=dict)
    view_fields: Mapping[str, Word] = field(default_factory=dict)
    move_kinds: Mapping[str, Word] = field(default_factory=dict)
    view_values: Mapping[str, Word] = field(default_factory=dict)
    seat_fields: tuple[str, ...] = ()
    seat_list_fields: tuple[str, ...] = ()
    team_fields: tuple[str, ...] = ()
    seat_figure_fields: tuple[str, ...] = ()
    pot_cards: tuple[str, ...] = ()
    field_texts: Mapping[str, FieldText] = field(default_factory=dict)
    deal_fields: frozenset[str] = frozenset()

    def phase(self, phase: str, tr: _Words) -> str:
        """A view's phase as a title ("Spare auction", "Enchère de la main de trop")."""
        word = self.phases.get(phase) or COMMON.phases.get(phase)
        return tr.p_(*word) if word else phase.replace("_", " ").capitalize()

    def view_field(self, key: str, tr: _Words) -> str:
        """A view field's name ("turn up", "retourne")."""
        word = self.view_fields.get(key) or COMMON.view_fields.get(key)
        return tr.p_(*word) if word else key.replace("_", " ")

    def move_kind(self, kind: str, tr: _Words) -> str:
        """A kind of move, naming a group of moves ("Play", "Jouer")."""
        word = self.move_kinds.get(kind) or COMMON.move_kinds.get(kind)
        return tr.p_(*word) if word else kind.replace("_", " ").capitalize()

    def view_value(self, value: str, tr: _Words) -> str | None:
        """A view value that is a word (a mode, a declaration, a contract), or None if not one."""
        word = self.view_values.get(value) or COMMON.view_values.get(value)
        return tr.p_(*word) if word else None

    def names(self, kind: str) -> frozenset[str]:
        """Every identifier of ``kind`` (``"phases"``, ``"view_fields"``, …) this game or COMMON names."""
        mine: Mapping[str, Word] = getattr(self, kind)
        common: Mapping[str, Word] = getattr(COMMON, kind)
        return frozenset(mine) | frozenset(common)


#: Words two or more games use.
COMMON = Vocabulary(
    phases={
        "play": NP_("phase", "Play"), "declare": NP_("phase", "Declare"),
        "session_end": NP_("phase", "Session end"), "discard": NP_("phase", "Discard"),
        "trump": NP_("phase", "Trump"), "contract": NP_("phase", "Contract"),
    },
    view_fields={
        "contract": NP_("view field", "contract"), "deals_played": NP_("view field", "deals played"),
        "discard_counts": NP_("view field", "discard counts"), "hand_sizes": NP_("view field", "hand sizes"),
        "k": NP_("view field", "k"), "leader": NP_("view field", "leader"), "muet": NP_("view field", "muet"),
        "points": NP_("view field", "points"), "trick_winners": NP_("view field", "trick winners"),
        "trump": NP_("view field", "trump"),
    },
    move_kinds={
        "contract": NP_("move kind", "Contract"), "declare": NP_("move kind", "Declare"),
        "discard": NP_("move kind", "Discard"), "pass": NP_("move kind", "Pass"),
        "play": NP_("move kind", "Play"), "trump": NP_("move kind", "Trump"),
    },
)
