"""Driving the viewer's pages as a person would: open a game, step to an event, paste a token."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.async_api import Page, expect

from tests.api.helpers import Game, create_game, play_on

PATIENCE_MS = 15_000  # how long a page may take to settle here; never a measured duration

# The page's width and its viewport's, and the first elements that reach past it (to say which).
WIDTHS = """() => {
  const page = document.scrollingElement;
  const wide = [...document.querySelectorAll("body *")]
    .filter((element) => element.getBoundingClientRect().right > page.clientWidth + 0.5)
    .slice(0, 8).map((element) => `${element.tagName}.${element.className}#${element.id}`);
  return [page.scrollWidth, page.clientWidth, wide];
}"""


async def open_game(page: Page, game_id: str, base: str = "") -> None:
    await page.goto(f"{base}/games/{game_id}")
    await page.wait_for_selector("#board[data-seq]:not([aria-busy])", timeout=PATIENCE_MS)


async def table_at(page: Page, seq: int) -> None:
    """Waits until the table shows the state after event `seq`."""
    await page.wait_for_selector(
        f'#board[data-seq="{seq}"]:not([aria-busy])', state="attached", timeout=PATIENCE_MS
    )


async def show(page: Page, seq: int) -> None:
    """Clicks the event in the timeline."""
    await page.click(f"#event-{seq}")
    await table_at(page, seq)


async def view_as(page: Page, token: str, seat: int, shown: str | None = None) -> None:
    """Pastes the token; the page then says it views as the seat (`shown`: as it names it)."""
    await page.fill("#seat-token", token)
    await page.click("#seat-form button[type=submit]")
    await expect(page.locator("#viewing")).to_have_text(
        f"Viewing as {shown or f'Seat {seat}'}.", timeout=PATIENCE_MS
    )
    await page.wait_for_selector(f'#board[data-viewer="{seat}"]', timeout=PATIENCE_MS)


async def state(api: httpx.AsyncClient, game: Game, seq: int, seat: int | None = None) -> Any:
    headers = {} if seat is None else game.auth(seat)
    response = await api.get(f"{game.url}/states/{seq}", headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


# The seat counts the tests play each kind at: teams for Manitou island, more than two elsewhere.
SEATS = {"coyote": 4, "big-manitou": 3, "manitou-island": 4, "wind-river": 3, "tribu": 3}


async def finished_game(api: httpx.AsyncClient, kind: str) -> Game:
    game = await create_game(api, kind=kind, seats=SEATS[kind], seed=f"{len(kind):02x}" * 32)
    assert (await play_on(api, game))["status"] == "finished"
    return game
