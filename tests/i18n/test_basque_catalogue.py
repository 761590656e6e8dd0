"""The Basque catalogue as a Basque Mus club reads it (bot/locales/GLOSSARY.md, Basque): one Basque
word for each thing, the game's own Basque words, and numbers written as Basque writes them (a
figure takes no case ending whose form depends on how the number is said; one goes after its
noun: "karta 1", "fitxa 1")."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from bot.i18n import translator
from bot.i18n.catalog import read_catalog

#: (what the English says, the Basque word for it, other Basque words for it that must not appear)
ONE_WORD: list[tuple[str, str, tuple[str, ...]]] = [
    (r"\bDMs?\b|direct message", "mezu pribatu", ("MZ", "mezu zuzen")),
    (r"\blobby\b", "itxaron-gela", ("itxarongela",)),
    (r"\bbuy-ins?\b", "sarrera", ()),
    (r"\bratings?\b(?!:)", "balorazio", ("puntuazio",)),
    (r"\bjetons?\b", "fitx", ("jetoi",)),
    (r"\bsessions?\b", "saio", ()),
    (r"\bhosts?\b(?! or play)", "ostalari", ("antolatzaile",)),  # a table's and a tournament's
    (r"\bcommands?\b", "komando", ("agindu",)),
    (r"\btournaments?\b", "txapelket", ()),
    (r"\bdeadlines?\b", "epemuga", ()),
    (r"\bseñas?\b", "keinu", ()),
    (r"\benvido\b", "enbido", ("envido", "inbido")),
    (r"órdago|ÓRDAGO", "hordago", ("órdago",)),
    (r"\bquiero\b", "iduki", ("quiero",)),
    (r"\bamarracos?\b", "hamarreko", ()),
]

#: Mus's team is a pair: "bikotea", never "taldea" (the table image's "bet 4 · team A")
MUS_PAIR = (r"\bteam\b", "bikote", ("talde",))


def entries(lang: str = "eu") -> Iterator[tuple[str, str, tuple[str, ...], tuple[str, ...]]]:
    """(where, first msgid, msgids, translations) of every message but the slash names; where: the
    files it is in."""
    for m in read_catalog(lang):
        if not m.id or m.context == "slash name":
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strs = m.string if isinstance(m.string, tuple) else (m.string,)
        yield " ".join(path for path, _ in m.locations), ids[0], ids, strs


def english(ids: tuple[str, ...]) -> str:
    """The source without its placeholders and command names (`/leaderboard by:rating`)."""
    return " ".join(re.sub(r"\{[^}]*\}|`[^`]*`|\bby:rating\b", "", i) for i in ids)


@pytest.mark.parametrize(("source", "word", "others"), ONE_WORD + [MUS_PAIR],
                         ids=[w for _, w, _ in ONE_WORD] + ["mus pair"])
def test_one_basque_word_for_each_glossary_term(source: str, word: str, others: tuple[str, ...]) -> None:
    pattern = re.compile(source)
    seen, wrong = 0, []
    for where, first, ids, strs in entries():
        if not pattern.search(english(ids)):
            continue
        if source == MUS_PAIR[0] and "mus" not in where:
            continue
        seen += 1
        basque = " ".join(strs)
        if word.lower() not in basque.lower() or any(o in basque for o in others):
            wrong.append((first[:80], basque[:160]))
    assert seen, source
    assert wrong == [], wrong
    if source != MUS_PAIR[0]:  # nor anywhere else ("/daily komandoak ematen dituen fitxak")
        elsewhere = [(first[:80], s) for _, first, _, strs in entries() for s in strs
                     if any(o in re.sub(r"\{[^}]*\}", "", s) for o in others)]
        assert elsewhere == [], elsewhere


def test_mus_pair_on_the_table_image_is_bikotea() -> None:
    eu = translator("eu")
    assert eu._("bet {total} · team {team}", total=4, team="A") == "apustua 4 · A bikotea"
    assert eu._("game to team {team}", team="B") == "jokoa B bikotearentzat"


def test_mus_words_of_the_basque_game() -> None:
    """31 is "hamaikakoa" for Basque players (Spanish "la una"); 5 points a "hamarreko"."""
    eu = translator("eu")
    assert eu._("31 (la una)") == "31 (hamaikakoa)"
    assert "8 hamarreko" in eu._("Points to win a game (40 = 8 amarracos, or 30).")
    spanish = re.compile(r"\b(envido|órdago|quiero|la una|amarrac\w*|amarreko)\b", re.IGNORECASE)
    found = [(first[:60], s) for _, first, _, strs in entries() for s in strs
             if spanish.search(re.sub(r"\{[^}]*\}", "", s))]
    assert found == []


#: nouns a figure counts in the catalogue
NOUNS = (r"fitxa|karta|mahai\w*|jokalari\w*|saio\w*|baza|bikote|eserleku|txapelketa|parte-hartzaile|orri"
         r"|banaketa|erabaki\w*|jokada|epemuga|segundo|txanda|triunfo|kontu\w*|unitate")


def test_one_goes_after_its_noun() -> None:
    """Where the other plural form writes "{n} karta", the form for one writes "karta {n}" (or "karta
    bat"): "karta 1", as Basque writes one, never "1 karta"."""
    before = re.compile(r"(?<!\+)\{n\} (" + NOUNS + r")\b")
    wrong = [(first[:70], strs[0]) for _, first, ids, strs in entries() if len(ids) > 1
             and before.search(strs[0])]
    assert wrong == [], wrong


def test_no_case_ending_glued_to_a_figure() -> None:
    """A case ending on a figure depends on how the number is said ("20ko", "100eko", "1000ko"): a
    text gives the figure none ("{buy_in}eko" read "20eko"); only the form for one may ("{n}ean", 1)."""
    glued = re.compile(r"\{(\w+)\}-?(?:[a-z]+)")
    wrong = []
    for _, first, ids, strs in entries():
        for k, s in enumerate(strs):
            for m in glued.finditer(s):
                name = m.group(1)
                if len(ids) > 1 and k == 0 and name == "n":
                    continue  # one: "1ean" is "batean"
                if name in ("who", "name", "game", "rules", "lance", "title", "section"):
                    continue  # words, not figures
                wrong.append((first[:70], s))
    assert wrong == [], wrong


def test_a_numbered_season_round_or_deal_takes_the_ordinal_point() -> None:
    """"3. denboraldia", "2. txanda", "5. banaketa", as every other entry writes them (the profile
    card wrote "3 denboraldia": three seasons)."""
    bare = re.compile(r"\{(season|old|current|round|done|deal)\} (denboraldi|txanda|banaketa)\w*")
    wrong = [(first[:70], s) for _, first, ids, strs in entries() for s in strs
             if len(ids) == 1 and bare.search(s)]
    assert wrong == [], wrong


def test_a_name_or_a_table_number_is_written_as_everywhere() -> None:
    """A mention takes no bracketed ending ("<@1>(r)en zorroa" is "<@1> erabiltzailearen zorroa", as
    "kept for" writes it), and a table is "#5 mahaia", never "5. mahaia" (the fifth table)."""
    wrong = [(first[:70], s) for _, first, _, strs in entries() for s in strs
             if re.search(r"[>}]\((r|e|a|k|ek|ak)\)", s) or re.search(r"(?<!#)\{(table|id)\}\. mahai", s)]
    assert wrong == [], wrong
