"""Random legal games for 2 to 5 players, played to the end through the kernel's Table.

Each game terminates; cards and tiles are conserved; the rules' invariants hold after every
command; a refused command changes nothing and an accepted one was among the legal commands;
no view and no redacted event shows a hidden card to anyone but its owner (nor the bag's order
to anyone); every event survives the codec; a replay of the events equals the live table.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games.big_manitou import GAME
from referee.games.big_manitou.commands import (
    ChooseCards,
    Command,
    DiscardTile,
    MoveHunter,
    Pass,
    PlayCard,
    TakeTiles,
)
from referee.games.big_manitou.data import (
    CARD_SET,
    HEROES,
    HUNTERS,
    HUNTS,
    PLAYS_PER_HUNT,
    TILE_BAG,
    TILE_KINDS,
    CardKind,
)
from referee.games.big_manitou.events import (
    BagFilled,
    CardPlayed,
    CardsChosen,
    CardsDrawn,
    HuntBegan,
    LeatherThiefStruck,
    PileShuffled,
)
from referee.games.big_manitou.heroes import face_up_heroes
from referee.games.big_manitou.options import Options
from referee.games.big_manitou.stages import Stage, stage
from referee.games.big_manitou.state import Player, State
from referee.kernel import Codec, Played, RuleViolation, Table
from referee.kernel.piles import in_canonical_order

from .support import random_command, state_of

SEED = b"random-games"
GAME_ID = "random-game"
MAX_COMMANDS = 2_000  # far above any real game (a five-player game takes about 300)
CODEC = Codec(GAME)

# A bijection that keeps Hunters Hunters and Heroes Heroes: a hand scrambled with it may be
# played exactly where the real one could, so nothing public may change.
SWAP: dict[CardKind, CardKind] = {
    **dict(zip(HUNTERS, reversed(HUNTERS), strict=True)),
    **dict(zip(HEROES, (*HEROES[1:], HEROES[0]), strict=True)),
}


def swapped(cards: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    return None if cards is None else tuple(SWAP[card] for card in cards)


def scrambled(state: State, viewer: int | None) -> State:
    """Every value `viewer` may not see changed: the bag's order, the order of every pile
    (the viewer's own too), and the cards others chose, hold and have in their piles."""

    def scramble(seat: int, player: Player) -> Player:
        pile = tuple(reversed(player.pile)) if player.pile is not None else None
        if seat == viewer:
            return msgspec.structs.replace(player, pile=pile)
        return msgspec.structs.replace(player, pile=swapped(pile), hand=swapped(player.hand))

    return msgspec.structs.replace(
        state,
        bag=tuple(reversed(state.bag)),
        players=tuple(scramble(seat, player) for seat, player in enumerate(state.players)),
        chosen=tuple(c if seat == viewer else swapped(c) for seat, c in enumerate(state.chosen)),
    )


def check_invariants(state: State) -> None:
    tiles = [*state.bag, *state.removed]
    tiles += [tile for ground in state.grounds for tile in ground.tiles]
    tiles += [tile for player in state.players for tile in player.tiles]
    assert Counter(tiles) == Counter(TILE_BAG)
    for seat, player in enumerate(state.players):
        placed = [p.card for g in state.grounds for p in g.cards if p.owner == seat]
        in_play = Counter([*(player.pile or ()), *player.hand, *placed])
        assert not in_play - (Counter(CARD_SET) - Counter(player.unavailable))
        chosen = state.chosen[seat]
        if state.in_hunt and player.pile is not None:
            assert in_play == Counter(chosen or ())
        assert len(player.hand) <= 3
    for ground in state.grounds:
        owners = Counter(ground.cards[p].owner for p in face_up_heroes(ground))
        assert len(owners) <= 1 and all(count <= 2 for count in owners.values())
    for cylinder, holder in (("totem", state.totem_holder), ("horse", state.horse_holder)):
        counts = [player.tiles.count(cylinder) for player in state.players]
        if holder is None:
            assert max(counts) == 0
        else:
            assert counts[holder] == max(counts) > 0


def check_hidden(state: State, events: list[Any]) -> None:
    viewers = [*range(state.seats), None]
    for event in events:
        decoded = CODEC.decode_event(CODEC.encode(event))
        assert decoded == event
        for viewer in viewers:
            shown = GAME.redact(event, viewer)
            if isinstance(shown, BagFilled | PileShuffled):
                assert shown.order is None
            elif isinstance(shown, CardsChosen | CardsDrawn):
                assert (shown.cards is None) == (shown.seat != viewer)
            else:
                assert shown == event
    if state.finished:
        assert GAME.view(state, None).bag == state.bag
        return
    for viewer in viewers:
        view = GAME.view(state, viewer)
        msgspec.json.encode(view)
        assert view == GAME.view(scrambled(state, viewer), viewer)
        assert view.bag is None
        for other in view.players:
            if other.seat != viewer:
                assert other.hand is None and other.pile is None and other.chosen is None


def any_command(state: State, seat: int, rng: random.Random) -> Command:
    """A command of any kind with random arguments: legal or not."""
    card = rng.choice(CARD_SET)
    tiles = tuple(rng.choices(TILE_KINDS, k=rng.randint(0, 3)))
    commands: list[Command] = [
        ChooseCards(cards=tuple(rng.sample(CARD_SET, rng.randint(6, 10)))),
        PlayCard(card=card, ground=rng.randint(-1, 3)),
        MoveHunter(card=rng.choice(HUNTERS), ground=rng.randint(0, 2)),
        Pass(),
        TakeTiles(tiles=tiles),
        DiscardTile(tile=rng.choice(TILE_KINDS)),
    ]
    return rng.choice(commands)


def canonical(command: Command) -> Command:
    """The command with its tiles in canonical order: the order a player lists them is free."""
    if isinstance(command, TakeTiles):
        return TakeTiles(tiles=in_canonical_order(command.tiles, TILE_KINDS))
    return command


def try_any_command(table: Table, seat: int, seed: bytes, rng: random.Random) -> list[Played]:
    state = state_of(table)
    command = any_command(state, seat, rng)
    before = (table.state, table.version, table.chance_cursor)
    try:
        played = table.play(seat, command, table.chance_for(seed, GAME_ID))
    except RuleViolation as refusal:
        assert refusal.rule_id.startswith("big-manitou.")
        assert (table.state, table.version, table.chance_cursor) == before
        return []
    if stage(state) is not Stage.CHOOSING:
        assert canonical(command) in GAME.legal_commands(state, seat)
    return played


def watch_plays(before: State, events: list[Any], plays: Counter[int | str]) -> None:
    """Seven cards each per hunt, an eighth only by the Totem holder, none after the thief."""
    for event in events:
        if isinstance(event, HuntBegan):
            plays.clear()
        if isinstance(event, LeatherThiefStruck):
            plays["thief"] = 1
        if isinstance(event, CardPlayed):
            assert not plays["thief"]
            plays[event.seat] += 1
            eighth = event.eighth_card and event.seat == before.totem_holder
            assert plays[event.seat] <= PLAYS_PER_HUNT + eighth


def play_a_game(seats: int, options: Options, seed: bytes, moves: int) -> None:
    rng = random.Random(moves)
    seed = SEED + seed
    table, opening = Table.open(GAME, options, seats, game_id=GAME_ID, seed=seed)
    recorded = list(opening)
    check_hidden(state_of(table), [p.event for p in opening[1:]])
    plays_this_hunt: Counter[int | str] = Counter()
    for _ in range(MAX_COMMANDS):
        state = state_of(table)
        if table.outcome().finished:
            break
        check_invariants(state)
        seat = rng.choice(sorted(table.to_act()))
        if rng.random() < 0.15:
            played = try_any_command(table, seat, seed, rng)
        else:
            command = random_command(state, seat, rng)
            played = table.play(seat, command, table.chance_for(seed, GAME_ID))
        recorded += played
        watch_plays(state, [p.event for p in played], plays_this_hunt)
        check_hidden(state_of(table), [p.event for p in played])
    else:
        raise AssertionError("the game did not end")
    final = state_of(table)
    check_invariants(final)
    assert final.hunt == HUNTS[seats]
    outcome = table.outcome()
    assert outcome.scores is not None and sorted(sum(outcome.ranking, ())) == list(range(seats))
    assert Table.replay(GAME, recorded).state == final


def games(seats: int) -> Any:
    return given(
        options=st.builds(
            Options,
            random_cards=st.booleans(),
            first_dealer=st.none() | st.integers(0, seats - 1),
        ),
        seed=st.binary(min_size=1, max_size=8),
        moves=st.integers(0, 2**32),
    )


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@games(2)
def test_random_two_player_games(options: Options, seed: bytes, moves: int) -> None:
    play_a_game(2, options, seed, moves)


@SETTINGS
@games(3)
def test_random_three_player_games(options: Options, seed: bytes, moves: int) -> None:
    play_a_game(3, options, seed, moves)


@SETTINGS
@games(4)
def test_random_four_player_games(options: Options, seed: bytes, moves: int) -> None:
    play_a_game(4, options, seed, moves)


@SETTINGS
@games(5)
def test_random_five_player_games(options: Options, seed: bytes, moves: int) -> None:
    play_a_game(5, options, seed, moves)
