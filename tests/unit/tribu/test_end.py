"""The end of a challenge and of the game (CLOSING OF THE GAME AND SCORES; TR-6, TR-7, TR-8,
TR-R1): complete chains or no Diorama left; the closer's hand and active cards are removed, the
others subtract theirs; Protected Magical Chains score 10 more, 20 with the leader's character;
new challenges until someone reaches 100, or the tenth; a player with no legal decision ends the
challenge (TR-13)."""

from __future__ import annotations

import random

import msgspec
import pytest

from referee.games import REGISTRY
from referee.games.tribu.commands import Discard, Draw, PlaceDiorama
from referee.games.tribu.events import ChallengeDealt, ChallengeScored, PlayerScore, TribuGameEnded
from referee.kernel import NoLegalCommand, Outcome
from referee.kernel.bots import play as play_bot
from referee.kernel.lifecycle import Resign

from .support import GAME_ID, SEED, act, chain, position, stalled_position, state_of

GAME = REGISTRY["tribu"]

# Seat 0 (leader: shaman) completes its fourth chain; seat 1 (leader: warrior) holds a
# Protected Magical scout chain, a hand of 11 spheres and an active Horse of 2.
CLOSER_CHAINS = [
    chain("shaman", "statue-red", "horse-red", "flag-red", "totem"),  # 14, magical, leader: +20
    chain("warrior", "horse-blue", "drum-blue", "bow-red"),  # 12
    chain("hunter", "canoe-red", "bow-red", "horse-red"),  # 13
    chain("elder", "drum-red", "statue-red", active="wolf"),  # 8, +3 with the canoe
]
OTHER_CHAINS = [
    chain("scout", "flag-blue", "canoe-blue", "drum-blue", "totem", active="horse-blue")
]
OTHER_HAND = ["shaman", "totem", "wolf", "block", "statue-blue"]


def closing(totals: tuple[int, int] = (0, 0), challenge: int = 1, seats: int = 2) -> object:
    table = position(
        seats=seats,
        hands={0: ["canoe-blue", "bison", "steal", "draw-three", "block"], 1: OTHER_HAND},
        chains={0: CLOSER_CHAINS, 1: OTHER_CHAINS},
        draw_top=["feathers-of-strength"],
        leaders=["shaman", "warrior", "hunter", "elder"][:seats],
        totals=totals,
        challenge=challenge,
    )
    act(table, 0, Draw())  # type: ignore[arg-type]
    return table


def test_four_complete_chains_close_the_challenge_and_it_is_scored() -> None:
    table = closing()
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))  # type: ignore[arg-type]
    scored = next(e for e in events if isinstance(e, ChallengeScored))
    assert (scored.reason, scored.closer) == ("complete-chains", 0)
    closer, other = scored.players
    assert (closer.table, closer.hostile, closer.bonus, closer.score) == (50, 0, 20, 70)
    assert closer.actives == ("wolf",)  # removed, not counted
    assert other == PlayerScore(
        seat=1,
        leader="warrior",
        hand=tuple(OTHER_HAND),
        actives=("horse-blue",),
        table=16,
        hostile=11 + 2,
        bonus=10,
        score=13,
        total=13,
    )


def test_a_new_challenge_deals_everything_again_and_the_next_seat_begins() -> None:
    table = closing()
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))  # type: ignore[arg-type]
    dealt = next(e for e in events if isinstance(e, ChallengeDealt))
    assert (dealt.challenge, dealt.first_player) == (2, 1)
    state = state_of(table)  # type: ignore[arg-type]
    assert [p.total for p in state.players] == [70, 13]
    assert all(p.chains == () and len(p.hand) == 5 for p in state.players)
    assert [p.leader for p in state.players] == ["shaman", "warrior"]  # leaders stay (TR-7)
    assert all(p.leader_revealed for p in state.players)  # shown at the scoring
    assert state.played == () and state.discard == () and len(state.draw_pile) == 90
    assert table.to_act() == {1}  # type: ignore[attr-defined]


def test_with_four_players_three_complete_chains_close_the_challenge() -> None:
    table = position(
        seats=4,
        hands={0: ["canoe-blue", "bison", "steal", "draw-three", "block"]},
        chains={0: CLOSER_CHAINS[1:]},
    )
    act(table, 0, Draw())
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))
    assert any(isinstance(e, ChallengeScored) and e.closer == 0 for e in events)
    two = position(
        hands={0: ["canoe-blue", "bison", "steal", "draw-three", "block"]},
        chains={0: CLOSER_CHAINS[1:]},
    )
    act(two, 0, Draw())
    events = act(two, 0, PlaceDiorama(card="canoe-blue", chain="elder"))
    assert not any(isinstance(e, ChallengeScored) for e in events)  # two players need four


def test_a_challenge_score_may_be_negative() -> None:
    table = position(
        hands={
            0: ["canoe-blue", "bison", "steal", "draw-three", "block"],
            1: ["scout", "scout", "elder", "hunter", "warrior"],
        },
        chains={0: CLOSER_CHAINS},
    )
    act(table, 0, Draw())
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))
    scored = next(e for e in events if isinstance(e, ChallengeScored))
    assert scored.players[1].score == -25


def test_reaching_a_hundred_ends_the_game_the_highest_total_wins() -> None:
    table = closing(totals=(40, 90))
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))  # type: ignore[arg-type]
    assert events[-1] == TribuGameEnded(
        totals=(110, 103), ranking=((0,), (1,)), reason="reached-100"
    )
    assert GAME.outcome(state_of(table)) == Outcome(  # type: ignore[arg-type]
        finished=True, winners=(0,), ranking=((0,), (1,)), scores=(110, 103)
    )
    assert table.to_act() == frozenset()  # type: ignore[attr-defined]


def test_equal_totals_share_the_win() -> None:
    table = closing(totals=(33, 90))
    act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))  # type: ignore[arg-type]
    assert GAME.outcome(state_of(table)).winners == (0, 1)  # type: ignore[arg-type]


def test_the_game_ends_after_the_tenth_challenge() -> None:
    table = closing(challenge=10)
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))  # type: ignore[arg-type]
    assert events[-1] == TribuGameEnded(
        totals=(70, 13), ranking=((0,), (1,)), reason="ten-challenges"
    )


def test_twenty_turns_without_a_draw_from_the_draw_pile_end_the_challenge() -> None:
    # TR-R1: the loop the rule text allows (take the discarded Diorama, discard it again).
    table = position(hands={0: HAND_OF_FIVE, 1: OTHER_HAND}, discard=["drum-red"])
    quiet = 0
    while True:
        seat = state_of(table).current
        act(table, seat, Draw(source="discard-pile"))
        events = act(table, seat, Discard(card="drum-red"))
        quiet += 1
        scored = [e for e in events if isinstance(e, ChallengeScored)]
        if scored:
            break
        assert quiet < 20
    assert quiet == 20 and scored[0].reason == "no-progress" and scored[0].closer is None
    assert all(player.hostile == 0 for player in scored[0].players)


def test_a_draw_from_the_draw_pile_starts_the_count_again() -> None:
    hand = ["drum-blue", *HAND_OF_FIVE[1:]]
    table = position(hands={0: hand, 1: OTHER_HAND}, discard=["drum-red"])
    table.state = msgspec.structs.replace(state_of(table), quiet_turns=18)
    act(table, 0, Draw())  # from the draw pile
    act(table, 0, Discard(card="drum-blue"))
    assert state_of(table).quiet_turns == 0
    act(table, 1, Draw(source="discard-pile"))
    events = act(table, 1, Discard(card="drum-blue"))
    assert not any(isinstance(e, ChallengeScored) for e in events)
    assert state_of(table).quiet_turns == 1


HAND_OF_FIVE = ["wolf", "bison", "block", "steal", "draw-three"]


def test_complete_chains_close_the_challenge_even_when_the_dioramas_run_out() -> None:
    # TR-R11: both hold at the end of the turn; the player who completed the chains closes it.
    table = position(
        hands={0: ["canoe-blue", "bison", "steal", "draw-three", "block"], 1: OTHER_HAND},
        chains={0: CLOSER_CHAINS},
        draw_pile=["wolf"],
        rest_to="played",
    )
    act(table, 0, Draw())
    events = act(table, 0, PlaceDiorama(card="canoe-blue", chain="elder"))
    scored = next(e for e in events if isinstance(e, ChallengeScored))
    assert (scored.reason, scored.closer) == ("complete-chains", 0)


def test_a_player_with_no_legal_decision_ends_the_challenge() -> None:
    """TR-13: nobody can move, so the challenge ends at once, as if the Diorama cards had run
    out (nobody subtracts), and the next challenge is dealt."""
    table, events = stalled_position()
    scored = next(e for e in events if isinstance(e, ChallengeScored))
    assert (scored.reason, scored.closer) == ("no-move", None)
    assert all(score.hostile == 0 for score in scored.players)
    assert scored.players[0].table == 5 + 1 + 2  # the Shaman, its Statue and its Horse
    assert any(isinstance(e, ChallengeDealt) and e.challenge == 2 for e in events)
    assert table.to_act()
    for seat in table.to_act():
        assert GAME.legal_commands(table.state, seat)


def test_rules_version_1_left_that_player_waiting_forever() -> None:
    """Games recorded under version 1 replay as they were played: there, seat 1 was to act with
    no legal command."""
    table, events = stalled_position(rules="1")
    assert not any(isinstance(e, ChallengeScored) for e in events)
    assert table.to_act() == {1}
    assert table.game.legal_commands(table.state, 1) == []


def test_in_version_1_the_referee_cannot_stand_in_for_that_player_and_says_so() -> None:
    """Version 1's stall at three seats: the referee cannot play for seat 1 if it leaves, so its
    resignation is refused with a clear rule (nothing changes, no exception); the others may
    still leave, and once fewer than two sides are left the game ends."""
    table, _ = stalled_position(seats=3, rules="1")
    assert table.to_act() == {1} and table.game.legal_commands(table.state, 1) == []
    version = table.version
    with pytest.raises(NoLegalCommand) as refused:
        table.play(1, Resign(), table.chance_for(SEED, GAME_ID))
    assert refused.value.rule_id == "kernel.no-legal-command" and "Seat 1" in refused.value.message
    assert table.version == version and not table.departed()
    with pytest.raises(NoLegalCommand):
        play_bot(table.game, "random", table.state, 1, random.Random(1))
    table.play(2, Resign(), table.chance_for(SEED, GAME_ID))
    table.play(0, Resign(), table.chance_for(SEED, GAME_ID))
    assert table.outcome().finished and table.outcome().winners == (1,)
