"""A review in words, in the reader's language (``tr``: a ``bot.i18n`` translator). Pure text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.ai.policy import Action
from bot.review.analysis import Decision, Review
from bot.review.grades import GRADES

Label = Callable[[Action], str]


def grade_name(grade: str, tr: Any) -> str:
    """A grade's word."""
    words = {
        "best": tr.p_("review grade", "best"),
        "good": tr.p_("review grade", "good"),
        "inaccuracy": tr.p_("review grade", "inaccuracy"),
        "mistake": tr.p_("review grade", "mistake"),
        "blunder": tr.p_("review grade", "blunder"),
    }
    return words.get(grade, grade)


def unit_name(unit: str, tr: Any) -> str:
    """The natural unit the values are in (the search's: jetons, points, or Mus match chance)."""
    if unit == "points":
        return tr.p_("review unit", "points")
    if unit == "chance":
        return tr.p_("review unit", "points of match-winning chance")
    return tr.p_("review unit", "jetons")


def value(x: float, tr: Any) -> str:
    """A signed value with one decimal (no ``-0.0``)."""
    return str(tr.signed_decimal(round(x, 1) + 0.0))


def accuracy_text(accuracy: float | None, tr: Any) -> str:
    """``83%``, or a dash when no decision had a choice."""
    return "—" if accuracy is None else str(tr.percent(accuracy / 100.0))


def grade_count(grade: str, n: int, tr: Any) -> str:
    """``n`` decisions of a grade, the noun agreeing with the number ("5 mistakes", "5 chyb")."""
    words = {
        "best": tr.np_("review grade count", "{n} best", "{n} best", n),
        "good": tr.np_("review grade count", "{n} good", "{n} good", n),
        "inaccuracy": tr.np_("review grade count", "{n} inaccuracy", "{n} inaccuracies", n),
        "mistake": tr.np_("review grade count", "{n} mistake", "{n} mistakes", n),
        "blunder": tr.np_("review grade count", "{n} blunder", "{n} blunders", n),
    }
    return words.get(grade, f"{tr.number(n)} {grade}")


def counts_text(counts: dict[str, int], tr: Any) -> str:
    """``3 best · 1 mistake`` in the grades' order."""
    return " · ".join(grade_count(g, counts[g], tr) for g in GRADES if counts.get(g))


def summary(review: Review, who: str, table: int, game_title: str, deal: int | None, tr: Any) -> list[str]:
    """The answer's head: whose review, the accuracy and grades, the skill/luck split."""
    unit = unit_name(review.unit, tr)
    if deal is None:
        head = tr._("Review of {who} · table #{table} · {game}", who=who, table=table, game=game_title)
        split = [(d.result, d.skill, d.luck) for d in review.deals]
    else:
        head = tr._("Review of {who} · table #{table} · {game} · deal {deal}", who=who, table=table,
                    game=game_title, deal=deal)
        split = [(d.result, d.skill, d.luck) for d in review.deals if d.deal == deal]
    result, skill, luck = (sum(x[i] for x in split) for i in range(3))
    counts = review.counts(deal)
    lines = [f"**{head}**"]
    n = sum(counts.values())
    if deal is None:
        lines.append(tr.n_("Accuracy {accuracy} over {n} decision: {grades}",
                           "Accuracy {accuracy} over {n} decisions: {grades}", n,
                           accuracy=accuracy_text(review.accuracy, tr),
                           grades=counts_text(counts, tr) or "—"))
    else:
        lines.append(tr.n_("{n} decision: {grades}", "{n} decisions: {grades}", n,
                           grades=counts_text(counts, tr) or "—"))
    lines.append(tr._("Result {result} = skill {skill} + luck {luck} ({unit})", result=value(result, tr),
                      skill=value(skill, tr), luck=value(luck, tr), unit=unit))
    if deal is None and review.auto:
        lines.append(tr.n_("{n} move played for this seat (by the AI while its player was away, or when "
                           "time ran out) is not graded: it counts in luck.",
                           "{n} moves played for this seat (by the AI while its player was away, or when "
                           "time ran out) are not graded: they count in luck.", review.auto))
    return lines


def decision_line(d: Decision, label: Label, unit: str, tr: Any) -> str:
    """One costly decision: the move played and its value, the better one, the cost and grade."""
    return tr._("Deal {deal}: played **{played}** ({played_value}), better **{best}** ({best_value}): "
                "{grade}, cost {cost} {unit}", deal=d.deal, played=label(d.played),
                played_value=value(d.played_value, tr), best=label(d.best),
                best_value=value(d.best_value, tr),
                grade=grade_name(d.grade, tr), cost=tr.decimal(d.cost), unit=unit_name(unit, tr))


def progress_text(table: int, done: int, deals: int, tr: Any) -> str:
    """The deferred reply while a review runs."""
    return tr._("Reviewing table #{table}: deal {done} of {deals} analysed…", table=table,
                done=tr.number(done), deals=tr.number(deals))
