"""The catalogue (``tables/games/vocabulary/catalogue.py``): every finding code and wager name, written once.

* every finding the games emit on simulated rounds (every injectable dealer error, and
  rounds audited under a stricter table than they were dealt at) has a catalogued code,
  with the catalogue's kind, one of its games and the rule text it says the finding quotes;
* every place in ``tables/games`` that makes a finding names its code with a catalogue
  constant, whose entry agrees with the kind and rule written beside it (a source scan);
* the catalogue itself: one entry per code, a rule text for each, labels for the wagers;
* no module of ``tables/games`` but the catalogue spells out a code, a rule text or a
  wager name as a string literal, so the next game cannot retype one.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tables.games import GAMES
from tables.games.vocabulary import catalogue as cat
from tables.games.vocabulary.base import InvalidInput
from tables.games.vocabulary.catalogue import (
    ALL_GAMES,
    FINDING_KINDS,
    FINDINGS,
    QUOTES_NOTHING,
    QUOTES_RULE,
    QUOTES_STAKES,
    WAGERS,
)

GAMES_DIR = Path(__file__).resolve().parents[2] / "tables" / "games"
CATALOGUE = GAMES_DIR / "vocabulary" / "catalogue.py"
ENGINE_SOURCES = sorted(p for p in GAMES_DIR.rglob("*.py") if p != CATALOGUE)

#: Tables stricter than the default the rounds are simulated at, for the rule findings no
#: injected dealer error makes (a double the table does not allow, insurance not offered...).
STRICTER = {
    cat.ANTE_UP_21: (
        {"dealer_hits_soft_17": False},
        {"double_on": "10_11", "double_after_split": False, "max_split_hands": 2, "insurance": False},
        {"poker_bonus_amount": Decimal("5.00"), "split_any_ten_values": False},
    ),
    cat.UPCARD_LUCK_21: (
        {"taxpayers_fortune": False},
        {"taxpayers_fortune_marker": Decimal("2.00"), "dealer_hits_soft_17": False},
    ),
    cat.BLACKJACK_TIE: ({"max_split_hands": 2, "double_on": "9_10_11", "insurance": False},),
}


def _rounds(game: str, count: int, seed: int):
    """(round data, rules it was dealt at) for every injectable error, and none."""
    g = GAMES[game]
    module, rules = g.module, g.default_rules()
    rng = random.Random(seed)
    low = 2 if game == cat.HOLDEM_BLACKJACK else 1
    for kind in ("", *g.inject_kinds):
        inject = frozenset({kind}) if kind else frozenset()
        for _ in range(count):
            data = module.simulate_round(rng, rules, seats=rng.randint(low, 6), inject=inject)
            if data is not None:
                yield json.loads(json.dumps(data, default=str))


def _emitted() -> list[tuple[str, object]]:
    """(game, finding) of simulated rounds, audited at their table and at stricter ones."""
    out = []
    for game, g in GAMES.items():
        module = g.module
        tables = [g.default_rules()] + [dataclasses.replace(g.default_rules(), **s) for s in STRICTER.get(game, ())]
        for data in _rounds(game, 25, seed=18):
            for rules in tables:
                try:
                    audit = module.audit(module.parse_round(data, rules), rules)
                except InvalidInput:  # impossible at the stricter table (a split it cannot deal)
                    continue
                out.extend((game, f) for f in audit.findings)
    return out


@pytest.fixture(scope="module")
def emitted():
    return _emitted()


def test_every_finding_emitted_on_simulated_rounds_is_catalogued(emitted):
    assert len({f.code for _, f in emitted}) >= 40  # the simulators and the stricter tables reach most codes
    for game, f in emitted:
        entry = FINDINGS.get(f.code)
        assert entry is not None, f"{f.code} ({game}) is not in tables/games/vocabulary/catalogue.py"
        assert f.kind == entry.kind, (f.code, f.kind, entry.kind)
        assert game in entry.games, (f.code, game, entry.games)
        if entry.quotes == QUOTES_RULE:
            assert f.rule in (entry.rule, *entry.cases), (f.code, f.rule)
        elif entry.quotes == QUOTES_STAKES:
            assert f.rule.startswith("Betting is "), (f.code, f.rule)
        else:
            assert f.rule == "", (f.code, f.rule)


def test_the_simulators_name_catalogued_codes():
    from tables.games.holdem import simulate as simulate_holdem_blackjack
    from tables.games.poker_or_bust import simulate as simulate_poker_or_bust

    assert set(simulate_poker_or_bust.INJECT_FINDINGS.values()) <= set(FINDINGS)
    assert set(simulate_holdem_blackjack.INJECTIONS.values()) <= set(FINDINGS)


# --- the catalogue itself -----------------------------------------------------------------


def _calls(tree: ast.AST, name: str) -> list[ast.Call]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call) and (
        isinstance(n.func, ast.Name) and n.func.id == name or isinstance(n.func, ast.Attribute) and n.func.attr == name)]


def test_every_entry_has_a_rule_text_a_kind_and_its_games():
    for code, entry in FINDINGS.items():
        assert entry.code == code
        assert re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+", code), code
        assert entry.rule.strip() and all(c.strip() for c in entry.cases), code
        assert entry.kind in FINDING_KINDS, code
        assert entry.games and set(entry.games) <= set(ALL_GAMES), code
        assert entry.quotes in (QUOTES_RULE, QUOTES_STAKES, QUOTES_NOTHING), code
        assert getattr(cat, code) == code  # importable by its own name


def test_no_two_entries_share_a_code():
    tree = ast.parse(CATALOGUE.read_text())
    codes = [ast.unparse(c.args[0]) for c in _calls(tree, "FindingKind")]
    for group in ast.walk(tree):  # codes that share an entry's other fields: (FindingKind(code, ...) for code in (A, B))
        if isinstance(group, ast.GeneratorExp) and _calls(group.elt, "FindingKind"):
            (loop,) = group.generators
            codes.remove(ast.unparse(loop.target))
            codes += [ast.unparse(code) for code in loop.iter.elts]
    assert len(codes) == len(set(codes)) == len(FINDINGS), sorted(c for c in codes if codes.count(c) > 1)
    # every code constant of the catalogue has its entry
    constants = {v for k, v in vars(cat).items() if isinstance(v, str) and k == v}
    assert constants == set(FINDINGS)
    wagers = [ast.unparse(c.args[0]) for c in _calls(tree, "WagerKind")]
    assert len(wagers) == len(set(wagers)) == len(WAGERS)


def test_every_wager_has_a_label_and_its_games():
    labels = [w.label for w in WAGERS.values()]
    assert len(labels) == len(set(labels)) and all(labels)
    for name, w in WAGERS.items():
        assert w.name == name and w.games and set(w.games) <= set(ALL_GAMES)
    assert set(cat.TIE_WAGERS.values()) <= set(WAGERS)
    from tables.games.settings.paytables import TIE_BETS

    assert set(cat.TIE_WAGERS) == set(TIE_BETS)


def test_the_games_settle_only_catalogued_wagers(emitted):
    for game, g in GAMES.items():
        module, rules = g.module, g.default_rules()
        for data in _rounds(game, 5, seed=7):
            for s in module.audit(module.parse_round(data, rules), rules).settlements:
                assert s.wager in WAGERS and game in WAGERS[s.wager].games, (game, s.wager)


# --- the source: codes, rule texts and wager names are written in the catalogue only -------

#: Wager names unlike any other word of the engine (a "bet" or an "ante" is also an action).
DISTINCT_WAGERS = {w for w in WAGERS if "_" in w}
RULE_TEXTS = {text for e in FINDINGS.values() for text in (e.rule, *e.cases)}


def _literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), str(path))
    return [(n.lineno, n.value) for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


@pytest.mark.parametrize("path", ENGINE_SOURCES, ids=lambda p: str(p.relative_to(GAMES_DIR)))
def test_no_code_rule_or_wager_name_is_typed_outside_the_catalogue(path):
    typed = [
        f"{path.relative_to(GAMES_DIR)}:{line}: {value!r}"
        for line, value in _literals(path)
        if value in FINDINGS or value in RULE_TEXTS or value in DISTINCT_WAGERS
    ]
    assert not typed, "import these from tables.games.vocabulary.catalogue instead: " + "; ".join(typed)


def _catalogue_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> catalogue name, of ``from ..vocabulary.catalogue import X [as Y]`` (or
    ``.catalogue`` within the vocabulary)."""
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.level, node.module) in {(1, "catalogue"), (2, "vocabulary.catalogue")}:
            names.update({a.asname or a.name: a.name for a in node.names})
    return names


def _possible(expr: ast.expr, names: dict[str, str], scope: ast.AST) -> set[str] | None:
    """The catalogue values ``expr`` can take, or None when it is not made of catalogue names."""
    if isinstance(expr, ast.IfExp):
        a, b = _possible(expr.body, names, scope), _possible(expr.orelse, names, scope)
        return None if a is None or b is None else a | b
    if not isinstance(expr, ast.Name):
        return None
    if expr.id in names:
        return {getattr(cat, names[expr.id])}
    values: set[str] = set()  # a local: every value assigned to it in the function
    for node in ast.walk(scope):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == expr.id:
                found = _possible(node.value, names, scope)
            elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                ids = [t.id if isinstance(t, ast.Name) else None for t in target.elts]
                if expr.id not in ids:
                    continue
                found = _possible(node.value.elts[ids.index(expr.id)], names, scope)
            else:
                continue
            if found is None:
                return None
            values |= found
    return values or None


#: Where each field sits among the positional arguments: Finding(code, kind, message, path, rule, ...),
#: holdem.state.add_finding(findings, code, kind, message, where, rule, ...) and
#: blackjack.checks.above_21_bet(seat, wager, label, code, rule) and wrong_amount(seat, wager, label,
#: fixed, fixed_label, code, rule), whose kind is always a rule violation, and Poker or Bust's
#: _drawn_after_bust(code, rule, ...), always a procedure finding.
FIELDS = {"Finding": {"code": 0, "kind": 1, "rule": 4}, "add_finding": {"code": 1, "kind": 2, "rule": 5},
          "above_21_bet": {"code": 3, "rule": 4}, "wrong_amount": {"code": 5, "rule": 6},
          "_drawn_after_bust": {"code": 0, "rule": 1}}
FIXED_KIND = {"above_21_bet": cat.RULE_VIOLATION, "wrong_amount": cat.RULE_VIOLATION,
              "_drawn_after_bust": cat.PROCEDURE}


def _finding_sites():
    for path in ENGINE_SOURCES:
        tree = ast.parse(path.read_text(), str(path))
        names = _catalogue_names(tree)
        for scope in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
            for name, where in FIELDS.items():
                for call in _calls(scope, name):
                    if scope.name in FIELDS:  # it passes its caller's code on: its callers are checked
                        continue
                    args = {k: (call.args[i] if i < len(call.args) else None) for k, i in where.items()}
                    args.update({kw.arg: kw.value for kw in call.keywords if kw.arg in where})
                    args.setdefault("kind", None)
                    yield f"{path.relative_to(GAMES_DIR)}:{call.lineno}", args, names, scope, FIXED_KIND.get(name)


def test_every_place_that_makes_a_finding_names_a_catalogued_code_with_its_kind_and_rule():
    sites = list(_finding_sites())
    assert len(sites) >= 40
    for where, args, names, scope, fixed_kind in sites:
        codes = _possible(args["code"], names, scope)
        assert codes and codes <= set(FINDINGS), f"{where}: the code is not a tables.games.vocabulary.catalogue constant"
        kinds = _possible(args["kind"], names, scope) if args["kind"] is not None else None
        kinds = {fixed_kind} if fixed_kind is not None else kinds
        if kinds is not None:
            assert all(FINDINGS[c].kind in kinds for c in codes), (where, codes, kinds)
        rules = _possible(args["rule"], names, scope) if args.get("rule") is not None else None
        if rules is not None:  # a local set in several branches pairs code and rule per branch: the union here
            assert all(FINDINGS[c].quotes == QUOTES_RULE for c in codes), (where, codes)
            quoted = {text for c in codes for text in (FINDINGS[c].rule, *FINDINGS[c].cases)}
            assert rules <= quoted, (where, codes, rules - quoted)


def test_a_pay_finding_names_the_wager_by_its_label():
    """The pit boss reads "Seat 3, hand 2, 21 bet", not the engine's key ("seat 3 hand 2 21")."""
    from tables.games.vocabulary.base import RecordedPay, Settlement, compare_recorded
    from tables.games.vocabulary.catalogue import TIE_WAGERS, W21

    settled = [Settlement(seat=3, wager=W21, hand=1, stake=Decimal("10"), net=Decimal("10"), outcome="win",
                          explanation="player 20 beats dealer 19"),
               Settlement(seat=1, wager=TIE_WAGERS["LS"], hand=None, stake=Decimal("5"), net=Decimal("-5"),
                          outcome="lose", explanation="no tie")]
    found = compare_recorded(settled, [RecordedPay(3, W21, Decimal("5"), 1), RecordedPay(1, TIE_WAGERS["LS"],
                                                                                          Decimal("0"))])
    assert [f.message.split(":")[0] for f in found] == ["Seat 3, hand 2, 21 bet", "Seat 1, Tie LS (17-19)"]
