"""Chance to win a Mus game from its score: a race to the target over recorded deals (issue 17).

``bot/ai/mus/data/mus_deals.csv`` (written by ``tools/mus_race.py``) holds how many points each deal
of easy-vs-easy play gave the mano's team and the other team, or which won an accepted órdago.
Taking deals as independent draws from it, with the mano changing team every deal,
``game_chance(target, us, them, mano_us)`` is the chance that a team with ``us`` points against
``them`` wins the game (both crossing the target in one count is read as even: the table does not
keep the lance order). ``match_chance`` lifts it to the match (later games even).
The strong AI's Mus value (``bot.ai.strong.spec``) is built on it: a point is worth more near
the target than at 0–0, and an órdago is judged by the chances it trades, not by raw points.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

HEADER = "kind,mano_team,other_team,count"


def parse(text: str) -> tuple[list[tuple[int, int, float]], float, float]:
    """(``[(mano team's points, other's points, probability)]``, P(órdago won by the mano's
    team), P(órdago won by the other)) from the CSV text."""
    lines = text.strip().splitlines()
    if lines[0] != HEADER:
        raise ValueError("not a Mus deal table")
    rows = [line.split(",") for line in lines[1:]]
    total = sum(int(r[3]) for r in rows)
    points = [(int(x), int(y), int(n) / total) for k, x, y, n in rows if k == "points"]
    ordago = [0.0, 0.0]
    for k, x, _y, n in rows:
        if k == "ordago":
            ordago[int(x)] += int(n) / total
    return points, ordago[0], ordago[1]


@cache
def deals() -> tuple[list[tuple[int, int, float]], float, float]:
    """The shipped deal table (loaded once)."""
    text = resources.files("bot").joinpath("ai/mus/data/mus_deals.csv").read_text(encoding="utf-8")
    return parse(text)


@cache
def _table(target: int) -> tuple[list[list[float]], list[list[float]]]:
    return race_table(target, *deals())


def race_table(
    target: int, points: list[tuple[int, int, float]], ord_mano: float, ord_other: float,
) -> tuple[list[list[float]], list[list[float]]]:
    """``(W_mano, W_other)``: ``W[us][them]`` (both below ``target``) is the chance to win the
    game when our team is the mano's in the next deal (or not), deals drawn from ``points``
    (mano team's, other team's points, probability) and accepted órdagos won by the mano's team
    or the other with the given probabilities. Every deal gives at least one point, so the table
    is filled from the highest total score down."""
    t = target
    w = [[[0.0] * t for _ in range(t)] for _ in range(2)]  # w[0]: we are mano; w[1]: not
    for total in range(2 * t - 2, -1, -1):
        for us in range(max(0, total - t + 1), min(t - 1, total) + 1):
            them = total - us
            for m in (0, 1):
                nxt = w[1 - m]
                v = ord_mano if m == 0 else ord_other  # we win an accepted órdago
                for x, y, p in points:
                    a, b = (us + x, them + y) if m == 0 else (us + y, them + x)
                    if a >= t:
                        v += p * (0.5 if b >= t else 1.0)
                    elif b < t:
                        v += p * nxt[a][b]
                w[m][us][them] = v
    return w[0], w[1]


def game_chance(target: int, us: int, them: int, mano_us: bool) -> float:
    """Chance that the team with ``us`` points beats the one with ``them`` to ``target``."""
    if us >= target:
        return 1.0 if them < target else 0.5
    if them >= target:
        return 0.0
    table = _table(target)[0 if mano_us else 1]
    return table[max(us, 0)][max(them, 0)]


@cache
def _later(need_us: int, need_them: int) -> float:
    """Chance to win ``need_us`` even games before the other team wins ``need_them``."""
    if need_us <= 0:
        return 1.0
    if need_them <= 0:
        return 0.0
    return 0.5 * _later(need_us - 1, need_them) + 0.5 * _later(need_us, need_them - 1)


def match_chance(need: int, games_us: int, games_them: int, game: float) -> float:
    """Chance to win the match (first to ``need`` games) with ``game`` the chance of this game."""
    a, b = need - games_us, need - games_them
    if a <= 0:
        return 1.0
    if b <= 0:
        return 0.0
    return game * _later(a - 1, b) + (1.0 - game) * _later(a, b - 1)
