"""Michigan strong: the searching seat's own leads in the paired rollouts
(``GameSpec.rollout_own``, ``michigan_rollout.lookahead_lead``; issue 17, fourth pass)."""

from __future__ import annotations

import dataclasses
import random

from bot.ai.easy import easy_policy
from bot.ai.strong.determinize.michigan import determinize
from bot.ai.strong.games import spec_for
from bot.ai.strong.michigan_rollout import easy_lead, lookahead_lead
from bot.ai.strong.paired import rollout
from bot.rules import GAMES
from tests.rules.test_michigan import new, stack_deck


def out_in_two_leads_with_8c_live():
    """Six seats, dealer 5: seat 0 holds 2♣–7♣ K♠ A♠ and seat 1 holds 8♣ (the rest filled in
    canonical order). Leading spades plays K♠ A♠ (the ace stops, seat 0 leads again), then
    2♣–7♣: out, one jeton per card left, 8 + 7 + 7 + 7 + 7 = 36. Leading clubs lets seat 1
    play on with 8♣: seat 0 is not out, the others have shed cards, and seat 0 holds no pay card,
    so whatever follows leaves it less than 36. Easy leads clubs (six cards shed against two)."""
    deck = stack_deck(6, 5, {0: "2C 3C 4C 5C 6C 7C KS AS", 1: "8C"}, fill=True)
    return new(6, dealer=5, decks=[deck])


def _value(st, seat: int) -> float:
    return spec_for("michigan").values(st)[seat]


def test_the_lookahead_leads_the_suit_that_goes_out_where_easy_does_not() -> None:
    st = out_in_two_leads_with_8c_live()
    legal = st.legal_actions(0)
    assert [a["suit"] for a in legal] == ["S", "C"]
    assert easy_lead(st, 0, legal) == {"type": "lead", "suit": "C"}
    assert lookahead_lead(st, 0, legal) == {"type": "lead", "suit": "S"}
    # the figures it compared, replayed by hand: spades wins exactly 36, clubs less
    before = _value(st, 0)
    spades = st.clone()
    spades.apply(0, {"type": "lead", "suit": "S"})
    spades.apply(0, {"type": "lead", "suit": "C"})
    assert spades.deals_played == 1 and _value(spades, 0) - before == 36
    clubs = st.clone()
    clubs.apply(0, {"type": "lead", "suit": "C"})
    assert clubs.sizes[0] == 2 and clubs.deals_played == 0  # 8♣ played on: K♠ A♠ still held
    easy = easy_policy("michigan")
    while clubs.deals_played == 0:
        s = clubs.to_act()[0]
        clubs.apply(s, easy.choose(clubs.view(s), clubs.legal_actions(s), random.Random(0)))
    assert _value(clubs, 0) - before < 36
    assert st.deals_played == 0 and st.legal_actions(0) == legal  # the state itself is untouched


def test_the_lookahead_keeps_easys_lead_when_nothing_beats_it() -> None:
    """A single legal lead, and a position where every lead ends alike, keep easy's choice."""
    st = out_in_two_leads_with_8c_live()
    st.apply(0, {"type": "lead", "suit": "S"})  # K♠ A♠: seat 0 must now lead clubs
    legal = st.legal_actions(0)
    assert legal == [{"type": "lead", "suit": "C"}]
    assert lookahead_lead(st, 0, legal) == legal[0]


def test_rollout_own_plays_only_the_searching_seats_moves() -> None:
    """``paired.rollout`` asks ``rollout_own`` for the searching seat's decisions only; the
    other seats keep easy's lead."""
    seen: list[int] = []

    def own(state, seat, legal, rng):
        seen.append(seat)
        return legal[-1]

    spec = dataclasses.replace(spec_for("michigan"), rollout_own=own)
    g = GAMES["michigan"]
    st = g.new_table(seats=4, options=g.validate_options({"rotations": 1}), seed=7)
    d = determinize(st, st.to_act()[0], random.Random(2))
    seat = 2
    rollout(spec, d, seat, 0, _value(st, seat), 15.0, easy_policy("michigan"), random.Random(0))
    assert seen and set(seen) == {seat}


def test_play_out_is_the_engines_own_play() -> None:
    """``play_out`` (arrays, no events) gives the value the engine reaches by leading the suit on
    a clone and letting easy lead for every seat to the end of the hand, at every lead of whole
    sessions, 3 to 8 seats, leads played by easy or at random (blocked suits, lifted blocks,
    payments capped by short stacks with a small buy-in come up)."""
    from bot.ai.strong.michigan_rollout import play_out

    g = GAMES["michigan"]
    easy = easy_policy("michigan")
    spec = spec_for("michigan")
    checked = 0
    for seats in (3, 4, 6, 8):
        for seed in range(3):
            opts = {"rotations": 1, "buy_in": 40} if seed == 2 else {"rotations": 1}
            st = g.new_table(seats=seats, options=g.validate_options(opts), seed=seed)
            rng = random.Random(seed)
            while not st.is_over():
                s = st.to_act()[0]
                legal = st.legal_actions(s)
                for a in legal:
                    c = st.clone()
                    c.apply(s, a)
                    while c.deals_played == st.deals_played and not c.is_over():
                        t = c.to_act()[0]
                        c.apply(t, easy.choose(c.view(t), c.legal_actions(t), random.Random(0)))
                    # (after the last hand the pools go back to their contributors: same value)
                    assert play_out(st, s, "SHDC".index(a["suit"])) == spec.values(c)[s]
                    checked += 1
                pick = legal[rng.randrange(len(legal))] if seed % 2 else easy.choose(st.view(s), legal, rng)
                st.apply(s, pick)
    assert checked > 500


def test_play_out_at_depth_one_plays_the_seats_later_leads_by_lookahead() -> None:
    """At depth 1 the play-out's own later leads are ``lookahead_lead``'s: replayed on the engine
    (the seat's choices by ``lookahead_lead``, the others' by easy) it gives the same value."""
    from bot.ai.strong.michigan_rollout import play_out

    g = GAMES["michigan"]
    easy = easy_policy("michigan")
    spec = spec_for("michigan")
    checked = differs = 0
    for seats, seed in ((3, 0), (4, 1), (4, 2), (6, 3)):
        st = g.new_table(seats=seats, options=g.validate_options({"rotations": 1}), seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            s = st.to_act()[0]
            legal = st.legal_actions(s)
            for a in legal:
                c = st.clone()
                c.apply(s, a)
                while c.deals_played == st.deals_played and not c.is_over():
                    t = c.to_act()[0]
                    lg = c.legal_actions(t)
                    own = lookahead_lead(c, t, lg) if t == s else None
                    c.apply(t, own or easy.choose(c.view(t), lg, random.Random(0)))
                suit = "SHDC".index(a["suit"])
                assert play_out(st, s, suit, depth=1) == spec.values(c)[s]
                differs += play_out(st, s, suit) != spec.values(c)[s]
                checked += 1
            st.apply(s, easy.choose(st.view(s), legal, rng))
    assert checked > 200 and differs > 10


def test_the_honest_lookahead_reads_only_the_seats_view() -> None:
    """``honest_lookahead_lead`` chooses alike on a state and its twin (the same view for the
    seat, other hidden cards) from the same rng seed; the clairvoyant ``lookahead_lead`` does
    not always (so the check can fail)."""
    from bot.ai.strong.michigan_rollout import honest_lookahead_lead

    g = GAMES["michigan"]
    easy = easy_policy("michigan")
    checked = clairvoyant_differs = 0
    for seed in range(4):
        st = g.new_table(seats=4, options=g.validate_options({"rotations": 1}), seed=seed)
        rng = random.Random(seed)
        while not st.is_over():
            s = st.to_act()[0]
            legal = st.legal_actions(s)
            if len(legal) > 1:
                twin = st.redeal(s, random.Random(checked))
                assert twin.view(s) == st.view(s) and twin.owner != st.owner
                a = honest_lookahead_lead(st, s, legal, random.Random(checked))
                b = honest_lookahead_lead(twin, s, twin.legal_actions(s), random.Random(checked))
                assert a == b
                clairvoyant_differs += lookahead_lead(st, s, legal) != lookahead_lead(twin, s, legal)
                checked += 1
            st.apply(s, easy.choose(st.view(s), legal, rng))
    assert checked > 100 and clairvoyant_differs > 5
