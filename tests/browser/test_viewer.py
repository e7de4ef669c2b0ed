"""The viewer's pages in Chromium, checked against the API's own answers: every kind drawn at
several events, stepped by mouse and keyboard; a seat's view; live moves; the audit; a tampered
bundle; the list of games. Screenshots of each kind's table go to tests/browser/screenshots/."""

from __future__ import annotations

import asyncio
import base64
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import FilePayload, Page, expect

from tests.api.helpers import Game, create_game, play_on
from tests.browser.drawn import HIDDEN, drawn, expected
from tests.browser.proxy import Relay
from tests.browser.viewer import (
    PATIENCE_MS,
    SEATS,
    finished_game,
    open_game,
    show,
    state,
    table_at,
    view_as,
)
from tests.servers import Server

KINDS = list(SEATS)
LIVE_WITHIN_SECONDS = 2.0  # the promise: a move shows on a watching page this soon


@pytest.fixture(scope="module")
async def finished(api: httpx.AsyncClient) -> dict[str, Game]:
    """One game of every kind, played to the end."""
    return {kind: await finished_game(api, kind) for kind in KINDS}


async def assert_drawn_as_the_api_says(
    page: Page, api: httpx.AsyncClient, game: Game, kind: str, seq: int, seat: int | None = None
) -> None:
    """The table drawn as the API's state after event `seq`, as `seat` sees it."""
    zones, places = expected(kind, await state(api, game, seq, seat))
    board = await drawn(page)
    assert board["drawing"] == kind
    assert board["zones"] == zones, (kind, seq)
    assert board["places"] == places, (kind, seq)
    assert board["unnamed"] == 0, "every drawn card, tile and place has a text alternative"


@pytest.mark.parametrize("kind", KINDS)
async def test_a_finished_game_is_drawn_as_the_api_says_at_every_step(
    page: Page, api: httpx.AsyncClient, finished: dict[str, Game], kind: str, screenshots: Path
) -> None:
    game = finished[kind]
    version = (await api.get(game.url)).json()["version"]
    await open_game(page, game.id)
    assert await page.locator("#timeline li[role=option]").count() == version
    await assert_drawn_as_the_api_says(page, api, game, kind, version)
    opening, middle = game.created["version"], (game.created["version"] + version) // 2
    for seq in (1, opening, middle):
        await show(page, seq)
        await assert_drawn_as_the_api_says(page, api, game, kind, seq)
    await page.locator("#table").screenshot(path=screenshots / f"{kind}.png")
    if kind == "coyote":  # the whole page, mid-game (the README shows a copy: viewer.png)
        await page.evaluate("() => window.scrollTo(0, 0)")
        await page.screenshot(path=screenshots / "page.png")
    # The order of a draw pile is in no seat's view: it stays face down. Everything else shows.
    hidden = page.locator(f"#board [data-zone]:not([data-zone=draw-pile]) [data-card='{HIDDEN}']")
    assert await hidden.count() == 0, "a finished game's past shows every hand and hidden card"


async def test_the_timeline_steps_with_the_keyboard(
    page: Page, api: httpx.AsyncClient, finished: dict[str, Game]
) -> None:
    game = finished["coyote"]
    await open_game(page, game.id)
    events = page.locator("#timeline [role=listbox]")
    await events.focus()
    await page.keyboard.press("Home")
    await table_at(page, 1)
    await page.keyboard.press("ArrowDown")
    await table_at(page, 2)
    await page.keyboard.press("PageDown")
    await table_at(page, 12)
    await page.keyboard.press("ArrowUp")
    await table_at(page, 11)
    await expect(page.locator("#event-11")).to_have_attribute("aria-selected", "true")
    await page.keyboard.press("End")
    await table_at(page, (await api.get(game.url)).json()["version"])
    sentences = await page.locator("#timeline .sentence").all_inner_texts()
    assert all(sentence.strip() for sentence in sentences)


async def test_a_seat_sees_its_own_hidden_cards_and_no_one_elses(
    page: Page, api: httpx.AsyncClient
) -> None:
    asked: list[tuple[str, str | None]] = []  # (URL, Authorization) of every request the page made
    page.on(
        "request", lambda request: asked.append((request.url, request.headers.get("authorization")))
    )
    for kind in ("tribu", "big-manitou", "manitou-island"):
        game = await create_game(api, kind=kind, seats=SEATS[kind], seed="51" * 32)
        running = await play_on(api, game, commands=6)
        await open_game(page, game.id)
        asked.clear()
        await view_as(page, game.tokens[1], 1)
        seat_state = await state(api, game, running["version"], seat=1)
        board = await drawn(page)
        assert board["zones"] == expected(kind, seat_state)[0]
        assert HIDDEN not in board["zones"]["hand-1"], "the seat sees its own hand"
        for other in set(range(SEATS[kind])) - {1}:
            assert set(board["zones"][f"hand-{other}"]) <= {HIDDEN}, (kind, other)
        raw = json.loads(await page.locator("#raw-state").text_content() or "null")
        assert raw == seat_state, "the page holds what the API gave that seat, nothing more"
        for url, authorization in asked:
            assert not any(token in url for token in game.tokens.values()), url
            if f"/v1/games/{game.id}" in url and "ticket=" not in url:
                assert authorization == f"Bearer {game.tokens[1]}", url  # that seat's answers
    coyote = await create_game(api, kind="coyote", seats=4, seed="52" * 32)
    await open_game(page, coyote.id)
    await view_as(page, coyote.tokens[2], 2)
    head = (await drawn(page))["zones"]["head-2"]
    assert head == [HIDDEN], "a Coyote seat never sees its own card"
    # A seat's token is kept in the tab's own storage only (a reload keeps the seat), one per
    # game viewed as a seat, under that game's key; nothing in the lasting storage, no cookie.
    assert await page.evaluate("() => localStorage.length") == 0
    kept = await page.evaluate(
        "() => Object.fromEntries(Object.keys(sessionStorage).map((k) => [k, sessionStorage[k]]))"
    )
    assert kept[f"referee.seat.{coyote.id}"] == coyote.tokens[2]
    assert all(key.startswith("referee.seat.") for key in kept), kept
    assert await page.context.cookies() == []
    assert await page.input_value("#seat-token") == "", "the token leaves the form once read"
    assert coyote.tokens[2] not in await page.content()


async def live_move(api: httpx.AsyncClient, game: Game) -> int:
    """The seat to act plays its last legal command; answers the new version."""
    answer = await play_on(api, game, commands=1)
    return int(answer["version"])


@pytest.mark.parametrize("as_seat", [False, True], ids=["spectator", "seat"])
async def test_a_live_move_appears_within_two_seconds(
    page: Page, api: httpx.AsyncClient, as_seat: bool
) -> None:
    seat = 0 if as_seat else None
    game = await create_game(api, kind="coyote", seats=3, seed="53" * 32)
    await open_game(page, game.id)
    if seat is not None:
        await view_as(page, game.tokens[seat], seat)
    await expect(page.locator("[data-live]")).to_have_text("live", timeout=PATIENCE_MS)
    for _ in range(3):
        version = await live_move(api, game)
        accepted = time.monotonic()
        await table_at(page, version)
        assert time.monotonic() - accepted < LIVE_WITHIN_SECONDS
        await assert_drawn_as_the_api_says(page, api, game, "coyote", version, seat)
    await play_on(api, game)  # to the end: the page reads everything again, now public
    outcome = (await api.get(game.url)).json()["outcome"]
    winners = ",".join(map(str, outcome["winners"]))
    await expect(page.locator("#outcome [data-winners]")).to_have_attribute(
        "data-winners", winners, timeout=PATIENCE_MS
    )
    await expect(page.locator("[data-live]")).to_have_text("off: the game is over")
    await expect(page.locator("#audit [data-overall]")).to_have_attribute("data-overall", "passed")


@pytest.mark.parametrize("as_seat", [False, True], ids=["spectator", "seat"])
async def test_the_stream_resumes_after_a_dropped_connection(
    page: Page, api: httpx.AsyncClient, viewer_server: Server, as_seat: bool
) -> None:
    """A spectator's stream resumes by itself (Last-Event-ID); a seat's with a new ticket."""
    game = await create_game(api, kind="coyote", seats=3, seed="54" * 32)
    relay = Relay(int(viewer_server.url.rsplit(":", 1)[1]))
    try:
        await open_game(page, game.id, base=await relay.start())
        if as_seat:
            await view_as(page, game.tokens[1], 1)
        await expect(page.locator("[data-live]")).to_have_text("live", timeout=PATIENCE_MS)
        relay.down()
        await expect(page.locator("[data-live]")).to_have_text("reconnecting", timeout=PATIENCE_MS)
        moves = [await live_move(api, game) for _ in range(2)]
        await asyncio.sleep(1.5)  # the page tries again meanwhile, and is refused
        relay.up = True
        await table_at(page, moves[-1])
        await expect(page.locator("[data-live]")).to_have_text("live")
        listed = page.locator("#timeline li[role=option]")
        seqs = await listed.evaluate_all("items => items.map(item => Number(item.dataset.seq))")
        assert seqs == list(range(1, moves[-1] + 1)), "nothing skipped, nothing repeated"
    finally:
        await relay.close()


async def test_the_audit_shows_every_verdict_the_seed_and_the_bundle(
    page: Page, api: httpx.AsyncClient, finished: dict[str, Game]
) -> None:
    game = finished["wind-river"]
    report = (await api.get(f"{game.url}/audit")).json()
    events = (await api.get(f"{game.url}/events", params={"limit": 1000})).json()["events"]
    seed = next(
        record["event"]["seed"]
        for record in events
        if record["event"]["type"] == "game.seed-revealed"
    )
    await open_game(page, game.id)
    await page.wait_for_selector("#audit [data-overall]", timeout=PATIENCE_MS)
    await expect(page.locator("#audit [data-overall]")).to_have_attribute(
        "data-overall", report["verdict"]
    )
    for check in report["checks"]:
        row = page.locator(f'#audit tr[data-check="{check["id"]}"]')
        await expect(row).to_have_attribute("data-verdict", check["verdict"])
    assert report["verdict"] == "passed"
    await expect(page.locator("[data-commitment]")).to_have_text(game.created["commitment"])
    await expect(page.locator("[data-seed]")).to_have_text(seed)
    file = f"wind-river-{game.id}.json"
    await expect(page.locator("[data-command]")).to_have_text(f"referee verify {file}")
    async with page.expect_download() as download:
        await page.click("[data-export]")
    saved = await (await download.value).path()
    exported = (await api.get(f"{game.url}/export")).content
    assert Path(saved).read_bytes() == exported
    outcome = (await api.get(game.url)).json()["outcome"]
    scores = page.locator("#outcome [data-winners]")
    await expect(scores).to_have_attribute("data-winners", ",".join(map(str, outcome["winners"])))


def tampered(bundle: bytes, seq: int) -> bytes:
    """The bundle with one field of event `seq`'s body changed, everything else as it was."""
    document = json.loads(bundle)
    event = document["events"][seq - 1]
    body = json.loads(base64.b64decode(event["body"]))
    body["seat"] = (body["seat"] + 1) % 3
    event["body"] = base64.b64encode(json.dumps(body, separators=(",", ":")).encode()).decode()
    return json.dumps(document, separators=(",", ":")).encode()


async def test_a_tampered_bundle_fails_at_the_altered_event(
    page: Page, api: httpx.AsyncClient
) -> None:
    game = await create_game(api, kind="coyote", seats=3, seed="55" * 32)
    await play_on(api, game)
    exported = (await api.get(f"{game.url}/export")).content
    events = json.loads(exported)["events"]
    altered = next(e["seq"] for e in events if e["type"] == "coyote.bid-made")
    bad = tampered(exported, altered)
    report = (await api.post("/v1/audits", content=bad)).json()
    assert report["verdict"] == "failed" and report["first_bad_seq"] == altered
    await page.goto("/")
    upload: FilePayload = {"name": "tampered.json", "mimeType": "application/json", "buffer": bad}
    await page.set_input_files("#bundle-file", files=[upload])
    verification = page.locator("#verification")
    await expect(verification.locator("[data-overall]")).to_have_attribute(
        "data-overall", "failed", timeout=PATIENCE_MS
    )
    for check in report["checks"]:
        await expect(verification.locator(f'tr[data-check="{check["id"]}"]')).to_have_attribute(
            "data-verdict", check["verdict"]
        )
    hash_chain = verification.locator('tr[data-check="hash-chain"] [data-bad-seq]')
    await expect(hash_chain).to_have_attribute("data-bad-seq", str(altered))
    flagged = verification.locator("li.bad")
    await expect(flagged).to_have_count(1)
    await expect(flagged).to_have_attribute("data-seq", str(altered))
    await expect(verification.locator(f"#event-{altered}")).to_have_attribute(
        "aria-selected", "true"
    )


async def test_the_front_page_lists_filters_and_opens_games(
    page: Page, api: httpx.AsyncClient
) -> None:
    made = [await create_game(api, kind="wind-river", seats=3) for _ in range(2)]
    await page.goto("/")
    await page.select_option("#filter-kind", "wind-river")
    await page.select_option("#filter-status", "active")
    await page.click("#filters button[type=submit]")
    listed = (
        await api.get("/v1/games", params={"kind": "wind-river", "status": "active", "limit": 20})
    ).json()
    rows = page.locator("#games tbody tr")
    await expect(rows).to_have_count(len(listed["games"]))
    shown = await rows.evaluate_all("rows => rows.map(row => row.dataset.game)")
    assert shown == [game["game_id"] for game in listed["games"]]
    assert {game.id for game in made} <= set(shown)
    await page.fill("#open-id", made[0].id)
    await page.click("#open-game button[type=submit]")
    await page.wait_for_url(f"**/games/{made[0].id}")
    await page.wait_for_selector("#board [data-drawing='wind-river']", timeout=PATIENCE_MS)


async def test_a_kind_or_event_the_page_does_not_know_is_still_shown(
    page: Page, api: httpx.AsyncClient, finished: dict[str, Game]
) -> None:
    """Kinds, events and fields added later: the real answers, renamed on their way to the page."""
    game = finished["coyote"]

    async def renamed(route: Any) -> None:
        response = await route.fetch()
        body = await response.json()
        if "view" in body:
            body["kind"] = "a-new-game"
        for record in body.get("events", []):
            if record["seq"] == 2:
                record["event"] = {"type": "game.resigned", "seat": 1}
            if record["seq"] == 3:
                record["event"] = {"type": "game.something-new", "at": "now", "seat": 2}
        await route.fulfill(response=response, json=body)

    await page.route(f"**/v1/games/{game.id}", renamed)
    await page.route(f"**/v1/games/{game.id}/events?**", renamed)
    await page.route(f"**/v1/games/{game.id}/states/*", renamed)
    await open_game(page, game.id)
    await page.wait_for_selector("#board [data-drawing='generic']")
    await expect(page.locator("#event-2 .sentence")).to_have_text("Seat 1 resigns.")
    await expect(page.locator("#event-3 .sentence")).to_contain_text("Something new")
