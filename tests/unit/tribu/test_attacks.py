"""Evento cards and the answer of the attacked player (the sections EVENTO and PROTEZIONE CARD;
TR-4, TR-9): a Wolf destroys the last vase, a Bison the last two; the attacked player may turn
one active Protezione card of any chain, out of turn, and the referee waits for that answer."""

from __future__ import annotations

from referee.games.tribu.commands import Attack, Defend, Draw, PassDefence
from referee.games.tribu.events import AttackMade, AttackResolved, Defended
from referee.games.tribu.stages import Stage, stage

from .support import act, chain, chains_of, legal, position, refused, state_of

WARRIOR = ("horse-red", "drum-blue", "bow-red")


def attack(active: str, *, target=None, defender_chains=(), hands=None):  # type: ignore[no-untyped-def]
    chains = {
        0: [chain("shaman", active=active)],
        1: [target or chain("warrior", *WARRIOR), *defender_chains],
    }
    return position(hands=hands, chains=chains)


def test_a_wolf_destroys_the_last_vase_under_the_discard_pile_then_itself() -> None:
    table = attack("wolf")
    events = act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    assert events == [AttackMade(seat=0, active="shaman", card="wolf", target=1, chain="warrior")]
    assert table.to_act() == {1} and stage(state_of(table)) is Stage.DEFENCE
    events = act(table, 1, PassDefence())
    assert (
        AttackResolved(seat=0, card="wolf", target=1, chain="warrior", destroyed=("bow-red",))
        in events
    )
    assert chains_of(table, 1)["warrior"] == WARRIOR[:2]
    assert state_of(table).discard[-2:] == ("bow-red", "wolf")
    assert state_of(table).players[0].chains[0].active is None


def test_a_bison_destroys_the_last_two_vases_last_first() -> None:
    table = attack("bison")
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    events = act(table, 1, PassDefence())
    resolved = next(e for e in events if isinstance(e, AttackResolved))
    assert resolved.destroyed == ("bow-red", "drum-blue")
    assert chains_of(table, 1)["warrior"] == ("horse-red",)
    assert state_of(table).discard[-3:] == ("bow-red", "drum-blue", "bison")


def test_a_bison_on_a_chain_of_one_vase_destroys_it() -> None:
    table = attack("bison", target=chain("warrior", "horse-red"))
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    act(table, 1, PassDefence())
    assert chains_of(table, 1)["warrior"] == ()


def test_protected_chains_and_lone_tribe_cards_cannot_be_attacked() -> None:
    table = attack(
        "wolf", target=chain("warrior", *WARRIOR, "totem"), defender_chains=[chain("elder")]
    )
    refused(table, 0, Attack(active="shaman", seat=1, chain="warrior"), "chain-protected")
    refused(table, 0, Attack(active="shaman", seat=1, chain="elder"), "lone-tribe-card")
    refused(table, 0, Attack(active="shaman", seat=1, chain="scout"), "no-such-chain")
    refused(table, 0, Attack(active="shaman", seat=0, chain="shaman"), "not-an-opponent")
    assert not [c for c in legal(table, 0) if isinstance(c, Attack)]


def test_only_an_active_evento_attacks() -> None:
    table = attack("feathers-of-courage")
    refused(table, 0, Attack(active="shaman", seat=1, chain="warrior"), "active-not-evento")
    table = attack("wolf")
    act(table, 0, Draw())  # drawing first: no active card may be used this turn
    refused(table, 0, Attack(active="shaman", seat=1, chain="warrior"), "not-now")


def test_the_window_opens_whether_or_not_the_defender_holds_a_protezione() -> None:
    table = attack("wolf")  # seat 1 has no active card at all
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    assert table.to_act() == {1} and legal(table, 1) == [PassDefence()]
    assert legal(table, 0) == []


def test_feathers_of_courage_save_two_vases_from_any_chain_of_the_defender() -> None:
    guard = chain("elder", "drum-red", active="feathers-of-courage")
    table = attack("bison", defender_chains=[guard])
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    assert Defend(active="elder") in legal(table, 1)
    events = act(table, 1, Defend(active="elder"))
    assert events[0] == Defended(seat=1, active="elder", card="feathers-of-courage")
    assert AttackResolved(seat=0, card="bison", target=1, chain="warrior") in events
    assert chains_of(table, 1)["warrior"] == WARRIOR
    assert state_of(table).discard[-2:] == ("feathers-of-courage", "bison")
    assert state_of(table).current == 1  # the attacker's turn is over


def test_feathers_of_strength_save_one_vase_of_a_bison() -> None:
    table = attack("bison", target=chain("warrior", *WARRIOR, active="feathers-of-strength"))
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    events = act(table, 1, Defend(active="warrior"))
    resolved = next(e for e in events if isinstance(e, AttackResolved))
    assert resolved.destroyed == ("bow-red",)


def test_only_an_active_protezione_defends() -> None:
    table = attack("wolf", target=chain("warrior", *WARRIOR, active="bison"))
    act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
    refused(table, 1, Defend(active="warrior"), "active-not-protezione")
    refused(table, 1, Defend(active="elder"), "no-such-chain")


def bison_on_a_chain_of_one_vase(rules: str = "2"):  # type: ignore[no-untyped-def]
    """The outside audit's position: seat 0's Bison against seat 1's Elder chain of one vase,
    seat 1 holding Feathers of Strength beside its Hunter chain."""
    chains = {
        0: [chain("shaman", "statue-blue", active="bison")],
        1: [
            chain("elder", "drum-red"),
            chain("hunter", "canoe-red", active="feathers-of-strength"),
        ],
    }
    table = position(chains=chains, rules=rules)
    act(table, 0, Attack(active="shaman", seat=1, chain="elder"))
    return table, act(table, 1, Defend(active="hunter"))


def test_feathers_of_strength_save_the_one_vase_a_bison_would_destroy() -> None:
    """TR-15: a Protezione saves the vases the attack would actually destroy; the Bison would
    destroy one here, Feathers of Strength save one: nothing is destroyed."""
    table, events = bison_on_a_chain_of_one_vase()
    resolved = next(e for e in events if isinstance(e, AttackResolved))
    assert resolved.destroyed == ()
    assert chains_of(table, 1)["elder"] == ("drum-red",)
    assert state_of(table).discard[-2:] == ("feathers-of-strength", "bison")


def test_rules_version_1_let_that_bison_destroy_the_vase() -> None:
    """Games recorded under version 1 replay as they were played: the protection was taken from
    the Bison's two, and the one vase went."""
    table, events = bison_on_a_chain_of_one_vase(rules="1")
    resolved = next(e for e in events if isinstance(e, AttackResolved))
    assert resolved.destroyed == ("drum-red",)
    assert chains_of(table, 1)["elder"] == ()


def test_feathers_save_at_most_what_the_attack_destroys() -> None:
    """TR-15 on longer chains: Strength against a Bison leaves one vase destroyed, Courage none;
    either saves a Wolf's one."""
    for active, protection, destroyed in [
        ("bison", "feathers-of-strength", ("bow-red",)),
        ("bison", "feathers-of-courage", ()),
        ("wolf", "feathers-of-strength", ()),
        ("wolf", "feathers-of-courage", ()),
    ]:
        table = attack(active, defender_chains=[chain("elder", "drum-red", active=protection)])
        act(table, 0, Attack(active="shaman", seat=1, chain="warrior"))
        events = act(table, 1, Defend(active="elder"))
        resolved = next(e for e in events if isinstance(e, AttackResolved))
        assert resolved.destroyed == destroyed, (active, protection)
        assert chains_of(table, 1)["warrior"] == WARRIOR[: 3 - len(destroyed)]
