"""Names of the rules' identifiers shown in Discord texts: view fields and kinds of move.

``public_fields`` lists a view's game-specific fields by name and the move selects are named
by the kind of move; both are identifiers of the rules core, named here in the reader's language.
"""

from __future__ import annotations

from bot.i18n import N_, NP_, Translator

VIEW_FIELDS = {
    "active": NP_("view field", "active"), "blocked": NP_("view field", "blocked"),
    "card_points": NP_("view field", "card points"), "contract": NP_("view field", "contract"),
    "deals_played": NP_("view field", "deals played"), "declarations": NP_("view field", "declarations"),
    "discard_counts": NP_("view field", "discard counts"), "eliminated": NP_("view field", "eliminated"),
    "fine": NP_("view field", "fine"), "flek": NP_("view field", "flek"), "games": NP_("view field", "games"),
    "hand_counts": NP_("view field", "hand counts"), "hand_sizes": NP_("view field", "hand sizes"),
    "k": NP_("view field", "k"), "last_player": NP_("view field", "last player"),
    "lead_right": NP_("view field", "lead right"), "leader": NP_("view field", "leader"),
    "maitre": NP_("view field", "maître"), "manche": NP_("view field", "manche"),
    "mano": NP_("view field", "mano"), "matches_won": NP_("view field", "matches won"),
    "mode": NP_("view field", "mode"), "muet": NP_("view field", "muet"),
    "muet_taken_by": NP_("view field", "muet taken by"), "mus_round": NP_("view field", "mus round"),
    "points": NP_("view field", "points"), "ranking": NP_("view field", "ranking"),
    "soloist": NP_("view field", "soloist"), "stock_count": NP_("view field", "stock count"),
    "strikes": NP_("view field", "strikes"), "talon": NP_("view field", "talon"),
    "talon_trumps": NP_("view field", "talon trumps"), "trick_winners": NP_("view field", "trick winners"),
    "tricks": NP_("view field", "tricks"), "tricks_won": NP_("view field", "tricks won"),
    "trump": NP_("view field", "trump"), "trump_card": NP_("view field", "trump card"),
    "turn_up": NP_("view field", "turn up"),
}

MOVE_KINDS = {
    "bad": NP_("move kind", "Bad"), "coffre": NP_("move kind", "Coffre"),
    "contract": NP_("move kind", "Contract"),
    "declare": NP_("move kind", "Declare"), "discard": NP_("move kind", "Discard"),
    "envido": NP_("move kind", "Envido"), "flek": NP_("move kind", "Flek"), "good": NP_("move kind", "Good"),
    "lead": NP_("move kind", "Lead"), "mus": NP_("move kind", "Mus"), "no_mus": NP_("move kind", "No mus"),
    "no_quiero": NP_("move kind", "No quiero"), "ordago": NP_("move kind", "Órdago"),
    "paso": NP_("move kind", "Paso"), "pass": NP_("move kind", "Pass"), "play": NP_("move kind", "Play"),
    "quiero": NP_("move kind", "Quiero"), "re": NP_("move kind", "Re"), "stand": NP_("move kind", "Stand"),
    "take": NP_("move kind", "Take"), "take_muet": NP_("move kind", "Take muet"),
    "trump": NP_("move kind", "Trump"), "trump_blind": NP_("move kind", "Trump blind"),
    "bid": NP_("move kind", "Bid"), "keep": NP_("move kind", "Keep"),
    "swap_spare": NP_("move kind", "Swap spare"),
    "more": NP_("move kind", "More"), "move": NP_("move kind", "Move"),
}


#: Identifier values of view fields (modes, declarations, contracts), named in the reader's language.
VIEW_VALUES = {
    "couleur": NP_("view value", "couleur"), "valeur": NP_("view value", "valeur"),
    "tete": NP_("view value", "tête"), "pass": NP_("view value", "passes"),
    "stand": NP_("view value", "stands"),
    "take_muet": NP_("view value", "took the muet"), "hra": NP_("view value", "hra"),
    "sedma": NP_("view value", "sedma"), "kilo": NP_("view value", "kilo"),
    "kilo_sedma": NP_("view value", "kilo + sedma"), "betl": NP_("view value", "betl"),
    "durch": NP_("view value", "durch"),
}


def view_value(value: object, tr: Translator) -> str | None:
    """A view value that is a word, not a card: yes / no, a mode, a declaration; None otherwise."""
    if isinstance(value, bool):
        return tr._("yes") if value else tr._("no")
    if value is None:
        return "—"
    pair = VIEW_VALUES.get(value) if isinstance(value, str) else None
    return tr.p_(*pair) if pair else None


def view_field(key: str, tr: Translator) -> str:
    """A view field's name ("turn up", "retourne")."""
    pair = VIEW_FIELDS.get(key)
    return tr.p_(*pair) if pair else key.replace("_", " ")


def move_kind(kind: str, tr: Translator) -> str:
    """A kind of move, naming a select ("Play", "Jouer")."""
    pair = MOVE_KINDS.get(kind)
    return tr.p_(*pair) if pair else kind.replace("_", " ").capitalize()


#: Fixed refusals of the table service (``bot.tables``, which writes English for every caller):
#: listed here so they are in the catalogue; ``tr._(str(error))`` then shows them translated.
#: A sentence changed there falls back to English (never a key) until it is listed again.
TABLE_REFUSALS = (
    N_("This table is closed."),
    N_("You are already seated at this table."),
    N_("This game has already started; wait for the next one."),
    N_("You are already playing at this table."),
    N_("This table is no longer in its lobby."),
    N_("You are not seated at this table."),
    N_("You have already left this table; the AI plays your seat."),
    N_("The buy-in would change with this number of players; set it explicitly."),
    N_("This table is not playing."),
    N_("This game is over."),
    N_("Those buttons are out of date: the table has moved on. Use the latest message or /hand."),
    N_("You left this table and the AI plays your seat: join to take it back."),
    N_("It is not your turn."),
    N_("Only the host or an admin can end this table."),
    N_("This table already closes at the end of the current deal."),
    N_("This table is already closed."),
)
