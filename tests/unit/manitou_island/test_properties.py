"""Random legal play to the end, every variant, two and four players (hypothesis).

Each game: never crashes, always terminates, keeps the 40 land cards, never shows a hidden card
(hands, pile, a specialty card's unused face) in a view or a redacted event, counts its islands
like an independent count, and replays from its events to the live state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.manitou_island import GAME
from referee.games.manitou_island.commands import Command, PlayLand, PlaySpecialty
from referee.games.manitou_island.data import LAND_CARD_IDS, SPECIALTY_CARDS, land_card
from referee.games.manitou_island.events import (
    GameDealt,
    GameEnded,
    LandDrawn,
    SpecialtyPlayed,
)
from referee.games.manitou_island.options import Borders, Options
from referee.games.manitou_island.stages import PLAYING
from referee.games.manitou_island.state import State
from referee.games.manitou_island.views import View
from referee.kernel import Chance, Played, RuleViolation, Table
from referee.kernel.hexgrid import Hex

from .support import count_land_cards

GAME_ID = "manitou-island-property"
SPECIALTY_IDS = tuple(card.id.encode() for card in SPECIALTY_CARDS)
MAX_GAMES = 60
MAX_STEPS_PER_GAME = 40 + 6  # every land card, and at most six specialty cards

seeds = st.binary(min_size=1, max_size=12)
choice_seeds = st.integers(min_value=0, max_value=2**32 - 1)


@st.composite
def borders(draw: st.DrawFn) -> Borders:
    columns = draw(st.integers(7, 12))
    rows = draw(st.integers(-(-41 // columns), 10))
    if draw(st.booleans()):
        return Borders(columns=columns, rows=rows)
    return Borders(
        columns=columns,
        rows=rows,
        origin_column=draw(st.integers(0, columns - 1)),
        origin_row=draw(st.integers(0, rows - 1)),
    )


def variant(name: str) -> st.SearchStrategy[Options]:
    targets = st.integers(1, 250)
    if name == "plain":
        return st.just(Options())
    if name == "no-specialty-cards":
        return st.just(Options(specialty_cards=False))
    if name == "match":
        return st.builds(Options, match_play=st.just(True), match_target=targets)
    if name == "borders":
        return st.builds(Options, borders=borders())
    return st.builds(  # everything at once
        Options,
        specialty_cards=st.booleans(),
        match_play=st.just(True),
        match_target=targets,
        borders=borders(),
    )


VARIANTS = ["plain", "no-specialty-cards", "match", "borders", "everything"]


# -- invariants ------------------------------------------------------------------------------------


def land_ids_in(value: Any) -> set[int]:
    """Every land card shown as a card (id, colour, number) anywhere in a view."""
    found: set[int] = set()
    if isinstance(value, dict):
        if set(value) == {"id", "colour", "number"}:
            found.add(value["id"])
        for item in value.values():
            found |= land_ids_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            found |= land_ids_in(item)
    return found


def secrets_of(state: State, viewer: int | None) -> set[int]:
    """The land cards `viewer` may not see now: the pile, and every hand but its own."""
    hidden = set(state.pile)
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden |= set(hand)
    return hidden


def check_view(state: State, viewer: int | None) -> None:
    view = GAME.view(state, viewer)
    assert isinstance(view, View)
    shown = msgspec.to_builtins(view)
    visible = land_ids_in(shown)
    on_board = {cell.card for cell in state.board if cell.card is not None}
    if state.stage not in PLAYING:  # the game is over: everything is public
        assert visible == set(LAND_CARD_IDS)
        return
    assert not visible & secrets_of(state, viewer)
    assert visible == on_board | (set(state.hands[viewer]) if viewer is not None else set())
    assert view.pile is None
    for team in shown["teams"]:
        if viewer is not None and team["team"] == viewer % 2:
            assert team["specialty_cards"] is not None or not state.options.specialty_cards
            team.pop("specialty_cards")
        else:
            assert team["specialty_cards"] is None
    encoded = msgspec.json.encode(shown)
    assert not any(card_id in encoded for card_id in SPECIALTY_IDS)
    check_islands(view)


def check_redacted(event: Any, viewer: int | None, secrets: set[int] | None) -> None:
    seen = GAME.redact(event, viewer)
    assert type(seen) is type(event)
    if isinstance(event, GameDealt):
        assert isinstance(seen, GameDealt) and seen.pile is None
        assert all(hand is None for seat, hand in enumerate(seen.hands) if seat != viewer)
        dealt = [card for hand in seen.hands if hand is not None for card in hand]
        if secrets is not None:
            assert not set(dealt) & secrets
    elif isinstance(event, LandDrawn):
        assert isinstance(seen, LandDrawn)
        if viewer != event.seat:
            assert seen.card is None
        elif secrets is not None:
            assert seen.card not in secrets
    elif isinstance(event, SpecialtyPlayed):
        assert isinstance(seen, SpecialtyPlayed)
        if viewer is None or viewer % 2 != event.seat % 2:
            assert seen.card is None
            assert not any(card_id in msgspec.json.encode(seen) for card_id in SPECIALTY_IDS)
    else:
        assert seen == event  # nothing else is hidden


def independent_islands(view: View) -> list[tuple[str, int]]:
    """Islands counted from the view alone, with a union-find of our own."""
    steps = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    parts: dict[tuple[int, int], tuple[str, int]] = {}
    for cell in view.board:
        key = (cell.at.q, cell.at.r)
        if cell.content == "land" and cell.card is not None:
            parts[key] = (cell.card.colour, cell.card.number)
        elif cell.content == "bridge" and cell.colour is not None:
            parts[key] = (cell.colour, 0)
    parent = {key: key for key in parts}

    def root(key: tuple[int, int]) -> tuple[int, int]:
        while parent[key] != key:
            key = parent[key]
        return key

    for (q, r), (colour, _) in parts.items():
        for dq, dr in steps:
            other = (q + dq, r + dr)
            if other in parts and parts[other][0] == colour:
                parent[root(other)] = root((q, r))
    totals: dict[tuple[int, int], int] = {}
    has_land: set[tuple[int, int]] = set()
    for key, (_, number) in parts.items():
        totals[root(key)] = totals.get(root(key), 0) + number
        if number:
            has_land.add(root(key))
    return sorted(((parts[key][0], total) for key, total in totals.items() if key in has_land))


def check_islands(view: View) -> None:
    assert sorted((i.colour, i.population) for i in view.islands) == independent_islands(view)


def check_step(table: Table, new: Iterable[Played]) -> None:
    state = table.state
    assert isinstance(state, State)
    assert count_land_cards(state) == list(LAND_CARD_IDS)  # the 40 land cards, always
    viewers: list[int | None] = [*range(state.seats), None]
    for viewer in viewers:
        check_view(state, viewer)
    events = [p.event for p in new]
    last_end = max((i for i, e in enumerate(events) if isinstance(e, GameEnded)), default=-1)
    for index, event in enumerate(events):
        for viewer in viewers:
            # Events of a game that has ended since were revealed by its GameEnded.
            current = index > last_end and state.stage in PLAYING
            check_redacted(event, viewer, secrets_of(state, viewer) if current else None)


# -- the games -------------------------------------------------------------------------------------


def play_to_the_end(
    seats: int, options: Options, seed: bytes, choices: random.Random, checks: bool = True
) -> tuple[Table, list[Played]]:
    table, played = Table.open(GAME, options, seats, game_id=GAME_ID, seed=seed)
    if checks:
        check_step(table, played[1:])
    steps = 0
    while not table.outcome().finished:
        steps += 1
        state = table.state
        assert isinstance(state, State)
        assert state.game <= MAX_GAMES and steps <= MAX_STEPS_PER_GAME * state.game
        (seat,) = table.to_act()
        assert all(not GAME.legal_commands(state, other) for other in range(seats) if other != seat)
        legal = GAME.legal_commands(state, seat)
        assert legal, "a seat to act always has a legal command (else it has forfeited)"
        new = table.play(seat, choices.choice(legal), table.chance_for(seed, GAME_ID))
        played += new
        if checks:
            check_step(table, new)
    return table, played


def check_finished(table: Table, played: list[Played]) -> None:
    state = table.state
    assert isinstance(state, State)
    outcome = table.outcome()
    assert outcome.finished and table.to_act() == frozenset()
    assert state.stage == "over" and state.results
    last = state.results[-1]
    if last.reason == "all-land-played":
        assert not state.pile and not any(state.hands)
        assert sum(1 for cell in state.board if cell.card is not None) == 40
    else:
        assert last.forfeited_seat is not None and last.winner_team == 1 - last.forfeited_seat % 2
    if state.options.match_play:
        assert max(state.totals) >= state.options.match_target
        assert state.totals == tuple(sum(r.scores[t] for r in state.results) for t in (0, 1))
    else:
        assert len(state.results) == 1
    assert {s for group in outcome.ranking for s in group} == set(range(state.seats))
    replayed = Table.replay(GAME, played)
    assert replayed.state == state
    assert (replayed.version, replayed.chance_cursor) == (table.version, table.chance_cursor)


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("seats", [2, 4])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=seeds, choice_seed=choice_seeds)
def test_random_play_to_the_end(
    name: str, seats: int, data: st.DataObject, seed: bytes, choice_seed: int
) -> None:
    options = data.draw(variant(name), label="options")
    table, played = play_to_the_end(seats, options, seed, random.Random(choice_seed))
    check_finished(table, played)


@settings(max_examples=25, deadline=None)
@given(seats=st.sampled_from([2, 4]), seed=seeds, choice_seed=choice_seeds)
def test_full_match_to_200(seats: int, seed: bytes, choice_seed: int) -> None:
    table, played = play_to_the_end(
        seats, Options(match_play=True), seed, random.Random(choice_seed), checks=False
    )
    check_finished(table, played)
    state = table.state
    assert isinstance(state, State) and max(state.totals) >= 200


@settings(max_examples=15, deadline=None)
@given(seats=st.sampled_from([2, 4]), seed=seeds, choice_seed=choice_seeds, data=st.data())
def test_legal_commands_are_exactly_what_decide_accepts(
    seats: int, seed: bytes, choice_seed: int, data: st.DataObject
) -> None:
    """Probes around the board: a command is accepted if and only if it is listed."""
    options = data.draw(variant("everything"), label="options")
    choices = random.Random(choice_seed)
    table, _ = Table.open(GAME, options, seats, game_id=GAME_ID, seed=seed)
    while not table.outcome().finished:
        state = table.state
        assert isinstance(state, State)
        (seat,) = table.to_act()
        legal = set(GAME.legal_commands(state, seat))
        near = sorted({n for cell in state.board for n in (cell.at, *cell.at.neighbours())})
        probes: list[Command] = list(choices.sample(sorted(legal, key=repr), k=min(3, len(legal))))
        for _ in range(12):
            at = choices.choice(near) if choices.random() < 0.9 else Hex(99, -99)
            if choices.random() < 0.5:
                hand = state.hands[seat]
                card = (
                    choices.choice(hand)
                    if hand and choices.random() < 0.9
                    else choices.randrange(40)
                )
                probes.append(PlayLand(card=card, at=at))
            else:
                probes.append(
                    PlaySpecialty(
                        card=choices.choice(SPECIALTY_CARDS).id,
                        face=choices.choice(["whirlpool", "lighthouse", "bridge"]),
                        at=at,
                    )
                )
        for probe in probes:
            chance = Chance.for_game(seed, GAME_ID, "", table.chance_cursor)
            try:
                GAME.decide(state, seat, probe, chance)
                accepted = True
            except RuleViolation:
                accepted = False
            assert accepted == (probe in legal), probe
        table.play(seat, choices.choice(sorted(legal, key=repr)), table.chance_for(seed, GAME_ID))


def test_every_card_number_and_colour_is_a_land_card() -> None:
    # The helper of the leak check recognises every land card.
    assert land_ids_in(msgspec.to_builtins([{"id": 3, "colour": "day", "number": 2}])) == {3}
    assert land_ids_in(({"x": [{"id": 5, "colour": "day", "number": 3}]},)) == {5}
    assert land_card(39).colour == "night" and land_card(39).number == 10
