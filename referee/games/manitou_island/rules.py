"""Deciding a command and listing the legal ones.

A turn is an optional specialty card, then a land card, then the draw. We model it as up to two
commands from the same seat: PlaySpecialty (the stage becomes "specialty-played" and the seat
still acts), then PlayLand, whose events include the draw and, when it applies, the end of the
game and the deal of the next one (match play). A specialty card after which no land card of
the hand could be played is refused (our ruling MI-R3), so a listed specialty card is always
followed by a legal land card.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from referee.games.manitou_island import board as rules_board
from referee.games.manitou_island.board import Board, Placement
from referee.games.manitou_island.commands import Command, PlayLand, PlaySpecialty
from referee.games.manitou_island.data import (
    SPECIALTY_BY_ID,
    Colour,
    Face,
    LandCard,
    SpecialtyCardId,
    is_land_card,
    land_card,
)
from referee.games.manitou_island.deal import opening_events
from referee.games.manitou_island.events import (
    Event,
    GameEnded,
    LandDrawn,
    LandPlayed,
    SpecialtyPlayed,
)
from referee.games.manitou_island.fold import evolve
from referee.games.manitou_island.model import (
    PLAYING,
    SpecialtyCardState,
    State,
    board_map,
    colour_of_seat,
    team_of,
)
from referee.games.manitou_island.options import bounded_board
from referee.games.manitou_island.scoring import game_result, match_over
from referee.kernel.chance import Chance
from referee.kernel.contract import RuleViolation, Seat
from referee.kernel.hexgrid import Hex, HexBoard

SpecialtyOption = tuple[SpecialtyCardId, Face, Hex, tuple[Hex, ...]]  # card, face, space, flooded


def refuse(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"manitou-island.{rule}", message)


def describe(card: LandCard) -> str:
    return f"{card.colour} {card.number}"


def where(at: Hex) -> str:
    return f"({at.q}, {at.r})"


# -- decide --------------------------------------------------------------------------------------


def decide(state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    if state.stage not in PLAYING or seat != state.turn_seat:
        raise refuse("not-your-turn", f"Seat {seat} may not play now.")
    if isinstance(command, PlaySpecialty):
        return [specialty_event(state, seat, command)]
    if isinstance(command, PlayLand):
        return land_events(state, seat, command, chance)
    raise refuse("unknown-command", "Play a specialty card or a land card.")


def land_events(state: State, seat: Seat, command: PlayLand, chance: Chance) -> list[Event]:
    flooded = check_land(state, seat, board_map(state), command)
    played = LandPlayed(seat=seat, card=command.card, at=command.at, flooded=flooded)
    events: list[Event] = [played]
    after = evolve(state, played)
    if state.pile:  # end each turn by drawing a card
        drawn = LandDrawn(seat=seat, card=state.pile[0])
        events.append(drawn)
        after = evolve(after, drawn)
    events.extend(closing_events(after, chance))
    return events


def check_land(state: State, seat: Seat, board: Board, command: PlayLand) -> tuple[Hex, ...]:
    """Refuse a land card the rules do not allow there; else the cards it turns to water."""
    if not is_land_card(command.card) or command.card not in state.hands[seat]:
        raise refuse("card-not-in-hand", f"Land card {command.card} is not in your hand.")
    card, at = land_card(command.card), command.at
    if at in board:
        raise refuse(
            "space-taken",
            f"The space {where(at)} holds a card: land cards may only be played in open spaces.",
        )
    bounds = bounded_board(state.options.borders)
    if bounds is not None and at not in bounds:
        raise refuse("off-the-board", f"The space {where(at)} lies beyond the borders.")
    if not rules_board.touches_land_or_origin(board, at):
        raise refuse(
            "not-touching-land",
            f"A land card must be played along the edge of a land card or the origin; "
            f"{where(at)} touches neither.",
        )
    mismatched = rules_board.mismatched(card, board, at)
    if mismatched:
        other = rules_board.face_up_land(board, mismatched[0])
        assert other is not None
        raise refuse(
            "does-not-match",
            f"A {describe(card)} must match every adjacent land card by colour or number; "
            f"the {describe(other)} at {where(mismatched[0])} matches neither.",
        )
    return rules_board.flooded_by_land(card, board, at)


def specialty_event(state: State, seat: Seat, command: PlaySpecialty) -> SpecialtyPlayed:
    if not state.options.specialty_cards:
        raise refuse("no-specialty-cards", "This game is played without specialty cards.")
    if state.stage == "specialty-played":
        raise refuse("one-specialty-per-turn", "Only one specialty card may be played in a turn.")
    own = _specialty_card(state, seat, command.card)
    if own.played_face is not None:
        raise refuse("specialty-card-used", f"Your {command.card} card has been played already.")
    if command.face not in SPECIALTY_BY_ID[command.card].faces:
        raise refuse("face-not-on-card", f"The {command.card} card has no {command.face} face.")
    board = board_map(state)
    colour = colour_of_seat(state, seat)
    flooded = check_face(state, board, colour, command.face, command.at)
    after = rules_board.with_specialty(board, command.face, command.at, colour, flooded)
    bounds = bounded_board(state.options.borders)
    if not rules_board.has_land_placement(after, bounds, state.hands[seat]):
        raise refuse(
            "specialty-strands-land-card",
            "A specialty card is played before a land card, and after this one "
            "no land card of your hand could be played.",
        )
    return SpecialtyPlayed(
        seat=seat, card=command.card, face=command.face, at=command.at, flooded=flooded
    )


def _specialty_card(state: State, seat: Seat, card: str) -> SpecialtyCardState:
    for own in state.specialty[team_of(seat)]:
        if own.card == card:
            return own
    raise refuse("unknown-specialty-card", f"There is no specialty card {card!r}.")


def check_face(state: State, board: Board, colour: Colour, face: Face, at: Hex) -> tuple[Hex, ...]:
    """Refuse a specialty face the rules do not allow on `at`; else the cards it floods."""
    if face == "whirlpool":
        if at in board:
            raise refuse(
                "whirlpool-needs-open-space", "Whirlpools may only be played in open spaces."
            )
        bounds = bounded_board(state.options.borders)
        if bounds is not None and at not in bounds:
            raise refuse("off-the-board", f"The space {where(at)} lies beyond the borders.")
        if not rules_board.touches_any_card(board, at):
            raise refuse(
                "whirlpool-not-touching",
                f"A whirlpool must touch a card in play; {where(at)} touches none.",
            )
        return rules_board.flooded_by_whirlpool(board, at)
    if face == "lighthouse":
        if not rules_board.is_own_land(board, at, colour):
            raise refuse(
                "lighthouse-needs-own-land",
                f"Lighthouses may only be played on your own ({colour}) face-up land card.",
            )
        return ()
    cell = board.get(at)
    if cell is None or cell.content != "water":
        on_whirlpool = cell is not None and cell.content == "whirlpool"
        raise refuse(
            "bridge-needs-water",
            "Bridges may only be played on water, never on a whirlpool."
            if on_whirlpool
            else f"Bridges may only be played on water; {where(at)} is not water.",
        )
    if not rules_board.touches_own_land(board, at, colour):
        raise refuse(
            "bridge-not-next-to-own-land",
            f"A bridge must touch one of your own ({colour}) land cards; "
            "touching another bridge is not enough.",
        )
    return ()


# -- the end of a turn, of a game, of a match ------------------------------------------------------


def closing_events(after: State, chance: Chance) -> list[Event]:
    """After a land card: the game ends when every land card is played, or when the next seat
    cannot play a card (it forfeits, with its team: MI-6)."""
    if not after.pile and not any(after.hands):
        return end_game_events(after, None, chance)
    if not can_play(after, after.turn_seat):
        return end_game_events(after, after.turn_seat, chance)
    return []


def end_game_events(state: State, forfeited_seat: Seat | None, chance: Chance) -> list[Event]:
    result = game_result(state, forfeited_seat)
    totals = (state.totals[0] + result.scores[0], state.totals[1] + result.scores[1])
    over = match_over(state, totals)
    ended = GameEnded(
        result=result,
        totals=totals,
        match_over=over,
        hands=state.hands,
        pile=state.pile,
        specialty=state.specialty,
    )
    if over:
        return [ended]
    # Match play: the referee deals the next game at once.
    return [ended, *opening_events(state.options, state.seats, state.game + 1, chance)]


def can_play(state: State, seat: Seat) -> bool:
    """Whether `seat` has any legal turn: a land card, or a specialty card then a land card."""
    board = board_map(state)
    bounds = bounded_board(state.options.borders)
    hand = state.hands[seat]
    if rules_board.has_land_placement(board, bounds, hand):
        return True
    return any(
        leaves_land_play(board, bounds, hand, colour_of_seat(state, seat), option, ())
        for option in specialty_options(state, seat, board, bounds)
    )


# -- legal commands --------------------------------------------------------------------------------


def legal_commands(state: State, seat: Seat) -> list[Command]:
    if state.stage not in PLAYING or seat != state.turn_seat:
        return []
    board = board_map(state)
    bounds = bounded_board(state.options.borders)
    hand = state.hands[seat]
    placements = rules_board.land_placements(board, bounds, hand)
    commands: list[Command] = [PlayLand(card=card, at=at) for card, at in placements]
    if state.stage == "start-of-turn":
        colour = colour_of_seat(state, seat)
        commands.extend(
            PlaySpecialty(card=option[0], face=option[1], at=option[2])
            for option in specialty_options(state, seat, board, bounds)
            if leaves_land_play(board, bounds, hand, colour, option, placements)
        )
    return commands


def specialty_options(
    state: State, seat: Seat, board: Board, bounds: HexBoard | None
) -> Iterator[SpecialtyOption]:
    """Every (card, face, space) the placement rules of the face allow, strand check aside."""
    if not state.options.specialty_cards:
        return
    colour = colour_of_seat(state, seat)
    targets: dict[Face, list[tuple[Hex, tuple[Hex, ...]]]] = {}
    for own in state.specialty[team_of(seat)]:
        if own.played_face is not None:
            continue
        for face in SPECIALTY_BY_ID[own.card].faces:
            if face not in targets:
                targets[face] = face_targets(board, bounds, face, colour)
            for at, flooded in targets[face]:
                yield own.card, face, at, flooded


def face_targets(
    board: Board, bounds: HexBoard | None, face: Face, colour: Colour
) -> list[tuple[Hex, tuple[Hex, ...]]]:
    if face == "whirlpool":
        return [
            (at, rules_board.flooded_by_whirlpool(board, at))
            for at in rules_board.whirlpool_spaces(board, bounds)
        ]
    if face == "lighthouse":
        return [(at, ()) for at in rules_board.lighthouse_spaces(board, colour)]
    return [(at, ()) for at in rules_board.bridge_spaces(board, colour)]


def leaves_land_play(
    board: Board,
    bounds: HexBoard | None,
    hand: Sequence[int],
    colour: Colour,
    option: SpecialtyOption,
    placements: Sequence[Placement],
) -> bool:
    """Whether a land card of `hand` can still be played after the specialty `option`."""
    _, face, at, flooded = option
    changed = {at, *flooded}
    touched = changed.union(*(space.neighbours() for space in changed))
    # A placement whose space and neighbours the specialty card leaves alone stays legal.
    if any(space not in touched for _, space in placements):
        return True
    after = rules_board.with_specialty(board, face, at, colour, flooded)
    return rules_board.has_land_placement(after, bounds, hand)
