"""What a bot may think: a world its seat cannot tell from the real one, and a state's worth.

A seat sees its own hand, active cards and leader, the table, the discard pile's top and the
played Azione cards. `imagine` deals every card it has not seen at random into the others'
hands, the others' active cards, the draw pile and the discard pile under its top, and gives
each unrevealed other leader one of the leader big-cards nobody has shown. `evaluate` scores
each seat as the challenge's scoring would now (spheres on the table, Protected Magical Chains'
bonus) on top of its total.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from referee.games.tribu.data import DECK, LEADERS, Card, Character
from referee.games.tribu.scoring import player_score, ranking, totals
from referee.games.tribu.stages import Phase
from referee.games.tribu.state import RULES_2, Chain, PendingAttack, Player, Rules, State, Step
from referee.games.tribu.views import TribuAttackView, TribuChainView, TribuPlayerView, TribuView
from referee.kernel.bots import ended, lead
from referee.kernel.contract import Seat
from referee.kernel.unseen import deal_unseen

# The phases a seat is ever asked to act in; the referee's own steps never wait for a view.
STEPS: dict[Phase, Step] = {
    "start-of-turn": "choosing",
    "after-draw": "acting",
    "after-swap": "swapped",
    "discarding": "discarding",
    "defence": "defence",
    "over": "over",
}


def imagine(view: TribuView, seat: Seat, rng: random.Random, rules: Rules = RULES_2) -> State:
    """A state with everything `view` shows in place and every unseen card dealt at random,
    under the game's rules version."""
    hands = [player.hand_size if player.hand is None else 0 for player in view.players]
    actives = [_hidden_actives(player) for player in view.players]
    pile = view.draw_pile_size if view.draw_pile is None else 0
    under_top = max(0, view.discard_size - 1)
    *dealt, pile_cards, discard_rest = deal_unseen(
        DECK,
        _seen(view),
        [*(h + a for h, a in zip(hands, actives, strict=True)), pile, under_top],
        rng,
    )
    leaders = _leaders(view, rng)
    players = tuple(
        _player(player, leader, iter(cards), hand_size)
        for player, leader, cards, hand_size in zip(
            view.players, leaders, dealt, hands, strict=True
        )
    )
    return State(
        seats=len(view.players),
        rules=rules,
        step=_step(view.phase),
        challenge=view.challenge,
        first_player=view.first_player,
        current=view.current,
        turn=view.turn,
        draw_pile=view.draw_pile if view.draw_pile is not None else pile_cards,
        discard=(view.discard_top, *discard_rest) if view.discard_top is not None else (),
        # Which cards under the top were discarded is as unseen as the cards: only the top is.
        discarded=int(view.discard_top_takeable),
        played=view.played,
        players=players,
        rebuilds=view.rebuilds,
        attack=_attack(view.attack),
        discards_due=view.discards_due,
        returned=view.returned,
        drew_from_pile=view.drew_from_pile,
        quiet_turns=view.quiet_turns,
        finished=view.finished,
    )


def _step(phase: Phase) -> Step:
    if phase not in STEPS:
        raise ValueError(f"no seat is asked to act in the phase {phase!r}")
    return STEPS[phase]


def _hidden_actives(player: TribuPlayerView) -> int:
    return sum(chain.has_active and chain.active is None for chain in player.chains)


def _seen(view: TribuView) -> list[Card]:
    """Every card of the deck the view shows where it lies."""
    seen: list[Card] = [*view.played, *(view.draw_pile or ())]
    for player in view.players:
        seen += player.hand or ()
        seen += ["block"] if player.blocked else []  # lies beside the chains until the skip
        for chain in player.chains:
            seen += [chain.character, *chain.dioramas]
            seen += [chain.active] if chain.active is not None else []
    seen += [view.discard_top] if view.discard_top is not None else []
    seen += [view.attack.card] if view.attack is not None else []  # between hand and pile
    return seen


def _leaders(view: TribuView, rng: random.Random) -> list[Character]:
    """Each leader shown, and for the others one each of the big-cards nobody has shown."""
    shown = [player.leader for player in view.players]
    unshown = [leader for leader in LEADERS if leader not in shown]
    rng.shuffle(unshown)
    unseen = iter(unshown)
    return [leader if leader is not None else next(unseen) for leader in shown]


def _player(
    player: TribuPlayerView, leader: Character, unseen: Iterator[Card], hand_size: int
) -> Player:
    """`player` as shown, its hidden hand (`hand_size` cards) and active cards from `unseen`."""
    hand = player.hand if player.hand is not None else tuple(next(unseen) for _ in range(hand_size))
    return Player(
        leader=leader,
        leader_revealed=player.leader_revealed,
        hand=hand,
        chains=tuple(_chain(chain, unseen) for chain in player.chains),
        blocked=player.blocked,
        total=player.total,
    )


def _chain(chain: TribuChainView, unseen: Iterator[Card]) -> Chain:
    active = chain.active
    if chain.has_active and active is None:
        active = next(unseen)
    return Chain(
        character=chain.character, dioramas=chain.dioramas, active=active, fresh=chain.fresh
    )


def _attack(attack: TribuAttackView | None) -> PendingAttack | None:
    """The attack waiting for its answer: the view shows all of it."""
    if attack is None:
        return None
    return PendingAttack(
        attacker=attack.attacker,
        card=attack.card,
        seat=attack.seat,
        chain=attack.chain,
        into=attack.into,
    )


def evaluate(state: State, seat: Seat) -> float:
    """Each total with what this challenge would add if it were scored now, the best other's
    subtracted: spheres on the table and the bonus of Protected Magical Chains."""
    if state.finished:
        return ended(ranking(totals(state))[0], seat)
    projected = [
        player_score(state, player, "no-diorama", None).total for player in range(state.seats)
    ]
    return lead(projected, seat)
