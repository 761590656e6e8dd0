"""Images at their extremes: 1,000,000 jetons, 32-character names, the longest language (Basque,
Czech). Each text drawn is recorded (after its ellipsis) and its box measured against its room."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.i18n import Translator
from bot.render.canvas import Canvas
from bot.render.fonts import text_width
from bot.render.layout import PLATE_W, SIDEBAR_X, WIDTH
from bot.render.table import table_image
from bot.render.text import text_mask
from tests.render.samples import SAMPLES, VARIANTS

MILLION = 1_000_000
LONG_NAMES = ["W" * 32, "M" * 32, "Ẅ" * 32, "**bold** __u__ `code` [x](y) ~~s", "W" * 32, "M" * 32]


@dataclass
class Drawn:
    """One text as drawn: its box ``(left, top, right, bottom)`` and the string after fitting."""

    text: str
    box: tuple[int, int, int, int]
    xy: tuple[float, float]
    size: int
    anchor: str


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Drawn]]:
    """Every text drawn on a ``Canvas`` while the test runs."""
    from bot.render.fonts import fit

    out: list[Drawn] = []
    original = Canvas.text

    def record(self: Canvas, xy: tuple[float, float], s: str, size: int, fill: Any = None,
               bold: bool = False, anchor: str = "la", max_width: int | None = None) -> None:
        shown = fit(s, size, max_width, bold) if max_width is not None else s
        if shown:
            mask, dx, dy = text_mask(shown, size, bold, anchor)
            x, y = round(xy[0]) + dx, round(xy[1]) + dy
            out.append(Drawn(shown, (x, y, x + mask.width, y + mask.height), xy, size, anchor))
        if fill is None:
            original(self, xy, s, size, bold=bold, anchor=anchor, max_width=max_width)
        else:
            original(self, xy, s, size, fill, bold, anchor, max_width)

    monkeypatch.setattr(Canvas, "text", record)
    yield out


@pytest.fixture
def panels(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[float, float, float, float]]]:
    """The box of every panel (plate, pill) drawn on a ``Canvas`` while the test runs."""
    out: list[tuple[float, float, float, float]] = []
    original = Canvas.panel

    def record(self: Canvas, box: tuple[float, float, float, float], *args: Any, **kwargs: Any) -> None:
        out.append(box)
        original(self, box, *args, **kwargs)

    monkeypatch.setattr(Canvas, "panel", record)
    yield out


def extreme(game: str, variant: bool) -> dict[str, Any]:
    """A sample view of ``game`` with every stack and the pot at a million jetons."""
    view = copy.deepcopy(VARIANTS[game][0] if variant else SAMPLES[game])
    view["stacks"] = [MILLION] * len(view["stacks"])
    if isinstance(view.get("pot"), int):
        view["pot"] = MILLION
    return view


CASES = [(g, v, lang) for g in sorted(SAMPLES) for v in (False, True) for lang in ("eu", "cs", "fr")]


@pytest.mark.parametrize(("game", "variant", "lang"), CASES)
def test_sidebar_text_stays_in_its_panel(game: str, variant: bool, lang: str, drawn: list[Drawn]) -> None:
    """No sidebar text runs off the panel (a long Basque label once pushed its value off the image)."""
    view = extreme(game, variant)
    table_image(game, view, LONG_NAMES[: len(view["stacks"])], Translator(lang))
    side = [d for d in drawn if d.xy[0] >= SIDEBAR_X]
    assert side
    for d in side:
        assert d.box[2] <= WIDTH - 6, f"{d.text!r} ends at {d.box[2]}, past the panel"


@pytest.mark.parametrize(("game", "variant", "lang"), CASES)
def test_stack_clears_the_hidden_backs(game: str, variant: bool, lang: str, drawn: list[Drawn],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A million-jeton stack ends before the plate's card backs, and the ``×n`` count stays on the plate."""
    backs: list[tuple[float, float]] = []
    original = Canvas.backs

    def record(self: Canvas, count: int, x: float, y: float, width: int, step: int, most: int = 6) -> float:
        backs.append((x, y))
        return original(self, count, x, y, width, step, most)

    monkeypatch.setattr(Canvas, "backs", record)
    view = extreme(game, variant)
    tr = Translator(lang)
    table_image(game, view, LONG_NAMES[: len(view["stacks"])], tr)
    million = tr.number(MILLION)
    stacks = [d for d in drawn if d.anchor == "lm" and million.startswith(d.text.rstrip("…"))
              and d.xy[0] < SIDEBAR_X - 100 and d.size <= 21]
    counts = [d for d in drawn if d.text.startswith("×")]
    assert len(counts) == len(backs)
    for x, y in backs:  # the plate's stack is 13 px below its backs' top, its count 12 px
        stack = next(d for d in stacks if abs(d.xy[1] - (y + 13)) < 1 and 0 < x - d.xy[0] < PLATE_W)
        assert stack.box[2] + 2 <= x, f"{stack.text!r} runs under the backs"
        assert stack.text == million, "the stack lost digits"
        count = next(d for d in counts if abs(d.xy[1] - (y + 12)) < 1 and 0 < d.xy[0] - x < PLATE_W)
        assert count.box[2] <= stack.xy[0] - 30 + PLATE_W, f"{count.text!r} falls off the plate"


def overlapping(texts: list[Drawn]) -> list[tuple[str, str]]:
    """Pairs of drawn texts whose boxes meet."""
    return [(a.text, b.text) for i, a in enumerate(texts) for b in texts[i + 1:]
            if a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]]


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "en"])
@pytest.mark.parametrize("swiss", [True, False])
def test_standings_columns_never_meet(lang: str, swiss: bool, drawn: list[Drawn]) -> None:
    """A net of -1,000,000 and long names at 128 entrants: no two texts of a row overlap."""
    from bot.render.standings import standings_image
    from bot.tournaments.standings import Standing

    rows = [Standing(entrant=i, name=LONG_NAMES[i % 6], points=254, buchholz=32_512, net=-MILLION,
                     sessions=127, wins=127, rank=i + 1) for i in range(128)]
    standings_image(rows, "Txapelketa", swiss, Translator(lang))
    assert not overlapping(drawn)


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "en"])
def test_leaderboard_bars_end_before_the_figures(lang: str, drawn: list[Drawn],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A bar of -1,000,000 jetons ends before its figure begins (it ran under '-1 0…')."""
    from PIL import ImageDraw

    from bot.render.leaderboard import leaderboard_image

    bars: list[tuple[float, float]] = []  # (right end, middle y)
    original = ImageDraw.ImageDraw.rounded_rectangle

    def record(self: ImageDraw.ImageDraw, xy: Any, *args: Any, **kwargs: Any) -> None:
        bars.append((xy[2], (xy[1] + xy[3]) / 2))
        original(self, xy, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "rounded_rectangle", record)
    tr = Translator(lang)
    rows = [{"name": LONG_NAMES[i % 6], "jetons": MILLION * (-1 if i % 2 else 1), "games": 999, "rank": i + 1}
            for i in range(20)]
    leaderboard_image(rows, tr=tr)
    assert len(bars) == 20
    figures = [d for d in drawn if d.text.lstrip("-") == tr.number(MILLION)]
    assert len(figures) == 20
    for right, mid in bars:
        figure = next(d for d in figures if d.box[1] < mid < d.box[3])
        assert right + 4 <= figure.box[0], f"the bar runs under {figure.text!r}"
    assert not overlapping(drawn)


@pytest.mark.parametrize(("lang", "words"), [("en", "… and 104 more entrants"),
                                             ("cs", "… a 104 dalších účastníků"),
                                             ("eu", "… eta beste 104 parte-hartzaile")])
def test_standings_say_how_many_entrants_are_left_out(lang: str, words: str, drawn: list[Drawn]) -> None:
    """128 entrants: the image shows the first rows and then says how many more there are, in its
    language, on the image (it ended at the 24th row without a sign)."""
    from bot.render.standings import MAX_ROWS, ROW_H, TOP, standings_image
    from bot.tournaments.standings import Standing
    from tests.render.test_api import size_of

    rows = [Standing(entrant=i, name=f"p{i}", rank=i + 1) for i in range(128)]
    png = standings_image(rows, "Txapelketa", True, Translator(lang))
    line = next(d for d in drawn if d.text == words)
    assert line.box[3] <= size_of(png)[1] and line.box[1] >= TOP + MAX_ROWS * ROW_H
    drawn.clear()
    standings_image(rows[:MAX_ROWS], "Txapelketa", True, Translator(lang))
    assert not [d for d in drawn if d.text.startswith("…")]


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "en"])
@pytest.mark.parametrize("pool", [1_000, 100_000, MILLION])
def test_michigan_pools_never_meet(lang: str, pool: int, drawn: list[Drawn]) -> None:
    """The four boodle pools under their cards: no two overlap (a pool of 1 000 ran into the next)."""
    view = copy.deepcopy(SAMPLES["michigan"])
    view["pot"] = [pool] * 4
    table_image("michigan", view, LONG_NAMES, Translator(lang))
    tr = Translator(lang)
    pools = [d for d in drawn if d.text.rstrip("…") and tr.number(pool).startswith(d.text.rstrip("…"))
             and 250 < d.xy[1] < 330 and d.xy[0] < SIDEBAR_X]
    assert len(pools) == 4
    assert not overlapping([Drawn(d.text, (d.box[0] - 2, *d.box[1:]), d.xy, d.size, d.anchor) for d in pools])
    if pool < MILLION:
        assert all(d.text == tr.number(pool) for d in pools), "a pool lost digits"


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "es", "en"])
def test_mus_bet_pill_holds_its_label(lang: str, drawn: list[Drawn],
                                      panels: list[tuple[float, float, float, float]]) -> None:
    """The pending bet's pill is as wide as its words ('apustua 39 · B taldea' ran past it in Basque)."""
    pills = panels
    view = copy.deepcopy(SAMPLES["mus"])
    view["bet"] = {"total": 39, "held": 38, "team": 1}
    table_image("mus", view, LONG_NAMES[:4], Translator(lang))
    label = next(d for d in drawn if d.anchor == "mm" and "39" in d.text and d.size == 17)
    pill = next(b for b in pills if b[1] <= label.xy[1] <= b[3] and b[0] < label.xy[0] < b[2])
    assert pill[0] + 6 <= label.box[0] and label.box[2] <= pill[2] - 6, (label.text, pill, label.box)


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "en"])
@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_maitre_last_player_line_clears_the_plates(lang: str, seats: int, drawn: list[Drawn],
                                                   panels: list[tuple[float, float, float, float]]) -> None:
    """'last: <32-letter name>' under the trick stays off every plate (it ran over the lower ones)."""
    plates = panels
    view = copy.deepcopy(SAMPLES["maitre"])
    for key in ("stacks", "hand_counts", "discard_counts", "tricks_won", "points", "strikes"):
        view[key] = [0] * seats
    view.update(won_cards=[[]] * seats, eliminated=[False] * seats, last_player=1, to_act=[0], dealer=0)
    table_image("maitre", view, ["M" * 32] * seats, Translator(lang))
    line = next(d for d in drawn if d.anchor == "mt" and "M" * 8 in d.text)
    clash = [p for p in plates[1:] if p[0] < line.box[2] and line.box[0] < p[2]
             and p[1] < line.box[3] and line.box[1] < p[3]]
    assert not clash, (line.text, line.box, clash)


@pytest.mark.parametrize(("lang", "games"), [("cs", "12 345"), ("fr", "12 345"), ("en", "12345")])
def test_leaderboard_sessions_in_the_readers_digits(lang: str, games: str, drawn: list[Drawn]) -> None:
    """A row's session count is grouped as the reader writes numbers (it was a bare '12345')."""
    from bot.render.leaderboard import leaderboard_image

    leaderboard_image([{"name": "Ana", "jetons": 5, "games": 12345}], tr=Translator(lang))
    assert any(d.text.replace("\u00a0", " ").replace("\u202f", " ") == games for d in drawn), \
        [d.text for d in drawn]


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "es"])
def test_motz_last_deal_lines_keep_their_amounts(lang: str, drawn: list[Drawn]) -> None:
    """'<32-letter name> +1 000 000' and '<name> fined 20' in the sidebar: the name is shortened, the
    amount stays (the line was cut inside the name, and the amounts were lost)."""
    view = copy.deepcopy(VARIANTS["motz"][0])
    view["last_result"] = {"cancelled": False, "trick_winners": [0, 3, 5],
                           "payouts": [MILLION, 0, 0, 0, 0, 10], "fines": [0, MILLION, 20, 0, 0, 0]}
    tr = Translator(lang)
    table_image("motz", view, ["Ẅ" * 32] * 6, tr)
    side = [d.text for d in drawn if d.xy[0] >= SIDEBAR_X]
    for amount in (f"+{tr.number(MILLION)}", "+10", tr.number(MILLION), "20"):
        assert any(amount in line and "…" in line for line in side), (amount, side)


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "es", "en"])
def test_header_keeps_the_deal_number_late_in_a_session(lang: str, drawn: list[Drawn]) -> None:
    """The 200th deal's header line is written whole (it lost its number in Czech and Basque)."""
    view = copy.deepcopy(VARIANTS["maitre"][0])
    view.update(phase="play", deal=199)
    tr = Translator(lang)
    table_image("maitre", view, ["Ẅ" * 32] * 6, tr)
    assert any("200" in d.text and "…" not in d.text for d in drawn if d.xy[0] >= SIDEBAR_X), \
        [d.text for d in drawn if d.xy[0] >= SIDEBAR_X][:3]


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "es"])
@pytest.mark.parametrize("game", ["marias", "michigan"])
def test_last_deal_winner_line_keeps_its_words(game: str, lang: str, drawn: list[Drawn]) -> None:
    """Marias' '<contract> by <name>' and Michigan's '<name> went out' with a 32-letter name: the
    name is shortened and the rest of the sentence stays (it was cut inside the name)."""
    view = copy.deepcopy(SAMPLES[game])
    tr = Translator(lang)
    table_image(game, view, ["Ẅ" * 32] * len(view["stacks"]), tr)
    side = [d.text for d in drawn if d.xy[0] >= SIDEBAR_X]
    if game == "marias":
        whole = tr._("{game} by {who}", game="", who="@").split("@")
    else:
        whole = tr._("{who} went out", who="@").split("@")
    tail = max(whole, key=len).strip()[-6:]
    assert any("…" in text and tail in text for text in side), (tail, side)


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "es", "en"])
def test_michigan_last_hand_shows_every_payment(lang: str, drawn: list[Drawn]) -> None:
    """Six seats' payments of the last hand, each "<name> <amount>" whole, over as many sidebar lines
    as they need (one line showed "Marguerite -2, Esperanza -…" and lost four of them)."""
    view = copy.deepcopy(SAMPLES["michigan"])
    names = ["Marguerite", "Bartholomew", "Esperanza", "Jean-Baptiste", "Maximilien", "Wenceslas"]
    tr = Translator(lang)
    table_image("michigan", view, names, tr)
    side = [d for d in drawn if d.xy[0] >= SIDEBAR_X]
    paid = [f"{names[i]} {'+' if p > 0 else '−'}{tr.number(abs(p))}"
            for i, p in enumerate(view["last_result"]["payments"]) if p]
    assert len(paid) == 5
    for part in paid:
        assert any(part in d.text for d in side), (part, [d.text for d in side])
    assert all(d.box[2] <= WIDTH - 6 for d in side)


@pytest.mark.parametrize("lang", ["eu", "cs", "fr", "en"])
def test_a_long_label_and_a_long_name_both_stay_whole(lang: str, drawn: list[Drawn]) -> None:
    """Michigan's spare-hand bid by a long name: the label and the bidder each whole, the name on a line
    of its own (both were cut: "Spare han… xXx_Dar…")."""
    view, names = copy.deepcopy(VARIANTS["michigan"][0]), list(VARIANTS["michigan"][1])
    names[2] = "Jean-Baptiste"  # 13 letters: with the label, wider than the column
    tr = Translator(lang)
    table_image("michigan", view, names, tr)
    side = [d.text for d in drawn if d.xy[0] >= SIDEBAR_X]
    assert any(text.startswith(names[2]) and "…" not in text for text in side), side
    label = tr._("Spare hand bid")
    if text_width(label, 18) <= WIDTH - SIDEBAR_X - 24:  # Basque's is wider than the column itself
        assert label in side, side
