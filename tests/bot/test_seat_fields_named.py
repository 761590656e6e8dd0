"""A view field that names a seat (``Vocabulary.seat_fields``: Mus's mano, Marias's soloist) is shown
by the player's name in the table message and the hand DM, never as a bare seat index."""

from __future__ import annotations

from bot.i18n import translator
from bot.rules import GAMES
from bot.tables.model import SeatInfo, Table
from bot.views.display import hand_embed, table_embed

NAMES = ["Ane", "Bixen", "Koldo", "Dani"]


def _table(game: str, seats: int, seed: int) -> Table:
    rules = GAMES[game]
    options = rules.validate_options({})
    state = rules.new_table(seats=seats, options=options, seed=seed)
    infos = [SeatInfo(user_id=i + 1, name=NAMES[i]) for i in range(seats)]
    return Table(id=7, guild_id=1, channel_id=2, message_id=3, host_id=1, game=game, rules=rules,
                 options=options, seed=seed, seats=infos, status="playing", state=state)


def _field(embed: dict, name: str) -> str:
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


def test_mus_mano_is_named_in_the_table_message_and_the_hand() -> None:
    table = _table("mus", 4, 5)
    assert table.state is not None
    mano = table.state.view(None)["mano"]
    for lang in ("es", "eu", "en"):
        tr = translator(lang)
        word = tr.p_("view field", "mano")
        for embed in (table_embed(table, [], [], tr).to_dict(),
                      hand_embed(table, 0, "Club", "mus", tr=tr).to_dict()):
            fields = _field(embed, tr._("Table")).splitlines()
            assert f"{word}: {NAMES[mano]}" in fields, fields


def test_marias_soloist_is_named_in_the_table_message_and_the_hand() -> None:
    table = _table("marias", 3, 3)
    state = table.state
    assert state is not None
    while state.view(None).get("soloist") is None:
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
        table.version += 1
    soloist = state.view(None)["soloist"]
    tr = translator("cs")
    word = tr.p_("view field", "soloist")
    for embed in (table_embed(table, [], [], tr).to_dict(),
                  hand_embed(table, 1, "Klub", "marias", tr=tr).to_dict()):
        fields = _field(embed, tr._("Table")).splitlines()
        assert f"{word}: {NAMES[soloist]}" in fields, fields
