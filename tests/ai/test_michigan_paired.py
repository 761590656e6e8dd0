"""Michigan strong: every lead rolled out on the same determinizations (``bot.ai.strong.paired``),
and the engine's hand-only copies the search plays on (issue 17)."""

from __future__ import annotations

import random

from bot.ai.michigan.determinize import determinize
from bot.ai.registry import easy_policy, spec_for
from bot.ai.strong.keys import action_key
from bot.ai.strong.paired import paired
from bot.ai.strong.policy import StrongPolicy
from bot.rules import GAMES
from tests.ai.test_no_peeking import hidden
from tests.rules.test_michigan import new, stack_deck

SPADES = action_key({"type": "lead", "suit": "S"})
CLUBS = action_key({"type": "lead", "suit": "C"})


def out_in_two_leads():
    """Six seats, dealer 5: seat 0 (first to lead) holds 2♣–7♣ K♠ A♠, the other 44 cards are
    hidden from it. Leading spades plays K♠ A♠ (an ace stops the run, seat 0 keeps the lead),
    then 2♣–7♣: seat 0 is out whatever the others hold, and collects one jeton per card left:
    8 + 7 + 7 + 7 + 7 = 36, i.e. 36/15 = 2.4 in units of the spec's scale (15 × c). Leading clubs
    first goes out as surely only when 8♣ is in the dead hand; otherwise its holder plays on.
    Easy leads clubs (six cards shed against two)."""
    deck = stack_deck(6, 5, {0: "2C 3C 4C 5C 6C 7C KS AS"}, fill=True)
    return new(6, dealer=5, decks=[deck])


def test_the_paired_search_leads_the_suit_that_goes_out() -> None:
    st = out_in_two_leads()
    legal = st.legal_actions(0)
    assert [action_key(a) for a in legal] == [SPADES, CLUBS]
    assert easy_policy("michigan").choose(st.view(0), legal, random.Random(0))["suit"] == "C"
    policy = StrongPolicy("michigan", budget_ms=1e9, max_iterations=40)
    action, result = policy.choose_traced(st.view(0), legal, random.Random(1), st)
    assert action == {"type": "lead", "suit": "S"}
    assert result is not None and result.paired is not None and not result.exact
    assert result.iterations == 40 and result.visits == {SPADES: 20, CLUBS: 20}
    spades, clubs = result.paired[SPADES], result.paired[CLUBS]
    assert all(abs(x - 36 / 15) < 1e-9 for x in spades)  # out at once, on every deal
    assert all(s >= c - 1e-9 for s, c in zip(spades, clubs, strict=True))  # never worse, deal by deal
    assert sum(s > c + 1e-9 for s, c in zip(spades, clubs, strict=True)) >= 10  # 8♣ is live in most


def test_paired_rolls_every_lead_on_the_same_deal() -> None:
    """One determinization, two leads: the clubs rollout is replayed here by hand on a clone of
    the same redealt deal (easy for every seat) and gives the recorded figure."""
    st = out_in_two_leads()
    spec = spec_for("michigan")
    easy = easy_policy("michigan")
    rewards, samples, leaves = paired(
        spec, st, 0, st.legal_actions(0), determinize, random.Random(5), 1e18, 1, easy,
    )
    assert samples == 1 and leaves == 2
    d = determinize(st, 0, random.Random(5))
    d.apply(0, {"type": "lead", "suit": "C"})
    while d.deals_played == 0:
        s = d.to_act()[0]
        d.apply(s, easy.choose(d.view(s), d.legal_actions(s), random.Random(0)))
    assert rewards[CLUBS] == [(spec.values(d)[0] - spec.values(st)[0]) / 15]
    assert rewards[SPADES] == [36 / 15]


def test_a_hand_only_copy_settles_like_the_table_and_deals_no_more() -> None:
    """The determinization's copy stops after the hand's settlement (no next hand dealt); its
    stacks and pool ledgers (the search's values) are those of the real engine."""
    st = out_in_two_leads()
    d = determinize(st, 0, random.Random(3))
    full = d.clone()
    full.cfg = type(d.cfg).__new__(type(d.cfg))
    for name in type(d.cfg).__slots__:
        setattr(full.cfg, name, getattr(d.cfg, name))
    full.cfg.hand_only = False
    assert d.cfg.hand_only and not st.cfg.hand_only
    for c in (d, full):
        c.apply(0, {"type": "lead", "suit": "S"})  # K♠ A♠: the ace stops, seat 0 leads again
        assert c.legal_actions(0) == [{"type": "lead", "suit": "C"}]
        c.apply(0, {"type": "lead", "suit": "C"})  # 2♣–7♣: out
    assert d.deals_played == full.deals_played == 1
    assert d.hands_started == 1 and full.hands_started == 2  # only the table's copy dealt again
    assert d.is_over() and not full.is_over()
    spec = spec_for("michigan")
    assert spec.values(d) == spec.values(full)
    assert spec.values(d)[0] - spec.values(st)[0] == 36  # the others' cards left (no pay card played)
    # the real state is untouched and plays on as before
    assert st.deals_played == 0 and st.legal_actions(0)[0] == {"type": "lead", "suit": "S"}


def test_the_paired_search_never_reads_hidden_cards() -> None:
    """No peeking for the paired path: a real lead decision and its twin (same view, other hidden
    cards) give the same figures from the same seed; the twins really differ."""
    g = GAMES["michigan"]
    policy = StrongPolicy("michigan", budget_ms=1e9, max_iterations=30)
    easy = easy_policy("michigan")
    checked = 0
    for seed in (3, 4):
        state = g.new_table(seats=4, options=g.validate_options({"rotations": 1}), seed=seed)
        rng = random.Random(seed)
        while not state.is_over() and checked < 8:
            s = state.to_act()[0]
            legal = state.legal_actions(s)
            if len(legal) > 1:
                twin = state.redeal(s, random.Random(100 + checked))
                assert hidden("michigan", twin, s) != hidden("michigan", state, s)
                a, ra = policy.choose_traced(state.view(s), legal, random.Random(checked), state.clone())
                b, rb = policy.choose_traced(twin.view(s), legal, random.Random(checked), twin)
                assert ra is not None and rb is not None and ra.paired is not None
                assert a == b and ra.paired == rb.paired
                checked += 1
            state.apply(s, easy.choose(state.view(s), legal, rng))
    assert checked == 8


def test_the_rollouts_fast_lead_is_easys_lead() -> None:
    """``michigan_rollout.easy_lead`` (read from the state's arrays) picks the easy policy's lead
    (read from the view) at every decision of whole sessions, 3 to 8 seats, with the leads played
    by easy or at random (so unusual positions, blocked suits and lifted blocks, come up too)."""
    from bot.ai.michigan.rollout import easy_lead

    g = GAMES["michigan"]
    easy = easy_policy("michigan")
    checked = differing = 0
    for seats in (3, 4, 6, 8):
        for seed in range(6):
            st = g.new_table(seats=seats, options=g.validate_options({"rotations": 1}), seed=seed)
            rng = random.Random(seed)
            while not st.is_over():
                s = st.to_act()[0]
                legal = st.legal_actions(s)
                a = easy.choose(st.view(s), legal, rng)
                assert easy_lead(st, s, legal) == a
                checked += 1
                pick = a if seed % 2 else legal[rng.randrange(len(legal))]
                differing += pick != a
                st.apply(s, pick)
    assert checked > 1_000 and differing > 100
