"""Upcard Luck 21 with Taxpayer's Fortune (rules/upcard-luck-21.txt).

Wagers (keys of a seat's ``wagers``): ``21`` (required), ``insurance``, ``upcard_luck``
(optional side bet), ``taxpayers_fortune`` (the marker, only with an Upcard Luck bet).
Settlements add ``taxpayers_fortune_tax`` (net = minus the tax collected, stake = the
marker) and, when it hits, ``taxpayers_fortune_jackpot`` (net = the award, ``line`` = the
award line, stake 0: the tax row carries the marker). Recorded pays use the same keys.
The round's JSON form is the shared blackjack form of :mod:`tables.games.blackjack.audit`.

Rulings made here:

* The tax row is settled on every marker: upcard 2-7 and a taxable category -> the tax is
  collected (outcome lose); otherwise the player keeps the marker (push).
* A marker of another amount than the ruleset's, a marker without Upcard Luck, or a marker
  at a table that does not offer Taxpayer's Fortune is a finding; the marker is still
  settled as placed.
* "Tax paid" for the jackpot = a tax above 0 actually collected on this hand.
* Jackpot line: by the number of cards in the dealer's busted hand (upcard and hole card
  count; 8 or more share a line) and suited/unsuited blackjack (A-J of spades is suited).
"""

from __future__ import annotations

from decimal import Decimal

from ..settings.paytables import (
    JACKPOT_LINE_NAMES,
    UPCARD_LUCK_CATEGORY_NAMES,
    UPCARD_LUCK_LIVE_UPCARDS,
    jackpot_line_key,
)
from ..vocabulary.base import LOSE, PUSH, RULE_VIOLATION, WIN, AuditContext, Finding, Settlement
from ..vocabulary.base import recorded_nets as recorded_nets
from ..vocabulary.cards import ACE, BJ_POINTS, JACK, RANK, SPADES, SUIT, TEN_VALUE, TEXT, cards_text
from ..vocabulary.catalogue import (
    RULE_TF_AMOUNT,
    RULE_TF_OFFERED,
    RULE_TF_UL,
    RULE_UL,
    TAXPAYERS_FORTUNE,
    TAXPAYERS_FORTUNE_NOT_OFFERED,
    TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK,
    TAXPAYERS_FORTUNE_WRONG_AMOUNT,
    UPCARD_LUCK,
    UPCARD_LUCK_21,
    UPCARD_LUCK_ABOVE_21_BET,
)
from ..vocabulary.catalogue import TAXPAYERS_FORTUNE_JACKPOT as JACKPOT
from ..vocabulary.catalogue import TAXPAYERS_FORTUNE_TAX as TAX
from ..vocabulary.money import ZERO, money_text, odds_text
from . import audit as bj

make_settlement = bj.make_settlement

WAGERS = (UPCARD_LUCK, TAXPAYERS_FORTUNE)

FINDING_CODES = (
    UPCARD_LUCK_ABOVE_21_BET,
    TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK,
    TAXPAYERS_FORTUNE_WRONG_AMOUNT,
    TAXPAYERS_FORTUNE_NOT_OFFERED,
)

# --------------------------------------------------------------------------------------
# Categories of the first two cards


def upcard_luck_category(a: int, b: int) -> str | None:
    """The single highest Upcard Luck category of two cards, or None (RULINGS.md)."""
    ra, rb = RANK[a], RANK[b]
    suited = SUIT[a] == SUIT[b]
    if suited and SUIT[a] == SPADES and {ra, rb} == {ACE, JACK}:
        return "ace_jack_spades"
    if suited and {ra, rb} == {3, 8}:
        return "suited_3_8"
    if suited and ra != ACE and rb != ACE and BJ_POINTS[a] + BJ_POINTS[b] == 11:
        return "suited_11"
    if (ra == ACE and TEN_VALUE[b]) or (rb == ACE and TEN_VALUE[a]):
        return "blackjack"
    total, soft = bj.hand_total((a, b))
    if not soft and ra != ACE and rb != ACE and 9 <= total <= 11:
        return "nine_ten_eleven"
    if 18 <= total <= 20:
        return "eighteen_to_twenty"
    return None


def tax_category(a: int, b: int) -> str | None:
    """The tax schedule's category: Upcard Luck's, with 20 apart from 18 and 19."""
    cat = upcard_luck_category(a, b)
    if cat == "eighteen_to_twenty":
        return "twenty" if bj.hand_total((a, b))[0] == 20 else "eighteen_nineteen"
    return cat


_UL_TABLE = tuple(upcard_luck_category(a, b) for a in range(52) for b in range(52))
_TAX_TABLE = tuple(tax_category(a, b) for a in range(52) for b in range(52))


def upcard_live(upcard: int) -> bool:
    return BJ_POINTS[upcard] in UPCARD_LUCK_LIVE_UPCARDS and RANK[upcard] != ACE


_LIVE_UP = tuple(upcard_live(c) for c in range(52))


def tax_due(first_two: tuple[int, int], upcard: int, rules) -> Decimal:
    """The Taxpayer's Fortune tax on these first two cards against this upcard (0: none)."""
    if not _LIVE_UP[upcard]:
        return ZERO
    c1, c2 = first_two
    cat = _TAX_TABLE[c1 * 52 + c2]
    return rules.tax_schedule[cat] if cat is not None else ZERO


def jackpot_hit(seat: bj.Seat, dealer: bj.Dealer, taxed: bool) -> bool:
    """The Taxpayer's Fortune jackpot: a blackjack that paid its tax, against a dealer who
    busted with five cards or more."""
    return taxed and seat.hands[0].natural and dealer.busted and len(dealer.cards) >= 5


def jackpot_line(first_two: tuple[int, int], dealer_cards_count: int) -> str:
    a, b = first_two
    return jackpot_line_key(dealer_cards_count, SUIT[a] == SUIT[b])


def jackpot_amount(line: str, rules, context: AuditContext | None) -> Decimal:
    if line in rules.progressive_lines:
        amounts = context.jackpot_amounts if context is not None else {}
        if line not in amounts:
            raise ValueError(
                f"Taxpayer's Fortune line {line} is progressive: the audit needs its meter "
                "amount in AuditContext.jackpot_amounts"
            )
        return Decimal(amounts[line])
    column = rules.jackpot_columns.get(rules.decks)
    if column is None:
        raise ValueError(f"no Taxpayer's Fortune column for a {rules.decks}-deck shoe")
    return column[line]


def _ul_odds(rules) -> dict:
    """``rules.upcard_luck_odds`` built once per ruleset (the property builds a dict), kept
    with the compiled ruleset."""
    odds = bj.compiled(rules).cache("upcard_luck_odds")
    if not odds:
        odds.update(rules.upcard_luck_odds)
    return odds


# --------------------------------------------------------------------------------------
# The game hooks


def _rule_findings(seat: bj.Seat, rules) -> list[Finding]:
    """The table's rules on this game's wagers (paths are written only for a finding)."""
    out = bj.above_21_bet(seat, UPCARD_LUCK, "Upcard Luck", UPCARD_LUCK_ABOVE_21_BET, RULE_UL)
    w = seat.wagers
    tf = w.get(TAXPAYERS_FORTUNE)
    if tf is not None:
        if not rules.taxpayers_fortune:
            out.append(
                Finding(
                    TAXPAYERS_FORTUNE_NOT_OFFERED,
                    RULE_VIOLATION,
                    f"Seat {seat.seat} has a Taxpayer's Fortune marker at a table that does not offer it.",
                    f"seats[{seat.index}].wagers.taxpayers_fortune",
                    RULE_TF_OFFERED,
                    "no marker",
                    money_text(tf),
                    tf,
                    seat.seat,
                )
            )
        if UPCARD_LUCK not in w:
            out.append(
                Finding(
                    TAXPAYERS_FORTUNE_WITHOUT_UPCARD_LUCK,
                    RULE_VIOLATION,
                    f"Seat {seat.seat} has a Taxpayer's Fortune marker without an Upcard Luck bet.",
                    f"seats[{seat.index}].wagers.taxpayers_fortune",
                    RULE_TF_UL,
                    "an Upcard Luck bet",
                    "none",
                    tf,
                    seat.seat,
                )
            )
        out += bj.wrong_amount(seat, TAXPAYERS_FORTUNE, "Taxpayer's Fortune marker", rules.taxpayers_fortune_marker,
                               "the marker", TAXPAYERS_FORTUNE_WRONG_AMOUNT, RULE_TF_AMOUNT)
    return out


def _side_live(seat: bj.Seat, upcard: int, rules) -> Decimal:
    """A marker that paid tax on a blackjack (upcard 2-7) is live for the jackpot."""
    tf = seat.wagers.get(TAXPAYERS_FORTUNE)
    if tf is None or not seat.hands[0].natural:
        return ZERO
    return tf if tax_due(seat.first_two, upcard, rules) > 0 else ZERO


def _settle(
    seat: bj.Seat, dealer: bj.Dealer, rules, context: AuditContext | None, out: list[Settlement]
) -> None:
    """This game's side wagers settled: the one definition (the audit reaches it through the
    game's hooks)."""
    w = seat.wagers
    ul = w.get(UPCARD_LUCK)
    tf = w.get(TAXPAYERS_FORTUNE)
    c1, c2 = seat.first_two
    up = dealer.upcard
    if ul is not None:
        out.append(_settle_upcard_luck(seat.seat, ul, c1, c2, up, rules))
    if tf is not None:
        tax = _settle_tax(seat.seat, tf, seat.first_two, up, rules)
        out.append(tax)
        if jackpot_hit(seat, dealer, tax.net < 0):
            out.append(_settle_jackpot(seat, dealer, rules, context))


def _settle_upcard_luck(number: int, ul: Decimal, c1: int, c2: int, up: int, rules) -> Settlement:
    cat = _UL_TABLE[c1 * 52 + c2] if _LIVE_UP[up] else None
    first = bj.TWO_TEXT[c1 * 52 + c2]
    if cat is None:
        why = f"dealer upcard {TEXT[up]} is not 2 to 7" if not _LIVE_UP[up] else (
            f"first two cards {first} make no Upcard Luck hand")
        return make_settlement(number, UPCARD_LUCK, ul, -ul, LOSE, f"{why}; Upcard Luck loses")
    odds = _ul_odds(rules)[cat]
    net = bj.pay_odds(ul, odds, rules)
    return make_settlement(
        number,
        UPCARD_LUCK,
        ul,
        net,
        WIN,
        f"{UPCARD_LUCK_CATEGORY_NAMES[cat]} ({first}) with dealer {TEXT[up]} up; "
        f"Upcard Luck pays {odds_text(odds)} (table {rules.upcard_luck_paytable})",
    )


def _settle_tax(number: int, tf: Decimal, first_two: tuple[int, int], up: int, rules) -> Settlement:
    tax = tax_due(first_two, up, rules)
    c1, c2 = first_two
    if tax > 0:
        return make_settlement(
            number,
            TAX,
            tf,
            -tax,
            LOSE,
            f"{bj.TWO_TEXT[c1 * 52 + c2]} with dealer {TEXT[up]} up is taxable; "
            f"tax {money_text(tax)} collected",
        )
    why = (
        f"dealer upcard {TEXT[up]} is not 2 to 7"
        if not _LIVE_UP[up]
        else f"{bj.TWO_TEXT[c1 * 52 + c2]} owes no tax"
    )
    return make_settlement(number, TAX, tf, ZERO, PUSH, f"{why}; player keeps the marker")


def _settle_jackpot(
    seat: bj.Seat, dealer: bj.Dealer, rules, context: AuditContext | None
) -> Settlement:
    n = len(dealer.cards)
    line = jackpot_line(seat.first_two, n)
    amount = jackpot_amount(line, rules, context)
    source = (
        "progressive meter" if line in rules.progressive_lines else f"{rules.decks}-deck column"
    )
    return make_settlement(
        seat.seat,
        JACKPOT,
        ZERO,
        amount,
        WIN,
        f"Taxpayer's Fortune jackpot: {JACKPOT_LINE_NAMES[line]} "
        f"({cards_text(seat.first_two)} against {dealer.text}); pays "
        f"{money_text(amount)} ({source})",
        line=line,
    )


SPEC = bj.GameSpec(key=UPCARD_LUCK_21, wagers=WAGERS, rule_findings=_rule_findings, side_live=_side_live,
                   settle=_settle, pay_wagers=(TAX, JACKPOT))

# --------------------------------------------------------------------------------------
# The contract (tables.games.__init__)


parse_round, audit, round_to_dict, simulate_round = bj.contract(SPEC)
