"""What a seat (or a spectator) may see: views of the state and redacted events.

Hidden: every hand but the viewer's own (a teammate's too: teammates may not confer), the order
of the draw pile, and which specialty card a team played (that is, the unused face of each
played card, and the cards still in the team's hand) for everyone outside the team. Once the
game (the match) is over, or between the games of a match, everything is shown.
"""

from __future__ import annotations

from typing import Literal, TypeVar, assert_never

import msgspec

from referee.games.manitou_island.data import (
    SPECIALTY_BY_ID,
    SPECIALTY_SET_OF,
    Colour,
    Face,
    SpecialtyCardId,
    land_card,
)
from referee.games.manitou_island.events import (
    Event,
    FirstPlayerDrawn,
    GameDealt,
    GameEnded,
    LandDrawn,
    LandPlayed,
    SpecialtyPlayed,
)
from referee.games.manitou_island.options import bounded_board
from referee.games.manitou_island.scoring import Island, islands
from referee.games.manitou_island.stages import PLAYING, Stage
from referee.games.manitou_island.state import (
    TEAMS,
    Cell,
    Content,
    GameResult,
    SeatCard,
    State,
    board_map,
    colour_of_team,
    team_of,
    team_seats,
)
from referee.kernel.contract import Seat
from referee.kernel.hexgrid import Hex

EventT = TypeVar("EventT", bound=Event)


class CardView(msgspec.Struct, frozen=True):
    id: int
    colour: Colour
    number: int


class CellView(msgspec.Struct, frozen=True):
    at: Hex
    content: Content
    card: CardView | None  # the land card in the space (face up, water, beneath a specialty)
    colour: Colour | None  # for a specialty card: the colour of the team that played it


class SpecialtyCardView(msgspec.Struct, frozen=True):
    id: SpecialtyCardId
    faces: tuple[Face, Face]
    played_face: Face | None
    at: Hex | None


class TeamView(msgspec.Struct, frozen=True, kw_only=True):
    team: int
    seats: tuple[Seat, ...]
    colour: Colour | None  # None before the first deal
    specialty_set: Literal["sun", "moon"] | None
    specialty_left: int
    specialty_cards: tuple[SpecialtyCardView, ...] | None  # None: hidden from the viewer
    match_total: int


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    seat: Seat
    team: int
    hand_size: int
    hand: tuple[CardView, ...] | None  # None: hidden from the viewer


class BordersView(msgspec.Struct, frozen=True, kw_only=True):
    columns: int
    rows: int
    layout: Literal["odd-r"]  # pointy-top hexes, odd rows shifted right
    spaces: tuple[Hex, ...]  # row by row: offset (column, row) is spaces[row * columns + column]


class View(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="manitou-island.view"):
    viewer: Seat | None
    stage: Stage
    game: int
    turn_seat: Seat | None
    first_seat: Seat | None
    first_player_draws: tuple[tuple[SeatCard, ...], ...]
    origin: Hex
    borders: BordersView | None
    board: tuple[CellView, ...]
    islands: tuple[Island, ...]  # both colours, most populated first
    seats: tuple[SeatView, ...]
    teams: tuple[TeamView, ...]
    pile_size: int
    pile: tuple[CardView, ...] | None  # top first; None: hidden
    match_play: bool
    match_target: int | None
    results: tuple[GameResult, ...]  # the games finished so far


def card_view(card_id: int) -> CardView:
    card = land_card(card_id)
    return CardView(id=card.id, colour=card.colour, number=card.number)


def everything_shown(state: State) -> bool:
    return state.stage in ("over", "dealing")


def view(state: State, seat: Seat | None) -> View:
    shown = everything_shown(state)
    dealt = state.game > 0 and bool(state.hands)
    board = board_map(state)
    island_list: list[Island] = []
    if dealt:
        for colour in ("day", "night"):
            island_list.extend(islands(board, colour))
        island_list.sort(key=lambda island: (-island.population, island.colour, island.cells))
    return View(
        viewer=seat,
        stage=state.stage,
        game=state.game,
        turn_seat=state.turn_seat if state.stage in PLAYING else None,
        first_seat=state.first_seat if dealt else None,
        first_player_draws=state.first_draws,
        origin=state.origin,
        borders=_borders_view(state),
        board=tuple(_cell_view(cell) for cell in state.board),
        islands=tuple(island_list),
        seats=tuple(_seat_view(state, other, seat, shown) for other in range(state.seats)),
        teams=tuple(_team_view(state, team, seat, shown, dealt) for team in TEAMS),
        pile_size=len(state.pile),
        pile=tuple(card_view(card) for card in state.pile) if shown else None,
        match_play=state.options.match_play,
        match_target=state.options.match_target if state.options.match_play else None,
        results=state.results,
    )


def _cell_view(cell: Cell) -> CellView:
    return CellView(
        at=cell.at,
        content=cell.content,
        card=card_view(cell.card) if cell.card is not None else None,
        colour=cell.colour,
    )


def _seat_view(state: State, seat: Seat, viewer: Seat | None, shown: bool) -> SeatView:
    hand = state.hands[seat] if state.hands else ()
    visible = shown or seat == viewer
    return SeatView(
        seat=seat,
        team=team_of(seat),
        hand_size=len(hand),
        hand=tuple(card_view(card) for card in hand) if visible else None,
    )


def _team_view(state: State, team: int, viewer: Seat | None, shown: bool, dealt: bool) -> TeamView:
    cards = state.specialty[team]
    visible = shown or (viewer is not None and team_of(viewer) == team)
    colour = colour_of_team(state, team) if dealt else None
    return TeamView(
        team=team,
        seats=team_seats(team, state.seats),
        colour=colour,
        specialty_set=SPECIALTY_SET_OF[colour] if colour is not None and cards else None,
        specialty_left=sum(1 for card in cards if card.played_face is None),
        specialty_cards=tuple(
            SpecialtyCardView(
                id=card.card,
                faces=SPECIALTY_BY_ID[card.card].faces,
                played_face=card.played_face,
                at=card.at,
            )
            for card in cards
        )
        if visible
        else None,
        match_total=state.totals[team],
    )


def _borders_view(state: State) -> BordersView | None:
    borders = state.options.borders
    bounds = bounded_board(borders)
    if borders is None or bounds is None:
        return None
    return BordersView(
        columns=borders.columns, rows=borders.rows, layout="odd-r", spaces=bounds.cells
    )


def redact(event: EventT, seat: Seat | None) -> EventT:
    """The event as `seat` may see it (the same type back, hidden values None)."""
    match event:
        case GameDealt():
            hands = tuple(hand if index == seat else None for index, hand in enumerate(event.hands))
            return msgspec.structs.replace(event, hands=hands, pile=None)
        case SpecialtyPlayed():
            same_team = seat is not None and team_of(seat) == team_of(event.seat)
            return event if same_team else msgspec.structs.replace(event, card=None)
        case LandDrawn():
            return event if seat == event.seat else msgspec.structs.replace(event, card=None)
        case FirstPlayerDrawn() | LandPlayed() | GameEnded():
            return event
    assert_never(event)
