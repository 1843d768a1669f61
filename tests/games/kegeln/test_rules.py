"""Hausnummern as a state machine: every rule and example of docs/rules.md §4 (seed 002)."""

from __future__ import annotations

import random

import pytest

from bot.texts.i18n import Catalogs
from bot.texts.option_words import option_vocabulary
from core import serial
from core.club.records import schnitt
from core.errors import GameError
from core.games.actions import Timeout
from core.games.base import Ctx, Event, Player, is_over
from core.games.kegeln import actions, options, presenter, records, rules
from core.games.kegeln.events import Tie, Undone
from core.games.kegeln.state import (
    Mode,
    Outcome,
    Phase,
    State,
    current,
    digit_value,
    free_positions,
    number,
    ranking,
    shown,
    slots,
)
from core.messages import Chat, Message, Text

OPTION_WORDS = option_vocabulary(Catalogs())  # every catalog's option words, as the App reads them

SCORER = Player("s", "Scorer")
CHAT = Chat("console", "#t", False)
CAT = Catalogs()
E, T, H = 0, 1, 2  # ones (Einer), tens, hundreds

# The seed's round (high, 3 places): Birgit 7 → H, Klaus Pumpe → T, Sven 9 → H, Hanne 5 → H,
# then the remaining throws that give Sven 941, Birgit 732, Hanne 516, Klaus 308.
SEED_THROWS = [(7, H), (0, T), (9, H), (5, H),
               (3, T), (3, H), (4, T), (1, T),
               (2, E), (8, E), (1, E), (6, E)]


def ctx(now: float = 1.0) -> Ctx:
    return Ctx(now=now, rng=random.Random(0))


def game(*args: str) -> State:
    s, _ = rules.new(options.parse_setup(args, OPTION_WORDS), SCORER, ctx())
    return s


def throw(s: State, pins: int | str, pos: int | None = None, by: str = "s") -> tuple[State, list[Event]]:
    return rules.apply(s, actions.Pins(str(pins), pos), by, ctx())


def play(s: State, throws: list[tuple[int, int]]) -> State:
    for pins, pos in throws:
        s, _ = throw(s, pins, pos)
    return s


def numbers(s: State) -> dict[str, int]:
    return {m.name: number(s, i) for i, m in enumerate(s.members)}


def en(msgs: list[Message]) -> str:
    return "\n".join(CAT.render(m.text, "en") for m in msgs)


def same(a: State, b: State) -> bool:
    return bool(serial.dump(a) == serial.dump(b))


# ---------------------------------------------------------------- the seed example

def test_seed_example_golden_one_step_entries() -> None:
    s = game("high", "3", "Birgit", "Klaus", "Sven", "Hanne")
    s = play(s, SEED_THROWS[:4])
    assert [shown(s, i) for i in range(4)] == ["7__", "_0_", "9__", "5__"]
    s = play(s, SEED_THROWS[4:])
    assert numbers(s) == {"Sven": 941, "Birgit": 732, "Hanne": 516, "Klaus": 308}
    assert s.phase is Phase.FINISHED and s.outcome is Outcome.DONE
    assert [s.members[e].name for _, e in ranking(s)] == ["Sven", "Birgit", "Hanne", "Klaus"]
    assert [p for p, _ in ranking(s)] == [1, 2, 3, 4]
    assert presenter.result_table(s) == ["1. Sven 941", "2. Birgit 732", "3. Hanne 516", "4. Klaus 308"]


def test_seed_example_with_position_buttons_gives_the_same_game() -> None:
    s = game("hoch", "Birgit", "Klaus", "Sven", "Hanne")  # German mode word, default 3 places
    assert s.digits == 3 and s.mode is Mode.HIGH
    for pins, pos in SEED_THROWS:
        s, ev = throw(s, pins)
        if ev[0].type == "pins":  # more than one free place: the buttons ask
            buttons = presenter.present(1, s, ev, CHAT)[0].buttons
            assert f"g:1:p{pos}" in [b.action for row in buttons for b in row]
            s, ev = rules.apply(s, actions.Place(pos), "s", ctx())
        assert ev[0].type == "thrown"
    assert numbers(s) == {"Birgit": 732, "Klaus": 308, "Sven": 941, "Hanne": 516}


def test_seed_result_message() -> None:
    s = game("high", "3", "Birgit", "Klaus", "Sven", "Hanne")
    s = play(s, SEED_THROWS[:-1])
    s, ev = throw(s, 6, E)
    text = en(presenter.present(7, s, ev, CHAT))
    assert "1. Sven 941\n2. Birgit 732\n3. Hanne 516\n4. Klaus 308" in text and "Winner: Sven" in text


# ---------------------------------------------------------------- digit values

@pytest.mark.parametrize(("mode", "pins", "digit"), [
    (Mode.HIGH, 0, 0), (Mode.HIGH, 9, 9), (Mode.HIGH, 5, 5),
    (Mode.LOW, 0, 9), (Mode.LOW, 9, 9), (Mode.LOW, 1, 1), (Mode.LOW, 5, 5),
])
def test_digit_value(mode: Mode, pins: int, digit: int) -> None:
    assert digit_value(mode, pins) == digit


def test_low_mode_pumpe_is_nine_no_zero_and_schnitt_counts_raw_pins() -> None:
    s = game("tief", "2", "Ute", "Jens")
    s = play(s, [(0, E), (9, E), (1, T), (0, T)])
    assert numbers(s) == {"Ute": 19, "Jens": 99}
    assert all(d != 0 for i in range(2) for d in slots(s, i))  # no 0 in low mode
    assert [s.members[e].name for _, e in ranking(s)] == ["Ute", "Jens"]  # smallest first
    rec = {r.name: r for r in records.member_records(s)}
    assert (rec["Ute"].pins, rec["Ute"].pumpen, rec["Ute"].nines, rec["Ute"].win) == (1, 1, 0, True)
    assert (rec["Jens"].pins, rec["Jens"].pumpen, rec["Jens"].nines) == (9, 1, 1)  # Pumpe = 0 pins even in low
    assert schnitt(rec["Ute"].pins, rec["Ute"].throws) == 0.5  # a float: the renderer shows 0.5 / 0,5
    assert schnitt(0, 0) == "–"


def test_high_mode_pumpe_is_zero() -> None:
    s = game("high", "2", "A", "B")
    s = play(s, [(0, T), (1, E), (5, E), (2, T)])
    assert numbers(s) == {"A": 5, "B": 21} and s.winner == 1


# ---------------------------------------------------------------- setup

def test_team_duel_interleaves_unequal_teams_and_averages() -> None:
    s = game("high", "3", "teams", "Birgit", "Klaus", "/", "Sven", "Hanne", "/", "Ute")
    assert [m.name for m in s.members] == ["Birgit", "Sven", "Ute", "Klaus", "Hanne"]
    assert [m.team for m in s.members] == [0, 1, 2, 0, 1] and s.teams == 3
    # Birgit 900, Sven 800, Ute 850, Klaus 101, Hanne 200 → team 1: 500.5, team 2: 500.0, team 3: 850.0
    s = play(s, [(9, H), (8, H), (8, H), (1, H), (2, H),
                 (0, T), (0, T), (5, T), (0, T), (0, T),
                 (0, E), (0, E), (0, E), (1, E), (0, E)])
    assert s.phase is Phase.FINISHED and s.winner == 2
    assert [presenter.fmt_score(s, t) for t in range(3)] == [500.5, 500.0, 850.0]  # floats: one decimal per language
    table = Text("kegeln.result", {"mode": "", "table": presenter.result_table(s), "winner": ""})
    assert CAT.render(table, "en").splitlines()[1:4] == ["1. [3] ⌀ 850.0 (Ute 850)",
                                                               "2. [1] ⌀ 500.5 (Birgit 900, Klaus 101)",
                                                               "3. [2] ⌀ 500.0 (Sven 800, Hanne 200)"]
    assert CAT.render(table, "de").splitlines()[2] == "2. [1] ⌀ 500,5 (Birgit 900, Klaus 101)"
    assert {r.name for r in records.member_records(s) if r.win} == {"Ute"}


def test_names_in_one_argument_as_a_slash_command_option_sends_them() -> None:
    s = game("high", "3", "teams Birgit Klaus / Sven Hanne / Ute")
    assert s.teams == 3 and [m.name for m in s.members] == ["Birgit", "Sven", "Ute", "Klaus", "Hanne"]


def test_team_words_and_glued_slashes() -> None:
    s = game("low", "2", "Birgit", "Klaus/Sven", "/Hanne")  # no "teams" word: a slash makes teams
    assert s.teams == 3 and [m.name for m in s.members] == ["Birgit", "Sven", "Hanne", "Klaus"]


@pytest.mark.parametrize(("args", "code"), [
    ((), "kegeln.usage"),
    (("medium", "A", "B"), "kegeln.bad_mode"),
    (("high", "1", "A", "B"), "kegeln.bad_digits"),
    (("high", "7", "A", "B"), "kegeln.bad_digits"),
    (("high", "A"), "kegeln.too_few_players"),
    (("high", "Anna", "anna"), "kegeln.duplicate_name"),
    (("high", "teams", "A", "/", "B", "/", "C", "/", "D", "/", "E"), "kegeln.bad_teams"),
    (("high", "teams", "A", "B"), "kegeln.bad_teams"),
    (("high", "teams", "A", "/", "/", "B"), "kegeln.empty_team"),
    (("high", "A", "x" * 40), "kegeln.bad_name"),
])
def test_bad_setups(args: tuple[str, ...], code: str) -> None:
    with pytest.raises(GameError) as err:
        options.parse_setup(args, OPTION_WORDS)
    assert err.value.code == code


@pytest.mark.parametrize(("word", "mode"), [("high", "high"), ("hoch", "high"), ("LOW", "low"),
                                             ("tief", "low"), ("niedrig", "low")])
def test_mode_words(word: str, mode: str) -> None:
    assert options.parse_setup([word, "A", "B"], OPTION_WORDS).mode.value == mode


@pytest.mark.parametrize("digits", [2, 3, 4, 5, 6])
def test_every_number_of_places(digits: int) -> None:
    s = game("high", str(digits), "A", "B")
    for i in range(2 * digits):
        s, _ = throw(s, 9 if i % 2 else 1, free_positions(s, current(s) or 0)[0])
    assert s.phase is Phase.FINISHED
    assert numbers(s) == {"A": int("1" * digits), "B": int("9" * digits)}


# ---------------------------------------------------------------- turns, undo, refusals

def test_strictly_in_turn_and_one_place_left_is_filled_at_once() -> None:
    s = game("high", "2", "A", "B")
    assert current(s) == 0
    s, _ = throw(s, 4, T)
    assert current(s) == 1
    s, _ = throw(s, 4, E)
    s, ev = throw(s, 7)  # A has only the ones left: no question
    assert ev[0].type == "thrown" and shown(s, 0) == "47"


def test_undo_across_a_player_change_and_repeatable() -> None:
    s = game("high", "3", "Birgit", "Klaus")
    s = play(s, [(7, H), (0, T)])
    assert current(s) == 0
    s, ev = rules.apply(s, actions.Undo(), "s", ctx())
    assert ev[0] == Undone(member=1, pins=0, position=T) and current(s) == 1 and shown(s, 1) == "___"
    s, _ = rules.apply(s, actions.Undo(), "s", ctx())
    assert current(s) == 0 and shown(s, 0) == "___"
    with pytest.raises(GameError) as err:
        rules.apply(s, actions.Undo(), "s", ctx())
    assert err.value.code == "kegeln.nothing_to_undo"


def test_undo_takes_back_pins_waiting_for_a_place() -> None:
    s = game("high", "A", "B")
    s, _ = throw(s, 5)
    assert s.pending == 5
    with pytest.raises(GameError) as err:
        throw(s, 6)
    assert err.value.code == "kegeln.place_first"
    s, ev = rules.apply(s, actions.Undo(), "s", ctx())
    assert s.pending is None and ev[0] == Undone(member=0, pins=5, position=None) and not s.throws


@pytest.mark.parametrize(("action", "by", "code"), [
    (actions.Pins("7", H), "someone", "kegeln.not_scorer"),
    (actions.Undo(), "someone", "kegeln.not_scorer"),
    (actions.Pins("10", H), "s", "kegeln.bad_pins"),
    (actions.Pins("-1", H), "s", "kegeln.bad_pins"),
    (actions.Pins("x", H), "s", "kegeln.bad_pins"),
    (actions.Pins("7", 3), "s", "kegeln.bad_position"),
    (actions.Place(E), "s", "kegeln.no_pending"),
    (actions.Decide(0), "s", "kegeln.no_tie"),
])
def test_refused_entries_change_nothing(action: object, by: str, code: str) -> None:
    s = game("high", "A", "B")
    s = play(s, [(7, H), (5, T)])
    before = serial.dump(s)
    with pytest.raises(GameError) as err:
        rules.apply(s, action, by, ctx(99.0))
    assert err.value.code == code
    assert serial.dump(s) == before


def test_position_taken_is_refused_and_names_the_place() -> None:
    s = game("high", "A", "B")
    s = play(s, [(7, H), (5, T)])
    with pytest.raises(GameError) as err:
        throw(s, 3, H)
    assert err.value.code == "kegeln.position_taken"
    msg = CAT.render(Text(f"error.{err.value.code}", err.value.params), "de")
    assert "Hunderter" in msg and "A" in msg


def test_only_the_scorer_or_an_admin() -> None:
    s = game("high", "A", "B")
    with pytest.raises(GameError) as err:
        throw(s, 7, H, by="other")
    assert err.value.params == {"scorer": "Scorer"}
    s2, _ = rules.apply(s, actions.Pins("7", H, admin=True), "other", ctx())
    assert shown(s2, 0) == "7__"


def test_hand_over_the_scorer_role() -> None:
    s = game("high", "A", "B")
    s, ev = rules.apply(s, actions.HandOver(Player("b", "Bea")), "s", ctx())
    assert s.scorer == Player("b", "Bea") and ev[0].type == "scorer"
    assert rules.players(s) == [Player("b", "Bea")]
    with pytest.raises(GameError):
        throw(s, 5, H, by="s")
    s, _ = throw(s, 5, H, by="b")
    with pytest.raises(GameError) as err:
        rules.apply(s, actions.HandOver(Player("b", "Bea")), "b", ctx())
    assert err.value.code == "kegeln.already_scorer"


# ---------------------------------------------------------------- ties

def tied_game() -> State:
    s = game("high", "2", "Anna", "Ben", "Cem")
    return play(s, [(5, T), (5, T), (3, T), (1, E), (1, E), (9, E)])  # 51, 51, 39


def test_tie_for_first_waits_for_the_scorer_and_is_recorded() -> None:
    s = tied_game()
    assert s.phase is Phase.TIE and s.tied == [0, 1] and not is_over(s)
    msgs = presenter.present(3, s, [Tie(tied=s.tied)], CHAT)
    assert [b.action for row in msgs[0].buttons for b in row] == ["g:3:w0", "g:3:w1", "g:3:undo"]
    with pytest.raises(GameError) as err:
        rules.apply(s, actions.Decide(1), "other", ctx())
    assert err.value.code == "kegeln.not_scorer"
    with pytest.raises(GameError) as err:
        rules.apply(s, actions.Decide(2), "s", ctx())
    assert err.value.code == "kegeln.not_tied"
    with pytest.raises(GameError) as err:
        throw(s, 3)
    assert err.value.code == "kegeln.tie_pending"
    s, ev = rules.apply(s, actions.Decide(1), "s", ctx())
    assert s.phase is Phase.FINISHED and s.winner == 1 and s.decided
    assert [(p, s.members[e].name) for p, e in ranking(s)] == [(1, "Ben"), (2, "Anna"), (3, "Cem")]
    assert {r.name: r.win for r in records.member_records(s)} == {"Anna": False, "Ben": True, "Cem": False}
    assert "Ben" in en(presenter.present(3, s, ev, CHAT))


def test_undo_in_a_tie_reopens_the_last_throw() -> None:
    s = tied_game()
    s, _ = rules.apply(s, actions.Undo(), "s", ctx())
    assert s.phase is Phase.PLAYING and s.tied == [] and current(s) == 2
    s, _ = rules.apply(s, actions.Undo(), "s", ctx())  # and Ben's 1 on the ones: it was a 2
    s = play(s, [(2, E), (9, E)])
    assert s.phase is Phase.FINISHED and s.winner == 1 and not s.decided


def test_team_tie_on_the_average() -> None:
    s = game("low", "2", "teams", "A", "B", "/", "C")
    # A 11, B 33 → 22.0; C 22 → 22.0
    s = play(s, [(1, T), (2, T), (3, T), (1, E), (2, E), (3, E)])
    assert s.phase is Phase.TIE and s.tied == [0, 1]
    s, _ = rules.apply(s, actions.Decide(0), "s", ctx())
    assert {r.name for r in records.member_records(s) if r.win} == {"A", "B"}


def test_shared_places_below_the_winner() -> None:
    s = game("high", "2", "A", "B", "C")
    s = play(s, [(5, T), (4, T), (4, T), (0, E), (1, E), (1, E)])
    assert [p for p, _ in ranking(s)] == [1, 2, 2]


# ---------------------------------------------------------------- presenter

def test_standings_line_shows_free_places_next_player_and_edit_key() -> None:
    s = game("high", "3", "Birgit", "Klaus")
    s, ev = throw(s, 7, H)
    s, ev = throw(s, 2, E)
    s, ev = throw(s, 3, E)
    (msg,) = presenter.present(5, s, ev, CHAT)
    text = CAT.render(msg.text, "en")
    assert msg.edit_key == "kegeln:5:standings"
    assert "Birgit 7_3" in text and "Klaus  __2" in text and "▶ Klaus's throw (round 2 of 3)" in text
    assert [b.action for row in msg.buttons for b in row] == [f"g:5:n{n}" for n in range(10)] + ["g:5:undo"]


@pytest.mark.parametrize(("mode", "pins", "key", "pos"), [
    ("low", 0, "kegeln.tip.pumpe_low", E),
    ("high", 0, "kegeln.tip.pumpe_high", E),
    ("low", 9, "kegeln.tip.worst", E),
    ("high", 9, "kegeln.tip.best", H),
    ("low", 1, "kegeln.tip.best", H),
    ("high", 5, None, None),
])
def test_tips_before_placing(mode: str, pins: int, key: str | None, pos: int | None) -> None:
    s = game(mode, "A", "B")
    tip = presenter.tip(s, pins, free_positions(s, 0))
    assert (tip.key if tip else None) == key
    if tip:
        assert tip.params["pos"] == presenter.pos_text(pos or 0)


def test_a_slip_warning_after_a_one_step_entry() -> None:
    s = game("low", "A", "B")
    s, ev = throw(s, 0, H)  # a Pumpe (9) on the hundreds in low mode
    text = CAT.render(presenter.present(1, s, ev, CHAT)[0].text, "en")
    assert "That 9 went on the hundreds — /undo" in text
    s, ev = throw(s, 0, E)
    assert "/undo if" not in CAT.render(presenter.present(1, s, ev, CHAT)[0].text, "en")


def test_pending_pins_offer_buttons_for_the_free_places_in_german() -> None:
    s = game("high", "A", "B")
    s = play(s, [(7, H), (5, H)])
    s, ev = throw(s, 4)
    (msg,) = presenter.present(2, s, ev, CHAT)
    labels = [CAT.render(b.label, "de") for row in msg.buttons for b in row]
    assert labels == ["Zehner", "Einer", "↩️ Zurück"]


def test_cancel_and_timeout_record_nothing() -> None:
    s = game("high", "A", "B")
    s = play(s, [(7, H)])
    c, _ = rules.apply(s, actions.Cancel(), "s", ctx())
    t, _ = rules.apply(s, Timeout(), None, ctx())
    assert c.outcome is Outcome.CANCELLED and t.outcome is Outcome.ABANDONED
    assert records.member_records(c) == [] and records.member_records(t) == [] and rules.results(c) == []
    with pytest.raises(GameError):
        rules.apply(c, actions.Undo(), "s", ctx())
