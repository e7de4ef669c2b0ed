"""axe-core, the accessibility checker the browser tests run in the pages (from the npm
registry, pinned in tests/spec): its findings of serious or critical impact on a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

AXE = Path(__file__).parents[1] / "spec" / "node_modules" / "axe-core" / "axe.min.js"


async def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now (the page's context
    must let the checker in: the `checked` fixture)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make tests/spec/node_modules/.installed`")
    await page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = await page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ["violations"] })).violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }))"""
    )
    return found
