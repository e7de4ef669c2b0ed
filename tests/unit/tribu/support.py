"""Tribù positions for tests: a State built directly, run by a real Table.

A position names what matters (hands, chains, the piles' tops); every other card of the 100 is
put in the draw pile under the named top cards, in canonical order, so that positions conserve
the deck as real games do. Commands then go through `Table.play`, as the API sends them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from referee.games.tribu import GAME
from referee.games.tribu.commands import Command, Draw, PlaceDiorama
from referee.games.tribu.data import DECK, LEADERS, Card, Character
from referee.games.tribu.events import LeadersDrawn, TribuFirstPlayerDrawn
from referee.games.tribu.flow import next_step
from referee.games.tribu.game import GAME_1
from referee.games.tribu.options import Options
from referee.games.tribu.state import Chain, Player, State, Step
from referee.kernel import NoChance, Played, RuleViolation, Seat, Table
from referee.kernel.flow import advance
from referee.kernel.piles import without
from tests.unit import positions

SEED = b"tribu-test-seed-0123456789"
GAME_ID = "tribu-test"


def new_table(seats: int = 2, seed: bytes = SEED, game_id: str = GAME_ID) -> Table:
    table, _ = Table.open(GAME, Options(), seats, game_id=game_id, seed=seed)
    return table


def act(table: Table, seat: Seat, command: Command) -> list[Any]:
    """Play a command as the API does; the events it caused."""
    played = table.play(seat, command, table.chance_for(SEED, GAME_ID))
    return [item.event for item in played]


def refused(table: Table, seat: Seat, command: Command, rule: str) -> None:
    """The command is refused with `tribu.<rule>` and the table is left as it was."""
    state, version = table.state, table.version
    try:
        act(table, seat, command)
    except RuleViolation as refusal:
        assert refusal.rule_id == f"tribu.{rule}", refusal.rule_id
        assert table.state == state and table.version == version
        return
    raise AssertionError(f"{command} was accepted")


def state_of(table: Table) -> State:
    assert isinstance(table.state, State)
    return table.state


def chain(character: Character, *dioramas: Card, active: Card | None = None) -> Chain:
    """A chain on the table since before its owner's current turn."""
    return Chain(character=character, dioramas=dioramas, active=active, fresh=False)


def position(
    seats: int = 2,
    *,
    hands: Mapping[Seat, Sequence[Card]] | None = None,
    chains: Mapping[Seat, Sequence[Chain]] | None = None,
    draw_top: Sequence[Card] = (),
    discard: Sequence[Card] = (),
    played: Sequence[Card] = (),
    draw_pile: Sequence[Card] | None = None,
    leaders: Sequence[Character] | None = None,
    revealed: Sequence[Seat] = (),
    blocked: Sequence[Seat] = (),
    totals: Sequence[int] | None = None,
    current: Seat = 0,
    step: Step = "choosing",
    challenge: int = 1,
    first_player: Seat = 0,
    turn: int = 2,
    rebuilds: int = 0,
    rest_to: str = "discard",
    rules: str = GAME.version,
) -> Table:
    """A table at the start of `current`'s turn (by default). Hands not named hold five cards
    from the canonical order of what is left. With `draw_pile` given, the draw pile is exactly
    that and the cards left over go to the bottom of the discard pile (or, with
    `rest_to="played"`, out of the way on the played-cards pile: no rebuild can use them).
    `rules`: the rules version played (the newest by default)."""
    leaders = tuple(leaders or LEADERS[:seats])
    hands = dict(hands or {})
    chains = dict(chains or {})
    named = [*draw_top, *discard, *played, *(["block"] * len(blocked))]
    named += [card for hand in hands.values() for card in hand]
    for seat_chains in chains.values():
        for each in seat_chains:
            named += [each.character, *each.dioramas, *([each.active] if each.active else [])]
    rest = list(without(DECK, named))
    for seat in range(seats):
        if seat not in hands:
            hands[seat] = rest[:5]
            del rest[:5]
    if draw_pile is None:
        pile, under = (*draw_top, *rest), ()
    else:
        pile, under = tuple(draw_pile), tuple(without(rest, draw_pile))
    players = tuple(
        Player(
            leader=leaders[seat],
            leader_revealed=seat in revealed,
            hand=tuple(hands[seat]),
            chains=tuple(chains.get(seat, ())),
            blocked=seat in blocked,
            total=totals[seat] if totals else 0,
        )
        for seat in range(seats)
    )
    table = positions.table_from(
        GAME_1 if rules == GAME_1.version else GAME,
        Options(),
        seats,
        [LeadersDrawn(leaders=leaders), TribuFirstPlayerDrawn(seat=first_player)],
        SEED,
    )
    table.state = msgspec.structs.replace(
        state_of(table),
        step=step,
        challenge=challenge,
        first_player=first_player,
        current=current,
        turn=turn,
        draw_pile=pile,
        discard=(*discard, *(under if rest_to == "discard" else ())),
        discarded=len(discard),  # the named discard pile was discarded; what is left, put under
        played=(*played, *(under if rest_to == "played" else ())),
        players=players,
        rebuilds=rebuilds,
    )
    return table


def settle(table: Table, dealing: bool = False) -> list[Any]:
    """The referee's own steps from the table's state, applied; their events. With `dealing`,
    the steps may draw (a new challenge dealt) from the table's chance."""
    chance = table.chance_for(SEED, GAME_ID) if dealing else NoChance()
    events = advance(state_of(table), chance, GAME.evolve, next_step)
    table.advance(Played(event, chance.cursor) for event in events)
    return events


def hand(table: Table, seat: Seat) -> tuple[Card, ...]:
    return state_of(table).players[seat].hand


def chains_of(table: Table, seat: Seat) -> dict[str, tuple[Card, ...]]:
    return {c.character: c.dioramas for c in state_of(table).players[seat].chains}


def legal(table: Table, seat: Seat) -> list[Command]:
    return list(GAME.legal_commands(state_of(table), seat))


def stalled_position(seats: int = 2, rules: str = GAME.version) -> tuple[Table, list[Any]]:
    """The outside audit's position for TR-13: the draw pile empty, the discard pile a Horse
    (discarded) over a Statue (put under it); seat 0 takes the Horse onto its Shaman chain, and
    seat 1 is left with nothing to draw and no active card to use (the other cards are out of
    the way). The table after seat 0's turn, and the events of its last command."""
    table = position(
        seats=seats,
        chains={0: [chain("shaman", "statue-red")]},
        draw_pile=[],
        discard=["horse-blue", "statue-blue"],
        rest_to="played",
        rules=rules,
    )
    table.state = msgspec.structs.replace(state_of(table), discarded=1)  # the Statue: put under
    act(table, 0, Draw(source="discard-pile"))
    return table, act(table, 0, PlaceDiorama(card="horse-blue", chain="shaman"))
