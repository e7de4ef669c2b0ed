"""A person plays Coyote in the browser against the server's bots, by clicking: a bid from the
play panel's controls (a number, with the Shaman variant a power), "Coyote!" by clicking the
standing bid on the table, and with the Shaman variant the answers picked from the standing bid
(Coyote!, Eye of the Lynx, Cancel) and the seat a power names picked on the table.

Along the way: a choice is let go of (Never mind, Escape), a move is made by keyboard alone,
every listed move reads in words, a refused move shows the rule and changes nothing, and a
phone-wide page has no sideways scroll while the person plays.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.async_api import Page, Route, expect

from tests.browser.playing import MOST_MOVES, start_alone
from tests.browser.viewer import PATIENCE_MS, WIDTHS

CONTROLS = '#play [data-controls="coyote"]'
BID = f"{CONTROLS} button[data-bid]"
NUMBER = "#coyote-number"
POWER = "#coyote-power"
STANDING = "#board .bid-now"
ANSWER = '#board .bid-now [data-play="answer"]'  # the one answer there is: a click plays it
PICK = '#board .bid-now [data-play="bid"]'  # several answers: a click picks the bid first
MENU = "#board .answer-menu"
LYNX_LISTED = '#play .commands button[data-command-type="coyote.eye-of-the-lynx"]'
TARGETS = '#board .seat-panel [data-play="target"]'  # a seat a chosen power may name
PROMPT = "#board .play-prompt"
# The plain fallback of a command ("Bid: number 4; power hidden; target hidden."), never shown.
RAW = re.compile(r"^(Bid|Challenge|Eye of the lynx|Cancel)[:.]|\b(number|power|target) |;")
WORDS = {
    "coyote.bid": re.compile(r"^Bid \d+(, instead of your cancelled bid of \d+| with .+)?$"),
    "coyote.challenge": re.compile(r"^Call “Coyote!” on .+'s bid of \d+: the heads are shown"),
    "coyote.eye-of-the-lynx": re.compile(r"^Eye of the Lynx: repeat .+'s bid of \d+ as your own"),
    "coyote.cancel": re.compile(r"^Cancel the bid of \d+ by .+: that player must bid another"),
}


# The seat may move: the controls of this turn are up (a sent move's stay, disabled, until the
# next moves are read) and the table shows the game as it is now; or the game is over.
READY = """() => {
  if (document.querySelector("#outcome .outcome")) return true;
  const board = document.querySelector("#board");
  const version = document.querySelector('[data-fact="events"]')?.textContent;
  return board.dataset.seq === version && !board.hasAttribute("aria-busy") &&
    document.querySelector('#play [data-controls="coyote"] button:not(:disabled)') !== null;
}"""


async def my_turn(page: Page) -> bool:
    """Waits until the seat may move (True) or the game is over (False)."""
    await page.wait_for_function(READY, timeout=60_000)
    return not await page.locator("#outcome .outcome").count()


async def events(page: Page) -> str:
    return await page.locator('[data-fact="events"]').text_content() or ""


async def moved_on(page: Page, before: str) -> None:
    """The move is in once the game's version moves on (the page follows it live)."""
    await expect(page.locator('[data-fact="events"]')).not_to_have_text(before, timeout=PATIENCE_MS)


async def said(page: Page, sentence: str) -> None:
    """The timeline says it."""
    await expect(page.locator("#timeline .events")).to_contain_text(sentence)


async def words_are_plain(page: Page, seen: set[str]) -> None:
    """Every listed move reads as a player says it: none is the plain fallback."""
    # Read where they are listed (folded there: the panel may be drawn anew at any moment).
    pairs = await page.locator("#play .commands button").evaluate_all(
        "(all) => all.map((b) => [b.dataset.commandType, b.textContent])"
    )
    assert pairs, "no move is listed"
    for kind, text in pairs:
        if kind == "game.resign":
            continue
        assert kind in WORDS, kind
        assert WORDS[kind].search(text) and not RAW.search(text), text
        seen.add(kind)
    assert "hidden;" not in (await page.locator("body").inner_text())


async def no_sideways_scroll(page: Page, screenshots: Path, name: str) -> None:
    """At a phone's width the page scrolls down only; its screenshot, then the usual width."""
    size = page.viewport_size
    await page.set_viewport_size({"width": 390, "height": 900})
    scroll, client, wide = await page.evaluate(WIDTHS)
    assert scroll <= client, (scroll, client, wide)
    await page.locator("#play").screenshot(path=str(screenshots / f"play-coyote-{name}-panel.png"))
    await page.locator("#table").screenshot(path=str(screenshots / f"play-coyote-{name}-table.png"))
    if size:
        await page.set_viewport_size(size)


async def open_with_controls(page: Page) -> None:
    """A bid from the controls, the lowest they offer (the number they start with)."""
    before = await events(page)
    number = await page.locator(NUMBER).input_value()
    await expect(page.locator(BID)).to_have_text(f"Bid {number}")
    await page.click(BID)
    await moved_on(page, before)


async def call_coyote(page: Page) -> None:
    """Calls "Coyote!" on the standing bid by clicking it on the table (picked first where the
    bid has several answers)."""
    before = await events(page)
    if await page.locator(PICK).count():
        await page.click(PICK)
        await page.click(f'{MENU} [data-answer="coyote.challenge"]')
    else:
        label = await page.locator(ANSWER).get_attribute("aria-label") or ""
        assert WORDS["coyote.challenge"].search(label), label
        await page.click(f"{STANDING} .bid-number")  # the bid itself: a click on it calls it
    await moved_on(page, before)


async def plain_turn(page: Page) -> None:
    """Calls "Coyote!" on any bid that stands, else bids the lowest number (as after a Cancel)."""
    if await page.locator(f"{ANSWER}, {PICK}").count():
        await call_coyote(page)
    else:
        await open_with_controls(page)


async def raise_with_a_typed_number(page: Page) -> None:
    """A number typed that the rules refuse is said so and cannot be sent; a good one is bid."""
    lowest = int(await page.locator(NUMBER).get_attribute("min") or "0")
    await page.fill(NUMBER, str(lowest - 1))
    await expect(page.locator(BID)).to_be_disabled()
    await expect(page.locator(f"{CONTROLS} .coyote-note")).to_contain_text("not a bid you may make")
    before = await events(page)
    await page.fill(NUMBER, str(lowest + 1))
    await expect(page.locator(BID)).to_have_text(f"Bid {lowest + 1}")
    await page.press(NUMBER, "Enter")  # the number's form sends it
    await moved_on(page, before)
    await said(page, f"Ada (seat 0) bids {lowest + 1}.")


async def refused_move(page: Page) -> None:
    """A move changed on its way (a bid of 1 where a bid stands, else "Coyote!" on no bid):
    refused with the rule, and nothing changes; the same move then goes through."""
    before = await events(page)
    standing = await page.locator(f"{ANSWER}, {PICK}").count()
    forged = {"type": "coyote.bid", "number": 1} if standing else {"type": "coyote.challenge"}

    async def illegal(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        await route.continue_(post_data=json.dumps({**body, "command": forged}))

    await page.route("**/commands", illegal)
    await page.click(BID)
    refusal = page.locator("#play-refusal")
    await expect(refusal).to_contain_text("Refused:")
    rule = "bid-not-higher" if standing else "no-bid-to-challenge"
    await expect(refusal).to_contain_text(f"rule coyote.{rule}")
    await page.unroute("**/commands")
    await expect(page.locator('[data-fact="events"]')).to_have_text(before)
    await expect(page.locator(BID)).to_be_enabled()
    assert await page.locator(f"{ANSWER}, {PICK}").count() == standing
    assert await page.locator("#play .commands button:disabled").count() == 0


async def test_a_person_plays_coyote_by_clicking_to_the_end(
    person: Page, screenshots: Path
) -> None:
    await start_alone(person, "coyote")  # against three bots, without the Shaman variant
    seen: set[str] = set()
    done: set[str] = set()
    for _ in range(MOST_MOVES):
        if not await my_turn(person):
            break
        if len(seen) < 2:
            await words_are_plain(person, seen)
        if "refused" not in done:
            await person.screenshot(path=str(screenshots / "play-coyote-start.png"), full_page=True)
            await refused_move(person)
            done.add("refused")
        standing = await person.locator(ANSWER).count()
        if standing and "raise" not in done:
            await no_sideways_scroll(person, screenshots, "phone")
            await raise_with_a_typed_number(person)
            done.add("raise")
        elif standing and "keyboard" not in done:
            await person.screenshot(path=str(screenshots / "play-coyote-bid.png"), full_page=True)
            before = await events(person)
            await person.focus(ANSWER)
            await person.keyboard.press("Enter")
            await moved_on(person, before)
            await said(person, "Ada (seat 0) calls Coyote!")
            done.add("keyboard")
        else:
            await plain_turn(person)
    else:
        raise AssertionError(f"the game did not end after {MOST_MOVES} moves of the person's")
    assert done == {"refused", "raise", "keyboard"}, done
    assert seen == {"coyote.bid", "coyote.challenge"}, seen
    await expect(person.locator("#outcome .outcome")).to_contain_text("The game is over")
    await expect(person.locator(f"#board [data-play], {CONTROLS}")).to_have_count(0)
    await person.screenshot(path=str(screenshots / "play-coyote-end.png"), full_page=True)


async def start_with_the_form(page: Page, seats: int, feathers: int) -> str:
    """A table of Coyote with the Shaman variant from the front page's full form: the person
    in seat 0, greedy bots in the others."""
    await page.goto("/")
    await page.fill("#my-name", "Ada")
    await page.locator("details summary").first.click()
    await page.select_option("#start-kind", "coyote")
    await page.select_option("#start-seats", str(seats))
    await page.fill("#option-feathers", str(feathers))
    await page.check("#option-shaman")
    await page.click("#start-form button[type=submit]")
    await page.wait_for_url("**/games/*", timeout=PATIENCE_MS)
    await page.wait_for_selector("#board[data-seq]:not([aria-busy])", timeout=PATIENCE_MS)
    return page.url.rsplit("/", 1)[-1]


async def power_on_a_seat(page: Page, screenshots: Path) -> None:
    """A power that names a player: chosen in the controls, let go of, chosen again, and its
    seat clicked on the table."""
    await page.select_option(POWER, "take-a-card")
    await expect(page.locator(PROMPT)).to_contain_text("Take a Card with your bid of")
    await expect(page.locator(TARGETS)).to_have_count(3)  # any player in the game, you too
    await page.locator(PROMPT).get_by_role("button", name="Never mind").click()
    await expect(page.locator(TARGETS)).to_have_count(0)
    await expect(page.locator(PROMPT)).to_have_count(0)
    await expect(page.locator(POWER)).to_have_value("")

    await page.select_option(POWER, "it-is-your-turn")
    await expect(page.locator(TARGETS)).to_have_count(2)  # another player
    await page.locator(TARGETS).first.focus()
    await page.keyboard.press("Escape")
    await expect(page.locator(TARGETS)).to_have_count(0)
    await expect(page.locator(POWER)).to_have_value("")

    await page.select_option(POWER, "it-is-your-turn")
    await expect(page.locator(BID)).to_be_disabled()  # no seat named yet
    await no_sideways_scroll(page, screenshots, "shaman-phone")
    await page.screenshot(path=str(screenshots / "play-coyote-target.png"), full_page=True)
    target = page.locator(TARGETS).last
    label = await target.get_attribute("aria-label") or ""
    assert re.search(r"^Bid \d+ with It Is Your Turn: Bot \d .+ answers it next$", label), label
    await expect(target).to_have_text(re.compile(r"^Bid \d+ with It Is Your Turn$"))
    before = await events(page)
    # A click anywhere on the seat names it, as its button does.
    await page.locator("#board .seat-panel.playable").last.locator("h3").click()
    await moved_on(page, before)
    await said(page, "with the power It Is Your Turn on Bot")


async def test_a_person_plays_the_shaman_variant_to_the_end(
    person: Page, screenshots: Path
) -> None:
    await start_with_the_form(person, seats=3, feathers=2)
    seen: set[str] = set()
    powered = False
    for _ in range(MOST_MOVES):
        if not await my_turn(person):
            break
        if not powered:
            await words_are_plain(person, seen)
            await power_on_a_seat(person, screenshots)
            powered = True
            continue
        # The power is spent: no power to choose, and a bid has but one answer, "Coyote!".
        await expect(person.locator(POWER)).to_have_count(0)
        await expect(person.locator(PICK)).to_have_count(0)
        await plain_turn(person)
    else:
        raise AssertionError(f"the game did not end after {MOST_MOVES} moves of the person's")
    assert powered
    assert "coyote.bid" in seen
    await expect(person.locator("#outcome .outcome")).to_contain_text("The game is over")
    await person.screenshot(path=str(screenshots / "play-coyote-shaman-end.png"), full_page=True)


async def pick_the_bid(page: Page) -> None:
    """The standing bid picked: its answers are offered, each in words, and a way back."""
    await page.click(PICK)
    await expect(page.locator(f"{STANDING}.selected")).to_have_count(1)
    await expect(page.locator(PICK)).to_have_attribute("aria-expanded", "true")
    await expect(page.locator(f"{MENU} [data-play]").first).to_be_focused()
    for kind in ("coyote.challenge", "coyote.eye-of-the-lynx", "coyote.cancel"):
        label = await page.locator(f'{MENU} [data-answer="{kind}"]').get_attribute("aria-label")
        assert WORDS[kind].search(label or ""), label


@pytest.mark.parametrize("answer", ["coyote.eye-of-the-lynx", "coyote.cancel"])
async def test_a_shaman_answer_is_picked_from_the_standing_bid(
    person: Page, screenshots: Path, answer: str
) -> None:
    await start_with_the_form(person, seats=3, feathers=3)
    for _ in range(MOST_MOVES):
        assert await my_turn(person), "the game ended before a bid stood on the person's turn"
        if await person.locator(PICK).count() and await person.locator(LYNX_LISTED).count():
            break
        # No bid to answer yet, or it is an Eye of the Lynx (which that power cannot answer):
        # the person bids, the lowest number the controls offer.
        await open_with_controls(person)
    seen: set[str] = set()
    await words_are_plain(person, seen)
    assert {"coyote.challenge", "coyote.eye-of-the-lynx", "coyote.cancel"} <= seen, seen

    # Picked, then let go of: by Never mind, by Escape; the keyboard alone picks it too.
    await person.locator("#play details.all-commands > summary").click()  # every move, in words
    await pick_the_bid(person)
    await person.screenshot(path=str(screenshots / "play-coyote-answers.png"), full_page=True)
    await person.locator(MENU).get_by_role("button", name="Never mind").click()
    await expect(person.locator(MENU)).to_have_count(0)
    await expect(person.locator(PICK)).to_be_focused()
    await person.keyboard.press("Enter")
    await expect(person.locator(MENU)).to_be_visible()
    await person.keyboard.press("Escape")
    await expect(person.locator(MENU)).to_have_count(0)
    await expect(person.locator(PICK)).to_have_attribute("aria-expanded", "false")

    bid = await person.locator(f"{STANDING} .bid-number").text_content()
    await pick_the_bid(person)
    before = await events(person)
    await person.click(f'{MENU} [data-answer="{answer}"]')
    await moved_on(person, before)
    if answer == "coyote.eye-of-the-lynx":
        await said(person, f"Ada (seat 0) calls the Eye of the Lynx on {bid}.")
        return
    await said(person, "Ada (seat 0) cancels")
    # The bidder bids again, then the canceller answers: the power is spent, "Coyote!" alone.
    assert await my_turn(person)
    await expect(person.locator(ANSWER)).to_be_visible()
    await expect(person.locator(f"{CONTROLS} [data-answer]")).to_have_count(1)
    await person.screenshot(path=str(screenshots / "play-coyote-after-cancel.png"), full_page=True)
    await call_coyote(person)
