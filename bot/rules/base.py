"""The rules-core contract shared by every game: errors, option specs, action matching.

Nothing here (or anywhere in ``bot.rules``) does I/O, reads the clock or imports Discord.
See ``docs/DESIGN.md`` section 2 for the contract every game follows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, Self, runtime_checkable

from bot.rules.looks import CLASSIC, FACES
from bot.rules.vocabulary import Vocabulary

Action = dict[str, Any]
Event = dict[str, Any]
View = dict[str, Any]


class IllegalMove(Exception):
    """An action refused by the rules; the state is left exactly as it was.

    Like ``OptionError``, the reason is data: ``msgid`` (an English sentence with
    ``{placeholders}``, marked with ``N_`` so it is in the catalogue) and ``params``. ``reason``
    and ``str(exc)`` are that sentence in English ("it is not seat 2's turn (waiting for
    seat 0)"), written when first read, so an AI or a test that only catches the refusal never
    pays for it; :meth:`text` writes it in a reader's language. A parameter is plain data, or
    one of :class:`CardRef`, :class:`SeatRef`, :class:`MoveRef`, which name a card, seats or the
    refused move in the reader's words (the table service gives the players' names and the
    game's move labels).
    """

    def __init__(self, msgid: str, /, **params: Any):
        super().__init__(msgid)
        self.msgid = msgid
        self.params = params
        self._reason: str | None = None

    @property
    def reason(self) -> str:
        """The English sentence, written the first time it is read (a refusal stays cheap)."""
        if self._reason is None:
            self._reason = self.text()
        return self._reason

    def __str__(self) -> str:
        return self.reason

    def __reduce__(self) -> tuple[Any, ...]:
        return _illegal_move, (self.msgid, self.params)

    def text(self, tr: Text | None = None, name: Callable[[int], str] | None = None,
             label: Callable[[Action, Text], str] | None = None) -> str:
        """The reason in ``tr``'s language (English without one); ``name(seat)`` names a seat
        (a player's name), ``label(action, tr)`` a move (the game's button text)."""
        tr = tr or PLAIN
        if not self.params:
            return tr._(self.msgid)
        params = {k: v.render(tr, name, label) if isinstance(v, (CardRef, SeatRef, MoveRef)) else v
                  for k, v in self.params.items()}
        return tr._(self.msgid, **params)


def _illegal_move(msgid: str, params: dict[str, Any]) -> IllegalMove:
    """Unpickle an ``IllegalMove`` with its parameters (``Exception`` would keep ``args`` only)."""
    return IllegalMove(msgid, **params)


@dataclass(frozen=True, slots=True)
class CardRef:
    """A card named in a refusal: its code, and whether it is of the Spanish deck (Mus)."""

    code: str
    spanish: bool = False

    def render(self, tr: Text, name: Callable[[int], str] | None = None,
               label: Callable[[Action, Text], str] | None = None) -> str:
        return tr.card(self.code, self.spanish)


@dataclass(frozen=True, slots=True)
class SeatRef:
    """Seats named in a refusal: the players' names when known, else "seat 2" (numbered from 0)."""

    seats: tuple[int, ...]

    def render(self, tr: Text, name: Callable[[int], str] | None = None,
               label: Callable[[Action, Text], str] | None = None) -> str:
        if name is not None:
            return ", ".join(name(s) for s in self.seats)
        return ", ".join(tr._("seat {n}", n=s) for s in self.seats)


@dataclass(frozen=True, slots=True)
class MoveRef:
    """The refused move, shown as its button text when the game can label it, else as data."""

    action: Mapping[str, Any]

    def render(self, tr: Text, name: Callable[[int], str] | None = None,
               label: Callable[[Action, Text], str] | None = None) -> str:
        if label is not None:
            try:
                return label(dict(self.action), tr)
            except Exception:  # noqa: BLE001 - a refused move may be anything: fall back to its data
                pass
        return describe(self.action)


# --------------------------------------------------------------------------- options


class OptionError(ValueError):
    """A refused option: the English message, plus its message id and parameters as plain data.

    ``str(error)`` is the English text; the Discord layer translates ``msgid`` with ``params``
    into the reader's language (the rules core itself holds no locale).
    """

    def __init__(self, msgid: str, **params: Any) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params


@dataclass(frozen=True)
class OptionSpec:
    """One host option of a game: its type, default, range and help text.

    ``kind`` is one of ``"int"``, ``"bool"``, ``"choice"``, ``"seat"`` (an int or None for
    random) and ``"decks"`` (a list of card-code permutations, for tests).
    ``default`` may be a callable taking the options validated so far (for defaults that
    depend on another option, such as ``buy_in = 100 × ante``).
    ``minimum`` may likewise be a callable of the options validated so far.
    """

    name: str
    kind: str
    default: Any
    help: str
    minimum: int | Callable[[Mapping[str, Any]], int] | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] = ()
    hidden: bool = False  # not offered in the Discord UI (test-only options: dealer, decks)

    def resolve_default(self, so_far: Mapping[str, Any]) -> Any:
        return self.default(so_far) if callable(self.default) else self.default

    def resolve_minimum(self, so_far: Mapping[str, Any]) -> int | None:
        return self.minimum(so_far) if callable(self.minimum) else self.minimum


def validate_options(
    specs: Sequence[OptionSpec], raw: Mapping[str, Any] | None, deck: Sequence[str] | None = None
) -> dict[str, Any]:
    """Fill defaults and check every option; raise ``ValueError`` with a readable message.

    Specs are validated in order, so a spec's default or minimum may depend on earlier ones.
    ``deck`` is the game's full deck, used to check the ``decks`` option.
    """
    raw = dict(raw or {})
    known = {s.name for s in specs}
    unknown = sorted(set(raw) - known)
    if unknown:
        names, known = ", ".join(unknown), ", ".join(s.name for s in specs)
        if len(unknown) > 1:
            raise OptionError(N_("Unknown options: {names}. Known options: {known}."), names=names,
                              known=known)
        raise OptionError(N_("Unknown option: {names}. Known options: {known}."), names=names, known=known)
    out: dict[str, Any] = {}
    for spec in specs:
        value = raw[spec.name] if spec.name in raw else spec.resolve_default(out)
        out[spec.name] = _check_option(spec, value, out, deck)
    return out


def _check_option(spec: OptionSpec, value: Any, so_far: Mapping[str, Any], deck: Sequence[str] | None) -> Any:
    name = spec.name
    if spec.kind == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("on", "off", "true", "false", "yes", "no"):
            return value.lower() in ("on", "true", "yes")
        raise OptionError(N_("Option {name} must be on or off."), name=name)
    if spec.kind == "choice":
        if value not in spec.choices:
            raise OptionError(N_("Option {name} must be one of {choices}."), name=name,
                              choices=", ".join(map(str, spec.choices)))
        return value
    if spec.kind == "decks":
        return _check_decks(name, value, deck)
    if spec.kind in ("int", "seat"):
        if value is None and spec.kind == "seat":
            return None
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(N_("Option {name} must be a whole number."), name=name)
        lo = spec.resolve_minimum(so_far)
        hi = spec.maximum
        if spec.choices and value not in spec.choices:
            raise OptionError(N_("Option {name} must be one of {choices}."), name=name,
                              choices=", ".join(map(str, spec.choices)))
        if lo is not None and value < lo:
            raise OptionError(N_("Option {name} must be at least {low} (got {value})."), name=name, low=lo,
                              value=value)
        if hi is not None and value > hi:
            raise OptionError(N_("Option {name} must be at most {high} (got {value})."), name=name, high=hi,
                              value=value)
        return value
    raise ValueError(f"Option {name} has an unknown kind {spec.kind!r}.")  # a bug in a spec


def _check_decks(name: str, value: Any, deck: Sequence[str] | None) -> tuple[tuple[str, ...], ...] | None:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"Option {name} must be a list of decks.")
    full = sorted(deck or ())
    out = []
    for i, d in enumerate(value):
        if not isinstance(d, (list, tuple)) or not all(isinstance(c, str) for c in d):
            raise ValueError(f"Option {name}: deck {i} must be a list of card codes.")
        if sorted(d) != full:
            raise ValueError(f"Option {name}: deck {i} must be a permutation of the {len(full)} cards.")
        out.append(tuple(d))
    return tuple(out)


def check_seat_option(options: Mapping[str, Any], seats: int, name: str = "dealer") -> None:
    """Refuse a ``dealer`` option that names no seat of this table."""
    v = options.get(name)
    if v is not None and not 0 <= v < seats:
        raise OptionError(N_("Option {name} must be a seat from 0 to {last} (got {value})."), name=name,
                          last=seats - 1, value=v)


# --------------------------------------------------------------------------- actions


def match_action(action: Any, legal: Sequence[Action]) -> Action:
    """Return the legal action equal to ``action``, or raise ``IllegalMove``.

    Equality is strict: same keys, same values of the same types (``True`` is not ``1``,
    ``2.0`` is not ``2``). Anything that is not a dict with a string ``type`` is refused with
    a readable reason, never a ``KeyError``/``TypeError``.
    """
    if not isinstance(action, dict):
        raise IllegalMove(N_("that is not a move"))
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalMove(N_("that is not a move"))
    same_type = False
    for cand in legal:
        if cand["type"] != kind:
            continue
        same_type = True
        if len(cand) == len(action) and all(
            k in action and type(action[k]) is type(v) and action[k] == v for k, v in cand.items()
        ):
            return cand
    if not legal:
        raise IllegalMove(N_("you have no move to make now"))
    if not same_type:
        raise IllegalMove(N_("that kind of move is not possible now: {move}"), move=MoveRef(dict(action)))
    raise IllegalMove(N_("that move is not allowed now: {move}"), move=MoveRef(dict(action)))


def describe(action: Mapping[str, Any]) -> str:
    """A short human rendering of an action dict, for error messages and logs."""
    parts = [str(action.get("type"))]
    parts += [f"{k}={v}" for k, v in action.items() if k != "type"]
    return " ".join(parts)


def not_your_turn(seat: Any, to_act: Sequence[int]) -> IllegalMove:
    """The standard refusal for a seat acting out of turn (or an invalid seat)."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return IllegalMove(N_("that is not a seat"))
    if not to_act:
        return IllegalMove(N_("the session is over: no more moves"))
    return IllegalMove(N_("it is not {seat}'s turn (waiting for {waiting})"), seat=SeatRef((seat,)),
                       waiting=SeatRef(tuple(to_act)))


# --------------------------------------------------------------------------- protocols


@runtime_checkable
class State(Protocol):
    """The surface every game state offers (DESIGN.md section 2)."""

    stacks: list[int]
    pot: Any  # int, or a list of pools where the spec says so (Michigan)

    def to_act(self) -> tuple[int, ...]: ...
    def legal_actions(self, seat: int) -> list[Action]: ...
    def apply(self, seat: int, action: Action) -> list[Event]: ...
    def view(self, seat: int | None) -> View: ...
    def is_over(self) -> bool: ...
    def timeout_action(self, seat: int) -> Action: ...
    def clone(self) -> State: ...
    def request_close(self, now: bool = False) -> list[Event]: ...


class BaseState:
    """The public surface every engine shares, written once (OpenSpiel's ``State`` pattern).

    A game's state subclasses this, keeps ``actor`` (the seat to act, ``-1`` once nobody acts)
    and ``_legal`` (the cached legal list, ``None`` when stale), and implements two hooks:
    ``_compute_legal()`` (the actor's legal actions in the spec's order) and
    ``_apply(seat, action)`` (apply an action already matched against the legal ones; return
    the public events). ``legal_actions`` caches the hook's list and hands out a copy;
    ``apply`` checks the seat, matches the action (``_match``: an engine may override it with
    a faster lookup, but must refuse exactly what ``match_action`` refuses), drops the cache and
    calls ``_apply`` with what ``_match`` returned (the legal action dict, unless the engine's
    ``_match`` decodes it further). A refusal raises ``IllegalMove`` before anything changes.
    Subclasses declare ``__slots__`` for their own fields and ``_CLONE``, how ``clone`` copies
    each field (see :func:`clone_method`).
    """

    __slots__ = ("actor", "_legal")

    actor: int
    _legal: list[Action] | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass declaring ``_CLONE`` (``clone_method``'s keyword arguments) gets its ``clone``."""
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("_CLONE")
        if spec is not None:
            cls._copy_fields = clone_method(cls, **spec)  # type: ignore[attr-defined]
            if "clone" not in cls.__dict__:  # an engine's own clone() may call _copy_fields()
                cls.clone = cls._copy_fields  # type: ignore[attr-defined]

    def clone(self) -> Self:
        """An independent copy; generated from the subclass's ``_CLONE`` (see ``clone_method``)."""
        raise NotImplementedError(f"{type(self).__name__} declares no _CLONE")

    def to_act(self) -> tuple[int, ...]:
        """The seat that acts now, or ``()`` once nobody does (the session is over)."""
        a = self.actor
        return () if a < 0 else (a,)

    def legal_actions(self, seat: int) -> list[Action]:
        """The actions ``seat`` may take now, in the spec's stable order; ``[]`` when not its turn."""
        if seat != self.actor or type(seat) is not int or seat < 0:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)  # the caller's own list: mutating it never touches the cache

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply one action of ``seat``; return the public events. ``IllegalMove`` changes nothing."""
        if type(seat) is not int or seat != self.actor or seat < 0:
            raise not_your_turn(seat, self.to_act())
        act = self._match(action)
        self._legal = None
        return self._apply(seat, act)

    def _match(self, action: Any) -> Action:
        """The legal action equal to ``action`` (the cached dict itself), else ``IllegalMove``."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        for cand in legal:
            if cand is action:
                return cand
        return match_action(action, legal)

    def _compute_legal(self) -> list[Action]:
        raise NotImplementedError

    def _apply(self, seat: int, action: Action) -> list[Event]:
        raise NotImplementedError


def clone_method(
    cls: type, shared: Sequence[str] = (), lists: Sequence[str] = (),
    nested: Sequence[str | tuple[str, int]] = (), optional: Sequence[str] = (),
) -> Callable[[Any], Any]:
    """A ``clone()`` for ``cls`` copying the declared fields, as fast as a hand-written one.

    ``shared``: immutable (or never mutated) values, copied by reference; ``lists``: flat lists,
    copied with ``[:]``; ``nested``: lists of lists, each inner list copied (``(name, k)`` for a
    list of always ``k`` lists, copied unrolled: faster); ``optional``: a flat list or ``None``.
    Every slot of ``cls`` must be declared exactly once, so a field added later cannot be
    forgotten (``ValueError`` at import). The function's source is generated once, the way
    ``dataclasses`` builds ``__init__``: a loop over names would double the cost of a clone,
    which the AI's search pays on every iteration.
    """
    fixed = {n[0]: n[1] for n in nested if isinstance(n, tuple)}
    nested_names = [n[0] if isinstance(n, tuple) else n for n in nested]
    declared = [*shared, *lists, *nested_names, *optional]
    slots = [name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())]
    if sorted(declared) != sorted(set(slots)) or len(declared) != len(set(declared)):
        missing = sorted(set(slots) - set(declared))
        extra = sorted(set(declared) - set(slots))
        raise ValueError(f"{cls.__name__}.clone: undeclared slots {missing}, unknown or repeated {extra}")
    lines = ["def clone(self):", "    c = _new(_cls)"]
    lines += [f"    c.{n} = self.{n}" for n in shared]
    lines += [f"    c.{n} = self.{n}[:]" for n in lists]
    for n in nested_names:
        if n in fixed:
            parts = ", ".join(f"x[{i}][:]" for i in range(fixed[n]))
            lines.append(f"    x = self.{n}\n    c.{n} = [{parts}]")
        else:
            lines.append(f"    c.{n} = [x[:] for x in self.{n}]")
    lines += [f"    v = self.{n}\n    c.{n} = None if v is None else v[:]" for n in optional]
    lines.append("    return c")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), namespace)  # noqa: S102 - generated from the declared names only
    clone = namespace["clone"]
    clone.__doc__ = f"An independent copy of the {cls.__name__} (declared fields, see ``clone_method``)."
    clone.__qualname__ = f"{cls.__name__}.clone"
    return clone


# --------------------------------------------------------------------------- text


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention
    """Mark ``msgid`` for the catalogue extractor (``python -m bot.i18n extract``); returns it."""
    return msgid


@runtime_checkable
class Text(Protocol):
    """What labels, narration and summaries write with: a reader's language, passed in.

    ``bot.i18n.Translator`` implements it from the catalogues; ``PLAIN`` is the English source
    text with no catalogue, the default, so the rules core holds no locale state and needs no
    catalogue to run (tests, ``bot.play``, the AI). Message ids are the English text with
    ``{placeholders}`` and must be literals at the call (the extractor reads them).
    """

    def _(self, msgid: str, /, **params: Any) -> str: ...
    def n_(self, singular: str, plural: str, n: int, /, **params: Any) -> str: ...
    def p_(self, context: str, msgid: str, /, **params: Any) -> str: ...
    def np_(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str: ...
    def number(self, value: int) -> str: ...
    def card(self, code: str, spanish: bool = False) -> str: ...
    def cards(self, codes: Sequence[str], spanish: bool = False) -> str: ...
    def suit(self, suit: str, marias: bool = False) -> str: ...
    def symbol(self, suit: str) -> str: ...


class PlainText:
    """The English source text, formatted, with no catalogue (``Text`` for code without a reader)."""

    lang = "en"

    def _(self, msgid: str, /, **params: Any) -> str:
        return msgid.format(**params) if params else msgid

    def n_(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return (singular if n == 1 else plural).format(n=n, **params)

    def p_(self, context: str, msgid: str, /, **params: Any) -> str:
        return msgid.format(**params) if params else msgid

    def np_(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return self.n_(singular, plural, n, **params)

    def number(self, value: int) -> str:
        return str(value)

    def card(self, code: str, spanish: bool = False) -> str:
        from bot.rules.cards import display

        return code if spanish else display(code)

    def cards(self, codes: Sequence[str], spanish: bool = False) -> str:
        return " ".join(self.card(c, spanish) for c in codes) or "—"

    def suit(self, suit: str, marias: bool = False) -> str:
        from bot.rules.cards import SUIT_NAMES

        return SUIT_NAMES[suit]

    def symbol(self, suit: str) -> str:
        from bot.rules.cards import SUIT_SYMBOLS

        return SUIT_SYMBOLS[suit]


PLAIN = PlainText()


def signed(value: int, tr: Text = PLAIN, plus_zero: bool = False) -> str:
    """A jeton change in the reader's digits: ``+12``, ``−3`` (a true minus sign), ``0`` (``+0`` with
    ``plus_zero``, where a result column writes every figure with a sign)."""
    sign = "+" if value > 0 or (plus_zero and value == 0) else "−" if value < 0 else ""
    return sign + tr.number(abs(value))


def default_label(action: Action, tr: Text = PLAIN) -> str:
    """Fallback button label for an action."""
    return describe(action)


def default_narrate(event: Event, name: Callable[[int], str], tr: Text = PLAIN) -> str | None:
    """Fallback log line for an event: its type and fields."""
    return describe(event)


def plain_contract(contract: str, tr: Text = PLAIN) -> str:
    """Fallback name of a deal's contract: its code as the engine wrote it."""
    return contract


def never_open_ended(options: Mapping[str, Any]) -> bool:
    """Fallback session length: every session ends by itself."""
    return False


def never_full(options: Mapping[str, Any], seats: int, end: Mapping[str, Any],
               view: Mapping[str, Any]) -> bool:
    """Fallback ``full_length``: a session a close ended is taken as stopped early."""
    return False


#: Options of the table rather than of the game's rules, appended to every game's options (the
#: engines ignore them). ``hints``: players may ask ``/hint`` for the strong AI's advice on their
#: turn; off by default, and a session with hints allowed is not rated (issue 17). ``rated``: off
#: when the server's ``/settings`` say its sessions are not rated (issue 29).
#: ``pace``: how long a player has per move (fast, normal, slow, correspondence); the seconds of
#: each are the operator's (``bot.tables.pace``), the default the config's ``default_pace``.
PACES: tuple[str, ...] = ("fast", "normal", "slow", "correspondence")
TABLE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("hints", "bool", False,
               "Let players ask /hint for the strong AI's advice on their turn "
               "(the session is then not rated)."),
    OptionSpec("faces", "choice", CLASSIC,
               "Card faces of the table image: classic, four_colour (one colour per suit) "
               "or large (large indices).", choices=FACES),
    OptionSpec("pace", "choice", "normal",
               "Time per move: fast, normal, slow, or correspondence (hours to days per move, "
               "with a DM reminder).", choices=PACES),
    # Set by the table layer from the server's settings (issue 29: a server may play unrated),
    # never typed by a host: hidden.
    OptionSpec("rated", "bool", True, "Whether the session may be rated (the server's setting).",
               hidden=True),
)


@dataclass(frozen=True)
class Game:
    """A game of the registry: its names, seat range, options and state factory.

    Every game's ``options`` end with the shared ``TABLE_OPTIONS``.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...]
    deck: tuple[str, ...]
    factory: Callable[[int, dict[str, Any], int], State] = field(repr=False)
    summary: str = ""
    default_seats: int | None = None
    #: Short button text for an action ("Lead ♠ (4♠)", "Envido 5"): ``label(action, tr=PLAIN)``,
    #: ``tr`` the reader's ``Text`` (``bot.i18n.Translator``).
    label: Callable[..., str] = field(default=default_label, repr=False)
    #: A move's button text in the situation of the seat offered it, where ``label`` alone cannot say
    #: it (Mus's raise: "Raise 2 (to 4)"): ``label_at(action, view, tr)``; None: ``label``.
    label_at: Callable[..., str] | None = field(default=None, repr=False)
    #: A note above a seat's hand, read from its view, where its cards and buttons alone do not say it
    #: (Mus's bet to answer: lance, total, the pair that bet, what Quiero and No quiero give):
    #: ``seat_note(view, name, tr)``, ``name(seat)`` a seat's name; None: no note.
    seat_note: Callable[..., str | None] | None = field(default=None, repr=False)
    #: One log line for a public event, naming seats through ``name(seat)``; None to skip it:
    #: ``narrate(event, name, tr=PLAIN)``.
    narrate: Callable[..., str | None] = field(default=default_narrate, repr=False)
    #: Which deck the card codes are of: ``"french"`` (French suits, jokers) or ``"spanish"``.
    deck_kind: Literal["french", "spanish"] = "french"
    #: The packs its cards may be drawn and named with, its own first (``bot.rules.looks``);
    #: () = the deck kind's only pack. A game with several has a ``pack`` option for its tables.
    packs: tuple[str, ...] = ()
    #: Fixed teams, as the seats of each (rated and ranked together); () when each seat is its own.
    teams: tuple[tuple[int, ...], ...] = ()
    #: Action types that are a seat's own bids, named by their type (a player's favourite bid).
    bids: frozenset[str] = frozenset()
    #: Key of the deal-end event naming the seat that declared the deal's contract; None if none.
    declarer: str | None = None
    #: A deal's contract (the deal-end event's ``contract``, as text) in the reader's words:
    #: ``contract_name(contract, tr)``.
    contract_name: Callable[[str, Text], str] = field(default=plain_contract, repr=False)
    #: Options that set how long a session lasts (its number of rotations, rounds, tours, matches).
    length_options: tuple[str, ...] = ()
    #: ``open_ended(options)``: True when a session with these options has no natural end.
    open_ended: Callable[[Mapping[str, Any]], bool] = field(default=never_open_ended, repr=False)
    #: ``full_length(options, seats, end, view)``: whether a session that a close ended (the host's,
    #: an admin's, or because nobody was left) had reached its natural or nominal length anyway, so
    #: that it is rated (``bot.tables.length``): ``end`` is its ``session_end`` event, ``view`` the
    #: final spectator view. The default says no.
    full_length: Callable[[Mapping[str, Any], int, Mapping[str, Any], Mapping[str, Any]], bool] = field(
        default=never_full, repr=False)
    #: The words of its identifiers (phases, view fields, kinds of move, view values).
    vocabulary: Vocabulary = field(default_factory=Vocabulary, repr=False)
    #: Action types of a round that may repeat without bound within a deal, in their order in a
    #: round (Mus: mus calls, then discards); a replay shows only the first and the last round.
    repeated_round: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = {s.name for s in self.options}
        extra = tuple(s for s in TABLE_OPTIONS if s.name not in names)
        object.__setattr__(self, "options", (*self.options, *extra))

    @property
    def spanish(self) -> bool:
        """True when the game is played with the Spanish deck (its cards are named in full)."""
        return self.deck_kind == "spanish"

    @property
    def pack_choices(self) -> tuple[str, ...]:
        """The packs its cards may be shown with, its own first (``packs``, else its deck kind's)."""
        return self.packs or (self.deck_kind,)

    def shortest_options(self) -> dict[str, Any]:
        """Raw options for the shortest session that still ends by itself: every length option
        at its least value (a choice's first), skipping one that would make it open-ended."""
        raw: dict[str, Any] = {}
        for spec in self.options:
            if spec.name not in self.length_options:
                continue
            values = sorted(spec.choices) if spec.choices else []
            low = spec.resolve_minimum(self.validate_options(raw))
            if not values and low is not None:
                values = [low, low + 1]
            for value in values:
                if not self.open_ended({**self.validate_options(raw), spec.name: value}):
                    raw[spec.name] = value
                    break
        return raw

    def validate_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Fill defaults and check ranges; ``ValueError`` with a readable message."""
        return validate_options(self.options, raw, self.deck)

    def new_table(self, seats: int, options: Mapping[str, Any], seed: int) -> State:
        """A fresh session: buy-ins taken, the first deal dealt, waiting for the first action."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not (
            self.min_seats <= seats <= self.max_seats
        ):
            raise OptionError(N_("{game} is played by {low} to {high} players."), game=self.title,
                              low=self.min_seats, high=self.max_seats)
        opts = self.validate_options(options)
        check_seat_option(opts, seats)
        return self.factory(seats, opts, seed)
