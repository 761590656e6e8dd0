"""Names of the rules' identifiers shown in Discord texts: view fields and kinds of move.

``public_fields`` lists a view's game-specific fields by name and the move selects are named
by the kind of move; both are identifiers of the rules core. Each game names its own in its
``Vocabulary`` (``Game.vocabulary``); this module writes them in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TypeGuard

from bot.i18n import NP_, Translator
from bot.rules import GAMES
from bot.rules.vocabulary import COMMON, Vocabulary

#: Kinds of move of the controls themselves (not of any game): the select of the moves that did
#: not fit as buttons, and the one flat list of every move.
CONTROL_KINDS = {"more": NP_("move kind", "More"), "move": NP_("move kind", "Move")}


def _vocabulary(game: str) -> Vocabulary:
    rules = GAMES.get(game)
    return rules.vocabulary if rules is not None else COMMON


def view_value(value: object, game: str, tr: Translator) -> str | None:
    """A view value that is a word, not a card: yes / no, a mode, a declaration; None otherwise."""
    if isinstance(value, bool):
        return tr._("yes") if value else tr._("no")
    if value is None:
        return "—"
    return _vocabulary(game).view_value(value, tr) if isinstance(value, str) else None


def view_field(key: str, game: str, tr: Translator) -> str:
    """A view field's name ("turn up", "retourne"), in ``game``'s words."""
    return _vocabulary(game).view_field(key, tr)


def pot_word(game: str, tr: Translator) -> str | None:
    """The pot's name in ``game``'s own words (Motz's "the bête", as its image and narration call it: a
    view field ``pot`` in its ``Vocabulary``), or None when the game calls it the pot."""
    return view_field("pot", game, tr) if "pot" in _vocabulary(game).view_fields else None


def pot_cards(game: str, pools: int) -> tuple[str, ...]:
    """The card naming each of ``pools`` pools of ``game``'s pot (Michigan's boodle cards, in the
    pot's order: the game's ``Vocabulary.pot_cards``), or () when it names none for that many."""
    named = _vocabulary(game).pot_cards
    return named if len(named) == pools else ()


def pools_text(pot: Sequence[int], game: str, tr: Translator, card: Callable[[str], str]) -> str:
    """A pot of several pools, each after the card naming it when the game names them (``pot_cards``,
    written by ``card``: a short card in a message, a card's full name in an alt text), "A♥ 4 / K♣ 0";
    else the figures alone, "4 / 0"."""
    named = pot_cards(game, len(pot))
    return " / ".join(f"{card(named[i])} {tr.number(p)}" if named else tr.number(p)
                      for i, p in enumerate(pot))


def pot_name(game: str, tr: Translator) -> str:
    """The pot's name as a field's title: the game's own word capitalised ("The bête"), else "Pot"."""
    word = pot_word(game, tr)
    return word[:1].upper() + word[1:] if word else tr._("Pot")


def over_field(key: str, view: Mapping[str, object], game: str) -> bool:
    """Whether ``key`` tells a deal no longer in play: one of the game's ``deal_fields`` once the
    session is over (Motz's antes in the bête, after the end's split emptied it)."""
    return view.get("phase") == "session_end" and key in _vocabulary(game).deal_fields


def move_kind(kind: str, game: str, tr: Translator) -> str:
    """A kind of move, naming a select ("Play", "Jouer"), in ``game``'s words."""
    pair = CONTROL_KINDS.get(kind)
    return tr.p_(*pair) if pair else _vocabulary(game).move_kind(kind, tr)


def seat_word(seat: int, names: Sequence[str] | None, tr: Translator) -> str:
    """A seat by its player's name in ``names``, else "seat 2" (counted from 1, as the lobby does)."""
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return tr._("seat {n}", n=seat + 1)


def _is_seat(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def seats_text(key: str, value: object, game: str, names: Sequence[str] | None, tr: Translator) -> str | None:
    """A view field naming seats (the game's ``seat_fields``, ``seat_list_fields``) by their players'
    names (``seat_word``), or None when ``key`` names no seat."""
    vocabulary = _vocabulary(game)
    if key in vocabulary.seat_fields and _is_seat(value):
        return seat_word(value, names, tr)
    if key in vocabulary.seat_list_fields and isinstance(value, (list, tuple)) and value \
            and all(_is_seat(v) for v in value):
        return " · ".join(seat_word(v, names, tr) for v in value)
    return None


def team_word(team: Sequence[int], names: Sequence[str] | None, tr: Translator) -> str:
    """A team by its players' names ("Ann & Cat"; each by ``seat_word``)."""
    words = [seat_word(seat, names, tr) for seat in team]
    if len(words) == 2:
        return tr._("{first} & {second}", first=words[0], second=words[1])
    return ", ".join(words)


def teams_text(key: str, value: object, game: str, names: Sequence[str] | None, tr: Translator) -> str | None:
    """A view field holding one figure per team (the game's ``team_fields``), each after its team's
    players ("Ann & Cat 12 · Bob & Dan 7"), or None when ``key`` is no such field."""
    rules = GAMES.get(game)
    if rules is None or key not in rules.vocabulary.team_fields or not isinstance(value, (list, tuple)) \
            or len(value) != len(rules.teams) or not all(_is_seat(v) for v in value):
        return None
    return " · ".join(f"{team_word(team, names, tr)} {tr.number(v)}" for team, v in zip(rules.teams, value,
                                                                                         strict=True))


def seat_figures_text(key: str, value: object, game: str, names: Sequence[str] | None,
                      tr: Translator) -> str | None:
    """A view field holding one figure per seat (the game's ``seat_figure_fields``), each after its
    player's name ("Ann 17 · Bob 15"; a list of yes/no as the seats it is true for, "—" for none),
    so a spectator need not count seats; None when ``key`` is no such field or the list has another
    length than the seats named."""
    if key not in _vocabulary(game).seat_figure_fields or not isinstance(value, (list, tuple)) \
            or (names is not None and len(value) != len(names)):
        return None
    if value and all(isinstance(v, bool) for v in value):
        return " · ".join(seat_word(seat, names, tr) for seat, v in enumerate(value) if v) or "—"
    if not all(_is_seat(v) for v in value):  # (an int, as a seat is)
        return None
    return " · ".join(f"{seat_word(seat, names, tr)} {tr.number(v)}" for seat, v in enumerate(value))


def field_text(key: str, value: object, game: str, names: Sequence[str] | None, tr: Translator) -> str | None:
    """A view field the game writes itself (``Vocabulary.field_texts``: Marias's flek level, the Maître's
    manche counted from 1, Michigan's bid by the bidder's name), one naming seats (``seats_text``),
    holding a figure per seat (``seat_figures_text``) or per team (``teams_text``); None for any other
    field."""
    writer = _vocabulary(game).field_texts.get(key)
    if writer is not None:
        text = writer(value, lambda seat: seat_word(seat, names, tr), tr)
        if text is not None:
            return text
    for writer_of in (seats_text, seat_figures_text, teams_text):
        text = writer_of(key, value, game, names, tr)
        if text is not None:
            return text
    return None
