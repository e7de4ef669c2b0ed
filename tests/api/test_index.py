"""`GET /` is the service's front door: a map for programs, the viewer's pages for browsers."""

from __future__ import annotations

import re
import uuid

from tests.api.helpers import Client

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


async def test_a_program_gets_a_map_whose_every_link_answers(client: Client) -> None:
    response = await client.get("/", headers={"Accept": "application/json"})
    assert response.status_code == 200, response.text
    links = response.json()
    assert links.pop("service") == "referee"
    posted_only = links.pop("audits")
    assert (await client.post(posted_only, content=b"{}")).status_code == 400  # there, refusing
    for name, path in links.items():
        answer = await client.get(path)
        assert answer.status_code == 200, (name, path, answer.status_code)


async def test_a_browser_gets_the_viewer_whose_files_answer(client: Client) -> None:
    response = await client.get("/", headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    linked = re.findall(r'(?:src|href)="(/web/[^"]+)"', response.text)
    assert any(path.endswith(".js") for path in linked)
    for path in linked:
        assert (await client.get(path)).status_code == 200, path


async def test_a_games_page_is_served_for_any_game_id(client: Client) -> None:
    page = await client.get(f"/games/{uuid.uuid4()}", headers={"Accept": BROWSER_ACCEPT})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert (await client.get("/games/not-a-game-id")).status_code == 404
    assert (await client.get("/web/no-such-file.js")).status_code == 404
