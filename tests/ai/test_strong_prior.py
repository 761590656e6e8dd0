"""The easy prior of StrongPolicy and the public inferences of the Motz and Mus determinizers."""

from __future__ import annotations

import random

from bot.ai.motz.determinize import _good_stand
from bot.ai.motz.determinize import determinize as motz_determinize
from bot.ai.mus.determinize import _calls
from bot.ai.mus.easy import describe, wants_cut
from bot.ai.strong.ismcts import SearchResult
from bot.ai.strong.policy import _with_prior
from bot.rules import GAMES


def result(means: dict, visits: dict, variances: dict) -> SearchResult:
    return SearchResult({"type": "x"}, 1, 0.0, visits, means, variances)


def test_prior_keeps_easy_unless_clearly_beaten() -> None:
    a, e = ("a",), ("e",)
    close = result({a: 0.10, e: 0.05}, {a: 100, e: 100}, {a: 1.0, e: 1.0})
    assert _with_prior(close, a, e, 1.0) == e
    clear = result({a: 0.60, e: 0.05}, {a: 100, e: 100}, {a: 1.0, e: 1.0})
    assert _with_prior(clear, a, e, 1.0) == a
    assert _with_prior(clear, e, e, 1.0) == e
    unvisited = result({a: 0.6}, {a: 100}, {a: 1.0})
    assert _with_prior(unvisited, a, e, 1.0) == a  # easy's move pruned from the search


def test_motz_standers_get_standing_hands() -> None:
    g = GAMES["motz"]
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        state = g.new_table(seats=4, options=g.validate_options({}), seed=seed)
        # declare until someone stands, then look from the next seat to speak
        while state.view(None)["phase"] == "declare":
            seat = state.to_act()[0]
            kinds = {a["type"] for a in state.legal_actions(seat)}
            if "stand" in kinds and _good_stand(state.hands[seat], state.trump):
                state.apply(seat, {"type": "stand"})
                break
            state.apply(seat, {"type": "pass"})
        else:
            continue
        if state.view(None)["phase"] != "declare" or state.is_over():
            continue
        me = state.to_act()[0]
        d = motz_determinize(state, me, rng)
        assert _good_stand(d.hands[seat], d.trump)
        checked += 1
    assert checked > 0


def test_mus_calls_match_easy_players() -> None:
    from bot.ai.mus.easy import EasyPolicy

    g = GAMES["mus"]
    easy = EasyPolicy()
    checked = 0
    for seed in range(6):
        state = g.new_table(seats=4, options=g.validate_options({}), seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_over():
                break
            seat = state.to_act()[0]
            cutter, said = _calls(state, seat)
            for s in ([cutter] if cutter is not None else []) + said:
                assert wants_cut(describe(state.view(s)["hand"])) == (s == cutter)
                checked += 1
            state.apply(seat, easy.choose(state.view(seat), state.legal_actions(seat), rng))
    assert checked > 0


def test_maitre_likely_coffre_hand_checked() -> None:
    from bot.ai.maitre.determinize import likely_coffre
    from bot.rules.maitre.tables import CODES

    ids = {code: i for i, code in enumerate(CODES)}
    # Hearts 13+12+16 = 41, spades 5+8 = 13, diamonds 6, clubs 14 (JC only: no number card).
    holding = [ids[c] for c in ("10H", "9H", "KH", "2S", "5S", "3D", "JC", "X1")]
    # H over D: 3·35 + 10 − 3 = 112 beats H over S: 3·28 + 10 − 2 = 92; clubs cannot be Mineure.
    assert likely_coffre(holding) == (ids["3D"], ids["10H"])
    assert likely_coffre([ids[c] for c in ("5H", "9H", "KS", "X2")]) is None  # one number suit


def test_maitre_players_read_the_coffre_from_the_maitres_holding() -> None:
    from bot.ai.maitre.determinize import determinize as maitre_determinize
    from bot.ai.maitre.determinize import likely_coffre

    g = GAMES["maitre"]
    rng = random.Random(11)
    for seed in range(5):
        state = g.new_table(seats=3, options=g.validate_options({"tours": 1}), seed=seed)
        m = state.maitre
        state.apply(m, state.legal_actions(m)[0])  # a Coffre the reading will not guess
        player = (m + 1) % 3
        for _ in range(10):
            d = maitre_determinize(state, player, rng)
            assert d.coffre == likely_coffre(d.hands[m] + list(d.coffre))


def test_michigan_strong_leaves_easy_only_when_its_search_is_sure() -> None:
    """Michigan has the easy prior (issue 17): wherever strong's move differs from easy's, the
    search measured it better by more than one standard error; and it does differ somewhere."""
    import math

    from bot.ai.registry import easy_policy
    from bot.ai.strong.ismcts import action_key
    from bot.ai.strong.policy import StrongPolicy

    g = GAMES["michigan"]
    policy = StrongPolicy("michigan", budget_ms=1e9, max_iterations=120)
    easy = easy_policy("michigan")
    state = g.new_table(seats=4, options=g.validate_options({"rotations": 1}), seed=8)
    rng = random.Random(8)
    differed = 0
    step = 0
    while not state.is_over() and step < 120:
        seat = state.to_act()[0]
        view, legal = state.view(seat), state.legal_actions(seat)
        if len(legal) > 1 and step % 3 == 0:
            seed = rng.getrandbits(32)
            action, res = policy.choose_traced(view, legal, random.Random(seed), state)
            mine = easy.choose(view, legal, random.Random(random.Random(seed).getrandbits(64)))
            if action != mine:
                differed += 1
                a, e = action_key(action), action_key(mine)
                if res.paired is not None:  # an exact endgame: the same deals for both moves
                    diffs = [x - y for x, y in zip(res.paired[a], res.paired[e], strict=True)]
                    mean = sum(diffs) / len(diffs)
                    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
                    assert mean > math.sqrt(var / len(diffs))
                else:
                    se = math.sqrt(res.variances[a] / res.visits[a] + res.variances[e] / res.visits[e])
                    assert res.means[a] - res.means[e] > se
        state.apply(seat, easy.choose(view, legal, rng))
        step += 1
    assert differed > 0
