"""The viewer in a real browser: Debian's Chromium driven by Playwright, against a real
`referee serve` process on the test run's database.

Playwright's own browser download cannot work here, so the tests launch the distribution's
Chromium (`make test` installs it as root with apt-get: the Makefile's `chromium` target).
Where it is missing they skip and say why, but only where it cannot be installed: in CI, or as
root with apt-get at hand, a missing Chromium fails the run instead of hiding the tests.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, ConsoleMessage, Page, async_playwright

from tests.servers import Server, start_server, stop_server

CHROMIUM = Path("/usr/bin/chromium")
# Headless, and quiet: without the background-networking flags Chromium reaches for the
# network at start, and this closed network refuses it.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"  # run output, for a reviewer to open
VIEWPORT = {"width": 1400, "height": 1000}


def chromium_or_skip() -> Path:
    if CHROMIUM.exists():
        return CHROMIUM
    installable = os.geteuid() == 0 and shutil.which("apt-get") is not None
    if os.environ.get("CI") or installable:
        pytest.fail(f"{CHROMIUM} is missing but can be installed here: run `make chromium`")
    pytest.skip(
        f"the browser tests need Debian's Chromium at {CHROMIUM}, which only root with "
        "apt-get can install (`make chromium`)"
    )


@pytest.fixture(scope="session")
def viewer_server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The API and its pages, served by a real process; no limit on audits (the page asks)."""
    chromium_or_skip()  # before starting anything
    directory = tmp_path_factory.mktemp("viewer")
    server = start_server(
        database_url,
        directory / "server.log",
        expensive_reads_per_minute=0,
        sse_heartbeat_seconds=0.5,
        shutdown_grace_seconds=2,
    )
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture(scope="session")
async def api(viewer_server: Server) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=viewer_server.url, timeout=60) as client:
        yield client


@pytest.fixture(scope="session")
async def browser(viewer_server: Server) -> AsyncIterator[Browser]:
    executable = chromium_or_skip()
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(executable), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        await launched.close()


@asynccontextmanager
async def fresh_page(browser: Browser, server: Server, **options: Any) -> AsyncIterator[Page]:
    """A page in a fresh browser context (no memory of other tests), which must raise no error
    (nor log that a drawing failed and fell back)."""
    context = await browser.new_context(viewport=VIEWPORT, base_url=server.url, **options)  # type: ignore[arg-type]
    opened = await context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))

    def console(message: ConsoleMessage) -> None:
        if "drawing failed" in message.text:
            errors.append(message.text)

    opened.on("console", console)
    yield opened
    await context.close()
    assert not errors, errors


@pytest.fixture
async def page(browser: Browser, viewer_server: Server) -> AsyncIterator[Page]:
    async with fresh_page(browser, viewer_server) as opened:
        yield opened


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


# -- playing: a server whose bots answer at once, and a person at a browser ---------------------


@pytest.fixture(scope="module")
def play_server(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose bots move at once (no pacing, no limit on games with bots) and sweep
    often: the person's game goes at the speed of the clicks."""
    directory = tmp_path_factory.mktemp("play")
    server = start_server(
        database_url,
        directory / "server.log",
        expensive_reads_per_minute=0,
        bot_games_per_minute=0,
        bot_cpu_share=1.0,
        sweep_interval_seconds=0.2,
        sse_heartbeat_seconds=0.5,
        shutdown_grace_seconds=2,
    )
    try:
        yield server
    finally:
        stop_server(server)


@pytest.fixture
async def person(browser: Browser, play_server: Server) -> AsyncIterator[Page]:
    async with fresh_page(browser, play_server) as opened:
        yield opened


@pytest.fixture
async def checked(browser: Browser, play_server: Server) -> AsyncIterator[Page]:
    """A person's page to which the accessibility checker may be added (tests/browser/axe.py):
    the pages allow only their own scripts (CSP), so this context alone lets the test add
    axe-core's; the pages run as they always do."""
    async with fresh_page(browser, play_server, bypass_csp=True) as opened:
        yield opened
