"""Scoring a challenge, and the end of the game (TR-6, TR-8): spheres on the table, hostile
spheres in hand and active cards, the bonus of Protected Magical Chains, totals and ranking."""

from __future__ import annotations

from itertools import groupby

from referee.games.tribu.chains import is_magical, spheres_on_table
from referee.games.tribu.data import LEADER_MAGICAL_BONUS, MAGICAL_BONUS, spheres
from referee.games.tribu.events import ChallengeScored, PlayerScore
from referee.games.tribu.state import EndReason, State
from referee.kernel.contract import Outcome, Seat


def player_score(state: State, seat: Seat, reason: EndReason, closer: Seat | None) -> PlayerScore:
    """The closer's hand and active cards are removed; every other player subtracts their
    spheres; when the challenge ends otherwise than by complete chains, nobody subtracts."""
    player = state.players[seat]
    actives = tuple(chain.active for chain in player.chains if chain.active is not None)
    table = sum(spheres_on_table(chain) for chain in player.chains)
    subtracts = reason == "complete-chains" and seat != closer
    hostile = sum(spheres(card) for card in (*player.hand, *actives)) if subtracts else 0
    bonus = sum(
        LEADER_MAGICAL_BONUS if chain.character == player.leader else MAGICAL_BONUS
        for chain in player.chains
        if is_magical(chain)
    )
    score = table - hostile + bonus
    return PlayerScore(
        seat=seat,
        leader=player.leader,
        hand=player.hand,
        actives=actives,
        table=table,
        hostile=hostile,
        bonus=bonus,
        score=score,
        total=player.total + score,
    )


def challenge_scored(state: State, reason: EndReason, closer: Seat | None) -> ChallengeScored:
    return ChallengeScored(
        challenge=state.challenge,
        reason=reason,
        closer=closer,
        players=tuple(player_score(state, seat, reason, closer) for seat in range(state.seats)),
    )


def totals(state: State) -> tuple[int, ...]:
    return tuple(player.total for player in state.players)


def ranking(scores: tuple[int, ...]) -> tuple[tuple[Seat, ...], ...]:
    """Seats by total, highest first; equal totals share a place (TR-6)."""
    seats = sorted(range(len(scores)), key=lambda seat: (-scores[seat], seat))
    return tuple(tuple(group) for _, group in groupby(seats, key=lambda seat: scores[seat]))


def outcome(state: State) -> Outcome:
    if not state.finished:
        return Outcome(finished=False)
    scores = totals(state)
    places = ranking(scores)
    return Outcome(finished=True, winners=places[0], ranking=places, scores=scores)
