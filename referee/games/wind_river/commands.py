"""What a player may send: one Struct per decision of the rules.

Spaces are `{"lane": 1-6, "column": 1-8}` (RULES.md, "The board"); a move's `to` is a space or
"open-plains", beyond the eastern edge.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from referee.games.wind_river.board import Space, Target

From = Annotated[Space, msgspec.Meta(description="The space it leaves.")]
To = Annotated[
    Target,
    msgspec.Meta(description='The space it enters, or "open-plains" (from column 8 only).'),
]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


class PlaceTeepee(_Command, frozen=True, tag="wind-river.place-teepee"):
    """Set-up (section 3): put a teepee on a vacant space: one without any teepee."""

    at: Space


class MoveBuffalo(_Command, frozen=True, tag="wind-river.move-buffalo"):
    """Step 5.1: move one buffalo not yet moved this turn one space ahead (east, north-east or
    south-east), or from the last column into the open plains."""

    from_: From = msgspec.field(name="from")
    to: To


class SendBackTeepees(_Command, frozen=True, tag="wind-river.send-back-teepees"):
    """Step 5.2, when your stock cannot pay for every unfed teepee: which unfed teepees go back
    to your stock (one entry per teepee; a space may appear as often as it has unfed teepees)."""

    spaces: tuple[Space, ...]


class MoveTeepee(_Command, frozen=True, tag="wind-river.move-teepee"):
    """Extra activity 5.3.1: move one of your teepees to a neighbouring space, or from the last
    column into the open plains."""

    from_: From = msgspec.field(name="from")
    to: To


class EarnResources(_Command, frozen=True, tag="wind-river.earn-resources"):
    """Extra activity 5.3.2: take a resource for every buffalo beyond your teepees on the spaces
    where only you have teepees (never above ten in stock)."""


class InsertTeepee(_Command, frozen=True, tag="wind-river.insert-teepee"):
    """Extra activity 5.3.3: pay 3 resources and add a teepee from your stock to a space where
    you, and nobody else, already have a teepee."""

    at: Space


class MoveExtraBuffalo(_Command, frozen=True, tag="wind-river.move-extra-buffalo"):
    """Extra activity 5.3.4: move one more buffalo, as in 5.1 (one already moved may move again)."""

    from_: From = msgspec.field(name="from")
    to: To


Command = (
    PlaceTeepee
    | MoveBuffalo
    | SendBackTeepees
    | MoveTeepee
    | EarnResources
    | InsertTeepee
    | MoveExtraBuffalo
)
