"""Poker or Bust rounds as a table deals them, for tests, benchmarks and the demo floor: a
shoe drawn without replacement, players and dealer playing by the rules of
:mod:`tables.games.poker_or_bust.game`, the correct pays recorded, and dealer errors injected on
request. Registered in :data:`~.base.SIMULATORS` when imported; the game never imports it."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..settings.rulesets import PokerOrBustRules
from ..vocabulary import catalogue
from ..vocabulary.base import SIMULATORS
from ..vocabulary.cards import TEXT
from ..vocabulary.money import money_text, to_money
from . import three_card_poker as tcp
from .game import (
    BUST_ABOVE,
    DEALER_STANDS_FROM,
    MAX_SEATS,
    audit,
    parse_round,
    points,
    reference_player_draws,
)

#: Dealer errors the simulator can inject, with the finding code each one produces.
INJECT_FINDINGS = {
    "unequal_wagers": catalogue.ANTE_ODDS_UNEQUAL,
    "missing_wager": catalogue.WAGER_MISSING,
    "card_after_bust": catalogue.CARDS_AFTER_BUST,
    "dealer_stood_short": catalogue.DEALER_STOOD_SHORT,
    "dealer_drew_on_stand": catalogue.DEALER_DREW_ON_STANDING_TOTAL,
    "dealer_drew_after_bust": catalogue.DEALER_DREW_AFTER_BUST,
    "dealer_drew_all_bust": catalogue.DEALER_DREW_ALL_BUST,
    "overpay": catalogue.PAY_ABOVE_EXPECTED,
    "underpay": catalogue.PAY_BELOW_EXPECTED,
}
INJECT_KINDS = tuple(INJECT_FINDINGS)
_BET_SIZES = ("5.00", "10.00", "10.00", "25.00", "25.00", "50.00", "100.00")


class _ShoeDraw:
    """Cards drawn without replacement from a freshly shuffled shoe, without building it.

    A uniform pick among the shoe's ``52 * decks`` positions, kept only if that copy of
    the card is still in the shoe, draws each remaining card with the right probability.
    """

    __slots__ = ("decks", "used", "rng")

    def __init__(self, rng: random.Random, decks: int):
        self.rng = rng
        self.decks = decks
        self.used = [0] * 52

    def draw(self) -> int:
        randrange, used, size = self.rng.randrange, self.used, 52 * self.decks
        while True:
            r = randrange(size)
            c = r % 52
            if r // 52 >= used[c]:
                used[c] += 1
                return c

    def put_back(self, cards: Sequence[int]) -> None:
        for c in cards:
            self.used[c] -= 1


def _play_player(shoe: _ShoeDraw, cards: list[int], *, to_bust: bool = False) -> None:
    while True:
        total = points(cards)
        if total > BUST_ABOVE:
            return
        if not to_bust and not reference_player_draws(total, tcp.best_value(cards)):
            return
        cards.append(shoe.draw())


def _play_dealer(shoe: _ShoeDraw, cards: list[int]) -> None:
    cards.append(shoe.draw())
    while points(cards) < DEALER_STANDS_FROM:
        cards.append(shoe.draw())


def simulate_round(
    rng: random.Random, rules: PokerOrBustRules, *, seats: int, inject: frozenset[str] = frozenset()
) -> dict:
    """A realistic round in JSON form, with the correct pays recorded, optionally with errors.

    Players follow :func:`reference_player_draws`. ``inject`` names kinds from
    :data:`INJECT_KINDS`; each produces its finding (see :data:`INJECT_FINDINGS`).
    """
    unknown = set(inject) - set(INJECT_FINDINGS)
    if unknown:
        raise ValueError(f"unknown error kinds: {', '.join(sorted(unknown))}")
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"seats must be 1 to {MAX_SEATS}")
    shoe = _ShoeDraw(rng, rules.decks)
    positions = sorted(rng.sample(range(1, MAX_SEATS + 1), seats))
    hands: list[list[int]] = [[] for _ in positions]
    dealer: list[int] = []
    for _ in range(2):
        for h in hands:
            h.append(shoe.draw())
        dealer.append(shoe.draw())
    for h in hands:
        h.append(shoe.draw())
    all_bust = "dealer_drew_all_bust" in inject
    for k, h in enumerate(hands):
        _play_player(shoe, h, to_bust=all_bust or ("card_after_bust" in inject and k == 0))
    if "card_after_bust" in inject:
        hands[0].append(shoe.draw())
    if not all_bust and all(points(h) > BUST_ABOVE for h in hands):
        # someone must stand for the dealer-procedure injections to mean anything; never the
        # hand that carries an injected card after its bust
        keep = 1 if "card_after_bust" in inject else 0
        if keep < len(hands):
            shoe.put_back(hands[keep][3:])
            del hands[keep][3:]
    someone_stands = any(points(h) <= BUST_ABOVE for h in hands)
    if all_bust:
        dealer.append(shoe.draw())
    elif someone_stands:
        want_bust = "dealer_drew_after_bust" in inject
        want_stand = "dealer_drew_on_stand" in inject
        for _attempt in range(1000):
            _play_dealer(shoe, dealer)
            busted = points(dealer) > BUST_ABOVE
            if not (want_bust and not busted) and not (want_stand and busted):
                break
            shoe.put_back(dealer[2:])
            del dealer[2:]
        if want_bust or want_stand:
            dealer.append(shoe.draw())
        if "dealer_stood_short" in inject:
            # the last card took the dealer to 23 or more: without it the dealer stood short
            shoe.put_back(dealer[-1:])
            dealer.pop()

    seat_dicts = []
    for k, (pos, h) in enumerate(zip(positions, hands, strict=True)):
        bet = rng.choice(_BET_SIZES)
        wagers = {catalogue.ANTE: bet, catalogue.ODDS: bet}
        if k == 0 and "unequal_wagers" in inject:
            wagers[catalogue.ODDS] = money_text(to_money(bet) * 2)
        if k == len(hands) - 1 and "missing_wager" in inject:
            del wagers[catalogue.ODDS]
        item = {"seat": pos, "wagers": wagers, "cards": [TEXT[c] for c in h]}
        if rng.random() < 0.5:
            item["player"] = f"P-{rng.randrange(1000, 10000)}"
        seat_dicts.append(item)
    data = {"dealer": {"cards": [TEXT[c] for c in dealer]}, "seats": seat_dicts}
    result = audit(parse_round(data, rules), rules)
    by_seat: dict[int, list[dict]] = {}
    for st in result.settlements:
        by_seat.setdefault(st.seat, []).append({"wager": st.wager, "net": money_text(st.net)})
    for item in seat_dicts:
        item["paid"] = by_seat.get(item["seat"], [])
    if "overpay" in inject or "underpay" in inject:
        first = seat_dicts[0]["paid"][0]
        stake = to_money(seat_dicts[0]["wagers"][first["wager"]])
        if "overpay" in inject:
            first["net"] = money_text(to_money(first["net"]) + stake)
        if "underpay" in inject:
            target = seat_dicts[-1]["paid"][-1]
            target["net"] = money_text(to_money(target["net"]) - stake)
    return data


SIMULATORS[catalogue.POKER_OR_BUST] = simulate_round
