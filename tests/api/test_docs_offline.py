"""The API's documentation page (`/schema`) needs nothing from outside the service: it names
only files of this origin, which the service serves as what they are, holds no inline script,
and its policy allows nothing from elsewhere (issue 26, item 4.9). The page drawn offline in a
browser: tests/browser/test_viewer_review.py."""

from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

from api.routes.pages import WEB
from tests.api.helpers import Client

BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
VENDOR = WEB / "vendor"
TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".json": "application/vnd.oai.openapi+json",  # the document, as Litestar serves it
}


class Page(HTMLParser):
    """The URLs a page loads (scripts, style sheets, icons, images) and its inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.inline_scripts: list[str] = []
        self._in_inline_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        for attribute in ("src", "href", "spec-url"):
            if named.get(attribute):
                self.urls.append(named[attribute] or "")
        if tag == "script" and not named.get("src"):
            self._in_inline_script = True
            self.inline_scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_inline_script = False

    def handle_data(self, data: str) -> None:
        if self._in_inline_script:
            self.inline_scripts[-1] += data


async def docs_page(client: Client, path: str = "/schema") -> tuple[Page, dict[str, str]]:
    answer = await client.get(path, headers={"Accept": BROWSER_ACCEPT})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html")
    page = Page()
    page.feed(answer.text)
    return page, dict(answer.headers)


async def test_the_documentation_page_names_only_files_of_this_origin(client: Client) -> None:
    for path in ("/schema", "/schema/redoc"):
        page, _ = await docs_page(client, path)
        assert page.urls, path
        for url in page.urls:
            assert url.startswith("/") and not url.startswith("//"), (path, url)
        assert page.inline_scripts == [], path
    page, _ = await docs_page(client)
    assert "/schema/openapi.json" in page.urls
    assert any(url.startswith("/web/vendor/redoc/") for url in page.urls), page.urls


async def test_the_files_it_names_are_served_as_what_they_are(client: Client) -> None:
    page, _ = await docs_page(client)
    for url in page.urls:
        answer = await client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["x-content-type-options"] == "nosniff", url
        suffix = Path(url).suffix
        assert suffix in TYPES, url
        assert answer.headers["content-type"].startswith(TYPES[suffix]), (url, answer.headers)
        if url.startswith("/web/"):
            assert answer.content == (WEB / url.removeprefix("/web/")).read_bytes(), url


async def test_its_policy_allows_nothing_from_elsewhere(client: Client) -> None:
    _, headers = await docs_page(client)
    policy = {
        directive.split()[0]: directive.split()[1:]
        for directive in headers["content-security-policy"].split(";")
    }
    assert policy["default-src"] == ["'none'"]
    assert policy["script-src"] == ["'self'"]  # no inline script, no eval
    assert policy["frame-ancestors"] == ["'none'"]
    for directive, sources in policy.items():
        for source in sources:
            allowed = source in ("'self'", "'none'", "data:", "blob:") or source.startswith(
                "'sha256-"
            )
            assert allowed, (directive, source)
    assert headers["referrer-policy"] == "no-referrer"
    assert headers["x-content-type-options"] == "nosniff"


def test_the_vendored_files_are_those_their_readme_names() -> None:
    """Each vendored file is byte for byte the one its README names, and each is named."""
    for folder in (path for path in VENDOR.iterdir() if path.is_dir()):
        readme = (folder / "README.md").read_text(encoding="utf-8")
        named = dict(re.findall(r"^\| `([^`]+)` \| `([0-9a-f]{64})` \|$", readme, re.MULTILINE))
        present = {path.name for path in folder.iterdir() if path.name != "README.md"}
        assert set(named) == present, folder
        for name, digest in named.items():
            assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
        assert "LICENSE" in present, folder
