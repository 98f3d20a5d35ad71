"""What every game module shares: input errors, findings, settlements, audits.

Two kinds of trouble are never confused (see RULINGS.md):

* impossible input (a card that does not exist, a negative wager) raises
  :class:`InvalidInput` carrying every :class:`FieldError` found, each naming its path;
* something that happened at the table but broke a rule is a :class:`Finding`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import cython

from .cards import TEXT
from .catalogue import FINDING_KINDS as FINDING_KINDS  # finding kinds: the catalogue's, re-exported
from .catalogue import OVERPAY, PAY_ABOVE_EXPECTED, PAY_BELOW_EXPECTED, UNDERPAY, WAGER_LABELS
from .catalogue import PROCEDURE as PROCEDURE
from .catalogue import RULE_VIOLATION as RULE_VIOLATION
from .money import CENT, ZERO, MoneyError, money_text, to_money

# Settlement outcomes.
WIN = "win"
LOSE = "lose"
PUSH = "push"
OUTCOMES = (WIN, LOSE, PUSH)


@dataclass(frozen=True, slots=True)
class FieldError:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class InvalidInput(ValueError):  # noqa: N818 - reads better at call sites than InvalidInputError
    """Impossible input: nothing may be stored. Carries every error found, not just the first."""

    def __init__(self, errors: Iterable[FieldError]):
        self.errors: tuple[FieldError, ...] = tuple(errors)
        super().__init__("; ".join(str(e) for e in self.errors))

    def as_dict(self) -> dict[str, list[str]]:
        """``{"seats[2].hands[0].cards[3]": ["\"1X\" is not a card"]}`` for APIs."""
        out: dict[str, list[str]] = {}
        for e in self.errors:
            out.setdefault(e.path or "non_field_errors", []).append(e.message)
        return out


class Errors:
    """Collects field errors while parsing so the user sees all of them at once."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[FieldError] = []

    def add(self, path: str, message: str) -> None:
        self.items.append(FieldError(path, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def raise_if_any(self) -> None:
        if self.items:
            raise InvalidInput(self.items)


def copies_refused(located: list[tuple[str, tuple[int, ...]]], decks: int, errors: Errors) -> None:
    """More copies of a card than the shoe holds (``cards.too_many_copies`` said so): name
    each copy past the last real one. ``located`` is the round's card lists in the order they
    were dealt or recorded, each with its path."""
    counts = [0] * 52
    for _path, cards in located:
        for c in cards:
            counts[c] += 1
    seen = [0] * 52
    for path, cards in located:
        for k, c in enumerate(cards):
            seen[c] += 1
            if seen[c] == decks + 1:
                errors.add(f"{path}[{k}]", f"{TEXT[c]} appears {counts[c]} times in the round; a {decks}-deck shoe holds {decks}")


def take_seat(data: Mapping, i: int, max_seats: int, used: dict[int, int], errors: Errors) -> bool:
    """Where a player sits, the one rule of every game's parser: ``seats[i].seat`` is a table
    position from 1 to the table's seats that no earlier seat of the round holds. A seat
    taken is recorded in ``used`` (position -> index); a seat refused is named with why."""
    seat = data.get("seat")
    if type(seat) is int and 0 < seat <= max_seats and seat not in used:
        used[seat] = i
        return True
    path = f"seats[{i}].seat"
    if seat is None:
        errors.add(path, "is missing")
    elif type(seat) is not int or not 1 <= seat <= max_seats:
        errors.add(path, f"must be a table position from 1 to {max_seats}, got {seat!r}")
    else:
        errors.add(path, f"seat {seat} is already used by seats[{used[seat]}]")
    return False


def join_path(base: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{base}[{key}]"
    return f"{base}.{key}" if base else key


def parse_money(value: object, path: str, errors: Errors, *, positive: bool = False,
                allow_negative: bool = False) -> Decimal | None:
    """Parse an amount, recording a field error instead of raising."""
    try:
        amount = to_money(value)
    except MoneyError as exc:
        errors.add(path, str(exc))
        return None
    if positive and amount <= 0:
        errors.add(path, f"must be more than 0, got {money_text(amount)}")
        return None
    if not allow_negative and amount < 0:
        errors.add(path, f"must not be negative, got {money_text(amount)}")
        return None
    return amount


@dataclass(frozen=True, slots=True)
class Finding:
    """A departure from the rules or a wrong pay, as surveillance reads it."""

    code: str  # stable, e.g. "ANTE_ABOVE_21_BET"; every code is in catalogue.FINDINGS
    kind: str  # one of FINDING_KINDS
    message: str  # a floor supervisor's words
    path: str = ""  # where in the round: "seats[2].wagers.ante", "dealer.cards[4]", "actions[7]"
    rule: str = ""  # the rule's text (card or ruling) that was broken
    expected: str | None = None
    recorded: str | None = None
    amount: Decimal = ZERO  # money at stake, never negative
    seat: int | None = None

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "kind": self.kind,
            "message": self.message,
            "path": self.path,
            "rule": self.rule,
            "expected": self.expected,
            "recorded": self.recorded,
            "amount": money_text(self.amount),
            "seat": self.seat,
        }


@dataclass(frozen=True, slots=True)
class Settlement:
    """What one wager should pay.

    ``net`` is the player's result beyond getting the stake back: +15.00 for a 3:2
    natural on 10, -10.00 for a lost 10, 0 for a push. For a Taxpayer's Fortune tax the
    net is minus the tax collected; for a jackpot, plus the award.
    """

    seat: int
    wager: str  # e.g. "21", "ante", "bet", "poker_bonus", "upcard_luck", "tie_17", "odds", "pot"
    stake: Decimal
    net: Decimal
    outcome: str  # WIN / LOSE / PUSH
    explanation: str
    hand: int | None = None  # index of the hand after splits, for per-hand wagers
    line: str | None = None  # jackpot pay line, e.g. "bust5_suited"

    @property
    def key(self) -> tuple[int, str, int | None]:
        return (self.seat, self.wager, self.hand)

    def to_dict(self) -> dict:
        return {
            "seat": self.seat,
            "wager": self.wager,
            "hand": self.hand,
            "stake": money_text(self.stake),
            "net": money_text(self.net),
            "outcome": self.outcome,
            "explanation": self.explanation,
            "line": self.line,
        }


@dataclass(frozen=True, slots=True)
class RecordedPay:
    """What the dealer actually did with a wager: the player's net, as ``Settlement.net``."""

    seat: int
    wager: str
    net: Decimal
    hand: int | None = None
    path: str = ""  # where the pay was recorded in the round's JSON: "seats[0].paid[2]"

    @property
    def key(self) -> tuple[int, str, int | None]:
        return (self.seat, self.wager, self.hand)


@dataclass(frozen=True)
class Audit:
    """The engine's answer for one round: every settlement and every finding."""

    settlements: tuple[Settlement, ...]
    findings: tuple[Finding, ...]
    summary: Mapping[str, object] = field(default_factory=dict)  # game-specific facts (dealer total...)

    def to_dict(self) -> dict:
        return {
            "settlements": [s.to_dict() for s in self.settlements],
            "findings": [f.to_dict() for f in self.findings],
            "summary": dict(self.summary),
        }


def _wager_label(seat: int, wager: str, hand: int | None) -> str:
    """Where a pay was, in the words of the pages: "Seat 3, hand 1, 21 bet"."""
    where = f"Seat {seat}"
    if hand is not None:
        where += f", hand {hand + 1}"
    return f"{where}, {WAGER_LABELS.get(wager, wager)}"


def compare_recorded(settlements: Iterable[Settlement], recorded: Iterable[RecordedPay]) -> list[Finding]:
    """Overpay/underpay findings where the dealer's recorded pay differs from the engine's.

    A wager with no recorded pay is not judged (the pit boss did not record it); a recorded
    pay on a wager the engine does not know is an overpay or underpay of its whole amount.
    """
    expected = {s.key: s for s in settlements}
    findings: list[Finding] = []
    for pay in recorded:
        s = expected.get(pay.key)
        exp_net = s.net if s is not None else ZERO
        diff = pay.net - exp_net
        if diff == 0:
            continue
        label = _wager_label(pay.seat, pay.wager, pay.hand)
        kind = OVERPAY if diff > 0 else UNDERPAY
        why = f" ({s.explanation})" if s is not None else " (no such wager was settled)"
        findings.append(
            Finding(
                code=PAY_ABOVE_EXPECTED if diff > 0 else PAY_BELOW_EXPECTED,
                kind=kind,
                message=(
                    f"{label}: dealer's result {money_text(pay.net)}, "
                    f"should be {money_text(exp_net)}{why}; "
                    f"{'overpaid' if diff > 0 else 'underpaid'} by {money_text(abs(diff))}."
                ),
                path=pay.path,
                expected=money_text(exp_net),
                recorded=money_text(pay.net),
                amount=abs(diff).quantize(CENT),
                seat=pay.seat,
            )
        )
    return findings


@dataclass(frozen=True)
class AuditContext:
    """Facts from outside the round that settlement needs.

    ``jackpot_amounts``: current meter value of each progressive Taxpayer's Fortune line
    (lines not named pay the fixed column). ``previous_hand``: the previous Hold'em
    Blackjack hand at the table in JSON form, for the button check.
    """

    jackpot_amounts: Mapping[str, Decimal] = field(default_factory=dict)
    previous_hand: Mapping | None = None


def recorded_nets(canonical: Mapping) -> dict[tuple[int, str, int | None], Decimal]:
    """What the dealer did with each wager, from a round's canonical JSON (``seats[].paid``).

    Games that record pays differently (Hold'em Blackjack's awards) define their own
    ``recorded_nets`` with the same result shape: ``{(seat, wager, hand): net}``.
    """
    out: dict[tuple[int, str, int | None], Decimal] = {}
    for seat in canonical.get("seats", ()):
        for pay in seat.get("paid", ()) or ():
            out[(seat["seat"], pay["wager"], pay.get("hand"))] = to_money(pay["net"])
    return out


#: Each game's simulator, registered by the simulator module when it is imported
#: (``tables.games`` imports every simulator with ``GAMES``). The game
#: modules reach their simulator through here, so a simulator, which plays the game through
#: the game's own rules, and the game never import each other (issue #18: no import cycles).
SIMULATORS: dict[str, Callable[..., dict]] = {}


def simulator(game: str) -> Callable[..., dict]:
    """The registered simulator of ``game``: ``(rng, rules, *, seats, inject) -> dict``."""
    simulate = SIMULATORS.get(game)
    if simulate is None:
        raise RuntimeError(f"no simulator registered for {game}: importing tables.games imports it")
    return simulate


_new_object = object.__new__
# Objects of the engine's frozen dataclasses are built by setting their fields the way their
# own ``__init__`` does (``object.__setattr__``), without the Python-level ``__init__``: an
# equal object (same fields, same ``==``, still frozen) at a fraction of the cost. Compiled,
# the same setter is called as the C function it is.
if cython.compiled:
    from cython.cimports.cpython.object import PyObject_GenericSetAttr as _set_field
else:
    _set_field = object.__setattr__


def made(cls: type, names: tuple, values: tuple) -> object:
    """An object of one of the engine's frozen dataclasses, its ``names`` set to ``values``
    (see above); :func:`make_settlement`, the hottest, sets its fields one by one."""
    obj = _new_object(cls)
    for i in range(len(names)):
        _set_field(obj, names[i], values[i])
    return obj


_AUDIT_FIELDS = ("settlements", "findings", "summary")


def make_settlement(
    seat: int,
    wager: str,
    stake: Decimal,
    net: Decimal,
    outcome: str,
    explanation: str,
    hand: int | None = None,
    line: str | None = None,
) -> Settlement:
    """``Settlement(seat, wager, stake, net, outcome, explanation, hand, line)``, built
    field by field (see above).

    A busy table makes new settlements every round (explanations name the poker hands and
    the dealer's cards), so this cost counts.
    """
    obj = _new_object(Settlement)
    _set_field(obj, "seat", seat)
    _set_field(obj, "wager", wager)
    _set_field(obj, "stake", stake)
    _set_field(obj, "net", net)
    _set_field(obj, "outcome", outcome)
    _set_field(obj, "explanation", explanation)
    _set_field(obj, "hand", hand)
    _set_field(obj, "line", line)
    return obj


def make_audit(settlements: tuple, findings: tuple, summary: dict) -> Audit:
    """``Audit(settlements, findings, summary)`` built field by field (see above)."""
    return made(Audit, _AUDIT_FIELDS, (settlements, findings, summary))


# --- a ruleset compiled once, with the memos that belong to it ---------------------------


class Compilable:
    """The root of every ruleset class: one slot, ``_compiled``, where :func:`compiled_for`
    keeps what the engine works out from that ruleset object (its figures in the form the
    hot path reads them, and every memo made under it).

    The apps keep one ruleset object per ruleset version and process
    (``tables.models.RulesetVersion.rules``), so this is one compiled object per version.
    The memos live and die with their ruleset: no module global, no key made of ``id()``
    that a later object could reuse, no memo shared by two rulesets. A ruleset made
    again (``dataclasses.replace``, a copy, a pickle) starts with none."""

    __slots__ = ("_compiled",)


def compiled_for(rules: Compilable, build: Callable[[Any], Any]) -> Any:
    """``build(rules)``, made on first use and kept by ``rules`` (see :class:`Compilable`).

    Two threads may both compile a new ruleset; the last one kept wins, and the loser's
    memos are dropped with its object, so nothing is ever half-shared."""
    try:
        found = rules._compiled
    except AttributeError:  # not compiled yet (an unset slot)
        found = None
    if found is None:
        found = build(rules)
        object.__setattr__(rules, "_compiled", found)
    return found


#: Entries a memo keeps before it starts again (:func:`remember`).
MEMO_LIMIT = 50000


def remember(memo: dict, key: Any, value: Any, limit: int = MEMO_LIMIT) -> Any:
    """``value``, kept in ``memo`` under ``key``: the one rule of the engine's memos. A memo
    that has reached ``limit`` entries starts again, so it stays bounded and the values that
    still repeat come back at once."""
    if len(memo) >= limit:
        memo.clear()
    memo[key] = value
    return value


class CompiledRules:
    """The base of each family's compiled ruleset (:func:`compiled_for`): the family's
    subclass adds, as attributes, the figures and memos its hot path reads; :meth:`cache`
    keeps any other memo a game module makes under the ruleset."""

    __slots__ = ("memos", "rules")

    def __init__(self, rules) -> None:
        self.rules = rules
        self.memos: dict[Hashable, Any] = {}

    def cache(self, name: Hashable, make: Callable[[], Any] = dict) -> Any:
        """The memo called ``name``: ``make()`` (an empty dict) on first use; the module that
        fills it bounds it (:func:`remember`)."""
        got = self.memos.get(name)
        if got is None:
            got = self.memos[name] = make()
        return got
