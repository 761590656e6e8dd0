"""/stats, /leaderboard by:rating|wins, /history, /replay and /admin texts in French, Spanish and Czech.

Hand-checked sentences (plural forms: Czech has three, French counts 0 as singular), numbers and
percentages per locale, and the profile / rating-board images in Czech as golden images (ř, ě, š).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.cogs.admin import audit_text
from bot.cogs.history import replay_title
from bot.i18n import translator
from bot.render.leaderboard import leaderboard_image
from bot.render.profile import profile_image
from bot.render.replay import hands_band
from bot.store.ledger import Mismatch
from bot.tables.deals import Deal
from bot.views.boards import profile_field, rating_line, wins_line
from bot.views.history import deal_label, deltas_text, ordinal, session_line
from tests.i18n.test_images import _drawn, _unmarked
from tests.render.golden import check_golden, reduce

CS, FR, ES = translator("cs"), translator("fr"), translator("es")
NBSP = "\xa0"


def stat(**fields: Any) -> SimpleNamespace:
    """A ``/stats`` game row as ``bot.store.boards.profile`` returns it."""
    base: dict[str, Any] = {"game": "marias", "sessions": 1, "wins": 1, "net": 2, "score": None,
                            "trend": None, "mu": None, "sigma": None, "best": None, "best_table": None,
                            "favourite": None}
    return SimpleNamespace(**{**base, **fields})


def test_stats_field_in_czech_has_the_three_plural_forms() -> None:
    assert profile_field(stat(), CS) == f"1 odehraná partie · 1 vyhraná (100{NBSP}%) · +2 žetony"
    three = profile_field(stat(sessions=3, wins=2, net=-5), CS)
    assert three == f"3 odehrané partie · 2 vyhrané (67{NBSP}%) · −5 žetonů"
    rated = stat(sessions=5, wins=0, net=1234, score=23.44, trend=-1.25, mu=26.1, sigma=0.9, best=40,
                 best_table=12, favourite="kilo_sedma")
    assert profile_field(rated, CS).split("\n") == [
        f"5 odehraných partií · 0 vyhraných (0{NBSP}%) · +1{NBSP}234 žetonů",
        "hodnocení 23,4 −1,2 (μ 26,1 ± 0,9)",  # a decimal comma
        "nejlepší +40 (stůl #12)",
        "oblíbené: Kilo + sedma",  # Marias contracts keep their Czech names
    ]


def test_stats_field_in_french_and_spanish_names_the_favourite_bid() -> None:
    mus = stat(game="mus", sessions=5, wins=0, net=1234, favourite="ordago")
    assert profile_field(mus, FR) == (f"5 parties jouées · 0 gagnée (0{NBSP}%) · +1\u202f234 jetons\n"
                                      "préféré : Órdago")
    motz = stat(game="motz", sessions=2, wins=1, net=-1, favourite="take muet")
    assert profile_field(motz, ES) == (f"2 partidas jugadas · 1 ganada (50{NBSP}%) · −1 ficha\n"
                                       "favorito: Tomar el muet")


def test_board_lines_in_czech_and_french() -> None:
    assert [wins_line(1, 42, w, n, CS) for w, n in ((1, 3), (3, 5), (5, 7))] == [
        "` 1.` <@42> — **1** vyhraná z 3", "` 1.` <@42> — **3** vyhrané z 5",
        "` 1.` <@42> — **5** vyhraných z 7"]
    rated = SimpleNamespace(user_id=42, score=23.44, mu=26.1, sigma=0.9, sessions=3)
    assert rating_line(2, rated, FR) == "` 2.` <@42> — **23,4** (μ 26,1 ± 0,9) · 3 parties"


def test_history_lines_and_places_per_language() -> None:
    lost = SimpleNamespace(table_id=7, game="motz", ended_at=1700000000.5, result=-1, place=2, seats=4)
    assert session_line(lost, FR) == "**#7** Motz · <t:1700000000:d> · **−1** jeton · 2e sur 4"
    won = SimpleNamespace(table_id=7, game="marias", ended_at=1700000000.5, result=1234, place=1, seats=3)
    assert session_line(won, CS) == (f"**#7** Mariáš · <t:1700000000:d> · **+1{NBSP}234** žetonů · "
                                     "1. místo z 3")
    assert [ordinal(n, ES) for n in (1, 2, 3, 4)] == ["1.º", "2.º", "3.º", "4.º"]
    assert deltas_text(["Ana", "Iñaki"], [3, -3], ES) == "Ana +3 · Iñaki −3"
    assert deltas_text(["Ana", "Iñaki"], None, CS) == "nedokončeno"
    betl = Deal(3, 10, 20, contract="betl")
    assert deal_label("marias", betl, CS) == "Rozdání 3 (Betl)"
    assert deal_label("maitre", Deal(2, 0, 5, contract="70"), FR) == "Donne 2 (Contrat 70)"
    assert replay_title(9, "marias", betl, True, True, CS) == (
        "Stůl #9 · Mariáš · Rozdání 3 (Betl) · všechny karty odkryté (partie ještě probíhá)")


def test_admin_audit_in_czech() -> None:
    assert audit_text(0, 4, [], [], CS) == (
        "✅ vyrovnáno: součet účtů tohoto serveru je 0 a každý z jeho 4 účtů odpovídá svým řádkům v účetní "
        "knize.\nŽádný neotevřený stůl nedrží vklady.")
    one = audit_text(0, 1, [], [], CS)
    assert one.startswith("✅ vyrovnáno: součet účtů tohoto serveru je 0 a jeho 1 účet")
    stranded = [(3, 200, "finished"), (4, 400, None), (5, 1, "cancelled")]
    wrong = [Mismatch("wallet:1:42", "wallet", 42, None, 1007, 1000),
             Mismatch("escrow:9", "escrow", None, 9, 0, 20), Mismatch("house:1", "house", None, None, -5, 2)]
    assert audit_text(-601, 9, wrong, stranded, CS).split("\n") == [
        "❌ NEVYROVNÁNO: součet účtů tohoto serveru je -601.",
        "3 účty nemají zůstatek, který dávají jejich řádky v účetní knize:",
        "· peněženka <@42>: zůstatek 1\xa0007, účetní kniha 1\xa0000",  # a no-break space groups digits
        "· vklady stolu #9: zůstatek 0, účetní kniha 20",
        "· banka: zůstatek -5, účetní kniha 2",
        "Vklady drží 3 stoly, které nejsou otevřené: 601 žetonů.",
        "· stůl #3 (skončil): 200 žetonů", "· stůl #4 (bez řádku stolu): 400 žetonů",
        "· stůl #5 (zrušen): 1 žeton"]
    many = [Mismatch(f"wallet:1:{u}", "wallet", u, None, 1, 0) for u in range(12)]
    assert audit_text(0, 12, many, [], CS).split("\n")[-2:] == [
        "· … a 2 další", "Žádný neotevřený stůl nedrží vklady."]


GAMES_CARD = [
    {"title": "Mariáš", "sessions": 3, "wins": 1, "net": -5, "score": 23.44, "trend": -1.25,
     "scores": [20.0, 22.0, 25.0, 23.4], "best": 12, "best_table": 17, "favourite": "Kilo + sedma"},
    {"title": "Motz", "sessions": 5, "wins": 5, "net": 12345, "score": None, "trend": None, "scores": [],
     "best": None, "best_table": None, "favourite": None},
    {"title": "Michigan", "sessions": 1, "wins": 0, "net": 0, "score": 18.0, "trend": 0.0, "scores": [18.0],
     "best": 0, "best_table": 3, "favourite": None},
]


def test_profile_card_golden_in_czech(monkeypatch: pytest.MonkeyPatch) -> None:
    """Diacritics render (Ř, ř, á, í, ů, ó); the words and numbers are Czech ones."""
    drawn = _drawn(monkeypatch)
    png = profile_image("Řehoř Dvořák", 2, GAMES_CARD, CS)
    check_golden("profile_cs", png)
    for words in ("sezóna 2", "Hodnocení 23,4", f"3 partie · 33{NBSP}% výher · −5 žetonů",
                  f"5 partií · 100{NBSP}% výher · +12{NBSP}345 žetonů",
                  f"1 partie · 0{NBSP}% výher · 0 žetonů", "V této sezóně bez hodnocení",
                  "Nejlepší partie +12 (stůl #17)", "Oblíbené: Kilo + sedma"):
        assert words in drawn, (words, drawn)
    assert reduce(png).tobytes() != reduce(profile_image("Řehoř Dvořák", 2, GAMES_CARD)).tobytes()


def test_rating_board_golden_in_czech(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    rows = [{"rank": 1, "name": "Šárka Nováková", "value": 23.4, "shown": CS.decimal(23.4), "games": 3},
            {"rank": 2, "name": "Jiří Čermák", "value": -1.5, "shown": CS.decimal(-1.5), "games": 12}]
    png = leaderboard_image(rows, f"Mariáš · {CS.p_('leaderboard by', 'rating')}", CS._("rating · sessions"),
                            tr=CS)
    check_golden("leaderboard_rating_cs", png)
    assert {"Mariáš · hodnocení", "hodnocení · partie", "23,4", "-1,5"} <= set(drawn)


def test_profile_and_replay_band_words_go_through_the_catalogue(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _drawn(monkeypatch)
    pseudo = translator("pseudo")
    profile_image("Řehoř", 2, GAMES_CARD, pseudo)
    profile_image("Řehoř", 2, [], pseudo)
    hands_band("marias", ["Řehoř"], [["AS", "KH"], ["7C"]], pseudo)  # the second seat has no name
    neutral = ["Řehoř", "Mariáš", "Motz", "Michigan", "Kilo + sedma", "▲", "▼"]  # names, trend arrows
    assert drawn and _unmarked(drawn, neutral) == []


async def test_the_tournaments_field_writes_jetons_in_the_readers_numbers() -> None:
    """/stats and /history's Tournaments field: a buy-in and a prize are amounts, grouped as every
    other amount (``1 500`` in French), not raw digits."""
    import discord

    from bot.views.events import add_events_field

    class Rows:
        async def fetchall(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
            return [(7, "marias", "finished", 1500, 12000)]

    embed = discord.Embed()
    await add_events_field(Rows(), embed, 1, 2, FR)  # type: ignore[arg-type]
    [field] = embed.fields
    expected = f"n°7 Marias — terminé : entrée {FR.number(1500)}, prix {FR.number(12000)}"
    assert field.value == expected, field.value
    assert FR.number(1500) != "1500"
