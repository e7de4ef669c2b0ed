"""The referee's own steps: dealing a challenge, beginning and ending turns (TR-5's eliminations,
the end of a challenge), skipping a blocked turn, resolving an answered attack, scoring, and the
end of the game. The referee never makes a player's decision for them: every one of them, even
one with a single possibility, may tell others something about a hidden hand or active card."""

from __future__ import annotations

from referee.games.tribu.chains import is_complete, is_lone
from referee.games.tribu.data import (
    CARDS,
    COMPLETE_CHAINS_TO_CLOSE,
    DECK,
    HAND_SIZE,
    MAX_CHALLENGES,
    MAX_REBUILDS,
    QUIET_TURNS_LIMIT,
    WINNING_SPHERES,
    Card,
)
from referee.games.tribu.deck import dioramas_left
from referee.games.tribu.events import (
    AttackResolved,
    ChainEliminated,
    ChallengeDealt,
    Event,
    LeaderRevealed,
    TribuGameEnded,
    TurnSkippedByBlock,
    TurnStarted,
)
from referee.games.tribu.scoring import challenge_scored, ranking, totals
from referee.games.tribu.stages import Stage, stage
from referee.games.tribu.state import EndReason, State
from referee.kernel.chance import Chance
from referee.kernel.contract import Seat
from referee.kernel.piles import shuffled
from referee.kernel.seating import next_seat


def next_step(state: State, chance: Chance) -> list[Event]:
    match stage(state):
        case Stage.DEALING:
            return [next_challenge(state, chance)]
        case Stage.TURN_START:
            return [TurnStarted(seat=state.first_player, turn=1)]
        case Stage.SKIPPING:
            return [TurnSkippedByBlock(seat=state.current)]
        case Stage.NO_MOVE:  # TR-13: as if the Diorama cards had run out
            return [challenge_scored(state, "no-move", None)]
        case Stage.RESOLVING:
            return [resolved(state)]
        case Stage.TURN_OVER:
            return end_of_turn(state)
    return []


def next_challenge(state: State, chance: Chance) -> Event:
    return game_over(state) or deal(state, chance)


def game_over(state: State) -> TribuGameEnded | None:
    """The game ends after the challenge in which someone reaches 100, or after the tenth
    (TR-6, TR-8)."""
    if not state.challenge:
        return None
    scores = totals(state)
    if max(scores) >= WINNING_SPHERES:
        return TribuGameEnded(totals=scores, ranking=ranking(scores), reason="reached-100")
    if state.challenge >= MAX_CHALLENGES:
        return TribuGameEnded(totals=scores, ranking=ranking(scores), reason="ten-challenges")
    return None


def next_first_player(state: State) -> Seat:
    """The drawn first player for the first challenge, then the next seat clockwise (TR-12)."""
    if not state.challenge:
        return state.first_player
    return next_seat(state.first_player, range(state.seats), state.seats)


def deal(state: State, chance: Chance) -> ChallengeDealt:
    """Every card shuffled from the canonical order; five each, one at a time, clockwise from
    the first player (TR-7, TR-12)."""
    first = next_first_player(state)
    order = shuffled(chance, DECK, DECK)
    return ChallengeDealt(
        challenge=state.challenge + 1,
        first_player=first,
        order=order,
        hands=dealt_hands(order, first, state.seats),
        draw_pile_size=len(order) - HAND_SIZE * state.seats,
    )


def dealt_hands(order: tuple[Card, ...], first: Seat, seats: int) -> tuple[tuple[Card, ...], ...]:
    """The k-th card goes to the seat k places after the first player."""
    dealt = HAND_SIZE * seats
    return tuple(order[(seat - first) % seats : dealt : seats] for seat in range(seats))


def resolved(state: State) -> Event:
    """A Steal takes the chain's last card unless any Protezione answers it; a Wolf destroys
    the last vase, a Bison the last two, less what the Protezione saves (TR-4, TR-9, TR-15)."""
    attack = state.attack
    assert attack is not None
    chain = state.chain(attack.seat, attack.chain)
    assert chain is not None
    saved = CARDS[attack.protection].strength if attack.protection is not None else 0
    destroyed: tuple[Card, ...] = ()
    stolen = into = None
    if attack.card == "steal":
        if attack.protection is None:
            stolen, into = chain.dioramas[-1], attack.into
    else:
        count = destroyed_count(state, len(chain.dioramas), CARDS[attack.card].strength, saved)
        destroyed = tuple(reversed(chain.dioramas[len(chain.dioramas) - count :]))
    return AttackResolved(
        seat=attack.attacker,
        card=attack.card,
        target=attack.seat,
        chain=attack.chain,
        destroyed=destroyed,
        stolen=stolen,
        into=into,
    )


def destroyed_count(state: State, vases: int, strength: int, saved: int) -> int:
    """TR-15: the Protezione saves vases the attack would destroy, so a Bison (two) on a chain
    of one vase, answered by Feathers of Strength (one), destroys nothing. Rules version 1 took
    the protection from the Evento's strength instead: that Bison destroyed the vase."""
    if state.rules.protection_saves_destroyed_vases:
        return max(0, min(vases, strength) - saved)
    return min(vases, max(0, strength - saved))


def end_of_turn(state: State) -> list[Event]:
    """TR-5 first: the player's lone Tribù cards left alone since before this turn are
    eliminated, but the leader's character (whose protection is then revealed); then the end of
    the challenge is checked (TR-11); else the next player clockwise begins."""
    seat = state.current
    player = state.players[seat]
    for chain in player.chains:
        if not is_lone(chain) or chain.fresh:
            continue
        if chain.character != player.leader:
            return [
                ChainEliminated(
                    seat=seat,
                    chain=chain.character,
                    active=chain.active,
                    had_active=chain.active is not None,
                )
            ]
        if not player.leader_revealed:
            return [LeaderRevealed(seat=seat, leader=player.leader)]
    reason, closer = challenge_end(state)
    if reason is not None:
        return [challenge_scored(state, reason, closer)]
    following = next_seat(seat, range(state.seats), state.seats)
    return [TurnStarted(seat=following, turn=state.turn + 1)]


def quiet_turns_after(state: State) -> int:
    """Turns in a row without a draw from the draw pile, this one included (TR-R1)."""
    return 0 if state.drew_from_pile else state.quiet_turns + 1


def challenge_end(state: State) -> tuple[EndReason | None, Seat | None]:
    seat = state.current
    complete = sum(is_complete(chain) for chain in state.players[seat].chains)
    if complete >= COMPLETE_CHAINS_TO_CLOSE[state.seats]:
        return "complete-chains", seat
    if not dioramas_left(state):
        return "no-diorama", None
    if state.rebuilds >= MAX_REBUILDS:
        return "rebuilds", None
    if quiet_turns_after(state) >= QUIET_TURNS_LIMIT:
        return "no-progress", None
    return None, None
