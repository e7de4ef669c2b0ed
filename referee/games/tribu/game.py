"""Tribù behind the kernel's Game contract: wiring only (see referee/games/README.md)."""

from __future__ import annotations

from referee.games.tribu import (
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
from referee.games.tribu.commands import Command
from referee.games.tribu.events import Event
from referee.games.tribu.evolve import evolve
from referee.kernel.wiring import WiredGame

GAME = WiredGame(
    kind="tribu",
    title="Tribù",
    version="1",
    seat_counts=(2, 3, 4),
    options_type=options.Options,
    command_type=Command,
    event_type=Event,
    view_type=views.TribuView,
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
    imagine=bots.imagine,
    evaluate=bots.evaluate,
)
