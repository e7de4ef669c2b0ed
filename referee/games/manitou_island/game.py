"""Manitou, the island card game, as the kernel sees it: wiring only (referee/games/README.md)."""

from __future__ import annotations

from referee.games.manitou_island import (
    bots,
    decide,
    flow,
    legal,
    options,
    scoring,
    setup,
    stages,
    state,
    views,
)
from referee.games.manitou_island.commands import Command
from referee.games.manitou_island.events import Event
from referee.games.manitou_island.evolve import evolve
from referee.kernel.wiring import WiredGame

GAME = WiredGame(
    kind="manitou-island",
    title="Manitou (the island card game)",
    version="1",
    seat_counts=(2, 4),  # head to head, or two teams of two
    options_type=options.Options,
    command_type=Command,
    event_type=Event,
    view_type=views.View,
    validate_options=options.validate,
    initial_state=state.initial_state,
    opening=setup.setup,
    command_events=decide.decide,
    evolve=evolve,
    next_step=flow.next_step,
    to_act=stages.to_act,
    legal_commands=legal.legal_commands,
    view=views.view,
    redact=views.redact,
    outcome=scoring.outcome,
    teams=state.teams,
    imagine=bots.imagine,
    evaluate=bots.evaluate,
)
