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
