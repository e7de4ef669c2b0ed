"""What a player may send: one Struct per decision of the rules."""

from __future__ import annotations

from typing import Annotated

import msgspec

from referee.games.big_manitou.data import GROUNDS, CardKind, HunterKind, TileKind

Ground = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=GROUNDS - 1,
        description="A hunting ground, 0 to 2, in the order they are evaluated.",
    ),
]


class _Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    pass


class ChooseCards(_Command, frozen=True, tag="big-manitou.choose-cards"):
    """The secret choice of the cards for this hunt (as many as the view's `cards_to_choose`)."""

    cards: tuple[CardKind, ...]


class PlayCard(_Command, frozen=True, tag="big-manitou.play-card"):
    """Play a card from the hand into a hunting ground (also the Totem holder's eighth card)."""

    card: CardKind
    ground: Ground


class MoveHunter(_Command, frozen=True, tag="big-manitou.move-hunter"):
    """The Horse holder moves one of their Hunter cards to another hunting ground."""

    card: HunterKind
    ground: Ground


class Pass(_Command, frozen=True, tag="big-manitou.pass"):
    """Decline the Totem's eighth card or the Horse's move."""


class TakeTiles(_Command, frozen=True, tag="big-manitou.take-tiles"):
    """Take booty tiles from the hunting ground being evaluated (as many as the pick allows)."""

    tiles: tuple[TileKind, ...]


class DiscardTile(_Command, frozen=True, tag="big-manitou.discard-tile"):
    """Give one booty tile to the Leather Thief."""

    tile: TileKind


Command = ChooseCards | PlayCard | MoveHunter | Pass | TakeTiles | DiscardTile
