"""A person plays in the browser: starts a table from `/`, plays their seat by clicking through
the page against the server's bots to the end, reloads mid-game without losing the seat, and
two people sit at one open table from two browser contexts.

Nothing here talks to the API for the player: every move is a click on the page (a listed
move, or the drawing where it offers one), as a person would make it.
"""

from __future__ import annotations

import asyncio
import base64
import json
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import Browser, Page, Route, expect

from api.verify import cli as verify_cli
from tests.browser.conftest import fresh_page
from tests.browser.playing import (
    first_listed_move,
    join_from_front_page,
    open_a_table,
    play_to_the_end,
    start_alone,
)
from tests.browser.viewer import PATIENCE_MS
from tests.servers import Server


async def test_a_person_plays_coyote_against_three_bots_to_the_end(
    person: Page, screenshots: Path
) -> None:
    await start_alone(person, "coyote")
    await expect(person.locator("#play")).to_be_visible()
    await person.screenshot(path=str(screenshots / "play-coyote-start.png"), full_page=True)
    moves = await play_to_the_end(person)
    assert moves > 0
    await expect(person.locator("#outcome .outcome")).to_contain_text("The game is over")
    await person.screenshot(path=str(screenshots / "play-coyote-end.png"), full_page=True)


async def test_a_refused_move_shows_the_rule_and_changes_nothing(person: Page) -> None:
    await start_alone(person, "coyote")
    await person.locator('#play [data-turn="yours"]').wait_for(timeout=60_000)
    version = await person.locator('[data-fact="events"]').text_content()
    moves = await person.locator("#play .commands button").count()

    # What the page sends is changed on the way, as a stale page or a forged move would be: an
    # out-of-date version (409), then a bid the rules refuse (422). Nothing changes either time.
    async def stale(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        await route.continue_(post_data=json.dumps({**body, "expected_version": 1}))

    await person.route("**/commands", stale)
    await (await first_listed_move(person)).click()
    await expect(person.locator("#play-refusal")).to_contain_text("moved on")
    await person.unroute("**/commands")

    # A challenge with no bid standing, or a bid of 1 where one stands: either is refused.
    bid_stands = await person.locator('#play [data-command-type="coyote.challenge"]').count()
    forged = {"type": "coyote.bid", "number": 1} if bid_stands else {"type": "coyote.challenge"}

    async def illegal(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        await route.continue_(post_data=json.dumps({**body, "command": forged}))

    await person.route("**/commands", illegal)
    await (await first_listed_move(person)).click()
    await expect(person.locator("#play-refusal")).to_contain_text("Refused:")
    await expect(person.locator("#play-refusal")).to_contain_text("rule coyote.")
    await expect(person.locator('[data-fact="events"]')).to_have_text(version or "")
    assert await person.locator("#play .commands button").count() == moves
    assert await person.locator("#play .commands button:disabled").count() == 0


async def test_a_reload_keeps_the_seat_and_the_token_never_enters_the_address(
    person: Page,
) -> None:
    game_id = await start_alone(person, "coyote")
    await expect(person.locator("#viewing")).to_contain_text("Viewing as Ada (seat 0")
    token = await person.evaluate(f"sessionStorage.getItem('referee.seat.{game_id}')")
    assert token and token not in person.url
    await person.reload()
    await person.wait_for_selector("#board[data-seq]:not([aria-busy])", timeout=PATIENCE_MS)
    await expect(person.locator("#viewing")).to_contain_text("Viewing as Ada (seat 0")
    assert token not in person.url
    assert "seat" not in await person.evaluate("document.cookie")


async def test_two_people_sit_at_one_open_table_from_two_browsers(
    browser: Browser, play_server: Server, screenshots: Path
) -> None:
    async with fresh_page(browser, play_server) as ann, fresh_page(browser, play_server) as bob:
        game_id = await open_a_table(ann, "Ann", "wind-river", ["player", "greedy"])
        await expect(ann.locator("#outcome .waiting")).to_contain_text("Waiting for 1 player")

        await join_from_front_page(bob, game_id, "Bob")
        for person, name in ((ann, "Ann"), (bob, "Bob")):
            await expect(person.locator('[data-fact="status"]')).to_have_text(
                "active", timeout=PATIENCE_MS
            )
            await expect(person.locator("#viewing")).to_contain_text(f"Viewing as {name}")
        await ann.screenshot(path=str(screenshots / "play-two-people.png"), full_page=True)


async def test_the_receipts_a_person_is_given_are_kept_and_saved_as_proof(
    person: Page, play_server: Server, tmp_path: Path
) -> None:
    """Every receipt the page is given (the creation, each move) is kept in the browser; "Save
    my receipts" saves them, with one of the game's head, as the file `referee bot` keeps, and
    `referee verify --receipts` holds them against the game's export: they prove its record."""
    game_id = await start_alone(person, "coyote")
    moves = await play_to_the_end(person)
    await expect(person.locator("#save-receipts")).to_be_visible()
    async with person.expect_download() as downloading:
        await person.click("#save-receipts")
    download = await downloading.value
    assert download.suggested_filename == f"receipts-{game_id}-seat0.json"
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    record = json.loads(saved.read_bytes())
    assert (record["game_id"], record["seat"]) == (game_id, 0)
    kinds = [
        json.loads(base64.b64decode(receipt["payload"]))["receipt"]
        for receipt in record["receipts"]
    ]
    assert kinds == ["creation", *["command"] * moves, "head"], kinds
    await expect(person.locator("#viewing")).to_contain_text(f"{moves + 2} receipts saved")

    async with httpx.AsyncClient(base_url=play_server.url) as api:
        bundle = tmp_path / "game.json"
        bundle.write_bytes((await api.get(f"/v1/games/{game_id}/export")).content)
        keys = tmp_path / "keys.json"
        keys.write_bytes((await api.get("/v1/keys")).content)
    status = verify_cli.main([str(bundle), "--keys", str(keys), "--receipts", str(saved)])
    assert status == 0


async def saved_receipts(page: Page, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """What "Save my receipts" saves: the file, and what it holds."""
    await expect(page.locator("#save-receipts")).to_be_visible()
    async with page.expect_download() as downloading:
        await page.click("#save-receipts")
    download = await downloading.value
    saved = tmp_path / download.suggested_filename
    await download.save_as(saved)
    record: dict[str, Any] = json.loads(saved.read_bytes())
    return saved, record


async def test_two_seats_played_from_one_browser_keep_their_own_receipts(
    person: Page, play_server: Server, tmp_path: Path
) -> None:
    """Ann opens a table and Bob joins it from another tab of the same browser (one storage):
    each seat's saved file holds that seat's receipts only (Ann's creation, Bob's sitting, each
    one's moves), and each verifies against the game."""
    ann = person
    game_id = await open_a_table(ann, "Ann", "coyote", ["player", "greedy"])
    bob = await ann.context.new_page()
    await join_from_front_page(bob, game_id, "Bob")
    await asyncio.gather(play_to_the_end(ann), play_to_the_end(bob))

    async with httpx.AsyncClient(base_url=play_server.url) as api:
        bundle = tmp_path / "game.json"
        bundle.write_bytes((await api.get(f"/v1/games/{game_id}/export")).content)
        keys = tmp_path / "keys.json"
        keys.write_bytes((await api.get("/v1/keys")).content)
    for page, seat, first in ((ann, 0, "creation"), (bob, 1, "command")):
        saved, record = await saved_receipts(page, tmp_path)
        assert saved.name == f"receipts-{game_id}-seat{seat}.json"
        statements = [json.loads(base64.b64decode(r["payload"])) for r in record["receipts"]]
        assert statements[0]["receipt"] == first and statements[-1]["receipt"] == "head"
        commands = [s for s in statements[1:-1] if s["receipt"] == "command"]
        assert commands and {s["seat"] for s in commands} == {seat}, statements
        argv = [str(bundle), "--keys", str(keys), "--receipts", str(saved)]
        assert verify_cli.main(argv) == 0
