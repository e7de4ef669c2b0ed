"""The front page's bundle check takes receipts too (issue 27, item 4): the receipts a player
kept, held against a bundle in Chromium, their signatures verified and their pins opened by the
page itself (WebCrypto), with the keys the server lists or a keys file kept beforehand.

A game is played to the end over HTTP, its creation, command and head receipts kept. The page
then says that they match the exported bundle; that they prove the record changed once the last
command's time is rewritten in a re-sealed bundle (which the server's own audit cannot see),
naming the receipt and the first event that may differ; that a receipt with one byte of its
statement changed is unusable, no evidence either way; and axe-core finds nothing serious."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from playwright.async_api import Browser, FilePayload, Page, expect

from api.bundle import encode_bundle, read_bundle
from tests.api.helpers import create_game, detail, last_legal_command, play
from tests.browser.axe import violations
from tests.browser.conftest import fresh_page
from tests.browser.viewer import PATIENCE_MS
from tests.servers import Server

Envelope = dict[str, Any]


@dataclass(frozen=True)
class Played:
    """A finished game: its bundle, the receipts its player kept, the server's keys."""

    game_id: str
    bundle: bytes
    creation: Envelope
    commands: list[Envelope]
    head: Envelope
    keys: bytes


def version_of(envelope: Envelope) -> int:
    version: int = json.loads(base64.b64decode(envelope["payload"]))["version"]
    return version


@pytest.fixture(scope="module")
async def played(api: httpx.AsyncClient) -> Played:
    """A game of Coyote played to the end, every receipt the answers carried kept."""
    game = await create_game(api, kind="coyote", seats=3, seed="27" * 32)
    commands = []
    state = await detail(api, game)
    while state["status"] != "finished":
        seat = state["to_act"][0]
        command = await last_legal_command(api, game, seat)
        answer = await play(api, game, seat, command, expected_version=state["version"])
        assert answer.status_code == 200, answer.text
        state = answer.json()
        commands.append(state["receipt"])
    head = await api.get(f"{game.url}/receipt")
    assert head.status_code == 200, head.text
    bundle = await api.get(f"{game.url}/export")
    keys = await api.get("/v1/keys")
    assert bundle.status_code == keys.status_code == 200
    return Played(
        game.id, bundle.content, game.created["receipt"], commands, head.json(), keys.content
    )


@pytest.fixture
async def checked_page(browser: Browser, viewer_server: Server) -> AsyncIterator[Page]:
    """A front page the accessibility checker may be added to (its context lets axe in)."""
    async with fresh_page(browser, viewer_server, bypass_csp=True) as opened:
        yield opened


def upload(name: str, content: Any) -> FilePayload:
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    return {"name": name, "mimeType": "application/json", "buffer": data}


def receipt_files(played: Played) -> list[FilePayload]:
    """The player's receipts as kept: one, a list in `{"receipts": [...]}`, a list."""
    return [
        upload("creation.json", played.creation),
        upload("moves.json", {"receipts": played.commands}),
        upload("head.json", [played.head]),
    ]


def rewritten(bundle: bytes, seconds: int = 1) -> tuple[bytes, int, int]:
    """The bundle with its last command (and the events it produced) recorded `seconds` later,
    re-sealed: a consistent file whose hash chain still holds. Also the command's events."""
    original = read_bundle(bundle)
    last = original.commands[-1]
    later = last.recorded_at + timedelta(seconds=seconds)
    commands = (*original.commands[:-1], msgspec.structs.replace(last, recorded_at=later))
    events = tuple(
        msgspec.structs.replace(event, recorded_at=later)
        if last.first_seq <= event.seq <= last.last_seq
        else event
        for event in original.events
    )
    changed = msgspec.structs.replace(original, commands=commands, events=events)
    return encode_bundle(changed), last.first_seq, last.last_seq


def forged(envelope: Envelope) -> Envelope:
    """The envelope with one byte of its statement changed, its signature as it was."""
    payload = bytearray(base64.b64decode(envelope["payload"]))
    at = payload.index(b'"head":"') + len(b'"head":"')
    payload[at] = ord("0") if payload[at] != ord("0") else ord("1")
    return {**envelope, "payload": base64.b64encode(bytes(payload)).decode()}


async def check(page: Page, bundle: FilePayload, receipts: list[FilePayload]) -> None:
    """Chooses the bundle and the receipts; waits for the server's audit and the receipts'."""
    await page.set_input_files("#bundle-file", files=[bundle])
    await page.set_input_files("#receipt-files", files=receipts)
    await page.wait_for_selector("#verification [data-overall]", timeout=PATIENCE_MS)
    await page.wait_for_selector(
        "#receipts-verification [data-receipts-verdict]", timeout=PATIENCE_MS
    )


def watch_for_policy_errors(page: Page) -> list[str]:
    """The console's complaints of the page's policy (an inline script or style it refused)."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


async def test_the_receipts_of_a_game_match_its_bundle(page: Page, played: Played) -> None:
    refused = watch_for_policy_errors(page)
    await page.goto("/")
    await check(page, upload("bundle.json", played.bundle), receipt_files(played))
    result = page.locator("#receipts-verification")
    verdict = result.locator("[data-receipts-verdict]")
    await expect(verdict).to_have_attribute("data-receipts-verdict", "confirmed")
    final = json.loads(played.bundle)["version"]
    await expect(verdict).to_contain_text(
        f"{2 + len(played.commands)} usable receipts, up to version {final}"
    )
    rows = result.locator("tbody tr")
    await expect(rows).to_have_count(2 + len(played.commands))
    await expect(result.locator('tr[data-result="matches"]')).to_have_count(
        2 + len(played.commands)
    )
    labels = await rows.evaluate_all("rows => rows.map(row => row.dataset.receipt)")
    moves = [f"moves.json #{n}" for n in range(1, len(played.commands) + 1)]
    assert labels == ["creation.json", *moves, "head.json"]
    await expect(result.locator('tr[data-receipt="head.json"] td').first).to_have_text(
        f"head, finished, version {final}"
    )
    await expect(result.locator("[data-keys-from]")).to_have_attribute("data-keys-from", "server")
    await expect(page.locator("#verification [data-overall]")).to_have_attribute(
        "data-overall", "passed"
    )
    # The keys the player kept instead of the server's: the same verdict.
    await page.check('input[name=receipt-keys][value="file"]')
    await expect(page.locator("#keys-file")).to_be_enabled()
    await expect(result).to_contain_text("Choose the keys file you kept")
    await page.set_input_files("#keys-file", files=[upload("kept-keys.json", played.keys)])
    await expect(result.locator("[data-keys-from]")).to_have_attribute(
        "data-keys-from", "kept-keys.json"
    )
    await expect(verdict).to_have_attribute("data-receipts-verdict", "confirmed")
    # A kept list without the key that signed: no receipt is evidence any more.
    listed = json.loads(played.keys)
    others = {"keys": [key for key in listed["keys"] if not key["current"]]}
    await page.set_input_files("#keys-file", files=[upload("old-keys.json", others)])
    await expect(verdict).to_have_attribute("data-receipts-verdict", "none")
    await expect(result.locator('tr[data-result="unusable"]')).to_have_count(
        2 + len(played.commands)
    )
    await expect(result.locator('tr[data-receipt="head.json"] .detail')).to_contain_text(
        "not a listed key"
    )
    assert refused == []


async def test_a_bundle_changed_after_a_receipt_is_caught(
    page: Page, api: httpx.AsyncClient, played: Played
) -> None:
    bundle, first, last = rewritten(played.bundle)
    # The file is consistent: the server's audit of it alone finds nothing wrong.
    audit = (await api.post("/v1/audits", content=bundle)).json()
    assert audit["verdict"] == "passed", audit
    receipts = [played.creation, *played.commands, played.head]
    assert [version_of(item) for item in receipts].count(last) == 2  # the last command's, head's
    before = max(version_of(item) for item in receipts if version_of(item) < first)
    assert before == first - 1, "the command before the changed one is receipted"
    await page.goto("/")
    await check(page, upload("changed.json", bundle), receipt_files(played))
    result = page.locator("#receipts-verification")
    alarm = result.locator('[role="alert"][data-receipts-verdict]')
    await expect(alarm).to_have_attribute("data-receipts-verdict", "changed")
    # The first receipt contradicted, in version order then the files' order: the last command's.
    named = f"moves.json #{len(played.commands)}"
    await expect(alarm).to_have_attribute("data-receipt", named)
    await expect(alarm).to_have_attribute("data-first-seq", str(first))
    await expect(alarm).to_contain_text("The record was changed after a receipt was given.")
    await expect(alarm).to_contain_text(
        f"{named} (command {len(played.commands)}, version {last}) is contradicted: event {last} "
        "was recorded at"
    )
    where = (
        f"The first event that differs is {first}."
        if first == last
        else f"The first event that may differ is one of {first}..{last}: the receipts confirm "
        f"events 1..{first - 1} unchanged."
    )
    await expect(alarm).to_contain_text(where)
    await expect(result.locator('tr[data-result="contradicted"]')).to_have_count(2)
    await expect(result.locator('tr[data-receipt="head.json"]')).to_have_attribute(
        "data-result", "contradicted"
    )
    await expect(result.locator('tr[data-result="matches"]')).to_have_count(
        len(played.commands)  # the creation and every command but the last
    )
    await alarm.locator("[data-bad-seq]").click()
    await expect(page.locator(f"#verification #event-{first}")).to_have_attribute(
        "aria-selected", "true"
    )


async def test_a_forged_receipt_is_unusable_not_evidence(
    page: Page, api: httpx.AsyncClient, played: Played
) -> None:
    fake = upload("forged.json", forged(played.head))
    await page.goto("/")
    await check(page, upload("bundle.json", played.bundle), [fake])
    result = page.locator("#receipts-verification")
    verdict = result.locator("[data-receipts-verdict]")
    await expect(verdict).to_have_attribute("data-receipts-verdict", "none")
    row = result.locator('tr[data-receipt="forged.json"]')
    await expect(row).to_have_attribute("data-result", "unusable")
    await expect(row.locator(".detail")).to_have_text(
        'Not a receipt of this referee: its signature by key "sign-newer" does not verify: the '
        "statement or the signature was changed."
    )
    await expect(result.locator("[data-unusable]")).to_have_text(
        "1 receipt could not be used: it proves nothing either way."
    )
    await expect(result.locator(".receipts-alarm")).to_have_count(0)
    # Beside the genuine receipts it changes nothing: they alone are counted.
    await page.set_input_files("#receipt-files", files=[fake, *receipt_files(played)])
    await expect(verdict).to_have_attribute("data-receipts-verdict", "confirmed")
    await expect(verdict).to_contain_text(f"{2 + len(played.commands)} usable receipts")
    await expect(row).to_have_attribute("data-result", "unusable")
    # A receipt of another game, however well signed, is no evidence about this one either.
    other = await create_game(api, kind="coyote", seats=3)
    await page.set_input_files(
        "#receipt-files", files=[upload("other.json", other.created["receipt"])]
    )
    await expect(verdict).to_have_attribute("data-receipts-verdict", "none")
    await expect(result.locator('tr[data-receipt="other.json"] .detail')).to_have_text(
        f"A receipt of game {other.id}, not of {played.game_id}."
    )


async def test_the_results_have_no_serious_accessibility_violation(
    checked_page: Page, played: Played, screenshots: Path
) -> None:
    bundle, _, _ = rewritten(played.bundle)
    await checked_page.goto("/")
    files = [upload("forged.json", forged(played.head)), *receipt_files(played)]
    await check(checked_page, upload("changed.json", bundle), files)
    await expect(checked_page.locator("#receipts-verification .receipts-alarm")).to_be_visible()
    await expect(checked_page.locator("#receipts-verification [data-unusable]")).to_be_visible()
    assert await violations(checked_page) == []
    panel = checked_page.locator("section[aria-labelledby=verify-heading]")
    await panel.screenshot(path=screenshots / "receipts-check.png")


async def test_a_browser_without_ed25519_says_so(page: Page, played: Played) -> None:
    """An older browser's WebCrypto has no Ed25519 (Chromium before 137, Firefox before 129):
    the page says it cannot check the signatures and points to the offline verifier."""
    await page.add_init_script(
        """(() => {
          const importKey = SubtleCrypto.prototype.importKey;
          SubtleCrypto.prototype.importKey = function (format, data, algorithm, ...rest) {
            const name = typeof algorithm === "string" ? algorithm : algorithm.name;
            const refused = new DOMException("no Ed25519", "NotSupportedError");
            if (name === "Ed25519") return Promise.reject(refused);
            return importKey.call(this, format, data, algorithm, ...rest);
          };
        })()"""
    )
    await page.goto("/")
    await check(page, upload("bundle.json", played.bundle), receipt_files(played))
    said = page.locator("#receipts-verification [data-receipts-verdict]")
    await expect(said).to_have_attribute("data-receipts-verdict", "unsupported")
    await expect(said).to_contain_text("referee verify BUNDLE --keys KEYS --receipts FILE")
