"""Poker or Bust: round data, validation, the dealer's drawing rule, settlement.

The rules are rules/poker-or-bust.txt as ruled in RULINGS.md. Points: Ace 1, ten-values
10, others face value. Every player gets three cards and may draw more; above 31 the
player busts and loses Ante and Odds. The dealer, when some player still stands, takes a
third card, then draws while at 22 or less, stands on 23 to 31 and busts above 31. Poker
hands are the best three cards of all the cards held (:mod:`.three_card_poker`).

Settlement (wager keys ``"ante"`` and ``"odds"``, equal and both mandatory):

* a busted player loses both wagers, whatever the dealer holds;
* ANTE: the dealer busts -> wins 1 to 1; otherwise the higher hand wins 1 to 1, equal
  hands push, a lower hand loses;
* ODDS: paid from ``rules.odds_paytable`` on the player's own hand whatever the dealer
  holds (even when the dealer busts); keys ``royal_flush``, ``suited_three_of_a_kind``,
  ``straight_flush``, ``three_of_a_kind``, ``straight``, ``flush``,
  ``pair_jacks_or_better`` (pairs of Jacks, Queens, Kings, Aces). A table need not
  list every category: a hand is paid at the best line it qualifies for (a royal flush
  also makes a straight flush, a straight and a flush; a straight flush a straight and a
  flush; suited trips three of a kind and a flush; :func:`odds_lines`), the best being
  the one that pays most. Anything lower than a pair of Jacks, or a hand that qualifies
  for no line on the table, loses.

Rulings made here (documented for the house):

* A card dealt to a player who had already busted is a *finding*
  (``CARDS_AFTER_BUST``), not impossible input: a dealer can physically deal it. The
  bust stands at the card where the total first passed 31 and later cards are ignored.
* The dealer's hand is settled **as dealt**, even when the dealer drew against the rule:
  that is the hand the players were paid on, and the cards a dealer who stood short
  would have drawn are unknown. The procedure finding carries the money the departure
  moved (for an extra draw: the Ante results under the hand the dealer should have
  stood on, compared with the results as dealt; for standing short: every live Ante).
  A card the dealer drew after busting changes nothing (the bust stands).
* A missing Ante or Odds is a finding (``WAGER_MISSING``); the wager that was placed is
  settled. A seat with neither is impossible input.

The JSON form of a round, its model and its parser: :mod:`.rounds`.

Finding codes: ``WAGER_MISSING``, ``ANTE_ODDS_UNEQUAL`` (rule violations);
``CARDS_AFTER_BUST``, ``DEALER_STOOD_SHORT``, ``DEALER_DREW_ON_STANDING_TOTAL``,
``DEALER_DREW_AFTER_BUST``, ``DEALER_DREW_ALL_BUST`` (procedure);
``PAY_ABOVE_EXPECTED`` / ``PAY_BELOW_EXPECTED`` (overpay / underpay, from
:func:`~tables.games.vocabulary.base.compare_recorded`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from decimal import Decimal

from ..settings.rulesets import PokerOrBustRules
from ..vocabulary.base import (
    LOSE,
    PROCEDURE,
    PUSH,
    RULE_VIOLATION,
    WIN,
    Audit,
    AuditContext,
    Finding,
    RecordedPay,
    Settlement,
    compare_recorded,
    make_settlement,
    remember,
    simulator,
)
from ..vocabulary.base import recorded_nets as recorded_nets
from ..vocabulary.cards import BJ_POINTS, HIGH_RANK, TEXT, cards_text
from ..vocabulary.catalogue import (
    ANTE,
    ANTE_ODDS_UNEQUAL,
    CARDS_AFTER_BUST,
    DEALER_DREW_AFTER_BUST,
    DEALER_DREW_ALL_BUST,
    DEALER_DREW_ON_STANDING_TOTAL,
    DEALER_STOOD_SHORT,
    ODDS,
    POKER_OR_BUST,
    RULE_ALL_BUST,
    RULE_DEALER_BUST,
    RULE_DEALER_DRAW,
    RULE_PLAYER_BUST,
    RULE_WAGERS,
    WAGER_MISSING,
)
from ..vocabulary.money import CENT, ZERO, money_text, odds_text, pays
from . import three_card_poker as tcp

# The round's model and parser are part of this module's interface (the game contract's
# parse_round and round_to_dict, the model's names): re-exported with "as".
from .rounds import (
    DEALER_DEAL,
    WAGER_NAMES,
    PokerOrBustCompiled,
    Round,
    SeatHand,
    compiled,
)
from .rounds import MAX_SEATS as MAX_SEATS
from .rounds import PLAYER_CARDS as PLAYER_CARDS
from .rounds import WAGERS as WAGERS
from .rounds import parse_round as parse_round
from .rounds import recorded_pays as recorded_pays
from .rounds import round_to_dict as round_to_dict

BUST_ABOVE = 31
DEALER_STANDS_FROM = 23  # the dealer draws at 22 or less

#: The Odds pays at pair of Jacks or better; lower pairs and high cards lose.
ODDS_MIN_PAIR = 11
PAIR_KEY = "pair_jacks_or_better"


# --- points and the dealer's rule ---------------------------------------------------------


def bust_at(cards: Sequence[int]) -> int:
    """Index of the card that took the total past 31, or -1 if the hand never busted."""
    total = 0
    n = len(cards)
    for k in range(n):
        total += BJ_POINTS[cards[k]]
        if total > BUST_ABOVE:
            return k
    return -1


def points(cards: Sequence[int]) -> int:
    """Poker or Bust points: Ace 1, ten-values 10, others face value."""
    total = 0
    for c in cards:
        total += BJ_POINTS[c]
    return total


def dealer_stop(cards: Sequence[int]) -> int:
    """How many cards the dealer should hold when someone stands, given the cards as dealt.

    Returns the count after which the rule says stop (third card, then draw at 22 or
    less); it can exceed ``len(cards)`` when the dealer stood short.
    """
    total = 0
    n = len(cards)
    for k in range(n):
        total += BJ_POINTS[cards[k]]
        if k >= DEALER_DEAL and total >= DEALER_STANDS_FROM:
            return k + 1
    return max(n + 1, DEALER_DEAL + 1)


def reference_player_draws(total: int, value: int) -> bool:
    """The reference player strategy used by the simulator and the game math.

    Drawing at 21 or less can never bust (the largest card is 10) and can only improve
    the best three of the cards, so the player always draws there. From 22 the player
    stands on a pair of Jacks or better (anything the Odds pays) and otherwise draws
    while at 25 or less. Among simple rules (draw to 21..30; stand on nothing, a pair of
    Jacks, a flush, a straight, three of a kind) this one gave the house the least on
    the combined Ante + Odds with the default pay table (:mod:`.game_math`), so
    the hold quoted from it is the conservative one.
    """
    if total <= 21:
        return True
    if value >= _STAND_FROM_22:
        return False
    return total <= REFERENCE_DRAW_TO


REFERENCE_DRAW_TO = 25
REFERENCE_STAND_ON = "pair_jacks"
_STAND_FROM_22 = (tcp.PAIR << 12) | (11 << 8)  # a pair of Jacks or anything better


# --- settlement ---------------------------------------------------------------------------

def _describe(value: int, c: PokerOrBustCompiled) -> str:
    text = c.described.get(value)
    return text if text is not None else remember(c.described, value, tcp.describe(value))


#: The Odds lines a hand of each category qualifies for, indexed by category (RULINGS.md:
#: "An Odds table need not list every category. A hand is paid at the best line it
#: qualifies for: a royal flush also makes a straight flush, a straight and a flush; a
#: straight flush also makes a straight and a flush; suited trips also make three of a
#: kind and a flush. It loses only when it qualifies for no line."). A pair qualifies
#: only when it is Jacks or better (checked by the caller); three of a kind is not also
#: a pair, as no ruling says so.
ODDS_LINES: tuple[tuple[str, ...], ...] = (
    (),  # high card
    (PAIR_KEY,),
    ("flush",),
    ("straight",),
    ("three_of_a_kind",),
    ("straight_flush", "straight", "flush"),
    ("suited_three_of_a_kind", "three_of_a_kind", "flush"),
    ("royal_flush", "straight_flush", "straight", "flush"),
)
ODDS_LINE_NAMES = {PAIR_KEY: "pair of Jacks or better", **dict(zip(tcp.CATEGORY_KEYS, tcp.CATEGORY_NAMES, strict=True))}

def odds_lines(paytable: Mapping[str, Decimal]) -> tuple[tuple[str, Decimal] | None, ...]:
    """The one definition of the Odds pay: per category, the line paid and its pay.

    The best line is the one that pays most among the lines the category qualifies for
    (:data:`ODDS_LINES`); on equal pays the higher category's line is named. None: the
    hand qualifies for no line on this table and the Odds loses. (The audit keeps the
    answer for its ruleset's table in the compiled ruleset's ``lines``.)
    """
    out: list[tuple[str, Decimal] | None] = []
    for lines in ODDS_LINES:
        best: tuple[str, Decimal] | None = None
        for key in lines:
            pay = paytable.get(key)
            if pay is not None and (best is None or pay > best[1]):
                best = (key, pay)
        out.append(best)
    return tuple(out)


def odds_line(value: int, paytable: Mapping[str, Decimal]) -> tuple[str, Decimal] | None:
    """``(line key, pay)`` for a player's hand value, or None when the Odds loses on it."""
    cat = value >> 12
    if cat == tcp.PAIR and ((value >> 8) & 15) < ODDS_MIN_PAIR:
        return None
    return odds_lines(paytable)[cat]


def _odds_pay(stake: Decimal, odds: Decimal, c: PokerOrBustCompiled) -> Decimal:
    key = (stake, odds)
    net = c.pays.get(key)
    return net if net is not None else remember(c.pays, key, pays(stake, odds, c.rules.rounding_unit,
                                                                   c.rules.rounding_direction))


def _ante_net(stake: Decimal, player_value: int, dealer_value: int, dealer_bust: bool) -> Decimal:
    if dealer_bust or player_value > dealer_value:
        return stake
    if player_value < dealer_value:
        return -stake
    return ZERO


def _odds_settlement(
    seat: int,
    odds: Decimal,
    hand: str,
    line: tuple[str, Decimal] | None,
    below_pair: bool,
    own_line: bool,
    c: PokerOrBustCompiled,
) -> Settlement:
    if line is None:
        why = (
            f"{hand} is below a pair of Jacks; Odds loses"
            if below_pair
            else f"{hand} is not on the Odds pay table; Odds loses"
        )
        return make_settlement(seat, ODDS, odds, -odds, LOSE, why)
    key, pay = line
    net = _odds_pay(odds, pay, c)
    paid_on = "" if own_line else f", paid on the {ODDS_LINE_NAMES[key]} line"
    return make_settlement(
        seat, ODDS, odds, net, WIN if net > 0 else PUSH, f"{hand}{paid_on}; Odds pays {_odds_words(pay, c)}"
    )


def audit(rnd: Round, rules: PokerOrBustRules, context: AuditContext | None = None) -> Audit:
    """Settle every Ante and Odds, check the dealer's drawing and the wagers, compare pays.

    Seats are settled in seat-number order, so the answer does not depend on the order
    the tablet listed them in. ``context`` is not needed by this game. This is the hot
    path of the engine (see tests/benchmarks/bench_poker_or_bust.py): hand values are
    ints from :mod:`.three_card_poker`, descriptions and pays come from caches.
    """
    dealer = rnd.dealer_cards
    d_total = points(dealer)
    d_bust = d_total > BUST_ABOVE
    c = compiled(rules)
    lines = c.lines
    if lines is None:
        lines = c.lines = odds_lines(rules.odds_paytable)
    # Odds settlements of standing hands by (seat, stake, hand value, line): under one ruleset
    # the Odds depends on nothing else, a Settlement is immutable, and a table sees a few bet
    # sizes and hands, so audits share one object per result. An entry serves only the very
    # stake object it was built with (parsed amounts are shared), so even the Decimal's
    # exponent is the one the round gave.
    odds_settled = c.odds_settled
    settlements: list[Settlement] = []
    add = settlements.append
    findings: list[Finding] = []
    wrong_pays: list[RecordedPay] = []
    standing: list[tuple[SeatHand, int]] = []  # seats still in, with their poker value
    seats = sorted(rnd.seats)  # by seat number: tuples compare their first field, unique here
    best_value = tcp.best_value
    described = c.described

    d_value = -1
    d_text = ""
    for s in seats:
        seat, _player, ante, odds, cards, paid, index = s
        if ante is None or odds is None:
            findings.append(_wager_missing(s))
        elif ante is not odds and ante != odds:  # equal texts share one parsed Decimal
            findings.append(_unequal(s))
        if points(cards) > BUST_ABOVE:
            busted = bust_at(cards)
            if busted + 1 < len(cards):
                findings.append(_cards_after_bust(s, busted))
            why = (
                f"busted with {points(cards[: busted + 1])} "
                f"({cards_text(cards[: busted + 1])}); Ante and Odds lose"
            )
            ante_net = odds_net = None
            if ante is not None:
                ante_net = -ante
                add(make_settlement(seat, ANTE, ante, ante_net, LOSE, why))
            if odds is not None:
                odds_net = -odds
                add(make_settlement(seat, ODDS, odds, odds_net, LOSE, why))
        else:
            value = best_value(cards)
            standing.append((s, value))
            hand = described.get(value) or _describe(value, c)
            ante_net = odds_net = None
            if ante is not None:
                if d_value < 0:
                    d_value = _dealer_value(dealer)
                    d_text = (
                        f"dealer busts with {d_total} ({cards_text(dealer)}); Ante wins 1 to 1"
                        if d_bust
                        else _dealer_hand_text(dealer, d_value, c)
                    )
                if d_bust:
                    ante_net = ante
                    add(make_settlement(seat, ANTE, ante, ante, WIN, d_text))
                elif value > d_value:
                    ante_net = ante
                    add(
                        make_settlement(
                            seat, ANTE, ante, ante, WIN, f"{hand} beats {d_text}; Ante wins 1 to 1"
                        )
                    )
                elif value < d_value:
                    ante_net = -ante
                    add(
                        make_settlement(
                            seat, ANTE, ante, ante_net, LOSE, f"{d_text} beats {hand}; Ante loses"
                        )
                    )
                else:
                    ante_net = ZERO
                    add(
                        make_settlement(
                            seat, ANTE, ante, ZERO, PUSH, f"{hand} ties {d_text}; Ante pushes"
                        )
                    )
            if odds is not None:
                cat = value >> 12
                if cat >= tcp.PAIR and (cat != tcp.PAIR or (value >> 8) & 15 >= ODDS_MIN_PAIR):
                    line = lines[cat]
                else:
                    line = None
                    cat = -1
                key = (seat, odds, value, line)
                settled = odds_settled.get(key)
                if settled is None or settled.stake is not odds:
                    settled = _odds_settlement(
                        seat,
                        odds,
                        hand,
                        line,
                        cat < 0,
                        line is not None and line[0] == ODDS_LINES[cat][0],
                        c,
                    )
                    remember(odds_settled, key, settled)
                odds_net = settled.net
                add(settled)
        if paid and paid != ((ANTE, ante_net), (ODDS, odds_net)):
            for j, (wager, net) in enumerate(paid):
                expected = ante_net if wager == ANTE else odds_net
                if net != (ZERO if expected is None else expected):
                    wrong_pays.append(
                        RecordedPay(seat, wager, net, None, f"seats[{index}].paid[{j}]")
                    )

    dealer_ok = dealer_stop(dealer) == len(dealer) if standing else len(dealer) == DEALER_DEAL
    if not dealer_ok:
        findings.extend(_dealer_findings(dealer, standing, d_total))
    if wrong_pays:
        findings.extend(compare_recorded(settlements, wrong_pays))
    if len(dealer) < 3:
        dealer_hand = None
    else:
        if d_value < 0:
            d_value = best_value(dealer)
        dealer_hand = described.get(d_value) or _describe(d_value, c)
    summary = {
        "dealer_cards": cards_text(dealer),
        "dealer_total": d_total,
        "dealer_busted": d_bust,
        "dealer_hand": dealer_hand,
        "players_standing": len(standing),
    }
    return Audit(tuple(settlements), tuple(findings), summary)


def _wager_missing(s: SeatHand) -> Finding:
    missing, placed = (ANTE, s.odds) if s.ante is None else (ODDS, s.ante)
    return Finding(
        code=WAGER_MISSING,
        kind=RULE_VIOLATION,
        message=(
            f"Seat {s.seat} played without an {WAGER_NAMES[missing]}: Ante and Odds are "
            f"both mandatory and equal."
        ),
        path=f"seats[{s.index}].wagers.{missing}",
        rule=RULE_WAGERS,
        expected=money_text(placed),
        recorded=None,
        amount=placed,
        seat=s.seat,
    )


def _unequal(s: SeatHand) -> Finding:
    return Finding(
        code=ANTE_ODDS_UNEQUAL,
        kind=RULE_VIOLATION,
        message=(
            f"Seat {s.seat} bet Ante {money_text(s.ante)} and Odds {money_text(s.odds)}: "
            f"the two wagers must be equal."
        ),
        path=f"seats[{s.index}].wagers.odds",
        rule=RULE_WAGERS,
        expected=money_text(s.ante),
        recorded=money_text(s.odds),
        amount=abs(s.ante - s.odds),
        seat=s.seat,
    )


def _drawn_after_bust(code: str, rule: str, message: str, path: str, expected: str, extra: Sequence[int],
                      seat: int | None = None) -> Finding:
    """Cards dealt to a hand that had busted (the player's or the dealer's): a procedure
    finding, the bust stands and no money moves."""
    return Finding(code, PROCEDURE, message, path, rule, expected, cards_text(extra), ZERO, seat)


def _cards_after_bust(s: SeatHand, busted: int) -> Finding:
    cards = s.cards
    extra = cards[busted + 1 :]
    return _drawn_after_bust(
        CARDS_AFTER_BUST, RULE_PLAYER_BUST,
        f"Seat {s.seat} busted with {points(cards[: busted + 1])} ({cards_text(cards[: busted + 1])}) and was dealt "
        f"{len(extra)} more card{'s' if len(extra) > 1 else ''} ({cards_text(extra)}); the bust stands.",
        f"seats[{s.index}].cards[{busted + 1}]", f"no card after {TEXT[cards[busted]]}", extra, s.seat)


def _odds_words(pay: Decimal, c: PokerOrBustCompiled) -> str:
    text = c.odds_words.get(pay)
    return text if text is not None else remember(c.odds_words, pay, odds_text(pay))


def _dealer_value(dealer: Sequence[int]) -> int:
    """The dealer's poker value; two cards (a dealer who never took a third) play as a
    pair or high card with no third card, so any three-card hand of the same kind beats them."""
    if len(dealer) >= 3:
        return tcp.best_value(dealer)
    a, b = HIGH_RANK[dealer[0]], HIGH_RANK[dealer[1]]
    if a == b:
        return (tcp.PAIR << 12) | (a << 8)
    return (tcp.HIGH_CARD << 12) | (max(a, b) << 8) | (min(a, b) << 4)


def _dealer_hand_text(dealer: Sequence[int], value: int, c: PokerOrBustCompiled) -> str:
    if len(dealer) < 3:
        return f"dealer's two cards ({cards_text(dealer)})"
    return f"dealer's {_describe(value, c)}"


def _dealer_findings(
    dealer: tuple[int, ...], standing: list[tuple[SeatHand, int]], d_total: int
) -> list[Finding]:
    """Departures from the dealer's drawing rule, with the money each one moved."""
    n = len(dealer)
    if not standing:
        if n > DEALER_DEAL:
            return [
                Finding(
                    code=DEALER_DREW_ALL_BUST,
                    kind=PROCEDURE,
                    message=(
                        f"Every player busted, yet the dealer drew {n - DEALER_DEAL} card"
                        f"{'s' if n - DEALER_DEAL > 1 else ''} ({cards_text(dealer[DEALER_DEAL:])}); "
                        f"no wager depended on the dealer's hand."
                    ),
                    path=f"dealer.cards[{DEALER_DEAL}]",
                    rule=RULE_ALL_BUST,
                    expected=f"{DEALER_DEAL} cards",
                    recorded=f"{n} cards",
                    amount=ZERO,
                )
            ]
        return []
    stop = dealer_stop(dealer)
    if stop == n:
        return []
    if stop > n:
        live = sum((s.ante for s, _v in standing if s.ante is not None), ZERO)
        if n == DEALER_DEAL:
            what = f"Dealer took no third card ({cards_text(dealer)}, {d_total})"
        else:
            what = f"Dealer stood on {d_total} ({cards_text(dealer)})"
        return [
            Finding(
                code=DEALER_STOOD_SHORT,
                kind=PROCEDURE,
                message=(
                    f"{what} while players stood; the dealer must draw a third card and then "
                    f"draw at 22 or less."
                ),
                path="dealer.cards",
                rule=RULE_DEALER_DRAW,
                expected="draw",
                recorded=f"stood on {d_total}",
                amount=live,
            )
        ]
    should = dealer[:stop]
    s_total = points(should)
    extra = dealer[stop:]
    if s_total > BUST_ABOVE:
        return [_drawn_after_bust(
            DEALER_DREW_AFTER_BUST, RULE_DEALER_BUST,
            f"Dealer busted with {s_total} ({cards_text(should)}) and drew {cards_text(extra)} anyway; the bust stands.",
            f"dealer.cards[{stop}]", f"stop at {s_total}", extra)]
    # Drew on 23..31: how much the extra cards moved the Ante results.
    s_value = tcp.best_value(should)
    d_value = _dealer_value(dealer)
    d_bust = d_total > BUST_ABOVE
    moved = ZERO
    for s, value in standing:
        if s.ante is not None:
            moved += abs(
                _ante_net(s.ante, value, d_value, d_bust) - _ante_net(s.ante, value, s_value, False)
            )
    return [
        Finding(
            code=DEALER_DREW_ON_STANDING_TOTAL,
            kind=PROCEDURE,
            message=(
                f"Dealer drew {cards_text(extra)} on {s_total} ({cards_text(should)}); the dealer "
                f"must stand on 23 to 31. The hand was settled as dealt "
                f"({d_total}{', busted' if d_bust else ''})."
            ),
            path=f"dealer.cards[{stop}]",
            rule=RULE_DEALER_DRAW,
            expected=f"stand on {s_total}",
            recorded=f"drew to {d_total}",
            amount=moved.quantize(CENT),
        )
    ]


# --- the simulator (tables/games/poker_or_bust/simulate.py, registered when imported) --------


def simulate_round(
    rng: random.Random, rules: PokerOrBustRules, *, seats: int, inject: frozenset[str] = frozenset()
) -> dict:
    """A realistic round in JSON form (:mod:`tables.games.poker_or_bust.simulate`, which
    registers itself in :data:`~.base.SIMULATORS` when imported)."""
    return simulator(POKER_OR_BUST)(rng, rules, seats=seats, inject=inject)
