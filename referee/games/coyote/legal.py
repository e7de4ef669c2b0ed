"""Every command `decide` accepts, as a lazy sequence.

With the Shaman variant a seat can have some 14,000 legal bids (every number up to 999, each
with every power declaration), so `legal_command_space` computes its items on demand: `len`,
indexing, iteration and `in` are all cheap. The game's `legal_commands` hands out the same
commands as a plain list (about 1.5 ms at worst), which any caller can encode. The order is fixed:
the answers (challenge, Eye of the Lynx, Cancel) first, then the bids by increasing number, each
first without a power and then with each legal declaration.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from referee.games.coyote.checks import (
    bid_floor,
    cancel_refusal,
    challenge_refusal,
    lynx_refusal,
    power_refusal,
    rebid_pending,
)
from referee.games.coyote.commands import Bid, Cancel, Challenge, Command, EyeOfTheLynx
from referee.games.coyote.data import BID_POWERS, MAX_BID, TARGETED_POWERS, BidPower
from referee.games.coyote.state import State
from referee.kernel.contract import Seat
from referee.kernel.lazy import LazySequence

Declaration = tuple[BidPower | None, Seat | None]  # (power, target)


class LegalCommands(LazySequence[Command]):
    __slots__ = ("_answers", "_declarations", "_numbers")

    def __init__(
        self,
        answers: tuple[Command, ...] = (),
        numbers: Sequence[int] = (),
        declarations: tuple[Declaration, ...] = ((None, None),),
    ) -> None:
        self._answers = answers
        self._numbers = numbers
        self._declarations = declarations

    def __len__(self) -> int:
        return len(self._answers) + len(self._numbers) * len(self._declarations)

    def _item(self, index: int) -> Command:
        if index < len(self._answers):
            return self._answers[index]
        number, declaration = divmod(index - len(self._answers), len(self._declarations))
        power, target = self._declarations[declaration]
        return Bid(number=self._numbers[number], power=power, target=target)

    def __iter__(self) -> Iterator[Command]:
        yield from self._answers
        for number in self._numbers:
            for power, target in self._declarations:
                yield Bid(number=number, power=power, target=target)

    def __contains__(self, command: object) -> bool:
        if isinstance(command, Bid):
            return (
                command.number in self._numbers
                and (command.power, command.target) in self._declarations
            )
        return command in self._answers


def legal_commands(state: State, seat: Seat) -> LegalCommands:
    """The game's `legal_commands`: the lazy space itself (up to ~14,000 bids with the Shaman's
    powers), so that a page of it, its length or one command by index costs what it reads."""
    return legal_command_space(state, seat)


def legal_command_space(state: State, seat: Seat) -> LegalCommands:
    if state.winner is not None or state.turn != seat:
        return LegalCommands()
    answers: list[Command] = []
    if challenge_refusal(state) is None:
        answers.append(Challenge())
    if lynx_refusal(state, seat) is None:
        answers.append(EyeOfTheLynx())
    if cancel_refusal(state, seat) is None:
        answers.append(Cancel())
    return LegalCommands(tuple(answers), _bid_numbers(state), _declarations(state, seat))


def _bid_numbers(state: State) -> Sequence[int]:
    numbers = range(bid_floor(state) + 1, MAX_BID + 1)
    if rebid_pending(state):
        return tuple(number for number in numbers if number != state.cancelled_bid)
    return numbers


def _declarations(state: State, seat: Seat) -> tuple[Declaration, ...]:
    plain: Declaration = (None, None)
    if rebid_pending(state) or power_refusal(state, seat) is not None:
        return (plain,)
    declarations = [plain]
    for power in BID_POWERS:
        if power not in TARGETED_POWERS:
            declarations.append((power, None))
            continue
        for target in sorted(state.in_play):
            if power == "it-is-your-turn" and target == seat:
                continue
            declarations.append((power, target))
    return tuple(declarations)
