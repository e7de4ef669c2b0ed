"""Tribù behind the kernel's Game contract: wiring only (see referee/games/README.md).

Two rules versions (RULES.md, "Rules versions"): new games are played under the newest,
`GAME`; games recorded under version 1 replay, play on and audit under `GAME_1` forever.
"""

from __future__ import annotations

from functools import partial

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


def wired(rules: state.Rules) -> WiredGame[options.Options, state.State, Command, Event]:
    """Tribù under one rules version: the version rides in the state (`State.rules`), so that
    every function reads it where the versions differ."""
    return WiredGame(
        kind="tribu",
        title="Tribù",
        version=rules.version,
        seat_counts=(2, 3, 4),
        options_type=options.Options,
        command_type=Command,
        event_type=Event,
        view_type=views.TribuView,
        validate_options=options.validate,
        initial_state=partial(state.initial_state, rules=rules),
        opening=setup.setup,
        command_events=decide.decide,
        evolve=evolve,
        next_step=flow.next_step,
        to_act=stages.to_act,
        legal_commands=legal.legal_commands,
        view=views.view,
        redact=views.redact,
        outcome=scoring.outcome,
        imagine=partial(bots.imagine, rules=rules),
        evaluate=bots.evaluate,
    )


GAME_1 = wired(state.RULES_1)
GAME = wired(state.RULES_2)
