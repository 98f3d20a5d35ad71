"""Hold'em Blackjack: what may happen next in a hand that is being recorded.

The tablet records a hand action by action (the JSON log of :mod:`.holdem_blackjack`).
After each action it asks :func:`next_step` what the table expects now: which posts are
due, whose card comes next, whose turn it is to bet and which betting actions are legal,
and with what amounts. The tablet offers those as buttons; it still accepts any other
action (a dealer's mistake must be recordable), and :func:`.holdem_blackjack.audit` judges
the finished hand. This module only *suggests*: it never refuses anything.

It follows the same house rulings as the audit (see that module's docstring): clockwise =
rising seat numbers; heads-up, the button posts the small blind; the big blind is round
1's bet; at most ``1 + max_raises`` bets and raises per round; fixed sizes in rounds 1
and 2, a spread of ``final_min_multiple``..``final_max_multiple`` big blinds in the final
round; hand completion from left of the button, hit or stand, up to ``max_cards`` cards.
A log that does not fit (out of turn, wrong amounts) is replayed leniently: amounts are
taken as recorded and the turn moves on from whoever acted.

Pure Python, no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from .cards import BJ_POINTS, CardError, parse_card
from .holdem_pots import money_text_cents
from .rulesets import HoldemBlackjackRules

POSTS, HOLE, ROUND1, UP, ROUND2, COMPLETE, FINAL, SHOWDOWN, AWARDS = (
    "posts",
    "hole",
    "round1",
    "up",
    "round2",
    "complete",
    "final",
    "showdown",
    "awards",
)
BETTING = {ROUND1: 1, ROUND2: 2, FINAL: 3}
_BETTING_ACTIONS = frozenset({"check", "fold", "bet", "call", "raise", "all_in"})


def _cents(value: object) -> int:
    try:
        return int((Decimal(str(value)) * 100).to_integral_value())
    except (InvalidOperation, ValueError, TypeError):
        return 0


def _total(cards: list[int]) -> int:
    """Best blackjack total (an Ace counts 11 when that does not pass 21)."""
    total = sum(BJ_POINTS[c] for c in cards)
    if any(BJ_POINTS[c] == 1 for c in cards) and total + 10 <= 21:
        total += 10
    return total


class _Hand:
    """The lenient replay: where the log has got to."""

    def __init__(self, data: Mapping, rules: HoldemBlackjackRules):
        self.rules = rules
        self.bb = _cents(rules.big_blind)
        self.sb = int(rules.small_blind * 100)
        self.ante = int(rules.ante * 100)
        seats = sorted(
            {
                int(s["seat"])
                for s in data.get("seats", ())
                if isinstance(s, Mapping) and "seat" in s
            }
        )
        stacks = {
            int(s["seat"]): _cents(s.get("stack"))
            for s in data.get("seats", ())
            if isinstance(s, Mapping) and "seat" in s
        }
        button = data.get("button")
        if button in seats:
            b = seats.index(button)
            self.clock = (
                seats[b + 1 :] + seats[: b + 1]
            )  # left of the button first, the button last
        else:
            self.clock = seats
        n = len(self.clock)
        if n == 2:  # heads-up: the button posts the small blind
            self.sb_seat, self.bb_seat = self.clock[1], self.clock[0]
        elif n > 2:
            self.sb_seat, self.bb_seat = self.clock[0], self.clock[1]
        else:
            self.sb_seat = self.bb_seat = None
        self.left = dict(stacks)
        self.folded: set[int] = set()
        self.all_in: set[int] = set()
        self.stood: set[int] = set()
        self.cards: dict[int, list[int]] = {s: [] for s in seats}
        self.hole: set[int] = set()
        self.up: set[int] = set()
        self.posted: dict[str, set[int]] = {"ante": set(), "small_blind": set(), "big_blind": set()}
        self.phase = POSTS
        self.inr = dict.fromkeys(seats, 0)
        self.bet = 0
        self.bets = 0
        self.need: set[int] = set()
        self.last: int | None = None  # who acted last in this betting round
        self.awarded = False
        self.showdown = False
        self.sb_amount: dict[int, int] = {}
        self.bb_amount: dict[int, int] = {}
        for action in data.get("actions", ()):
            if isinstance(action, Mapping):
                self._apply(action)

    # -- helpers --------------------------------------------------------------------------

    def live(self) -> list[int]:
        return [s for s in self.clock if s not in self.folded]

    def can_act(self) -> list[int]:
        return [s for s in self.clock if s not in self.folded and s not in self.all_in]

    def _start_betting(self, phase: str) -> None:
        self.phase = phase
        self.inr = dict.fromkeys(self.clock, 0)
        self.bet = self.bets = 0
        self.last = None
        if phase == ROUND1:
            for s in self.posted["small_blind"]:
                self.inr[s] = self.sb_amount.get(s, 0)
            for s in self.posted["big_blind"]:
                self.inr[s] = self.bb_amount.get(s, 0)
            self.bet = max(self.inr.values(), default=0)
            if self.bet < self.bb and self.posted["big_blind"] & self.all_in:
                # a big blind all in for less does not lower the bet (RULINGS.md)
                self.bet = self.bb
            self.bets = 1 if self.posted["big_blind"] else 0
            self.last = self.bb_seat
        self.need = set(self.can_act())

    def _betting_done(self) -> bool:
        if len(self.live()) <= 1:
            return True
        acting = self.can_act()
        matched = all(self.inr.get(s, 0) >= self.bet for s in acting)
        if len(acting) <= 1 and matched:
            return True  # nobody left to bet against
        return not self.need and matched

    def _advance(self) -> None:
        """Move past finished phases."""
        while True:
            if self.awarded:
                self.phase = AWARDS
                return
            if self.phase != POSTS and len(self.live()) <= 1:
                self.phase = AWARDS
                return
            if self.phase == HOLE and all(s in self.hole for s in self.live()):
                self._start_betting(ROUND1)
            elif self.phase in BETTING and self._betting_done():
                nxt = {ROUND1: UP, ROUND2: COMPLETE, FINAL: SHOWDOWN}[self.phase]
                self.phase = nxt
                if nxt == SHOWDOWN and self.showdown:
                    self.phase = AWARDS
            elif self.phase == UP and all(s in self.up for s in self.live()):
                self._start_betting(ROUND2)
            elif self.phase == COMPLETE and all(s in self.stood for s in self.live()):
                self._start_betting(FINAL)
            elif self.phase == SHOWDOWN and self.showdown:
                self.phase = AWARDS
            else:
                return

    # -- replay ---------------------------------------------------------------------------

    def _apply(self, a: Mapping) -> None:  # noqa: C901 - one branch per action kind
        kind = a.get("action")
        seat = a.get("seat")
        cents = _cents(a.get("amount")) if "amount" in a else 0
        if kind in ("ante", "small_blind", "big_blind"):
            self.posted[kind].add(seat)
            self._put(seat, cents)
            if kind == "small_blind":
                self.sb_amount[seat] = cents
            elif kind == "big_blind":
                self.bb_amount[seat] = cents
            return
        if kind in ("hole", "up", "hit"):
            if self.phase == POSTS:
                self.phase = HOLE
            try:
                card = parse_card(a.get("card"))
            except CardError:
                card = None
            if seat in self.cards and card is not None:
                self.cards[seat].append(card)
            if kind == "hole":
                self.hole.add(seat)
            elif kind == "up":
                if self.phase == ROUND1 or self.phase == HOLE:
                    self.phase = UP
                self.up.add(seat)
            self._advance()
            return
        if kind == "stand":
            if self.phase in (ROUND2, UP):
                self.phase = COMPLETE
            self.stood.add(seat)
            self._advance()
            return
        if kind in _BETTING_ACTIONS:
            if self.phase in (POSTS, HOLE):
                self._start_betting(ROUND1)
            elif self.phase == UP:
                self._start_betting(ROUND2)
            elif self.phase == COMPLETE:
                self._start_betting(FINAL)
            self._bet(kind, seat, cents)
            self._advance()
            return
        if kind == "showdown":
            self.showdown = True
            self.phase = AWARDS
        elif kind in ("award", "rake"):
            self.awarded = True
            self.phase = AWARDS

    def _put(self, seat, cents: int) -> None:
        if seat in self.left:
            self.left[seat] = max(0, self.left[seat] - cents)
            if self.left[seat] == 0:
                self.all_in.add(seat)

    def _bet(self, kind: str, seat, cents: int) -> None:
        if seat not in self.inr:
            return
        self.need.discard(seat)
        self.last = seat
        if kind == "fold":
            self.folded.add(seat)
            return
        if kind == "check":
            return
        self._put(seat, cents)
        self.inr[seat] += cents
        if self.inr[seat] > self.bet:
            size = self.inr[seat] - self.bet
            full = size >= self._size() or kind in ("bet", "raise")
            self.bet = self.inr[seat]
            if full:
                self.bets += 1
                self.need = {s for s in self.can_act() if s != seat}
            else:
                self.need |= {s for s in self.can_act() if s != seat and self.inr[s] < self.bet}

    # -- what next ------------------------------------------------------------------------

    def _size(self) -> int:
        if self.phase == ROUND1:
            return self.bb
        if self.phase == ROUND2:
            return self.bb * self.rules.round2_multiple
        return self.bb * self.rules.final_min_multiple

    def to_act(self) -> int | None:
        acting = self.can_act()
        if not acting:
            return None
        ring = self.clock
        start = (ring.index(self.last) + 1) % len(ring) if self.last in ring else 0
        for k in range(len(ring)):
            s = ring[(start + k) % len(ring)]
            if s in acting and (s in self.need or self.inr.get(s, 0) < self.bet):
                return s
        return None

    def options(self, seat: int) -> list[dict]:
        owed = max(0, self.bet - self.inr.get(seat, 0))
        left = self.left.get(seat, 0)
        out: list[dict] = []
        raises_left = self.bets < 1 + self.rules.max_raises
        if owed == 0:
            out.append({"action": "check"})
        else:
            out.append({"action": "fold"})
            if left > owed:
                out.append({"action": "call", "amount": money_text_cents(owed)})
        if raises_left:
            kind = "bet" if self.bet == 0 else "raise"
            if self.phase == FINAL:
                sizes = [
                    self.bb * m
                    for m in range(self.rules.final_min_multiple, self.rules.final_max_multiple + 1)
                ]
            else:
                sizes = [self._size()]
            for size in sizes:
                if owed + size < left:
                    out.append({"action": kind, "amount": money_text_cents(owed + size)})
        if left > 0:
            out.append({"action": "all_in", "amount": money_text_cents(left)})
        return out


def next_step(data: Mapping, rules: HoldemBlackjackRules | None = None) -> dict:
    """What the table expects next in the partly recorded hand ``data``.

    Returns ``{"phase", "posts", "deal", "to_act", "options", "totals", "pot"}``:

    * ``posts``: the antes and blinds still due, as log actions (phase ``posts``);
    * ``deal``: ``{"action": "hole"|"up", "seat": n}`` when a card is due to a seat;
    * ``to_act`` and ``options``: the seat whose turn it is and its legal actions, with the
      amounts to record (``amount`` = chips this action puts in); in hand completion the
      options are ``hit`` and ``stand`` (only ``stand`` for a busted hand or a full one);
    * ``totals``: each seat's blackjack total so far; ``pot``: chips in so far.
    """
    rules = rules or HoldemBlackjackRules()
    hand = _Hand(data, rules)
    result: dict = {
        "phase": hand.phase,
        "posts": [],
        "deal": None,
        "to_act": None,
        "options": [],
        "totals": {str(s): _total(c) for s, c in hand.cards.items() if c},
        "folded": sorted(hand.folded),
        "all_in": sorted(hand.all_in),
        "pot": money_text_cents(
            sum(_cents(s.get("stack")) for s in data.get("seats", ()) if isinstance(s, Mapping))
            - sum(hand.left.values())
        ),
    }
    if hand.phase == POSTS:
        due = []
        if hand.ante:
            due += [
                {
                    "action": "ante",
                    "seat": s,
                    "amount": money_text_cents(min(hand.ante, hand.left.get(s, 0))),
                }
                for s in hand.clock
                if s not in hand.posted["ante"]
            ]
        if hand.sb_seat is not None and not hand.posted["small_blind"]:
            due.append(
                {
                    "action": "small_blind",
                    "seat": hand.sb_seat,
                    "amount": money_text_cents(min(hand.sb, hand.left.get(hand.sb_seat, 0))),
                }
            )
        if hand.bb_seat is not None and not hand.posted["big_blind"]:
            due.append(
                {
                    "action": "big_blind",
                    "seat": hand.bb_seat,
                    "amount": money_text_cents(min(hand.bb, hand.left.get(hand.bb_seat, 0))),
                }
            )
        result["posts"] = due
        if not due and hand.clock:
            result["phase"] = HOLE
            result["deal"] = {"action": "hole", "seat": hand.live()[0]}
        return result
    if hand.phase in (HOLE, UP):
        dealt = hand.hole if hand.phase == HOLE else hand.up
        waiting = [s for s in hand.live() if s not in dealt]
        if waiting:
            result["deal"] = {"action": "hole" if hand.phase == HOLE else "up", "seat": waiting[0]}
        return result
    if hand.phase in BETTING:
        seat = hand.to_act()
        result["to_act"] = seat
        if seat is not None:
            result["options"] = hand.options(seat)
        return result
    if hand.phase == COMPLETE:
        for s in hand.live():
            if s not in hand.stood:
                cards = hand.cards.get(s, [])
                result["to_act"] = s
                busted_or_full = _total(cards) > 21 or len(cards) >= rules.max_cards
                result["options"] = (
                    [{"action": "stand"}]
                    if busted_or_full
                    else [{"action": "hit"}, {"action": "stand"}]
                )
                break
        return result
    return result
