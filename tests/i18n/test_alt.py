"""Alt text of the images (issue 30, item 3): what the table and a hand show, in the reader's words."""

from __future__ import annotations

import pytest

from bot.i18n import translator
from bot.render.hand import sort_hand
from bot.rules import GAMES
from bot.rules.looks import CZECH, Look
from bot.views.alt import LIMIT, board_alt, hand_alt, profile_alt, table_alt
from tests.render.samples import HANDS, NAMES, SAMPLES, VARIANTS


def test_the_marias_table_in_words() -> None:
    view, names = SAMPLES["marias"], NAMES["marias"]
    en = table_alt("marias", 12, view, names, translator("en").dressed(Look(CZECH)))
    assert en.startswith("Table image of Marias, table #12. Deal 8, Play. To play: Karel.")
    assert "On the table: Jan: 10 of leaves; Petra: Ace of leaves." in en  # the Czech pack, in words
    assert "Jan 310 jetons, 7 cards in hand" in en and "Karel 310 jetons, 8 cards in hand (dealer)" in en
    assert "trump: hearts" in en and "trump card: King of hearts" in en
    assert "points: soloist 70 – defenders 10" in en  # the soloist's and the defenders', told apart
    assert "soloist: Jan" in en  # a seat, by its player's name
    cs = table_alt("marias", 12, view, names, translator("cs").dressed(Look(CZECH)))
    assert "Na stole: Jan: 10 zelených; Petra: eso zelených." in cs
    assert "Na tahu: Karel." in cs


def test_a_hand_in_words_says_which_cards_may_be_played() -> None:
    hand, playable = HANDS["marias"]
    view = {**SAMPLES["marias"], "hand": hand}
    text = hand_alt("marias", view, playable, translator("en").dressed(Look(CZECH)), my_turn=True)
    assert text.startswith(f"Your hand, {len(hand)} cards: ")
    lit = [c for c in sort_hand("marias", view, hand) if c in playable]  # in the image's order
    assert text.endswith(f"Playable now (raised): {', '.join(_names(lit))}.")
    assert hand_alt("mus", {"hand": ["12C", "1O"]}, set(), translator("es")) == (
        "Tu mano, 2 cartas: as de oros, rey de copas. No es tu turno.")
    assert hand_alt("motz", {"hand": []}, set(), translator("en")) == "Your hand: no cards."


def _names(codes: list[str]) -> list[str]:
    from bot.i18n.cards import name

    return [name(c, translator("en").dressed(Look(CZECH))) for c in codes]


@pytest.mark.parametrize("game", sorted(SAMPLES))
def test_every_alt_text_is_marked_and_within_discords_limit(game: str) -> None:
    """In the pseudo-locale every text goes through the catalogue; the longest names, eight seats
    and every public figure still fit in 1,024 characters."""
    pseudo = translator("pseudo")
    view, names = VARIANTS[game]
    long_names = ["N" * 32 + str(i) for i in range(len(view.get("stacks") or names))]
    for v, n in ((SAMPLES[game], NAMES[game]), (view, names), (view, long_names)):
        text = table_alt(game, 123456, v, n, pseudo)
        assert text.startswith("⟦Table image of") and len(text) <= LIMIT
        hand, playable = HANDS[game]
        mine = hand_alt(game, {**v, "hand": hand}, playable, pseudo)
        assert mine.startswith("⟦Your hand") and len(mine) <= LIMIT


def test_boards_and_profiles_in_words() -> None:
    en = translator("en")
    rows = [{"rank": i + 1, "name": f"player {i}", "jetons": 1000 - i, "games": i} for i in range(10)]
    text = board_alt("Leaderboard — jetons", rows, en)
    assert text.startswith("Leaderboard — jetons. 1. player 0: 1000, 0 sessions; "
                           "2. player 1: 999, 1 session;")
    assert len(board_alt("x" * 900, rows * 20, en)) == LIMIT
    assert board_alt("Leaderboard — jetons", [], en) == "Leaderboard — jetons. Nobody yet."
    cs = translator("cs")
    assert profile_alt("Statistiky — Ann", [("Mariáš", "3 hry\nrating 12")], cs) == (
        "Statistiky — Ann. Mariáš: 3 hry, rating 12.")


def test_a_reference_line_is_neither_ranked_nor_counted_in_words() -> None:
    """The rating board's AI levels (issue 32) stand between the players unranked: their alt text
    gives no place and no session count, and the players keep their own places."""
    from bot.store.boards import LevelRating
    from bot.views.yardsticks import reference_row

    en = translator("en")
    rows = [{"rank": 1, "name": "ann", "value": 20.5, "shown": "20.5", "games": 4},
            reference_row(LevelRating("strong", 18.25, 25.0, 2.0, 40), en),
            {"rank": 2, "name": "bob", "value": 3.0, "shown": "3.0", "games": 2}]
    text = board_alt("Marias", rows, en)
    assert text == ("Marias. 1. ann: 20.5, 4 sessions; strong AI (a reference, not ranked): 18.2; "
                    "2. bob: 3.0, 2 sessions."), text


def test_the_mus_scores_in_words_say_which_pair_has_which() -> None:
    game = GAMES["mus"]
    state = game.new_table(seats=4, options=game.validate_options({"dealer": 0}), seed=5)
    text = table_alt("mus", 7, state.view(None), ["Ann", "Bob", "Cat", "Dan"], translator("es"))
    assert "puntos: Ann y Cat 0 · Bob y Dan 0" in text, text
