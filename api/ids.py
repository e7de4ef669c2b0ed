"""The game id as every schema states it: a UUID in its text form (as in every path)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

GameId = Annotated[str, Meta(extra_json_schema={"format": "uuid"})]
