"""The blackjack round shared by Ante Up 21, Upcard Luck 21 and Blackjack Tie.

This module holds what the three games have in common: the round as data, its JSON form,
validation of impossible input, the checks of the player's play, the replay of the dealer's
hand, and the settlement of the 21 bet and insurance. Each game module adds its own side
wagers through a :class:`GameSpec` (wager names, rule findings, which side wagers keep the
dealer drawing, and their settlement).

JSON form of a round (what the pit boss's tablet sends; an Ante Up 21 example)::

    {
      "game": "ante_up_21",                      # optional; must name this game if present
      "dealer": {"cards": ["QH", "5C", "7D"]},   # in the order dealt: upcard, hole card, draws
      "seats": [
        {
          "seat": 1, "player": "P-1001",         # seat = table position (1-based), player optional
          "wagers": {"21": "10.00", "ante": "10.00", "bet": "10.00", "poker_bonus": "1.00"},
          "hands": [{"cards": ["9S", "9D"], "actions": ["stand"]}],
          "paid": [
            {"wager": "21", "hand": 0, "net": "10.00"},
            {"wager": "ante", "net": "10.00"},
            {"wager": "bet", "net": "10.00"},
            {"wager": "poker_bonus", "net": "11.00"}
          ]
        },
        {
          "seat": 4,
          "wagers": {"21": "25.00"},
          "hands": [
            {"cards": ["8S", "3H", "9C"], "actions": ["split", "hit", "stand"]},
            {"cards": ["8D", "2S", "TC"], "actions": ["double"]}
          ]
        }
      ]
    }

Fields:

* ``dealer.cards``: at least two; the first is the upcard, the second the hole card.
* ``wagers``: amounts as strings (ints accepted, floats refused), each more than 0.
  ``"21"`` is required; ``"insurance"`` is optional; each game adds its own keys
  (Ante Up 21: ``ante``, ``bet``, ``poker_bonus``; Upcard Luck 21: ``upcard_luck``,
  ``taxpayers_fortune``; Blackjack Tie: ``tie_LS``, ``tie_RS``, ``tie_17`` ... ``tie_21``,
  ``tie_blackjack``).
* ``even_money``: ``true`` when the player took even money on a natural against an Ace up;
  it is settled as insurance of half the 21 bet (house ruling).
* ``hands``: the seat's hands. ``hands[0]`` is the hand as dealt. ``actions`` lists the
  player's decisions in order: ``split``, ``hit``, ``double`` (one card), ``stand``
  (optional at the end). A hand's ``cards`` are its final cards: its first card, the card
  it received after its last split (or its second card dealt), then one card per ``hit``
  or ``double``. Splits come first in a hand's actions. Each ``split`` moves the hand's
  second card to a new hand appended at the END of the list; hands are played in list
  order. In the example, seat 4 was dealt 8S-8D, split, hand 0 drew 3H then 9C; hand 1
  (8D) took 2S and doubled on 10 for TC.
* ``paid``: optional, what the dealer actually did: ``net`` is the player's result beyond
  the returned stake (win 1:1 on 10 -> ``"10.00"``, loss -> ``"-10.00"``, push ->
  ``"0.00"``), comparable with :class:`~tables.games.base.Settlement` ``net``. ``hand`` is
  required for the 21 wager (index into ``hands``) and absent for the other wagers.
  Upcard Luck 21 also records ``taxpayers_fortune_tax`` (minus the tax collected) and
  ``taxpayers_fortune_jackpot`` (the award).

House rulings made here (beyond RULINGS.md):

* A dealer who stands or draws against the rule is a finding; the wagers are still settled
  on the cards as they fell (that is what happened at the table).
* Missed peek (peek on, the dealer had a natural, yet the players played on): only the
  original 21 bets are settled against the natural; the extra money put out for doubles and
  splits is returned (pushes), as a casino manual does for its own procedural error.
* Dealer not peeking (``dealer_peeks`` off): a dealer natural takes doubles and splits too.
* Double is for the full original bet. A natural takes no more cards.
* A split of two ten-values of different ranks when ``split_any_ten_values`` is off is a
  rule finding; a split of cards of different values is impossible input.
* Resplitting Aces against the rules is a finding; a card drawn to a split Ace (hit or
  double) when ``hit_split_aces`` is off is impossible input (the brief says so).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from operator import itemgetter
from types import MappingProxyType
from typing import NamedTuple

import cython

from .base import (
    LOSE,
    PROCEDURE,
    PUSH,
    RULE_VIOLATION,
    WIN,
    Audit,
    AuditContext,
    Errors,
    Finding,
    RecordedPay,
    Settlement,
    compare_recorded,
    simulator,
)
from .cards import ACE, BJ_POINTS, RANK, TEN_VALUE, TEXT, cards_text, parse_card
from .catalogue import (  # the shared blackjack's finding codes and rules (game modules add their own)
    DEALER_DREW_HARD_17,
    DEALER_DREW_SOFT_17,
    DEALER_DREW_SOFT_18_PLUS,
    DEALER_DREW_UNNEEDED,
    DEALER_MISSED_PEEK,
    DEALER_STOOD_SOFT_17,
    DEALER_STOPPED_EARLY,
    DOUBLE_AFTER_SPLIT_NOT_ALLOWED,
    DOUBLE_NOT_ALLOWED,
    INSURANCE,
    INSURANCE_ABOVE_HALF_BET,
    INSURANCE_NOT_OFFERED,
    RESPLIT_ACES_NOT_ALLOWED,
    RULE_DAS,
    RULE_DEALER_COMPLETES,
    RULE_DEALER_DRAWS,
    RULE_DOUBLE_ON,
    RULE_H17,
    RULE_INSURANCE,
    RULE_INSURANCE_OFFERED,
    RULE_MAX_SPLIT,
    RULE_PEEK,
    RULE_RESPLIT_ACES,
    RULE_S17,
    RULE_SPLIT_TENS,
    SPLIT_ABOVE_MAX_HANDS,
    SPLIT_UNEQUAL_TEN_VALUES,
    W21,
)
from .money import CENT, ZERO, MoneyError, money_text, odds_text, pays, to_money

HIT, STAND, DOUBLE, SPLIT = "hit", "stand", "double", "split"
ACTIONS = (HIT, STAND, DOUBLE, SPLIT)
_ACTION_SET = frozenset(ACTIONS)
_TOP_KEYS = frozenset({"game", "dealer", "seats"})
_SEAT_KEYS = frozenset({"seat", "player", "wagers", "even_money", "hands", "paid"})
_HAND_KEYS = frozenset({"cards", "actions"})
_PAID_KEYS = frozenset({"wager", "hand", "net"})
_DEALER_KEYS = frozenset({"cards"})
MAX_SEAT_NUMBER = 12
#: The first-two-card totals a double is allowed on, by the ruleset's ``double_on``.
DOUBLE_TOTALS = {"9_10_11": frozenset({9, 10, 11}), "10_11": frozenset({10, 11})}


# --------------------------------------------------------------------------------------
# Data


class Hand(NamedTuple):
    """One hand of a seat. ``total``/``soft``/``busted``/``natural`` are derived at parse time."""

    cards: tuple[int, ...]
    actions: tuple[str, ...]
    total: int
    soft: bool
    busted: bool
    natural: bool  # A + ten-value as the first two cards of an unsplit hand
    doubled: bool
    splits: int  # "split" actions taken on this hand


class Seat(NamedTuple):
    """A seat's wagers, hands and recorded pays. ``index`` is its position in the JSON list.

    ``recorded`` holds the recorded pays as ``(wager, hand, net)`` in the order of the JSON
    ``paid`` list (the audit compares them with the settlements as they are); :attr:`paid`
    gives them as :class:`~tables.games.base.RecordedPay` with their paths.
    """

    seat: int
    player: str | None
    wagers: Mapping[str, Decimal]
    even_money: bool
    hands: tuple[Hand, ...]
    recorded: tuple[tuple[str, int | None, Decimal], ...]
    first_two: tuple[int, int]  # the first two cards dealt to the seat, before any split
    index: int
    unequal_ten_split: bool

    @property
    def paid(self) -> tuple[RecordedPay, ...]:
        number, si = self.seat, self.index
        return tuple(
            _new_recorded_pay(number, wager, net, hand, si, pj)
            for pj, (wager, hand, net) in enumerate(self.recorded)
        )

    @property
    def stake(self) -> Decimal:
        return self.wagers[W21]

    @property
    def split(self) -> bool:
        return len(self.hands) > 1


@dataclass(frozen=True, slots=True)
class Round:
    game: str
    dealer: tuple[int, ...]
    seats: tuple[Seat, ...]


class Dealer(NamedTuple):
    """Facts about the dealer's final hand, computed once per audit."""

    cards: tuple[int, ...]
    upcard: int
    total: int
    soft: bool
    busted: bool
    natural: bool
    peek_card: bool  # Ace or ten-value up
    missed_peek: bool  # peek on, natural, yet the round was played on
    text: str


@dataclass(frozen=True)
class GameSpec:
    """What a game adds to the shared blackjack round.

    * ``wagers``: its side-wager keys (besides ``21`` and ``insurance``), in settlement order;
    * ``pay_wagers``: extra keys allowed in ``paid`` (e.g. the Taxpayer's Fortune tax);
    * ``validate``: impossible input among its wagers -> ``errors.add`` (optional);
    * ``rule_findings``: table-rule findings for one seat's wagers;
    * ``side_live``: money on side wagers that still depends on the dealer's draw;
    * ``settle``: settlements of its side wagers for one seat;
    * ``validate_wagers``: when ``validate`` looks only at the seat's wagers, the same check
      as a yes/no answer, so the fast parser runs it once per distinct set of wagers;
    * ``audit_seat``: ``(seat, dealer, rules, context, settlements, findings, facts) -> side
      live money``, for a game whose hot path needs ``facts`` worked out once per round
      (Ante Up 21's dealer poker hand). It calls the same settlement functions as ``settle``
      and the same ``rule_findings`` and ``side_live``, never a copy of them; without it the
      audit calls the three hooks (and none for a seat with its 21 bet alone);
    * ``round_facts``: ``(dealer, rules) -> facts`` worked out once per round for
      ``audit_seat``.
    """

    key: str
    wagers: tuple[str, ...]
    rule_findings: Callable[[Seat, object], list[Finding]]
    side_live: Callable[[Seat, int, object], Decimal]
    settle: Callable[[Seat, Dealer, object, AuditContext | None, list[Settlement]], None]
    pay_wagers: tuple[str, ...] = ()
    validate: Callable[[Seat, str, Errors, object], None] | None = None
    validate_wagers: Callable[[Mapping[str, Decimal]], bool] | None = None
    audit_seat: Callable[..., Decimal] | None = None
    round_facts: Callable[[Dealer, object], object] | None = None


# --------------------------------------------------------------------------------------
# Small pure helpers (also for the exact-math engineer)


def hand_total(cards: Sequence[int]) -> tuple[int, bool]:
    """Best blackjack total and softness (same as ``hands.blackjack_total``, inlined for speed)."""
    total = 0
    ace = False
    for c in cards:
        p = BJ_POINTS[c]
        total += p
        if p == 1:
            ace = True
    if ace and total <= 11:
        return total + 10, True
    return total, False


def is_natural_pair(a: int, b: int) -> bool:
    return (RANK[a] == ACE and TEN_VALUE[b]) or (RANK[b] == ACE and TEN_VALUE[a])


def dealer_must_draw(total: int, soft: bool, hits_soft_17: bool) -> bool:
    return total < 17 or (total == 17 and soft and hits_soft_17)


#: cards_text of every two cards, by ``a * 52 + b`` (explanations name the first two cards).
TWO_TEXT = tuple(f"{TEXT[a]}-{TEXT[b]}" for a in range(52) for b in range(52))


def total_text(total: int, soft: bool) -> str:
    return f"soft {total}" if soft else str(total)


# Money parsing is the hottest part of reading a round: most amounts repeat ("10.00").
# Amounts by their JSON text, and by int: two memos, since 10 == 10.0 == True as dict keys
# and only exact str or int values may be answered from a memo (a float or a bool must be
# refused). A lookup in ``_MONEY_TEXT`` needs no type check: no non-str key equals a str.
_MONEY_TEXT: dict[str, Decimal] = {}
_MONEY_INT: dict[int, Decimal] = {}


def _money(value: object) -> Decimal:
    """``to_money`` with a bounded memo for the common amounts; raises MoneyError."""
    t = type(value)
    memo = _MONEY_TEXT if t is str else _MONEY_INT if t is int else None
    if memo is None:
        return to_money(value)
    got = memo.get(value)  # type: ignore[arg-type]
    if got is None:
        got = to_money(value)
        if len(memo) > 20000:
            memo.clear()
        memo[value] = got  # type: ignore[index]
    return got


_CARD_CACHE: dict[object, int] = {}


def _card(value: object) -> int:
    c = _CARD_CACHE.get(value) if type(value) is str else None
    if c is None:
        c = parse_card(value)  # raises CardError
        _CARD_CACHE[value] = c
    return c


class _Derived(NamedTuple):
    """Ruleset figures the hot path needs, computed once per ruleset object."""

    natural_odds: Decimal
    natural_text: str
    unit: Decimal
    direction: str
    exact: bool  # unit is one cent: 1:1 and whole-number pays need no rounding


_DERIVED: dict[int, tuple[object, _Derived]] = {}


def derived(rules) -> _Derived:
    hit = _DERIVED.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    d = _Derived(
        rules.natural_odds,
        odds_text(rules.natural_odds),
        rules.rounding_unit,
        rules.rounding_direction,
        rules.rounding_unit == CENT,
    )
    if len(_DERIVED) > 256:
        _DERIVED.clear()
    _DERIVED[id(rules)] = (rules, d)
    return d


def pay_odds(stake: Decimal, odds: Decimal, rules) -> Decimal:
    """ "Pays ``odds`` to 1" on ``stake`` with the ruleset's rounding; whole odds stay exact."""
    if odds == odds.to_integral_value():
        return stake * int(odds)
    d = derived(rules)
    return pays(stake, odds, d.unit, d.direction)


_new_object = object.__new__
# Objects of the engine's frozen dataclasses are built by setting their fields the way their
# own ``__init__`` does (``object.__setattr__``), without the Python-level ``__init__``: an
# equal object (same fields, same ``==``, still frozen) at a fraction of the cost. Compiled,
# the same setter is called as the C function it is.
if cython.compiled:
    from cython.cimports.cpython.object import PyObject_GenericSetAttr as _set_field
else:
    _set_field = object.__setattr__


@cython.ccall
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


@cython.ccall
def make_round(game: str, dealer: tuple, seats: tuple) -> Round:
    """``Round(game, dealer, seats)`` built field by field (see above)."""
    obj = _new_object(Round)
    _set_field(obj, "game", game)
    _set_field(obj, "dealer", dealer)
    _set_field(obj, "seats", seats)
    return obj


@cython.ccall
def make_audit(settlements: tuple, findings: tuple, summary: dict) -> Audit:
    """``Audit(settlements, findings, summary)`` built field by field (see above)."""
    obj = _new_object(Audit)
    _set_field(obj, "settlements", settlements)
    _set_field(obj, "findings", findings)
    _set_field(obj, "summary", summary)
    return obj


@cython.cfunc
@cython.inline
def _fields(obj: object) -> tuple:
    """A named tuple (Seat, Hand, Dealer) as the plain tuple it is, for fast indexing.

    Compiled, indexing a tuple subclass goes through CPython's generic slot for subclasses
    (a lookup and call of ``__getitem__``), several times slower than a tuple's own."""
    if not isinstance(obj, tuple):
        raise TypeError(f"expected a named tuple, not {type(obj).__name__}")
    return cython.cast(tuple, obj)


# --------------------------------------------------------------------------------------
# Parsing and validation


def _check_keys(obj: Mapping, allowed: frozenset, path: str, errors: Errors) -> None:
    for k in obj:
        if k not in allowed:
            errors.add(
                f"{path}.{k}" if path else str(k),
                f"unknown field; expected one of {', '.join(sorted(allowed))}",
            )


def _path(path: str | tuple) -> str:
    """Paths are built only when there is an error: ``(base, index, suffix)`` -> text."""
    if type(path) is tuple:
        return f"{path[0]}[{path[1]}]{path[2]}"
    return path


def _parse_cards(
    value: object, path: str | tuple, errors: Errors, counts: list[int], decks: int, minimum: int
) -> list[int] | None:
    """Card texts -> ints, counting every copy against the shoe; errors name each card."""
    cards: list[int] | None = None
    if type(value) is list:
        try:
            cards = [_CARD_CACHE[t] for t in value]
        except (KeyError, TypeError):
            cards = None
    if cards is None:
        if not isinstance(value, (list, tuple)):
            errors.add(_path(path), 'must be a list of cards such as ["AS", "TD"]')
            return None
        cards = []
        for i, text in enumerate(value):
            try:
                cards.append(_card(text))
            except ValueError as exc:
                errors.add(f"{_path(path)}[{i}]", str(exc))
        if len(cards) != len(value):
            return None
    if len(cards) < minimum:
        errors.add(_path(path), f"needs at least {minimum} cards, got {len(cards)}")
        return None
    ok = True
    for i, c in enumerate(cards):
        n = counts[c] = counts[c] + 1
        if n > decks:
            errors.add(
                f"{_path(path)}[{i}]",
                f"{TEXT[c]} appears more often in this round than the "
                f"{decks}-deck shoe holds it ({decks})",
            )
            ok = False
    return cards if ok else None


def _parse_actions(raw: object, path: str | tuple, errors: Errors) -> tuple[str, ...] | None:
    if raw is None:
        return ()
    if type(raw) is list:
        try:
            if _ACTION_SET.issuperset(raw):
                return tuple(raw)
        except TypeError:
            pass
    if not isinstance(raw, (list, tuple)):
        errors.add(_path(path), 'must be a list such as ["hit", "stand"]')
        return None
    for k, a in enumerate(raw):
        if not isinstance(a, str) or a not in _ACTION_SET:
            errors.add(f"{_path(path)}[{k}]", f"{a!r} is not one of {', '.join(ACTIONS)}")
    return None


_HAND_CACHE: dict[tuple, Hand] = {}


def _play_hand(
    cards: tuple[int, ...],
    actions: tuple[str, ...],
    splits: int,
    split_seat: bool,
    no_hit_split_aces: bool,
    hpath: str,
    errors: Errors,
) -> Hand | None:
    """Walk one hand's actions after its splits; a Hand, or None after adding the errors.

    The result depends only on the arguments, so the caller keeps a cache of good hands.
    """
    a0, a1 = cards[0], cards[1]
    points = BJ_POINTS[a0] + BJ_POINTS[a1]
    ace = BJ_POINTS[a0] == 1 or BJ_POINTS[a1] == 1
    natural = not split_seat and ace and points == 11
    doubled = stood = False
    drawn = 2
    n_cards = len(cards)
    before = len(errors.items)
    for j in range(splits, len(actions)):
        a = actions[j]
        if a == STAND and not (stood or doubled):
            stood = True
            continue
        apath = f"{hpath}.actions[{j}]"
        if a == SPLIT:
            errors.add(apath, "a split comes before any other action of the hand")
            break
        if stood or doubled:
            errors.add(apath, "no action may follow a stand or a double (one card only)")
            break
        if a == DOUBLE and drawn != 2:
            errors.add(apath, "a double is made on the first two cards only")
            break
        if natural:
            errors.add(apath, "a natural is paid at once and takes no more cards")
            break
        where = f"{hpath}.cards[{drawn}]" if drawn < n_cards else apath
        if points > 21:
            errors.add(where, "card drawn after the hand busted")
            break
        if no_hit_split_aces:
            errors.add(where, "card drawn to a split Ace after it took its one card")
            break
        if drawn >= n_cards:
            errors.add(apath, f"{a} but the hand has no card for it")
            break
        if a == DOUBLE:
            doubled = True
        p = BJ_POINTS[cards[drawn]]
        points += p
        if p == 1:
            ace = True
        drawn += 1
    else:
        if drawn < n_cards:
            errors.add(f"{hpath}.cards[{drawn}]", "card with no hit or double for it in actions")
    if len(errors.items) != before:
        return None
    soft = ace and points <= 11
    total = points + 10 if soft else points
    return Hand(cards, actions, total, soft, total > 21, natural, doubled, splits)


def _parse_hands(
    raw_hands: object, path: str, errors: Errors, rules, counts: list[int]
) -> tuple[tuple[Hand, ...], tuple[int, int], bool] | None:
    """Hands of one seat, with the split protocol checked. Returns (hands, first_two, unequal_tens)."""
    if type(raw_hands) is not list or not raw_hands:
        errors.add(path, "must be a non-empty list of hands")
        return None
    before = len(errors.items)
    decks = rules.decks
    parsed: list[tuple[list[int], tuple[str, ...]]] = []
    for i, rh in enumerate(raw_hands):
        if type(rh) is not dict and not isinstance(rh, Mapping):
            errors.add(f"{path}[{i}]", "must be an object with cards and actions")
            continue
        if not rh.keys() <= _HAND_KEYS:
            _check_keys(rh, _HAND_KEYS, f"{path}[{i}]", errors)
        cards = _parse_cards(rh.get("cards"), (path, i, ".cards"), errors, counts, decks, 2)
        actions = _parse_actions(rh.get("actions"), (path, i, ".actions"), errors)
        if cards is not None and actions is not None:
            parsed.append((cards, actions))
    if len(errors.items) != before:
        return None

    n = len(parsed)
    hands: list[Hand] = []
    next_child = 1
    unequal_tens = False
    split_seat = n > 1
    no_hit_split_aces = split_seat and RANK[parsed[0][0][0]] == ACE and not rules.hit_split_aces
    for i, (cards, actions) in enumerate(parsed):
        if i and i >= next_child:
            errors.add(
                f"{path}[{i}]", "no split made this hand (each split adds one hand at the end)"
            )
            continue
        splits = 0
        if actions and actions[0] == SPLIT:
            k = 0
            while k < len(actions) and actions[k] == SPLIT:
                child = next_child
                next_child += 1
                if child >= n:
                    errors.add(
                        f"{path}[{i}].actions[{k}]",
                        "split, but the hand it made is missing from hands",
                    )
                else:
                    a, b = cards[0], parsed[child][0][0]
                    if BJ_POINTS[a] != BJ_POINTS[b]:
                        errors.add(
                            f"{path}[{i}].actions[{k}]",
                            f"split of unequal cards {TEXT[a]} and {TEXT[b]}",
                        )
                    elif RANK[a] != RANK[b]:
                        unequal_tens = True
                k += 1
            splits = k
        key = (tuple(cards), actions, split_seat, no_hit_split_aces)
        hand = _HAND_CACHE.get(key)
        if hand is None:
            hand = _play_hand(
                key[0], actions, splits, split_seat, no_hit_split_aces, f"{path}[{i}]", errors
            )
            if hand is None:
                continue
            if len(_HAND_CACHE) > 200000:
                _HAND_CACHE.clear()
            _HAND_CACHE[key] = hand
        hands.append(hand)
    if len(errors.items) == before and next_child != n:
        errors.add(path, f"{n} hands but the splits made {next_child}")
    if len(errors.items) != before:
        return None
    c0 = parsed[0][0]
    second = parsed[1][0][0] if hands[0].splits else c0[1]
    return tuple(hands), (c0[0], second), unequal_tens


_PAY_PATHS = tuple(tuple(f"seats[{i}].paid[{j}]" for j in range(16)) for i in range(16))


def _new_recorded_pay(
    number: int, wager: str, net: Decimal, hand: int | None, si: int, pj: int
) -> RecordedPay:
    """``RecordedPay(number, wager, net, hand, "seats[si].paid[pj]")`` built field by field
    (see :func:`make_settlement`)."""
    obj = _new_object(RecordedPay)
    _set_field(obj, "seat", number)
    _set_field(obj, "wager", wager)
    _set_field(obj, "net", net)
    _set_field(obj, "hand", hand)
    _set_field(
        obj, "path", _PAY_PATHS[si][pj] if si < 16 and pj < 16 else f"seats[{si}].paid[{pj}]"
    )
    return obj


def _parse_wagers(
    raw: object, spath: str, allowed: frozenset, errors: Errors
) -> dict[str, Decimal]:
    wagers: dict[str, Decimal] = {}
    if type(raw) is not dict and not isinstance(raw, Mapping):
        errors.add(f"{spath}.wagers", 'must be an object such as {"21": "10.00"}')
        return wagers
    for key, value in raw.items():
        if key not in allowed:
            errors.add(
                f"{spath}.wagers.{key}",
                f"unknown wager; expected one of {', '.join(sorted(allowed))}",
            )
            continue
        try:
            amount = _money(value)
        except MoneyError as exc:
            errors.add(f"{spath}.wagers.{key}", str(exc))
            continue
        if amount <= 0:
            errors.add(f"{spath}.wagers.{key}", f"must be more than 0, got {money_text(amount)}")
            continue
        wagers[key] = amount
    if W21 not in raw:
        errors.add(f"{spath}.wagers.21", "the 21 bet is required")
    return wagers


def _parse_paid(
    raw: object,
    spath: str,
    si: int,
    number: int,
    n_hands: int,
    pay_wagers: frozenset,
    errors: Errors,
) -> tuple[tuple[str, int | None, Decimal], ...]:
    if raw is None:
        return ()
    if type(raw) is not list and not isinstance(raw, (list, tuple)):
        errors.add(f"{spath}.paid", "must be a list of recorded pays")
        return ()
    paid: list[tuple[str, int | None, Decimal]] = []
    seen: set[tuple[str, int | None]] = set()
    for pj, p in enumerate(raw):
        if type(p) is not dict and not isinstance(p, Mapping):
            errors.add(f"{spath}.paid[{pj}]", "must be an object with wager, hand and net")
            continue
        if not p.keys() <= _PAID_KEYS:
            _check_keys(p, _PAID_KEYS, f"{spath}.paid[{pj}]", errors)
        wager = p.get("wager")
        if type(wager) is not str or wager not in pay_wagers:
            errors.add(
                f"{spath}.paid[{pj}].wager",
                f"unknown wager; expected one of {', '.join(sorted(pay_wagers))}",
            )
            continue
        hand = p.get("hand")
        if wager == W21:
            if type(hand) is not int or not 0 <= hand < max(n_hands, 1):
                errors.add(
                    f"{spath}.paid[{pj}].hand",
                    "the 21 wager needs the index of one of the seat's hands",
                )
                continue
        elif hand is not None:
            errors.add(
                f"{spath}.paid[{pj}].hand", f"only the 21 wager is paid per hand, not {wager}"
            )
            continue
        if (wager, hand) in seen:
            errors.add(f"{spath}.paid[{pj}]", f"{wager} is recorded twice")
            continue
        seen.add((wager, hand))
        try:
            paid.append((wager, hand, _money(p.get("net"))))
        except MoneyError as exc:
            errors.add(f"{spath}.paid[{pj}].net", str(exc))
    return tuple(paid)


def parse_round(data: object, rules, spec: GameSpec) -> Round:
    """JSON form -> :class:`Round`; raises :class:`InvalidInput` naming every impossible field.

    A well-formed round goes through :func:`_parse_fast`; anything it does not accept at
    once (an error, or an unusual but valid form) goes through :func:`_parse_detailed`,
    which collects every error with its path. Both give equal rounds.
    """
    rnd = _parse_fast(data, rules, spec)
    if rnd is not None:
        return rnd
    return _parse_detailed(data, rules, spec)


# --------------------------------------------------------------------------------------
# The fast path for well-formed rounds
#
# Nearly every round the tablet sends is well formed, and reading it is most of the cost of
# an audit. The fast path checks the same things as the detailed parser with the cheapest
# test that settles each (exact types, counts of keys, memoised amounts and wager sets, a
# typed walk of each hand) and gives up (returns None) at the first thing it does not like,
# without saying why: the detailed parser then runs from scratch and reports every error
# with its path, so error messages never depend on this path.
# tests/games/test_blackjack_fast_path.py checks that both parsers give equal rounds and the
# same errors.


def _card_texts() -> dict[str, int]:
    """Every card text :func:`~tables.games.cards.parse_card` accepts without stripping."""
    out: dict[str, int] = {}
    for c, t in enumerate(TEXT):
        ranks = {t[0], t[0].lower()} | ({"10"} if t[0] == "T" else set())
        for r in ranks:
            for su in (t[1], t[1].lower()):
                out[r + su] = c
    return out


_CARD_OF = _card_texts()
_card_of = _CARD_OF.__getitem__
_POINTS_OF = BJ_POINTS.__getitem__
_tuple_new = tuple.__new__
_CACHE_LIMIT = 50000
#: Seat numbers and recorded pays are checked for duplicates with bits of one int; a seat
#: with more hands than this goes the detailed way.
_MAX_FAST_HANDS = 32


class _GiveUp(Exception):
    """The fast parser saw something it does not handle; the detailed parser takes over."""


# The ways the fast parser notices the unexpected: a missing key, a wrong type (the C
# built-ins it leans on raise these), or its own _GiveUp.
_GIVE_UP = (_GiveUp, KeyError, TypeError, IndexError, AttributeError, ValueError)


class _FastCaches:
    """Validated pieces of the JSON form of one game, keyed by tuples of the JSON values.

    Only entries whose amounts are JSON strings are kept: ``10 == 10.0 == True`` would make
    int keys unsafe (a float or a bool must be refused however many rounds came before).
    ``pay_bits`` numbers the wagers a pay may name without a hand; the 21 bet's hands take
    the bits after them.
    """

    __slots__ = ("allowed", "pay_bits", "validate", "validate_wagers", "wagers")

    def __init__(self, spec: GameSpec):
        self.allowed, pay_wagers = _wager_sets(spec)
        self.pay_bits = {w: i for i, w in enumerate(sorted(pay_wagers - {W21}))}
        self.wagers: dict[tuple, Mapping[str, Decimal]] = {}
        self.validate = spec.validate
        self.validate_wagers = spec.validate_wagers


_FAST_CACHES: dict[str, _FastCaches] = {}


def _fast_caches(spec: GameSpec) -> _FastCaches:
    fc = _FAST_CACHES.get(spec.key)
    if fc is None:
        fc = _FAST_CACHES[spec.key] = _FastCaches(spec)
    return fc


def _store(cache: dict, key: tuple, value: object) -> None:
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def _unusual_seat(raw: dict) -> tuple:
    """(seat, wagers, hands, paid, player, even_money) of a seat without exactly the usual
    fields, with the types the detailed parser accepts without a word."""
    if not raw.keys() <= _SEAT_KEYS:
        raise _GiveUp
    number, wraw, hands_raw = raw["seat"], raw["wagers"], raw["hands"]
    praw = raw.get("paid")
    player = raw.get("player")
    even_money = raw.get("even_money", False)
    if (player is not None and type(player) is not str) or type(even_money) is not bool:
        raise _GiveUp
    return number, wraw, hands_raw, praw, player, even_money


def _fast_wagers(wraw: dict, fc: _FastCaches) -> Mapping[str, Decimal]:
    """A seat's wagers (a memo miss): all known keys, each a positive amount, a 21 bet."""
    if W21 not in wraw:
        raise _GiveUp
    wagers: dict[str, Decimal] = {}
    all_text = True
    for k, v in wraw.items():
        t = type(v)
        if k not in fc.allowed or (t is not str and t is not int):
            raise _GiveUp
        all_text = all_text and t is str
        try:
            amount = _money(v)
        except MoneyError:
            raise _GiveUp from None
        if amount <= 0:
            raise _GiveUp
        wagers[k] = amount
    if fc.validate_wagers is not None and not fc.validate_wagers(wagers):
        raise _GiveUp
    proxy = MappingProxyType(wagers)
    if all_text:  # shared between seats: a read-only view of a dict nobody else holds
        _store(fc.wagers, tuple(wraw.items()), proxy)
    return proxy


@cython.cfunc
@cython.locals(
    raw_cards=list,
    actions=tuple,
    cards=tuple,
    points_of=tuple,
    n=cython.Py_ssize_t,
    j=cython.Py_ssize_t,
    drawn=cython.Py_ssize_t,
    p=cython.int,
    points=cython.int,
    total=cython.int,
    ace=cython.bint,
    natural=cython.bint,
    doubled=cython.bint,
    stood=cython.bint,
    soft=cython.bint,
)
def _fast_hand(rh: object) -> object:
    """The one hand of an unsplit seat: the walk of :func:`_play_hand` (unsplit), giving up
    where it would report an error."""
    if type(rh) is not dict:
        raise _GiveUp
    raw = rh["cards"]
    n = len(rh)
    if n == 2:
        raw_actions = rh["actions"]
    elif n == 1:
        raw_actions = None
    else:
        raise _GiveUp
    if type(raw) is not list:
        raise _GiveUp
    raw_cards = raw
    n = len(raw_cards)
    if n < 2:
        raise _GiveUp
    if raw_actions is None:
        actions = ()
    elif type(raw_actions) is list:
        actions = tuple(raw_actions)
    else:
        raise _GiveUp
    cards = tuple([_CARD_OF[t] for t in raw_cards])
    points_of = BJ_POINTS
    p = points_of[cards[0]]
    points = p
    ace = p == 1
    p = points_of[cards[1]]
    points += p
    ace = ace or p == 1
    natural = ace and points == 11
    doubled = stood = False
    drawn = 2
    for j in range(len(actions)):
        a = actions[j]
        if a == STAND:
            if stood or doubled:
                raise _GiveUp
            stood = True
            continue
        if stood or doubled or natural or points > 21 or drawn >= n:
            raise _GiveUp
        if a == DOUBLE:
            if drawn != 2:
                raise _GiveUp
            doubled = True
        elif a != HIT:
            raise _GiveUp
        p = points_of[cards[drawn]]
        points += p
        ace = ace or p == 1
        drawn += 1
    if drawn != n:
        raise _GiveUp
    soft = ace and points <= 11
    total = points + 10 if soft else points
    return _tuple_new(Hand, (cards, actions, total, soft, total > 21, natural, doubled, 0))


def _fast_split_hands(hands_raw: list, rules) -> tuple[tuple[Hand, ...], tuple[int, int], bool]:
    """A split seat's hands: the detailed walk of the split protocol (it reports nothing
    unless something is wrong, and then the whole round goes the detailed way)."""
    parsed = _parse_hands(hands_raw, "", Errors(), rules, [0] * 52)
    if parsed is None or len(parsed[0]) > _MAX_FAST_HANDS:
        raise _GiveUp
    return parsed


@cython.cfunc
@cython.locals(
    praw=list,
    made=list,
    n_keys=cython.Py_ssize_t,
    bit=cython.int,
    seen=cython.ulonglong,
    one=cython.ulonglong,
    money_memo=dict,
)
def _fast_paid(raw: object, n_hands: cython.Py_ssize_t, pay_bits: dict) -> tuple:
    """A seat's recorded pays in the usual form: exactly wager+net, or wager+hand+net for the
    21 bet; each wager (each hand's 21 bet) once."""
    if type(raw) is not list:
        raise _GiveUp
    praw = raw
    made = []
    seen = 0
    one = 1
    money_memo = _MONEY_TEXT
    for p in praw:
        if type(p) is not dict:
            raise _GiveUp
        n_keys = len(p)
        wager = p["wager"]
        net_raw = p["net"]
        if n_keys == 3:
            hand = p["hand"]
            if wager != W21 or type(hand) is not int or not 0 <= hand < n_hands:
                raise _GiveUp
            bit = len(pay_bits) + hand
        elif n_keys == 2:
            hand = None
            b = pay_bits.get(wager)  # the 21 bet is not there: it needs its hand
            if b is None:
                raise _GiveUp
            bit = b
        else:
            raise _GiveUp
        if (seen >> bit) & 1:
            raise _GiveUp
        seen |= one << bit
        net = money_memo.get(net_raw)  # str keys only: nothing else can match
        if net is None:
            net = _money(net_raw)  # a MoneyError (bad text, float, bool) gives up
        made.append((wager, hand, net))
    return tuple(made)


@cython.cfunc
@cython.locals(n=cython.Py_ssize_t, k=cython.Py_ssize_t, decks=cython.Py_ssize_t)
def _overdrawn(cards: list, shoe_decks: object) -> cython.bint:
    """Does any card come more often than the shoe holds it? (Sorted, that is decks+1 equal
    cards in a row: a card equal to the one ``decks`` places further on.)"""
    decks = shoe_decks
    n = len(cards)
    if n <= decks:
        return False
    cards.sort()
    for k in range(n - decks):  # noqa: SIM110 - a C loop when compiled (any() would be a generator)
        if cards[k] == cards[k + decks]:
            return True
    return False


@cython.locals(
    seats_raw=list,
    seat_raw=dict,
    fast_caches=dict,
    seats=list,
    all_cards=list,
    wmemo=dict,
    si=cython.Py_ssize_t,
    n_keys=cython.Py_ssize_t,
    n_hands=cython.Py_ssize_t,
    seat_bit=cython.int,
    seat_mask=cython.int,
)
def _parse_fast(data: object, rules, spec: GameSpec) -> Round | None:
    """The round, when it is well formed in the usual way; otherwise None (see above)."""
    try:
        if type(data) is not dict:
            return None
        game = spec.key
        dealer_raw = data["dealer"]
        raw = data["seats"]
        if len(data) != 2 and (len(data) != 3 or data["game"] != game):
            return None
        if type(dealer_raw) is not dict or len(dealer_raw) != 1:
            return None
        raw_cards = dealer_raw["cards"]
        if type(raw_cards) is not list or len(raw_cards) < 2:
            return None
        dealer = tuple(map(_card_of, raw_cards))
        # No card after the dealer busted: points only grow, so the sum before the last card.
        if len(dealer) > 2 and sum(map(_POINTS_OF, dealer[:-1])) > 21:
            return None
        if type(raw) is not list or not raw:
            return None
        seats_raw = raw
        fast_caches = _FAST_CACHES
        fc = fast_caches.get(game) or _fast_caches(spec)
        wmemo = fc.wagers
        pay_bits = fc.pay_bits
        validate = fc.validate if fc.validate_wagers is None else None
        all_cards = list(dealer)
        seats = []
        seat_mask = 0
        for si in range(len(seats_raw)):
            raw = seats_raw[si]
            if type(raw) is not dict:
                return None
            seat_raw = raw
            n_keys = len(seat_raw)
            number = seat_raw.get("seat")
            wraw = seat_raw.get("wagers")
            hands_raw = seat_raw.get("hands")
            praw = seat_raw.get("paid")
            player = None
            even_money = False
            # Exactly seat, wagers, hands and (maybe) paid: the tablet's form.
            if n_keys != (3 if praw is None else 4) or number is None or wraw is None:
                number, wraw, hands_raw, praw, player, even_money = _unusual_seat(seat_raw)
            if type(number) is not int or type(wraw) is not dict or type(hands_raw) is not list:
                return None
            if not 1 <= number <= MAX_SEAT_NUMBER:
                return None
            seat_bit = number
            seat_bit = 1 << seat_bit
            if seat_mask & seat_bit:
                return None
            seat_mask |= seat_bit
            wagers = wmemo.get(tuple(wraw.items()))
            if wagers is None:
                wagers = _fast_wagers(wraw, fc)
            n_hands = len(hands_raw)
            if n_hands == 1:
                hand = _fast_hand(hands_raw[0])
                cards = hand.cards
                hands: tuple[Hand, ...] = (hand,)
                first_two = cards[:2]
                unequal = False
                all_cards += cards
            else:
                hands, first_two, unequal = _fast_split_hands(hands_raw, rules)
                n_hands = len(hands)
                for h in hands:
                    all_cards += h.cards
            if even_money and (INSURANCE in wagers or not hands[0].natural):
                return None
            recorded = () if praw is None else _fast_paid(praw, n_hands, pay_bits)
            seat = _tuple_new(
                Seat, (number, player, wagers, even_money, hands, recorded, first_two, si, unequal)
            )
            if validate is not None:
                errors = Errors()
                validate(seat, "", errors, rules)
                if errors:
                    return None
            seats.append(seat)
        if _overdrawn(all_cards, rules.decks):
            return None
        return make_round(game, dealer, tuple(seats))
    except _GIVE_UP:
        return None


def _parse_detailed(data: object, rules, spec: GameSpec) -> Round:
    """The parser that reports every error with its path (and accepts any valid form)."""
    errors = Errors()
    if type(data) is not dict and not isinstance(data, Mapping):
        errors.add("", "a round must be an object with dealer and seats")
        errors.raise_if_any()
    assert isinstance(data, Mapping)
    if not data.keys() <= _TOP_KEYS:
        _check_keys(data, _TOP_KEYS, "", errors)
    game = data.get("game", spec.key)
    if game != spec.key:
        errors.add("game", f"{game!r} is not {spec.key!r}")
    decks = rules.decks
    counts = [0] * 52
    dealer_raw = data.get("dealer")
    dealer: list[int] | None = None
    if type(dealer_raw) is not dict and not isinstance(dealer_raw, Mapping):
        errors.add("dealer", "must be an object with the dealer's cards")
    else:
        if not dealer_raw.keys() <= _DEALER_KEYS:
            _check_keys(dealer_raw, _DEALER_KEYS, "dealer", errors)
        dealer = _parse_cards(dealer_raw.get("cards"), "dealer.cards", errors, counts, decks, 2)
        if dealer is not None and len(dealer) > 2:
            points = 0
            for k, c in enumerate(dealer[:-1]):
                points += BJ_POINTS[c]
                if points > 21:
                    errors.add(f"dealer.cards[{k + 1}]", "card drawn after the dealer busted")
                    break

    seats_raw = data.get("seats")
    seats: list[Seat] = []
    if type(seats_raw) is not list or not seats_raw:
        errors.add("seats", "must be a non-empty list of seats")
        seats_raw = []
    allowed_wagers, pay_wagers = _wager_sets(spec)
    seen_numbers: dict[int, int] = {}
    validate = spec.validate
    for si, raw in enumerate(seats_raw):
        spath = f"seats[{si}]"
        if type(raw) is not dict and not isinstance(raw, Mapping):
            errors.add(spath, "must be an object")
            continue
        if not raw.keys() <= _SEAT_KEYS:
            _check_keys(raw, _SEAT_KEYS, spath, errors)
        before = len(errors.items)
        number = raw.get("seat")
        if type(number) is not int or not 1 <= number <= MAX_SEAT_NUMBER:
            errors.add(f"{spath}.seat", f"must be a table position from 1 to {MAX_SEAT_NUMBER}")
            number = 0
        elif number in seen_numbers:
            errors.add(
                f"{spath}.seat", f"seat {number} is already used by seats[{seen_numbers[number]}]"
            )
        else:
            seen_numbers[number] = si
        player = raw.get("player")
        if player is not None and type(player) is not str:
            errors.add(f"{spath}.player", "must be text")
        wagers = _parse_wagers(raw.get("wagers"), spath, allowed_wagers, errors)
        even_money = raw.get("even_money", False)
        if type(even_money) is not bool:
            errors.add(f"{spath}.even_money", "must be true or false")
            even_money = False
        parsed_hands = _parse_hands(raw.get("hands"), f"{spath}.hands", errors, rules, counts)
        if even_money:
            if INSURANCE in wagers:
                errors.add(f"{spath}.even_money", "even money and insurance cannot both be taken")
            if parsed_hands is not None and not parsed_hands[0][0].natural:
                errors.add(f"{spath}.even_money", "even money is offered only on a natural")
        n_hands = len(parsed_hands[0]) if parsed_hands is not None else 0
        paid = _parse_paid(raw.get("paid"), spath, si, number, n_hands, pay_wagers, errors)
        if len(errors.items) != before or parsed_hands is None:
            continue
        hands, first_two, unequal = parsed_hands
        seat = Seat(
            number,
            player,
            MappingProxyType(wagers),
            even_money,
            hands,
            paid,
            first_two,
            si,
            unequal,
        )
        if validate is not None:
            validate(seat, spath, errors, rules)
        seats.append(seat)
    errors.raise_if_any()
    assert dealer is not None
    return Round(spec.key, tuple(dealer), tuple(seats))


_WAGER_SETS: dict[str, tuple[frozenset, frozenset]] = {}


def _wager_sets(spec: GameSpec) -> tuple[frozenset, frozenset]:
    sets = _WAGER_SETS.get(spec.key)
    if sets is None:
        allowed = frozenset((W21, INSURANCE, *spec.wagers))
        sets = _WAGER_SETS[spec.key] = (allowed, allowed | frozenset(spec.pay_wagers))
    return sets


def round_to_dict(rnd: Round) -> dict:
    """The canonical JSON form; ``parse_round`` round-trips it."""
    seats = []
    for s in rnd.seats:
        d: dict = {"seat": s.seat}
        if s.player is not None:
            d["player"] = s.player
        d["wagers"] = {k: money_text(v) for k, v in s.wagers.items()}
        if s.even_money:
            d["even_money"] = True
        d["hands"] = [
            {"cards": [TEXT[c] for c in h.cards], "actions": list(h.actions)} for h in s.hands
        ]
        if s.recorded:
            d["paid"] = [
                {"wager": wager, "net": money_text(net)}
                if hand is None
                else {"wager": wager, "hand": hand, "net": money_text(net)}
                for wager, hand, net in s.recorded
            ]
        seats.append(d)
    return {"game": rnd.game, "dealer": {"cards": [TEXT[c] for c in rnd.dealer]}, "seats": seats}


# --------------------------------------------------------------------------------------
# The dealer


def played_on(rnd: Round) -> bool:
    """Did any player act beyond the first two cards (so a peeked natural was missed)?"""
    for s in rnd.seats:
        if len(s.hands) > 1:
            return True
        h = s.hands[0]
        if len(h.cards) > 2:
            return True
    return False


def dealer_facts(rnd: Round, rules) -> Dealer:
    cards = rnd.dealer
    natural = is_natural_pair(cards[0], cards[1])
    return _dealer_facts(cards, rules, natural and rules.dealer_peeks and played_on(rnd))


def _dealer_facts(cards: tuple[int, ...], rules, missed: bool) -> Dealer:
    total, soft = hand_total(cards)
    up = cards[0]
    natural = is_natural_pair(cards[0], cards[1])
    peek_card = RANK[up] == ACE or TEN_VALUE[up]
    if natural and len(cards) == 2:
        text = f"blackjack ({cards_text(cards)})"
    elif total > 21:
        text = f"bust with {total} ({cards_text(cards)})"
    else:
        text = f"{total_text(total, soft)} ({cards_text(cards)})"
    return Dealer(cards, up, total, soft, total > 21, natural, peek_card, missed, text)


def live_stake(rnd: Round, rules, spec: GameSpec) -> Decimal:
    """Money still depending on the dealer's draw after the players have played."""
    up = rnd.dealer[0]
    live = ZERO
    for s in rnd.seats:
        stake = s.wagers[W21]
        for h in s.hands:
            if not h.busted and not h.natural:
                live += stake + stake if h.doubled else stake
        live += spec.side_live(s, up, rules)
    return live


def dealer_findings(rnd: Round, rules, dealer: Dealer, live: Decimal) -> list[Finding]:
    """Replay the dealer's hand and report every departure from the drawing rules."""
    cards = dealer.cards
    out: list[Finding] = []
    h17 = rules.dealer_hits_soft_17
    if dealer.natural and rules.dealer_peeks and dealer.missed_peek:
        extra = ZERO
        for s in rnd.seats:
            stake = s.wagers[W21]
            extra += stake * (len(s.hands) - 1)
            extra += sum((stake for h in s.hands if h.doubled), ZERO)
        out.append(
            Finding(
                DEALER_MISSED_PEEK,
                PROCEDURE,
                f"Dealer had blackjack ({cards_text(cards[:2])}) with {TEXT[cards[0]]} up but the "
                "players played on; the peek should have ended the round. Only the original 21 bets "
                "lose; doubles and splits are returned.",
                "dealer.cards[1]",
                RULE_PEEK,
                "round ends at the peek",
                "players played on",
                extra,
            )
        )
    if live <= 0 and not dealer.natural:
        if len(cards) > 2:
            out.append(
                Finding(
                    DEALER_DREW_UNNEEDED,
                    PROCEDURE,
                    f"Dealer drew to {total_text(*hand_total(cards[:2]))} ({cards_text(cards[:2])}) "
                    "though no wager on the layout depended on the dealer's hand.",
                    "dealer.cards[2]",
                    RULE_DEALER_COMPLETES,
                    "stand on two cards",
                    f"drew {len(cards) - 2} card(s)",
                    ZERO,
                )
            )
        return out
    for k in range(2, len(cards)):
        total, soft = hand_total(cards[:k])
        if dealer_must_draw(total, soft, h17):
            continue
        shown = f"{total_text(total, soft)} ({cards_text(cards[:k])})"
        if soft and total == 17:
            code, rule, what = DEALER_DREW_SOFT_17, RULE_S17, f"Dealer drew on {shown} under S17."
        elif soft:
            code, rule, what = (
                DEALER_DREW_SOFT_18_PLUS,
                RULE_DEALER_DRAWS,
                f"Dealer drew on {shown}.",
            )
        else:
            code, rule, what = DEALER_DREW_HARD_17, RULE_DEALER_DRAWS, f"Dealer drew on {shown}."
        out.append(
            Finding(
                code,
                PROCEDURE,
                what,
                f"dealer.cards[{k}]",
                rule,
                f"stand on {total_text(total, soft)}",
                f"drew {TEXT[cards[k]]}",
                live,
            )
        )
    total, soft = dealer.total, dealer.soft
    if total <= 21 and dealer_must_draw(total, soft, h17):
        shown = f"{total_text(total, soft)} ({cards_text(cards)})"
        if total == 17 and soft:
            out.append(
                Finding(
                    DEALER_STOOD_SOFT_17,
                    PROCEDURE,
                    f"Dealer stood on {shown} under H17.",
                    "dealer.cards",
                    RULE_H17,
                    "hit soft 17",
                    "stood",
                    live,
                )
            )
        else:
            out.append(
                Finding(
                    DEALER_STOPPED_EARLY,
                    PROCEDURE,
                    f"Dealer stood on {shown} while wagers depended on the hand.",
                    "dealer.cards",
                    RULE_DEALER_DRAWS,
                    "draw to 17",
                    f"stood on {total_text(total, soft)}",
                    live,
                )
            )
    return out


# --------------------------------------------------------------------------------------
# Play and insurance rule findings


def play_findings(seat: Seat, rules) -> list[Finding]:
    out: list[Finding] = []
    hands = seat.hands
    spath = f"seats[{seat.index}]"
    stake = seat.wagers[W21]
    if len(hands) > rules.max_split_hands:
        out.append(
            Finding(
                SPLIT_ABOVE_MAX_HANDS,
                RULE_VIOLATION,
                f"Seat {seat.seat} split to {len(hands)} hands; the table allows {rules.max_split_hands}.",
                f"{spath}.hands",
                RULE_MAX_SPLIT,
                str(rules.max_split_hands),
                str(len(hands)),
                stake * (len(hands) - rules.max_split_hands),
                seat.seat,
            )
        )
    if len(hands) > 2 and RANK[seat.first_two[0]] == ACE and not rules.resplit_aces:
        out.append(
            Finding(
                RESPLIT_ACES_NOT_ALLOWED,
                RULE_VIOLATION,
                f"Seat {seat.seat} resplit Aces to {len(hands)} hands.",
                f"{spath}.hands",
                RULE_RESPLIT_ACES,
                "2 hands",
                f"{len(hands)} hands",
                stake * (len(hands) - 2),
                seat.seat,
            )
        )
    if seat.unequal_ten_split and not rules.split_any_ten_values:
        out.append(
            Finding(
                SPLIT_UNEQUAL_TEN_VALUES,
                RULE_VIOLATION,
                f"Seat {seat.seat} split {cards_text(seat.first_two)}, ten-values of different ranks.",
                f"{spath}.hands",
                RULE_SPLIT_TENS,
                "equal ranks",
                cards_text(seat.first_two),
                stake,
                seat.seat,
            )
        )
    for i, h in enumerate(hands):
        if not h.doubled:
            continue
        path = f"{spath}.hands[{i}].actions"
        if len(hands) > 1 and not rules.double_after_split:
            out.append(
                Finding(
                    DOUBLE_AFTER_SPLIT_NOT_ALLOWED,
                    RULE_VIOLATION,
                    f"Seat {seat.seat} hand {i + 1} doubled after a split.",
                    path,
                    RULE_DAS,
                    "no double after split",
                    "doubled",
                    stake,
                    seat.seat,
                )
            )
        if rules.double_on != "any_two":
            t, soft = hand_total(h.cards[:2])
            allowed = DOUBLE_TOTALS[rules.double_on]
            if soft or t not in allowed:
                out.append(
                    Finding(
                        DOUBLE_NOT_ALLOWED,
                        RULE_VIOLATION,
                        f"Seat {seat.seat} hand {i + 1} doubled on {total_text(t, soft)} "
                        f"({cards_text(h.cards[:2])}); the table allows {rules.double_on}.",
                        path,
                        RULE_DOUBLE_ON,
                        rules.double_on,
                        total_text(t, soft),
                        stake,
                        seat.seat,
                    )
                )
    return out


def insurance_stake(seat: Seat) -> Decimal | None:
    if seat.even_money:
        return (seat.wagers[W21] / 2).quantize(CENT, rounding="ROUND_DOWN")
    return seat.wagers.get(INSURANCE)


def insurance_findings(seat: Seat, rules, upcard: int) -> list[Finding]:
    ins = insurance_stake(seat)
    if ins is None:
        return []
    out = []
    path = (
        f"seats[{seat.index}].even_money"
        if seat.even_money
        else f"seats[{seat.index}].wagers.insurance"
    )
    if RANK[upcard] != ACE or not rules.insurance:
        why = (
            "insurance is not offered at this table"
            if not rules.insurance
            else f"dealer showed {TEXT[upcard]}"
        )
        out.append(
            Finding(
                INSURANCE_NOT_OFFERED,
                RULE_VIOLATION,
                f"Seat {seat.seat} took insurance but {why}.",
                path,
                RULE_INSURANCE_OFFERED,
                "no insurance",
                money_text(ins),
                ins,
                seat.seat,
            )
        )
    half = seat.wagers[W21] / 2
    if ins > half:
        out.append(
            Finding(
                INSURANCE_ABOVE_HALF_BET,
                RULE_VIOLATION,
                f"Seat {seat.seat} insurance {money_text(ins)} is above half the 21 bet "
                f"({money_text(seat.wagers[W21])}).",
                path,
                RULE_INSURANCE,
                f"at most {money_text(half)}",
                money_text(ins),
                ins - half.quantize(CENT),
                seat.seat,
            )
        )
    return out


# --------------------------------------------------------------------------------------
# Settlement of the 21 bet and insurance

_EXPLAIN: dict[tuple, str] = {}


def _explain(key: tuple) -> str:
    """Explanations repeat endlessly; build each once."""
    text = _EXPLAIN.get(key)
    if text is None:
        text = _build_explanation(key)
        if len(_EXPLAIN) > 50000:
            _EXPLAIN.clear()
        _EXPLAIN[key] = text
    return text


def _build_explanation(key: tuple) -> str:
    kind = key[0]
    if kind == "nat":
        return f"blackjack pays {key[1]}"
    if kind == "nat_push":
        return "blackjack against dealer blackjack: push"
    if kind == "dnat":
        return f"dealer blackjack beats {key[1]}; {'doubled hand ' if key[2] else ''}loses"
    if kind == "peek_lost":
        return f"dealer blackjack beats {key[1]}; original bet loses (missed peek: doubles and splits returned)"
    if kind == "peek_returned":
        return "split hand returned: dealer blackjack should have ended the round at the peek"
    pre = "doubled " if key[-1] else ""
    if kind == "bust":
        return f"{pre}hand busts with {key[1]}; loses"
    if kind == "dbust":
        return f"dealer busts with {key[2]}; {pre}{key[1]} wins 1 to 1"
    if kind == "win":
        return f"{pre}{key[1]} beats dealer {key[2]}; wins 1 to 1"
    if kind == "lose":
        return f"{pre}{key[1]} loses to dealer {key[2]}"
    if kind == "push":
        return f"{pre}{key[1]} ties dealer {key[2]}; push"
    raise AssertionError(key)


def settle_21(seat: Seat, dealer: Dealer, rules, out: list[Settlement]) -> None:
    base = seat.wagers[W21]
    for i, h in enumerate(seat.hands):
        out.append(settle_hand(seat.seat, base, i, h, dealer, rules))


def settle_hand(number: int, base: Decimal, i: int, h: Hand, dealer: Dealer, rules) -> Settlement:
    """The 21 bet of one hand (``base`` is the seat's 21 bet; a double puts out as much again)."""
    stake = base + base if h.doubled else base
    p_total = h.total
    if dealer.natural:
        if h.natural:
            return make_settlement(number, W21, stake, ZERO, PUSH, _explain(("nat_push",)), i)
        if dealer.missed_peek:
            if i == 0:
                return make_settlement(
                    number, W21, stake, -base, LOSE, _explain(("peek_lost", p_total)), i
                )
            return make_settlement(number, W21, stake, ZERO, PUSH, _explain(("peek_returned",)), i)
        return make_settlement(
            number, W21, stake, -stake, LOSE, _explain(("dnat", p_total, h.doubled)), i
        )
    if h.natural:
        d = derived(rules)
        net = (stake * d.natural_odds).quantize(CENT)
        if not d.exact or net != stake * d.natural_odds:
            net = pays(stake, d.natural_odds, d.unit, d.direction)
        return make_settlement(number, W21, stake, net, WIN, _explain(("nat", d.natural_text)), i)
    d_total = dealer.total
    if h.busted:
        return make_settlement(
            number, W21, stake, -stake, LOSE, _explain(("bust", p_total, h.doubled)), i
        )
    if dealer.busted:
        return make_settlement(
            number, W21, stake, stake, WIN, _explain(("dbust", p_total, d_total, h.doubled)), i
        )
    if p_total > d_total:
        return make_settlement(
            number, W21, stake, stake, WIN, _explain(("win", p_total, d_total, h.doubled)), i
        )
    if p_total < d_total:
        return make_settlement(
            number, W21, stake, -stake, LOSE, _explain(("lose", p_total, d_total, h.doubled)), i
        )
    return make_settlement(
        number, W21, stake, ZERO, PUSH, _explain(("push", p_total, d_total, h.doubled)), i
    )


def settle_insurance(seat: Seat, dealer: Dealer, out: list[Settlement]) -> None:
    ins = insurance_stake(seat)
    if ins is None:
        return
    what = "even money (insurance on a natural)" if seat.even_money else "insurance"
    if dealer.natural:
        out.append(
            make_settlement(
                seat.seat,
                INSURANCE,
                ins,
                ins + ins,
                WIN,
                f"dealer has blackjack ({cards_text(dealer.cards[:2])}); {what} pays 2 to 1",
            )
        )
    else:
        out.append(
            make_settlement(
                seat.seat,
                INSURANCE,
                ins,
                -ins,
                LOSE,
                f"dealer has no blackjack ({cards_text(dealer.cards[:2])}); {what} loses",
            )
        )


# --------------------------------------------------------------------------------------
# The audit


class _Plan:
    """What the audit needs from one ruleset, worked out once per ruleset object, with the
    memos of the 21-bet settlements and of the dealer's facts under that ruleset.

    Kept by ``id(rules)`` with the ruleset itself (rulesets hold mappings, so they cannot be
    dict keys); a different object with the same id is noticed and gets a new plan."""

    __slots__ = (
        "dealer_ok",
        "dealers",
        "hands21",
        "max_split",
        "peeks",
        "resplit_aces",
        "rules",
        "split_any",
        "strict_double",
        "strict_split_double",
    )

    def __init__(self, rules):
        self.rules = rules
        self.peeks = rules.dealer_peeks
        self.max_split = rules.max_split_hands
        self.resplit_aces = rules.resplit_aces
        self.split_any = rules.split_any_ten_values
        self.strict_double = rules.double_on != "any_two"
        self.strict_split_double = not rules.double_after_split
        self.hands21: dict[tuple, Settlement] = {}
        self.dealers: dict[tuple[int, ...], tuple[Dealer, str]] = {}
        self.dealer_ok: dict[tuple, bool] = {}


_PLANS: dict[int, _Plan] = {}
_FIRST = itemgetter(0)
_LIVE_TEXT: dict[Decimal, str] = {}


def _plan(rules) -> _Plan:
    plan = _PLANS.get(id(rules))
    if plan is None or plan.rules is not rules:
        if len(_PLANS) > 256:
            _PLANS.clear()
        plan = _PLANS[id(rules)] = _Plan(rules)
    return plan


def _play_checks_needed(s: Seat, plan: _Plan) -> bool:
    """Could :func:`play_findings` find anything for this split or doubled seat?"""
    hands = s.hands
    n = len(hands)
    if n > plan.max_split or (s.unequal_ten_split and not plan.split_any):
        return True
    if n > 2 and not plan.resplit_aces and RANK[s.first_two[0]] == ACE:
        return True
    if plan.strict_double or (n > 1 and plan.strict_split_double):
        return any(h.doubled for h in hands)
    return False


@cython.cfunc
def _settle_hand_memo(
    number: int,
    base: Decimal,
    i: int,
    h: Hand,
    dealer: Dealer,
    rules,
    peek_natural: cython.bint,
    key: object,
    plan: _Plan,
) -> tuple:
    """A 21 bet's settlement and the money it leaves depending on the dealer's draw
    (``key`` None: not kept)."""
    st = settle_hand(number, base, i, h, dealer, rules)
    live = ZERO if peek_natural or h.busted or h.natural else base + base if h.doubled else base
    hit = (st, live)
    if key is not None:
        hands21 = plan.hands21
        if len(hands21) > _CACHE_LIMIT:
            hands21.clear()
        hands21[key] = hit
    return hit


def _audit_seat_hooks(
    s: Seat,
    dealer: Dealer,
    rules,
    context: AuditContext | None,
    settlements: list[Settlement],
    findings: list[Finding],
    spec: GameSpec,
) -> Decimal:
    """The side wagers of one seat through the game's three separate hooks (``facts`` is the
    spec itself here). A seat with its 21 bet alone has no side wager to settle, judge or keep
    live: most seats, and no hook is called for them."""
    if len(s.wagers) == 1:
        return ZERO
    spec.settle(s, dealer, rules, context, settlements)
    if len(s.wagers) > 1:
        findings += spec.rule_findings(s, rules)
    return spec.side_live(s, dealer.upcard, rules)


@cython.locals(
    seats=tuple,
    s=tuple,
    h=tuple,
    plans=dict,
    dealers=dict,
    dealer_ok=dict,
    live_texts=dict,
    settlements=list,
    seat_findings=list,
    findings=list,
    hands21=dict,
    hit=tuple,
    n_seats=cython.Py_ssize_t,
    k=cython.Py_ssize_t,
    i=cython.Py_ssize_t,
    start=cython.Py_ssize_t,
    number=cython.int,
    last=cython.int,
    total=cython.int,
    dk=cython.int,
    peek_natural=cython.bint,
    mismatch=cython.bint,
)
def audit(rnd: Round, rules, spec: GameSpec, context: AuditContext | None = None) -> Audit:
    """Settle every wager, replay the dealer, check the table rules, compare recorded pays.

    Settlements and findings come out ordered by seat number, so the order of the seats in
    the JSON never changes the answer. This is the engine's hot path: the 21 bets and the
    dealer's facts come from memos of the ruleset's :class:`_Plan`, the checks that find
    nothing on a normal round are gated by cheap tests, and :func:`audit_reference` (the
    same audit written plainly) is what tests/games/test_blackjack_fast_path.py holds it to.
    """
    plans = _PLANS
    plan = plans.get(id(rules))
    if plan is None or plan.rules is not rules:
        plan = _plan(rules)
    cards = rnd.dealer
    dealers = plan.dealers
    known = dealers.get(cards)
    if known is None:
        known = (_dealer_facts(cards, rules, False), cards_text(cards))
        if len(dealers) > _CACHE_LIMIT:
            dealers.clear()
        dealers[cards] = known
    dealer, dealer_text = known
    peek_natural = dealer.natural and plan.peeks
    if peek_natural and played_on(rnd):
        dealer = dealer._replace(missed_peek=True)
        dk = 0
    else:
        dk = 1 if dealer.natural else dealer.total + 2
    seats = tuple(rnd.seats)
    n_seats = len(seats)
    last = 0
    for k in range(n_seats):  # already in seat order, as the tablet sends them?
        number = seats[k].seat
        if number < last:
            seats = tuple(sorted(seats, key=_FIRST))
            break
        last = number
    hands21 = plan.hands21
    audit_seat = spec.audit_seat
    if audit_seat is None:
        audit_seat, facts = _audit_seat_hooks, spec
    else:
        facts = spec.round_facts(dealer, rules) if spec.round_facts is not None else None
    upcard = dealer.upcard
    live = ZERO
    settlements = []
    seat_findings = []
    mismatch = False
    for k in range(n_seats):
        seat = seats[k]
        s = _fields(seat) if cython.compiled else seat  # (plain Python indexes it as it is)
        number = s[0]
        wagers = s[2]
        hands = s[4]
        base = wagers[W21]
        start = len(settlements)
        i = 0
        for hand in hands:
            h = _fields(hand) if cython.compiled else hand
            # (total, natural, doubled) and the dealer decide the 21 bet; one int says which.
            total = h[2]
            if number < 16 and 0 <= total < 1024 and 0 <= dk < 64:
                key = (
                    base,
                    (((i * 16 + number) * 64 + dk) * 1024 + total) * 4
                    + (2 if h[5] else 0)
                    + (1 if h[6] else 0),
                )
                hit = hands21.get(key)
                if hit is None:
                    hit = _settle_hand_memo(
                        number, base, i, hand, dealer, rules, peek_natural, key, plan
                    )
            else:
                hit = _settle_hand_memo(
                    number, base, i, hand, dealer, rules, peek_natural, None, plan
                )
            settlements.append(hit[0])
            if hit[1] is not ZERO:
                live += hit[1]
            i += 1
        if s[3] or INSURANCE in wagers:
            settle_insurance(seat, dealer, settlements)
            seat_findings += insurance_findings(seat, rules, upcard)
        side = audit_seat(seat, dealer, rules, context, settlements, seat_findings, facts)
        if side is not ZERO and side and not peek_natural:
            live += side
        if (i > 1 or hands[0].doubled) and _play_checks_needed(seat, plan):
            seat_findings += play_findings(seat, rules)
        # The recorded pays, in order, against this seat's settlements; any difference sends
        # the round through compare_recorded (which says what is wrong).
        recorded = s[5]
        if recorded and not mismatch:
            if len(recorded) != len(settlements) - start:
                mismatch = True
            else:
                for rec in recorded:
                    st = settlements[start]
                    if st.net != rec[2] or st.wager != rec[0] or st.hand != rec[1]:
                        mismatch = True
                        break
                    start += 1
    # The dealer's drawing: a memo of "nothing to report" by cards and whether money was live.
    ok_key = (cards, live > 0)
    dealer_ok = plan.dealer_ok
    if dealer.missed_peek or not dealer_ok.get(ok_key):
        findings = dealer_findings(rnd, rules, dealer, live)
        if not findings and not dealer.missed_peek:
            if len(dealer_ok) > _CACHE_LIMIT:
                dealer_ok.clear()
            dealer_ok[ok_key] = True
        findings += seat_findings
    else:
        findings = seat_findings
    if mismatch:
        findings += compare_recorded(settlements, [p for s in seats for p in s.paid])
    live_texts = _LIVE_TEXT
    live_text = live_texts.get(live)
    if live_text is None:
        live_text = money_text(live)
        if len(live_texts) > _CACHE_LIMIT:
            live_texts.clear()
        live_texts[live] = live_text
    summary = {
        "dealer_cards": dealer_text,
        "dealer_total": dealer.total,
        "dealer_soft": dealer.soft,
        "dealer_natural": dealer.natural,
        "dealer_busted": dealer.busted,
        "live_stake": live_text,
    }
    return make_audit(tuple(settlements), tuple(findings), summary)


def audit_reference(
    rnd: Round, rules, spec: GameSpec, context: AuditContext | None = None
) -> Audit:
    """The audit written plainly, without memos or gates: the yardstick :func:`audit` is
    tested against (it must give an equal answer for every round)."""
    dealer = dealer_facts(rnd, rules)
    seats = sorted(rnd.seats, key=_seat_number)
    live = ZERO if dealer.natural and rules.dealer_peeks else live_stake(rnd, rules, spec)
    findings = dealer_findings(rnd, rules, dealer, live)
    settlements: list[Settlement] = []
    recorded: list[RecordedPay] = []
    for s in seats:
        settle_21(s, dealer, rules, settlements)
        if s.even_money or INSURANCE in s.wagers:
            settle_insurance(s, dealer, settlements)
            findings.extend(insurance_findings(s, rules, dealer.upcard))
        spec.settle(s, dealer, rules, context, settlements)
        if len(s.hands) > 1 or s.hands[0].doubled:
            findings.extend(play_findings(s, rules))
        if len(s.wagers) > 1:
            findings.extend(spec.rule_findings(s, rules))
        recorded.extend(s.paid)
    if recorded:
        findings.extend(compare_recorded(settlements, recorded))
    summary = {
        "dealer_cards": cards_text(dealer.cards),
        "dealer_total": dealer.total,
        "dealer_soft": dealer.soft,
        "dealer_natural": dealer.natural,
        "dealer_busted": dealer.busted,
        "live_stake": money_text(live),
    }
    return Audit(tuple(settlements), tuple(findings), summary)


def _seat_number(s: Seat) -> int:
    return s.seat


def contract(spec: GameSpec):
    """The four functions every game module exposes (see tables.games), bound to ``spec``."""

    def parse_round_(data, rules) -> Round:
        return parse_round(data, rules, spec)

    def audit_(rnd: Round, rules, context: AuditContext | None = None) -> Audit:
        return audit(rnd, rules, spec, context)

    def simulate_round_(rng, rules, *, seats: int, inject: frozenset[str] = frozenset()) -> dict:
        return simulator(spec.key)(rng, rules, seats=seats, inject=inject)

    return parse_round_, audit_, round_to_dict, simulate_round_
