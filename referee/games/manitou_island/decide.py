"""Deciding a command: refused with a rule id, or the events it causes.

A turn is an optional specialty card, then a land card, then the draw. We model it as up to two
commands from the same seat: PlaySpecialty (the stage becomes "specialty-played" and the seat
still acts), then PlayLand, whose events are the land card and the draw; the end of the game and
the deal of the next one (match play) follow as the referee's own steps (`flow.next_step`). A
specialty card after which no land card of the hand could be played is refused (our ruling
MI-R3), so a listed specialty card is always followed by a legal land card.
"""

from __future__ import annotations

from typing import Never, NoReturn

from referee.games.manitou_island import board as rules_board
from referee.games.manitou_island.board import Board
from referee.games.manitou_island.commands import Command, PlayLand, PlaySpecialty
from referee.games.manitou_island.data import (
    SPECIALTY_BY_ID,
    Colour,
    Face,
    LandCard,
    is_land_card,
    land_card,
)
from referee.games.manitou_island.events import Event, LandDrawn, LandPlayed, SpecialtyPlayed
from referee.games.manitou_island.options import bounded_board
from referee.games.manitou_island.stages import PLAYING
from referee.games.manitou_island.state import (
    SpecialtyCardState,
    State,
    board_map,
    colour_of_seat,
    team_of,
)
from referee.kernel.chance import Chance
from referee.kernel.contract import RuleViolation, Seat
from referee.kernel.hexgrid import Hex


def refuse(rule: str, message: str) -> RuleViolation:
    return RuleViolation(f"manitou-island.{rule}", message)


def describe(card: LandCard) -> str:
    return f"{card.colour} {card.number}"


def where(at: Hex) -> str:
    return f"({at.q}, {at.r})"


def decide(state: State, seat: Seat, command: Command, chance: Chance) -> list[Event]:
    if state.stage not in PLAYING or seat != state.turn_seat:
        raise refuse("not-your-turn", f"Seat {seat} may not play now.")
    match command:
        case PlaySpecialty():
            return [specialty_event(state, seat, command)]
        case PlayLand():
            return land_events(state, seat, command)
        case _:
            _not_a_command(command)


def _not_a_command(command: Never) -> NoReturn:
    """Every Command has its case above (the type checker proves it: `command` is Never here);
    anything else is refused."""
    raise refuse("unknown-command", "Play a specialty card or a land card.")


def land_events(state: State, seat: Seat, command: PlayLand) -> list[Event]:
    """The land card played, then the draw that ends each turn. What the rules alone make
    follow (the end of the game, the next deal) is the referee's step: `flow.next_step`."""
    flooded = check_land(state, seat, board_map(state), command)
    played = LandPlayed(seat=seat, card=command.card, at=command.at, flooded=flooded)
    events: list[Event] = [played]
    if state.pile:  # end each turn by drawing a card
        drawn = LandDrawn(seat=seat, card=state.pile[0])
        events.append(drawn)
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
