"""The blackjack games' rule checks: the dealer's facts and draw, the player's splits and
doubles, insurance and even money. Each check reads the parsed round (``rounds``)
and gives findings; the wagers are settled in ``blackjack``.
"""

from __future__ import annotations

from decimal import Decimal

from ..vocabulary.base import (
    PROCEDURE,
    RULE_VIOLATION,
    Finding,
)
from ..vocabulary.cards import (
    ACE,
    RANK,
    TEN_VALUE,
    TEXT,
    cards_text,
)
from ..vocabulary.catalogue import (  # the shared blackjack's finding codes and rules (game modules add their own)
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
from ..vocabulary.hands import blackjack_total as hand_total
from ..vocabulary.hands import dealer_must_draw
from ..vocabulary.money import CENT, ZERO, money_text
from .rounds import Dealer, GameSpec, Hand, Round, Seat

#: The first-two-card totals a double is allowed on, by the ruleset's ``double_on``.
DOUBLE_TOTALS = {"9_10_11": frozenset({9, 10, 11}), "10_11": frozenset({10, 11})}


# --------------------------------------------------------------------------------------
# Small pure helpers (also for the exact-math engineer)


def is_natural_pair(a: int, b: int) -> bool:
    return (RANK[a] == ACE and TEN_VALUE[b]) or (RANK[b] == ACE and TEN_VALUE[a])


#: cards_text of every two cards, by ``a * 52 + b`` (explanations name the first two cards).
TWO_TEXT = tuple(f"{TEXT[a]}-{TEXT[b]}" for a in range(52) for b in range(52))


def total_text(total: int, soft: bool) -> str:
    return f"soft {total}" if soft else str(total)


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


def dealer_facts(cards: tuple[int, ...], rules, missed: bool) -> Dealer:
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
            live += hand_live(h, stake)
        live += spec.side_live(s, up, rules)
    return live


def hand_live(h: Hand, stake: Decimal) -> Decimal:
    """The money on a hand's 21 bet that still depends on the dealer's draw: none once it
    busted or is a natural, twice the stake when doubled."""
    return ZERO if h.busted or h.natural else stake + stake if h.doubled else stake


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


def above_21_bet(seat: Seat, wager: str, label: str, code: str, rule: str) -> list[Finding]:
    """A side wager the card caps at the 21 bet (Ante Up 21's ANTE, Upcard Luck 21's Upcard
    Luck): its finding when the seat placed it above, else none."""
    amount, stake21 = seat.wagers.get(wager), seat.wagers[W21]
    if amount is None or amount <= stake21:
        return []
    return [Finding(code, RULE_VIOLATION,
                    f"Seat {seat.seat} {label} {money_text(amount)} is above the 21 bet {money_text(stake21)}.",
                    f"seats[{seat.index}].wagers.{wager}", rule, f"at most {money_text(stake21)}",
                    money_text(amount), amount - stake21, seat.seat)]


def wrong_amount(seat: Seat, wager: str, label: str, fixed: Decimal, fixed_label: str, code: str,
                 rule: str) -> list[Finding]:
    """A side wager the table fixes at one amount (Ante Up 21's Poker Bonus, Upcard Luck 21's
    Taxpayer's Fortune marker): its finding when the seat placed another, else none."""
    amount = seat.wagers.get(wager)
    if amount is None or amount == fixed:
        return []
    return [Finding(code, RULE_VIOLATION,
                    f"Seat {seat.seat} {label} is {money_text(amount)}; {fixed_label} is {money_text(fixed)}.",
                    f"seats[{seat.index}].wagers.{wager}", rule, money_text(fixed), money_text(amount),
                    abs(amount - fixed), seat.seat)]
