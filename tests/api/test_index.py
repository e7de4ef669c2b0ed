"""`GET /` is the service's front door: a map for programs, the documentation for browsers."""

from __future__ import annotations

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


async def test_a_browser_is_sent_to_the_documentation(client: Client) -> None:
    response = await client.get("/", headers={"Accept": BROWSER_ACCEPT})
    assert response.status_code == 303
    docs = await client.get(response.headers["location"])
    assert docs.status_code == 200 and "text/html" in docs.headers["content-type"]
