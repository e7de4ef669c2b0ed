"""A person plays Big Manitou in the browser against the server's bot, by clicking: the secret
choice of the hunt's cards on the table and in the play panel, a card of the hand then a hunting
ground (and a cancel on the way), the booty tiles of a pick, the Totem's and the Horse's
privileges, the Leather Thief's tile; a move forged on its way is refused and changes nothing;
and two people choose at once, each without seeing the other's cards.

Nothing here talks to the API for the player: every move is a click on the page, on the drawing
where it offers the move, in the panel's controls, and from the list only when neither does.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from playwright.async_api import Browser, Page, Route, expect
from playwright.async_api import Error as PlaywrightError

from tests.browser.conftest import VIEWPORT, fresh_page
from tests.browser.playing import MOST_MOVES, first_listed_move, join_from_front_page, start_alone
from tests.browser.viewer import PATIENCE_MS, WIDTHS
from tests.servers import Server

KIND = "big-manitou"
DRAWING = '#board [data-drawing="big-manitou"]'
OFFERING = f"{DRAWING}[data-moves]"  # the drawing while it offers the person's moves
# What a command would read as without the kind's own words (describe.js, plainSentence).
RAW = ("Choose cards:", "Play card:", "Move hunter:", "Take tiles:", "Discard tile:")
EVERY_COMMAND = [
    {"type": "big-manitou.choose-cards", "cards": ["hunter-1", "chief", "chief", "scout"]},
    {"type": "big-manitou.play-card", "card": "hunter-7", "ground": 1},
    {"type": "big-manitou.move-hunter", "card": "hunter-7", "ground": 2},
    {"type": "big-manitou.pass"},
    {"type": "big-manitou.take-tiles", "tiles": ["tepee-2", "totem"]},
    {"type": "big-manitou.discard-tile", "tile": "buffalo-3"},
]
# Each command in the kind's words, in each phase where a pass may come (the Totem's, the Horse's).
WORDS = """async (commands) => {
  const kind = await import("/web/js/kinds/big-manitou.js");
  const cards = [{ owner: 0, card: "hunter-7" }];
  const view = { viewer: 0, evaluating: 0, grounds: [{ tiles: [], cards }] };
  return ["eighth-card", "horse-move"].flatMap((phase) =>
    commands.map((command) => kind.commandWords(command, { ...view, phase })));
}"""


# The phase once the page offers the person's moves on the game as it is now (the table shows the
# version the summary shows: a table a step behind may still show the moves just made), or "over".
SETTLED = """() => {
  if (document.querySelector("#outcome .outcome")) return "over";
  const board = document.getElementById("board");
  const drawing = board.querySelector("[data-drawing][data-moves]");
  const version = document.querySelector('[data-fact="events"]')?.textContent;
  const panel = document.querySelector('#play [data-turn="yours"]');
  const ready = drawing && !board.hasAttribute("aria-busy") && board.dataset.seq === version
    && panel && !document.querySelector("#play button:disabled");
  return ready ? drawing.dataset.phase : false;
}"""


async def your_move(page: Page) -> str:
    """Waits for the person's turn (the drawing offers moves) or the game's end: the phase, or
    "over"."""
    settled = await page.wait_for_function(SETTLED, timeout=60_000)
    phase: str = await settled.json_value()
    return phase


async def events(page: Page) -> str:
    return await page.locator('[data-fact="events"]').text_content() or ""


async def moved_on(page: Page, before: str) -> None:
    """The move is in once the game's version moves on (or a refusal says why it is not)."""
    await page.wait_for_function(
        """(before) => document.querySelector('[data-fact="events"]')?.textContent !== before
          || !document.getElementById("play-refusal")?.hidden""",
        arg=before,
        timeout=PATIENCE_MS,
    )


async def as_it_stands(page: Page) -> str:
    """The page's panel and the table's guide in words, for a failure to say."""
    panel = await page.locator("#play").inner_text()
    guide = await page.locator(f"{DRAWING} .bm-guide").all_inner_texts()
    board = await page.locator("#board").get_attribute("data-seq")
    return f"table at event {board}, events {await events(page)}; {guide}; panel: {panel[:600]}"


async def table_shot(page: Page, screenshots: Path, name: str) -> None:
    """The table alone, at its own size: what a step of a move looks like."""
    await page.locator("#board").screenshot(path=str(screenshots / f"play-big-manitou-{name}.png"))


async def no_sideways_scroll(page: Page, screenshots: Path, name: str) -> None:
    await page.set_viewport_size({"width": 390, "height": 900})
    await page.wait_for_timeout(200)
    scroll, client, wide = await page.evaluate(WIDTHS)
    for part in ("play", "board"):
        shot = screenshots / f"play-big-manitou-{name}-{part}.png"
        await page.locator(f"#{part}").screenshot(path=str(shot))
    assert scroll <= client, (name, wide)
    await page.set_viewport_size(VIEWPORT)  # type: ignore[arg-type]


async def listed_words(page: Page) -> list[str]:
    folded = page.locator("#play details.all-commands:not([open]) > summary")
    if await folded.count():
        await folded.click()
    return await page.locator("#play .commands button").all_inner_texts()


async def check_words(page: Page, phase: str, seen: set[str]) -> None:
    """Once per phase: the listed moves are said in words, none as raw fields."""
    if phase in seen:
        return
    seen.add(phase)
    texts = await listed_words(page)
    assert texts, phase
    raw = [text for text in texts if text.startswith(RAW) or text.strip() == "Pass."]
    assert not raw, (phase, raw[:3])


async def choose_on_the_table(page: Page, screenshots: Path) -> None:
    """The first hunt's secret choice, card by card on the drawing, a card let go on the way;
    then the choice sent."""
    guide = page.locator(f"{DRAWING} .bm-guide")
    # The bot's choice comes in its own time; once it is in, nothing moves until the person's.
    controls = page.locator("#play [data-controls=choose]")
    await expect(guide).to_contain_text("has chosen already", timeout=60_000)
    await expect(controls).to_contain_text("has chosen already")
    await expect(guide).to_contain_text("in secret")
    await expect(guide).to_contain_text("at the same time")
    await expect(controls).to_contain_text("secret choice")
    pool = page.locator(f'{DRAWING} [data-pool="choice"]')
    first = pool.locator("[data-play]").first
    kind = await first.get_attribute("data-choose-card")
    await first.click()
    await expect(page.locator(DRAWING)).to_have_attribute("data-choice", "choose")
    await expect(guide).to_contain_text("Chosen so far: 1 of")
    await expect(page.locator("#play [data-chosen]")).to_have_attribute("data-chosen", "1")
    # Let go of it again (a chosen card is pressed again): nothing chosen any more.
    await pool.locator(f'[data-choose-card="{kind}"][aria-pressed="true"]').click()
    await expect(guide).to_contain_text("Chosen so far: 0 of")
    # Then card by card until the set is whole, by keyboard for one of them.
    await pool.locator('[data-play][aria-pressed="false"]').first.focus()
    await page.keyboard.press("Enter")
    await expect(guide).to_contain_text("Chosen so far: 1 of")
    while not await page.locator(f'{DRAWING} [data-play="confirm"]').count():
        await pool.locator('[data-play][aria-pressed="false"]').first.click()
    await expect(page.locator("#play [data-control=confirm]")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    await page.screenshot(path=str(screenshots / "play-big-manitou-choosing.png"), full_page=True)
    await no_sideways_scroll(page, screenshots, "choosing-390")

    before = await events(page)
    await page.locator(f'{DRAWING} [data-play="confirm"]').click()
    await moved_on(page, before)


async def refused(page: Page, screenshots: Path) -> None:
    """A choice forged on its way (one card only): refused with the rule, and nothing changes;
    the choice under way stays as it was."""
    version = await events(page)
    chosen = await page.locator("#play [data-chosen]").get_attribute("data-chosen")

    async def forged(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        command = {"type": "big-manitou.choose-cards", "cards": ["hunter-1"]}
        await route.continue_(post_data=json.dumps({**body, "command": command}))

    await page.route("**/commands", forged)
    await page.locator("#play [data-control=confirm]").click()
    await expect(page.locator("#play-refusal")).to_contain_text("Refused:")
    await expect(page.locator("#play-refusal")).to_contain_text("rule big-manitou.")
    await page.unroute("**/commands")
    await expect(page.locator('[data-fact="events"]')).to_have_text(version)
    panel = page.locator("#play [data-controls=choose]")
    await expect(panel.locator("[data-chosen]")).to_have_attribute("data-chosen", chosen or "")
    await expect(panel.locator("[data-control=confirm]")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    # The panel's buttons are back, and still none adds a card to the whole choice.
    assert not await panel.locator('.bm-toggle[aria-pressed="false"]:not([aria-disabled])').count()
    await page.screenshot(path=str(screenshots / "play-big-manitou-refused.png"), full_page=True)


async def choose_in_the_panel(page: Page, screenshots: Path) -> None:
    """A later hunt's choice in the play panel: at random, cleared, a card, the rest at random,
    a forged choice refused on the way, then the choice sent."""
    panel = page.locator("#play [data-controls=choose]")
    # Once the bot's choice is in (the table and the panel say so), nothing moves until the
    # person's.
    guide = page.locator(f"{DRAWING} .bm-guide")
    await expect(guide).to_contain_text("has chosen already", timeout=60_000)
    await expect(panel).to_contain_text("has chosen already")
    await panel.locator("[data-control=random]").click()
    await expect(panel.locator("[data-control=confirm]")).not_to_have_attribute(
        "aria-disabled", "true"
    )
    await panel.locator("[data-control=clear]").click()
    await expect(panel.locator("[data-chosen]")).to_have_attribute("data-chosen", "0")
    await panel.locator('button.bm-toggle:not([aria-disabled="true"])').first.click()
    await expect(panel.locator("[data-chosen]")).to_have_attribute("data-chosen", "1")
    await panel.locator("[data-control=random]").click()
    await refused(page, screenshots)
    before = await events(page)
    await panel.locator("[data-control=confirm]").click()
    await moved_on(page, before)


async def play_a_card(page: Page, made: Counter[str], screenshots: Path) -> None:
    """A card of the hand, then a ground (cancelled once on the way); or a one-click card."""
    drawing = page.locator(DRAWING)
    before = await events(page)
    hand = page.locator(f'{DRAWING} [data-play^="hand:"]')
    card = hand.first
    if await hand.locator(':scope[aria-pressed="false"]').count():
        card = hand.locator(':scope[aria-pressed="false"]').first
    key = await card.get_attribute("data-play")
    two_steps = await card.get_attribute("aria-pressed") is not None
    await card.click()
    if not two_steps:
        made["play (one click)"] += 1
        await moved_on(page, before)
        return
    await expect(drawing).to_have_attribute("data-choice", "card")
    if not made["cancel"]:
        await table_shot(page, screenshots, "card-chosen")
        await no_sideways_scroll(page, screenshots, "chosen-390")
        await page.locator(f'{DRAWING} [data-action="cancel"]').click()
        await expect(drawing).not_to_have_attribute("data-choice", "card")
        await expect(page.locator(f'{DRAWING} [data-play^="ground:"]')).to_have_count(0)
        made["cancel"] += 1
        await page.locator(f'{DRAWING} [data-play="{key}"]').click()
        await expect(drawing).to_have_attribute("data-choice", "card")
    await page.locator(f'{DRAWING} [data-play^="ground:"]').first.click()
    made["play (card, then ground)"] += 1
    await moved_on(page, before)


async def ride_the_horse(page: Page, made: Counter[str], screenshots: Path) -> None:
    before = await events(page)
    await page.locator(f'{DRAWING} [data-play^="hunter:"]').first.click()
    await expect(page.locator(DRAWING)).to_have_attribute("data-choice", "hunter")
    await table_shot(page, screenshots, "hunter-chosen")
    await page.locator(f'{DRAWING} [data-play^="ground:"]').first.click()
    made["horse (hunter, then ground)"] += 1
    await moved_on(page, before)


async def take_tiles(page: Page, made: Counter[str], screenshots: Path) -> None:
    before = await events(page)
    tiles = page.locator(f'{DRAWING} [data-play^="take:"]')
    await tiles.first.click()
    if await page.locator(f'{DRAWING}[data-choice="tiles"]').count():
        await table_shot(page, screenshots, "tile-chosen")
        await page.locator(f'{DRAWING} [data-play^="take:"]:not([aria-pressed])').first.click()
        made["take (tile, then tile)"] += 1
    else:
        made["take (one tile)"] += 1
    await moved_on(page, before)


async def act(page: Page, phase: str, made: Counter[str], screenshots: Path) -> None:
    """One move of the person's, where a person would make it."""
    drawing = page.locator(DRAWING)
    if phase == "choosing":
        if not made["choose (on the table)"]:
            await choose_on_the_table(page, screenshots)
            made["choose (on the table)"] += 1
        elif not made["choose (in the panel)"]:
            await choose_in_the_panel(page, screenshots)
            made["choose (in the panel)"] += 1
        else:
            before = await events(page)
            await drawing.locator('[data-play="random"]').click()
            await drawing.locator('[data-play="confirm"]').click()
            made["choose (at random, on the table)"] += 1
            await moved_on(page, before)
        return
    if phase in ("eighth-card", "horse-move") and not made["pass"]:
        await table_shot(page, screenshots, phase)
        before = await events(page)
        await page.locator("#play [data-control=pass]").click()
        made["pass"] += 1
        await moved_on(page, before)
        return
    if await drawing.locator('[data-play^="hand:"]').count():
        await play_a_card(page, made, screenshots)
    elif await drawing.locator('[data-play^="hunter:"]').count():
        await ride_the_horse(page, made, screenshots)
    elif await drawing.locator('[data-play^="take:"]').count():
        await take_tiles(page, made, screenshots)
    elif await drawing.locator('[data-play^="give:"]').count():
        before = await events(page)
        await table_shot(page, screenshots, "thief")
        await drawing.locator('[data-play^="give:"]').first.click()
        made["give (a tile to the thief)"] += 1
        await moved_on(page, before)
    elif await drawing.locator('[data-play="pass"]').count():
        before = await events(page)
        await drawing.locator('[data-play="pass"]').click()
        made["pass"] += 1
        await moved_on(page, before)
    else:
        before = await events(page)
        await (await first_listed_move(page)).click()
        made[f"listed ({phase})"] += 1
        await moved_on(page, before)


async def test_a_person_plays_big_manitou_against_a_bot_to_the_end(
    person: Page, screenshots: Path
) -> None:
    await start_alone(person, KIND)
    await expect(person.locator("#play")).to_be_visible()
    said = await person.evaluate(WORDS, EVERY_COMMAND)
    assert all(text and not text.startswith(RAW) and text != "Pass." for text in said), said
    made: Counter[str] = Counter()
    worded: set[str] = set()
    for _ in range(MOST_MOVES):
        phase = await your_move(person)
        if phase == "over":
            break
        await check_words(person, phase, worded)
        try:
            await act(person, phase, made, screenshots)
        except (AssertionError, PlaywrightError) as error:
            raise AssertionError(
                f"{phase}, after {dict(made)}: {await as_it_stands(person)}"
            ) from error
        # A refused move (the game moved on meanwhile) is tried again as the page stands.
        if await person.locator("#play-refusal:visible").count():
            made["refused on the way"] += 1
    else:
        raise AssertionError(f"the game did not end after {MOST_MOVES} moves: {made}")
    await expect(person.locator("#outcome .outcome")).to_contain_text("The game is over")
    await expect(person.locator(f"{DRAWING} [data-play]")).to_have_count(0)
    await person.screenshot(path=str(screenshots / "play-big-manitou-end.png"), full_page=True)
    print(dict(made))  # which of the hunt's decisions came the person's way, for the record
    for way in ("choose (on the table)", "choose (in the panel)", "cancel"):
        assert made[way] == 1, made
    assert made["play (card, then ground)"] >= 1, made
    assert not any(way.startswith("listed") for way in made), made


async def test_two_people_choose_at_once_each_in_secret(
    browser: Browser, play_server: Server, screenshots: Path
) -> None:
    async with fresh_page(browser, play_server) as ann, fresh_page(browser, play_server) as bob:
        await ann.goto("/")
        await ann.fill("#my-name", "Ann")
        await ann.locator("details summary").first.click()
        await ann.select_option("#start-kind", KIND)
        await ann.select_option("#start-seats", "2")
        await ann.select_option('[data-seat="1"]', "player")
        await ann.click("#start-form button[type=submit]")
        await ann.wait_for_url("**/games/*", timeout=PATIENCE_MS)
        game_id = ann.url.rsplit("/", 1)[-1]
        await join_from_front_page(bob, game_id, "Bob")
        for page in (ann, bob):
            assert await your_move(page) == "choosing"

        # Ann chooses (at random, in the panel): her choice is hers alone, and she waits.
        panel = ann.locator("#play [data-controls=choose]")
        await panel.locator("[data-control=random]").click()
        await panel.locator("[data-control=confirm]").click()
        waiting = ann.locator(f'{DRAWING} [data-guide="waiting"]')
        await expect(waiting).to_contain_text("in secret", timeout=PATIENCE_MS)
        await expect(waiting).to_contain_text("Bob (seat 1) is still choosing")
        await expect(ann.locator('#play [data-turn="theirs"]')).to_contain_text("Waiting for Bob")
        chosen = ann.locator(f'{DRAWING} [data-pool="chosen"] [data-card]')
        await expect(chosen).not_to_have_count(0)
        await expect(ann.locator(f"{DRAWING} [data-play]")).to_have_count(0)
        await ann.screenshot(path=str(screenshots / "play-big-manitou-waiting.png"), full_page=True)

        # Bob sees that Ann has chosen, not what; he still chooses, and sees it is secret.
        ann_panel = bob.locator(f'{DRAWING} [data-seat="0"]')
        await expect(ann_panel).to_contain_text("has chosen, in secret", timeout=PATIENCE_MS)
        await expect(bob.locator(f'{DRAWING} [data-pool="chosen"]')).to_have_count(0)
        await expect(bob.locator(f"{DRAWING} .bm-guide")).to_contain_text("at the same time")
        await expect(bob.locator(f'{DRAWING} [data-pool="choice"] [data-play]')).not_to_have_count(
            0
        )
        await bob.screenshot(path=str(screenshots / "play-big-manitou-other-chooses.png"))

        # Bob's choice is the last: the cards are dealt, and the hunt's first card is played.
        await bob.locator(f'{DRAWING} [data-play="random"]').click()
        await bob.locator(f'{DRAWING} [data-play="confirm"]').click()
        for page in (ann, bob):
            await expect(page.locator(DRAWING)).to_have_attribute(
                "data-phase", "playing", timeout=PATIENCE_MS
            )
            await expect(page.locator(f'{DRAWING} [data-pool="chosen"]')).to_have_count(0)


# -- the rarer decisions, each drawn from a view of its own ----------------------------------------

# The drawing of a view, offering `commands`: what it sends is kept in `window.sent`.
HARNESS = """async ([view, commands]) => {
  const kind = await import("/web/js/kinds/big-manitou.js");
  window.sent = [];
  let board = document.getElementById("harness");
  if (!board) {
    board = Object.assign(document.createElement("div"), { id: "harness", className: "board" });
    document.querySelector("main").prepend(board);
  }
  const play = { commands, send: (command) => window.sent.push(command) };
  board.replaceChildren(kind.draw(view, { viewer: view.viewer, play }));
}"""


def seat_view(seat: int, hand: list[str] | None = None, tiles: list[str] | None = None) -> dict:
    return {
        "seat": seat,
        "tiles": tiles or [],
        "tepees": 0,
        "buffaloes": 0,
        "points": 0,
        "cards_to_choose": 0,
        "has_chosen": True,
        "unavailable": [],
        "strength": 6,
        "hand_size": len(hand or []),
        "pile_size": 0,
        "chosen": None,
        "hand": hand if seat == 0 else None,
        "pile": [] if seat == 0 else None,
    }


def hunt_view(phase: str, **changes: object) -> dict:
    """Seat 0's view of a hunt at `phase`: hunter-3 and a Chief of seat 0's in ground 1, hunter-9
    in ground 2, seat 1's cards beside them."""

    def placed(owner: int, card: str) -> dict:
        return {"owner": owner, "card": card, "face_up": True}

    view = {
        "type": "big-manitou.view",
        "viewer": 0,
        "phase": phase,
        "to_act": [0],
        "finished": False,
        "hunt": 2,
        "hunts": 4,
        "dealer": 1,
        "first_player": 0,
        "grounds": [
            {"tiles": ["tepee-2", "tepee-2", "horse"], "cards": [placed(0, "hunter-3")]},
            {"tiles": ["buffalo-1", "totem"], "cards": [placed(1, "squaw"), placed(0, "hunter-9")]},
            {"tiles": ["tomahawk"], "cards": [placed(1, "hunter-5")]},
        ],
        "players": [seat_view(0, ["chief", "hunter-4"]), seat_view(1, [])],
        "totem_holder": 0,
        "horse_holder": 0,
        "bag_size": 40,
        "bag": None,
        "removed": [],
        "strengths": None,
        "thief_victims": [],
        "tomahawk_bonus": None,
        "evaluating": None,
        "picks": [],
        "scores": [0, 0],
        "ranking": [],
    }
    return {**view, **changes}


def play(card: str, ground: int) -> dict:
    return {"type": "big-manitou.play-card", "card": card, "ground": ground}


def ride(card: str, ground: int) -> dict:
    return {"type": "big-manitou.move-hunter", "card": card, "ground": ground}


PASS = {"type": "big-manitou.pass"}
HARNESS_AT = "#harness"


async def sent(page: Page) -> list[dict]:
    commands: list[dict] = await page.evaluate("window.sent")
    return commands


async def test_the_drawing_offers_every_decision_of_a_hunt(person: Page, screenshots: Path) -> None:
    await person.goto("/")
    board = person.locator(HARNESS_AT)

    # The Totem's eighth card: a pass, a card with one ground (one click), a card then a ground.
    eighth = [PASS, play("chief", 0), play("hunter-4", 0), play("hunter-4", 2)]
    await person.evaluate(HARNESS, [hunt_view("eighth-card"), eighth])
    await expect(board.locator(".bm-guide")).to_contain_text("You hold the Totem")
    await board.locator('[data-play="pass"]').focus()
    await person.keyboard.press(" ")  # once, though a button would click by itself too
    assert await sent(person) == [PASS]
    await board.locator('[data-play="hand:chief"]').click()
    assert (await sent(person))[-1] == play("chief", 0)
    await board.locator('[data-play="hand:hunter-4"]').click()
    await expect(board.locator('[data-play^="ground:"]')).to_have_count(2)
    await expect(board.locator('[data-ground="1"]')).to_contain_text("Not open to Hunter 4")
    await board.locator('[data-play="ground:2"]').click()
    assert (await sent(person))[-1] == play("hunter-4", 2)

    # The Horse: a Hunter of the seat's on the table, then another ground; Escape cancels.
    horse = [
        PASS,
        ride("hunter-3", 1),
        ride("hunter-3", 2),
        ride("hunter-9", 0),
        ride("hunter-9", 2),
    ]
    await person.evaluate(
        HARNESS, [hunt_view("horse-move", players=[seat_view(0, []), seat_view(1, [])]), horse]
    )
    await expect(board.locator('[data-play^="hunter:"]')).to_have_count(2)
    await board.locator('[data-play="hunter:hunter-3"]').focus()
    await person.keyboard.press("Enter")
    await expect(board.locator("[data-drawing]")).to_have_attribute("data-choice", "hunter")
    await expect(board.locator('[data-ground="0"]')).to_contain_text("rides from here")
    await expect(board.locator('[data-play="ground:1"]')).to_be_focused()
    await person.keyboard.press("Escape")
    await expect(board.locator('[data-play^="ground:"]')).to_have_count(0)
    await board.locator('[data-play="hunter:hunter-9"]').click()
    await board.screenshot(path=str(screenshots / "play-big-manitou-horse.png"))
    await board.locator('[data-play="ground:2"]').click()
    assert await sent(person) == [ride("hunter-9", 2)]

    # A pick of two tiles, one then the other (two identical Tepees are one choice).
    take = [
        {"type": "big-manitou.take-tiles", "tiles": ["tepee-2", "tepee-2"]},
        {"type": "big-manitou.take-tiles", "tiles": ["tepee-2", "horse"]},
    ]
    pick = {"seat": 0, "count": 2, "by": "best-hunters"}
    await person.evaluate(HARNESS, [hunt_view("picking", evaluating=0, picks=[pick]), take])
    await expect(board.locator('[data-ground="0"]')).to_contain_text(
        "takes 2 tiles (the best Hunters)"
    )
    await board.locator('[data-play="take:2"]').click()
    await expect(board.locator(".bm-guide")).to_contain_text("A Horse chosen")
    await board.locator('[data-play="take:2"]').click()  # let go again
    await board.locator('[data-play="take:0"]').click()
    await expect(board.locator('[data-play="take:2"]')).to_have_attribute(
        "aria-label", "Take 2 Tepees and a Horse from hunting ground 1."
    )
    await board.locator('[data-play="take:1"]').click()
    assert await sent(person) == [take[0]]

    # The Leather Thief: a Tepee or a Buffalo of the seat's booty, not its Totem.
    give = [
        {"type": "big-manitou.discard-tile", "tile": "tepee-1"},
        {"type": "big-manitou.discard-tile", "tile": "buffalo-2"},
    ]
    robbed = [seat_view(0, [], ["tepee-1", "totem", "buffalo-2"]), seat_view(1, [])]
    await person.evaluate(
        HARNESS, [hunt_view("leather-thief", players=robbed, thief_victims=[0]), give]
    )
    await expect(board.locator('[data-play^="give:"]')).to_have_count(2)
    await board.locator('[data-play="give:buffalo-2"]').click()
    assert await sent(person) == [give[1]]
