"""Realistic random rounds of the three blackjack games, in their JSON form.

Tests, demo data, load tests and benchmarks use these instead of hand-made rounds. Cards
come from a shuffled shoe of the ruleset's size; players follow a basic-strategy-like
plan (split Aces and 8s, double 10 and 11 against weak upcards, stand on 17, ...), Ante Up
players fold weak poker hands some of the time, and the optional side bets are placed at
random with sensible amounts. The dealer follows the rules exactly, and the recorded pays
are the engine's settlement, so a simulated round has no findings, unless ``inject`` names
errors to put in (one finding of the matching code for each):

* ``overpay`` / ``underpay`` -> ``PAY_ABOVE_EXPECTED`` / ``PAY_BELOW_EXPECTED``
* ``dealer_stood_soft_17`` -> ``DEALER_STOOD_SOFT_17`` (needs an H17 ruleset)
* ``dealer_drew_hard_17`` -> ``DEALER_DREW_HARD_17``
* ``dealer_drew_unneeded`` -> ``DEALER_DREW_UNNEEDED``
* ``dealer_stopped_early`` -> ``DEALER_STOPPED_EARLY``
* ``dealer_missed_peek`` -> ``DEALER_MISSED_PEEK`` (needs a peek ruleset)
* ``rule_violation`` -> ``ANTE_ABOVE_21_BET`` / ``UPCARD_LUCK_ABOVE_21_BET`` /
  ``TIE_BONUSES_ABOVE_PRIMARY`` by game

Progressive Taxpayer's Fortune awards are not recorded as paid (their amount is the meter's
at audit time); :func:`simulation_context` gives the context the simulator audited with.
"""

from __future__ import annotations

import random
from decimal import Decimal
from functools import lru_cache, partial

from ..settings.paytables import TIE_BETS
from ..vocabulary.base import SIMULATORS, AuditContext
from ..vocabulary.cards import ACE, BJ_POINTS, RANK, TEN_VALUE, TEXT
from ..vocabulary.catalogue import (
    ANTE,
    ANTE_UP_21,
    BET,
    BLACKJACK_GAMES,
    BLACKJACK_TIE,
    INSURANCE,
    POKER_BONUS,
    TAXPAYERS_FORTUNE,
    TIE_17,
    TIE_WAGERS,
    UPCARD_LUCK,
    UPCARD_LUCK_21,
    W21,
)
from ..vocabulary.money import CENT, money_text
from . import ante_up_21, blackjack_tie, upcard_luck_21
from . import audit as bj
from .ante_up_21 import poker_value

INJECT_KINDS = frozenset(
    {
        "overpay",
        "underpay",
        "dealer_stood_soft_17",
        "dealer_drew_hard_17",
        "dealer_drew_unneeded",
        "dealer_stopped_early",
        "dealer_missed_peek",
        "rule_violation",
    }
)
_DEALER_RIGS = {
    "dealer_stood_soft_17": (6, ACE),
    "dealer_drew_hard_17": (10, 7),
    "dealer_stopped_early": (10, 6),
    "dealer_missed_peek": (ACE, 13),
}
_AMOUNTS = tuple(Decimal(a) for a in ("5", "10", "10", "15", "25", "25", "50", "100", "7", "12.50"))
_ONE = Decimal(1)
_FIVE = Decimal(5)


def _module(game: str):
    return {
        ANTE_UP_21: ante_up_21,
        UPCARD_LUCK_21: upcard_luck_21,
        BLACKJACK_TIE: blackjack_tie,
    }[game]


#: The unshuffled shoe of each size a ruleset allows (1 to 8 decks).
_FRESH = {decks: [c for c in range(52) for _ in range(decks)] for decks in range(1, 9)}


class _Shoe:
    """Draws without replacement by a lazy Fisher-Yates shuffle of a fresh shoe."""

    __slots__ = ("cards", "pos", "rng")

    def __init__(self, decks: int, rng: random.Random):
        fresh = _FRESH.get(decks) or [c for c in range(52) for _ in range(decks)]
        self.cards = fresh[:]  # a copy of the unshuffled shoe: cheaper than building it
        self.pos = 0
        self.rng = rng

    def draw(self) -> int:
        cards, pos = self.cards, self.pos
        j = self.rng.randrange(pos, len(cards))
        cards[pos], cards[j] = cards[j], cards[pos]
        self.pos = pos + 1
        return cards[pos]

    def take_rank(self, rank: int) -> int:
        """Draw a random card of ``rank`` (10 = any ten-value when rank is 10)."""
        cards, pos = self.cards, self.pos
        options = [
            i
            for i in range(pos, len(cards))
            if (TEN_VALUE[cards[i]] if rank == 10 else RANK[cards[i]] == rank)
        ]
        j = self.rng.choice(options)
        cards[pos], cards[j] = cards[j], cards[pos]
        self.pos = pos + 1
        return cards[pos]


# --------------------------------------------------------------------------------------
# Player strategy


def _up_value(up: int) -> int:
    p = BJ_POINTS[up]
    return 11 if p == 1 else p


def _should_split(card: int, up: int, rules) -> bool:
    r = BJ_POINTS[card]
    u = _up_value(up)
    if r == 1 or r == 8:
        return True
    if r == 9:
        return u in (2, 3, 4, 5, 6, 8, 9)
    if r == 7:
        return u <= 7
    if r == 6:
        return u <= 6
    if r in (2, 3):
        return u <= 7
    if r == 4:
        return u in (5, 6) and rules.double_after_split
    return False


def _may_double(cards: list[int], split: bool, rules) -> bool:
    if split and not rules.double_after_split:
        return False
    total, soft = bj.hand_total(cards)
    if rules.double_on == "9_10_11":
        return not soft and total in (9, 10, 11)
    if rules.double_on == "10_11":
        return not soft and total in (10, 11)
    return True


def _decide(cards: list[int], up: int, can_double: bool) -> str:
    total, soft = bj.hand_total(cards)
    u = _up_value(up)
    if soft:
        if can_double and (
            (13 <= total <= 16 and u in (5, 6)) or (17 <= total <= 18 and 3 <= u <= 6)
        ):
            return bj.DOUBLE
        if total <= 17 or (total == 18 and u >= 9):
            return bj.HIT
        return bj.STAND
    if total <= 8:
        return bj.HIT
    if can_double and (
        (total == 9 and 3 <= u <= 6) or (total == 10 and u <= 9) or (total == 11 and u <= 10)
    ):
        return bj.DOUBLE
    if total <= 11:
        return bj.HIT
    if total == 12:
        return bj.STAND if 4 <= u <= 6 else bj.HIT
    if total <= 16:
        return bj.STAND if u <= 6 else bj.HIT
    return bj.STAND


def _play_seat(c1: int, c2: int, up: int, shoe: _Shoe, rules, bust_out: bool, player=None) -> list[dict]:
    """Play a seat's hands by the split protocol of :mod:`tables.games.blackjack.audit`;
    ``player`` (see :func:`simulate`) decides instead of the basic-strategy-like plan."""
    hands: list[list] = [[[c1], [], c2]]  # [cards, actions, pending second card]
    i = 0
    aces = RANK[c1] == ACE and RANK[c2] == ACE
    while i < len(hands):
        cards, actions, pending = hands[i]
        second = pending if pending is not None else shoe.draw()
        hands[i][2] = None
        split_seat = len(hands) > 1
        while (
            BJ_POINTS[second] == BJ_POINTS[cards[0]]
            and not bust_out
            and len(hands) < rules.max_split_hands
            and (not aces or len(hands) == 1 or rules.resplit_aces)
            and (RANK[second] == RANK[cards[0]] or rules.split_any_ten_values)
            and (player.split(cards[0], second, up) if player is not None else _should_split(cards[0], up, rules))
        ):
            actions.append(bj.SPLIT)
            hands.append([[second], [], None])
            split_seat = True
            second = shoe.draw()
        cards.append(second)
        if split_seat and aces and not rules.hit_split_aces:
            i += 1
            continue
        if not split_seat and bj.is_natural_pair(cards[0], cards[1]):
            i += 1
            continue
        while True:
            total, _soft = bj.hand_total(cards)
            if total > 21 or (total == 21 and not bust_out):
                break
            can_double = len(cards) == 2 and _may_double(cards, split_seat, rules)
            if bust_out:
                move = bj.HIT
            elif player is not None:
                move = player.play(cards, up, can_double, split_seat)
            else:
                move = _decide(cards, up, can_double)
            if move == bj.STAND:
                actions.append(bj.STAND)
                break
            actions.append(move)
            cards.append(shoe.draw())
            if move == bj.DOUBLE:
                break
        i += 1
    return [{"cards": [TEXT[c] for c in h[0]], "actions": h[1]} for h in hands]


# --------------------------------------------------------------------------------------
# Wagers


@lru_cache(maxsize=256)
def _options(at_most: Decimal) -> tuple[Decimal, ...]:
    return tuple(a for a in _AMOUNTS if a <= at_most)


def _pick(rng: random.Random, at_most: Decimal) -> Decimal:
    options = _options(at_most)
    return rng.choice(options) if options else at_most


def _side_wagers(game: str, rng: random.Random, rules, bet21: Decimal) -> dict[str, Decimal]:
    w: dict[str, Decimal] = {}
    if game == ANTE_UP_21:
        if rng.random() < 0.85:
            w[ANTE] = bet21 if rng.random() < 0.7 else _pick(rng, bet21)
            if rng.random() < 0.3:
                w[POKER_BONUS] = rules.poker_bonus_amount
    elif game == UPCARD_LUCK_21:
        if rng.random() < 0.6:
            w[UPCARD_LUCK] = _pick(rng, bet21)
            if rules.taxpayers_fortune and rng.random() < 0.5:
                w[TAXPAYERS_FORTUNE] = rules.taxpayers_fortune_marker
    elif rng.random() < 0.5:
        bets = rng.sample(TIE_BETS, rng.randint(1, 3))
        each = max(_ONE, (bet21 / len(bets)).quantize(_ONE, rounding="ROUND_DOWN"))
        if each * len(bets) > bet21:
            bets = bets[:1]
            each = bet21
        for b in bets:
            w[TIE_WAGERS[b]] = each
    return w


def _folds(c1: int, c2: int, rng: random.Random) -> bool:
    return poker_value((c1, c2)) < 10 * 16 and rng.random() < 0.6


# --------------------------------------------------------------------------------------
# The round


def simulation_context(rules) -> AuditContext:
    """The context the simulator audits with: progressive lines at their reset value."""
    lines = getattr(rules, "progressive_lines", {})
    return AuditContext(jackpot_amounts={line: cfg.reset for line, cfg in lines.items()})


def simulate(
    game: str, rng: random.Random, rules, *, seats: int, inject: frozenset[str] = frozenset(), player=None
) -> dict:
    """One realistic round of ``game`` in JSON form (see the module docstring for ``inject``).

    ``player``: every seat plays by it instead of the basic-strategy-like plan, and takes
    neither insurance nor even money: ``player.split(pair_card, second_card, upcard) -> bool``
    and ``player.play(cards, upcard, can_double, after_split) -> "hit" | "stand" | "double"``
    (cards as ints; the tests' optimal player checks the 21 bet's exact edge this way)."""
    unknown = set(inject) - INJECT_KINDS
    if unknown:
        raise ValueError(
            f"unknown inject kinds: {', '.join(sorted(unknown))}; known: {', '.join(sorted(INJECT_KINDS))}"
        )
    if not 1 <= seats <= 7:
        raise ValueError("seats must be 1 to 7")
    rigs = [k for k in inject if k in _DEALER_RIGS or k == "dealer_drew_unneeded"]
    if len(rigs) > 1:
        raise ValueError(
            f"inject at most one dealer error at a time, got {', '.join(sorted(rigs))}"
        )
    if "dealer_stood_soft_17" in inject and not rules.dealer_hits_soft_17:
        raise ValueError("dealer_stood_soft_17 needs a ruleset where the dealer hits soft 17")
    if "dealer_missed_peek" in inject and not rules.dealer_peeks:
        raise ValueError("dealer_missed_peek needs a ruleset where the dealer peeks")
    for _attempt in range(500):
        data = _deal(game, rng, rules, seats, inject, player)
        if data is not None:
            return data
    raise RuntimeError(f"could not simulate a {game} round with {sorted(inject)}")


def _deal(
    game: str, rng: random.Random, rules, n_seats: int, inject: frozenset[str], player=None
) -> dict | None:
    shoe = _Shoe(rules.decks, rng)
    rig = next((k for k in inject if k in _DEALER_RIGS), None)
    unneeded = "dealer_drew_unneeded" in inject
    if rig is not None:
        up_rank, hole_rank = _DEALER_RIGS[rig]
        up, hole = shoe.take_rank(up_rank), shoe.take_rank(hole_rank)
    else:
        up = hole = -1
    numbers = sorted(rng.sample(range(1, 8), n_seats))
    seats = []
    for number in numbers:
        bet21 = rng.choice(_AMOUNTS)
        wagers = {W21: bet21, **_side_wagers(game, rng, rules, bet21)}
        seats.append({"seat": number, "wagers": wagers, "c": (shoe.draw(), shoe.draw())})
    if rig is None:
        up, hole = shoe.draw(), shoe.draw()
    if "rule_violation" in inject:
        w = seats[0]["wagers"]
        if game == ANTE_UP_21:
            w[ANTE] = w[W21] + _FIVE
        elif game == UPCARD_LUCK_21:
            w[UPCARD_LUCK] = w[W21] + _FIVE
        else:
            w[TIE_17] = w[W21] + _FIVE
    natural = bj.is_natural_pair(up, hole)
    peek_ends = natural and rules.dealer_peeks and rig != "dealer_missed_peek"
    if unneeded and natural:
        return None
    # Before the peek: insurance, even money and the poker decision.
    for s in seats:
        c1, c2 = s["c"]
        w = s["wagers"]
        if RANK[up] == ACE and rules.insurance and player is None:
            if bj.is_natural_pair(c1, c2):
                if rng.random() < 0.3:
                    s["even_money"] = True
            elif rng.random() < 0.05:
                w[INSURANCE] = (w[W21] / 2).quantize(CENT, rounding="ROUND_DOWN")
        if game == ANTE_UP_21 and ANTE in w:
            if unneeded:
                w.pop(POKER_BONUS, None)
            elif POKER_BONUS in w or not _folds(c1, c2, rng):
                w[BET] = w[ANTE]
        if unneeded:
            w.pop(TAXPAYERS_FORTUNE, None)
    for s in seats:
        c1, c2 = s["c"]
        if peek_ends:
            s["hands"] = [{"cards": [TEXT[c1], TEXT[c2]], "actions": []}]
        else:
            s["hands"] = _play_seat(c1, c2, up, shoe, rules, unneeded, player)
    dealer = [up, hole]
    data = {
        "game": game,
        "dealer": {"cards": dealer},
        "seats": [
            {
                "seat": s["seat"],
                **({"even_money": True} if s.get("even_money") else {}),
                "wagers": {k: money_text(v) for k, v in s["wagers"].items()},
                "hands": s["hands"],
            }
            for s in seats
        ],
    }
    module = _module(game)
    data["dealer"]["cards"] = [TEXT[up], TEXT[hole]]
    rnd = module.parse_round(data, rules)
    live = bj.live_stake(rnd, rules, module.SPEC) if not peek_ends else 0
    if rig == "dealer_missed_peek" and not bj.played_on(rnd):
        return None
    if rig in ("dealer_stood_soft_17", "dealer_drew_hard_17", "dealer_stopped_early") and live <= 0:
        return None
    if unneeded:
        if live > 0:
            return None
        dealer.append(shoe.draw())
    elif rig == "dealer_drew_hard_17":
        dealer.append(shoe.draw())
    elif rig is None and live > 0:
        h17 = rules.dealer_hits_soft_17
        while bj.dealer_must_draw(*bj.hand_total(dealer), h17):
            dealer.append(shoe.draw())
    data["dealer"]["cards"] = [TEXT[c] for c in dealer]
    rnd = module.parse_round(data, rules)
    context = simulation_context(rules)
    result = module.audit(rnd, rules, context)
    paid: dict[int, list[dict]] = {}
    for st in result.settlements:
        if st.line is not None and st.line in getattr(rules, "progressive_lines", {}):
            continue
        entry = {"wager": st.wager, "net": money_text(st.net)}
        if st.hand is not None:
            entry = {"wager": st.wager, "hand": st.hand, "net": money_text(st.net)}
        paid.setdefault(st.seat, []).append(entry)
    for s in data["seats"]:
        s["paid"] = paid.get(s["seat"], [])
    over, under = data["seats"][0]["paid"][0], data["seats"][-1]["paid"][-1]
    if "overpay" in inject and "underpay" in inject and over is under:
        return None
    if "overpay" in inject:
        over["net"] = money_text(Decimal(over["net"]) + _FIVE)
    if "underpay" in inject:
        under["net"] = money_text(Decimal(under["net"]) - _FIVE)
    return data


for _game in BLACKJACK_GAMES:
    SIMULATORS[_game] = partial(simulate, _game)
