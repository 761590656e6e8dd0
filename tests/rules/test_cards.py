from bot.rules import cards


def test_deck_sizes_and_uniqueness():
    assert len(cards.DECK_32) == len(set(cards.DECK_32)) == 32
    assert len(cards.DECK_52) == len(set(cards.DECK_52)) == 52
    assert len(cards.DECK_54) == 54 and cards.DECK_54[-2:] == ("X1", "X2")
    assert len(cards.DECK_ES_40) == 40
    assert cards.DECK_ES_40[0] == "1O" and cards.DECK_ES_40[9] == "12O" and cards.DECK_ES_40[39] == "12B"


def test_parse_and_display():
    assert cards.rank_of("10H") == "10" and cards.suit_of("10H") == "H"
    assert cards.suit_of("X1") == ""
    assert cards.display("10H") == "10♥"
    assert cards.display("12C", spanish=True) == "rey de copas"
    assert cards.display_many([]) == "—"


def test_shuffle_is_a_function_of_seed_and_deal_only():
    a = cards.shuffled(cards.DECK_32, 7, 3)
    b = cards.shuffled(cards.DECK_32, 7, 3)
    assert a == b and sorted(a) == sorted(cards.DECK_32)
    assert cards.shuffled(cards.DECK_32, 7, 4) != a
    assert cards.shuffled(cards.DECK_32, 8, 3) != a


def test_stacked_decks_then_shuffles():
    stacked = [list(reversed(cards.DECK_32))]
    assert cards.deck_for_deal(cards.DECK_32, stacked, 1, 0) == stacked[0]
    assert cards.deck_for_deal(cards.DECK_32, stacked, 1, 1) == cards.shuffled(cards.DECK_32, 1, 1)


def test_first_dealer():
    assert cards.first_dealer(2, 4, 99) == 2
    assert cards.first_dealer(None, 4, 99) == cards.first_dealer(None, 4, 99)
    assert {cards.first_dealer(None, 4, s) for s in range(50)} == {0, 1, 2, 3}
