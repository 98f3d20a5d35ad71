"""Every game in GAMES provides the Protocols of tables.games.game_module: each member, with
the Protocol's parameter names and kinds, so callers can call any game's module alike."""

from __future__ import annotations

import inspect
import types

import pytest

from tables.games import GAMES
from tables.games.game_module import GameModule, SimulatorModule


def _members(protocol: type) -> list[str]:
    """The members the Protocol declares: its methods (plain or compiled functions alike) and
    its annotated attributes."""
    methods = {n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_")}
    return sorted(methods | set(getattr(protocol, "__annotations__", {})))


def _parameters(function) -> list[tuple[str, str, bool]]:
    """(name, kind, has a default) of each parameter, ``self`` left out of a Protocol's method."""
    parameters = list(inspect.signature(function).parameters.values())
    if parameters and parameters[0].name == "self":
        parameters = parameters[1:]
    return [(p.name, p.kind.description, p.default is not inspect.Parameter.empty) for p in parameters]


def _mismatches(module, protocol: type) -> dict[str, str]:
    """Each member of ``protocol`` that ``module`` lacks, or whose parameters differ from the
    Protocol's (other names or kinds, or no default where the Protocol has one; a game may
    give a default the Protocol does not), with what is wrong."""
    out = {}
    for name in _members(protocol):
        if not hasattr(module, name):
            out[name] = "missing"
            continue
        declared = getattr(protocol, name, None)  # an annotated attribute has no value
        if not callable(declared):
            continue
        found, wanted = _parameters(getattr(module, name)), _parameters(declared)
        if [(n, k) for n, k, _ in found] != [(n, k) for n, k, _ in wanted]:
            out[name] = f"parameters {[(n, k) for n, k, _ in found]}, not {[(n, k) for n, k, _ in wanted]}"
        elif any(needs and not has for (_, _, has), (_, _, needs) in zip(found, wanted, strict=True)):
            out[name] = "a parameter the Protocol defaults has no default"
    return out


def test_the_protocols_declare_the_entry_points():
    assert _members(GameModule) == ["audit", "parse_round", "recorded_nets", "round_to_dict", "simulate_round"]
    assert _members(SimulatorModule) == ["INJECT_KINDS"]


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_module_satisfies_the_protocol(key):
    module = GAMES[key].module
    assert isinstance(module, GameModule)
    assert _mismatches(module, GameModule) == {}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_simulator_declares_its_inject_kinds(key):
    game = GAMES[key]
    assert isinstance(game.simulator, SimulatorModule)
    assert _mismatches(game.simulator, SimulatorModule) == {}
    assert game.inject_kinds and all(isinstance(kind, str) for kind in game.inject_kinds)


def _module_like(module, **changes) -> types.ModuleType:
    """A copy of ``module``'s namespace with members replaced (``None``: removed)."""
    copy = types.ModuleType(module.__name__)
    copy.__dict__.update(vars(module))
    for name, value in changes.items():
        if value is None:
            del copy.__dict__[name]
        else:
            copy.__dict__[name] = value
    return copy


@pytest.mark.parametrize("member", _members(GameModule))
def test_a_module_without_a_member_fails_the_check(member):
    module = _module_like(GAMES["ante_up_21"].module, **{member: None})
    assert not isinstance(module, GameModule)
    assert _mismatches(module, GameModule) == {member: "missing"}


def test_a_member_with_other_parameter_names_fails_the_check():
    def audit(round_, rules, context=None):
        raise AssertionError("never called")

    def simulate_round(rng, rules, seats, inject=frozenset()):  # seats not keyword-only
        raise AssertionError("never called")

    def parse_round(data, rules=None):  # a default the Protocol does not give: allowed
        raise AssertionError("never called")

    module = _module_like(GAMES["poker_or_bust"].module, audit=audit, simulate_round=simulate_round,
                          parse_round=parse_round)
    assert sorted(_mismatches(module, GameModule)) == ["audit", "simulate_round"]

    def round_to_dict(rnd, extra):
        raise AssertionError("never called")

    def recorded_nets_(canonical):
        raise AssertionError("never called")

    def audit_without_default(rnd, rules, context):
        raise AssertionError("never called")

    module = _module_like(GAMES["poker_or_bust"].module, round_to_dict=round_to_dict,
                          recorded_nets=recorded_nets_, audit=audit_without_default)
    assert _mismatches(module, GameModule) == {
        "audit": "a parameter the Protocol defaults has no default",
        "round_to_dict": "parameters [('rnd', 'positional or keyword'), ('extra', 'positional or keyword')], "
                         "not [('rnd', 'positional or keyword')]",
    }
