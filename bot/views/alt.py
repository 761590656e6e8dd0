"""Alt text: what each image Tapis sends shows, in the reader's language (issue 30, item 3).

Discord reads an attachment's ``description`` (at most 1,024 characters) to screen-reader users,
so each text says what the image shows, enough to follow a session from the texts alone:

- the table: game, table, deal and phase, whose turn, the cards on the table (who played what),
  every seat's stack (and cards in hand), the pot and the game's public figures (contract,
  trump, points, …);
- a hand: its cards in full words, which of them may be played now, or that it is not the
  reader's turn;
- a review's costly decision: the moves, the hand held then and the table; its chart: each deal's
  result, skill and luck;
- a leaderboard: its title and rows; a profile: its title and each game's line. (A replay's
  description is its title, which names its table, game and deal: ``bot.cogs.history``.)

Cards are named in full in the reader's language and look ("Ober of hearts", "svršek srdcí",
"rey de copas"), not with suit signs that a screen reader spells out. Plain text: no Markdown,
no mentions. Pure functions of plain data; the Discord layer passes them to ``discord.File``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.i18n import Translator
from bot.i18n.cards import name as card_name
from bot.render.hand import sort_hand
from bot.render.words import phase_name
from bot.rules import GAMES
from bot.rules.cards import JOKERS
from bot.rules.looks import CZECH
from bot.views.direction import without_direction
from bot.views.vocab import field_text, over_field, pools_text, pot_word, seat_word, view_field, view_value

LIMIT = 1024  # Discord's limit on an attachment's description
STANDARD = {"phase", "to_act", "stacks", "pot", "dealer", "deal", "closing", "hand", "trick",
            "hand_sizes", "hand_counts"}


def clip(text: str, limit: int = LIMIT) -> str:
    """``text`` within ``limit`` characters (an ellipsis when cut), without direction controls (a
    name's: ``bot.views.texts.without_direction``)."""
    text = without_direction(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def full_card(code: str, game: str, tr: Translator) -> str:
    """A card in words for a screen reader: "Queen of hearts", "svršek srdcí", "rey de copas"."""
    rules = GAMES.get(game)
    if rules is None or not isinstance(code, str):
        return str(code)
    try:
        if rules.spanish and code not in JOKERS:
            return card_name(code, tr, spanish=True)
        return card_name(code, tr, marias=CZECH in rules.pack_choices)
    except (KeyError, ValueError, IndexError):
        return code


def cards_text(codes: Iterable[str], game: str, tr: Translator) -> str:
    """Several cards in words, separated by commas (an em dash for none)."""
    return tr.p_("list separator", ", ").join(full_card(c, game, tr) for c in codes) or "—"


def _played(view: Mapping[str, Any], names: Sequence[str], game: str, tr: Translator) -> list[str]:
    """Who played which card on the table (a ``trick`` of ``[seat, card]`` pairs or of dicts)."""
    out = []
    for item in view.get("trick") or []:
        if isinstance(item, Mapping):
            seat, code = item.get("seat"), item.get("card")
        elif isinstance(item, (list, tuple)) and len(item) == 2:
            seat, code = item
        else:
            continue
        if isinstance(seat, int) and isinstance(code, str):
            who = names[seat] if 0 <= seat < len(names) else tr._("seat {n}", n=seat + 1)
            out.append(tr._("{who}: {card}", who=who, card=full_card(code, game, tr)))
    return out


def _figure(key: str, value: Any, game: str, names: Sequence[str], tr: Translator) -> str | None:
    """One public figure of a view in words ("trump: hearts", "points: 70 · 10", "soloist: Jan")."""
    if isinstance(value, Mapping):
        return None
    who = field_text(key, value, game, names, tr)  # a game may say what an empty field means
    if value is None and who is None:
        return None
    if who is not None:
        return tr._("{field}: {value}", field=view_field(key, game, tr), value=who)
    if isinstance(value, (list, tuple)):
        if not value or isinstance(value[0], (Mapping, list, tuple)):
            return None
        parts = [view_value(v, game, tr) or (full_card(v, game, tr) if isinstance(v, str) else str(v))
                 for v in value]
        text = " · ".join(parts)
    elif isinstance(value, str):
        text = view_value(value, game, tr) or _suit_or_card(value, game, tr)
    else:
        text = str(value)
    return tr._("{field}: {value}", field=view_field(key, game, tr), value=text)


def _suit_or_card(value: str, game: str, tr: Translator) -> str:
    rules = GAMES.get(game)
    if rules is not None and not rules.spanish and value in ("S", "H", "D", "C"):
        return tr.suit(value, marias=CZECH in rules.pack_choices)
    return full_card(value, game, tr)


def table_alt(game: str, table_id: int, view: Mapping[str, Any], names: Sequence[str], tr: Translator,
              status: str = "playing") -> str:
    """The table image in words: game, deal and phase, turn, cards on the table, stacks, figures."""
    rules = GAMES.get(game)
    title = tr._(rules.title) if rules is not None else game
    parts = [tr._("Table image of {game}, table #{id}.", game=title, id=table_id)]
    deal = view.get("deal")
    phase = phase_name(str(view.get("phase", "")), game, tr)
    if isinstance(deal, int):
        parts.append(tr._("Deal {n}, {phase}.", n=deal + 1, phase=phase))
    acting = [names[s] if 0 <= s < len(names) else str(s) for s in view.get("to_act") or []]
    if status != "playing":
        parts.append(tr._("The session is over."))
    elif acting:
        parts.append(tr._("To play: {who}.", who=", ".join(acting)))
    played = _played(view, names, game, tr)
    parts.append(tr._("On the table: {cards}.", cards="; ".join(played)) if played
                 else tr._("No card on the table."))
    stacks = list(view.get("stacks") or [])
    sizes = view.get("hand_sizes") or view.get("hand_counts") or []
    seats = []
    for seat, stack in enumerate(stacks):
        who = names[seat] if seat < len(names) else tr._("seat {n}", n=seat + 1)
        line = tr._("{who} {jetons}", who=who, jetons=tr.jetons(stack))
        if seat < len(sizes) and isinstance(sizes[seat], int):
            line = tr.n_("{who}, {n} card in hand", "{who}, {n} cards in hand", sizes[seat], who=line)
        if view.get("dealer") == seat:
            line = tr._("{who} (dealer)", who=line)
        seats.append(line)
    if seats:
        parts.append(tr._("Seats: {seats}.", seats="; ".join(seats)))
    pot = view.get("pot")
    own = pot_word(game, tr)
    if isinstance(pot, int) and own:  # the game's own name for it (Motz's bête)
        parts.append(tr._("{field}: {value}", field=own, value=tr.jetons(pot)) + ".")
    elif isinstance(pot, int):
        parts.append(tr._("Pot: {pot}.", pot=tr.jetons(pot)))
    elif isinstance(pot, (list, tuple)):
        pools = pools_text(pot, game, tr, lambda code: full_card(code, game, tr))  # its cards' full names
        parts.append(tr._("Pot: {pot}.", pot=pools))
    figures = [f for k, v in view.items() if k not in STANDARD and not over_field(k, view, game)
               for f in [_figure(k, v, game, names, tr)] if f]
    if figures:
        parts.append("; ".join(figures) + ".")
    return clip(" ".join(parts))


def hand_alt(game: str, view: Mapping[str, Any], playable: Iterable[str] | None, tr: Translator,
             my_turn: bool = False) -> str:
    """A hand image in words: the cards, and which may be played now."""
    hand = [c for c in view.get("hand") or [] if isinstance(c, str)]
    try:  # in the image's order (suit, then rank, as the game sorts a hand)
        hand = sort_hand(game, dict(view), hand)
    except (KeyError, ValueError, TypeError):
        pass
    if not hand:
        return clip(tr._("Your hand: no cards."))
    text = tr.n_("Your hand, {n} card: {cards}.", "Your hand, {n} cards: {cards}.", len(hand),
                 cards=cards_text(hand, game, tr))
    allowed = set(playable or ())
    lit = [c for c in hand if c in allowed]
    if lit:
        text += " " + tr._("Playable now (raised): {cards}.", cards=cards_text(lit, game, tr))
    elif my_turn:
        text += " " + tr._("Your turn: choose a move below.")
    else:
        text += " " + tr._("Not your turn.")
    return clip(text)


def decision_alt(game: str, table_id: int, view: Mapping[str, Any], names: Sequence[str], seat: int,
                 head: str, tr: Translator) -> str:
    """A reviewed decision's picture in words (``/review``): ``head`` (the move played, the better one
    and the grade), the hand the seat held then, card by card, and the table as it stood."""
    hand = [c for c in view.get("hand") or [] if isinstance(c, str)]
    try:
        hand = sort_hand(game, dict(view), hand)
    except (KeyError, ValueError, TypeError):
        pass
    who = seat_word(seat, names, tr)
    held = tr.n_("Hand of {who}, {n} card: {cards}.", "Hand of {who}, {n} cards: {cards}.", len(hand),
                 who=who, cards=cards_text(hand, game, tr))
    return clip(f"{head} {held} {table_alt(game, table_id, view, names, tr)}")


def split_alt(title: str, deals: Iterable[tuple[int, str, str, str]], unit: str, tr: Translator) -> str:
    """The review's skill and luck chart in words: each deal's ``(deal, result, skill, luck)``, the
    figures already written in the reader's language, in ``unit``."""
    rows = [tr._("Deal {deal}: result {result}, skill {skill}, luck {luck}", deal=tr.number(deal), result=r,
                 skill=s, luck=lk) for deal, r, s, lk in deals]
    return clip(f"{title} ({unit}). " + "; ".join(rows) + ".")


def board_alt(title: str, rows: Iterable[Mapping[str, Any]], tr: Translator) -> str:
    """A leaderboard image in words: its title and each row (rank, name, figure, sessions); a
    reference row (an AI level's rating, ``bot.views.yardsticks``) has no rank and no sessions."""
    lines = []
    for i, r in enumerate(rows):
        value = r.get("shown") if r.get("shown") is not None else tr.number(int(r.get("jetons", 0)))
        if r.get("reference"):
            lines.append(tr._("{name} (a reference, not ranked): {value}", name=r.get("name", ""),
                              value=value))
            continue
        lines.append(tr.n_("{rank}. {name}: {value}, {n} session", "{rank}. {name}: {value}, {n} sessions",
                           int(r.get("games") or 0), rank=r.get("rank", i + 1), name=r.get("name", ""),
                           value=value))
    body = "; ".join(lines) + "." if lines else tr._("Nobody yet.")
    return clip(tr._("{title}. {rows}", title=title, rows=body))


def profile_alt(title: str, lines: Iterable[tuple[str, str]], tr: Translator) -> str:
    """A profile image in words: its title, then each game's name and line."""
    body = " ".join(tr._("{game}: {line}.", game=g, line=line.replace("\n", ", ")) for g, line in lines)
    return clip(tr._("{title}. {rows}", title=title, rows=body or tr._("No finished session yet.")))
