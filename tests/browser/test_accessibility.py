"""The pages as everyone meets them: an automated accessibility check (axe-core, from the npm
registry, run in Chromium on each page) with no serious or critical violation; a phone-sized
window with no sideways scroll; and what a player types (a name, an entropy) shown as text in
every other player's page, never run.
"""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.async_api import Browser, Dialog, Page, expect

from tests.browser.axe import violations
from tests.browser.conftest import VIEWPORT
from tests.browser.playing import start_alone
from tests.browser.viewer import PATIENCE_MS, WIDTHS
from tests.servers import Server

PHONE = {"width": 390, "height": 844}
HOSTILE_NAME = '<img src=x onerror="window.ran=1">'
HOSTILE_ENTROPY = "<script>window.ran=1</script>\u202e"


async def test_the_front_page_has_no_serious_accessibility_violation(checked: Page) -> None:
    await checked.goto("/")
    await checked.wait_for_selector("[data-quick]", timeout=PATIENCE_MS)
    await checked.locator("details summary").first.click()
    assert await violations(checked) == []
    # The checker sees what it must: an image with no text for it is a critical finding.
    await checked.evaluate(
        "document.body.append(Object.assign(document.createElement('img'), {src: '/x.svg'}))"
    )
    assert "image-alt" in [found["id"] for found in await violations(checked)]


async def test_a_game_in_play_has_no_serious_accessibility_violation(checked: Page) -> None:
    await start_alone(checked, "coyote")
    await checked.locator('#play [data-turn="yours"]').wait_for(timeout=60_000)
    assert await violations(checked) == []


async def test_a_waiting_table_has_no_serious_accessibility_violation(
    checked: Page, play_server: Server
) -> None:
    async with httpx.AsyncClient(base_url=play_server.url) as api:
        body = {"kind": "tribu", "seats": 2, "open_table": {"creator": {"name": "Ann"}}}
        created = (await api.post("/v1/games", json=body)).json()
    await checked.goto(f"/games/{created['game_id']}")
    await checked.wait_for_selector("#board[data-seq]:not([aria-busy])", timeout=PATIENCE_MS)
    await expect(checked.locator("#sit")).to_be_visible()
    assert await violations(checked) == []


async def test_a_phone_plays_without_sideways_scroll(
    browser: Browser, play_server: Server, screenshots: Path
) -> None:
    context = await browser.new_context(viewport=PHONE, base_url=play_server.url)  # type: ignore[arg-type]
    page = await context.new_page()
    try:
        await page.goto("/")
        await page.wait_for_selector("[data-quick]", timeout=PATIENCE_MS)
        width, viewport, wide = await page.evaluate(WIDTHS)
        assert width <= viewport, wide
        await start_alone(page, "coyote")
        await page.locator('#play [data-turn="yours"]').wait_for(timeout=60_000)
        width, viewport, wide = await page.evaluate(WIDTHS)
        await page.screenshot(path=str(screenshots / "phone-play-coyote.png"), full_page=True)
        assert width <= viewport, wide
    finally:
        await context.close()


async def test_what_a_player_types_is_shown_as_text_in_another_players_page(
    browser: Browser, play_server: Server
) -> None:
    async with httpx.AsyncClient(base_url=play_server.url) as api:
        body = {"kind": "coyote", "seats": 3, "open_table": {"creator": {"name": "Ann"}}}
        created = (await api.post("/v1/games", json=body)).json()
        game_id = created["game_id"]
        sitting = {"name": HOSTILE_NAME, "entropy": HOSTILE_ENTROPY}
        sat = await api.post(f"/v1/games/{game_id}/seats", json=sitting)
        assert sat.status_code == 201, sat.text
    context = await browser.new_context(viewport=VIEWPORT, base_url=play_server.url)  # type: ignore[arg-type]
    page = await context.new_page()
    dialogs: list[str] = []

    async def dismissed(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        await dialog.dismiss()

    page.on("dialog", dismissed)
    try:
        for path in ("/", f"/games/{game_id}"):
            await page.goto(path)
            await page.wait_for_load_state("networkidle")
        await expect(page.locator("#players")).to_contain_text(HOSTILE_NAME)
        assert await page.evaluate("window.ran") is None, "a player's text ran in the page"
        assert await page.locator("#players img, #timeline img, #timeline script").count() == 0
        assert dialogs == []
    finally:
        await context.close()
