"""Terminal play: one person plays a whole session against AI seats.

    python -m bot.play GAME [--seats N] [--seed S] [--level easy] [--seat K] [--options JSON]

Cards are shown as text with suit symbols, the table state before each of your moves, every
public event narrated by the game, and your legal moves as a numbered list (the game's button
labels). Type a number (or ``q`` to quit). Input is read line by line from stdin, so piped
input works; end of input (Ctrl-D) quits cleanly.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from typing import Any, TextIO

from bot.ai.levels import DEFAULT, LEVELS, policy_for
from bot.ai.policy import decide
from bot.i18n import english
from bot.rules import GAMES
from bot.rules.base import Game
from bot.rules.cards import display
from bot.views.labels import situated
from bot.views.vocab import field_text

#: Public view fields worth showing, in this order (the common ones are shown separately); the
#: fields naming a seat (``Vocabulary.seat_fields``) are shown after them, by the player's name; a
#: field the game writes itself (``Vocabulary.field_texts``, a figure per team) as Discord shows it.
SHOWN_FIELDS = (
    "trump", "turn_up", "trump_card", "contract", "manche", "flek", "fine", "k", "points",
    "games", "declarations", "active", "tricks", "trick_winners", "card_points",
    "mode", "muet", "coffre", "hand_sizes", "hand_counts", "blocked", "played", "trick",
)


class Quit(Exception):
    """The player asked to stop (q or end of input)."""


def card_text(code: Any, spanish: bool) -> str:
    try:
        return display(code, spanish)
    except (KeyError, IndexError, TypeError):
        return str(code)


def looks_like_card(value: Any, deck: frozenset[str]) -> bool:
    return isinstance(value, str) and value in deck


def render_value(value: Any, deck: frozenset[str], spanish: bool, name: Callable[[int], str]) -> str:
    """A compact text rendering of a view value, with card codes shown as cards."""
    if looks_like_card(value, deck):
        return card_text(value, spanish)
    if isinstance(value, dict):
        if "card" in value and "seat" in value:
            shown = card_text(value["card"], spanish)
            ident = value.get("as")
            if ident and ident != value["card"]:
                shown += f" as {card_text(ident, spanish)}"
            return f"{name(value['seat'])}: {shown}"
        inner = ", ".join(f"{k} {render_value(v, deck, spanish, name)}" for k, v in value.items())
        return "{" + inner + "}"
    if isinstance(value, (list, tuple)):
        if len(value) == 2 and isinstance(value[0], int) and looks_like_card(value[1], deck):
            return f"{name(value[0])}: {card_text(value[1], spanish)}"
        return "[" + ", ".join(render_value(v, deck, spanish, name) for v in value) + "]"
    return "—" if value is None else str(value)


class TerminalGame:
    """One session: the human's seat, the AI policy, the streams."""

    def __init__(self, game: Game, seats: int, human: int, level: str, seed: int,
                 options: dict[str, Any], out: TextIO, inp: TextIO):
        self.game = game
        self.human = human
        self.policy = policy_for(game.name, level)
        self.rng = random.Random(seed)
        self.out, self.inp = out, inp
        self.options = game.validate_options(options)
        self.state = game.new_table(seats=seats, options=self.options, seed=seed)
        self.seats = seats
        self.deck = frozenset(game.deck)
        self.spanish = game.spanish
        self.tr = english()

    def name(self, seat: int) -> str:
        return f"Seat {seat} (you)" if seat == self.human else f"AI {seat}"

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def show_table(self, view: dict[str, Any]) -> None:
        stacks = ", ".join(f"{self.name(i)} {s}" for i, s in enumerate(view["stacks"]))
        self.say(f"--- {self.game.title}: {view['phase']} | dealer {self.name(view['dealer'])} "
                 f"| pot {render_value(view['pot'], self.deck, False, self.name)}")
        self.say(f"    stacks: {stacks}")
        seat_fields = self.game.vocabulary.seat_fields
        names = [self.name(i) for i in range(self.seats)]
        for key in (*SHOWN_FIELDS, *seat_fields):
            value = view.get(key)
            if value in (None, [], {}) or key not in view:
                continue
            own = field_text(key, value, self.game.name, names, self.tr)
            if own is not None:
                text = own
            elif key in seat_fields and isinstance(value, int):
                text = self.name(value)
            elif key == "trump" and isinstance(value, str) and len(value) == 1 and not self.spanish:
                text = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(value, value)
            else:
                text = render_value(value, self.deck, self.spanish, self.name)
            self.say(f"    {key.replace('_', ' ')}: {text}")
        hand = " ".join(card_text(c, self.spanish) for c in view.get("hand", [])) or "—"
        self.say(f"    your hand: {hand}")
        note = self.game.seat_note(view, self.name, self.tr) if self.game.seat_note else None
        if note:  # what the seat answers (Mus's bet), as the hand message says it
            self.say(f"    {note}")

    def narrate(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            line = self.game.narrate(event, self.name)
            if line:
                self.say(f"  · {line}")

    def ask(self, legal: list[dict[str, Any]], view: dict[str, Any]) -> dict[str, Any]:
        label = situated(self.game, view, self.tr)  # as the buttons say it ("Raise 2 (to 4)")
        items = [f"{i:>3}. {label(action)}" for i, action in enumerate(legal, 1)]
        width = max(len(x) for x in items) + 2
        per_row = 1 if len(items) <= 12 else max(1, 100 // width)
        for start in range(0, len(items), per_row):
            self.say("  " + "".join(x.ljust(width) for x in items[start:start + per_row]).rstrip())
        while True:
            self.out.write(f"Your move [1-{len(legal)}, q to quit]: ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                raise Quit("end of input")
            if not self.inp.isatty():
                self.say(line.rstrip("\n"))  # echo piped input so the transcript reads well
            text = line.strip().lower()
            if text in ("q", "quit", "exit"):
                raise Quit("quit")
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            self.say(f"  ! '{line.strip()}' is not a move: type a number from 1 to {len(legal)}, or q.")

    def run(self) -> int:
        ai = ", ".join(self.name(i) for i in range(self.seats) if i != self.human)
        self.say(f"{self.game.title} — {self.seats} seats. You are seat {self.human}; {ai} are AI.")
        steps = 0
        while not self.state.is_over():
            seat = self.state.to_act()[0]
            legal = self.state.legal_actions(seat)
            view = self.state.view(seat)
            if seat == self.human:
                self.show_table(view)
                action = self.ask(legal, view)
            else:
                action = decide(self.policy, view, legal, self.rng, self.state)
            self.narrate(self.state.apply(seat, action))
            steps += 1
        self.show_results()
        return 0

    def show_results(self) -> None:
        buy_in = self.options.get("buy_in", 0)
        self.say("=== Session over ===")
        for i, stack in enumerate(self.state.stacks):
            self.say(f"  {self.name(i):>6}: stack {stack} ({stack - buy_in:+d} jetons)")


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bot play", description="Play a session in the terminal.")
    parser.add_argument("game", choices=sorted(GAMES))
    parser.add_argument("--seats", type=int, default=None, help="number of seats (game default)")
    parser.add_argument("--seed", type=int, default=None, help="table seed (random if omitted)")
    parser.add_argument("--level", default=str(DEFAULT), choices=LEVELS, help="AI level")
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--options", default="{}", help="host options as JSON, e.g. '{\"rotations\": 1}'")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a terminal session; returns the process exit code (0, or 2 for bad arguments)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["play"]:
        argv = argv[1:]
    out = stdout or sys.stdout
    try:
        args = parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    game = GAMES[args.game]
    seats = args.seats or game.default_seats or game.min_seats
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 31)
    try:
        options = json.loads(args.options)
        if not isinstance(options, dict):
            raise ValueError("--options must be a JSON object")
        if not 0 <= args.seat < seats:
            raise ValueError(f"--seat must be from 0 to {seats - 1}")
        session = TerminalGame(game, seats, args.seat, args.level, seed, options, out, stdin or sys.stdin)
    except ValueError as exc:  # bad seats, options or JSON
        print(f"play: {exc}", file=sys.stderr)
        return 2
    print(f"(seed {seed})", file=out)
    try:
        return session.run()
    except Quit:
        print("Bye: session abandoned.", file=out)
        return 0
    except KeyboardInterrupt:
        print("\nInterrupted.", file=out)
        return 130
    except BrokenPipeError:  # output closed early (e.g. piped into head)
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
