"""Every command `decide` would accept now, and whether a seat has any turn at all."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet

from referee.games.manitou_island import board as rules_board
from referee.games.manitou_island.board import Board
from referee.games.manitou_island.commands import Command, PlayLand, PlaySpecialty
from referee.games.manitou_island.data import SPECIALTY_BY_ID, Colour, Face, SpecialtyCardId
from referee.games.manitou_island.options import bounded_board
from referee.games.manitou_island.stages import PLAYING
from referee.games.manitou_island.state import State, board_map, colour_of_seat, team_of
from referee.kernel.contract import Seat
from referee.kernel.hexgrid import Hex, HexBoard

SpecialtyOption = tuple[SpecialtyCardId, Face, Hex, tuple[Hex, ...]]  # card, face, space, flooded


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
        placed = frozenset(at for _, at in placements)
        commands.extend(
            PlaySpecialty(card=option[0], face=option[1], at=option[2])
            for option in specialty_options(state, seat, board, bounds)
            if leaves_land_play(board, bounds, hand, colour, option, placed)
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
    placed: AbstractSet[Hex],
) -> bool:
    """Whether a land card of `hand` can still be played after the specialty `option`;
    `placed`: the spaces a land card of `hand` may be played on now."""
    _, face, at, flooded = option
    changed = {at, *flooded}
    touched = changed.union(*(space.neighbours() for space in changed))
    # A placement whose space and neighbours the specialty card leaves alone stays legal: a
    # subset test, which a set larger than `touched` fails at once (it was a walk over every
    # placement for every option, 10% of the game's legal-commands read).
    if not placed <= touched:
        return True
    after = rules_board.with_specialty(board, face, at, colour, flooded)
    return rules_board.has_land_placement(after, bounds, hand)


def can_play(state: State, seat: Seat) -> bool:
    """Whether `seat` has any legal turn: a land card, or a specialty card then a land card."""
    board = board_map(state)
    bounds = bounded_board(state.options.borders)
    hand = state.hands[seat]
    if rules_board.has_land_placement(board, bounds, hand):
        return True
    return any(
        leaves_land_play(board, bounds, hand, colour_of_seat(state, seat), option, frozenset())
        for option in specialty_options(state, seat, board, bounds)
    )
