"""Hold'em Blackjack: a hand as an ordered log of what happened at the table, replayed and judged.

(Why this module is over 800 lines: its first 165 are this docstring, the JSON form and
the findings the API documents; the code is the one parser and the one settlement. The
betting rules are in :mod:`.state`, which this module's parser feeds the log to.)

Player against player; the showdown is a blackjack total; the house only rakes
(rules/holdem-blackjack.txt, RULINGS.md). In the spirit of PokerKit's ``State`` a hand
is a list of operations — blinds and antes posted, cards dealt, each betting action,
each hit or stand, the showdown, the chips pushed and the rake taken — and every
operation is checked against the state the earlier ones left. What cannot have
happened is refused (:class:`~tables.games.vocabulary.base.InvalidInput`, nothing is stored); what
happened but broke a rule is accepted and reported as a
:class:`~tables.games.vocabulary.base.Finding` with the action's index in its path.

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
OUT_OF_TURN                  procedure        a betting action, hit or stand out of turn (on
                                              the player who acted early only), or after the
                                              round's betting was complete or after standing
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
* Out of turn (RULINGS.md): one ``OUT_OF_TURN`` finding, on the player who acted early,
  and the action stands as taken. The turn stays with the first player skipped; the
  skipped players then act in turn (no finding on them), and the early player acts again
  only if a bet or raise reaches them. In hand completion a seat that draws or stands
  while a seat before it has not stood is found out of turn once that seat draws or
  stands after it (until then the earlier seat's stand may just not have been recorded),
  one finding per early run of cards, at its first card or stand; the skipped seat's
  cards count.
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
  main pot (:mod:`tables.games.holdem.pots`).
* Illegal cards do not count at the showdown: a hit on a busted hand or past
  ``max_cards`` is reported and the hand is ranked on the cards it may legally hold.
* Chip unit = the cent; odd cents of a split pot all go to the first tied player
  clockwise from the button (see :mod:`tables.games.holdem.pots`).
* Rake: on all pots together (uncalled bets excluded), rounded down to the cent,
  capped, taken from the main pot first. No flop, no drop: a hand that ends in round 1
  (no up card dealt) is not raked.
* A ``call`` that puts in more than was owed does not raise the bet: the extra chips
  come back to the player as an uncalled bet unless someone matched them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import compress
from operator import not_
from typing import Any, NamedTuple

from ..settings.rulesets import HoldemBlackjackRules
from ..vocabulary.base import (
    LOSE,
    OVERPAY,
    PROCEDURE,
    PUSH,
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
    made,
    make_audit,
    make_settlement,
    parse_money,
    remember,
    simulator,
    take_seat,
)

# The dealer's pays are award actions in the log, which the audit checks itself: no seat has
# recorded nets (``seats[].paid``), so the shared reading finds none.
from ..vocabulary.base import recorded_nets as recorded_nets
from ..vocabulary.cards import TEXT, CardError, parse_card
from ..vocabulary.catalogue import (
    AWARDS_DO_NOT_BALANCE,
    BUTTON_WRONG_SEAT,
    HOLDEM_BLACKJACK,
    POT,
    RAKE_ABOVE_EXPECTED,
    RAKE_BELOW_EXPECTED,
    RULE_AWARDS,
    RULE_BIG_BLIND,
    RULE_BUST,
    RULE_BUTTON,
    RULE_CAP,
    RULE_COMPLETION,
    RULE_MATCH,
    RULE_MAX_CARDS,
    RULE_ORDER_LATER,
    RULE_ORDER_R1,
    RULE_RAKE,
    RULE_SMALL_BLIND,
)
from ..vocabulary.catalogue import (
    RAKE as RAKE_WAGER,  # the house's settlement; RAKE is the log's action
)
from ..vocabulary.catalogue import RULE_HOLDEM_ANTE as RULE_ANTE
from .pots import (
    CHARLIE_KEY,
    PotTuple,
    chips_text,
    hand_key,
    hand_text,
    key_text,
    money_text_cents,
    settle_ring,
    to_decimal,
)
from .state import (
    ACTIONS,
    DEFAULT_RULES,
    RAKE,
    ROUND_NAMES,
    Action,
    Stakes,
    State,
    compiled,
)

__all__ = [
    "ACTIONS",
    "RULE_ANTE",
    "RULE_BIG_BLIND",
    "RULE_BUST",
    "RULE_CAP",
    "RULE_COMPLETION",
    "RULE_MATCH",
    "RULE_MAX_CARDS",
    "RULE_ORDER_LATER",
    "RULE_ORDER_R1",
    "RULE_SMALL_BLIND",
    "Action",
    "HandSeat",
    "Round",
    "audit",
    "parse_round",
    "recorded_nets",
    "round_to_dict",
    "simulate_round",
]

_ROUND_NAMES = ROUND_NAMES
_CARD_BY_TEXT = {t: i for i, t in enumerate(TEXT)}

RULE_SHOWDOWN = "The player with the best blackjack hand wins the pot. Ties split the pot."


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
    # (rules, the State the log left) parse_round already built, reused by audit() under
    # the same rules object.
    replay: Any = field(default=None, compare=False, repr=False)


# --- the one parser: fields first, then the log through the State -----------------------------
#
# Each field is read with cheap exact checks first (``type(x) is str``, memoised cards,
# amounts and actions, owned by the compiled ruleset); only a value that fails them goes
# through the worded checks, so error texts are built only when there is an error.

def _cents(
    value: object, path: str, errors: Errors, memo: dict, *, allow_zero: bool = False
) -> int | None:
    """An amount as int cents; texts already seen come from ``memo`` (they repeat every hand)."""
    if type(value) is str:
        cents = memo.get(value)
        if cents is None:
            amount = parse_money(value, path, errors, allow_negative=True)
            if amount is None:
                return None
            cents = remember(memo, value, int(amount * 100))
    else:  # an int too: the same limits as text (tables.games.vocabulary.money.to_money)
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


def _parse_seats(raw: object, stakes: Stakes, errors: Errors) -> tuple[HandSeat, ...]:
    if not isinstance(raw, list):
        errors.add("seats", "must be a list of seats")
        return ()
    if len(raw) < 2:
        errors.add("seats", f"a hand needs at least 2 players, got {len(raw)}")
    elif len(raw) > stakes.max_seats:
        errors.add("seats", f"this table seats at most {stakes.max_seats} players, got {len(raw)}")
    memo = stakes.cache("cents")
    made = stakes.cache("seats")  # (seat, player, stack text) -> HandSeat
    out: list[HandSeat] = []
    taken: dict[int, int] = {}
    for i, item in enumerate(raw):
        if type(item) is dict:
            try:
                seat = item["seat"]
                hand_seat = made[(seat, item.get("player"), item["stack"])]
                if (
                    type(seat) is int
                    and seat not in taken
                    and len(item) == 2 + ("player" in item)
                ):
                    taken[seat] = i
                    out.append(hand_seat)
                    continue
            except (KeyError, TypeError):  # not seen before, or not regular: read it in full
                pass
        path = f"seats[{i}]"
        if type(item) is not dict and not isinstance(item, Mapping):
            errors.add(path, "must be an object")
            continue
        if not item.keys() <= _SEAT_KEYS:
            for key in item:
                if key not in _SEAT_KEYS:
                    errors.add(f"{path}.{key}", "unknown field; expected seat, player, stack")
        seat = item.get("seat")
        ok = take_seat(item, i, stakes.max_seats, taken, errors)
        player = item.get("player")
        if player is not None and not isinstance(player, str):
            errors.add(f"{path}.player", "must be text")
        value = item.get("stack")
        stack = memo.get(value) if type(value) is str else None
        if stack is None or stack <= 0:
            if value is None:
                errors.add(f"{path}.stack", "is missing")
            else:
                stack = _cents(value, f"{path}.stack", errors, memo)
        if ok and stack is not None:
            hand_seat = HandSeat(seat, player, stack)
            out.append(hand_seat)
            if (
                type(item) is dict
                and (player is None or type(player) is str)
                and type(value) is str
                and item.keys() <= _SEAT_KEYS
            ):
                remember(made, (seat, player, value), hand_seat)
    return tuple(out)


_NEW = tuple.__new__
_KEYSETS = {a: frozenset(("action", *keys)) for a, keys in ACTIONS.items()}
# action -> (number of keys with "action", has seat, the key of its value or "", has amount,
# has card)
_SPECS = {
    a: (
        len(keys) + 1,
        "seat" in keys,
        "amount" if "amount" in keys else "card" if "card" in keys else "",
        "amount" in keys,
        "card" in keys,
    )
    for a, keys in ACTIONS.items()
}


def _parse_actions(
    raw: object, seat_numbers: set[int], stakes: Stakes, errors: Errors
) -> tuple[Action, ...]:
    """The log's fields. An item already seen under this ruleset (same action, seat and
    amount or card text) is the memoised :class:`Action`, after exact type checks; any
    other goes through :func:`_parse_action`, which words what is wrong."""
    if not isinstance(raw, list):
        errors.add("actions", "must be a list of actions")
        return ()
    out: list[Action] = []
    append = out.append
    seen = [0] * 52
    decks = stakes.decks
    specs = _SPECS
    made = stakes.cache("actions")  # (action, seat, amount or card text) -> Action
    for k, item in enumerate(raw):
        if type(item) is dict:
            try:
                kind = item["action"]
                spec = specs[kind]
                if len(item) == spec[0]:
                    seat = item["seat"] if spec[1] else 0
                    action = made[(kind, seat, item[spec[2]] if spec[2] else None)]
                    # exact types: True or 1.0 would find seat 1's action
                    if (
                        type(seat) is int
                        and type(kind) is str
                        and (seat in seat_numbers or not spec[1])
                    ):
                        c = action.card
                        if c >= 0:
                            seen[c] += 1
                            if seen[c] > decks:
                                errors.add(
                                    f"actions[{k}].card",
                                    f"{TEXT[c]} dealt {seen[c]} times but a {decks}-deck shoe holds {decks}",
                                )
                                continue
                        append(action)
                        continue
            except (KeyError, TypeError):  # not seen before, or not regular: read it in full
                pass
        action = _parse_action(item, k, seat_numbers, stakes, errors, seen)
        if action is not None:
            append(action)
    return tuple(out)


def _parse_action(
    item: object, k: int, seat_numbers: set[int], stakes: Stakes, errors: Errors, seen: list[int]
) -> Action | None:
    """One log item read field by field, every wrong field worded; memoised when regular."""
    if type(item) is not dict and not isinstance(item, Mapping):
        errors.add(f"actions[{k}]", "must be an object")
        return None
    kind = item.get("action")
    spec = _SPECS.get(kind) if type(kind) is str else None
    if spec is None:
        errors.add(
            f"actions[{k}].action",
            f"{kind!r} is not an action; expected one of {', '.join(ACTIONS)}",
        )
        return None
    size, has_seat, value_key, has_amount, has_card = spec
    keyset = _KEYSETS[kind]
    if item.keys() != keyset:
        _bad_keys(item, kind, keyset, k, errors)
        return None
    seat = item["seat"] if has_seat else 0
    value = item[value_key] if value_key else None
    memo = stakes.cache("cents")
    cents = 0
    card = -1
    ok = True
    if has_seat and (type(seat) is not int or seat not in seat_numbers):
        errors.add(f"actions[{k}].seat", f"{seat!r} is not a seat in this hand")
        ok = False
    if has_amount:
        c = memo.get(value) if type(value) is str else None
        if c is None or c <= 0:
            c = _cents(value, f"actions[{k}].amount", errors, memo, allow_zero=kind == RAKE)
        if c is None:
            ok = False
        else:
            cents = c
    if has_card:
        c = _card(value, f"actions[{k}].card", errors)
        if c is None:
            ok = False
        else:
            card = c
            seen[c] += 1
            if seen[c] > stakes.decks:
                decks = stakes.decks
                errors.add(
                    f"actions[{k}].card",
                    f"{TEXT[c]} dealt {seen[c]} times but a {decks}-deck shoe holds {decks}",
                )
                ok = False
    if not ok:
        return None
    action = _NEW(Action, (kind, seat, cents, card))
    if type(item) is dict and type(seat) is int and (value is None or type(value) is str):
        remember(stakes.cache("actions"), (kind, seat, value), action)
    return action


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


def replay(
    button: int, seats: tuple[HandSeat, ...], actions: tuple[Action, ...], st: Stakes
) -> State:
    """The recorded log through the :class:`~.state.State`: findings for what broke
    a rule, ``state.errors`` for what cannot have happened (by the action's path)."""
    state = State(st, button, [(s.seat, s.stack_cents) for s in seats])
    state.apply_all(actions, state.errors)
    state.finish()
    return state


def parse_round(data: Mapping, rules: HoldemBlackjackRules | None = None) -> Round:
    """JSON form -> :class:`Round`, or :class:`InvalidInput` naming every impossible field.

    Field errors (types, cards, amounts, seats) are all reported together; errors about
    the sequence of the hand (a card after a fold...) once every field is readable.
    """
    rules = rules if rules is not None else DEFAULT_RULES
    stakes = compiled(rules)
    errors = Errors()
    if not isinstance(data, Mapping):
        errors.add("", "a hand must be an object with button, seats and actions")
        errors.raise_if_any()
    if len(data) != 3 or not ("button" in data and "seats" in data and "actions" in data):
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
    state = replay(button, seats, actions, stakes)
    state.errors.raise_if_any()
    return made(Round, _ROUND_FIELDS, (button, seats, actions, (rules, state)))


_ROUND_FIELDS = ("button", "seats", "actions", "replay")


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


# --- audit ------------------------------------------------------------------------------------

class _Memo:
    """Decimals, texts and settlements already made under one ruleset: the same few come
    back hand after hand. Owned by the compiled ruleset (``Stakes.cache("audit", _Memo)``), bounded."""

    __slots__ = ("decimals", "money", "chips", "folds", "rakes")

    def __init__(self) -> None:
        self.decimals: dict[int, Decimal] = {}
        self.money: dict[int, str] = {}
        self.chips: dict[int, str] = {}
        self.folds: dict[tuple[int, int, int, int | None], Settlement] = {}
        self.rakes: dict[tuple[int, int, str], Settlement] = {}

    @staticmethod
    def _made(table: dict, cents: int, make: Callable[[int], Any]) -> Any:
        """``make(cents)``, remembered in ``table`` (``base.remember``)."""
        value = table.get(cents)
        return value if value is not None else remember(table, cents, make(cents))

    def dec(self, cents: int) -> Decimal:
        """int cents -> Decimal."""
        return self._made(self.decimals, cents, to_decimal)

    def money_text(self, cents: int) -> str:
        """``money_text_cents``."""
        return self._made(self.money, cents, money_text_cents)

    def chips_text(self, cents: int) -> str:
        """``chips_text``."""
        return self._made(self.chips, cents, chips_text)


def _replay_for(rnd: Round, rules: HoldemBlackjackRules) -> State:
    cached = rnd.replay
    if cached is not None and (cached[0] is rules or cached[0] == rules):
        return cached[1]
    state = replay(rnd.button, rnd.seats, rnd.actions, compiled(rules))
    state.errors.raise_if_any()
    return state


def _button_finding(rnd: Round, previous: Mapping, m: _Memo) -> Finding | None:
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
        BUTTON_WRONG_SEAT,
        PROCEDURE,
        f"Button at seat {rnd.button}; from seat {prev} last hand it should have moved one seat to seat {due}.",
        "button",
        RULE_BUTTON,
        f"seat {due}",
        f"seat {rnd.button}",
        m.dec(0),
        rnd.button,
    )


def _explain(
    m: _Memo,
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

    ``pots`` as :func:`~tables.games.holdem.pots.settle_ring` gives them:
    ``(index, amount, eligible, rake, winners, shares)``.
    """
    parts: list[str] = []
    if folded:
        parts.append(
            f"folded in {_ROUND_NAMES[fold_round]}, {m.chips_text(put_in)} in the pot lost"
        )
    for index, amount, eligible, pot_rake, winners, shares in pots:
        if seat not in eligible:
            continue
        name = "main pot" if index == 0 else f"side pot {index}"
        rake = f" after {m.chips_text(pot_rake)} rake" if pot_rake else ""
        if walk:
            parts.append(
                f"everyone else folded: wins the {name} of {m.chips_text(amount)}{rake} without a showdown"
            )
        elif len(eligible) == 1:
            parts.append(f"alone in the {name}: wins {m.chips_text(amount)}{rake}")
        elif seat in winners:
            i = winners.index(seat)
            if len(winners) == 1:
                beaten = ", ".join(
                    [f"{s} ({key_text(keys[s])})" for s in sorted(eligible) if s != seat]
                )
                parts.append(
                    f"{hands[seat]} wins the {name} of {m.chips_text(amount)}{rake} "
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
                    f"for the {name} of {m.chips_text(amount)}{rake}: gets {m.chips_text(shares[i])}{odd}"
                )
        else:
            w = winners[0]
            parts.append(f"{hands[seat]} loses the {name} to seat {w}'s {hands[w]}")
    back = returned.get(seat)
    if back:
        parts.append(f"uncalled {m.chips_text(back)} returned")
    return "; ".join(parts) if parts else "put nothing in the pot"


def _rake_reason(st: Stakes, rake: int, contested: int, up_dealt: bool) -> str:
    if rake:
        capped = f", capped at {chips_text(st.cap)}" if st.cap and rake == st.cap else ""
        return f"{st.percent}% of {chips_text(contested)} contested, rounded down{capped}"
    if not st.percent:
        return "no rake at this table"
    if not up_dealt:
        return "no rake: the hand ended in round 1 (no flop, no drop)"
    return "no rake due"


# Settlements are immutable and the same few come back hand after hand (a fold in round 1
# with the ante in; the table's rake on a pot of a common size): they are kept in the
# ruleset's memo, bounded, keyed by everything they are made of.


def _folded_settlement(
    m: _Memo, seat: int, fold_round: int, put_in: int, back: int | None
) -> Settlement:
    """A folded seat's settlement: a folded seat is in no pot, so these four make it."""
    key = (seat, fold_round, put_in, back)
    s = m.folds.get(key)
    if s is None:
        net = (back or 0) - put_in
        s = make_settlement(
            seat,
            POT,
            m.dec(put_in),
            m.dec(net),
            WIN if net > 0 else LOSE if net < 0 else PUSH,
            _explain(
                m, seat, True, fold_round, put_in, [], {seat: back} if back else {}, {}, {}, False
            ),
        )
        remember(m.folds, key, s)
    return s


def _rake_settlement(m: _Memo, contested: int, rake: int, why: str) -> Settlement:
    key = (contested, rake, why)
    s = m.rakes.get(key)
    if s is None:
        outcome = WIN if rake else PUSH
        s = remember(
            m.rakes, key, make_settlement(0, RAKE_WAGER, m.dec(contested), m.dec(rake), outcome, why)
        )
    return s


def audit(
    rnd: Round, rules: HoldemBlackjackRules | None = None, context: AuditContext | None = None
) -> Audit:
    """Settle the hand and judge every operation: each seat's due chips, the rake, the findings."""
    rules = rules if rules is not None else DEFAULT_RULES
    rp = _replay_for(rnd, rules)
    st = rp.st
    m = st.cache("audit", _Memo)
    findings: list[Finding] = []
    if context is not None and context.previous_hand is not None:
        f = _button_finding(rnd, context.previous_hand, m)
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
    decimals = m.decimals
    for j in by_seat:
        seat = clock[j]
        put_in = contrib[j]
        if folded[j]:
            append(_folded_settlement(m, seat, fold_round[j], put_in, returned.get(seat)))
            continue
        net = received.get(seat, 0) - put_in
        stake = decimals.get(put_in)
        net_dec = decimals.get(net)
        append(
            make_settlement(
                seat,
                POT,
                stake if stake is not None else m.dec(put_in),
                net_dec if net_dec is not None else m.dec(net),
                WIN if net > 0 else LOSE if net < 0 else PUSH,
                hands[seat] + beaten_by
                if seat in losers and seat != winner
                else _explain(m, seat, False, 0, put_in, pots, returned, hands, keys, walk),
            )
        )
    rake_why = _rake_reason(st, rake, contested, rp.up_dealt)
    append(_rake_settlement(m, contested, rake, rake_why))

    if rp.awards or rp.rake is not None:
        awards = rp.awards
        if awards != received and any(awards.get(s, 0) != received.get(s, 0) for s in clock):
            by_seat = sorted(range(n), key=clock.__getitem__)
            recorded = [
                RecordedPay(
                    clock[j],
                    POT,
                    m.dec(awards.get(clock[j], 0) - contrib[j]),
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
                    RAKE_ABOVE_EXPECTED if over else RAKE_BELOW_EXPECTED,
                    UNDERPAY if over else OVERPAY,
                    f"Dealer raked {chips_text(taken)}; due {chips_text(rake)} ({rake_why}).",
                    rp.rake_path or "actions",
                    RULE_RAKE,
                    money_text_cents(rake),
                    money_text_cents(taken),
                    m.dec(abs(taken - rake)),
                    None,
                )
            )
        pushed = sum(awards.values())
        total_in = sum(contrib)
        if pushed + taken != total_in:
            diff = pushed + taken - total_in
            findings.append(
                Finding(
                    AWARDS_DO_NOT_BALANCE,
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
                    m.dec(abs(diff)),
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
                "amount": m.money_text(amount),
                "eligible": sorted(eligible),
                "winners": list(winners),
                "shares": list(map(m.money_text, shares)),
                "rake": m.money_text(pot_rake),
            }
            for index, amount, eligible, pot_rake, winners, shares in pots
        ],
        "returned": {str(s): m.money_text(c) for s, c in sorted(returned.items())}
        if returned
        else {},
        "rake": m.money_text(rake),
    }
    return make_audit(tuple(settlements), tuple(findings), summary)


def simulate_round(
    rng,
    rules: HoldemBlackjackRules | None = None,
    *,
    seats: int = 6,
    inject: frozenset[str] = frozenset(),
) -> dict:
    """A realistic hand in JSON form (:mod:`tables.games.holdem.simulate`, which
    registers itself in :data:`~.base.SIMULATORS` when imported)."""
    return simulator(HOLDEM_BLACKJACK)(
        rng, rules if rules is not None else DEFAULT_RULES, seats=seats, inject=inject
    )
