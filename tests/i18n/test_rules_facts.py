"""What players read about the rules (``/rules``: summaries and option help; the narration and the
table images) says what the engines do, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.i18n import translator
from bot.i18n.catalog import read_catalog, read_template
from bot.render import table_image
from bot.render.canvas import Canvas
from bot.rules import GAMES
from bot.rules.base import Game, OptionSpec
from bot.rules.vocabulary import COMMON

LANGS = ("fr", "es", "eu", "cs")
NUMBER = re.compile(r"(?<![\w{])\d+(?![\w}])")
#: The options the numbers of other options' help are counted in ("at least 20 antes").
UNITS = ("ante", "ante_unit", "stake")


CATALOGUES = {lang: read_catalog(lang) for lang in LANGS}


def _visible(game: Game) -> list[OptionSpec]:
    return [spec for spec in game.options if not spec.hidden]


def _per_unit(game: Game) -> dict[str, Any]:
    """The default options, with the stake-like options at 1 (so "20 antes" means 20)."""
    out: dict[str, Any] = {}
    for spec in game.options:
        out[spec.name] = 1 if spec.name in UNITS else spec.resolve_default(out)
    return out


def _numbers(text: str) -> list[int]:
    return [int(n) for n in NUMBER.findall(text)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_summary_counts_the_players_and_cards_the_engine_has(name: str) -> None:
    game = GAMES[name]
    summary = game.summary
    seats = re.search(r"for (\d+) to (\d+) players", summary)
    if seats:
        assert (int(seats[1]), int(seats[2])) == (game.min_seats, game.max_seats)
    else:
        words = {3: "three-player", 4: "two pairs"}
        assert game.min_seats == game.max_seats and words[game.min_seats] in summary
    decks = {int(n) for n in re.findall(r"(\d+)(?:-card| cards)", summary) if int(n) >= 30}
    assert decks <= {len(game.deck)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_number_an_option_help_states_agrees_with_the_option(name: str) -> None:
    """A range "(3 to 6)" / "(3–8)" is the option's minimum and maximum, every other number of an
    int option's help lies in its range, "at least N" is its minimum and "default N" its default
    (counted in antes / units of stake), and a choice option's help names each of its choices."""
    game = GAMES[name]
    unit = _per_unit(game)
    for spec in _visible(game):
        text = spec.help
        if spec.kind != "int":
            continue
        if spec.choices:
            assert set(spec.choices) <= set(_numbers(text)), (spec.name, text)
            continue
        at_least = re.search(r"at least (\d+)", text)
        if at_least:
            assert spec.resolve_minimum(unit) == int(at_least[1]), (spec.name, text)
        default = re.search(r"default (\d+)", text)
        if default:
            assert spec.resolve_default(unit) == int(default[1]), (spec.name, text)
        stated = re.search(r"\((\d+) (?:to|–) (\d+)\)", text) or re.search(r"(\d+)–(\d+)", text)
        if stated:
            assert (int(stated[1]), int(stated[2])) == (spec.minimum, spec.maximum), (spec.name, text)
        if at_least or default or callable(spec.minimum):
            continue
        for n in _numbers(text):
            assert spec.minimum is None or n >= spec.minimum, (spec.name, text)
            assert spec.maximum is None or n <= spec.maximum, (spec.name, text)


def test_the_mus_summary_gives_every_game_target() -> None:
    """The points that win a game are the ``target`` option: 40 by default, or 30."""
    mus = GAMES["mus"]
    target = next(spec for spec in mus.options if spec.name == "target")
    summary = mus.summary
    stated = re.search(r"first pair to (\d+) points", summary)
    assert stated and int(stated[1]) == target.default
    assert all(str(choice) in summary for choice in target.choices)


def _rules_texts() -> list[str]:
    out = []
    for game in GAMES.values():
        out.append(game.summary)
        out += [spec.help for spec in _visible(game)]
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_translated_rules_state_no_number_the_english_does_not(lang: str) -> None:
    """A translation of a summary or an option help may spell a number out ("trente-deux"), never
    state another one."""
    catalogue = CATALOGUES[lang]
    for text in _rules_texts():
        message = catalogue.get(text)
        assert message is not None and message.string, text[:60]
        assert set(_numbers(message.string)) <= set(_numbers(text)), (text[:60], message.string)


#: Each game's own words (bot/locales/GLOSSARY.md) and what a translation of a text naming one
#: must contain, per language (a stem where the language declines it: Czech "hru", Spanish "envida").
KEPT_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "mus": {
        "pares": {"fr": "pares", "es": "pares", "cs": "pares", "eu": "pare"},
        "juego": {"fr": "juego", "es": "juego", "cs": "juego", "eu": "joko"},
        "envido": {"fr": "envido", "es": "envid", "cs": "envido", "eu": "enbido"},
        "órdago": {"fr": "órdago", "es": "órdago", "cs": "órdag", "eu": "hordago"},
        "grande": {"fr": "grande", "es": "grande", "cs": "grande", "eu": "handi"},
        "chica": {"fr": "chica", "es": "chica", "cs": "chica", "eu": "txiki"},
        "punto": {"fr": "punto", "es": "punto", "cs": "punto", "eu": "puntu"},
        "mano": {"fr": "mano", "es": "mano", "cs": "mano", "eu": "esku"},
        "quiero": {"fr": "quiero", "es": "quier", "cs": "quiero", "eu": "iduki"},
        "paso": {"fr": "paso", "es": "pas", "cs": "paso", "eu": "paso"},
        "lances": {"fr": "lances", "es": "lances", "cs": "lances", "eu": "jokaldi"},
    },
    "marias": {word: {"fr": word, "es": "talón" if word == "talon" else word, "eu": word, "cs": stem}
               for word, stem in (("hra", "hr"), ("sedma", "sedm"), ("kilo", "kilo"), ("betl", "betl"),
                                  ("durch", "durch"), ("flek", "flek"), ("talon", "talon"))},
    "maitre": {word: {lang: word for lang in LANGS} for word in (
        "Coffre", "Maître", "manche", "Majeure", "Mineure", "couleur", "valeur", "tête", "maîtrise")},
    "motz": {word: {lang: word for lang in LANGS} for word in ("bête", "muet")},
}


#: Other modules whose texts are one game's (the Mus señas at a table).
EXTRA_SOURCES = {"mus": ("bot/tables/senas.py",)}


@pytest.mark.parametrize("game", sorted(KEPT_WORDS))
def test_each_language_names_the_game_in_its_own_words(game: str) -> None:
    template = read_template()
    sources = (f"bot/rules/{game}/", f"bot/render/games/{game}.py", *EXTRA_SOURCES.get(game, ()))
    rules = {GAMES[game].summary, *(spec.help for spec in _visible(GAMES[game]))}  # extracted without a place
    wrong = []
    for message in template:
        placed = any(f.startswith(sources) for f, _ in message.locations)
        if not message.id or not (placed or message.id in rules):
            continue
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        msgid = re.sub(r"\{\w+\}", "", msgid)  # placeholders are not words ("{lance}")
        for word, stems in KEPT_WORDS[game].items():
            if not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", msgid, re.IGNORECASE):
                continue
            for lang, stem in stems.items():
                found = CATALOGUES[lang].get(message.id, context=message.context)
                assert found is not None
                text = found.string if isinstance(found.string, str) else found.string[0]
                if stem.lower() not in text.lower():
                    wrong.append((lang, word, msgid, text))
    assert wrong == []


def test_the_maitre_muet_suit_is_named_as_the_maitre_names_it() -> None:
    """The view field ``muet`` is the Maître's silent suit in valeur mode (only its view has it),
    kept as "muet" everywhere, as its table image writes it ("muet ♠"), not Motz's blind hand."""
    assert not any("muet" in GAMES[g].new_table(GAMES[g].default_seats, GAMES[g].validate_options({}), 1)
                   .view(0) for g in GAMES if g != "maitre")
    for lang in LANGS:
        assert COMMON.view_field("muet", translator(lang)) == "muet"
        assert translator(lang)._("muet {suit}", suit="♠") == "muet ♠"


def test_a_motz_deal_cancelled_with_one_player_in_is_not_shown_as_nobody_standing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Spec 3.2: fewer than two active seats cancel the deal, also when one seat stood; the table
    image says so as the narration does."""
    motz = GAMES["motz"]
    state = motz.new_table(4, motz.validate_options({"dealer": 0}), 7)
    for kind in ("stand", "pass", "pass", "pass"):
        seat = state.to_act()[0]
        state.apply(seat, next(a for a in state.legal_actions(seat) if a["type"] == kind))
        if state.view(None).get("last_result"):
            break
    view = state.view(None)
    assert view["last_result"]["cancelled"]
    drawn: list[str] = []
    original = Canvas.text

    def text(self: Canvas, xy, s, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.append(s)
        return original(self, xy, s, *args, **kwargs)

    monkeypatch.setattr(Canvas, "text", text)
    table_image("motz", view, ["Anne", "Blaise", "Claude", "Denis"])
    assert any("fewer than two" in s for s in drawn)
    assert not any("nobody" in s for s in drawn)


#: A summary tells the default rules; where a table option changes a rule it states, it names the
#: option ("target=30", "fine_cap", "spare_hand=dealer_option"), and so does every translation.
OPTIONS_NAMED = {"mus": ("target",), "motz": ("fine_cap",), "michigan": ("spare_hand",)}


@pytest.mark.parametrize("name", sorted(OPTIONS_NAMED))
def test_a_summary_names_the_options_that_change_what_it_says(name: str) -> None:
    game = GAMES[name]
    options = {spec.name: spec for spec in game.options}
    for option in OPTIONS_NAMED[name]:
        assert option in options and option in game.summary
        for lang in LANGS:
            assert option in CATALOGUES[lang].get(game.summary).string, (lang, option)
    spare = options["spare_hand"] if name == "michigan" else None
    if spare is not None:
        assert all(choice in game.summary for choice in spare.choices if choice != spare.default)


def test_the_maitre_leader_may_not_discard_as_its_summary_says() -> None:
    """Spec 3.3: the lead is a play ("No discard"); a follower may discard."""
    maitre = GAMES["maitre"]
    state = maitre.new_table(3, maitre.validate_options({"dealer": 0}), 3)
    while state.view(None)["phase"] != "play":
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    leader = state.to_act()[0]
    assert {a["type"] for a in state.legal_actions(leader)} == {"play"}
    state.apply(leader, state.legal_actions(leader)[0])
    follower = state.to_act()[0]
    assert "discard" in {a["type"] for a in state.legal_actions(follower)}
    assert "anyone but the leader may discard" in maitre.summary


#: The reasons each engine ends a session with (its ``session_end`` event's ``reason``).
END_REASONS = {"motz": ("complete", "extra_limit", "broke", "closed"),
               "michigan": ("closed", "broke", "rotations")}


@pytest.mark.parametrize("name", sorted(END_REASONS))
@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_a_session_end_gives_its_reason_in_words_not_the_engines_identifier(name: str, lang: str) -> None:
    """Michigan said "Session over (rotations)", "(broke)" in English, and Basque read "broke" as a
    player left without jetons, where the rule is a player who cannot pay the ante (spec 5.2)."""
    game, tr = GAMES[name], translator(lang)
    lines = {reason: game.narrate({"type": "session_end", "reason": reason, "results": [0, 0, 0],
                                   "split": [0, 0, 0]}, lambda s: f"P{s}", tr) or ""
             for reason in END_REASONS[name]}
    for reason, line in lines.items():
        assert f"({reason})" not in line, line
    assert len(set(lines.values())) == len(lines)
    if lang == "eu":
        assert "aurre-apustua ordaindu" in lines["broke"]


@pytest.mark.parametrize("lang", LANGS)
def test_numbers_counted_in_one_unit_keep_it_in_translation(lang: str) -> None:
    """"at least 20 antes; default 100 antes": a translation that drops the second unit ("100 par
    défaut") reads as 100 jetons, a different buy-in as soon as the ante is not 1."""
    unit = re.compile(r"(?<![\w{])(\d+) ([^\W\d]+(?:-\w+)?)")
    for text in _rules_texts():
        english = unit.findall(text)
        units = [word for _, word in english]
        repeated = [n for n, word in english if units.count(word) > 1 and word not in ("to", "or", "and")]
        if not repeated:
            continue
        translated = CATALOGUES[lang].get(text).string
        after = dict(unit.findall(translated))
        assert all(n in after for n in repeated), (translated, repeated)
        assert len({after[n] for n in repeated}) == 1, (translated, repeated)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_defaults_rules_prints_are_written_as_a_host_writes_options(name: str) -> None:
    """``/rules`` printed ``fine_cap=None`` and ``hints=False``, which no host can type back (an
    unset option is left out: "empty = …" in its help); every printed ``key=value`` now reads back
    as the game's default."""
    from bot.cogs.options import check_options, parse_options
    from bot.cogs.rules import option_lines

    game = GAMES[name]
    defaults = game.validate_options({})
    written = [re.match(r"`([^`]+)`", line)[1] for line in option_lines(game)]  # type: ignore[index]
    assert not any(word in line for line in written for word in ("None", "True", "False"))
    pairs = " ".join(w for w in written if "=" in w)
    options = check_options(game, {}, parse_options(pairs, game))
    assert {k: options[k] for k in defaults} == defaults
    assert all(defaults[w] is None for w in written if "=" not in w)
