"""The table message says who closed a table at the end of the deal: the host, an admin, or Tapis itself."""

from __future__ import annotations

from types import SimpleNamespace

from bot.i18n import english, translator
from bot.views.display import closing_text


def _table(closed_by: str | None, *present: bool) -> SimpleNamespace:
    seats = [SimpleNamespace(human=True, away=not here) for here in present]
    return SimpleNamespace(closed_by=closed_by, seats=[*seats, SimpleNamespace(human=False, away=False)])


def test_each_closer_has_its_own_sentence() -> None:
    en = english()
    assert closing_text(_table("host", True), en) == "The host closed the table: it ends after this deal."
    assert closing_text(_table("admin", True), en) == "An admin closed the table: it ends after this deal."
    assert closing_text(_table("system", False, False), en) == (
        "No player is left at the table: it ends after this deal.")
    assert closing_text(_table("system", True), en) == (
        "The table has reached its limit of deals: it ends after this deal.")


def test_an_automatic_close_says_its_logged_reason() -> None:
    """The reason logged with the close, whoever is still seated (a restart reads it from the log)."""
    en = english()
    assert closing_text(_table("unattended", True), en) == (
        "No player is left at the table: it ends after this deal.")
    assert closing_text(_table("deal_cap", False), en) == (
        "The table has reached its limit of deals: it ends after this deal.")
    assert closing_text(_table("lost_channel", True), en) == (
        "Tapis can no longer reach this table's channel: it ends after this deal.")
    assert closing_text(_table("lost_channel", True), translator("fr")) == (
        "Tapis ne peut plus atteindre le salon de cette table : elle s'arrête après cette donne.")


def test_an_automatic_close_reads_in_the_table_language() -> None:
    assert closing_text(_table("system", False), translator("fr")) == (
        "Il ne reste plus aucun joueur à la table : elle s'arrête après cette donne.")
