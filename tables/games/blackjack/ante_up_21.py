"""Ante Up 21 with the Poker Bonus (rules/ante-up-21.txt): blackjack plus a two-card poker game.

Wagers (keys of a seat's ``wagers``): ``21`` (required), ``insurance``, ``ante``, ``bet``
(the poker decision: present = bet, absent = fold), ``poker_bonus``. The round's JSON form
is the shared blackjack form described in :mod:`tables.games.blackjack.audit`.

Poker: two-card hands, pairs and high cards only, Ace high. The player plays the best two
of the cards of the hand (the first two cards dealt after a split); the dealer the best two
of all the dealer's cards. The dealer qualifies with Queen-high or better.

Rulings made here (the card and RULINGS.md are silent):

* A BET without an ANTE is impossible input (there is no poker hand to bet on).
* A Poker Bonus placed by a player who then folded is a finding and is still settled on
  its cards (the dealer accepted it); so is a Poker Bonus of the wrong amount.
* Poker Bonus categories are exclusive and the highest applies: suited three of a kind
  (pair plus upcard of one rank, all one suit), three of a kind, suited pair, pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from ..vocabulary.base import (
    LOSE,
    PUSH,
    RULE_VIOLATION,
    WIN,
    AuditContext,
    Finding,
    Settlement,
    remember,
)
from ..vocabulary.base import recorded_nets as recorded_nets
from ..vocabulary.cards import HIGH_RANK, RANK, RANK_PLURALS, SUIT, cards_text
from ..vocabulary.catalogue import (
    ANTE,
    ANTE_ABOVE_21_BET,
    ANTE_UP_21,
    BET,
    BET_NOT_EQUAL_ANTE,
    POKER_BONUS,
    POKER_BONUS_WITH_FOLD,
    POKER_BONUS_WRONG_AMOUNT,
    RULE_ANTE_UP_ANTE,
    RULE_BET,
    RULE_BONUS_AMOUNT,
    RULE_BONUS_PLAY,
)
from ..vocabulary.money import ZERO, money_text, odds_text
from . import audit as bj

make_settlement = bj.make_settlement

WAGERS = (ANTE, BET, POKER_BONUS)

FINDING_CODES = (
    ANTE_ABOVE_21_BET,
    BET_NOT_EQUAL_ANTE,
    POKER_BONUS_WITH_FOLD,
    POKER_BONUS_WRONG_AMOUNT,
)

QUALIFY = 12 * 16  # Queen-high: any non-pair whose high card is a Queen or better, or any pair
PAIR = 1000

# --------------------------------------------------------------------------------------
# Two-card poker


def _two(a: int, b: int) -> int:
    ra, rb = HIGH_RANK[a], HIGH_RANK[b]
    if ra == rb:
        return PAIR + ra
    return ra * 16 + rb if ra > rb else rb * 16 + ra


_TWO = tuple(_two(a, b) for a in range(52) for b in range(52))


def poker_value(cards: Sequence[int]) -> int:
    """Value of the best two-card poker hand among ``cards`` (bigger is better).

    A pair is ``1000 + rank``; otherwise ``high * 16 + second`` (ranks 2..14, Ace high).
    """
    if len(cards) == 2:
        return _TWO[cards[0] * 52 + cards[1]]
    seen = 0
    best_pair = 0
    hi = lo = 0
    for c in cards:
        r = HIGH_RANK[c]
        bit = 1 << r
        if seen & bit:
            if r > best_pair:
                best_pair = r
        else:
            seen |= bit
            if r > hi:
                hi, lo = r, hi
            elif r > lo:
                lo = r
    if best_pair:
        return PAIR + best_pair
    return hi * 16 + lo


_RANK_CHAR = {r: "A23456789TJQKA"[r - 1] for r in range(2, 15)}


def poker_text(value: int) -> str:
    """``1009`` -> ``"pair of 9s"``; ``12*16+7`` -> ``"Q-7"``."""
    if value >= PAIR:
        r = value - PAIR
        return f"pair of {RANK_PLURALS[1 if r == 14 else r]}"
    return f"{_RANK_CHAR[value // 16]}-{_RANK_CHAR[value % 16]}"


#: poker_text of every two-card value (pairs and high-card hands), by value.
_POKER_TEXT = {v: poker_text(v) for v in set(_TWO)}


def qualifies(value: int) -> bool:
    return value >= QUALIFY


def poker_bonus_category(c1: int, c2: int, upcard: int) -> str | None:
    """Poker Bonus category of the player's first two cards plus the upcard (trips only)."""
    if RANK[c1] != RANK[c2]:
        return None
    suited = SUIT[c1] == SUIT[c2]
    if RANK[upcard] == RANK[c1]:
        return (
            "suited_three_of_a_kind" if suited and SUIT[upcard] == SUIT[c1] else "three_of_a_kind"
        )
    return "suited_pair" if suited else "pair"


_CATEGORY_TEXT = {
    "suited_three_of_a_kind": "suited three of a kind",
    "three_of_a_kind": "three of a kind",
    "suited_pair": "suited pair",
    "pair": "pair",
}

# --------------------------------------------------------------------------------------
# The game hooks


def _wagers_refused(wagers) -> list[tuple[str, str]]:
    return [(BET, "a BET needs an ANTE (the poker hand it is made on)")] if BET in wagers and ANTE not in wagers else []


def _rule_findings(seat: bj.Seat, rules) -> list[Finding]:
    """The table's rules on this game's wagers (paths are written only for a finding)."""
    out = bj.above_21_bet(seat, ANTE, "ANTE", ANTE_ABOVE_21_BET, RULE_ANTE_UP_ANTE)
    w = seat.wagers
    ante, bet = w.get(ANTE), w.get(BET)
    if bet is not None and ante is not None and bet != ante:
        out.append(
            Finding(
                BET_NOT_EQUAL_ANTE,
                RULE_VIOLATION,
                f"Seat {seat.seat} BET {money_text(bet)} differs from the ANTE {money_text(ante)}.",
                f"seats[{seat.index}].wagers.bet",
                RULE_BET,
                money_text(ante),
                money_text(bet),
                abs(bet - ante),
                seat.seat,
            )
        )
    bonus = w.get(POKER_BONUS)
    if bonus is not None:
        if bet is None:
            out.append(
                Finding(
                    POKER_BONUS_WITH_FOLD,
                    RULE_VIOLATION,
                    f"Seat {seat.seat} has a Poker Bonus but did not play the poker hand "
                    f"({'folded' if ante is not None else 'no ANTE'}).",
                    f"seats[{seat.index}].wagers.poker_bonus",
                    RULE_BONUS_PLAY,
                    "a BET with the Poker Bonus",
                    "fold" if ante is not None else "no ANTE",
                    bonus,
                    seat.seat,
                )
            )
        out += bj.wrong_amount(seat, POKER_BONUS, "Poker Bonus", rules.poker_bonus_amount, "the table's Poker Bonus",
                               POKER_BONUS_WRONG_AMOUNT, RULE_BONUS_AMOUNT)
    return out


def _side_live(seat: bj.Seat, upcard: int, rules) -> Decimal:
    """A poker BET keeps the dealer drawing (the card says so) even when every 21 hand busted."""
    bet = seat.wagers.get(BET)
    if bet is None or ANTE not in seat.wagers:
        return ZERO
    return bet + seat.wagers[ANTE]


def player_poker_cards(seat: bj.Seat) -> Sequence[int]:
    """The player's poker cards: the first two dealt after a split, else the whole first hand."""
    return seat.first_two if len(seat.hands) > 1 else seat.hands[0].cards


def _settle_seat(seat: bj.Seat, dealer: bj.Dealer, rules, out: list[Settlement], facts: tuple[int, dict]) -> None:
    """ANTE and BET against the dealer's poker value, and the Poker Bonus: the one definition.
    ``facts`` is :func:`_round_facts`'s."""
    w = seat.wagers
    ante = w.get(ANTE)
    number = seat.seat
    if ante is not None:
        bet = w.get(BET)
        if bet is None:
            out.append(make_settlement(number, ANTE, ante, -ante, LOSE, _FOLD_TEXT))
        else:
            d, texts = facts
            out += _settle_poker(number, ante, bet, poker_value(player_poker_cards(seat)), d, dealer.natural, texts)
    bonus = w.get(POKER_BONUS)
    if bonus is not None:
        c1, c2 = seat.first_two
        out.append(_settle_bonus(number, bonus, c1, c2, dealer.upcard, rules))


def _round_facts(dealer: bj.Dealer, rules) -> tuple[int, dict]:
    """Once per round: the dealer's poker value, and the ruleset's memo of ANTE and BET texts."""
    return poker_value(dealer.cards), bj.compiled(rules).cache("poker_texts")


def _audit_seat(
    seat: bj.Seat,
    dealer: bj.Dealer,
    rules,
    context: AuditContext | None,
    out: list[Settlement],
    findings: list[Finding],
    facts: object,
) -> Decimal:
    """The game's hooks in one call (the audit's hot path); ``facts`` is :func:`_round_facts`'s,
    worked out once per round. A seat with its 21 bet alone has nothing here."""
    if len(seat.wagers) == 1:
        return ZERO
    _settle_seat(seat, dealer, rules, out, facts)  # type: ignore[arg-type]
    findings += _rule_findings(seat, rules)
    return _side_live(seat, dealer.upcard, rules)


_FOLD_TEXT = "player folded (no BET); Ante loses"


# The ANTE and BET explanations by (player value, dealer value, dealer natural), kept in the
# ruleset's memo "poker_texts": a pure function of those three, at most 91 * 91 * 2 of them.


def _poker_texts(p: int, d: int, dealer_natural: bool) -> tuple[str, str]:
    """The ANTE and BET explanations of a poker hand against the dealer's."""
    pt, dt = _POKER_TEXT[p], _POKER_TEXT[d]
    if dealer_natural:
        bet_text = f"dealer blackjack: Bet pushes ({pt} against dealer {dt})"
        if p > d:
            return f"dealer blackjack; {pt} beats dealer {dt}: Ante wins 1 to 1", bet_text
        if p < d:
            return f"dealer blackjack; {pt} loses to dealer {dt}: Ante loses", bet_text
        return f"dealer blackjack; {pt} ties dealer {dt}: Ante pushes", bet_text
    if d < QUALIFY:
        return (
            f"dealer {dt} does not qualify (needs Queen-high); Ante wins 1 to 1 ({pt})",
            f"dealer {dt} does not qualify (needs Queen-high); Bet pushes ({pt})",
        )
    if p > d:
        text = f"{pt} beats dealer {dt}; Ante and Bet win 1 to 1"
    elif p < d:
        text = f"{pt} loses to dealer {dt}; Ante and Bet lose"
    else:
        text = f"{pt} ties dealer {dt}; Ante and Bet push"
    return text, text


def _settle_poker(
    number: int,
    ante: Decimal,
    bet: Decimal,
    p: int,
    d: int,
    dealer_natural: bool,
    memo: dict,
) -> tuple:
    """ANTE and BET of a seat that made both: ``p`` and ``d`` are the player's and dealer's
    poker values, ``memo`` the ruleset's memo of their texts."""
    key = (p * 2048 + d) * 2 + (1 if dealer_natural else 0)
    texts = memo.get(key)
    if texts is None:
        texts = remember(memo, key, _poker_texts(p, d, dealer_natural))
    ante_text, bet_text = texts
    if dealer_natural:
        if p > d:
            ante_st = make_settlement(number, ANTE, ante, ante, WIN, ante_text)
        elif p < d:
            ante_st = make_settlement(number, ANTE, ante, -ante, LOSE, ante_text)
        else:
            ante_st = make_settlement(number, ANTE, ante, ZERO, PUSH, ante_text)
        return ante_st, make_settlement(number, BET, bet, ZERO, PUSH, bet_text)
    if d < QUALIFY:
        return (
            make_settlement(number, ANTE, ante, ante, WIN, ante_text),
            make_settlement(number, BET, bet, ZERO, PUSH, bet_text),
        )
    if p > d:
        return (
            make_settlement(number, ANTE, ante, ante, WIN, ante_text),
            make_settlement(number, BET, bet, bet, WIN, bet_text),
        )
    if p < d:
        return (
            make_settlement(number, ANTE, ante, -ante, LOSE, ante_text),
            make_settlement(number, BET, bet, -bet, LOSE, bet_text),
        )
    return (
        make_settlement(number, ANTE, ante, ZERO, PUSH, ante_text),
        make_settlement(number, BET, bet, ZERO, PUSH, bet_text),
    )


def _settle_bonus(number: int, bonus: Decimal, c1: int, c2: int, upcard: int, rules) -> Settlement:
    cat = poker_bonus_category(c1, c2, upcard)
    if cat is None:
        return make_settlement(
            number,
            POKER_BONUS,
            bonus,
            -bonus,
            LOSE,
            f"no pair in the first two cards ({bj.TWO_TEXT[c1 * 52 + c2]}); Poker Bonus loses",
        )
    odds = rules.poker_bonus_paytable[cat]
    net = bj.pay_odds(bonus, odds, rules)
    cards = (c1, c2, upcard) if "three" in cat else (c1, c2)
    return make_settlement(
        number,
        POKER_BONUS,
        bonus,
        net,
        WIN if net > 0 else LOSE if net < 0 else PUSH,
        f"{_CATEGORY_TEXT[cat]} ({cards_text(cards)}); Poker Bonus pays {odds_text(odds)}",
    )


SPEC = bj.GameSpec(key=ANTE_UP_21, wagers=WAGERS, rule_findings=_rule_findings, side_live=_side_live,
                   wagers_refused=_wagers_refused, audit_seat=_audit_seat, round_facts=_round_facts)

# --------------------------------------------------------------------------------------
# The contract (tables.games.__init__)


parse_round, audit, round_to_dict, simulate_round = bj.contract(SPEC)


__all__ = [
    "audit",
    "parse_round",
    "poker_bonus_category",
    "poker_text",
    "poker_value",
    "qualifies",
    "recorded_nets",
    "round_to_dict",
    "simulate_round",
]
