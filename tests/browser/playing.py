"""Playing in the browser as a person: the clicks that start a table and play a whole game
(shared by tests/browser/test_play*.py; their fixtures `play_server` and `person` are in
conftest.py)."""

from __future__ import annotations

from playwright.async_api import Locator, Page, expect

from tests.browser.viewer import PATIENCE_MS

MOST_MOVES = 400  # a person's moves in one game, far above any seen: a guard, not a measure
QUICK = {"coyote": "Coyote against 3 bots"}


async def start_alone(page: Page, kind: str, name: str = "Ada") -> str:
    await page.goto("/")
    await page.fill("#my-name", name)
    await page.click(f'[data-quick="{kind}"]')
    await page.wait_for_url("**/games/*", timeout=PATIENCE_MS)
    await page.wait_for_selector("#board[data-seq]:not([aria-busy])", timeout=PATIENCE_MS)
    return page.url.rsplit("/", 1)[-1]


async def open_a_table(page: Page, name: str, kind: str, others: list[str]) -> str:
    """Open a table from `/` under `name` (seat 0), its other seats as `others` says ("player":
    open to a person, or a bot's strategy); the game's id, once its page is open."""
    await page.goto("/")
    await page.fill("#my-name", name)
    await page.locator("details summary").first.click()
    await page.select_option("#start-kind", kind)
    await page.select_option("#start-seats", str(len(others) + 1))
    for seat, other in enumerate(others, start=1):
        await page.select_option(f'[data-seat="{seat}"]', other)
    await page.click("#start-form button[type=submit]")
    await page.wait_for_url("**/games/*", timeout=PATIENCE_MS)
    return page.url.rsplit("/", 1)[-1]


async def join_from_front_page(page: Page, game_id: str, name: str) -> None:
    """Sit at a waiting table under `name` with the front page's Join button."""
    await page.goto("/")
    await page.fill("#my-name", name)
    await page.locator(f'[data-join="{game_id}"]').click()
    await page.wait_for_url(f"**/games/{game_id}", timeout=PATIENCE_MS)


async def listed_moves(page: Page) -> list[tuple[str, str]]:
    """The moves listed in the play panel: each button's words and command type."""
    buttons = page.locator("#play .commands button")
    texts = await buttons.all_text_contents()
    kinds = await buttons.evaluate_all("(all) => all.map((b) => b.dataset.commandType)")
    return list(zip(texts, kinds, strict=True))


async def first_listed_move(page: Page) -> Locator:
    """The first move of the page's list of every move (unfolded if it is folded)."""
    folded = page.locator("#play details.all-commands:not([open]) > summary")
    if await folded.count():
        await folded.click()
    return page.locator("#play .commands button").first


async def play_to_the_end(page: Page) -> int:
    """Clicks a listed move whenever it is the person's turn, until the game is over."""
    moves = 0
    while moves < MOST_MOVES:
        turn = page.locator('#play [data-turn="yours"], #outcome .outcome')
        await turn.first.wait_for(timeout=60_000)
        if await page.locator("#outcome .outcome").count():
            return moves
        button = await first_listed_move(page)
        version = await page.locator('[data-fact="events"]').text_content()
        await button.click()
        moves += 1
        # The move is in once the game's version moves on (the page follows it live).
        await expect(page.locator('[data-fact="events"]')).not_to_have_text(
            version or "", timeout=PATIENCE_MS
        )
    raise AssertionError(f"the game did not end after {MOST_MOVES} moves of the person's")
