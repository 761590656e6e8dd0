"""``research/ceiling.py``: the peeking player of the ceiling measurements (never a level)."""

from __future__ import annotations


def test_bench_ceiling_peeks_for_side_a_only(monkeypatch) -> None:
    """``research/ceiling.py``: the expert's search reads the real deal, strong's still redeals; the
    peeking copy of a Michigan state holds the real hands on a config of its own."""
    import importlib
    import random
    from pathlib import Path

    from bot.ai.registry import game_ai, spec_for
    from bot.ai.strong.policy import StrongPolicy
    from bot.rules import GAMES

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1]))  # research/
    ceiling = importlib.import_module("ceiling")
    monkeypatch.setattr(game_ai("michigan"), "spec", spec_for("michigan"))
    ceiling.install("michigan", "expert", "strong")
    assert StrongPolicy("michigan", expert=True).spec.determinize is ceiling.peeking_copy
    assert StrongPolicy("michigan").spec.determinize is None
    game = GAMES["michigan"]
    state = game.new_table(seats=4, options=game.validate_options({}), seed=3)
    copy = ceiling.peeking_copy(state, state.to_act()[0], random.Random(0))
    assert copy.owner == state.owner  # every hidden card where it really is
    assert state.redeal(2, random.Random(0)).owner != state.owner  # (an honest redeal moves them)
    assert copy.cfg.hand_only and not state.cfg.hand_only


# ---------------------------------------------------------------------- issue 32: one peek at a time

import random  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

# (imported here: inside a test ``research/`` is first on the path, where ``tests`` is research/tests)
from tests.ai.test_michigan_paired import out_in_two_leads  # noqa: E402
from tests.rules.test_marias import H8, do  # noqa: E402
from tests.rules.test_marias import new as marias_new  # noqa: E402
from tests.rules.test_motz import MUET, PASS, STAND, declare  # noqa: E402
from tests.rules.test_motz import deck_for as motz_deck  # noqa: E402
from tests.rules.test_motz import new as motz_new  # noqa: E402

RESEARCH = Path(__file__).resolve().parents[1]


def _ceiling(monkeypatch: pytest.MonkeyPatch) -> Any:
    """``research/ceiling.py`` with whatever it patches put back after the test."""
    import importlib

    import bot.rules.michigan.state as mstate
    from bot.ai.registry import game_ai, spec_for
    from bot.rules.marias.state import MariasState
    from bot.rules.motz import MotzState

    monkeypatch.syspath_prepend(str(RESEARCH))
    for cls, name in ((MotzState, "redeal"), (MariasState, "redeal"), (MariasState, "_pinned")):
        monkeypatch.setattr(cls, name, getattr(cls, name))
    monkeypatch.setattr(mstate, "known_dead", mstate.known_dead)
    for game in ("motz", "marias", "michigan"):
        monkeypatch.setattr(game_ai(game), "spec", spec_for(game))
    ceiling = importlib.import_module("ceiling")
    ceiling.patch_engines()
    return ceiling


def _places(game: str, st: Any, seat: int) -> dict[str, Any]:
    """Every place hidden from ``seat`` (or that may be), with its cards."""
    if game == "michigan":
        from bot.rules.michigan.tables import DEAD

        return {("dead" if o == DEAD else f"hand {o}"): sorted(x for x in range(52) if st.owner[x] == o)
                for o in (DEAD, *range(st.cfg.n)) if o != seat}
    out = {f"hand {s}": sorted(h) for s, h in enumerate(st.hands) if s != seat}
    out["muet" if game == "motz" else "talon"] = sorted(st.muet or []) if game == "motz" else sorted(st.talon)
    return out


def motz_second_round() -> Any:
    """Four seats, dealer 3, trump ♥: seat 0 stood (J♥ J♦ 7♠), seat 1 passed; seat 2 (A♠ K♣ 7♦)
    to speak, seat 3 still to speak, the muet untaken."""
    st = motz_new(4, dealer=3, decks=[motz_deck(4, 3, {0: ["JH", "JD", "7S"], 2: ["AS", "KC", "7D"]},
                                                 muet=["AH", "KH", "QH"], turn_up="8H")])
    declare(st, STAND, PASS)
    assert st.to_act() == (2,)
    return st


def marias_answer() -> Any:
    """Marias H8 (tests/rules/test_marias.py): forehand 0 names ♥, plays hra, lays 9♥ 7♥; seat 1 to answer."""
    st = marias_new(*H8)
    do(st, 0, "trump", card="8H")
    do(st, 0, "declare", game="hra")
    do(st, 0, "discard", card="9H")
    do(st, 0, "discard", card="7H")
    assert st.to_act() == (1,) and st.soloist == 0
    return st


def michigan_six() -> Any:
    return out_in_two_leads()


CASES = [
    ("motz", motz_second_round, 2, "muet", {"muet"}),
    ("motz", motz_second_round, 2, "declared", {"hand 0"}),  # seat 1 passed: no hand to read
    ("motz", motz_second_round, 2, "to_speak", {"hand 3"}),
    ("marias", marias_answer, 1, "talon", {"talon"}),
    ("marias", marias_answer, 1, "defenders", {"hand 2"}),
    ("michigan", michigan_six, 0, "dead", {"dead"}),
]


@pytest.mark.parametrize("game, build, seat, mode, read", CASES, ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_each_peek_reads_exactly_its_cards(monkeypatch: pytest.MonkeyPatch, game: str, build: Any,
                                           seat: int, mode: str, read: set[str]) -> None:
    """On a hand-built deal: the peeking determinizer keeps the real cards of the read places and
    the seat's view, still redeals every other hidden place, and depends on nothing else (a twin
    that differs only in the other places gives the very same determinizations), while a twin
    that differs in the read places does not."""
    from bot.ai.registry import determinizer, spec_for

    ceiling = _ceiling(monkeypatch)
    st = build()
    honest = spec_for(game).determinize or determinizer(game)
    det = ceiling.peeking(honest, mode)
    assert set(ceiling.revealed(game, st, seat, mode)) == read
    real = _places(game, st, seat)
    others = [p for p in real if p not in read]
    moved = 0
    for k in range(20):
        d = det(st, seat, random.Random(k))
        assert d.view(seat) == st.view(seat)
        got = _places(game, d, seat)
        assert all(got[p] == real[p] for p in read), (k, mode)
        moved += any(got[p] != real[p] for p in others)
    # (Marias: with the defender read, only the soloist's hand and a talon of exactly two low
    # trumps are left to shuffle, so a redeal now and then lands on the real layout)
    assert moved >= 15
    # a twin differing only in the other places: the same determinizations
    twin = next(t for t in (det(st, seat, random.Random(100 + i)) for i in range(10))
                if any(_places(game, t, seat)[p] != real[p] for p in others))
    for k in range(10):
        assert _places(game, det(st, seat, random.Random(k)), seat) == \
            _places(game, det(twin, seat, random.Random(k)), seat)
    # a twin differing in the read places (an honest redeal): the peek reads them
    other = next(t for t in (honest(st, seat, random.Random(200 + i)) for i in range(20))
                 if any(_places(game, t, seat)[p] != real[p] for p in read))
    assert any(_places(game, det(other, seat, random.Random(k)), seat) !=
               _places(game, det(st, seat, random.Random(k)), seat) for k in range(5))
    # outside side A's determinizer the engines deal honestly
    assert any(_places(game, honest(st, seat, random.Random(k)), seat)[p] != real[p]
               for k in range(10) for p in read)


def test_the_reading_redeal_is_the_engines_when_nothing_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Motz reading redeal re-implements the engine's: with no place to read (the muet taken,
    nobody still to speak), it draws exactly what ``MotzState.redeal`` draws with the same rng."""
    ceiling = _ceiling(monkeypatch)
    st = motz_second_round()
    declare(st, MUET, STAND)  # seat 2 takes the muet, seat 3 stands: the play begins
    seat = st.to_act()[0]
    for mode in ("muet", "to_speak"):
        assert ceiling.revealed("motz", st, seat, mode) == {}
        with ceiling.reading(seat, mode):
            peeked = [st.redeal(seat, random.Random(k)) for k in range(10)]
        plain = [ceiling._plain_motz_redeal(st, seat, random.Random(k)) for k in range(10)]
        assert [(p.hands, p.muet, p.seed) for p in peeked] == [(p.hands, p.muet, p.seed) for p in plain]


def test_install_puts_the_peek_on_side_a_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.ai.strong.policy import StrongPolicy

    ceiling = _ceiling(monkeypatch)
    ceiling.install("motz", "expert", "strong", "muet")
    assert StrongPolicy("motz", expert=True).spec.determinize.__name__ == "peeking_muet"
    assert StrongPolicy("motz").spec.determinize is None
    ceiling.install("marias", "strong", "easy", "talon")
    assert StrongPolicy("marias").spec.determinize.__name__ == "peeking_talon"
    with pytest.raises(SystemExit):
        ceiling.install("marias", "strong", "easy", "muet")  # not a Marias peek


def test_journaled_peeks_compare_like_the_run_in_one_process(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A peek played into a journal in two parts and compared with the honest journal gives the
    table of the one-process run; a journal of another peek, or the honest one resumed as a peek,
    is refused; the peek is removed after the run."""
    from bot.ai.registry import spec_for

    ceiling = _ceiling(monkeypatch)
    run = ["michigan", "--a", "strong", "--b", "easy", "--iterations", "6", "--budget-ms", "1e9",
           "--pairs", "2", "--seed", "5"]
    honest, d1, d2 = (str(tmp_path / n) for n in ("h.jsonl", "d1.jsonl", "d2.jsonl"))
    assert ceiling.arena.main([*run, "--out", honest]) == 0
    assert ceiling.main(["--peek", "dead", *run, "--part", "1/2", "--out", d1]) == 0
    assert spec_for("michigan").determinize is None  # the peek is taken off again
    assert ceiling.main(["--peek", "dead", *run, "--part", "2/2", "--out", d2]) == 0
    capsys.readouterr()
    journaled = ceiling.compare_journals([honest, f"dead={d1},{d2}"])
    in_process = ceiling.compare(run, ["dead"])
    assert journaled == in_process and "| dead |" in journaled
    with pytest.raises(SystemExit, match="played with peek 'dead'"):
        ceiling.compare_journals([honest, f"talon={d1},{d2}"])
    with pytest.raises(SystemExit, match="an honest run"):
        ceiling.main(["--resume", honest])


def test_the_readme_shows_what_each_peek_bought_once_both_runs_are_whole(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``bench/ai_table.py``'s item 3 table: a peek in parts shows how far it is; once whole, the
    edge it bought over the strong-vs-easy run of the same plan, as ``--compare`` reports it."""
    import importlib

    ceiling = _ceiling(monkeypatch)
    monkeypatch.syspath_prepend(str(RESEARCH.parent / "bench"))
    ai_table = importlib.import_module("ai_table")
    run = ["michigan", "--a", "strong", "--b", "easy", "--iterations", "6", "--budget-ms", "1e9",
           "--pairs", "3", "--seed", "7"]
    honest = str(tmp_path / "michigan-strong-easy.jsonl")
    parts = [str(tmp_path / f"michigan-strong-easy.peek-dead.p{k}.jsonl") for k in (1, 2)]
    assert ceiling.arena.main([*run, "--out", honest]) == 0
    assert ceiling.main(["--peek", "dead", *run, "--part", "1/2", "--out", parts[0]]) == 0
    assert "| Michigan | dead | running: 1 in | | |" in ai_table.peek_table(str(tmp_path))
    assert ceiling.main(["--peek", "dead", *run, "--part", "2/2", "--out", parts[1]]) == 0
    capsys.readouterr()
    [compared] = [line for line in ceiling.compare_journals([honest, "dead=" + ",".join(parts)]).splitlines()
                  if line.startswith("| dead |")]
    bought, share = compared.split(" | ")[-2:]
    [line] = [x for x in ai_table.peek_table(str(tmp_path)).splitlines() if x.startswith("| Michigan |")]
    assert line == f"| Michigan | dead | 3 | {bought} | {share}"


def test_the_readme_shows_what_a_reading_buys_at_its_own_iteration_count(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``bench/ai_table.py``'s item 4 table: a reading's run (``--spec determinize=…``, fewer
    iterations for its cost) is paired with the honest run on the same deals; its ΔĒ is
    ``duplicate.gain`` of the two, and whether it ships follows its lower bound. A run on other
    deals (another seed) is refused."""
    import dataclasses
    import importlib
    import os

    from bot.ai.registry import game_ai, spec_for

    monkeypatch.setattr(game_ai("marias"), "spec", spec_for("marias"))  # --spec replaces it: put back after
    ceiling = _ceiling(monkeypatch)
    monkeypatch.syspath_prepend(str(RESEARCH.parent / "bench"))
    ai_table = importlib.import_module("ai_table")
    deals = ["marias", "--a", "strong", "--b", "easy", "--budget-ms", "1e9", "--pairs", "2",
             "--options", '{"rounds": 1}']
    honest = str(tmp_path / "marias-strong-easy.jsonl")
    assert ceiling.arena.main([*deals, "--iterations", "8", "--seed", "7", "--out", honest]) == 0
    shown = ["--spec", 'determinize="bot.ai.marias.determinize:determinize_shown"']
    read = str(tmp_path / "marias-strong-easy.read-shown.jsonl")
    assert ceiling.arena.main([*deals, *shown, "--iterations", "7", "--seed", "7", "--out", read]) == 0
    base, other = (ceiling.journal.read_run([p])[1] for p in (honest, read))
    plan = ceiling.journal.load(honest).plan
    gain, share = ceiling.duplicate.gain(ceiling.arena.report_of(base, plan).diffs(),
                                         ceiling.arena.report_of(other, plan).diffs(), 6)
    monkeypatch.setattr(ai_table, "SHIPPED", {"marias": ("shown",)})
    table = ai_table.peek_table(str(tmp_path), "read-")
    [line] = [x for x in table.splitlines() if x.startswith("| Marias |")]
    # shown is Marias's shipped reading
    ships = "yes: shipped" if gain.low > 0 else "no: ΔĒ's interval reaches 0"
    assert line == f"| Marias | shown | 2 | {gain.signed()} | {share.percent()} | {ships} |"
    # a later reading must beat the shipped one too, on the same deals
    later = str(tmp_path / "marias-strong-easy.read-later.jsonl")
    plain = ["--spec", 'determinize="bot.ai.marias.determinize:determinize_plain"']
    assert ceiling.arena.main([*deals, *plain, "--iterations", "9", "--seed", "7", "--out", later]) == 0
    later_s = ceiling.journal.read_run([later])[1]
    later_d = ceiling.arena.report_of(later_s, plan).diffs()
    over_honest = ceiling.duplicate.gain(ceiling.arena.report_of(base, plan).diffs(), later_d, 6)[0]
    over_shown = ceiling.duplicate.gain(ceiling.arena.report_of(other, plan).diffs(), later_d, 6)[0]
    assert ai_table.gain_over(str(tmp_path), "marias", "shown", "later") == over_shown
    [line] = [x for x in ai_table.peek_table(str(tmp_path), "read-").splitlines() if "| later |" in x]
    if over_honest.low <= 0:
        assert line.endswith("| no: ΔĒ's interval reaches 0 |")
    else:
        verdict = "yes" if over_shown.low > 0 else "no"
        assert line.endswith(f"| {verdict}: ΔĒ over shown {over_shown.signed()} |")
    assert ai_table.ships(str(tmp_path), "marias", "later", dataclasses.replace(over_shown, low=0.5)) == \
        f"{'yes' if over_shown.low > 0 else 'no'}: ΔĒ over shown {over_shown.signed()}"
    # once shipped in its turn, the later reading replaces shown
    monkeypatch.setattr(ai_table, "SHIPPED", {"marias": ("shown", "later")})
    assert ai_table.ships(str(tmp_path), "marias", "shown", gain) == "shipped, then replaced by later"
    assert ai_table.ships(str(tmp_path), "marias", "later", dataclasses.replace(over_shown, low=0.5)) == \
        f"{'yes: shipped' if over_shown.low > 0 else 'no'}: ΔĒ over shown {over_shown.signed()}"
    monkeypatch.setattr(ai_table, "SHIPPED", {"marias": ("shown", "missing")})
    assert ai_table.ships(str(tmp_path), "marias", "later", dataclasses.replace(over_shown, low=0.5)) == \
        "once missing's run is whole"
    os.remove(later)  # the elsewhere run below must be the only one refused
    elsewhere = str(tmp_path / "marias-strong-easy.read-elsewhere.jsonl")
    assert ceiling.arena.main([*deals, *shown, "--iterations", "7", "--seed", "8", "--out", elsewhere]) == 0
    with pytest.raises(SystemExit, match="not the deals of"):
        ai_table.variants(str(tmp_path), "marias", "read-")


def test_a_peek_pinned_to_a_determinizer_reads_on_top_of_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Marias peek run with ``--spec determinize=…determinize_plain`` (what its honest run played
    with before the readings shipped) searches with the peek wrapped around that pinned
    determinizer, played and resumed alike (the arena's second parse must not put the plain one
    back over the peek); it compares with the honest run, and a peek changing anything else of the
    search does not."""
    import importlib

    import bot.ai.marias.determinize as marias_det
    from bot.ai.registry import determinizer, game_ai, spec_for

    monkeypatch.setattr(game_ai("marias"), "spec", spec_for("marias"))
    ceiling = _ceiling(monkeypatch)
    monkeypatch.syspath_prepend(str(RESEARCH.parent / "bench"))
    ai_table = importlib.import_module("ai_table")
    assert determinizer("marias") is marias_det.determinize  # the calls read (issue 32, item 4)
    wrapped: list[Any] = []
    real_peeking = ceiling.peeking
    monkeypatch.setattr(ceiling, "peeking",
                        lambda honest, mode: wrapped.append(honest) or real_peeking(honest, mode))
    searched: list[str] = []
    real_play = ceiling.arena.play
    monkeypatch.setattr(ceiling.arena, "play", lambda *a: searched.append(
        spec_for("marias").determinize.__name__) or real_play(*a))
    run = ["marias", "--a", "strong", "--b", "easy", "--budget-ms", "1e9", "--pairs", "2",
           "--iterations", "6", "--options", '{"rounds": 1}', "--seed", "7"]
    plain = ["--spec", 'determinize="bot.ai.marias.determinize:determinize_plain"']
    honest = str(tmp_path / "marias-strong-easy.jsonl")
    peek = str(tmp_path / "marias-strong-easy.peek-talon.jsonl")
    assert ceiling.arena.main([*run, *plain, "--out", honest]) == 0
    assert ceiling.main(["--peek", "talon", *run, *plain, "--out", peek]) == 0
    assert ceiling.main(["--resume", peek]) == 0
    assert wrapped == [marias_det.determinize_plain] * 2
    assert searched == ["determinize_plain", "peeking_talon", "peeking_talon"]
    capsys.readouterr()
    assert "| talon |" in ceiling.compare_journals([honest, f"talon={peek}"])
    assert set(ai_table.peeks(str(tmp_path), "marias")) == {"talon"}
    other = str(tmp_path / "marias-strong-easy.peek-defenders.jsonl")
    assert ceiling.main(["--peek", "defenders", *run, *plain, "--spec", "prior_z=2.0", "--out", other]) == 0
    with pytest.raises(SystemExit, match="not one plan"):
        ceiling.compare_journals([honest, f"defenders={other}"])
    with pytest.raises(SystemExit, match="not the deals of"):
        ai_table.peeks(str(tmp_path), "marias")
