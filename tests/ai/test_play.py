"""Terminal play: a whole session from piped input, bad choices, quitting."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.play import main
from bot.rules import GAMES

ROOT = Path(__file__).resolve().parents[2]


def run(argv: list[str], text: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(argv, stdin=io.StringIO(text), stdout=out)
    return code, out.getvalue()


def test_whole_marias_session_with_piped_choices() -> None:
    code, out = run(["play", "marias", "--seed", "3", "--options", '{"rounds": 1}'], "1\n" * 500)
    assert code == 0
    assert "Marias — 3 seats. You are seat 0" in out
    assert "your hand:" in out and "Your move [1-" in out
    assert any(s in out for s in "♠♥♦♣")  # cards shown with suit symbols
    assert "Trick 1 to" in out or "concede" in out  # the game's narration
    assert "=== Session over ===" in out
    assert "(you): stack" in out


def test_bad_choices_are_explained_and_asked_again() -> None:
    code, out = run(["marias", "--seed", "3"], "zero\n99\n\n1\n")
    assert code == 0
    assert "'zero' is not a move" in out and "'99' is not a move" in out
    assert out.count("Your move") >= 4
    assert "Bye: session abandoned." in out  # input ended


@pytest.mark.parametrize("text", ["", "q\n"])
def test_eof_and_q_quit_cleanly(text: str) -> None:
    code, out = run(["michigan", "--seed", "1", "--seats", "3"], text)
    assert code == 0
    assert "Bye: session abandoned." in out


def test_bad_arguments() -> None:
    assert run(["nosuchgame"], "")[0] == 2
    assert run(["mus", "--seats", "3"], "")[0] == 2
    assert run(["mus", "--options", "[1]"], "")[0] == 2
    assert run(["mus", "--seat", "4"], "")[0] == 2


def test_python_m_bot_play_with_a_pipe() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.play", "mus", "--seed", "4", "--options", '{"target": 30}'],
        input="1\n" * 3000, capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "=== Session over ===" in proc.stdout
    assert "de " in proc.stdout  # Spanish cards shown by name ("rey de copas")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_plays_to_the_end(name: str) -> None:
    short = {"motz": {"rotations": 1}, "michigan": {"rotations": 1}, "marias": {"rounds": 1},
             "maitre": {"tours": 1}, "mus": {"target": 30}}[name]
    code, out = run([name, "--seed", "2", "--options", json.dumps(short)], "1\n" * 5000)
    assert code == 0 and "=== Session over ===" in out


def test_the_terminal_words_fields_bets_and_raises_as_discord_does() -> None:
    """Fields the game writes itself (Mus's points per pair), the bet being answered and a raise's
    total are shown as the hand message and its buttons show them, not as raw view values."""
    seen = ""
    for seed in range(1, 12):  # a seed where an AI pair bets before seat 0 answers
        code, out = run(["mus", "--seed", str(seed), "--options", '{"matches": 1}'], "1\n" * 300)
        assert code == 0
        if "⚔️" in out:
            seen = out
            break
    assert seen, "no bet to answer in eleven sessions"
    assert "points: Seat 0 (you) & AI 2 " in seen  # per pair, by name, not "[0, 0]"
    assert "bet: {" not in seen  # the raw dict
    assert "Quiero:" in seen and "No quiero:" in seen
    assert "Raise 2 (to " in seen  # label_at, as the button says it


def test_the_terminal_counts_the_maitre_manche_from_one() -> None:
    code, out = run(["maitre", "--seed", "5", "--options", '{"tours": 1}'], "1\n" * 5)
    assert code == 0
    assert "manche: 1" in out and "manche: 0" not in out
