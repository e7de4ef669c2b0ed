"""Open tables in the viewer: a table waiting for its players, followed live as they sit and
leave until it is full and dealt; a table cancelled unfilled; the players' names wherever a
seat is named; the list of games. Screenshots go to tests/browser/screenshots/."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page, expect

from tests.api.helpers import Game, play_on
from tests.browser.viewer import PATIENCE_MS, WIDTHS, open_game, table_at, view_as
from tests.servers import Server, start_server, stop_server

EXPIRY_SECONDS = 2  # REFEREE_OPEN_TABLE_SECONDS of the server whose tables are left to expire
SWEEP_SECONDS = 0.25  # its sweeper's interval: the expired table is cancelled this soon after


@pytest.fixture(autouse=True)
async def no_console_error(page: Page) -> AsyncIterator[None]:
    """Nothing the page logs as an error, not even a failed request, while a test drives it."""
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    yield
    assert not errors, errors


async def open_table(api: httpx.AsyncClient, seats: int = 3, **table: Any) -> dict[str, Any]:
    body = {"kind": "coyote", "seats": seats, "open_table": {"visibility": "public", **table}}
    response = await api.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    assert created["status"] == "waiting"
    return created


async def sit(api: httpx.AsyncClient, game_id: str, name: str, **fields: Any) -> dict[str, Any]:
    response = await api.post(f"/v1/games/{game_id}/seats", json={"name": name, **fields})
    assert response.status_code == 201, response.text
    seated: dict[str, Any] = response.json()
    return seated


async def seq_of(page: Page, event_type: str, nth: int = 0) -> int:
    item = page.locator(f'#timeline li[data-type="{event_type}"]').nth(nth)
    await expect(item).to_be_attached(timeout=PATIENCE_MS)
    return int(await item.get_attribute("data-seq") or 0)


async def test_a_waiting_table_follows_its_players_live_until_it_is_dealt(
    page: Page, api: httpx.AsyncClient, screenshots: Path
) -> None:
    created = await open_table(api, creator={"name": "Ann"})
    game_id = created["game_id"]
    await open_game(page, game_id)
    waiting = page.locator("#outcome [data-waiting]")
    await expect(waiting.locator("h2")).to_contain_text("Waiting for 2 players (expires at ")
    await expect(waiting).to_contain_text("Seats 1 and 2 are open.")
    await expect(page.locator('[data-fact="status"]')).to_have_text("waiting")
    await expect(page.locator('[data-fact="seating"]')).to_have_text(
        "open: each player holds their own seat token"
    )
    await expect(page.locator('#players [data-player="0"]')).to_have_text("Ann (seat 0)")
    await expect(page.locator('#players [data-player="1"]')).to_have_text("Seat 1: open")
    await expect(page.locator("#board")).to_have_attribute("data-status", "waiting")
    await expect(page.locator('#board [data-seat="0"] h3')).to_contain_text("Ann (seat 0)")
    await expect(page.locator('#board [data-seat="1"] [data-open]')).to_be_visible()
    await expect(page.locator("#table-note")).to_contain_text("nothing is dealt until")
    await expect(page.locator("#timeline")).to_contain_text("The table is opened")
    await expect(page.locator("#timeline")).to_contain_text("Ann takes seat 0.")
    await expect(page.locator("[data-live]")).to_have_text("live", timeout=PATIENCE_MS)
    await page.screenshot(path=screenshots / "open-table-waiting.png", full_page=True)

    # A player sits and gets up again: named when leaving, and the seat is open again.
    dee = await sit(api, game_id, "Dee", seat=2)
    await expect(page.locator('#players [data-player="2"]')).to_have_text(
        "Dee (seat 2)", timeout=PATIENCE_MS
    )
    await expect(waiting.locator("h2")).to_contain_text("Waiting for 1 player (expires at ")
    left = await api.delete(
        f"/v1/games/{game_id}/seats/{dee['seat']}",
        headers={"Authorization": f"Bearer {dee['token']}"},
    )
    assert left.status_code == 200, left.text
    gone = page.locator(f"#event-{await seq_of(page, 'game.seat-left')}")
    await expect(gone).to_contain_text("Dee (seat 2) gets up: the seat is open again.")
    await expect(gone.locator(".who")).to_have_text("by Dee (seat 2)")
    await expect(page.locator('#players [data-player="2"]')).to_have_text("Seat 2: open")
    await expect(waiting.locator("h2")).to_contain_text("Waiting for 2 players")

    # A second player sits: the page says so without being reloaded.
    bob = await sit(api, game_id, "Bob", entropy="bob's lucky dice")
    assert bob["seat"] == 1
    await expect(waiting.locator("h2")).to_contain_text(
        "Waiting for 1 player (expires at ", timeout=PATIENCE_MS
    )
    await expect(waiting).to_contain_text("Seat 2 is open.")
    await expect(page.locator('#players [data-player="1"]')).to_have_text("Bob (seat 1)")
    taken = page.locator(f"#event-{bob['version']}")
    await expect(taken).to_contain_text("Bob takes seat 1, adding “bob's lucky dice”")
    await expect(taken.locator(".who")).to_have_text("by Bob (seat 1)")
    await table_at(page, bob["version"])
    await expect(page.locator('#board [data-seat="1"] h3')).to_contain_text("Bob (seat 1)")
    await expect(page.locator('#board [data-seat="1"] [data-open]')).to_have_count(0)
    await expect(page.locator('#board [data-seat="2"] [data-open]')).to_be_visible()
    await page.screenshot(path=screenshots / "open-table-second-player.png", full_page=True)

    # The last seat is taken: the page turns into the game, dealt, with every seat named.
    cy = await sit(api, game_id, "Cy")
    assert cy["status"] == "active"
    await expect(page.locator('[data-fact="status"]')).to_have_text("active", timeout=PATIENCE_MS)
    await table_at(page, cy["version"])
    await expect(page.locator("#board")).to_have_attribute("data-status", "active")
    await expect(page.locator("#outcome [data-waiting]")).to_have_count(0)
    await expect(page.locator("#board [data-open]")).to_have_count(0)
    first = cy["to_act"][0]
    name = cy["names"][first]
    await expect(page.locator('[data-fact="to act"]')).to_have_text(f"{name} (seat {first})")
    for seat, player in enumerate(["Ann", "Bob", "Cy"]):
        await expect(page.locator(f'#board [data-seat="{seat}"] h3')).to_contain_text(
            f"{player} (seat {seat})"
        )
        await expect(page.locator(f'#players [data-player="{seat}"]')).to_have_text(
            f"{player} (seat {seat})"
        )
    dealt = page.locator('#timeline li[data-type="coyote.card-dealt"]').first
    await expect(dealt).to_contain_text("Ann (seat 0) gets a hidden card on the head")
    await expect(page.locator("#table-note")).to_contain_text("As a spectator sees it")
    await expect(page.locator("[data-live]")).to_have_text("live")
    await page.screenshot(path=screenshots / "open-table-dealt.png", full_page=True)

    # Ann's own token: her view, named as hers.
    await view_as(page, created["seat_tokens"][0]["token"], 0, shown="Ann (seat 0)")
    await expect(page.locator('#board [data-seat="0"] h3')).to_contain_text("Ann (seat 0, you)")
    # Stepping back to an event before the deal shows the table as it was then.
    await page.click(f"#event-{bob['version']}")
    await table_at(page, bob["version"])
    await expect(page.locator("#board")).to_have_attribute("data-status", "waiting")
    await expect(page.locator('#board [data-seat="2"] [data-open]')).to_be_visible()


async def test_a_finished_open_table_names_its_players_in_the_outcome(
    page: Page, api: httpx.AsyncClient, screenshots: Path
) -> None:
    created = await open_table(api, creator={"name": "Ann"})
    game_id = created["game_id"]
    tokens = {0: created["seat_tokens"][0]["token"]}
    for name in ("Bob", "Cy"):
        # Entropy is any text: one that would turn the sentence around it is shown defused.
        seated = await sit(api, game_id, name, entropy=f"{name}\u202eevil")
        tokens[seated["seat"]] = seated["token"]
    game = Game(id=game_id, tokens=tokens, created=created)
    assert (await play_on(api, game))["status"] == "finished"
    detail = (await api.get(game.url)).json()
    names = detail["names"]
    await open_game(page, game_id)
    outcome = page.locator("#outcome")
    (winner,) = detail["outcome"]["winners"]
    await expect(outcome.locator(".won")).to_have_text(f"{names[winner]} (seat {winner}) won.")
    text = await outcome.inner_text()
    assert "Seat " not in text and ") (" not in text, text
    won = page.locator('#timeline li[data-type="coyote.game-won"]')
    await expect(won).to_contain_text(f"{names[winner]} (seat {winner}) wins the game.")
    await expect(page.locator('[data-fact="seating"]')).to_contain_text("open")
    taken = page.locator('#timeline li[data-type="game.seat-taken"]').nth(1)
    await expect(taken).to_contain_text("Bob takes seat 1, adding “Bob\ufffdevil”")
    await page.screenshot(path=screenshots / "open-table-finished.png")


@pytest.fixture
def quick_server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    """A server whose open tables expire within seconds, with its sweeper on to cancel them.
    Its sweeper looks at every game of the shared database, but this test's alone are due."""
    server = start_server(
        database_url,
        tmp_path / "server.log",
        open_table_seconds=EXPIRY_SECONDS,
        sweep_interval_seconds=SWEEP_SECONDS,
        expensive_reads_per_minute=0,
        sse_heartbeat_seconds=0.5,
        shutdown_grace_seconds=2,
    )
    try:
        yield server
    finally:
        stop_server(server)


async def test_a_table_nobody_filled_in_time_is_shown_cancelled(
    page: Page, quick_server: Server, screenshots: Path
) -> None:
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=60) as quick:
        created = await open_table(quick, creator={"name": "Ann"})
        game_id = created["game_id"]
        await sit(quick, game_id, "Bob")
        await open_game(page, game_id, quick_server.url)  # most often while it still waits
        outcome = page.locator("#outcome")
        deadline = EXPIRY_SECONDS + 10 * SWEEP_SECONDS
        await expect(outcome.locator("[data-ending=cancelled] h2")).to_have_text(
            "The table was cancelled: nobody took seat 2 in time.",
            timeout=PATIENCE_MS + int(deadline * 1000),
        )
        assert (await quick.get(f"/v1/games/{game_id}")).json()["status"] == "cancelled"
        await expect(page.locator('[data-fact="status"]')).to_have_text("cancelled")
        text = await outcome.inner_text()
        assert "draw" not in text and "won" not in text, text
        await expect(page.locator("[data-live]")).to_have_text("off: the table was cancelled")
        cancelled = page.locator('#timeline li[data-type="game.table-cancelled"]')
        await expect(cancelled).to_contain_text(
            "The table is cancelled: nobody took seat 2 in time.", timeout=PATIENCE_MS
        )
        await expect(page.locator("#table-note")).to_contain_text("The table was cancelled")
        empty = page.locator('#board [data-seat="2"] [data-open]')
        await expect(empty).to_have_text("nobody sat here")
        await expect(page.locator('#players [data-player="2"]')).to_have_text("Seat 2: nobody came")
        await expect(page.locator("#audit [data-seed]")).not_to_have_attribute("data-seed", "")
        await expect(page.locator("#audit [data-export]")).to_be_visible()
        await page.screenshot(path=screenshots / "open-table-cancelled.png", full_page=True)

        # The front page lists it among the cancelled games, with who sat.
        await page.goto(f"{quick_server.url}/")
        await page.select_option("#filter-status", "cancelled")
        await page.click("#filters button[type=submit]")
        row = page.locator(f'#games tr[data-game="{game_id}"]')
        await expect(row.locator("[data-status-text]")).to_have_text(
            "cancelled", timeout=PATIENCE_MS
        )
        await expect(row.locator("[data-names]")).to_have_text("Ann, Bob")


async def test_the_list_shows_who_waits_at_a_table_and_how_many_seats_are_open(
    page: Page, api: httpx.AsyncClient, screenshots: Path
) -> None:
    four = await open_table(api, seats=4, creator={"name": "Zoë"})
    game_id = (await open_table(api, creator={"name": "Ann"}))["game_id"]
    full = await open_table(api, creator={"name": "Eve"})
    await sit(api, full["game_id"], "Finn")
    await sit(api, full["game_id"], "Gus")
    await page.goto("/")
    await page.select_option("#filter-status", "waiting")
    await page.click("#filters button[type=submit]")
    row = page.locator(f'#games tr[data-game="{game_id}"]')
    await expect(row.locator("[data-status-text]")).to_have_text(
        "waiting for 2 players", timeout=PATIENCE_MS
    )
    await expect(row.locator("[data-names]")).to_have_text("Ann; 2 open")
    other = page.locator(f'#games tr[data-game="{four["game_id"]}"]')
    await expect(other.locator("[data-status-text]")).to_have_text("waiting for 3 players")
    await expect(other.locator("[data-names]")).to_have_text("Zoë; 3 open")
    await expect(page.locator(f'#games tr[data-game="{full["game_id"]}"]')).to_have_count(0)
    await page.screenshot(path=screenshots / "open-tables-list.png", full_page=True)
    await page.select_option("#filter-status", "active")
    await page.click("#filters button[type=submit]")
    dealt = page.locator(f'#games tr[data-game="{full["game_id"]}"]')
    await expect(dealt.locator("[data-names]")).to_have_text("Eve, Finn, Gus", timeout=PATIENCE_MS)
    await expect(dealt.locator("[data-status-text]")).to_have_text("active")


async def test_a_bots_name_keeps_its_brackets_once(page: Page, api: httpx.AsyncClient) -> None:
    body = {
        "kind": "coyote",
        "seats": 3,
        "bots": [{"seat": 1}],
        "open_table": {"creator": {"name": "Ann"}},
    }
    response = await api.post("/v1/games", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    bot = created["names"][1]
    assert bot.endswith(")"), bot
    await open_game(page, created["game_id"])
    shown = f"{bot[:-1]}, seat 1)"
    await expect(page.locator('#players [data-player="1"]')).to_have_text(shown)
    await expect(page.locator('#board [data-seat="1"] h3')).to_contain_text(shown)
    await expect(page.locator("#outcome [data-waiting] h2")).to_contain_text("Waiting for 1 player")


async def test_a_waiting_table_and_the_list_fit_a_phone(
    browser: Browser, viewer_server: Server, api: httpx.AsyncClient, screenshots: Path
) -> None:
    long_name = "Maximiliana Wolkenstein-Oberhausen"  # near the 40 characters a name may have
    created = await open_table(api, seats=5, creator={"name": long_name})
    await sit(api, created["game_id"], "Bob")
    context = await browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=viewer_server.url
    )
    try:
        phone = await context.new_page()
        errors: list[str] = []
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        await open_game(phone, created["game_id"])
        await expect(phone.locator("#outcome [data-waiting]")).to_contain_text("Waiting for 3")
        await phone.screenshot(path=screenshots / "phone-open-table.png", full_page=True)
        widths = await phone.evaluate(WIDTHS)
        assert widths[0] <= widths[1], ("waiting table", widths)
        await phone.goto("/")
        await phone.select_option("#filter-status", "waiting")
        await phone.click("#filters button[type=submit]")
        row = phone.locator(f'#games tr[data-game="{created["game_id"]}"]')
        await expect(row.locator("[data-names]")).to_have_text(
            f"{long_name}, Bob; 3 open", timeout=PATIENCE_MS
        )
        await phone.screenshot(path=screenshots / "phone-open-tables-list.png", full_page=True)
        widths = await phone.evaluate(WIDTHS)
        assert widths[0] <= widths[1], ("front page", widths)
        assert not errors, errors
    finally:
        await context.close()
