"""The AI levels, in one table: ``LEVELS``.

Each :class:`Level` is its name (it *is* that string, so it is stored, compared and offered as a
choice like one) and carries everything a layer needs to know about it:

- ``factory(game, level)``: a new policy of that level for a game (``policy_for`` keeps one per
  game and level: policies are stateless and shared);
- ``search``: the search's limits (``Search``: budget per decision, iteration cap, the game's
  expert overrides) for a level that searches the real state, None for one that reads the view;
- ``button``: the lobby's button adding a seat of this level (``Button``: its label and what the
  host reads when the seat is taken, both msgids), None for a level the lobby does not offer;
- ``rated``: a seat of this level has a rating entry of its own (``ai:<level>``), so beating it
  counts.

This module is the only one of ``bot/`` that writes a level's name; the lobby, ``/hint``,
``python -m bot play``, the arena, the AI pool and the ratings read the table (``LOBBY``,
``HINT``, ``DEFAULT``, ``FALLBACK``, ``lobby_choice``, ``rated``). Legacy integer levels
(stored seats): 0 = first legal, 1 and above = random.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from bot.ai.policy import FirstLegalPolicy, Policy, RandomPolicy
from bot.ai.registry import easy_policy
from bot.ai.strong.policy import DEFAULT_BUDGET_MS, DEFAULT_MAX_ITERATIONS, StrongPolicy
from bot.i18n.lazy import N_, NP_

__all__ = [
    "DEFAULT", "EASY", "EXPERT", "FALLBACK", "FIRST", "HINT", "LEVELS", "LOBBY", "RANDOM",
    "STRONG", "WORDS", "Button", "Level", "Search", "expert_policy", "level_named", "level_of",
    "lobby_choice", "normalize_level", "policy_for", "rated", "search_factor", "stand_in", "strong_policy",
]


@dataclass(frozen=True)
class Search:
    """How a searching level searches: ``budget_ms`` per decision, at most ``max_iterations``, and
    whether the game's expert overrides (``GameSpec.expert_overrides``) apply."""

    budget_ms: float
    max_iterations: int
    expert: bool = False


@dataclass(frozen=True)
class Button:
    """A lobby button adding an AI seat: its ``label`` and the ``sits`` answer (msgids)."""

    label: str
    sits: str


class Level(str):
    """One AI level: its name (the string itself) and its facts (see the module docstring)."""

    factory: Callable[[str, Level], Policy]
    search: Search | None
    button: Button | None
    rated: bool

    def __new__(cls, name: str, factory: Callable[[str, Level], Policy], *, search: Search | None = None,
                button: Button | None = None, rated: bool = True) -> Level:
        self = super().__new__(cls, name)
        self.__dict__.update(factory=factory, search=search, button=button, rated=rated)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a Level is read-only")

    def __reduce__(self) -> tuple[Callable[[str], Level], tuple[str]]:
        return level_named, (str(self),)  # pickled (to a worker process) by name

    @property
    def name(self) -> str:
        """The level's name as a plain string."""
        return str(self)

    def policy(self, game_name: str) -> Policy:
        """The (shared) policy of this level for ``game_name`` (``ValueError`` without one)."""
        return policy_for(game_name, self)


def _first(game_name: str, level: Level) -> Policy:
    return FirstLegalPolicy()


def _random(game_name: str, level: Level) -> Policy:
    return RandomPolicy()


def _easy(game_name: str, level: Level) -> Policy:
    return easy_policy(game_name)


def _searching(game_name: str, level: Level) -> Policy:
    assert level.search is not None
    s = level.search
    return StrongPolicy(game_name, budget_ms=s.budget_ms, max_iterations=s.max_iterations, expert=s.expert)


FIRST = Level("first", _first)
RANDOM = Level("random", _random)
EASY = Level("easy", _easy, button=Button(N_("Add AI"), N_("An AI player (easy) sits down.")))
#: ISMCTS over determinizations of the real state at the search's defaults (200 ms per decision).
STRONG = Level("strong", _searching, search=Search(DEFAULT_BUDGET_MS, DEFAULT_MAX_ITERATIONS),
               button=Button(N_("Add strong AI"), N_("An AI player (strong) sits down.")))
#: The same search with a 900 ms budget (the issue's bound is 1 s per decision; 900 ms leaves room
#: for the last iteration and the hand-off), 5 times the cap, and the game's expert overrides.
EXPERT = Level("expert", _searching, search=Search(900.0, 100_000, expert=True),
               button=Button(N_("Add expert AI"), N_("An AI player (expert) sits down.")))

#: Every level, weakest first.
LEVELS: tuple[Level, ...] = (FIRST, RANDOM, EASY, STRONG, EXPERT)
#: Each level in the reader's words (``tr.p_(*WORDS[level])``, context "AI level"): the AI levels'
#: reference lines on the rating board and in ``/stats`` (issue 32).
WORDS: dict[str, tuple[str, str]] = {
    FIRST: NP_("AI level", "first"), RANDOM: NP_("AI level", "random"), EASY: NP_("AI level", "easy"),
    STRONG: NP_("AI level", "strong"), EXPERT: NP_("AI level", "expert"),
}
#: The level of an AI seat when none is named (the lobby's plain "Add AI", ``play``).
DEFAULT = EASY
#: The lobby's AI buttons, in order: the level, its button and the argument of the button's
#: custom id (None for the default level, as the lobby's first "Add AI" button always had).
LOBBY: tuple[tuple[Level, Button, str | None], ...] = tuple(
    (level, level.button, None if level is DEFAULT else str(level))
    for level in LEVELS if level.button is not None
)
#: The level that plays a seat whose level has no AI for the game.
FALLBACK = RANDOM
#: The level whose search ``/hint`` shows (``bot.ai.coach``).
HINT = STRONG

_BY_NAME = {str(level): level for level in LEVELS}


def stand_in(allowed: Iterable[str] | None) -> Level:
    """The level that plays an away human's seat at a table whose server lets ``allowed`` sit
    (``/settings ai_levels`` when the table opened; None: every level): the default level where
    it may sit, else the weakest lobby level that may (a seat handed over is played as the
    server's own AI seats would be), else the default (someone has to play the seat)."""
    if allowed is None:
        return DEFAULT
    names = set(allowed)
    if DEFAULT in names:
        return DEFAULT
    return next((level for level, _, _ in LOBBY if level in names), DEFAULT)


def level_named(name: str) -> Level:
    """The level called ``name`` exactly (``KeyError`` if none)."""
    return _BY_NAME[name]


def lobby_choice(arg: str | None) -> tuple[Level, Button]:
    """The level and button a lobby click's argument names (the default level's for any other)."""
    for level, button, lobby_arg in LOBBY:
        if lobby_arg == arg:
            return level, button
    assert DEFAULT.button is not None
    return DEFAULT, DEFAULT.button


def search_factor(level: Level) -> int:
    """How many times strong's iteration cap a searching ``level`` has (1 for strong, 5 for the
    expert): the arena scales ``--iterations`` and ``--budget-ms`` by it."""
    assert level.search is not None and STRONG.search is not None
    return level.search.max_iterations // STRONG.search.max_iterations


def rated(levels: Iterable[str | int]) -> bool:
    """Whether a session with AI seats of these levels is rated: every level is ``rated`` (one this
    code does not know, from an older table, does not decide)."""
    for level in levels:
        try:
            if not level_of(level).rated:
                return False
        except ValueError:
            continue
    return True


def normalize_level(level: str | int) -> str:
    """A level's name (a plain string) from a name or a legacy integer level; ``ValueError`` if
    unknown."""
    return level_of(level).name


def level_of(level: str | int) -> Level:
    """The level of a name or a legacy integer level; ``ValueError`` if unknown."""
    if isinstance(level, bool):
        raise ValueError(f"unknown AI level {level!r}")
    if isinstance(level, int):
        return FIRST if level <= 0 else RANDOM
    name = str(level).strip().lower()
    if name not in _BY_NAME:
        raise ValueError(f"unknown AI level {level!r} (levels: {', '.join(LEVELS)})")
    return _BY_NAME[name]


def policy_for(game_name: str, level: str | int = DEFAULT) -> Policy:
    """The policy playing ``game_name`` at ``level`` (policies are stateless and shared).

    An unknown level, or a game without an AI of that level, raises ``ValueError``.
    """
    return _policy(game_name, normalize_level(level))


@cache
def _policy(game_name: str, name: str) -> Policy:
    level = _BY_NAME[name]
    return level.factory(game_name, level)


def strong_policy(game_name: str, budget_ms: float | None = None) -> StrongPolicy:
    """A new policy of the strong level for ``game_name`` (optionally with another budget)."""
    policy = _searching(game_name, STRONG)
    assert isinstance(policy, StrongPolicy)
    if budget_ms is not None:
        policy.budget_ms = budget_ms
    return policy


def expert_policy(game_name: str) -> StrongPolicy:
    """A new policy of the expert level for ``game_name``."""
    policy = _searching(game_name, EXPERT)
    assert isinstance(policy, StrongPolicy)
    return policy
