"""Random legal games of Tribù for 2, 3 and 4 players, played to the end through the kernel's Table.

At every step the game is checked with code written here from the rule text and the rulings
(TR-1 to TR-12), not with the package's own helpers (only the deck and the characters' vases are
taken from data.py):
- the game ends within the rules' own bound of commands (TR-8);
- the 100 cards are conserved at every state the events pass through (piles, hands, chains,
  active cards, Block cards lying beside chains, the card of a pending attack); no player has
  two chains of one character; every chain's Diorama cards follow its character's vases;
- a turn begins with five cards in every hand (and every hand has the size the turn's step
  gives it);
- nothing hidden leaks: each viewer's view is unchanged when everything that viewer may not see
  (others' hands and active cards, the draw pile, unrevealed leaders) is changed; each redacted
  event carries None exactly where the viewer may not see; only the seat to act has commands;
  once the game is over, everything is shown;
- a replay of the recorded events equals the live table, and every event survives the codec;
- every challenge's count is recomputed from the revealed hands and active cards and the
  chains on the table, as are the totals, the end of the game and its outcome;
- legal == accepted: the listed commands are accepted, and commands listed earlier but not now
  are refused with a `tribu.` rule and change nothing.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.tribu import GAME
from referee.games.tribu.commands import Command
from referee.games.tribu.data import CARD_TYPES, CHARACTERS, DECK, VASES, Card
from referee.games.tribu.events import (
    ActiveSwapped,
    CardActivated,
    CardDrawn,
    ChainEliminated,
    ChallengeDealt,
    ChallengeScored,
    DrawPileRebuilt,
    LeadersDrawn,
    TribePlaced,
    TribuFirstPlayerDrawn,
    TribuGameEnded,
    TurnStarted,
)
from referee.games.tribu.options import Options
from referee.games.tribu.stages import Stage, stage
from referee.games.tribu.state import Chain, Player, State
from referee.kernel import Codec, Played, RuleViolation, Table

# TR-8 and TR-R1 bound a game: ten challenges; in each, at most about 600 draws from the draw pile
# (five rebuilds) with fewer than twenty turns in a row without one. Random games take 1,000 to
# 3,500 commands; this guard is far above them.
MAX_COMMANDS = 50_000
CODEC = Codec(GAME)

# -- the house deck, from the rulings (TR-1), not from data.py ---------------------------------

TRIBES = ("shaman", "warrior", "hunter", "elder", "scout")
VASE_SPHERES = {"statue": 1, "horse": 2, "flag": 1, "drum": 2, "canoe": 3, "bow": 3}
TRIBE_SPHERES = 5
MULTIDIORAMA, MULTIDIORAMA_SPHERES = "multidiorama", 3
TOTEM, TOTEM_SPHERES = "totem", 5
AZIONI = frozenset({"draw-three", "block", "steal"})
NOT_ACTIVATABLE = frozenset({*TRIBES, *AZIONI})
HAND = 5
CLOSING_CHAINS = {2: 4, 3: 4, 4: 3}  # complete chains that close a challenge
WINNING, MAX_CHALLENGES, MAX_REBUILDS, QUIET_TURNS = 100, 10, 5, 20
MAGICAL_BONUS, LEADER_MAGICAL_BONUS = 10, 20


def vase_of(card: str) -> str | None:
    """A coloured Diorama card's vase ("horse-red": "horse")."""
    vase = card.split("-")[0]
    return vase if "-" in card and vase in VASE_SPHERES else None


def colour_of(card: str) -> str | None:
    return card.split("-")[1] if vase_of(card) else None


def is_diorama(card: str) -> bool:
    return vase_of(card) is not None or card in (MULTIDIORAMA, TOTEM)


def spheres(card: str) -> int:
    if card in TRIBES:
        return TRIBE_SPHERES
    if card == MULTIDIORAMA:
        return MULTIDIORAMA_SPHERES
    if card == TOTEM:
        return TOTEM_SPHERES
    vase = vase_of(card)
    return VASE_SPHERES[vase] if vase is not None else 0


def vases_placed(chain: Chain) -> int:
    return sum(card != TOTEM for card in chain.dioramas)


def is_complete(chain: Chain) -> bool:
    return vases_placed(chain) == 3


def is_magical(chain: Chain) -> bool:
    """Protected by a Totem, every coloured vase of one colour (TR-12)."""
    colours = {colour_of(card) for card in chain.dioramas if colour_of(card) is not None}
    return TOTEM in chain.dioramas and len(colours) <= 1


def any_diorama_in_piles(state: State) -> bool:
    return any(is_diorama(card) for card in (*state.draw_pile, *state.discard))


# -- invariants of every state ------------------------------------------------------------------


def all_cards(state: State) -> Counter[str]:
    cards: list[str] = [*state.draw_pile, *state.discard, *state.played]
    for player in state.players:
        cards += player.hand
        for chain in player.chains:
            cards += [chain.character, *chain.dioramas]
            if chain.active is not None:
                cards.append(chain.active)
        if player.blocked:
            cards.append("block")  # the Block card lies beside the player's chains
    if state.attack is not None:
        cards.append(state.attack.card)  # the Wolf, Bison or Steal waiting for the answer
    return Counter(cards)


def check_chain(chain: Chain) -> None:
    """Tribù card, then its character's vases in order (a Multidiorama in place of any, at most
    one), then at most a Totem, only after three vases; never a Tribù or Azione card active."""
    order = VASES[chain.character]
    placed = 0
    for index, card in enumerate(chain.dioramas):
        if card == TOTEM:
            assert placed == 3 and index == len(chain.dioramas) - 1, chain
            continue
        assert placed < 3, chain
        assert card == MULTIDIORAMA or vase_of(card) == order[placed], chain
        placed += 1
    assert chain.dioramas.count(MULTIDIORAMA) <= 1, chain
    assert chain.active is None or chain.active not in NOT_ACTIVATABLE, chain


def expected_hand(state: State, seat: int) -> int:
    """Five cards, but the current player's during the turn: six after the draw (and after a
    swap), five plus the cards still to discard after Take 3."""
    if seat != state.current:
        return HAND
    if state.step in ("acting", "swapped"):
        return HAND + 1
    if state.step == "discarding":
        return HAND + state.discards_due
    return HAND


def check_invariants(state: State) -> None:
    if state.challenge == 0:  # nothing dealt yet
        return
    assert all_cards(state) == Counter(DECK), "a card was lost or made"
    assert set(state.played) <= AZIONI
    assert 0 <= state.rebuilds <= MAX_REBUILDS
    for seat, player in enumerate(state.players):
        characters = [chain.character for chain in player.chains]
        assert len(set(characters)) == len(characters), f"seat {seat} has a double"
        for chain in player.chains:
            check_chain(chain)
        assert len(player.hand) == expected_hand(state, seat), (seat, state.step, player.hand)
    if stage(state) is Stage.START_OF_TURN:  # a turn begins: five cards each
        assert all(len(player.hand) == HAND for player in state.players)
    if state.attack is not None:
        assert state.step == "defence" and state.attack.card in ("wolf", "bison", "steal")


# -- what each viewer sees ----------------------------------------------------------------------


# Card substitutions that change every card: each type to the one `shift` places further.
OTHER: list[dict[Card, Card]] = [
    {card: CARD_TYPES[(index + shift) % len(CARD_TYPES)] for index, card in enumerate(CARD_TYPES)}
    for shift in range(1, len(CARD_TYPES))
]


def scrambled(state: State, viewer: int | None, rng: random.Random) -> State:
    """Every value `viewer` may not see replaced by another of the same shape: the others'
    hands and active cards, the draw pile (its order and its cards), and the leaders neither
    revealed nor the viewer's own."""
    other = OTHER[rng.randrange(len(OTHER))].__getitem__

    def scramble(seat: int, player: Player) -> Player:
        if seat == viewer:
            return player
        chains = tuple(
            msgspec.structs.replace(chain, active=other(chain.active))
            if chain.active is not None
            else chain
            for chain in player.chains
        )
        leader = player.leader
        if not player.leader_revealed:
            leader = rng.choice([c for c in CHARACTERS if c != player.leader])
        return msgspec.structs.replace(
            player, hand=tuple(other(card) for card in player.hand), chains=chains, leader=leader
        )

    return msgspec.structs.replace(
        state,
        draw_pile=tuple(other(card) for card in reversed(state.draw_pile)),
        players=tuple(scramble(seat, player) for seat, player in enumerate(state.players)),
    )


def check_views(state: State, rng: random.Random) -> None:
    to_act = GAME.to_act(state)
    for seat in range(state.seats):
        if seat not in to_act:
            assert not GAME.legal_commands(state, seat), f"seat {seat} may not act now"
    for viewer in [*range(state.seats), None]:
        view = GAME.view(state, viewer)
        msgspec.json.encode(view)
        shown_all = state.finished
        if not shown_all:
            assert view == GAME.view(scrambled(state, viewer, rng), viewer), "a view leaks"
            assert view.draw_pile is None
        else:
            assert view.draw_pile == state.draw_pile
        assert view.draw_pile_size == len(state.draw_pile)
        assert view.discard_size == len(state.discard)
        assert view.discard_top == (state.discard[0] if state.discard else None)
        assert view.played == state.played
        for seat, (seen, player) in enumerate(zip(view.players, state.players, strict=True)):
            own = shown_all or seat == viewer
            assert seen.hand == (player.hand if own else None)
            assert seen.hand_size == len(player.hand)
            leader_shown = own or player.leader_revealed
            assert seen.leader == (player.leader if leader_shown else None)
            assert seen.blocked == player.blocked and seen.total == player.total
            assert len(seen.chains) == len(player.chains)
            for shown, chain in zip(seen.chains, player.chains, strict=True):
                assert (shown.character, shown.dioramas) == (chain.character, chain.dioramas)
                assert shown.has_active == (chain.active is not None)
                assert shown.active == (chain.active if own else None)


def redacted(event: Any, viewer: int | None) -> Any:
    """The event as `viewer` may see it, written from the rules: None in place of another
    player's card drawn from the draw pile, activated, swapped or eliminated face down, of the
    deal's order and the others' hands, of a rebuilt pile's order, and of the others' leaders."""
    replace = msgspec.structs.replace
    match event:
        case LeadersDrawn():
            mine = tuple(leader if s == viewer else None for s, leader in enumerate(event.leaders))
            return replace(event, leaders=mine)
        case ChallengeDealt():
            hands = tuple(hand if s == viewer else None for s, hand in enumerate(event.hands))
            return replace(event, order=None, hands=hands)
        case DrawPileRebuilt():
            return replace(event, order=None)
        case CardDrawn() if event.source == "draw-pile" and event.seat != viewer:
            return replace(event, card=None)
        case CardActivated() if event.seat != viewer:
            return replace(event, card=None)
        case ActiveSwapped() if event.seat != viewer:
            return replace(event, card=None, returned=None)
        case ChainEliminated() if event.seat != viewer:
            return replace(event, active=None)
    return event


def check_events(seats: int, events: Sequence[Any]) -> None:
    for event in events:
        assert CODEC.decode_event(CODEC.encode(event)) == event
        for viewer in [*range(seats), None]:
            shown = GAME.redact(event, viewer)
            assert shown == redacted(event, viewer), f"{viewer} sees {shown}"
            CODEC.encode(shown)


# -- the count of each challenge, from the events -----------------------------------------------


@dataclass
class Tracker:
    """Folds the events one by one, checking every state they pass through, and counts each
    challenge from the events (the chains from the state just before the count)."""

    seats: int
    state: State
    totals: list[int] = field(default_factory=list)
    placed_in_turn: dict[tuple[int, str], int] = field(default_factory=dict)
    challenges: int = 0
    first_player: int = 0
    ended: TribuGameEnded | None = None
    quiet: int = 0  # turns in a row before this one without a draw from the draw pile (TR-R1)
    drew: bool = False  # a card was drawn from the draw pile in this turn

    def follow(self, events: Sequence[Any]) -> None:
        for event in events:
            before = self.state
            self.observe(before, event)
            self.state = GAME.evolve(before, event)
            check_invariants(self.state)

    def observe(self, before: State, event: Any) -> None:
        match event:
            case LeadersDrawn():
                self.totals = [0] * self.seats
                assert len(set(event.leaders)) == self.seats
            case TribuFirstPlayerDrawn():
                self.first_player = event.seat
            case ChallengeDealt():
                if self.challenges:  # the next challenge: nobody has 100, fewer than ten so far
                    assert max(self.totals) < WINNING and self.challenges < MAX_CHALLENGES
                    self.first_player = (self.first_player + 1) % self.seats
                self.challenges += 1
                assert event.challenge == self.challenges
                assert event.first_player == self.first_player
                self.placed_in_turn.clear()
                self.quiet, self.drew = 0, False
            case CardDrawn() if event.source == "draw-pile":
                self.drew = True
            case TribePlaced():
                self.placed_in_turn[event.seat, event.card] = before.turn
            case TurnStarted() if event.turn == 1:
                assert event.seat == self.first_player
            case TurnStarted():
                self.turn_ended(before)
                assert not self.end_reasons(before), "the challenge should have ended"
                self.quiet, self.drew = self.quiet_after(), False
                assert event.seat == (before.current + 1) % self.seats, "clockwise"
                assert event.turn == before.turn + 1
            case ChallengeScored():
                self.turn_ended(before)
                self.scored(before, event)
            case TribuGameEnded():
                assert max(self.totals) >= WINNING or self.challenges == MAX_CHALLENGES
                assert list(event.totals) == self.totals
                self.ended = event

    def turn_ended(self, before: State) -> None:
        """TR-5: at the end of a turn, the player has no Tribù card left alone since an earlier
        turn, but their leader's."""
        player = before.players[before.current]
        for chain in player.chains:
            placed = self.placed_in_turn[before.current, chain.character]
            if not chain.dioramas and placed < before.turn:
                assert chain.character == player.leader, f"{chain} should be eliminated"

    def quiet_after(self) -> int:
        return 0 if self.drew else self.quiet + 1

    def end_reasons(self, state: State) -> list[str]:
        """Why the challenge ends at the end of this turn, if it does: the player to end it has
        the complete chains that close it, no Diorama card is left in the piles, the draw pile
        was rebuilt five times (TR-8), twenty turns in a row drew nothing from it (TR-R1)."""
        complete = sum(is_complete(chain) for chain in state.players[state.current].chains)
        holding = {
            "complete-chains": complete >= CLOSING_CHAINS[state.seats],
            "no-diorama": not any_diorama_in_piles(state),
            "rebuilds": state.rebuilds >= MAX_REBUILDS,
            "no-progress": self.quiet_after() >= QUIET_TURNS,
        }
        return [reason for reason, holds in holding.items() if holds]

    def scored(self, before: State, event: ChallengeScored) -> None:
        assert event.challenge == self.challenges
        reasons = self.end_reasons(before)
        assert event.reason in reasons
        if "complete-chains" in reasons:  # it closes the challenge; the other reasons count alike
            assert event.reason == "complete-chains"
        reason = event.reason
        closer = before.current if reason == "complete-chains" else None
        assert event.closer == closer
        assert len(event.players) == self.seats
        for seat, (count, player) in enumerate(zip(event.players, before.players, strict=True)):
            assert count.seat == seat and count.leader == player.leader
            actives = [chain.active for chain in player.chains if chain.active is not None]
            assert Counter(count.hand) == Counter(player.hand)
            assert Counter(count.actives) == Counter(actives)
            table = sum(
                TRIBE_SPHERES + sum(spheres(card) for card in chain.dioramas)
                for chain in player.chains
            )
            hostile = 0
            if reason == "complete-chains" and seat != closer:
                hostile = sum(spheres(card) for card in (*count.hand, *count.actives))
            bonus = sum(
                LEADER_MAGICAL_BONUS if chain.character == count.leader else MAGICAL_BONUS
                for chain in player.chains
                if is_magical(chain)
            )
            score = table - hostile + bonus
            self.totals[seat] += score
            assert (count.table, count.hostile, count.bonus, count.score, count.total) == (
                table,
                hostile,
                bonus,
                score,
                self.totals[seat],
            ), count


# -- play ---------------------------------------------------------------------------------------


def pick(commands: Sequence[Command], rng: random.Random) -> Command:
    """A kind of command first, then one of that kind, so that rare commands get played."""
    by_kind: dict[type, list[Command]] = defaultdict(list)
    for command in commands:
        by_kind[type(command)].append(command)
    kind = rng.choice(sorted(by_kind, key=lambda cls: cls.__name__))
    return rng.choice(by_kind[kind])


def check_legal_is_accepted(
    table: Table,
    seat: int,
    legal: list[Command],
    earlier: list[Command],
    secret: bytes,
    game_id: str,
    rng: random.Random,
) -> None:
    """A few listed commands are accepted (decided without being applied); a few commands
    listed earlier but not now are refused with a rule of the game and change nothing."""
    state = table.state
    assert isinstance(state, State)
    for command in rng.sample(legal, min(2, len(legal))):
        GAME.decide(state, seat, command, table.chance_for(secret, game_id))
    listed = set(legal)
    for command in rng.sample(earlier, min(4, len(earlier))):
        if command in listed:
            continue
        before = (table.state, table.version, table.chance_cursor)
        with pytest.raises(RuleViolation) as refused:
            table.play(seat, command, table.chance_for(secret, game_id))
        assert refused.value.rule_id.startswith("tribu."), refused.value.rule_id
        assert (table.state, table.version, table.chance_cursor) == before


def play(seats: int, seed: int) -> tuple[Table, list[Played], Tracker]:
    rng, scrambler = random.Random(seed), random.Random(~seed)
    game_id, secret = f"tribu-random-{seed}", seed.to_bytes(8, "big") * 2
    table, played = Table.open(GAME, Options(), seats, game_id=game_id, seed=secret)
    tracker = Tracker(seats, GAME.initial_state(Options(), seats))
    opening = [item.event for item in played[1:]]
    tracker.follow(opening)
    assert tracker.state == table.state
    check_events(seats, opening)
    earlier: list[Command] = []
    seen: set[Command] = set()
    for _ in range(MAX_COMMANDS):
        state = table.state
        assert isinstance(state, State)
        check_views(state, scrambler)
        if table.outcome().finished:
            return table, played, tracker
        to_act = sorted(table.to_act())
        assert to_act, "nobody may act in a game not over"
        seat = rng.choice(to_act)
        legal = list(GAME.legal_commands(state, seat))
        assert legal and len(set(legal)) == len(legal), legal
        check_legal_is_accepted(table, seat, legal, earlier, secret, game_id, rng)
        command = pick(legal, rng)
        for new in legal:
            if new not in seen:
                seen.add(new)
                earlier.append(new)
        new_played = table.play(seat, command, table.chance_for(secret, game_id))
        played += new_played
        events = [item.event for item in new_played]
        tracker.follow(events)
        assert tracker.state == table.state
        check_events(seats, events)
    raise AssertionError(f"not finished after {MAX_COMMANDS} commands")


@pytest.mark.parametrize("seats", [2, 3, 4])
@settings(max_examples=4)
@given(seed=st.integers(0, 2**63 - 1))
def test_random_games(seats: int, seed: int) -> None:
    table, played, tracker = play(seats, seed)
    state = table.state
    assert isinstance(state, State) and state.finished
    assert Table.replay(GAME, played).state == state
    # The outcome: the totals counted from the events; the highest total wins; ranked by total.
    totals = tracker.totals
    assert tracker.ended is not None and list(tracker.ended.totals) == totals
    outcome = table.outcome()
    assert outcome.finished and outcome.scores is not None and list(outcome.scores) == totals
    best = max(totals)
    assert sorted(outcome.winners) == [seat for seat in range(seats) if totals[seat] == best]
    ranking = [
        sorted(seat for seat in range(seats) if totals[seat] == total)
        for total in sorted(set(totals), reverse=True)
    ]
    assert [sorted(place) for place in outcome.ranking] == ranking
    assert list(tracker.ended.ranking) == list(outcome.ranking)
