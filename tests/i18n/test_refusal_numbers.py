"""Refusals that carry numbers: written in the reader's language when shown, with its digit
grouping (Babel) and plural form (Czech has three)."""

from __future__ import annotations

import pytest

from bot.cogs.errors import UserError
from bot.cogs.options import check_options
from bot.i18n import translator
from bot.rules import GAMES
from bot.store.ledger import DailyNotReady, InsufficientFunds, house, wallet


def test_the_buy_in_cap_in_each_language() -> None:
    with pytest.raises(UserError) as info:
        check_options(GAMES["motz"], {}, {"buy_in": 2_000_000_000})
    said = {lang: info.value.message.render(translator(lang)) for lang in ("en", "fr", "es", "cs")}
    assert said == {
        "en": "The buy-in may be at most 1000000000 jetons.",  # English digits ungrouped (README)
        "fr": "La mise d'entrée ne peut pas dépasser 1\u202f000\u202f000\u202f000 jetons.",
        "es": "La entrada no puede superar 1.000.000.000 fichas.",
        "cs": "Vklad smí být nejvýše 1\xa0000\xa0000\xa0000 žetonů.",
    }


@pytest.mark.parametrize(("balance", "czech"), [
    (1, "Nemáte dost žetonů: máte 1 žeton, potřeba je 12\xa0000."),
    (3, "Nemáte dost žetonů: máte 3 žetony, potřeba je 12\xa0000."),
    (5, "Nemáte dost žetonů: máte 5 žetonů, potřeba je 12\xa0000."),
])
def test_insufficient_funds_in_each_czech_plural_form(balance: int, czech: str) -> None:
    exc = InsufficientFunds(wallet(1, 2), balance, 12_000)
    assert exc.render(translator("cs")) == czech
    plural = "s" if balance > 1 else ""
    assert str(exc) == f"Not enough jetons: you have {balance} jeton{plural}, this needs 12000."


def test_other_accounts_and_the_daily_cooldown() -> None:
    exc = InsufficientFunds(house(1), 2, 12_000)
    assert exc.render(translator("fr")) == "Pas assez de jetons : house:1 a 2 jetons, il en faut 12\u202f000."
    daily = DailyNotReady(3 * 3600 + 301)
    assert str(daily) == "Your next daily grant is ready in 3 h 05 min."
    assert daily.render(translator("cs")) == "Další denní příděl žetonů bude připraven za 3 h 05 min."
