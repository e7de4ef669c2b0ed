"""Coyote as the kernel sees it: wiring only (see referee/games/README.md)."""

from __future__ import annotations

from referee.games.coyote import bots, decide, legal, options, scoring, setup, stages, state, views
from referee.games.coyote.commands import Command
from referee.games.coyote.events import Event
from referee.games.coyote.evolve import evolve
from referee.kernel.wiring import WiredGame

GAME = WiredGame(
    kind="coyote",
    title="Coyote",
    version="1",
    seat_counts=(3, 4, 5, 6),
    options_type=options.Options,
    command_type=Command,
    event_type=Event,
    view_type=views.CoyoteView,
    validate_options=options.validate,
    initial_state=state.initial_state,
    opening=setup.setup,
    command_events=decide.decide,
    evolve=evolve,
    to_act=stages.to_act,
    legal_commands=legal.legal_commands,
    view=views.view,
    redact=views.redact,
    outcome=scoring.outcome,
    imagine=bots.imagine,
    evaluate=bots.evaluate,
)
