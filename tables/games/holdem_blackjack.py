"""Hold'em Blackjack: a hand as an ordered log of what happened at the table, replayed and judged.

Player against player; the showdown is a blackjack total; the house only rakes
(rules/holdem-blackjack.txt, RULINGS.md). In the spirit of PokerKit's ``State`` a hand
is a list of operations — blinds and antes posted, cards dealt, each betting action,
each hit or stand, the showdown, the chips pushed and the rake taken — and every
operation is checked against the state the earlier ones left. What cannot have
happened is refused (:class:`~tables.games.base.InvalidInput`, nothing is stored); what
happened but broke a rule is accepted and reported as a
:class:`~tables.games.base.Finding` with the action's index in its path.

JSON form of a hand (what the tablet sends; ``round_to_dict`` gives it back)::

    {
      "button": 1,
      "seats": [
        {"seat": 1, "player": "P-1001", "stack": "100.00"},
        {"seat": 2, "player": "P-1002", "stack": "60.00"},
        {"seat": 4, "stack": "80.00"}
      ],
      "actions": [
        {"action": "ante", "seat": 1, "amount": "0.50"},
        {"action": "ante", "seat": 2, "amount": "0.50"},
        {"action": "ante", "seat": 4, "amount": "0.50"},
        {"action": "small_blind", "seat": 2, "amount": "1.00"},
        {"action": "big_blind", "seat": 4, "amount": "2.00"},
        {"action": "hole", "seat": 2, "card": "9S"},
        {"action": "hole", "seat": 4, "card": "KD"},
        {"action": "hole", "seat": 1, "card": "5C"},
        {"action": "raise", "seat": 1, "amount": "4.00"},
        {"action": "fold", "seat": 2},
        {"action": "call", "seat": 4, "amount": "2.00"},
        {"action": "up", "seat": 4, "card": "7H"},
        {"action": "up", "seat": 1, "card": "6S"},
        {"action": "check", "seat": 4},
        {"action": "bet", "seat": 1, "amount": "4.00"},
        {"action": "call", "seat": 4, "amount": "4.00"},
        {"action": "stand", "seat": 4},
        {"action": "hit", "seat": 1, "card": "TH"},
        {"action": "stand", "seat": 1},
        {"action": "check", "seat": 4},
        {"action": "bet", "seat": 1, "amount": "10.00"},
        {"action": "call", "seat": 4, "amount": "10.00"},
        {"action": "showdown"},
        {"action": "award", "seat": 1, "amount": "38.50"}
      ]
    }

Seat 1 (5-6-T = 21) beats seat 4 (K-7 = 17) and takes the 38.50 pot (three antes, seat
2's small blind, 4 + 4 + 10 from each of seats 1 and 4).

Fields
  ``button``: the seat number holding the dealer button.
  ``seats``: 2 to ``rules.max_seats`` objects ``{"seat": N, "player": "id"?, "stack": "amount"}``;
  ``seat`` is the table position 1..max_seats (clockwise = rising numbers, wrapping);
  ``stack`` is the player's chips at the start of the hand (table stakes: a player can
  never put in more, and putting in all of it is being all in).
  ``actions``: the log, in the order things happened. Each object has ``"action"`` and
  exactly the keys that action needs:

  ========================  ====================  =========================================
  action                    keys                  meaning
  ========================  ====================  =========================================
  ante                      seat, amount          ante posted (straight to the pot)
  small_blind, big_blind    seat, amount          blind posted (live: counts in round 1)
  hole, up                  seat, card            the hole card / the up card dealt
  check, fold               seat                  betting
  bet, call, raise, all_in  seat, amount          betting; ``amount`` = the chips this
                                                  action puts in (not the "raise to")
  hit                       seat, card            a card drawn in hand completion
  stand                     seat                  the player stops drawing
  showdown                  (none)                hands shown (optional marker)
  award                     seat, amount          chips the dealer pushed to the seat (pots
                                                  and returned uncalled bets; one or more)
  rake                      amount                chips the dealer took for the house
  ========================  ====================  =========================================

  Phases come in order: antes and blinds; hole cards; round 1; up cards; round 2;
  hand completion (hit/stand); final round; showdown; awards and rake. Betting actions
  belong to the round whose cards were dealt last. Amounts are strings ("2.50") or
  whole numbers; floats are refused.

Impossible input (InvalidInput, with the path of every wrong field): wrong types, an
unknown action, a card that does not exist or more copies than the shoe holds, fewer
than 2 or more than ``max_seats`` players, a seat number twice, a button or an action
at a seat not in the hand, a negative or zero amount, a phase out of order (a hole card
after round 1 began, an ante after the cards, a bet after the showdown), a second hole
or up card, a hit before the up card, any card or action by a player after they folded,
a betting action by a player already all in, putting in more chips than are left in
the stack, any action after everyone else folded, a hand that stops before it has a
result (two or more players left without their up cards), everybody folding.

Findings (things that happened but break the card; ``path`` = ``actions[k]``):

===========================  ===============  ==================================================
code                         kind             when
===========================  ===============  ==================================================
BUTTON_WRONG_SEAT            procedure        button not one occupied seat on from the previous
                                              hand (needs ``AuditContext.previous_hand``)
ANTE_MISSING                 rule_violation   a player posted no ante (rules.ante > 0)
ANTE_WRONG_AMOUNT            rule_violation   an ante of another size (all in for less is fine)
BLIND_MISSING                rule_violation   no small or no big blind posted
BLIND_WRONG_SEAT             rule_violation   a blind posted by a seat other than the one due
BLIND_WRONG_AMOUNT           rule_violation   a blind of another size (all in for less is fine)
OUT_OF_TURN                  procedure        a betting action, hit or stand out of turn, or
                                              after the round's betting was complete
CHECK_FACING_BET             procedure        a check with chips still to call
CALL_WRONG_AMOUNT            procedure        a call of another amount than what was owed
ALL_IN_WRONG_AMOUNT          procedure        "all in" recorded while chips stayed behind
BET_WRONG_SIZE               rule_violation   fixed-limit (rounds 1, 2) bet or raise of the
                                              wrong size, or a "raise" that raises nothing
FINAL_BET_OUT_OF_SPREAD      rule_violation   final-round bet or raise outside min..max x BB
RAISE_CAP_EXCEEDED           rule_violation   a fifth bet or raise in a round
BETTING_NOT_COMPLETE         procedure        the dealer moved on while a player still had to
                                              act (or skipped a betting round)
HIT_ON_BUST                  rule_violation   a hit on a busted hand
HIT_PAST_MAX_CARDS           rule_violation   a hit on a hand already holding max_cards cards
PAY_ABOVE_EXPECTED           overpay          a seat got more chips than due (wager "pot")
PAY_BELOW_EXPECTED           underpay         a seat got fewer chips than due
RAKE_BELOW_EXPECTED          overpay          the house took less rake than due
RAKE_ABOVE_EXPECTED          underpay         the house took more rake than due
AWARDS_DO_NOT_BALANCE        procedure        chips pushed + rake differ from the chips put in
===========================  ===============  ==================================================

Recorded pays are judged only when the log holds at least one ``award`` or ``rake``;
then a seat with no award received nothing. Overpay/underpay/rake kinds are from the
house's cash: "overpay" means the house (or the pot's rightful winner) is short.

Settlements: one per seat, wager ``"pot"``, stake = every chip the seat put in (antes
included), net = chips it should receive - stake, outcome win/lose/push by the net's
sign; plus one for the house, seat 0, wager ``"rake"``, stake = the chips contested,
net = the rake due (outcome win when there is rake, else push). ``Audit.summary`` holds
the pots (amount, eligible seats, winners, shares, rake), returned uncalled bets, the
hands shown, the blinds' seats and the rake.

House rulings (decided here where the card is silent):

* Clockwise = rising seat numbers, wrapping after the highest. The button moves to the
  next *occupied* seat clockwise from the previous hand's button (no dead button);
  blinds go to the next occupied seats after the button. Heads-up, the button posts the
  small blind and the other player the big blind (standard poker practice); the card's
  order rules then make the button act first in round 1 and last after.
* The big blind is round 1's bet: up to ``max_raises`` raises follow it. A raise is
  always to the current bet plus the round's size (fixed rounds) or plus 2x..10x BB
  (final round). An all-in for less than a full bet or raise is legal, does not count
  toward the cap and does not reset who still has to act (players facing it must call
  or fold the difference). A big blind all in for less than the full blind does not
  lower round 1's bet: the others call (or raise from) the full blind, and calling it is
  no finding (RULINGS.md); the short blind plays for the main pot only.
* Chips that went into the pot stay in it (RULINGS.md): an ante of the wrong amount is a
  finding and plays as posted, never handed back; only the part of the one highest bet
  nobody matched comes back. Ante chips above everyone else's are dead money in the
  main pot (:mod:`tables.games.holdem_pots`).
* Illegal cards do not count at the showdown: a hit on a busted hand or past
  ``max_cards`` is reported and the hand is ranked on the cards it may legally hold.
* Chip unit = the cent; odd cents of a split pot all go to the first tied player
  clockwise from the button (see :mod:`tables.games.holdem_pots`).
* Rake: on all pots together (uncalled bets excluded), rounded down to the cent,
  capped, taken from the main pot first. No flop, no drop: a hand that ends in round 1
  (no up card dealt) is not raked.
* A ``call`` that puts in more than was owed does not raise the bet: the extra chips
  come back to the player as an uncalled bet unless someone matched them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import chain, compress, repeat
from operator import not_, sub
from typing import Any, NamedTuple

import cython

from .base import (
    LOSE,
    OVERPAY,
    PROCEDURE,
    PUSH,
    RULE_VIOLATION,
    UNDERPAY,
    WIN,
    Audit,
    AuditContext,
    Errors,
    FieldError,
    Finding,
    InvalidInput,
    RecordedPay,
    Settlement,
    compare_recorded,
    parse_money,
)
from .cards import BJ_POINTS, TEXT, CardError, parse_card
from .holdem_pots import (
    CHARLIE_KEY,
    PotTuple,
    chips_text,
    hand_key,
    hand_text,
    key_text,
    money_text_cents,
    settle_ring,
    to_cents,
    to_decimal,
)
from .rulesets import HoldemBlackjackRules

__all__ = [
    "ACTIONS",
    "Action",
    "HandSeat",
    "Round",
    "audit",
    "parse_round",
    "round_to_dict",
    "simulate_round",
]

# --- the log's vocabulary -----------------------------------------------------------------

ANTE, SMALL_BLIND, BIG_BLIND = "ante", "small_blind", "big_blind"
HOLE, UP, HIT, STAND = "hole", "up", "hit", "stand"
CHECK, BET, CALL, RAISE, FOLD, ALL_IN = "check", "bet", "call", "raise", "fold", "all_in"
SHOWDOWN, AWARD, RAKE = "showdown", "award", "rake"

# Phases, in the order a hand goes through them.
P_POST, P_HOLE, P_R1, P_UP, P_R2, P_COMPLETE, P_FINAL, P_SHOWDOWN, P_AWARD = range(9)
PHASE_NAMES = (
    "posting",
    "the hole cards",
    "round 1",
    "the up cards",
    "round 2",
    "hand completion",
    "the final round",
    "the showdown",
    "the awards",
)

_SEAT, _AMOUNT, _CARD = "seat", "amount", "card"
#: action -> the keys it carries besides "action"
ACTIONS: dict[str, tuple[str, ...]] = {
    ANTE: (_SEAT, _AMOUNT),
    SMALL_BLIND: (_SEAT, _AMOUNT),
    BIG_BLIND: (_SEAT, _AMOUNT),
    HOLE: (_SEAT, _CARD),
    UP: (_SEAT, _CARD),
    HIT: (_SEAT, _CARD),
    STAND: (_SEAT,),
    CHECK: (_SEAT,),
    FOLD: (_SEAT,),
    BET: (_SEAT, _AMOUNT),
    CALL: (_SEAT, _AMOUNT),
    RAISE: (_SEAT, _AMOUNT),
    ALL_IN: (_SEAT, _AMOUNT),
    SHOWDOWN: (),
    AWARD: (_SEAT, _AMOUNT),
    RAKE: (_AMOUNT,),
}
_KEYSETS = {a: frozenset(("action", *keys)) for a, keys in ACTIONS.items()}
_PHASE_OF = {
    ANTE: P_POST,
    SMALL_BLIND: P_POST,
    BIG_BLIND: P_POST,
    HOLE: P_HOLE,
    UP: P_UP,
    HIT: P_COMPLETE,
    STAND: P_COMPLETE,
    SHOWDOWN: P_SHOWDOWN,
    AWARD: P_AWARD,
    RAKE: P_AWARD,
}
_BETTING = frozenset((CHECK, BET, CALL, RAISE, FOLD, ALL_IN))
_VERBS = {
    CHECK: "checked",
    FOLD: "folded",
    CALL: "called",
    BET: "bet",
    RAISE: "raised",
    ALL_IN: "went all in",
}
_ROUND_NAMES = {1: "round 1", 2: "round 2", 3: "the final round"}

_CARD_BY_TEXT = {t: i for i, t in enumerate(TEXT)}
_CENTS_CACHE: dict[str, int] = {}

# The card's words, quoted in findings.
RULE_ORDER_R1 = "Action starts with the player to the left of the big blind and continues clockwise around the table."
RULE_ORDER_LATER = "Action starts with the player to the left of the dealer button and continues clockwise around the table."
RULE_MATCH = "Players may bet, check, call, raise, or fold in turn until all bets are matched."
RULE_CAP = "There is a maximum of one bet and three raises in each round."
RULE_COMPLETION = (
    "Remaining players complete their hands, in turn, going clockwise around the table."
)
RULE_BUST = "If a player exceeds 21 they can only Stand (but they are still in the game)."
RULE_MAX_CARDS = "A player may draw to a maximum of 7 cards."
RULE_SMALL_BLIND = "The Small Blind is posted by the player to the immediate left of the dealer button and is usually equal to half the Big Blind."
RULE_BIG_BLIND = "The Big Blind is posted by the player left of the Small Blind and is equal to the size of the minimum bet."
RULE_ANTE = "Antes are posted by all players and are usually equal to half the Small Blind amount."
RULE_BUTTON = (
    "The dealer button is moved from player to player one position clockwise between each hand."
)
RULE_SHOWDOWN = "The player with the best blackjack hand wins the pot. Ties split the pot."
RULE_RAKE = "House ruling: rake = the table's percent of all pots, rounded down to the cent, capped; none when the hand ends in round 1."
RULE_AWARDS = "Everything put in the pot is pushed to the winners or taken as rake."


class Action(NamedTuple):
    """One operation of the log. ``cents`` is the amount in cents (0 if none), ``card`` -1 if none."""

    action: str
    seat: int  # 0 for showdown and rake
    cents: int
    card: int

    @property
    def amount(self) -> Decimal | None:
        return to_decimal(self.cents) if _AMOUNT in ACTIONS[self.action] else None

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"action": self.action}
        keys = ACTIONS[self.action]
        if _SEAT in keys:
            out[_SEAT] = self.seat
        if _AMOUNT in keys:
            out[_AMOUNT] = money_text_cents(self.cents)
        if _CARD in keys:
            out[_CARD] = TEXT[self.card]
        return out


class HandSeat(NamedTuple):
    seat: int
    player: str | None
    stack_cents: int

    @property
    def stack(self) -> Decimal:
        return to_decimal(self.stack_cents)


@dataclass(frozen=True)
class Round:
    """A parsed hand: immutable. Seats keep the order they were sent in (paths refer to it)."""

    button: int
    seats: tuple[HandSeat, ...]
    actions: tuple[Action, ...]
    # The replay parse_round already ran, reused by audit() under the same rules object.
    replay: Any = field(default=None, compare=False, repr=False)


# --- stakes in cents, once per ruleset ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Stakes:
    bb: int
    sb: int
    ante: int
    r2: int
    fmin: int
    fmax: int
    max_bets: int  # the bet plus the raises
    max_cards: int
    max_seats: int
    decks: int
    percent: Fraction
    cap: int


@lru_cache(maxsize=64)
def _stakes(rules: HoldemBlackjackRules) -> _Stakes:
    bb = to_cents(rules.big_blind)
    # Half a blind may fall between cents (a 0.05 big blind): round down to the cent.
    sb = int(rules.small_blind * 100)
    ante = int(rules.ante * 100)
    return _Stakes(
        bb=bb,
        sb=sb,
        ante=ante,
        r2=bb * rules.round2_multiple,
        fmin=bb * rules.final_min_multiple,
        fmax=bb * rules.final_max_multiple,
        max_bets=1 + rules.max_raises,
        max_cards=rules.max_cards,
        max_seats=rules.max_seats,
        decks=rules.decks,
        percent=Fraction(rules.rake_percent),
        cap=to_cents(rules.rake_cap),
    )


_last_stakes: tuple[Any, Any] = (None, None)  # (rules, its stakes): a table parses hand after hand


def _stakes_for(rules: HoldemBlackjackRules) -> _Stakes:
    """``_stakes`` remembered for the very rules object (hashing a ruleset costs more)."""
    global _last_stakes  # noqa: PLW0603 - a one-entry cache
    stakes = _stakes(rules)
    _last_stakes = (rules, stakes)
    return stakes


# --- parsing: fields first ---------------------------------------------------------------


def _cents(value: object, path: str, errors: Errors, *, allow_zero: bool = False) -> int | None:
    """An amount as int cents; the common strings are cached (they repeat in every hand)."""
    if type(value) is str:
        cents = _CENTS_CACHE.get(value)
        if cents is None:
            amount = parse_money(value, path, errors, allow_negative=True)
            if amount is None:
                return None
            cents = int(amount * 100)
            if len(_CENTS_CACHE) < 4096:
                _CENTS_CACHE[value] = cents
    else:  # an int too: the same limits as text (tables.games.money.to_money)
        amount = parse_money(value, path, errors, allow_negative=True)
        if amount is None:
            return None
        cents = int(amount * 100)
    if cents < 0 or (cents == 0 and not allow_zero):
        errors.add(
            path,
            f"must be {'at least' if allow_zero else 'more than'} 0, got {money_text_cents(cents)}",
        )
        return None
    return cents


def _card(value: object, path: str, errors: Errors) -> int | None:
    card = _CARD_BY_TEXT.get(value) if type(value) is str else None
    if card is None:
        try:
            card = parse_card(value)
        except CardError as exc:
            errors.add(path, str(exc))
            return None
    return card


_SEAT_KEYS = frozenset(("seat", "player", "stack"))


def _parse_seats(raw: object, stakes: _Stakes, errors: Errors) -> tuple[HandSeat, ...]:
    if not isinstance(raw, list):
        errors.add("seats", "must be a list of seats")
        return ()
    if len(raw) < 2:
        errors.add("seats", f"a hand needs at least 2 players, got {len(raw)}")
    elif len(raw) > stakes.max_seats:
        errors.add("seats", f"this table seats at most {stakes.max_seats} players, got {len(raw)}")
    out: list[HandSeat] = []
    taken: dict[int, int] = {}
    for i, item in enumerate(raw):
        path = f"seats[{i}]"
        if type(item) is not dict and not isinstance(item, Mapping):
            errors.add(path, "must be an object")
            continue
        if not item.keys() <= _SEAT_KEYS:
            for key in item:
                if key not in _SEAT_KEYS:
                    errors.add(f"{path}.{key}", "unknown field; expected seat, player, stack")
        seat = item.get("seat")
        ok = True
        if type(seat) is not int:
            errors.add(
                f"{path}.seat", "is missing" if seat is None else f"{seat!r} is not a seat number"
            )
            ok = False
        elif not 1 <= seat <= stakes.max_seats:
            errors.add(f"{path}.seat", f"must be 1 to {stakes.max_seats}, got {seat}")
            ok = False
        elif seat in taken:
            errors.add(f"{path}.seat", f"seat {seat} is already taken by seats[{taken[seat]}]")
            ok = False
        else:
            taken[seat] = i
        player = item.get("player")
        if player is not None and not isinstance(player, str):
            errors.add(f"{path}.player", "must be text")
        value = item.get("stack")
        stack = _CENTS_CACHE.get(value) if type(value) is str else None
        if stack is None or stack <= 0:
            if value is None:
                errors.add(f"{path}.stack", "is missing")
            else:
                stack = _cents(value, f"{path}.stack", errors)
        if ok and stack is not None:
            out.append(HandSeat(seat, player, stack))
    return tuple(out)


_NEW_ACTION = tuple.__new__
# action -> (its keys, has seat, has amount, has card); the keys as a set compare with dict.keys()
_SPECS = {
    a: (_KEYSETS[a], _SEAT in keys, _AMOUNT in keys, _CARD in keys) for a, keys in ACTIONS.items()
}


def _parse_actions(
    raw: object, seat_numbers: set[int], stakes: _Stakes, errors: Errors
) -> tuple[Action, ...]:
    if not isinstance(raw, list):
        errors.add("actions", "must be a list of actions")
        return ()
    out: list[Action] = []
    append = out.append
    seen = [0] * 52
    decks = stakes.decks
    specs = _SPECS
    cents_cache = _CENTS_CACHE
    card_by_text = _CARD_BY_TEXT
    for k, item in enumerate(raw):
        if type(item) is not dict and not isinstance(item, Mapping):
            errors.add(f"actions[{k}]", "must be an object")
            continue
        kind = item.get("action")
        spec = specs.get(kind) if type(kind) is str else None
        if spec is None:
            errors.add(
                f"actions[{k}].action",
                f"{kind!r} is not an action; expected one of {', '.join(ACTIONS)}",
            )
            continue
        keyset, has_seat, has_amount, has_card = spec
        if item.keys() != keyset and _bad_keys(item, kind, keyset, k, errors):
            continue
        seat = cents = 0
        card = -1
        ok = True
        if has_seat:
            seat = item["seat"]
            if type(seat) is not int or seat not in seat_numbers:
                errors.add(f"actions[{k}].seat", f"{seat!r} is not a seat in this hand")
                ok = False
        if has_amount:
            value = item["amount"]
            c = cents_cache.get(value) if type(value) is str else None
            if c is None or c <= 0:
                c = _cents(value, f"actions[{k}].amount", errors, allow_zero=kind == RAKE)
            if c is None:
                ok = False
            else:
                cents = c
        if has_card:
            value = item["card"]
            c = card_by_text.get(value) if type(value) is str else None
            if c is None:
                c = _card(value, f"actions[{k}].card", errors)
            if c is None:
                ok = False
            else:
                card = c
                seen[c] += 1
                if seen[c] > decks:
                    errors.add(
                        f"actions[{k}].card",
                        f"{TEXT[c]} dealt {seen[c]} times but a {decks}-deck shoe holds {decks}",
                    )
                    ok = False
        if ok:
            append(_NEW_ACTION(Action, (kind, seat, cents, card)))
    return tuple(out)


def _bad_keys(item: Mapping, kind: str, keyset: frozenset, k: int, errors: Errors) -> bool:
    bad = False
    for key in item:
        if key not in keyset:
            errors.add(f"actions[{k}].{key}", f"a {kind} has no {key}")
            bad = True
    for key in keyset:
        if key not in item:
            errors.add(f"actions[{k}].{key}", "is missing")
            bad = True
    return bad


def parse_round(data: Mapping, rules: HoldemBlackjackRules | None = None) -> Round:
    """JSON form -> :class:`Round`, or :class:`InvalidInput` naming every impossible field.

    Field errors (types, cards, amounts, seats) are all reported together; errors about
    the sequence of the hand (a card after a fold...) once every field is readable.
    """
    rules = rules if rules is not None else HoldemBlackjackRules()
    last = _last_stakes  # one read: another thread may replace the pair, never half of it
    stakes = last[1] if last[0] is rules else _stakes_for(rules)
    fast = _parse_fast(data, stakes)
    if fast is not None:
        return Round(fast[0], fast[1], fast[2], (rules, fast[3]))
    return _parse_detailed(data, rules, stakes)


def _parse_detailed(data: Mapping, rules: HoldemBlackjackRules, stakes: _Stakes) -> Round:
    """The field-by-field parse and the replay with every error and finding worded."""
    errors = Errors()
    if not isinstance(data, Mapping):
        errors.add("", "a hand must be an object with button, seats and actions")
        errors.raise_if_any()
    for key in data:
        if key not in ("button", "seats", "actions"):
            errors.add(str(key), "unknown field; expected button, seats, actions")
    seats = _parse_seats(data.get("seats"), stakes, errors)
    numbers = {s.seat for s in seats}
    button = data.get("button")
    if type(button) is not int:
        errors.add("button", "is missing" if button is None else f"{button!r} is not a seat number")
    elif numbers and button not in numbers and not errors:
        errors.add(
            "button", f"seat {button} is not in the hand; the button sits at an occupied seat"
        )
    actions = _parse_actions(data.get("actions"), numbers, stakes, errors)
    errors.raise_if_any()
    rnd = Round(button, seats, actions)
    replay = _replay(rnd, stakes)
    replay.errors.raise_if_any()
    return Round(button, seats, actions, replay=(rules, replay))


def round_to_dict(rnd: Round) -> dict:
    """The canonical JSON form; ``parse_round(round_to_dict(r)) == r``."""
    seats = []
    for s in rnd.seats:
        item: dict[str, Any] = {"seat": s.seat}
        if s.player is not None:
            item["player"] = s.player
        item["stack"] = money_text_cents(s.stack_cents)
        seats.append(item)
    return {"button": rnd.button, "seats": seats, "actions": [a.to_dict() for a in rnd.actions]}


# --- the replay: every operation against the state the earlier ones left ---------------------
#
# One function over local lists indexed by ring position (0 = left of the button, n-1 = the
# button): the log is walked once per hand and this is the engine's hot loop, so the state
# lives in locals rather than objects. Rare events (phase changes, findings, errors) go
# through the small helpers below it.

_CAN_ACT, _ALL_IN, _FOLDED = 0, 1, 2
# Betting belongs to the round whose cards were dealt last: phase -> the betting phase.
_BET_PHASE = (-1, P_R1, P_R1, P_R2, P_R2, P_FINAL, P_FINAL, -2, -2)


class _Replay:
    """What walking the log leaves for settlement. Lists are by ring position (see ``clock``)."""

    __slots__ = (
        "st",
        "errors",
        "findings",
        "button",
        "clock",
        "index",
        "contrib",
        "ante",
        "folded",
        "fold_round",
        "cards",
        "up_dealt",
        "sb_seat",
        "bb_seat",
        "ended_round",
        "awards",
        "award_paths",
        "rake",
        "rake_path",
    )

    def seat_of(self, i: int) -> int:
        return self.clock[i]


def _size_rule(st: _Stakes, r: int) -> str:
    if r == 1:
        return "Betting is Fixed Limit. A bet/raise equals the Big Blind amount."
    if r == 2:
        return f"Betting is Fixed Limit. A bet/raise equals {st.r2 // st.bb}x the Big Blind amount."
    return (
        f"Betting is Spread Limit. A bet/raise must be between {st.fmin // st.bb}x and "
        f"{st.fmax // st.bb}x the Big Blind amount."
    )


def _finding(
    findings: list[Finding],
    code: str,
    kind: str,
    message: str,
    where: int | str,
    rule: str,
    expected: str | None,
    recorded: str | None,
    amount: int,
    seat: int | None,
) -> None:
    path = f"actions[{where}]" if isinstance(where, int) else where
    findings.append(
        Finding(code, kind, message, path, rule, expected, recorded, to_decimal(amount), seat)
    )


def _replay(rnd: Round, st: _Stakes) -> _Replay:  # noqa: C901 - one pass over the log, phase by phase
    errors = Errors()
    err = errors.add
    findings: list[Finding] = []
    order = sorted(s.seat for s in rnd.seats)
    b = order.index(rnd.button)
    clock = order[b + 1 :] + order[: b + 1]  # left of the button first, the button last
    n = len(clock)
    pos = {s: i for i, s in enumerate(clock)}
    index = [0] * n
    left = [0] * n
    for i, s in enumerate(rnd.seats):
        j = pos[s.seat]
        index[j] = i
        left[j] = s.stack_cents
    stack = left[:]
    contrib = [0] * n
    inr = [0] * n  # chips in the current betting round (blinds count in round 1, antes never)
    ante = [0] * n
    state = [_CAN_ACT] * n
    need = [False] * n  # still owes an action since the last full bet or raise
    hole = [False] * n
    up = [False] * n
    stood = [False] * n
    cards: list[list[int]] = [[] for _ in range(n)]
    fold_at = [-1] * n
    fold_round = [0] * n
    allin_at = [-1] * n
    sb_pos, bb_pos = (1, 0) if n == 2 else (0, 1)  # heads-up the button posts the small blind
    blinds: list[tuple[int, str, int, int, int]] = []  # (k, kind, pos, cents, chips before)
    live = active = n
    max_cards = st.max_cards
    last = len(rnd.actions)
    phase = P_POST
    rno = bet = bets = size = 0
    cursor = n - 1
    started = [False] * 4
    up_dealt = False
    comp: dict[int, int] = {}
    comp_ptr = 0
    ended_at = -1
    ended_round = 0
    awards: dict[int, int] = {}
    award_paths: dict[int, str] = {}
    rake: int | None = None
    rake_path = ""

    def next_actor() -> int:
        """Ring position of who must act now, -1 when the round's betting is complete."""
        if live <= 1 or active == 0:
            return -1
        if active == 1:
            for j in range(n):
                if state[j] == _CAN_ACT:
                    return j if inr[j] < bet else -1
        j = cursor
        for _ in range(n):
            j += 1
            if j == n:
                j = 0
            if state[j] == _CAN_ACT and (need[j] or inr[j] < bet):
                return j
        return -1

    def start_round(r: int) -> None:
        nonlocal rno, bet, bets, size, cursor
        rno = r
        started[r] = True
        if r == 1:
            bet = max(inr)
            if bet < st.bb and any(x[1] == BIG_BLIND and x[3] == x[4] for x in blinds):
                # a big blind all in for less does not lower the bet (RULINGS.md)
                bet = st.bb
            bb_posts = [x[2] for x in blinds if x[1] == BIG_BLIND]
            bets = 1 if bb_posts else 0  # the big blind is round 1's bet
            cursor = bb_posts[0] if bb_posts else bb_pos
            size = st.bb
        else:
            for j in range(n):
                inr[j] = 0
            bet = bets = 0
            cursor = n - 1
            size = st.r2 if r == 2 else 0
        for j in range(n):
            need[j] = state[j] == _CAN_ACT

    def close_round(r: int, k: int) -> None:
        if not started[r]:
            start_round(r)
        j = next_actor()
        if j < 0:
            return
        owes = bet - inr[j]
        facing = f"facing {chips_text(owes)} to call" if owes > 0 else "with no action yet"
        _finding(
            findings,
            "BETTING_NOT_COMPLETE",
            PROCEDURE,
            f"Betting in {_ROUND_NAMES[r]} ended before seat {clock[j]} acted ({facing}).",
            k if k < last else "actions",
            RULE_MATCH,
            f"seat {clock[j]} to act",
            "next phase",
            max(owes, 0),
            clock[j],
        )

    def advance(to: int, k: int) -> None:
        nonlocal phase, comp
        while phase < to:
            ph = phase
            if ph == P_POST:
                _check_posts(
                    st, findings, clock, index, stack, ante, blinds, sb_pos, bb_pos, rnd.button
                )
            elif ph == P_HOLE:
                for j in range(n):
                    if not hole[j]:
                        err(
                            f"actions[{k}]",
                            f"seat {clock[j]} was dealt no hole card before {PHASE_NAMES[ph + 1]}",
                        )
                start_round(1)
            elif ph == P_R1:
                close_round(1, k)
            elif ph == P_UP:
                if live > 1:
                    for j in range(n):
                        if state[j] != _FOLDED and not up[j]:
                            err(
                                f"actions[{k}]",
                                f"seat {clock[j]} is in the hand but was dealt no up card",
                            )
                start_round(2)
            elif ph == P_R2:
                close_round(2, k)
                comp = {j: i for i, j in enumerate(j for j in range(n) if state[j] != _FOLDED)}
            elif ph == P_COMPLETE:
                start_round(3)
            elif ph == P_FINAL:
                close_round(3, k)
            phase = ph + 1

    def over(k: int, what: str) -> bool:
        if live <= 1:
            winner = next(clock[j] for j in range(n) if state[j] != _FOLDED)
            err(
                f"actions[{k}]",
                f"{what}: the hand was over at actions[{ended_at}], "
                f"when everyone but seat {winner} had folded",
            )
            return True
        return False

    for k, (kind, seat, cents, card) in enumerate(rnd.actions):
        j = pos.get(seat, -1)
        target = _PHASE_OF.get(kind, -1)
        if target < 0:  # ---- betting ------------------------------------------------------
            target = _BET_PHASE[phase]
            if target < 0:
                err(
                    f"actions[{k}]",
                    f"a {kind.replace('_', ' ')} "
                    + (
                        "before the hole cards were dealt"
                        if target == -1
                        else f"after {PHASE_NAMES[phase]}"
                    ),
                )
                continue
            if target > phase:
                advance(target, k)
            if live <= 1:
                over(k, f"{kind.replace('_', ' ')} by seat {seat}")
                continue
            s_j = state[j]
            if s_j:
                if s_j == _FOLDED:
                    err(
                        f"actions[{k}]", f"seat {seat} acted after folding at actions[{fold_at[j]}]"
                    )
                else:
                    err(
                        f"actions[{k}]",
                        f"seat {seat} has been all in since actions[{allin_at[j]}] and cannot act",
                    )
                continue
            if cents > left[j]:
                err(
                    f"actions[{k}].amount",
                    f"seat {seat} puts in {chips_text(cents)} but has only {chips_text(left[j])} left",
                )
                continue
            nxt = next_actor()
            if nxt != j:
                _out_of_turn(findings, st, k, kind, seat, rno, -1 if nxt < 0 else clock[nxt], cents)
            cursor = j
            need[j] = False
            if kind == CHECK:
                if inr[j] < bet:
                    owes = bet - inr[j]
                    _finding(
                        findings,
                        "CHECK_FACING_BET",
                        PROCEDURE,
                        f"Seat {seat} checked facing a bet of {chips_text(bet)} in {_ROUND_NAMES[rno]} "
                        f"({chips_text(owes)} to call).",
                        k,
                        RULE_MATCH,
                        f"call {chips_text(min(owes, left[j]))} or fold",
                        "check",
                        owes,
                        seat,
                    )
                continue
            if kind == FOLD:
                state[j] = _FOLDED
                fold_at[j] = k
                fold_round[j] = rno
                live -= 1
                active -= 1
                if live == 1:
                    ended_at = k
                    ended_round = rno
                continue
            owes = bet - inr[j]
            if kind == ALL_IN and cents != left[j]:
                _finding(
                    findings,
                    "ALL_IN_WRONG_AMOUNT",
                    PROCEDURE,
                    f"Seat {seat} was recorded all in for {chips_text(cents)} with {chips_text(left[j])} in front of them.",
                    k,
                    RULE_MATCH,
                    chips_text(left[j]),
                    chips_text(cents),
                    left[j] - cents,
                    seat,
                )
            left[j] -= cents
            contrib[j] += cents
            inr[j] += cents
            if left[j] == 0:
                state[j] = _ALL_IN
                allin_at[j] = k
                active -= 1
            if kind == CALL:
                due = min(owes, cents + left[j]) if owes > 0 else 0
                if cents != due:
                    _wrong_call(findings, k, seat, rno, cents, due)
                continue
            total = inr[j]
            if total <= bet:  # a bet or raise that raises nothing; an all-in call for less
                if kind != ALL_IN:
                    _finding(
                        findings,
                        "BET_WRONG_SIZE",
                        RULE_VIOLATION,
                        f"Seat {seat} {_VERBS[kind]} to {chips_text(total)} in {_ROUND_NAMES[rno]}, "
                        f"which does not raise the bet of {chips_text(bet)}.",
                        k,
                        _size_rule(st, rno),
                        f"more than {chips_text(bet)}",
                        chips_text(total),
                        0,
                        seat,
                    )
                continue
            inc = total - bet
            full = True
            if bets >= st.max_bets:
                _raise_cap(findings, st, k, seat, rno, bet, total, owes, cents + left[j])
            if rno < 3:
                if inc != size:
                    if state[j] == _ALL_IN and inc < size:
                        full = False
                    else:
                        _wrong_size(findings, st, k, seat, rno, bet, total, size)
            elif inc < st.fmin and state[j] == _ALL_IN:
                full = False
            elif inc < st.fmin or inc > st.fmax:
                _out_of_spread(findings, st, k, seat, bet, total)
            if full:
                bets += 1
                for q in range(n):
                    need[q] = q != j and state[q] == _CAN_ACT
            bet = total
            continue
        if target < phase:
            err(
                f"actions[{k}]",
                f"a {kind.replace('_', ' ')} cannot come after {PHASE_NAMES[phase]} began",
            )
            continue
        if target > phase:
            advance(target, k)
        if kind == HOLE:
            if hole[j]:
                err(f"actions[{k}]", f"seat {seat} already has its hole card")
            else:
                hole[j] = True
                cards[j].append(card)
        elif kind == UP:
            if over(k, f"up card to seat {seat}"):
                continue
            if state[j] == _FOLDED:
                err(
                    f"actions[{k}]",
                    f"seat {seat} dealt an up card after folding at actions[{fold_at[j]}]",
                )
            elif not hole[j]:
                err(f"actions[{k}]", f"seat {seat} gets an up card without a hole card")
            elif up[j]:
                err(f"actions[{k}]", f"seat {seat} already has its up card")
            else:
                up[j] = up_dealt = True
                cards[j].append(card)
        elif kind in (HIT, STAND):
            if over(k, f"{kind} by seat {seat}"):
                continue
            if state[j] == _FOLDED:
                err(
                    f"actions[{k}]",
                    f"seat {seat} {'drew a card' if kind == HIT else 'stood'} "
                    f"after folding at actions[{fold_at[j]}]",
                )
                continue
            if not up[j]:
                err(
                    f"actions[{k}]",
                    f"seat {seat} {'draws' if kind == HIT else 'stands'} before being dealt an up card",
                )
                continue
            verb = f"drew {TEXT[card]}" if kind == HIT else "stood"
            turn = comp.get(j, 0)
            if turn < comp_ptr:
                ahead = next(clock[q] for q, t in comp.items() if t == comp_ptr)
                _finding(
                    findings,
                    "OUT_OF_TURN",
                    PROCEDURE,
                    f"Seat {seat} {verb} after seat {ahead} had begun completing; "
                    "hands are completed clockwise from the button's left.",
                    k,
                    RULE_COMPLETION,
                    f"seat {seat} before seat {ahead}",
                    f"seat {seat} after seat {ahead}",
                    0,
                    seat,
                )
            elif turn > comp_ptr:
                comp_ptr = turn
            elif stood[j]:
                _finding(
                    findings,
                    "OUT_OF_TURN",
                    PROCEDURE,
                    f"Seat {seat} {verb} after standing.",
                    k,
                    RULE_COMPLETION,
                    "no action after stand",
                    verb,
                    0,
                    seat,
                )
            if kind == STAND:
                stood[j] = True
                continue
            held = cards[j]
            if len(held) >= max_cards:
                _finding(
                    findings,
                    "HIT_PAST_MAX_CARDS",
                    RULE_VIOLATION,
                    f"Seat {seat} drew {TEXT[card]} to a {len(held)}-card hand; a hand stops at {max_cards} cards. "
                    "The card does not count.",
                    k,
                    RULE_MAX_CARDS,
                    f"at most {max_cards} cards",
                    f"{len(held) + 1} cards",
                    0,
                    seat,
                )
                continue
            key = hand_key(held, max_cards)
            if key < 0:
                _finding(
                    findings,
                    "HIT_ON_BUST",
                    RULE_VIOLATION,
                    f"Seat {seat} drew {TEXT[card]} on a busted {-key}; a busted hand may only stand. "
                    "The card does not count.",
                    k,
                    RULE_BUST,
                    "stand",
                    "hit",
                    0,
                    seat,
                )
                continue
            held.append(card)
        elif kind == AWARD:
            awards[seat] = awards.get(seat, 0) + cents
            if seat not in award_paths:
                award_paths[seat] = f"actions[{k}]"
        elif kind == RAKE:
            rake = (rake or 0) + cents
            rake_path = rake_path or f"actions[{k}]"
        elif kind != SHOWDOWN:  # ante and blinds
            if cents > left[j]:
                err(
                    f"actions[{k}].amount",
                    f"seat {seat} posts {chips_text(cents)} but has only {chips_text(left[j])}",
                )
                continue
            if kind == ANTE:
                ante[j] += cents
            else:
                blinds.append((k, kind, j, cents, left[j]))
                inr[j] += cents
            left[j] -= cents
            contrib[j] += cents
            if left[j] == 0:
                state[j] = _ALL_IN
                allin_at[j] = k
                active -= 1

    if live > 1:
        missing = [clock[j] for j in range(n) if state[j] != _FOLDED and not up[j]]
        if missing:
            err(
                "actions",
                "the hand stops before it has a result: "
                f"seat{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} "
                "still in without an up card",
            )
        elif phase < P_SHOWDOWN:
            advance(P_SHOWDOWN, last)
    elif phase < P_R1:
        err("actions", "the hand stops before any betting")

    out = _Replay()
    out.st = st
    out.errors = errors
    out.findings = findings
    out.button = rnd.button
    out.clock = clock
    out.index = index
    out.contrib = contrib
    out.ante = ante
    out.folded = [x == _FOLDED for x in state]
    out.fold_round = fold_round
    out.cards = cards
    out.up_dealt = up_dealt
    out.sb_seat = clock[sb_pos]
    out.bb_seat = clock[bb_pos]
    out.ended_round = ended_round
    out.awards = awards
    out.award_paths = award_paths
    out.rake = rake
    out.rake_path = rake_path
    return out


# --- the fast path: parse and replay a regular hand in one pass ---------------------------
#
# Nearly every hand the tablet sends is well formed and clean. For those, reading the
# fields and replaying the log are done together in :func:`_parse_fast`, on int cents and
# ring positions held in locals. The moment it meets anything else — a field that is not
# exactly what the canonical form holds, an impossible sequence, anything that would be a
# finding — it gives up (returns None) and the hand goes through the detailed validator
# and replay above, which alone word every error and finding. So the fast path decides
# nothing on its own: it only recognises hands on which the detailed path reports
# nothing, and gives the same Round and replay for them (tests/games/test_holdem_blackjack.py
# compares the two on many regular and broken hands).

# Action codes: betting 0-5, cards 6-8, stand 9, chips to or from a seat 10-13, then the
# actions without a seat. The hot loop compares codes as literals (ranges of these).
(
    _K_CALL,
    _K_CHECK,
    _K_FOLD,
    _K_RAISE,
    _K_BET,
    _K_ALL_IN,
    _K_HOLE,
    _K_UP,
    _K_HIT,
    _K_STAND,
    _K_ANTE,
    _K_SMALL_BLIND,
    _K_BIG_BLIND,
    _K_AWARD,
    _K_SHOWDOWN,
    _K_RAKE,
    _K_END,
) = range(17)
_CODES = {
    CALL: _K_CALL,
    CHECK: _K_CHECK,
    FOLD: _K_FOLD,
    RAISE: _K_RAISE,
    BET: _K_BET,
    ALL_IN: _K_ALL_IN,
    HOLE: _K_HOLE,
    UP: _K_UP,
    HIT: _K_HIT,
    STAND: _K_STAND,
    ANTE: _K_ANTE,
    SMALL_BLIND: _K_SMALL_BLIND,
    BIG_BLIND: _K_BIG_BLIND,
    AWARD: _K_AWARD,
    SHOWDOWN: _K_SHOWDOWN,
    RAKE: _K_RAKE,
}
#: action -> (code, number of keys with "action")
_FAST_SPECS = {kind: (code, len(ACTIONS[kind]) + 1) for kind, code in _CODES.items()}
#: code -> the phase its action belongs to, by the phase the hand is in (betting belongs to
#: the round whose cards were dealt last; -1, -2: no betting now)
_TARGETS = tuple(
    _BET_PHASE if kind in _BETTING else (_PHASE_OF[kind],) * len(_BET_PHASE)
    for kind in sorted(_CODES, key=_CODES.__getitem__)
)
#: phase -> the actions that belong to it (the others move the hand on, or are irregular)
_SPECS_BY_PHASE = tuple(
    {kind: spec for kind, spec in _FAST_SPECS.items() if _TARGETS[spec[0]][phase] == phase}
    for phase in range(len(_BET_PHASE))
)
_NO_SPECS: dict[str, tuple[int, int]] = {}
#: amount text -> cents, positive amounts only (the fast path's own, bounded like _CENTS_CACHE)
_POSITIVE_CENTS: dict[str, int] = {}


def _amount_cents(value: object) -> int | None:
    """An amount as int cents, None if it is not one (the detailed path then words why)."""
    cents = _CENTS_CACHE.get(value) if type(value) is str else None
    if cents is None:
        cents = _cents(value, "", Errors(), allow_zero=True)
    if cents is not None and cents > 0 and type(value) is str and len(_POSITIVE_CENTS) < 4096:
        _POSITIVE_CENTS[value] = cents
    return cents


def _anyone_due(
    state: list[int], need: list[bool], inr: list[int], bet: int, live: int, active: int
) -> bool:
    """Whether a player still has to act in the current betting round (as ``next_actor``).

    ``need[q]`` is only ever true for a player who can act: it is set for those and cleared
    when the player acts, which is the only way to fold or go all in.
    """
    if live <= 1 or active == 0:
        return False
    if active == 1:
        return inr[state.index(_CAN_ACT)] < bet
    return True in need or min(compress(inr, map(not_, state)), default=bet) < bet


#: Actions are immutable and the same ones come back hand after hand ("call", seat 3,
#: 2.00): the fast path reuses them, by code, then seat, then cents or card. Bounded.
_ACTIONS_MADE: tuple[list[dict[int, Action]], ...] = tuple(
    [{} for _ in range(8)] for _ in range(len(_CODES))
)
_KIND_OF_CODE = tuple(sorted(_CODES, key=_CODES.__getitem__))
_ACTIONS_MADE_MAX = 65536
_actions_made = 0


def _make_action(code: int, seat: int, cents: int, card: int) -> Action:
    global _actions_made  # noqa: PLW0603 - the bound on a module-level cache
    made = _NEW_ACTION(Action, (_KIND_OF_CODE[code], seat, cents, card))
    if _actions_made < _ACTIONS_MADE_MAX:
        _ACTIONS_MADE[code][seat][card if card >= 0 else cents] = made
        _actions_made += 1
    return made


_END_ITEM: dict[str, str] = {"action": "end of the log"}  # the fast loop's sentinel, by identity


_Fast = tuple[int, tuple[HandSeat, ...], tuple[Action, ...], _Replay]


# Compiled, the dicts and lists of the loop's state are typed so that their lookups and
# appends are direct C calls (each is only ever assigned a dict or a list).
@cython.locals(
    specs=dict,
    all_specs=dict,
    positive=dict,
    pos=dict,
    card_by_text=dict,
    left=list,
    inr=list,
    ante=list,
    state=list,
    need=list,
    stood=list,
    fold_round=list,
    succ=list,
    index=list,
    stack0=list,
    clock=list,
    order=list,
)
def _parse_fast(data: object, st: _Stakes) -> _Fast | None:  # noqa: C901, PLR0911, PLR0912, PLR0915
    """Round fields and replay of a well-formed hand without findings; None for any other.

    One pass over the log with the whole state in locals: splitting it into helpers would
    cost the speed it is there for. Action codes are compared as literals (see ``_K_*``).
    """
    if type(data) is not dict or len(data) != 3:
        return None
    try:
        button = data["button"]
        raw_seats = data["seats"]
        raw = data["actions"]
    except KeyError:
        return None
    if type(button) is not int or type(raw_seats) is not list or type(raw) is not list:
        return None
    n = len(raw_seats)
    max_seats = st.max_seats
    if n < 2 or n > max_seats or max_seats >= len(_ACTIONS_MADE[0]):
        return None
    positive = _POSITIVE_CENTS
    seats: list[HandSeat] = []
    seat_index: dict[int, int] = {}  # seat -> its index in "seats"
    seat_stack: dict[int, int] = {}
    for i, item in enumerate(raw_seats):
        if type(item) is not dict:
            return None
        size = len(item)
        try:
            seat = item["seat"]
            value = item["stack"]
            player = item["player"] if size == 3 else None
        except KeyError:
            return None
        if (
            (size != 2 and size != 3)  # noqa: PLR1714
            or type(seat) is not int
            or seat < 1
            or seat > max_seats
            or seat in seat_index
            or (player is not None and type(player) is not str)
        ):
            return None
        try:
            stack = positive.get(value)
        except TypeError:
            return None
        if stack is None:
            stack = _amount_cents(value)
            if stack is None or stack <= 0:
                return None
        seats.append(_NEW_ACTION(HandSeat, (seat, player, stack)))
        seat_index[seat] = i
        seat_stack[seat] = stack
    if button not in seat_index:
        return None

    order = sorted(seat_index)
    b = order.index(button)
    clock = order[b + 1 :] + order[: b + 1]  # left of the button first, the button last
    pos = dict(zip(clock, range(n), strict=True))
    succ = [*range(1, n), 0]  # ring position -> the next one clockwise
    index = list(map(seat_index.__getitem__, clock))
    stack0 = list(map(seat_stack.__getitem__, clock))
    left = stack0[:]
    inr = [0] * n
    ante = [0] * n
    state = [_CAN_ACT] * n
    need = [False] * n
    stood = [False] * n
    cards: list[list[int]] = list(map(list, repeat((), n)))
    fold_round = [0] * n
    turn: list[int] = []
    max_cards = st.max_cards
    max_bets = st.max_bets
    fmin, fmax = st.fmin, st.fmax
    sb_pos, bb_pos = (1, 0) if n == 2 else (0, 1)
    sb_posts = bb_posts = 0
    blinds_ok = True
    live = active = n
    over = False
    phase = P_POST
    rno = bet = bets = size = 0
    cursor = n - 1
    up_dealt = False
    ups = 0
    ended_round = 0
    turn_ptr = 0
    awards: dict[int, int] = {}
    award_paths: dict[int, str] = {}
    rake: int | None = None
    rake_path = ""
    specs = _SPECS_BY_PHASE[P_POST]
    all_specs = _FAST_SPECS
    card_by_text = _CARD_BY_TEXT
    log: list[Action] = []
    append = log.append
    made_by = _ACTIONS_MADE
    end_item = _END_ITEM
    raw = [*raw, end_item]
    _dict, _str = dict, str
    try:
        for k, item in enumerate(raw):
            if item.__class__ is not _dict:
                return None
            kind = item["action"]
            spec = specs.get(kind)
            if spec is not None and kind.__class__ is _str:
                code, keys = spec
            else:  # ---- a new phase, the end of the log, or something irregular ----------
                if item is end_item:
                    code, keys = _K_END, 1
                    if live > 1:
                        # (an up card missing now was missing when the up cards ended: the
                        # advance below, or the one that ended them, sees it)
                        target = P_SHOWDOWN if phase < P_SHOWDOWN else phase
                    elif phase < P_R1:
                        return None
                    else:
                        target = phase
                else:
                    spec = all_specs.get(kind) if kind.__class__ is _str else None
                    if spec is None:
                        return None
                    code, keys = spec
                    target = _TARGETS[code][phase]
                    if target < phase or (over and code < _K_AWARD):
                        return None
                while phase < target:  # into the next phase(s), as advance() does
                    if phase == P_POST:
                        if (st.ante or any(ante)) and ante != list(
                            map(min, repeat(st.ante), stack0)
                        ):
                            return None
                        if sb_posts != 1 or bb_posts != 1 or not blinds_ok:
                            return None
                    elif phase == P_HOLE:
                        if not all(cards):
                            return None
                        rno = 1
                        bet = max(inr)
                        if bet < st.bb and state[bb_pos]:
                            # a big blind all in for less does not lower the bet (RULINGS.md;
                            # the blinds were checked regular, so this is that all-in)
                            bet = st.bb
                        bets = 1
                        cursor = bb_pos
                        size = st.bb
                        need = list(map(not_, state))
                    elif phase == P_UP:
                        # Up cards go to players still in, one each, and nobody has folded
                        # since: all of them have one when there are as many as players in.
                        if live > 1 and ups != live:
                            return None
                        rno = 2
                        inr = [0] * n
                        bet = bets = 0
                        cursor = n - 1
                        size = st.r2
                        need = list(map(not_, state))
                    elif phase == P_COMPLETE:
                        rno = 3
                        inr = [0] * n
                        bet = bets = 0
                        cursor = n - 1
                        size = 0
                        need = list(map(not_, state))
                    elif phase in (P_R1, P_R2, P_FINAL):
                        if _anyone_due(state, need, inr, bet, live, active):
                            return None
                        if phase == P_R2:
                            turn = [0] * n
                            t = 0
                            for j in range(n):
                                if state[j] != _FOLDED:
                                    turn[j] = t
                                    t += 1
                    phase += 1
                if not over:
                    specs = _SPECS_BY_PHASE[phase]
            if len(item) != keys:
                return None
            if code < 14:  # the actions at a seat
                seat = item["seat"]
                j = pos[seat]
                if seat is not clock[j]:  # True or 1.0 for 1 (small ints are shared objects)
                    return None

            if code < 6:  # ---- betting -------------------------------------------------------
                if state[j]:
                    return None
                if code == 1 or code == 2:  # check, fold  # noqa: PLR1714
                    cents = 0
                else:
                    value = item["amount"]
                    cents = positive.get(value)
                    if cents is None:
                        cents = _amount_cents(value)
                        if cents is None or cents <= 0:
                            return None
                    if cents > left[j]:
                        return None
                # who must act now (next_actor): nobody due between the last actor and j
                q = succ[cursor]
                while q != j:
                    if need[q] or (not state[q] and inr[q] < bet):
                        return None
                    q = succ[q]
                cursor = j
                if code == 0:  # call: owing chips makes j due
                    had = left[j]
                    owes = bet - inr[j]
                    if owes <= 0 or cents != (owes if owes < had else had):
                        return None
                    need[j] = False
                    left[j] = had - cents
                    inr[j] += cents
                    if had == cents:
                        state[j] = _ALL_IN
                        active -= 1
                    made = made_by[0][seat].get(cents)
                    append(made if made is not None else _make_action(0, seat, cents, -1))
                    continue
                if active == 1:  # alone able to act: due only when owing chips
                    if inr[j] >= bet:
                        return None
                elif not need[j] and inr[j] >= bet:
                    return None
                need[j] = False
                if code == 1:  # check
                    if inr[j] < bet:
                        return None
                    made = made_by[1][seat].get(0)
                    append(made if made is not None else _make_action(1, seat, 0, -1))
                    continue
                if code == 2:  # fold
                    state[j] = _FOLDED
                    fold_round[j] = rno
                    live -= 1
                    active -= 1
                    if live == 1:
                        ended_round = rno
                        over = True
                        specs = _NO_SPECS
                    made = made_by[2][seat].get(0)
                    append(made if made is not None else _make_action(2, seat, 0, -1))
                    continue
                had = left[j]
                if code == 5 and cents != had:  # all in
                    return None
                left[j] = had - cents
                total = inr[j] + cents
                inr[j] = total
                if had == cents:
                    state[j] = _ALL_IN
                    active -= 1
                made = made_by[code][seat].get(cents)
                append(made if made is not None else _make_action(code, seat, cents, -1))
                if total <= bet:  # only an all-in may raise nothing (a call for less)
                    if code != 5:
                        return None
                    continue
                if bets >= max_bets:
                    return None
                inc = total - bet
                full = True
                if rno < 3:
                    if inc != size:
                        if had == cents and inc < size:
                            full = False
                        else:
                            return None
                elif inc < fmin:
                    if had != cents:
                        return None
                    full = False
                elif inc > fmax:
                    return None
                if full:
                    bets += 1
                    need = list(map(not_, state))
                    need[j] = False
                bet = total
            elif code < 9:  # ---- hole, up, hit -----------------------------------------------
                card = card_by_text[item["card"]]
                held = cards[j]
                if code == 6:  # hole
                    if held:
                        return None
                elif state[j] == _FOLDED:
                    return None
                elif code == 7:  # up
                    if len(held) != 1:
                        return None
                    up_dealt = True
                    ups += 1
                else:  # hit
                    if len(held) < 2:
                        return None
                    t = turn[j]
                    if t < turn_ptr:
                        return None
                    if t > turn_ptr:
                        turn_ptr = t
                    elif stood[j]:
                        return None
                    if len(held) >= max_cards or sum(map(BJ_POINTS.__getitem__, held)) > 21:
                        return None
                held.append(card)
                made = made_by[code][seat].get(card)
                append(made if made is not None else _make_action(code, seat, 0, card))
            elif code == 9:  # ---- stand -----------------------------------------------------
                if state[j] == _FOLDED or len(cards[j]) < 2:
                    return None
                t = turn[j]
                if t < turn_ptr:
                    return None
                if t > turn_ptr:
                    turn_ptr = t
                elif stood[j]:
                    return None
                stood[j] = True
                made = made_by[9][seat].get(0)
                append(made if made is not None else _make_action(9, seat, 0, -1))
            elif code < 14 or code == 15:  # ---- ante, blinds, award, rake ------------------
                value = item["amount"]
                cents = positive.get(value)
                if cents is None:
                    cents = _amount_cents(value)
                    if cents is None or cents < 0 or (cents == 0 and code != _K_RAKE):
                        return None
                if code == _K_AWARD:
                    awards[seat] = awards.get(seat, 0) + cents
                    if seat not in award_paths:
                        award_paths[seat] = f"actions[{k}]"
                elif code == _K_RAKE:
                    seat = 0
                    rake = (rake or 0) + cents
                    rake_path = rake_path or f"actions[{k}]"
                else:
                    had = left[j]
                    if cents > had:
                        return None
                    if code == _K_ANTE:
                        ante[j] += cents
                    else:
                        due = st.sb if code == _K_SMALL_BLIND else st.bb
                        if code == _K_SMALL_BLIND:
                            sb_posts += 1
                            blinds_ok = blinds_ok and j == sb_pos
                        else:
                            bb_posts += 1
                            blinds_ok = blinds_ok and j == bb_pos
                        blinds_ok = blinds_ok and cents == (due if due < had else had)
                        inr[j] += cents
                    left[j] = had - cents
                    if had == cents:
                        state[j] = _ALL_IN
                        active -= 1
                made = made_by[code][seat].get(cents)
                append(made if made is not None else _make_action(code, seat, cents, -1))
            elif code == _K_SHOWDOWN:
                made = made_by[14][0].get(0)
                append(made if made is not None else _make_action(14, 0, 0, -1))
            else:  # the end of the log
                break
    except (KeyError, TypeError):
        return None

    dealt = list(chain.from_iterable(cards))
    if len(set(dealt)) != len(dealt) and max(Counter(dealt).values()) > st.decks:
        return None  # more copies of a card than the shoe holds
    out = _Replay()
    out.st = st
    out.errors = Errors()
    out.findings = []
    out.button = button
    out.clock = clock
    out.index = index
    out.contrib = list(map(sub, stack0, left))
    out.ante = ante
    out.folded = list(map(_FOLDED.__eq__, state))
    out.fold_round = fold_round
    out.cards = cards
    out.up_dealt = up_dealt
    out.sb_seat = clock[sb_pos]
    out.bb_seat = clock[bb_pos]
    out.ended_round = ended_round
    out.awards = awards
    out.award_paths = award_paths
    out.rake = rake
    out.rake_path = rake_path
    return button, tuple(seats), tuple(log), out


# --- findings of the replay, out of the hot loop ---------------------------------------------


def _check_posts(
    st: _Stakes,
    findings: list[Finding],
    clock: list[int],
    index: list[int],
    stack: list[int],
    ante: list[int],
    blinds: list[tuple[int, str, int, int, int]],
    sb_pos: int,
    bb_pos: int,
    button: int,
) -> None:
    if st.ante or any(ante):
        for j, s in enumerate(clock):
            due = min(st.ante, stack[j])
            if ante[j] == due:
                continue
            if ante[j] == 0:
                _finding(
                    findings,
                    "ANTE_MISSING",
                    RULE_VIOLATION,
                    f"Seat {s} posted no ante; the ante is {chips_text(due)}.",
                    f"seats[{index[j]}]",
                    RULE_ANTE,
                    chips_text(due),
                    "0",
                    due,
                    s,
                )
            else:
                _finding(
                    findings,
                    "ANTE_WRONG_AMOUNT",
                    RULE_VIOLATION,
                    f"Seat {s} anted {chips_text(ante[j])}; the ante is {chips_text(due)}.",
                    f"seats[{index[j]}]",
                    RULE_ANTE,
                    chips_text(due),
                    chips_text(ante[j]),
                    abs(ante[j] - due),
                    s,
                )
    for kind, due_pos, size, rule, name in (
        (SMALL_BLIND, sb_pos, st.sb, RULE_SMALL_BLIND, "small blind"),
        (BIG_BLIND, bb_pos, st.bb, RULE_BIG_BLIND, "big blind"),
    ):
        due_seat = clock[due_pos]
        posts = [x for x in blinds if x[1] == kind]
        if not posts:
            _finding(
                findings,
                "BLIND_MISSING",
                RULE_VIOLATION,
                f"No {name} was posted; seat {due_seat} owed {chips_text(size)}.",
                "actions",
                rule,
                f"seat {due_seat} posts {chips_text(size)}",
                None,
                0,
                due_seat,
            )
        for k, _, j, posted, before in posts:
            seat = clock[j]
            if j != due_pos:
                _finding(
                    findings,
                    "BLIND_WRONG_SEAT",
                    RULE_VIOLATION,
                    f"Seat {seat} posted the {name}; with the button at seat {button} it is seat {due_seat}'s.",
                    k,
                    rule,
                    f"seat {due_seat}",
                    f"seat {seat}",
                    0,
                    seat,
                )
            due = min(size, before)
            if posted != due:
                _finding(
                    findings,
                    "BLIND_WRONG_AMOUNT",
                    RULE_VIOLATION,
                    f"Seat {seat} posted a {name} of {chips_text(posted)}; the {name} is {chips_text(size)}.",
                    k,
                    rule,
                    chips_text(due),
                    chips_text(posted),
                    abs(posted - due),
                    seat,
                )


def _out_of_turn(
    findings: list[Finding], st: _Stakes, k: int, kind: str, seat: int, r: int, due: int, cents: int
) -> None:
    verb = _VERBS[kind]
    if due < 0:
        msg = f"Seat {seat} {verb} after betting in {_ROUND_NAMES[r]} was complete."
        exp = "no action"
    else:
        msg = f"Seat {seat} {verb} out of turn in {_ROUND_NAMES[r]}; seat {due} was next to act."
        exp = f"seat {due}"
    _finding(
        findings,
        "OUT_OF_TURN",
        PROCEDURE,
        msg,
        k,
        RULE_ORDER_R1 if r == 1 else RULE_ORDER_LATER,
        exp,
        f"seat {seat}",
        cents,
        seat,
    )


def _wrong_call(findings: list[Finding], k: int, seat: int, r: int, cents: int, due: int) -> None:
    msg = (
        f"Seat {seat} called {chips_text(cents)} in {_ROUND_NAMES[r]} with nothing to call."
        if due == 0
        else f"Seat {seat} called {chips_text(cents)} in {_ROUND_NAMES[r]}, where the call was {chips_text(due)}."
    )
    _finding(
        findings,
        "CALL_WRONG_AMOUNT",
        PROCEDURE,
        msg,
        k,
        RULE_MATCH,
        chips_text(due),
        chips_text(cents),
        abs(cents - due),
        seat,
    )


def _raise_cap(
    findings: list[Finding],
    st: _Stakes,
    k: int,
    seat: int,
    r: int,
    bet: int,
    total: int,
    owes: int,
    had: int,
) -> None:
    word = "bet" if bet == 0 else "raised to"
    _finding(
        findings,
        "RAISE_CAP_EXCEEDED",
        RULE_VIOLATION,
        f"Seat {seat} {word} {chips_text(total)} in {_ROUND_NAMES[r]}, a bet or raise past the cap "
        f"(one bet and {st.max_bets - 1} raises).",
        k,
        RULE_CAP,
        f"call {chips_text(min(max(owes, 0), had))} or fold",
        f"{word} {chips_text(total)}",
        total - bet,
        seat,
    )


def _wrong_size(
    findings: list[Finding], st: _Stakes, k: int, seat: int, r: int, bet: int, total: int, size: int
) -> None:
    word = "bet" if bet == 0 else "raised to"
    what = "a bet" if bet == 0 else "a raise"
    _finding(
        findings,
        "BET_WRONG_SIZE",
        RULE_VIOLATION,
        f"Seat {seat} {word} {chips_text(total)} in {_ROUND_NAMES[r]}, where {what} is {chips_text(size)}.",
        k,
        _size_rule(st, r),
        f"{word} {chips_text(bet + size)}",
        f"{word} {chips_text(total)}",
        abs(total - bet - size),
        seat,
    )


def _out_of_spread(
    findings: list[Finding], st: _Stakes, k: int, seat: int, bet: int, total: int
) -> None:
    inc = total - bet
    spread = f"{chips_text(st.fmin)} to {chips_text(st.fmax)}"
    if bet == 0:
        msg = f"Seat {seat} bet {chips_text(inc)} in the final round, where a bet or raise is {spread}."
    else:
        msg = (
            f"Seat {seat} raised by {chips_text(inc)} (to {chips_text(total)}) in the final round, "
            f"where a bet or raise is {spread}."
        )
    _finding(
        findings,
        "FINAL_BET_OUT_OF_SPREAD",
        RULE_VIOLATION,
        msg,
        k,
        _size_rule(st, 3),
        spread,
        chips_text(inc),
        inc - st.fmax if inc > st.fmax else st.fmin - inc,
        seat,
    )


# --- audit ------------------------------------------------------------------------------------

_DECIMALS: dict[int, Decimal] = {}


def _dec(cents: int) -> Decimal:
    """int cents -> Decimal, cached: the same few amounts come back in every hand."""
    d = _DECIMALS.get(cents)
    if d is None:
        d = to_decimal(cents)
        if len(_DECIMALS) < 16384:
            _DECIMALS[cents] = d
    return d


def _replay_for(rnd: Round, rules: HoldemBlackjackRules) -> _Replay:
    cached = rnd.replay
    if cached is not None and (cached[0] is rules or cached[0] == rules):
        return cached[1]
    replay = _replay(rnd, _stakes(rules))
    replay.errors.raise_if_any()
    return replay


def _button_finding(rnd: Round, previous: Mapping) -> Finding | None:
    """The button must sit at the next occupied seat clockwise from last hand's button."""
    prev = previous.get("button") if isinstance(previous, Mapping) else None
    if type(prev) is not int:
        raise InvalidInput(
            [FieldError("context.previous_hand.button", "the previous hand has no button seat")]
        )
    order = sorted(s.seat for s in rnd.seats)
    due = next((s for s in order if s > prev), order[0])
    if rnd.button == due:
        return None
    return Finding(
        "BUTTON_WRONG_SEAT",
        PROCEDURE,
        f"Button at seat {rnd.button}; from seat {prev} last hand it should have moved one seat to seat {due}.",
        "button",
        RULE_BUTTON,
        f"seat {due}",
        f"seat {rnd.button}",
        _dec(0),
        rnd.button,
    )


_MONEY_TEXTS: dict[int, str] = {}
_CHIPS_TEXTS: dict[int, str] = {}


def _money(cents: int) -> str:
    """``money_text_cents``, cached like :func:`_dec`."""
    text = _MONEY_TEXTS.get(cents)
    if text is None:
        text = money_text_cents(cents)
        if len(_MONEY_TEXTS) < 16384:
            _MONEY_TEXTS[cents] = text
    return text


def _chips(cents: int) -> str:
    """``chips_text``, cached like :func:`_dec`."""
    text = _CHIPS_TEXTS.get(cents)
    if text is None:
        text = chips_text(cents)
        if len(_CHIPS_TEXTS) < 16384:
            _CHIPS_TEXTS[cents] = text
    return text


def _explain(
    seat: int,
    folded: bool,
    fold_round: int,
    put_in: int,
    pots: list[PotTuple],
    returned: Mapping[int, int],
    hands: dict[int, str],
    keys: dict[int, int],
    walk: bool,
) -> str:
    """A floor supervisor's account of what a seat wins or loses, pot by pot.

    ``pots`` as :func:`~tables.games.holdem_pots.settle_ring` gives them:
    ``(index, amount, eligible, rake, winners, shares)``.
    """
    parts: list[str] = []
    if folded:
        parts.append(f"folded in {_ROUND_NAMES[fold_round]}, {_chips(put_in)} in the pot lost")
    for index, amount, eligible, pot_rake, winners, shares in pots:
        if seat not in eligible:
            continue
        name = "main pot" if index == 0 else f"side pot {index}"
        rake = f" after {_chips(pot_rake)} rake" if pot_rake else ""
        if walk:
            parts.append(
                f"everyone else folded: wins the {name} of {_chips(amount)}{rake} without a showdown"
            )
        elif len(eligible) == 1:
            parts.append(f"alone in the {name}: wins {_chips(amount)}{rake}")
        elif seat in winners:
            i = winners.index(seat)
            if len(winners) == 1:
                beaten = ", ".join(
                    [f"{s} ({key_text(keys[s])})" for s in sorted(eligible) if s != seat]
                )
                parts.append(
                    f"{hands[seat]} wins the {name} of {_chips(amount)}{rake} "
                    f"over seat{'s' if len(eligible) > 2 else ''} {beaten}"
                )
            else:
                others = ", ".join([str(s) for s in winners if s != seat])
                odd = (
                    " (with the odd chips, first clockwise from the button)"
                    if i == 0 and shares[0] != shares[-1]
                    else ""
                )
                parts.append(
                    f"{hands[seat]} ties seat{'s' if len(winners) > 2 else ''} {others} "
                    f"for the {name} of {_chips(amount)}{rake}: gets {_chips(shares[i])}{odd}"
                )
        else:
            w = winners[0]
            parts.append(f"{hands[seat]} loses the {name} to seat {w}'s {hands[w]}")
    back = returned.get(seat)
    if back:
        parts.append(f"uncalled {_chips(back)} returned")
    return "; ".join(parts) if parts else "put nothing in the pot"


def _rake_reason(st: _Stakes, rake: int, contested: int, up_dealt: bool) -> str:
    if rake:
        capped = f", capped at {chips_text(st.cap)}" if st.cap and rake == st.cap else ""
        return f"{st.percent}% of {chips_text(contested)} contested, rounded down{capped}"
    if not st.percent:
        return "no rake at this table"
    if not up_dealt:
        return "no rake: the hand ended in round 1 (no flop, no drop)"
    return "no rake due"


# Settlements are immutable and the same few come back hand after hand (a fold in round 1
# with the ante in; the table's rake on a pot of a common size): they are kept, bounded,
# keyed by everything they are made of.
_FOLD_SETTLEMENTS: dict[tuple[int, int, int, int | None], Settlement] = {}
_RAKE_SETTLEMENTS: dict[tuple[int, int, str], Settlement] = {}
_SETTLEMENT_CACHE_SIZE = 16384


def _folded_settlement(seat: int, fold_round: int, put_in: int, back: int | None) -> Settlement:
    """A folded seat's settlement: a folded seat is in no pot, so these four make it."""
    key = (seat, fold_round, put_in, back)
    s = _FOLD_SETTLEMENTS.get(key)
    if s is None:
        net = (back or 0) - put_in
        s = Settlement(
            seat,
            "pot",
            _dec(put_in),
            _dec(net),
            WIN if net > 0 else LOSE if net < 0 else PUSH,
            _explain(
                seat, True, fold_round, put_in, [], {seat: back} if back else {}, {}, {}, False
            ),
        )
        if len(_FOLD_SETTLEMENTS) < _SETTLEMENT_CACHE_SIZE:
            _FOLD_SETTLEMENTS[key] = s
    return s


def _rake_settlement(contested: int, rake: int, why: str) -> Settlement:
    key = (contested, rake, why)
    s = _RAKE_SETTLEMENTS.get(key)
    if s is None:
        s = Settlement(0, "rake", _dec(contested), _dec(rake), WIN if rake else PUSH, why)
        if len(_RAKE_SETTLEMENTS) < _SETTLEMENT_CACHE_SIZE:
            _RAKE_SETTLEMENTS[key] = s
    return s


def audit(
    rnd: Round, rules: HoldemBlackjackRules | None = None, context: AuditContext | None = None
) -> Audit:
    """Settle the hand and judge every operation: each seat's due chips, the rake, the findings."""
    rules = rules if rules is not None else HoldemBlackjackRules()
    rp = _replay_for(rnd, rules)
    st = rp.st
    findings: list[Finding] = []
    if context is not None and context.previous_hand is not None:
        f = _button_finding(rnd, context.previous_hand)
        if f is not None:
            findings.append(f)
    if rp.findings:
        findings.extend(rp.findings)

    clock = rp.clock
    contrib = rp.contrib
    folded = rp.folded
    cards = rp.cards
    n = len(clock)
    first = clock.index(min(clock))  # ring position of the lowest seat number
    by_seat = (*range(first, n), *range(first))  # ring positions in seat order
    live = list(compress(range(n), map(not_, folded)))  # ring positions, clockwise
    walk = len(live) == 1
    max_cards = st.max_cards
    keys: dict[int, int] = {}  # by seat, in seat order
    hands: dict[int, str] = {}
    for j in by_seat:
        if not folded[j]:
            keys[clock[j]] = hand_key(cards[j], max_cards)
            if not walk:
                hands[clock[j]] = hand_text(cards[j], max_cards)
    pots, returned, received, rake, contested = settle_ring(
        clock, contrib, live, keys, st.percent, st.cap, rp.up_dealt, rp.ante
    )
    # Most hands: one pot, contested at a showdown, one winner, no chips returned. Then a
    # losing player's explanation is their hand and the winner's (as _explain words it).
    beaten_by = ""
    losers: tuple[int, ...] = ()
    winner = 0
    if len(pots) == 1 and not walk and not returned:
        eligible, winners = pots[0][2], pots[0][4]
        if len(winners) == 1 and len(eligible) > 1:
            winner = winners[0]
            beaten_by = f" loses the main pot to seat {winner}'s {hands[winner]}"
            losers = eligible

    settlements: list[Settlement] = []
    append = settlements.append
    fold_round = rp.fold_round
    decimals = _DECIMALS
    for j in by_seat:
        seat = clock[j]
        put_in = contrib[j]
        if folded[j]:
            append(_folded_settlement(seat, fold_round[j], put_in, returned.get(seat)))
            continue
        net = received.get(seat, 0) - put_in
        stake = decimals.get(put_in)
        net_dec = decimals.get(net)
        append(
            Settlement(
                seat,
                "pot",
                stake if stake is not None else _dec(put_in),
                net_dec if net_dec is not None else _dec(net),
                WIN if net > 0 else LOSE if net < 0 else PUSH,
                hands[seat] + beaten_by
                if seat in losers and seat != winner
                else _explain(seat, False, 0, put_in, pots, returned, hands, keys, walk),
            )
        )
    rake_why = _rake_reason(st, rake, contested, rp.up_dealt)
    append(_rake_settlement(contested, rake, rake_why))

    if rp.awards or rp.rake is not None:
        awards = rp.awards
        if awards != received and any(awards.get(s, 0) != received.get(s, 0) for s in clock):
            by_seat = sorted(range(n), key=clock.__getitem__)
            recorded = [
                RecordedPay(
                    clock[j],
                    "pot",
                    _dec(awards.get(clock[j], 0) - contrib[j]),
                    None,
                    rp.award_paths.get(clock[j], f"seats[{rp.index[j]}]"),
                )
                for j in by_seat
            ]
            findings.extend(compare_recorded(settlements, recorded))
        taken = rp.rake or 0
        if taken != rake:
            over = taken > rake
            findings.append(
                Finding(
                    "RAKE_ABOVE_EXPECTED" if over else "RAKE_BELOW_EXPECTED",
                    UNDERPAY if over else OVERPAY,
                    f"Dealer raked {chips_text(taken)}; due {chips_text(rake)} ({rake_why}).",
                    rp.rake_path or "actions",
                    RULE_RAKE,
                    money_text_cents(rake),
                    money_text_cents(taken),
                    _dec(abs(taken - rake)),
                    None,
                )
            )
        pushed = sum(awards.values())
        total_in = sum(contrib)
        if pushed + taken != total_in:
            diff = pushed + taken - total_in
            findings.append(
                Finding(
                    "AWARDS_DO_NOT_BALANCE",
                    PROCEDURE,
                    f"Dealer pushed {chips_text(pushed)} and raked {chips_text(taken)} from {chips_text(total_in)} put in: "
                    + (
                        f"{chips_text(diff)} more than was in the pot."
                        if diff > 0
                        else f"{chips_text(-diff)} unaccounted for."
                    ),
                    "actions",
                    RULE_AWARDS,
                    money_text_cents(total_in),
                    money_text_cents(pushed + taken),
                    _dec(abs(diff)),
                    None,
                )
            )

    summary = {
        "button": rnd.button,
        "small_blind_seat": rp.sb_seat,
        "big_blind_seat": rp.bb_seat,
        "showdown": not walk,
        "ended_in": _ROUND_NAMES[rp.ended_round] if walk else "showdown",
        "hands": dict(zip(map(str, hands), hands.values(), strict=True)),
        "charlies": sorted([s for s, k in keys.items() if k == CHARLIE_KEY])
        if not walk and CHARLIE_KEY in keys.values()
        else [],
        "pots": [
            {
                "name": "main pot" if index == 0 else f"side pot {index}",
                "amount": _money(amount),
                "eligible": sorted(eligible),
                "winners": list(winners),
                "shares": list(map(_money, shares)),
                "rake": _money(pot_rake),
            }
            for index, amount, eligible, pot_rake, winners, shares in pots
        ],
        "returned": {str(s): _money(c) for s, c in sorted(returned.items())} if returned else {},
        "rake": _money(rake),
    }
    return Audit(tuple(settlements), tuple(findings), summary)


def simulate_round(
    rng,
    rules: HoldemBlackjackRules | None = None,
    *,
    seats: int = 6,
    inject: frozenset[str] = frozenset(),
) -> dict:
    """A realistic hand in JSON form (see :mod:`tables.games.simulate_holdem_blackjack`)."""
    from .simulate_holdem_blackjack import simulate_hand

    return simulate_hand(
        rng, rules if rules is not None else HoldemBlackjackRules(), seats=seats, inject=inject
    )
