"""The review's texts and pictures in every language, the grade thresholds of every game, and
the AI pool's review priority."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

from bot.i18n import LANGUAGES, translator
from bot.render.review import decision_image, split_image
from bot.review import Review
from bot.review.analysis import DealSplit, Decision
from bot.review.grades import GRADES, grade, score, thresholds
from bot.review.levels import level_accuracy
from bot.review.points import view_at
from bot.review.text import decision_line, grade_name, progress_text, summary, unit_name
from bot.rules import GAMES
from bot.tables.ai_pool import Budget, Priority
from tests.review.helpers import Logged, play_out

QS, TS = {"type": "play", "card": "QS"}, {"type": "play", "card": "10S"}


def sample() -> Review:
    decisions = [Decision(1, 4, QS, TS, -2.0, 2.0, 4.0, "blunder", 2, [(TS, 2.0), (QS, -2.0)]),
                 Decision(2, 9, TS, TS, 1.0, 1.0, 0.0, "best", 2, [(TS, 1.0)]),
                 Decision(2, 11, TS, TS, 0.0, 0.0, 0.0, "best", 1, [(TS, 0.0)])]
    deals = [DealSplit(1, -2.0, -4.0, 2.0, 2.0), DealSplit(2, 3.0, 0.0, 3.0, 1.0)]
    return Review("marias", 1, "jetons", 4.0, decisions, deals, 62.5)


def test_every_game_has_thresholds_in_order_and_grades_rise_with_the_cost() -> None:
    for game in GAMES:
        t = thresholds(game)
        assert 0 < t.best < t.good < t.inaccuracy < t.mistake
        scale = 10.0
        costs = [0.0, t.good * scale, t.inaccuracy * scale, t.mistake * scale, 2 * t.mistake * scale]
        assert [grade(game, c, scale) for c in costs] == ["best", "good", "inaccuracy", "mistake", "blunder"]
        assert grade(game, 1e9, scale, choices=1) == "best"
        assert score(game, 0.0, scale) == 1.0 and score(game, t.mistake * scale, scale) == 0.0
    assert GRADES == ("best", "good", "inaccuracy", "mistake", "blunder")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_texts_in_every_language(lang: str) -> None:
    tr = translator(lang)
    review = sample()
    head = summary(review, "alice", 7, tr._(GAMES["marias"].title), None, tr)
    one = summary(review, "alice", 7, tr._(GAMES["marias"].title), 2, tr)
    label = lambda a: GAMES["marias"].label(a, tr)  # noqa: E731
    line = decision_line(review.costliest(1)[0], label, "jetons", tr)
    words = [*head, *one, line, progress_text(7, 3, 8, tr), unit_name("chance", tr)]
    words += [grade_name(g, tr) for g in GRADES]
    text = "\n".join(words)
    assert "alice" in text and "#7" in text
    assert "62" in text  # the accuracy, in the language's digits and percent sign
    for figure in ("3", "8"):
        assert figure in progress_text(7, 3, 8, tr)
    if lang != "en":  # translated: none of the English sentences is left
        english = translator("en")
        assert head[0] != summary(review, "alice", 7, GAMES["marias"].title, None, english)[0]
        assert progress_text(7, 3, 8, tr) != progress_text(7, 3, 8, english)
        assert all(grade_name(g, tr) != g for g in GRADES)


@pytest.mark.parametrize(("lang", "whole", "one"), [
    ("en", "Accuracy {pct} over 7 decisions: 1 best · 5 mistakes · 1 blunder", "1 decision: 1 best"),
    ("fr", "Précision {pct} sur 7 décisions : 1 meilleur coup · 5 erreurs · 1 gaffe",
     "1 décision : 1 meilleur coup"),
    ("es", "Precisión {pct} en 7 decisiones: 1 mejor jugada · 5 errores · 1 error grave",
     "1 decisión: 1 mejor jugada"),
    ("cs", "Přesnost {pct} z 7 rozhodnutí: 1 nejlepší tah · 5 chyb · 1 hrubá chyba",
     "1 rozhodnutí: 1 nejlepší tah"),
])
def test_the_grades_are_counted_in_the_languages_plurals(lang: str, whole: str, one: str) -> None:
    """"5 mistakes", "5 chyb", "1 decision": each count agrees with its number."""
    tr = translator(lang)
    mistakes = [Decision(1, v, QS, TS, 0.0, 1.0, 1.0, "mistake", 2) for v in range(5)]
    decisions = [*mistakes, Decision(1, 6, QS, TS, -2.0, 2.0, 4.0, "blunder", 2),
                 Decision(2, 8, TS, TS, 1.0, 1.0, 0.0, "best", 2)]
    review = Review("marias", 1, "jetons", 4.0, decisions, [DealSplit(1, 0.0, -9.0, 9.0, 1.0),
                                                              DealSplit(2, 1.0, 0.0, 1.0, 1.0)], 50.0)
    title = tr._(GAMES["marias"].title)
    assert summary(review, "alice", 7, title, None, tr)[1] == whole.format(pct=tr.percent(0.5))
    assert summary(review, "alice", 7, title, 2, tr)[1] == one


@pytest.mark.parametrize("lang", LANGUAGES)
def test_moves_played_for_the_seat_are_named_in_every_language(lang: str) -> None:
    tr = translator(lang)
    review = sample()
    title = tr._(GAMES["marias"].title)
    review.auto = 3
    whole = summary(review, "alice", 7, title, None, tr)
    line = tr.n_("{n} move played for this seat (by the AI while its player was away, or when time ran out) "
                 "is not graded: it counts in luck.",
                 "{n} moves played for this seat (by the AI while its player was away, or when time ran out) "
                 "are not graded: they count in luck.", 3)
    assert whole[-1] == line and tr.number(3) in line
    assert (lang == "en") == line.startswith("3 moves played")
    assert line not in summary(review, "alice", 7, title, 1, tr)  # a session's count, not a deal's


@pytest.mark.parametrize("lang", LANGUAGES)
def test_pictures_in_every_language(lang: str) -> None:
    tr = translator(lang)
    review = sample()
    chart = Image.open(io.BytesIO(split_image([(d.deal, d.result, d.skill, d.luck) for d in review.deals],
                                              unit_name("jetons", tr), tr)))
    assert chart.size[0] == 720 and chart.size[1] > 300
    s = play_out(Logged("marias", 3, {"rounds": 1}, 3), seed=3, stop=lambda t: len(t.log) >= 8)
    seat = s.seat()
    view = view_at(s.game, 3, s.options, s.seed, s.log, len(s.log) - 1, seat)
    cards = [a["card"] for a in s.state.legal_actions(seat) if "card" in a]
    lit = (cards[0] if cards else None, None)
    png = decision_image("marias", view, ["a", "b", "c"], "Q♠", "10♠", grade_name("blunder", tr), lit, tr)
    pic = Image.open(io.BytesIO(png))
    assert pic.size[0] == 720 and pic.size[1] > 400


def test_a_decision_is_drawn_from_the_players_own_view() -> None:
    """The picture's hand is the reviewed seat's hand then; no other seat's card is in its view."""
    s = play_out(Logged("marias", 3, {"rounds": 1}, 3), seed=3, stop=lambda t: len(t.log) >= 10)
    seat = s.seat()
    view = view_at(s.game, 3, s.options, s.seed, s.log, len(s.log), seat)
    assert view == s.state.view(seat)
    others = {c for i, h in enumerate(s.state.hands) if i != seat for c in h}
    assert not others & set(view.get("hand") or [])


def test_the_levels_accuracy_is_read_in_the_registrys_order() -> None:
    from bot.ai import LEVELS

    names = [str(level) for level in LEVELS]
    for game in GAMES:
        levels = [level for level, _ in level_accuracy(game)]
        assert levels == [name for name in names if name in levels]
        assert all(0 <= value <= 100 for _, value in level_accuracy(game))


async def test_reviews_wait_for_every_table_and_hint() -> None:
    """Reviews (``Priority.REVIEW``) go after the hints, which go after every table's own move."""
    budget = Budget(1)
    order: list[str] = []
    await budget.acquire()

    async def job(name: str, urgent: bool = False, priority: Priority | None = None) -> None:
        await budget.acquire(urgent, priority)
        order.append(name)
        budget.release()

    waiting = [asyncio.create_task(job("review-1", priority=Priority.REVIEW)),
               asyncio.create_task(job("hint", priority=Priority.HINT)), asyncio.create_task(job("idle"))]
    await asyncio.sleep(0)
    waiting += [asyncio.create_task(job("review-2", priority=Priority.REVIEW)),
                asyncio.create_task(job("human", True))]
    await asyncio.sleep(0)
    budget.release()
    await asyncio.gather(*waiting)
    assert order == ["human", "idle", "hint", "review-1", "review-2"] and budget.free == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_profiles_accuracy_line_names_the_levels_in_the_readers_words(lang: str) -> None:
    from bot.store.reviews import GameAccuracy
    from bot.views.boards import accuracy_line
    from bot.views.yardsticks import level_word

    tr = translator(lang)
    assert accuracy_line("marias", None, tr) == ""  # nothing before a review
    line = accuracy_line("marias", GameAccuracy("marias", 81.0, 2), tr)
    assert line.startswith("\n") and "81" in line
    for level, _ in level_accuracy("marias"):
        assert level_word(level, tr) in line
