"""`evolve`: each event applied to the state. No chance and no decisions here.

A replayed stream may come from an untrusted bundle, so an event that could not have happened
is refused (ValueError) rather than folded into a state no game can reach: a player's event is
held to the checks `decide` applies (`guard`), the referee's own to what `flow` computes, and
every card must come from where the event says.
"""

from __future__ import annotations

from collections import Counter
from typing import assert_never

from msgspec.structs import replace

from referee.games.tribu.checks import (
    activate_refusal,
    attack_refusal,
    block_refusal,
    continue_refusal,
    defend_refusal,
    diorama_refusal,
    discard_three_refusal,
    draw_refusal,
    steal_refusal,
    swap_refusal,
    tribe_refusal,
)
from referee.games.tribu.data import DECK, DRAW_THREE, HAND_SIZE, LEADERS, Card, Character, family
from referee.games.tribu.deck import may_draw_from_pile
from referee.games.tribu.events import (
    ActiveSwapped,
    AttackMade,
    AttackResolved,
    BlockPlayed,
    CardActivated,
    CardDiscarded,
    CardDrawn,
    ChainEliminated,
    ChallengeDealt,
    ChallengeScored,
    DefencePassed,
    Defended,
    DioramaPlaced,
    DrawPileRebuilt,
    DrawThreePlayed,
    Event,
    LeaderRevealed,
    LeadersDrawn,
    StealPlayed,
    ThreeDiscarded,
    TribePlaced,
    TribuFirstPlayerDrawn,
    TribuGameEnded,
    TurnSkippedByBlock,
    TurnStarted,
)
from referee.games.tribu.flow import (
    end_of_turn,
    game_over,
    next_first_player,
    quiet_turns_after,
    resolved,
)
from referee.games.tribu.scoring import challenge_scored
from referee.games.tribu.stages import Stage, stage, to_act
from referee.games.tribu.state import (
    Chain,
    PendingAttack,
    Player,
    State,
    with_chain,
    with_player,
)
from referee.kernel.contract import Seat, impossible_if
from referee.kernel.piles import without


def evolve(state: State, event: Event) -> State:
    guard(state, event)
    return apply(state, event)


def apply(state: State, event: Event) -> State:
    match event:
        case LeadersDrawn():
            return _leaders_drawn(state, event)
        case TribuFirstPlayerDrawn():
            return replace(state, first_player=event.seat, step="dealing")
        case ChallengeDealt():
            return _challenge_dealt(state, event)
        case TurnStarted():
            state = _not_fresh(state, event.seat)
            quiet = quiet_turns_after(state) if event.turn > 1 else 0
            return replace(
                state,
                current=event.seat,
                turn=event.turn,
                step="choosing",
                quiet_turns=quiet,
                drew_from_pile=False,
                returned=None,
            )
        case TurnSkippedByBlock():
            state = with_player(state, event.seat, blocked=False)
            return replace(state, played=(*state.played, "block"), step="turn-over")
        case DrawPileRebuilt():
            return _rebuilt(state, event)
        case CardDrawn():
            return _drawn(state, event)
        case CardDiscarded():
            state = _from_hand(state, event.seat, (event.card,))
            pile = (event.card, *state.discard)
            return replace(state, discard=pile, discarded=state.discarded + 1, step="turn-over")
        case TribePlaced():
            state = _from_hand(state, event.seat, (event.card,))
            chains = (*state.players[event.seat].chains, Chain(character=event.card))
            return replace(with_player(state, event.seat, chains=chains), step="turn-over")
        case DioramaPlaced():
            return _diorama_placed(state, event)
        case CardActivated():
            state = _from_hand(state, event.seat, (_shown(event.card),))
            state = _set_active(state, event.seat, event.chain, None, event.card)
            return replace(state, step="turn-over")
        case ActiveSwapped():
            return _swapped(state, event)
        case AttackMade():
            state = _set_active(state, event.seat, event.active, event.card, None)
            attack = PendingAttack(
                attacker=event.seat, card=event.card, seat=event.target, chain=event.chain
            )
            return replace(state, attack=attack, step="defence")
        case DrawThreePlayed():
            state = _from_hand(state, event.seat, ("draw-three",))
            return replace(
                state, played=(*state.played, "draw-three"), step="discarding", discards_due=0
            )
        case ThreeDiscarded():
            state = _from_hand(state, event.seat, event.cards)
            pile = (*reversed(event.cards), *state.discard)  # the last one discarded on top
            discarded = state.discarded + len(event.cards)
            return replace(
                state, discard=pile, discarded=discarded, discards_due=0, step="turn-over"
            )
        case BlockPlayed():
            state = _from_hand(state, event.seat, ("block",))
            return replace(with_player(state, event.target, blocked=True), step="turn-over")
        case StealPlayed():
            state = _from_hand(state, event.seat, ("steal",))
            attack = PendingAttack(
                attacker=event.seat,
                card="steal",
                seat=event.target,
                chain=event.chain,
                into=event.into,
            )
            return replace(state, attack=attack, step="defence")
        case Defended():
            state = _set_active(state, event.seat, event.active, event.card, None)
            attack = _attack(state)
            answered = replace(attack, answered=True, protection=event.card)
            return replace(state, attack=answered, discard=(*state.discard, event.card))
        case DefencePassed():
            return replace(state, attack=replace(_attack(state), answered=True))
        case AttackResolved():
            return _resolved(state, event)
        case ChainEliminated():
            return _eliminated(state, event)
        case LeaderRevealed():
            return with_player(state, event.seat, leader_revealed=True)
        case ChallengeScored():
            players = tuple(
                replace(player, total=score.total, leader_revealed=True)
                for player, score in zip(state.players, event.players, strict=True)
            )
            return replace(state, players=players, step="dealing")
        case TribuGameEnded():
            return replace(state, step="over", finished=True)
    assert_never(event)


def _shown(card: Card | None) -> Card:
    if card is None:
        raise ValueError("a redacted event cannot be folded")
    return card


def _attack(state: State) -> PendingAttack:
    if state.attack is None:
        raise ValueError("no attack is waiting for an answer")
    return state.attack


def _leaders_drawn(state: State, event: LeadersDrawn) -> State:
    leaders = tuple(_shown(leader) for leader in event.leaders)
    if len(leaders) != state.seats or len(set(leaders)) != len(leaders):
        raise ValueError("each player has a different leader")
    return replace(state, players=tuple(Player(leader=leader) for leader in leaders))  # type: ignore[arg-type]


def _challenge_dealt(state: State, event: ChallengeDealt) -> State:
    order = event.order
    if order is None or Counter(order) != Counter(DECK):
        raise ValueError("a challenge deals the whole deck")
    seats = state.seats
    dealt = HAND_SIZE * seats
    # The k-th card goes to the seat k places after the first player (TR-12).
    hands = tuple(
        order[(seat - event.first_player) % seats : dealt : seats] for seat in range(seats)
    )
    if event.hands != hands:
        raise ValueError("the hands are not the deal of the order")
    players = tuple(
        Player(
            leader=player.leader,
            leader_revealed=player.leader_revealed,
            hand=hand,
            total=player.total,
        )
        for player, hand in zip(state.players, hands, strict=True)
    )
    return replace(
        state,
        step="turn-start",
        challenge=event.challenge,
        first_player=event.first_player,
        current=event.first_player,
        turn=0,
        draw_pile=order[dealt:],
        discard=(),
        played=(),
        players=players,
        rebuilds=0,
        attack=None,
        discards_due=0,
        discarded=0,
        rebuilding=False,
        returned=None,
        drew_from_pile=False,
        quiet_turns=0,
    )


def _not_fresh(state: State, seat: Seat) -> State:
    chains = tuple(replace(chain, fresh=False) for chain in state.players[seat].chains)
    return with_player(state, seat, chains=chains)


def _rebuilt(state: State, event: DrawPileRebuilt) -> State:
    order = event.order
    if state.draw_pile or order is None or Counter(order) != Counter(state.discard[1:]):
        raise ValueError("a rebuild shuffles the discard pile but its top into an empty pile")
    return replace(
        state,
        draw_pile=order,
        discard=state.discard[:1],
        discarded=min(state.discarded, 1),
        rebuilds=event.rebuild,
        rebuilding=True,
    )


def _drawn(state: State, event: CardDrawn) -> State:
    card = _shown(event.card)
    pile = state.draw_pile if event.source == "draw-pile" else state.discard
    if not pile or pile[0] != card:
        raise ValueError(f"{card} is not the top of the {event.source}")
    if event.source == "draw-pile":
        state = replace(state, draw_pile=pile[1:], drew_from_pile=True, rebuilding=False)
    else:
        state = replace(state, discard=pile[1:], discarded=state.discarded - 1)
    hand = (*state.players[event.seat].hand, card)
    state = with_player(state, event.seat, hand=hand)
    if state.step == "discarding":
        return replace(state, discards_due=state.discards_due + 1)
    return replace(state, step="acting")


def _from_hand(state: State, seat: Seat, cards: tuple[Card, ...]) -> State:
    return with_player(state, seat, hand=without(state.players[seat].hand, cards))


def _chain_of(state: State, seat: Seat, character: Character) -> Chain:
    chain = state.chain(seat, character)
    if chain is None:
        raise ValueError(f"seat {seat} has no chain of {character}")
    return chain


def _set_active(
    state: State, seat: Seat, character: Character, was: Card | None, now: Card | None
) -> State:
    chain = _chain_of(state, seat, character)
    if chain.active != was:
        raise ValueError(f"the active card beside {character} is not {was}")
    return with_chain(state, seat, character, replace(chain, active=now))


def _diorama_placed(state: State, event: DioramaPlaced) -> State:
    if family(event.card) != "diorama":
        raise ValueError(f"{event.card} is not a Diorama card")
    if event.active is None:
        state = _from_hand(state, event.seat, (event.card,))
    else:
        state = _set_active(state, event.seat, event.active, event.card, None)
    chain = _chain_of(state, event.seat, event.chain)
    placed = replace(chain, dioramas=(*chain.dioramas, event.card))
    return replace(with_chain(state, event.seat, event.chain, placed), step="turn-over")


def _swapped(state: State, event: ActiveSwapped) -> State:
    card, returned = _shown(event.card), _shown(event.returned)
    state = _from_hand(state, event.seat, (card,))
    state = _set_active(state, event.seat, event.chain, returned, card)
    hand = (*state.players[event.seat].hand, returned)
    return replace(with_player(state, event.seat, hand=hand), step="swapped", returned=returned)


def _resolved(state: State, event: AttackResolved) -> State:
    attack = _attack(state)
    target = _chain_of(state, attack.seat, attack.chain)
    taken = event.destroyed or ((event.stolen,) if event.stolen is not None else ())
    kept = target.dioramas[: len(target.dioramas) - len(taken)]
    if tuple(reversed(target.dioramas[len(kept) :])) != taken:
        raise ValueError("an attack takes the last vases of the chain")
    state = with_chain(state, attack.seat, attack.chain, replace(target, dioramas=kept))
    if event.stolen is not None:
        into = attack.into
        if into is None:
            raise ValueError("a stolen card needs a chain to go to")
        chain = _chain_of(state, attack.attacker, into)
        state = with_chain(
            state, attack.attacker, into, replace(chain, dioramas=(*chain.dioramas, event.stolen))
        )
    if attack.card == "steal":
        state = replace(state, played=(*state.played, "steal"))
    else:  # the Evento card goes under the discard pile after the vases it destroyed
        state = replace(state, discard=(*state.discard, *event.destroyed, attack.card))
    return replace(state, attack=None, step="turn-over")


def _eliminated(state: State, event: ChainEliminated) -> State:
    chain = _chain_of(state, event.seat, event.chain)
    if chain.dioramas or chain.active != event.active:
        raise ValueError("only a lone Tribù card is eliminated, with its own active card")
    under = (chain.character, *((chain.active,) if chain.active is not None else ()))
    state = with_chain(state, event.seat, event.chain, None)
    return replace(state, discard=(*state.discard, *under))


# -- what could have happened ---------------------------------------------------------------------

AFTER_A_DRAW = (Stage.AFTER_DRAW, Stage.AFTER_SWAP)


def guard(state: State, event: Event) -> None:
    """Refuse `event` unless the game, as it stands, could have produced it."""
    if state.rebuilding and not (isinstance(event, CardDrawn) and event.source == "draw-pile"):
        raise ValueError("a rebuilt draw pile is rebuilt for a draw, which follows at once")
    match event:
        case LeadersDrawn():
            leaders = set(event.leaders)
            if state.step != "setup" or state.players or not leaders <= set(LEADERS):
                raise ValueError("the leaders are drawn once, from the four big-cards")
        case TribuFirstPlayerDrawn():
            if state.step != "setup" or not state.players or not 0 <= event.seat < state.seats:
                raise ValueError("the first player is drawn once, among the seats")
        case ChallengeDealt():
            if (
                stage(state) is not Stage.DEALING
                or game_over(state) is not None
                or (event.challenge, event.first_player, event.draw_pile_size)
                != (
                    state.challenge + 1,
                    next_first_player(state),
                    len(DECK) - HAND_SIZE * state.seats,
                )
            ):
                raise ValueError("a challenge is dealt in turn, by the next first player")
        case TribuGameEnded():
            if stage(state) is not Stage.DEALING or event != game_over(state):
                raise ValueError("the game ends only as the totals say")
        case ChallengeScored() if stage(state) is Stage.NO_MOVE:
            _expected(event, challenge_scored(state, "no-move", None))
        case TurnStarted() if state.step == "turn-start":
            _expected(event, TurnStarted(seat=state.first_player, turn=1))
        case TurnStarted() | ChainEliminated() | LeaderRevealed() | ChallengeScored():
            if stage(state) is not Stage.TURN_OVER:
                raise ValueError("the referee ends a turn only once it is over")
            _expected(event, *end_of_turn(state))
        case TurnSkippedByBlock():
            if stage(state) is not Stage.SKIPPING:
                raise ValueError("only a blocked player's turn is skipped")
            _expected(event, TurnSkippedByBlock(seat=state.current))
        case AttackResolved():
            if stage(state) is not Stage.RESOLVING:
                raise ValueError("an attack is resolved once answered")
            _expected(event, resolved(state))
        case Defended() | DefencePassed():
            _players_turn(state, event.seat, Stage.DEFENCE)
            if isinstance(event, Defended):
                impossible_if(defend_refusal(state, event.seat, event.active))
        case _:
            _command_guard(state, event)


def _command_guard(state: State, event: Event) -> None:
    """The events of the current player's commands, held to the same checks as `decide`."""
    match event:
        case DrawPileRebuilt():
            _players_turn(state, state.current, Stage.START_OF_TURN, Stage.DISCARDING)
            if (
                event.rebuild != state.rebuilds + 1
                or len(state.discard) < 2
                or event.order is None
                or event.size != len(event.order)
            ):
                raise ValueError("a rebuild takes a discard pile of two cards or more, counted")
        case CardDrawn():
            _players_turn(state, event.seat, Stage.START_OF_TURN, Stage.DISCARDING)
            if stage(state) is Stage.DISCARDING and (
                event.source != "draw-pile" or state.discards_due >= DRAW_THREE
            ):
                raise ValueError("Take 3 takes three cards, from the draw pile only")
            impossible_if(draw_refusal(state, event.source))
        case CardDiscarded():
            _players_turn(state, event.seat, *AFTER_A_DRAW)
        case TribePlaced():
            _players_turn(state, event.seat, *AFTER_A_DRAW)
            impossible_if(tribe_refusal(state, event.seat, event.card))
        case DioramaPlaced():
            if event.active is None:
                _players_turn(state, event.seat, *AFTER_A_DRAW)
                impossible_if(diorama_refusal(state, event.seat, event.card, event.chain))
            else:
                _players_turn(state, event.seat, Stage.START_OF_TURN)
                impossible_if(continue_refusal(state, event.seat, event.active, event.chain))
        case CardActivated():
            _players_turn(state, event.seat, *AFTER_A_DRAW)
            impossible_if(activate_refusal(state, event.seat, _shown(event.card), event.chain))
        case ActiveSwapped():
            _players_turn(state, event.seat, Stage.AFTER_DRAW)
            impossible_if(swap_refusal(state, event.seat, event.chain, _shown(event.card)))
        case AttackMade():
            _players_turn(state, event.seat, Stage.START_OF_TURN)
            impossible_if(
                attack_refusal(state, event.seat, event.active, event.target, event.chain)
            )
        case DrawThreePlayed():
            _players_turn(state, event.seat, *AFTER_A_DRAW)
        case ThreeDiscarded():
            _players_turn(state, event.seat, Stage.DISCARDING)
            if state.discards_due < DRAW_THREE and may_draw_from_pile(state):
                raise ValueError("Take 3 discards once three are drawn, or none is left")
            impossible_if(discard_three_refusal(state, event.seat, event.cards))
        case BlockPlayed():
            _players_turn(state, event.seat, *AFTER_A_DRAW)
            impossible_if(block_refusal(state, event.seat, event.target))
        case StealPlayed():
            _players_turn(state, event.seat, *AFTER_A_DRAW)
            impossible_if(steal_refusal(state, event.seat, event.target, event.chain, event.into))


def _players_turn(state: State, seat: Seat, *stages: Stage) -> None:
    if stage(state) not in stages or seat not in to_act(state):
        raise ValueError(f"seat {seat} cannot act so at the stage {stage(state).value!r}")


def _expected(event: Event, *expected: Event) -> None:
    if not expected or event != expected[0]:
        raise ValueError(f"the referee's step here is not {type(event).__name__}")
