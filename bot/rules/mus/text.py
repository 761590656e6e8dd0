"""Text for Mus: button labels, one log line per public event, the /rules summary.

Every function takes the reader's ``Text`` (``bot.i18n.Translator``; English ``PLAIN`` by
default). The Mus words players keep in every language (mus, envido, órdago, grande, chica,
pares, juego, punto, paso, quiero / no quiero, mano) stay in the translations, Basque has its own;
the letters of a hand reading ("K K C 6", "duples K-A", from ``tables.describe``) are Mus notation,
its words ("duples", "juego 31") are said in the reader's words (``_pares``, ``_count``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.rules.base import N_, PLAIN, Action, Event, Text, describe, signed
from bot.rules.vocabulary import NP_, Vocabulary

SUMMARY = N_(
    "Mus is a Basque betting game for two pairs (seats 1 & 3 against 2 & 4) with a 40-card Spanish "
    "deck in which 3s count as kings and 2s as aces. "
    "Each player gets four cards; while everybody says mus, players discard 1 to 4 cards and draw again. "
    "Then four lances are bet in turn: grande (highest cards), chica (lowest), pares (pairs, for those "
    "who hold them) and juego (31 or more; punto if nobody has it), with paso, envido, raises and órdago. "
    "Bets are settled only at the end of the deal, lance by lance, and the first pair to 40 points (30 "
    "with target=30) wins the game; an accepted órdago settles the game at once. "
    "Each match is won by the first pair to take the needed games, and its winners take the losers' stakes."
)

NAMES = {"grande": "Grande", "chica": "Chica", "pares": "Pares", "juego": "Juego", "punto": "Punto"}


def lance_name(lance: str, tr: Text, capital: bool = False) -> str:
    """A lance's name in the reader's language (the Mus words are kept: "grande", "Pares")."""
    if capital:
        return {
            "grande": tr.p_("mus lance", "Grande"), "chica": tr.p_("mus lance", "Chica"),
            "pares": tr.p_("mus lance", "Pares"), "juego": tr.p_("mus lance", "Juego"),
            "punto": tr.p_("mus lance", "Punto"),
        }.get(lance, lance)
    return {
        "grande": tr.p_("mus lance", "grande"), "chica": tr.p_("mus lance", "chica"),
        "pares": tr.p_("mus lance", "pares"), "juego": tr.p_("mus lance", "juego"),
        "punto": tr.p_("mus lance", "punto"),
    }.get(lance, lance)


def label(action: Action, tr: Text = PLAIN) -> str:
    """Button text for an action ("Mus", "Discard 3O 12C", "Envido 5", "Órdago")."""
    kind = action.get("type")
    if kind == "mus":
        return tr.p_("mus move", "Mus")
    if kind == "no_mus":
        return tr.p_("mus move", "No mus")
    if kind == "discard":
        return tr._("Discard {cards}", cards=tr.cards(action.get("cards", []), spanish=True))
    if kind == "paso":
        return tr.p_("mus move", "Paso")
    if kind == "envido":
        return tr.p_("mus move", "Envido {amount}", amount=action.get("amount"))
    if kind == "ordago":
        return tr.p_("mus move", "Órdago")
    if kind == "quiero":
        return tr.p_("mus move", "Quiero")
    if kind == "no_quiero":
        return tr.p_("mus move", "No quiero")
    return describe(action)


def label_at(action: Action, view: Mapping[str, Any], tr: Text = PLAIN) -> str:
    """A move's label where it is offered: a raise says what it adds and the total it bets, as the
    narration does ("Raise 2 (to 4)"); any other move as ``label`` writes it."""
    bet = view.get("bet")
    amount = action.get("amount")
    if action.get("type") == "envido" and isinstance(bet, dict) and isinstance(bet.get("total"), int) \
            and isinstance(amount, int):
        return tr.p_("mus move", "Raise {amount} (to {total})", amount=amount, total=bet["total"] + amount)
    return label(action, tr)


def bet_to_answer(view: Mapping[str, Any], name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """The pending bet in words, for the hand message (which lance, how much, which pair bet, what
    quiero and no quiero mean, named as their buttons are); None when no bet is pending."""
    bet = view.get("bet")
    if not isinstance(bet, dict):
        return None
    phase = str(view.get("phase", ""))
    words = {"title": lance_name(phase, tr, capital=True), "lance": lance_name(phase, tr),
             "team": _team(bet.get("team"), name, tr), "held": bet.get("held"),
             "quiero": label({"type": "quiero"}, tr), "no_quiero": label({"type": "no_quiero"}, tr)}
    if bet.get("total") == "ordago":
        return tr._("⚔️ {title}: ÓRDAGO by {team}. {quiero}: the best cards at {lance} win the game; "
                    "{no_quiero}: {team} score {held} at the count.", **words)
    return tr._("⚔️ {title}: {team} bet {total}. {quiero}: {total} for the best cards at {lance}, at the "
                "count; {no_quiero}: {team} score {held} at the count.", total=bet.get("total"), **words)


def _team(t: Any, name: Callable[[int], str], tr: Text) -> str:
    if not isinstance(t, int):
        return tr._("nobody")
    return tr._("{first} & {second}", first=name(t), second=name(t + 2))


def _total(t: Any, tr: Text) -> str:
    return tr.p_("mus move", "órdago") if t == "ordago" else str(t)


def narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """One log line (or a few, for the deal summary) for a public event."""
    kind = event.get("type")
    lance = lance_name(event.get("lance", ""), tr)
    seat = event.get("seat")
    who = name(seat) if isinstance(seat, int) else ""
    if kind == "match_start":
        return tr._("Match {match} starts: each player stakes {stake} (pot {pot}).",
                    match=event["match"], stake=tr.number(event["stake"]), pot=tr.number(event["pot"]))
    if kind == "deal":
        text = tr._("Deal {n}: {dealer} deals, {mano} is mano.", n=event["deal"] + 1,
                    dealer=name(event["dealer"]), mano=name(event["mano"]))
        if event.get("corrido"):
            text += " " + tr._("Mus corrido: whoever cuts the mus becomes mano.")
        return text
    if kind == "mus":
        return tr._("{who}: mus.", who=who)
    if kind == "no_mus":
        text = tr._("{who} cuts the mus: no mus.", who=who)
        if event.get("corrido"):
            text += " " + tr._("{who} is mano of this deal.", who=who)
        return text
    if kind == "discard":
        return tr.n_("{who} discards {n} card.", "{who} discards {n} cards.", event["count"], who=who)
    if kind == "draw":
        counts = ", ".join(f"{name(s)} {n}" for s, n in enumerate(event["counts"]))  # who drew how many
        text = tr._("Cards drawn ({counts}); mus round {n}.", counts=counts, n=event["mus_round"])
        if event.get("reshuffled"):
            text += " " + tr._("The old discards were shuffled to make a new stock.")
        return text
    if kind == "declare":
        parts = [tr._("{who} yes", who=name(s)) if h else tr._("{who} no", who=name(s))
                 for s, h in enumerate(event["has"])]
        title = lance_name(event["lance"], tr, capital=True)
        if event["lance"] == "pares":
            question = tr._("{lance}: who has pares?", lance=title)
        else:
            question = tr._("{lance}: who has juego?", lance=title)
        return question + " " + ", ".join(parts) + "."
    if kind == "lance":
        return tr._("{lance}: betting opens.", lance=lance_name(event["lance"], tr, capital=True))
    if kind == "paso":
        return tr._("{lance}: paso by {who}", lance=lance, who=who)
    if kind == "envido":
        if event.get("raise"):
            return tr._("{lance}: {who} raises {amount} (total {total})", lance=lance, who=who,
                        amount=event["amount"], total=event["total"])
        return tr._("{lance}: envido {amount} by {who}", lance=lance, amount=event["amount"], who=who)
    if kind == "ordago":
        return tr._("{lance}: ÓRDAGO by {who}!", lance=lance, who=who)
    if kind == "quiero":
        return tr._("{lance}: quiero by {who} ({total})", lance=lance, who=who,
                    total=_total(event["total"], tr))
    if kind == "no_quiero":
        return tr._("{lance}: no quiero by {who}", lance=lance, who=who)
    if kind == "lance_end":
        return _lance_end(event, name, tr)
    if kind == "deal_end":
        return _deal_end(event, name, tr)
    if kind == "game_end":
        g = event["games"]
        team = _team(event["team"], name, tr)
        if event.get("ordago"):
            return tr._("{team} win the game by an accepted órdago at {lance}. Games {a}–{b}.",
                        team=team, lance=lance_name(event["ordago"], tr), a=g[0], b=g[1])
        return tr._("{team} win the game. Games {a}–{b}.", team=team, a=g[0], b=g[1])
    if kind == "match_end":
        t = event["team"]
        gain = max(event["results"])
        return tr._("{winners} win match {match}: +{gain} each; {losers} −{gain} each.",
                    winners=_team(t, name, tr), match=event["match"], gain=tr.number(gain),
                    losers=_team(1 - t, name, tr))
    if kind == "match_abandoned":
        return tr._("Match {match} abandoned: each player gets {refund} back.", match=event["match"],
                    refund=tr.number(event["refund"][0]))
    if kind == "close_requested":
        if event.get("now"):
            return tr._("The table closes now.")
        return tr._("The table closes after this deal.")
    if kind == "deal_voided":
        return tr._("The deal in progress is void.")
    if kind == "session_end":
        res = ", ".join(f"{name(s)} {signed(r, tr)}" for s, r in enumerate(event["results"]))
        return tr._("Session over: {results}.", results=res)
    return None




def _lance_end(event: Event, name: Callable[[int], str], tr: Text) -> str:
    lance, res = lance_name(event["lance"], tr), event["result"]
    if res == "paso":
        return tr._("{lance}: en paso", lance=lance)
    if res == "accepted" and event["total"] == "ordago":
        return tr._("{lance}: órdago accepted, the best cards at {lance} win the game", lance=lance)
    if res == "accepted":
        return tr._("{lance}: accepted at {total}, settled at the count", lance=lance,
                    total=_total(event["total"], tr))
    if res == "refused":
        return tr._("{lance}: refused, {team} score {held} at the count", lance=lance,
                    team=_team(event["team"], name, tr), held=event["held"])
    holder = event.get("holder_team")
    if holder is None:
        return tr._("{lance}: nobody has {lance}, no betting", lance=lance)
    return tr._("{lance}: only {team} have {lance}, no betting", lance=lance, team=_team(holder, name, tr))


def _deal_end(event: Event, name: Callable[[int], str], tr: Text) -> str:
    hands = "; ".join(f"{name(s)} {tr.cards(h, spanish=True)}" for s, h in enumerate(event["hands"]))
    lines = [tr._("Hands: {hands}", hands=hands)]
    for s, c in enumerate(event["combos"]):
        pares = _pares(c["pares"], tr) or tr._("no pares")
        lines.append(f"  {name(s)}: {pares}, {_count(c, tr)}")
    for e in event["summary"]:
        title = lance_name(e["lance"], tr, capital=True)
        if e["winner"] is not None:
            counted = e["lance"] in ("juego", "punto")
            reading = _count(event["combos"][e["winner"]], tr) if counted else _pares(e["why"], tr)
            won = tr._("{who} ({why})", who=name(e["winner"]), why=reading)
        else:
            won = tr._("nobody")
        if e["result"] == "refused":
            why = tr._("refused, {team} take it", team=_team(e["team"], name, tr))
        elif e["result"] == "accepted":
            why = tr._("accepted at {total}, best cards: {won}", total=_total(e["total"], tr), won=won)
        elif e["result"] == "paso":
            why = tr._("en paso, best cards: {won}", won=won)
        else:
            why = tr._("no betting, best cards: {won}", won=won)
        if e["lance"] == event.get("ordago") and e["result"] == "accepted":
            why += " " + tr._("→ {team} win the game", team=_team(event["game_winner"], name, tr))
        elif e["counted"]:
            team = _team(e["team"], name, tr)
            if e["bet"] and e["bonus"]:
                why += " " + tr._("→ {team} +{bet} + {bonus} bonus", team=team, bet=e["bet"],
                                  bonus=e["bonus"])
            elif e["bet"]:
                why += " " + tr._("→ {team} +{bet}", team=team, bet=e["bet"])
            else:
                why += " " + tr._("→ {team} +{bonus} bonus", team=team, bonus=e["bonus"])
        elif event.get("ordago"):
            why += " " + tr._("(not counted)")
        elif event.get("game_winner") is not None and e["team"] is None:
            why += " " + tr._("(not counted: the game is already won)")
        lines.append(f"{title}: {why}")
    unplayed = _unplayed(event)
    if unplayed:
        lines.append(tr._("{lances}: not played (the accepted órdago ends the deal)",
                          lances=", ".join(lance_name(x, tr, capital=True) for x in unplayed)))
    pa = event["points_after"]
    lines.append(tr._("Score: {first} {a}, {second} {b}.", first=_team(0, name, tr), a=pa[0],
                      second=_team(1, name, tr), b=pa[1]))
    return "\n".join(lines)


def _count(combo: dict[str, Any], tr: Text) -> str:
    """A hand's count in the reader's words, as the hands' lines and the lance lines both say it
    ("juego 31", Basque "jokoa 31"; "punto 27")."""
    if combo["juego"]:
        return tr._("juego {total}", total=combo["total"])
    return tr._("punto {total}", total=combo["total"])


def _pares(reading: str | None, tr: Text) -> str | None:
    """A pares reading in the reader's words, its letters kept ("duples K-A", Basque "dupleak K-A";
    "medias C", "par K"), as the señas name them; any other reading (grande's "K K C 6") as it is."""
    kind, _, ranks = (reading or "").partition(" ")
    if kind == "duples":
        return tr.p_("mus pares", "duples {ranks}", ranks=ranks)
    if kind == "medias":
        return tr.p_("mus pares", "medias {ranks}", ranks=ranks)
    if kind == "par":
        return tr.p_("mus pares", "par {ranks}", ranks=ranks)
    return reading


def _unplayed(event: Event) -> list[str]:
    """The lances an accepted órdago left unplayed (4.3): those after it, juego or punto as the
    hands say (punto only when nobody has juego); none in a deal without an accepted órdago."""
    if not event.get("ordago"):
        return []
    last = "juego" if any(c["juego"] for c in event["combos"]) else "punto"
    order = ["grande", "chica", "pares", last]
    played = {e["lance"] for e in event["summary"]}
    return [x for x in order if x not in played]


#: Mus's words for its identifiers (the shared ones are in ``bot.rules.vocabulary.COMMON``).
VOCABULARY = Vocabulary(
    phases={
        "mus": NP_("phase", "Mus"), "grande": NP_("phase", "Grande"), "chica": NP_("phase", "Chica"),
        "pares": NP_("phase", "Pares"), "juego": NP_("phase", "Juego"), "punto": NP_("phase", "Punto"),
        "scoring": NP_("phase", "Scoring"),
    },
    view_fields={
        "games": NP_("view field", "games"), "mano": NP_("view field", "mano"),
        "matches_won": NP_("view field", "matches won"), "mus_round": NP_("view field", "mus round"),
        "stock_count": NP_("view field", "stock count"),
    },
    move_kinds={
        "envido": NP_("move kind", "Envido"), "mus": NP_("move kind", "Mus"),
        "no_mus": NP_("move kind", "No mus"), "no_quiero": NP_("move kind", "No quiero"),
        "ordago": NP_("move kind", "Órdago"), "paso": NP_("move kind", "Paso"),
        "quiero": NP_("move kind", "Quiero"),
    },
    seat_fields=("mano",),
    team_fields=("points", "games", "matches_won"),
)
