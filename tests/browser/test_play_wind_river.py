"""A person plays Wind River in the browser by clicking the board: a space to place a teepee
on; a herd, then where one of its buffalo goes; one of their teepees, then where it goes; a
new teepee from their stock, then its space; the teepees to send back, one by one; and the
play panel's button to earn resources. Played against the server's bots to the end, with a
refused move, the choices made in steps (picked, put back, picked again), the moves' words, and
a phone's width checked on the way.

Every move here is a click (or a key) on the page, as a person would make it: the board's
`[data-play]` elements and the panel's controls; a move from the page's list only when neither
offers it.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from playwright.async_api import (
    Locator,
    Page,
    Route,
    ViewportSize,
    expect,
)
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.browser.axe import violations
from tests.browser.conftest import VIEWPORT
from tests.browser.playing import MOST_MOVES, first_listed_move, start_alone
from tests.browser.viewer import PATIENCE_MS, WIDTHS

KIND = "wind-river"
PHONE: ViewportSize = {"width": 390, "height": 844}
BOTS_MS = 120_000  # the bots' turns between two of the person's: a guard, not a measure
# The person's turn, on the page as it is now: the table shows the game's latest event and offers
# moves on it (a table of an earlier event, still on the page for a moment, offers none), or the
# game is over.
TURN = """() => {
  if (document.querySelector("#outcome .outcome")) return true;
  const board = document.querySelector("#board");
  const events = document.querySelector('[data-fact="events"]')?.textContent;
  return board.dataset.seq === events && !board.hasAttribute("aria-busy")
    && board.querySelector("[data-prompt]") !== null
    && document.querySelector('#play [data-turn="yours"]') !== null;
}"""
# The plain fallback of a command without words: its type, then its fields ("Move buffalo: from").
RAW = re.compile(
    r"^(Place teepee|Move buffalo|Send back teepees|Move teepee|Earn resources|Insert teepee"
    r"|Move extra buffalo)[:.]|\{|: (at|from|to|spaces) "
)
Played = Counter[str]


def space(lane: int, column: int) -> dict[str, int]:
    return {"lane": lane, "column": column}


async def your_turn(page: Page) -> None:
    """Waits for the person's turn (or the game's end); says where the page stands if it
    never comes."""
    try:
        await page.wait_for_function(TURN, timeout=BOTS_MS)
    except PlaywrightTimeout as error:
        summary = await page.locator("#summary").inner_text()
        play = await page.locator("#play").inner_text()
        seq = await page.locator("#board").get_attribute("data-seq")
        raise AssertionError(f"no turn came: {summary!r}, {play!r}, table at {seq}") from error


async def version(page: Page) -> str:
    return await page.locator('[data-fact="events"]').text_content() or ""


async def moved_on(page: Page, before: str) -> None:
    """The move is in once the game's version moves on (the page follows it live)."""
    await expect(page.locator('[data-fact="events"]')).not_to_have_text(before, timeout=PATIENCE_MS)


async def places(page: Page, play: str) -> list[str]:
    """Where the board offers `play` now: each element's `data-at` ("lane,column")."""
    at: list[str] = await page.locator(f'#board [data-play="{play}"]').evaluate_all(
        "items => items.map(item => item.dataset.at)"
    )
    return at


def column(at: str) -> int:
    return 99 if at == "open-plains" else int(at.split(",")[1])


async def words_are_said(page: Page, seen: set[str]) -> None:
    """Every listed move is in words, none in the plain fallback; and every element the board
    offers is a button for the keyboard too, named by what it does."""
    listed = page.locator("#play .commands button")
    for text in await listed.all_text_contents():
        assert text and not RAW.search(text), text
    seen.update(await listed.evaluate_all("items => items.map(item => item.dataset.commandType)"))
    offered = await page.locator("#board [data-play]").evaluate_all(
        """items => items.map(item => [item.getAttribute("role"), item.getAttribute("tabindex"),
                                       item.getAttribute("aria-label") ?? ""])"""
    )
    for role, tabindex, label in offered:
        assert role == "button" and tabindex == "0" and label and not RAW.search(label), label


async def snap(page: Page, screenshots: Path, name: str) -> None:
    """The whole page, and the table alone (to see the board's outlines closer)."""
    await page.screenshot(path=str(screenshots / f"play-wind-river-{name}.png"), full_page=True)
    await page.locator("#board").screenshot(
        path=str(screenshots / f"play-wind-river-{name}-table.png")
    )


async def pick_then_put_back(page: Page, piece: Locator, screenshots: Path, name: str) -> None:
    """A piece picked shows where it may go and a way back; put back, the board is as before."""
    offered = await page.locator("#board [data-play]").count()
    await piece.click()
    await expect(page.locator('#board [data-prompt="picked"]')).to_be_visible()
    await expect(page.locator('#board [data-play="chosen"]')).to_have_count(1)
    assert await page.locator('#board [data-play="to"]').count() >= 1
    await snap(page, screenshots, name)
    await page.locator("#board [data-cancel]").click()
    await expect(page.locator('#board [data-play="chosen"]')).to_have_count(0)
    await expect(page.locator('#board [data-play="to"]')).to_have_count(0)
    await expect(page.locator("#board [data-play]")).to_have_count(offered)


async def phone_width(page: Page, screenshots: Path) -> None:
    """At a phone's width the page playing (a piece picked) scrolls only downwards."""
    await page.set_viewport_size(PHONE)
    try:
        await page.wait_for_function("() => window.innerWidth === 390")
        width, viewport, wide = await page.evaluate(WIDTHS)
        await page.evaluate("document.querySelector('#board').scrollIntoView()")
        await page.screenshot(path=str(screenshots / "play-wind-river-phone.png"))
        assert width <= viewport, wide
    finally:
        await page.set_viewport_size(VIEWPORT)  # type: ignore[arg-type]


async def move_a_piece(page: Page, piece: Locator, prefer_east: bool) -> bool:
    """Picks the piece, then where it goes (eastmost if asked, the first otherwise). Puts it
    back and answers False when going east is asked and it cannot."""
    source = await piece.get_attribute("data-at") or ""
    await piece.click()
    await expect(page.locator('#board [data-play="chosen"]')).to_have_count(1)
    targets = await places(page, "to")
    assert targets
    if prefer_east:
        best = max(targets, key=column)
        if column(best) <= column(source):
            await page.locator('#board [data-play="chosen"]').click()  # put back on the board
            await expect(page.locator('#board [data-play="chosen"]')).to_have_count(0)
            return False
        target = page.locator(f'#board [data-play="to"][data-at="{best}"]')
    else:
        target = page.locator('#board [data-play="to"]').first
    before = await version(page)
    await target.click()
    await moved_on(page, before)
    return True


async def one_move(page: Page, played: Played, screenshots: Path) -> None:
    """The person's next move, from the board (or the panel's controls) wherever it offers one."""
    board = page.locator("#board")
    before = await version(page)
    extra_activity = await page.locator("#play [data-control='earn']").count() > 0

    if spaces := await places(page, "place"):
        fed = [at for at in spaces if column(at) <= 3] or spaces  # the herds start in columns 1-3
        if not played["place"]:
            await snap(page, screenshots, "placing")
        await board.locator(f'[data-play="place"][data-at="{fed[0]}"]').click()
        await moved_on(page, before)
        played["place"] += 1
        return

    if await places(page, "send-back"):
        if not played["send-back"]:
            await snap(page, screenshots, "send-back")
        while True:  # one teepee after another: the last one picked sends the choice
            teepee = board.locator('[data-play="send-back"]').first
            sends = await teepee.get_attribute("data-command-type")
            await teepee.click()
            if sends:
                break
            await expect(board.locator('[data-prompt="picked"]')).to_be_visible()
        await moved_on(page, before)
        played["send-back"] += 1
        return

    herds = board.locator('[data-play="buffalo"]')
    if not extra_activity and await herds.count():
        if not played["buffalo"]:
            # Picked and put back first; then picked and moved from the keyboard alone.
            await pick_then_put_back(page, herds.first, screenshots, "buffalo-picked")
            await herds.first.focus()
            await page.keyboard.press("Enter")
            chosen = page.locator('#board [data-play="chosen"]')
            await expect(chosen).to_have_count(1)
            focused = await page.evaluate("document.activeElement.dataset.play")
            assert focused == "to", "the keyboard goes on to where the buffalo may go"
            await phone_width(page, screenshots)
            await page.keyboard.press("Enter")
            await moved_on(page, before)
        else:
            await move_a_piece(page, herds.first, prefer_east=False)
        played["buffalo"] += 1
        return

    stock = board.locator('[data-play="stock"]')
    if not played["insert"] and await stock.count():
        await stock.click()
        await expect(board.locator('[data-play="chosen"]')).to_have_count(1)
        await snap(page, screenshots, "insert")
        await board.locator('[data-play="to"]').first.click()
        await moved_on(page, before)
        played["insert"] += 1
        return

    if not played["extra-buffalo"] and await herds.count():
        await move_a_piece(page, herds.first, prefer_east=False)
        played["extra-buffalo"] += 1
        return

    teepees = board.locator('[data-play="teepee"]')
    for index in range(await teepees.count()):
        if not played["teepee"]:
            await pick_then_put_back(page, teepees.nth(index), screenshots, "teepee-picked")
        if await move_a_piece(page, teepees.nth(index), prefer_east=True):
            played["teepee"] += 1
            return
        played["put-back"] += 1

    if extra_activity:
        if not played["earn"]:
            await snap(page, screenshots, "extra")
        await page.locator("#play [data-control='earn']").click()
        await moved_on(page, before)
        played["earn"] += 1
        return

    # Nothing on the board nor in the controls: the list, as a last resort (never seen).
    await (await first_listed_move(page)).click()
    await moved_on(page, before)
    played["listed"] += 1


async def test_a_person_plays_wind_river_to_the_end_by_clicking_the_board(
    person: Page, screenshots: Path
) -> None:
    await start_alone(person, KIND)
    await expect(person.locator("#play")).to_be_visible()
    played: Played = Counter()
    seen: set[str] = set()
    for _ in range(MOST_MOVES):
        await your_turn(person)
        if await person.locator("#outcome .outcome").count():
            break
        await words_are_said(person, seen)
        await one_move(person, played, screenshots)
    else:
        raise AssertionError(f"the game did not end after {MOST_MOVES} moves: {played}")

    await expect(person.locator("#outcome .outcome")).to_contain_text("The game is over")
    await person.screenshot(path=str(screenshots / "play-wind-river-end.png"), full_page=True)
    assert played["place"] == 2, played
    assert played["buffalo"] >= 1 and played["listed"] == 0, played
    assert played["earn"] + played["teepee"] + played["extra-buffalo"] >= 1, played
    assert {"wind-river.place-teepee", "wind-river.move-buffalo"} <= seen, seen
    assert not await person.locator("#board [data-play]").count(), "nothing to play once over"


async def test_a_refused_move_shows_the_rule_and_changes_nothing(person: Page) -> None:
    await start_alone(person, KIND)
    await your_turn(person)
    before = await version(person)
    offered = await person.locator('#board [data-play="place"]').count()
    teepees = await person.locator("#board .teepee").count()

    # What the page sends is changed on the way, as a stale page or a forged move would be: an
    # out-of-date version (409), then a teepee on the lane three players leave out (422).
    async def stale(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        await route.continue_(post_data=json.dumps({**body, "expected_version": 1}))

    await person.route("**/commands", stale)
    await person.locator('#board [data-play="place"]').first.click()
    await expect(person.locator("#play-refusal")).to_contain_text("moved on")
    await person.unroute("**/commands")

    async def illegal(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        forged = {"type": "wind-river.place-teepee", "at": space(1, 4)}
        await route.continue_(post_data=json.dumps({**body, "command": forged}))

    await person.route("**/commands", illegal)
    await person.locator('#board [data-play="place"]').last.click()
    await expect(person.locator("#play-refusal")).to_contain_text("Refused:")
    await expect(person.locator("#play-refusal")).to_contain_text("rule wind-river.")
    await person.unroute("**/commands")
    assert await version(person) == before
    await expect(person.locator('#board [data-play="place"]')).to_have_count(offered)
    assert await person.locator("#play .commands button:disabled").count() == 0
    assert await person.locator("#board .teepee").count() == teepees


async def test_choices_in_steps_pick_put_back_and_pick_again(
    checked: Page, screenshots: Path
) -> None:
    """Moves the real game rarely offers at a given moment (two teepees of three to send back;
    a new teepee from the stock; a herd and a teepee on one space), offered to the page by
    rewriting its legal commands: each is made in steps, and the page sends exactly the move
    picked (which the referee, at another moment of the game, then refuses)."""
    person = checked
    await start_alone(person, KIND)
    await your_turn(person)
    a, b, c = space(3, 3), space(4, 5), space(5, 8)
    send_back = "wind-river.send-back-teepees"
    offers: dict[str, list[dict[str, Any]]] = {
        "send-back": [
            {"type": send_back, "spaces": pair} for pair in ([a, a], [a, b], [a, c], [b, c])
        ],
        "extra": [
            {"type": "wind-river.move-teepee", "from": a, "to": space(3, 4)},
            {"type": "wind-river.move-teepee", "from": a, "to": space(2, 3)},
            {"type": "wind-river.earn-resources"},
            {"type": "wind-river.insert-teepee", "at": a},
            {"type": "wind-river.insert-teepee", "at": b},
            {"type": "wind-river.move-extra-buffalo", "from": a, "to": space(4, 4)},
        ],
    }
    offer: list[list[dict[str, Any]]] = [offers["send-back"]]
    sent: list[dict[str, Any]] = []

    async def legal(route: Route) -> None:
        answer = await route.fetch()
        body = await answer.json()
        await route.fulfill(
            response=answer, json={**body, "commands": offer[0], "total": len(offer[0])}
        )

    async def record(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}")["command"])
        await route.continue_()

    await person.route("**/legal-commands*", legal)
    await person.route("**/commands", record)
    board = person.locator("#board")

    # Two teepees of three spaces to send back: picked one by one; a pick is put back.
    await person.reload()
    await board.locator('[data-play="send-back"]').first.wait_for(timeout=PATIENCE_MS)
    assert sorted(await places(person, "send-back")) == ["3,3", "4,5", "5,8"]
    seen: set[str] = set()
    await words_are_said(person, seen)
    await board.locator('[data-play="send-back"][data-at="4,5"]').click()
    await expect(board.locator('[data-prompt="picked"]')).to_contain_text("lane 4, column 5")
    assert sorted(await places(person, "send-back")) == ["3,3", "5,8"]  # {B, A} or {B, C}
    await board.locator("[data-cancel]").click()
    await expect(board.locator('[data-play="send-back"]')).to_have_count(3)
    await board.locator('[data-play="send-back"][data-at="3,3"]').click()
    assert sorted(await places(person, "send-back")) == ["3,3", "4,5", "5,8"]
    await snap(person, screenshots, "send-back-steps")
    assert await violations(person) == []
    await board.locator('[data-play="send-back"][data-at="3,3"]').click()
    await expect(person.locator("#play-refusal")).to_contain_text("rule wind-river.")
    assert sent == [{"type": send_back, "spaces": [a, a]}]

    # The extra activities: a herd and a teepee share a space, each picked by its own half; a
    # new teepee is taken from the stock, put back, taken again and placed.
    offer[0] = offers["extra"]
    await person.reload()
    await board.locator('[data-play="stock"]').wait_for(timeout=PATIENCE_MS)
    await expect(person.locator("#play [data-control='earn']")).to_have_count(1)
    await board.locator('[data-play="teepee"][data-at="3,3"]').click()
    assert sorted(await places(person, "to")) == ["2,3", "3,4"]
    await board.locator('[data-play="chosen"]').click()  # clicked again, the piece is put back
    await board.locator('[data-play="buffalo"][data-at="3,3"]').click()
    assert await places(person, "to") == ["4,4"]
    await board.locator("[data-cancel]").click()
    await board.locator('[data-play="stock"]').click()
    assert sorted(await places(person, "to")) == ["3,3", "4,5"]
    await snap(person, screenshots, "stock-picked")
    assert await violations(person) == []
    await board.locator('[data-play="chosen"]').focus()
    await person.keyboard.press("Escape")
    await expect(board.locator('[data-play="stock"]')).to_be_focused()
    await person.keyboard.press(" ")
    await expect(board.locator('[data-play="to"]').first).to_be_focused()
    await board.locator('[data-play="to"][data-at="4,5"]').click()
    await expect(person.locator("#play-refusal")).to_contain_text("rule wind-river.")
    assert sent[-1] == {"type": "wind-river.insert-teepee", "at": b}
    await words_are_said(person, seen)  # with the real game's placing: every type, in words
    assert seen == {command["type"] for offered in offers.values() for command in offered}
