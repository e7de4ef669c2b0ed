"""A person plays Manitou island in the browser by clicking the drawing: a land card of the hand,
then one of the spaces highlighted on the hex board; a specialty card of the team, its face,
then its space. Against the server's bot, from the front page's quick start, to the end.

Along the way: a choice is cancelled (the Cancel button, Escape, the chosen card again), a move
is made by keyboard alone, every listed move reads in words, a refused move shows the rule and
changes nothing, and a phone-wide page has no sideways scroll while a card is chosen.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.async_api import Locator, Page, Route, expect

from tests.browser.playing import MOST_MOVES, first_listed_move, listed_moves, start_alone
from tests.browser.viewer import PATIENCE_MS, WIDTHS

GUIDE = "#board .play-guide"
TARGETS = "#board .hex-board [data-target][data-play]"
SPECIALTY = '#board [data-zone^="specialty-"] [data-play]'
FACES = "#board .play-guide [data-face][data-play]"
CANCEL = '#board [data-action="cancel-choice"]'
RAW = re.compile(r"^(Play land|Play specialty):|\b(card|at|face) [\[{\d-]|;")


def hand(seat: int) -> str:
    return f'#board [data-zone="hand-{seat}"] [data-play]'


# The seat's turn, settled: the panel lists the moves afresh (a sent move's list stays disabled
# until the page has read the game again), and the table shows the game as it is now, with the
# moves on it. Or the game is over.
TURN = """() => {
  if (document.querySelector("#outcome .outcome")) return true;
  const board = document.getElementById("board");
  const events = document.querySelector('[data-fact="events"]')?.textContent;
  return Boolean(document.querySelector("#play .commands button:not([disabled])"))
    && board.dataset.seq === events && !board.hasAttribute("aria-busy")
    && Boolean(board.querySelector("[data-play]"));
}"""


STUCK = """() => ({
  seq: document.getElementById("board").dataset.seq,
  busy: document.getElementById("board").getAttribute("aria-busy"),
  events: document.querySelector('[data-fact="events"]')?.textContent,
  toAct: document.querySelector('[data-fact="to act"]')?.textContent,
  plays: document.querySelectorAll("#board [data-play]").length,
  panel: document.getElementById("play").innerText.slice(0, 300),
  live: document.getElementById("live-status")?.textContent,
})"""


async def my_turn(page: Page) -> bool:
    """Waits until the drawing offers the seat a move (True) or the game is over (False)."""
    try:
        await page.wait_for_function(TURN, timeout=60_000)
    except Exception:
        said = await page.evaluate(STUCK)
        raise AssertionError(f"no turn came: {said}") from None
    return not await page.locator("#outcome .outcome").count()


async def events(page: Page) -> str:
    return await page.locator('[data-fact="events"]').text_content() or ""


async def moved_on(page: Page, before: str) -> None:
    """The move is in once the game's version moves on (the page follows it live)."""
    await expect(page.locator('[data-fact="events"]')).not_to_have_text(before, timeout=PATIENCE_MS)


async def words_are_plain(page: Page, seen: set[str]) -> None:
    """Every listed move reads as a sentence: none is the plain fallback of type and fields."""
    listed = await listed_moves(page)
    assert listed, "no move is listed"
    for text, kind in listed:
        if kind == "game.resign":
            continue
        assert kind.startswith("manitou-island."), kind
        assert text.startswith("Play ") and not RAW.search(text), text
        seen.add(kind)


async def choose_land(page: Page, seat: int) -> Locator:
    """Clicks the first land card offered: the guide says it, the board shows its spaces."""
    card = page.locator(hand(seat)).first
    await card.click()
    await expect(page.locator(f'{GUIDE}[data-choice="land"]')).to_contain_text("chosen")
    await expect(page.locator(f"{hand(seat)}[aria-pressed=true]")).to_have_count(1)
    assert await page.locator(TARGETS).count() > 0
    return card


async def play_land(page: Page, seat: int) -> None:
    before = await events(page)
    await choose_land(page, seat)
    target = page.locator(TARGETS).first
    label = await target.get_attribute("aria-label") or ""
    where = await target.get_attribute("data-target") or ""
    q, r = where.split(",")
    assert label.startswith("Play ") and f"at ({q}, {r})" in label, label
    await expect(target).to_contain_text(where)  # the space offered shows its coordinates
    await target.click()
    await moved_on(page, before)


async def try_cancels(page: Page, seat: int, screenshots: Path) -> None:
    """A choice undone three ways, then a move made by keyboard alone."""
    await choose_land(page, seat)
    await page.screenshot(path=str(screenshots / "play-manitou-island-chosen.png"), full_page=True)
    await page.click(CANCEL)
    await expect(page.locator(TARGETS)).to_have_count(0)
    await expect(page.locator(f'{GUIDE}[data-choice="none"]')).to_be_visible()

    card = await choose_land(page, seat)
    await page.locator(hand(seat)).first.click()  # the chosen card again: let go
    await expect(page.locator(TARGETS)).to_have_count(0)

    await card.focus()
    await page.keyboard.press("Enter")
    await expect(page.locator(TARGETS).first).to_be_focused()  # the keyboard goes on to the spaces
    await page.keyboard.press("Escape")
    await expect(page.locator(TARGETS)).to_have_count(0)
    await expect(page.locator(hand(seat)).first).to_be_focused()

    before = await events(page)
    await page.keyboard.press("Enter")
    await expect(page.locator(TARGETS).first).to_be_focused()
    await page.keyboard.press(" ")
    await moved_on(page, before)


# The play panel is drawn anew whenever the page reads the game again (a live event's refresh
# comes a little after the event), which also clears a refusal shown there: the refusal is
# looked at once the panel has stayed as it is for a while.
QUIET = """async () => {
  let panel = document.getElementById("play-refusal");
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    const now = document.getElementById("play-refusal");
    if (now === panel) return true;
    panel = now;
  }
}"""


async def refused_move(page: Page, seat: int) -> None:
    """A land card forged onto the origin's space: refused with the rule, nothing changes."""
    await page.evaluate(QUIET)
    before = await events(page)
    offered = await page.locator(hand(seat)).count()

    async def onto_the_origin(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        forged = {**body["command"], "at": {"q": 0, "r": 0}}
        await route.continue_(post_data=json.dumps({**body, "command": forged}))

    await page.route("**/commands", onto_the_origin)
    await choose_land(page, seat)
    await page.locator(TARGETS).first.click()
    refusal = page.locator("#play-refusal")
    await expect(refusal).to_contain_text("Refused:")
    await expect(refusal).to_contain_text("rule manitou-island.space-taken")
    await page.unroute("**/commands")
    await expect(page.locator('[data-fact="events"]')).to_have_text(before)
    await expect(page.locator(hand(seat))).to_have_count(offered)
    await expect(page.locator(f'{GUIDE}[data-choice="none"]')).to_be_visible()
    assert await page.locator("#play .commands button:disabled").count() == 0


async def play_specialty(page: Page, seat: int, screenshots: Path, faces: bool) -> bool:
    """Plays a specialty card if one is offered (with `faces`: only one whose two faces may be
    played, chosen between on the guide); then the land card that ends the turn."""
    cards = page.locator(SPECIALTY)
    for index in range(await cards.count()):
        await cards.nth(index).click()
        await expect(page.locator(f'{GUIDE}[data-choice="specialty"]')).to_be_visible()
        choice = page.locator(FACES)
        if faces and await choice.count() < 2:
            await page.click(CANCEL)
            await expect(page.locator(f'{GUIDE}[data-choice="none"]')).to_be_visible()
            continue
        if await choice.count():
            await page.screenshot(
                path=str(screenshots / "play-manitou-island-faces.png"), full_page=True
            )
            await choice.first.click()
        target = page.locator(TARGETS).first
        label = await target.get_attribute("aria-label") or ""
        assert label.startswith("Play a "), label
        await page.screenshot(
            path=str(screenshots / "play-manitou-island-specialty.png"), full_page=True
        )
        before = await events(page)
        await target.click()
        await moved_on(page, before)
        # The same seat goes on with its land card; no second specialty card is offered.
        await page.locator(hand(seat)).first.wait_for(timeout=PATIENCE_MS)
        await expect(page.locator(SPECIALTY)).to_have_count(0)
        await play_land(page, seat)
        return True
    return False


async def phone_wide(page: Page, seat: int, screenshots: Path) -> None:
    await page.set_viewport_size({"width": 390, "height": 844})
    await choose_land(page, seat)
    scroll, client, wide = await page.evaluate(WIDTHS)
    assert scroll <= client, f"the page scrolls sideways at 390 pixels: {wide}"
    await page.screenshot(path=str(screenshots / "play-manitou-island-phone.png"), full_page=True)
    await page.locator("#play").screenshot(
        path=str(screenshots / "play-manitou-island-phone-panel.png")
    )
    await page.locator("#board").screenshot(
        path=str(screenshots / "play-manitou-island-phone-board.png")
    )
    before = await events(page)
    await page.locator(TARGETS).first.click()
    await moved_on(page, before)
    await page.set_viewport_size({"width": 1400, "height": 1000})


async def play_from_the_controls(page: Page) -> None:
    """The play panel's two lists and its Play button: the last card, its last space."""
    what = page.locator('#play [data-control="what"]')
    where = page.locator('#play [data-control="where"]')
    options = await what.locator("option").all_text_contents()
    assert options and all(not RAW.search(text) for text in options), options
    await what.select_option(index=len(options) - 1)
    spaces = await where.locator("option").all_text_contents()
    assert spaces and all(re.match(r"^\(-?\d+, -?\d+\)", text) for text in spaces), spaces
    await where.select_option(index=len(spaces) - 1)
    before = await events(page)
    await page.click('#play [data-control="play"]')
    await moved_on(page, before)


async def test_a_person_plays_manitou_island_by_clicking_to_the_end(
    person: Page, screenshots: Path
) -> None:
    await start_alone(person, "manitou-island")
    seat = int(await person.locator("#board").get_attribute("data-viewer") or "0")
    seen: set[str] = set()
    done: set[str] = set()
    turns = 0
    while turns < MOST_MOVES and await my_turn(person):
        turns += 1
        await words_are_plain(person, seen)
        if turns == 1:
            await person.screenshot(
                path=str(screenshots / "play-manitou-island-start.png"), full_page=True
            )
            await try_cancels(person, seat, screenshots)
        elif "refusal" not in done:
            await refused_move(person, seat)
            done.add("refusal")
            await play_land(person, seat)
        elif "phone" not in done:
            await phone_wide(person, seat, screenshots)
            done.add("phone")
        elif "controls" not in done:
            await play_from_the_controls(person)
            done.add("controls")
        elif "faces" not in done and await play_specialty(person, seat, screenshots, faces=True):
            done.add("faces")
        elif "specialty" not in done and turns >= 6:
            if await play_specialty(person, seat, screenshots, faces=False):
                done.add("specialty")
            else:
                await play_land(person, seat)
        elif await person.locator(hand(seat)).count():
            await play_land(person, seat)
        else:  # nothing on the drawing: the list has every move
            before = await events(person)
            await (await first_listed_move(person)).click()
            await moved_on(person, before)
    await expect(person.locator("#outcome .outcome")).to_contain_text("The game is over")
    await person.screenshot(path=str(screenshots / "play-manitou-island-end.png"), full_page=True)
    assert turns > 3
    assert {"refusal", "phone", "controls"} <= done
    assert "manitou-island.play-land" in seen
    assert "specialty" in done or "faces" in done, "no specialty card was ever offered"
    assert "manitou-island.play-specialty" in seen
