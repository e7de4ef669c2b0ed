"""The referee's own steps: what follows from the rules alone, up to a player's decision.

`next_step` is all the kernel's loop (`referee.kernel.flow`, wired in game.py) needs: the
steps where no player has a choice (a new hunt, the deal, the Leather Thief, the evaluation of
each ground, the end of the hunt and of the game), a pick or a payment that can only be made one
way (BM-R3), a turn nobody can play (BM-R4); `[]` when a player must choose.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.games.big_manitou.booty import counts_of
from referee.games.big_manitou.data import (
    CARD_SET,
    DEALER_CHOOSES,
    FIRST_PLAYER_CHOOSES,
    HAND_SIZE,
    OTHERS_CHOOSE,
    TILES_PER_GROUND,
)
from referee.games.big_manitou.decide import decide
from referee.games.big_manitou.evaluation import hunter_totals, picks, strengths, thief_victims
from referee.games.big_manitou.events import (
    BigManitouGameEnded,
    CardsChosen,
    CardsDrawn,
    EvaluationBegan,
    Event,
    GroundClosed,
    GroundEvaluated,
    HuntBegan,
    HuntEnded,
    LeatherThiefStruck,
    PileShuffled,
    TurnSkipped,
)
from referee.games.big_manitou.heroes import hero_owner
from referee.games.big_manitou.legal import legal_commands
from referee.games.big_manitou.scoring import ranking, victory_points
from referee.games.big_manitou.stages import Stage, stage, to_act
from referee.games.big_manitou.state import State, available
from referee.kernel.chance import Chance
from referee.kernel.piles import draw, in_canonical_order, shuffled
from referee.kernel.seating import next_seat
from referee.kernel.simultaneous import waiting_for


def next_step(state: State, chance: Chance) -> list[Event]:
    current = stage(state)
    if current in AUTOMATIC:
        return AUTOMATIC[current](state, chance)
    if current is Stage.PLAYING:
        return skipped_turn(state)
    if current in FORCED_ON_PUBLIC_INFORMATION:
        return forced_move(state, chance)
    return []


# Booty picks and the thief's tile are chosen among face-up tiles: when only one choice is
# left, making it reveals nothing. A forced card play is still sent by its player, because
# playing it for them would tell everyone what else their hidden hand holds. (A skipped turn
# does tell that the hand holds only Heroes: see BM-R4 in RULES.md.)
FORCED_ON_PUBLIC_INFORMATION = frozenset({Stage.PICKING, Stage.PENALTY})


def forced_move(state: State, chance: Chance) -> list[Event]:
    """Our ruling BM-R3: where a pick or a discard leaves exactly one possibility, the referee
    makes it."""
    for seat in sorted(to_act(state)):
        options = legal_commands(state, seat)
        if len(options) == 1:
            return decide(state, seat, options[0], chance)
    return []


def skipped_turn(state: State) -> list[Event]:
    """Our ruling BM-R4: a player holding no card they may play loses the turn."""
    seat = state.current
    return [] if legal_commands(state, seat) else [TurnSkipped(seat=seat)]


# -- the steps where the rules leave no decision to a player ---------------------------------------


def next_hunt(state: State, chance: Chance) -> list[Event]:
    """The dealer draws the booty from the bag; or, after the last hunt, the final score."""
    if state.hunt == state.hunts:
        return [final_score(state)]
    seats = state.seats
    if state.hunt == 0:
        first = state.options.first_dealer
        dealer = chance.uniform(seats) if first is None else first
    else:
        dealer = next_seat(state.dealer, range(seats), seats)  # the dealer's left-hand neighbour
    grounds = []
    bag = state.bag
    for count in TILES_PER_GROUND[seats]:
        tiles, bag = draw(bag, count)
        grounds.append(tiles)
    first_player = (dealer + 1) % seats
    return [
        HuntBegan(
            hunt=state.hunt + 1,
            dealer=dealer,
            first_player=first_player,
            grounds=tuple(grounds),
            cards_to_choose=tuple(cards_to_choose(seat, dealer, seats) for seat in range(seats)),
        )
    ]


def cards_to_choose(seat: int, dealer: int, seats: int) -> int:
    if seat == dealer:
        return DEALER_CHOOSES
    if seat == (dealer + 1) % seats:
        return FIRST_PLAYER_CHOOSES[seats]
    return OTHERS_CHOOSE


def random_choices(state: State, chance: Chance) -> list[Event]:
    """BM-9: each player's available cards shuffled, the first ones taken, seat by seat."""
    if not state.options.random_cards:
        return []  # the players choose: wait for them
    events: list[Event] = []
    for seat in sorted(waiting_for(state.chosen)):
        drawn, _ = draw(
            shuffled(chance, available(state, seat), CARD_SET), state.cards_to_choose[seat]
        )
        events.append(
            CardsChosen(seat=seat, cards=in_canonical_order(drawn, CARD_SET), at_random=True)
        )
    return events


def deal(state: State, chance: Chance) -> list[Event]:
    """Every player's chosen cards shuffled into a pile, seat by seat, and a hand of three."""
    events: list[Event] = []
    for seat, cards in enumerate(state.chosen):
        pile = shuffled(chance, cards or (), CARD_SET)
        events.append(PileShuffled(seat=seat, order=pile))
        hand, _ = draw(pile, HAND_SIZE)
        events.append(CardsDrawn(seat=seat, count=len(hand), cards=hand))
    return events


def leather_thief(state: State, chance: Chance) -> list[Event]:
    used = strengths(state.grounds, state.seats)
    return [LeatherThiefStruck(strengths=used, victims=thief_victims(used))]


def begin_evaluation(state: State, chance: Chance) -> list[Event]:
    """Tomahawks count as held now: none won in this hunt, none given to the thief (BM-R7)."""
    hoards = [player.tiles for player in state.players]
    return [EvaluationBegan(tomahawk_bonus=tuple(counts_of("tomahawk", hoards)))]


def evaluate_ground(state: State, chance: Chance) -> list[Event]:
    ground = state.grounds[state.evaluating]
    bonus = state.tomahawk_bonus or (0,) * state.seats
    return [
        GroundEvaluated(
            ground=state.evaluating,
            hero=hero_owner(ground),
            hunter_totals=hunter_totals(ground, bonus),
            picks=picks(ground, bonus),
        )
    ]


def close_ground(state: State, chance: Chance) -> list[Event]:
    return [GroundClosed(ground=state.evaluating, removed=state.grounds[state.evaluating].tiles)]


def end_hunt(state: State, chance: Chance) -> list[Event]:
    return [HuntEnded(hunt=state.hunt)]


def final_score(state: State) -> BigManitouGameEnded:
    hoards = [player.tiles for player in state.players]
    points = victory_points(hoards, state.totem_holder, state.horse_holder)
    return BigManitouGameEnded(scores=points, ranking=ranking(points, hoards))


AUTOMATIC: dict[Stage, Callable[[State, Chance], list[Event]]] = {
    Stage.NEXT_HUNT: next_hunt,
    Stage.CHOOSING: random_choices,
    Stage.DEALING: deal,
    Stage.THIEF_STRIKES: leather_thief,
    Stage.EVALUATION_BEGINS: begin_evaluation,
    Stage.GROUND_EVALUATION: evaluate_ground,
    Stage.GROUND_CLOSING: close_ground,
    Stage.HUNT_ENDING: end_hunt,
}
