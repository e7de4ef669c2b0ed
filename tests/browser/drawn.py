"""What the viewer should draw, computed from the API's JSON, and what it did draw, read back
from the page: cards by zone (`data-zone`, each card's `data-card`, each tile's `data-tile`) and
board places (`data-hex`, `data-space`). The two are compared as plain data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.async_api import Page

HIDDEN = "hidden"
View = dict[str, Any]
Zones = dict[str, list[str]]
Places = dict[str, list[Any]]


def hidden_or(cards: list[str] | None, count: int) -> list[str]:
    return [HIDDEN] * count if cards is None else cards


def pile(cards: list[str] | None, size: int) -> list[str]:
    """A draw pile: face down as one card, or every card once the game is over."""
    if cards is not None:
        return cards
    return [HIDDEN] if size else []


def coyote(view: View) -> Zones:
    def code(card: dict[str, Any] | None) -> str:
        return HIDDEN if card is None else f"{card['kind']}:{card['value']}"

    zones = {
        f"head-{seat['seat']}": [code(card) for card in seat["cards"]] for seat in view["seats"]
    }
    zones["draw-pile"] = pile(
        None if view["draw_pile"] is None else [code(card) for card in view["draw_pile"]],
        view["draw_pile_size"],
    )
    zones["discard"] = [code(card) for card in view["discard"]]
    last = view["last_round"]
    if last is not None:
        for holder, cards in enumerate(last["hands"]):
            if cards:
                zones[f"revealed-{holder}"] = [code(card) for card in cards]
        if last["teepee_card"] is not None:
            zones["teepee-card"] = [code(last["teepee_card"])]
    return zones


def big_manitou(view: View) -> Zones:
    zones: Zones = {}
    for index, ground in enumerate(view["grounds"]):
        zones[f"ground-{index}-booty"] = ground["tiles"]
        zones[f"ground-{index}"] = [placed["card"] for placed in ground["cards"]]
    for player in view["players"]:
        seat = player["seat"]
        zones[f"hand-{seat}"] = hidden_or(player["hand"], player["hand_size"])
        zones[f"pile-{seat}"] = hidden_or(player["pile"], player["pile_size"])
        zones[f"booty-{seat}"] = player["tiles"]
    return zones


def manitou_island(view: View) -> Zones:
    def land(card: dict[str, Any]) -> str:
        return f"{card['colour']}-{card['number']}"

    zones: Zones = {}
    for seat in view["seats"]:
        hand = None if seat["hand"] is None else [land(card) for card in seat["hand"]]
        zones[f"hand-{seat['seat']}"] = hidden_or(hand, seat["hand_size"])
    for team in view["teams"]:
        cards = team["specialty_cards"]
        ids = None if cards is None else [card["id"] for card in cards]
        zones[f"specialty-{team['team']}"] = hidden_or(ids, team["specialty_left"])
    if view["pile"] is not None:
        zones["pile"] = [land(card) for card in view["pile"]]
    return zones


def tribu(view: View) -> Zones:
    zones: Zones = {
        "draw-pile": pile(view["draw_pile"], view["draw_pile_size"]),
        "discard-top": [] if view["discard_top"] is None else [view["discard_top"]],
        "played": view["played"],
    }
    for player in view["players"]:
        seat = player["seat"]
        zones[f"leader-{seat}"] = [player["leader"] or HIDDEN]
        zones[f"hand-{seat}"] = hidden_or(player["hand"], player["hand_size"])
        for chain in player["chains"]:
            name = f"{seat}-{chain['character']}"
            zones[f"chain-{name}"] = [chain["character"], *chain["dioramas"]]
            zones[f"active-{name}"] = [chain["active"] or HIDDEN] if chain["has_active"] else []
    return zones


def no_zones(view: View) -> Zones:
    return {}


ZONES: dict[str, Callable[[View], Zones]] = {
    "coyote": coyote,
    "big-manitou": big_manitou,
    "manitou-island": manitou_island,
    "wind-river": no_zones,
    "tribu": tribu,
}


def places(kind: str, view: View) -> Places:
    """The board's places: Manitou island's hexes, Wind River's spaces."""
    if kind == "manitou-island":
        return {
            f"{cell['at']['q']},{cell['at']['r']}": [
                cell["content"],
                None
                if cell["card"] is None
                else f"{cell['card']['colour']}-{cell['card']['number']}",
            ]
            for cell in view["board"]
        }
    if kind == "wind-river":
        return {
            f"{space['lane']},{space['column']}": [
                str(space["buffalo"]),
                ",".join(map(str, space["teepees"])),
            ]
            for space in view["spaces"]
        }
    return {}


def filled(value: Any, other: Any) -> Any:
    """`value` with what is hidden in it (null) taken from `other`, the same view of another
    seat; the caller's own `viewer` stays."""
    if value is None:
        return other
    if isinstance(value, list) and isinstance(other, list) and len(value) == len(other):
        return [filled(item, other_item) for item, other_item in zip(value, other, strict=True)]
    if isinstance(value, dict) and isinstance(other, dict):
        return {
            key: item if key == "viewer" else filled(item, other.get(key))
            for key, item in value.items()
        }
    return value


def expected(kind: str, state: dict[str, Any]) -> tuple[Zones, Places]:
    """What the page should draw for a `states/{seq}` answer: the caller's view, with every
    hidden value that a seat's view shows once the game is over (`seat_views`)."""
    view = state["view"]
    for seat_view in state.get("seat_views") or []:
        view = filled(view, seat_view)
    return ZONES[kind](view), places(kind, view)


READ_BOARD = """() => {
  const board = document.getElementById("board");
  const zones = {};
  for (const zone of board.querySelectorAll("[data-zone]")) {
    zones[zone.dataset.zone] = [...zone.querySelectorAll("[data-card],[data-tile]")]
      .map((item) => item.dataset.card ?? item.dataset.tile);
  }
  const places = {};
  for (const hex of board.querySelectorAll("[data-hex]")) {
    places[hex.dataset.hex] = [hex.dataset.content, hex.dataset.card ?? null];
  }
  for (const space of board.querySelectorAll("[data-space]")) {
    places[space.dataset.space] = [space.dataset.buffalo, space.dataset.teepees];
  }
  const unnamed = [...board.querySelectorAll("[data-card],[data-tile],[data-hex],[data-space]")]
    .filter((item) => !(item.getAttribute("aria-label") || "").trim()).length;
  return {zones, places, unnamed, drawing: board.querySelector("[data-drawing]")?.dataset.drawing};
}"""


async def drawn(page: Page) -> dict[str, Any]:
    """What the page has drawn: zones, places, the drawing's name, and how many drawn things
    have no text alternative (there should be none)."""
    board: dict[str, Any] = await page.evaluate(READ_BOARD)
    return board
