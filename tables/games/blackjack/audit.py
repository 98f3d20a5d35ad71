"""The blackjack games' settlement and audit: the 21 bet and insurance settled, the game's
side wagers through its :class:`GameSpec`, every check run and the recorded pays compared.

What the three games have in common lives in three modules, each importing only the ones
before it: ``rounds`` (the JSON form, the model, the one parser), ``checks``
(the dealer's draw, the player's play, insurance) and this one. Each game module adds its own
side wagers through a :class:`GameSpec` (wager names, rule findings, which side wagers keep
the dealer drawing, and their settlement). This module re-exports the names of the other two,
so a game module needs only ``from . import audit as bj``.

House rulings made here (beyond RULINGS.md):

* A dealer who stands or draws against the rule is a finding; the wagers are still settled
  on the cards as they fell (that is what happened at the table).
* Missed peek (peek on, the dealer had a natural, yet the players played on): only the
  original 21 bets are settled against the natural; the extra money put out for doubles and
  splits is returned (pushes), as a casino manual does for its own procedural error.
* Dealer not peeking (``dealer_peeks`` off): a dealer natural takes doubles and splits too.
* Double is for the full original bet. A natural takes no more cards.
* A split of two ten-values of different ranks when ``split_any_ten_values`` is off is a
  rule finding; a split of cards of different values is impossible input.
* Resplitting Aces against the rules is a finding; a card drawn to a split Ace (hit or
  double) when ``hit_split_aces`` is off is impossible input (the brief says so).
"""

from __future__ import annotations

from decimal import Decimal
from operator import itemgetter

from ..vocabulary.base import (
    LOSE,
    PUSH,
    WIN,
    Audit,
    AuditContext,
    Finding,
    Settlement,
    compare_recorded,
    make_audit,
    make_settlement,
    remember,
    simulator,
)
from ..vocabulary.cards import cards_text
from ..vocabulary.catalogue import INSURANCE, W21
from ..vocabulary.money import CENT, ZERO, money_text, pays
from .checks import (
    TWO_TEXT,
    above_21_bet,
    dealer_facts,
    dealer_findings,
    dealer_must_draw,
    hand_live,
    hand_total,
    insurance_findings,
    insurance_stake,
    is_natural_pair,
    live_stake,
    play_findings,
    played_on,
    wrong_amount,
)
from .rounds import (
    DOUBLE,
    HIT,
    SPLIT,
    STAND,
    BlackjackCompiled,
    Dealer,
    GameSpec,
    Hand,
    Round,
    Seat,
    compiled,
    make_round,
    parse_round,
    round_to_dict,
)

#: What the game modules, the simulator and the tests read through this module (besides its
#: own settlement and audit): ``from . import audit as bj`` is all a game needs.
__all__ = [
    "DOUBLE", "HIT", "SPLIT", "STAND", "TWO_TEXT", "W21", "Dealer", "GameSpec", "Hand", "Round", "Seat",
    "above_21_bet", "audit", "compiled", "contract", "dealer_must_draw", "hand_total", "is_natural_pair", "live_stake",
    "make_audit", "make_round", "make_settlement", "parse_round", "pay_odds", "played_on", "round_to_dict",
    "settle_hand", "wrong_amount",
]  # fmt: skip


def pay_odds(stake: Decimal, odds: Decimal, rules) -> Decimal:
    """ "Pays ``odds`` to 1" on ``stake`` with the ruleset's rounding; whole odds stay exact."""
    if odds == odds.to_integral_value():
        return stake * int(odds)
    c = compiled(rules)
    return pays(stake, odds, c.unit, c.direction)


# --------------------------------------------------------------------------------------
# Settlement of the 21 bet and insurance

def _explain(key: tuple, c: BlackjackCompiled) -> str:
    """Explanations repeat endlessly; build each once under the ruleset."""
    text = c.explanations.get(key)
    return text if text is not None else remember(c.explanations, key, _build_explanation(key))


def _build_explanation(key: tuple) -> str:
    kind = key[0]
    if kind == "nat":
        return f"blackjack pays {key[1]}"
    if kind == "nat_push":
        return "blackjack against dealer blackjack: push"
    if kind == "dnat":
        return f"dealer blackjack beats {key[1]}; {'doubled hand ' if key[2] else ''}loses"
    if kind == "peek_lost":
        return f"dealer blackjack beats {key[1]}; original bet loses (missed peek: doubles and splits returned)"
    if kind == "peek_returned":
        return "split hand returned: dealer blackjack should have ended the round at the peek"
    pre = "doubled " if key[-1] else ""
    if kind == "bust":
        return f"{pre}hand busts with {key[1]}; loses"
    if kind == "dbust":
        return f"dealer busts with {key[2]}; {pre}{key[1]} wins 1 to 1"
    if kind == "win":
        return f"{pre}{key[1]} beats dealer {key[2]}; wins 1 to 1"
    if kind == "lose":
        return f"{pre}{key[1]} loses to dealer {key[2]}"
    if kind == "push":
        return f"{pre}{key[1]} ties dealer {key[2]}; push"
    raise AssertionError(key)


def settle_hand(number: int, base: Decimal, i: int, h: Hand, dealer: Dealer, rules) -> Settlement:
    """The 21 bet of one hand (``base`` is the seat's 21 bet; a double puts out as much again)."""
    c = compiled(rules)
    stake = base + base if h.doubled else base
    p_total = h.total
    if dealer.natural:
        if h.natural:
            return make_settlement(number, W21, stake, ZERO, PUSH, _explain(("nat_push",), c), i)
        if dealer.missed_peek:
            if i == 0:
                return make_settlement(
                    number, W21, stake, -base, LOSE, _explain(("peek_lost", p_total), c), i
                )
            return make_settlement(number, W21, stake, ZERO, PUSH, _explain(("peek_returned",), c), i)
        return make_settlement(
            number, W21, stake, -stake, LOSE, _explain(("dnat", p_total, h.doubled), c), i
        )
    if h.natural:
        net = (stake * c.natural_odds).quantize(CENT)
        if not c.exact or net != stake * c.natural_odds:
            net = pays(stake, c.natural_odds, c.unit, c.direction)
        return make_settlement(number, W21, stake, net, WIN, _explain(("nat", c.natural_text), c), i)
    d_total = dealer.total
    if h.busted:
        return make_settlement(
            number, W21, stake, -stake, LOSE, _explain(("bust", p_total, h.doubled), c), i
        )
    if dealer.busted:
        return make_settlement(
            number, W21, stake, stake, WIN, _explain(("dbust", p_total, d_total, h.doubled), c), i
        )
    if p_total > d_total:
        return make_settlement(
            number, W21, stake, stake, WIN, _explain(("win", p_total, d_total, h.doubled), c), i
        )
    if p_total < d_total:
        return make_settlement(
            number, W21, stake, -stake, LOSE, _explain(("lose", p_total, d_total, h.doubled), c), i
        )
    return make_settlement(
        number, W21, stake, ZERO, PUSH, _explain(("push", p_total, d_total, h.doubled), c), i
    )


def settle_insurance(seat: Seat, dealer: Dealer, out: list[Settlement]) -> None:
    ins = insurance_stake(seat)
    if ins is None:
        return
    what = "even money (insurance on a natural)" if seat.even_money else "insurance"
    if dealer.natural:
        out.append(
            make_settlement(
                seat.seat,
                INSURANCE,
                ins,
                ins + ins,
                WIN,
                f"dealer has blackjack ({cards_text(dealer.cards[:2])}); {what} pays 2 to 1",
            )
        )
    else:
        out.append(
            make_settlement(
                seat.seat,
                INSURANCE,
                ins,
                -ins,
                LOSE,
                f"dealer has no blackjack ({cards_text(dealer.cards[:2])}); {what} loses",
            )
        )


# --------------------------------------------------------------------------------------
# The audit


_FIRST = itemgetter(0)


def _settle_hand_memo(
    number: int,
    base: Decimal,
    i: int,
    h: Hand,
    dealer: Dealer,
    rules,
    peek_natural: bool,
    key: object,
    c: BlackjackCompiled,
) -> tuple:
    """A 21 bet's settlement and the money it leaves depending on the dealer's draw
    (``key`` None: not kept)."""
    st = settle_hand(number, base, i, h, dealer, rules)
    live = ZERO if peek_natural else hand_live(h, base)
    hit = (st, live)
    return hit if key is None else remember(c.hands21, key, hit)


def _audit_seat_hooks(
    s: Seat,
    dealer: Dealer,
    rules,
    context: AuditContext | None,
    settlements: list[Settlement],
    findings: list[Finding],
    spec: GameSpec,
) -> Decimal:
    """The side wagers of one seat through the game's three separate hooks (``facts`` is the
    spec itself here). A seat with its 21 bet alone has no side wager to settle, judge or keep
    live: most seats, and no hook is called for them."""
    if len(s.wagers) == 1:
        return ZERO
    spec.settle(s, dealer, rules, context, settlements)
    if len(s.wagers) > 1:
        findings += spec.rule_findings(s, rules)
    return spec.side_live(s, dealer.upcard, rules)


def audit(rnd: Round, rules, spec: GameSpec, context: AuditContext | None = None) -> Audit:
    """Settle every wager, replay the dealer, check the table rules, compare recorded pays.

    Settlements and findings come out ordered by seat number, so the order of the seats in
    the JSON never changes the answer. This is the engine's hot path: the 21 bets and the
    dealer's facts come from memos of the ruleset's :class:`BlackjackCompiled`, the checks that find
    nothing on a normal round are gated by cheap tests; tests/games/test_blackjack_parser.py
    checks that the memos change no answer.
    """
    c = compiled(rules)
    cards = rnd.dealer
    dealers = c.dealers
    known = dealers.get(cards)
    if known is None:
        known = remember(dealers, cards, (dealer_facts(cards, rules, False), cards_text(cards)))
    dealer, dealer_text = known
    peek_natural = dealer.natural and c.peeks
    if peek_natural and played_on(rnd):
        dealer = dealer._replace(missed_peek=True)
        dk = 0
    else:
        dk = 1 if dealer.natural else dealer.total + 2
    seats = tuple(rnd.seats)
    n_seats = len(seats)
    last = 0
    for k in range(n_seats):  # already in seat order, as the tablet sends them?
        number = seats[k].seat
        if number < last:
            seats = tuple(sorted(seats, key=_FIRST))
            break
        last = number
    hands21 = c.hands21
    audit_seat = spec.audit_seat
    if audit_seat is None:
        audit_seat, facts = _audit_seat_hooks, spec
    else:
        facts = spec.round_facts(dealer, rules) if spec.round_facts is not None else None
    upcard = dealer.upcard
    live = ZERO
    settlements = []
    seat_findings = []
    mismatch = False
    for k in range(n_seats):
        seat = seats[k]
        number = seat.seat
        wagers = seat.wagers
        hands = seat.hands
        base = wagers[W21]
        start = len(settlements)
        i = 0
        for hand in hands:
            # (total, natural, doubled) and the dealer decide the 21 bet; one int says which.
            total = hand.total
            if number < 16 and 0 <= total < 1024 and 0 <= dk < 64:
                key = (
                    base,
                    (((i * 16 + number) * 64 + dk) * 1024 + total) * 4
                    + (2 if hand.natural else 0)
                    + (1 if hand.doubled else 0),
                )
                hit = hands21.get(key)
                if hit is None:
                    hit = _settle_hand_memo(
                        number, base, i, hand, dealer, rules, peek_natural, key, c
                    )
            else:
                hit = _settle_hand_memo(
                    number, base, i, hand, dealer, rules, peek_natural, None, c
                )
            settlements.append(hit[0])
            if hit[1] is not ZERO:
                live += hit[1]
            i += 1
        if seat.even_money or INSURANCE in wagers:
            settle_insurance(seat, dealer, settlements)
            seat_findings += insurance_findings(seat, rules, upcard)
        side = audit_seat(seat, dealer, rules, context, settlements, seat_findings, facts)
        if side is not ZERO and side and not peek_natural:
            live += side
        if i > 1 or hands[0].doubled:
            seat_findings += play_findings(seat, rules)
        # The recorded pays, in order, against this seat's settlements; any difference sends
        # the round through compare_recorded (which says what is wrong).
        recorded = seat.recorded
        if recorded and not mismatch:
            if len(recorded) != len(settlements) - start:
                mismatch = True
            else:
                for rec in recorded:
                    st = settlements[start]
                    if st.net != rec[2] or st.wager != rec[0] or st.hand != rec[1]:
                        mismatch = True
                        break
                    start += 1
    # The dealer's drawing: a memo of "nothing to report" by cards and whether money was live.
    ok_key = (cards, live > 0)
    dealer_ok = c.dealer_ok
    if dealer.missed_peek or not dealer_ok.get(ok_key):
        findings = dealer_findings(rnd, rules, dealer, live)
        if not findings and not dealer.missed_peek:
            remember(dealer_ok, ok_key, True)
        findings += seat_findings
    else:
        findings = seat_findings
    if mismatch:
        findings += compare_recorded(settlements, [p for s in seats for p in s.paid])
    live_texts = c.live_texts
    live_text = live_texts.get(live)
    if live_text is None:
        live_text = remember(live_texts, live, money_text(live))
    summary = {
        "dealer_cards": dealer_text,
        "dealer_total": dealer.total,
        "dealer_soft": dealer.soft,
        "dealer_natural": dealer.natural,
        "dealer_busted": dealer.busted,
        "live_stake": live_text,
    }
    return make_audit(tuple(settlements), tuple(findings), summary)


def contract(spec: GameSpec):
    """Four of the entry points every game module provides
    (:class:`tables.games.game_module.GameModule`), bound to ``spec``."""

    def parse_round_(data, rules) -> Round:
        return parse_round(data, rules, spec)

    def audit_(rnd: Round, rules, context: AuditContext | None = None) -> Audit:
        return audit(rnd, rules, spec, context)

    def simulate_round_(rng, rules, *, seats: int, inject: frozenset[str] = frozenset()) -> dict:
        return simulator(spec.key)(rng, rules, seats=seats, inject=inject)

    return parse_round_, audit_, round_to_dict, simulate_round_
