"""The bots' view of Tribù (bots.py): the worlds a seat imagines, and what a state is worth."""

from __future__ import annotations

import random
from collections import Counter

import msgspec

from referee.games.tribu import GAME
from referee.games.tribu.bots import evaluate, imagine
from referee.games.tribu.data import DECK, Card
from referee.games.tribu.state import State
from referee.kernel.bots import WIN

from .support import chain, position, state_of

HAND: list[Card] = ["wolf", "statue-red", "horse-blue", "block", "feathers-of-strength"]
CHAINS = {
    0: [chain("shaman", "statue-red", active="wolf")],
    1: [chain("hunter", "canoe-red", active="bison"), chain("elder")],
}


def cards_of(world: State) -> Counter[str]:
    """Every card of the deck, wherever the state holds it."""
    cards: list[str] = [*world.draw_pile, *world.discard, *world.played]
    for player in world.players:
        cards += [*player.hand, *(["block"] if player.blocked else [])]
        for each in player.chains:
            cards += [each.character, *each.dioramas, *([each.active] if each.active else [])]
    cards += [world.attack.card] if world.attack is not None else []
    return Counter(cards)


def table_state(**changes: object) -> State:
    table = position(
        hands={0: HAND}, chains=CHAINS, discard=["totem", "bison"], leaders=["shaman", "hunter"]
    )
    return msgspec.structs.replace(state_of(table), **changes)


def test_an_imagined_world_keeps_everything_the_seat_sees_and_holds_the_whole_deck() -> None:
    real = table_state()
    view = GAME.view(real, 0)
    for seed in range(10):
        world = imagine(view, 0, random.Random(seed))
        assert GAME.view(world, 0) == view
        assert world.players[0] == real.players[0]  # its hand, chains, actives and leader
        assert world.discard[0] == "totem" and len(world.discard) == len(real.discard)
        assert cards_of(world) == Counter(DECK) == cards_of(real)


def test_what_the_seat_cannot_see_is_dealt_at_random() -> None:
    view = GAME.view(table_state(), 0)
    worlds = [imagine(view, 0, random.Random(seed)) for seed in range(30)]
    assert len({world.players[1].hand for world in worlds}) > 20
    assert len({world.players[1].chains[0].active for world in worlds}) > 3
    assert len({world.draw_pile for world in worlds}) == len(worlds)
    # The other leader is one nobody has shown: never seat 0's own.
    assert {world.players[1].leader for world in worlds} == {"warrior", "hunter", "elder"}


def test_what_the_seat_cannot_see_changes_nothing_it_imagines() -> None:
    one = table_state()
    hand, pile = one.players[1].hand, one.draw_pile
    swapped_player = msgspec.structs.replace(one.players[1], hand=pile[:5], leader="elder")
    other = msgspec.structs.replace(
        one, players=(one.players[0], swapped_player), draw_pile=(*hand, *pile[5:])
    )
    assert GAME.view(one, 0) == GAME.view(other, 0) and one != other
    assert imagine(GAME.view(one, 0), 0, random.Random(9)) == imagine(
        GAME.view(other, 0), 0, random.Random(9)
    )


def test_spheres_on_the_table_and_magical_chains_are_worth_more_and_a_win_most() -> None:
    real = table_state()
    players = real.players
    longer = chain("shaman", "statue-red", "horse-blue", active="wolf")
    ahead = msgspec.structs.replace(
        real, players=(msgspec.structs.replace(players[0], chains=(longer,)), players[1])
    )
    assert evaluate(ahead, 0) > evaluate(real, 0)
    magical = chain("shaman", "statue-red", "horse-red", "flag-red", "totem")
    protected = msgspec.structs.replace(players[0], chains=(magical,))
    bonus = msgspec.structs.replace(real, players=(protected, players[1]))
    assert evaluate(bonus, 0) > evaluate(ahead, 0)
    behind = msgspec.structs.replace(
        real, players=(players[0], msgspec.structs.replace(players[1], total=50))
    )
    assert evaluate(behind, 0) < evaluate(real, 0)
    won = msgspec.structs.replace(behind, finished=True, step="over")
    assert evaluate(won, 1) == WIN and evaluate(won, 0) == -WIN
