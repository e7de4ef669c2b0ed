"""What a person found wrong using the viewer (issue 26, item 4), each driven through the real
page against the real server: clocks, a live game's counts and audit, the outcome's words,
seats that left, hex coordinates, a phone's width, and the API documentation page offline."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import httpx
from playwright.async_api import Browser, ConsoleMessage, Page, expect

from tests.api.helpers import create_game, play, play_on
from tests.browser.viewer import PATIENCE_MS, WIDTHS, finished_game, open_game, show, table_at
from tests.servers import Server

TIMED = {"total_seconds": 600, "per_move_seconds": 300}


def clock_text(seconds: float) -> str:
    """As the page writes a clock: minutes and seconds."""
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


async def shown_seconds(page: Page, seat: int) -> int:
    text = await page.locator(f'#board [data-clock="{seat}"] [data-left]').inner_text()
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


async def test_each_seats_clock_is_shown_and_the_running_one_ticks(
    page: Page, api: httpx.AsyncClient
) -> None:
    game = await create_game(api, kind="big-manitou", seats=2, time_control=TIMED)
    await play_on(api, game, commands=1)
    detail = (await api.get(game.url)).json()
    await open_game(page, game.id)
    for clock in detail["clocks"]:
        shown = page.locator(f'#board [data-clock="{clock["seat"]}"]')
        await expect(shown).to_have_attribute("data-running", str(clock["running"]).lower())
        if clock["running"]:
            deadline = datetime.fromisoformat(clock["deadline"])
            left = (deadline - datetime.now(UTC)).total_seconds()
            assert abs(await shown_seconds(page, clock["seat"]) - left) <= 2
            await expect(shown).to_contain_text("running")
        else:
            await expect(shown.locator("[data-left]")).to_have_text(
                clock_text(clock["remaining_seconds"])
            )
    running = next(clock["seat"] for clock in detail["clocks"] if clock["running"])
    before = await shown_seconds(page, running)
    await page.wait_for_timeout(2200)
    assert await shown_seconds(page, running) < before, "a running clock counts down"


async def test_the_heading_follows_a_live_game_while_an_old_event_is_shown(
    page: Page, api: httpx.AsyncClient
) -> None:
    game = await create_game(api, kind="coyote", seats=3, seed="61" * 32)
    await open_game(page, game.id)
    await expect(page.locator("[data-live]")).to_have_text("live", timeout=PATIENCE_MS)
    await show(page, 2)
    version = (await play_on(api, game, commands=3))["version"]
    await expect(page.locator("#table-heading")).to_have_text(
        f"The table after event 2 of {version}", timeout=PATIENCE_MS
    )
    await expect(page.locator('[data-fact="events"]')).to_have_text(str(version))
    await page.click(f"#event-{version}")
    await table_at(page, version)
    await expect(page.locator("#table-heading")).to_have_text(
        f"The table after event {version} of {version}"
    )


async def test_the_audit_of_a_live_game_says_its_version_and_follows_the_game(
    page: Page, api: httpx.AsyncClient
) -> None:
    game = await create_game(api, kind="coyote", seats=3, seed="62" * 32)
    await open_game(page, game.id)
    start = (await api.get(game.url)).json()["version"]
    audited = page.locator("#audit [data-audit-version]")
    await expect(audited).to_have_attribute("data-audit-version", str(start), timeout=PATIENCE_MS)
    await expect(audited).to_contain_text(f"event {start}")
    version = (await play_on(api, game, commands=2))["version"]
    await expect(audited).to_have_attribute("data-audit-version", str(version), timeout=PATIENCE_MS)
    await expect(audited).to_contain_text(f"event {version}")


async def test_the_outcome_reads_as_separate_words(page: Page, api: httpx.AsyncClient) -> None:
    game = await finished_game(api, "big-manitou")
    await open_game(page, game.id)
    outcome = page.locator("#outcome")
    for text in (await outcome.inner_text(), await outcome.text_content() or ""):
        assert "Scores:" in text
        assert not re.search(r"[0-9a-z.)][A-Z]", text), text  # "23Scores:"


async def test_a_shared_win_and_a_seat_that_resigned_are_said_in_words(
    page: Page, api: httpx.AsyncClient
) -> None:
    game = await create_game(api, kind="manitou-island", seats=4, seed="63" * 32)
    answer = await play(api, game, 0, {"type": "game.resign"})
    assert answer.status_code == 200, answer.text
    detail = (await api.get(game.url)).json()
    assert detail["status"] == "finished" and len(detail["outcome"]["winners"]) == 2
    assert detail["left"] == [{"seat": 0, "how": "resignation"}]
    await open_game(page, game.id)
    outcome = page.locator("#outcome")
    one, other = detail["outcome"]["winners"]
    await expect(outcome).to_contain_text(f"Seat {one} and Seat {other} share the win")
    await expect(outcome).to_contain_text("Seat 0 resigned")
    gone = page.locator('#board [data-seat="0"] [data-gone]')
    await expect(gone).to_have_text("resigned")
    await expect(page.locator('#board [data-seat="1"] [data-gone]')).to_have_count(0)


async def test_hexes_are_labelled_with_their_coordinates(
    page: Page, api: httpx.AsyncClient
) -> None:
    game = await create_game(api, kind="manitou-island", seats=2, seed="64" * 32)
    await play_on(api, game, commands=4)
    await open_game(page, game.id)
    hexes = page.locator("#board [data-hex]")
    assert await hexes.count() > 0
    for index in range(await hexes.count()):
        place = await hexes.nth(index).get_attribute("data-hex")
        assert place is not None
        q, r = place.split(",")
        await expect(hexes.nth(index).locator("[data-coordinates]")).to_have_text(f"{q},{r}")


async def test_a_phone_does_not_scroll_sideways(
    browser: Browser, viewer_server: Server, api: httpx.AsyncClient, screenshots: Path
) -> None:
    context = await browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=viewer_server.url
    )
    try:
        phone = await context.new_page()
        for kind in ("coyote", "manitou-island", "tribu"):
            game = await create_game(
                api, kind=kind, seats=4 if kind != "tribu" else 3, time_control=TIMED
            )
            await play_on(api, game, commands=3)
            await open_game(phone, game.id)
            await phone.wait_for_selector("#audit [data-overall]", timeout=PATIENCE_MS)
            widths = await phone.evaluate(WIDTHS)
            await phone.screenshot(path=screenshots / f"phone-{kind}.png", full_page=True)
            assert widths[0] <= widths[1], (kind, widths)
        await phone.goto("/")
        await phone.wait_for_selector("#games tbody tr", timeout=PATIENCE_MS)
        widths = await phone.evaluate(WIDTHS)
        assert widths[0] <= widths[1], ("front page", widths)
    finally:
        await context.close()


async def test_the_api_documentation_works_without_the_internet(
    page: Page, api: httpx.AsyncClient, viewer_server: Server
) -> None:
    """Issue 26 item 4.9: with every request off this origin refused, /schema (Redoc, served by
    the service itself) shows every operation of the API and finds them, under a policy that
    allows this origin's scripts only; the policy refuses nothing the page needs."""
    outside: list[str] = []
    refused: list[str] = []  # what the page's policy refused, as the console says it
    origin = viewer_server.url

    async def offline(route: object) -> None:
        request = route.request  # type: ignore[attr-defined]
        if not request.url.startswith(origin):
            outside.append(request.url)
            await route.abort()  # type: ignore[attr-defined]
        else:
            await route.continue_()  # type: ignore[attr-defined]

    def console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            refused.append(message.text)

    await page.route("**/*", offline)
    page.on("console", console)
    answer = await page.goto("/schema")
    assert answer is not None
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "http" not in policy, policy
    document = (await api.get("/schema/openapi.json")).json()
    operations = [
        operation["operationId"]
        for path in document["paths"].values()
        for operation in path.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]
    assert "createGame" in operations
    for operation in operations:
        shown = page.locator(f'[id="operation/{operation}"]')
        await expect(shown).to_be_attached(timeout=PATIENCE_MS)
    search = page.get_by_role("search")
    await search.get_by_role("textbox").fill("seat")  # the search runs in a worker
    found = search.get_by_role("menuitem", name="Take a seat at an open table")
    await expect(found).to_be_visible(timeout=PATIENCE_MS)
    assert outside == [], outside
    # Redoc's own "API docs by Redocly" logo is an image from its CDN: refused, and left out.
    assert [text for text in refused if "logo-mini.svg" not in text] == [], refused
