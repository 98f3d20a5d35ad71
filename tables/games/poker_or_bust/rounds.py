"""Poker or Bust's round: its JSON form, the parsed model, the one parser and the way back.

JSON form of a round (what the pit boss's tablet sends; ``round_to_dict`` gives it back)::

    {
      "dealer": {"cards": ["KS", "7H", "5D", "9C"]},
      "seats": [
        {"seat": 1, "player": "P-1001",
         "wagers": {"ante": "10.00", "odds": "10.00"},
         "cards": ["9S", "9H", "4C", "2D"],
         "paid": [{"wager": "ante", "net": "10.00"}, {"wager": "odds", "net": "-10.00"}]},
        {"seat": 4,
         "wagers": {"ante": "25.00", "odds": "25.00"},
         "cards": ["QD", "QC", "3S", "TH"],
         "paid": [{"wager": "ante", "net": "-25.00"}, {"wager": "odds", "net": "-25.00"}]}
      ]
    }

Here the dealer drew the 9C on 22 and stood on 31 with King high (K-9-7); seat 1's
pair of 9s wins the Ante and loses the Odds (below Jacks); seat 4 drew the TH on 23 and
busted with 33, losing both.

* ``dealer.cards``: up card, hole card, then the draws in order (at least two cards);
* ``seats``: 1 to 7 objects; ``seat`` is the table position 1..7, each used once;
  ``player`` an optional identifier; ``cards`` the player's cards in deal order (the
  first three are the deal, then the draws); ``wagers`` holds ``ante`` and ``odds``
  (amounts as strings such as ``"10.00"`` or ints; floats refused; more than 0);
* ``paid`` (optional): what the dealer did with each wager, as the player's net
  beyond the returned stake (win 1 to 1 on 10 -> ``"10.00"``, loss -> ``"-10.00"``,
  push -> ``"0.00"``). Poker or Bust has one hand per seat, so ``"hand"`` is left out
  (``null`` or ``0`` are accepted and mean the same).

:func:`parse_round` refuses only what cannot be stored (:class:`~.base.InvalidInput` naming
every field); what happened at the table but broke a rule is parsed and found by the audit
(:mod:`.game`).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import NamedTuple

from ..settings.rulesets import PokerOrBustRules
from ..vocabulary.base import (
    CompiledRules,
    Errors,
    RecordedPay,
    compiled_for,
    copies_refused,
    parse_money,
    remember,
    take_seat,
)
from ..vocabulary.cards import CARD_OF_TEXT, TEXT, CardError, parse_card, too_many_copies
from ..vocabulary.catalogue import ANTE, ODDS
from ..vocabulary.money import money_text

WAGERS = (ANTE, ODDS)
WAGER_NAMES = {ANTE: "Ante", ODDS: "Odds"}

MAX_SEATS = 7
PLAYER_CARDS = 3  # every player is dealt three cards
DEALER_DEAL = 2  # up card and hole card, before the players act


# --- the round ----------------------------------------------------------------------------


class SeatHand(NamedTuple):
    """One seat as recorded. ``index`` is its position in the JSON list (for paths).

    ``paid`` holds ``(wager, net)`` pairs in recorded order (:func:`recorded_pays` turns
    them into :class:`~tables.games.vocabulary.base.RecordedPay`). A NamedTuple, not a dataclass:
    it is built seven times a round on the hot path and is a quarter of the cost.
    """

    seat: int
    player: str | None
    ante: Decimal | None
    odds: Decimal | None
    cards: tuple[int, ...]
    paid: tuple[tuple[str, Decimal], ...]
    index: int


class Round(NamedTuple):
    dealer_cards: tuple[int, ...]
    seats: tuple[SeatHand, ...]


def recorded_pays(rnd: Round) -> list[RecordedPay]:
    """Every recorded pay of the round, with its path, for :func:`~tables.games.vocabulary.base.compare_recorded`."""
    return [
        RecordedPay(seat=s.seat, wager=w, net=net, hand=None, path=f"seats[{s.index}].paid[{j}]")
        for s in rnd.seats
        for j, (w, net) in enumerate(s.paid)
    ]


# --- parsing ------------------------------------------------------------------------------

_CARD_BY_TEXT = CARD_OF_TEXT
_ROUND_KEYS = frozenset({"dealer", "seats"})
_DEALER_KEYS = frozenset({"cards"})
_SEAT_KEYS = frozenset({"seat", "player", "wagers", "cards", "paid"})
_PAID_KEYS = frozenset({"wager", "net", "hand"})


_CARD = _CARD_BY_TEXT.__getitem__
_new_tuple = tuple.__new__  # a NamedTuple without its Python-level __new__


class PokerOrBustCompiled(CompiledRules):
    """A Poker or Bust ruleset compiled once (``base.Compilable``), with its memos.

    The parser's are filled only with what it accepted: a table sees the same few amounts,
    card texts and pays all day, so a well-formed seat costs a type test and a lookup per
    field, and the field's error branch (which formats the paths) runs only when one fails:
    ``money`` (amount text -> Decimal), ``positive`` (wager text -> Decimal, amounts above
    0), ``pairs`` ((wager, net text) -> recorded pay). The audit's: ``lines`` (the Odds line
    and pay per category on this ruleset's table), ``described`` (hand value -> words),
    ``pays`` ((stake, odds) -> net), ``odds_settled`` (Odds settlements) and ``odds_words``.
    Each is bounded (``base.remember``)."""

    __slots__ = ("described", "lines", "money", "odds_settled", "odds_words", "pairs", "pays", "positive")

    def __init__(self, rules) -> None:
        super().__init__(rules)
        self.money: dict[str, Decimal] = {}
        self.positive: dict[str, Decimal] = {}
        self.pairs: dict[tuple[str, str], tuple[str, Decimal]] = {}
        self.lines: tuple | None = None  # set by the audit: poker_or_bust.odds_lines
        self.described: dict[int, str] = {}
        self.pays: dict[tuple, Decimal] = {}
        self.odds_settled: dict[tuple, object] = {}
        self.odds_words: dict[Decimal, str] = {}


def compiled(rules) -> PokerOrBustCompiled:
    """The ruleset's :class:`PokerOrBustCompiled`, made on first use and kept by the ruleset."""
    return compiled_for(rules, PokerOrBustCompiled)


def _money(value: object, path: str, errors: Errors, c: PokerOrBustCompiled, *, positive: bool) -> Decimal | None:
    """:func:`~.base.parse_money` (negative nets allowed), remembered per amount text."""
    memo = c.money
    amount = memo.get(value) if type(value) is str else None
    if amount is None or (positive and amount <= 0):
        amount = parse_money(value, path, errors, positive=positive, allow_negative=True)
        if amount is None:
            return None
        if type(value) is str:
            remember(memo, value, amount)
    if positive and type(value) is str:
        remember(c.positive, value, amount)
    return amount


def _cards(value: object, path: str, errors: Errors, at_least: int, who: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        errors.add(path, 'must be a list of cards such as ["AS", "TD"]')
        return ()
    out: list[int] = []
    get = _CARD_BY_TEXT.get
    for i, text in enumerate(value):
        card = get(text) if type(text) is str else None
        if card is None:
            try:
                card = parse_card(text)
            except CardError as exc:
                errors.add(f"{path}[{i}]", str(exc))
                continue
        out.append(card)
    if len(value) < at_least:
        errors.add(path, f"{who} must hold at least {at_least} cards, got {len(value)}")
    return tuple(out)


def _unknown_keys(data: Mapping, allowed: frozenset, path: str, errors: Errors) -> None:
    for key in data:
        if key not in allowed:
            where = f"{path}.{key}" if path else str(key)
            errors.add(where, f"unknown field; expected one of {', '.join(sorted(allowed))}")


def _paid_item(item: object, p: str, errors: Errors, seen: set[str], c: PokerOrBustCompiled) -> tuple[str, Decimal] | None:
    """One recorded pay, every problem named; an accepted ``{"wager": .., "net": "<text>"}`` is
    remembered for :func:`_parse_paid`'s lookup."""
    if not isinstance(item, Mapping):
        errors.add(p, 'must be an object with "wager" and "net"')
        return None
    if len(item) > 2 or "wager" not in item or "net" not in item:
        _unknown_keys(item, _PAID_KEYS, p, errors)
    wager = item.get("wager")
    if wager not in WAGERS:
        errors.add(f"{p}.wager", f'{wager!r} is not a Poker or Bust wager; expected "ante" or "odds"')
        wager = None
    elif wager in seen:
        errors.add(f"{p}.wager", f"the {WAGER_NAMES[wager]} pay is recorded twice")
        wager = None
    else:
        # the module's own wager string: the audit's comparison of pays then matches it by identity
        wager = ANTE if wager == ANTE else ODDS
        seen.add(wager)
    hand = item.get("hand")
    if hand is not None and (type(hand) is not int or hand != 0):
        errors.add(f"{p}.hand", 'Poker or Bust has one hand per seat: leave "hand" out (or 0)')
    if "net" not in item:
        errors.add(f"{p}.net", "is missing")
        return None
    raw = item["net"]
    net = _money(raw, f"{p}.net", errors, c, positive=False)
    if wager is None or net is None:
        return None
    if type(item) is dict and len(item) == 2 and type(raw) is str:
        remember(c.pairs, (wager, raw), (wager, net))
    return wager, net


def _parse_paid(value: object, i: int, errors: Errors, c: PokerOrBustCompiled) -> tuple[tuple[str, Decimal], ...]:
    if type(value) is not list:
        errors.add(f"seats[{i}].paid", 'must be a list of {"wager": ..., "net": ...} objects')
        return ()
    out: list[tuple[str, Decimal]] = []
    seen: set[str] = set()
    pairs = c.pairs
    for j, item in enumerate(value):
        pair = None
        if type(item) is dict and len(item) == 2:
            wager, net = item.get("wager"), item.get("net")
            if type(wager) is str and type(net) is str:
                pair = pairs.get((wager, net))
        if pair is not None and pair[0] not in seen:
            seen.add(pair[0])
        else:
            pair = _paid_item(item, f"seats[{i}].paid[{j}]", errors, seen, c)
        if pair is not None:
            out.append(pair)
    return tuple(out)


def _parse_wagers(wagers: object, i: int, errors: Errors, c: PokerOrBustCompiled) -> tuple[Decimal | None, Decimal | None]:
    path = f"seats[{i}].wagers"
    if not isinstance(wagers, Mapping):
        errors.add(path, 'must be an object such as {"ante": "10.00", "odds": "10.00"}')
        return None, None
    for key in wagers:
        if key not in WAGERS:
            errors.add(f"{path}.{key}", 'unknown wager; Poker or Bust has "ante" and "odds"')
    ante = _money(wagers[ANTE], f"{path}.ante", errors, c, positive=True) if ANTE in wagers else None
    odds = _money(wagers[ODDS], f"{path}.odds", errors, c, positive=True) if ODDS in wagers else None
    if ANTE not in wagers and ODDS not in wagers:
        errors.add(path, "a seat in the round must have an Ante and an Odds wager")
    return ante, odds


def _parse_seat(data: object, i: int, errors: Errors, used: dict[int, int], c: PokerOrBustCompiled) -> SeatHand | None:
    """One seat of the round; every impossible field is named in ``errors``. The first test of
    each field is the cheap one a well-formed seat passes (an exact type, a memo lookup)."""
    if type(data) is not dict and not isinstance(data, Mapping):
        errors.add(f"seats[{i}]", "must be an object")
        return None
    if len(data) > 5 or not data.keys() <= _SEAT_KEYS:
        _unknown_keys(data, _SEAT_KEYS, f"seats[{i}]", errors)
    seat = data.get("seat")
    if not take_seat(data, i, MAX_SEATS, used, errors) and not (type(seat) is int and seat in used):
        seat = None  # read on only as a seat already used, to name the seat's other errors
    player = data.get("player")
    if player is not None and (not isinstance(player, str) or not player.strip()):
        errors.add(f"seats[{i}].player", "must be a non-empty text identifier")
        player = None
    wagers = data.get("wagers")
    ante = odds = None
    if type(wagers) is dict and len(wagers) == 2:
        a, o = wagers.get(ANTE), wagers.get(ODDS)
        if type(a) is str and type(o) is str:
            positive = c.positive
            ante, odds = positive.get(a), positive.get(o)
    if ante is None or odds is None:
        ante, odds = _parse_wagers(wagers, i, errors, c)
    raw = data.get("cards")
    cards = None
    if type(raw) is list and len(raw) >= PLAYER_CARDS:
        try:
            cards = tuple([_CARD(text) for text in raw])
        except (KeyError, TypeError):  # not a card's text (or not hashable): named below
            cards = None
    if cards is None:
        if "cards" in data:
            cards = _cards(raw, f"seats[{i}].cards", errors, PLAYER_CARDS, "a player")
        else:
            errors.add(f"seats[{i}].cards", "is missing")
            cards = ()
    paid_raw = data.get("paid")
    paid = () if paid_raw is None else _parse_paid(paid_raw, i, errors, c)
    if seat is None:
        return None
    return _new_tuple(SeatHand, (seat, player, ante, odds, cards, paid, i))


def parse_round(data: Mapping, rules: PokerOrBustRules) -> Round:
    """JSON form -> :class:`Round`; raises InvalidInput naming every impossible field."""
    errors = Errors()
    if type(data) is not dict and not isinstance(data, Mapping):
        errors.add("", 'a round must be an object with "dealer" and "seats"')
        errors.raise_if_any()
    if len(data) != 2 or not data.keys() <= _ROUND_KEYS:
        _unknown_keys(data, _ROUND_KEYS, "", errors)
    dealer = data.get("dealer")
    dealer_cards: tuple[int, ...] = ()
    if type(dealer) is not dict and not isinstance(dealer, Mapping):
        errors.add("dealer", 'must be an object such as {"cards": ["KS", "7H", "5D", "9C"]}')
    else:
        if len(dealer) != 1:
            _unknown_keys(dealer, _DEALER_KEYS, "dealer", errors)
        if "cards" not in dealer:
            errors.add("dealer.cards", "is missing")
        else:
            dealer_cards = _cards(
                dealer["cards"], "dealer.cards", errors, DEALER_DEAL, "the dealer"
            )
    raw_seats = data.get("seats")
    seats: list[SeatHand] = []
    if type(raw_seats) is not list:
        errors.add("seats", "must be a list of seat objects")
    elif not raw_seats:
        errors.add("seats", "a round needs at least one seat")
    elif len(raw_seats) > MAX_SEATS:
        errors.add("seats", f"a Poker or Bust table has {MAX_SEATS} seats, got {len(raw_seats)}")
    else:
        used: dict[int, int] = {}
        c = compiled(rules)
        for i, raw in enumerate(raw_seats):
            s = _parse_seat(raw, i, errors, used, c)
            if s is not None:
                seats.append(s)
    if too_many_copies([dealer_cards, *[s.cards for s in seats]], rules.decks):
        copies_refused([("dealer.cards", dealer_cards)] + [(f"seats[{s.index}].cards", s.cards) for s in seats],
                       rules.decks, errors)
    errors.raise_if_any()
    return _new_tuple(Round, (dealer_cards, tuple(seats)))


def round_to_dict(rnd: Round) -> dict:
    """The canonical JSON form; ``parse_round`` round-trips it."""
    seats = []
    for s in rnd.seats:
        wagers = {}
        if s.ante is not None:
            wagers[ANTE] = money_text(s.ante)
        if s.odds is not None:
            wagers[ODDS] = money_text(s.odds)
        item: dict = {"seat": s.seat}
        if s.player is not None:
            item["player"] = s.player
        item["wagers"] = wagers
        item["cards"] = [TEXT[c] for c in s.cards]
        if s.paid:
            item["paid"] = [{"wager": w, "net": money_text(net)} for w, net in s.paid]
        seats.append(item)
    return {"dealer": {"cards": [TEXT[c] for c in rnd.dealer_cards]}, "seats": seats}
