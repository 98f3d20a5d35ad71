"""The blackjack round of Ante Up 21, Upcard Luck 21 and Blackjack Tie: its JSON form, the
model it is read into, the one parser, and the way back to JSON.

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
  ``"0.00"``), comparable with :class:`~tables.games.vocabulary.base.Settlement` ``net``. ``hand`` is
  required for the 21 wager (index into ``hands``) and absent for the other wagers.
  Upcard Luck 21 also records ``taxpayers_fortune_tax`` (minus the tax collected) and
  ``taxpayers_fortune_jackpot`` (the award).

The checks of the dealer's draw and of the player's play are in ``checks``; the
settlement and the audit in ``blackjack``, which re-exports this module's names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import NamedTuple

from ..vocabulary.base import (
    AuditContext,
    CompiledRules,
    Errors,
    Finding,
    RecordedPay,
    Settlement,
    compiled_for,
    copies_refused,
    made,
    remember,
    take_seat,
)
from ..vocabulary.cards import (
    ACE,
    BJ_POINTS,
    CARD_OF_TEXT,
    RANK,
    TEXT,
    parse_card,
    too_many_copies,
)
from ..vocabulary.catalogue import (  # the shared blackjack's finding codes and rules (game modules add their own)
    INSURANCE,
    W21,
)
from ..vocabulary.hands import soft_total
from ..vocabulary.money import CENT, MoneyError, money_text, odds_text, to_money

HIT, STAND, DOUBLE, SPLIT = "hit", "stand", "double", "split"
ACTIONS = (HIT, STAND, DOUBLE, SPLIT)
_ACTION_SET = frozenset(ACTIONS)
_TOP_KEYS = frozenset({"game", "dealer", "seats"})
_SEAT_KEYS = frozenset({"seat", "player", "wagers", "even_money", "hands", "paid"})
_HAND_KEYS = frozenset({"cards", "actions"})
_PAID_KEYS = frozenset({"wager", "hand", "net"})
_DEALER_KEYS = frozenset({"cards"})
MAX_SEAT_NUMBER = 12


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
    gives them as :class:`~tables.games.vocabulary.base.RecordedPay` with their paths.
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
    * ``wagers_refused``: impossible combinations of its wagers, as ``(wager key, message)``
      pairs (optional; the parser names them under the seat's ``wagers``);
    * ``rule_findings``: table-rule findings for one seat's wagers;
    * ``side_live``: money on side wagers that still depends on the dealer's draw;
    * ``settle``: settlements of its side wagers for one seat, which the audit calls beside
      ``rule_findings`` and ``side_live`` (and none of the three for a seat with its 21 bet
      alone);
    * ``audit_seat``, instead of ``settle``: ``(seat, dealer, rules, context, settlements,
      findings, facts) -> side live money``, for a game whose hot path needs ``facts`` worked
      out once per round (Ante Up 21's dealer poker hand); it calls the game's
      ``rule_findings`` and ``side_live``, never a copy of them;
    * ``round_facts``: ``(dealer, rules) -> facts`` worked out once per round for
      ``audit_seat``.
    """

    key: str
    wagers: tuple[str, ...]
    rule_findings: Callable[[Seat, object], list[Finding]]
    side_live: Callable[[Seat, int, object], Decimal]
    settle: Callable[[Seat, Dealer, object, AuditContext | None, list[Settlement]], None] | None = None
    pay_wagers: tuple[str, ...] = ()
    wagers_refused: Callable[[Mapping[str, Decimal]], list[tuple[str, str]]] | None = None
    audit_seat: Callable[..., Decimal] | None = None
    round_facts: Callable[[Dealer, object], object] | None = None
    allowed: frozenset = field(init=False, compare=False, repr=False)  # keys of ``wagers``
    pay_allowed: frozenset = field(init=False, compare=False, repr=False)  # wagers of ``paid``
    pay_bits: dict = field(init=False, compare=False, repr=False)  # see _parse_paid

    def __post_init__(self) -> None:
        if (self.settle is None) == (self.audit_seat is None):
            raise TypeError(f"{self.key}: a GameSpec settles its side wagers through settle or audit_seat, one of them")
        allowed = frozenset((W21, INSURANCE, *self.wagers))
        object.__setattr__(self, "allowed", allowed)
        object.__setattr__(self, "pay_allowed", allowed | frozenset(self.pay_wagers))
        by_seat = sorted(allowed - {W21} | frozenset(self.pay_wagers))
        bits = {w: i for i, w in enumerate(by_seat)}
        bits[W21] = len(by_seat)  # the first of the 21 bet's bits, one per hand
        object.__setattr__(self, "pay_bits", bits)


class BlackjackCompiled(CompiledRules):
    """A blackjack ruleset compiled once (``base.Compilable``): the figures the hot path
    reads, and every memo made under the ruleset, bounded (``base.remember``).

    The memos: amounts by their JSON text and by int (``money_text``, ``money_int``: two,
    since 10 == 10.0 == True as dict keys and only exact str or int values may be answered
    from a memo; no non-str key equals a str, so a text lookup needs no type check); the
    seats' wagers the parser accepted, by their JSON text, per game (``cache(("accepted
    wagers", game))``: a seat's usual wagers cost one lookup); the 21-bet settlements (``hands21``), the dealer's
    facts (``dealers``, ``dealer_ok``), the settlement texts (``explanations``,
    ``live_texts``) and the game module's own (:meth:`cache`)."""

    __slots__ = ("dealer_ok", "dealers", "direction", "exact", "explanations", "hands21", "live_texts",
                 "money_int", "money_text", "natural_odds", "natural_text", "peeks", "unit")

    def __init__(self, rules) -> None:
        super().__init__(rules)
        self.peeks: bool = rules.dealer_peeks
        self.natural_odds: Decimal = rules.natural_odds
        self.natural_text = odds_text(rules.natural_odds)
        self.unit: Decimal = rules.rounding_unit
        self.direction: str = rules.rounding_direction
        self.exact = rules.rounding_unit == CENT  # 1:1 and whole-number pays need no rounding
        self.money_text: dict[str, Decimal] = {}
        self.money_int: dict[int, Decimal] = {}
        self.hands21: dict[tuple, tuple] = {}
        self.dealers: dict[tuple[int, ...], tuple] = {}
        self.dealer_ok: dict[tuple, bool] = {}
        self.explanations: dict[tuple, str] = {}
        self.live_texts: dict[Decimal, str] = {}


def compiled(rules) -> BlackjackCompiled:
    """The ruleset's :class:`BlackjackCompiled`, made on first use and kept by the ruleset."""
    return compiled_for(rules, BlackjackCompiled)


def _money(value: object, c: BlackjackCompiled) -> Decimal:
    """``to_money`` with the ruleset's bounded memos for the common amounts; raises MoneyError."""
    t = type(value)
    memo = c.money_text if t is str else c.money_int if t is int else None
    if memo is None:
        return to_money(value)
    got = memo.get(value)  # type: ignore[arg-type]
    return got if got is not None else remember(memo, value, to_money(value))


_CARD_OF = CARD_OF_TEXT
_tuple_new = tuple.__new__  # a NamedTuple without its Python-level __new__


def make_round(game: str, dealer: tuple, seats: tuple) -> Round:
    """``Round(game, dealer, seats)`` built field by field (``base.made``)."""
    return made(Round, _ROUND_FIELDS, (game, dealer, seats))


_ROUND_FIELDS = ("game", "dealer", "seats")


# --------------------------------------------------------------------------------------
# Parsing: one parser
#
# Nearly every round the tablet sends is well formed, and reading it is most of the cost of an
# audit. So the first test of each field is the cheap one a well-formed round passes (an exact
# type, a lookup in a memo or in the card map, a typed walk of the hand), and only when it fails
# does that field's error branch run, formatting the paths and naming every problem. Paths are
# passed as parts and written out only for an error. Poker or Bust's parser is built the same way.


def _check_keys(obj: Mapping, allowed: frozenset, path: str, errors: Errors) -> None:
    for k in obj:
        if k not in allowed:
            errors.add(
                f"{path}.{k}" if path else str(k),
                f"unknown field; expected one of {', '.join(sorted(allowed))}",
            )


def _path(path: str | tuple) -> str:
    """Paths are built only when there is an error: ``(seat index, hand index, suffix)`` -> text."""
    if type(path) is tuple:
        return f"{_hand_path(path[0], path[1])}{path[2]}"
    return path


def _hand_path(si: int, i: int) -> str:
    return f"seats[{si}].hands[{i}]"


def _cards(value: object, path: str | tuple, errors: Errors, minimum: int) -> tuple[int, ...] | None:
    """Card texts -> ints; None after naming each card that is not one."""
    if type(value) is list and len(value) >= minimum:
        try:
            return tuple([_CARD_OF[t] for t in value])
        except (KeyError, TypeError):  # not a card's exact text (or not hashable): read below
            pass
    if not isinstance(value, (list, tuple)):
        errors.add(_path(path), 'must be a list of cards such as ["AS", "TD"]')
        return None
    cards = []
    for i, text in enumerate(value):
        try:
            cards.append(parse_card(text))
        except ValueError as exc:
            errors.add(f"{_path(path)}[{i}]", str(exc))
    if len(cards) != len(value):
        return None
    if len(cards) < minimum:
        errors.add(_path(path), f"needs at least {minimum} cards, got {len(cards)}")
        return None
    return tuple(cards)


def _actions(raw: object, path: tuple, errors: Errors) -> tuple[str, ...] | None:
    if raw is None:
        return ()
    if type(raw) is list:
        try:
            if _ACTION_SET.issuperset(raw):
                return tuple(raw)
        except TypeError:  # an unhashable item: named below
            pass
    if not isinstance(raw, (list, tuple)):
        errors.add(_path(path), 'must be a list such as ["hit", "stand"]')
        return None
    for k, a in enumerate(raw):
        if not isinstance(a, str) or a not in _ACTION_SET:
            errors.add(f"{_path(path)}[{k}]", f"{a!r} is not one of {', '.join(ACTIONS)}")
    return None


def _play_hand(
    cards: tuple,
    actions: tuple,
    splits: int,
    split_seat: bool,
    no_hit_split_aces: bool,
    si: int,
    hi: int,
    errors: Errors,
) -> Hand | None:
    """The walk of one hand's actions after its splits, card by card: a Hand, or None after
    naming the first action or card that cannot have happened."""
    points_of = BJ_POINTS
    p = points_of[cards[0]]
    points = p
    ace = p == 1
    p = points_of[cards[1]]
    points += p
    ace = ace or p == 1
    natural = not split_seat and ace and points == 11
    doubled = stood = False
    drawn = 2
    n_cards = len(cards)
    for j in range(splits, len(actions)):
        a = actions[j]
        if a == STAND and not (stood or doubled):
            stood = True
            continue
        if a == SPLIT or stood or doubled or natural or points > 21 or no_hit_split_aces or drawn >= n_cards or (
            a == DOUBLE and drawn != 2
        ):
            _action_refused(a, j, drawn, n_cards, stood or doubled, natural, points, no_hit_split_aces, si, hi,
                            errors)
            return None
        if a == DOUBLE:
            doubled = True
        p = points_of[cards[drawn]]
        points += p
        ace = ace or p == 1
        drawn += 1
    if drawn < n_cards:
        errors.add(f"{_hand_path(si, hi)}.cards[{drawn}]", "card with no hit or double for it in actions")
        return None
    total, soft = soft_total(points, ace)
    return _tuple_new(Hand, (cards, actions, total, soft, total > 21, natural, doubled, splits))


def _action_refused(a: str, j: int, drawn: int, n_cards: int, done: bool, natural: bool, points: int,
                    no_hit_split_aces: bool, si: int, hi: int, errors: Errors) -> None:
    """Why :func:`_play_hand` stopped at ``actions[j]``: the first reason, in the order of play."""
    hpath = _hand_path(si, hi)
    apath = f"{hpath}.actions[{j}]"
    if a == SPLIT:
        errors.add(apath, "a split comes before any other action of the hand")
    elif done:
        errors.add(apath, "no action may follow a stand or a double (one card only)")
    elif a == DOUBLE and drawn != 2:
        errors.add(apath, "a double is made on the first two cards only")
    elif natural:
        errors.add(apath, "a natural is paid at once and takes no more cards")
    else:
        where = f"{hpath}.cards[{drawn}]" if drawn < n_cards else apath
        if points > 21:
            errors.add(where, "card drawn after the hand busted")
        elif no_hit_split_aces:
            errors.add(where, "card drawn to a split Ace after it took its one card")
        else:
            errors.add(apath, f"{a} but the hand has no card for it")


def _read_hand(rh: object, si: int, i: int, errors: Errors, shoe: list) -> tuple[tuple, tuple] | None:
    """One hand's (cards, actions), its cards added to ``shoe`` (the round's card lists, for
    its count)."""
    card_of = _CARD_OF
    if type(rh) is dict and len(rh) == 2:  # the tablet's form: exact texts, known actions
        hand_raw = rh
        raw_cards, raw_actions = hand_raw.get("cards"), hand_raw.get("actions")
        if type(raw_cards) is list and len(raw_cards) >= 2 and type(raw_actions) is list:
            try:
                cards = tuple([card_of[t] for t in raw_cards])
                if _ACTION_SET.issuperset(raw_actions):
                    shoe.append(cards)
                    return cards, tuple(raw_actions)
            except (KeyError, TypeError):  # something to name: read below, field by field
                pass
    if type(rh) is not dict and not isinstance(rh, Mapping):
        errors.add(_hand_path(si, i), "must be an object with cards and actions")
        return None
    if not rh.keys() <= _HAND_KEYS:
        _check_keys(rh, _HAND_KEYS, _hand_path(si, i), errors)
    cards = _cards(rh.get("cards"), (si, i, ".cards"), errors, 2)
    actions = _actions(rh.get("actions"), (si, i, ".actions"), errors)
    if cards is None:
        return None
    shoe.append(cards)
    return None if actions is None else (cards, actions)


def _parse_hands(
    raw_hands: object, si: int, errors: Errors, rules, shoe: list
) -> tuple[tuple[Hand, ...], tuple[int, int], bool] | None:
    """Hands of one seat, with the split protocol checked: (hands, first_two, unequal_tens)."""
    if type(raw_hands) is not list or not raw_hands:
        errors.add(f"seats[{si}].hands", "must be a non-empty list of hands")
        return None
    items = errors.items
    before = len(items)
    if len(raw_hands) == 1:  # the usual seat: one hand; with no split, nothing of the protocol to check
        read = _read_hand(raw_hands[0], si, 0, errors, shoe)
        if read is None or len(items) != before:
            return None
        cards, actions = read
        if not actions or actions[0] != SPLIT:
            hand = _play_hand(cards, actions, 0, False, False, si, 0, errors)
            return None if hand is None else ((hand,), cards[:2], False)
        parsed = [read]
    else:
        parsed = [_read_hand(rh, si, i, errors, shoe) for i, rh in enumerate(raw_hands)]
        if len(items) != before:
            return None
    n = len(parsed)
    hands: list[Hand] = []
    next_child = 1
    unequal_tens = False
    split_seat = n > 1
    no_hit_split_aces = split_seat and RANK[parsed[0][0][0]] == ACE and not rules.hit_split_aces
    for i, (cards, actions) in enumerate(parsed):
        if i and i >= next_child:
            errors.add(_hand_path(si, i), "no split made this hand (each split adds one hand at the end)")
            continue
        splits = 0
        while splits < len(actions) and actions[splits] == SPLIT:
            child = next_child
            next_child += 1
            if child >= n:
                errors.add(f"{_hand_path(si, i)}.actions[{splits}]", "split, but the hand it made is missing from hands")
            else:
                a, b = cards[0], parsed[child][0][0]
                if BJ_POINTS[a] != BJ_POINTS[b]:
                    errors.add(f"{_hand_path(si, i)}.actions[{splits}]", f"split of unequal cards {TEXT[a]} and {TEXT[b]}")
                elif RANK[a] != RANK[b]:
                    unequal_tens = True
            splits += 1
        hand = _play_hand(cards, actions, splits, split_seat, no_hit_split_aces, si, i, errors)
        if hand is not None:
            hands.append(hand)
    if len(items) == before and next_child != n:
        errors.add(f"seats[{si}].hands", f"{n} hands but the splits made {next_child}")
    if len(items) != before:
        return None
    c0 = parsed[0][0]
    second = parsed[1][0][0] if hands[0].splits else c0[1]
    return tuple(hands), (c0[0], second), unequal_tens


def _parse_wagers(raw: object, si: int, spec: GameSpec, errors: Errors, c: BlackjackCompiled,
                  accepted: dict) -> Mapping[str, Decimal]:
    """A seat's wagers (not in ``accepted``): every known key a positive amount, a 21 bet,
    and the game's own rules on its wagers (``spec.wagers_refused``). Accepted wagers given
    as text are remembered in ``accepted``."""
    wagers: dict[str, Decimal] = {}
    if type(raw) is not dict and not isinstance(raw, Mapping):
        errors.add(f"seats[{si}].wagers", 'must be an object such as {"21": "10.00"}')
        return wagers
    allowed = spec.allowed
    before = len(errors.items)
    all_text = True
    for key, value in raw.items():
        if key not in allowed:
            errors.add(f"seats[{si}].wagers.{key}", f"unknown wager; expected one of {', '.join(sorted(allowed))}")
            continue
        all_text = all_text and type(value) is str
        try:
            amount = _money(value, c)
        except MoneyError as exc:
            errors.add(f"seats[{si}].wagers.{key}", str(exc))
            continue
        if amount <= 0:
            errors.add(f"seats[{si}].wagers.{key}", f"must be more than 0, got {money_text(amount)}")
            continue
        wagers[key] = amount
    if W21 not in raw:
        errors.add(f"seats[{si}].wagers.21", "the 21 bet is required")
    if spec.wagers_refused is not None and len(errors.items) == before:
        for key, message in spec.wagers_refused(wagers):
            errors.add(f"seats[{si}].wagers.{key}", message)
    proxy = MappingProxyType(wagers)
    if all_text and len(errors.items) == before:  # a read-only view of a dict nobody else holds
        remember(accepted, tuple(raw.items()), proxy)
    return proxy


def _parse_paid(
    raw: object, si: int, n_hands: int, spec: GameSpec, errors: Errors, c: BlackjackCompiled
) -> tuple[tuple[str, int | None, Decimal], ...]:
    """A seat's recorded pays: each wager once (the 21 bet once per hand, with its index).
    Wagers are told apart by bits of one int: ``spec.pay_bits`` numbers those paid without a
    hand, and the 21 bet's hands take the bits after them."""
    if type(raw) is not list and not isinstance(raw, (list, tuple)):
        errors.add(f"seats[{si}].paid", "must be a list of recorded pays")
        return ()
    paid: list[tuple[str, int | None, Decimal]] = []
    seen = 0
    one = 1
    beyond: set[tuple[str, int]] | None = None
    pay_bits = spec.pay_bits
    money_memo = c.money_text
    pj = 0
    for item in raw:
        if type(item) is not dict:
            if not isinstance(item, Mapping):
                errors.add(f"seats[{si}].paid[{pj}]", "must be an object with wager, hand and net")
                pj += 1
                continue
            item = dict(item)  # read as the dict JSON gives
        p = item
        wager = p.get("wager")
        hand = p.get("hand")
        net_raw = p.get("net")
        # "wager" and "net" there, "hand" there or not: no other key can be.
        if wager is None or net_raw is None or len(p) != (2 if hand is None else 3):
            _check_keys(p, _PAID_KEYS, f"seats[{si}].paid[{pj}]", errors)
        first_bit = pay_bits.get(wager) if type(wager) is str else None
        if first_bit is None or (hand is not None) is (wager != W21) or (hand is not None and not (
            type(hand) is int and 0 <= hand < n_hands
        )):
            _pay_refused(wager, hand, si, pj, n_hands, spec, errors)
            pj += 1
            continue
        bit = first_bit if hand is None else first_bit + hand
        if bit < 64 and (seen >> bit) & 1 or bit >= 64 and beyond is not None and (wager, hand) in beyond:
            errors.add(f"seats[{si}].paid[{pj}]", f"{wager} is recorded twice")
            pj += 1
            continue
        if bit < 64:
            seen |= one << bit
        else:  # a seat of more hands than a shoe can deal: not worth a bit
            beyond = beyond or set()
            beyond.add((wager, hand))
        net = money_memo.get(net_raw) if type(net_raw) is str else None
        if net is None:
            try:
                net = _money(net_raw, c)
            except MoneyError as exc:
                errors.add(f"seats[{si}].paid[{pj}].net", str(exc))
                pj += 1
                continue
        paid.append((wager, hand, net))
        pj += 1
    return tuple(paid)


def _pay_refused(wager: object, hand: object, si: int, pj: int, n_hands: int, spec: GameSpec, errors: Errors) -> None:
    """Why a recorded pay's wager or hand was refused."""
    if type(wager) is not str or wager not in spec.pay_allowed:
        errors.add(f"seats[{si}].paid[{pj}].wager", f"unknown wager; expected one of {', '.join(sorted(spec.pay_allowed))}")
    elif wager == W21:
        errors.add(f"seats[{si}].paid[{pj}].hand", "the 21 wager needs the index of one of the seat's hands")
    else:
        errors.add(f"seats[{si}].paid[{pj}].hand", f"only the 21 wager is paid per hand, not {wager}")


def _parse_seat(data: object, si: int, rules, spec: GameSpec, errors: Errors, used: dict[int, int],
                shoe: list, c: BlackjackCompiled, accepted: dict) -> Seat | None:
    """One seat; every impossible field named in ``errors`` (None then)."""
    if type(data) is not dict:
        if not isinstance(data, Mapping):
            errors.add(f"seats[{si}]", "must be an object")
            return None
        data = dict(data)  # read as the dict JSON gives
    raw = data
    number = raw.get("seat")
    player = raw.get("player")
    wraw = raw.get("wagers")
    even_money = raw.get("even_money", False)
    hands_raw = raw.get("hands")
    praw = raw.get("paid")
    # As many keys as fields read: no other key can be there.
    known = (number is not None) + (player is not None) + (wraw is not None) + (even_money is not False)
    if len(raw) != known + (hands_raw is not None) + (praw is not None):
        _check_keys(raw, _SEAT_KEYS, f"seats[{si}]", errors)
    items = errors.items
    before = len(items)
    take_seat(raw, si, MAX_SEAT_NUMBER, used, errors)
    if player is not None and type(player) is not str:
        errors.add(f"seats[{si}].player", "must be text")
    wagers = None
    if type(wraw) is dict:
        try:  # noqa: SIM105 - suppress() would cost a context manager per seat
            wagers = accepted.get(tuple(wraw.items()))
        except TypeError:  # an unhashable amount: refused below
            pass
    if wagers is None:
        wagers = _parse_wagers(wraw, si, spec, errors, c, accepted)
    if type(even_money) is not bool:
        errors.add(f"seats[{si}].even_money", "must be true or false")
        even_money = False
    parsed_hands = _parse_hands(hands_raw, si, errors, rules, shoe)
    if even_money:
        if INSURANCE in wagers:
            errors.add(f"seats[{si}].even_money", "even money and insurance cannot both be taken")
        if parsed_hands is not None and not parsed_hands[0][0].natural:
            errors.add(f"seats[{si}].even_money", "even money is offered only on a natural")
    n_hands = len(parsed_hands[0]) if parsed_hands is not None else 1
    paid = () if praw is None else _parse_paid(praw, si, n_hands, spec, errors, c)
    if len(items) != before or parsed_hands is None:
        return None
    hands, first_two, unequal = parsed_hands
    return _tuple_new(Seat, (number, player, wagers, even_money, hands, paid, first_two, si, unequal))


def _located(dealer: tuple[int, ...] | None, seats_raw: object) -> list[tuple[str, tuple[int, ...]]]:
    """The round's card lists with their paths, as :func:`parse_round` counted them (read
    again only when the count found too many copies of a card)."""
    located = [] if dealer is None else [("dealer.cards", dealer)]
    for si, raw in enumerate(seats_raw if type(seats_raw) is list else ()):
        hands = raw.get("hands") if isinstance(raw, Mapping) else None
        for i, rh in enumerate(hands if type(hands) is list else ()):
            counted: list[tuple[int, ...]] = []
            _read_hand(rh, si, i, Errors(), counted)
            located += [(f"{_hand_path(si, i)}.cards", cards) for cards in counted]
    return located


def parse_round(data: object, rules, spec: GameSpec) -> Round:
    """JSON form -> :class:`Round`; raises :class:`InvalidInput` naming every impossible field."""
    errors = Errors()
    if type(data) is not dict and not isinstance(data, Mapping):
        errors.add("", "a round must be an object with dealer and seats")
        errors.raise_if_any()
    if not data.keys() <= _TOP_KEYS:
        _check_keys(data, _TOP_KEYS, "", errors)
    game = data.get("game", spec.key)
    if game != spec.key:
        errors.add("game", f"{game!r} is not {spec.key!r}")
    dealer_raw = data.get("dealer")
    dealer: tuple[int, ...] | None = None
    if type(dealer_raw) is not dict and not isinstance(dealer_raw, Mapping):
        errors.add("dealer", "must be an object with the dealer's cards")
    else:
        if not dealer_raw.keys() <= _DEALER_KEYS:
            _check_keys(dealer_raw, _DEALER_KEYS, "dealer", errors)
        dealer = _cards(dealer_raw.get("cards"), "dealer.cards", errors, 2)
        # No card after the dealer busted: points only grow, so the sum before the last card.
        if dealer is not None and len(dealer) > 2 and sum(map(BJ_POINTS.__getitem__, dealer[:-1])) > 21:
            points = 0
            for k, c in enumerate(dealer[:-1]):
                points += BJ_POINTS[c]
                if points > 21:
                    errors.add(f"dealer.cards[{k + 1}]", "card drawn after the dealer busted")
                    break
    seats_raw = data.get("seats")
    seats: list[Seat] = []
    shoe: list[tuple[int, ...]] = [] if dealer is None else [dealer]
    if type(seats_raw) is not list or not seats_raw:
        errors.add("seats", "must be a non-empty list of seats")
    else:
        used: dict[int, int] = {}
        c = compiled(rules)
        accepted = c.cache(("accepted wagers", spec.key))
        for si, raw in enumerate(seats_raw):
            seat = _parse_seat(raw, si, rules, spec, errors, used, shoe, c, accepted)
            if seat is not None:
                seats.append(seat)
    if too_many_copies(shoe, rules.decks):
        copies_refused(_located(dealer, seats_raw), rules.decks, errors)
    errors.raise_if_any()
    return make_round(spec.key, dealer, tuple(seats))


_PAY_PATHS = tuple(tuple(f"seats[{i}].paid[{j}]" for j in range(16)) for i in range(16))


def _new_recorded_pay(
    number: int, wager: str, net: Decimal, hand: int | None, si: int, pj: int
) -> RecordedPay:
    """``RecordedPay(number, wager, net, hand, "seats[si].paid[pj]")`` built field by field
    (``base.made``)."""
    path = _PAY_PATHS[si][pj] if si < 16 and pj < 16 else f"seats[{si}].paid[{pj}]"
    return made(RecordedPay, _PAY_FIELDS, (number, wager, net, hand, path))


_PAY_FIELDS = ("seat", "wager", "net", "hand", "path")


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


